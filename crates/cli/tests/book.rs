//! `pgnkit book` from the outside: the bytes of a small book (Polyglot's
//! entries, big-endian, sorted), `--probe`, games with errors counted, and
//! the output never written over an input nor left half-written.

mod common;

use std::fs;
use std::path::PathBuf;

use common::run;

const GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
[Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n\n\
[Result \"0-1\"]\n\n1. d4 0-1\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pgnkit-book-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn entry(key: u64, raw_move: u16, weight: u16) -> Vec<u8> {
    let mut bytes = key.to_be_bytes().to_vec();
    bytes.extend_from_slice(&raw_move.to_be_bytes());
    bytes.extend_from_slice(&weight.to_be_bytes());
    bytes.extend_from_slice(&[0; 4]);
    bytes
}

#[test]
fn a_small_book_byte_for_byte() {
    let dir = scratch("bytes");
    let games = dir.join("games.pgn");
    fs::write(&games, GAMES).unwrap();
    let book = dir.join("book.bin");
    let out = run(&[
        "book",
        games.to_str().unwrap(),
        "-o",
        book.to_str().unwrap(),
        "--min-games",
        "1",
        "--max-ply",
        "1",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("pgnkit book: 1 entries from 3 games written to"),
        "{err}"
    );
    // The start position: e4 won once and drew once (2 + 1); d4 lost (0, left out).
    // e2e4 is to e4 (28) | from e2 (12) << 6.
    assert_eq!(
        fs::read(&book).unwrap(),
        entry(0x463b_9618_1691_fc9c, 28 | 12 << 6, 3)
    );
    let out = run(&["book", "--probe", "", book.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Polyglot key 463b96181691fc9c"), "{text}");
    assert!(
        text.contains("e4       e2e4         3  100.0%      0"),
        "{text}"
    );
    let out = run(&["book", "--probe", "d4", book.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("no moves for this position"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_with_errors_are_counted_and_bad_arguments_refused() {
    let dir = scratch("errors");
    let games = dir.join("games.pgn");
    fs::write(
        &games,
        format!("{GAMES}\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n"),
    )
    .unwrap();
    let book = dir.join("book.bin");
    let out = run(&[
        "book",
        games.to_str().unwrap(),
        "-o",
        book.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("; 1 games with errors left out"), "{err}");
    assert!(book.exists());

    // The output is an input: refused, the input untouched.
    let out = run(&[
        "book",
        games.to_str().unwrap(),
        "-o",
        games.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(fs::read_to_string(&games).unwrap().starts_with("[Result"));

    // A missing input: no book under the name, the old one kept.
    let before = fs::read(&book).unwrap();
    let out = run(&["book", "no-such.pgn", "-o", book.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read(&book).unwrap(), before);
    let left: Vec<_> = fs::read_dir(&dir).unwrap().collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");

    let out = run(&["book", "--probe", "e4 e5 Qh9", book.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("move 3 `Qh9` (after e4 e5): not a move"),
        "{err}"
    );
    let bad = dir.join("bad.bin");
    fs::write(&bad, [0u8; 17]).unwrap();
    let out = run(&["book", "--probe", "e4", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.bin: not a Polyglot book: 17 bytes"),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}
