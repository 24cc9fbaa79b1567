//! zstd files in pzstd's layout, decoded several frames at a time.
//!
//! pzstd (and the Lichess database, written by `pzstd -19`) puts before each zstd frame a
//! 12-byte skippable frame: magic `0x184D2A50`, length 4, and the next frame's compressed size
//! as a little-endian u32. [`index`] reads those headers (a seek per frame, nothing
//! decompressed) and [`Frames`] decompresses the frames on worker threads, a frame per job,
//! and hands them out in order, at most a few frames ahead of the reader. A worker hands its
//! frame out in pieces of [`PIECE`] bytes as it decodes them, so the reader starts on a frame
//! (the first one too) as soon as its first piece is decoded, while the rest of it and the next
//! frames decode beside it. A file that is not in that layout from its first byte to its last
//! gets no index and is decoded by one streaming decoder instead.

use std::fs::File;
use std::io;

use crate::at::read_exact_at;

#[cfg(feature = "zstd")]
mod frames;

#[cfg(feature = "zstd")]
pub(crate) use frames::Source;
#[cfg(feature = "zstd")]
pub use frames::{Frames, Marks, PIECE};

/// Magic of pzstd's skippable frame (the low nibble may vary in general skippable frames;
/// pzstd writes exactly this one).
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// Size of the skippable header before each frame.
pub const HEADER_LEN: u64 = 12;

/// One zstd frame of a pzstd-layout file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// Offset of the frame's skippable header: where a byte range snaps to.
    pub start: u64,
    /// Offset of the zstd frame itself.
    pub data: u64,
    /// Compressed size of the zstd frame.
    pub len: u64,
}

impl Frame {
    /// The offset just after the frame.
    pub fn end(&self) -> u64 {
        self.data + self.len
    }
}

/// The frames of `file` (of `size` bytes) if it is in pzstd's layout throughout, else `None`.
pub fn index(file: &File, size: u64) -> io::Result<Option<Vec<Frame>>> {
    let mut frames = Vec::new();
    let mut at = 0;
    let mut header = [0u8; HEADER_LEN as usize];
    while at < size {
        if size - at < HEADER_LEN {
            return Ok(None);
        }
        read_exact_at(file, &mut header, at)?;
        let word = |i: usize| {
            let b = header.get(i..i + 4).unwrap_or_default();
            u32::from_le_bytes(b.try_into().unwrap_or_default())
        };
        if word(0) != SKIPPABLE_MAGIC || word(4) != 4 {
            return Ok(None);
        }
        let len = u64::from(word(8));
        let data = at + HEADER_LEN;
        if len == 0 || data + len > size {
            return Ok(None);
        }
        frames.push(Frame {
            start: at,
            data,
            len,
        });
        at = data + len;
    }
    Ok((!frames.is_empty()).then_some(frames))
}
