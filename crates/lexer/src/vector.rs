//! Sixteen bytes tested at once: a byte class written as plain branchless comparisons on a
//! byte array, which the compiler turns into SSE2 vector instructions (`pcmpeqb`, `pminub`,
//! `por`), read back as a `u128` of 0x00 / 0xff flag bytes whose trailing zeros give the
//! first hit.
//!
//! `std::arch` would give `pmovmskb` (a bitmask per block, walked bit by bit in the simdjson
//! manner), but its intrinsics need `unsafe`, which the workspace forbids, and the compiler
//! does not turn plain code into it: gathering the bits with multiplies costs more than the
//! search. The class must be branchless (`|`, not `||`) for the comparisons to vectorize.

/// Index of the first byte of `chunk` for which `hit` holds.
#[inline(always)]
pub(crate) fn first_hit(chunk: &[u8; 16], hit: impl Fn(u8) -> bool) -> Option<usize> {
    let flags: [u8; 16] = std::array::from_fn(|i| 0u8.wrapping_sub(hit(chunk[i]) as u8));
    let flags = u128::from_le_bytes(flags);
    (flags != 0).then(|| flags.trailing_zeros() as usize / 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brace(b: u8) -> bool {
        (b == b'}') | (b < 0x0e)
    }

    #[test]
    fn first_hit_at_every_place() {
        assert_eq!(first_hit(&[b'x'; 16], brace), None);
        for at in 0..16 {
            for other in [b'}', b'\n', b'a', 0x80] {
                let mut chunk = [other; 16];
                chunk[..at].fill(b'x');
                chunk[at] = b'\r';
                assert_eq!(first_hit(&chunk, brace), Some(at), "{at} {other}");
            }
        }
    }
}
