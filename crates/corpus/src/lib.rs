//! Where pgnkit's test data is, for the workspace's tests, benches and xtask: the shared
//! corpus of real PGN, its `.pgn` files, and the bench file every throughput figure uses.
//!
//! - The corpus is `PGNKIT_CORPUS`, else `../shared/corpus` from the workspace root. It is
//!   third-party data that is never copied into the repository.
//! - The bench file is `PGNKIT_BENCH_FILE`, else `target/bench.pgn` in the workspace; when it
//!   is missing, the corpus's `bench-file.sh` builds it (84 MB, 42k games).
//!
//! The functions that panic do so with a message that says what is missing and which variable
//! to set, so that a test needing the corpus fails saying why; the `try_` forms return that
//! message instead. Not published: nothing outside this workspace needs it.
//!
//! ```
//! let corpus = pgnkit_corpus::dir();
//! let files = pgnkit_corpus::pgn_files(&corpus);
//! assert!(files.iter().all(|f| f.starts_with(&corpus)));
//! assert!(files.is_sorted());
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (this crate lives in `crates/corpus` below it).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .unwrap_or(manifest)
        .to_path_buf()
}

/// The corpus folder: `PGNKIT_CORPUS`, else `../shared/corpus` from the workspace root; an
/// error saying where it was looked for when it is not there (it must hold `SOURCES.md`).
pub fn try_dir() -> Result<PathBuf, String> {
    corpus_at(match std::env::var_os("PGNKIT_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/corpus"),
    })
}

/// `dir` when it holds the corpus (its `SOURCES.md`), else the error [`try_dir`] gives.
fn corpus_at(dir: PathBuf) -> Result<PathBuf, String> {
    if dir.join("SOURCES.md").is_file() {
        Ok(dir)
    } else {
        Err(format!(
            "the corpus is not at {} (set PGNKIT_CORPUS to the shared corpus folder)",
            dir.display()
        ))
    }
}

/// The corpus folder, as [`try_dir`]; panics with its message when the corpus is missing.
pub fn dir() -> PathBuf {
    try_dir().unwrap_or_else(|message| panic!("{message}"))
}

/// Every `.pgn` file below `dir` (any case of the extension, at any depth), sorted by path.
/// Panics when a folder cannot be listed.
pub fn pgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_pgn_files(dir, &mut files);
    files.sort();
    files
}

/// A whole corpus holds more `.pgn` files than this (272 in the shared corpus); a test that
/// reads "every corpus file" finds fewer only in a partial copy.
pub const MIN_PGN_FILES: usize = 200;

/// Every `.pgn` file of the whole corpus ([`dir`]), sorted by path. Panics, naming the folder,
/// when it holds [`MIN_PGN_FILES`] or fewer: a test over every corpus file must not pass on a
/// partial copy.
pub fn all_pgn_files() -> Vec<PathBuf> {
    let dir = dir();
    let files = pgn_files(&dir);
    assert!(
        files.len() > MIN_PGN_FILES,
        "expected the whole corpus at {}, found {} .pgn files (set PGNKIT_CORPUS to the shared corpus)",
        dir.display(),
        files.len()
    );
    files
}

fn collect_pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .path();
        if path.is_dir() {
            collect_pgn_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(path);
        }
    }
}

/// The bench file: `PGNKIT_BENCH_FILE`, else `target/bench.pgn` in the workspace, built with
/// the corpus's `bench-file.sh` when missing; an error saying what failed.
pub fn try_bench_file() -> Result<PathBuf, String> {
    if let Some(file) = std::env::var_os("PGNKIT_BENCH_FILE") {
        return Ok(PathBuf::from(file));
    }
    let file = workspace_root().join("target/bench.pgn");
    if !file.is_file() {
        let script = try_dir()?.join("bench-file.sh");
        if let Some(folder) = file.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        let status = Command::new("bash")
            .arg(&script)
            .arg(&file)
            .status()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !status.success() {
            return Err(format!("{} failed ({status})", script.display()));
        }
    }
    Ok(file)
}

/// The bench file, as [`try_bench_file`]; panics with its message when it cannot be had.
pub fn bench_file() -> PathBuf {
    try_bench_file().unwrap_or_else(|message| panic!("{message}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_files_finds_every_case_of_the_extension_in_path_order() {
        let dir = std::env::temp_dir().join(format!("pgnkit-corpus-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b")).unwrap();
        for name in ["b.pgn", "a.PGN", "b/z.pgn", "notes.txt", "c.pgnx"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let found: Vec<_> = pgn_files(&dir)
            .iter()
            .map(|p| p.strip_prefix(&dir).unwrap().to_path_buf())
            .collect();
        std::fs::remove_dir_all(&dir).unwrap();
        let expected: Vec<PathBuf> = ["a.PGN", "b/z.pgn", "b.pgn"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_folder_without_the_corpus_is_an_error_that_names_the_variable() {
        let empty = std::env::temp_dir();
        let message = corpus_at(empty.clone()).unwrap_err();
        assert!(message.contains(&empty.display().to_string()), "{message}");
        assert!(message.contains("PGNKIT_CORPUS"), "{message}");
        let corpus = dir();
        assert_eq!(corpus_at(corpus.clone()), Ok(corpus));
    }

    #[test]
    fn the_workspace_root_holds_the_workspace_manifest() {
        let root = workspace_root();
        assert!(root.join("Cargo.toml").is_file(), "{}", root.display());
        assert!(root.join("crates/corpus").is_dir(), "{}", root.display());
        assert!(!root.to_string_lossy().contains(".."), "{}", root.display());
    }
}
