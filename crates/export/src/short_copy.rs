//! Copies of short byte strings (tag names and values) into a fixed-size
//! buffer without a call to `memcpy`.
//!
//! Why: the writer copies about a hundred thousand tag names and values of
//! a few bytes each, and for those the call costs more than the copy. A
//! string of up to 64 bytes is copied as two fixed-size chunks, one from
//! its start and one ending at its end (overlapping when it is shorter
//! than two chunks): a few loads and stores. The buffer is then appended
//! whole and the surplus cut off.

/// The longest string [`put`] copies.
pub(crate) const MAX: usize = 64;

/// Copies `bytes` into `buf` at `at`; returns `false` (and copies nothing)
/// when `bytes` is longer than [`MAX`] or does not fit.
#[inline(always)]
pub(crate) fn put<const N: usize>(buf: &mut [u8; N], at: usize, bytes: &[u8]) -> bool {
    let len = bytes.len();
    let Some(dst) = buf.get_mut(at..at + len) else {
        return false;
    };
    match len {
        0 => true,
        1..=3 => {
            // First, middle and last byte cover every byte of 1 to 3.
            let (a, b, c) = (bytes[0], bytes[len / 2], bytes[len - 1]);
            dst[0] = a;
            dst[len / 2] = b;
            dst[len - 1] = c;
            true
        }
        4..=7 => halves::<4>(dst, bytes),
        8..=15 => halves::<8>(dst, bytes),
        16..=31 => halves::<16>(dst, bytes),
        32..=MAX => halves::<32>(dst, bytes),
        _ => false,
    }
}

/// Copies `bytes` (of `K` to `2K` bytes) into `dst` (as long) as its first
/// and its last `K` bytes.
#[inline(always)]
fn halves<const K: usize>(dst: &mut [u8], bytes: &[u8]) -> bool {
    let (Some(first), Some(last)) = (bytes.first_chunk::<K>(), bytes.last_chunk::<K>()) else {
        return false;
    };
    let len = dst.len();
    if let Some(d) = dst.first_chunk_mut::<K>() {
        *d = *first;
    }
    if let Some(d) = dst
        .get_mut(len.saturating_sub(K)..)
        .and_then(<[u8]>::first_chunk_mut::<K>)
    {
        *d = *last;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_is_copied_exactly() {
        let source: Vec<u8> = (0..100u8).map(|i| b'!' + i % 90).collect();
        for len in 0..=MAX {
            let bytes = &source[..len];
            let mut buf = [b'.'; MAX + 8];
            assert!(put(&mut buf, 3, bytes));
            assert_eq!(&buf[..3], b"...");
            assert_eq!(&buf[3..3 + len], bytes, "length {len}");
            assert!(buf[3 + len..].iter().all(|&b| b == b'.'), "length {len}");
        }
    }

    #[test]
    fn put_leaves_the_rest_of_the_buffer() {
        let mut buf = [b'.'; 16];
        assert!(put(&mut buf, 3, b"abcde"));
        assert_eq!(&buf, b"...abcde........");
        assert!(!put(&mut buf, 12, b"abcde"), "does not fit");
        assert_eq!(&buf, b"...abcde........");
        let mut big = [0u8; 100];
        assert!(!put(&mut big, 0, &[b'x'; MAX + 1]));
        assert!(put(&mut big, 0, &[b'x'; MAX]));
    }
}
