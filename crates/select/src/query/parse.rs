//! The query grammar (documented on [`Query`](super::Query)) as nom parsers
//! over the query text. Every failure carries the byte span at fault; a
//! value is checked against its field here (a date, a number, a regular
//! expression, a FEN), so a query that parses can be evaluated on any game
//! without an error.

mod events;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::char;
use nom::{IResult, Parser};

use super::{Comparison, Expr, Field, MAX_QUERY_DEPTH, Op, Value};
use crate::error::{QueryError, QueryErrorKind};
use crate::value::{PgnDate, number, time_control_base};

/// A failure: where (the rest of the input at the fault), how long, what.
#[derive(Debug)]
struct Fault<'a> {
    at: &'a str,
    len: usize,
    kind: QueryErrorKind,
}

impl<'a> nom::error::ParseError<&'a str> for Fault<'a> {
    fn from_error_kind(input: &'a str, _kind: nom::error::ErrorKind) -> Self {
        Fault {
            at: input,
            len: 1,
            kind: QueryErrorKind::Syntax("a query"),
        }
    }
    fn append(_input: &'a str, _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

mod positions;

type Res<'a, T> = IResult<&'a str, T, Fault<'a>>;

fn fail<T>(at: &str, len: usize, kind: QueryErrorKind) -> Res<'_, T> {
    Err(nom::Err::Failure(Fault { at, len, kind }))
}

/// Parses a whole query.
pub(super) fn query(text: &str) -> Result<Expr, QueryError> {
    let to_error = |f: Fault<'_>| {
        let start = text.len() - f.at.len();
        QueryError {
            kind: f.kind,
            start,
            end: (start + f.len).max(start + 1),
        }
    };
    match or_expr(text, 0) {
        Ok((rest, expr)) => {
            let rest = rest.trim_start();
            if rest.is_empty() {
                Ok(expr)
            } else {
                let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
                Err(to_error(Fault {
                    at: rest,
                    len,
                    kind: QueryErrorKind::Trailing,
                }))
            }
        }
        Err(nom::Err::Error(f) | nom::Err::Failure(f)) => Err(to_error(f)),
        Err(nom::Err::Incomplete(_)) => Err(to_error(Fault {
            at: "",
            len: 1,
            kind: QueryErrorKind::Syntax("more text"),
        })),
    }
}

/// White space between tokens: what ends a word (`char::is_whitespace`, a form feed or a
/// no-break space too), so that whatever stops a word is passed over after it.
fn space(input: &str) -> Res<'_, &str> {
    take_while(char::is_whitespace).parse(input)
}

/// A keyword as a whole word (not the start of a longer name).
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fault<'a>> {
    move |input: &'a str| {
        let (rest, _) = space(input)?;
        let (after, found) = tag(word).parse(rest)?;
        if after
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            return Err(nom::Err::Error(Fault {
                at: rest,
                len: word.len(),
                kind: QueryErrorKind::Syntax("a keyword"),
            }));
        }
        Ok((after, found))
    }
}

fn or_expr(input: &str, depth: usize) -> Res<'_, Expr> {
    let (mut rest, first) = and_expr(input, depth)?;
    let mut all = vec![first];
    while let Ok((after, _)) = keyword("or").parse(rest) {
        let (after, next) = and_expr(after, depth)?;
        all.push(next);
        rest = after;
    }
    Ok((rest, one_or(all, Expr::Or)))
}

fn and_expr(input: &str, depth: usize) -> Res<'_, Expr> {
    let (mut rest, first) = not_expr(input, depth)?;
    let mut all = vec![first];
    while let Ok((after, _)) = keyword("and").parse(rest) {
        let (after, next) = not_expr(after, depth)?;
        all.push(next);
        rest = after;
    }
    Ok((rest, one_or(all, Expr::And)))
}

/// The one expression of a chain, or the chain's node.
fn one_or(all: Vec<Expr>, node: fn(Vec<Expr>) -> Expr) -> Expr {
    match <[Expr; 1]>::try_from(all) {
        Ok([one]) => one,
        Err(all) => node(all),
    }
}

/// A `(` or `not` opening one more level at `at`: refused past [`MAX_QUERY_DEPTH`].
fn deeper<'a>(at: &'a str, len: usize, depth: usize) -> Result<usize, nom::Err<Fault<'a>>> {
    if depth >= MAX_QUERY_DEPTH {
        return Err(nom::Err::Failure(Fault {
            at,
            len,
            kind: QueryErrorKind::TooDeep(MAX_QUERY_DEPTH),
        }));
    }
    Ok(depth + 1)
}

/// `not`s read in a loop (each one a level), then the primary they apply to.
fn not_expr(input: &str, mut depth: usize) -> Res<'_, Expr> {
    let mut nots = 0;
    let mut rest = input;
    while let Ok((after, _)) = keyword("not").parse(rest) {
        let (at, _) = space(rest)?;
        depth = deeper(at, 3, depth)?;
        nots += 1;
        rest = after;
    }
    let (rest, mut expr) = primary(rest, depth)?;
    for _ in 0..nots {
        expr = Expr::Not(Box::new(expr));
    }
    Ok((rest, expr))
}

fn primary(input: &str, depth: usize) -> Res<'_, Expr> {
    let (input, _) = space(input)?;
    if let Ok((after, _)) = char::<_, Fault<'_>>('(').parse(input) {
        let depth = deeper(input, 1, depth)?;
        let (after, inner) = or_expr(after, depth)?;
        let (after, _) = space(after)?;
        return match char::<_, Fault<'_>>(')').parse(after) {
            Ok((rest, _)) => Ok((rest, inner)),
            Err(_) => fail(after, 1, QueryErrorKind::Syntax("`)`, `and` or `or`")),
        };
    }
    if let (rest, Some(expr)) = positions::predicate(input, depth)? {
        return Ok((rest, expr));
    }
    if let Some(predicate) = events::primary(input) {
        return predicate;
    }
    comparison(input)
}

/// Bytes from `at` to `rest` (the quoted value's length).
fn quoted_len(at: &str, rest: &str) -> usize {
    at.len() - rest.len()
}

/// A double-quoted string after optional spaces: where it starts and its text.
fn string_after<'a>(input: &'a str, expected: &'static str) -> Res<'a, (&'a str, String)> {
    let (input, _) = space(input)?;
    match string(input) {
        Ok((rest, text)) => Ok((rest, (input, text))),
        Err(nom::Err::Error(_)) => fail(input, 1, QueryErrorKind::Syntax(expected)),
        Err(e) => Err(e),
    }
}

/// `"..."` with `\"` and `\\`.
fn string(input: &str) -> Res<'_, String> {
    let (mut rest, _) = char('"').parse(input)?;
    let mut text = String::new();
    loop {
        let (after, run) = take_while(|c| c != '"' && c != '\\').parse(rest)?;
        text.push_str(run);
        let mut chars = after.chars();
        match chars.next() {
            Some('"') => return Ok((chars.as_str(), text)),
            Some('\\') => match chars.next() {
                Some(c @ ('"' | '\\')) => {
                    text.push(c);
                    rest = chars.as_str();
                }
                _ => {
                    return fail(
                        after,
                        2,
                        QueryErrorKind::Syntax("`\\\"` or `\\\\` (the only escapes)"),
                    );
                }
            },
            _ => return fail(input, input.len(), QueryErrorKind::Syntax("a closing `\"`")),
        }
    }
}

/// A word value: anything up to a space, a parenthesis or a quote.
fn word(input: &str) -> Res<'_, String> {
    take_while1(|c: char| !c.is_whitespace() && !matches!(c, '(' | ')' | '"'))
        .map(str::to_string)
        .parse(input)
}

fn field(input: &str) -> Res<'_, Field> {
    let (rest, name) = take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .parse(input)
        .map_err(|_: nom::Err<Fault<'_>>| {
            nom::Err::Failure(Fault {
                at: input,
                len: 1,
                kind: QueryErrorKind::Syntax(
                    "a field (a tag name or a pseudo-field), `not` or `(`",
                ),
            })
        })?;
    let field = match name {
        "player" => Field::Player,
        "elo" => Field::Elo,
        "elo_diff" => Field::EloDiff,
        "plies" => Field::Plies,
        "eco" => Field::Eco,
        "result" => Field::Result,
        _ if name.starts_with(|c: char| c.is_ascii_uppercase()) => Field::Tag(name.to_string()),
        _ => {
            return fail(
                input,
                name.len(),
                QueryErrorKind::UnknownField(name.to_string()),
            );
        }
    };
    Ok((rest, field))
}

fn op(input: &str) -> Res<'_, Op> {
    alt((
        tag("=~").map(|_| Op::Matches),
        tag("==").map(|_| Op::Eq),
        tag("!=").map(|_| Op::Ne),
        tag("<=").map(|_| Op::Le),
        tag(">=").map(|_| Op::Ge),
        tag("=").map(|_| Op::Eq),
        tag("<").map(|_| Op::Lt),
        tag(">").map(|_| Op::Gt),
        tag("~").map(|_| Op::Contains),
    ))
    .parse(input)
}

fn comparison(input: &str) -> Res<'_, Expr> {
    let (rest, field) = field(input)?;
    let (rest, _) = space(rest)?;
    let Ok((rest, op)) = op(rest) else {
        return fail(
            rest,
            1,
            QueryErrorKind::Syntax("an operator: = != < <= > >= ~ =~"),
        );
    };
    let (rest, _) = space(rest)?;
    let at = rest;
    let (rest, text) = match alt((string, word)).parse(rest) {
        Ok(ok) => ok,
        Err(nom::Err::Error(_)) => {
            return fail(
                rest,
                1,
                QueryErrorKind::Syntax("a value: a number, a word or a \"quoted string\""),
            );
        }
        Err(e) => return Err(e),
    };
    let len = at.len() - rest.len();
    let value = match value(&field, op, text) {
        Ok(value) => value,
        Err(kind) => return fail(at, len, kind),
    };
    Ok((rest, Expr::Compare(Comparison { field, op, value })))
}

/// The value as the field and operator read it.
fn value(field: &Field, op: Op, text: String) -> Result<Value, QueryErrorKind> {
    match op {
        Op::Matches => {
            return regex::Regex::new(&text)
                .map(Value::Regex)
                .map_err(|e| QueryErrorKind::Regex(e.to_string()));
        }
        Op::Contains => return Ok(Value::Text(text)),
        _ => {}
    }
    let numeric = |what: &str| {
        number(&text)
            .map(Value::Number)
            .ok_or_else(|| QueryErrorKind::Value(format!("`{text}` is not a number ({what})")))
    };
    match field {
        Field::Elo => numeric("elo is a rating"),
        Field::EloDiff => numeric("elo_diff is a rating difference"),
        Field::Plies => numeric("plies is a count of moves"),
        Field::Player | Field::Eco | Field::Result => Ok(Value::Text(text)),
        Field::Tag(name) if matches!(name.as_str(), "Date" | "UTCDate" | "EventDate") => {
            PgnDate::parse(&text).map(Value::Date).ok_or_else(|| {
                QueryErrorKind::Value(format!(
                    "`{text}` is not a date: YYYY.MM.DD, YYYY.MM or YYYY, `??` for any"
                ))
            })
        }
        Field::Tag(name) if name == "TimeControl" => time_control_base(&text)
            .map(|base| Value::Base(base as f64))
            .ok_or_else(|| {
                QueryErrorKind::Value(format!(
                    "`{text}` is not a time control: base seconds, as 300 or 300+2"
                ))
            }),
        Field::Tag(_) => Ok(number(&text).map_or(Value::Text(text), Value::Number)),
    }
}

#[cfg(test)]
mod tests {
    use crate::error::QueryErrorKind;
    use crate::query::Query;

    fn error(q: &str) -> (QueryErrorKind, usize, usize) {
        let e = Query::parse(q).unwrap_err();
        (e.kind, e.start, e.end)
    }

    #[test]
    fn precedence_and_keywords() {
        for q in [
            "WhiteElo >= 2500",
            "not (player = \"Carlsen\" or player=Nakamura) and plies > 40",
            "Event ~ \"Olympiad\" and Site =~ \"(?i)lichess\"",
            "not Notes = 1 and Order = 2 or Andante = 3",
            "Date >= 1990.??.?? and Date < \"2000\"",
            "TimeControl >= 180+2",
            "result = 1-0 or result = \"1/2-1/2\"",
            "reaches \"8/8/8/8/8/8/8/K1k5 w - - 0 1\" or material \"KQkr\"",
            "  ( ( eco = B90 ) )  ",
        ] {
            assert!(Query::parse(q).is_ok(), "{q}");
        }
    }

    #[test]
    fn errors_name_their_span() {
        assert!(
            matches!(error("colour = white"), (QueryErrorKind::UnknownField(f), 0, 6) if f == "colour")
        );
        assert!(matches!(
            error("Site =~ \"(lichess\""),
            (QueryErrorKind::Regex(_), 8, 18)
        ));
        assert!(matches!(
            error("reaches \"8/8/8 w\""),
            (QueryErrorKind::Fen(_), 8, 17)
        ));
        assert!(matches!(
            error("material \"KQx\""),
            (QueryErrorKind::Material(_), 9, 14)
        ));
        assert!(matches!(
            error("Date > May"),
            (QueryErrorKind::Value(_), 7, 10)
        ));
        assert!(matches!(
            error("elo >= high"),
            (QueryErrorKind::Value(_), 7, 11)
        ));
        assert!(matches!(
            error("WhiteElo 2500"),
            (QueryErrorKind::Syntax(_), 9, 10)
        ));
        assert!(matches!(
            error("(plies > 3"),
            (QueryErrorKind::Syntax(_), 10, 11)
        ));
        assert!(matches!(
            error("plies > 3 plies"),
            (QueryErrorKind::Trailing, 10, 15)
        ));
        assert!(matches!(
            error("Event = \"open"),
            (QueryErrorKind::Syntax(_), 8, 13)
        ));
        assert!(
            matches!(error("notes = 1"), (QueryErrorKind::UnknownField(f), 0, 5) if f == "notes")
        );
        assert!(matches!(error(""), (QueryErrorKind::Syntax(_), 0, 1)));
        assert!(matches!(
            error("plies > 3 and"),
            (QueryErrorKind::Syntax(_), 13, 14)
        ));
    }

    #[test]
    fn nesting_is_limited_where_it_passes_the_limit() {
        use crate::query::MAX_QUERY_DEPTH;
        let inside = |opens: &str, n: usize, closes: &str| {
            format!("{}WhiteElo > 1{}", opens.repeat(n), closes.repeat(n))
        };
        // At the limit: parses (on a test thread's stack).
        assert!(Query::parse(&inside("(", MAX_QUERY_DEPTH, ")")).is_ok());
        assert!(Query::parse(&inside("not ", MAX_QUERY_DEPTH, "")).is_ok());
        // One more: refused at the `(` (or `not`) that passes it, whatever follows.
        for (q, at, len) in [
            (inside("(", MAX_QUERY_DEPTH + 1, ")"), MAX_QUERY_DEPTH, 1),
            (inside("(", 20_000, ")"), MAX_QUERY_DEPTH, 1),
            (inside("not ", 30_000, ""), 4 * MAX_QUERY_DEPTH, 3),
            (inside("not (", 200, ")"), 5 * 128, 3),
        ] {
            let e = Query::parse(&q).unwrap_err();
            assert_eq!(
                e.kind,
                QueryErrorKind::TooDeep(MAX_QUERY_DEPTH),
                "{}",
                &q[..20]
            );
            assert_eq!((e.start, e.end), (at, at + len));
            let shown = e.render(&q);
            let lines: Vec<&str> = shown.lines().collect();
            assert_eq!(lines.len(), 3);
            assert!(
                lines[0].len() < 100 && lines[0].starts_with("..."),
                "{shown}"
            );
            let caret = lines[1].find('^').unwrap();
            assert_eq!(&lines[0][caret..caret + len], &q[at..at + len]);
            assert_eq!(lines[2], "parentheses and `not`s nested deeper than 256");
        }
    }

    #[test]
    fn long_chains_are_flat() {
        let q = vec!["WhiteElo > 1"; 100_000].join(" and ");
        let game: pgnkit_game::Game = "[WhiteElo \"2\"]\n\n*".parse().unwrap();
        assert!(
            Query::parse(&q)
                .unwrap()
                .matches(&game, &Default::default())
        );
        let q = vec!["(not WhiteElo > 1 or Black = x)"; 50_000].join(" or ");
        assert!(
            !Query::parse(&q)
                .unwrap()
                .matches(&game, &Default::default())
        );
    }

    #[test]
    fn a_short_query_is_shown_whole() {
        let e = Query::parse("(plies > 3").unwrap_err();
        assert_eq!(
            e.render("(plies > 3"),
            "(plies > 3\n          ^\nexpected `)`, `and` or `or`"
        );
    }

    /// Found by the `query` fuzz target: a word ended by a form feed parsed at the end of
    /// the query but not before `)` (the word stopped at any white space, the parser passed
    /// over ASCII white space only).
    #[test]
    fn any_white_space_that_ends_a_word_is_passed_over() {
        for query in [
            "White = Tal\u{c}",
            "(White = Tal\u{c})",
            "not (White = Tal\u{a0})",
        ] {
            assert!(Query::parse(query).is_ok(), "{query:?}");
        }
    }
}
