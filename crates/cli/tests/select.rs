//! `pgnkit select`, `dedupe` and `classify` from the outside: errors found
//! before any input is read, what is selected, duplicates with the comment
//! naming the game kept, split outputs, the counts of the summary line, and
//! duplicates found exactly on the corpus written twice with shuffled tags
//! and order.

mod common;

use common::run_with_stdin;
use std::path::{Path, PathBuf};
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("select");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GAMES: &[u8] = b"[Event \"Olympiad\"]\n[White \"Tal\"]\n[Black \"Fischer\"]\n[WhiteElo \"2600\"]\n[BlackElo \"2700\"]\n[Date \"1960.??.??\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n\
[Event \"Open\"]\n[White \"Fischer\"]\n[Black \"Petrosian\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2650\"]\n[Date \"1971.10.01\"]\n\n\
1. f3 e5 2. g4 Qh4# 1-0\n\n\
[Event \"Copy\"]\n[White \"Someone\"]\n[Black \"Else\"]\n\n\
1. e4 {a comment} e5 2. Nf3 (2. Nc3) Nc6 3. Bb5 a6 *\n";

/// Each bad command line fails with status 2, says why, and reads nothing: the input named
/// does not exist, so reading it would have said so instead.
#[test]
fn bad_command_lines_fail_before_reading() {
    let missing_input = temp("no-such-input.pgn");
    let input = missing_input.to_str().unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["select", input, "--where", "colour = white"],
            "unknown field `colour`",
        ),
        // An unknown predicate lists what would fit.
        (
            &["select", input, "--where", "chekmate"],
            "the predicates are checkmate, stalemate",
        ),
        (
            &["select", input, "--where", "checkmate = 1"],
            "`checkmate` is a predicate and takes no value",
        ),
        (
            &["select", input, "--where", "moves > many"],
            "`many` is not a number",
        ),
        (
            &["select", input, "--where", "Site =~ \"(lichess\""],
            "bad regular expression",
        ),
        (
            &["select", input, "--where", "reaches \"8/8/8 w - - 0 1\""],
            "invalid FEN",
        ),
        (
            &["classify", input, "--openings", "/no/such/table.tsv"],
            "/no/such/table.tsv",
        ),
        (&["select", input, "--split-every", "10"], "give -o"),
    ];
    for (args, expected) in cases {
        let out = run_with_stdin(args, b"");
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(expected), "{args:?}: {text}");
        assert!(
            !text.contains("no-such-input"),
            "{args:?} read its input: {text}"
        );
    }
    // The caret stands under the fault.
    let out = run_with_stdin(
        &["select", input, "--where", "elo > 2000 and colour = white"],
        b"",
    );
    let text = stderr(&out);
    assert!(
        text.contains("elo > 2000 and colour = white\n               ^^^^^^\n"),
        "{text}"
    );
    // A table that is not the TSV form names its line.
    let table = temp("bad-table.tsv");
    std::fs::write(
        &table,
        "eco\tname\tpgn\nA00\tGood\t1. a3\nB00\tBad\t1. e5\n",
    )
    .unwrap();
    let out = run_with_stdin(
        &["classify", input, "--openings", table.to_str().unwrap()],
        b"",
    );
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("line 3") && text.contains("e5"), "{text}");
}

/// A query nested past the limit (256 parentheses and `not`s together) is refused before any
/// input is read, with the caret at the `(` or `not` that passes the limit, never a stack
/// overflow (which aborts with status 134).
#[test]
fn deep_queries_are_refused_with_a_caret() {
    let missing_input = temp("no-such-input.pgn");
    let input = missing_input.to_str().unwrap();
    for (query, token) in [
        (
            format!("{}WhiteElo > 1{}", "(".repeat(20_000), ")".repeat(20_000)),
            "(",
        ),
        (format!("{}WhiteElo > 1", "not ".repeat(30_000)), "not"),
    ] {
        let out = run_with_stdin(&["select", input, "--where", &query], b"");
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(!text.contains("no-such-input"), "read its input: {text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[0], "pgnkit: bad --where expression:");
        assert!(
            lines[1].starts_with("...") && lines[1].len() < 100,
            "{text}"
        );
        let caret = lines[2].find('^').unwrap();
        assert_eq!(lines[2][caret..].len(), token.len(), "{text}");
        assert_eq!(&lines[1][caret..caret + token.len()], token, "{text}");
        assert_eq!(lines[3], "parentheses and `not`s nested deeper than 256");
    }
    // Within the limit, and a long flat chain, are read and evaluated.
    let deep = format!("{}WhiteElo > 1{}", "(".repeat(256), ")".repeat(256));
    let chain = vec!["WhiteElo > 1"; 5_000].join(" and ");
    for query in [deep, chain] {
        let out = run_with_stdin(&["select", "-", "--where", &query], GAMES);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout)
                .matches("[Event ")
                .count(),
            2
        );
    }
}

#[test]
fn selects_by_query_with_rejected_first_and_skip() {
    let rejected = temp("rejected.pgn");
    let out = run_with_stdin(
        &[
            "select",
            "--where",
            "player = Fischer and Date < 1970 and elo_diff = 100",
            "--rejected",
            rejected.to_str().unwrap(),
        ],
        GAMES,
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        text.contains("[Event \"Olympiad\"]") && !text.contains("[Event \"Open\"]"),
        "{text}"
    );
    assert!(
        stderr(&out).contains("3 games read, 1 written"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("2 not matching"), "{}", stderr(&out));
    let rejected = std::fs::read_to_string(&rejected).unwrap();
    assert_eq!(rejected.matches("[Event ").count(), 2, "{rejected}");

    let out = run_with_stdin(&["select", "--skip", "1", "--first", "1"], GAMES);
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(text.matches("[Event ").count(), 1);
    assert!(text.contains("[Event \"Open\"]"), "{text}");
    assert!(
        stderr(&out).contains("1 skipped (--skip); 1 after --first"),
        "{}",
        stderr(&out)
    );

    let out = run_with_stdin(
        &[
            "select",
            "--where",
            "material \"KQRRBBNNP8 kqrrbbnnp8\" and plies <= 4",
        ],
        GAMES,
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        text.contains("[Event \"Open\"]") && text.matches("[Event ").count() == 1,
        "{text}"
    );
}

/// The predicates of issue 33 select through the CLI as the library decides them
/// (each one's cases are unit tests in pgnkit-select).
#[test]
fn selects_by_game_events() {
    for (query, events) in [
        ("checkmate and not result_consistent", &["Open"][..]),
        ("higher_rated_won", &["Open"]),
        ("lower_rated_won and soundex player = Fisher", &["Olympiad"]),
        ("commented and has_variations and moves = 3", &["Copy"]),
        ("any_tag ~ Petro or stalemate", &["Open"]),
        (
            "not setup and piece_count = 32 and not checkmate",
            &["Olympiad", "Copy"],
        ),
    ] {
        let out = run_with_stdin(&["select", "--where", query], GAMES);
        let text = String::from_utf8(out.stdout.clone()).unwrap();
        assert_eq!(out.status.code(), Some(0), "{query}: {}", stderr(&out));
        let found: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("[Event \""))
            .map(|l| l.trim_end_matches("\"]"))
            .collect();
        assert_eq!(found, events, "{query}");
    }
}

#[test]
fn duplicates_are_kept_apart_with_the_game_kept_named() {
    let input = temp("dupes-in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let dupes = temp("dupes.pgn");
    let out = run_with_stdin(
        &[
            "dedupe",
            input.to_str().unwrap(),
            "--duplicates",
            dupes.to_str().unwrap(),
        ],
        b"",
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    assert!(stderr(&out).contains("1 duplicate"), "{}", stderr(&out));
    let dupes = std::fs::read_to_string(&dupes).unwrap();
    assert!(dupes.contains("[Event \"Copy\"]"), "{dupes}");
    assert!(
        dupes.contains(&format!("{{Duplicate of {} line 1}}", input.display())),
        "{dupes}"
    );
    // The written duplicate reads back with its comment.
    let out = run_with_stdin(&["check", "-"], dupes.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // By the board after 2 plies: the first and third games are the same, the second is not.
    let out = run_with_stdin(&["select", "--fuzzy-ply", "2"], GAMES);
    assert!(
        stderr(&out).contains("2 written") && stderr(&out).contains("1 duplicate"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn classifies_fixes_and_splits() {
    let base = temp("parts.pgn");
    for n in 1..=3 {
        let _ = std::fs::remove_file(temp(&format!("parts-000{n}.pgn")));
    }
    let out = run_with_stdin(
        &[
            "classify",
            "--fix-result",
            "--add-ply-count",
            "--add-final-fen",
            "--drop-tags",
            "Date,WhiteElo",
            "--split-every",
            "2",
            "-o",
            base.to_str().unwrap(),
        ],
        GAMES,
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "3 classified; 1 result fixed; 3 PlyCount set; 3 FinalFEN set; 4 tags dropped"
        ),
        "{err}"
    );
    assert!(
        err.contains("warning: Result 1-0 corrected to 0-1"),
        "{err}"
    );
    let first = std::fs::read_to_string(temp("parts-0001.pgn")).unwrap();
    let second = std::fs::read_to_string(temp("parts-0002.pgn")).unwrap();
    assert!(!temp("parts-0003.pgn").exists());
    assert_eq!(first.matches("[Event ").count(), 2);
    assert_eq!(second.matches("[Event ").count(), 1);
    assert!(first.contains("[ECO \"C70\"]"), "{first}");
    assert!(
        first.contains("[Opening \"Ruy Lopez: Morphy Defense\"]"),
        "{first}"
    );
    assert!(
        first.contains("[Result \"0-1\"]") && first.contains("Qh4# 0-1"),
        "{first}"
    );
    assert!(
        first.contains("[PlyCount \"6\"]") && !first.contains("WhiteElo"),
        "{first}"
    );
    assert!(
        first.contains(
            "[FinalFEN \"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\"]"
        ),
        "{first}"
    );

    let by = temp("by.pgn");
    let out = run_with_stdin(
        &["select", "--split-by", "White", "-o", by.to_str().unwrap()],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for name in ["by-Tal.pgn", "by-Fischer.pgn", "by-Someone.pgn"] {
        assert!(temp(name).exists(), "{name}");
    }
    let out = run_with_stdin(
        &[
            "select",
            "--split-by",
            "White",
            "--max-files",
            "2",
            "-o",
            temp("few.pgn").to_str().unwrap(),
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("raise --max-files"),
        "{}",
        stderr(&out)
    );
}

/// A query on tags alone is evaluated before the moves are read: a game whose tags do not
/// match is not read further, so an illegal move in it is not reported (as pgn-extract); with
/// a query that reads the moves, or --rejected, every game is read whole.
#[test]
fn tags_only_queries_skip_the_moves_of_games_that_do_not_match() {
    let games = b"[White \"A\"]\n\n1. e4 e5 *\n\n[White \"B\"]\n\n1. e4 Ke7 *\n";
    let out = run_with_stdin(&["select", "--where", "White = A"], games);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("2 games read, 1 written, 0 rejected"),
        "{}",
        stderr(&out)
    );
    let out = run_with_stdin(&["select", "--where", "White = A and plies >= 0"], games);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("illegal move `Ke7`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn selected_games_as_a_table() {
    let out = run_with_stdin(
        &[
            "select",
            "--where",
            "player = Fischer",
            "--classify",
            "--format",
            "ndjson",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["ECO"], "C70");
    assert_eq!(rows[1]["Event"], "Open");
    let out = run_with_stdin(&["select", "--format", "parquet"], GAMES);
    assert_eq!(
        out.status.code(),
        Some(2),
        "Parquet needs a file: {}",
        stderr(&out)
    );
}

/// `--split-every` and `--split-by` write tables too: the parts of a split, read in order
/// (or by `game_id` for `--split-by`), hold the rows of the one table written without it,
/// `game_id` counting on across the parts.
#[test]
fn split_tables_hold_the_rows_of_one_table() {
    let rows = common::ndjson_rows;
    let whole = temp("whole.ndjson");
    let out = run_with_stdin(&["select", "-o", whole.to_str().unwrap()], GAMES);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let whole = rows(&whole);
    assert_eq!(whole.len(), 3);

    for n in 1..=3 {
        let _ = std::fs::remove_file(temp(&format!("tparts-000{n}.ndjson")));
    }
    let base = temp("tparts.ndjson");
    let out = run_with_stdin(
        &["select", "--split-every", "2", "-o", base.to_str().unwrap()],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!temp("tparts-0003.ndjson").exists());
    let first = rows(&temp("tparts-0001.ndjson"));
    let second = rows(&temp("tparts-0002.ndjson"));
    assert_eq!((first.len(), second.len()), (2, 1));
    assert_eq!([first, second].concat(), whole);

    let base = temp("tby.ndjson");
    let out = run_with_stdin(
        &[
            "select",
            "--split-by",
            "White",
            "-o",
            base.to_str().unwrap(),
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut by: Vec<serde_json::Value> = ["Tal", "Fischer", "Someone"]
        .iter()
        .flat_map(|name| rows(&temp(&format!("tby-{name}.ndjson"))))
        .collect();
    by.sort_by_key(|row| row["game_id"].as_u64());
    assert_eq!(by, whole);
}

/// The corpus twice: each game again with its tags in reverse order, an
/// Event of its own and no comments, the copies shuffled among the
/// originals. Dedupe must find exactly as many duplicates as an exact
/// comparison (start FEN and move list, no hash) finds.
#[test]
fn dedupe_is_exact_on_the_corpus_written_twice() {
    use pgnkit::{ExportOptions, read_games, to_string};
    use std::collections::HashSet;

    let mut games: Vec<String> = Vec::new();
    let mut exact: HashSet<(String, Vec<pgnkit::Move>)> = HashSet::new();
    let options = ExportOptions::export();
    for path in pgnkit_corpus::all_pgn_files() {
        let bytes = std::fs::read(&path).unwrap();
        for read in read_games(&bytes) {
            // Null moves cannot be replayed by `add_move`: those few games stay out.
            if read.is_broken()
                || read.value.is_chess960()
                || read
                    .value
                    .main_line_moves()
                    .any(|p| p.mv == pgnkit::Move::Null)
            {
                continue;
            }
            let game = read.value;
            exact.insert((
                game.start_position().fen(Default::default()),
                game.main_line_moves().map(|p| p.mv).collect(),
            ));
            games.push(to_string(&game, &options));
            let mut copy = pgnkit::Game::from_position(game.start_position().clone());
            let tags: Vec<(String, String)> = game
                .tags()
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            for (n, v) in tags.iter().rev() {
                copy.tags_mut().insert(n, v);
            }
            copy.tags_mut()
                .insert("Event", format!("copy {}", games.len()));
            let mut at = copy.root().id();
            for played in game.main_line_moves() {
                at = copy.add_move(at, played.mv).unwrap();
            }
            copy.set_termination(game.termination());
            games.push(to_string(&copy, &options));
        }
    }
    let originals = games.len() / 2;
    // A fixed shuffle (xorshift), so a failure can be replayed.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for i in (1..games.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        games.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let input = temp("corpus-twice.pgn");
    std::fs::write(&input, games.concat()).unwrap();
    let out = run_with_stdin(
        &[
            "dedupe",
            input.to_str().unwrap(),
            "-o",
            temp("corpus-once.pgn").to_str().unwrap(),
        ],
        b"",
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let expected_dupes = 2 * originals - exact.len();
    assert!(
        err.contains(&format!(
            "{} games read, {} written",
            2 * originals,
            exact.len()
        )),
        "{} games, {} distinct: {err}",
        2 * originals,
        exact.len()
    );
    assert!(
        err.contains(&format!("; {expected_dupes} duplicates")),
        "{err}"
    );
    println!(
        "{originals} games, {} distinct, {expected_dupes} duplicates found: {err}",
        exact.len()
    );
}

/// `convert --classify` fills the ECO and Opening columns as `classify`
/// sets the tags, game for game, on corpus folders with transpositions,
/// games from a position of their own, Chess960 and broken games.
#[test]
fn convert_classifies_as_classify_does() {
    let dir = pgnkit_corpus::dir();
    let mut inputs = Vec::new();
    for folder in ["lichess-annotated", "fen-start", "chess960", "edge"] {
        inputs.extend(pgnkit_corpus::pgn_files(&dir.join(folder)));
    }
    assert!(inputs.len() > 10, "{} inputs", inputs.len());
    let inputs: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let classified = temp("classified.pgn");
    let mut args = vec!["classify", "-o", classified.to_str().unwrap()];
    args.extend(&inputs);
    let out = run_with_stdin(&args, b"");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        stderr(&out)
    );
    let mut want = Vec::new();
    for read in pgnkit::read_games(&std::fs::read(&classified).unwrap()) {
        let tags = read.value.tags();
        want.push((
            tags.get("ECO").map(str::to_string),
            tags.get("Opening").map(str::to_string),
        ));
    }
    let mut args = vec!["convert", "--classify", "--format", "ndjson", "-o", "-"];
    args.extend(&inputs);
    let out = run_with_stdin(&args, b"");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        stderr(&out)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let got: Vec<_> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|row| {
            let tag = |name: &str| row[name].as_str().map(str::to_string);
            (tag("ECO"), tag("Opening"))
        })
        .collect();
    assert_eq!(got.len(), want.len());
    let differ = got.iter().zip(&want).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{differ} of {} rows differ", got.len());
    assert!(want.iter().filter(|w| w.0.is_some()).count() > 4000);
}

/// A query on tags alone decides most games from their bytes before they
/// are lexed (with several threads): the output and every message, the
/// summary's counts of warnings and errors included, are those of one
/// thread, where each game is read by the reader. The corpus folders hold
/// tag sections with unescaped quotes, TABs, duplicate and malformed tags.
#[test]
fn games_decided_before_lexing_read_as_one_thread_reads_them() {
    let dir = pgnkit_corpus::dir();
    let mut inputs = Vec::new();
    for folder in ["edge", "fen-start", "chess960"] {
        inputs.extend(pgnkit_corpus::pgn_files(&dir.join(folder)));
    }
    let inputs: Vec<&str> = inputs.iter().map(|p| p.to_str().unwrap()).collect();
    let without_time = |out: &Output| {
        stderr(out)
            .lines()
            .map(|line| match (line.find(" bytes in "), line.find("MB/s)")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &line[..a], &line[b..]),
                _ => line.to_string(),
            })
            .collect::<Vec<_>>()
    };
    for query in ["player ~ \"a\"", "Event = \"?\" or WhiteElo > 2000"] {
        let run = |threads: &str| {
            let mut args = vec!["select", "--where", query, "--threads", threads];
            args.extend(&inputs);
            run_with_stdin(&args, b"")
        };
        let (one, two) = (run("1"), run("2"));
        assert_eq!(one.status.code(), two.status.code(), "{query}");
        assert!(one.stdout == two.stdout, "{query}: outputs differ");
        assert_eq!(without_time(&one), without_time(&two), "{query}");
        let summary = without_time(&one).last().cloned().unwrap_or_default();
        assert!(
            summary.contains(" warnings") && !summary.contains(" 0 warnings"),
            "the folders' tag sections have warnings: {summary}"
        );
    }
}
