//! The export-format conformance checker: is this PGN text, byte for byte,
//! what SPEC-NOTES "Writing (export format)" requires, and if not, where and
//! which rule does it break?
//!
//! For people who test their own PGN exporters:
//!
//! ```
//! use pgnkit_export::conformance::{check_export_format, Rule, Verdict};
//!
//! let text = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
//!             [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 Nf3 *\n\n";
//! let report = check_export_format(text.as_bytes());
//! assert_eq!(report.games, 1);
//! let game = &report.failures[0];
//! let Verdict::Deviates { deviations, .. } = &game.verdict else { panic!() };
//! assert_eq!(deviations[0].rule, Rule::WhiteMoveNumber);
//! assert_eq!((deviations[0].line, deviations[0].column), (9, 10));
//! assert_eq!(deviations[0].expected, "2. Nf3");
//! ```
//!
//! How: each game is read with pgnkit's reader and written with
//! [`ExportOptions::export`]; the export is the one right answer, so the
//! game conforms exactly when its bytes are the export's. Where they differ,
//! the first difference of each part of the game (the tag section, the
//! empty line after it, the movetext, the game's end) is classified by the
//! tokens around it into a [`Rule`]; a rule is reported once per game, at
//! its first place. A game the reader finds errors in does not read, and is
//! reported with its diagnostics ([`Verdict::Unreadable`]).

mod classify;
mod rule;
mod tokens;

use std::fmt;

use pgnkit_game::{Diagnostics, read_games};

use crate::movetext::GameWriter;
use crate::options::ExportOptions;

pub use rule::Rule;

/// One place where a game differs from its export format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The rule broken.
    pub rule: Rule,
    /// Byte offset of the first difference in the input.
    pub offset: u64,
    /// Its 1-based line.
    pub line: u64,
    /// Its 1-based column, in characters (bytes when the line is not UTF-8).
    pub column: u64,
    /// What export format has there (a short excerpt).
    pub expected: String,
    /// What the input has there (a short excerpt).
    pub found: String,
}

/// Why a game is not export format.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Verdict {
    /// The game has errors: it does not read, so it has no export format.
    Unreadable {
        /// The reader's diagnostics (errors and warnings).
        diagnostics: Diagnostics,
    },
    /// The game reads but its bytes are not its export.
    Deviates {
        /// Where and why, in input order; one per rule broken.
        deviations: Vec<Deviation>,
        /// The game in export format, what the input should have been (for a diff).
        export: String,
    },
}

/// A game that is not export format.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 0-based index of the game in the input.
    pub index: usize,
    /// Byte offset of the game's first byte.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// 1-based column of the game's first byte.
    pub column: u64,
    /// The game's original bytes (from its first byte to the next game's).
    pub original: Vec<u8>,
    /// Why it is not export format.
    pub verdict: Verdict,
}

/// What [`check_export_format`] found in a text.
#[derive(Clone, Debug, Default)]
pub struct Conformance {
    /// Games read.
    pub games: usize,
    /// The games that are not export format, in input order.
    pub failures: Vec<GameReport>,
}

impl Conformance {
    /// Whether every game is export format, byte for byte.
    pub fn conforms(&self) -> bool {
        self.failures.is_empty()
    }
}

impl fmt::Display for Deviation {
    /// `line:column: export format: RULE (SPEC-NOTES section): expected "...", found "..."`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: export format: {}: expected {:?}, found {:?}",
            self.line, self.column, self.rule, self.expected, self.found
        )
    }
}

impl fmt::Display for GameReport {
    /// One line per deviation, or per error of a game that does not read
    /// (`line:column: export format: does not read: message`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            Verdict::Unreadable { diagnostics } => {
                for d in diagnostics.errors() {
                    writeln!(
                        f,
                        "{}:{}: export format: does not read: {}",
                        d.line,
                        d.column,
                        d.message()
                    )?;
                }
            }
            Verdict::Deviates { deviations, .. } => {
                for d in deviations {
                    writeln!(f, "{d}")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Conformance {
    /// Every failing game's lines, in input order; nothing when it conforms.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.failures
            .iter()
            .try_for_each(|game| write!(f, "{game}"))
    }
}

/// Checks every game of `input` against export format (SPEC-NOTES
/// "Writing", rules 1-8, [`ExportOptions::export`]).
pub fn check_export_format(input: &[u8]) -> Conformance {
    let lines = LineStarts::new(input);
    let mut writer = GameWriter::new(ExportOptions::export());
    let mut report = Conformance::default();
    let mut export = Vec::new();
    for (index, read) in read_games(input).enumerate() {
        report.games += 1;
        let start = usize::try_from(read.offset).unwrap_or(input.len());
        let (line, column) = lines.locate(start);
        let verdict = if read.is_broken() {
            Some(Verdict::Unreadable {
                diagnostics: read.diagnostics,
            })
        } else {
            export.clear();
            // Writing to a `Vec` cannot fail.
            let _ = writer.write(&read.value, &mut export);
            let export = &export[..];
            // Bytes the splitter skipped before the first game (a BOM, empty lines).
            let lead = if index == 0 { &input[..start] } else { &[] };
            let found = classify::deviations(lead, &read.raw, export);
            (!found.is_empty()).then(|| Verdict::Deviates {
                deviations: found
                    .into_iter()
                    .map(|d| {
                        // Offsets of the lead are before the game's start.
                        let offset = (start + d.at).saturating_sub(lead.len());
                        let (line, column) = lines.locate(offset);
                        Deviation {
                            rule: d.rule,
                            offset: offset as u64,
                            line,
                            column,
                            expected: d.expected,
                            found: d.found,
                        }
                    })
                    .collect(),
                export: String::from_utf8_lossy(export).into_owned(),
            })
        };
        if let Some(verdict) = verdict {
            report.failures.push(GameReport {
                index,
                offset: read.offset,
                line,
                column,
                original: read.raw.into_owned(),
                verdict,
            });
        }
    }
    report
}

/// Where each line of the input starts (LF ends a line, and so does a CR
/// not followed by LF), to turn offsets into line and column.
struct LineStarts<'a> {
    input: &'a [u8],
    starts: Vec<usize>,
}

impl<'a> LineStarts<'a> {
    fn new(input: &'a [u8]) -> LineStarts<'a> {
        let mut starts = vec![0];
        for (i, &b) in input.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && input.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineStarts { input, starts }
    }

    /// 1-based line and column (characters if the line so far is UTF-8, else bytes).
    fn locate(&self, offset: usize) -> (u64, u64) {
        let offset = offset.min(self.input.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let before = &self.input[self.starts[line - 1]..offset];
        let column = match std::str::from_utf8(before) {
            Ok(text) => text.chars().count(),
            Err(_) => before.len(),
        };
        (line as u64, column as u64 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_starts_count_lf_and_lone_cr() {
        let lines = LineStarts::new("ab\r\ncd\ref\nü g".as_bytes());
        assert_eq!(lines.locate(0), (1, 1));
        assert_eq!(lines.locate(4), (2, 1));
        assert_eq!(lines.locate(7), (3, 1));
        assert_eq!(lines.locate(10), (4, 1));
        assert_eq!(lines.locate(12), (4, 2));
        assert_eq!(lines.locate(13), (4, 3));
    }

    #[test]
    fn an_export_conforms_and_a_broken_game_is_unreadable() {
        let good = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                    [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
        let report = check_export_format(good.as_bytes());
        assert_eq!(report.games, 1);
        assert!(report.conforms(), "{report:?}");

        let both = format!("{good}1. e4 e5 2. Ke3 *\n\n");
        let report = check_export_format(both.as_bytes());
        assert_eq!(report.games, 2);
        assert_eq!(report.failures.len(), 1);
        let failure = &report.failures[0];
        assert_eq!((failure.index, failure.line, failure.column), (1, 11, 1));
        assert!(matches!(failure.verdict, Verdict::Unreadable { .. }));
    }
}
