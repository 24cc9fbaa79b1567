//! `pgnkit search` from the outside: a bad query refused before any input is
//! read, the games found in export format, and their places and plies with
//! `--json` and `--offsets`.

mod common;

use common::{run, run_with_stdin};

const GAMES: &[u8] = b"[Event \"One\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1-0\n\n\
[Event \"Two\"]\n\n1. d4 d5 (1... Nf6 2. c4 e6) 2. c4 e6 *\n\n\
[Event \"Three\"]\n\n1. e4 c5 2. Nf3 d6 *\n";

fn stdout(args: &[&str]) -> String {
    let out = run_with_stdin(args, GAMES);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_bad_query_is_shown_with_a_caret_before_reading() {
    for (query, caret, message) in [
        (
            "pattern \"*/*/*/*/x*/*/*/*\"",
            "                 ^",
            "invalid pattern",
        ),
        (
            "sequence \"e4 e5 Qh9\"",
            "                ^",
            "invalid sequence",
        ),
        ("reaches \"8/8/8 w\"", "        ^^^^^^^^^", "invalid FEN"),
        (
            "imbalance \"R vs K\"",
            "                ^",
            "invalid imbalance",
        ),
    ] {
        let out = run(&["search", "no-such-input.pgn", query]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines[0], "pgnkit: bad query:", "{err}");
        assert_eq!(lines[1], query);
        assert_eq!(lines[2], caret, "{err}");
        assert!(lines[3].starts_with(message), "{err}");
        assert!(!err.contains("no-such-input"), "nothing is read: {err}");
    }
}

#[test]
fn games_found_in_export_format() {
    let text = stdout(&["search", "-", "sequence \"e4 Nf3\""]);
    assert!(text.starts_with("[Event \"One\"]"), "{text}");
    assert!(text.contains("[Event \"Three\"]"));
    assert!(!text.contains("[Event \"Two\"]"));
}

#[test]
fn places_and_plies() {
    let text = stdout(&[
        "search",
        "-",
        "--json",
        "in_variations pattern \"*/*/*/*/??P*/*/*/*\"",
    ]);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["game"], 2);
    // After the first game's 63 bytes.
    assert_eq!(rows[0]["offset"], 63);
    assert_eq!(rows[0]["plies"], serde_json::json!([3, 4]));
    assert_eq!(rows[0]["variation_plies"], serde_json::json!([3, 4]));
    let text = stdout(&["search", "-", "--offsets", "imbalance \"B vs N\""]);
    assert_eq!(text, "-\t0\t1\t8\n");
}

/// A query on positions alone is decided without a tree and its games written by
/// the streaming writer: the same output as the tree's path (taken when the
/// query also reads the number of plies).
#[test]
fn the_path_without_a_tree_gives_the_same_output() {
    let games = [
        GAMES,
        b"\n[Event \"Four\"]\n\n{start} 1. e4 $1 {a} (1. d4 {b}) e5 2. Nf3 Nc6 1/2-1/2\n",
    ]
    .concat();
    for query in [
        "pattern \"*/*/*/*/????P*/*/*/*\"",
        "sequence \"e4 e5\"",
        "not material \"KQkq\"",
    ] {
        let plain = run_with_stdin(&["search", "-", query], &games);
        let with_tree =
            run_with_stdin(&["search", "-", &format!("{query} and plies >= 0")], &games);
        assert_eq!(plain.status.code(), Some(0));
        assert!(!plain.stdout.is_empty());
        assert_eq!(plain.stdout, with_tree.stdout, "{query}");
    }
}

/// `search --index` answers an exact position as the scan of the indexed files does: the
/// same lines of `--offsets` and `--json`, the same games in export format, from a plain
/// and a compressed corpus file; other queries are refused before anything is read.
#[test]
fn an_index_answers_an_exact_position_as_the_scan_does() {
    let corpus = pgnkit_corpus::dir();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("search-index");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = corpus.join("lichess-annotated/lichess_db_2021-10_999games.pgn");
    let file = file.to_str().unwrap();
    let index = dir.join("games.pgnidx");
    let index = index.to_str().unwrap();
    let built = run(&["index", file, "-o", index]);
    assert!(
        built.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";
    for query in [
        format!("reaches \"{sicilian}\""),
        "hash 0x644d4afe02564aeb".to_string(),
    ] {
        for shape in [&["--offsets"][..], &["--json"][..], &[][..]] {
            let scan = run(&[&["search", file, &query][..], shape].concat());
            let indexed = run(&[&["search", "--index", index, &query][..], shape].concat());
            assert_eq!(
                indexed.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&indexed.stderr)
            );
            let (scan, indexed) = (
                String::from_utf8(scan.stdout).unwrap(),
                String::from_utf8(indexed.stdout).unwrap(),
            );
            assert!(scan.lines().count() > 10, "{query} {shape:?}: {scan}");
            assert_eq!(indexed, scan, "{query} {shape:?}");
        }
    }
    for (args, message) in [
        (
            vec!["search", "--index", index, "pattern \"*/*/*/*/*/*/*/*\""],
            "one exact position",
        ),
        (
            vec!["search", "--index", index, file, "hash 0x1"],
            "takes the query alone",
        ),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(message));
    }
}

/// A file indexed twice holds each game twice, at the same place: `search --index` writes
/// such a game once, with the plies of both, and counts it once.
#[test]
fn a_game_indexed_twice_is_written_once() {
    let corpus = pgnkit_corpus::dir();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("search-index-twice");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = corpus.join("lichess-annotated/lichess_user_DannyTheDonkey_2019.pgn");
    let file = file.to_str().unwrap();
    let index = dir.join("twice.pgnidx");
    let index = index.to_str().unwrap();
    let built = run(&["index", file, file, "-o", index]);
    assert!(
        built.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    // After 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. cxd5 exd5 7. Ne2 c6: the
    // first game's alone.
    let query = "reaches \"rnbq1rk1/pp3ppp/2p2n2/3p4/1b1P4/2NBP3/PP2NPPP/R1BQK2R w KQ - 0 8\"";
    let out = run(&["search", "--index", index, query, "--offsets"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{file}\t0\t1\t14,14\n")
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 games found"));
    let out = run(&["search", "--index", index, query, "--json"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{{\"file\":\"{file}\",\"game\":1,\"offset\":0,\"plies\":[14,14],\"variation_plies\":[]}}\n"
        )
    );
}

/// `search --index ... | head -1`: the reader of standard output goes away after a line;
/// the run ends quietly (exit 0, nothing on standard error), as `export | head` does.
/// `> /dev/full` fails with exit status 2, the output named once.
#[test]
fn a_closed_standard_output_ends_an_index_search_quietly_a_full_one_fails() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("search-index-closed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("many.pgn");
    // 40,000 one-move games: about 1.5 MB of `--offsets` lines, more than a pipe and the
    // command's buffer hold.
    std::fs::write(&games, b"[Event \"e\"]\n\n1. e4 *\n\n".repeat(40_000)).unwrap();
    let index = dir.join("many.pgnidx");
    let built = run(&[
        "index",
        games.to_str().unwrap(),
        "-o",
        index.to_str().unwrap(),
    ]);
    assert_eq!(built.status.code(), Some(0));
    let start = "reaches \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"";
    let mut child = common::pgnkit(&["search", "--index", index.to_str().unwrap(), start])
        .arg("--offsets")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap(); // `| head -1`; the reader is dropped here
    let out = child.wait_with_output().unwrap();
    assert!(line.ends_with("\t0\t1\t0\n"), "{line}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(err, "");
    // A full device is a failure, named once.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = common::pgnkit(&["search", "--index", index.to_str().unwrap(), start])
        .arg("--offsets")
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pgnkit: cannot write standard output: No space left on device\n"
    );
}
