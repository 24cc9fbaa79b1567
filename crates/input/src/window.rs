//! Memory a decoder may take where the file decides it: the zstd window (up to 2 GiB with
//! `zstd --long=31`) and the xz dictionary (up to 4 GiB). Both are bounded by
//! [`Options::max_window`](crate::Options::max_window), 128 MiB by default (what the `zstd`
//! command accepts without `--long` or `--memory`): the first frame's or block's header is
//! read when the input is opened, so a file that asks for more is refused at once with what it
//! asks for ([`InputError::WindowTooLarge`]); a later frame asking for more stops the decoder
//! at that frame with the same error.

use crate::{Format, InputError};

/// The default of [`Options::max_window`](crate::Options::max_window): 128 MiB.
pub const DEFAULT_MAX_WINDOW: u64 = 128 << 20;

/// What liblzma's decoder takes beyond its dictionary (its state and buffers: well under
/// 1 MiB; the slack keeps a dictionary of exactly the limit readable).
#[cfg(feature = "xz")]
const XZ_OVERHEAD: u64 = 4 << 20;

/// The zstd decoder's `window_log_max` for a limit of `max_window` bytes: the largest power of
/// two not above it, between 2^10 (zstd's least) and 2^31 (its most on 64-bit systems).
pub(crate) fn zstd_window_log_max(max_window: u64) -> u32 {
    max_window.max(1).ilog2().clamp(10, 31)
}

/// liblzma's memory limit for a limit of `max_window` bytes of dictionary.
#[cfg(feature = "xz")]
pub(crate) fn xz_memlimit(max_window: u64) -> u64 {
    max_window.saturating_add(XZ_OVERHEAD)
}

/// Refuses an input whose first frame (zstd) or block (xz), as `head` (its first bytes)
/// holds it, needs a window larger than `max_window`.
pub(crate) fn check(
    name: &str,
    format: Format,
    head: &[u8],
    max_window: u64,
) -> Result<(), InputError> {
    let (needs, limit) = match format {
        Format::Zstd => (zstd_window(head), 1u64 << zstd_window_log_max(max_window)),
        Format::Xz => (xz_dictionary(head), max_window),
        _ => return Ok(()),
    };
    match needs {
        Some(needs) if needs > limit => Err(InputError::WindowTooLarge {
            name: name.to_owned(),
            format: format.name(),
            needs: Some(needs),
            limit,
        }),
        _ => Ok(()),
    }
}

/// The error for a decoder's message `detail` at `offset` of the compressed input: a window
/// or memory refusal as [`InputError::WindowTooLarge`], anything else as
/// [`InputError::Corrupt`].
pub(crate) fn decoder_fault(
    name: &str,
    format: &'static str,
    offset: u64,
    detail: String,
    max_window: u64,
) -> InputError {
    // zstd: "Frame requires too much memory for decoding"; liblzma: "memory limit reached".
    if detail.contains("too much memory") || detail.contains("memory limit reached") {
        return InputError::WindowTooLarge {
            name: name.to_owned(),
            format,
            needs: None,
            limit: if format == "zstd" {
                1 << zstd_window_log_max(max_window)
            } else {
                max_window
            },
        };
    }
    InputError::Corrupt {
        name: name.to_owned(),
        format,
        offset,
        detail,
    }
}

/// A little-endian number of `bytes` (at most 8).
fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |n, &b| (n << 8) | u64::from(b))
}

/// The window the first zstd frame of `head` asks for, after any skippable frames (pzstd's
/// index); `None` when `head` does not hold its header.
pub(crate) fn zstd_window(head: &[u8]) -> Option<u64> {
    let mut at = 0usize;
    loop {
        let magic = le(head.get(at..at + 4)?);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            let len = usize::try_from(le(head.get(at + 4..at + 8)?)).ok()?;
            at = at.checked_add(8)?.checked_add(len)?;
            continue;
        }
        if magic != 0xFD2F_B528 {
            return None;
        }
        let descriptor = *head.get(at + 4)?;
        let single_segment = descriptor & 0x20 != 0;
        if !single_segment {
            let window = *head.get(at + 5)?;
            let log = 10 + u32::from(window >> 3);
            let base = 1u64 << log;
            return Some(base + (base >> 3) * u64::from(window & 7));
        }
        // A single segment: the window is the frame's content size.
        let dict_len = [0, 1, 2, 4][usize::from(descriptor & 3)];
        let size_at = at + 5 + dict_len;
        return match descriptor >> 6 {
            0 => head.get(size_at).map(|&b| u64::from(b)),
            1 => head.get(size_at..size_at + 2).map(|b| le(b) + 256),
            2 => head.get(size_at..size_at + 4).map(le),
            _ => head.get(size_at..size_at + 8).map(le),
        };
    }
}

/// The dictionary the first block of the xz stream in `head` asks for (its LZMA2 filter's
/// property); `None` when `head` does not hold it.
pub(crate) fn xz_dictionary(head: &[u8]) -> Option<u64> {
    // Stream header: 6 magic bytes, 2 flag bytes, 4 CRC; then the block header.
    let block = head.get(12..)?;
    let header_len = (usize::from(*block.first()?) + 1) * 4;
    let header = block.get(..header_len)?;
    let flags = *header.get(1)?;
    let filters = usize::from(flags & 3) + 1;
    let mut at = 2;
    let varint = |at: &mut usize| -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..63).step_by(7) {
            let b = *header.get(*at)?;
            *at += 1;
            n |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Some(n);
            }
        }
        None
    };
    if flags & 0x40 != 0 {
        varint(&mut at)?;
    }
    if flags & 0x80 != 0 {
        varint(&mut at)?;
    }
    for _ in 0..filters {
        let id = varint(&mut at)?;
        let props = usize::try_from(varint(&mut at)?).ok()?;
        if id == 0x21 && props == 1 {
            let bits = u32::from(*header.get(at)? & 0x3F);
            if bits > 40 {
                return None;
            }
            if bits == 40 {
                return Some(u64::from(u32::MAX));
            }
            return Some((2 | u64::from(bits & 1)) << (bits / 2 + 11));
        }
        at += props;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_logs_round_down_within_zstd_bounds() {
        assert_eq!(zstd_window_log_max(DEFAULT_MAX_WINDOW), 27);
        assert_eq!(zstd_window_log_max(2 << 30), 31);
        assert_eq!(zstd_window_log_max(u64::MAX), 31);
        assert_eq!(zstd_window_log_max((128 << 20) + 1), 27);
        assert_eq!(zstd_window_log_max(1), 10);
    }

    #[test]
    fn zstd_headers_give_their_window() {
        // Window descriptor 0x58: exponent 11 (2^21), mantissa 0.
        assert_eq!(zstd_window(b"\x28\xb5\x2f\xfd\x00\x58"), Some(1 << 21));
        // Exponent 21, mantissa 4: 2^31 + 2^30.
        assert_eq!(
            zstd_window(b"\x28\xb5\x2f\xfd\x00\xac"),
            Some((1 << 31) + (1 << 30))
        );
        // Single segment with a one-byte content size of 200.
        assert_eq!(zstd_window(b"\x28\xb5\x2f\xfd\x20\xc8"), Some(200));
        // After a pzstd skippable frame.
        let mut head = b"\x50\x2a\x4d\x18\x04\0\0\0\x10\0\0\0".to_vec();
        head.extend_from_slice(b"\x28\xb5\x2f\xfd\x00\xf8");
        assert_eq!(zstd_window(&head), Some(1 << 41));
        assert_eq!(zstd_window(b"\x28\xb5\x2f"), None);
    }
}
