//! `pgnkit search --skip N --first M`, with and without `--index`: the
//! games written are the slice of the whole answer that `select --skip
//! --first` would write, in every output shape (export format, `--json`,
//! `--offsets`), and a scan stops reading once the last is written.

mod common;

use common::run;

/// A corpus file with a few thousand games.
fn corpus_file() -> String {
    let path = pgnkit_corpus::dir().join("lichess-annotated/lichess_user_DrDrunkenstein_2019.pgn");
    path.to_str().unwrap().to_string()
}

const START: &str = "reaches \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"";
const E4: &str = "reaches \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"";

/// Runs `pgnkit`, which must succeed; its standard output and error.
fn ok(args: &[&str]) -> (String, String) {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

/// The games of an answer: its lines (`--json`, `--offsets`) or its games in export
/// format (each ends with an empty line).
fn games(text: &str, shape: &str) -> Vec<String> {
    if shape == "pgn" {
        let mut out = Vec::new();
        let mut game = String::new();
        for line in text.split_inclusive('\n') {
            // A game starts with its first tag after the empty line ending the one before.
            if line.starts_with('[') && game.ends_with("\n\n") {
                out.push(std::mem::take(&mut game));
            }
            game.push_str(line);
        }
        if !game.is_empty() {
            out.push(game);
        }
        out
    } else {
        text.lines().map(str::to_string).collect()
    }
}

/// `--skip`/`--first` pairs, some past the end of an answer of `found` games.
fn windows(found: usize) -> Vec<(usize, Option<usize>)> {
    vec![
        (0, Some(0)),
        (0, Some(1)),
        (0, Some(50)),
        (3, Some(7)),
        (found - 2, Some(10)),
        (found + 5, Some(3)),
        (11, None),
        (0, Some(found + 1)),
    ]
}

/// Every shape and window of `search ARGS... QUERY` equals the slice of the answer without
/// them.
fn check_windows(base: &[&str], query: &str) {
    for shape in ["pgn", "json", "offsets"] {
        let mut args = base.to_vec();
        args.push(query);
        let flag = format!("--{shape}");
        if shape != "pgn" {
            args.push(&flag);
        }
        let (whole, _) = ok(&args);
        let all = games(&whole, shape);
        assert!(all.len() > 100, "{args:?}: {} games", all.len());
        for (skip, first) in windows(all.len()) {
            let (skip_text, first_text) = (skip.to_string(), first.map(|n| n.to_string()));
            let mut windowed = args.clone();
            windowed.extend(["--skip", &skip_text]);
            if let Some(n) = &first_text {
                windowed.extend(["--first", n]);
            }
            let (text, err) = ok(&windowed);
            let start = skip.min(all.len());
            let end = first.map_or(all.len(), |n| (start + n).min(all.len()));
            assert_eq!(games(&text, shape), all[start..end], "{windowed:?}");
            assert!(
                err.contains(&format!(" {} found", end - start))
                    || err.contains(&format!(": {} games found", end - start)),
                "{windowed:?}: {err}"
            );
        }
    }
}

#[test]
fn a_scan_writes_the_slice_of_its_answer() {
    let file = corpus_file();
    check_windows(&["search", &file], START);
    check_windows(&["search", &file], E4);
    // A query decided on the game's tree (a variation's plies) too.
    check_windows(&["search", &file], "sequence \"e4 c5\" and plies > 30");
}

#[test]
fn a_scan_stops_reading_after_the_first_games() {
    let file = corpus_file();
    let (_, whole) = ok(&["search", &file, E4, "--offsets"]);
    let (text, err) = ok(&[
        "search",
        &file,
        E4,
        "--offsets",
        "--first",
        "5",
        "--skip",
        "2",
    ]);
    assert_eq!(text.lines().count(), 5);
    let read = |summary: &str| -> u64 {
        let words: Vec<&str> = summary.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "games").unwrap();
        words[at - 1].parse().unwrap()
    };
    assert!(read(&err) < 60, "{err}");
    assert!(read(&whole) > 900, "{whole}");
    assert!(
        err.contains("2 skipped (--skip); stopped after --first 5"),
        "{err}"
    );
}

#[test]
fn an_index_writes_the_slice_of_its_answer() {
    let file = corpus_file();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("search-window");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let index = dir.join("games.pgnidx");
    let index = index.to_str().unwrap();
    let built = run(&["index", &file, "-o", index]);
    assert!(
        built.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    check_windows(&["search", "--index", index], START);
    check_windows(&["search", "--index", index], E4);
    // The index's window is the scan's.
    for shape in ["--offsets", "--json"] {
        let window = ["--skip", "40", "--first", "60", shape];
        let mut indexed = vec!["search", "--index", index, E4];
        indexed.extend(window);
        let mut scanned = vec!["search", &file, E4];
        scanned.extend(window);
        assert_eq!(ok(&indexed).0, ok(&scanned).0, "{shape}");
    }
    let (_, err) = ok(&[
        "search",
        "--index",
        index,
        START,
        "--first",
        "3",
        "--offsets",
    ]);
    assert!(
        err.contains(": 3 games found in") && err.contains("stopped after --first 3"),
        "{err}"
    );
}
