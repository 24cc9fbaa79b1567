//! SIGINT, SIGTERM and SIGHUP: the temporary files of unfinished outputs are removed, the user
//! is told which outputs were not written, and the command exits with status 130. SIGXFSZ (a
//! file-size limit, `ulimit -f`) would kill the process mid-write: it is caught, so the write
//! fails with an error that is reported like a full disk.
//!
//! The temporary files live in one list, which [`crate::output`] fills and which the renames
//! into place go through under the same lock, so a signal never finds an output half renamed:
//! an output is either in place and whole, or not there and its temporary file gone.
//!
//! The outputs put in place during the run are listed too: a run that stops before its end
//! (a signal, a full disk, an input that cannot be read) with some files already in place (the
//! full parts of `--split-every`, the first table of `convert -o games --moves moves`) names
//! them, so the user knows which files are whole ([`in_place`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The exit status after a signal (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

/// The outputs of the run.
struct Files {
    /// Temporary files not yet in place, with the name of the output each one is for.
    pending: Vec<(PathBuf, String)>,
    /// The outputs put in place, in order.
    done: Vec<String>,
}

static FILES: Mutex<Files> = Mutex::new(Files {
    pending: Vec::new(),
    done: Vec::new(),
});

fn files() -> MutexGuard<'static, Files> {
    FILES.lock().unwrap_or_else(PoisonError::into_inner)
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
    let mut list = files();
    let mut names = Vec::new();
    for (temp, name) in list.pending.drain(..) {
        let _ = std::fs::remove_file(&temp);
        names.push(name);
    }
    let mut message = if names.is_empty() {
        "pgnkit: interrupted\n".to_string()
    } else {
        format!("pgnkit: interrupted: {} not written\n", names.join(", "))
    };
    if let Some(done) = describe(&list.done) {
        message.push_str(&format!("pgnkit: {done}\n"));
    }
    let _ = std::io::stderr().write_all(message.as_bytes());
    std::process::exit(i32::from(INTERRUPTED));
}

/// Adds a temporary file (for the output `name`) to the list.
fn register(temp: &Path, name: &str) {
    files().pending.push((temp.to_path_buf(), name.to_string()));
}

/// Takes a temporary file off the list (it was removed).
fn unregister(temp: &Path) {
    files().pending.retain(|(t, _)| t != temp);
}

/// Renames `temp` to `path` and takes it off the list, with no signal in between; the output
/// is then listed as in place.
fn commit(temp: &Path, path: &Path) -> std::io::Result<()> {
    let mut list = files();
    std::fs::rename(temp, path)?;
    if let Some(at) = list.pending.iter().position(|(t, _)| t == temp) {
        let (_, name) = list.pending.remove(at);
        list.done.push(name);
    }
    Ok(())
}

/// The list as pgnkit-export's [`PendingFile`](pgnkit::export::PendingFile) tells it of the
/// temporary files it makes, and through which it renames them into place.
pub struct Watch;

/// The one [`Watch`] of the process.
pub static WATCH: Watch = Watch;

impl pgnkit::export::TempFiles for Watch {
    fn creating(&self, temp: &Path, path: &Path) {
        register(temp, &path.display().to_string());
    }

    fn abandoned(&self, temp: &Path) {
        unregister(temp);
    }

    fn rename(&self, temp: &Path, path: &Path) -> std::io::Result<()> {
        commit(temp, path)
    }
}

/// For a run that stops before its end: the outputs already put in place, whole
/// (`complete and in place: out-0001.pgn, out-0002.pgn`), or `None` when there are none.
pub fn in_place() -> Option<String> {
    describe(&files().done)
}

/// Names listed whole up to this many; past it, the first ones, `...` and the last.
const LISTED: usize = 8;

/// The sentence of [`in_place`] for `done`.
fn describe(done: &[String]) -> Option<String> {
    let names = match done {
        [] => return None,
        few if few.len() <= LISTED => few.join(", "),
        [first @ .., last] => format!(
            "{}, ... {last} ({} files)",
            first[..LISTED - 2].join(", "),
            done.len()
        ),
    };
    Some(format!("complete and in place: {names}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_in_place_are_listed_shortly() {
        let names = |n: usize| -> Vec<String> { (1..=n).map(|i| format!("o-{i}")).collect() };
        assert_eq!(describe(&[]), None);
        assert_eq!(
            describe(&names(2)).as_deref(),
            Some("complete and in place: o-1, o-2")
        );
        assert_eq!(
            describe(&names(20)).as_deref(),
            Some("complete and in place: o-1, o-2, o-3, o-4, o-5, o-6, ... o-20 (20 files)")
        );
    }
}
