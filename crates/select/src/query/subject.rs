//! [`Subject`]: what a query reads of a game, so one evaluation serves a
//! game's tree ([`Game`]) and a [`Record`] kept while reading (the main
//! line alone, no tree). A query is evaluated on a record only when
//! [`Query::reads_record`](super::Query::reads_record) says that the record
//! holds all it reads.

use std::borrow::Cow;

use pgnkit_chess::{Move, Position};
use pgnkit_game::{Game, Node, Tags, Termination};

use crate::ending;
use crate::positions::Line;
use crate::record::Record;

/// A game as a query reads it.
pub(crate) trait Subject {
    fn tags(&self) -> &Tags;
    /// The game's one result ([`Game::termination`]).
    fn termination(&self) -> Termination;
    /// The main line's moves.
    fn moves(&self) -> impl Iterator<Item = Move> + '_;
    /// The main line's last position (the start without moves).
    fn end(&self) -> Cow<'_, Position>;
    /// The line the position predicates search.
    fn line(&self) -> Line<'_>;
    /// Some position of the main line occurs a third time
    /// ([`ending::threefold`]).
    fn threefold(&self) -> bool;
    /// The halfmove clock reaches `mark` (100 or more) at a position of the
    /// main line with a legal move ([`ending::halfmove_clock_reaches`]).
    fn halfmove_clock_reaches(&self, mark: u32) -> bool;
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

    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main_line_moves().map(|p| p.mv)
    }

    fn end(&self) -> Cow<'_, Position> {
        Cow::Owned(crate::ending::final_position(self))
    }

    fn line(&self) -> Line<'_> {
        Line::Tree(self)
    }

    fn threefold(&self) -> bool {
        ending::threefold(self.start_position(), Subject::moves(self))
    }

    fn halfmove_clock_reaches(&self, mark: u32) -> bool {
        ending::halfmove_clock_reaches(self.start_position(), Subject::moves(self), mark)
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

    fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.main_line().iter().copied()
    }

    fn end(&self) -> Cow<'_, Position> {
        Cow::Borrowed(Record::end(self))
    }

    fn line(&self) -> Line<'_> {
        Line::Moves(Record::start(self), self.main_line())
    }

    /// Found while the record was read (kept when the query reads it).
    fn threefold(&self) -> bool {
        self.threefold
    }

    /// Found while the record was read (kept when the query reads it).
    fn halfmove_clock_reaches(&self, mark: u32) -> bool {
        debug_assert!(mark >= ending::LOWEST_CLOCK_MARK);
        self.clock >= mark
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

#[cfg(test)]
mod tests {
    use pgnkit_chess::{Position, San};
    use pgnkit_game::{Validate, read_games, visit_games};

    use crate::query::{Context, Query};
    use crate::record::{Needs, Record};

    /// The Polyglot key `hash` asks for: the position after `moves`.
    fn key_after(moves: &[&str]) -> String {
        let mut pos = Position::new();
        for san in moves {
            let mv = San::parse(san.as_bytes()).unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
        }
        format!("hash {:#018x}", pos.polyglot_key())
    }

    /// Every query a record can read, run on each game's tree and on its
    /// record, over the corpus files under 3 MB (about 44 MB: the big
    /// opening books and engine matches are left out for time): the same
    /// games are selected. Games with errors are left out (the CLI decides
    /// neither way on them). Each query must select some game and leave
    /// some out, so that a predicate stuck at one answer fails.
    #[test]
    fn records_select_what_trees_select() {
        let mut texts: Vec<String> = [
            "checkmate",
            "stalemate",
            "insufficient_material",
            "threefold",
            "fifty_moves",
            "seventy_five_moves",
            "underpromotion",
            "result_consistent",
            "plies > 100",
            "plies <= 20 and moves >= 5",
            "moves = 40",
            "piece_count <= 8",
            "commented",
            "has_variations",
            "checkmate and commented and not has_variations",
            "reaches \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"",
            "material \"KRkr\"",
            "pattern \"*/*/*/*/*/*/*/RNBQK2R\"",
            "imbalance \"R vs BN\"",
            "sequence \"e4 e5 Nf3\"",
            "at (material \"KQkq\" and stm black)",
            "result = 1-0 and checkmate",
            "Result = \"1/2-1/2\" and (stalemate or threefold)",
            "higher_rated_won and plies < 60",
            "lower_rated_won",
            "not result_consistent and not setup",
            "not result_consistent",
            "result = 0-1 and plies < 30",
            "setup and checkmate",
            "any_tag ~ \"Carlsen\" or underpromotion",
            "eco = B90 or piece_count = 3",
            "soundex player = Carlsen",
            "player ~ Kasparov",
        ]
        .map(String::from)
        .to_vec();
        texts.push(key_after(&["e4", "e5", "Nf3", "Nc6"]));
        texts.push(key_after(&["d4", "Nf6", "c4", "e6", "Nc3", "Bb4"]));
        let queries: Vec<Query> = texts.iter().map(|q| Query::parse(q).unwrap()).collect();
        assert!(queries.iter().all(Query::reads_record));
        // One reading per kind of record (what a query needs kept).
        let mut kinds: Vec<(Needs, usize)> = Vec::new();
        for (i, q) in queries.iter().enumerate() {
            if !kinds.iter().any(|(n, _)| *n == q.needs()) {
                kinds.push((q.needs(), i));
            }
        }
        let context = Context::default();
        let mut selected = vec![(0usize, 0usize); queries.len()];
        let mut compared = 0usize;
        let files = pgnkit_corpus::all_pgn_files();
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            if bytes.len() >= 3 << 20 {
                continue;
            }
            let trees: Vec<_> = read_games(&bytes).collect();
            let records: Vec<Vec<Record>> = kinds
                .iter()
                .map(|&(_, i)| {
                    visit_games(&bytes, queries[i].recorder(Validate))
                        .map(|read| read.value.1)
                        .collect()
                })
                .collect();
            assert!(records.iter().all(|r| r.len() == trees.len()));
            for (n, tree) in trees.iter().enumerate() {
                if tree.is_broken() {
                    continue;
                }
                compared += 1;
                for (q, query) in queries.iter().enumerate() {
                    let kind = kinds.iter().position(|(n, _)| *n == query.needs()).unwrap();
                    let record = &records[kind][n];
                    let by_tree = query.matches(&tree.value, &context);
                    let by_record = query.matches_record(record, &context);
                    assert_eq!(
                        by_tree,
                        by_record,
                        "{}: game {} ({}): `{}`",
                        path.display(),
                        n + 1,
                        tree.line,
                        texts[q]
                    );
                    let count = &mut selected[q];
                    if by_tree {
                        count.0 += 1;
                    } else {
                        count.1 += 1;
                    }
                }
            }
        }
        for (text, (yes, no)) in texts.iter().zip(&selected) {
            println!("{yes:>7} selected, {no:>7} not: {text}");
            assert!(*yes > 0 && *no > 0, "`{text}` decides every game alike");
        }
        assert!(compared > 50_000, "{compared} games compared");
    }
}
