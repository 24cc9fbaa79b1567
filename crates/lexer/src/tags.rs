//! The header-only fast path: a game's tag pairs without lexing its movetext.

use std::borrow::Cow;

use crate::byte_class::is_ws;
use crate::shapes::{at_line_start, comment_end, line_end, string_end, tag_name_end};
use crate::{LexError, LexErrorKind, Span, unescape};

/// A tag pair `[Name "value"]`, borrowed from the game's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TagPair<'a> {
    /// The tag name (`A-Z a-z 0-9 _`).
    pub name: &'a [u8],
    /// The value as written between the quotes (escapes not yet undone).
    pub raw_value: &'a [u8],
    /// From the `[` to the `]` (or to the end of the value when `]` is missing).
    pub span: Span,
}

impl<'a> TagPair<'a> {
    /// The value with `\"` and `\\` unescaped and TAB read as a space.
    pub fn value(&self) -> Cow<'a, [u8]> {
        unescape(self.raw_value)
    }
}

/// Reads the tag pairs at the start of a game (e.g. [`RawGame::bytes`](crate::RawGame::bytes))
/// and stops at the first byte of movetext, without looking further. White space, comments and
/// `%` lines between tag pairs are skipped. Lenient: spaces may be missing (`[Event"x"]`) or
/// doubled, a `]` missing at the end of the line is tolerated, and a tag pair may span lines
/// between its name and value. Errors (an unterminated string or comment, a `[` without a name
/// or without a value, something other than `]` after the value such as unescaped quotes) are
/// items too; reading goes on with the next line.
///
/// ```
/// use pgnkit_lexer::tags;
/// let game = b"[Event \"F/S \\\"Return\\\"\"]\n[Site\"Belgrade\"]\n\n1. e4 *";
/// let pairs: Vec<_> = tags(game).collect::<Result<_, _>>().unwrap();
/// assert_eq!(pairs.len(), 2);
/// assert_eq!(&*pairs[0].value(), b"F/S \"Return\"");
/// assert_eq!(pairs[1].name, b"Site");
/// ```
pub fn tags(game: &[u8]) -> Tags<'_> {
    let pos = crate::byte_class::bom_len(game);
    Tags {
        input: game,
        pos,
        done: false,
    }
}

/// Iterator of a game's tag pairs; see [`tags`].
#[derive(Clone, Debug)]
pub struct Tags<'a> {
    input: &'a [u8],
    pos: usize,
    done: bool,
}

impl<'a> Tags<'a> {
    /// Offset where reading stopped (the start of the movetext once the iterator is done).
    pub fn offset(&self) -> usize {
        self.pos
    }

    fn error(
        &mut self,
        kind: LexErrorKind,
        start: usize,
        end: usize,
    ) -> Option<Result<TagPair<'a>, LexError>> {
        self.pos = end.max(start + 1);
        Some(Err(LexError {
            kind,
            span: Span::new(start, end.max(start + 1).min(self.input.len())),
        }))
    }

    fn skip(&mut self, pred: impl Fn(u8) -> bool) {
        while self.input.get(self.pos).is_some_and(|&b| pred(b)) {
            self.pos += 1;
        }
    }
}

impl<'a> Iterator for Tags<'a> {
    type Item = Result<TagPair<'a>, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        let input = self.input;
        while !self.done {
            self.skip(is_ws);
            let start = self.pos;
            match input.get(start) {
                None => self.done = true,
                Some(b'{') => match comment_end(input, start) {
                    (end, true) => self.pos = end,
                    (end, false) => {
                        return self.error(LexErrorKind::UnterminatedComment, start, end);
                    }
                },
                Some(b';') => self.pos = line_end(input, start),
                Some(b'%') if at_line_start(input, start) => self.pos = line_end(input, start),
                Some(b'[') => {
                    self.pos += 1;
                    self.skip(|b| b == b' ' || b == b'\t');
                    let name_start = self.pos;
                    self.pos = tag_name_end(input, self.pos);
                    let name = input.get(name_start..self.pos).unwrap_or_default();
                    if name.is_empty() {
                        let end = line_end(input, start);
                        return self.error(LexErrorKind::UnexpectedCharacter, start, end);
                    }
                    self.skip(is_ws);
                    let quote = self.pos;
                    if input.get(quote) != Some(&b'"') {
                        let end = line_end(input, start);
                        return self.error(LexErrorKind::UnexpectedCharacter, start, end);
                    }
                    let value_end = match string_end(input, quote) {
                        Ok(end) => end,
                        Err(end) => {
                            return self.error(LexErrorKind::UnterminatedString, quote, end);
                        }
                    };
                    self.pos = value_end;
                    self.skip(|b| b == b' ' || b == b'\t');
                    match input.get(self.pos) {
                        Some(b']') => self.pos += 1,
                        None | Some(b'\n' | b'\r') => {}
                        // `[White ""Expert""]`: unescaped quotes. The pair is an error; the rest
                        // of its line goes with it.
                        Some(_) => {
                            let end = line_end(input, start);
                            return self.error(LexErrorKind::UnexpectedCharacter, start, end);
                        }
                    }
                    let raw_value = input.get(quote + 1..value_end - 1).unwrap_or_default();
                    return Some(Ok(TagPair {
                        name,
                        raw_value,
                        span: Span::new(start, self.pos),
                    }));
                }
                Some(_) => self.done = true,
            }
        }
        None
    }
}

impl std::iter::FusedIterator for Tags<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(game: &[u8]) -> Vec<Result<(String, String), LexErrorKind>> {
        tags(game)
            .map(|t| {
                t.map(|t| {
                    (
                        String::from_utf8_lossy(t.name).into_owned(),
                        String::from_utf8_lossy(&t.value()).into_owned(),
                    )
                })
                .map_err(|e| e.kind)
            })
            .collect()
    }

    #[test]
    fn lenient_tag_pairs() {
        let got = names(
            b"{c}\n[A\"1\"]\n%x\n\n[ B   \"2\" ] ; c\n[C\n\"3\"\n[D \"\\\\\"]\n1. e4 [E \"x\"]",
        );
        let want = [("A", "1"), ("B", "2"), ("C", "3"), ("D", "\\")];
        assert_eq!(got, want.map(|(a, b)| Ok((a.to_owned(), b.to_owned()))));
    }

    #[test]
    fn errors_then_recovery() {
        let got = names(b"[A \"open\n[B \"ok\"]\n[]\n[C x]\n[D \"1\"]\n*");
        assert_eq!(got.len(), 5);
        assert_eq!(got[0], Err(LexErrorKind::UnterminatedString));
        assert!(got[1].is_ok());
        assert_eq!(got[2], Err(LexErrorKind::UnexpectedCharacter));
        assert_eq!(got[3], Err(LexErrorKind::UnexpectedCharacter));
        assert_eq!(got[4], Ok(("D".into(), "1".into())));
        let mut it = tags(b"[A \"1\"]\n\n1. e4");
        assert!(it.next().is_some() && it.next().is_none());
        assert_eq!(it.offset(), 9);
    }

    #[test]
    fn unescaped_quotes_run_to_the_last_quote_of_the_line() {
        let got = names(b"[White \"\"Socrates Expert\"\"]\n[Black \"Ivanov\"]\n\n*");
        assert_eq!(
            got,
            [
                Ok(("White".into(), "\"Socrates Expert\"".into())),
                Ok(("Black".into(), "Ivanov".into()))
            ]
        );
        // Without `"]` at the line's end the value ends at its second quote: an error.
        let got = names(b"[White \"\"Socrates Expert\" x\n[Black \"Ivanov\"]\n\n*");
        assert_eq!(
            got,
            [
                Err(LexErrorKind::UnexpectedCharacter),
                Ok(("Black".into(), "Ivanov".into()))
            ]
        );
    }

    #[test]
    fn span_and_unterminated_comment() {
        let t = tags(b"  [A \"1\"]").next().unwrap().unwrap();
        assert_eq!(t.span, Span::new(2, 9));
        assert_eq!(
            names(b"{ x\n[A \"1\"]")[0],
            Err(LexErrorKind::UnterminatedComment)
        );
        assert_eq!(names(b"{ x\n[A \"1\"]").len(), 2);
    }
}
