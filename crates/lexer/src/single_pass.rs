//! Games cut and tokenized in one pass: [`TokenizedGame`], [`GameToken`], and the pass that
//! lexes a game's tokens while it decides, from those tokens, where the game ends.
//!
//! The rules of where a game ends are the splitter's ([`split`](crate::split)); the results are
//! exactly the splitter's games, each with the tokens and warnings a [`Lexer`] of its own gives
//! (a property test and the corpus test check both). The pass reads the splitter's rules in
//! token terms: a tag pair is `[`, its name, its value and `]`; in the movetext, parentheses
//! count the depth, a termination marker outside variations ends the movetext and a `[` that
//! starts a tag line ends the game; after the marker, comments and escape lines may follow
//! until the next game's first token. Where the splitter reads bytes that no token explains the
//! same way (an error token, a malformed tag pair, a byte order mark opening a game), the pass
//! gives up on the game and takes the splitter's end, then lexes the game's bytes: rare in real
//! files, and exact by construction.
//!
//! The pass lexes the input past the game's end (the first token of the next game, at least);
//! those tokens and their warnings are dropped. The game's own tokens are the same as when its
//! bytes alone are lexed: its end is always where one of its tokens ends and the next starts,
//! and no token of it looks at the bytes past that point in a way that changes it.

use crate::byte_class::is_symbol_continue;
use crate::game_end::{game_end_for, has_empty_line, may_be_cut_tag_shape};
use crate::lexer::{
    BRACE, DIGIT, LETTER, STANDARD_LIMIT, comment_token, digit_token, letter_token, lex,
    skip_white, string_token, token_at,
};
use crate::shapes::{
    at_line_start, clock_comment_end, move_number, periods_end, plain_string_end, tag_name_end,
    tag_shape,
};
use crate::tag_line::{TagLine, plain_tag_line};
use crate::{LexErrorKind, LexOptions, LexWarning, Lexer, RawGame, Span, Token, TokenKind};

/// A token of a game without its text: its kind and its span in the game's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameToken {
    /// What it is.
    pub kind: TokenKind,
    /// Where it is in the game's bytes ([`RawGame::bytes`]).
    pub span: Span,
}

impl GameToken {
    /// The token with its text, `bytes` being the game's bytes.
    #[inline]
    pub fn token(self, bytes: &[u8]) -> Token<'_> {
        Token {
            kind: self.kind,
            span: self.span,
            text: self.span.slice(bytes),
        }
    }
}

/// One game's bytes with its tokens and the lexer's warnings, as
/// [`GameSplitter::next_tokenized`](crate::GameSplitter::next_tokenized) and
/// [`Reader::next_tokenized`](crate::Reader::next_tokenized) give them: the same as
/// [`Lexer::new(raw.bytes)`](crate::Lexer) gives, without reading the bytes a second time.
///
/// ```
/// use pgnkit_lexer::{GameSplitter, TokenKind};
/// let mut splitter = GameSplitter::new(b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n*\n");
/// let game = splitter.next_tokenized().unwrap();
/// assert_eq!(game.raw.bytes, b"[Event \"a\"]\n1. e4 *\n");
/// assert_eq!(game.tokens.len(), 8);
/// assert_eq!(game.tokens[6].token(game.raw.bytes).text, b"e4");
/// assert_eq!(game.tokens[7].kind, TokenKind::Termination(pgnkit_lexer::Outcome::Unknown));
/// ```
///
/// The bytes (lifetime `'a`) may outlive the tokens (lifetime `'t`, lent by the splitter or
/// the reader until its next call).
#[derive(Clone, Copy, Debug)]
pub struct TokenizedGame<'a, 't> {
    /// The game's bytes and where they are.
    pub raw: RawGame<'a>,
    /// Its tokens, spans relative to `raw.bytes`.
    pub tokens: &'t [GameToken],
    /// The lexer's warnings for those tokens, in order.
    pub warnings: &'t [LexWarning],
    /// For a game the streaming [`Reader`](crate::Reader) skipped for its size (no bytes, one
    /// [`LexErrorKind::GameTooLarge`] token): its length in
    /// bytes; `None` for every other game.
    pub too_large: Option<u64>,
    /// Whether a token of the game is a [`TokenKind::VariationOpen`] (`(`), as the pass that
    /// read the tokens saw; `None` when not known (the game reader then looks at the tokens).
    pub variations: Option<bool>,
}

/// The buffers of the pass, reused from game to game.
#[derive(Clone, Debug, Default)]
pub(crate) struct GameTokens {
    pub(crate) tokens: Vec<GameToken>,
    pub(crate) warnings: Vec<LexWarning>,
    /// Whether a token of `tokens` is a [`TokenKind::VariationOpen`].
    pub(crate) variations: bool,
    /// The splitter's list of tag names (for its duplicate rule), lent to it in the fallback.
    names: Vec<(usize, usize)>,
    /// The rules read with; with nested comments every game takes the fallback (the single
    /// pass reads plain comments only).
    pub(crate) options: LexOptions,
}

impl GameTokens {
    /// Makes `kind` the only token (with an empty span at the game's start), and no warning.
    pub(crate) fn only(&mut self, kind: TokenKind) {
        self.tokens.clear();
        self.warnings.clear();
        self.tokens.push(GameToken {
            kind,
            span: Span::new(0, 0),
        });
        self.variations = kind == TokenKind::VariationOpen;
    }
}

impl GameTokens {
    /// Reads the game that starts at `buf[0]` (not white space): returns its end, exactly as
    /// [`game_end_for`] does, and keeps its tokens and warnings, those of a [`Lexer`] over
    /// `buf[..end.max(1)]`. When `end` is `buf.len()` and `complete` is false (a stream that
    /// will read on), the tokens may be left out: the caller reads more and asks again.
    pub(crate) fn read(&mut self, buf: &[u8], complete: bool) -> usize {
        if self.options.nested_comments {
            return self.fallback(buf, complete);
        }
        match self.single_pass(buf) {
            Some(end) => end,
            None => self.fallback(buf, complete),
        }
    }

    /// The game's end and its tokens from the single pass, or `None` when the splitter must
    /// decide.
    #[inline(always)]
    fn single_pass(&mut self, buf: &[u8]) -> Option<usize> {
        self.tokens.clear();
        self.warnings.clear();
        let (end, variations) = self.pass(buf);
        let end = end.filter(|&end| end > 0)?;
        // Every `(` the pass kept lies before the game's end (see `pass`).
        self.variations = variations;
        // Drop what was lexed past the end (the next game's first token, at least).
        let kept = self.tokens.partition_point(|t| t.span.start < end);
        self.tokens.truncate(kept);
        let kept = self.warnings.partition_point(|w| w.span.start < end);
        self.warnings.truncate(kept);
        Some(end)
    }

    /// The splitter's end, then a lexer over the game's bytes (also how the streaming reader
    /// tokenizes a big game once the splitter has found its end).
    #[cold]
    #[inline(never)]
    pub(crate) fn fallback(&mut self, buf: &[u8], complete: bool) -> usize {
        self.tokens.clear();
        self.warnings.clear();
        self.variations = false;
        let end = game_end_for(buf, &mut self.names, self.options);
        if end >= buf.len() && !complete {
            return end;
        }
        let bytes = buf.get(..end.max(1)).unwrap_or(buf);
        let mut lexer = Lexer::with_options(bytes, self.options);
        self.tokens.extend(lexer.by_ref().map(|t| GameToken {
            kind: t.kind,
            span: t.span,
        }));
        self.warnings.extend(lexer.take_warnings());
        self.variations = self
            .tokens
            .iter()
            .any(|t| t.kind == TokenKind::VariationOpen);
        end
    }

    /// The game's end read from its tokens, or `None` where the splitter's reading of the bytes
    /// is not surely the tokens' (then the caller falls back to the splitter); and whether a
    /// token kept before that end is a `(`.
    ///
    /// A `(` is only met in the movetext (the tag section's tokens are tag pairs, comments and
    /// escape lines, and its first other token is the movetext's first), where
    /// [`movetext_token`] sees it, and among the tokens after the marker that stay with the
    /// game. The movetext's tokens all lie before the game's end; after the marker, the token
    /// that ends the game is not counted.
    #[inline(always)]
    fn pass(&mut self, buf: &[u8]) -> (Option<usize>, bool) {
        if buf.starts_with(crate::byte_class::BOM) {
            // A game that starts with a byte order mark (files joined with `cat`) is rare: the
            // splitter reads it.
            return (None, false);
        }
        let mut lexing = Lexing {
            buf,
            pos: 0,
            tokens: &mut self.tokens,
            warnings: &mut self.warnings,
            skip_move_numbers: self.options.skip_move_numbers,
            variations: false,
        };
        let end = match tag_section(&mut lexing) {
            None => None,
            Some(TagSection::End(end)) => Some(end),
            Some(TagSection::Movetext(first)) => match movetext(&mut lexing, first) {
                None => None,
                Some(Movetext::End(end)) => Some(end),
                Some(Movetext::Marker) => after_marker(&mut lexing),
            },
        };
        (end, lexing.variations)
    }
}

/// The lexer over the input from the game's start, keeping every token it reads.
struct Lexing<'b> {
    buf: &'b [u8],
    /// Where the next token is searched.
    pos: usize,
    tokens: &'b mut Vec<GameToken>,
    warnings: &'b mut Vec<LexWarning>,
    /// [`LexOptions::skip_move_numbers`]: the movetext's usual move numbers are not kept.
    skip_move_numbers: bool,
    /// Whether a `(` was kept (see [`GameTokens::pass`]).
    variations: bool,
}

impl Lexing<'_> {
    /// The next token (kept), or `None` at the end of the input.
    #[inline(always)]
    fn next(&mut self) -> Option<GameToken> {
        let t = lex(self.buf, self.pos, self.warnings)?;
        self.pos = t.span.end;
        let token = GameToken {
            kind: t.kind,
            span: t.span,
        };
        self.tokens.push(token);
        Some(token)
    }

    /// [`next`](Lexing::next) out of line, for the few tokens after a marker.
    #[inline(never)]
    fn next_out_of_line(&mut self) -> Option<GameToken> {
        self.next()
    }

    /// Keeps the token `kind` at `span`, read without the lexer's dispatch, and reads on after
    /// it.
    #[inline(always)]
    fn keep(&mut self, kind: TokenKind, span: Span) {
        self.pos = span.end;
        self.tokens.push(GameToken { kind, span });
    }
}

/// What ended the tag section.
enum TagSection {
    /// The game ends here.
    End(usize),
    /// The movetext starts with this token.
    Movetext(GameToken),
}

/// The tag section, as the splitter reads it (see `game_end`).
#[inline(always)]
fn tag_section(lexing: &mut Lexing<'_>) -> Option<TagSection> {
    let buf = lexing.buf;
    let mut empty_line = false;
    // Where the splitter resumes after the last thing it read: the white space from there to
    // the next token may hold an empty line.
    let mut resume = 0;
    // The game's first line, nearly always a usual tag line: read as the lines after it are
    // (the lexer's first token would be its `[`, with nothing before it).
    if buf.first() == Some(&b'[')
        && let Some(end) = plain_tag_lines(lexing, 0)
    {
        resume = end;
    }
    loop {
        let (open, pending) = match next_line_tag_open(buf, resume) {
            Some(open) => {
                // After an empty line, a tag pair whose name the game has had starts the next
                // game: the general code asks (`name_seen`).
                if !empty_line && let Some(end) = plain_tag_lines(lexing, open) {
                    resume = end;
                    continue;
                }
                (open, true)
            }
            None => {
                let Some(t) = lexing.next() else {
                    return Some(TagSection::End(buf.len()));
                };
                let start = t.span.start;
                if start > resume + 1 && has_empty_line(buf.get(resume..start).unwrap_or_default())
                {
                    empty_line = true;
                }
                resume = t.span.end;
                match t.kind {
                    TokenKind::TagOpen => (start, false),
                    TokenKind::BraceComment | TokenKind::LineComment => {
                        empty_line = false;
                        continue;
                    }
                    TokenKind::Escape | TokenKind::TagClose | TokenKind::String => continue,
                    TokenKind::Error(_) => return None,
                    _ => return Some(TagSection::Movetext(t)),
                }
            }
        };
        let (name, end) = tag_pair(lexing, open, pending)?;
        if empty_line && name_seen(lexing.tokens, buf, name) {
            return Some(TagSection::End(open));
        }
        empty_line = false;
        resume = end;
    }
}

/// The usual tag lines ([`plain_tag_line`]) from the `[` at `open` on, each right at the start
/// of the line after the last (no empty line between them): their tokens kept, four a line, and
/// where the splitter resumes after the last; `None` when the first is not of that shape (then
/// the general code reads it). A loop of its own: the tag section's general code, with the
/// lexer's dispatch, is not on the way from one usual line to the next (callgrind, issue 34:
/// ~300 instructions a tag before, ~150 after).
#[inline(always)]
fn plain_tag_lines(lexing: &mut Lexing<'_>, mut open: usize) -> Option<usize> {
    let buf = lexing.buf;
    let mut line = plain_tag_line(buf, open)?;
    loop {
        let TagLine {
            name_end,
            quote,
            close,
        } = line;
        lexing.tokens.extend_from_slice(&[
            GameToken {
                kind: TokenKind::TagOpen,
                span: Span::new(open, open + 1),
            },
            GameToken {
                kind: TokenKind::Symbol,
                span: Span::new(open + 1, name_end),
            },
            GameToken {
                kind: TokenKind::String,
                span: Span::new(quote, close),
            },
            GameToken {
                kind: TokenKind::TagClose,
                span: Span::new(close, close + 1),
            },
        ]);
        let resume = close + 1;
        let next = next_line_tag_open(buf, resume).and_then(|next| {
            open = next;
            plain_tag_line(buf, next)
        });
        match next {
            Some(next) => line = next,
            None => {
                lexing.pos = resume;
                return Some(resume);
            }
        }
    }
}

/// Whether a tag pair before the one named at `name` has the same name, for the splitter's
/// duplicate rule. Rarely asked (only after an empty line in a tag section), so the names are
/// not listed as they are read but found again among the kept `tokens`: every `[` there opened
/// a tag pair of the section (any other gives up the pass), its name right after it.
#[cold]
#[inline(never)]
fn name_seen(tokens: &[GameToken], buf: &[u8], name: Span) -> bool {
    tokens.windows(2).any(|pair| {
        matches!(pair, [open, before] if open.kind == TokenKind::TagOpen
            && before.span.start < name.start
            && buf.get(before.span.range()) == buf.get(name.range()))
    })
}

/// The `[` right at the start of the next line (after LF or CR LF), when the splitter resumes at
/// that line's end (most lines of a tag section): read without the lexer's dispatch (the same
/// token, with only a line end before it, so no empty line), and kept with its tag pair.
#[inline(always)]
fn next_line_tag_open(buf: &[u8], resume: usize) -> Option<usize> {
    match buf.get(resume..)? {
        [b'\n', b'[', ..] => Some(resume + 1),
        // A CR LF line end is one line end too (see `has_empty_line`).
        [b'\r', b'\n', b'[', ..] => Some(resume + 2),
        _ => None,
    }
}

/// A tag pair whose `[` is at `open`: the span of its name and where the splitter resumes
/// after it, when its tokens are the splitter's reading (`[`, tag-name characters, optional
/// spaces, the string, optional spaces, `]` or the line end); else `None`. When `pending`, the
/// `[` is not kept yet: it is kept here, with the tag pair's other tokens.
///
/// Its tokens are read with the lexer's own functions for what they must be (a symbol, a
/// string, a `]`), which give what the lexer gives at those bytes, without its dispatch.
#[inline(always)]
fn tag_pair(lexing: &mut Lexing<'_>, open: usize, pending: bool) -> Option<(Span, usize)> {
    let buf = lexing.buf;
    // A name that starts with a letter (others are rare: the splitter reads them).
    let first = *buf.get(open + 1).filter(|b| b.is_ascii_alphabetic())?;
    let (name_end, name_kind) = tag_name_token(lexing.warnings, buf, open + 1, first)?;
    let name = Span::new(open + 1, name_end);
    // Nearly always one space: `[Name "`, found with one compare.
    let quote = match buf.get(name_end..name_end + 2) {
        Some(b" \"") => name_end + 1,
        _ => quote_after_name(buf, name_end)?,
    };
    let open_token = GameToken {
        kind: TokenKind::TagOpen,
        span: Span::new(open, open + 1),
    };
    // Nearly always a plain value closed by `"]` (the lexer's string token, see
    // `string_token`): the tag pair's tokens are kept at once, with one capacity test.
    if let Some(close) = plain_string_end(buf, quote).filter(|&e| e - quote <= STANDARD_LIMIT + 2) {
        let name = GameToken {
            kind: name_kind,
            span: name,
        };
        let value = GameToken {
            kind: TokenKind::String,
            span: Span::new(quote, close),
        };
        let close_token = GameToken {
            kind: TokenKind::TagClose,
            span: Span::new(close, close + 1),
        };
        if pending {
            lexing
                .tokens
                .extend_from_slice(&[open_token, name, value, close_token]);
        } else {
            lexing.tokens.extend_from_slice(&[name, value, close_token]);
        }
        lexing.pos = close + 1;
        return Some((name.span, close + 1));
    }
    if pending {
        lexing.keep(TokenKind::TagOpen, open_token.span);
    }
    lexing.keep(name_kind, name);
    let (value_end, kind) = string_token(buf, lexing.warnings, quote);
    lexing.keep(kind, Span::new(quote, value_end));
    if kind != TokenKind::String {
        // Unterminated: the splitter skips to the line end, where the error ends.
        return Some((name, value_end));
    }
    let mut after = value_end;
    while matches!(buf.get(after), Some(b' ' | b'\t')) {
        after += 1;
    }
    match buf.get(after) {
        Some(b']') => {
            lexing.keep(TokenKind::TagClose, Span::new(after, after + 1));
            Some((name, after + 1))
        }
        Some(b'\n' | b'\r') | None => Some((name, after)),
        // The rest of the line belongs to the tag pair: the splitter does not read it as tokens.
        Some(_) => None,
    }
}

/// The `"` of a tag value after the name ending at `name_end` and any spaces and TABs, when
/// there is one: [`tag_pair`] for names not followed by exactly one space.
#[inline(never)]
fn quote_after_name(buf: &[u8], name_end: usize) -> Option<usize> {
    let mut quote = name_end;
    while matches!(buf.get(quote), Some(b' ' | b'\t')) {
        quote += 1;
    }
    (buf.get(quote) == Some(&b'"')).then_some(quote)
}

/// The token of the tag name that starts with the letter `first` at `pos`, when the splitter
/// reads the same tag name (the token holds tag-name bytes only); else `None`.
///
/// Tag-name bytes are symbol bytes: when the byte after them neither continues the symbol nor
/// is a `.` (an `e.p.` may follow a symbol), and the name is neither `Z0`-like nor over the
/// standard's length, the lexer's token is that run, a symbol; otherwise the lexer decides.
#[inline(always)]
fn tag_name_token(
    warnings: &mut Vec<LexWarning>,
    buf: &[u8],
    pos: usize,
    first: u8,
) -> Option<(usize, TokenKind)> {
    let end = crate::shapes::tag_name_word_end(buf, pos + 1);
    let ends_symbol = buf
        .get(end)
        .is_none_or(|&b| !is_symbol_continue(b) && b != b'.');
    let plain = ends_symbol && !(first == b'Z' && end - pos == 2) && end - pos <= STANDARD_LIMIT;
    if plain {
        return Some((end, TokenKind::Symbol));
    }
    let (name_end, kind) = letter_token(buf, warnings, pos, first);
    (name_end == tag_name_end(buf, pos)).then_some((name_end, kind))
}

/// What ended the movetext.
enum Movetext {
    /// The game ends here (a tag line, or the end of the input).
    End(usize),
    /// A termination marker outside variations, the last token read.
    Marker,
}

/// The movetext from its first token, as the splitter's movetext scan reads it.
///
/// A function of its own, with the lexer's position in a local: the loop's registers are not
/// shared with the tag section's, and the position is not written back after every token.
#[inline(never)]
fn movetext(lexing: &mut Lexing<'_>, first: GameToken) -> Option<Movetext> {
    let mut local = Lexing {
        buf: lexing.buf,
        pos: lexing.pos,
        tokens: &mut *lexing.tokens,
        warnings: &mut *lexing.warnings,
        skip_move_numbers: lexing.skip_move_numbers,
        variations: lexing.variations,
    };
    let end = movetext_loop(&mut local, first);
    lexing.pos = local.pos;
    lexing.variations = local.variations;
    end
}

/// [`movetext`]'s loop. It dispatches on a token's first byte itself, so that the common
/// tokens (moves, move numbers with their periods, brace comments), which the splitter's
/// reading passes over, are kept right where they are lexed; the other tokens go through
/// [`movetext_token`].
#[inline(always)]
fn movetext_loop(lexing: &mut Lexing<'_>, first: GameToken) -> Option<Movetext> {
    let buf = lexing.buf;
    let mut depth = 0u32;
    if let Some(end) = movetext_token(lexing, first, &mut depth) {
        return end;
    }
    loop {
        let Some((pos, b, path)) = skip_white(buf, lexing.pos) else {
            return Some(Movetext::End(buf.len()));
        };
        let (end, kind) = match path {
            LETTER => {
                let (end, kind) = letter_token(buf, lexing.warnings, pos, b);
                lexing.keep(kind, Span::new(pos, end));
                if kind == TokenKind::Symbol {
                    continue;
                }
                (end, kind)
            }
            DIGIT => {
                // A move number and its periods (`12.`, `3...`): a `.` after up to three
                // digits makes them an integer token for the lexer too.
                if let Some((digits, end)) = move_number(buf, pos) {
                    if lexing.skip_move_numbers {
                        lexing.pos = end;
                    } else {
                        lexing.keep(TokenKind::Integer, Span::new(pos, digits));
                        lexing.keep(TokenKind::Period, Span::new(digits, end));
                    }
                    continue;
                }
                let (end, kind) = digit_token(buf, lexing.warnings, pos, b);
                lexing.keep(kind, Span::new(pos, end));
                if kind == TokenKind::Integer {
                    keep_periods(lexing, end);
                    continue;
                }
                (end, kind)
            }
            BRACE => {
                let (end, kind) = match clock_comment_end(buf, pos) {
                    Some(end) => (end, TokenKind::BraceComment),
                    None => other_comment_token(buf, pos),
                };
                lexing.keep(kind, Span::new(pos, end));
                if kind == TokenKind::BraceComment {
                    continue;
                }
                (end, kind)
            }
            _ => {
                let (end, kind) = other_token(buf, lexing.warnings, pos, b, path);
                lexing.keep(kind, Span::new(pos, end));
                (end, kind)
            }
        };
        let span = Span::new(pos, end);
        if let Some(end) = movetext_token(lexing, GameToken { kind, span }, &mut depth) {
            return end;
        }
    }
}

/// [`comment_token`] for a comment that is not a clock alone: out of line, like
/// [`other_token`].
#[inline(never)]
fn other_comment_token(buf: &[u8], pos: usize) -> (usize, TokenKind) {
    comment_token(buf, pos)
}

/// [`token_at`] for the movetext's less common tokens (NAGs, suffixes, parentheses, markers,
/// strings...): out of line, so that the loop over moves, move numbers and comments keeps its
/// registers.
#[inline(never)]
fn other_token(
    buf: &[u8],
    warnings: &mut Vec<LexWarning>,
    pos: usize,
    b: u8,
    path: u8,
) -> (usize, TokenKind) {
    token_at(buf, warnings, pos, b, path)
}

/// What the splitter's movetext scan makes of the token `t` (already kept), `depth` being the
/// variations open: `Some` when the movetext ends there (or the splitter must decide), `None`
/// to read on.
#[inline(always)]
fn movetext_token(
    lexing: &mut Lexing<'_>,
    t: GameToken,
    depth: &mut u32,
) -> Option<Option<Movetext>> {
    let buf = lexing.buf;
    match t.kind {
        TokenKind::VariationOpen => {
            *depth += 1;
            lexing.variations = true;
        }
        TokenKind::VariationClose => *depth = depth.saturating_sub(1),
        TokenKind::Termination(_) if !splitter_sees_marker(buf, t.span.start) => {
            return Some(None);
        }
        TokenKind::Termination(_) if *depth == 0 => return Some(Some(Movetext::Marker)),
        TokenKind::TagOpen
            if at_line_start(buf, t.span.start) && tag_shape(buf, t.span.start).is_some() =>
        {
            return Some(Some(Movetext::End(t.span.start)));
        }
        TokenKind::Integer => keep_periods(lexing, t.span.end),
        TokenKind::Error(_) => return Some(None),
        _ => {}
    }
    None
}

/// The periods right after a move number at `start`, kept without the lexer's dispatch (the
/// same token: a run of periods).
#[inline(always)]
fn keep_periods(lexing: &mut Lexing<'_>, start: usize) {
    if lexing.buf.get(start) == Some(&b'.') {
        let end = periods_end(lexing.buf, start + 1);
        lexing.keep(TokenKind::Period, Span::new(start, end));
    }
}

/// After a termination marker outside variations: comments and escape lines stay with the
/// game when a tag pair or the end of the input follows; any other token starts the next
/// game, which takes those comments along. A `%` that is not in the first column (an
/// unexpected character) starts no game, as the splitter has it (`game_end::after_marker`).
#[inline(always)]
fn after_marker(lexing: &mut Lexing<'_>) -> Option<usize> {
    let buf = lexing.buf;
    let mut first_comment = None;
    loop {
        let Some(t) = lexing.next_out_of_line() else {
            return Some(buf.len());
        };
        let start = t.span.start;
        match t.kind {
            TokenKind::BraceComment | TokenKind::LineComment => {
                first_comment.get_or_insert(start);
            }
            TokenKind::Escape => {}
            TokenKind::Error(LexErrorKind::UnexpectedCharacter)
                if buf.get(start) == Some(&b'%') => {}
            TokenKind::TagOpen if tag_shape(buf, start).is_some() => return Some(start),
            TokenKind::TagOpen if may_be_cut_tag_shape(buf, start) => {
                // The input ends in what may be a cut tag pair: the rest stays with the game,
                // its tokens too.
                while let Some(t) = lexing.next_out_of_line() {
                    lexing.variations |= t.kind == TokenKind::VariationOpen;
                }
                return Some(buf.len());
            }
            // The splitter ends the game where the comment ends.
            TokenKind::Error(LexErrorKind::UnterminatedComment) => return None,
            _ => return Some(first_comment.unwrap_or(start)),
        }
    }
}

/// Whether the splitter finds the lexer's termination marker at `start`: `*`, a marker
/// starting with `½` (found at its first byte), or one whose left side starts a token for the
/// splitter too (the byte before it is not a symbol character).
#[inline]
fn splitter_sees_marker(buf: &[u8], start: usize) -> bool {
    match buf.get(start) {
        Some(b'*') | Some(0x80..) => true,
        _ => start == 0 || !buf.get(start - 1).is_some_and(|&b| is_symbol_continue(b)),
    }
}

#[cfg(test)]
mod tests;
