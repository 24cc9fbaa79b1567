//! PGN tokens and games from bytes, knowing nothing of chess.
//!
//! - [`Lexer`]: zero-copy [`Token`]s (a [`TokenKind`], a byte [`Span`] and the borrowed text)
//!   of the standard's section 7 and the forms real files hold (suffix annotations, null moves,
//!   result variants such as `½-½`, `%` escape lines, error tokens). It never fails: bad bytes
//!   become [`TokenKind::Error`] tokens and lexing goes on.
//! - [`GameSplitter`] (over a slice) and [`Reader`] (over any [`BufRead`](std::io::BufRead), in
//!   constant memory) cut the input into [`RawGame`]s: each game's original bytes with its
//!   offset and line. See [`split`] for the rules.
//! - [`tags`]: a game's tag pairs without lexing its movetext.
//! - [`LineIndex`]: byte offset to line and column, computed only when a diagnostic needs it.
//!
//! Input is bytes: UTF-8 or Latin-1, LF, CR LF or CR line ends, an optional UTF-8 BOM.
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
mod grammar;
mod lexer;
mod reader;
mod shapes;
mod span;
pub mod split;
mod tags;
mod token;

pub use error::{LexError, LexErrorKind, LexWarning, LexWarningKind};
pub use grammar::MAX_TOKEN_LEN;
pub use lexer::Lexer;
pub use reader::Reader;
pub use span::{LineCol, LineIndex, Span};
pub use split::{GameSplitter, RawGame};
pub use tags::{TagPair, Tags, tags};
pub use token::{Outcome, Suffix, Token, TokenKind, unescape};
