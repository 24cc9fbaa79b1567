//! pgn-extract's transforms and writing switches from the outside, on
//! `export` and `select`: the text written for a small game, the counts of
//! the summary line (a game a transform cannot apply to is written
//! unchanged and counted), `--stop-after`, the tag order file, dedupe's
//! `--check-file` and `--repeated`, the errors found before any input is
//! read, and `--drop-plies` and `--split-variations` written while
//! streaming as on the tree.

mod common;

use common::run_with_stdin;
use std::path::{Path, PathBuf};
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("transforms");
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GAME: &[u8] = b"[Event \"T\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Annotator \"Z\"]\n[ECO \"C20\"]\n\n\
1. e4 e5 {c1} 2. Nf3 (2. Bc4 Nf6 (2... Bc5 3. Qh5) 3. d3) 2... Nc6 3. Bb5 a6 1-0\n";

const SHORT: &[u8] = b"[Event \"S\"]\n\n1. d4 d5 *\n";

/// The tag lines of a text.
fn tags(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('[')).collect()
}

#[test]
fn writing_switches() {
    let out = run_with_stdin(
        &[
            "export",
            "--no-move-numbers",
            "--no-results",
            "--no-checks",
            "--no-tags",
        ],
        GAME,
    );
    assert_eq!(
        stdout(&out),
        "e4 e5 { c1 } Nf3 (Bc4 Nf6 (Bc5 Qh5) d3) Nc6 Bb5 a6\n\n"
    );
    let out = run_with_stdin(&["select", "--seven-tags"], GAME);
    let text = stdout(&out);
    assert_eq!(tags(&text).len(), 7, "{text}");
    assert!(text.contains("3. Qh5) 3. d3) 2... Nc6"), "{text}");
    let out = run_with_stdin(&["export", "--comment-lines", "--no-tags"], GAME);
    assert!(
        stdout(&out).starts_with("1. e4 e5\n{ c1 }\n2. Nf3 (2. Bc4"),
        "{}",
        stdout(&out)
    );
    // Without a switch, export format as before.
    let out = run_with_stdin(&["export"], GAME);
    assert!(stdout(&out).contains("[Annotator \"Z\"]\n[ECO \"C20\"]\n\n1. e4 e5 { c1 } 2. Nf3"));
}

#[test]
fn tag_order_file() {
    let order = temp("order.txt");
    std::fs::write(&order, "ECO\nBlack\n").expect("write");
    let path = order.to_str().expect("UTF-8 path");
    for command in ["export", "select"] {
        let out = run_with_stdin(&[command, "--tag-order", path], GAME);
        let text = stdout(&out);
        assert_eq!(
            tags(&text)[..4],
            [
                "[ECO \"C20\"]",
                "[Black \"B\"]",
                "[Event \"T\"]",
                "[Site \"?\"]"
            ]
        );
        let out = run_with_stdin(&[command, "--tag-order", path, "--only-listed-tags"], GAME);
        assert_eq!(tags(&stdout(&out)), ["[ECO \"C20\"]", "[Black \"B\"]"]);
    }
    // A bad file is a usage error naming its line, before any input is read.
    std::fs::write(&order, "ECO\n\"Black\"\n").expect("write");
    let out = common::run(&["export", "--tag-order", path, "/no/such/input.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 2: expected a tag name"),
        "{}",
        stderr(&out)
    );
    let out = common::run(&["export", "--only-listed-tags", "/no/such/input.pgn"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn drop_and_truncate_plies() {
    let input: Vec<u8> = [GAME, b"\n", SHORT].concat();
    for command in ["export", "select"] {
        let out = run_with_stdin(&[command, "--drop-plies", "3", "--total-ply-count"], &input);
        let text = stdout(&out);
        assert!(
            text.contains("[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"]\n[SetUp \"1\"]\n[TotalPlyCount \"11\"]\n\n2... Nc6 3. Bb5 a6 1-0\n"),
            "{text}"
        );
        // The short game is written unchanged, and counted.
        assert!(
            text.contains("[TotalPlyCount \"2\"]\n\n1. d4 d5 *\n"),
            "{text}"
        );
        assert!(
            stderr(&out).contains("2 written")
                && stderr(&out).contains("1 unchanged (--drop-plies 3: fewer plies)"),
            "{}",
            stderr(&out)
        );
        let out = run_with_stdin(&[command, "--truncate-plies", "3"], &input);
        let text = stdout(&out);
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(
            text.contains("\n\n1. e4 e5 { c1 } 2. Nf3 (2. Bc4) *\n\n"),
            "{text}"
        );
        assert!(text.contains("\n\n1. d4 d5 *\n"), "{text}");
    }
}

#[test]
fn split_variations_and_fen_comments() {
    let out = run_with_stdin(&["export", "--split-variations", "--no-tags"], GAME);
    assert_eq!(
        stdout(&out),
        "1. e4 e5 { c1 } 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
         1. e4 e5 { c1 } 2. Bc4 Nf6 3. d3 *\n\n\
         1. e4 e5 { c1 } 2. Bc4 Bc5 3. Qh5 *\n\n"
    );
    assert!(stderr(&out).contains("3 games from --split-variations"));
    let out = run_with_stdin(&["select", "--split-variations=1", "--no-tags"], GAME);
    assert_eq!(stdout(&out).matches("1. e4").count(), 2);
    // A games table has one row per game read: no split there.
    let table = temp("split.ndjson");
    let out = common::run(&[
        "select",
        "--split-variations",
        "-o",
        table.to_str().expect("UTF-8 path"),
        "/no/such/input.pgn",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = run_with_stdin(&["export", "--fen-comments", "--truncate-plies", "1"], GAME);
    assert!(
        stdout(&out)
            .contains("1. e4 { rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 } *"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn hash_comments_and_hash_code_give_polyglot_keys_that_hash_finds() {
    let out = run_with_stdin(
        &[
            "export",
            "--hash-comments",
            "--add-hash-code",
            "--truncate-plies",
            "2",
        ],
        GAME,
    );
    let text = stdout(&out);
    // The keys of the Polyglot format's own examples (and pgn-extract's --hashcomments).
    assert!(
        text.contains("1. e4 { 823c9b50fd114196 } 1... e5 { c1 } { 844931a6ef4b9a0 } *"),
        "{text}"
    );
    assert!(text.contains("[HashCode \"0844931a6ef4b9a0\"]"), "{text}");
    // `hash` finds the game by a key of its main line, and by none it lacks.
    let found = run_with_stdin(&["select", "--where", "hash 0x844931a6ef4b9a0"], GAME);
    assert!(stdout(&found).contains("[Event \"T\"]"));
    let missed = run_with_stdin(&["select", "--where", "hash 0x644d4afe02564aeb"], GAME);
    assert_eq!(stdout(&missed), "");
    let bad = run_with_stdin(&["select", "--where", "hash 0xnothex"], GAME);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("a Polyglot key in hexadecimal"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn stop_after_reads_no_further() {
    let many: Vec<u8> = std::iter::repeat_n([SHORT, b"\n"].concat(), 50)
        .flatten()
        .collect();
    for command in ["export", "select"] {
        let out = run_with_stdin(&[command, "--stop-after", "3"], &many);
        assert_eq!(stdout(&out).matches("[Event \"S\"]").count(), 3);
        let err = stderr(&out);
        assert!(err.contains("stopped after 3 (--stop-after)"), "{err}");
        // Games were read ahead by the workers, but not all 50.
        assert!(!err.contains("50 games read"), "{err}");
    }
    let out = common::run(&["export", "--stop-after", "0", "/no/such/input.pgn"]);
    assert_eq!(out.status.code(), Some(2));
}

const REPEATS: &[u8] = b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n\n\
[Event \"c\"]\n\n1. e4 e5 *\n\n[Event \"d\"]\n\n1. e4 e5 *\n\n[Event \"e\"]\n\n1. c4 *\n";

fn events(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("[Event ")).collect()
}

#[test]
fn repeated_games_each_once() {
    let out = run_with_stdin(&["dedupe", "--repeated"], REPEATS);
    assert_eq!(events(&stdout(&out)), ["[Event \"c\"]"]);
    let err = stderr(&out);
    assert!(
        err.contains("2 duplicates; 2 occurring once (--repeated)"),
        "{err}"
    );
}

#[test]
fn check_file_games_are_kept_first() {
    let check = temp("check.pgn");
    std::fs::write(
        &check,
        "[Event \"chk\"]\n\n1. c4 *\n\n[Event \"bad\"]\n\n1. e5 *\n",
    )
    .expect("write");
    let path = check.to_str().expect("UTF-8 path");
    let dups = temp("dups.pgn");
    let out = run_with_stdin(
        &[
            "dedupe",
            "--check-file",
            path,
            "--duplicates",
            dups.to_str().expect("UTF-8 path"),
        ],
        REPEATS,
    );
    assert_eq!(events(&stdout(&out)), ["[Event \"a\"]", "[Event \"b\"]"]);
    let err = stderr(&out);
    assert!(
        err.contains("check.pgn:5: --check-file game with errors"),
        "{err}"
    );
    assert!(
        err.contains("3 duplicates; 2 games in --check-file"),
        "{err}"
    );
    assert!(err.contains("(1 with errors, not counted)"), "{err}");
    let dups = std::fs::read_to_string(&dups).expect("duplicates written");
    assert!(dups.contains("check.pgn line 1}\n1. c4 *"), "{dups}");
    // With --repeated: the games that occur more than once, counting the check file's.
    let out = run_with_stdin(&["select", "--repeated", "--check-file", path], REPEATS);
    assert_eq!(events(&stdout(&out)), ["[Event \"c\"]", "[Event \"e\"]"]);
    assert!(stderr(&out).contains("1 occurring once (--repeated)"));
    let out = common::run(&["dedupe", "--check-file", "/no/such/check.pgn", "-"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn append_keeps_the_old_content() {
    for (command, name) in [("export", "append.pgn"), ("select", "append.pgn.zst")] {
        let out_path = temp(name);
        let _ = std::fs::remove_file(&out_path);
        let path = out_path.to_str().expect("UTF-8 path");
        // A file that does not exist yet is created.
        let out = run_with_stdin(&[command, "-o", path, "--append"], SHORT);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = run_with_stdin(&[command, "-o", path, "--append"], GAME);
        assert!(out.status.success(), "{}", stderr(&out));
        let read = common::run(&["export", path]);
        assert_eq!(
            events(&stdout(&read)),
            ["[Event \"S\"]", "[Event \"T\"]"],
            "{name}"
        );
        // A failed run leaves the file as it was.
        let out = common::run(&[command, "-o", path, "--append", "/no/such/input.pgn"]);
        assert_ne!(out.status.code(), Some(0));
        let read = common::run(&["export", path]);
        assert_eq!(events(&stdout(&read)).len(), 2, "{name}");
    }
    let out = common::run(&["export", "--append", "/no/such/input.pgn"]);
    assert_eq!(out.status.code(), Some(2), "--append needs -o");
    let table = temp("append.ndjson");
    let out = common::run(&[
        "select",
        "--append",
        "-o",
        table.to_str().expect("UTF-8 path"),
        "/no/such/input.pgn",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn mark_matches_comments_the_first_matching_ply() {
    let after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    let query = format!("reaches \"{after_nf3}\"");
    let out = run_with_stdin(
        &["select", "--where", &query, "--mark-matches", "MATCH"],
        GAME,
    );
    assert!(
        stdout(&out).contains("\n\n1. e4 e5 { c1 } 2. Nf3 { MATCH } (2. Bc4"),
        "{}",
        stdout(&out)
    );
    // Without a query there is nothing to mark.
    let out = common::run(&["select", "--mark-matches", "M", "/no/such/input.pgn"]);
    assert_eq!(out.status.code(), Some(2));
}

/// Ten games, `[Round "1"]` to `[Round "10"]`, moves `1. e4` for the odd
/// rounds and `1. d4` for the even ones.
fn rounds() -> Vec<u8> {
    (1..=10)
        .map(|n| {
            let first = if n % 2 == 1 { "e4" } else { "d4" };
            format!("[Round \"{n}\"]\n\n1. {first} *\n\n")
        })
        .collect::<String>()
        .into_bytes()
}

/// The Round tag values of the games written.
fn rounds_of(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|v| v.trim_end_matches("\"]").to_owned())
        .collect()
}

#[test]
fn select_only_and_skip_matching_count_the_games_that_match() {
    let input = rounds();
    // The odd rounds match; the 1st, 3rd and 4th of them are rounds 1, 5, 7.
    let only = |ranges: &str| {
        run_with_stdin(
            &[
                "select",
                "--where",
                "sequence \"e4\"",
                "--select-only",
                ranges,
            ],
            &input,
        )
    };
    let out = only("1,3:4");
    assert_eq!(rounds_of(&stdout(&out)), ["1", "5", "7"]);
    let summary = stderr(&out);
    assert!(
        summary.contains("left out by number (--select-only)"),
        "{summary}"
    );
    // Reading stops after the 4th match: round 7; rounds 8 to 10 are not read.
    assert!(summary.contains("stopped after match 4"), "{summary}");
    assert!(summary.contains("7 games read"), "{summary}");
    let out = run_with_stdin(
        &[
            "select",
            "--where",
            "sequence \"e4\"",
            "--skip-matching",
            "1,3:4",
        ],
        &input,
    );
    assert_eq!(rounds_of(&stdout(&out)), ["3", "9"]);
    assert!(stderr(&out).contains("3 left out by number (--skip-matching)"));
    // Without a query every game matches.
    let out = run_with_stdin(&["select", "--select-only", "2:3,10"], &input);
    assert_eq!(rounds_of(&stdout(&out)), ["2", "3", "10"]);
    // The last game listed left out by --skip: reading stops at the next.
    let out = run_with_stdin(&["select", "--select-only", "2", "--skip", "1"], &input);
    assert_eq!(rounds_of(&stdout(&out)), Vec::<String>::new());
    let summary = stderr(&out);
    assert!(summary.contains("3 games read"), "{summary}");
    assert!(summary.contains("stopped after match 3"), "{summary}");
}

#[test]
fn bad_match_numbers_are_refused_before_reading() {
    for (ranges, message) in [
        ("3,1", "ascending order"),
        ("0", "not a game number"),
        ("4:2", "ends before it starts"),
    ] {
        let out = run_with_stdin(&["select", "--select-only", ranges], b"not read");
        assert_eq!(out.status.code(), Some(2), "{ranges}");
        assert!(stderr(&out).contains(message), "{ranges}: {}", stderr(&out));
    }
    let out = run_with_stdin(
        &["select", "--select-only", "1", "--skip-matching", "2"],
        b"not read",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn keep_broken_writes_a_broken_game_that_matches_and_still_reports_it() {
    // The second game's main line has an illegal move (Ke3): the reader
    // recovers what comes before it.
    let input = b"[Round \"1\"]\n\n1. e4 e5 *\n\n[Round \"2\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Round \"3\"]\n\n1. d4 *\n";
    let out = run_with_stdin(&["select", "--where", "sequence \"e4\""], input);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(rounds_of(&text), ["1"]);
    let out = run_with_stdin(
        &["select", "--where", "sequence \"e4\"", "--keep-broken"],
        input,
    );
    // Still reported (file:line:column) and still a failed run.
    assert_eq!(out.status.code(), Some(1));
    let errors = stderr(&out);
    assert!(
        errors.contains("-:7:13: error: illegal move `Ke3`"),
        "{errors}"
    );
    assert!(!errors.contains("game rejected"), "it is written: {errors}");
    assert!(
        errors.contains("1 with errors written (--keep-broken)"),
        "{errors}"
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(rounds_of(&text), ["1", "2"], "{text}");
    assert!(text.contains("1. e4 e5 *"), "{text}");
    // A broken game that does not match is not written.
    let out = run_with_stdin(
        &["select", "--where", "sequence \"d4\"", "--keep-broken"],
        input,
    );
    assert_eq!(rounds_of(&String::from_utf8_lossy(&out.stdout)), ["3"]);
}

#[test]
fn lichess_comment_fix_moves_a_comment_after_the_variations_first_move() {
    let input = b"1. e4 e5 ({ The Sicilian } 1... c5 $1 { sharp }) 2. Nf3 *\n";
    let out = run_with_stdin(&["export", "--no-tags"], input);
    assert_eq!(
        stdout(&out),
        "1. e4 e5 ({ The Sicilian } 1... c5 $1 { sharp }) 2. Nf3 *\n\n"
    );
    let out = run_with_stdin(&["export", "--no-tags", "--lichess-comment-fix"], input);
    assert_eq!(
        stdout(&out),
        "1. e4 e5 (1... c5 $1 { The Sicilian } { sharp }) 2. Nf3 *\n\n"
    );
}

/// `--drop-plies` or `--split-variations` alone is done while each game is
/// streamed; with `--truncate-plies` past every game's end (which changes
/// nothing) it is done on the tree: the two write the same text and
/// summary, corpus file by corpus file (variations, comments, FEN starts,
/// games too short, games with errors, `PlyCount` tags).
#[test]
fn transforms_streamed_write_what_the_tree_writes() {
    let mut compared = 0;
    for path in pgnkit_corpus::all_pgn_files() {
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        if size >= 512 << 10 {
            continue;
        }
        let file = path.to_str().expect("UTF-8 path");
        let drops = [["--drop-plies", "1"], ["--drop-plies", "10"]];
        for transform in drops
            .iter()
            .map(|d| &d[..])
            .chain([&["--split-variations"][..]])
        {
            let streamed = common::run(&[&["select", file, "--threads", "1"], transform].concat());
            let on_tree = common::run(
                &[
                    &["select", file, "--threads", "1"],
                    transform,
                    &["--truncate-plies", "1000000"],
                ]
                .concat(),
            );
            assert_eq!(streamed.stdout, on_tree.stdout, "{file} {transform:?}");
            assert_eq!(streamed.status.code(), on_tree.status.code(), "{file}");
            // The messages, the summary line's timing left out.
            let summary = |out: &Output| {
                let text = stderr(out);
                text.lines()
                    .map(|l| match l.split_once(" bytes in ") {
                        Some((head, tail)) => {
                            format!("{head}{}", tail.split_once(')').map_or("", |t| t.1))
                        }
                        None => l.to_string(),
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(summary(&streamed), summary(&on_tree), "{file}");
            compared += 1;
        }
    }
    assert!(compared > 50, "{compared}");
}
