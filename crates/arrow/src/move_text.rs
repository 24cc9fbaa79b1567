//! [`MoveText`]: a move's short ASCII texts (SAN, UCI, a square) held inline, so that a
//! moves-table row allocates nothing for them.

use pgnkit_chess::Square;

/// A short ASCII text held inline (SAN with its suffix is at most 8
/// bytes, UCI 5, a square 2): a move's row allocates nothing for them.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MoveText {
    len: u8,
    bytes: [u8; 8],
}

impl MoveText {
    /// The text, truncated to 8 bytes (every SAN, UCI and square fits).
    pub fn new(text: &str) -> MoveText {
        MoveText::from_ascii(text.as_bytes())
    }

    /// ASCII bytes (SAN, UCI, a square), truncated to 8 bytes.
    pub(crate) fn from_ascii(text: &[u8]) -> MoveText {
        let mut bytes = [0; 8];
        let len = text.len().min(8);
        bytes[..len].copy_from_slice(&text[..len]);
        MoveText {
            len: len as u8,
            bytes,
        }
    }

    /// The first `len` bytes of `bytes` (ASCII), taken as they are: no copy of a
    /// variable length (a call of `memcpy` per text, three a move).
    ///
    /// The bytes past `len` are cleared with a mask on the 8 bytes as one word: a `fill`
    /// of a variable length was a call of `memset`, two a move.
    #[inline]
    pub(crate) fn from_array(bytes: [u8; 8], len: usize) -> MoveText {
        let len = len.min(8);
        let keep = u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0);
        let bytes = (u64::from_le_bytes(bytes) & keep).to_le_bytes();
        MoveText {
            len: len as u8,
            bytes,
        }
    }

    /// A square's name (`e4`).
    #[inline]
    pub(crate) fn square(square: Square) -> MoveText {
        let name = [square.file().char() as u8, square.rank().char() as u8];
        MoveText::from_array([name[0], name[1], 0, 0, 0, 0, 0, 0], 2)
    }

    /// The text's 8 bytes, zero after its length, and its length: for appending a
    /// fixed-size copy.
    #[inline]
    pub(crate) fn padded(&self) -> (&[u8; 8], usize) {
        (&self.bytes, usize::from(self.len))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Built from whole ASCII texts only (`new` takes SAN, UCI, squares).
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The text's bytes (ASCII: SAN, UCI, a square).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for MoveText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_text_from_an_array_keeps_its_length_and_clears_the_rest() {
        for len in 0..=9 {
            let text = MoveText::from_array(*b"Nbxd7=Q#", len);
            assert_eq!(text, MoveText::from_ascii(&b"Nbxd7=Q#"[..len.min(8)]));
            assert_eq!(text.padded().0[len.min(8)..], [0; 8][len.min(8)..]);
        }
    }
}
