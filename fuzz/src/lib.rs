//! Checks shared by the pgnkit fuzz targets (the targets themselves are in
//! `fuzz_targets/`, one file each, as `cargo xtask fuzz` expects).

use pgnkit::export::{ExportOptions, GameWriter};
use pgnkit::game::{Annotation, Comment, Game, Node, NodeId};
use pgnkit::lexer::Lexer;

/// Lexes `input` and checks every token: its span lies inside `input`,
/// tokens come in order without overlap, its text is the bytes its span
/// names, and every accessor answers without panicking. Warnings' spans lie
/// inside `input` too.
pub fn check_tokens(input: &[u8]) {
    let mut lexer = Lexer::new(input);
    let mut last_end = 0;
    for token in lexer.by_ref() {
        let span = token.span;
        assert!(
            span.start < span.end,
            "empty token {:?} at {}",
            token.kind,
            span.start
        );
        assert!(span.end <= input.len(), "token past the input: {span:?}");
        assert!(
            span.start >= last_end,
            "tokens overlap or go back: {span:?}"
        );
        assert_eq!(token.text, &input[span.start..span.end]);
        last_end = span.end;
        let _ = token.string_value();
        let _ = token.comment_text();
        let _ = token.nag();
        let _ = token.integer();
        if let Some(error) = token.error() {
            assert_eq!(error.span, span);
            let _ = error.to_string();
        }
    }
    for warning in lexer.warnings() {
        assert!(warning.span.start <= warning.span.end && warning.span.end <= input.len());
    }
}

/// `game` in export format.
pub fn export(writer: &mut GameWriter, game: &Game) -> Vec<u8> {
    let mut out = Vec::new();
    writer.write(game, &mut out).expect("writing to a Vec");
    out
}

/// The export writer with the default (export format) options.
pub fn export_writer() -> GameWriter {
    GameWriter::new(ExportOptions::export())
}

/// A comment's words joined by single spaces (what export keeps of it).
fn collapse(comment: &Comment) -> String {
    comment
        .text()
        .split(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn comments<'a>(list: impl IntoIterator<Item = &'a Comment>) -> Vec<String> {
    list.into_iter()
        .map(collapse)
        .filter(|c| !c.is_empty())
        .collect()
}

fn annotations(node: &Node) -> Vec<String> {
    node.annotations()
        .iter()
        .filter_map(|a| match a {
            Annotation::Nag(n) => Some(format!("${}", n.0)),
            Annotation::Comment(c) => Some(collapse(c)).filter(|c| !c.is_empty()),
        })
        .collect()
}

/// Whether two games hold the same model: start position, marker, tags
/// (Result compared with the marker, FEN only for presence), and the same
/// tree node by node (moves, NAGs, comments modulo white space).
pub fn same_model(a: &Game, b: &Game) -> Result<(), String> {
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
    for (name, value) in a.tags().iter() {
        let got = b.tags().get(name);
        let ok = match name {
            "Result" => got == Some(a.termination().as_str()),
            "FEN" => got.is_some(),
            _ => got == Some(value),
        };
        if !ok {
            return Err(format!("tag {name:?}: {value:?} became {got:?}"));
        }
    }
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
    while let Some((x, y)) = stack.pop() {
        let (Some(nx), Some(ny)) = (a.node(x), b.node(y)) else {
            return Err("a node is missing".into());
        };
        if nx.mv() != ny.mv() {
            return Err(format!("moves differ: {:?} / {:?}", nx.san(), ny.san()));
        }
        if comments(nx.comments_before()) != comments(ny.comments_before()) {
            return Err(format!("comments before {:?} differ", nx.san()));
        }
        if annotations(nx) != annotations(ny) {
            return Err(format!(
                "annotations of {:?} differ: {:?} / {:?}",
                nx.san(),
                annotations(nx),
                annotations(ny)
            ));
        }
        if comments(nx.trailing_comments()) != comments(ny.trailing_comments()) {
            return Err(format!("trailing comments of {:?} differ", nx.san()));
        }
        if nx.children().len() != ny.children().len() {
            return Err(format!("children of {:?} differ", nx.san()));
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
