//! FEN and Polyglot key comments after every move (`select --fen-comments`,
//! `--hash-comments`), written two ways over the whole shared corpus: by the
//! streaming writer
//! ([`StreamWriter::with_position_comments`]), and by the tree writer after
//! `pgnkit_select::Transforms` added them to the game's tree. The bytes must
//! be the same, file by file, for FEN comments, key comments and both, in
//! export format and in a narrow layout without NAGs (where the comments
//! wrap and the move numbers after them show).

use pgnkit::chess::FenOptions;
use pgnkit::export::{ExportOptions, GameWriter, PositionComments, StreamWriter};
use pgnkit::game::{read_games, visit_games};
use pgnkit::select::Transforms;

/// The export text of `input`'s games without errors, through the tree.
fn through_tree(input: &[u8], options: &ExportOptions, transforms: &Transforms) -> Vec<u8> {
    let mut writer = GameWriter::new(options.clone());
    let mut out = Vec::new();
    for read in read_games(input) {
        if read.is_broken() {
            continue;
        }
        for game in &transforms.apply(read.value).games {
            writer.write(game, &mut out).expect("writing to a Vec");
        }
    }
    out
}

/// The same, through the streaming writer.
fn streamed(input: &[u8], options: &ExportOptions, comments: PositionComments) -> Vec<u8> {
    let writer = StreamWriter::new(options.clone()).with_position_comments(comments);
    let mut games = visit_games(input, writer);
    let mut out = Vec::new();
    while let Some(read) = games.next() {
        if !read.is_broken() {
            games.visitor().write_game_to(&mut out).expect("Vec");
        }
    }
    out
}

#[test]
fn streamed_position_comments_equal_the_tree_transforms_on_the_corpus() {
    let dir = pgnkit_corpus::dir();
    let files = pgnkit_corpus::all_pgn_files();
    let fen = FenOptions::default();
    let narrow = ExportOptions {
        width: 40,
        nags: false,
        ..ExportOptions::export()
    };
    // Both comments in export format, each alone in the narrow layout.
    let runs = [
        (Some(fen), true, ExportOptions::export()),
        (Some(fen), false, narrow.clone()),
        (None, true, narrow),
    ];
    let mut failures = Vec::new();
    let mut compared = 0u64;
    for file in &files {
        let data = std::fs::read(file).expect("readable corpus file");
        let name = pgnkit_conformance::corpus_name(&dir, file);
        for (layout, (fen, key, options)) in runs.iter().enumerate() {
            let (fen, key) = (*fen, *key);
            let transforms = Transforms {
                fen_comments: fen,
                hash_comments: key,
                ..Transforms::default()
            };
            assert!(transforms.only_position_comments());
            let comments = PositionComments {
                fen,
                polyglot_key: key,
            };
            let tree = through_tree(&data, options, &transforms);
            let stream = streamed(&data, options, comments);
            compared += tree.len() as u64;
            if stream != tree {
                failures.push(format!(
                    "{name} (fen {}, key {key}, layout {layout}): {}",
                    fen.is_some(),
                    pgnkit_conformance::first_difference(&stream, &tree)
                ));
            }
        }
    }
    eprintln!("{} files, {compared} bytes compared", files.len());
    assert!(compared > 1_000_000, "only {compared} bytes compared");
    assert!(
        failures.is_empty(),
        "{} failures; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}

#[test]
fn annotations_around_variations_equal_the_tree_transforms() {
    // A NAG and a comment after the variations, alternatives to a
    // variation's first move, comments before a variation's first move and
    // after the last variations, a game from a FEN with en passant, a game
    // without moves, and a game with an illegal move (not written).
    let input = concat!(
        "1. e4 (1. d4 d5) $1 { late } e5 (1... c5 (1... e6) { t } 2. Nf3) ",
        "({ before } 1... c6 $2) { trail } 2. Nf3 { a } { b } *\n\n",
        "1. d4 (1. e4 e5 (1... c5) { x } 2. Nf3) { end } 1-0\n\n",
        "[FEN \"rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3\"]\n",
        "[SetUp \"1\"]\n\n3... dxe3 (3... Nf6 { n }) 4. dxe3 *\n\n",
        "{ no moves } *\n\n",
        "1. e4 e5 2. Ke3 *\n\n",
        "1. e4 { c } 1... e5 2. Nf3 $1 $2 Nc6 { after } (2... d6 { d }) 3. Bb5 0-1\n",
    );
    let fen = Some(FenOptions::default());
    for (fen, key) in [(fen, false), (None, true), (fen, true)] {
        for width in [79, 30] {
            let options = ExportOptions {
                width,
                ..ExportOptions::export()
            };
            let transforms = Transforms {
                fen_comments: fen,
                hash_comments: key,
                ..Transforms::default()
            };
            let comments = PositionComments {
                fen,
                polyglot_key: key,
            };
            let tree = through_tree(input.as_bytes(), &options, &transforms);
            let stream = streamed(input.as_bytes(), &options, comments);
            assert_eq!(
                String::from_utf8_lossy(&stream),
                String::from_utf8_lossy(&tree),
                "fen {fen:?}, key {key}, width {width}"
            );
            assert_eq!(String::from_utf8_lossy(&tree).matches("[Event ").count(), 5);
        }
    }
}

#[test]
fn no_position_comments_when_comments_are_not_written() {
    let options = ExportOptions {
        comments: false,
        ..ExportOptions::export()
    };
    let both = PositionComments {
        fen: Some(FenOptions::default()),
        polyglot_key: true,
    };
    let input = b"1. e4 { a } e5 (1... c5 2. Nf3) 2. Nf3 *\n";
    assert_eq!(
        streamed(input, &options, both),
        streamed(input, &options, PositionComments::default())
    );
}
