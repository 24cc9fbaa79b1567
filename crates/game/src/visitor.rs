//! The [`Visitor`] trait: the reader's events for one game, in order,
//! for streaming without building a tree.
//!
//! For each game the reader calls [`begin_game`](Visitor::begin_game),
//! [`tag`](Visitor::tag) for each tag pair,
//! [`end_tags`](Visitor::end_tags) (return [`Skip::Yes`] to skip the
//! movetext, the "tags only" fast path), then — unless skipped —
//! [`begin_movetext`](Visitor::begin_movetext) with the starting position,
//! the movetext events, and always [`end_game`](Visitor::end_game).
//!
//! Movetext events are already placed the way SPEC-NOTES says: a
//! [`comment_before`](Visitor::comment_before) comes right before the
//! [`san`](Visitor::san) it stands before; [`nag`](Visitor::nag) and
//! [`comment`](Visitor::comment) annotate the last move of the current
//! line (a NAG after `)` included); [`begin_variation`](Visitor::begin_variation)
//! opens an alternative to the last move of the current line;
//! [`trailing_comment`](Visitor::trailing_comment) ends a line with no
//! move following (or holds the comments of a game without moves); after
//! an error the rest of a line sends no events.
//!
//! The move events give the resolved [`Move`] and the positions before and
//! after it: a visitor that wants SAN builds it (see [`san_plus`]), one that
//! does not pays nothing for it. Comments come as their bytes
//! ([`RawComment`]), whose clock, evaluation and shapes
//! ([`RawComment::clock`], [`RawComment::eval`], [`RawComment::shapes`])
//! are read from those bytes without allocating.
//!
//! ```
//! use pgnkit_game::{visit_games, MoveEvent, Skip, Visitor};
//!
//! /// Counts the captures of each game's main line.
//! #[derive(Default)]
//! struct Captures(usize);
//!
//! impl Visitor for Captures {
//!     type Output = usize;
//!     fn san(&mut self, event: MoveEvent<'_>) {
//!         self.0 += usize::from(event.mv.is_capture());
//!     }
//!     fn begin_variation(&mut self) -> Skip {
//!         Skip::Yes // main line only
//!     }
//!     fn end_game(&mut self) -> usize {
//!         std::mem::take(&mut self.0)
//!     }
//! }
//!
//! let pgn = b"1. e4 d5 2. exd5 (2. e5 c5) Qxd5 *\n\n1. d4 *\n";
//! let counts: Vec<usize> = visit_games(pgn, Captures::default())
//!     .map(|game| game.value)
//!     .collect();
//! assert_eq!(counts, [2, 0]);
//! ```

use std::time::Duration;

use pgnkit_chess::{Move, Position, San, SanPlus};
use pgnkit_lexer::GameToken;

use crate::Nag;
use crate::comment::{Command, CommandIter, Comment, CommentKind, Eval, Shape};
use crate::encoding::{Encoding, decode};
use crate::game_start::GameStart;
use crate::termination::Termination;

/// Whether to skip what follows (the movetext, or a variation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Skip {
    /// Read it.
    #[default]
    No,
    /// Skip it: no events for it.
    Yes,
}

/// A comment as it stands in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawComment<'a> {
    /// The text between `{` and `}`, or after `;` to the line end.
    pub text: &'a [u8],
    /// Brace or rest-of-line.
    pub kind: CommentKind,
}

impl<'a> RawComment<'a> {
    /// The comment, decoded with the game's encoding.
    pub fn decode(&self, encoding: Encoding) -> Comment {
        Comment::new(decode(self.text, encoding), self.kind)
    }

    /// The embedded commands `[%name args]`, in order, read from the bytes
    /// without allocating (as [`Comment::commands`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// use pgnkit_game::{CommentKind, RawComment, Score};
    ///
    /// let raw = RawComment {
    ///     text: b" [%eval -0.3,18] [%clk 0:01:02.5] [%cal Ge2e4,Rd7d5] ",
    ///     kind: CommentKind::Brace,
    /// };
    /// assert_eq!(raw.clock(), Some(Duration::from_millis(62_500)));
    /// assert_eq!(raw.eval().map(|e| e.score), Some(Score::Centipawns(-30)));
    /// assert_eq!(raw.shapes().count(), 2);
    /// assert_eq!(raw.emt(), None);
    /// ```
    pub fn commands(&self) -> impl Iterator<Item = Command<'a>> + 'a {
        CommandIter { rest: self.text }.map(|(_, c)| c)
    }

    /// The clock after the move, `[%clk 1:05:23]`.
    pub fn clock(&self) -> Option<Duration> {
        self.commands().find(|c| c.name == "clk")?.duration()
    }

    /// The elapsed move time, `[%emt 0:00:05]`.
    pub fn emt(&self) -> Option<Duration> {
        self.commands().find(|c| c.name == "emt")?.duration()
    }

    /// The evaluation, `[%eval 0.25]`, `[%eval #-3]`, `[%eval 0.25,20]`.
    pub fn eval(&self) -> Option<Eval> {
        self.commands().find(|c| c.name == "eval")?.eval()
    }

    /// The highlighted squares (`[%csl ...]`) and arrows (`[%cal ...]`),
    /// in order, malformed entries skipped.
    pub fn shapes(&self) -> impl Iterator<Item = Shape> + 'a {
        self.commands().flat_map(Command::shapes)
    }
}

/// A resolved move.
#[derive(Debug, Clone, Copy)]
pub struct MoveEvent<'a> {
    /// The position the move is played in (for a visitor whose
    /// [`Visitor::BEFORE`] is `true`).
    pub before: &'a Position,
    /// The position after the move.
    pub after: &'a Position,
    /// The move.
    pub mv: Move,
    /// The move as written.
    pub text: &'a [u8],
}

/// The canonical SAN (with `+`/`#`) of a resolved move.
#[inline]
pub fn san_plus(event: &MoveEvent<'_>) -> SanPlus {
    SanPlus {
        san: San::from_move(event.before, event.mv),
        suffix: SanPlus::suffix_of(event.after),
    }
}

/// A game's main line, its moves counted only when asked
/// ([`Visitor::main_line_moves`]).
#[derive(Clone, Copy, Debug)]
pub struct MainLineMoves<'t> {
    /// The movetext's tokens.
    tokens: &'t [GameToken],
}

impl<'t> MainLineMoves<'t> {
    /// The main line of the movetext `tokens`.
    pub(crate) fn new(tokens: &'t [GameToken]) -> MainLineMoves<'t> {
        MainLineMoves { tokens }
    }

    /// The move tokens of the main line ([`pgnkit_lexer::main_line_moves`],
    /// a token pass with no chess): the plies of the main line when the
    /// game reads without errors; a game with errors may hold more or
    /// fewer.
    pub fn count(&self) -> usize {
        pgnkit_lexer::main_line_moves(self.tokens)
    }
}

/// Receives the events of each game the reader reads.
///
/// Every method but [`end_game`](Visitor::end_game) has a default that
/// does nothing, so a visitor names only what it needs.
pub trait Visitor {
    /// What a game becomes.
    type Output;

    /// Whether the visitor wants the move events ([`san`](Visitor::san)
    /// and [`comment_before`](Visitor::comment_before)). `false` lets the
    /// reader skip keeping the position before each move: the
    /// validate-only path.
    const MOVES: bool = true;

    /// Whether the visitor reads [`MoveEvent::before`]. `false` lets the
    /// reader skip copying the position before each move (a visitor that
    /// reads the move and the position after it, such as a recorder of the
    /// main line); `before` is then a position of the line that is not
    /// necessarily the one before the move, and must not be read.
    const BEFORE: bool = true;

    /// Whether the visitor wants the texts of tag values and comments
    /// ([`tag`](Visitor::tag), [`comment_before`](Visitor::comment_before),
    /// [`comment`](Visitor::comment) and
    /// [`trailing_comment`](Visitor::trailing_comment)). `false` lets the
    /// reader skip unescaping tag values and collecting comments, and those
    /// events are not sent: the validate-only path. The diagnostics are the
    /// same either way.
    const TEXT: bool = true;

    /// Whether the visitor wants the comments
    /// ([`comment_before`](Visitor::comment_before),
    /// [`comment`](Visitor::comment) and
    /// [`trailing_comment`](Visitor::trailing_comment)); by default, as
    /// [`TEXT`](Visitor::TEXT). `false` lets the reader skip collecting
    /// comments while still sending the tag values (a visitor that reads
    /// tags and moves only, such as an index). The diagnostics are the same
    /// either way.
    const COMMENTS: bool = Self::TEXT;

    /// Whether the visitor is offered, before the movetext, the count of
    /// the main line's moves ([`main_line_moves`](Visitor::main_line_moves)).
    const MAIN_LINE_MOVES: bool = false;

    /// Whether the visitor may end the reading of a game's moves early
    /// ([`stop`](Visitor::stop)). `false` (the default) reads every move:
    /// the reader then never asks.
    const STOP: bool = false;

    /// With [`STOP`](Visitor::STOP), asked after each move of the main line:
    /// `true` when the visitor needs no more moves of this game. The reader
    /// then passes over the rest of the movetext token by token (no move
    /// resolved, played or checked, no event sent) up to the game's
    /// termination marker, and ends the game as usual
    /// ([`end_movetext`](Visitor::end_movetext) with the position reached,
    /// [`termination`](Visitor::termination), [`end_game`](Visitor::end_game)).
    /// The diagnostics are then those of what was read: an error in the moves
    /// passed over is not found.
    fn stop(&mut self) -> bool {
        false
    }

    /// A game starts.
    fn begin_game(&mut self, _game: GameStart<'_>) {}

    /// A tag pair, the value unescaped (`\"` and `\\`) and still as bytes.
    fn tag(&mut self, _name: &[u8], _value: &[u8]) {}

    /// Whether the visitor wants the tag pair named `name` (asked only
    /// with [`TEXT`](Visitor::TEXT)): `false` lets the reader skip
    /// unescaping its value, and the reader does not call
    /// [`tag`](Visitor::tag) for it (a wrapping visitor that does not
    /// forward this method may: `tag` ignores what it does not want). By
    /// default every tag pair is wanted.
    #[inline(always)]
    fn wants_tag(&self, _name: &[u8]) -> bool {
        true
    }

    /// The tag section ended. [`Skip::Yes`] skips the movetext.
    fn end_tags(&mut self) -> Skip {
        Skip::No
    }

    /// With [`MAIN_LINE_MOVES`](Visitor::MAIN_LINE_MOVES), after
    /// [`end_tags`](Visitor::end_tags) (when the movetext is read) and
    /// before [`begin_movetext`](Visitor::begin_movetext): the main line's
    /// moves, which the visitor counts only if it wants them
    /// ([`MainLineMoves::count`]).
    fn main_line_moves(&mut self, _moves: MainLineMoves<'_>) {}

    /// The movetext starts from `start` (from the tags: FEN, Chess960).
    fn begin_movetext(&mut self, _start: &Position) {}

    /// A comment that stands before the next move of the current line.
    fn comment_before(&mut self, _comment: RawComment<'_>) {}

    /// A move of the current line, resolved against its position.
    fn san(&mut self, _event: MoveEvent<'_>) {}

    /// A NAG of the current line's last move.
    fn nag(&mut self, _nag: Nag) {}

    /// A comment after the current line's last move.
    fn comment(&mut self, _comment: RawComment<'_>) {}

    /// A comment after the last move's variations, when no move follows in
    /// this line; in a game without moves, one of its comments.
    fn trailing_comment(&mut self, _comment: RawComment<'_>) {}

    /// A variation (an alternative to the current line's last move)
    /// starts; called at its first move, so a variation without moves (or
    /// whose first move is an error) is never announced. [`Skip::Yes`] skips
    /// its events up to its `)`, and then no
    /// [`end_variation`](Visitor::end_variation) follows; its moves are still
    /// checked, so an error in it is reported as for any other visitor.
    fn begin_variation(&mut self) -> Skip {
        Skip::No
    }

    /// The variation ends.
    fn end_variation(&mut self) {}

    /// The movetext was read: `last` is the main line's last position (the
    /// start without moves; after an error, the position before the move
    /// that failed). Called only after
    /// [`begin_movetext`](Visitor::begin_movetext), before
    /// [`termination`](Visitor::termination): a visitor that wants the last
    /// position takes it here, not by copying each move's `after`.
    fn end_movetext(&mut self, _last: &Position) {}

    /// The game's termination marker (or the one used when it has none).
    fn termination(&mut self, _termination: Termination) {}

    /// The game ends.
    fn end_game(&mut self) -> Self::Output;
}

/// A `&mut` to a visitor is a visitor: the entry points that take a visitor
/// by value ([`visit_games`](crate::visit_games),
/// [`Reader::visit_next`](crate::Reader::visit_next)) take `&mut v` as well,
/// to keep using it after.
impl<V: Visitor + ?Sized> Visitor for &mut V {
    type Output = V::Output;
    const MOVES: bool = V::MOVES;
    const BEFORE: bool = V::BEFORE;
    const TEXT: bool = V::TEXT;
    const COMMENTS: bool = V::COMMENTS;
    const MAIN_LINE_MOVES: bool = V::MAIN_LINE_MOVES;
    const STOP: bool = V::STOP;

    #[inline]
    fn stop(&mut self) -> bool {
        (**self).stop()
    }
    #[inline]
    fn begin_game(&mut self, game: GameStart<'_>) {
        (**self).begin_game(game);
    }
    #[inline]
    fn main_line_moves(&mut self, moves: MainLineMoves<'_>) {
        (**self).main_line_moves(moves);
    }
    #[inline]
    fn tag(&mut self, name: &[u8], value: &[u8]) {
        (**self).tag(name, value);
    }
    #[inline(always)]
    fn wants_tag(&self, name: &[u8]) -> bool {
        (**self).wants_tag(name)
    }
    #[inline]
    fn end_tags(&mut self) -> Skip {
        (**self).end_tags()
    }
    #[inline]
    fn begin_movetext(&mut self, start: &Position) {
        (**self).begin_movetext(start);
    }
    #[inline]
    fn comment_before(&mut self, comment: RawComment<'_>) {
        (**self).comment_before(comment);
    }
    #[inline]
    fn san(&mut self, event: MoveEvent<'_>) {
        (**self).san(event);
    }
    #[inline]
    fn nag(&mut self, nag: Nag) {
        (**self).nag(nag);
    }
    #[inline]
    fn comment(&mut self, comment: RawComment<'_>) {
        (**self).comment(comment);
    }
    #[inline]
    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        (**self).trailing_comment(comment);
    }
    #[inline]
    fn begin_variation(&mut self) -> Skip {
        (**self).begin_variation()
    }
    #[inline]
    fn end_variation(&mut self) {
        (**self).end_variation();
    }
    #[inline]
    fn end_movetext(&mut self, last: &Position) {
        (**self).end_movetext(last);
    }
    #[inline]
    fn termination(&mut self, termination: Termination) {
        (**self).termination(termination);
    }
    #[inline]
    fn end_game(&mut self) -> V::Output {
        (**self).end_game()
    }
}

/// Reads nothing but checks every move: the fastest way to validate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Validate;

impl Visitor for Validate {
    type Output = ();
    const MOVES: bool = false;
    const BEFORE: bool = false;
    const TEXT: bool = false;
    fn end_game(&mut self) {}
}

/// Reads only the tag pairs, skipping the movetext.
#[derive(Debug, Clone, Default)]
pub struct TagsOnly {
    tags: crate::Tags,
    encoding: Encoding,
}

impl Visitor for TagsOnly {
    type Output = crate::Tags;
    const MOVES: bool = false;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.tags = crate::Tags::new();
        self.encoding = game.encoding();
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.tags
            .insert_new(decode(name, self.encoding), decode(value, self.encoding));
    }

    fn end_tags(&mut self) -> Skip {
        Skip::Yes
    }

    fn end_game(&mut self) -> crate::Tags {
        std::mem::take(&mut self.tags)
    }
}
