//! The [`Lexer`]: an iterator of borrowed tokens over a byte slice.

use crate::byte_class::{CLASS, CONTROL, DIGIT, HIGH, LETTER, OTHER, PUNCT, SYMBOL_REST, WS};
use crate::grammar::{self, Rule};
use crate::shapes::at_line_start;
use crate::{LexWarning, LexWarningKind, Span, Token, TokenKind};

/// The standard's limit for strings and symbols, in characters (not enforced: longer ones get a
/// warning).
const STANDARD_LIMIT: usize = 255;

/// Tokens of a byte slice (normally one game from a [`GameSplitter`](crate::GameSplitter) or a
/// [`Reader`](crate::Reader)), in order, without white space.
///
/// The lexer never fails: bytes that form no token become [`TokenKind::Error`] tokens and
/// lexing goes on after them. Every byte that is not white space (or a UTF-8 byte order mark at
/// offset 0) belongs to exactly one token. Warnings are collected on the side.
///
/// ```
/// use pgnkit_lexer::{Lexer, TokenKind, Outcome};
/// let kinds: Vec<TokenKind> = Lexer::new(b"1. e4 {best} e5!? 1-0").map(|t| t.kind).collect();
/// assert_eq!(kinds.len(), 7);
/// assert_eq!(kinds[6], TokenKind::Termination(Outcome::WhiteWins));
/// ```
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    input: &'a [u8],
    pos: usize,
    warnings: Vec<LexWarning>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `input`; spans are offsets into it.
    pub fn new(input: &'a [u8]) -> Lexer<'a> {
        let pos = if input.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        Lexer {
            input,
            pos,
            warnings: Vec::new(),
        }
    }

    /// The input.
    pub fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Offset of the next byte to read.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The warnings so far (TAB in a string, strings or symbols longer than 255 characters).
    pub fn warnings(&self) -> &[LexWarning] {
        &self.warnings
    }

    /// Takes the warnings so far, leaving none.
    pub fn take_warnings(&mut self) -> Vec<LexWarning> {
        std::mem::take(&mut self.warnings)
    }

    #[inline(always)]
    fn dispatch(&self, pos: usize, rest: &'a [u8], b: u8) -> Rule<'a> {
        match CLASS[b as usize] {
            LETTER => grammar::symbol(rest),
            DIGIT => grammar::number(rest),
            PUNCT => match b {
                b'[' => single(rest, TokenKind::TagOpen),
                b']' => single(rest, TokenKind::TagClose),
                b'(' => single(rest, TokenKind::VariationOpen),
                b')' => single(rest, TokenKind::VariationClose),
                b'<' => single(rest, TokenKind::AngleOpen),
                b'>' => single(rest, TokenKind::AngleClose),
                b'{' => grammar::brace_comment(rest),
                b'"' => grammar::string(rest),
                b'.' => grammar::periods(rest),
                b'$' => grammar::nag(rest),
                b'*' => grammar::asterisk(rest),
                b';' => grammar::line_comment(rest),
                b'!' | b'?' => grammar::suffix(rest),
                b'@' => grammar::at_signs(rest),
                b'%' if at_line_start(self.input, pos) => grammar::escape_line(rest),
                _ => grammar::unexpected(rest),
            },
            SYMBOL_REST if b == b'-' => grammar::dash(rest),
            SYMBOL_REST => grammar::stray_symbol_chars(rest),
            CONTROL => grammar::control(rest),
            HIGH => grammar::high(rest),
            WS | OTHER => grammar::unexpected(rest),
            _ => grammar::unexpected(rest),
        }
    }

    #[cold]
    fn check_long(&mut self, kind: TokenKind, span: Span, text: &[u8]) {
        let chars = text.iter().filter(|&&b| (b as i8) >= -0x40).count();
        let limit = if kind == TokenKind::String {
            STANDARD_LIMIT + 2
        } else {
            STANDARD_LIMIT
        };
        if chars > limit {
            let kind = if kind == TokenKind::String {
                LexWarningKind::LongString
            } else {
                LexWarningKind::LongSymbol
            };
            self.warnings.push(LexWarning { kind, span });
        }
    }
}

#[inline(always)]
fn single(rest: &[u8], kind: TokenKind) -> Rule<'_> {
    Ok((rest.get(1..).unwrap_or_default(), kind))
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        let input = self.input;
        let mut pos = self.pos;
        // White space, with a fast path for the single space between tokens.
        let mut b = *input.get(pos)?;
        if CLASS[b as usize] == WS {
            pos += 1;
            b = *input.get(pos)?;
            if CLASS[b as usize] == WS {
                let rest = input.get(pos..)?;
                pos += rest.len() - grammar::white_space(rest).len();
                b = *input.get(pos)?;
            }
        }
        let rest = input.get(pos..)?;
        let len = match self.dispatch(pos, rest, b) {
            Ok((after, kind)) => (rest.len() - after.len(), kind),
            Err(_) => (
                1,
                TokenKind::Error(crate::LexErrorKind::UnexpectedCharacter),
            ),
        };
        let (n, kind) = (len.0.max(1), len.1);
        let end = (pos + n).min(input.len());
        let span = Span::new(pos, end);
        let text = input.get(pos..end).unwrap_or_default();
        self.pos = end;
        match kind {
            TokenKind::String => {
                if memchr::memchr(b'\t', text).is_some() {
                    self.warnings.push(LexWarning {
                        kind: LexWarningKind::TabInString,
                        span,
                    });
                }
                if text.len() > STANDARD_LIMIT + 2 {
                    self.check_long(kind, span, text);
                }
            }
            TokenKind::Symbol if text.len() > STANDARD_LIMIT => self.check_long(kind, span, text),
            _ => {}
        }
        Some(Token { kind, span, text })
    }
}

impl std::iter::FusedIterator for Lexer<'_> {}
