//! `pgnkit convert` from the outside: formats by extension, standard output
//! for stream formats only, warnings for malformed typed tags, broken games
//! rejected or kept, `game_id` across inputs, and the same output whatever
//! the thread count.

mod common;

use common::run_with_stdin;
use std::path::{Path, PathBuf};
use std::process::Output;

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const GAMES: &[u8] = b"[Event \"One\"]\n[WhiteElo \"abc\"]\n[BlackElo \"1500\"]\n[Foo \"bar\"]\n\n\
1. e4 { [%clk 0:03:00] [%eval 0.25] good } e5 $1 (1... c5 2. Nf3) 2. Nf3 *\n\n\
[Event \"Two\"]\n\n1. d4 d5 2. Ke3 *\n\n\
[Event \"Three\"]\n\n1. c4 *\n";

fn lines(output: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn ndjson_to_standard_output_with_a_warning_and_a_rejected_game() {
    let out = run_with_stdin(&["convert", "-", "-o", "-", "--format", "ndjson"], GAMES);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "a game was rejected: {stderr}");
    assert!(stderr.contains("warning: tag WhiteElo \"abc\""), "{stderr}");
    assert!(
        stderr.contains("3 games read, 2 written, 1 rejected"),
        "{stderr}"
    );
    let rows = lines(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["game_id"], 0);
    assert_eq!(rows[0]["Event"], "One");
    assert!(
        rows[0].get("WhiteElo").is_none(),
        "null WhiteElo: {}",
        rows[0]
    );
    assert_eq!(rows[0]["BlackElo"], 1500);
    assert_eq!(rows[0]["tags"]["Foo"], "bar");
    assert_eq!(rows[0]["tags"]["WhiteElo"], "abc");
    assert_eq!(rows[0]["ply_count"], 3);
    // game_id counts the rejected game too.
    assert_eq!(rows[1]["game_id"], 2);
    assert_eq!(rows[1]["Event"], "Three");
    let movetext = rows[0]["movetext"].as_str().unwrap();
    assert!(movetext.starts_with("1. e4"), "{movetext}");
    assert!(
        movetext.contains("(1... c5 2. Nf3)"),
        "variations stay in movetext: {movetext}"
    );
}

#[test]
fn moves_table_holds_the_main_line_only() {
    let moves = temp("moves.ndjson");
    let games = temp("games.csv");
    let args = [
        "convert",
        "-",
        "-o",
        games.to_str().unwrap(),
        "--moves",
        moves.to_str().unwrap(),
        "--fen",
    ];
    let out = run_with_stdin(&args, GAMES);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&moves).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let sans: Vec<&str> = rows.iter().map(|r| r["san"].as_str().unwrap()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "c4"]);
    assert_eq!(rows[0]["clock"], 180_000);
    assert_eq!(rows[0]["eval_cp"], 25);
    assert_eq!(rows[0]["comment"], "good");
    assert_eq!(rows[1]["nags"], serde_json::json!([1]));
    assert_eq!(rows[0]["uci"], "e2e4");
    assert_eq!(rows[0]["piece"], "P");
    assert!(
        rows[0]["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3/")
    );
    // CSV: a header, nested columns as JSON text.
    let csv = std::fs::read_to_string(&games).unwrap();
    let mut csv_lines = csv.lines();
    assert!(
        csv_lines
            .next()
            .unwrap()
            .starts_with("game_id,source,offset,Event,")
    );
    assert!(
        csv.contains(r#""{""WhiteElo"":""abc"",""Foo"":""bar""}""#),
        "{csv}"
    );
}

#[test]
fn keep_broken_writes_the_broken_game_with_its_errors() {
    let out = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            "-",
            "--format",
            "ndjson",
            "--keep-broken",
        ],
        GAMES,
    );
    assert_eq!(
        out.status.code(),
        Some(1), // kept, but the run had errors (as `json --keep-broken`)
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = lines(&out);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[1]["ply_count"], 2, "what was read before the error");
    let errors = rows[1]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0],
        serde_json::json!({"line": 10, "column": 13, "severity": "error", "message": "illegal move"}),
        "file line and column"
    );
    assert_eq!(rows[0]["errors"], serde_json::json!([]));
}

#[test]
fn footer_formats_refuse_standard_output_and_files_get_their_magic() {
    let out = run_with_stdin(&["convert", "-", "-o", "-", "--format", "parquet"], GAMES);
    assert_eq!(out.status.code(), Some(2));
    let out = run_with_stdin(&["convert", "-", "-o", "-"], GAMES);
    assert_eq!(out.status.code(), Some(2), "no format for standard output");
    let out = run_with_stdin(
        &["convert", "-", "-o", temp("x.txt").to_str().unwrap()],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(2), "unknown extension");

    for (name, head, tail) in [
        ("g.parquet", &b"PAR1"[..], &b"PAR1"[..]),
        ("g.arrow", &b"ARROW1"[..], &b"ARROW1"[..]),
    ] {
        let path = temp(name);
        let out = run_with_stdin(&["convert", "-", "-o", path.to_str().unwrap()], GAMES);
        assert_eq!(out.status.code(), Some(1));
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(head) && bytes.ends_with(tail), "{name}");
    }
    let path = temp("g.arrows");
    run_with_stdin(&["convert", "-", "-o", path.to_str().unwrap()], GAMES);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        &bytes[..4],
        [0xff; 4],
        "an IPC stream starts with a continuation marker"
    );
}

#[test]
fn game_ids_run_across_inputs_and_threads_change_nothing() {
    let corpus = pgnkit_corpus::dir().join("lichess-annotated");
    let a = corpus.join("lichess_db_2021-10_999games.pgn");
    let b = corpus.join("lichess_user_DannyTheDonkey_2019.pgn");
    let run = |threads: &str| {
        let args = [
            "convert",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-o",
            "-",
            "--format",
            "ndjson",
            "--threads",
            threads,
        ];
        let out = run_with_stdin(&args, b"");
        assert!(out.status.code().unwrap() <= 1);
        out.stdout
    };
    let one = run("1");
    assert_eq!(one, run("3"), "output order does not depend on threads");
    let text = String::from_utf8(one).unwrap();
    let ids: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game_id"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert!(ids.len() > 999);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert!(text.contains("lichess_user_DannyTheDonkey_2019.pgn"));
}

/// `--split-every N`: both tables in parts by `game_id` (part k holds the games read
/// `(k-1)*N` to `k*N-1`, the rejected ones leaving their ids out), which together are the
/// tables one `-o` and `--moves` would hold; a run with no game still writes one part, a
/// CSV one with its header; standard output cannot hold parts.
#[test]
fn split_every_writes_parts_that_together_are_the_tables() {
    let read = common::ndjson_rows;
    let path = |name: &str| temp(name).to_str().unwrap().to_string();
    let whole = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            &path("whole-g.ndjson"),
            "--moves",
            &path("whole-m.ndjson"),
        ],
        GAMES,
    );
    assert_eq!(whole.status.code(), Some(1), "a game is rejected");
    for part in ["0001", "0002", "0003"] {
        for table in ["g", "m"] {
            let _ = std::fs::remove_file(temp(&format!("parts{table}-{part}.ndjson")));
        }
    }
    let out = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            &path("partsg.ndjson"),
            "--moves",
            &path("partsm.ndjson"),
            "--split-every",
            "2",
        ],
        GAMES,
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for table in ["g", "m"] {
        let first = read(&temp(&format!("parts{table}-0001.ndjson")));
        let second = read(&temp(&format!("parts{table}-0002.ndjson")));
        assert!(!temp(&format!("parts{table}-0003.ndjson")).exists());
        assert!(first.iter().all(|row| row["game_id"].as_u64() < Some(2)));
        assert!(second.iter().all(|row| row["game_id"] == 2));
        assert_eq!(
            [first, second].concat(),
            read(&temp(&format!("whole-{table}.ndjson"))),
            "table {table}"
        );
    }
    // Games 0 and 2 are kept, 1 (an illegal move) rejected: part 1 holds one game.
    assert_eq!(read(&temp("partsg-0001.ndjson")).len(), 1);

    let _ = std::fs::remove_file(temp("empty-0001.csv"));
    let out = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            &path("empty.csv"),
            "--split-every",
            "5",
        ],
        b"",
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let header = std::fs::read_to_string(temp("empty-0001.csv")).unwrap();
    assert!(header.starts_with("game_id,source,offset,"), "{header}");

    let out = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            "-",
            "--format",
            "ndjson",
            "--split-every",
            "5",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--split-every names its files"));
}

#[test]
fn positions_table_has_a_row_per_position_and_leaves_the_other_tables_as_they_were() {
    let (games, moves, positions) = (
        temp("p-games.parquet"),
        temp("p-moves.csv"),
        temp("p.ndjson"),
    );
    let (games_alone, moves_alone) = (temp("alone-games.parquet"), temp("alone-moves.csv"));
    let path = |p: &PathBuf| p.to_str().unwrap().to_owned();
    let with = [
        "convert",
        "-",
        "-o",
        &path(&games),
        "--moves",
        &path(&moves),
        "--positions",
        &path(&positions),
        "--fen",
    ];
    let out = run_with_stdin(&with, GAMES);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let without = [
        "convert",
        "-",
        "-o",
        &path(&games_alone),
        "--moves",
        &path(&moves_alone),
        "--fen",
    ];
    assert_eq!(run_with_stdin(&without, GAMES).status.code(), Some(1));
    assert_eq!(
        std::fs::read(&games).unwrap(),
        std::fs::read(&games_alone).unwrap()
    );
    assert_eq!(
        std::fs::read(&moves).unwrap(),
        std::fs::read(&moves_alone).unwrap()
    );
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(&positions)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    // Game 0: 1. e4 e5 2. Nf3 (four positions); game 1 is rejected; game 2: 1. c4 (two).
    let ids: Vec<u64> = rows
        .iter()
        .map(|r| r["game_id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [0, 0, 0, 0, 2, 2]);
    let plies: Vec<u64> = rows.iter().map(|r| r["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, [0, 1, 2, 3, 0, 1]);
    assert_eq!(
        rows[0]["polyglot_key"].as_u64(),
        Some(0x463b_9618_1691_fc9c)
    );
    assert_eq!(
        rows[1]["polyglot_key"].as_u64(),
        Some(0x823c_9b50_fd11_4196)
    );
    assert_eq!(rows[0]["uci"], "e2e4");
    assert_eq!(rows[2]["uci"], "g1f3");
    assert!(
        rows[3].get("uci").is_none(),
        "no move from the last position: {}",
        rows[3]
    );
    assert_eq!(rows[1]["side_to_move"], "b");
    assert_eq!(
        rows[1]["epd"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"
    );
    assert_eq!(rows[0]["white_material"], 39);
    assert_eq!(rows[5]["pieces"], 32);
}
