//! Postings packed into one number each ([`pack`]) and sorted in place
//! ([`sort_postings`]): the build's buffer and each partition
//! ([`crate::partition`]) are sorted here.

use crate::record::{Posting, Record};

/// Calls `f(args.., digit)` with `digit` the posting's bits from `shift`
/// up (`bits` of them, `mask`), taken from the high or low 64 bits alone
/// when the digit lies there: a shift of a `u128` by a variable amount
/// costs a branch and two shifts.
macro_rules! by_digit {
    ($f:ident($($arg:expr),*), $shift:expr, $bits:expr, $mask:expr) => {
        match $shift {
            64.. => $f($($arg),*, |p| ((p >> 64) as u64 >> ($shift - 64)) as usize & $mask),
            _ if $shift + $bits <= 64 => $f($($arg),*, |p| (p as u64 >> $shift) as usize & $mask),
            _ => $f($($arg),*, |p| (p >> $shift) as usize & $mask),
        }
    };
}

/// `p` as one number whose order is the postings' (key, move, game, ply):
/// sorting numbers is cheaper than comparing four fields.
pub(crate) fn pack(p: &Posting) -> u128 {
    u128::from(p.key) << 64 | u128::from(p.mv) << 48 | u128::from(p.game) << 16 | u128::from(p.ply)
}

/// Appends the [`Posting`] records of postings packed as
/// [`pack`] makes them (as [`Posting::put`] of each,
/// in one pass with no call a record).
pub(crate) fn put_packed_postings(packed: &[u128], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + packed.len() * Posting::SIZE, 0);
    for (bytes, &p) in out[start..].chunks_exact_mut(Posting::SIZE).zip(packed) {
        let key = (p >> 64) as u64;
        let low = p as u64;
        // Packed: move << 48 | game << 16 | ply; written: move, ply, game.
        let rest = low >> 48 | (low & 0xffff) << 16 | (low >> 16 & 0xffff_ffff) << 32;
        bytes[..8].copy_from_slice(&key.to_le_bytes());
        bytes[8..].copy_from_slice(&rest.to_le_bytes());
    }
}

/// The posting [`pack`] made `n` of.
#[cfg(test)]
pub(crate) fn unpack(n: u128) -> Posting {
    Posting {
        key: (n >> 64) as u64,
        mv: (n >> 48) as u16,
        game: (n >> 16) as u32,
        ply: n as u16,
    }
}

/// Sorts the packed postings of `buffer` ([`pack`]) on `threads` threads,
/// in steps that each touch a small part of memory at a time and use safe
/// slices only: the buffer is cut into one part per thread, and each thread
/// distributes its part into the same range of `scratch` by the top bits of
/// the keys (random, so the buckets are about 256 postings each, and at most
/// 4096 buckets fill at once, so the writes stay in cache); then each
/// thread takes a range of buckets, copies their pieces from every part
/// back into `buffer`, where the bucket ends up, and sorts each bucket
/// there. The postings agree on their bits from `high` up (128: none;
/// less for a partition's, [`crate::partition`]): the buckets are chosen by
/// the bits below. `scratch` keeps its allocation, to be reused.
pub(crate) fn sort_postings(
    buffer: &mut [u128],
    scratch: &mut Vec<u128>,
    threads: usize,
    high: u32,
) {
    let len = buffer.len();
    let log = usize::BITS - len.leading_zeros();
    // A partition's postings (a few MiB, in cache) go to buckets of about
    // 16, then sorted by insertion; a large buffer's to at most 4096
    // buckets (the writes stay in cache), each distributed again.
    let bits = if len <= SMALL_SORT {
        log.saturating_sub(4).clamp(4, 16)
    } else {
        log.saturating_sub(8).clamp(4, 12)
    };
    if len < 4096 || high < bits + 8 {
        buffer.sort_unstable();
        return;
    }
    let shift = high - bits;
    let buckets = 1usize << bits;
    let threads = threads.clamp(1, 64).min(len / 4096).max(1);
    // Every place of `scratch` is written below: its old contents need not
    // be cleared (no 128 MiB of zeros for each run).
    if scratch.len() < len {
        scratch.resize(len, 0);
    }
    scratch.truncate(len);
    let part_len = len.div_ceil(threads);
    // For each part: where each of its buckets starts within the part.
    let starts: Vec<Vec<usize>> = std::thread::scope(|scope| {
        let work: Vec<_> = buffer
            .chunks(part_len)
            .zip(scratch.chunks_mut(part_len))
            .map(|(part, out)| scope.spawn(move || distribute(part, out, shift, buckets)))
            .collect();
        work.into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    // Bucket `b` of part `t` is `scratch[t * part_len + starts[t][b]..
    // t * part_len + starts[t][b + 1]]`; bucket `b` of the result starts at
    // the sum of the sizes of the buckets before it in every part.
    let mut global = vec![0usize; buckets + 1];
    for b in 0..buckets {
        let size: usize = starts.iter().map(|s| s[b + 1] - s[b]).sum();
        global[b + 1] = global[b] + size;
    }
    // Ranges of buckets of about equal size, one per thread.
    let mut cuts = vec![0usize];
    for t in 1..threads {
        let target = len * t / threads;
        let b = global.partition_point(|&g| g < target).min(buckets);
        cuts.push(b.max(*cuts.last().unwrap_or(&0)));
    }
    cuts.push(buckets);
    let scratch = &scratch[..];
    let starts = &starts;
    let global = &global;
    std::thread::scope(|scope| {
        let mut rest = &mut buffer[..];
        let mut work = Vec::new();
        for w in cuts.windows(2) {
            let (first, last) = (w[0], w[1]);
            let (mine, tail) = rest.split_at_mut(global[last] - global[first]);
            rest = tail;
            work.push(scope.spawn(move || {
                let base = global[first];
                let mut sub = Vec::new();
                for b in first..last {
                    let mut at = global[b] - base;
                    for (t, s) in starts.iter().enumerate() {
                        let piece = &scratch[t * part_len + s[b]..t * part_len + s[b + 1]];
                        mine[at..at + piece.len()].copy_from_slice(piece);
                        at += piece.len();
                    }
                    sort_bucket(
                        &mut mine[global[b] - base..global[b + 1] - base],
                        &mut sub,
                        shift - 8,
                    );
                }
            }));
        }
        for w in work {
            w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
}

/// Postings sorted in one pass of [`sort_postings`] into small buckets
/// (1 Mi, 16 MiB: a partition's, most often).
const SMALL_SORT: usize = 1 << 20;

/// Sorts one bucket of [`sort_postings`] (its postings agree on the bits
/// above `shift + 8`): a large one is distributed into `sub` by the next 8
/// bits (a few postings each, in cache) and those are sorted and copied
/// back, which costs less than comparison sorting the whole bucket.
fn sort_bucket(bucket: &mut [u128], sub: &mut Vec<u128>, shift: u32) {
    if bucket.len() < 512 {
        bucket.sort_unstable();
        return;
    }
    sub.clear();
    sub.resize(bucket.len(), 0);
    let starts = distribute(bucket, sub, shift, 256);
    for w in starts.windows(2) {
        sub[w[0]..w[1]].sort_unstable();
    }
    bucket.copy_from_slice(sub);
}

/// Sorts the packed postings of one partition ([`crate::partition`]),
/// which agree on their bits from `high` up, on the calling thread: a most
/// significant digit radix sort (256 buckets at most a pass, so that the
/// writes stay in cache) down to buckets of a few postings, sorted by
/// insertion. The postings arrive in input order (by game and ply), which
/// a pass keeps: the postings of one position end up in order already,
/// and a bucket found sorted is not distributed again. A pass distributes
/// from one of `v` and `scratch` into the other and the next pass back, so
/// that no bucket is copied back after it is sorted. `scratch` (grown to
/// the length of `v`) keeps its allocation, to be reused.
pub(crate) fn sort_part(v: &mut [u128], scratch: &mut Vec<u128>, high: u32) {
    if scratch.len() < v.len() {
        scratch.resize(v.len(), 0);
    }
    let mut counts = Vec::new();
    radix(v, &mut scratch[..v.len()], high, true, &mut counts);
}

/// Buckets of at most this many postings are sorted by insertion.
const INSERTION: usize = 24;

/// [`sort_part`]'s step: sorts the postings of `v` (agreeing on the bits
/// from `high` up), with `tmp` (as long) as room to distribute into; the
/// result is left in `v` when `in_place`, else in `tmp`. `counts` holds
/// each pass's bucket bounds (the passes under way, one after the other).
fn radix(v: &mut [u128], tmp: &mut [u128], mut high: u32, in_place: bool, counts: &mut Vec<usize>) {
    let n = v.len();
    if n <= INSERTION || v.is_sorted() {
        if !in_place {
            tmp.copy_from_slice(v);
        }
        insertion_sort(if in_place { v } else { tmp });
        return;
    }
    loop {
        if high == 0 {
            // All 128 bits agree: the postings are equal.
            if !in_place {
                tmp.copy_from_slice(v);
            }
            return;
        }
        // About 4 postings a bucket, at most 256 buckets (their writes in
        // L1: a little cheaper than 2048 on a partition of 3-4 MiB).
        let log = usize::BITS - n.leading_zeros();
        let bits = log.saturating_sub(2).clamp(1, 8).min(high);
        let shift = high - bits;
        let buckets = 1usize << bits;
        let mask = buckets - 1;
        // This pass's bounds: `counts[base..base + buckets + 1]`, where each
        // bucket starts and then (moved as it fills) where it ends.
        let base = counts.len();
        counts.resize(base + 2 * (buckets + 1), 0);
        let (starts, ends) = counts[base..].split_at_mut(buckets + 1);
        let ends_1 = &mut ends[1..];
        by_digit!(count_digits(v, ends_1), shift, bits, mask);
        if ends.contains(&n) {
            // All in one bucket (a position played in many games): on to
            // the first bit where two postings differ, found in one pass
            // (not a count a digit down the key), nothing moved.
            counts.truncate(base);
            let first = v[0];
            let differ = v.iter().fold(0, |d, &p| d | (p ^ first));
            if differ == 0 {
                // All 128 bits agree: the postings are equal.
                if !in_place {
                    tmp.copy_from_slice(v);
                }
                return;
            }
            high = 128 - differ.leading_zeros();
            continue;
        }
        for i in 1..ends.len() {
            ends[i] += ends[i - 1];
        }
        starts.copy_from_slice(ends);
        by_digit!(scatter(v, tmp, ends), shift, bits, mask);
        // The buckets are in `tmp` now: sorted there, and the result
        // wanted in `v`, or the other way.
        for b in 0..buckets {
            let (from, to) = (counts[base + b], counts[base + b + 1]);
            if from == to {
                continue;
            }
            radix(
                &mut tmp[from..to],
                &mut v[from..to],
                shift,
                !in_place,
                counts,
            );
        }
        counts.truncate(base);
        return;
    }
}

/// Counts the postings of `v` by their digit (`digit`, below
/// `counts.len()`) into `counts` ([`by_digit`]).
#[inline(always)]
fn count_digits(v: &[u128], counts: &mut [usize], digit: impl Fn(u128) -> usize) {
    for &p in v {
        counts[digit(p)] += 1;
    }
}

/// Moves each posting of `v` to `tmp` at `ends[digit]` (where its bucket
/// fills next), in order.
#[inline(always)]
fn scatter(v: &[u128], tmp: &mut [u128], ends: &mut [usize], digit: impl Fn(u128) -> usize) {
    for &p in v {
        let slot = &mut ends[digit(p)];
        tmp[*slot] = p;
        *slot += 1;
    }
}

/// Sorts a few postings (most often in order already: cheap).
fn insertion_sort(v: &mut [u128]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// [`distribute`] on `threads` threads at once: `part` cut in `threads`
/// pieces, each distributed into its place of `out` (as long); for each
/// piece, where each of its buckets starts in `out`, and its end last.
pub(crate) fn distribute_on(
    part: &[u128],
    out: &mut [u128],
    shift: u32,
    buckets: usize,
    threads: usize,
) -> Vec<Vec<usize>> {
    let piece = part.len().div_ceil(threads.clamp(1, 64)).max(1 << 16);
    std::thread::scope(|scope| {
        let work: Vec<_> = part
            .chunks(piece)
            .zip(out.chunks_mut(piece))
            .enumerate()
            .map(|(t, (part, out))| {
                scope.spawn(move || {
                    let mut starts = distribute(part, out, shift, buckets);
                    for s in &mut starts {
                        *s += t * piece;
                    }
                    starts
                })
            })
            .collect();
        work.into_iter()
            .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Distributes `part` into `out` (as long) by the bits of each posting
/// above `shift`, bucket after bucket; returns where each of the `buckets`
/// buckets starts in `out`, and its end last.
pub(crate) fn distribute(
    part: &[u128],
    out: &mut [u128],
    shift: u32,
    buckets: usize,
) -> Vec<usize> {
    let mask = buckets - 1;
    let bits = buckets.trailing_zeros();
    let mut ends = vec![0usize; buckets + 1];
    let ends_1 = &mut ends[1..];
    by_digit!(count_digits(part, ends_1), shift, bits, mask);
    for i in 1..ends.len() {
        ends[i] += ends[i - 1];
    }
    let starts = ends.clone();
    // `ends[b]` is where bucket `b` starts; it moves to its end as the
    // bucket fills.
    by_digit!(scatter(part, out, &mut ends), shift, bits, mask);
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Postings with few distinct keys and moves (ties broken by game and
    /// ply), numbers from a small generator.
    fn postings(n: usize) -> Vec<Posting> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Posting {
                    key: (x % 37).wrapping_mul(0x0123_4567_89ab_cdef) ^ (x & 1) << 63,
                    mv: (x >> 8) as u16 % 5,
                    game: (x >> 24) as u32 % 1000,
                    ply: (x >> 40) as u16 % 300,
                }
            })
            .collect()
    }

    #[test]
    fn packed_postings_are_put_as_each_posting_is() {
        let p = Posting {
            key: 0x0123_4567_89ab_cdef,
            mv: 77,
            game: 9,
            ply: 3,
        };
        let mut out = Vec::new();
        p.put(&mut out);
        let mut bulk = Vec::new();
        put_packed_postings(&[pack(&p), pack(&p)], &mut bulk);
        assert_eq!(bulk, [out.clone(), out.clone()].concat());
    }

    #[test]
    fn packed_sort_orders_as_postings_do() {
        for n in [0, 1, 100, 4095, 4096, 50_000] {
            let mut expected = postings(n);
            let packed: Vec<u128> = expected.iter().map(pack).collect();
            expected.sort_unstable();
            let mut scratch = Vec::new();
            for threads in [1, 2, 3] {
                let mut packed = packed.clone();
                sort_postings(&mut packed, &mut scratch, threads, 128);
                let got: Vec<Posting> = packed.into_iter().map(unpack).collect();
                assert_eq!(got, expected, "{n} postings, {threads} threads");
            }
        }
    }

    #[test]
    fn partition_sort_orders_as_postings_do() {
        for n in [0, 1, 24, 25, 100, 4096, 50_000] {
            let mut expected = postings(n);
            // In input order (game, ply), as a partition's postings come.
            expected.sort_by_key(|p| (p.game, p.ply));
            let mut packed: Vec<u128> = expected.iter().map(pack).collect();
            expected.sort_unstable();
            sort_part(&mut packed, &mut Vec::new(), 128);
            let got: Vec<Posting> = packed.into_iter().map(unpack).collect();
            assert_eq!(got, expected, "{n} postings");
        }
        // Out of input order, random keys below a partition's top bits, one
        // key shared by a third of them (the start position's).
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut packed: Vec<u128> = (0..200_000u32)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let key = if i % 3 == 0 { 0x0123_4567_89ab_cdef } else { x };
                pack(&Posting {
                    key: key >> 7 | 5 << 57,
                    mv: (x >> 3) as u16 % 7,
                    game: (x >> 20) as u32 % 5000,
                    ply: (x >> 40) as u16 % 90,
                })
            })
            .collect();
        let mut expected = packed.clone();
        expected.sort_unstable();
        sort_part(&mut packed, &mut Vec::new(), 121);
        assert!(packed == expected);
        // Equal postings by the thousand (a game that repeats a position):
        // all of them, or a bucket of the first pass (its key's bits
        // below the partition's are 0, the others' are not).
        for others in [0, 1] {
            let mut packed: Vec<u128> = (0..12_000u64)
                .map(|i| {
                    let key = if i % 2 == 0 {
                        0
                    } else {
                        others * ((1 + i % 255) << 49 | i)
                    };
                    pack(&Posting {
                        key: key | 5 << 57,
                        mv: 1,
                        game: 7,
                        ply: 3,
                    })
                })
                .collect();
            let mut expected = packed.clone();
            expected.sort_unstable();
            sort_part(&mut packed, &mut Vec::new(), 121);
            assert!(packed == expected, "others {others}");
        }
    }

    #[test]
    fn packed_sort_of_random_keys_in_large_buckets() {
        // 3 Mi postings: 4096 buckets of about 770, each sorted by its
        // next 8 bits first.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut packed: Vec<u128> = (0..3 << 20)
            .map(|i: u32| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pack(&Posting {
                    key: x,
                    mv: (x >> 3) as u16 % 3,
                    game: i / 40,
                    ply: (i % 40) as u16,
                })
            })
            .collect();
        let mut expected = packed.clone();
        expected.sort_unstable();
        sort_postings(&mut packed, &mut Vec::new(), 2, 128);
        assert!(packed == expected);
    }
}
