//! [`RawGame`]: one game's bytes as the splitter and the streaming reader hand them out, with
//! where they are. It sits below both and below the single pass, which all lend it.

/// One game's bytes, exactly as in the input, with where they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RawGame<'a> {
    /// The game's original text, from its first byte that is not white space up to the next
    /// game (trailing white space included).
    pub bytes: &'a [u8],
    /// Byte offset of `bytes` in the whole input.
    pub offset: u64,
    /// 1-based line of the first byte of `bytes` in the whole input.
    pub line: u64,
    /// 1-based column of the first byte of `bytes` on its line, in characters (a game may
    /// start after the previous one's marker on the same line; a byte order mark counts none).
    pub column: u64,
}
