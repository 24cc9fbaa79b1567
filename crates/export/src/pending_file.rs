//! An output file that appears under its name whole or not at all.
//!
//! [`PendingFile::create`] opens a temporary file beside the path
//! (`.NAME.pgnkit-PID-N.tmp`, in the same directory so the rename cannot cross file
//! systems); [`PendingFile::commit`] makes its bytes durable and renames it into place;
//! dropping it before (an error, an interrupt) removes it, so a file already under the
//! final name is left as it was. The replacement keeps the old file's permissions. A path
//! that exists and is not a regular file (`/dev/null`, a pipe, a terminal) is written
//! directly: it is never replaced.
//!
//! A program that removes temporary files on a signal (the command line does) passes a
//! [`TempFiles`] to [`PendingFile::create_watched`]: it hears of each temporary file
//! before it exists and does the rename, so that it can hold its own lock around it.
//! This is the one place pgnkit's front-ends decide how an output file is replaced.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a program that cleans up after signals learns of the temporary files.
pub trait TempFiles: Sync {
    /// `temp` is about to be created for `path`.
    fn creating(&self, temp: &Path, path: &Path);
    /// `temp` was not created, or was removed unfinished.
    fn abandoned(&self, temp: &Path);
    /// Puts the finished `temp` in place as `path` (a rename).
    fn rename(&self, temp: &Path, path: &Path) -> io::Result<()> {
        fs::rename(temp, path)
    }
}

/// Nobody to tell.
struct Unwatched;

impl TempFiles for Unwatched {
    fn creating(&self, _: &Path, _: &Path) {}
    fn abandoned(&self, _: &Path) {}
}

/// Numbers the temporary files of one process.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// A file being written that becomes `path` on [`commit`](PendingFile::commit).
pub struct PendingFile {
    file: File,
    /// The temporary file; `None` when `path` is written directly.
    temp: Option<PathBuf>,
    path: PathBuf,
    watch: &'static dyn TempFiles,
    committed: bool,
    /// The file's length when [`sync`](PendingFile::sync) made it durable.
    synced_len: Option<u64>,
}

impl PendingFile {
    /// A temporary file for `path` (or `path` itself when it is a device or a pipe).
    ///
    /// # Errors
    /// The temporary file cannot be created (`InvalidInput` when `path` has no file name).
    pub fn create(path: &Path) -> io::Result<PendingFile> {
        PendingFile::create_watched(path, &Unwatched)
    }

    /// As [`create`](PendingFile::create), telling `watch` of the temporary file before
    /// it exists and leaving the rename to it.
    ///
    /// # Errors
    /// As [`create`](PendingFile::create).
    pub fn create_watched(path: &Path, watch: &'static dyn TempFiles) -> io::Result<PendingFile> {
        let old = fs::metadata(path).ok();
        if old.as_ref().is_some_and(|m| !m.is_file()) {
            return Ok(PendingFile {
                file: OpenOptions::new().write(true).open(path)?,
                temp: None,
                path: path.to_path_buf(),
                watch,
                committed: false,
                synced_len: None,
            });
        }
        let file_name = path
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let mut temp_name = OsString::from(".");
            temp_name.push(file_name);
            temp_name.push(format!(".pgnkit-{}-{n}.tmp", std::process::id()));
            let temp = dir.join(temp_name);
            // Told before it exists, so a signal between the two cannot leave it behind.
            watch.creating(&temp, path);
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    if let Some(old) = &old {
                        // Keep the permissions of the file it replaces.
                        let _ = file.set_permissions(old.permissions());
                    }
                    return Ok(PendingFile {
                        file,
                        temp: Some(temp),
                        path: path.to_path_buf(),
                        watch,
                        committed: false,
                        synced_len: None,
                    });
                }
                Err(e) => {
                    watch.abandoned(&temp);
                    if e.kind() != io::ErrorKind::AlreadyExists {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// The file written to.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether `path` is written directly (a device or a pipe), not replaced at the end.
    pub fn is_direct(&self) -> bool {
        self.temp.is_none()
    }

    /// Makes the bytes written so far durable now, so that [`commit`](PendingFile::commit)
    /// only has to rename the file (unless it grew since): a program writing several files
    /// syncs each on the thread that wrote it, at the same time, and puts them in place
    /// once all are done. Nothing for a file written directly.
    ///
    /// # Errors
    /// The sync failed.
    pub fn sync(&mut self) -> io::Result<()> {
        if self.temp.is_some() {
            self.file.sync_all()?;
            self.synced_len = Some(self.file.metadata()?.len());
        }
        Ok(())
    }

    /// Makes the written bytes durable (unless [`sync`](PendingFile::sync) did and the file
    /// has not grown since: files are written from start to end) and renames the file into
    /// place.
    ///
    /// # Errors
    /// The sync or the rename failed; the temporary file is then removed.
    pub fn commit(mut self) -> io::Result<()> {
        if let Some(temp) = &self.temp {
            let synced = match self.synced_len {
                Some(len) => self.file.metadata()?.len() == len,
                None => false,
            };
            if !synced {
                self.file.sync_all()?;
            }
            self.watch.rename(temp, &self.path)?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Write for PendingFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.committed
            && let Some(temp) = &self.temp
        {
            let _ = fs::remove_file(temp);
            self.watch.abandoned(temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An empty folder for one test, removed at its end if it passes (a failed test's is
    /// left to look at).
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("pgnkit-pending-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch directory");
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("read_dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_file_appears_under_its_name_only_when_committed() {
        let dir = scratch("commit");
        let path = dir.join("out.pgn");
        let mut pending = PendingFile::create(&path).expect("create");
        pending.write_all(b"text").expect("write");
        assert!(!path.exists());
        assert_eq!(entries(&dir).len(), 1, "only the temporary file");
        assert!(entries(&dir)[0].starts_with(".out.pgn.pgnkit-"));
        pending.commit().expect("commit");
        assert_eq!(entries(&dir), ["out.pgn"]);
        assert_eq!(fs::read(&path).expect("read"), b"text");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_synced_file_is_still_put_in_place_only_at_commit_with_what_came_after() {
        let dir = scratch("sync");
        let path = dir.join("out.parquet");
        let mut pending = PendingFile::create(&path).expect("create");
        pending.write_all(b"head").expect("write");
        pending.sync().expect("sync");
        assert_eq!(pending.synced_len, Some(4));
        assert!(!path.exists(), "a sync puts nothing in place");
        pending.write_all(b" and tail").expect("write");
        pending.commit().expect("commit");
        assert_eq!(fs::read(&path).expect("read"), b"head and tail");
        assert_eq!(entries(&dir), ["out.parquet"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_abandoned_file_leaves_the_old_one_and_no_temporary_file() {
        let dir = scratch("abandon");
        let path = dir.join("out.pgn");
        fs::write(&path, "old").expect("old file");
        let mut pending = PendingFile::create(&path).expect("create");
        pending.write_all(b"new").expect("write");
        drop(pending);
        assert_eq!(entries(&dir), ["out.pgn"]);
        assert_eq!(fs::read(&path).expect("read"), b"old");
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_directly() {
        let pending = PendingFile::create(Path::new("/dev/null")).expect("create");
        assert!(pending.is_direct());
        pending.commit().expect("commit");
        assert!(Path::new("/dev/null").exists());
    }

    #[test]
    fn a_path_without_a_file_name_is_refused() {
        let e = PendingFile::create(Path::new("/")).err().expect("refused");
        assert!(matches!(
            e.kind(),
            io::ErrorKind::InvalidInput | io::ErrorKind::IsADirectory | io::ErrorKind::Other
        ));
    }

    /// Records what it is told.
    struct Log(Mutex<Vec<String>>);

    impl TempFiles for Log {
        fn creating(&self, temp: &Path, path: &Path) {
            let line = format!("creating {} for {}", name(temp), name(path));
            self.0.lock().expect("log").push(line);
        }
        fn abandoned(&self, temp: &Path) {
            let line = format!("abandoned {}", name(temp));
            self.0.lock().expect("log").push(line);
        }
        fn rename(&self, temp: &Path, path: &Path) -> io::Result<()> {
            let line = format!("rename {}", name(temp));
            self.0.lock().expect("log").push(line);
            fs::rename(temp, path)
        }
    }

    fn name(path: &Path) -> String {
        let name = path.file_name().expect("name").to_string_lossy();
        // The process id and the counter vary from run to run.
        name.split(".pgnkit-")
            .next()
            .unwrap_or_default()
            .to_string()
    }

    #[test]
    fn the_watcher_hears_of_each_temporary_file_and_does_the_rename() {
        static LOG: Log = Log(Mutex::new(Vec::new()));
        let dir = scratch("watched");
        let kept = PendingFile::create_watched(&dir.join("a.pgn"), &LOG).expect("create");
        kept.commit().expect("commit");
        let dropped = PendingFile::create_watched(&dir.join("b.pgn"), &LOG).expect("create");
        drop(dropped);
        assert_eq!(
            *LOG.0.lock().expect("log"),
            [
                "creating .a.pgn for a.pgn",
                "rename .a.pgn",
                "creating .b.pgn for b.pgn",
                "abandoned .b.pgn"
            ]
        );
        assert_eq!(entries(&dir), ["a.pgn"]);
        let _ = fs::remove_dir_all(&dir);
    }
}
