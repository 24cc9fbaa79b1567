//! A decoder on its own thread: [`Piped`] runs a [`Read`] on a new thread and hands its bytes
//! over in chunks through a bounded channel, so decompression and reading the games run on
//! two cores. [`Counted`] counts the compressed bytes a decoder has taken (the progress bar's
//! count and the offset of a fault).

use std::io::{self, BufRead, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

use crate::InputError;

/// Bytes per chunk handed over.
const CHUNK: usize = 256 << 10;

/// Chunks waiting in the channel at most (the memory bound: this many chunks plus one being
/// filled and one being read).
const QUEUE: usize = 4;

/// A reader that counts the bytes read through it into a shared counter.
#[derive(Debug)]
pub struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R> Counted<R> {
    /// `inner`, counting into `count` (which may already hold bytes before it).
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Counted<R> {
        Counted { inner, count }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.count.fetch_add(amt as u64, Ordering::Relaxed);
        self.inner.consume(amt);
    }
}

/// How a decoder's errors are named: the input, the format and the compressed bytes read.
#[derive(Debug, Clone)]
pub(crate) struct Fault {
    pub name: String,
    pub format: &'static str,
    pub count: Arc<AtomicU64>,
    /// [`Options::max_window`](crate::Options::max_window): a decoder refusing a window is
    /// told apart from a corrupt stream.
    pub max_window: u64,
}

impl Fault {
    /// `error` of the decoder as an [`InputError::Corrupt`] at the bytes read so far, or
    /// [`InputError::WindowTooLarge`] (an I/O error of the file stays one).
    pub fn wrap(&self, error: io::Error) -> io::Error {
        if InputError::from_io(&error).is_some() {
            return error;
        }
        let source_is_io = matches!(
            error.kind(),
            io::ErrorKind::PermissionDenied | io::ErrorKind::Interrupted | io::ErrorKind::NotFound
        );
        if source_is_io {
            return InputError::io(&self.name, error).into_io();
        }
        crate::window::decoder_fault(
            &self.name,
            self.format,
            self.count.load(Ordering::Relaxed),
            error.to_string(),
            self.max_window,
        )
        .into_io()
    }
}

/// The bytes of a reader that runs on its own thread.
#[derive(Debug)]
pub struct Piped {
    rx: Receiver<io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    pos: usize,
    done: bool,
}

impl Piped {
    /// Starts a thread that reads `source` to its end (or first error) and hands over its
    /// bytes; it stops when the [`Piped`] is dropped. Errors pass through `fault`.
    pub(crate) fn spawn(mut source: Box<dyn Read + Send>, fault: Fault) -> Piped {
        Piped::spawn_with(fault, move |pump| pump.run(&mut source))
    }

    /// Starts a thread that runs `body`, which makes a reader there (one that borrows what
    /// the thread owns, such as a zip member) and hands it to [`Pump::run`], or reports why
    /// it cannot with [`Pump::fail`].
    pub(crate) fn spawn_with(fault: Fault, body: impl FnOnce(&Pump) + Send + 'static) -> Piped {
        let (tx, rx) = sync_channel(QUEUE);
        thread::spawn(move || body(&Pump { tx, fault }));
        Piped {
            rx,
            chunk: Vec::new(),
            pos: 0,
            done: false,
        }
    }
}

/// The thread's side of a [`Piped`].
pub(crate) struct Pump {
    tx: SyncSender<io::Result<Vec<u8>>>,
    fault: Fault,
}

impl Pump {
    /// Hands over `error` as the stream's last word.
    #[cfg(feature = "zip")]
    pub fn fail(&self, error: io::Error) {
        let _ = self.tx.send(Err(error));
    }

    /// Hands over the bytes of `source` to its end (or first error), in full chunks.
    pub fn run(&self, source: &mut dyn Read) {
        pump(source, &self.tx, &self.fault);
    }
}

/// The thread's loop: full chunks until the end.
fn pump(source: &mut dyn Read, tx: &SyncSender<io::Result<Vec<u8>>>, fault: &Fault) {
    loop {
        let mut chunk = vec![0; CHUNK];
        let mut len = 0;
        let mut failed = None;
        while len < CHUNK {
            match source.read(chunk.get_mut(len..).unwrap_or_default()) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failed = Some(fault.wrap(e));
                    break;
                }
            }
        }
        chunk.truncate(len);
        let end = len < CHUNK;
        if len > 0 && tx.send(Ok(chunk)).is_err() {
            return;
        }
        if let Some(e) = failed {
            let _ = tx.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

impl Read for Piped {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl BufRead for Piped {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.chunk.len() && !self.done {
            match self.rx.recv() {
                Ok(Ok(chunk)) => {
                    self.chunk = chunk;
                    self.pos = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => self.done = true,
            }
        }
        Ok(self.chunk.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.chunk.len());
    }
}

/// [`Read::read`] for the crate's buffered readers: what `fill_buf` has, as much as `buf`
/// takes.
pub(crate) fn read_buffered<R: BufRead>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf.get_mut(..n)
        .unwrap_or_default()
        .copy_from_slice(available.get(..n).unwrap_or_default());
    reader.consume(n);
    Ok(n)
}
