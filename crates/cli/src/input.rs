//! Opening the inputs: files or standard input, compressed or not (pgnkit-input
//! tells the format from the bytes: zstd, gzip, bzip2, xz, zip, UTF-16 with a
//! byte order mark), whole or a byte range (`--range`), with a progress bar for
//! big files that counts the bytes of the file as stored. The policy (what is
//! refused, how a range is read) is pgnkit-input's ([`input::open`]); what is
//! the command's: the progress bar, and each refusal in its words.

use std::io::{self, BufRead, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use pgnkit::input::{self, InputError, Options, Source};

use crate::args::Inputs;
use crate::failure::Failure;

/// Inputs larger than this get a progress bar (when stderr is a terminal).
const PROGRESS_THRESHOLD: u64 = 4 << 20;

/// One input stream: its name for messages and a buffered reader.
pub struct Input {
    /// `-` for standard input, the path as given, `archive.zip:member.pgn`.
    pub name: String,
    /// The text.
    pub reader: Box<dyn BufRead + Send>,
    /// Shown while reading big files on a terminal.
    pub progress: Option<ProgressBar>,
    /// The encoding the text was transcoded from (UTF-16), recorded on each of its games.
    pub transcoded: Option<input::Transcoded>,
}

/// The inputs named on the command line; none means standard input.
pub fn names(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

/// Opens `path` (`-` is standard input) with pgnkit-input's policy: its
/// streams (a zip archive has one per `.pgn` member, the others named in a
/// warning on stderr), or a clear message: what a file we do not read looks
/// like, a corrupt stream with the offset in the compressed file.
pub fn open(path: &Path, inputs: &Inputs) -> Result<Vec<Input>, Failure> {
    let options = Options {
        threads: inputs.threads(),
        max_window: inputs.max_window,
    };
    let source = if path == Path::new("-") {
        Source::stdin()
    } else {
        Source::path(path)
    };
    let name = source.name().to_owned();
    let range = inputs.range.map(|range| range.start..range.end);
    let opened = input::open(source, range, &options).map_err(|e| failure(&name, &e))?;
    for warning in &opened.warnings {
        crate::console::say(&format!("pgnkit: warning: {warning}"));
    }
    Ok(opened.streams.into_iter().map(with_progress).collect())
}

/// The message for an input that cannot be read, in the command's words
/// (its options named).
pub fn failure(name: &str, error: &InputError) -> Failure {
    match error {
        InputError::Io { source, .. } => Failure::io(name, source),
        InputError::Directory { .. } => Failure::usage(error.to_string()),
        InputError::RangeNeedsFile { .. } => {
            Failure::usage("--range needs a file, not standard input".to_string())
        }
        InputError::WindowTooLarge { .. } => Failure::usage(format!(
            "cannot read {error}; raise the limit with --max-window {}",
            error
                .window_to_read()
                .map_or_else(|| "SIZE".to_string(), input::format_size)
        )),
        other => Failure::usage(format!("cannot read {other}")),
    }
}

/// The message for an error met while reading `name`.
pub fn read_failure(name: &str, error: &io::Error) -> Failure {
    match InputError::from_io(error) {
        Some(input) => failure(name, input),
        None => Failure::io(name, error),
    }
}

/// A stream with a progress bar when it is big and stderr is a terminal.
fn with_progress(stream: input::Stream) -> Input {
    let progress = stream
        .size
        .filter(|&size| size > PROGRESS_THRESHOLD && io::stderr().is_terminal())
        .map(|size| {
            let bar = ProgressBar::new(size).with_style(
                ProgressStyle::with_template(
                    "{prefix} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_prefix(stream.name.clone());
            bar
        });
    let reader: Box<dyn BufRead + Send> = match &progress {
        Some(bar) => Box::new(Counting {
            inner: stream.reader,
            read: stream.read.clone(),
            bar: bar.clone(),
        }),
        None => stream.reader,
    };
    Input {
        name: stream.name,
        reader,
        progress,
        transcoded: stream.transcoded,
    }
}

/// Moves a progress bar to the stored bytes read so far as the text is read.
struct Counting {
    inner: Box<dyn BufRead + Send>,
    read: Arc<AtomicU64>,
    bar: ProgressBar,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.set_position(self.read.load(Ordering::Relaxed));
        Ok(n)
    }
}

impl BufRead for Counting {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.bar.set_position(self.read.load(Ordering::Relaxed));
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
    }
}
