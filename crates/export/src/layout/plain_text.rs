//! Comment texts already in export shape, found eight bytes at a time: a
//! text is plain when it holds only printable ASCII other than `}` and its
//! words are single-spaced; then its spaces are the only places a line may
//! break, and [`plain_spaces`] gives them as a bitmask.

/// One in every byte of a `u64`.
pub(super) const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a `u64`.
pub(super) const HIGHS: u64 = ONES * 0x80;

/// The low seven bits of every byte of a `u64`.
pub(super) const LOWS: u64 = !HIGHS;

/// The last `n` (1 to 7) bytes of `text` as a little-endian `u64`, the
/// missing bytes read as `a` (ASCII, not white space, not `}`).
#[inline]
pub(super) fn tail_chunk(text: &[u8], n: usize) -> u64 {
    let padding = ONES * u64::from(b'a');
    let bits = 8 * n as u32;
    match text.last_chunk::<8>() {
        // The last eight bytes, shifted so that the last `n` come first.
        Some(last) => (u64::from_le_bytes(*last) >> (64 - bits)) | (padding << bits),
        None => {
            let mut chunk = padding.to_le_bytes();
            let rest = text.get(text.len().saturating_sub(n)..).unwrap_or_default();
            for (c, &b) in chunk.iter_mut().zip(rest) {
                *c = b;
            }
            u64::from_le_bytes(chunk)
        }
    }
}

/// The high bit set in each byte of `x` equal to `byte`, and no other bit.
#[inline]
pub(super) fn byte_mask(x: u64, byte: u8) -> u64 {
    let v = x ^ (ONES * u64::from(byte));
    // A byte of `v` is zero iff neither its low seven bits (plus 0x7f,
    // which cannot carry into the next byte) nor its own high bit set the
    // high bit.
    !(((v & LOWS) + LOWS) | v) & HIGHS
}

/// One bit per byte of a [`byte_mask`]-style mask: bit `j` is byte `j`'s
/// high bit.
#[inline]
pub(super) fn gather_bits(mask: u64) -> u64 {
    ((mask >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The length of the blocks a long plain text is checked in (see
/// [`long_plain_spaces`]): the bits of a `u64`.
pub(super) const PLAIN_BLOCK: usize = 64;

/// The positions of the spaces in `text` (a comment's text from its first
/// word), bit `i` for `text[i]`, if the text is plain; else `None`.
///
/// Plain means already as export format writes it, so that each space is
/// a word boundary and characters are bytes: at most 64 bytes, all of them
/// printable ASCII below `}`, or single spaces between words.
pub(super) fn plain_spaces(text: &[u8]) -> Option<u64> {
    if text.len() > PLAIN_BLOCK || text.last() == Some(&b' ') {
        return None;
    }
    block_spaces(text)
}

/// The positions of the spaces in `block` (at most 64 bytes), bit `i` for
/// `block[i]`, if all its bytes are printable ASCII below `}` or spaces and
/// no two spaces are next to each other; else `None`.
pub(super) fn block_spaces(block: &[u8]) -> Option<u64> {
    let mut scan = PlainScan::default();
    let (chunks, rest) = block.as_chunks::<8>();
    for (k, chunk) in chunks.iter().enumerate() {
        scan.add(u64::from_le_bytes(*chunk), 8 * k);
        // Leaving early also keeps the compiler from vectorizing this loop,
        // which is slower for the few chunks of a comment.
        if scan.bad != 0 {
            return None;
        }
    }
    if !rest.is_empty() {
        scan.add(tail_chunk(block, rest.len()), 8 * chunks.len());
    }
    // Two spaces in a row are two bits in a row.
    let double = scan.spaces & (scan.spaces >> 1);
    (scan.bad == 0 && double == 0).then_some(scan.spaces)
}

/// The most blocks [`long_plain_spaces`] takes: texts up to 1 KB (longer
/// comments are rare and take the general path).
pub(super) const PLAIN_BLOCKS: usize = 16;

/// The spaces of each block of 64 bytes of `text` (a comment's text from
/// its first word to its last, at most [`PLAIN_BLOCKS`] blocks long), as
/// [`block_spaces`] finds them, if `text` is plain as [`plain_spaces`]
/// means it: each block is, and no two spaces meet where blocks join.
pub(super) fn long_plain_spaces(text: &[u8]) -> Option<[u64; PLAIN_BLOCKS]> {
    if text.len() > PLAIN_BLOCK * PLAIN_BLOCKS || text.last() == Some(&b' ') {
        return None;
    }
    let mut masks = [0u64; PLAIN_BLOCKS];
    let mut space_before = false;
    for (mask, block) in masks.iter_mut().zip(text.chunks(PLAIN_BLOCK)) {
        let spaces = block_spaces(block)?;
        if space_before && spaces & 1 != 0 {
            return None;
        }
        space_before = block.last() == Some(&b' ');
        *mask = spaces;
    }
    Some(masks)
}

/// The state of [`plain_spaces`] over eight bytes at a time.
#[derive(Debug, Default)]
pub(super) struct PlainScan {
    /// Nonzero once a byte that is not plain was seen.
    pub(super) bad: u64,
    /// One bit per space seen.
    pub(super) spaces: u64,
}

impl PlainScan {
    /// Looks at the chunk `x` holding the bytes from `at`.
    #[inline]
    pub(super) fn add(&mut self, x: u64, at: usize) {
        // High bit set in bytes from `}` up (no carry crosses a byte) and in
        // bytes that are not ASCII.
        let high = ((x & LOWS) + ONES * (0x80 - 0x7d)) | x;
        // Nonzero iff some byte is below 0x20 (exact as a yes or no).
        let control = x.wrapping_sub(ONES * 0x20) & !x;
        self.bad |= (high | control) & HIGHS;
        self.spaces |= gather_bits(byte_mask(x, b' ')) << at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_comment_texts() {
        assert_eq!(plain_spaces(b"[%clk 0:10:00]"), Some(1 << 5));
        assert_eq!(plain_spaces(b"word"), Some(0));
        // Spaces past the first chunk, and a pair across a chunk boundary.
        assert_eq!(plain_spaces(b"abcdefgh ijklmnop q"), Some(1 << 8 | 1 << 17));
        assert_eq!(plain_spaces(b"abcdefg  hij"), None);
        for text in [
            &b"a  b"[..],
            b"a b ",
            b"a\tb",
            b"a\nb",
            b"a}b",
            b"a~b",
            "é".as_bytes(),
            b"a\x7fb",
        ] {
            assert_eq!(plain_spaces(text), None, "{text:?}");
        }
        let long = [b'x'; 64];
        assert_eq!(plain_spaces(&long), Some(0));
        assert_eq!(plain_spaces(&[b'x'; 65]), None);
    }
    #[test]
    fn tail_chunks_pad_with_a_plain_byte() {
        assert_eq!(tail_chunk(b"abc", 3).to_le_bytes(), *b"abcaaaaa");
        assert_eq!(tail_chunk(b"0123456789", 2).to_le_bytes(), *b"89aaaaaa");
        assert_eq!(tail_chunk(b"01234567", 7).to_le_bytes(), *b"1234567a");
    }
    #[test]
    fn byte_masks_and_bits() {
        let x = u64::from_le_bytes(*b"a b  c d");
        let mask = byte_mask(x, b' ');
        assert_eq!(gather_bits(mask), 0b0101_1010);
        assert_eq!(
            byte_mask(u64::from_le_bytes(*b"\xa0 \x00\x20zzzz"), b' '),
            0x80 << 8 | 0x80 << 24
        );
    }
}
