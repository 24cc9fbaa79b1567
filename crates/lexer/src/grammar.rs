//! The grammar rules of PGN tokens (standard sections 7 and 18, plus the forms real files
//! hold), one small nom parser per rule. Each takes the input from the token's first byte and
//! returns the rest and the token kind. The [`Lexer`](crate::Lexer) picks the rule from the
//! first byte's class; nom types stay inside this module.

use nom::bytes::complete::{tag, take_till, take_while1};
use nom::{IResult, Parser};

use crate::byte_class::{CLASS, CONTROL, is_symbol_continue};
use crate::shapes::{char_len, line_end, match_marker, tag_shape};
use crate::{LexErrorKind, Outcome, Suffix, TokenKind};

/// Symbols, integers and NAGs longer than this many bytes are [`LexErrorKind::TokenTooLong`]
/// errors (strings and comments have no limit). Anything from 256 bytes up to this limit is read
/// and gets a warning (the standard's limit is 255 characters).
pub const MAX_TOKEN_LEN: usize = 1 << 16;

/// What every rule returns: the rest of the input and the kind of the token it read.
pub(crate) type Rule<'a> = IResult<&'a [u8], TokenKind>;

/// Splits `i` after `n` bytes (clamped), with `kind`.
#[inline(always)]
fn take(i: &[u8], n: usize, kind: TokenKind) -> Rule<'_> {
    let n = n.clamp(1, i.len().max(1)).min(i.len());
    Ok((i.get(n..).unwrap_or_default(), kind))
}

/// A symbol (standard 7): a letter or digit, then `A-Z a-z 0-9 _ + # = : - /`. An `e.p.`
/// written after a move (`exd6e.p.`) or alone (`e.p.`) is part of the symbol. `Z0` is a null
/// move.
pub(crate) fn symbol(i: &[u8]) -> Rule<'_> {
    let (mut rest, text) = take_while1(is_symbol_continue).parse(i)?;
    let mut len = text.len();
    if text.last() == Some(&b'e')
        && let Ok((after, _)) = tag::<_, _, nom::error::Error<&[u8]>>(&b".p."[..]).parse(rest)
    {
        rest = after;
        len += 3;
    }
    let kind = if len > MAX_TOKEN_LEN {
        TokenKind::Error(LexErrorKind::TokenTooLong)
    } else if text == b"Z0" && len == 2 {
        TokenKind::NullMove
    } else {
        TokenKind::Symbol
    };
    Ok((rest, kind))
}

/// At a digit: a termination marker (`1-0`, `0-1`, `1/2-1/2` and variants), else an integer
/// (digits not followed by a symbol character; `0000` is a null move), else a symbol (`0-0`,
/// `0-0-0+`, `e2e4`-like forms starting with a digit).
pub(crate) fn number(i: &[u8]) -> Rule<'_> {
    if let Some((len, outcome)) = match_marker(i, 0) {
        return take(i, len, TokenKind::Termination(outcome));
    }
    let (rest, digits) = take_while1(|b: u8| b.is_ascii_digit()).parse(i)?;
    match rest.first() {
        Some(&b) if is_symbol_continue(b) => symbol(i),
        _ if digits == b"0000" => Ok((rest, TokenKind::NullMove)),
        _ if digits.len() > MAX_TOKEN_LEN => {
            Ok((rest, TokenKind::Error(LexErrorKind::TokenTooLong)))
        }
        _ => Ok((rest, TokenKind::Integer)),
    }
}

/// `*`, the unknown-result marker.
pub(crate) fn asterisk(i: &[u8]) -> Rule<'_> {
    let (rest, _) = tag(&b"*"[..]).parse(i)?;
    Ok((rest, TokenKind::Termination(Outcome::Unknown)))
}

/// A string: `"` up to the next unescaped `"` on the same line (`\"` and `\\` are escapes,
/// any other backslash is plain). When the line ends first, an unterminated-string error up to
/// (not including) the line end.
///
/// Byte by byte, as the reference for the word-at-a-time scan the lexer and the splitter use
/// ([`string_end`](crate::shapes::string_end)).
///
/// `tag_value`: the string follows `[Name`, so an unescaped quote inside may run it to the
/// line's last quote ([`value_end`](crate::shapes::value_end)).
pub(crate) fn string(i: &[u8], tag_value: bool) -> Rule<'_> {
    let (mut rest, _) = tag(&b"\""[..]).parse(i)?;
    let unterminated = TokenKind::Error(LexErrorKind::UnterminatedString);
    loop {
        let (at, _) = take_till(|b| matches!(b, b'"' | b'\\' | b'\n' | b'\r')).parse(rest)?;
        rest = match at {
            [b'"', ..] => {
                // An unescaped quote inside a tag value may run it to the line's last quote.
                let close = i.len() - at.len();
                let end = crate::shapes::value_end(i, close, || tag_value);
                return Ok((i.get(end..).unwrap_or_default(), TokenKind::String));
            }
            [b'\\', b'"' | b'\\', after @ ..] | [b'\\', after @ ..] => after,
            _ => return Ok((at, unterminated)),
        };
    }
}

/// A brace comment `{ ... }`. It is unterminated when the input ends, or a line that starts like
/// a tag pair comes, before its `}`; the error token then ends before that line.
///
/// One line at a time, as the reference for the word-at-a-time scan the lexer and the splitter
/// use ([`comment_end`](crate::shapes::comment_end)).
pub(crate) fn brace_comment(i: &[u8]) -> Rule<'_> {
    let (mut rest, _) = tag(&b"{"[..]).parse(i)?;
    let unterminated = TokenKind::Error(LexErrorKind::UnterminatedComment);
    loop {
        let (at, _) = take_till(|b| matches!(b, b'}' | b'\n' | b'\r')).parse(rest)?;
        rest = match at {
            [b'}', after @ ..] => return Ok((after, TokenKind::BraceComment)),
            [_, after @ ..] if tag_shape(after, 0).is_some() => {
                return Ok((after, unterminated));
            }
            [_, after @ ..] => after,
            [] => return Ok((at, unterminated)),
        };
    }
}

/// A `;` comment, up to (not including) the end of its line.
pub(crate) fn line_comment(i: &[u8]) -> Rule<'_> {
    take(i, line_end(i, 0), TokenKind::LineComment)
}

/// A `%` escape line (the caller checked that the `%` is in the first column), up to (not
/// including) the end of its line.
pub(crate) fn escape_line(i: &[u8]) -> Rule<'_> {
    take(i, line_end(i, 0), TokenKind::Escape)
}

/// A NAG: `$` and digits. A `$` without a digit is an error of one byte.
pub(crate) fn nag(i: &[u8]) -> Rule<'_> {
    let (rest, _) = tag(&b"$"[..]).parse(i)?;
    match take_while1::<_, _, nom::error::Error<&[u8]>>(|b: u8| b.is_ascii_digit()).parse(rest) {
        Ok((after, digits)) if digits.len() > MAX_TOKEN_LEN => {
            Ok((after, TokenKind::Error(LexErrorKind::TokenTooLong)))
        }
        Ok((after, _)) => Ok((after, TokenKind::Nag)),
        Err(_) => Ok((rest, TokenKind::Error(LexErrorKind::EmptyNag))),
    }
}

/// A run of periods (`.` or the `...` of a black move number).
pub(crate) fn periods(i: &[u8]) -> Rule<'_> {
    let (rest, _) = take_while1(|b| b == b'.').parse(i)?;
    Ok((rest, TokenKind::Period))
}

/// A suffix annotation: a run of `!` and `?` that is one of `!` `?` `!!` `??` `!?` `?!`;
/// any other run (`!!!`, `?!?`) is an error.
pub(crate) fn suffix(i: &[u8]) -> Rule<'_> {
    let (rest, run) = take_while1(|b| b == b'!' || b == b'?').parse(i)?;
    let kind = match Suffix::from_bytes(run) {
        Some(s) => TokenKind::Suffix(s),
        None => TokenKind::Error(LexErrorKind::InvalidSuffix),
    };
    Ok((rest, kind))
}

/// At `-`: the run of symbol characters; `--` is a null move, anything else an error.
pub(crate) fn dash(i: &[u8]) -> Rule<'_> {
    let (rest, run) = take_while1(is_symbol_continue).parse(i)?;
    let kind = if run == b"--" {
        TokenKind::NullMove
    } else {
        TokenKind::Error(LexErrorKind::UnexpectedCharacter)
    };
    Ok((rest, kind))
}

/// At `@`: the run of `@`; `@@@@` is a null move, anything else an error.
pub(crate) fn at_signs(i: &[u8]) -> Rule<'_> {
    let (rest, run) = take_while1(|b| b == b'@').parse(i)?;
    let kind = if run == b"@@@@" {
        TokenKind::NullMove
    } else {
        TokenKind::Error(LexErrorKind::UnexpectedCharacter)
    };
    Ok((rest, kind))
}

/// A run of control characters (an error).
pub(crate) fn control(i: &[u8]) -> Rule<'_> {
    let (rest, _) = take_while1(|b| CLASS[b as usize] == CONTROL).parse(i)?;
    Ok((rest, TokenKind::Error(LexErrorKind::ControlCharacter)))
}

/// At a byte of 0x80 or above: a marker starting with `½` (`½-½`), else one unexpected
/// character (a whole UTF-8 character when it is valid, else one byte).
pub(crate) fn high(i: &[u8]) -> Rule<'_> {
    if let Some((len, outcome)) = match_marker(i, 0) {
        return take(i, len, TokenKind::Termination(outcome));
    }
    take(
        i,
        char_len(i, 0),
        TokenKind::Error(LexErrorKind::UnexpectedCharacter),
    )
}

/// A symbol character that cannot start a symbol (`_ + # = : /`): the run of symbol
/// characters, as one error (so `+-` or `=` is one error token).
pub(crate) fn stray_symbol_chars(i: &[u8]) -> Rule<'_> {
    let (rest, _) = take_while1(is_symbol_continue).parse(i)?;
    Ok((rest, TokenKind::Error(LexErrorKind::UnexpectedCharacter)))
}

/// Any other byte: one unexpected character.
pub(crate) fn unexpected(i: &[u8]) -> Rule<'_> {
    take(
        i,
        char_len(i, 0),
        TokenKind::Error(LexErrorKind::UnexpectedCharacter),
    )
}
