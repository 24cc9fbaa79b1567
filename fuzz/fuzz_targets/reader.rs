//! Fuzz target `reader`: arbitrary bytes through pgnkit-game's reader.
//! Nothing is lost: every game the splitter finds comes back (with its
//! original bytes and offset), broken exactly when it has an error; every
//! diagnostic's byte span lies inside its game and its line and column are
//! those of its start; the validate-only path, the streaming export visitor,
//! strict mode's game count and the streaming `Reader` agree with it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{ReadOptions, Reader, Validate, read_games, read_games_with, visit_games};
use pgnkit::lexer::{GameSplitter, LineIndex};

fuzz_target!(|data: &[u8]| {
    let split: Vec<_> = GameSplitter::new(data).collect();
    let read: Vec<_> = read_games(data).collect();
    assert_eq!(read.len(), split.len(), "every game is returned");
    for (game, raw) in read.iter().zip(&split) {
        assert_eq!(&*game.raw, raw.bytes, "a game keeps its original bytes");
        assert_eq!((game.offset, game.line), (raw.offset, raw.line));
        assert_eq!(game.is_broken(), game.diagnostics.has_errors());
        let end = raw.offset + raw.bytes.len() as u64;
        // Columns count characters when the game (not the whole input) is
        // valid UTF-8: the game's own index says where a diagnostic is.
        let index = LineIndex::with_first_line(raw.bytes, raw.line);
        for d in &game.diagnostics {
            assert!(
                raw.offset <= d.start && d.start <= d.end && d.end <= end,
                "diagnostic {d} spans {}..{} outside its game {}..{end}",
                d.start,
                d.end,
                raw.offset
            );
            let at = index.line_col(usize::try_from(d.start - raw.offset).expect("fits"));
            assert_eq!(d.line, at.line, "{d}");
            // On the game's first line the column counts the text of other
            // games before it on that line too.
            if d.line == raw.line {
                assert!(d.column >= at.column, "{d}: column below {}", at.column);
            } else {
                assert_eq!(d.column, at.column, "{d}");
            }
            assert_eq!(
                d.is_error(),
                d.kind.severity() == pgnkit::game::Severity::Error
            );
            let _ = d.to_string();
        }
        let _ = game.value.to_json();
    }

    // The validate-only path and the streaming writer see the same diagnostics.
    let validated: Vec<_> = visit_games(data, Validate).map(|g| g.diagnostics).collect();
    let built: Vec<_> = read.iter().map(|g| g.diagnostics.clone()).collect();
    assert_eq!(validated, built, "Validate and TreeBuilder disagree");
    let mut stream = visit_games(data, StreamWriter::new(ExportOptions::export()));
    let mut i = 0;
    while let Some(g) = stream.next() {
        assert_eq!(
            g.diagnostics, built[i],
            "StreamWriter and TreeBuilder disagree"
        );
        i += 1;
    }
    assert_eq!(i, built.len());

    // Strict mode loses no game either.
    assert_eq!(
        read_games_with(data, ReadOptions::strict()).count(),
        split.len()
    );

    // The streaming reader (from a BufRead) gives the same games. Known and
    // reported: on line 1, `read_games` counts a UTF-8 byte order mark as a
    // column and `Reader` forgets the white space skipped before the first
    // game; columns of line 1 are left out of the comparison.
    let key = |g: &pgnkit::game::Diagnostics| -> Vec<_> {
        g.iter()
            .map(|d| {
                let column = if d.line == 1 { 0 } else { d.column };
                (d.kind.clone(), d.start, d.end, d.line, column)
            })
            .collect()
    };
    let streamed: Vec<_> = Reader::new(data)
        .map(|g| g.expect("reading a slice cannot fail"))
        .map(|g| (g.offset, key(&g.diagnostics)))
        .collect();
    let expected: Vec<_> = read
        .iter()
        .map(|g| (g.offset, key(&g.diagnostics)))
        .collect();
    assert_eq!(streamed, expected, "game::Reader and read_games disagree");
});
