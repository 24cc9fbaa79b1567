//! Parsing the predicates of `query/events.rs` (issue 33): a flag alone
//! (`checkmate`), a count compared with a number (`moves > 40`),
//! `soundex FIELD = NAME`, `any_tag OP TEXT`. [`primary`] is the hook
//! `parse.rs` calls before reading a comparison; every failure carries its
//! span, as the rest of the parser's.

use nom::Parser;
use nom::bytes::complete::take_while1;
use nom::character::complete::multispace0;

use super::{Fault, Res, fail, op, string, word};
use crate::error::QueryErrorKind;
use crate::query::events::{Counted, FLAGS, Flag, Names, Predicate};
use crate::query::{Expr, Op, Value};
use crate::value::number;

/// The hook of `parse.rs`: a predicate of this module at `input` (spaces
/// already skipped), or `None` when the name there is not one of them.
pub(super) fn primary(input: &str) -> Option<Res<'_, Expr>> {
    let (rest, name) =
        take_while1::<_, _, Fault<'_>>(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .parse(input)
            .ok()?;
    if let Some(&(_, flag)) = FLAGS.iter().find(|(n, _)| *n == name) {
        return Some(flag_after(rest, name, flag));
    }
    Some(match name {
        "moves" => count(rest, Counted::Moves, "moves is a count of full moves"),
        "piece_count" => count(
            rest,
            Counted::PieceCount,
            "piece_count is a count of pieces",
        ),
        "soundex" => soundex(rest),
        "any_tag" => any_tag(rest),
        _ => return None,
    })
}

/// A flag: nothing may follow but what follows an expression.
fn flag_after<'a>(rest: &'a str, name: &str, flag: Flag) -> Res<'a, Expr> {
    let (after, _) = multispace0(rest)?;
    if op(after).is_ok() {
        let len = after.find(char::is_whitespace).unwrap_or(after.len());
        return fail(
            after,
            len,
            QueryErrorKind::Value(format!(
                "`{name}` is a predicate and takes no value: write `{name}` or `not {name}`"
            )),
        );
    }
    Ok((rest, Expr::Event(Predicate::Flag(flag))))
}

/// The operator after optional spaces, or the error listing the operators.
fn op_after(input: &str) -> Res<'_, (&str, Op)> {
    let (input, _) = multispace0(input)?;
    match op(input) {
        Ok((rest, op)) => Ok((rest, (input, op))),
        Err(_) => fail(
            input,
            1,
            QueryErrorKind::Syntax("an operator: = != < <= > >= ~ =~"),
        ),
    }
}

/// The value after optional spaces: where it starts, its text.
fn value_after(input: &str) -> Res<'_, (&str, String)> {
    let (input, _) = multispace0(input)?;
    match nom::branch::alt((string, word)).parse(input) {
        Ok((rest, text)) => Ok((rest, (input, text))),
        Err(nom::Err::Error(_)) => fail(
            input,
            1,
            QueryErrorKind::Syntax("a value: a number, a word or a \"quoted string\""),
        ),
        Err(e) => Err(e),
    }
}

/// `moves OP N`, `piece_count OP N`.
fn count<'a>(input: &'a str, what: Counted, meaning: &str) -> Res<'a, Expr> {
    let (rest, (at_op, op)) = op_after(input)?;
    if matches!(op, Op::Contains | Op::Matches) {
        return fail(
            at_op,
            if op == Op::Matches { 2 } else { 1 },
            QueryErrorKind::Value(format!("a count compares with = != < <= > >= ({meaning})")),
        );
    }
    let (rest, (at, text)) = value_after(rest)?;
    let Some(value) = number(&text) else {
        return fail(
            at,
            at.len() - rest.len(),
            QueryErrorKind::Value(format!("`{text}` is not a number ({meaning})")),
        );
    };
    Ok((rest, Expr::Event(Predicate::Count { what, op, value })))
}

/// `soundex player = NAME`, `soundex TAG = NAME`.
fn soundex(input: &str) -> Res<'_, Expr> {
    let (input, _) = multispace0(input)?;
    let names = match take_while1::<_, _, Fault<'_>>(|c: char| {
        c.is_ascii_alphanumeric() || c == '_'
    })
    .parse(input)
    {
        Ok((rest, "player")) => (rest, Names::Player),
        Ok((rest, tag)) if tag.starts_with(|c: char| c.is_ascii_uppercase()) => {
            (rest, Names::Tag(tag.to_string()))
        }
        Ok((_, other)) => {
            return fail(
                input,
                other.len(),
                QueryErrorKind::Value(format!(
                    "soundex reads `player` or a tag name (White, Black, Annotator...), not `{other}`"
                )),
            );
        }
        Err(_) => {
            return fail(
                input,
                1,
                QueryErrorKind::Syntax("`player` or a tag name after soundex"),
            );
        }
    };
    let (rest, names) = names;
    let (rest, (at_op, op)) = op_after(rest)?;
    if op != Op::Eq {
        return fail(
            at_op,
            1,
            QueryErrorKind::Syntax("`=` (soundex compares names by sound)"),
        );
    }
    let (rest, (at, text)) = value_after(rest)?;
    let codes = crate::soundex::codes(&text);
    if codes.is_empty() {
        return fail(
            at,
            at.len() - rest.len(),
            QueryErrorKind::Value(format!("`{text}` has no letter A-Z to sound")),
        );
    }
    Ok((rest, Expr::Event(Predicate::Soundex { names, codes })))
}

/// `any_tag ~ TEXT`, `any_tag =~ REGEX`, `any_tag = TEXT`.
fn any_tag(input: &str) -> Res<'_, Expr> {
    let (rest, (at_op, op)) = op_after(input)?;
    if !matches!(op, Op::Contains | Op::Matches | Op::Eq) {
        return fail(
            at_op,
            1,
            QueryErrorKind::Syntax("`~`, `=~` or `=` (any_tag holds when some tag's value does)"),
        );
    }
    let (rest, (at, text)) = value_after(rest)?;
    let value = if op == Op::Matches {
        match regex::Regex::new(&text) {
            Ok(re) => Value::Regex(re),
            Err(e) => {
                return fail(
                    at,
                    at.len() - rest.len(),
                    QueryErrorKind::Regex(e.to_string()),
                );
            }
        }
    } else {
        Value::Text(text)
    };
    Ok((rest, Expr::Event(Predicate::AnyTag { op, value })))
}
