//! Reading at a byte offset of a file without moving its cursor, as several threads read one
//! file at once. Unix has it (`pread`). Elsewhere (wasm32, where the npm package builds this
//! crate for its text rules and opens no file) such a read is an `Unsupported` error.

use std::fs::File;
use std::io;

/// Fills `buf` with the bytes of `file` from `offset` on.
#[cfg(unix)]
pub(crate) fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset)
}

/// Fills `buf` with the bytes of `file` from `offset` on: not on this platform.
#[cfg(not(unix))]
pub(crate) fn read_exact_at(_file: &File, _buf: &mut [u8], _offset: u64) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "reading a file at an offset needs Unix",
    ))
}
