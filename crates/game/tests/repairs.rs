//! The reading repairs of `ReadOptions` (pgn-extract's `--nestedcomments`
//! and `--fixtagstrings`): what each reads, what it reports, and that every
//! entry point (slices, streams, the parallel reader, tags only) reads with
//! them alike.

use pgnkit_game::{
    Annotation, DiagnosticKind, Game, ReadGame, ReadOptions, Reader, read_games_parallel,
    read_games_with,
};

fn nested() -> ReadOptions {
    let mut options = ReadOptions::new();
    options.nested_comments = true;
    options
}

fn fixing() -> ReadOptions {
    let mut options = ReadOptions::new();
    options.fix_tag_strings = true;
    options
}

fn all(pgn: &[u8], options: ReadOptions) -> Vec<ReadGame<'_, Game>> {
    read_games_with(pgn, options).collect()
}

/// The texts of every comment after a main-line move.
fn comments(game: &Game) -> Vec<String> {
    game.main_line()
        .filter_map(|id| game.node(id))
        .flat_map(|node| {
            node.node()
                .annotations()
                .iter()
                .filter_map(|a| match a {
                    Annotation::Comment(c) => Some(c.text().to_owned()),
                    Annotation::Nag(_) => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

const NESTED: &[u8] =
    b"[Event \"n\"]\n\n1. e4 { a { b } [Site \"x\"] } e5 { x {\ny { z } } w } 2. Nf3 *\n";

#[test]
fn nested_comments_are_one_comment() {
    let games = all(NESTED, nested());
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert!(game.diagnostics.is_empty(), "{:?}", game.diagnostics);
    assert_eq!(game.value.main_line_moves().count(), 3);
    assert_eq!(
        comments(&game.value),
        [" a { b } [Site \"x\"] ", " x {\ny { z } } w "]
    );
    // By the standard the first `}` ends the comment: the rest is an error.
    let plain = all(NESTED, ReadOptions::new());
    assert!(plain.iter().any(ReadGame::is_broken));
}

#[test]
fn every_entry_point_reads_nested_comments_alike() {
    let slice: Vec<_> = all(NESTED, nested())
        .into_iter()
        .map(|g| (g.value, g.diagnostics))
        .collect();
    let mut streamed = Vec::new();
    let mut reader = Reader::with_options(NESTED, nested());
    while let Some(read) = reader.next_game() {
        let read = read.expect("reading from memory");
        streamed.push((read.value, read.diagnostics));
    }
    assert_eq!(streamed, slice);
    // Many games, so that the parallel reader cuts batches: the same games.
    let many = NESTED.repeat(3000);
    let one: Vec<_> = all(&many, nested())
        .into_iter()
        .map(|g| (g.offset, g.value, g.diagnostics))
        .collect();
    let mut parallel = Vec::new();
    read_games_parallel(&many[..], 3, nested(), |read| {
        parallel.push((read.offset, read.value, read.diagnostics));
        Ok(())
    })
    .expect("reading from memory");
    assert_eq!(parallel.len(), 3000);
    assert_eq!(parallel, one);
    // Tags only: the comment holds a tag pair, which is not the game's.
    let mut reader = Reader::with_options(NESTED, nested());
    let tags = reader.next_tags().expect("a game").expect("read");
    assert_eq!(tags.get("Site"), None);
    assert!(reader.next_tags().is_none());
}

const UNCLOSED: &[u8] =
    b"[Event \"The Open]\n[Site \"x\\\"]  \n[Round \"1\" ]\n[White \"W\n[Black \"B\"]\n\n1. e4 *\n";

#[test]
fn fix_tag_strings_reads_a_value_up_to_the_lines_last_bracket() {
    let games = all(UNCLOSED, fixing());
    assert_eq!(games.len(), 1);
    let game = &games[0];
    let tags = game.value.tags();
    assert_eq!(tags.get("Event"), Some("The Open"));
    // Escapes are read as usual.
    assert_eq!(tags.get("Site"), Some("x\""));
    assert_eq!(tags.get("Round"), Some("1"));
    // No `]` at the line's end: still an error, and the value is not read.
    assert_eq!(tags.get("White"), None);
    assert_eq!(tags.get("Black"), Some("B"));
    let kinds: Vec<_> = game.diagnostics.iter().map(|d| &d.kind).collect();
    assert_eq!(
        kinds,
        [
            &DiagnosticKind::MissingClosingQuote("Event".into()),
            &DiagnosticKind::MissingClosingQuote("Site".into()),
            &DiagnosticKind::UnterminatedString,
        ]
    );
    let events: Vec<_> = game
        .diagnostics
        .iter()
        .map(|d| (d.line, d.column))
        .collect();
    assert_eq!(events, [(1, 8), (2, 7), (4, 8)]);
    // Without the option each is an error.
    let plain = all(UNCLOSED, ReadOptions::new());
    let errors = plain[0].diagnostics.errors().count();
    assert_eq!(errors, 3);
    assert_eq!(plain[0].value.tags().get("Event"), None);
    // The tags-only path reads them the same.
    let mut reader = Reader::with_options(UNCLOSED, fixing());
    let tags = reader.next_tags().expect("a game").expect("read");
    assert_eq!(tags.get("Event"), Some("The Open"));
}
