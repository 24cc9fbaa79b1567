//! Telling what an input holds from its first bytes ([`detect`]), never from its name.

/// Bytes [`detect`] wants to see (fewer at the end of a short input).
pub const HEAD_LEN: usize = 4096;

/// What an input's first bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Text: UTF-8, Latin-1 or ASCII, read as is.
    Text,
    /// UTF-16 little-endian text with its byte order mark.
    Utf16Le,
    /// UTF-16 big-endian text with its byte order mark.
    Utf16Be,
    /// zstd frames (a zstd frame or a skippable frame first).
    Zstd,
    /// gzip members.
    Gzip,
    /// bzip2 streams.
    Bzip2,
    /// xz streams.
    Xz,
    /// A zip archive.
    Zip,
    /// Something we do not read; the text says what it looks like.
    Refused(&'static str),
}

impl Format {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Utf16Le => "UTF-16LE text",
            Format::Utf16Be => "UTF-16BE text",
            Format::Zstd => "zstd",
            Format::Gzip => "gzip",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
            Format::Zip => "zip",
            Format::Refused(what) => what,
        }
    }
}

/// Magic numbers of formats we refuse, with what they look like.
const REFUSED: &[(&[u8], &str)] = &[
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"),
    (b"Rar!\x1a\x07", "a rar archive"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"\x7fELF", "an ELF executable"),
    (b"\x04\x22\x4d\x18", "an lz4 file"),
    (b"SQLite format 3\0", "an SQLite database"),
    (b"\xca\xfe\xba\xbe", "a Java class or Mach-O file"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "an MS Office (OLE) document",
    ),
    (b"PAR1", "a Parquet file"),
    (b"ARROW1", "an Arrow file"),
    (b"\x1f\x9d", "a compress (.Z) file"),
];

/// What `head` (the input's first bytes, up to [`HEAD_LEN`]) is.
///
/// Compressed formats by their magic numbers; a skippable zstd frame (pzstd's index) counts as
/// zstd. Archives and binary formats we do not read are [`Format::Refused`], and so is text
/// without a UTF-16 byte order mark where NUL bytes are more than 1 in 100 (UTF-16 without a
/// mark, UTF-32, or any binary file): PGN text has none.
pub fn detect(head: &[u8]) -> Format {
    let starts = |magic: &[u8]| head.starts_with(magic);
    if starts(b"\x28\xb5\x2f\xfd") {
        return Format::Zstd;
    }
    if let [b0, 0x2a, 0x4d, 0x18, ..] = head
        && b0 & 0xf0 == 0x50
    {
        return Format::Zstd;
    }
    if starts(b"\x1f\x8b") {
        return Format::Gzip;
    }
    if starts(b"BZh") && head.get(3).is_some_and(|d| (b'1'..=b'9').contains(d)) {
        return Format::Bzip2;
    }
    if starts(b"\xfd7zXZ\0") {
        return Format::Xz;
    }
    if starts(b"PK\x03\x04") || starts(b"PK\x05\x06") {
        return Format::Zip;
    }
    if starts(b"\xff\xfe\0\0") || starts(b"\0\0\xfe\xff") {
        return Format::Refused("UTF-32 text");
    }
    if starts(b"\xff\xfe") {
        return Format::Utf16Le;
    }
    if starts(b"\xfe\xff") {
        return Format::Utf16Be;
    }
    for (magic, what) in REFUSED {
        if starts(magic) {
            return Format::Refused(what);
        }
    }
    if head.get(257..262) == Some(b"ustar") {
        return Format::Refused("a tar archive");
    }
    let nuls = memchr_count(head);
    if nuls > 0 && nuls * 100 > head.len() {
        return Format::Refused("binary data, not PGN text (NUL bytes)");
    }
    Format::Text
}

/// NUL bytes in `bytes`.
fn memchr_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == 0).count()
}

/// Advice for a refused format.
pub(crate) fn hint(format: Format) -> &'static str {
    match format {
        Format::Refused(what) if what.ends_with("archive") => ": extract it first",
        Format::Refused(what) if what.contains("NUL") => " (UTF-16 needs its byte order mark)",
        _ => "",
    }
}

/// The least bytes looked at before calling an input binary.
const BINARY_SNIFF_MIN: usize = 64;

/// The message for `name` when `head` (an input's first bytes) is binary data rather than
/// text: NUL bytes, and control characters (not TAB, LF, CR, VT, FF) making at least one byte
/// in twenty. Text has almost none (a stray NUL in a tag section is reported as that game's
/// error); `/dev/zero`, `/dev/urandom`, images, executables and UTF-16 without a byte order
/// mark have far more. [`open`](fn@crate::open) refuses every stream it opens by this rule
/// ([`InputError::Binary`](crate::InputError::Binary)).
pub fn binary_message(name: &str, head: &[u8]) -> Option<String> {
    binary_counts(head).map(|(control, len)| {
        let error = crate::InputError::Binary {
            name: name.to_owned(),
            control,
            len,
        };
        format!("cannot read {error}")
    })
}

/// The control bytes and bytes looked at when `head` is binary data by
/// [`binary_message`]'s rule.
pub(crate) fn binary_counts(head: &[u8]) -> Option<(usize, usize)> {
    if head.len() < BINARY_SNIFF_MIN || !head.contains(&0) {
        return None;
    }
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || b == 0x7f)
        .count();
    (control * 20 >= head.len()).then_some((control, head.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers() {
        assert_eq!(detect(b"\x28\xb5\x2f\xfd\x04"), Format::Zstd);
        assert_eq!(detect(b"\x50\x2a\x4d\x18\x04\0\0\0"), Format::Zstd);
        assert_eq!(detect(b"\x5e\x2a\x4d\x18"), Format::Zstd);
        assert_eq!(detect(b"\x1f\x8b\x08"), Format::Gzip);
        assert_eq!(detect(b"BZh91AY&SY"), Format::Bzip2);
        assert_eq!(detect(b"BZhx"), Format::Text);
        assert_eq!(detect(b"\xfd7zXZ\0\0"), Format::Xz);
        assert_eq!(detect(b"PK\x03\x04"), Format::Zip);
        assert_eq!(
            detect(b"7z\xbc\xaf\x27\x1c\0"),
            Format::Refused("a 7z archive")
        );
        assert_eq!(detect(b"\x89PNG\r\n\x1a\n"), Format::Refused("a PNG image"));
        assert_eq!(detect(b"\xff\xfe[\0E\0"), Format::Utf16Le);
        assert_eq!(detect(b"\xfe\xff\0[\0E"), Format::Utf16Be);
        assert_eq!(detect(b"[Event \"x\"]\n"), Format::Text);
        assert_eq!(detect(b"\xef\xbb\xbf[Event \"x\"]\n"), Format::Text);
        assert_eq!(detect(b""), Format::Text);
    }

    #[test]
    fn tar_and_nul_heavy_text() {
        let mut tar = vec![b'a'; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(detect(&tar), Format::Refused("a tar archive"));
        let utf16_without_bom: Vec<u8> = b"[Event \"x\"]".iter().flat_map(|&b| [b, 0]).collect();
        assert!(matches!(detect(&utf16_without_bom), Format::Refused(_)));
        let mut text = vec![b'e'; 1000];
        text[5] = 0;
        assert_eq!(detect(&text), Format::Text, "one stray NUL is not binary");
    }
}
