//! [`Subject`]: what a query reads of a game, so one evaluation serves a
//! game's tree ([`Game`]) and a [`Record`] kept while reading (the main
//! line alone, no tree). A query is evaluated on a record only when
//! [`Query::reads_record`](super::Query::reads_record) says that the record
//! holds all it reads.

use std::borrow::Cow;

use pgnkit_chess::{Move, Position};
use pgnkit_game::{Game, Node, Tags, Termination};

use crate::positions::Line;
use crate::record::Record;

/// A game as a query reads it.
pub(crate) trait Subject {
    fn tags(&self) -> &Tags;
    /// The game's one result ([`Game::termination`]).
    fn termination(&self) -> Termination;
    fn start(&self) -> &Position;
    /// The main line's moves.
    fn moves(&self) -> impl Iterator<Item = Move> + '_;
    /// The main line's last position (the start without moves).
    fn end(&self) -> Cow<'_, Position>;
    /// The line the position predicates search.
    fn line(&self) -> Line<'_>;
    /// Some comment anywhere has text besides `[%...]` commands.
    fn commented(&self) -> bool;
    /// Some move has an alternative.
    fn has_variations(&self) -> bool;
    /// Some move's comments carry a clock (the tree only: a record is never
    /// asked, see `Query::reads_record`).
    fn has_clock(&self) -> bool;
    /// Some move's comments carry an evaluation (as `has_clock`).
    fn has_eval(&self) -> bool;
}

impl Subject for Game {
    fn tags(&self) -> &Tags {
        Game::tags(self)
    }

    fn termination(&self) -> Termination {
        Game::termination(self)
    }

    fn start(&self) -> &Position {
        self.start_position()
    }

    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main_line_moves().map(|p| p.mv)
    }

    fn end(&self) -> Cow<'_, Position> {
        Cow::Owned(crate::ending::final_position(self))
    }

    fn line(&self) -> Line<'_> {
        Line::Tree(self)
    }

    fn commented(&self) -> bool {
        any_node(self, |n| {
            n.comments()
                .chain(n.comments_before())
                .chain(n.trailing_comments())
                .any(|c| !c.text_without_commands().trim().is_empty())
        })
    }

    fn has_variations(&self) -> bool {
        any_node(self, |n| n.children().len() > 1)
    }

    fn has_clock(&self) -> bool {
        any_node(self, |n| n.clock().is_some())
    }

    fn has_eval(&self) -> bool {
        any_node(self, |n| n.eval().is_some())
    }
}

/// Whether some node of the game's tree (the root, the main line and the
/// variations) satisfies `test`.
fn any_node(game: &Game, test: impl Fn(&Node) -> bool) -> bool {
    game.tree()
        .preorder()
        .into_iter()
        .filter_map(|id| game.tree().get(id))
        .any(test)
}

impl Subject for Record {
    fn tags(&self) -> &Tags {
        Record::tags(self)
    }

    fn termination(&self) -> Termination {
        Record::termination(self)
    }

    fn start(&self) -> &Position {
        Record::start(self)
    }

    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main_line().iter().copied()
    }

    fn end(&self) -> Cow<'_, Position> {
        Cow::Borrowed(Record::end(self))
    }

    fn line(&self) -> Line<'_> {
        Line::Moves(Record::start(self), self.main_line())
    }

    fn commented(&self) -> bool {
        self.commented
    }

    fn has_variations(&self) -> bool {
        self.variations
    }

    fn has_clock(&self) -> bool {
        false
    }

    fn has_eval(&self) -> bool {
        false
    }
}
