//! Tokens: their kinds, spans and borrowed text, and the values some of them carry.

use std::borrow::Cow;
use std::fmt;

use crate::{LexError, LexErrorKind, Span};

/// The result a termination marker stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, unfinished or abandoned.
    Unknown,
}

impl Outcome {
    /// The standard marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }

    /// The outcome of a standard marker (`1-0`, `0-1`, `1/2-1/2`, `*`) written exactly so, as
    /// a Result tag must be; `None` for anything else, variants included.
    pub fn from_standard(text: &[u8]) -> Option<Outcome> {
        match text {
            b"1-0" => Some(Outcome::WhiteWins),
            b"0-1" => Some(Outcome::BlackWins),
            b"1/2-1/2" => Some(Outcome::Draw),
            b"*" => Some(Outcome::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A suffix annotation (standard 8.2.3.8), each equivalent to a NAG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `!` = `$1`.
    Good,
    /// `?` = `$2`.
    Mistake,
    /// `!!` = `$3`.
    Brilliant,
    /// `??` = `$4`.
    Blunder,
    /// `!?` = `$5`.
    Speculative,
    /// `?!` = `$6`.
    Dubious,
}

impl Suffix {
    /// The suffix written `text`, if it is one of the six.
    pub fn from_bytes(text: &[u8]) -> Option<Suffix> {
        Some(match text {
            b"!" => Suffix::Good,
            b"?" => Suffix::Mistake,
            b"!!" => Suffix::Brilliant,
            b"??" => Suffix::Blunder,
            b"!?" => Suffix::Speculative,
            b"?!" => Suffix::Dubious,
            _ => return None,
        })
    }

    /// The equivalent NAG, `1` to `6`.
    pub const fn nag(self) -> u8 {
        match self {
            Suffix::Good => 1,
            Suffix::Mistake => 2,
            Suffix::Brilliant => 3,
            Suffix::Blunder => 4,
            Suffix::Speculative => 5,
            Suffix::Dubious => 6,
        }
    }

    /// How it is written.
    pub const fn as_str(self) -> &'static str {
        match self {
            Suffix::Good => "!",
            Suffix::Mistake => "?",
            Suffix::Brilliant => "!!",
            Suffix::Blunder => "??",
            Suffix::Speculative => "!?",
            Suffix::Dubious => "?!",
        }
    }
}

/// What a token is. The lexer knows nothing of chess: a SAN move, a castling `O-O`/`0-0`, a
/// UCI move, a tag name and an en passant marker (`e.p.`, `ep`, also glued: `exd6e.p.`) are all
/// [`TokenKind::Symbol`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `[`
    TagOpen,
    /// `]`
    TagClose,
    /// `(`
    VariationOpen,
    /// `)`
    VariationClose,
    /// `<` (reserved by the standard)
    AngleOpen,
    /// `>` (reserved by the standard)
    AngleClose,
    /// A `"` string; the text keeps the quotes and escapes, see [`Token::string_value`].
    String,
    /// A run of digits not followed by a symbol character (a move number, or the start of
    /// `12.`).
    Integer,
    /// A run of one or more `.` (so `12...` is an integer and one period token of three bytes).
    Period,
    /// `$` and digits; see [`Token::nag`].
    Nag,
    /// A symbol: a letter or digit followed by letters, digits and `_ + # = : - /` (standard
    /// 7), plus a glued or separate `e.p.`.
    Symbol,
    /// One of `!` `?` `!!` `??` `!?` `?!`, glued to a move or separate.
    Suffix(Suffix),
    /// `{ ... }`, braces included; see [`Token::comment_text`].
    BraceComment,
    /// `;` up to the end of its line (line end excluded).
    LineComment,
    /// A `%` escape line: `%` in the first column up to the end of the line (line end excluded).
    Escape,
    /// A termination marker: `1-0`, `0-1`, `1/2-1/2`, `*`, or a variant (`½-½` in UTF-8 or
    /// Latin-1, `1–0` with an en dash, `0:1`, `1:0`); the text says which was written.
    Termination(Outcome),
    /// A null move: `--`, `Z0`, `0000` or `@@@@` (exactly; the text says which).
    NullMove,
    /// Bytes that form no token. Lexing goes on after them.
    Error(LexErrorKind),
}

impl TokenKind {
    /// A short stable name, used in token dumps.
    pub const fn name(self) -> &'static str {
        match self {
            TokenKind::TagOpen => "tag-open",
            TokenKind::TagClose => "tag-close",
            TokenKind::VariationOpen => "var-open",
            TokenKind::VariationClose => "var-close",
            TokenKind::AngleOpen => "angle-open",
            TokenKind::AngleClose => "angle-close",
            TokenKind::String => "string",
            TokenKind::Integer => "integer",
            TokenKind::Period => "period",
            TokenKind::Nag => "nag",
            TokenKind::Symbol => "symbol",
            TokenKind::Suffix(_) => "suffix",
            TokenKind::BraceComment => "comment",
            TokenKind::LineComment => "line-comment",
            TokenKind::Escape => "escape",
            TokenKind::Termination(_) => "termination",
            TokenKind::NullMove => "null-move",
            TokenKind::Error(LexErrorKind::UnterminatedString) => "error:unterminated-string",
            TokenKind::Error(LexErrorKind::UnterminatedComment) => "error:unterminated-comment",
            TokenKind::Error(LexErrorKind::ControlCharacter) => "error:control-character",
            TokenKind::Error(LexErrorKind::UnexpectedCharacter) => "error:unexpected-character",
            TokenKind::Error(LexErrorKind::InvalidSuffix) => "error:invalid-suffix",
            TokenKind::Error(LexErrorKind::EmptyNag) => "error:empty-nag",
            TokenKind::Error(LexErrorKind::TokenTooLong) => "error:token-too-long",
            TokenKind::Error(LexErrorKind::GameTooLarge) => "error:game-too-large",
        }
    }
}

/// A token: its kind, its byte span in the lexer's input, and its bytes (borrowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is.
    pub span: Span,
    /// Its bytes, exactly as in the input (`&input[span.start..span.end]`).
    pub text: &'a [u8],
}

impl<'a> Token<'a> {
    /// Its bytes, exactly as in the input.
    #[inline]
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The error, for an error token.
    #[inline]
    pub fn error(&self) -> Option<LexError> {
        match self.kind {
            TokenKind::Error(kind) => Some(LexError {
                kind,
                span: self.span,
            }),
            _ => None,
        }
    }

    /// For a string token: its value without the quotes, with `\"` and `\\` unescaped and TAB
    /// read as a space (borrowed when there is nothing to change). `None` for other kinds.
    pub fn string_value(&self) -> Option<Cow<'a, [u8]>> {
        match self.kind {
            TokenKind::String => {
                let inner = self
                    .text
                    .get(1..self.text.len().saturating_sub(1))
                    .unwrap_or_default();
                Some(unescape(inner))
            }
            _ => None,
        }
    }

    /// For a brace comment: the text between the braces (for an unterminated comment error
    /// token: the text after the `{`); for a `;` comment: the text after the `;`; for a `%`
    /// escape line, the text after the `%`. `None` for other kinds.
    pub fn comment_text(&self) -> Option<&'a [u8]> {
        let t = self.text;
        match self.kind {
            TokenKind::BraceComment => t.get(1..t.len().saturating_sub(1)),
            TokenKind::Error(LexErrorKind::UnterminatedComment)
            | TokenKind::LineComment
            | TokenKind::Escape => t.get(1..),
            _ => None,
        }
    }

    /// For a NAG token: its number (`$01` is 1), saturating at `u32::MAX`. The standard allows
    /// 0 to 255; checking that is the reader's business.
    pub fn nag(&self) -> Option<u32> {
        match self.kind {
            TokenKind::Nag => Some(digits_value(self.text.get(1..).unwrap_or_default())),
            _ => None,
        }
    }

    /// For an integer token: its value, saturating at `u32::MAX`.
    pub fn integer(&self) -> Option<u32> {
        match self.kind {
            TokenKind::Integer => Some(digits_value(self.text)),
            _ => None,
        }
    }
}

fn digits_value(digits: &[u8]) -> u32 {
    digits.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10)
            .saturating_add(u32::from(d.wrapping_sub(b'0')))
    })
}

/// Unescapes the inside of a string (quotes already removed): `\"` is `"`, `\\` is `\`, any
/// other backslash is kept, TAB becomes a space. Borrows when nothing changes.
///
/// ```
/// use pgnkit_lexer::unescape;
/// assert_eq!(&*unescape(br#"a \"b\" c\\d \e"#), br#"a "b" c\d \e"#);
/// assert!(matches!(unescape(b"plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn unescape(inner: &[u8]) -> Cow<'_, [u8]> {
    // Tag values are short: a word or two at a time costs less than a memchr call.
    let changes = crate::swar::any(
        inner,
        |w| {
            crate::swar::equal(w, crate::swar::splat(b'\\'))
                | crate::swar::equal(w, crate::swar::splat(b'\t'))
        },
        |b| b == b'\\' || b == b'\t',
    );
    if !changes {
        return Cow::Borrowed(inner);
    }
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while let Some(&b) = inner.get(i) {
        match (b, inner.get(i + 1)) {
            (b'\\', Some(&next @ (b'"' | b'\\'))) => {
                out.push(next);
                i += 2;
            }
            (b'\t', _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_and_suffix() {
        assert_eq!(Outcome::from_standard(b"1/2-1/2"), Some(Outcome::Draw));
        assert_eq!(Outcome::from_standard("½-½".as_bytes()), None);
        assert_eq!(Outcome::BlackWins.to_string(), "0-1");
        for s in ["!", "?", "!!", "??", "!?", "?!"] {
            let suffix = Suffix::from_bytes(s.as_bytes()).unwrap();
            assert_eq!(suffix.as_str(), s);
            assert!((1..=6).contains(&suffix.nag()));
        }
        assert_eq!(Suffix::from_bytes(b"!!!"), None);
        assert_eq!(Suffix::Dubious.nag(), 6);
    }

    #[test]
    fn unescaping() {
        assert_eq!(&*unescape(b"a\tb"), b"a b");
        assert_eq!(&*unescape(b"end\\"), b"end\\");
        assert_eq!(&*unescape(b"\\\\\\\""), b"\\\"");
    }

    proptest::proptest! {
        #[test]
        fn unescape_borrows_exactly_when_nothing_changes(
            inner in proptest::collection::vec(
                proptest::sample::select(&b"ab\\\t\"\n\x80"[..]),
                0..40,
            ),
        ) {
            // Long and short inputs: the scan works eight and sixteen bytes at a time.
            let plain = !inner.iter().any(|&b| b == b'\\' || b == b'\t');
            let out = unescape(&inner);
            proptest::prop_assert_eq!(matches!(out, Cow::Borrowed(_)), plain);
            if plain {
                proptest::prop_assert_eq!(&*out, &inner[..]);
            }
        }
    }

    #[test]
    fn values() {
        let t = Token {
            kind: TokenKind::Nag,
            span: Span::new(0, 3),
            text: b"$01",
        };
        assert_eq!(t.nag(), Some(1));
        assert_eq!(t.integer(), None);
        let t = Token {
            kind: TokenKind::Integer,
            span: Span::new(0, 12),
            text: b"999999999999",
        };
        assert_eq!(t.integer(), Some(u32::MAX));
        let t = Token {
            kind: TokenKind::String,
            span: Span::new(0, 5),
            text: b"\"a\\\"\"",
        };
        assert_eq!(t.string_value().as_deref(), Some(&b"a\""[..]));
        let t = Token {
            kind: TokenKind::BraceComment,
            span: Span::new(0, 4),
            text: b"{ab}",
        };
        assert_eq!(t.comment_text(), Some(&b"ab"[..]));
        assert_eq!(t.error(), None);
    }
}
