//! The movetext scan's structural-character classifier: a block of 32 bytes is classified once,
//! with plain comparisons on byte arrays that the compiler turns into SSE2 vector instructions
//! (`pcmpeqb`, `pminub`, `pand`, `por`), into one flag byte per input byte: the high nibble
//! set when the movetext scan must stop there, the low nibble when a brace comment may end
//! there. The flags stay in two `u128` halves; the next stop, or the next comment end, is
//! their trailing zeros after masking, so a densely commented game (a move and its clock
//! comment every twenty bytes) finds both in a block that is classified only once.
//!
//! `std::arch` would give `pmovmskb` (a bitmask per block, walked bit by bit in the simdjson
//! manner), but its intrinsics need `unsafe`, which the workspace forbids, and the compiler
//! does not turn plain code into `pmovmskb`: gathering the bits with multiplies costs more than
//! the classification. Flag bytes need no gathering.
//!
//! The classes are branchless byte predicates (`|`, not `||`), so that they vectorize. The
//! block that would run past the input is the input's last 32 bytes instead (or, in an input
//! shorter than that, the input padded with spaces, which are in no class), so the search is
//! exact at every block boundary and at the end.

/// Bytes classified at a time.
const BLOCK: usize = 32;

/// The flag nibbles of the two classes.
#[derive(Clone, Copy)]
pub(crate) enum Class {
    /// Bytes the movetext scan stops at (`stops_movetext`).
    Stop = 0xf0,
    /// Bytes that may end a brace comment: `}` and control bytes.
    CommentEnd = 0x0f,
}

/// `Class` as a mask over a half of flag bytes.
#[inline(always)]
fn class_mask(class: Class) -> u128 {
    u128::from_ne_bytes([class as u8; 16])
}

/// The classified block: the flags of `buf[base..base + BLOCK]`.
pub(crate) struct Blocks {
    base: usize,
    low: u128,
    high: u128,
}

impl Blocks {
    /// No block classified yet: `base` is so far from any index of a slice (at most
    /// `isize::MAX` long) that the distance to it is never within a block.
    pub(crate) fn new() -> Blocks {
        Blocks {
            base: usize::MAX / 2 + 1,
            low: 0,
            high: 0,
        }
    }

    /// Index of the first byte of `class` at or after `from`, else `buf.len()` (`from` itself
    /// when past the end); the search gives up at the first block that starts at or after
    /// `limit` and returns that block's start (no byte of `class` lies before it).
    #[inline(always)]
    pub(crate) fn find(
        &mut self,
        buf: &[u8],
        from: usize,
        class: Class,
        stops: impl Fn(u8) -> bool + Copy,
        limit: usize,
    ) -> usize {
        let mut at = from;
        loop {
            if at >= buf.len() || at >= limit {
                return at;
            }
            let mut skip = at.wrapping_sub(self.base);
            if skip >= BLOCK {
                self.classify(buf, at, stops);
                skip = at - self.base;
            }
            let mask = class_mask(class);
            let (low, high) = match skip {
                0..16 => (
                    self.low & mask & (u128::MAX << (8 * skip)),
                    self.high & mask,
                ),
                _ => (0, self.high & mask & (u128::MAX << (8 * (skip - 16)))),
            };
            if low != 0 {
                return self.base + low.trailing_zeros() as usize / 8;
            }
            if high != 0 {
                return self.base + 16 + high.trailing_zeros() as usize / 8;
            }
            at = buf.len().min(self.base + BLOCK);
        }
    }

    /// Classifies the block from `at` (`at < buf.len()`), or the input's last block when
    /// fewer than a block's bytes are left.
    #[inline(always)]
    fn classify(&mut self, buf: &[u8], at: usize, stops: impl Fn(u8) -> bool) {
        self.base = at.min(buf.len().saturating_sub(BLOCK));
        let block = match buf.get(self.base..).and_then(<[u8]>::first_chunk::<BLOCK>) {
            Some(block) => *block,
            None => padded(buf),
        };
        let flags: [u8; BLOCK] = std::array::from_fn(|i| {
            let b = block[i];
            (0u8.wrapping_sub(stops(b) as u8) & Class::Stop as u8)
                | (0u8.wrapping_sub(ends_comment(b) as u8) & Class::CommentEnd as u8)
        });
        let (low, high) = flags.split_at(BLOCK / 2);
        let half = |h: &[u8]| h.first_chunk::<16>().map_or(0, |h| u128::from_le_bytes(*h));
        (self.low, self.high) = (half(low), half(high));
    }
}

/// An input shorter than a block, padded with spaces.
#[cold]
fn padded(buf: &[u8]) -> [u8; BLOCK] {
    let mut block = [b' '; BLOCK];
    for (to, &from) in block.iter_mut().zip(buf) {
        *to = from;
    }
    block
}

/// Whether `b` may end a brace comment: `}`, or a control byte (LF and CR among them; the
/// caller passes over the others).
#[inline(always)]
pub(crate) fn ends_comment(b: u8) -> bool {
    (b == b'}') | (b < 0x0e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(b: u8) -> bool {
        b == b'{'
    }

    /// [`Blocks::find`] from a fresh classifier and from one left at every earlier block.
    fn finds(bytes: &[u8], from: usize, class: Class) -> Vec<usize> {
        let mut found = vec![Blocks::new().find(bytes, from, class, stop, usize::MAX)];
        for earlier in 0..from.min(bytes.len()) {
            let mut blocks = Blocks::new();
            blocks.find(bytes, earlier, class, stop, usize::MAX);
            found.push(blocks.find(bytes, from, class, stop, usize::MAX));
        }
        found
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_a_byte_loop(
            bytes in proptest::collection::vec(
                proptest::sample::select(&b"ab{}\n\r\x00\x0d\x0e\x7f\x80\xff"[..]),
                0..100,
            ),
            from in 0usize..104,
        ) {
            for (class, hit) in [(Class::Stop, stop as fn(u8) -> bool), (Class::CommentEnd, ends_comment)] {
                let expected = match bytes.get(from..) {
                    Some(rest) => rest.iter().position(|&b| hit(b)).map_or(bytes.len(), |k| from + k),
                    None => from,
                };
                for got in finds(&bytes, from, class) {
                    proptest::prop_assert_eq!(got, expected);
                }
            }
        }
    }

    #[test]
    fn gives_up_at_the_limit() {
        let bytes = [b'x'; 100];
        let mut blocks = Blocks::new();
        assert_eq!(blocks.find(&bytes, 3, Class::CommentEnd, stop, 40), 67);
        assert_eq!(blocks.find(&bytes, 3, Class::CommentEnd, stop, 200), 100);
    }
}
