//! The one look at a file every entry point takes before reading it ([`probe`]): open it,
//! refuse a directory, take its size and first bytes, tell its format from them, and for zstd
//! find pzstd's frame index. Opening a whole file, a byte range, cutting split points and
//! planning partitions all start here.

use std::fs::File;
use std::path::Path;

use crate::pzstd::{self, Frame};
use crate::{Format, HEAD_LEN, InputError, detect};

/// What [`probe`] found of a regular file.
#[derive(Debug)]
pub(crate) struct Probe {
    /// The file, open for reading.
    pub file: File,
    /// Its size as stored.
    pub size: u64,
    /// Its first bytes (up to [`HEAD_LEN`]).
    pub head: Vec<u8>,
    /// What they say it is.
    pub format: Format,
    /// For zstd in pzstd's layout throughout: its frames.
    pub frames: Option<Vec<Frame>>,
}

/// What a path names.
#[derive(Debug)]
pub(crate) enum Probed {
    /// A regular file.
    File(Probe),
    /// A pipe or a device (`/dev/stdin`, `<(...)`): read as a stream, no size, no seeking.
    Stream(File),
}

/// Opens the file at `path` (named `name` in messages) and looks at it: a directory is
/// [`InputError::Directory`].
pub(crate) fn probe(path: &Path, name: &str) -> Result<Probed, InputError> {
    let io_err = |e| InputError::io(name, e);
    let file = File::open(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            name: name.to_owned(),
        });
    }
    if !meta.is_file() {
        return Ok(Probed::Stream(file));
    }
    let size = meta.len();
    let mut head = vec![0; HEAD_LEN.min(usize::try_from(size).unwrap_or(HEAD_LEN))];
    crate::at::read_exact_at(&file, &mut head, 0).map_err(io_err)?;
    let format = detect(&head);
    let frames = match format {
        Format::Zstd => pzstd::index(&file, size).map_err(io_err)?,
        _ => None,
    };
    Ok(Probed::File(Probe {
        file,
        size,
        head,
        format,
        frames,
    }))
}
