//! Numeric annotation glyphs (`$1` … `$255`).

use std::fmt;

/// A numeric annotation glyph, `$0` to `$255`.
///
/// ```
/// use pgnkit_game::Nag;
/// assert_eq!(Nag::from_suffix(b"!?"), Some(Nag::SPECULATIVE_MOVE));
/// assert_eq!(Nag(14).to_string(), "$14");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nag(pub u8);

impl Nag {
    /// `$1`, `!`.
    pub const GOOD_MOVE: Nag = Nag(1);
    /// `$2`, `?`.
    pub const MISTAKE: Nag = Nag(2);
    /// `$3`, `!!`.
    pub const BRILLIANT_MOVE: Nag = Nag(3);
    /// `$4`, `??`.
    pub const BLUNDER: Nag = Nag(4);
    /// `$5`, `!?`.
    pub const SPECULATIVE_MOVE: Nag = Nag(5);
    /// `$6`, `?!`.
    pub const DUBIOUS_MOVE: Nag = Nag(6);

    /// The NAG of a move suffix annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn from_suffix(suffix: &[u8]) -> Option<Nag> {
        Some(match suffix {
            b"!" => Nag::GOOD_MOVE,
            b"?" => Nag::MISTAKE,
            b"!!" => Nag::BRILLIANT_MOVE,
            b"??" => Nag::BLUNDER,
            b"!?" => Nag::SPECULATIVE_MOVE,
            b"?!" => Nag::DUBIOUS_MOVE,
            _ => return None,
        })
    }

    /// Parses the digits of a NAG (without the `$`): leading zeros are
    /// allowed (`01` is 1). `None` when empty, not digits, or above 255.
    pub fn from_digits(digits: &[u8]) -> Option<Nag> {
        if digits.is_empty() {
            return None;
        }
        let mut value: u32 = 0;
        for &b in digits {
            if !b.is_ascii_digit() {
                return None;
            }
            value = value * 10 + u32::from(b - b'0');
            if value > 255 {
                return None;
            }
        }
        u8::try_from(value).ok().map(Nag)
    }
}

impl fmt::Display for Nag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits() {
        assert_eq!(Nag::from_digits(b"01"), Some(Nag(1)));
        assert_eq!(Nag::from_digits(b"0"), Some(Nag(0)));
        assert_eq!(Nag::from_digits(b"255"), Some(Nag(255)));
        assert_eq!(Nag::from_digits(b"256"), None);
        assert_eq!(Nag::from_digits(b"000000000000007"), Some(Nag(7)));
        assert_eq!(Nag::from_digits(b"99999999999999999999"), None);
        assert_eq!(Nag::from_digits(b""), None);
        assert_eq!(Nag::from_digits(b"1a"), None);
    }

    #[test]
    fn suffixes() {
        assert_eq!(Nag::from_suffix(b"??"), Some(Nag(4)));
        assert_eq!(Nag::from_suffix(b"?!"), Some(Nag(6)));
        assert_eq!(Nag::from_suffix(b"!!!"), None);
    }
}
