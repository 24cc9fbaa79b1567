//! Sizes people write (`16M`, `64MiB`, `2GiB`), parsed one way for every front-end:
//! [`parse_size`].
//!
//! The rule: a whole number, optionally with a fraction (`1.5G`), then optionally a unit, case
//! insensitive, with or without a space before it. Every unit is a binary multiple, whether
//! spelled `K`, `KB` or `KiB`: K = 1024, M = 1024², G = 1024³, T = 1024⁴; `B` (or nothing) is
//! bytes. A size is at least one byte and fits in 64 bits. (`KB` meaning 1024 is what memory
//! sizes and most tools' options mean; a front-end never reads it as 1000.)

/// Why a text is not a size.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SizeError {
    /// Nothing given.
    #[error("a size is a number of bytes with an optional unit (e.g. 16M, 64MiB), not nothing")]
    Empty,
    /// Not a number with a unit.
    #[error("`{0}` is not a size (e.g. 16M, 64MiB, 2GiB)")]
    Malformed(String),
    /// A unit we do not know.
    #[error("`{text}`: unknown unit `{unit}`; use K, M, G or T (KB/KiB, ...: all powers of 1024)")]
    Unit {
        /// The text given.
        text: String,
        /// The unit in it.
        unit: String,
    },
    /// Zero bytes.
    #[error("`{0}`: the size must be at least 1 byte")]
    Zero(String),
    /// More than 64 bits hold.
    #[error("`{0}` is too large")]
    Overflow(String),
}

/// The bytes `text` means, by the rule in the module's docs: `"16K"`, `"16KB"` and `"16KiB"`
/// are all 16,384; `"1.5M"` is 1,572,864; `"123"` is 123.
///
/// ```
/// use pgnkit_input::parse_size;
/// assert_eq!(parse_size("16K"), Ok(16 << 10));
/// assert_eq!(parse_size("64 MiB"), Ok(64 << 20));
/// assert_eq!(parse_size("2gb"), Ok(2 << 30));
/// assert!(parse_size("lots").is_err());
/// ```
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(SizeError::Empty);
    }
    let malformed = || SizeError::Malformed(text.to_owned());
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let unit = unit.trim_start();
    if number.is_empty() {
        return Err(malformed());
    }
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ if unit.chars().all(|c| c.is_ascii_alphabetic()) => {
            return Err(SizeError::Unit {
                text: text.to_owned(),
                unit: unit.to_owned(),
            });
        }
        _ => return Err(malformed()),
    };
    let (whole, fraction) = match number.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (number, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(malformed());
    }
    let overflow = || SizeError::Overflow(text.to_owned());
    let whole: u64 = whole.parse().map_err(|_| overflow())?;
    let mut bytes = whole.checked_mul(1 << shift).ok_or_else(overflow)?;
    // The fraction, to the byte below (`0.1K` is 102 bytes); digits past the 18th change
    // nothing a 64-bit size can hold.
    let mut part = 0u128;
    let mut scale = 1u128;
    for digit in fraction.bytes().take(18) {
        part = part * 10 + u128::from(digit - b'0');
        scale *= 10;
    }
    let extra = u64::try_from((part << shift) / scale).map_err(|_| overflow())?;
    bytes = bytes.checked_add(extra).ok_or_else(overflow)?;
    if bytes == 0 {
        return Err(SizeError::Zero(text.to_owned()));
    }
    Ok(bytes)
}

/// `bytes` as [`parse_size`] reads it back, in the largest binary unit that divides it:
/// `128MiB`, `2GiB`, `1536KiB`, `1000` (bytes).
pub fn format_size(bytes: u64) -> String {
    for (shift, unit) in [(40, "TiB"), (30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_binary_multiples_in_any_spelling() {
        for (text, bytes) in [
            ("123", 123),
            ("123B", 123),
            ("16K", 16 << 10),
            ("16k", 16 << 10),
            ("16KB", 16 << 10),
            ("16kb", 16 << 10),
            ("16KiB", 16 << 10),
            ("16 KiB", 16 << 10),
            (" 64MiB ", 64 << 20),
            ("64mb", 64 << 20),
            ("2G", 2 << 30),
            ("2GiB", 2 << 30),
            ("1T", 1 << 40),
            ("1.5M", 3 << 19),
            ("0.5K", 512),
            ("0.1K", 102),
            ("1.", 1),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text:?}");
        }
    }

    #[test]
    fn garbage_empty_zero_and_overflow_are_refused() {
        assert_eq!(parse_size(""), Err(SizeError::Empty));
        assert_eq!(parse_size("  "), Err(SizeError::Empty));
        for text in [
            "lots", "K", "-1", "1-K", "1.2.3M", ".5K", "1 2", "1e3", "0x10",
        ] {
            assert!(
                matches!(
                    parse_size(text),
                    Err(SizeError::Malformed(_) | SizeError::Unit { .. })
                ),
                "{text:?}: {:?}",
                parse_size(text)
            );
        }
        assert!(matches!(parse_size("16X"), Err(SizeError::Unit { unit, .. }) if unit == "X"));
        assert!(matches!(parse_size("16 PB"), Err(SizeError::Unit { .. })));
        assert!(matches!(parse_size("0"), Err(SizeError::Zero(_))));
        assert!(matches!(parse_size("0.0001K"), Err(SizeError::Zero(_))));
        assert!(matches!(
            parse_size("18446744073709551616"),
            Err(SizeError::Overflow(_))
        ));
        assert!(matches!(
            parse_size("16777216T"),
            Err(SizeError::Overflow(_))
        ));
        assert_eq!(parse_size("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn formatted_sizes_read_back() {
        for bytes in [
            1,
            1000,
            1024,
            1536 << 10,
            128 << 20,
            2 << 30,
            3 << 40,
            u64::MAX,
        ] {
            assert_eq!(parse_size(&format_size(bytes)), Ok(bytes), "{bytes}");
        }
        assert_eq!(format_size(128 << 20), "128MiB");
        assert_eq!(format_size(1000), "1000");
    }

    #[test]
    fn messages_say_what_is_wrong() {
        assert_eq!(
            parse_size("16X").map_err(|e| e.to_string()),
            Err(
                "`16X`: unknown unit `X`; use K, M, G or T (KB/KiB, ...: all powers of 1024)"
                    .into()
            )
        );
        assert_eq!(
            parse_size("lots").map_err(|e| e.to_string()),
            Err("`lots` is not a size (e.g. 16M, 64MiB, 2GiB)".into())
        );
    }
}
