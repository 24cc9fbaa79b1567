//! The errors of `pgnkit-select`: a query that cannot be parsed, an opening
//! table that cannot be read. Both carry byte offsets (into the query text,
//! into the table); [`QueryError::render`] shows the query with a caret.

use thiserror::Error;

/// What may stand where a field is expected, for the error of an unknown
/// name (the list of what would fit): the pseudo-fields of `query/parse.rs`
/// and the predicates of `query/events.rs`.
const WHAT_FITS: &str = "the pseudo-fields are player, elo, elo_diff, plies, moves, \
     piece_count, eco, result; the predicates are checkmate, stalemate, insufficient_material, \
     threefold, fifty_moves, seventy_five_moves, underpromotion, higher_rated_won, \
     lower_rated_won, commented, has_variations, has_clock, has_eval, setup, result_consistent, \
     `soundex player = NAME`, `any_tag ~ TEXT`; the position predicates are `reaches FEN`, \
     `material BALANCE`, `pattern BOARD`, `imbalance BALANCE`, `sequence MOVES`, `hash KEY`, \
     `at (...)`, `in_variations`; \
     tag names start with a capital letter";

/// Why a query was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum QueryErrorKind {
    /// The text does not follow the grammar; says what was expected.
    #[error("expected {0}")]
    Syntax(&'static str),
    /// A lowercase name that is not a pseudo-field (tag names start with a capital).
    #[error("unknown field `{0}`: {fits}", fits = WHAT_FITS)]
    UnknownField(String),
    /// The regular expression after `=~` does not compile.
    #[error("bad regular expression: {0}")]
    Regex(String),
    /// The FEN after `reaches` is not a valid position.
    #[error("invalid FEN: {0}")]
    Fen(String),
    /// The material balance after `material` is malformed.
    #[error("invalid material balance: {0}")]
    Material(String),
    /// The board pattern after `pattern` is malformed.
    #[error("invalid pattern: {0}")]
    Pattern(String),
    /// The imbalance after `imbalance` is malformed.
    #[error("invalid imbalance: {0}")]
    Imbalance(String),
    /// The moves after `sequence` are malformed.
    #[error("invalid sequence: {0}")]
    Sequence(String),
    /// `stm` outside `at (...)`.
    #[error(
        "`stm` tests one position: write it inside `at (...)`, as `at (pattern \"...\" and stm white)`"
    )]
    StmOutsideAt,
    /// A value that cannot be compared with this field (a date, a time control, a number).
    #[error("{0}")]
    Value(String),
    /// Parentheses and `not`s nested deeper than the limit (the number), together.
    #[error("parentheses and `not`s nested deeper than {0}")]
    TooDeep(usize),
    /// Text after a complete query.
    #[error("unexpected text after the query")]
    Trailing,
}

/// A query that cannot be used: what is wrong and where (bytes `start..end` of the query).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind} (at byte {start})")]
pub struct QueryError {
    /// What is wrong.
    pub kind: QueryErrorKind,
    /// First byte of the fault in the query text.
    pub start: usize,
    /// The byte after the fault (at least `start + 1` when the query has that byte).
    pub end: usize,
}

impl QueryError {
    /// The query on one line, a caret line under the fault and the message:
    ///
    /// ```
    /// let e = pgnkit_select::Query::parse("WhiteElo >= 2500 and colour = \"x\"").unwrap_err();
    /// let text = e.render("WhiteElo >= 2500 and colour = \"x\"");
    /// assert_eq!(text.lines().nth(1), Some("                     ^^^^^^"));
    /// ```
    ///
    /// A query longer than a line is shown around the fault, `...` marking
    /// what is left out on either side.
    pub fn render(&self, query: &str) -> String {
        /// Characters shown on either side of the fault in a long query.
        const CONTEXT: usize = 40;
        let line: Vec<char> = query
            .chars()
            .map(|c| {
                if matches!(c, '\n' | '\r' | '\t') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        // Columns are counted in characters, so a caret stands under its character.
        let start = query
            .get(..self.start.min(query.len()))
            .map_or(self.start, |s| s.chars().count());
        let width = query
            .get(self.start.min(query.len())..self.end.min(query.len()))
            .map_or(1, |s| s.chars().count())
            .max(1);
        let (from, to) = if line.len() <= 2 * CONTEXT + 20 {
            (0, line.len())
        } else {
            let from = start.saturating_sub(CONTEXT);
            (from, (start + width.min(CONTEXT) + CONTEXT).min(line.len()))
        };
        let before = if from > 0 { "..." } else { "" };
        let after = if to < line.len() { "..." } else { "" };
        let shown: String = line.get(from..to).unwrap_or_default().iter().collect();
        let width = width.min(to.saturating_sub(start).max(1));
        format!(
            "{before}{shown}{after}\n{}{}\n{}",
            " ".repeat(before.len() + start - from),
            "^".repeat(width),
            self.kind
        )
    }
}

/// An opening table (TSV: `eco`, `name`, `pgn`) that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OpeningsError {
    /// The first line is not the header `eco<TAB>name<TAB>pgn`.
    #[error("the first line must be the header `eco<TAB>name<TAB>pgn`")]
    Header,
    /// A row that cannot be read: its first byte in the table and why.
    #[error("row at byte {offset}: {reason}")]
    Row {
        /// First byte of the row.
        offset: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The table is not UTF-8.
    #[error("the table is not UTF-8 text")]
    Encoding,
}

/// A game whose main line is shorter than the plies to drop (see
/// [`drop_plies`](crate::drop_plies)): it is left unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the main line has {plies} plies, fewer than the {wanted} to drop")]
pub struct TooShort {
    /// The plies of the game's main line.
    pub plies: usize,
    /// The plies asked to drop.
    pub wanted: usize,
}

/// A list of game numbers for [`MatchNumbers`](crate::MatchNumbers) that
/// cannot be read (`N` or `N:M`, from 1, strictly ascending, comma-separated).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MatchNumbersError {
    /// A part that is not a number from 1.
    #[error("`{0}` is not a game number (they count from 1): expected N or N:M, comma-separated")]
    Number(String),
    /// A range `N:M` with M less than N.
    #[error("`{0}` ends before it starts")]
    Backwards(String),
    /// A part that does not come after the one before it.
    #[error(
        "`{0}` overlaps or comes before the range before it: the numbers must be in ascending order"
    )]
    NotAscending(String),
}
