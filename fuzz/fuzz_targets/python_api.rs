//! Fuzz target `python_api`: the library calls behind the Python package's entry points,
//! as `crates/python` makes them. The input is a flags byte, a FEN line, a line of moves,
//! then the bytes of a source.
//!
//! - `Board(fen, chess960=...)`: `Setup::parse` then `Position::from_setup`; then
//!   `push_uci` (`Uci::parse`, `to_move`) or `push_san` (`Position::play_san`) for each
//!   word: a move played is legal, a refused one leaves the board as it was, and the
//!   board's FEN reads back to the same position.
//! - `read_games(bytes, threads=N, strict=...)`: `pgnkit::input::open` on a named
//!   in-memory reader, then `game::Reader` (one thread) or `read_games_parallel` (two or
//!   three): the same games, diagnostics and error either way.
//! - `read_game` (`_read_one`): the first game of `read_games_with` on the bytes is the
//!   first game the reader gives, for plain text.

#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::{CastlingMode, FenOptions, Position, Setup, Uci};
use pgnkit::game::{ReadGame, ReadOptions, Reader, read_games_parallel, read_games_with};
use pgnkit::input::{Format, Options, Source, open};

type Summary = (u64, u64, String, String);

fn summary(read: &ReadGame<'_, pgnkit::game::Game>) -> Summary {
    (
        read.offset,
        read.line,
        read.value.to_json(),
        format!("{:?}", read.diagnostics),
    )
}

/// The games of `bytes` opened as Python opens bytes, with `threads`; the error that ended
/// the reading, if any; and whether the source was plain text.
fn read(
    bytes: &[u8],
    threads: usize,
    options: ReadOptions,
) -> (Vec<Summary>, Option<String>, bool) {
    let input = Options {
        threads,
        max_window: pgnkit_fuzz::inputs::MAX_WINDOW,
    };
    let source = Source::reader("<bytes>", Cursor::new(bytes.to_vec()));
    let opened = match open(source, None, &input) {
        Ok(opened) => opened,
        Err(e) => return (Vec::new(), Some(e.to_string()), false),
    };
    let mut games = Vec::new();
    let mut plain = true;
    for stream in opened.streams {
        plain &= stream.format == Format::Text && stream.transcoded.is_none();
        if threads == 1 {
            for read in Reader::with_options(stream.reader, options) {
                match read {
                    Ok(read) => games.push(summary(&read)),
                    Err(e) => return (games, Some(e.to_string()), plain),
                }
            }
        } else {
            let result = read_games_parallel(stream.reader, threads, options, |read| {
                games.push(summary(&read));
                Ok(())
            });
            if let Err(e) = result {
                return (games, Some(e.to_string()), plain);
            }
        }
    }
    (games, None, plain)
}

fn board(fen: &[u8], moves: &[u8], chess960: bool) {
    let Ok(setup) = Setup::parse(fen) else { return };
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        setup.castling_mode()
    };
    let Ok(mut pos) = Position::from_setup(setup, mode) else {
        return;
    };
    for word in moves
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        let before = pos.clone();
        if let Ok(uci) = Uci::parse(word) {
            if let Ok(m) = uci.to_move(&pos) {
                assert!(m.is_null() || pos.is_legal(m), "push_uci {uci} in {pos}");
                pos.play_unchecked(m);
            }
            continue;
        }
        match pos.play_san(word) {
            Ok(m) => assert!(m.is_null() || before.is_legal(m), "push_san in {before}"),
            Err(_) => assert_eq!(pos, before, "a refused SAN changed the board"),
        }
    }
    let fen = pos.fen(FenOptions::new());
    let setup = Setup::parse(fen.as_bytes()).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let back = Position::from_setup(setup, mode).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back, pos, "board FEN {fen}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut lines = rest.splitn(3, |&b| b == b'\n');
    let (fen, moves, source) = (
        lines.next().unwrap_or_default(),
        lines.next().unwrap_or_default(),
        lines.next().unwrap_or_default(),
    );
    board(fen, moves, flags & 1 != 0);
    let options = if flags & 2 != 0 {
        ReadOptions::strict()
    } else {
        ReadOptions::new()
    };
    let threads = usize::from(flags >> 2) % 2 + 2;
    let one = read(source, 1, options);
    let many = read(source, threads, options);
    assert_eq!(one, many, "threads=1 and threads={threads} differ");
    if one.2 && one.1.is_none() {
        let first = read_games_with(source, options).next();
        assert_eq!(
            first.as_ref().map(summary),
            one.0.first().cloned(),
            "read_game and read_games differ on the first game"
        );
    }
});
