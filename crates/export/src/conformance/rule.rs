//! [`Rule`]: the export-format rules a deviation can break, one variant per
//! rule of SPEC-NOTES "Writing (export format)" (and its opening paragraph
//! on characters, line ends and the empty line after each game), each
//! naming its section so that a report says where to read the rule.

use std::fmt;

/// An export-format rule of SPEC-NOTES "Writing (export format)".
///
/// [`Rule::name`] is a short name for messages and `Display` adds the
/// section ([`Rule::spec_rule`]):
///
/// ```
/// use pgnkit_export::conformance::Rule;
/// assert_eq!(Rule::TagOrder.name(), "tag order");
/// assert_eq!(
///     Rule::TagOrder.to_string(),
///     "tag order (SPEC-NOTES Writing, rule 1 Tags)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// All output is UTF-8, with no byte order mark.
    Encoding,
    /// Line ends are LF (no CR).
    LineEnd,
    /// No TAB anywhere.
    Tab,
    /// No line starts or ends with a space.
    EdgeSpace,
    /// Every game ends with exactly one empty line (and nothing stands
    /// before the first game).
    GameEnd,
    /// The seven roster tags first, in the order Event, Site, Date, Round,
    /// White, Black, Result; then every other tag in ASCII order of its name.
    TagOrder,
    /// A missing roster tag is written with its default (`?`, `????.??.??`
    /// for Date, the marker for Result).
    RosterDefault,
    /// The Result tag is always the termination marker.
    ResultTag,
    /// One tag per line, `[Name "value"]`: one space between the name and
    /// the value, none inside the brackets; no duplicate names.
    TagPair,
    /// In a tag value `\` is written `\\` and `"` is written `\"`, nothing
    /// else is escaped.
    TagEscape,
    /// The `FEN` tag is written from the starting position, normalised.
    FenTag,
    /// Exactly one empty line between the tag section and the movetext
    /// (none among the tags).
    TagSectionEnd,
    /// Movetext tokens are separated by one space, except that nothing
    /// separates `(` from the token after it or `)` from the token before it.
    TokenSpacing,
    /// A movetext line has at most 79 characters, unless it is one unit.
    LineLength,
    /// Units never break and are filled greedily: a line ends only when the
    /// next unit would not fit.
    LineFill,
    /// Comments are written `{ text }` with white space collapsed (a `;`
    /// comment as a brace comment unless it contains `}`); empty comments
    /// are not written.
    Comment,
    /// Around a move: comments before it, the number, the SAN, its NAGs and
    /// comments in read order, then its variations.
    AnnotationOrder,
    /// Every white move has its number `N.`.
    WhiteMoveNumber,
    /// A black move has `N...` exactly when it is first in the game or a
    /// variation, or a NAG, comment or variation stands between it and the
    /// white move before it.
    BlackMoveNumber,
    /// SAN is canonical: minimal disambiguation, `+`/`#` from the position,
    /// `O-O`, `=Q`, no `x` where nothing is taken, no `e.p.`.
    San,
    /// Move suffixes (`!`, `?`...) are written as NAGs, NAGs as `$N`.
    Nag,
    /// Null moves are written `--`.
    NullMove,
    /// `%` escape lines are not written.
    EscapeLine,
    /// The termination marker ends the movetext (nothing after it; the
    /// standard spelling `1-0`, `0-1`, `1/2-1/2`, `*`).
    Termination,
    /// A difference no single rule explains (see the diff).
    Other,
}

impl Rule {
    /// Every rule, in the order of SPEC-NOTES.
    pub const ALL: [Rule; 25] = [
        Rule::Encoding,
        Rule::LineEnd,
        Rule::Tab,
        Rule::EdgeSpace,
        Rule::GameEnd,
        Rule::TagOrder,
        Rule::RosterDefault,
        Rule::ResultTag,
        Rule::TagPair,
        Rule::TagEscape,
        Rule::FenTag,
        Rule::TagSectionEnd,
        Rule::TokenSpacing,
        Rule::LineLength,
        Rule::LineFill,
        Rule::Comment,
        Rule::AnnotationOrder,
        Rule::WhiteMoveNumber,
        Rule::BlackMoveNumber,
        Rule::San,
        Rule::Nag,
        Rule::NullMove,
        Rule::EscapeLine,
        Rule::Termination,
        Rule::Other,
    ];

    /// A short name for messages (`tag order`, `black move number`...).
    pub fn name(self) -> &'static str {
        match self {
            Rule::Encoding => "encoding",
            Rule::LineEnd => "line end",
            Rule::Tab => "tab",
            Rule::EdgeSpace => "space at a line's edge",
            Rule::GameEnd => "empty line after the game",
            Rule::TagOrder => "tag order",
            Rule::RosterDefault => "roster default",
            Rule::ResultTag => "result tag",
            Rule::TagPair => "tag pair form",
            Rule::TagEscape => "tag value escapes",
            Rule::FenTag => "FEN tag",
            Rule::TagSectionEnd => "empty line after the tags",
            Rule::TokenSpacing => "token spacing",
            Rule::LineLength => "line length",
            Rule::LineFill => "line filling",
            Rule::Comment => "comment form",
            Rule::AnnotationOrder => "order around a move",
            Rule::WhiteMoveNumber => "white move number",
            Rule::BlackMoveNumber => "black move number",
            Rule::San => "SAN",
            Rule::Nag => "NAG form",
            Rule::NullMove => "null move",
            Rule::EscapeLine => "escape line",
            Rule::Termination => "termination marker",
            Rule::Other => "other",
        }
    }

    /// The SPEC-NOTES section that states the rule.
    pub fn spec_rule(self) -> &'static str {
        match self {
            Rule::Encoding | Rule::LineEnd | Rule::Tab | Rule::EdgeSpace | Rule::GameEnd => {
                "SPEC-NOTES Writing, opening paragraph"
            }
            Rule::TagOrder
            | Rule::RosterDefault
            | Rule::ResultTag
            | Rule::TagPair
            | Rule::TagEscape
            | Rule::FenTag
            | Rule::TagSectionEnd => "SPEC-NOTES Writing, rule 1 Tags",
            Rule::TokenSpacing => "SPEC-NOTES Writing, rule 2 Movetext tokens",
            Rule::LineLength | Rule::LineFill => "SPEC-NOTES Writing, rule 3 Lines",
            Rule::Comment => "SPEC-NOTES Writing, rule 4 Comments",
            Rule::AnnotationOrder => "SPEC-NOTES Writing, rule 5 Order around a move",
            Rule::WhiteMoveNumber | Rule::BlackMoveNumber => {
                "SPEC-NOTES Writing, rule 6 Move numbers"
            }
            Rule::San | Rule::Nag | Rule::NullMove | Rule::EscapeLine => {
                "SPEC-NOTES Writing, rule 7 Moves"
            }
            Rule::Termination => "SPEC-NOTES Writing, rule 8 Termination",
            Rule::Other => "SPEC-NOTES Writing",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.spec_rule())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_every_rule_has_a_section() {
        let mut names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Rule::ALL.len());
        for rule in Rule::ALL {
            assert!(rule.spec_rule().starts_with("SPEC-NOTES Writing"));
        }
    }
}
