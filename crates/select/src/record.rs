//! [`Recorder`]: a reader [`Visitor`] that keeps what a query reads of a
//! game — its tags, its result, its start position and main-line moves,
//! whether it has variations or a comment — while passing every event on
//! to another visitor ([`Validate`](pgnkit_game::Validate) to check the
//! game, or a streaming writer). The [`Record`] it gives is what
//! [`Query::matches_record`](crate::Query::matches_record) evaluates, with
//! no tree built: a game the query rejects costs its reading alone.
//!
//! The record reads as the tree would: the tags as the tree builder keeps
//! them (the `Result` tag made to say the movetext's marker where the two
//! disagree), the main line as the tree's first children, a variation as
//! a move with an alternative.
//!
//! ```
//! use pgnkit_game::{Validate, visit_games};
//! use pgnkit_select::{Context, Query};
//!
//! let query = Query::parse("checkmate and result = 0-1").unwrap();
//! let pgn = b"1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 e5 (1... c5) *\n";
//! let selected: Vec<bool> = visit_games(pgn, query.recorder(Validate))
//!     .map(|game| query.matches_record(&game.value.1, &Context::default()))
//!     .collect();
//! assert_eq!(selected, [true, false]);
//! ```

use pgnkit_chess::{Move, Position};
use pgnkit_game::{
    Encoding, GameStart, MoveEvent, Nag, RawComment, Skip, Tags, Termination, Visitor, decode,
};

use crate::ending::{self, Repetitions};
use crate::main_line::Moves;

/// What [`Recorder`] kept of one game.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// The tags (empty when the query reads none).
    pub(crate) tags: Tags,
    /// The movetext's termination marker (`Unknown` when it has none).
    pub(crate) marker: Termination,
    /// The start position and the main line's moves.
    pub(crate) moves: Moves,
    /// The position after the main line's last move (`None` without moves,
    /// or when the query reads no last position).
    pub(crate) end: Option<Position>,
    /// Some move has an alternative.
    pub(crate) variations: bool,
    /// Some comment has text besides `[%...]` commands (kept only when the
    /// query reads `commented`).
    pub(crate) commented: bool,
    /// Some position of the main line occurs a third time (kept only when
    /// the query reads `threefold`).
    pub(crate) threefold: bool,
    /// The highest halfmove clock that counts for the fifty- and
    /// seventy-five-move rules at a position of the main line
    /// ([`ending::counted_clock`]; kept only when the query reads them).
    pub(crate) clock: u32,
}

impl Record {
    /// The start position and the main line's moves (for a duplicate key
    /// or an opening, see [`Moves`]).
    pub fn moves(&self) -> &Moves {
        &self.moves
    }

    /// The tags, as the tree builder keeps them (empty when the query reads
    /// none).
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The result: the `Result` tag when it holds one, else the movetext's
    /// marker ([`Game::termination`](pgnkit_game::Game::termination)). Once
    /// the movetext is read the two agree (the tag is made to say the
    /// marker), so a query that reads the result alone keeps no tags.
    pub fn termination(&self) -> Termination {
        self.tags
            .get("Result")
            .and_then(|v| Termination::from_exact(v.as_bytes()))
            .unwrap_or(self.marker)
    }

    /// The start position (the standard one when the game had no movetext).
    pub(crate) fn start(&self) -> &Position {
        static START: std::sync::OnceLock<Position> = std::sync::OnceLock::new();
        match &self.moves.start {
            Some(start) => start,
            None => START.get_or_init(Position::new),
        }
    }

    /// The main line's moves.
    pub(crate) fn main_line(&self) -> &[Move] {
        &self.moves.moves
    }

    /// The main line's last position (the start without moves).
    pub(crate) fn end(&self) -> &Position {
        self.end.as_ref().unwrap_or_else(|| self.start())
    }
}

/// What a query needs kept (the query's `needs` walk, in `query.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Needs {
    /// The tags (a comparison, the result, a player predicate).
    pub(crate) tags: bool,
    /// Whether some comment has text (`commented`).
    pub(crate) comments: bool,
    /// The main line's last position (how the game ends, `piece_count`).
    pub(crate) end: bool,
    /// The positions of the main line, for repetitions (`threefold`).
    pub(crate) repetitions: bool,
    /// The halfmove clock of each position (`fifty_moves`,
    /// `seventy_five_moves`).
    pub(crate) clock: bool,
}

/// Passes every event to `V` and keeps the game's [`Record`] (see the module
/// docs). Its output is `V`'s with the record.
///
/// Made by [`Query::recorder`](crate::Query::recorder). `TEXT` says
/// whether the reader gives tag values and comments: a recorder made by
/// [`Query::recorder_without_text`](crate::Query::recorder_without_text)
/// (for a query that reads neither) lets the reader skip them, unless `V`
/// wants them.
#[derive(Debug, Clone, Default)]
pub struct Recorder<V, const TEXT: bool = true> {
    inner: V,
    needs: Needs,
    encoding: Encoding,
    depth: u32,
    record: Record,
    repetitions: Repetitions,
}

impl<V: Visitor, const TEXT: bool> Recorder<V, TEXT> {
    /// Wraps `inner`, keeping what `needs` says (made by
    /// [`Query::recorder`](crate::Query::recorder)).
    pub(crate) fn with(needs: Needs, inner: V) -> Recorder<V, TEXT> {
        Recorder {
            inner,
            needs,
            encoding: Encoding::default(),
            depth: 0,
            record: Record::default(),
            repetitions: Repetitions::default(),
        }
    }

    /// The wrapped visitor.
    pub fn inner(&self) -> &V {
        &self.inner
    }

    /// The wrapped visitor, to change.
    pub fn inner_mut(&mut self) -> &mut V {
        &mut self.inner
    }

    /// Notes whether `comment` has text, when the query reads it (the
    /// check made inline: a query that does not pays no call).
    #[inline]
    fn note(&mut self, comment: &RawComment<'_>) {
        if self.needs.comments && !self.record.commented {
            self.note_text(comment);
        }
    }

    #[inline(never)]
    fn note_text(&mut self, comment: &RawComment<'_>) {
        {
            let text = comment.decode(self.encoding).text_without_commands();
            self.record.commented = !text.trim().is_empty();
        }
    }
}

impl<V: Visitor, const TEXT: bool> Visitor for Recorder<V, TEXT> {
    type Output = (V::Output, Record);
    const MOVES: bool = true;
    /// The recorder reads each move and the position after it.
    const BEFORE: bool = V::BEFORE;
    const TEXT: bool = TEXT || V::TEXT;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.depth = 0;
        self.record.tags = Tags::new();
        self.record.marker = Termination::Unknown;
        self.record.moves.start = None;
        self.record.moves.moves.clear();
        self.record.end = None;
        self.record.variations = false;
        self.record.commented = false;
        self.record.threefold = false;
        self.record.clock = 0;
        if self.needs.tags || self.needs.comments {
            self.encoding = game.encoding();
        }
        self.inner.begin_game(game);
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        if self.needs.tags {
            let (name, value) = (decode(name, self.encoding), decode(value, self.encoding));
            self.record.tags.insert_new(name, value);
        }
        self.inner.tag(name, value);
    }

    /// The inner visitor's choice: a game whose movetext it skips has no moves.
    fn end_tags(&mut self) -> Skip {
        self.inner.end_tags()
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.record.moves.start = Some(start.clone());
        if self.needs.repetitions {
            self.repetitions.start(start);
        }
        if self.needs.clock {
            self.record.clock = ending::counted_clock(start);
        }
        self.inner.begin_movetext(start);
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        self.note(&comment);
        self.inner.comment_before(comment);
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        if self.depth == 0 {
            self.record.moves.moves.push(event.mv);
            // Found from the position the reader played, not by playing the
            // moves again.
            if self.needs.repetitions && self.repetitions.push(event.mv, event.after) {
                self.record.threefold = true;
            }
            if self.needs.clock {
                self.record.clock = self.record.clock.max(ending::counted_clock(event.after));
            }
        } else {
            // The first move of a variation is an alternative to a move.
            self.record.variations = true;
        }
        self.inner.san(event);
    }

    fn nag(&mut self, nag: Nag) {
        self.inner.nag(nag);
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.note(&comment);
        self.inner.comment(comment);
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.note(&comment);
        self.inner.trailing_comment(comment);
    }

    fn begin_variation(&mut self) -> Skip {
        let skip = self.inner.begin_variation();
        if skip == Skip::No {
            self.depth += 1;
        }
        skip
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.inner.end_variation();
    }

    /// The last position, kept once (not copied after each move).
    fn end_movetext(&mut self, last: &Position) {
        if self.needs.end && !self.record.moves.moves.is_empty() {
            match &mut self.record.end {
                Some(end) => end.clone_from(last),
                None => self.record.end = Some(last.clone()),
            }
        }
        self.inner.end_movetext(last);
    }

    fn termination(&mut self, termination: Termination) {
        self.record.marker = termination;
        // The tree builder's rule: where the `Result` tag holds a marker
        // other than the movetext's, the tag is made to say the marker.
        let tags = &mut self.record.tags;
        if tags
            .get("Result")
            .and_then(|v| Termination::from_exact(v.as_bytes()))
            .is_some_and(|tag| tag != termination)
        {
            tags.set("Result", termination.as_str());
        }
        self.inner.termination(termination);
    }

    fn end_game(&mut self) -> Self::Output {
        let record = std::mem::take(&mut self.record);
        // The next game's moves go into room for as many as this one had:
        // one allocation, not one for each doubling.
        self.record.moves.moves.reserve(record.moves.moves.len());
        (self.inner.end_game(), record)
    }
}
