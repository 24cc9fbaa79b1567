//! The grammar of the position predicates (documented on
//! [`Query`](crate::Query)): `reaches`, `material`, `pattern`, `imbalance`, `hash`,
//! `sequence`, `at (...)` with `stm`, and the `in_variations` prefix. Each
//! value is read here (a FEN, a balance, a board pattern, moves), so a
//! fault is shown with a caret under its character.

use nom::Parser;
use nom::character::complete::{char, multispace0};

use super::{Fault, Res, deeper, fail, keyword, quoted_len, string_after};
use crate::error::QueryErrorKind;
use crate::imbalance::Imbalance;
use crate::material::Material;
use crate::needs::Needs;
use crate::pattern::Pattern;
use crate::position_key::PositionKey;
use crate::positions::{Positional, Test, What};
use crate::query::Expr;
use crate::sequence::Sequence;

/// A position predicate at `input` (after spaces), or `None` when none starts there.
pub(super) fn predicate(input: &str, depth: usize) -> Res<'_, Option<Expr>> {
    let (input, _) = multispace0(input)?;
    let (rest, variations) = match keyword("in_variations").parse(input) {
        Ok((after, _)) => (after, true),
        Err(_) => (input, false),
    };
    let (rest, what) = match keyword("sequence").parse(rest) {
        Ok((after, _)) => {
            let (rest, (at, text)) = string_after(after, "moves in double quotes")?;
            match Sequence::parse(&text) {
                Ok(seq) => (rest, Some(What::Sequence(seq))),
                Err((off, why)) => return inside(at, rest, off, QueryErrorKind::Sequence(why)),
            }
        }
        Err(_) => match keyword("at").parse(rest) {
            Ok((after, _)) => {
                let (after, _) = multispace0(after)?;
                let Ok((inner, _)) = char::<_, Fault<'_>>('(').parse(after) else {
                    return fail(after, 1, QueryErrorKind::Syntax("`(` after `at`"));
                };
                let depth = deeper(after, 1, depth)?;
                let (inner, test) = test_or(inner, depth)?;
                let (inner, _) = multispace0(inner)?;
                match char::<_, Fault<'_>>(')').parse(inner) {
                    Ok((rest, _)) => (rest, Some(What::Test(test))),
                    Err(_) => return fail(inner, 1, QueryErrorKind::Syntax("`)`, `and` or `or`")),
                }
            }
            Err(_) => {
                if let Ok((_, _)) = keyword("stm").parse(rest) {
                    let (at, _) = multispace0(rest)?;
                    return fail(at, 3, QueryErrorKind::StmOutsideAt);
                }
                let (rest, test) = atom(rest)?;
                (rest, test.map(What::Test))
            }
        },
    };
    match what {
        Some(what) => Ok((
            rest,
            Some(Expr::Position(Box::new(Positional { what, variations }))),
        )),
        None if variations => fail(
            rest.trim_start(),
            1,
            QueryErrorKind::Syntax("a position predicate after `in_variations`"),
        ),
        None => Ok((input, None)),
    }
}

/// A fault at byte `off` of the quoted value starting at `at` (the `"`), ending before `rest`.
fn inside<'a, T>(at: &'a str, rest: &'a str, off: usize, kind: QueryErrorKind) -> Res<'a, T> {
    let len = quoted_len(at, rest);
    let start = (1 + off).min(len.saturating_sub(1));
    fail(&at[start..], 1, kind)
}

/// A test of one position, or `None` when none starts at `input`.
fn atom(input: &str) -> Res<'_, Option<Test>> {
    if let Ok((after, _)) = keyword("reaches").parse(input) {
        let (rest, (at, fen)) = string_after(after, "a FEN in double quotes")?;
        return match pgnkit_chess::Position::from_fen(&fen) {
            Ok(pos) => Ok((
                rest,
                Some(Test::Reaches(
                    Box::new((PositionKey::of(&pos), Needs::of_board(pos.board()))),
                    pos.polyglot_key(),
                )),
            )),
            Err(e) => fail(at, quoted_len(at, rest), QueryErrorKind::Fen(e.to_string())),
        };
    }
    if let Ok((after, _)) = keyword("material").parse(input) {
        let (rest, (at, text)) = string_after(after, "a material balance in double quotes")?;
        return match Material::parse(&text) {
            Ok(m) => Ok((rest, Some(Test::Material(m)))),
            Err((_, why)) => fail(at, quoted_len(at, rest), QueryErrorKind::Material(why)),
        };
    }
    if let Ok((after, _)) = keyword("pattern").parse(input) {
        let mut patterns = Vec::new();
        let mut rest = after;
        loop {
            let (after, (at, text)) = string_after(rest, "a board pattern in double quotes")?;
            match Pattern::parse(&text) {
                Ok(p) => patterns.push(p),
                Err((off, why)) => return inside(at, after, off, QueryErrorKind::Pattern(why)),
            }
            rest = after;
            let (after, _) = multispace0(rest)?;
            match char::<_, Fault<'_>>(',').parse(after) {
                Ok((after, _)) => rest = after,
                Err(_) => break,
            }
        }
        return Ok((rest, Some(Test::Pattern(Pattern::any_of(patterns)))));
    }
    if let Ok((after, _)) = keyword("hash").parse(input) {
        let (at, _) = multispace0(after)?;
        let len = at
            .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
            .unwrap_or(at.len());
        let word = &at[..len];
        let digits = word
            .strip_prefix("0x")
            .or_else(|| word.strip_prefix("0X"))
            .unwrap_or(word);
        return match u64::from_str_radix(digits, 16) {
            Ok(key) if !digits.is_empty() && !digits.starts_with('+') => {
                Ok((&at[len..], Some(Test::Hash(key))))
            }
            _ => fail(
                at,
                len.max(1),
                QueryErrorKind::Syntax(
                    "a Polyglot key in hexadecimal after `hash`, as 0x463b96181691fc9c",
                ),
            ),
        };
    }
    if let Ok((after, _)) = keyword("imbalance").parse(input) {
        let (after, first) = colour(after).map_or((after, None), |(a, c)| (a, Some(c)));
        let (rest, (at, text)) =
            string_after(after, "an imbalance in double quotes, as \"R vs BN\"")?;
        return match Imbalance::parse(&text) {
            Ok(i) => Ok((rest, Some(Test::Imbalance(i, first)))),
            Err((off, why)) => inside(at, rest, off, QueryErrorKind::Imbalance(why)),
        };
    }
    Ok((input, None))
}

/// `white` or `black`.
fn colour(input: &str) -> Result<(&str, pgnkit_chess::Color), ()> {
    if let Ok((after, _)) = keyword("white").parse(input) {
        return Ok((after, pgnkit_chess::Color::White));
    }
    if let Ok((after, _)) = keyword("black").parse(input) {
        return Ok((after, pgnkit_chess::Color::Black));
    }
    Err(())
}

fn test_or(input: &str, depth: usize) -> Res<'_, Test> {
    let (mut rest, first) = test_and(input, depth)?;
    let mut all = vec![first];
    while let Ok((after, _)) = keyword("or").parse(rest) {
        let (after, next) = test_and(after, depth)?;
        all.push(next);
        rest = after;
    }
    Ok((
        rest,
        if all.len() == 1 {
            all.remove(0)
        } else {
            Test::Or(all)
        },
    ))
}

fn test_and(input: &str, depth: usize) -> Res<'_, Test> {
    let (mut rest, first) = test_not(input, depth)?;
    let mut all = vec![first];
    while let Ok((after, _)) = keyword("and").parse(rest) {
        let (after, next) = test_not(after, depth)?;
        all.push(next);
        rest = after;
    }
    Ok((
        rest,
        if all.len() == 1 {
            all.remove(0)
        } else {
            Test::And(all)
        },
    ))
}

fn test_not(input: &str, depth: usize) -> Res<'_, Test> {
    let (input, _) = multispace0(input)?;
    if let Ok((after, _)) = keyword("not").parse(input) {
        let depth = deeper(input, 3, depth)?;
        let (rest, inner) = test_not(after, depth)?;
        return Ok((rest, Test::Not(Box::new(inner))));
    }
    if let Ok((after, _)) = char::<_, Fault<'_>>('(').parse(input) {
        let depth = deeper(input, 1, depth)?;
        let (after, inner) = test_or(after, depth)?;
        let (after, _) = multispace0(after)?;
        return match char::<_, Fault<'_>>(')').parse(after) {
            Ok((rest, _)) => Ok((rest, inner)),
            Err(_) => fail(after, 1, QueryErrorKind::Syntax("`)`, `and` or `or`")),
        };
    }
    if let Ok((after, _)) = keyword("stm").parse(input) {
        let (after, _) = multispace0(after)?;
        return match colour(after) {
            Ok((rest, c)) => Ok((rest, Test::ToMove(c))),
            Err(()) => fail(
                after,
                1,
                QueryErrorKind::Syntax("`white` or `black` after `stm`"),
            ),
        };
    }
    match atom(input)? {
        (rest, Some(test)) => Ok((rest, test)),
        (_, None) => fail(
            input,
            input
                .find(char::is_whitespace)
                .unwrap_or(input.len())
                .max(1),
            QueryErrorKind::Syntax(
                "a test of one position: reaches, material, pattern, imbalance, hash or stm",
            ),
        ),
    }
}
