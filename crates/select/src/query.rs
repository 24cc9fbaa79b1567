//! Queries over games: the expression tree, its parsing (`query/parse.rs`,
//! nom) and its evaluation against a [`Game`] (`query/eval.rs`).
//!
//! The grammar and the meaning of each comparison are documented on
//! [`Query`] (and in the crate docs, and `docs/select.md`).

mod eval;
mod events;
mod parse;
mod plies;
mod ply_finder;
mod subject;

use pgnkit_game::Game;
use regex::Regex;

use crate::error::QueryError;
use crate::positions::{Ply, Positional};
use crate::value::PgnDate;
pub use ply_finder::PlyFinder;

/// A parsed query: which games to select.
///
/// The grammar (whitespace between tokens is free; keywords are lowercase):
///
/// ```text
/// query      = or
/// or         = and { "or" and }
/// and        = not { "and" not }
/// not        = "not" not | primary
/// primary    = "(" or ")"
///            | [ "in_variations" ] position
///            | FLAG                        (a predicate of the game, below)
///            | count cmp value             (value a number)
///            | "soundex" ("player" | TAG) "=" value
///            | "any_tag" ("~" | "=~" | "=") value
///            | field op value
/// FLAG       = "checkmate" | "stalemate" | "insufficient_material" | "threefold"
///            | "fifty_moves" | "seventy_five_moves" | "underpromotion"
///            | "higher_rated_won" | "lower_rated_won" | "commented"
///            | "has_variations" | "has_clock" | "has_eval" | "setup"
///            | "result_consistent"
/// count      = "moves" | "piece_count"
/// cmp        = "=" | "==" | "!=" | "<" | "<=" | ">" | ">="
/// position   = test | "sequence" STRING          (moves in order, as "e4 e5 Nf3")
///            | "at" "(" ptest ")"               (one position passing the tests)
/// test       = "reaches" STRING                 (a FEN)
///            | "material" STRING                (a balance, as "KQkr")
///            | "pattern" STRING { "," STRING }  (boards with wildcards; any of them)
///            | "imbalance" [ colour ] STRING    (as "R vs BN")
///            | "hash" WORD                      (a Polyglot key, as 0x644d4afe02564aeb)
/// ptest      = pand { "or" pand }
/// pand       = pnot { "and" pnot }
/// pnot       = "not" pnot | "(" ptest ")" | test | "stm" colour
/// colour     = "white" | "black"
/// field      = TAG | "player" | "elo" | "elo_diff" | "plies" | "eco" | "result"
/// TAG        = a capital letter, then letters, digits, "_"   (a tag name: WhiteElo)
/// op         = "=" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "=~"
/// value      = STRING | WORD
/// STRING     = '"' { any character but '"' and '\', or '\"', or '\\' } '"'
/// WORD       = characters other than space, '(', ')' and '"'   (2500, 1-0, B90)
/// ```
///
/// What a comparison means:
///
/// - `~` is "contains" (case-sensitive), `=~` a regular expression (the
///   `regex` crate's syntax, found anywhere in the value; `(?i)` for any case).
/// - `Date`, `UTCDate`, `EventDate` compare as PGN dates: `YYYY.MM.DD`,
///   `YYYY.MM` or `YYYY`, `??` for a part that may be anything; parts are
///   compared from the year and the comparison stops at the first part
///   unknown in the game or the value. A game whose year is unknown matches
///   no date comparison.
/// - `TimeControl` compares by base time in seconds (`180+2` is 180).
/// - Any other tag compares as a number when the value is a number (then a
///   tag that is not a number does not match), else as text (byte order).
/// - A comparison with a tag the game does not have is false, `!=` too
///   (`not Event = "x"` selects the games without an Event tag as well).
/// - `player` is White or Black, `elo` is WhiteElo or BlackElo: the
///   comparison holds when it holds for either side; `!=` holds when it holds
///   for both (neither side is the value).
/// - `elo_diff` is |WhiteElo - BlackElo|; `plies` the number of moves of the
///   main line; `result` is `1-0`, `0-1`, `1/2-1/2` or `*` (the game's one
///   result); `eco` is the classified code when a classification is given
///   ([`Context::eco`]), else the `ECO` tag.
/// - `reaches "FEN"`: some position of the main line (the start included)
///   is that position: board, side to move, castling rights and en passant
///   (only when a capture is legal); move counters do not count.
/// - `material "KQkr"`: some position of the main line has that material
///   (see [`Material`](crate::Material)).
/// - How the game ends, by playing its main line (python-chess's rules, and
///   a test compares them with python-chess game by game): `checkmate`,
///   `stalemate` and `insufficient_material` hold for the main line's last
///   position (`is_checkmate()`, `is_stalemate()`,
///   `is_insufficient_material()`: only kings, plus one knight or bishops on
///   squares of one color); `threefold`: some position of the main line, the
///   start included, occurs a third time (python-chess `is_repetition(3)` after
///   some ply; a position is the board, the side to move, the castling rights
///   and the en passant square when a capture there is legal); `fifty_moves`
///   and `seventy_five_moves`: at some position of the main line, the start
///   included, the halfmove clock is 100 (150) or more and the side to move has
///   a legal move (`is_fifty_moves()`, `is_seventyfive_moves()`; the clock
///   starts from the FEN's); `underpromotion`: a main-line move promotes to a
///   knight, bishop or rook.
/// - `moves` is the number of full moves of the main line, `plies` / 2 rounded
///   up (the moves of the side that moved more); `piece_count` the number of
///   pieces on the board at the end of the main line, kings included (32 at
///   the start).
/// - `higher_rated_won` / `lower_rated_won`: `WhiteElo` and `BlackElo` are
///   both numbers and differ, the result is `1-0` or `0-1`, and the side rated
///   higher (lower) won.
/// - `soundex player = "Fisher"` (or a tag: `soundex Annotator = ...`): every
///   word of the value sounds like some word of the name, by American Soundex
///   codes (`Fisher` finds `Fischer, Robert J.`; `"Spasski Boris"` finds
///   `Spassky, Boris V.`); a letter outside A-Z counts as a vowel. pgn-extract's
///   `-S`.
/// - `any_tag ~ "x"`: some tag's value contains `x` (`=~` a regular
///   expression, `=` equal); pgn-extract's `--tagsubstr`.
/// - `commented`: some comment anywhere (before the moves, in the main line or
///   a variation) has text besides `[%...]` commands (clocks and evaluations
///   are `has_clock` and `has_eval`); `has_variations`: some move has an
///   alternative; `has_clock` / `has_eval`: some comment carries `[%clk ...]` /
///   `[%eval ...]`; `setup`: the game has a `SetUp` or a `FEN` tag.
/// - `result_consistent`: the result agrees with the main line's last
///   position where that position decides it: after a checkmate the side that
///   mated won, after a stalemate a draw; any result is consistent with any
///   other position (`--fix-result` corrects by the same rule).
/// - `pattern "r*r/*/*/*/*/*/*/????K*"`: some position's board fits the
///   pattern (see [`Pattern`](crate::Pattern) for its wildcards); several
///   patterns separated by commas: any of them.
/// - `imbalance "R vs BN"`: some position has that material difference,
///   either side having the first part unless `white` or `black` says
///   which (see [`Imbalance`](crate::Imbalance)).
/// - `hash 0x644d4afe02564aeb`: some position has this Polyglot key
///   (pgn-extract's `-H`; the key of `Position::polyglot_key`).
/// - `at (...)`: one position passes every test inside, combined with
///   `and`, `or`, `not`; `stm white` (or `black`) holds where that side is to
///   move and is only allowed here: `at (pattern "..." and stm white)`.
/// - `sequence "e4 e5 Nf3"`: these moves are played in this order, not
///   necessarily one after the other (see [`Sequence`](crate::Sequence)).
/// - `in_variations` before a position predicate tests the positions (or
///   moves) of the variations too; a sequence must then be on one line.
///
/// [`Query::matching_plies`] gives the plies where the position predicates
/// hold (see [`Ply`]).
///
/// ```
/// use pgnkit_select::{Context, Query};
/// let game: pgnkit_game::Game =
///     "[White \"Fischer\"]\n[Black \"Spassky\"]\n[WhiteElo \"2785\"]\n[Date \"1992.??.??\"]\n\n1. e4 e5 2. Nf3 *"
///         .parse()
///         .unwrap();
/// let q = Query::parse(r#"player = "Spassky" and elo >= 2700 and Date >= "1990" and plies < 10"#).unwrap();
/// assert!(q.matches(&game, &Context::default()));
/// let q = Query::parse(r#"reaches "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2""#).unwrap();
/// assert!(q.matches(&game, &Context::default()));
/// let q = Query::parse("moves <= 2 and not checkmate and soundex player = Fisher").unwrap();
/// assert!(q.matches(&game, &Context::default()));
/// assert!(Query::parse("colour = white").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Query {
    expr: Expr,
}

/// What a query is evaluated with besides the game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The game's classified ECO code (when the caller classified it): `eco` compares this
    /// instead of the `ECO` tag.
    pub eco: Option<&'a str>,
}

impl Query {
    /// Parses a query; an error names the byte span at fault
    /// ([`QueryError::render`] shows it under the query).
    pub fn parse(text: &str) -> Result<Query, QueryError> {
        parse::query(text).map(|expr| Query { expr })
    }

    /// Whether `game` is selected.
    pub fn matches(&self, game: &Game, context: &Context<'_>) -> bool {
        eval::matches(&self.expr, game, context)
    }

    /// Whether a [`Record`](crate::Record) holds all the query reads: no
    /// `in_variations`, `has_clock` or `has_eval` (which read the tree).
    /// Then [`Query::matches_record`] decides a game as
    /// [`Query::matches`] decides its tree, from a
    /// [`Recorder`](crate::Recorder)'s reading with no tree built.
    ///
    /// ```
    /// use pgnkit_select::Query;
    /// assert!(Query::parse("checkmate and WhiteElo > 2000").unwrap().reads_record());
    /// assert!(!Query::parse("has_clock").unwrap().reads_record());
    /// ```
    pub fn reads_record(&self) -> bool {
        self.expr.reads_record()
    }

    /// Whether the game `record` holds is selected ([`Query::matches`] of its
    /// tree), for a query that [`reads_record`](Query::reads_record) (any
    /// other query selects nothing here); `record` was kept by a
    /// [`Recorder`](crate::Recorder) made for this query.
    pub fn matches_record(&self, record: &crate::Record, context: &Context<'_>) -> bool {
        self.reads_record() && eval::matches(&self.expr, record, context)
    }

    /// A [`Recorder`](crate::Recorder) keeping what this query reads while
    /// passing the reader's events on to `inner`.
    pub fn recorder<V: pgnkit_game::Visitor>(&self, inner: V) -> crate::Recorder<V> {
        crate::record::Recorder::with(self.needs(), inner)
    }

    /// [`Query::recorder`] without tag values and comments (the reader
    /// skips them, unless `inner` wants them): `None` when the query reads
    /// a tag or a comment. The result is not a tag here: a record reads it
    /// from the movetext's marker, which the `Result` tag is made to agree
    /// with.
    ///
    /// ```
    /// use pgnkit_game::Validate;
    /// use pgnkit_select::Query;
    /// let checkmate = Query::parse("checkmate and plies > 10").unwrap();
    /// assert!(checkmate.recorder_without_text(Validate).is_some());
    /// let won = Query::parse("checkmate and result = 1-0").unwrap();
    /// assert!(won.recorder_without_text(Validate).is_some());
    /// let rated = Query::parse("checkmate and WhiteElo > 2000").unwrap();
    /// assert!(rated.recorder_without_text(Validate).is_none());
    /// ```
    pub fn recorder_without_text<V: pgnkit_game::Visitor>(
        &self,
        inner: V,
    ) -> Option<crate::Recorder<V, false>> {
        let needs = self.needs();
        (!needs.tags && !needs.comments).then(|| crate::record::Recorder::with(needs, inner))
    }

    /// What a [`Recorder`](crate::Recorder) keeps for this query.
    pub(crate) fn needs(&self) -> crate::record::Needs {
        let mut needs = crate::record::Needs::default();
        self.expr.needs(&mut needs);
        needs
    }

    /// The plies where the query's position predicates hold, when `game` is
    /// selected (`None` when it is not): those of every predicate that holds
    /// and counts for the selection (not under a `not`), in order, main line
    /// first (see [`Ply`]). Empty for a game selected by tags alone.
    ///
    /// ```
    /// use pgnkit_select::{Context, Ply, Query};
    /// let game: pgnkit_game::Game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *".parse().unwrap();
    /// let q = Query::parse(r#"pattern "*/*/*/*/*/*/*/RNBQK2R" or sequence "e4 Bb5""#).unwrap();
    /// let plies: Vec<u32> = q.matching_plies(&game, &Context::default()).unwrap().iter().map(|p| p.ply).collect();
    /// assert_eq!(plies, [1, 5]);
    /// assert!(Query::parse("material \"KQkq\"").unwrap().matching_plies(&game, &Context::default()).is_none());
    /// ```
    pub fn matching_plies(&self, game: &Game, context: &Context<'_>) -> Option<Vec<Ply>> {
        plies::matching(&self.expr, game, context)
    }

    /// Whether the query reads nothing but positions of the main line (position
    /// predicates without `in_variations`, combined with `and`, `or`, `not`):
    /// then [`Query::matching_plies_in_moves`] decides a game from its start
    /// position and main-line moves alone (as [`MainLine`](crate::MainLine)
    /// keeps them), with no tree.
    pub fn reads_main_line_positions_only(&self) -> bool {
        plies::main_line_positions_only(&self.expr)
    }

    /// [`Query::matching_plies`] of a game given by its start position and
    /// main-line moves, for a query that
    /// [`reads_main_line_positions_only`](Query::reads_main_line_positions_only)
    /// (any other query selects nothing here: `None`).
    ///
    /// ```
    /// use pgnkit_chess::{Position, San};
    /// use pgnkit_select::Query;
    /// let q = Query::parse(r#"sequence "e4 e5""#).unwrap();
    /// assert!(q.reads_main_line_positions_only());
    /// let start = Position::new();
    /// let e4 = San::parse(b"e4").unwrap().to_move(&start).unwrap();
    /// assert!(q.matching_plies_in_moves(&start, &[e4]).is_none());
    /// ```
    pub fn matching_plies_in_moves(
        &self,
        start: &pgnkit_chess::Position,
        moves: &[pgnkit_chess::Move],
    ) -> Option<Vec<Ply>> {
        if !self.reads_main_line_positions_only() {
            return None;
        }
        plies::matching_in_moves(&self.expr, start, moves)
    }

    /// A [`PlyFinder`] giving [`Query::matching_plies_in_moves`] as the
    /// game is read, passing the reader's events on to `inner`: `None` unless the query
    /// [`reads_main_line_positions_only`](Query::reads_main_line_positions_only).
    pub fn ply_finder<V: pgnkit_game::Visitor>(&self, inner: V) -> Option<PlyFinder<V>> {
        if !self.reads_main_line_positions_only() {
            return None;
        }
        let mut leaves = Vec::new();
        plies::leaves(&self.expr, &mut leaves);
        let leaves = leaves.into_iter().cloned().collect();
        Some(PlyFinder::with(self.clone(), leaves, inner))
    }

    /// The plies of a selected game from those each position predicate found
    /// (a [`PlyFinder`]'s followers, in `plies::leaves` order).
    pub(crate) fn matching_plies_followed(&self, found: &[&[Ply]]) -> Option<Vec<Ply>> {
        plies::matching_followed(&self.expr, found)
    }

    /// Whether the query selects the game whatever its moves still to come,
    /// from what is known of each position predicate (a [`PlyFinder`]'s
    /// followers, in `plies::leaves` order): `None` while that may change.
    pub(crate) fn decided_by(&self, known: &[Option<bool>]) -> Option<bool> {
        plies::decided(&self.expr, known, &mut 0)
    }

    /// The Polyglot key of the one position the query asks for, when the
    /// whole query is `reaches "FEN"` or `hash KEY` (main line only): what a
    /// position index answers (`pgnkit search --index`). `None` for any other
    /// query, which needs every game read.
    ///
    /// ```
    /// use pgnkit_select::Query;
    /// let q = Query::parse("hash 0x823c9b50fd114196").unwrap();
    /// assert_eq!(q.exact_position_key(), Some(0x823c9b50fd114196));
    /// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// let q = Query::parse(&format!("reaches \"{start}\"")).unwrap();
    /// assert_eq!(q.exact_position_key(), Some(0x463b96181691fc9c));
    /// assert_eq!(Query::parse("in_variations hash 0x1").unwrap().exact_position_key(), None);
    /// assert_eq!(Query::parse("hash 0x1 and elo > 2000").unwrap().exact_position_key(), None);
    /// ```
    pub fn exact_position_key(&self) -> Option<u64> {
        match &self.expr {
            Expr::Position(p) => p.exact_key(),
            _ => None,
        }
    }

    /// Whether the query looks into variations (`in_variations`): the game
    /// must then be read with its variations (a tree).
    pub fn reads_variations(&self) -> bool {
        self.expr.reads_variations()
    }

    /// The first ply of the main line (0: the start) where the query's position
    /// predicates hold, when `game` is selected: where `--mark-matches` puts its
    /// comment (as pgn-extract's `--markmatches`, at the first match).
    ///
    /// ```
    /// use pgnkit_select::{Context, Query};
    /// let game: pgnkit_game::Game = "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ *".parse().unwrap();
    /// let q = Query::parse(r#"plies > 2 and material "KQR2B2N2P8kqr2b2n2p7""#).unwrap();
    /// assert_eq!(q.first_match(&game, &Context::default()), Some(5));
    /// assert_eq!(Query::parse("plies > 2").unwrap().first_match(&game, &Context::default()), None);
    /// ```
    pub fn first_match(&self, game: &Game, context: &Context<'_>) -> Option<usize> {
        self.matching_plies(game, context)?
            .iter()
            .find(|p| p.main_line)
            .map(|p| p.ply as usize)
    }

    /// Whether evaluating the query replays the main line (`reaches`, `material`, `plies`,
    /// `moves`, `piece_count`, the game-ending predicates).
    pub fn needs_moves(&self) -> bool {
        self.expr.needs_moves()
    }

    /// Whether the query reads the tag section alone: no `reaches`,
    /// `material`, `plies`, `result` (the movetext's marker may decide it),
    /// `eco` (a classification may decide it) or predicate of the moves
    /// (`soundex`, `any_tag` and `setup` read tags alone). Such a query can be
    /// evaluated on a game holding only the tags, before the moves are read.
    ///
    /// ```
    /// use pgnkit_select::Query;
    /// assert!(Query::parse("player ~ Tal and elo >= 2500").unwrap().reads_tags_only());
    /// assert!(!Query::parse("player ~ Tal and result = 1-0").unwrap().reads_tags_only());
    /// ```
    pub fn reads_tags_only(&self) -> bool {
        self.expr.reads_tags_only()
    }
}

/// How deep parentheses and `not`s may nest, together: the tree is walked
/// by recursion (parsing, evaluation, dropping), so its depth is bounded as
/// the reader bounds variations. A deeper query is refused with
/// [`QueryErrorKind::TooDeep`](crate::QueryErrorKind::TooDeep), a caret at
/// the `(` or `not` that passes the limit. Chains of `and`/`or` are flat
/// nodes and may be of any length.
pub const MAX_QUERY_DEPTH: usize = 256;

/// A node of the expression tree. Only the parser makes one, so its depth
/// is at most [`MAX_QUERY_DEPTH`] and every walk over it (evaluation,
/// `needs_moves`, drop) is bounded with it.
#[derive(Debug, Clone)]
enum Expr {
    /// Any of two or more (a chain `a or b or c` is one node, so its length
    /// is not depth).
    Or(Vec<Expr>),
    /// All of two or more.
    And(Vec<Expr>),
    Not(Box<Expr>),
    Compare(Comparison),
    /// A predicate of `query/events.rs` (how the game ends, its length, players, content).
    Event(events::Predicate),
    /// A position predicate (`positions.rs`; parsed by `parse/positions.rs`).
    Position(Box<Positional>),
}

impl Expr {
    fn needs_moves(&self) -> bool {
        match self {
            Expr::Or(all) | Expr::And(all) => all.iter().any(Expr::needs_moves),
            Expr::Not(a) => a.needs_moves(),
            Expr::Compare(c) => c.field == Field::Plies,
            Expr::Event(p) => p.needs_moves(),
            Expr::Position(_) => true,
        }
    }

    fn reads_record(&self) -> bool {
        match self {
            Expr::Or(all) | Expr::And(all) => all.iter().all(Expr::reads_record),
            Expr::Not(a) => a.reads_record(),
            Expr::Compare(_) => true,
            Expr::Event(p) => p.reads_record(),
            Expr::Position(p) => !p.variations,
        }
    }

    fn needs(&self, needs: &mut crate::record::Needs) {
        match self {
            Expr::Or(all) | Expr::And(all) => all.iter().for_each(|e| e.needs(needs)),
            Expr::Not(a) => a.needs(needs),
            // The result is the movetext's marker in a record (see
            // `Record::termination`).
            Expr::Compare(c) => needs.tags |= !matches!(c.field, Field::Plies | Field::Result),
            Expr::Event(p) => {
                let more = p.needs();
                needs.tags |= more.tags;
                needs.comments |= more.comments;
                needs.end |= more.end;
                needs.repetitions |= more.repetitions;
                needs.clock |= more.clock;
            }
            Expr::Position(_) => {}
        }
    }

    fn reads_variations(&self) -> bool {
        match self {
            Expr::Or(all) | Expr::And(all) => all.iter().any(Expr::reads_variations),
            Expr::Not(a) => a.reads_variations(),
            Expr::Position(p) => p.variations,
            _ => false,
        }
    }

    fn reads_tags_only(&self) -> bool {
        match self {
            Expr::Or(all) | Expr::And(all) => all.iter().all(Expr::reads_tags_only),
            Expr::Not(a) => a.reads_tags_only(),
            Expr::Compare(c) => !matches!(c.field, Field::Plies | Field::Result | Field::Eco),
            Expr::Event(p) => p.reads_tags_only(),
            Expr::Position(_) => false,
        }
    }
}

/// What a comparison reads from the game.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Field {
    Tag(String),
    Player,
    Elo,
    EloDiff,
    Plies,
    Eco,
    Result,
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Contains,
    Matches,
}

/// The value compared with, read once at parse time as the field needs it.
#[derive(Debug, Clone)]
enum Value {
    Text(String),
    Number(f64),
    Date(PgnDate),
    /// A time control's base, in seconds.
    Base(f64),
    Regex(Regex),
}

/// `field op value`.
#[derive(Debug, Clone)]
struct Comparison {
    field: Field,
    op: Op,
    value: Value,
}
