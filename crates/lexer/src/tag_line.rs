//! The usual tag line, `[Name "value"]`, read in one go: the single pass's fast path for the
//! lines of a tag section (nearly all of them in real files).
//!
//! A line of that shape gives the same four tokens whatever reads it (the [`Lexer`](crate::Lexer),
//! the single pass's general tag pair, the splitter's tag shape): `[`, the name (a symbol), the
//! value (a plain string) and `]`, with no warning. [`plain_tag_line`] accepts only lines whose
//! bytes make that sure and leaves every other line, unread, to the general code, so every
//! warning and error stays as it was.

use crate::lexer::STANDARD_LIMIT;
use crate::shapes::string_stop;
use crate::swar;

/// Where the tokens of a usual tag line are (see [`plain_tag_line`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagLine {
    /// The end of the name (the space after it); the name starts after the `[`.
    pub(crate) name_end: usize,
    /// The value's opening quote.
    pub(crate) quote: usize,
    /// The `]` (the value's closing quote is right before it).
    pub(crate) close: usize,
}

/// The tag pair whose `[` is at `open`, when it has the usual shape: `[`, a letter and up to
/// fourteen more tag-name bytes (`A-Z a-z 0-9 _`), one space, a `"`, a value with no `"`, `\\` or
/// control byte (TAB, CR, LF among them) and at most the standard's length, then `"]`. The name
/// is not `Z` and one more byte (`Z0` is a null move to the lexer). Anything else, `None`: the
/// general code reads it.
///
/// Those bytes are the lexer's four tokens with no warning: the name ends at the space (not a
/// symbol byte nor a `.`), is not over the standard's length, and the value is a plain string
/// closed by `"]` (see `plain_string_end`).
#[inline(always)]
pub(crate) fn plain_tag_line(buf: &[u8], open: usize) -> Option<TagLine> {
    // The name, and the space after it, in the sixteen bytes after the `[`.
    let w = word(buf, open + 1)?;
    let first = w as u8;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    // At least 1: the first byte is a letter.
    let len = match swar::first(not_name(w)) {
        Some(len) => len,
        None => 8 + swar::first(not_name(word(buf, open + 9)?))?,
    };
    if first == b'Z' && len == 2 {
        return None;
    }
    let name_end = open + 1 + len;
    if buf.get(name_end..name_end + 2)? != b" \"" {
        return None;
    }
    let quote = name_end + 1;
    let stop = string_stop(buf, quote + 1);
    if buf.get(stop..stop + 2)? != b"\"]" {
        return None;
    }
    let close = stop + 1;
    (close - quote <= STANDARD_LIMIT + 2).then_some(TagLine {
        name_end,
        quote,
        close,
    })
}

/// The eight bytes at `at`, if the input holds eight there.
#[inline(always)]
fn word(buf: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(*buf.get(at..)?.first_chunk::<8>()?))
}

/// Flags the bytes of `w` that are not tag-name bytes (exactly: see [`swar::between`]).
#[inline(always)]
fn not_name(w: u64) -> u64 {
    !(swar::between(w, b'0', b'9')
        | swar::between(w | swar::splat(0x20), b'a', b'z')
        | swar::between(w, b'_', b'_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Lexer, Span, TokenKind};

    /// The fast path's reading of the tag line at the start of `line`, checked against the
    /// lexer's tokens and warnings for the same bytes when it reads it.
    fn fast(line: &[u8]) -> Option<TagLine> {
        let t = plain_tag_line(line, 0)?;
        let mut lexer = Lexer::new(line);
        let tokens: Vec<_> = lexer.by_ref().take(4).map(|t| (t.kind, t.span)).collect();
        assert_eq!(
            tokens,
            [
                (TokenKind::TagOpen, Span::new(0, 1)),
                (TokenKind::Symbol, Span::new(1, t.name_end)),
                (TokenKind::String, Span::new(t.quote, t.close)),
                (TokenKind::TagClose, Span::new(t.close, t.close + 1)),
            ],
            "{:?}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(lexer.take_warnings(), [], "{line:?}");
        Some(t)
    }

    #[test]
    fn the_usual_lines_are_read() {
        let line = |name_end, quote, close| {
            Some(TagLine {
                name_end,
                quote,
                close,
            })
        };
        assert_eq!(fast(b"[WhiteElo \"1500\"]\n"), line(9, 10, 16));
        assert_eq!(fast(b"[Abcdefg \"1\"]\n"), line(8, 9, 12));
        assert_eq!(fast(b"[WhiteRatingDiff \"+5\"]\n"), line(16, 17, 21));
        assert_eq!(fast(b"[Event \"Rated\"]\n["), line(6, 7, 14));
        assert_eq!(fast(b"[Site \"\"]\n"), line(5, 6, 8), "empty value");
        assert_eq!(fast(b"[Round \"1\"]\r\n"), line(6, 7, 10), "CRLF");
        assert_eq!(
            fast("[White \"Łukasz Müller\"]\n".as_bytes()),
            line(6, 7, 24),
            "non-ASCII value"
        );
        assert_eq!(
            fast(b"[ECO \"B01\"]"),
            line(4, 5, 10),
            "at the end of the input"
        );
        // Fewer than eight bytes after the `[`: the general code reads it.
        assert_eq!(
            plain_tag_line(b"[A \"x\"]", 0),
            None,
            "at the end of the input"
        );
        assert_eq!(fast(b"[A \"x\"]\n\n1."), line(2, 3, 6));
        // `Z` and one more byte may be the null move `Z0`: the general code reads it.
        assert_eq!(plain_tag_line(b"[Z1 \"x\"]\n", 0), None);
        assert_eq!(fast(b"[Z12 \"x\"]\n"), line(4, 5, 8));
        assert_eq!(fast(b"[Black_2 \"x\"]"), line(8, 9, 12));
    }

    #[test]
    fn other_lines_are_left_to_the_general_code() {
        for line in [
            &b"[White \"a\\\"b\"]\n"[..],
            b"[White \"a\\\\b\"]\n",
            b"[White \"a\"\n",
            b"[White \"a\" ]\n",
            b"[White \"a\"b\"]\n",
            b"[White \"a\n",
            b"[White \"a\tb\"]\n",
            b"[White \"a\rb\"]\n",
            b"[White \"a",
            b"[White \"a\"",
            b"[White  \"a\"]\n",
            b"[White\t\"a\"]\n",
            b"[White\"a\"]\n",
            b"[Z0 \"a\"]\n",
            b"[1 \"a\"]\n",
            b"[_a \"a\"]\n",
            b"[ White \"a\"]\n",
            b"[White-2 \"a\"]\n",
            b"[White. \"a\"]\n",
            b"[WhiteFideIdentity \"1\"]\n",
            b"[WhiteRatingDiff2 \"1\"]\n",
            b"[WhiteElo",
            b"[WhiteElo \"1",
            b"[A \"x\"",
            b"[A \"",
        ] {
            assert_eq!(
                plain_tag_line(line, 0),
                None,
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
        let long = format!("[A \"{}\"]\n", "x".repeat(STANDARD_LIMIT));
        assert!(fast(long.as_bytes()).is_some());
        let too_long = format!("[A \"{}\"]\n", "x".repeat(STANDARD_LIMIT + 1));
        assert_eq!(plain_tag_line(too_long.as_bytes(), 0), None);
    }

    #[test]
    fn every_byte_in_the_name_and_the_value() {
        // Whatever the byte, a line read by the fast path is read as the lexer reads it.
        for b in 0..=255u8 {
            for at in 1..18 {
                let mut line = b"[Abcdefghijklmno \"value\"]\n".to_vec();
                line[at] = b;
                fast(&line);
            }
            for at in 5..30 {
                let mut line = b"[Ab \"valuevaluevaluevaluevalue\"]\n[B".to_vec();
                line[at] = b;
                fast(&line);
            }
        }
    }
}
