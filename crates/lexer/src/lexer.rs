//! The [`Lexer`]: an iterator of borrowed tokens over a byte slice.

use crate::byte_class::{
    CLASS, CONTROL, HIGH, SYMBOL_REST, WS, is_symbol_continue, symbol_continue,
};
use crate::grammar::{self, Rule};
use crate::shapes::{at_line_start, digits_end, periods_end};
use crate::{LexOptions, LexWarning, LexWarningKind, Span, Token, TokenKind};

/// The standard's limit for strings and symbols, in characters (not enforced: longer ones get a
/// warning).
pub(crate) const STANDARD_LIMIT: usize = 255;

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
    /// Comments nest ([`LexOptions::nested_comments`]).
    nested: bool,
}

impl<'a> Lexer<'a> {
    /// A lexer over `input`; spans are offsets into it.
    pub fn new(input: &'a [u8]) -> Lexer<'a> {
        Lexer::with_options(input, LexOptions::default())
    }

    /// A lexer over `input` with the rules of `options`.
    pub fn with_options(input: &'a [u8], options: LexOptions) -> Lexer<'a> {
        let pos = crate::byte_class::bom_len(input);
        Lexer {
            input,
            pos,
            warnings: Vec::new(),
            nested: options.nested_comments,
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
}

/// Picks the rule from the first byte (one jump table over the byte; the byte class table
/// [`CLASS`] settles white space and symbol characters inside the rules).
#[inline(always)]
fn dispatch<'a>(input: &[u8], pos: usize, rest: &'a [u8], b: u8) -> Rule<'a> {
    match b {
        b'a'..=b'z' | b'A'..=b'Z' => grammar::symbol(rest),
        b'0'..=b'9' => grammar::number(rest),
        b'.' => grammar::periods(rest),
        b'{' => grammar::brace_comment(rest),
        b'[' => single(rest, TokenKind::TagOpen),
        b']' => single(rest, TokenKind::TagClose),
        b'(' => single(rest, TokenKind::VariationOpen),
        b')' => single(rest, TokenKind::VariationClose),
        b'<' => single(rest, TokenKind::AngleOpen),
        b'>' => single(rest, TokenKind::AngleClose),
        b'"' => grammar::string(rest, crate::shapes::is_tag_value(input, pos)),
        b'$' => grammar::nag(rest),
        b'*' => grammar::asterisk(rest),
        b';' => grammar::line_comment(rest),
        b'!' | b'?' => grammar::suffix(rest),
        b'@' => grammar::at_signs(rest),
        b'%' if at_line_start(input, pos) => grammar::escape_line(rest),
        b'-' => grammar::dash(rest),
        _ => match CLASS[b as usize] {
            SYMBOL_REST => grammar::stray_symbol_chars(rest),
            CONTROL => grammar::control(rest),
            HIGH => grammar::high(rest),
            _ => grammar::unexpected(rest),
        },
    }
}

#[inline(always)]
fn single(rest: &[u8], kind: TokenKind) -> Rule<'_> {
    Ok((rest.get(1..).unwrap_or_default(), kind))
}

/// The token at `pos` of `input` (not white space) through the grammar rules alone: what the
/// fast paths of [`lex`] must agree with.
#[inline(never)]
fn rule_token(input: &[u8], pos: usize, b: u8) -> (usize, TokenKind) {
    let rest = input.get(pos..).unwrap_or_default();
    match dispatch(input, pos, rest, b) {
        Ok((after, kind)) => (
            (pos + (rest.len() - after.len()).max(1)).min(input.len()),
            kind,
        ),
        Err(_) => (
            pos + 1,
            TokenKind::Error(crate::LexErrorKind::UnexpectedCharacter),
        ),
    }
}

/// A warning for a string or symbol `text` over the standard's 255 characters.
#[cold]
fn check_long(warnings: &mut Vec<LexWarning>, kind: TokenKind, span: Span, text: &[u8]) {
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
        warnings.push(LexWarning { kind, span });
    }
}

/// The end of the run of symbol characters starting at `from`.
#[inline(always)]
fn symbol_end(input: &[u8], from: usize) -> usize {
    run_end(input, from, symbol_continue)
}

/// The end of the run of bytes of class `member` (1 for the bytes of the run, else 0) starting
/// at `from`. Moves and tag names are short, so four bytes at a time are classified without
/// branches (one table lookup each, combined into a bit mask) and the length read from the
/// mask; this avoids a mispredicted loop exit per run.
#[inline(always)]
pub(crate) fn run_end(input: &[u8], from: usize, member: impl Fn(u8) -> u8) -> usize {
    let mut e = from;
    while let Some(chunk) = input.get(e..e + 4) {
        let mut mask = 0u32;
        for (k, &b) in chunk.iter().enumerate() {
            mask |= u32::from(member(b)) << k;
        }
        let run = mask.trailing_ones() as usize;
        e += run;
        if run < 4 {
            return e;
        }
    }
    while input.get(e).is_some_and(|&b| member(b) != 0) {
        e += 1;
    }
    e
}

/// A symbol starting with the letter `b` at `pos`. Off the fast path: `e.p.` (a `.` after the
/// symbol), `Z0` and symbols over the standard's length.
#[inline(always)]
pub(crate) fn letter_token(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    b: u8,
) -> (usize, TokenKind) {
    let e = symbol_end(input, pos + 1);
    // Without branches: a `.` after the symbol (`e.p.`), `Z0`, or a long symbol.
    let rare =
        (input.get(e) == Some(&b'.')) | ((b == b'Z') & (e - pos == 2)) | (e - pos > STANDARD_LIMIT);
    if rare {
        rare_token(input, warnings, pos, b)
    } else {
        (e, TokenKind::Symbol)
    }
}

/// A move number (digits followed by neither a symbol character nor a high byte, up to three
/// digits) starting with the digit at `pos`; anything else (markers, castling with zeros,
/// `0000`, long numbers) goes through the rules.
#[inline(always)]
pub(crate) fn digit_token(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    b: u8,
) -> (usize, TokenKind) {
    let e = digits_end(input, pos + 1);
    match input.get(e) {
        Some(&c) if is_symbol_continue(c) || c >= 0x80 => rare_token(input, warnings, pos, b),
        _ if e - pos >= 4 => rare_token(input, warnings, pos, b),
        _ => (e, TokenKind::Integer),
    }
}

/// The string opened at `pos`, with its warnings (TAB inside, over the standard's length,
/// unescaped quotes in a tag value).
#[inline(always)]
pub(crate) fn string_token(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
) -> (usize, TokenKind) {
    // Nearly every string is a plain tag value: the rest is read out of line, so that the
    // loops this is inlined into keep their registers.
    match crate::shapes::plain_string_end(input, pos) {
        Some(e) if e - pos <= STANDARD_LIMIT + 2 => (e, TokenKind::String),
        _ => other_string_token(input, warnings, pos),
    }
}

/// [`string_token`] for a string that is not a plain tag value (an escape, a TAB or another
/// control byte, a quote not followed by `]`, no closing quote, or a long string).
#[cold]
#[inline(never)]
fn other_string_token(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
) -> (usize, TokenKind) {
    let (end, tab) = crate::shapes::string_end_and_tab(input, pos);
    match end {
        Ok(e) if !tab && e - pos <= STANDARD_LIMIT + 2 => (e, TokenKind::String),
        _ => string_with_warnings(input, warnings, pos, end, tab),
    }
}

#[cold]
#[inline(never)]
fn string_with_warnings(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    end: Result<usize, usize>,
    tab: bool,
) -> (usize, TokenKind) {
    let len = input.len();
    // `tab` asks for a second look: a TAB inside, or a tag value run to its line's last quote.
    let span = Span::new(pos, end.unwrap_or_else(|e| e).min(len));
    let scanned = input.get(pos + 1..span.end).unwrap_or_default();
    if tab && scanned.contains(&b'\t') {
        warnings.push(LexWarning {
            kind: LexWarningKind::TabInString,
            span,
        });
    }
    if tab && crate::shapes::string_scan(input, pos).0 != end {
        warnings.push(LexWarning {
            kind: LexWarningKind::UnescapedQuote,
            span,
        });
    }
    match end {
        Ok(e) => {
            let e = e.min(len);
            let text = input.get(pos..e).unwrap_or_default();
            if text.len() > STANDARD_LIMIT + 2 {
                check_long(warnings, TokenKind::String, Span::new(pos, e), text);
            }
            (e, TokenKind::String)
        }
        Err(e) => (
            e.max(pos + 1).min(len),
            TokenKind::Error(crate::LexErrorKind::UnterminatedString),
        ),
    }
}

/// A token off the fast path, through the rules, with a symbol's length warning.
#[cold]
#[inline(never)]
fn rare_token(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    b: u8,
) -> (usize, TokenKind) {
    let (end, kind) = rule_token(input, pos, b);
    if kind == TokenKind::Symbol && end - pos > STANDARD_LIMIT {
        let text = input.get(pos..end).unwrap_or_default();
        check_long(warnings, kind, Span::new(pos, end), text);
    }
    (end, kind)
}

/// The brace comment opened at `pos`.
#[inline(always)]
pub(crate) fn comment_token(input: &[u8], pos: usize) -> (usize, TokenKind) {
    if let Some(end) = crate::shapes::clock_comment_end(input, pos) {
        return (end, TokenKind::BraceComment);
    }
    // Engine output runs to hundreds of bytes a comment: the splitter's scan, which passes
    // over a long comment with a vectorized search, gives `comment_end`'s result.
    match crate::shapes::skip_comment(input, pos) {
        (e, true) => (e, TokenKind::BraceComment),
        (e, false) => (
            e.max(pos + 1).min(input.len()),
            TokenKind::Error(crate::LexErrorKind::UnterminatedComment),
        ),
    }
}

/// The fast path of a token's first byte: one of the numbers below, or 0 (the rules).
const FAST_PATH: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = match i as u8 {
            b'a'..=b'z' | b'A'..=b'Z' => LETTER,
            b'0'..=b'9' => DIGIT,
            b'.' => PERIOD,
            b'{' => BRACE,
            b'"' => QUOTE,
            b'(' | b')' | b'[' | b']' | b'*' => SINGLE,
            _ if CLASS[i] == WS => WHITE,
            _ => 0,
        };
        i += 1;
    }
    t
};

/// [`FAST_PATH`]: a letter (a symbol).
pub(crate) const LETTER: u8 = 1;
/// [`FAST_PATH`]: a digit (a move number).
pub(crate) const DIGIT: u8 = 2;
/// [`FAST_PATH`]: periods.
const PERIOD: u8 = 3;
/// [`FAST_PATH`]: a brace comment.
pub(crate) const BRACE: u8 = 4;
/// [`FAST_PATH`]: a string.
const QUOTE: u8 = 5;
/// [`FAST_PATH`]: a token of one byte, see [`single_kind`].
const SINGLE: u8 = 6;

/// [`FAST_PATH`]: white space.
const WHITE: u8 = 7;

/// The kind of the one-byte tokens of [`SINGLE`].
#[inline(always)]
fn single_kind(b: u8) -> TokenKind {
    match b {
        b'(' => TokenKind::VariationOpen,
        b')' => TokenKind::VariationClose,
        b'[' => TokenKind::TagOpen,
        b']' => TokenKind::TagClose,
        _ => TokenKind::Termination(crate::Outcome::Unknown),
    }
}

/// The next token of `input` from `pos` (the token's span ends where the next search starts).
/// Fast paths for the common tokens (symbols, move numbers, periods, delimiters, strings,
/// comments) give the same tokens as the grammar rules (a property test checks this);
/// everything else goes through the rules. The rare cases are out of line so that this stays
/// small enough to inline into loops ([`Iterator::next`] and [`Iterator::fold`], which `count`,
/// `for_each`, `sum` and the like use), and it works on plain values rather than the [`Lexer`]
/// so that a loop keeps the position in a register.
#[inline(always)]
pub(crate) fn lex<'a>(
    input: &'a [u8],
    pos: usize,
    warnings: &mut Vec<LexWarning>,
) -> Option<Token<'a>> {
    let (pos, b, path) = skip_white(input, pos)?;
    let (end, kind) = token_at(input, warnings, pos, b, path);
    let text = input.get(pos..end).unwrap_or_default();
    Some(Token {
        kind,
        span: Span::new(pos, end),
        text,
    })
}

/// [`lex`] when comments nest ([`LexOptions::nested_comments`]): out of the plain loop.
#[inline(never)]
fn lex_nested<'a>(
    input: &'a [u8],
    pos: usize,
    warnings: &mut Vec<LexWarning>,
) -> Option<Token<'a>> {
    let (at, _, BRACE) = skip_white(input, pos)? else {
        return lex(input, pos, warnings);
    };
    let (end, kind) = crate::shapes::nested_comment_token(input, at);
    let text = input.get(at..end).unwrap_or_default();
    Some(Token {
        kind,
        span: Span::new(at, end),
        text,
    })
}

/// The first byte at or after `pos` that is not white space: its offset, the byte and its fast
/// path ([`FAST_PATH`]); `None` at the end of the input. One table load per byte for white
/// space and the token's fast path.
#[inline(always)]
pub(crate) fn skip_white(input: &[u8], pos: usize) -> Option<(usize, u8, u8)> {
    // Tokens are mostly one space apart: no loop for that, as a loop's counters would be kept
    // for every value derived from the position after it.
    let b = *input.get(pos)?;
    let path = FAST_PATH[b as usize];
    if path != WHITE {
        return Some((pos, b, path));
    }
    let b = *input.get(pos + 1)?;
    let path = FAST_PATH[b as usize];
    if path != WHITE {
        return Some((pos + 1, b, path));
    }
    more_white(input, pos + 2)
}

/// [`skip_white`] after two bytes of white space.
#[inline(never)]
fn more_white(input: &[u8], mut pos: usize) -> Option<(usize, u8, u8)> {
    let mut b = *input.get(pos)?;
    let mut path = FAST_PATH[b as usize];
    while path == WHITE {
        pos += 1;
        b = *input.get(pos)?;
        path = FAST_PATH[b as usize];
    }
    Some((pos, b, path))
}

/// The end and kind of the token that starts with `b` at `pos`, `path` being its fast path
/// (from [`skip_white`]): one jump, the paths being numbered densely for a jump table.
#[inline(always)]
pub(crate) fn token_at(
    input: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    b: u8,
    path: u8,
) -> (usize, TokenKind) {
    match path {
        LETTER => letter_token(input, warnings, pos, b),
        DIGIT => digit_token(input, warnings, pos, b),
        PERIOD => (periods_end(input, pos + 1), TokenKind::Period),
        BRACE => comment_token(input, pos),
        QUOTE => string_token(input, warnings, pos),
        SINGLE => (pos + 1, single_kind(b)),
        _ => rare_token(input, warnings, pos, b),
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    /// The next token.
    #[inline]
    fn next(&mut self) -> Option<Token<'a>> {
        let token = if self.nested {
            lex_nested(self.input, self.pos, &mut self.warnings)?
        } else {
            lex(self.input, self.pos, &mut self.warnings)?
        };
        self.pos = token.span.end;
        Some(token)
    }

    /// Every token, in one loop with the lexing inlined (no call per token). The loop is a
    /// function of its own, so that its state stays in registers whatever the caller holds.
    #[inline(never)]
    fn fold<B, F>(self, init: B, mut f: F) -> B
    where
        F: FnMut(B, Token<'a>) -> B,
    {
        if self.nested {
            // Token by token (`next`, not this fold): nested comments are an option's path.
            let mut acc = init;
            for token in self {
                acc = f(acc, token);
            }
            return acc;
        }
        let Lexer {
            input,
            mut pos,
            mut warnings,
            ..
        } = self;
        let mut acc = init;
        while let Some(token) = lex(input, pos, &mut warnings) {
            pos = token.span.end;
            acc = f(acc, token);
        }
        acc
    }
}

impl std::iter::FusedIterator for Lexer<'_> {}

#[cfg(test)]
mod fast_paths;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LexErrorKind as E, Outcome, Suffix};

    fn lex(input: &[u8]) -> Vec<(TokenKind, &[u8])> {
        Lexer::new(input).map(|t| (t.kind, t.text)).collect()
    }

    fn kinds(input: &str) -> Vec<TokenKind> {
        Lexer::new(input.as_bytes()).map(|t| t.kind).collect()
    }

    use TokenKind::*;

    #[test]
    fn delimiters() {
        assert_eq!(
            lex(b"[ ] ( ) < >"),
            [
                (TagOpen, &b"["[..]),
                (TagClose, b"]"),
                (VariationOpen, b"("),
                (VariationClose, b")"),
                (AngleOpen, b"<"),
                (AngleClose, b">")
            ]
        );
    }

    #[test]
    fn tag_pairs_with_and_without_spaces() {
        assert_eq!(kinds("[Event \"x\"]"), [TagOpen, Symbol, String, TagClose]);
        assert_eq!(kinds("[Event\"x\"]"), [TagOpen, Symbol, String, TagClose]);
        assert_eq!(lex(b"[Event\n  \"x\"\n]").len(), 4);
    }

    #[test]
    fn strings_and_escapes() {
        let t: Vec<_> = Lexer::new(br#""a \"q\" \\ \n""#).collect();
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].kind, String);
        assert_eq!(t[0].string_value().as_deref(), Some(&br#"a "q" \ \n"#[..]));
        // A backslash before the closing quote escapes it: the string runs to the line end.
        assert_eq!(
            kinds("\"a\\\" x\n*"),
            [Error(E::UnterminatedString), Termination(Outcome::Unknown)]
        );
        // A trailing `\\` is an escaped backslash; the quote after it closes.
        assert_eq!(
            kinds("\"a\\\\\" *"),
            [String, Termination(Outcome::Unknown)]
        );
    }

    #[test]
    fn unterminated_string_stops_at_the_line_end() {
        let t: Vec<_> = Lexer::new(b"[A \"open\r\n[B \"ok\"]").collect();
        assert_eq!(t[2].kind, Error(E::UnterminatedString));
        assert_eq!(t[2].span, Span::new(3, 8));
        assert_eq!(t[2].error().map(|e| e.kind), Some(E::UnterminatedString));
        assert_eq!(
            t[3..].iter().map(|t| t.kind).collect::<Vec<_>>(),
            [TagOpen, Symbol, String, TagClose]
        );
    }

    #[test]
    fn tab_in_string_and_long_tokens_warn() {
        let mut lexer = Lexer::new(b"\"a\tb\"");
        let t = lexer.next().unwrap();
        assert_eq!(t.string_value().as_deref(), Some(&b"a b"[..]));
        assert_eq!(lexer.warnings()[0].kind, LexWarningKind::TabInString);
        let long = format!("\"{}\" {}", "é".repeat(255), "a".repeat(256));
        let mut lexer = Lexer::new(long.as_bytes());
        assert_eq!(
            lexer.by_ref().map(|t| t.kind).collect::<Vec<_>>(),
            [String, Symbol]
        );
        let w: Vec<_> = lexer.take_warnings().into_iter().map(|w| w.kind).collect();
        assert_eq!(w, [LexWarningKind::LongSymbol]);
        let long = format!("\"{}\"", "é".repeat(256));
        let mut lexer = Lexer::new(long.as_bytes());
        lexer.by_ref().for_each(drop);
        assert_eq!(lexer.warnings()[0].kind, LexWarningKind::LongString);
        assert!(lexer.take_warnings().len() == 1 && lexer.warnings().is_empty());
    }

    #[test]
    fn too_long_tokens_are_errors() {
        let huge = "a".repeat(crate::MAX_TOKEN_LEN + 1);
        assert_eq!(kinds(&huge), [Error(E::TokenTooLong)]);
        let huge = format!("${}", "1".repeat(crate::MAX_TOKEN_LEN + 1));
        assert_eq!(kinds(&huge), [Error(E::TokenTooLong)]);
    }

    #[test]
    fn move_numbers() {
        assert_eq!(lex(b"12."), [(Integer, &b"12"[..]), (Period, b".")]);
        assert_eq!(lex(b"12..."), [(Integer, &b"12"[..]), (Period, b"...")]);
        assert_eq!(
            lex(b"3...Bb5"),
            [(Integer, &b"3"[..]), (Period, b"..."), (Symbol, b"Bb5")]
        );
        assert_eq!(
            lex(b"1.e4"),
            [(Integer, &b"1"[..]), (Period, b"."), (Symbol, b"e4")]
        );
        assert_eq!(kinds("5 O-O"), [Integer, Symbol]);
        let t = Lexer::new(b"12").next().unwrap();
        assert_eq!(t.integer(), Some(12));
    }

    #[test]
    fn symbols_and_castling() {
        for s in [
            "e4", "Nxe4", "exd8=Q+", "O-O", "O-O-O#", "0-0", "0-0-0", "0-0+", "0-0-0#", "e2e4",
            "e7e8q", "Ng1-f3", "a_b", "1e4",
        ] {
            assert_eq!(lex(s.as_bytes()), [(Symbol, s.as_bytes())], "{s}");
        }
    }

    #[test]
    fn spec_notes_move_forms_are_single_symbols() {
        // Every move form of the SPEC-NOTES import table (and the refused ones, which the chess
        // layer rejects) is one symbol token; the lexer does not judge them.
        for s in [
            "Ngf3", "Ng1f3", "Ne4", "e4+", "Qh5++", "Pe4", "Pxd5", "Pd5", "e8Q", "e8=q", "bxa8N",
            "e2-e4", "Bf1xb5", "e1g1", "e1h1", "nf3", "bb5", "N:e4", "E4", "e7e8",
        ] {
            assert_eq!(lex(s.as_bytes()), [(Symbol, s.as_bytes())], "{s}");
        }
    }

    #[test]
    fn results_and_variants() {
        assert_eq!(
            lex(b"1-0"),
            [(Termination(Outcome::WhiteWins), &b"1-0"[..])]
        );
        assert_eq!(
            lex(b"0-1"),
            [(Termination(Outcome::BlackWins), &b"0-1"[..])]
        );
        assert_eq!(
            lex(b"1/2-1/2"),
            [(Termination(Outcome::Draw), &b"1/2-1/2"[..])]
        );
        assert_eq!(lex(b"*"), [(Termination(Outcome::Unknown), &b"*"[..])]);
        assert_eq!(kinds("½-½"), [Termination(Outcome::Draw)]);
        assert_eq!(
            lex(b"\xbd-\xbd"),
            [(Termination(Outcome::Draw), &b"\xbd-\xbd"[..])]
        );
        assert_eq!(
            kinds("1–0 0–1 0:1 1:0"),
            [
                Termination(Outcome::WhiteWins),
                Termination(Outcome::BlackWins),
                Termination(Outcome::BlackWins),
                Termination(Outcome::WhiteWins)
            ]
        );
        assert_eq!(
            kinds("e4 1-0)"),
            [Symbol, Termination(Outcome::WhiteWins), VariationClose]
        );
        assert_eq!(kinds("0-1-0"), [Symbol]);
        assert_eq!(kinds("e4*"), [Symbol, Termination(Outcome::Unknown)]);
    }

    #[test]
    fn null_moves() {
        for s in ["--", "Z0", "0000", "@@@@"] {
            assert_eq!(lex(s.as_bytes()), [(NullMove, s.as_bytes())], "{s}");
        }
        assert_eq!(
            kinds("1. e4 -- 2. d4"),
            [Integer, Period, Symbol, NullMove, Integer, Period, Symbol]
        );
        assert_eq!(kinds("- @@ ---"), [Error(E::UnexpectedCharacter); 3]);
        assert_eq!(kinds("Z0+ 00000"), [Symbol, Integer]);
    }

    #[test]
    fn en_passant_markers() {
        assert_eq!(lex(b"exd6e.p."), [(Symbol, &b"exd6e.p."[..])]);
        assert_eq!(
            lex(b"exd6 e.p. 5."),
            [
                (Symbol, &b"exd6"[..]),
                (Symbol, b"e.p."),
                (Integer, b"5"),
                (Period, b".")
            ]
        );
        assert_eq!(lex(b"exd6ep"), [(Symbol, &b"exd6ep"[..])]);
        assert_eq!(lex(b"exd6 ep"), [(Symbol, &b"exd6"[..]), (Symbol, b"ep")]);
        assert_eq!(kinds("Be. 2"), [Symbol, Period, Integer]);
    }

    #[test]
    fn nags_and_suffixes() {
        let t: Vec<_> = Lexer::new(b"$1 $01 $255 $300").collect();
        assert_eq!(
            t.iter().map(|t| t.nag()).collect::<Vec<_>>(),
            [Some(1), Some(1), Some(255), Some(300)]
        );
        assert_eq!(kinds("$ 1"), [Error(E::EmptyNag), Integer]);
        for (s, suffix) in [
            ("!", Suffix::Good),
            ("?", Suffix::Mistake),
            ("!!", Suffix::Brilliant),
            ("??", Suffix::Blunder),
            ("!?", Suffix::Speculative),
            ("?!", Suffix::Dubious),
        ] {
            assert_eq!(kinds(&format!("e4{s}")), [Symbol, Suffix(suffix)], "{s}");
            assert_eq!(kinds(&format!("e4 {s}")), [Symbol, Suffix(suffix)], "{s}");
        }
        assert_eq!(kinds("e4!!!"), [Symbol, Error(E::InvalidSuffix)]);
        assert_eq!(kinds("e4?!?"), [Symbol, Error(E::InvalidSuffix)]);
    }

    #[test]
    fn comments() {
        let t: Vec<_> = Lexer::new(b"{ a [%clk 0:01] ; % {\n b } ; rest {x}\r\n e4").collect();
        assert_eq!(
            t.iter().map(|t| t.kind).collect::<Vec<_>>(),
            [BraceComment, LineComment, Symbol]
        );
        assert_eq!(t[0].comment_text(), Some(&b" a [%clk 0:01] ; % {\n b "[..]));
        assert_eq!(t[1].comment_text(), Some(&b" rest {x}"[..]));
        assert_eq!(t[1].span.end, 37);
    }

    #[test]
    fn unterminated_comments() {
        let t: Vec<_> = Lexer::new(b"e4 { open\n[Event \"x\"]").collect();
        assert_eq!(t[1].kind, Error(E::UnterminatedComment));
        assert_eq!(t[1].span, Span::new(3, 10));
        assert_eq!(t[1].comment_text(), Some(&b" open\n"[..]));
        assert_eq!(t[2].kind, TagOpen);
        assert_eq!(kinds("e4 { open"), [Symbol, Error(E::UnterminatedComment)]);
        // `[` not in the first column or not tag-like does not end a comment.
        assert_eq!(kinds("{ a [Event \"x\"]\n[%clk] }"), [BraceComment]);
    }

    #[test]
    fn escape_lines_only_in_the_first_column() {
        let t: Vec<_> = Lexer::new(b"% a { b\ne4 %x\n%").collect();
        assert_eq!(
            t.iter().map(|t| t.kind).collect::<Vec<_>>(),
            [
                Escape,
                Symbol,
                Error(E::UnexpectedCharacter),
                Symbol,
                Escape
            ]
        );
        assert_eq!(t[0].text, b"% a { b");
        assert_eq!(t[0].comment_text(), Some(&b" a { b"[..]));
    }

    #[test]
    fn errors_and_recovery() {
        assert_eq!(
            kinds("e4 \x01\x02 e5"),
            [Symbol, Error(E::ControlCharacter), Symbol]
        );
        assert_eq!(
            kinds("+- = e5"),
            [
                Error(E::UnexpectedCharacter),
                Error(E::UnexpectedCharacter),
                Symbol
            ]
        );
        assert_eq!(
            lex("♘f3".as_bytes()),
            [
                (Error(E::UnexpectedCharacter), "♘".as_bytes()),
                (Symbol, b"f3")
            ]
        );
        assert_eq!(
            lex(b"\xe9e4"),
            [
                (Error(E::UnexpectedCharacter), &b"\xe9"[..]),
                (Symbol, b"e4")
            ]
        );
        assert_eq!(kinds("} & ~"), [Error(E::UnexpectedCharacter); 3]);
    }

    #[test]
    fn white_space_bom_and_line_ends() {
        assert_eq!(
            kinds("\u{feff}e4\r\ne5\rNf3\x0b\x0cNc6\t*"),
            [
                Symbol,
                Symbol,
                Symbol,
                Symbol,
                Termination(Outcome::Unknown)
            ]
        );
        assert!(Lexer::new(b" \r\n\t").next().is_none());
        let mut lexer = Lexer::new(b"e4 e5");
        lexer.next();
        assert_eq!(lexer.offset(), 2);
        assert_eq!(lexer.input(), b"e4 e5");
    }
}
