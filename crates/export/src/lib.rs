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
//! reader visitor that writes each game as its events arrive.

mod layout;
mod movetext;
mod notation;
mod options;
mod stream;
mod tags;

use std::io;

use pgnkit_game::Game;

pub use movetext::GameWriter;
pub use options::{ExportOptions, Notation};
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
