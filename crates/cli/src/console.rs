//! Standard error, written without ever panicking (`eprintln!` panics when it is closed).
//!
//! A failed write to standard error (`2>&1 | head -1`) is returned as an error of kind
//! [`BrokenPipe`](io::ErrorKind::BrokenPipe) (whatever the cause), which ends the run quietly,
//! as a closed standard output does; [`closed`] then tells the end of `main` not to try again.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to standard error.
pub fn write(text: &str) -> io::Result<()> {
    if CLOSED.load(Ordering::Relaxed) {
        return Err(io::ErrorKind::BrokenPipe.into());
    }
    let mut err = io::stderr().lock();
    match err.write_all(text.as_bytes()).and_then(|()| err.flush()) {
        Ok(()) => Ok(()),
        Err(_) => {
            CLOSED.store(true, Ordering::Relaxed);
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }
}

/// Writes `line` and a line end to standard error, ignoring failure (the last words of a run).
pub fn say(line: &str) {
    let _ = write(&format!("{line}\n"));
}

/// Whether standard error was found closed.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}
