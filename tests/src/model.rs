//! Whether two games hold the same model: what a round trip through export or JSON must keep.
//!
//! Export keeps moves, NAGs, comments (their words; white space is collapsed and empty ones
//! vanish), tags, the marker and the start; JSON keeps everything exactly. The arena's node
//! order may differ between the two games (`Game`'s `==` compares it too), so the trees are
//! compared node by node from the root.
//!
//! ```
//! use pgnkit::export::{ExportOptions, to_string};
//! use pgnkit::game::read_games;
//! use pgnkit_conformance::model::{Fidelity, same_model};
//!
//! let game = read_games(b"1. e4 {a   comment} e5 (1... c5) *").next().unwrap().value;
//! let text = to_string(&game, &ExportOptions::export());
//! let back = read_games(text.as_bytes()).next().unwrap().value;
//! assert_eq!(same_model(&game, &back, Fidelity::Export), Ok(()));
//! assert!(same_model(&game, &back, Fidelity::Exact).is_err());
//! ```

use pgnkit::game::{Annotation, Comment, Game, Node, NodeId};

/// How much of a game the round trip keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fidelity {
    /// Everything, comment kinds and white space included (JSON).
    Exact,
    /// What export keeps: comments modulo white space (empty ones dropped), the `Result` tag
    /// as the marker and the `FEN` tag by its presence (export writes both anew).
    Export,
}

/// `Ok` when `b` holds the same model as `a` at `fidelity`, else what first differs.
pub fn same_model(a: &Game, b: &Game, fidelity: Fidelity) -> Result<(), String> {
    if a.start_position() != b.start_position() {
        return Err(format!(
            "start positions differ: {} / {}",
            a.start_position(),
            b.start_position()
        ));
    }
    if a.termination() != b.termination() {
        return Err(format!(
            "markers differ: {} / {}",
            a.termination(),
            b.termination()
        ));
    }
    same_tags(a, b, fidelity)?;
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
    while let Some((x, y)) = stack.pop() {
        let (Some(nx), Some(ny)) = (a.tree().get(x), b.tree().get(y)) else {
            return Err("a node is missing".into());
        };
        if nx.mv() != ny.mv() || nx.san() != ny.san() {
            return Err(format!("moves differ: {:?} / {:?}", nx.san(), ny.san()));
        }
        let before = |n: &Node| comments(n.comments_before(), fidelity);
        if before(nx) != before(ny) {
            return Err(format!(
                "comments before {:?} differ: {:?} / {:?}",
                nx.san(),
                before(nx),
                before(ny)
            ));
        }
        if annotations(nx, fidelity) != annotations(ny, fidelity) {
            return Err(format!(
                "annotations of {:?} differ: {:?} / {:?}",
                nx.san(),
                annotations(nx, fidelity),
                annotations(ny, fidelity)
            ));
        }
        let trailing = |n: &Node| comments(n.trailing_comments(), fidelity);
        if trailing(nx) != trailing(ny) {
            return Err(format!(
                "trailing comments of {:?} differ: {:?} / {:?}",
                nx.san(),
                trailing(nx),
                trailing(ny)
            ));
        }
        if nx.children().len() != ny.children().len() {
            return Err(format!("variations of {:?} differ", nx.san()));
        }
        stack.extend(
            nx.children()
                .iter()
                .copied()
                .zip(ny.children().iter().copied()),
        );
    }
    Ok(())
}

fn same_tags(a: &Game, b: &Game, fidelity: Fidelity) -> Result<(), String> {
    for (name, value) in a.tags().iter() {
        let got = b.tags().get(name);
        let kept = match (fidelity, name) {
            (Fidelity::Export, "Result") => got == Some(a.termination().as_str()),
            (Fidelity::Export, "FEN") => got.is_some(),
            _ => got == Some(value),
        };
        if !kept {
            return Err(format!("tag {name}: {value:?} became {got:?}"));
        }
    }
    Ok(())
}

/// A comment as compared: exactly (kind and text), or its words joined by single spaces,
/// `None` when export drops it (no words).
fn comment(c: &Comment, fidelity: Fidelity) -> Option<String> {
    match fidelity {
        Fidelity::Exact => Some(format!("{:?}:{}", c.kind(), c.text())),
        Fidelity::Export => {
            let words: Vec<&str> = c
                .text()
                .split([' ', '\t', '\n', '\r', '\x0b', '\x0c'])
                .filter(|w| !w.is_empty())
                .collect();
            Some(words.join(" ")).filter(|c| !c.is_empty())
        }
    }
}

fn comments<'a>(list: impl IntoIterator<Item = &'a Comment>, fidelity: Fidelity) -> Vec<String> {
    list.into_iter()
        .filter_map(|c| comment(c, fidelity))
        .collect()
}

/// A node's NAGs and comments in read order, as compared.
fn annotations(node: &Node, fidelity: Fidelity) -> Vec<String> {
    node.annotations()
        .iter()
        .filter_map(|a| match a {
            Annotation::Nag(n) => Some(n.to_string()),
            Annotation::Comment(c) => comment(c, fidelity),
        })
        .collect()
}
