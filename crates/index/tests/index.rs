//! The index against a scan without index on corpus files: trees and
//! exact-position hits are equal, also after `append` (A+B then C equals
//! A+B+C) and whatever the run size; and bad indexes and changed sources
//! are reported, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use pgnkit_game::ReadOptions;
use pgnkit_index::{
    BuildOptions, Filter, GameHit, Index, IndexError, SearchOptions, Speed, VERSION, append, build,
    parse_position, search_scan, tree_scan,
};

const POSITIONS: [&str; 6] = [
    "",
    "e4",
    "e4 c5",
    "d4 d5",
    "e4 e5 Nf3 Nc6",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
];

fn corpus(name: &str) -> PathBuf {
    pgnkit_corpus::dir().join("lichess-annotated").join(name)
}

fn inputs() -> Vec<PathBuf> {
    [
        "lichess_db_2021-10_999games.pgn",
        "lichess_user_DrDrunkenstein_2019.pgn",
        "lichess_db_2025-05_first1MB.pgn",
    ]
    .map(corpus)
    .to_vec()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("index-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(run_positions: usize) -> BuildOptions {
    BuildOptions {
        threads: 2,
        run_positions,
        ..BuildOptions::default()
    }
}

#[test]
fn index_equals_scan_also_after_append() {
    let dir = scratch("append");
    let files = inputs();
    let whole = dir.join("whole.pgnidx");
    let summary = build(&whole, &files, &options(20_000)).unwrap();
    assert!(
        summary.runs > 1,
        "the small run size must spill runs: {summary:?}"
    );
    assert!(summary.games > 2000);
    let parts = dir.join("parts.pgnidx");
    build(&parts, &files[..2], &BuildOptions::default()).unwrap();
    append(&parts, &files[2..], &options(1 << 20)).unwrap();

    let whole = Index::open(&whole).unwrap();
    let parts = Index::open(&parts).unwrap();
    assert_eq!(parts.segments(), 2);
    assert_eq!(whole.games(), parts.games());
    assert_eq!(whole.positions(), parts.positions());
    let blitz = Filter {
        speeds: vec![Speed::Blitz],
        min_rating: Some(1500),
        ..Filter::default()
    };
    let player = Filter {
        player: Some(("drdrunkenstein".into(), None)),
        ..Filter::default()
    };
    for text in POSITIONS {
        let pos = parse_position(text).unwrap();
        let scanned =
            tree_scan(&files, &pos, &Filter::default(), 2, ReadOptions::default()).unwrap();
        assert!(!scanned.moves.is_empty(), "{text}");
        assert_eq!(
            whole.tree(&pos, &Filter::default()).unwrap(),
            scanned,
            "{text}"
        );
        assert_eq!(
            parts.tree(&pos, &Filter::default()).unwrap(),
            scanned,
            "{text}"
        );
        let filtered = tree_scan(&files, &pos, &blitz, 1, ReadOptions::default()).unwrap();
        assert_eq!(parts.tree(&pos, &blitz).unwrap(), filtered, "{text}");
        // A player filter reads the names (in runs of nearby games).
        let filtered = tree_scan(&files, &pos, &player, 1, ReadOptions::default()).unwrap();
        assert!(!filtered.moves.is_empty(), "{text}");
        assert_eq!(whole.tree(&pos, &player).unwrap(), filtered, "{text}");
        assert_eq!(parts.tree(&pos, &player).unwrap(), filtered, "{text}");
        let hits = search_scan(&files, &pos, 2, ReadOptions::default()).unwrap();
        assert_eq!(whole.search(&pos).unwrap(), hits, "{text}");
        assert_eq!(parts.search(&pos).unwrap(), hits, "{text}");
        // A game at a time: each game once, its plies together, in the hits' order.
        let games = parts.search_games(pos.polyglot_key()).unwrap();
        let flat: Vec<(u64, u32)> = games
            .iter()
            .flat_map(|g| g.plies.iter().map(move |&ply| (g.offset, ply)))
            .collect();
        let want: Vec<(u64, u32)> = hits.iter().map(|h| (h.offset, h.ply)).collect();
        assert_eq!(flat, want, "{text}");
        let mut offsets: Vec<_> = games.iter().map(|g| (g.path, g.offset)).collect();
        offsets.dedup();
        assert_eq!(offsets.len(), games.len(), "{text}");
        assert!(games.iter().all(|g| !g.plies.is_empty()), "{text}");
        // Handed out one at a time, the same games with the same plies, in the same order;
        // read lazily too (merging the runs of the moves played).
        let listed: Vec<_> = games
            .iter()
            .map(|g| (g.path.to_path_buf(), g.offset, g.number, g.plies.to_vec()))
            .collect();
        for (index, lazy) in [(&parts, false), (&parts, true), (&whole, true)] {
            let mut each = Vec::new();
            let push = |g: GameHit<'_>| {
                each.push((g.path.to_path_buf(), g.offset, g.number, g.plies.to_vec()));
                Ok::<(), IndexError>(())
            };
            let options = SearchOptions {
                lazy,
                join_places: false,
            };
            index
                .search_each(pos.polyglot_key(), options, push)
                .unwrap();
            assert_eq!(each, listed, "{text} (lazy: {lazy})");
        }
    }
    // A position no game reaches: no game, lazily or not.
    let nowhere = parse_position("8/8/8/4k3/8/8/8/4K2R w K - 0 1").unwrap();
    let mut none = 0;
    parts
        .search_each(
            nowhere.polyglot_key(),
            SearchOptions {
                lazy: true,
                join_places: false,
            },
            |_| {
                none += 1;
                Ok::<(), IndexError>(())
            },
        )
        .unwrap();
    assert_eq!(none, 0);
    assert!(parts.search(&nowhere).unwrap().is_empty());
    // An error of the callback ends the search after that game, and is what it returns
    // (games joined by place or not).
    let start = parse_position("").unwrap().polyglot_key();
    for (places, lazy) in [(false, false), (false, true), (true, false), (true, true)] {
        let mut seen = 0;
        let each = |_: GameHit<'_>| {
            seen += 1;
            match seen {
                3 => Err(IndexError::Position("enough".into())),
                _ => Ok(()),
            }
        };
        let options = SearchOptions {
            lazy,
            join_places: places,
        };
        let stopped = parts.search_each(start, options, each);
        assert!(matches!(stopped, Err(IndexError::Position(m)) if m == "enough"));
        assert_eq!(seen, 3, "places: {places}, lazy: {lazy}");
    }
    // The games a hit points to are the games: their text starts with a tag.
    let pos = parse_position("e4 c5 Nf3 d6").unwrap();
    let hits = parts.search(&pos).unwrap();
    assert!(hits.len() > 10);
    for hit in hits.iter().step_by(7) {
        let text = parts.game_text(hit).unwrap();
        assert!(text.starts_with(b"[Event "), "{hit:?}");
    }
    // An unfiltered tree at the start has every game: the counts add up.
    let start = whole
        .tree(&parse_position("").unwrap(), &Filter::default())
        .unwrap();
    let total: u64 = start.moves.iter().map(|m| m.stats.games).sum();
    let with_moves = search_scan(
        &files,
        &parse_position("").unwrap(),
        1,
        ReadOptions::default(),
    )
    .unwrap();
    assert!(total <= with_moves.len() as u64 && total > 2000);
}

#[test]
fn a_compressed_source_is_indexed_and_read_back() {
    let dir = scratch("gzip");
    let source = corpus("lichess_user_DrDrunkenstein_2019.pgn");
    let plain = fs::read(&source).unwrap();
    // The corpus has no compressed copy of this file: write one with the zstd
    // command when it is there, else skip this part.
    let zst = dir.join("games.pgn.zst");
    let made = std::process::Command::new("zstd")
        .arg("-q")
        .arg(&source)
        .arg("-o")
        .arg(&zst)
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        return;
    }
    let index = dir.join("z.pgnidx");
    build(&index, std::slice::from_ref(&zst), &options(1 << 20)).unwrap();
    let index = Index::open(&index).unwrap();
    let hits = index.search(&parse_position("e4").unwrap()).unwrap();
    assert!(!hits.is_empty());
    let text = index.game_text(&hits[0]).unwrap();
    let at = hits[0].offset as usize;
    assert_eq!(&plain[at..at + text.len()], &text[..]);
}

fn small_index(dir: &Path) -> (PathBuf, PathBuf) {
    let source = dir.join("games.pgn");
    fs::copy(corpus("lichess_user_DannyTheDonkey_2019.pgn"), &source).unwrap();
    let index = dir.join("games.pgnidx");
    build(&index, std::slice::from_ref(&source), &options(1 << 20)).unwrap();
    (source, index)
}

fn message(e: IndexError) -> String {
    e.to_string()
}

#[test]
fn truncated_and_corrupt_files_are_errors() {
    let dir = scratch("corrupt");
    let (_, index) = small_index(&dir);
    let pos_file = index.join("seg-0.pos");
    let bytes = fs::read(&pos_file).unwrap();
    fs::write(&pos_file, &bytes[..bytes.len() - 5]).unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(e.contains("seg-0.pos: corrupt index: truncated"), "{e}");

    fs::write(&pos_file, b"short").unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(
        e.contains("seg-0.pos: corrupt index: truncated: 5 bytes"),
        "{e}"
    );

    let mut wrong = bytes.clone();
    wrong[0] = b'X';
    fs::write(&pos_file, &wrong).unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(e.contains("seg-0.pos: corrupt index: not a"), "{e}");
    fs::write(&pos_file, &bytes).unwrap();
    Index::open(&index).unwrap();

    let manifest = index.join("MANIFEST");
    let text = fs::read(&manifest).unwrap();
    fs::write(&manifest, &text[..text.len() / 2]).unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(
        e.contains("MANIFEST: corrupt index: truncated manifest"),
        "{e}"
    );
    fs::write(&manifest, b"hello\n").unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(e.contains("not a pgnkit index manifest"), "{e}");
    let e = message(Index::open(dir.join("missing.pgnidx")).unwrap_err());
    assert!(e.contains("missing.pgnidx: no such index"), "{e}");

    // Garbage game numbers in every posting: an error naming the file.
    fs::write(&manifest, &text).unwrap();
    let mut garbage = bytes.clone();
    for record in garbage[16..].chunks_exact_mut(16) {
        // Little-endian `key << 64 | move << 48 | game << 16 | ply`: the game is bytes 2-5.
        record[2..6].fill(0xff);
    }
    fs::write(&pos_file, &garbage).unwrap();
    let index = Index::open(&index).unwrap();
    let e = message(index.search(&parse_position("").unwrap()).unwrap_err());
    assert!(
        e.contains("seg-0.pos: corrupt index: game 4294967295 where the segment has"),
        "{e}"
    );
    // A game at a time: the error comes before any game is handed out.
    let mut handed = 0;
    let key = parse_position("").unwrap().polyglot_key();
    for lazy in [false, true] {
        let each = |_: GameHit<'_>| {
            handed += 1;
            Ok::<(), IndexError>(())
        };
        let options = SearchOptions {
            lazy,
            join_places: false,
        };
        let e = index.search_each(key, options, each);
        assert!(message(e.unwrap_err()).contains("seg-0.pos: corrupt index: game 4294967295"));
        assert_eq!(handed, 0, "lazy: {lazy}");
    }
    let blitz = Filter {
        speeds: vec![Speed::Blitz],
        ..Filter::default()
    };
    let e = message(
        index
            .tree(&parse_position("e4").unwrap(), &blitz)
            .unwrap_err(),
    );
    assert!(
        e.contains("seg-0.pos: corrupt index: game 4294967295"),
        "{e}"
    );

    // A piece said to lie past the end of `.pos`: an error naming `.pieces`.
    fs::write(&pos_file, &bytes).unwrap();
    let pieces_file = index.path().join("seg-0.pieces");
    let mut pieces = fs::read(&pieces_file).unwrap();
    for record in pieces[16..].chunks_exact_mut(16) {
        record[8..].copy_from_slice(&u64::MAX.to_le_bytes());
    }
    fs::write(&pieces_file, &pieces).unwrap();
    let e = message(index.search(&parse_position("").unwrap()).unwrap_err());
    assert!(
        e.contains("seg-0.pieces: corrupt index: a piece of partition"),
        "{e}"
    );
}

#[test]
fn newer_versions_are_refused_with_both_versions() {
    let dir = scratch("version");
    let (_, index) = small_index(&dir);
    let manifest = index.join("MANIFEST");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(
        &manifest,
        text.replacen(&format!("pgnkit-index {VERSION}"), "pgnkit-index 70", 1),
    )
    .unwrap();
    let e = message(Index::open(&index).unwrap_err());
    assert!(
        e.contains(&format!(
            "index format version 70 is newer than this pgnkit reads (version {VERSION})"
        )),
        "{e}"
    );
}

#[test]
fn a_changed_source_is_detected_before_an_offset_is_used() {
    let dir = scratch("changed");
    let (source, index) = small_index(&dir);
    let opened = Index::open(&index).unwrap();
    let e4 = parse_position("e4").unwrap();
    let hits = opened.search(&e4).unwrap();
    assert!(!hits.is_empty());
    // Same size, other content.
    let mut bytes = fs::read(&source).unwrap();
    bytes[10] ^= 1;
    fs::write(&source, &bytes).unwrap();
    let e = message(opened.search(&e4).unwrap_err());
    assert!(
        e.contains("games.pgn: changed since it was indexed (its content differs)"),
        "{e}"
    );
    let e = message(opened.game_text(&hits[0]).unwrap_err());
    assert!(e.contains("changed since it was indexed"), "{e}");
    // Longer.
    bytes.extend_from_slice(b"\n");
    fs::write(&source, &bytes).unwrap();
    let e = message(opened.verify_sources().unwrap_err());
    assert!(e.contains("its size was"), "{e}");
    // The tree does not read the sources.
    opened.tree(&e4, &Filter::default()).unwrap();
}

#[test]
fn a_failed_build_leaves_no_index_and_append_refuses_a_file_twice() {
    let dir = scratch("failed");
    let out = dir.join("out.pgnidx");
    let e = build(&out, &[dir.join("absent.pgn")], &options(1 << 20)).unwrap_err();
    assert!(message(e).contains("absent.pgn"));
    assert!(!out.exists());
    let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    let (source, index) = small_index(&dir);
    let e = message(append(&index, &[source], &options(1 << 20)).unwrap_err());
    assert!(e.contains("already in the index"), "{e}");
    // A failed append leaves the index as it was.
    let before = fs::read(index.join("MANIFEST")).unwrap();
    assert!(append(&index, &[dir.join("absent.pgn")], &options(1 << 20)).is_err());
    assert_eq!(fs::read(index.join("MANIFEST")).unwrap(), before);
    Index::open(&index).unwrap();
}

/// A file indexed twice holds each game twice, at the same place: `join_places` joins
/// the games at one place that follow one another in the answer of `search_each` (all of
/// a position only the file's first game reaches) into one, with the plies of all, lazily
/// or not; with each file once it hands out what `search_each` does.
#[test]
fn a_file_indexed_twice_gives_one_game_a_place_with_the_plies_of_both() {
    let dir = scratch("twice");
    let file = corpus("lichess_user_DannyTheDonkey_2019.pgn");
    let once = dir.join("once.pgnidx");
    let twice = dir.join("twice.pgnidx");
    build(&once, std::slice::from_ref(&file), &options(1 << 20)).unwrap();
    build(&twice, &[file.clone(), file.clone()], &options(1 << 20)).unwrap();
    let (once, twice) = (Index::open(&once).unwrap(), Index::open(&twice).unwrap());
    type Game = (String, PathBuf, u32, u64, u64, Vec<u32>);
    let games = |index: &Index, key: u64, places: bool, lazy: bool| {
        let mut out: Vec<Game> = Vec::new();
        let push = |g: GameHit<'_>| {
            let (source, path) = (g.source.to_string(), g.path.to_path_buf());
            out.push((source, path, g.stream, g.offset, g.number, g.plies.to_vec()));
            Ok::<(), IndexError>(())
        };
        let options = SearchOptions {
            lazy,
            join_places: places,
        };
        index.search_each(key, options, push).unwrap();
        out
    };
    // The first game's position after 1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5
    // 6. cxd5 exd5 7. Ne2 c6 (ply 14), its only game, once from each copy.
    let alone = parse_position("d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 cxd5 exd5 Ne2 c6").unwrap();
    let alone = alone.polyglot_key();
    let once_games = games(&once, alone, false, false);
    assert_eq!(once_games.len(), 1);
    assert_eq!(games(&twice, alone, false, false).len(), 2);
    let (source, path, stream, offset, number, plies) = once_games[0].clone();
    assert_eq!(plies, [14]);
    let joined = vec![(source, path, stream, offset, number, vec![14, 14])];
    for lazy in [false, true] {
        assert_eq!(games(&twice, alone, true, lazy), joined, "lazy: {lazy}");
    }
    for text in POSITIONS {
        let key = parse_position(text).unwrap().polyglot_key();
        // The games of `search_each`, those at one place one after another joined.
        let mut want: Vec<Game> = Vec::new();
        for game in games(&twice, key, false, false) {
            match want.last_mut() {
                Some(last) if (&last.1, last.2, last.3) == (&game.1, game.2, game.3) => {
                    last.5.extend(game.5)
                }
                _ => want.push(game),
            }
        }
        for lazy in [false, true] {
            assert_eq!(
                games(&twice, key, true, lazy),
                want,
                "{text} (lazy: {lazy})"
            );
            let each = games(&once, key, false, lazy);
            assert_eq!(games(&once, key, true, lazy), each, "{text} (lazy: {lazy})");
        }
    }
}
