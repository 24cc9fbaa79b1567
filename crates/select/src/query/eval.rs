//! Evaluating a query's tree against a game: tags read as the parsed value
//! asks (number, date, base time, text), the main line (or every line) replayed only
//! for position predicates and `plies`; the predicates of `events.rs` evaluate
//! themselves.

use std::cmp::Ordering;

use super::subject::Subject;
use super::{Comparison, Expr, Field, Op, Value};
use crate::value::{PgnDate, number, time_control_base};

pub(super) fn matches(expr: &Expr, game: &impl Subject, context: &super::Context<'_>) -> bool {
    match expr {
        Expr::Or(all) => all.iter().any(|e| matches(e, game, context)),
        Expr::And(all) => all.iter().all(|e| matches(e, game, context)),
        Expr::Not(a) => !matches(a, game, context),
        Expr::Compare(c) => compare(c, game, context),
        Expr::Event(predicate) => predicate.matches(game),
        Expr::Position(p) => p.holds(game.line()),
    }
}

fn compare(c: &Comparison, game: &impl Subject, context: &super::Context<'_>) -> bool {
    let tags = game.tags();
    match &c.field {
        Field::Tag(name) => tags.get(name).is_some_and(|v| holds(c.op, &c.value, v)),
        Field::Player => either(c, [tags.get("White"), tags.get("Black")]),
        Field::Elo => either(c, [tags.get("WhiteElo"), tags.get("BlackElo")]),
        Field::EloDiff => {
            let elo = |name| tags.get(name).and_then(number);
            match (elo("WhiteElo"), elo("BlackElo")) {
                (Some(w), Some(b)) => holds(c.op, &c.value, &(w - b).abs().to_string()),
                _ => false,
            }
        }
        Field::Plies => count_holds(c.op, &c.value, game.moves().count()),
        Field::Result => holds(c.op, &c.value, game.termination().as_str()),
        Field::Eco => context
            .eco
            .or_else(|| tags.get("ECO"))
            .is_some_and(|v| holds(c.op, &c.value, v)),
    }
}

/// A two-sided field: any side holds; for `!=`, every side present holds.
fn either(c: &Comparison, values: [Option<&str>; 2]) -> bool {
    let mut present = values.into_iter().flatten();
    if c.op == Op::Ne {
        let mut any = false;
        for v in present {
            any = true;
            if !holds(c.op, &c.value, v) {
                return false;
            }
        }
        any
    } else {
        present.any(|v| holds(c.op, &c.value, v))
    }
}

/// Whether `count op value` holds, as [`holds`] finds it for the count
/// written in decimal (a number compared as a number, without the text).
fn count_holds(op: Op, value: &Value, count: usize) -> bool {
    match value {
        Value::Number(n) => {
            let ordering = (count as f64).partial_cmp(n);
            ordering.is_some_and(|ordering| fits(op, ordering))
        }
        _ => holds(op, value, &count.to_string()),
    }
}

/// Whether `game_value op value` holds.
pub(super) fn holds(op: Op, value: &Value, game_value: &str) -> bool {
    let ordering = match value {
        Value::Regex(re) => return re.is_match(game_value),
        Value::Text(text) if op == Op::Contains => return game_value.contains(text.as_str()),
        Value::Text(text) => Some(game_value.cmp(text.as_str())),
        Value::Number(n) => number(game_value).and_then(|g| g.partial_cmp(n)),
        Value::Base(n) => time_control_base(game_value).and_then(|g| (g as f64).partial_cmp(n)),
        Value::Date(pattern) => PgnDate::parse(game_value).and_then(|d| d.compare(pattern)),
    };
    ordering.is_some_and(|ordering| fits(op, ordering))
}

/// Whether `op` holds of two values in `ordering`.
fn fits(op: Op, ordering: Ordering) -> bool {
    match op {
        Op::Eq => ordering == Ordering::Equal,
        Op::Ne => ordering != Ordering::Equal,
        Op::Lt => ordering == Ordering::Less,
        Op::Le => ordering != Ordering::Greater,
        Op::Gt => ordering == Ordering::Greater,
        Op::Ge => ordering != Ordering::Less,
        // `~` and `=~` returned above; a non-text value with `~` is text (parse.rs).
        Op::Contains | Op::Matches => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::query::{Context, Query};
    use pgnkit_game::Game;

    fn game(tags: &[(&str, &str)], moves: &str) -> Game {
        let mut text = String::new();
        for (n, v) in tags {
            text.push_str(&format!("[{n} \"{v}\"]\n"));
        }
        text.push('\n');
        text.push_str(moves);
        text.parse().unwrap()
    }

    fn sel(q: &str, g: &Game) -> bool {
        Query::parse(q).unwrap().matches(g, &Context::default())
    }

    #[test]
    fn tags_compare_by_kind() {
        let g = game(
            &[
                ("Event", "Chess Olympiad 2024"),
                ("Site", "lichess.org"),
                ("Date", "2024.09.??"),
                ("WhiteElo", "2500"),
                ("BlackElo", "2380"),
                ("TimeControl", "5400+30"),
                ("Round", "10"),
            ],
            "1. e4 e5 1-0",
        );
        assert!(sel("WhiteElo >= 2500 and WhiteElo < 2501", &g));
        assert!(sel("Round > 9", &g), "numbers compare as numbers, not text");
        assert!(!sel("Round > \"9\" and Round < 2", &g));
        assert!(sel("Event ~ \"Olympiad\" and not Event ~ \"olympiad\"", &g));
        assert!(sel("Site =~ \"^li.*\\\\.org$\"", &g));
        assert!(
            sel("Date >= 2024.09.30 and Date <= 2024.09.01", &g),
            "?? matches any day"
        );
        assert!(sel("Date > 2023 and Date < 2025 and Date = 2024", &g));
        assert!(sel("TimeControl = 5400 and TimeControl > 600+5", &g));
        assert!(sel("elo >= 2500 and elo <= 2400", &g), "either side");
        assert!(sel("elo_diff = 120 and plies = 2 and result = 1-0", &g));
        assert!(
            !sel("Annotator = x or Annotator != x", &g),
            "a missing tag is false"
        );
        assert!(sel("not Annotator = x", &g));
    }

    #[test]
    fn players_and_eco() {
        let g = game(
            &[
                ("White", "Tal, M."),
                ("Black", "Fischer, R."),
                ("ECO", "B90"),
            ],
            "*",
        );
        assert!(sel("player ~ Tal and player ~ Fischer", &g));
        assert!(!sel("player != \"Tal, M.\"", &g));
        assert!(sel("player != Botvinnik", &g));
        assert!(sel("eco = B90", &g));
        let q = Query::parse("eco = C20").unwrap();
        assert!(q.matches(&g, &Context { eco: Some("C20") }));
        assert!(!q.matches(&g, &Context::default()));
    }

    #[test]
    fn positions_along_the_main_line() {
        // 1. Nf3 Nf6 2. Ng1 Ng8 returns to the start; transposition to 1. e4 e5 by 1. e3 e6 2. e4 e5.
        let g = game(&[], "1. e3 e6 2. e4 e5 3. Qh5 Nc6 4. Qxf7+ Kxf7 *");
        let e4e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
        assert!(sel(&format!("reaches \"{e4e5}\""), &g));
        let not_reached = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3";
        assert!(
            !sel(&format!("reaches \"{not_reached}\""), &g),
            "side to move counts"
        );
        assert!(sel("material \"KQRRBBNNP8 kqrrbbnnp7\"", &g));
        assert!(sel("material \"KRRBBNNP8 kqrrbbnnp7\"", &g));
        assert!(!sel("material \"KQkq\"", &g));
    }

    /// Where `material` differs from pgn-extract 19.04's `-z` by design (the
    /// counts of docs/select.md: 6 games of queen against rook for pgnkit,
    /// none for pgn-extract; every one of the 6 reaches it by a promotion).
    /// pgn-extract's `look_for_ending` (end.c) counts a promoted piece for
    /// the side that did not promote (and takes the pawn from that side),
    /// tests each position before a move (never the last one), and holds a
    /// balance for its depth (2 by default) plus one position. pgnkit counts
    /// the board of every position of the main line, the last included.
    #[test]
    fn material_counts_promoted_pieces_and_the_last_position() {
        // White promotes and keeps queen against rook to the end: pgn-extract
        // `-z` with `q r` finds nothing here, with `p qrp-` (a pawn left to
        // White, a queen and minus one pawn to Black) it finds the game.
        let promoted = game(
            &[("SetUp", "1"), ("FEN", "7k/P7/8/8/8/8/1r6/4K3 w - - 0 1")],
            "1. a8=Q+ Kh7 2. Qe4+ Kh8 3. Qa8+ Kh7 4. Qe4+ Kh8 5. Qa8+ Kh7 *",
        );
        assert!(sel("material \"KQkr\"", &promoted));
        assert!(sel("material \"KPkr\"", &promoted), "the start counts too");
        // Queen against rook only after the last move: pgn-extract never
        // tests that position.
        let last = game(
            &[("SetUp", "1"), ("FEN", "r6k/8/8/8/8/8/8/R2QK3 b - - 0 1")],
            "1... Rxa1 *",
        );
        // Black to move in the FEN: pgn-extract counts the capture for the
        // wrong side as well (its colour starts at White whatever the FEN).
        assert!(sel("material \"KQkr\"", &last));
    }
}
