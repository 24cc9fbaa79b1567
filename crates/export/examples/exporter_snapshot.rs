//! Snapshot-testing a PGN exporter with pgnkit's export-format checker and
//! insta (docs/testing-your-exporter.md walks through it).
//!
//! Run it with `cargo run -p pgnkit-export --example exporter_snapshot`;
//! `cargo test -p pgnkit-export --test exporter_example` runs the same
//! checks as a test.
//!
//! `toy_export` stands for your exporter. It gets most things right but, like
//! many real ones, forgets the `N...` a black move needs after a comment.
//! The snapshot of the checker's report pins that down: one line saying
//! where, which rule and what was expected. When the exporter is fixed, the
//! report becomes empty and the snapshot changes to `""`, which a reviewer
//! reads and accepts; if a change breaks another rule, the snapshot shows
//! that rule and its place.

use pgnkit_export::conformance::{Rule, Verdict, check_export_format};

/// A game as the toy exporter holds it: tags and moves, each with an
/// optional comment after it.
pub struct ToyGame<'a> {
    /// Tag names and values, written in this order.
    pub tags: &'a [(&'a str, &'a str)],
    /// SAN moves, each with the comment after it.
    pub moves: &'a [(&'a str, Option<&'a str>)],
    /// The termination marker.
    pub result: &'a str,
}

/// The exporter under test: roster tags in order, then movetext with a
/// number before every white move, one line (short games only), one empty
/// line after the game. Its bug: no `N...` after a comment.
pub fn toy_export(game: &ToyGame<'_>) -> String {
    let mut out = String::new();
    for (name, value) in game.tags {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for (ply, (san, comment)) in game.moves.iter().enumerate() {
        if ply % 2 == 0 {
            tokens.push(format!("{}.", ply / 2 + 1));
        }
        tokens.push(san.to_string());
        if let Some(text) = comment {
            tokens.push(format!("{{ {text} }}"));
        }
    }
    tokens.push(game.result.to_string());
    out.push_str(&tokens.join(" "));
    out.push_str("\n\n");
    out
}

/// The game the example exports.
pub fn sample() -> ToyGame<'static> {
    ToyGame {
        tags: &[
            ("Event", "Casual"),
            ("Site", "?"),
            ("Date", "2024.05.01"),
            ("Round", "?"),
            ("White", "Anna"),
            ("Black", "Ben"),
            ("Result", "*"),
        ],
        moves: &[
            ("e4", None),
            ("c5", None),
            ("Nf3", Some("the main line")),
            ("d6", None),
            ("d4", None),
        ],
        result: "*",
    }
}

/// What a snapshot test of the toy exporter asserts: the exported text, and
/// the checker's report on it (one line per deviation).
pub fn check() {
    let text = toy_export(&sample());
    // The exporter's own output, as any snapshot test pins it.
    insta::assert_snapshot!(text, @r#"
    [Event "Casual"]
    [Site "?"]
    [Date "2024.05.01"]
    [Round "?"]
    [White "Anna"]
    [Black "Ben"]
    [Result "*"]

    1. e4 c5 2. Nf3 { the main line } d6 3. d4 *
    "#);
    // Whether that is export format, and if not where and why.
    let report = check_export_format(text.as_bytes());
    insta::assert_snapshot!(report.to_string(), @r#"9:35: export format: black move number (SPEC-NOTES Writing, rule 6 Move numbers): expected "2... d6", found "d6""#);
    // The same, asserted on the values instead of text.
    let Verdict::Deviates { deviations, export } = &report.failures[0].verdict else {
        panic!("the toy game reads");
    };
    assert_eq!(deviations[0].rule, Rule::BlackMoveNumber);
    assert!(export.contains("{ the main line } 2... d6"));
}

fn main() {
    check();
    println!("the toy exporter's snapshots hold: one deviation, a black move number");
}
