//! [`GameStart`]: where a game's bytes are in the input, as the reader
//! hands them to a visitor and as diagnostics are placed from.

use crate::encoding::Encoding;

/// Where a game's bytes are in the input.
#[derive(Debug, Clone, Copy)]
pub struct GameStart<'a> {
    /// The game's bytes.
    pub bytes: &'a [u8],
    /// The absolute offset of its first byte.
    pub offset: u64,
    /// The 1-based line of its first byte.
    pub line: u64,
    /// The 1-based column of its first byte on that line, in characters
    /// (a game may start after the previous game's marker on its line).
    pub column: u64,
}

impl<'a> From<pgnkit_lexer::RawGame<'a>> for GameStart<'a> {
    fn from(raw: pgnkit_lexer::RawGame<'a>) -> GameStart<'a> {
        GameStart {
            bytes: raw.bytes,
            offset: raw.offset,
            line: raw.line,
            column: raw.column,
        }
    }
}

impl GameStart<'_> {
    /// The game's encoding: UTF-8 when all its bytes are valid UTF-8,
    /// otherwise Latin-1.
    pub fn encoding(&self) -> Encoding {
        // Most games are plain ASCII, which `is_ascii` settles several bytes
        // at a time, far faster than a full UTF-8 validation.
        if self.bytes.is_ascii() || std::str::from_utf8(self.bytes).is_ok() {
            Encoding::Utf8
        } else {
            Encoding::Latin1
        }
    }
}
