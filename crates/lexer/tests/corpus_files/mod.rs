//! Finding the shared corpus and its PGN files, for the tests that read all of it.

use std::path::{Path, PathBuf};

/// The corpus directory: `PGNKIT_CORPUS`, else `../shared/corpus` beside the repository.
pub fn corpus_dir() -> PathBuf {
    let dir = match std::env::var_os("PGNKIT_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
    };
    assert!(
        dir.is_dir(),
        "corpus not found at {} (set PGNKIT_CORPUS to the shared corpus directory)",
        dir.display()
    );
    dir
}

/// Every `.pgn` file under `dir`, in sorted order, appended to `out`.
pub fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable corpus dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn" || e == "PGN") {
            out.push(path);
        }
    }
}
