//! Opening the inputs: files or standard input, with a progress bar for big files.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::Failure;

/// Inputs larger than this get a progress bar (when stderr is a terminal).
const PROGRESS_THRESHOLD: u64 = 4 << 20;

/// One input: its name for messages and a buffered reader.
pub struct Input {
    /// `-` for standard input, else the path as given.
    pub name: String,
    /// The bytes.
    pub reader: Box<dyn BufRead + Send>,
    /// Shown while reading big files on a terminal.
    pub progress: Option<ProgressBar>,
}

/// The inputs named on the command line; none means standard input.
pub fn names(files: &[PathBuf]) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files.to_vec()
    }
}

/// Opens `path` (`-` is standard input) with a clear message on failure.
pub fn open(path: &Path) -> Result<Input, Failure> {
    if path == Path::new("-") {
        let mut reader = BufReader::with_capacity(1 << 16, io::stdin());
        refuse_binary("standard input", &mut reader)?;
        return Ok(Input {
            name: "-".into(),
            reader: Box::new(reader),
            progress: None,
        });
    }
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(Failure::usage(format!(
            "{name} is a directory; give the PGN files inside it"
        )));
    }
    let file = File::open(path).map_err(|err| Failure::io(&name, &err))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let (reader, progress): (Box<dyn Read + Send>, _) =
        if len > PROGRESS_THRESHOLD && io::stderr().is_terminal() {
            let bar = ProgressBar::new(len).with_style(
                ProgressStyle::with_template(
                    "{prefix} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            bar.set_prefix(name.clone());
            (Box::new(bar.wrap_read(file)), Some(bar))
        } else {
            (Box::new(file), None)
        };
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    if let Err(failure) = refuse_binary(&name, &mut reader) {
        if let Some(bar) = &progress {
            bar.finish_and_clear();
        }
        return Err(failure);
    }
    Ok(Input {
        name,
        reader: Box::new(reader),
        progress,
    })
}

/// The least bytes looked at before calling an input binary.
const SNIFF_MIN: usize = 64;

/// An error when the first bytes of `reader` (what one read gives, up to 64 KiB) are binary
/// data rather than text: NUL bytes, and control characters (not TAB, LF, CR, VT, FF) making at
/// least one byte in twenty. Text has almost none (a stray NUL in a tag section is reported as
/// that game's error); `/dev/zero`, `/dev/urandom`, images, executables and UTF-16 without a
/// byte order mark have far more.
fn refuse_binary(name: &str, reader: &mut impl BufRead) -> Result<(), Failure> {
    let head = reader.fill_buf().map_err(|e| Failure::io(name, &e))?;
    if head.len() < SNIFF_MIN || !head.contains(&0) {
        return Ok(());
    }
    let control = head
        .iter()
        .filter(|&&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)) || b == 0x7f)
        .count();
    if control * 20 < head.len() {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "cannot read {name}: binary data, not PGN text ({control} control bytes in its first {} bytes)",
        head.len()
    )))
}
