//! SIGINT, SIGTERM and SIGHUP: the temporary files of unfinished outputs are removed, the user
//! is told which outputs were not written, and the command exits with status 130. SIGXFSZ (a
//! file-size limit, `ulimit -f`) would kill the process mid-write: it is caught, so the write
//! fails with an error that is reported like a full disk.
//!
//! The temporary files live in one list, which [`crate::output`] fills and which the renames
//! into place go through under the same lock, so a signal never finds an output half renamed:
//! an output is either in place and whole, or not there and its temporary file gone.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The exit status after a signal (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// Temporary files not yet in place, with the name of the output each one is for.
static PENDING: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<(PathBuf, String)>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Installs the handlers. Failing to install them is not fatal (the outputs are still safe from
/// everything but the signals); the reason is returned for a warning.
#[cfg(unix)]
pub fn install() -> Result<(), String> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
    let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(SIGXFSZ, caught).map_err(|e| e.to_string())?;
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| e.to_string())?;
    std::thread::Builder::new()
        .name("pgnkit signals".into())
        .spawn(move || {
            if signals.forever().next().is_some() {
                on_signal();
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Installs the handlers (none here).
#[cfg(not(unix))]
pub fn install() -> Result<(), String> {
    Ok(())
}

fn on_signal() {
    // Held until the process exits: no rename can start after this point.
    let mut list = pending();
    let mut names = Vec::new();
    for (temp, name) in list.drain(..) {
        let _ = std::fs::remove_file(&temp);
        names.push(name);
    }
    let message = if names.is_empty() {
        "pgnkit: interrupted\n".to_string()
    } else {
        format!("pgnkit: interrupted: {} not written\n", names.join(", "))
    };
    let _ = std::io::stderr().write_all(message.as_bytes());
    std::process::exit(i32::from(INTERRUPTED));
}

/// Adds a temporary file (for the output `name`) to the list.
pub fn register(temp: &Path, name: &str) {
    pending().push((temp.to_path_buf(), name.to_string()));
}

/// Takes a temporary file off the list (it was removed).
pub fn unregister(temp: &Path) {
    pending().retain(|(t, _)| t != temp);
}

/// Renames `temp` to `path` and takes it off the list, with no signal in between.
pub fn commit(temp: &Path, path: &Path) -> std::io::Result<()> {
    let mut list = pending();
    std::fs::rename(temp, path)?;
    list.retain(|(t, _)| t != temp);
    Ok(())
}
