//! PGN tokens and games from bytes, knowing nothing of chess.
//!
//! - [`Lexer`]: zero-copy [`Token`]s (a [`TokenKind`], a byte [`Span`] and the borrowed text)
//!   of the standard's section 7 and the forms real files hold (suffix annotations, null moves,
//!   result variants such as `½-½`, `%` escape lines, error tokens). It never fails: bad bytes
//!   become [`TokenKind::Error`] tokens and lexing goes on.
//! - [`GameSplitter`] (over a slice) and [`Reader`] (over any [`Read`](std::io::Read), in
//!   constant memory) cut the input into [`RawGame`]s: each game's original bytes with its
//!   offset and line. See [`split`] for the rules.
//! - `next_tokenized` of both ([`GameSplitter::next_tokenized`], [`Reader::next_tokenized`]):
//!   the same games with their tokens ([`TokenizedGame`], [`GameToken`]) read in one pass, each
//!   byte once: the lexer decides where a game ends from its tokens. The tokens and warnings are
//!   exactly those of a [`Lexer`] over the game's bytes.
//! - [`tags()`]: a game's tag pairs without lexing its movetext.
//! - [`LineIndex`]: byte offset to line and column, computed only when a diagnostic needs it.
//!
//! Input is bytes: UTF-8 or Latin-1, LF, CR LF or CR line ends, an optional UTF-8 BOM.
//!
//! # Reading decisions
//!
//! - A SAN move, castling (`O-O`, `0-0`, `0-0-0+`), a UCI move and a tag name are all
//!   [`TokenKind::Symbol`]; `0-1` is a [`TokenKind::Termination`] because the whole symbol is
//!   exactly a marker (so `0-0-0` and `0-1-0` are symbols). Marker variants (`½-½` in UTF-8 or
//!   Latin-1, `1–0` with an en dash, `0:1`) are terminations too; the text tells which was
//!   written and [`Outcome::from_standard`] tells a standard one.
//! - Null moves `--`, `Z0`, `0000` and `@@@@` are [`TokenKind::NullMove`] when written exactly
//!   so; the chess layer decides where they are allowed.
//! - En passant markers stay with the move when glued (`exd6e.p.`, `exd6ep`) and are a symbol
//!   of their own when separate (`e.p.`, `ep`); the chess layer interprets them.
//! - `12.` is an integer and a period; `12...` an integer and one period token of three bytes;
//!   `3...Bb5` is integer, period, symbol.
//! - A suffix (`!` `?` `!!` `??` `!?` `?!`) is its own token, glued to the move or not (the
//!   spans tell); any other run of `!`/`?` is an error.
//! - `%` starts an escape line only in the first column; elsewhere it is an error.
//! - Errors are tokens: an unterminated string (at its line end), an unterminated comment (at
//!   the end of the input or before a line that starts like a tag pair), control characters, an
//!   unexpected character, an invalid suffix, a `$` without digits, a symbol longer than
//!   [`MAX_TOKEN_LEN`]. Strings and symbols over the standard's 255 characters and TABs in
//!   strings are [`LexWarning`]s.
//!
//! # Speed
//!
//! The grammar is one nom parser per rule; the lexer reads the common tokens (symbols, move
//! numbers, periods, delimiters, strings, comments) on fast paths chosen by the first byte and
//! checked against the rules by a property test. The fast paths are small enough to inline
//! into the caller's loop, and [`Lexer`]'s `fold` (behind `count`, `for_each` and the like)
//! keeps the position in a register. Strings, comments, tag names and movetext are scanned
//! eight bytes at a time in a `u64` (sixteen per round) with carry tricks, not a branch per
//! byte. The splitter does not tokenize: it jumps between the bytes that can matter for where
//! a game ends, so splitting is faster than lexing; a reader that wants the tokens too takes
//! the single pass, which saves the splitter's scan. The streaming [`Reader`] reads straight
//! into its buffer and counts line ends with memchr.
//!
//! ```
//! use pgnkit_lexer::{tags, GameSplitter, Lexer, LineIndex, TokenKind};
//!
//! let pgn = b"[Event \"Casual\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5?! Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0\n";
//! for game in GameSplitter::new(pgn) {
//!     let event = tags(game.bytes).flatten().find(|t| t.name == b"Event").unwrap();
//!     assert_eq!(&*event.value(), b"Casual");
//!     let moves = Lexer::new(game.bytes).filter(|t| t.kind == TokenKind::Symbol).count();
//!     assert_eq!(moves, 2 + 7); // two tag names and seven moves
//!     let blunder = Lexer::new(game.bytes).find(|t| t.text == b"??").unwrap();
//!     let at = LineIndex::with_first_line(game.bytes, game.line).line_col(blunder.span.start);
//!     assert_eq!((at.line, at.column), (4, 33));
//! }
//! ```

mod byte_class;
mod error;
mod game_end;
mod grammar;
mod lexer;
mod main_line;
mod options;
mod raw_game;
mod reader;
pub mod resync;
mod shapes;
mod single_pass;
mod span;
pub mod split;
mod swar;
mod tag_line;
mod tags;
mod token;
mod vector;

pub use error::{LexError, LexErrorKind, LexWarning, LexWarningKind};
pub use grammar::MAX_TOKEN_LEN;
pub use lexer::Lexer;
pub use main_line::main_line_moves;
pub use options::LexOptions;
pub use raw_game::RawGame;
pub use reader::{Block, BlockEnd, Reader};
pub use single_pass::{GameToken, TokenizedGame};
pub use span::{LineCol, LineIndex, Span};
pub use split::GameSplitter;
pub use tags::{TagPair, Tags, tags};
pub use token::{Outcome, Suffix, Token, TokenKind, unescape};

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
