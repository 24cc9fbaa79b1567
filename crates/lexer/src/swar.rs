//! Eight bytes at a time in a plain `u64` ("SIMD within a register"): the scans of strings,
//! comments and movetext load a word of input and flag the bytes they must stop at with carry
//! tricks, a dozen instructions per eight bytes instead of a table lookup and a branch per
//! byte. (SIMD intrinsics would need `unsafe`, which the workspace forbids.)
//!
//! Every mask here flags the first byte that matches exactly; bytes after it may be flagged
//! wrongly (a borrow runs upwards), which is harmless because only the lowest flag is read.

/// `0x01` in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Index of the first byte at or after `from` that `stop` holds for (`from` itself when past
/// the end, else `input.len()` when there is none). Whole words go through `flags`, which must
/// flag (see [`first`]) exactly the bytes `stop` holds for, or more (the caller then passes
/// over the extra ones); the last bytes go through `stop` one at a time.
#[inline(always)]
pub(crate) fn find(
    input: &[u8],
    from: usize,
    flags: impl Fn(u64) -> u64,
    stop: impl Fn(u8) -> bool,
) -> usize {
    let mut i = from;
    // Two words per round: one test and one loop step per sixteen bytes.
    while let Some(pair) = input.get(i..).and_then(<[u8]>::first_chunk::<16>) {
        let pair = u128::from_le_bytes(*pair);
        let low = flags(pair as u64) & HIGHS;
        let high = flags((pair >> 64) as u64) & HIGHS;
        if low | high != 0 {
            let bit = if low != 0 {
                low.trailing_zeros()
            } else {
                64 + high.trailing_zeros()
            };
            return i + (bit / 8) as usize;
        }
        i += 16;
    }
    while let Some(w) = word(input, i) {
        if let Some(k) = first(flags(w)) {
            return i + k;
        }
        i += 8;
    }
    while input.get(i).is_some_and(|&b| !stop(b)) {
        i += 1;
    }
    i
}

/// Whether `stop` holds for any byte of `input`, where `flags` flags (see [`first`]) exactly
/// the bytes `stop` holds for. Short inputs (the usual tag value) cost one or two word tests:
/// the words may overlap (the first and the last eight bytes of 8 to 16 bytes; two halves of
/// 4 to 7 bytes, widened with zero bytes, which `flags` must not flag), and no byte is read
/// one at a time until fewer than four are left.
#[inline(always)]
pub(crate) fn any(input: &[u8], flags: impl Fn(u64) -> u64, stop: impl Fn(u8) -> bool) -> bool {
    let flagged = |w: u64| flags(w) & HIGHS != 0;
    let n = input.len();
    if n > 16 {
        return find(input, 0, flags, stop) < n;
    }
    if let (Some(head), Some(tail)) = (word(input, 0), n.checked_sub(8)) {
        return flagged(head) | word(input, tail).is_some_and(flagged);
    }
    if let (Some(head), Some(tail)) = (input.first_chunk::<4>(), input.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*head)) | u64::from(u32::from_le_bytes(*tail)) << 32;
        return flagged(w);
    }
    input.iter().any(|&b| stop(b))
}

/// The eight bytes at `at` as a little-endian word, if the input holds eight there.
#[inline(always)]
fn word(input: &[u8], at: usize) -> Option<u64> {
    let chunk = input.get(at..)?.first_chunk::<8>()?;
    Some(u64::from_le_bytes(*chunk))
}

/// `b` in every byte.
#[inline(always)]
pub(crate) const fn splat(b: u8) -> u64 {
    ONES * b as u64
}

/// Flags (high bit of the byte) the bytes of `w` equal to the byte in every lane of `pattern`
/// (made with [`splat`]); the high bits are not masked yet (see [`first`]).
#[inline(always)]
pub(crate) fn equal(w: u64, pattern: u64) -> u64 {
    let x = w ^ pattern;
    x.wrapping_sub(ONES) & !x
}

/// Flags the bytes of `w` below `n` (at most 0x80); unmasked like [`equal`].
#[inline(always)]
pub(crate) fn below(w: u64, n: u8) -> u64 {
    w.wrapping_sub(splat(n)) & !w
}

/// Flags the bytes of `w` from `lo` to `hi` (`1 <= lo <= hi < 0x80`). Exact in every byte (no
/// borrow runs between bytes), so its complement is exact too.
#[inline(always)]
pub(crate) fn between(w: u64, lo: u8, hi: u8) -> u64 {
    let low7 = w & !HIGHS;
    let at_least_lo = low7 + splat(0x80 - lo);
    let above_hi = low7 + splat(0x7f - hi);
    at_least_lo & !above_hi & !w & HIGHS
}

/// Index (0 to 7) of the first flagged byte of the union of flags `m`, if any.
#[inline(always)]
pub(crate) fn first(m: u64) -> Option<usize> {
    let m = m & HIGHS;
    (m != 0).then(|| (m.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(bytes: &[u8; 8], f: impl Fn(u64) -> u64) -> Option<usize> {
        first(f(u64::from_le_bytes(*bytes)))
    }

    #[test]
    fn first_flag_is_exact() {
        assert_eq!(scan(b"abc\"de\"f", |w| equal(w, splat(b'"'))), Some(3));
        assert_eq!(scan(b"abcdefgh", |w| equal(w, splat(b'"'))), None);
        // A zero byte before a match borrows: the match is still the first flag.
        assert_eq!(
            scan(b"\x01\x00}\x00}}}}", |w| equal(w, splat(b'}'))),
            Some(2)
        );
        assert_eq!(scan(b"ab\tc\nxyz", |w| below(w, 0x0e)), Some(2));
        assert_eq!(scan(b"ab\xffc\nxyz", |w| below(w, 0x20)), Some(4));
        assert_eq!(
            scan(b"a{b}\nxyz", |w| equal(w, splat(b'}')) | below(w, 0x0e)),
            Some(3)
        );
    }

    #[test]
    fn find_in_words_and_tail() {
        let brace = |w| equal(w, splat(b'}'));
        let find_brace = |input: &[u8], from| find(input, from, brace, |b| b == b'}');
        let input = b"01234567abcdefgh0123}567ab}";
        assert_eq!(find_brace(input, 0), 20);
        assert_eq!(find_brace(input, 21), 26);
        assert_eq!(find_brace(input, 27), 27);
        assert_eq!(find_brace(input, 30), 30);
        assert_eq!(find_brace(b"abc", 0), 3);
        for at in 0..24 {
            let mut bytes = vec![b'x'; 24];
            bytes[at] = b'}';
            for from in 0..=at {
                assert_eq!(find_brace(&bytes, from), at);
            }
        }
    }

    #[test]
    fn any_at_every_length_and_place() {
        let backslash = |w| equal(w, splat(b'\\'));
        for len in 0..40 {
            let plain = vec![b'x'; len];
            assert!(!any(&plain, backslash, |b| b == b'\\'), "{len}");
            for at in 0..len {
                let mut bytes = plain.clone();
                bytes[at] = b'\\';
                assert!(any(&bytes, backslash, |b| b == b'\\'), "{len} {at}");
            }
        }
    }

    #[test]
    fn every_byte_value_and_lane() {
        for lane in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = *b"AAAAAAAA";
                bytes[lane] = b;
                let w = u64::from_le_bytes(bytes);
                let expect = |hit: bool| hit.then_some(lane);
                assert_eq!(first(equal(w, splat(b'"'))), expect(b == b'"'));
                assert_eq!(first(below(w, 0x20)), expect(b < 0x20));
                assert_eq!(first(between(w, b'0', b'9')), expect(b.is_ascii_digit()));
                assert_eq!(first(between(w, b'_', b'_')), expect(b == b'_'));
                assert_eq!(first(between(w, 1, 0x40)), expect((1..=0x40).contains(&b)));
                assert_eq!(first(!between(w, b'A', b'A')), expect(b != b'A'));
            }
        }
    }
}
