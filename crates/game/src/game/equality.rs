//! [`Game`] equality: two games are equal when the export format writes
//! them the same, so that a game equals itself written and read again.
//!
//! What export changes, and so what equality does not see:
//! - tags: the Seven Tag Roster is written first with a default for each
//!   missing tag (`?`, `????.??.??` for `Date`), `Result` as the game's
//!   result, then the other tags in ASCII order of their names, and the
//!   `FEN` from the starting position. So a missing roster tag equals its
//!   default, the order of the tags does not count, `Result` counts as
//!   [`Game::termination`] and `FEN` as whether it is written (the
//!   starting positions themselves are compared);
//! - comments: white space runs are written as one space and the text is
//!   padded (`{a}` is written `{ a }` and read back as `" a "`), a comment
//!   holding `}` is written as a `;` comment, and a blank comment is not
//!   written. So comments compare by their words (white space runs as
//!   one, at the ends as none), not by how they were written, and blank
//!   comments do not count.

use pgnkit_chess::Position;

use crate::comment::is_comment_space;
use crate::tree::{Annotation, MoveTree, Node, NodeId};
use crate::{Comment, Game, SEVEN_TAG_ROSTER};

/// Whether `a` and `b` are written the same (see the module docs).
pub(super) fn same_game(a: &Game, b: &Game) -> bool {
    a.start == b.start
        && a.termination() == b.termination()
        && same_tags(a, b)
        && same_tree(&a.tree, &b.tree)
}

/// Whether `name` is a tag whose value export does not write as it is
/// (a roster tag or `FEN`).
fn written_apart(name: &str) -> bool {
    name == "Result" || name == "FEN" || SEVEN_TAG_ROSTER.iter().any(|&(n, _)| n == name)
}

/// The tags of `a` and `b` as export writes them (the starting positions
/// are compared apart).
fn same_tags(a: &Game, b: &Game) -> bool {
    // `Result` is compared as the termination.
    let roster = SEVEN_TAG_ROSTER[..6].iter().all(|&(name, default)| {
        a.tags.get(name).unwrap_or(default) == b.tags.get(name).unwrap_or(default)
    });
    let writes_fen = |g: &Game| g.tags.contains("FEN") || g.start != Position::new();
    if !roster || writes_fen(a) != writes_fen(b) {
        return false;
    }
    others(a) == others(b)
}

/// The tags of `g` that export writes as they are, sorted.
fn others(g: &Game) -> Vec<(&str, &str)> {
    let mut pairs: Vec<(&str, &str)> = g
        .tags
        .iter()
        .filter(|(name, _)| !written_apart(name))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// The same moves, in the same order, with the same annotations, walked
/// from both roots at once (without recursion).
fn same_tree(a: &MoveTree, b: &MoveTree) -> bool {
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
    while let Some((x, y)) = stack.pop() {
        let (Some(x), Some(y)) = (a.get(x), b.get(y)) else {
            return false;
        };
        if !same_node(x, y) {
            return false;
        }
        stack.extend(
            x.children()
                .iter()
                .copied()
                .zip(y.children().iter().copied()),
        );
    }
    true
}

/// Whether `x` and `y` hold the same move, annotations and number of
/// children.
fn same_node(x: &Node, y: &Node) -> bool {
    x.played() == y.played()
        && x.children().len() == y.children().len()
        && same_comments(x.comments_before(), y.comments_before())
        && same_comments(x.trailing_comments(), y.trailing_comments())
        && pairwise(annotations(x), annotations(y), |p, q| match (p, q) {
            (Annotation::Nag(p), Annotation::Nag(q)) => p == q,
            (Annotation::Comment(p), Annotation::Comment(q)) => same_words(p, q),
            _ => false,
        })
}

/// Whether `x` and `y` have as many items, each the `same` as the other's.
fn pairwise<T>(
    mut x: impl Iterator<Item = T>,
    mut y: impl Iterator<Item = T>,
    same: impl Fn(T, T) -> bool,
) -> bool {
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) => {
                if !same(p, q) {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// The NAGs and the comments that are not blank, in order.
fn annotations(node: &Node) -> impl Iterator<Item = &Annotation> {
    node.annotations().iter().filter(|a| match a {
        Annotation::Nag(_) => true,
        Annotation::Comment(c) => !c.is_blank(),
    })
}

/// Whether two lists of comments hold the same comments that are not blank.
fn same_comments(x: &[Comment], y: &[Comment]) -> bool {
    let written = |c: &&Comment| !c.is_blank();
    pairwise(
        x.iter().filter(written),
        y.iter().filter(written),
        same_words,
    )
}

/// Whether two comments have the same words: their texts with white
/// space runs as one and none at the ends, as export writes them.
fn same_words(p: &Comment, q: &Comment) -> bool {
    p.text() == q.text() || words(p).eq(words(q))
}

/// The words of a comment, between runs of comment white space.
fn words(c: &Comment) -> impl Iterator<Item = &str> {
    c.text()
        .split(|ch: char| ch.is_ascii() && is_comment_space(ch as u8))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use crate::{Comment, Game, NodeId, Termination};

    fn game(text: &str) -> Game {
        text.parse().expect("a game")
    }

    #[test]
    fn roster_defaults_equal_missing_tags_and_order_does_not_count() {
        let plain = game("[Black \"B\"]\n[ECO \"C20\"]\n[Annotator \"x\"]\n\n1. e4 *");
        let written = game(concat!(
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n",
            "[White \"?\"]\n[Black \"B\"]\n[Result \"*\"]\n[Annotator \"x\"]\n[ECO \"C20\"]\n\n",
            "1. e4 *"
        ));
        assert_eq!(plain, written);
        assert_ne!(
            plain,
            game("[Black \"C\"]\n[ECO \"C20\"]\n[Annotator \"x\"]\n\n1. e4 *")
        );
        assert_ne!(plain, game("[Black \"B\"]\n[ECO \"C20\"]\n\n1. e4 *"));
        assert_ne!(
            plain,
            game("[Black \"B\"]\n[ECO \"C20\"]\n[Annotator \"x\"]\n\n1. d4 *")
        );
        // `Result` is the game's result, however it is given.
        let mut set = game("1. e4 *");
        set.set_termination(Termination::Draw);
        assert_eq!(set, game("1. e4 1/2-1/2"));
        assert_ne!(set, game("1. e4 1-0"));
    }

    #[test]
    fn comments_compare_by_their_words_and_blank_ones_do_not_count() {
        let a = game("1. e4 {a   good\nmove} {} e5 { } (1... c5 {x}) *");
        assert_eq!(a, game("1. e4 { a good move } e5 (1... c5 { x }) *"));
        assert_ne!(a, game("1. e4 { a good move! } e5 (1... c5 { x }) *"));
        assert_ne!(a, game("1. e4 { a good } { move } e5 (1... c5 { x }) *"));
        assert_ne!(a, game("1. e4 $1 { a good move } e5 (1... c5 { x }) *"));
        // A `;` comment and a brace comment with the same words.
        assert_eq!(game("1. e4 ; a b\n*"), game("1. e4 {a b} *"));
        // A comment set by an edit, written and read again.
        let mut edited = game("1. e4 *");
        let e4 = edited.main_line().next().expect("e4");
        let node = edited.node_mut(e4).expect("e4");
        node.push_comment(Comment::brace("best"));
        node.set_clock(std::time::Duration::from_secs(3));
        assert_eq!(edited, game("1. e4 { [%clk 0:00:03] best } *"));
        assert_eq!(edited[NodeId::ROOT].children(), &[e4]);
    }
}
