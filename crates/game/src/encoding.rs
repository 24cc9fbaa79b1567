//! [`Encoding`]: how a game's bytes were decoded (UTF-8, or Latin-1 when
//! they are not UTF-8), and [`decode`], the one place bytes become text
//! that way, for tags, comments and the model alike.

/// How the game's bytes were decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Every byte of the game was valid UTF-8.
    #[default]
    Utf8,
    /// Not valid UTF-8: every string and comment was read as Latin-1.
    Latin1,
}

/// Decodes bytes as UTF-8 (lossy, for safety) or Latin-1.
pub fn decode(bytes: &[u8], encoding: Encoding) -> String {
    let mut text = String::with_capacity(bytes.len());
    decode_into(bytes, encoding, &mut text);
    text
}

/// [`decode`], appending to `text`.
pub(crate) fn decode_into(bytes: &[u8], encoding: Encoding, text: &mut String) {
    match encoding {
        Encoding::Utf8 => match std::str::from_utf8(bytes) {
            Ok(valid) => text.push_str(valid),
            Err(_) => text.push_str(&String::from_utf8_lossy(bytes)),
        },
        Encoding::Latin1 => text.extend(bytes.iter().map(|&b| char::from(b))),
    }
}
