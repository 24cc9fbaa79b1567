//! `pgnkit convert --compression` (and `select`'s, for its games table): the codec of the
//! Parquet tables (the library's `ParquetCompression`, parsed there), the default unchanged,
//! and refused (exit 2, nothing written) when the text names no codec or a table is not
//! written as Parquet.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};

use common::run_with_stdin;
use pgnkit_arrow::parquet::basic::Compression;
use pgnkit_arrow::parquet::file::reader::{FileReader, SerializedFileReader};

const GAMES: &[u8] = b"[Event \"One\"]\n[White \"A\"]\n[Black \"B\"]\n\n\
1. e4 { [%clk 0:03:00] [%eval 0.25] good } e5 2. Nf3 Nc6 1-0\n\n\
[Event \"Two\"]\n\n1. d4 d5 2. c4 *\n";

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("convert-compression");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `convert` on [`GAMES`] to a games and a moves table, with `extra` arguments.
fn convert(games: &Path, moves: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "convert",
        "-",
        "-o",
        games.to_str().unwrap(),
        "--moves",
        moves.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_with_stdin(&args, GAMES)
}

/// The codec of every column chunk of a Parquet file.
fn codecs(path: &Path) -> Vec<Compression> {
    let reader = SerializedFileReader::new(File::open(path).unwrap()).unwrap();
    let metadata = reader.metadata();
    assert!(metadata.file_metadata().num_rows() > 0);
    metadata
        .row_groups()
        .iter()
        .flat_map(|group| group.columns().iter().map(|c| c.compression()))
        .collect()
}

#[test]
fn each_codec_names_itself_in_both_tables() {
    for (codec, want) in [
        ("lz4", Compression::LZ4_RAW),
        ("snappy", Compression::SNAPPY),
        ("none", Compression::UNCOMPRESSED),
    ] {
        let (games, moves) = (
            temp(&format!("{codec}-games.parquet")),
            temp(&format!("{codec}-moves.parquet")),
        );
        let out = convert(&games, &moves, &["--compression", codec]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{codec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for path in [&games, &moves] {
            let codecs = codecs(path);
            assert!(codecs.iter().all(|c| *c == want), "{codec}: {codecs:?}");
        }
    }
}

#[test]
fn zstd_level_1_is_the_default_byte_for_byte() {
    let written = |name: &str, extra: &[&str]| {
        let (games, moves) = (
            temp(&format!("{name}-games.parquet")),
            temp(&format!("{name}-moves.parquet")),
        );
        let out = convert(&games, &moves, extra);
        assert_eq!(out.status.code(), Some(0), "{name}");
        (
            std::fs::read(&games).unwrap(),
            std::fs::read(&moves).unwrap(),
        )
    };
    let default = written("default", &[]);
    assert_eq!(default, written("zstd", &["--compression", "zstd"]));
    assert_eq!(default, written("zstd1", &["--compression", "ZSTD:1"]));
    let level_9 = written("zstd9", &["--compression", "zstd:9"]);
    assert_ne!(default.0, level_9.0, "another level, other pages");
    let games = temp("zstd9-again.parquet");
    std::fs::write(&games, &level_9.0).unwrap();
    let codecs = codecs(&games);
    assert!(codecs.iter().all(|c| matches!(c, Compression::ZSTD(_))));
}

#[test]
fn a_bad_codec_is_a_usage_error() {
    for bad in ["gzip", "zstd:0", "zstd:23", "lz4:1", ""] {
        let (games, moves) = (temp("bad-games.parquet"), temp("bad-moves.parquet"));
        let out = convert(&games, &moves, &["--compression", bad]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {stderr}");
        assert!(
            stderr.contains("lz4, snappy or none") || stderr.contains("from 1 to 22"),
            "{bad:?}: the accepted forms: {stderr}"
        );
        assert!(
            !games.exists() && !moves.exists(),
            "{bad:?}: nothing written"
        );
    }
}

#[test]
fn a_table_not_written_as_parquet_refuses_it() {
    // By extension, one table of two; by --format, both; standard output.
    let cases: [(&str, &str, &[&str]); 3] = [
        ("games.parquet", "moves.csv", &[]),
        ("games.parquet", "moves.parquet", &["--format", "ndjson"]),
        ("games.arrow", "moves.arrow", &[]),
    ];
    for (games, moves, extra) in cases {
        let (games, moves) = (temp(games), temp(moves));
        let mut args = vec!["--compression", "lz4"];
        args.extend_from_slice(extra);
        let out = convert(&games, &moves, &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", moves.display());
        assert!(
            stderr.contains("--compression lz4 is for Parquet tables")
                && stderr.contains("is not written as Parquet"),
            "{stderr}"
        );
        assert!(!games.exists() && !moves.exists(), "nothing written");
    }
    let out = run_with_stdin(
        &[
            "convert",
            "-",
            "-o",
            "-",
            "--format",
            "csv",
            "--compression",
            "snappy",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// `select`'s games table takes the codec too, in one file and in `--split-every` parts; with
/// PGN output the option is refused rather than ignored.
#[test]
fn select_writes_its_games_table_with_the_codec() {
    let one = temp("select.parquet");
    let out = run_with_stdin(
        &[
            "select",
            "-",
            "-o",
            one.to_str().unwrap(),
            "--compression",
            "lz4",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let codecs_of_one = codecs(&one);
    assert!(!codecs_of_one.is_empty());
    assert!(codecs_of_one.iter().all(|&c| c == Compression::LZ4_RAW));

    let base = temp("select-part.parquet");
    let out = run_with_stdin(
        &[
            "select",
            "-",
            "-o",
            base.to_str().unwrap(),
            "--split-every",
            "1",
            "--compression",
            "snappy",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let dir = base.parent().unwrap();
    let parts: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_str().unwrap();
            name.starts_with("select-part-") && name.ends_with(".parquet")
        })
        .collect();
    assert_eq!(parts.len(), 2, "{parts:?}");
    for part in &parts {
        assert!(
            codecs(part).iter().all(|&c| c == Compression::SNAPPY),
            "{part:?}"
        );
        std::fs::remove_file(part).unwrap();
    }

    let pgn = temp("select.pgn");
    let out = run_with_stdin(
        &[
            "select",
            "-",
            "-o",
            pgn.to_str().unwrap(),
            "--compression",
            "zstd",
        ],
        GAMES,
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--compression zstd:1 is for a Parquet games table"),
        "{stderr}"
    );
    assert!(!pgn.exists(), "nothing written");
}
