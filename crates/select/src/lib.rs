//! Database work over PGN games: choosing games with a query, finding
//! duplicates, naming openings, fixing tags.
//!
//! This crate works on the [`pgnkit_game::Game`] model (read with
//! `pgnkit-game`); it reads nothing and writes nothing itself. The
//! `pgnkit select`, `dedupe` and `classify` commands are a thin layer over
//! it. Its parts:
//!
//! - [`Query`]: a small expression language over a game's tags, its main
//!   line and its positions, parsed with nom. The grammar and the meaning of
//!   each comparison are documented on [`Query`]; errors carry the byte span
//!   at fault and [`QueryError::render`] puts a caret under it.
//! - [`GameKey`] and [`Seen`]: duplicate detection by a 128-bit hash of the
//!   start position and the main-line moves (16 bytes per distinct game,
//!   see the [`dedupe`] module), or by the board at a ply (`--fuzzy-ply`).
//! - [`Openings`]: the Lichess opening table (CC0, embedded) and Lichess's
//!   classification rule.
//! - [`fix_result`], [`add_ply_count`], [`add_final_fen`], [`drop_tags`].
//! - [`Recorder`] and [`Record`]: a query's game read without a tree (its
//!   tags and main line kept while the reader checks it), for
//!   [`Query::matches_record`].
//! - [`MatchFilter`]: the Nth matched games kept or left out
//!   (pgn-extract's `--selectonly`, `--skipmatching`); [`Window`]: the
//!   games written of those found (`--skip N`, `--first N`).
//! - [`Transforms`]: pgn-extract's game transforms ([`truncate_plies`],
//!   [`drop_plies`], [`split_variations`], [`add_fen_comments`],
//!   [`add_hash_comments`], [`add_hash_code`], [`add_total_ply_count`],
//!   [`move_variation_comments`]); [`DropPlies`]: the plies dropped while
//!   the game is read, with no tree; [`SplitLines`]: a game without
//!   variations, its only line, with no tree.
//!
//! ```
//! use pgnkit_game::Game;
//! use pgnkit_select::{Context, Openings, Query};
//!
//! let mut game: Game = "[White \"Anand\"]\n[WhiteElo \"2780\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *"
//!     .parse()
//!     .unwrap();
//! let opening = Openings::lichess().classify(&game).unwrap().opening;
//! game.tags_mut().insert("ECO", &opening.eco);
//! let query = Query::parse(r#"player ~ "Anand" and WhiteElo >= 2700 and eco = B90"#).unwrap();
//! assert!(query.matches(&game, &Context::default()));
//! ```

pub mod dedupe;
mod drop_stream;
mod ending;
mod error;
mod fix;
mod imbalance;
mod main_line;
mod match_numbers;
mod material;
mod needs;
mod openings;
mod pattern;
mod position_key;
mod positions;
mod query;
mod record;
mod sequence;
mod soundex;
mod split_stream;
mod transform;
mod value;
mod window;

pub use dedupe::{GameKey, Hasher128, Seen};
pub use drop_stream::{DropPlies, Dropped};
pub use error::{MatchNumbersError, OpeningsError, QueryError, QueryErrorKind, TooShort};
pub use fix::{FINAL_FEN_TAG, SETUP_TAGS, add_final_fen, add_ply_count, drop_tags, fix_result};
pub use imbalance::Imbalance;
pub use main_line::{MainLine, Moves};
pub use match_numbers::{MatchFilter, MatchNumbers};
pub use material::Material;
pub use openings::{Classification, MAX_PLIES, MIN_PIECES, Opening, Openings};
pub use pattern::Pattern;
pub use position_key::PositionKey;
pub use positions::Ply;
pub use query::{Context, MAX_QUERY_DEPTH, PlyFinder, Query};
pub use record::{Record, Recorder};
pub use sequence::Sequence;
pub use split_stream::{Lines, SplitLines};
pub use transform::{
    HASH_CODE_TAG, TOTAL_PLY_COUNT_TAG, Transformed, Transforms, add_fen_comments, add_hash_code,
    add_hash_comments, add_total_ply_count, drop_plies, mark_plies, move_variation_comments,
    split_variations, truncate_plies,
};
pub use value::{PgnDate, number, time_control_base};
pub use window::{Place, Window};

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
