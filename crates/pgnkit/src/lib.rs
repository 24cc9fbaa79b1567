//! pgnkit: read, validate and write chess games in PGN (Portable Game Notation).
//!
//! This crate is the front door: it re-exports the four libraries that do
//! the work, each under its own name, and the names most programs need at
//! the top level.
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`chess`] | `pgnkit-chess` | squares, positions, legal moves, FEN, SAN, UCI |
//! | [`lexer`] | `pgnkit-lexer` | PGN tokens with byte spans; splitting a stream into games |
//! | [`game`] | `pgnkit-game` | games, move trees, the validating reader, visitors, JSON |
//! | [`export`] | `pgnkit-export` | the export-format writer |
//! | [`select`] | `pgnkit-select` | queries over games, duplicates, opening classification, tag fixes |
//!
//! Read games, check them, and write them back in export format:
//!
//! ```
//! use pgnkit::{read_games, to_string, ExportOptions};
//!
//! let pgn = b"[White \"Morphy\"]\n\n1. e4 e5 2. Nf3 d6 {Philidor} 3. d4 1-0\n";
//! let read = read_games(pgn).next().expect("one game");
//! assert!(!read.is_broken());
//! let text = to_string(&read.value, &ExportOptions::export());
//! assert!(text.contains("[White \"Morphy\"]"));
//! assert!(text.ends_with("\n1. e4 e5 2. Nf3 d6 { Philidor } 3. d4 1-0\n\n"));
//! ```
//!
//! For files of any size, [`game::Reader`] streams games from an
//! `io::BufRead` in constant memory, and a [`game::Visitor`] sees every
//! event of a game without building a tree.
//!
//! # Features
//!
//! Everything is on by default. With `default-features = false` the crate is
//! the chess rules, the lexer, games and the export writer ([`chess`],
//! [`lexer`], [`game`], [`export`] and the names at the top level), in pure
//! Rust: no C compiler is needed to build it. Add back what a program uses:
//!
//! | feature | brings | pulls in |
//! |---|---|---|
//! | `input` | `pgnkit::input` (`pgnkit-input`): files and standard input opened with their format detected by content, plain text and UTF-16 (transcoded), byte ranges and split points | `encoding_rs` |
//! | `zstd` | zstd and pzstd `.zst` files, frames decoded in parallel (implies `input`) | `zstd` (C, built with `cc`) |
//! | `gzip` | gzip and BGZF `.gz` files (implies `input`) | `flate2` (pure-Rust backend) |
//! | `bzip2` | `.bz2` files (implies `input`) | `bzip2` (pure-Rust backend) |
//! | `xz` | `.xz` files (implies `input`) | `liblzma` (C, built with `cc`) |
//! | `zip` | the `.pgn` members of `.zip` archives (implies `input`) | `zip` |
//! | `select` | `pgnkit::select` (`pgnkit-select`): queries over games, duplicate detection, opening classification (the Lichess table, embedded: about 400 KB), tag fixes | `regex` |
//!
//! A reader of plain PGN with selection but no compressed inputs:
//!
//! ```toml
//! pgnkit = { version = "0.1", default-features = false, features = ["input", "select"] }
//! ```

pub use pgnkit_chess as chess;
pub use pgnkit_export as export;
pub use pgnkit_game as game;
#[cfg(feature = "input")]
pub use pgnkit_input as input;
pub use pgnkit_lexer as lexer;
#[cfg(feature = "select")]
pub use pgnkit_select as select;

pub use pgnkit_chess::{Move, Position, San, SanPlus};

/// The names most programs use, in one import: `use pgnkit::prelude::*;`.
///
/// ```
/// use pgnkit::prelude::*;
///
/// let mut game: Game = "1. e4 e5 2. Nf3 *".parse().unwrap();
/// let end = game.end().id();
/// game.add_san(end, "Nc6").unwrap();
/// game.set_termination(Termination::Draw);
/// let text = game.pgn().to_string();
/// assert!(text.ends_with("1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n"));
/// ```
pub mod prelude {
    pub use pgnkit_chess::{
        CastlingMode, Color, Move, Outcome, PlaySanError, Position, Role, San, SanPlus, Square, Uci,
    };
    pub use pgnkit_export::{ExportOptions, ToPgn, to_string, write_game};
    pub use pgnkit_game::{
        Clock, Comment, Diagnostic, Diagnostics, EditError, Eval, Game, NodeId, NodeRef, ReadGame,
        ReadOptions, Reader, Score, Step, Tags, Termination, Visitor, read_game, read_games,
    };
}
pub use pgnkit_export::{ExportOptions, to_string, write_game};
pub use pgnkit_game::{Diagnostic, Game, ReadOptions, Reader, read_games, read_games_with};

/// The examples of the repository's README, compiled and run as doctests so
/// that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;
