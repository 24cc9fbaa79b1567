//! PGN games for pgnkit: the model users hold ([`Game`]: [`Tags`], the
//! starting position, an arena move tree with variations, NAGs and
//! comments) and the validating reader that fills it.
//!
//! Every move of every line is resolved against its position; problems
//! become [`Diagnostic`]s with byte spans, lines and columns, and reading
//! always goes on with the next game.
//!
//! ```
//! use pgnkit_game::{read_games, Termination};
//!
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 { develops } Nc6 1-0\n\n\
//!             [Event \"Second\"]\n\n1. d4 d5 2. Ke3 *\n";
//! let games: Vec<_> = read_games(pgn).collect();
//! assert_eq!(games.len(), 2);
//!
//! let first = &games[0].value;
//! assert_eq!(first.tags().get("Event"), Some("Casual"));
//! assert_eq!(first.main_line().count(), 4);
//! assert_eq!(first.termination(), Termination::WhiteWins);
//! assert!(!games[0].is_broken());
//!
//! let second = &games[1];
//! assert!(second.is_broken());
//! let error = second.diagnostics.errors().next().unwrap();
//! assert_eq!((error.line, error.column), (7, 13));
//! assert_eq!(error.move_text.as_deref(), Some("Ke3"));
//! assert_eq!(second.value.main_line().count(), 2); // what was read before the error
//! ```
//!
//! # The model
//!
//! A [`Game`] holds its [`Tags`] in the order read, the starting position
//! (from `FEN`, Chess960 from `Variant` or the FEN's castling field), a
//! [`MoveTree`] arena of [`Node`]s addressed by [`NodeId`]s (each move with
//! its canonical SAN, the [`Comment`]s before it, its [`Annotation`]s —
//! NAGs and comments in the order read — and its variations), the
//! [`Termination`] marker and its [`Encoding`]. The [`Diagnostics`] of a
//! game read are not in it: they come beside it, in its [`ReadGame`].
//! Comments keep their text exactly as read and parse embedded commands on
//! demand ([`Comment::clock`], [`Comment::eval`], [`Comment::shapes`]).
//!
//! # Reading
//!
//! [`read_games`] (a byte slice) and [`Reader`] (any `Read`, one game at
//! a time) give a [`ReadGame`] per game the lexer's splitter finds: the
//! value, its diagnostics (errors make it broken) and its original bytes.
//! [`ReadOptions::strict`] turns every lenient move form into an error
//! (the `_with` forms and [`Reader::with_options`] take options; the others
//! read with the default). For streaming without a tree, implement
//! [`Visitor`] and use [`visit_games`] or [`Reader::visit_next`] (both take
//! the visitor, or a `&mut` to it); [`Validate`] and [`TagsOnly`] are the
//! fast paths; [`Reader::next_tags`] reads a game's tags without lexing
//! its movetext ([`clean_tags`]). [`read_games_parallel`], [`visit_games_parallel`] and
//! [`run_ordered`] read a stream on several threads and hand the games back
//! in input order.
//!
//! # JSON
//!
//! `Game` implements serde's `Serialize` and `Deserialize` in the shape the
//! [`json`] module documents; deserialising replays and checks every move.

mod builder;
mod comment;
mod diagnostic;
mod encoding;
mod error;
mod from_text;
mod game;
mod game_start;
pub mod json;
mod limits;
mod nag;
mod parallel;
mod reader;
pub mod render;
mod tags;
mod termination;
mod tree;
mod variant;
mod view;
mod visitor;

pub use builder::TreeBuilder;
pub use comment::{Clock, Command, Comment, CommentKind, Eval, Score, Shape, ShapeColor};
pub use diagnostic::{Diagnostic, Diagnostics, Severity};
pub use encoding::{Encoding, decode};
pub use error::{DiagnosticKind, EditError, JsonError, ParseGameError};
pub use from_text::read_game;
pub use game::Game;
pub use game_start::GameStart;
pub use limits::MAX_VARIATION_DEPTH;
pub use nag::Nag;
pub use parallel::{
    ALL_CORES, Job, MAX_THREADS, Totals, all_cores, check_threads, read_games_parallel,
    run_ordered, run_ordered_games, visit_games_parallel,
};
pub use reader::{
    Games, ReadGame, ReadOptions, Reader, VisitGames, read_games, read_games_with, visit_game,
    visit_games, visit_games_with, visit_tokenized,
};
pub use tags::{SEVEN_TAG_ROSTER, Tags, clean_tags, clean_tags_with};
pub use termination::Termination;
pub use tree::{Annotation, LineIter, MoveTree, Node, NodeId, PlayedMove};
pub use variant::VariantKind;
pub use view::{Children, MainLine, NodeRef, Step, Walk};
pub use visitor::{
    MainLineMoves, MoveEvent, RawComment, Skip, TagsOnly, Validate, Visitor, san_plus,
};

/// The example of this crate's README (its crates.io page), compiled and run as a
/// doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
