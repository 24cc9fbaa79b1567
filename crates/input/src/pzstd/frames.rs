//! Decoding pzstd frames: [`Frames`] decompresses the frames of an index on worker threads,
//! a frame per job, and hands them out in order, in pieces of [`PIECE`] bytes, at most a few
//! frames ahead of the reader (or, with one thread, the reader decodes each frame itself).

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;

use zstd::zstd_safe::{self, DCtx, DParameter, InBuffer, OutBuffer, ResetDirective};

use super::{Frame, HEADER_LEN};
use crate::InputError;

/// Bytes of a piece: what a worker hands out at a time while it decodes a frame.
pub const PIECE: usize = 512 << 10;

/// Compressed bytes a worker reads at a time.
const INPUT: usize = 256 << 10;

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

/// Decoded frames in order, decompressed ahead of the reader by worker threads, in pieces (or,
/// with one thread, by the reader itself when it needs the next frame, whole).
#[derive(Debug)]
pub struct Frames {
    shared: Arc<Shared>,
    /// The piece (or, with no worker, the frame) being read.
    current: Vec<u8>,
    pos: usize,
    /// Index of the next frame to take (with workers: the frame being read).
    next: usize,
    /// With workers: whether the frame `next` has begun to be read.
    in_frame: bool,
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
    /// The fault of the last frame decoded, for the next read (its bytes decoded before the
    /// fault are handed out first).
    fault: Option<io::Error>,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a piece or a frame's end is ready (the reader waits on it).
    to_reader: Condvar,
    /// Signalled when the reader begins a frame, or stops (the workers wait on it).
    to_workers: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Next frame a worker takes.
    claimed: usize,
    /// Frames the reader has begun to read (the one it reads and those before).
    begun: usize,
    /// The decoded pieces of the frames claimed and not yet read, by frame.
    queues: BTreeMap<usize, Queue>,
    stop: bool,
    /// Pieces read, kept for the next pieces (their capacity saves the allocations and page
    /// faults of new ones). Never more than the pieces in flight at once: a new piece is made
    /// only when none is spare.
    spare: Vec<Vec<u8>>,
}

/// A frame's decoded pieces waiting for the reader, and how its decoding ended.
#[derive(Debug, Default)]
struct Queue {
    pieces: VecDeque<Vec<u8>>,
    end: Option<io::Result<()>>,
}

/// Context for decoding: the input's name, the file, the compressed-bytes counter.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub name: String,
    pub file: Arc<File>,
    pub count: Arc<AtomicU64>,
    pub max_window: u64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hands out `piece` of the frame `index` (if it holds bytes) and gives a piece to fill
    /// next (`piece` itself if it is empty and has room); `None` when the reader has gone.
    fn hand_out(&self, index: usize, piece: Vec<u8>) -> Option<Vec<u8>> {
        let mut state = self.lock();
        if state.stop {
            return None;
        }
        let handed = !piece.is_empty();
        if handed {
            if let Some(queue) = state.queues.get_mut(&index) {
                queue.pieces.push_back(piece);
            }
        } else if piece.capacity() > 0 {
            return Some(piece);
        }
        let next = state
            .spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(PIECE));
        drop(state);
        if handed {
            self.to_reader.notify_one();
        }
        Some(next)
    }
}

impl Frames {
    /// Decodes `frames` of `source` for a run of `threads` threads: with two or more,
    /// `threads - 1` workers decode frames ahead of the reader, one frame each at a time,
    /// handing each out in pieces as they decode it, so that at most `threads` frames of
    /// decoded pieces are held (what is left of the one being read and one per worker: pzstd
    /// -19 writes 32 MiB frames, -3 about 8 MiB); with one, the reader decodes each frame
    /// itself, whole, when it needs it, holding one.
    pub(crate) fn spawn(
        source: Source,
        frames: Vec<Frame>,
        threads: usize,
        marks: Option<Marks>,
    ) -> Frames {
        let workers = threads.saturating_sub(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            to_reader: Condvar::new(),
            to_workers: Condvar::new(),
        });
        let count = frames.len();
        let frames = Arc::new(frames);
        // Named so that a profile tells decoding from reading; if no thread can be started,
        // the reader decodes the frames itself.
        let mut started = 0;
        for i in 0..workers {
            let (shared, frames, source) = (shared.clone(), frames.clone(), source.clone());
            let spawned = thread::Builder::new()
                .name(format!("pgnkit-zstd-{i}"))
                .spawn(move || worker(&shared, &frames, &source, workers));
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        let inline = (started == 0).then(|| Inline {
            frames,
            source,
            scratch: Scratch::default(),
            largest: 0,
            fault: None,
        });
        Frames {
            shared,
            current: Vec::new(),
            pos: 0,
            next: 0,
            in_frame: false,
            count,
            decoded: 0,
            marks,
            done: false,
            inline,
        }
    }

    /// With no worker: decodes the next frame here, whole, or `None` after the last.
    fn take_whole(&mut self) -> io::Result<Option<Vec<u8>>> {
        if let Some(inline) = &mut self.inline {
            // The fault of the frame before comes first, the last frame's too.
            if let Some(fault) = inline.fault.take() {
                return Err(fault);
            }
            if self.next >= self.count {
                return Ok(None);
            }
            let frame = inline.frames.get(self.next).copied();
            self.next += 1;
            let Some(frame) = frame else {
                return Ok(None);
            };
            let spent = std::mem::take(&mut self.current);
            let (bytes, result) = decode(
                &inline.source,
                &frame,
                spent,
                inline.largest,
                &mut inline.scratch,
            );
            match result {
                Ok(()) => inline.largest = inline.largest.max(bytes.len()),
                Err(e) if bytes.is_empty() => return Err(e),
                Err(e) => inline.fault = Some(e),
            }
            return Ok(Some(bytes));
        }
        Ok(None)
    }

    /// With workers: lets them decode up to `threads - 1` frames past the frame `next`, which
    /// the reader begins.
    fn begin(&self) {
        self.shared.lock().begun = self.next + 1;
        self.shared.to_workers.notify_all();
    }

    /// With workers: the next piece of the frame `next` (waiting for it), or `None` at the
    /// frame's end. The piece read so far goes back to the spare ones.
    fn next_piece(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut state = self.shared.lock();
        let mut spent = std::mem::take(&mut self.current);
        if spent.capacity() > 0 {
            spent.clear();
            state.spare.push(spent);
        }
        loop {
            if let Some(queue) = state.queues.get_mut(&self.next) {
                if let Some(piece) = queue.pieces.pop_front() {
                    return Ok(Some(piece));
                }
                if let Some(end) = queue.end.take() {
                    state.queues.remove(&self.next);
                    return end.map(|()| None);
                }
            }
            state = self
                .shared
                .to_reader
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
        self.shared.to_workers.notify_all();
    }
}

/// A worker: claims the next frame when fewer than `ahead` frames past the one the reader
/// reads are claimed, and decodes it, handing it out in pieces.
fn worker(shared: &Shared, frames: &[Frame], source: &Source, ahead: usize) {
    let mut scratch = Scratch::default();
    loop {
        let index = {
            let mut state = shared.lock();
            loop {
                if state.stop || state.claimed >= frames.len() {
                    return;
                }
                if state.claimed < state.begun + ahead {
                    break;
                }
                state = shared
                    .to_workers
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            let index = state.claimed;
            state.claimed += 1;
            state.queues.insert(index, Queue::default());
            index
        };
        let Some(frame) = frames.get(index) else {
            return;
        };
        let Some(result) = pieces(shared, index, source, frame, &mut scratch) else {
            return;
        };
        let mut state = shared.lock();
        if let Some(queue) = state.queues.get_mut(&index) {
            queue.end = Some(result);
        }
        drop(state);
        shared.to_reader.notify_one();
    }
}

/// Decodes the frame `index` with a streaming decoder ([`run_frame`]), handing it out a piece
/// at a time as the pieces fill: what the reader gets of a corrupt frame is every byte decoded
/// before the fault. `None` when the reader has gone.
fn pieces(
    shared: &Shared,
    index: usize,
    source: &Source,
    frame: &Frame,
    scratch: &mut Scratch,
) -> Option<io::Result<()>> {
    let piece = shared.hand_out(index, Vec::new())?;
    let (piece, result) = run_frame(source, frame, scratch, piece, |piece| {
        shared.hand_out(index, piece)
    })?;
    shared.hand_out(index, piece)?;
    if result.is_ok() {
        source
            .count
            .fetch_add(frame.len + HEADER_LEN, Ordering::Relaxed);
    }
    Some(result)
}

/// Decodes the bytes of `frame` (the region its skippable header gives: one zstd frame, as
/// pzstd writes it, or several, skippable frames among them, as a zstd decoder reads any
/// stream of frames) with the thread's streaming decoder, appending to `out` until it is full,
/// then calling `full` with it for the buffer to go on with (`None`: stop, the reader has
/// gone). The compressed bytes are read [`INPUT`] bytes at a time (the decoder's window and
/// the output are what a thread holds, not the compressed frame whole). Gives the last buffer
/// and how decoding ended: bytes in the region that are not a whole frame (garbage, a cut
/// frame) are a fault, named with the frame's offset.
///
/// The one decoding loop of this module: the workers (pieces) and the reader decoding frames
/// itself (one growing buffer) run it alike, so that one thread and several read a corrupt
/// file to the same bytes and the same error.
fn run_frame(
    source: &Source,
    frame: &Frame,
    scratch: &mut Scratch,
    mut piece: Vec<u8>,
    mut full: impl FnMut(Vec<u8>) -> Option<Vec<u8>>,
) -> Option<(Vec<u8>, io::Result<()>)> {
    let corrupt = |detail: &str| {
        crate::window::decoder_fault(
            &source.name,
            "zstd",
            frame.data,
            detail.to_owned(),
            source.max_window,
        )
        .into_io()
    };
    let Scratch { stream, compressed } = scratch;
    if stream.is_none() {
        *stream = DCtx::try_create();
    }
    let Some(context) = stream.as_mut() else {
        return Some((piece, Err(corrupt("no memory for a zstd decoder"))));
    };
    let setup = context.reset(ResetDirective::SessionOnly).and_then(|_| {
        context.set_parameter(DParameter::WindowLogMax(
            crate::window::zstd_window_log_max(source.max_window),
        ))
    });
    if let Err(code) = setup {
        return Some((piece, Err(corrupt(zstd_safe::get_error_name(code)))));
    }
    if compressed.len() < INPUT {
        compressed.resize(INPUT, 0);
    }
    if piece.len() == piece.capacity() {
        piece = full(piece)?;
    }
    // The compressed bytes `[pos, filled)` of `compressed` are not decoded yet; `at` is where
    // the next ones are read from.
    let (mut at, mut pos, mut filled) = (frame.data, 0, 0);
    loop {
        if pos == filled && at < frame.end() {
            let n = usize::try_from(frame.end() - at).map_or(INPUT, |left| left.min(INPUT));
            let room = compressed.get_mut(..n).unwrap_or_default();
            if let Err(e) = crate::at::read_exact_at(&source.file, room, at) {
                return Some((piece, Err(InputError::io(&source.name, e).into_io())));
            }
            (at, pos, filled) = (at + n as u64, 0, n);
        }
        let mut input = InBuffer {
            src: compressed.get(..filled).unwrap_or_default(),
            pos,
        };
        let before = (pos, piece.len());
        let out = piece.len();
        let step =
            context.decompress_stream(&mut OutBuffer::around_pos(&mut piece, out), &mut input);
        pos = input.pos;
        let hint = match step {
            Ok(hint) => hint,
            Err(code) => return Some((piece, Err(corrupt(zstd_safe::get_error_name(code))))),
        };
        // The call ended a frame (flushed whole), and no bytes are left: the region's end.
        let done = hint == 0 && pos == filled && at >= frame.end();
        if piece.len() == piece.capacity() {
            piece = full(piece)?;
        } else if (pos, piece.len()) == before && !done {
            return Some((piece, Err(corrupt("truncated frame"))));
        }
        if done {
            return Some((piece, Ok(())));
        }
    }
}

/// What a decoding thread keeps from frame to frame: its decompression context and the
/// buffer the compressed bytes are read into.
#[derive(Default)]
struct Scratch {
    stream: Option<DCtx<'static>>,
    compressed: Vec<u8>,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("compressed", &self.compressed.len())
            .finish_non_exhaustive()
    }
}

/// Bytes the reader's own buffer grows by at a time while it decodes a frame larger than
/// those before.
const STREAM_STEP: usize = 1 << 20;

/// Decompresses one frame into `out` (its bytes are dropped, its capacity kept) by
/// [`run_frame`], as the workers do, growing `out` as it fills: room for the largest frame
/// decoded so far (`largest`: pzstd's frames do not record their decoded size) is made
/// first. Of a corrupt frame, the bytes decoded before the fault are returned with it.
fn decode(
    source: &Source,
    frame: &Frame,
    mut out: Vec<u8>,
    largest: usize,
    scratch: &mut Scratch,
) -> (Vec<u8>, io::Result<()>) {
    out.clear();
    out.reserve(largest.max(STREAM_STEP));
    let grow = |mut out: Vec<u8>| {
        out.reserve(STREAM_STEP);
        Some(out)
    };
    let Some((out, result)) = run_frame(source, frame, scratch, out, grow) else {
        // `grow` always gives a buffer: never here.
        return (Vec::new(), Err(io::Error::other("decoding stopped")));
    };
    if result.is_ok() {
        source
            .count
            .fetch_add(frame.len + HEADER_LEN, Ordering::Relaxed);
    }
    (out, result)
}

impl Read for Frames {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::read_buffered(self, buf)
    }
}

impl BufRead for Frames {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.inline.is_none() {
            return self.fill_piece();
        }
        while self.pos >= self.current.len() && !self.done {
            self.mark(self.next);
            match self.take_whole() {
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

impl Frames {
    /// [`BufRead::fill_buf`] with workers: the pieces of each frame in turn.
    fn fill_piece(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.current.len() && !self.done {
            if !self.in_frame {
                self.mark(self.next);
                if self.next >= self.count {
                    self.done = true;
                    break;
                }
                self.begin();
                self.in_frame = true;
            }
            match self.next_piece() {
                Ok(Some(piece)) => {
                    self.current = piece;
                    self.pos = 0;
                }
                Ok(None) => {
                    self.in_frame = false;
                    self.next += 1;
                }
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        Ok(self.current.get(self.pos..).unwrap_or_default())
    }
}
