//! pgnkit: read, validate and write chess games in PGN (Portable Game Notation).
//!
//! This crate is the front door: it holds the six libraries that do the
//! work, each as a module of its own name (every item of the library is
//! there, with its docs), and the names most programs need in
//! [`prelude`] and at the top level.
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`chess`] | `pgnkit-chess` | squares, positions, legal moves, FEN, EPD, SAN, UCI |
//! | [`lexer`] | `pgnkit-lexer` | PGN tokens with byte spans; splitting a stream into games |
//! | [`input`] | `pgnkit-input` | files of any kind: compressed (zstd, gzip, bzip2, xz, zip) or UTF-16, told by content |
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
//! // A game equals itself written and read again.
//! assert_eq!(read_games(text.as_bytes()).next().unwrap().value, read.value);
//! ```
//!
//! # Where to start
//!
//! - One game from a string: `text.parse::<`[`Game`]`>()` (exactly one good
//!   game, else a [`game::ParseGameError`]), or [`game::read_game`] (the
//!   first game with its diagnostics, broken or not).
//! - Games from bytes: [`read_games`]; from a stream in constant memory:
//!   [`Reader`]; on every core: [`game::read_games_parallel`] with
//!   [`game::ALL_CORES`]. Each comes as a [`game::ReadGame`]: the game, its
//!   [`Diagnostic`]s (with line and column;
//!   [`ReadGame::render`](game::ReadGame::render) shows the source line with
//!   a caret) and its original bytes.
//! - Files as users have them, compressed or not: [`input::open`] (see
//!   [`input`] for an example).
//! - Without building trees: a [`game::Visitor`] sees every event of a game
//!   ([`game::visit_games`], [`Reader::visit_next`]).
//! - Moves and positions: [`Position`] ([`Position::play_san`],
//!   [`Position::is_game_over`], FEN and [`Position::epd`]), [`chess::Epd`].
//! - Writing: [`to_string`], [`write_game`] and [`ExportOptions`];
//!   [`export::StreamWriter`] writes straight from the reader.
//! - Selecting, deduplicating, naming openings: [`select::Query`],
//!   [`select::Seen`], [`select::Openings`].
//!
//! The `examples` folder of this crate holds one small program for each of
//! these tasks (run in CI, each checking its result).
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

pub mod chess {
    //! The rules of chess, and nothing about PGN text: the `pgnkit-chess`
    //! crate.
    //!
    //! [`Position`] (FEN in and out, legal moves, [`Position::play_san`],
    //! [`Position::outcome`], [`Position::is_game_over`],
    //! [`Position::epd`]), [`Move`], [`San`] and [`SanPlus`] (SAN syntax and
    //! the canonical SAN of a move), [`LenientSan`] (the forms real files
    //! hold), [`Uci`], [`Epd`] (EPD records with typed operations),
    //! [`Square`], [`Bitboard`], [`Board`].
    //!
    //! ```
    //! use pgnkit::chess::{Epd, Position};
    //!
    //! let mut pos = Position::new();
    //! for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
    //!     pos.play_san(san)?;
    //! }
    //! assert!(pos.is_game_over() && pos.is_checkmate());
    //! assert_eq!(pos.epd(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq -");
    //! // `Epd::from_position` adds the move counters, `Epd::new` does not.
    //! assert!(Epd::from_position(&pos).to_string().ends_with(" fmvn 4; hmvc 0;"));
    //! # Ok::<(), pgnkit::chess::PlaySanError>(())
    //! ```
    #[doc(inline)]
    pub use pgnkit_chess::*;
}

pub mod lexer {
    //! PGN tokens with byte spans, and splitting a stream into games in
    //! constant memory: the `pgnkit-lexer` crate. The lexer knows nothing of
    //! chess.
    //!
    //! [`Lexer`] gives the [`Token`]s of a text, [`GameSplitter`] the games
    //! of a byte slice, [`Reader`] the games of a stream.
    //!
    //! ```
    //! use pgnkit::lexer::Lexer;
    //!
    //! let kinds: Vec<_> = Lexer::new(b"1. e4 {best} *").map(|t| t.kind.name()).collect();
    //! assert_eq!(kinds, ["integer", "period", "symbol", "comment", "termination"]);
    //! ```
    #[doc(inline)]
    pub use pgnkit_lexer::*;
}

#[cfg(feature = "input")]
pub mod input {
    //! Inputs as users have them: the `pgnkit-input` crate. The format is
    //! told from the first bytes, never from the name: zstd (pzstd frames
    //! decoded in parallel), gzip, bzip2, xz, zip (its `.pgn` members),
    //! UTF-16 with a byte order mark, or text.
    //!
    //! [`open`] opens a [`Source`] (a file, or a stream such as standard
    //! input), whole or a byte range of it; it gives an [`Opened`]: its [`Stream`]s (one, or one per
    //! member of a zip archive), each with a `reader` of PGN text to hand
    //! to the game [`Reader`](crate::Reader), and warnings to show. Errors
    //! are [`InputError`]s naming the input.
    //!
    //! ```
    //! use std::io::Write;
    //! use pgnkit::input::{Format, Options, Source, open};
    //! use pgnkit::Reader;
    //!
    //! // A gzip file: its name says nothing, its first bytes do.
    //! let path = std::env::temp_dir().join(format!("pgnkit-input-doc-{}", std::process::id()));
    //! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    //! gz.write_all(b"1. e4 e5 *\n\n1. d4 d5 *\n")?;
    //! std::fs::write(&path, gz.finish()?)?;
    //!
    //! let opened = open(Source::named_path(&path, "games"), None, &Options::default())?;
    //! assert!(opened.warnings.is_empty());
    //! let mut games = 0;
    //! for stream in opened.streams {
    //!     assert_eq!(stream.format, Format::Gzip);
    //!     for read in Reader::new(stream.reader) {
    //!         games += usize::from(!read?.is_broken());
    //!     }
    //! }
    //! assert_eq!(games, 2);
    //! std::fs::remove_file(&path)?;
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```
    #[doc(inline)]
    pub use pgnkit_input::*;
}

pub mod game {
    //! Games: the model ([`Game`], [`Tags`], the move tree, [`Comment`]s
    //! with their clock and eval commands) and the validating reader
    //! ([`read_games`], [`Reader`], [`read_games_parallel`], [`Visitor`]s),
    //! with [`Diagnostic`]s that say where and why: the `pgnkit-game`
    //! crate.
    //!
    //! ```
    //! use pgnkit::game::{Game, read_games};
    //!
    //! let game: Game = "[White \"Réti\"]\n\n1. Nf3 d5 2. c4 *".parse().unwrap();
    //! assert_eq!(&game.tags()["White"], "Réti");
    //! assert_eq!(game.main_line().count(), 3);
    //! let read = read_games(b"1. e4 e5 * 1. d4 Ke7 *").nth(1).unwrap();
    //! let error = read.diagnostics.errors().next().unwrap();
    //! assert_eq!((error.line, error.column), (1, 18));
    //! assert!(read.render(error).ends_with("  1. d4 Ke7 *\n        ^\n"));
    //! ```
    #[doc(inline)]
    pub use pgnkit_game::*;
}

pub mod export {
    //! The export-format writer (the PGN standard's rules, byte for byte):
    //! the `pgnkit-export` crate. [`to_string`] and [`write_game`] write a
    //! [`Game`](crate::Game) with [`ExportOptions`]; [`GameWriter`] keeps
    //! its buffers across games; [`StreamWriter`] writes straight from the
    //! reader's events.
    //!
    //! ```
    //! use pgnkit::export::{ExportOptions, to_string};
    //! use pgnkit::Game;
    //!
    //! let game: Game = "1. e4 {best by test} e5 *".parse().unwrap();
    //! let text = to_string(&game, &ExportOptions::export());
    //! assert!(text.starts_with("[Event \"?\"]\n"));
    //! assert!(text.ends_with("\n\n1. e4 { best by test } 1... e5 *\n\n"));
    //! ```
    #[doc(inline)]
    pub use pgnkit_export::*;
}

#[cfg(feature = "select")]
pub mod select {
    //! Database work over games: the `pgnkit-select` crate. [`Query`]
    //! selects games by tags, moves and positions; [`Seen`] and [`GameKey`]
    //! find duplicates; [`Openings`] names openings (the Lichess table);
    //! [`fix_result`], [`add_ply_count`] and the other fixes edit tags.
    //!
    //! ```
    //! use pgnkit::Game;
    //! use pgnkit::select::{Context, Openings, Query};
    //!
    //! let game: Game = "1. e4 c5 2. Nf3 d6 *".parse().unwrap();
    //! let opening = Openings::lichess().classify(&game).unwrap().opening;
    //! assert_eq!(opening.eco, "B50");
    //! let query = Query::parse("plies >= 4").unwrap();
    //! assert!(query.matches(&game, &Context::default()));
    //! ```
    #[doc(inline)]
    pub use pgnkit_select::*;
}

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
        CastlingMode, Color, Epd, Move, Outcome, PlaySanError, Position, Role, San, SanPlus,
        Square, Uci,
    };
    pub use pgnkit_export::{ExportOptions, ToPgn, to_string, write_game};
    pub use pgnkit_game::{
        ALL_CORES, Clock, Comment, Diagnostic, Diagnostics, EditError, Eval, Game, GameStart,
        MoveEvent, NodeId, NodeRef, ReadGame, ReadOptions, Reader, Score, Skip, Step, Tags,
        Termination, Visitor, read_game, read_games, read_games_parallel,
    };
    #[cfg(feature = "input")]
    pub use pgnkit_input::{Source, open};
}
pub use pgnkit_export::{ExportOptions, to_string, write_game};
pub use pgnkit_game::{
    ALL_CORES, Diagnostic, Game, ReadOptions, Reader, read_games, read_games_parallel,
    read_games_with,
};

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
