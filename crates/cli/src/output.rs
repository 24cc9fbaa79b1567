//! Where a command writes: standard output or a file, never half a file under its name.
//!
//! A regular file (`-o out.pgn`, `--rejects bad.pgn`) is written to a temporary file in the same
//! directory and renamed into place only when the run has completed
//! ([`Output::finish`]); on any failure, or a signal ([`crate::signals`]), the temporary file is
//! removed and a file already under the final name is left as it was. Anything else (standard
//! output, `/dev/null`, a pipe) is written directly.
//!
//! Writes are buffered here rather than by a `BufWriter`, so that the games counted as written
//! are the ones the operating system took: a game is counted once the buffer holding its last
//! byte has been written out, and an error names the output, not the input.

use std::error::Error;
use std::fmt;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use pgnkit::export::PendingFile;

use crate::compress::{Codec, Compressor};
use crate::failure::{self, Failure};
use crate::signals;

/// Bytes gathered before they are written out.
const BUFFER: usize = 1 << 16;

/// The name of standard output in messages.
const STDOUT: &str = "standard output";

/// An output being written.
pub struct Output {
    name: String,
    dest: Dest,
    buf: Vec<u8>,
    /// Games whose last byte is in `buf`.
    pending: u64,
    /// Games written out.
    written: u64,
    /// Compresses the text before it goes out (`-o x.pgn.zst`, `--compress`).
    codec: Option<Compressor>,
}

enum Dest {
    Stdout(io::Stdout),
    /// A file, replaced whole at the end unless it is a device or a pipe.
    File(PendingFile),
}

impl Output {
    /// Standard output.
    pub fn stdout() -> Output {
        Output::new(STDOUT.into(), Dest::Stdout(io::stdout()))
    }

    /// The file at `path`: a temporary file beside it when it is (or will be) a regular file,
    /// else the file itself (a device such as `/dev/null`, a pipe).
    pub fn file(path: &Path) -> Result<Output, Failure> {
        let name = path.display().to_string();
        let pending = PendingFile::create_watched(path, &signals::WATCH).map_err(|e| {
            if e.kind() == io::ErrorKind::InvalidInput {
                Failure::usage(format!("cannot write {name}: {e}"))
            } else {
                Failure::write(&name, &e)
            }
        })?;
        Ok(Output::new(name, Dest::File(pending)))
    }

    /// The file at `path`, its present content kept before what is written
    /// (`--append`). A regular file keeps the promise of [`Output::file`]: the
    /// old content is copied into the temporary file, which replaces the file
    /// only when the run has completed (until then, and on any failure, the
    /// file is as it was). A compressed output gets a new stream after the
    /// old bytes (zstd, gzip, bzip2 and xz read concatenated streams as one).
    pub fn append(path: &Path) -> Result<Output, Failure> {
        let mut output = Output::file(path)?;
        if let Dest::File(pending) = &mut output.dest
            && !pending.is_direct()
            && path.exists()
        {
            let name = &output.name;
            let mut old = std::fs::File::open(path).map_err(|e| Failure::io(name, &e))?;
            io::copy(&mut old, pending).map_err(|e| Failure::write(name, &e))?;
        }
        Ok(output)
    }

    fn new(name: String, dest: Dest) -> Output {
        Output {
            name,
            dest,
            buf: Vec::with_capacity(BUFFER),
            pending: 0,
            written: 0,
            codec: None,
        }
    }

    /// Compresses what is written with `codec` (`None`: as the file name's
    /// extension says, for a file; nothing for standard output).
    pub fn compressed(
        mut self,
        codec: Option<Codec>,
        level: Option<u32>,
    ) -> Result<Output, Failure> {
        let by_name = match &self.dest {
            Dest::Stdout(_) => None,
            _ => Codec::for_path(Path::new(&self.name)),
        };
        if let Some(codec) = codec.or(by_name) {
            let compressor =
                Compressor::new(codec, level).map_err(|e| Failure::write(&self.name, &e))?;
            self.codec = Some(compressor);
        }
        Ok(self)
    }

    /// The output's name for messages (`standard output`, or the path as given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether this is a file put in place at the end (not a device or standard output).
    pub fn is_file(&self) -> bool {
        matches!(&self.dest, Dest::File(pending) if !pending.is_direct())
    }

    /// Games written out so far (see [`Output::write_game`]).
    pub fn games_written(&self) -> u64 {
        self.written
    }

    /// Games handed over but not yet written out.
    #[cfg(test)]
    pub fn games_pending(&self) -> u64 {
        self.pending
    }

    /// Writes the text of one game (counted as written once it is out).
    pub fn write_game(&mut self, text: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(text);
        self.pending += 1;
        self.flush_if_full()
    }

    /// Writes the text of one game that `write` appends to the buffer (no copy of it made
    /// elsewhere first); counted as [`Output::write_game`] counts it.
    pub fn write_game_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> io::Result<()> {
        write(&mut self.buf);
        self.pending += 1;
        self.flush_if_full()
    }

    /// Writes text that is not a game (diagnostics, FENs of `fen --every-ply`...).
    pub fn write_text(&mut self, text: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(text);
        self.flush_if_full()
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= BUFFER {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes out what is buffered; an error is an [`OutputError`] naming this output.
    pub fn flush(&mut self) -> io::Result<()> {
        let compressed = match &mut self.codec {
            Some(codec) => Some(codec.push(&self.buf)),
            None => None,
        };
        let result = match compressed {
            Some(Ok(bytes)) => self.write_out(&bytes),
            Some(Err(e)) => Err(e),
            None => self.write_out(&self.buf),
        };
        self.buf.clear();
        match result {
            Ok(()) => {
                self.written += std::mem::take(&mut self.pending);
                Ok(())
            }
            Err(e) => {
                self.pending = 0;
                let stdout = matches!(self.dest, Dest::Stdout(_));
                let mut first = FIRST_FAILURE.lock().unwrap_or_else(PoisonError::into_inner);
                if first.is_none() {
                    *first = Some((self.name.clone(), stdout, e.kind(), failure::describe(&e)));
                }
                Err(OutputError::wrap(&self.name, stdout, e))
            }
        }
    }

    /// Writes `bytes` to the destination.
    fn write_out(&self, bytes: &[u8]) -> io::Result<()> {
        match &self.dest {
            Dest::Stdout(out) => {
                let mut out = out.lock();
                out.write_all(bytes).and_then(|()| out.flush())
            }
            Dest::File(pending) => pending.file().write_all(bytes),
        }
    }

    /// Writes out what is buffered and makes a file's bytes durable now (on the thread that
    /// wrote them, beside the other outputs' work), so that [`finish`](Output::finish) only
    /// puts it in place. Nothing more for standard output or a device.
    pub fn sync(&mut self) -> io::Result<()> {
        self.flush()?;
        match &mut self.dest {
            Dest::File(pending) => pending
                .sync()
                .map_err(|e| OutputError::wrap(&self.name, false, e)),
            Dest::Stdout(_) => Ok(()),
        }
    }

    /// Writes out the rest and, for a file, puts it in place under its name. Returns the games
    /// written.
    pub fn finish(mut self) -> Result<u64, Failure> {
        // An error of `flush` names this output already.
        self.flush().map_err(|e| Failure::usage(e.to_string()))?;
        if let Some(codec) = self.codec.take() {
            let tail = codec.finish().map_err(|e| Failure::write(&self.name, &e))?;
            self.write_out(&tail)
                .map_err(|e| Failure::write(&self.name, &e))?;
        }
        if let Dest::File(pending) = self.dest {
            pending
                .commit()
                .map_err(|e| Failure::write(&self.name, &e))?;
        }
        Ok(self.written)
    }
}

/// As a plain writer (for the table writers of `convert`): bytes are text, not games; errors
/// name the output.
impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_text(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Output::flush(self)
    }
}

/// The first write error of any output (its name, whether it is standard output, the error's
/// kind and words): a table writer that keeps only the words of an error (Arrow's CSV writer)
/// is still reported by what failed, see [`OutputError::of_writer`].
static FIRST_FAILURE: Mutex<Option<(String, bool, io::ErrorKind, String)>> = Mutex::new(None);

/// An error writing an output, carried inside an [`io::Error`] (same kind) so that the pipeline
/// can tell it from an error reading the input.
#[derive(Debug)]
pub struct OutputError {
    /// The output's name.
    pub name: String,
    stdout: bool,
    /// The source's message names the output already (a [`Failure`] opening or putting in
    /// place a part of a split output).
    named: bool,
    source: io::Error,
}

impl OutputError {
    fn wrap(name: &str, stdout: bool, source: io::Error) -> io::Error {
        io::Error::new(
            source.kind(),
            OutputError {
                name: name.to_string(),
                stdout,
                named: false,
                source,
            },
        )
    }

    /// An error of the output `name` (a file) that is not an I/O error of its own, such as a
    /// table writer's: the pipeline then ends the run with it, naming the output.
    pub fn other(name: &str, message: impl fmt::Display) -> io::Error {
        OutputError::wrap(name, false, io::Error::other(message.to_string()))
    }

    /// A failure opening, ending or putting in place the output `name`, whose message names
    /// it already (`cannot write out-0002.pgn: No space left on device`).
    pub fn failure(name: &str, failure: &Failure) -> io::Error {
        io::Error::other(OutputError {
            name: name.to_string(),
            stdout: false,
            named: true,
            source: io::Error::other(failure.to_string()),
        })
    }

    /// The error of a table writer (`parquet: External: ...`) as the output's own error when
    /// it comes from writing the output (a full disk, a closed standard output): then it
    /// names the output once, keeps the error's kind (`| head` ends the run quietly), and
    /// not the writer's wrapping. Any other error is the output `name`'s, with its message.
    pub fn of_writer(name: &str, e: &(dyn Error + 'static)) -> io::Error {
        let mut cause = Some(e);
        while let Some(e) = cause {
            if let Some(output) = e.downcast_ref::<io::Error>().and_then(OutputError::of) {
                let source = io::Error::new(output.source.kind(), output.source.to_string());
                return OutputError::wrap(&output.name, output.stdout, source);
            }
            cause = e.source();
        }
        let first = FIRST_FAILURE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((output, stdout, kind, what)) = first.as_ref() {
            return OutputError::wrap(output, *stdout, io::Error::new(*kind, what.clone()));
        }
        OutputError::other(name, e)
    }

    /// Whether the output is standard output.
    pub fn is_stdout(&self) -> bool {
        self.stdout
    }

    /// The output error inside `e`, if it is one.
    pub fn of(e: &io::Error) -> Option<&OutputError> {
        e.get_ref()?.downcast_ref::<OutputError>()
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = failure::describe(&self.source);
        if self.named {
            return f.write_str(&what);
        }
        write!(f, "cannot write {}: {what}", self.name)
    }
}

impl Error for OutputError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    /// An empty folder for one test, removed at its end if it passes (a failed test's is
    /// left to look at).
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-output-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .expect("the directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_appears_under_its_name_only_when_finished() {
        let dir = scratch("finish");
        let path = dir.join("out.pgn");
        fs::write(&path, "old").expect("an old file");
        let mut out = Output::file(&path).expect("created");
        out.write_game(b"game one\n").expect("buffered");
        out.flush().expect("written");
        assert_eq!(fs::read(&path).expect("still there"), b"old");
        assert_eq!(entries(&dir).len(), 2, "the temporary file is beside it");
        assert_eq!(out.finish().expect("renamed"), 1);
        assert_eq!(fs::read(&path).expect("in place"), b"game one\n");
        assert_eq!(entries(&dir), ["out.pgn"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_abandoned_file_leaves_the_old_one_and_no_temporary_file() {
        let dir = scratch("abandon");
        let path = dir.join("out.pgn");
        fs::write(&path, "old").expect("an old file");
        let mut out = Output::file(&path).expect("created");
        out.write_game(&[b'x'; 3 * BUFFER]).expect("written");
        drop(out); // given up: not put in place
        assert_eq!(fs::read(&path).expect("still there"), b"old");
        assert_eq!(entries(&dir), ["out.pgn"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn games_count_as_written_once_out() {
        let dir = scratch("count");
        let mut out = Output::file(&dir.join("out.pgn")).expect("created");
        out.write_game(b"a").expect("buffered");
        out.write_game(b"b").expect("buffered");
        assert_eq!((out.games_written(), out.games_pending()), (0, 2));
        out.write_game(&[b'c'; BUFFER]).expect("written out");
        assert_eq!((out.games_written(), out.games_pending()), (3, 0));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_game_written_in_place_is_counted_and_kept() {
        let dir = scratch("in-place");
        let path = dir.join("out.pgn");
        let mut out = Output::file(&path).expect("created");
        out.write_game(b"a\n").expect("buffered");
        out.write_game_with(|buf| buf.extend_from_slice(b"b\n"))
            .expect("buffered");
        assert_eq!((out.games_written(), out.games_pending()), (0, 2));
        out.write_game_with(|buf| buf.resize(buf.len() + BUFFER, b'c'))
            .expect("written out");
        assert_eq!((out.games_written(), out.games_pending()), (3, 0));
        assert_eq!(out.finish().expect("renamed"), 3);
        let text = fs::read(&path).expect("in place");
        assert_eq!(&text[..4], b"a\nb\n");
        assert_eq!(text.len(), 4 + BUFFER);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_is_an_error_that_names_the_output() {
        let mut out = Output::file(Path::new("/dev/full")).expect("opened directly");
        out.write_game(b"a game").expect("buffered");
        let error = out.flush().expect_err("the device is full");
        assert_eq!(
            OutputError::of(&error).map(|e| e.name.as_str()),
            Some("/dev/full")
        );
        assert!(error.to_string().starts_with("cannot write /dev/full: "));
        assert_eq!(out.games_written(), 0);
    }
}
