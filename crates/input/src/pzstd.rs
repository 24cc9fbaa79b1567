//! zstd files in pzstd's layout, decoded several frames at a time.
//!
//! pzstd (and the Lichess database, written by `pzstd -19`) puts before each zstd frame a
//! 12-byte skippable frame: magic `0x184D2A50`, length 4, and the next frame's compressed size
//! as a little-endian u32. [`index`] reads those headers (a seek per frame, nothing
//! decompressed) and [`Frames`] decompresses the frames on worker threads, a whole frame per
//! job, and hands them out in order, at most a few frames ahead of the reader. A file that is
//! not in that layout from its first byte to its last gets no index and is decoded by one
//! streaming decoder instead.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use crate::InputError;

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
        file.read_exact_at(&mut header, at)?;
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

/// Where a decoded range starts and ends, set by [`Frames`] as it hands out the frames that
/// bound it: offsets in the decoded bytes of the frames it reads, `u64::MAX` until known.
#[derive(Debug, Clone)]
pub struct Marks {
    /// Set when the frame at this index (among those read) starts to be handed out.
    pub start_frame: usize,
    /// The decoded offset where `start_frame` begins.
    pub start: Arc<AtomicU64>,
    /// Set when the frame at this index starts to be handed out, or at the end.
    pub end_frame: usize,
    /// The decoded offset where `end_frame` begins.
    pub end: Arc<AtomicU64>,
}

/// Decoded frames in order, decompressed ahead of the reader by worker threads (or, with one
/// thread, by the reader itself when it needs the next frame).
#[derive(Debug)]
pub struct Frames {
    shared: Arc<Shared>,
    current: Vec<u8>,
    pos: usize,
    /// Index of the next frame to take.
    next: usize,
    count: usize,
    /// Decoded bytes handed out so far.
    decoded: u64,
    marks: Option<Marks>,
    done: bool,
    /// With no worker: what the reader decodes the frames with.
    inline: Option<Inline>,
}

/// The reader's own decoder when no worker runs (one thread).
#[derive(Debug)]
struct Inline {
    frames: Arc<Vec<Frame>>,
    source: Source,
    scratch: Scratch,
    /// The largest decoded frame so far.
    largest: usize,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Next frame a worker takes.
    claimed: usize,
    /// Frames the reader has taken.
    taken: usize,
    ready: BTreeMap<usize, io::Result<Vec<u8>>>,
    stop: bool,
    /// Buffers of frames read, kept for the next frames (their capacity saves the
    /// reallocations and page faults of growing a new one). Never more than the frames in
    /// flight: a new buffer is made only when none is spare.
    spare: Vec<Vec<u8>>,
    /// The largest decoded frame so far: the capacity a frame is first decoded into.
    largest: usize,
}

/// Context for decoding: the input's name, the file, the compressed-bytes counter.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub name: String,
    pub file: Arc<File>,
    pub count: Arc<AtomicU64>,
    pub window_log_max: u32,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Frames {
    /// Decodes `frames` of `source` for a run of `threads` threads: with two or more,
    /// `threads - 1` workers decode whole frames ahead of the reader, at most one frame each,
    /// so that at most `threads` decoded frames are held (the one being read and one per
    /// worker: pzstd -19 writes 32 MiB frames, -3 about 8 MiB); with one, the reader decodes
    /// each frame itself when it needs it, holding one.
    pub(crate) fn spawn(
        source: Source,
        frames: Vec<Frame>,
        threads: usize,
        marks: Option<Marks>,
    ) -> Frames {
        let workers = threads.saturating_sub(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
        });
        let count = frames.len();
        let frames = Arc::new(frames);
        for _ in 0..workers {
            let (shared, frames, source) = (shared.clone(), frames.clone(), source.clone());
            thread::spawn(move || worker(&shared, &frames, &source, workers));
        }
        let inline = (workers == 0).then(|| Inline {
            frames,
            source,
            scratch: Scratch::default(),
            largest: 0,
        });
        Frames {
            shared,
            current: Vec::new(),
            pos: 0,
            next: 0,
            count,
            decoded: 0,
            marks,
            done: false,
            inline,
        }
    }

    /// Takes the next frame's bytes (waiting for a worker, or decoding it here), or `None`
    /// after the last.
    fn take(&mut self) -> io::Result<Option<Vec<u8>>> {
        if self.next >= self.count {
            return Ok(None);
        }
        if let Some(inline) = &mut self.inline {
            let frame = inline.frames.get(self.next).copied();
            self.next += 1;
            let Some(frame) = frame else {
                return Ok(None);
            };
            let spent = std::mem::take(&mut self.current);
            let bytes = decode(
                &inline.source,
                &frame,
                spent,
                inline.largest,
                &mut inline.scratch,
            )?;
            inline.largest = inline.largest.max(bytes.len());
            return Ok(Some(bytes));
        }
        let mut state = self.shared.lock();
        loop {
            if let Some(result) = state.ready.remove(&self.next) {
                let mut spent = std::mem::take(&mut self.current);
                if spent.capacity() > 0 {
                    spent.clear();
                    state.spare.push(spent);
                }
                state.taken += 1;
                self.next += 1;
                drop(state);
                self.shared.changed.notify_all();
                return result.map(Some);
            }
            state = self
                .shared
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Records the marks reached when the frame `index` starts (or the end).
    fn mark(&self, index: usize) {
        if let Some(marks) = &self.marks {
            if index == marks.start_frame {
                marks.start.store(self.decoded, Ordering::Release);
            }
            if index == marks.end_frame || (index >= self.count && marks.end_frame >= index) {
                marks.end.store(self.decoded, Ordering::Release);
            }
        }
    }
}

impl Drop for Frames {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.changed.notify_all();
    }
}

/// A worker: claims the next frame when fewer than `ahead` frames are decoded or being
/// decoded beyond the reader's, and decodes it whole.
fn worker(shared: &Shared, frames: &[Frame], source: &Source, ahead: usize) {
    let mut scratch = Scratch::default();
    loop {
        let (index, out, largest) = {
            let mut state = shared.lock();
            loop {
                if state.stop || state.claimed >= frames.len() {
                    return;
                }
                if state.claimed < state.taken + ahead {
                    break;
                }
                state = shared
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            state.claimed += 1;
            let out = state.spare.pop().unwrap_or_default();
            (state.claimed - 1, out, state.largest)
        };
        let Some(frame) = frames.get(index) else {
            return;
        };
        let result = decode(source, frame, out, largest, &mut scratch);
        let mut state = shared.lock();
        if let Ok(bytes) = &result {
            state.largest = state.largest.max(bytes.len());
        }
        state.ready.insert(index, result);
        drop(state);
        shared.changed.notify_all();
    }
}

/// What a decoding thread keeps from frame to frame: its decompression context and the
/// buffer the compressed frame is read into.
#[derive(Default)]
struct Scratch {
    context: Option<zstd::bulk::Decompressor<'static>>,
    compressed: Vec<u8>,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("compressed", &self.compressed.len())
            .finish_non_exhaustive()
    }
}

/// Decompresses one frame into `out` (its bytes are dropped, its capacity kept). pzstd's
/// frames do not record their decoded size; when an earlier frame's size (`largest`) is
/// known, the compressed frame is read whole and decoded in one call straight into `out`
/// sized so (no window buffer, no copy out of it). The first frames, read from the file as
/// they decode, and a frame larger than those before, are decoded by a streaming decoder
/// (which also tells a corrupt frame's fault): the window and the frame, never the whole
/// compressed frame beside them.
fn decode(
    source: &Source,
    frame: &Frame,
    mut out: Vec<u8>,
    largest: usize,
    scratch: &mut Scratch,
) -> io::Result<Vec<u8>> {
    out.clear();
    let result = if largest == 0 {
        let at = At {
            name: &source.name,
            file: &source.file,
            pos: frame.data,
            end: frame.end(),
        };
        stream(source, frame, io::BufReader::new(at), &mut out)
    } else {
        let len = usize::try_from(frame.len).unwrap_or(usize::MAX);
        if scratch.compressed.len() < len {
            scratch.compressed.resize(len, 0);
        }
        let compressed = scratch.compressed.get_mut(..len).unwrap_or_default();
        source
            .file
            .read_exact_at(compressed, frame.data)
            .map_err(|e| InputError::io(&source.name, e).into_io())?;
        out.reserve(largest);
        if scratch.context.is_none() {
            scratch.context = zstd::bulk::Decompressor::new().ok();
        }
        let whole = scratch
            .context
            .as_mut()
            .is_some_and(|context| context.decompress_to_buffer(compressed, &mut out).is_ok());
        if whole {
            Ok(())
        } else {
            out.clear();
            stream(source, frame, &compressed[..], &mut out)
        }
    };
    result?;
    source
        .count
        .fetch_add(frame.len + HEADER_LEN, Ordering::Relaxed);
    Ok(out)
}

/// Bytes decoded at a time by [`stream`]: what it zeroes ahead of the decoder.
const STREAM_STEP: usize = 1 << 20;

/// Decodes the one frame of `compressed` with a streaming decoder, appending to `out` a step
/// at a time (`read_to_end` would zero all of a doubled capacity: memory never used).
fn stream(
    source: &Source,
    frame: &Frame,
    compressed: impl BufRead,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    let corrupt = |detail: String| {
        InputError::Corrupt {
            name: source.name.clone(),
            format: "zstd",
            offset: frame.data,
            detail,
        }
        .into_io()
    };
    let mut decoder = zstd::stream::read::Decoder::with_buffer(compressed)
        .map_err(|e| corrupt(e.to_string()))?
        .single_frame();
    decoder
        .window_log_max(source.window_log_max)
        .map_err(|e| corrupt(e.to_string()))?;
    let mut filled = out.len();
    loop {
        if out.len() < filled + STREAM_STEP {
            out.resize(filled + STREAM_STEP, 0);
        }
        let room = out.get_mut(filled..).unwrap_or_default();
        match decoder.read(room) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                out.truncate(filled);
                return Err(if InputError::from_io(&e).is_some() {
                    e
                } else {
                    corrupt(e.to_string())
                });
            }
        }
    }
    out.truncate(filled);
    Ok(())
}

/// The bytes `[pos, end)` of a file shared by threads, read at their offsets; its errors
/// name the file.
struct At<'f> {
    name: &'f str,
    file: &'f File,
    pos: u64,
    end: u64,
}

impl Read for At<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end.saturating_sub(self.pos)).unwrap_or(usize::MAX);
        let room = buf.len().min(left);
        let n = self
            .file
            .read_at(buf.get_mut(..room).unwrap_or_default(), self.pos)
            .map_err(|e| InputError::io(self.name, e).into_io())?;
        if n == 0 && room > 0 {
            let cut = io::Error::from(io::ErrorKind::UnexpectedEof);
            return Err(InputError::io(self.name, cut).into_io());
        }
        self.pos += n as u64;
        Ok(n)
    }
}

impl Read for Frames {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        buf.get_mut(..n)
            .unwrap_or_default()
            .copy_from_slice(available.get(..n).unwrap_or_default());
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Frames {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.current.len() && !self.done {
            self.mark(self.next);
            match self.take() {
                Ok(Some(bytes)) => {
                    self.current = bytes;
                    self.pos = 0;
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        Ok(self.current.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.current.len().saturating_sub(self.pos));
        self.pos += amt;
        self.decoded += amt as u64;
    }
}
