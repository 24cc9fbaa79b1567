//! Partitions for cluster engines: for corpus files, a pzstd file written by `/usr/bin/pzstd`
//! and pzstd files of many small frames, at several block sizes, the partitions' games (read
//! with the bases that `count` gives) are the single read's games, each once, with the same
//! `game_id`, `offset` and line; also when the reads split with nested comments.

mod fixtures;

use std::path::{Path, PathBuf};

use fixtures::*;
use pgnkit_input::partition::{Bases, Kind, Plan, count, plan};
use pgnkit_input::{InputError, Source, open};
use pgnkit_lexer::{LexOptions, Reader};

/// A game as a single read numbers it: `game_id`, file index, offset, line, bytes.
type Row = (u64, usize, u64, u64, Vec<u8>);

/// The single read of `files`: every game of every stream, numbered in input order.
fn single(files: &[(PathBuf, String)]) -> Vec<Row> {
    single_with(files, LexOptions::new())
}

/// [`single`], splitting by `rules`.
fn single_with(files: &[(PathBuf, String)], rules: LexOptions) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, (path, name)) in files.iter().enumerate() {
        let opened = open(Source::named_path(path, name), None, &options())
            .unwrap_or_else(|e| panic!("{e}"));
        for stream in opened.streams {
            let mut reader = Reader::new(stream.reader);
            reader.set_options(rules);
            while let Some(game) = reader.next_game().unwrap_or_else(|e| panic!("{e}")) {
                let id = rows.len() as u64;
                rows.push((id, index, game.offset, game.line, game.bytes.to_vec()));
            }
        }
    }
    rows
}

/// The partitioned read of `plan`: counts first, then each partition with its bases, all
/// splitting by `rules`.
fn partitioned(plan: &Plan, rules: LexOptions) -> Vec<Row> {
    let counts: Vec<_> = plan
        .partitions
        .iter()
        .map(|p| count(p, &options(), rules).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let bases = Bases::of(&plan.partitions, &counts);
    let mut rows = Vec::new();
    for ((partition, base), counted) in plan.partitions.iter().zip(&bases).zip(&counts) {
        let mut games = 0;
        for stream in partition.open(&options()).unwrap_or_else(|e| panic!("{e}")) {
            let mut reader = Reader::new(stream.reader);
            reader.set_options(rules);
            while let Some(game) = reader.next_game().unwrap_or_else(|e| panic!("{e}")) {
                rows.push((
                    base.game_id + games,
                    partition.file,
                    base.offset + game.offset,
                    base.line + game.line - 1,
                    game.bytes.to_vec(),
                ));
                games += 1;
            }
        }
        assert_eq!(games, counted.games, "{partition:?}");
        if partition.kind == Kind::Range && partition.start > 0 && games > 0 {
            assert_eq!(
                base.offset, counted.origin,
                "{partition:?}: the range's own origin"
            );
        }
    }
    rows
}

fn check(files: &[(PathBuf, String)], blocks: &[u64]) {
    check_with(files, blocks, LexOptions::new());
}

/// [`check`], the reads and the counts splitting by `rules`.
fn check_with(files: &[(PathBuf, String)], blocks: &[u64], rules: LexOptions) {
    let whole = single_with(files, rules);
    assert!(!whole.is_empty(), "no games in {files:?}");
    for &block in blocks {
        let plan = plan(files, block).unwrap_or_else(|e| panic!("{e}"));
        let rows = partitioned(&plan, rules);
        assert_eq!(rows.len(), whole.len(), "block {block}: games");
        for (got, want) in rows.iter().zip(&whole) {
            assert!(
                got == want,
                "block {block}: game {} of file {} at {} line {} differs from the single read's ({}, {}, {}, line {})",
                got.0,
                got.1,
                got.2,
                got.3,
                want.0,
                want.1,
                want.2,
                want.3
            );
        }
    }
}

fn corpus_files(skip_big: bool) -> Vec<(PathBuf, String)> {
    pgnkit_corpus::all_pgn_files()
        .into_iter()
        .filter(|p| !skip_big || !p.components().any(|c| c.as_os_str() == "big"))
        .map(|p| {
            let name = p.display().to_string();
            (p, name)
        })
        .collect()
}

#[test]
fn corpus_files_give_the_single_reads_games_at_any_block_size() {
    let files = corpus_files(true);
    assert!(files.len() > 50, "the corpus has its files");
    check(&files, &[512 << 10]);
    // Small blocks on the small files: many ranges inside games, some with no game.
    let small: Vec<_> = files
        .iter()
        .filter(|(p, _)| std::fs::metadata(p).is_ok_and(|m| m.len() < 64 << 10))
        .take(30)
        .cloned()
        .collect();
    check(&small, &[300, 4096]);
}

/// With nested comments a result marker inside an inner comment ends no game: the counts
/// must split as the reads do, or every game after the first such comment gets the wrong
/// `game_id` (found in session 18: `count` split by the standard's rules whatever the reads').
#[test]
fn counts_split_with_the_reads_nested_comments() {
    let dir = scratch("partitions-nested");
    let game = b"[Event \"a\"]\n\n1. e4 { outer { inner } 1-0 still outer } e5 *\n\n";
    let text: Vec<u8> = game
        .iter()
        .copied()
        .cycle()
        .take(game.len() * 200)
        .collect();
    let file = write(&dir, "nested.pgn", &text);
    let files = [(file, "nested.pgn".to_owned())];
    let nested = LexOptions::new().with_nested_comments(true);
    assert_eq!(single_with(&files, nested).len(), 200);
    assert!(
        single(&files).len() > 200,
        "by the standard's rules the marker in the comment ends a game"
    );
    check_with(&files, &[1 << 10, 4 << 10, 1 << 20], nested);
    check(&files, &[1 << 10, 4 << 10]);
}

/// `text` compressed by `/usr/bin/pzstd` (level 1: frames of about 2 MiB of text).
#[cfg(feature = "zstd")]
fn real_pzstd(dir: &Path, text: &[u8]) -> PathBuf {
    let plain = write(dir, "real.pgn", text);
    let out = dir.join("real.pgn.zst");
    let status = std::process::Command::new("/usr/bin/pzstd")
        .args(["-q", "-f", "-1", "-p", "2"])
        .arg(&plain)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("/usr/bin/pzstd runs (the zstd package)");
    assert!(status.success());
    out
}

#[cfg(any(feature = "zstd", feature = "gzip"))]
fn corpus_text(limit: usize) -> Vec<u8> {
    let mut text = Vec::new();
    for (path, _) in corpus_files(true) {
        if text.len() >= limit {
            break;
        }
        text.extend(std::fs::read(&path).expect("corpus file"));
    }
    text
}

#[cfg(feature = "zstd")]
#[test]
fn pzstd_files_give_the_plain_files_games() {
    let dir = scratch("partitions-pzstd");
    let text = corpus_text(5 << 20);
    let real = real_pzstd(&dir, &text);
    let small = write(&dir, "small.pgn.zst", &pzstd(&text, 64 << 10));
    let plain = dir.join("real.pgn");
    let named = |p: &Path| (p.to_owned(), p.display().to_string());
    // Groups of one frame, of a few, and the whole file.
    let plan_real = plan(&[named(&real)], 1).expect("plan");
    assert!(
        plan_real.partitions.len() >= 3,
        "pzstd -1 writes 2 MiB frames"
    );
    assert!(plan_real.partitions.iter().all(|p| p.kind == Kind::Frames));
    check(&[named(&real)], &[1, 1 << 20, u64::MAX]);
    check(&[named(&small)], &[1, 100 << 10, 1 << 20]);
    // The same games, ids and offsets as the plain file, and as all three files in a row.
    assert_eq!(single(&[named(&real)]), single(&[named(&plain)]));
    check(&[named(&plain), named(&small), named(&real)], &[300 << 10]);
}

#[cfg(feature = "gzip")]
#[test]
fn a_stream_that_cannot_be_cut_is_one_partition_with_a_warning() {
    let dir = scratch("partitions-whole");
    let text = corpus_text(200 << 10);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &text).expect("gzip");
    let gz = write(&dir, "games.pgn.gz", &gz.finish().expect("gzip"));
    let plain = write(&dir, "games.pgn", &text);
    let files = [
        (plain.clone(), "games.pgn".to_owned()),
        (gz, "games.pgn.gz".to_owned()),
        (plain, "again.pgn".to_owned()),
    ];
    let planned = plan(&files, 16 << 10).expect("plan");
    let whole: Vec<_> = planned.partitions.iter().filter(|p| p.file == 1).collect();
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0].kind, Kind::Whole);
    assert_eq!(
        planned.warnings,
        [
            "games.pgn.gz: a gzip file cannot be cut into byte ranges; it is read as one partition (recompress it with pzstd to split it)"
        ]
    );
    check(&files, &[16 << 10]);
}

#[test]
fn bad_files_are_named_before_anything_is_read() {
    let dir = scratch("partitions-bad");
    let good = write(&dir, "good.pgn", b"[Event \"a\"]\n\n1. e4 *\n");
    let png = write(
        &dir,
        "image.pgn",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01",
    );
    let files = |bad: &Path, name: &str| {
        vec![
            (good.clone(), "good.pgn".to_owned()),
            (bad.to_owned(), name.to_owned()),
        ]
    };
    let err = plan(&files(&png, "image.pgn"), 1 << 20).expect_err("a PNG is refused");
    assert!(matches!(err, InputError::NotPgn { .. }), "{err:?}");
    assert!(err.to_string().starts_with("image.pgn: "), "{err}");
    let err =
        plan(&files(&dir.join("missing.pgn"), "missing.pgn"), 1 << 20).expect_err("a missing file");
    assert!(
        err.to_string().starts_with("missing.pgn: "),
        "the message names the file: {err}"
    );
    let err = plan(&files(&dir, "a folder"), 1 << 20).expect_err("a folder");
    assert!(matches!(err, InputError::Directory { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "a folder is a directory; give the PGN files inside it"
    );
    // An empty file has no partition (the one here is good.pgn's).
    let empty = write(&dir, "empty.pgn", b"");
    let planned = plan(&files(&empty, "empty.pgn"), 1 << 20).expect("plan");
    assert_eq!(planned.partitions.len(), 1);
    assert_eq!(planned.partitions[0].id(), (0, 0));
}

#[cfg(feature = "zstd")]
#[test]
fn a_byte_order_mark_and_white_space_before_the_first_game_keep_offsets() {
    let dir = scratch("partitions-lead");
    let mut text = b"\xef\xbb\xbf\n \r\n\t".to_vec();
    for i in 0..40 {
        text.extend(format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 *\n\n").as_bytes());
    }
    let plain = write(&dir, "bom.pgn", &text);
    let zst = write(&dir, "bom.pgn.zst", &pzstd(&text, 100));
    let named = |p: &Path| (p.to_owned(), p.display().to_string());
    assert_eq!(single(&[named(&plain)])[0].2, 8, "the reader skips 8 bytes");
    check(&[named(&plain)], &[1, 50, 333]);
    check(&[named(&zst)], &[1, 200]);
}
