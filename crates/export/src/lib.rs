//! Export-format PGN writer for pgnkit: SPEC-NOTES "Writing" rules 1-9,
//! byte for byte, from a [`Game`] or streamed straight from the reader's
//! visitor events with no tree per game.
//!
//! ```
//! use pgnkit_export::{to_string, ExportOptions};
//! use pgnkit_game::{Comment, Game, Nag, NodeId};
//!
//! let mut game = Game::new();
//! game.tags_mut().set("White", "Fischer, Robert J.");
//! let e4 = game.add_san(NodeId::ROOT, "e4").unwrap();
//! let e5 = game.add_san(e4, "e5").unwrap();
//! let c5 = game.add_san(e4, "c5").unwrap();
//! game.node_mut(e4).unwrap().push_nag(Nag(1));
//! game.node_mut(c5).unwrap().push_comment(Comment::brace("  the   Sicilian "));
//! game.add_san(e5, "Nf3").unwrap();
//!
//! assert_eq!(
//!     to_string(&game, &ExportOptions::export()),
//!     "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
//!      [White \"Fischer, Robert J.\"]\n[Black \"?\"]\n[Result \"*\"]\n\n\
//!      1. e4 $1 1... e5 (1... c5 { the Sicilian }) 2. Nf3 *\n\n"
//! );
//! ```
//!
//! [`GameWriter`] keeps its buffers between games; [`StreamWriter`] is a
//! reader visitor that writes each game as its events arrive, byte for byte
//! the same text as the tree writer.
//!
//! What is written (SPEC-NOTES "Writing", rules 1-9):
//! - tags: the Seven Tag Roster in order (defaults for missing ones,
//!   `Result` = the marker), then the others in ASCII order of their names,
//!   `\` and `"` escaped, the `FEN` normalised from the starting position
//!   (written when the game has a `FEN` tag or a non-standard start),
//!   `SetUp` as read; one empty line;
//! - movetext: tokens separated by one space, `(` and `)` against their
//!   neighbours, grouped into units that never break (`{ word`, `word }`,
//!   comment words starting with `[` or `%` glued to the token before),
//!   filled greedily into lines of at most [`ExportOptions::width`] code
//!   points; a unit longer than that stands alone on its line;
//! - comments `{ text }` with white space collapsed; a comment containing
//!   `}` is written `; text` and ends its line; empty comments are dropped;
//! - `N...` for a black move first in a game or variation or after a NAG,
//!   comment or variation; NAGs and comments in read order; null moves `--`;
//! - every game ends with exactly one empty line.
//!
//! Besides the reorderings SPEC-NOTES lists (a comment between two
//! variations, a NAG after `)`, comments after the marker), the move tree
//! itself makes one more: an alternative to a variation's first move,
//! `(1. d4 (1. c4))`, is one more alternative to the same move and is
//! written `(1. d4) (1. c4)`. Each is stable after the first export.
//!
//! [`PendingFile`] is how every front-end writes an output file: under its
//! name whole, or not at all.

pub mod conformance;
mod display;
mod error;
mod layout;
mod letters;
mod movetext;
mod notation;
mod options;
mod pending_file;
mod position_comments;
mod short_copy;
mod stream;
mod tags;

use std::io;

use pgnkit_game::Game;

pub use conformance::check_export_format;
pub use display::{Pgn, ToPgn};
pub use error::{NotationError, TagOrderError};
pub use letters::PieceLetters;
pub use movetext::GameWriter;
pub use options::{ExportOptions, Notation, TagOrder};
pub use pending_file::{PendingFile, TempFiles};
pub use position_comments::PositionComments;
pub use stream::StreamWriter;

/// Writes `game` in export format to `out`, ending with its empty line.
///
/// For many games, reuse one [`GameWriter`] instead.
pub fn write_game(
    game: &Game,
    options: &ExportOptions,
    out: &mut impl io::Write,
) -> io::Result<()> {
    GameWriter::new(options.clone()).write(game, out)
}

/// `game` in export format, ending with its empty line.
pub fn to_string(game: &Game, options: &ExportOptions) -> String {
    let mut writer = GameWriter::new(options.clone());
    String::from_utf8_lossy(writer.render(game)).into_owned()
}

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
