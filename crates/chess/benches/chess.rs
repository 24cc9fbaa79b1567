//! Criterion benchmarks of pgnkit-chess: perft (start position depth 5,
//! Kiwipete depth 4), every published count of the tricky perft suites at
//! full depth, SAN parse+resolve over the moves of real master games, and
//! SAN writing with `+`/`#`. Every benchmark asserts its answer.
//!
//! The corpus is found through `PGNKIT_CORPUS` (default `../shared/corpus`
//! relative to the workspace root).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_chess::{Move, Position, San, SanPlus, Setup};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::new();
    group.throughput(Throughput::Elements(4_865_609));
    group.bench_function("startpos_5", |b| {
        b.iter(|| assert_eq!(black_box(&start).perft(5), 4_865_609))
    });
    let kiwipete = Position::from_fen(KIWIPETE).expect("Kiwipete");
    group.throughput(Throughput::Elements(4_085_603));
    group.bench_function("kiwipete_4", |b| {
        b.iter(|| assert_eq!(black_box(&kiwipete).perft(4), 4_085_603))
    });
    group.finish();
}

/// Reads a suite in either format (see tests/common/mod.rs).
fn read_suite(path: &Path) -> Vec<(Position, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path).expect("suite file");
    let mut cases: Vec<(Position, Vec<(u32, u64)>)> = Vec::new();
    let parse = |fen: &str| {
        let setup = Setup::parse(fen.trim().as_bytes()).expect("suite FEN");
        let mode = setup.castling_mode();
        Position::from_setup(setup, mode).expect("suite position")
    };
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with("id ") {
            continue;
        }
        if let Some(fen) = line.strip_prefix("epd ") {
            cases.push((parse(fen), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest
                .split_whitespace()
                .map(|x| x.parse::<u64>().expect("count"));
            let (d, n) = (it.next().expect("depth"), it.next().expect("count"));
            cases.last_mut().expect("epd first").1.push((d as u32, n));
        } else {
            let mut parts = line.split(';');
            let pos = parse(parts.next().expect("fen"));
            let counts = parts
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let d = it.next().and_then(|d| d.strip_prefix('D')).expect("Dn");
                    (
                        d.parse().expect("depth"),
                        it.next().expect("n").parse().expect("count"),
                    )
                })
                .collect();
            cases.push((pos, counts));
        }
    }
    cases
}

fn suite_bench(c: &mut Criterion) {
    let perft = pgnkit_corpus::dir().join("perft");
    let mut cases = Vec::new();
    for file in [
        perft.join("shakmaty_tricky.perft"),
        perft.join("python-chess/tricky.perft"),
        perft.join("pychess_perftsuite2.epd"),
    ] {
        cases.extend(read_suite(&file));
    }
    let nodes: u64 = cases
        .iter()
        .flat_map(|(_, c)| c.iter().map(|(_, n)| n))
        .sum();
    let mut group = c.benchmark_group("perft_suites");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("tricky_full_depth", |b| {
        b.iter(|| {
            for (pos, counts) in &cases {
                for &(depth, expected) in counts {
                    assert_eq!(pos.perft(depth), expected, "{pos} depth {depth}");
                }
            }
        })
    });
    group.finish();
}

/// Games of the master collections as (start position, SAN tokens, moves).
fn master_games() -> Vec<(Position, Vec<String>, Vec<Move>)> {
    let dir = pgnkit_corpus::dir().join("big/masters/chessgames");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("masters folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut games = Vec::new();
    for file in files.iter().take(12) {
        let text = String::from_utf8_lossy(&std::fs::read(file).expect("pgn")).into_owned();
        let mut fen = None;
        let mut movetext = String::new();
        let mut flush = |fen: &mut Option<String>, movetext: &mut String| {
            if !movetext.trim().is_empty()
                && let Some(game) = replay(fen.as_deref(), movetext)
            {
                games.push(game);
            }
            *fen = None;
            movetext.clear();
        };
        for line in text.lines() {
            if line.starts_with('[') {
                if !movetext.trim().is_empty() {
                    flush(&mut fen, &mut movetext);
                }
                if let Some(rest) = line.strip_prefix("[FEN \"") {
                    fen = rest.split('"').next().map(str::to_string);
                }
            } else {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
        flush(&mut fen, &mut movetext);
    }
    assert!(games.len() > 500, "only {} games", games.len());
    games
}

/// Replays a game's main line; `None` if a token is not a legal move.
fn replay(fen: Option<&str>, movetext: &str) -> Option<(Position, Vec<String>, Vec<Move>)> {
    let start = match fen {
        Some(fen) => {
            let setup = Setup::parse(fen.as_bytes()).ok()?;
            let mode = setup.castling_mode();
            Position::from_setup(setup, mode).ok()?
        }
        None => Position::new(),
    };
    let mut pos = start.clone();
    let (mut tokens, mut moves) = (Vec::new(), Vec::new());
    let mut depth = 0i32;
    let mut in_comment = false;
    for word in movetext.split_whitespace() {
        if in_comment {
            in_comment = !word.contains('}');
            continue;
        }
        if word.starts_with('{') {
            in_comment = !word.contains('}');
            continue;
        }
        depth += word.matches('(').count() as i32 - word.matches(')').count() as i32;
        if depth > 0 || word.contains(')') {
            continue;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            continue;
        }
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let word = word.trim_end_matches(['!', '?']);
        if word.is_empty()
            || word.starts_with('$')
            || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word)
        {
            continue;
        }
        let m = San::parse(word.as_bytes()).ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        tokens.push(word.to_string());
        moves.push(m);
    }
    Some((start, tokens, moves))
}

fn san_benches(c: &mut Criterion) {
    let games = master_games();
    let total: usize = games.iter().map(|g| g.2.len()).sum();
    let mut group = c.benchmark_group("san");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("parse_resolve_play_master_games", |b| {
        b.iter(|| {
            for (start, tokens, moves) in &games {
                let mut pos = start.clone();
                for (token, expected) in tokens.iter().zip(moves) {
                    let san = San::parse(token.as_bytes()).expect("SAN");
                    let m = san.to_move(&pos).expect("legal");
                    assert_eq!(m, *expected);
                    pos.play_unchecked(m);
                }
            }
        })
    });
    let mut expected = Vec::new();
    for (start, _, moves) in &games {
        let mut pos = start.clone();
        for &m in moves {
            SanPlus::from_move_and_play_unchecked(&mut pos, m).append_to(&mut expected);
            expected.push(b' ');
        }
    }
    let mut out = Vec::with_capacity(expected.len());
    group.bench_function("write_with_suffix_master_games", |b| {
        b.iter(|| {
            out.clear();
            for (start, _, moves) in &games {
                let mut pos = start.clone();
                for &m in moves {
                    SanPlus::from_move_and_play_unchecked(&mut pos, m).append_to(&mut out);
                    out.push(b' ');
                }
            }
            assert_eq!(out, expected);
        })
    });
    group.finish();
}

criterion_group!(benches, perft_benches, suite_bench, san_benches);
criterion_main!(benches);
