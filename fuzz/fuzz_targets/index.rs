//! Fuzz target `index`: a small position index (pgnkit-index) built once from fixed games,
//! then one of its files damaged as the input says: the first byte picks the file (the
//! `MANIFEST` or a segment file), the second how (bytes written over it at an offset, the
//! file cut short there, or the whole file replaced by the rest of the input). `Index::open`,
//! `verify_sources`, `search`, `tree` (start position and after 1. e4) and `game_text` of
//! every hit never panic; a damaged index is an error, or answers from what is left.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::Position;
use pgnkit_index::{BuildOptions, Filter, Index, build, parse_position};

/// Games with tags the filters look at, a variation, a setup position and a broken game.
const GAMES: &str = r#"[Event "a"]
[White "Alpha"]
[Black "Beta"]
[WhiteElo "2400"]
[BlackElo "2300"]
[TimeControl "180+2"]
[Date "2024.03.01"]
[Result "1-0"]

1. e4 e5 2. Nf3 (2. f4 exf4) 2... Nc6 3. Bb5 a6 1-0

[Event "b"]
[White "Beta"]
[Black "Alpha"]
[Result "0-1"]

1. e4 c5 2. Nf3 d6 0-1

[Event "c"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 1/2-1/2

[Event "d"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]
[Result "*"]

1. e4 Kd7 *

[Event "broken"]
[Result "*"]

1. e4 Ke7 2. Qh9 *
"#;

/// The pristine index's folder, built on first use.
fn pristine() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("pgnkit-fuzz-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let pgn = dir.join("games.pgn");
        std::fs::write(&pgn, GAMES).expect("games");
        let options = BuildOptions {
            threads: 1,
            ..BuildOptions::default()
        };
        build(&dir.join("index"), &[pgn], &options).expect("the fixed games index");
        dir.join("index")
    })
}

/// The index's files, sorted by name.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("index folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
}

fuzz_target!(|data: &[u8]| {
    let [which, how, rest @ ..] = data else {
        return;
    };
    let source = pristine();
    let work = source.with_file_name(format!("work-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("work folder");
    for file in files(source) {
        let name = file.file_name().expect("a file name");
        std::fs::copy(&file, work.join(name)).expect("copy");
    }
    let targets = files(&work);
    let target = &targets[usize::from(*which) % targets.len()];
    let mut bytes = std::fs::read(target).expect("index file");
    match how % 3 {
        0 => {
            // Overwrite at an offset (two bytes, modulo the length).
            let [a, b, patch @ ..] = rest else { return };
            let at = usize::from(u16::from_le_bytes([*a, *b])) % (bytes.len() + 1);
            for (i, byte) in patch.iter().enumerate() {
                match bytes.get_mut(at + i) {
                    Some(slot) => *slot = *byte,
                    None => bytes.push(*byte),
                }
            }
        }
        1 => {
            let [a, b, ..] = rest else { return };
            bytes.truncate(usize::from(u16::from_le_bytes([*a, *b])) % (bytes.len() + 1));
        }
        _ => bytes = rest.to_vec(),
    }
    std::fs::write(target, &bytes).expect("write the damaged file");

    if let Ok(index) = Index::open(&work) {
        let _ = index.verify_sources();
        let _ = (index.games(), index.positions(), index.segments());
        for pos in [Position::new(), parse_position("1. e4").expect("a legal line")] {
            let _ = index.tree(&pos, &Filter::default());
            if let Ok(hits) = index.search(&pos) {
                for hit in hits.iter().take(8) {
                    let _ = index.game_text(hit);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
});
