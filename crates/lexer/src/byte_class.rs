//! The 256-entry byte class table the lexer and the splitter dispatch on.

/// White space: space, TAB, LF, CR, VT, FF.
pub(crate) const WS: u8 = 0;
/// A letter `A-Z a-z`.
pub(crate) const LETTER: u8 = 1;
/// A digit `0-9`.
pub(crate) const DIGIT: u8 = 2;
/// A symbol character that cannot start a symbol: `_ + # = : - /`.
pub(crate) const SYMBOL_REST: u8 = 3;
/// A character with a rule of its own (`[ ] ( ) < > " { } ; % . * $ ! ? @`).
pub(crate) const PUNCT: u8 = 4;
/// An ASCII control character other than white space, or DEL.
pub(crate) const CONTROL: u8 = 5;
/// A byte of 0x80 and above (UTF-8 or Latin-1 text).
pub(crate) const HIGH: u8 = 6;
/// Printable ASCII that no rule accepts (`! "` aside: `& ' , \ ^ ` | ~` and the like).
pub(crate) const OTHER: u8 = 7;

/// The UTF-8 byte order mark, skipped where a game or the input starts.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// Length of the byte order mark `bytes` starts with: 3, or 0 without one.
pub(crate) fn bom_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(BOM) { BOM.len() } else { 0 }
}

/// The class of every byte.
pub(crate) static CLASS: [u8; 256] = build();

const fn build() -> [u8; 256] {
    let mut t = [OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = match b {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => WS,
            b'A'..=b'Z' | b'a'..=b'z' => LETTER,
            b'0'..=b'9' => DIGIT,
            b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/' => SYMBOL_REST,
            b'[' | b']' | b'(' | b')' | b'<' | b'>' | b'"' | b'{' | b'}' | b';' | b'%' | b'.'
            | b'*' | b'$' | b'!' | b'?' | b'@' => PUNCT,
            0..=0x1f | 0x7f => CONTROL,
            0x80..=0xff => HIGH,
            _ => OTHER,
        };
        i += 1;
    }
    t
}

/// Whether `b` continues a symbol (`A-Z a-z 0-9 _ + # = : - /`).
#[inline(always)]
pub(crate) fn is_symbol_continue(b: u8) -> bool {
    symbol_continue(b) != 0
}

/// 1 if `b` continues a symbol, else 0: one load, to be combined without branches.
#[inline(always)]
pub(crate) fn symbol_continue(b: u8) -> u8 {
    SYMBOL_CONTINUE[b as usize]
}

/// [`symbol_continue`] of every byte.
const SYMBOL_CONTINUE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = matches!(CLASS[i], LETTER | DIGIT | SYMBOL_REST) as u8;
        i += 1;
    }
    t
};

/// Whether `b` is white space.
#[inline(always)]
pub(crate) fn is_ws(b: u8) -> bool {
    CLASS[b as usize] == WS
}

/// Whether `b` is an ASCII control character that is not white space (the lexer's
/// [`ControlCharacter`](crate::LexErrorKind::ControlCharacter) bytes).
#[inline(always)]
pub(crate) fn is_control(b: u8) -> bool {
    CLASS[b as usize] == CONTROL
}

/// Whether `b` may be part of a tag name (`A-Z a-z 0-9 _`).
#[inline(always)]
pub(crate) fn is_tag_name(b: u8) -> bool {
    TAG_NAME[b as usize]
}

/// `A-Z a-z 0-9 _`.
const TAG_NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).is_ascii_alphanumeric() || i == b'_' as usize;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(CLASS[b'\x0b' as usize], WS);
        assert_eq!(CLASS[b'Q' as usize], LETTER);
        assert_eq!(CLASS[b'7' as usize], DIGIT);
        assert_eq!(CLASS[b'/' as usize], SYMBOL_REST);
        assert_eq!(CLASS[b'$' as usize], PUNCT);
        assert_eq!(CLASS[0x01], CONTROL);
        assert_eq!(CLASS[0x7f], CONTROL);
        assert_eq!(CLASS[0xbd], HIGH);
        assert_eq!(CLASS[b'~' as usize], OTHER);
        assert!(is_symbol_continue(b'#') && !is_symbol_continue(b'.'));
        assert!(is_tag_name(b'_') && !is_tag_name(b'-'));
    }
}
