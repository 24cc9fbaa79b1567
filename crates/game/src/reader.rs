//! The validating reader: games from bytes ([`read_games`],
//! [`visit_games`]) or a stream ([`Reader`]), each resolved move by move
//! and sent to a [`Visitor`] as events, with diagnostics and recovery as
//! SPEC-NOTES "Reading (import format)" says.
//!
//! Recovery: at most one error per line of play. After an error the rest of
//! that variation (or main line) is skipped to its `)` (or the marker); the
//! other lines go on from their own positions. A game with an error is
//! returned broken, with what was read and its original bytes; the next game
//! is read as usual.

use std::borrow::Cow;
use std::io::{self, BufRead};

use pgnkit_chess::{CastlingMode, Lenience, LenientSan, Move, Position, SanError, Setup};
use pgnkit_lexer::{
    GameSplitter, GameToken, LexErrorKind, LexWarning, LexWarningKind, Lexer, LineIndex, Span,
    Token, TokenKind, TokenizedGame,
};
use smallvec::SmallVec;

use crate::Nag;
use crate::builder::TreeBuilder;
use crate::comment::CommentKind;
use crate::diagnostic::{Diagnostic, Diagnostics, Severity};
use crate::error::DiagnosticKind;
use crate::game::{Game, Termination};
use crate::variant::{VariantKind, castling_needs_chess960};
use crate::visitor::{GameStart, MoveEvent, RawComment, Skip, Visitor};

/// Options for reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Report every lenient move form (`0-0`, `Ng1f3`, `e8Q`, a null
    /// move, ...) as an error instead of accepting it.
    pub strict: bool,
}

impl ReadOptions {
    /// The lenient default.
    pub fn new() -> ReadOptions {
        ReadOptions::default()
    }

    /// Strict: lenient move forms are errors.
    pub fn strict() -> ReadOptions {
        ReadOptions { strict: true }
    }
}

/// One game read: what the visitor made of it, its diagnostics, and where
/// it is in the input with its original bytes.
#[derive(Debug, Clone)]
pub struct ReadGame<'a, T> {
    /// The visitor's output (a [`Game`] for [`read_games`]).
    pub value: T,
    /// Errors and warnings, in order.
    pub diagnostics: Diagnostics,
    /// The game's original bytes.
    pub raw: Cow<'a, [u8]>,
    /// Absolute offset of the game's first byte.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
}

impl<T> ReadGame<'_, T> {
    /// Whether the game has an error.
    pub fn is_broken(&self) -> bool {
        self.diagnostics.has_errors()
    }
}

/// Reads every game of `input` into [`Game`]s.
pub fn read_games(input: &[u8]) -> Games<'_> {
    read_games_with(input, ReadOptions::default())
}

/// Reads every game of `input` into [`Game`]s with `options`.
pub fn read_games_with(input: &[u8], options: ReadOptions) -> Games<'_> {
    Games {
        inner: visit_games(input, TreeBuilder::new(), options),
    }
}

/// The games of a byte slice, as [`Game`]s with their diagnostics.
#[derive(Debug)]
pub struct Games<'a> {
    inner: VisitGames<'a, TreeBuilder>,
}

impl<'a> Iterator for Games<'a> {
    type Item = ReadGame<'a, Game>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut read = self.inner.next()?;
        read.value.diagnostics = read.diagnostics.clone();
        Some(read)
    }
}

/// Sends every game of `input` through `visitor`.
pub fn visit_games<V: Visitor>(
    input: &[u8],
    visitor: V,
    options: ReadOptions,
) -> VisitGames<'_, V> {
    VisitGames {
        splitter: GameSplitter::new(input),
        visitor,
        options,
    }
}

/// The games of a byte slice, each sent through a visitor.
#[derive(Debug)]
pub struct VisitGames<'a, V> {
    splitter: GameSplitter<'a>,
    visitor: V,
    options: ReadOptions,
}

impl<'a, V> VisitGames<'a, V> {
    /// The visitor.
    pub fn visitor(&mut self) -> &mut V {
        &mut self.visitor
    }
}

impl<'a, V: Visitor> Iterator for VisitGames<'a, V> {
    type Item = ReadGame<'a, V::Output>;

    fn next(&mut self) -> Option<Self::Item> {
        let game = self.splitter.next_tokenized()?;
        let raw = game.raw;
        let start = GameStart::from(raw);
        let (value, diagnostics) = visit_tokenized(game, &mut self.visitor, self.options);
        Some(ReadGame {
            value,
            diagnostics,
            raw: Cow::Borrowed(raw.bytes),
            offset: start.offset,
            line: start.line,
        })
    }
}

/// Games from a stream, one at a time in constant memory.
#[derive(Debug)]
pub struct Reader<R> {
    inner: pgnkit_lexer::Reader<R>,
    options: ReadOptions,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `stream`.
    pub fn new(stream: R) -> Reader<R> {
        Reader::with_options(stream, ReadOptions::default())
    }

    /// A reader over `stream` with `options`.
    pub fn with_options(stream: R, options: ReadOptions) -> Reader<R> {
        Reader {
            inner: pgnkit_lexer::Reader::new(stream),
            options,
        }
    }

    /// Sends the next game through `visitor`; `None` at the end.
    pub fn visit_next<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<io::Result<ReadGame<'_, V::Output>>> {
        let options = self.options;
        let game = match self.inner.next_tokenized() {
            Ok(Some(game)) => game,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let raw = game.raw;
        let start = GameStart::from(raw);
        let (value, diagnostics) = visit_tokenized(game, visitor, options);
        Some(Ok(ReadGame {
            value,
            diagnostics,
            raw: Cow::Borrowed(raw.bytes),
            offset: start.offset,
            line: start.line,
        }))
    }

    /// Reads the next game into a [`Game`] (its raw bytes copied).
    pub fn next_game(&mut self) -> Option<io::Result<ReadGame<'static, Game>>> {
        let mut builder = TreeBuilder::new();
        let read = match self.visit_next(&mut builder)? {
            Ok(read) => read,
            Err(e) => return Some(Err(e)),
        };
        let mut value = read.value;
        value.diagnostics = read.diagnostics.clone();
        Some(Ok(ReadGame {
            value,
            diagnostics: read.diagnostics,
            raw: Cow::Owned(read.raw.into_owned()),
            offset: read.offset,
            line: read.line,
        }))
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = io::Result<ReadGame<'static, Game>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// Reads one game (the bytes of one game, as the splitter gives them)
/// through `visitor`; returns the visitor's output and the diagnostics.
pub fn visit_game<V: Visitor>(
    game: GameStart<'_>,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    read_game(game, LexerTokens(Lexer::new(game.bytes)), visitor, options)
}

/// [`visit_game`] for a game the lexer already tokenized (its single pass,
/// [`pgnkit_lexer::Reader::next_tokenized`]): the same events and
/// diagnostics, without lexing the bytes again.
pub fn visit_tokenized<V: Visitor>(
    game: TokenizedGame<'_, '_>,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    let tokens = SliceTokens {
        tokens: game.tokens.iter(),
        warnings: game.warnings,
        pos: 0,
    };
    read_game(GameStart::from(game.raw), tokens, visitor, options)
}

/// The tokens the game reader reads (kinds and spans in the game's bytes;
/// the reader slices a token's text only where it needs it): from a
/// [`Lexer`], or from the splitter's single pass.
trait Tokens: Iterator<Item = GameToken> + Sized {
    /// The first TAB-in-a-string warning of the tokens read so far.
    fn tab_in_string(&self) -> Option<Span>;

    /// Gives `take` the next tokens that are neither move numbers nor
    /// periods (a third of the movetext, which means nothing to the
    /// reader), up to the first for which it returns `true` or the last.
    #[inline(always)]
    fn read_movetext(&mut self, mut take: impl FnMut(GameToken) -> bool) {
        for token in self.by_ref() {
            if !is_move_number(token.kind) && take(token) {
                break;
            }
        }
    }
}

/// Whether tokens of `kind` are move numbers and their periods.
#[inline(always)]
fn is_move_number(kind: TokenKind) -> bool {
    matches!(kind, TokenKind::Integer | TokenKind::Period)
}

/// A [`Lexer`]'s tokens without their texts.
struct LexerTokens<'a>(Lexer<'a>);

impl Iterator for LexerTokens<'_> {
    type Item = GameToken;

    #[inline]
    fn next(&mut self) -> Option<GameToken> {
        let token = self.0.next()?;
        Some(GameToken {
            kind: token.kind,
            span: token.span,
        })
    }
}

impl Tokens for LexerTokens<'_> {
    fn tab_in_string(&self) -> Option<Span> {
        first_tab(self.0.warnings())
    }
}

/// The first TAB-in-a-string warning of `warnings`.
fn first_tab<'w>(warnings: impl IntoIterator<Item = &'w LexWarning>) -> Option<Span> {
    warnings
        .into_iter()
        .find(|w| w.kind == LexWarningKind::TabInString)
        .map(|w| w.span)
}

/// A game's tokens from the single pass.
struct SliceTokens<'t> {
    tokens: std::slice::Iter<'t, GameToken>,
    warnings: &'t [LexWarning],
    /// The end of the last token read.
    pos: usize,
}

impl Iterator for SliceTokens<'_> {
    type Item = GameToken;

    #[inline]
    fn next(&mut self) -> Option<GameToken> {
        let token = *self.tokens.next()?;
        self.pos = token.span.end;
        Some(token)
    }
}

impl Tokens for SliceTokens<'_> {
    fn tab_in_string(&self) -> Option<Span> {
        // A warning belongs to the token it starts with: those read so far start before `pos`.
        let pos = self.pos;
        first_tab(self.warnings.iter().take_while(|w| w.span.start < pos))
    }

    /// The loop runs on a local copy of the slice iterator (kept in
    /// registers, not stored back at every token), which goes back into
    /// `self` at the end.
    #[inline(always)]
    fn read_movetext(&mut self, mut take: impl FnMut(GameToken) -> bool) {
        let all = self.tokens.as_slice();
        let mut tokens = self.tokens.clone();
        for &token in tokens.by_ref() {
            if !is_move_number(token.kind) && take(token) {
                break;
            }
        }
        let read = all.get(..all.len() - tokens.len()).unwrap_or_default();
        if let Some(last) = read.last() {
            self.pos = last.span.end;
        }
        self.tokens = tokens;
    }
}

/// Reads one game from its tokens.
fn read_game<'a, V: Visitor, T: Tokens>(
    game: GameStart<'a>,
    tokens: T,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    let mut reader = GameReader {
        game,
        // Without a `(` no variation can start, so the position before each
        // move need not be kept (the validate-only path saves a copy a move);
        // strict mode's messages show it.
        keep_prev: options.strict || memchr::memchr(b'(', game.bytes).is_some(),
        var_marker: None,
        options,
        diagnostics: Diagnostics::new(),
        index: None,
    };
    visitor.begin_game(game);
    let output = reader.run(tokens, visitor);
    (output, reader.diagnostics)
}

/// How deep variations may nest: a `(` that would open a variation inside
/// this many open ones is an error ([`DiagnosticKind::VariationTooDeep`])
/// and the rest of its line is skipped. Each open variation keeps its own
/// positions, so the limit bounds the reader's memory whatever the input;
/// real games stay far below it (the deepest in our corpus nests 14).
pub const MAX_VARIATION_DEPTH: usize = 256;

/// One line of play being read: the main line or an open variation.
struct Line<'a> {
    /// The position after the line's last move.
    pos: Position,
    /// The position before the line's last move (variations start there).
    prev: Position,
    /// Whether the line has a move.
    has_move: bool,
    /// Whether the visitor was told the variation began.
    announced: bool,
    /// Skipping to the line's end (after an error, or the visitor asked).
    skipping: bool,
    /// Nested parentheses inside the skipped part.
    skip_depth: u32,
    /// The last token was a `)` closing a variation of this line.
    after_close: bool,
    /// The last token was this line's move (a suffix may follow).
    after_move: bool,
    /// The line's last move was an en passant capture.
    last_en_passant: bool,
    /// Comments waiting for the next move of this line.
    pending: SmallVec<[RawComment<'a>; 2]>,
    /// Where the variation opened.
    open: Span,
    /// The parent line's `after_close` when this variation opened: a
    /// variation dropped for having no moves leaves its parent as if the
    /// `(` ... `)` were not there.
    parent_after_close: bool,
}

impl<'a> Line<'a> {
    fn new(pos: Position, open: Span) -> Line<'a> {
        Line {
            prev: pos.clone(),
            pos,
            has_move: false,
            announced: false,
            skipping: false,
            skip_depth: 0,
            after_close: false,
            after_move: false,
            last_en_passant: false,
            pending: SmallVec::new(),
            open,
            parent_after_close: false,
        }
    }
}

struct GameReader<'a> {
    game: GameStart<'a>,
    /// The last marker read inside a variation (an error).
    var_marker: Option<(Termination, Span)>,
    keep_prev: bool,
    options: ReadOptions,
    diagnostics: Diagnostics,
    index: Option<LineIndex<'a>>,
}

/// The tags the reader itself needs.
#[derive(Default)]
struct SpecialTags<'a> {
    fen: Option<(Cow<'a, [u8]>, Span)>,
    setup: Option<(Cow<'a, [u8]>, Span)>,
    variant: Option<(Cow<'a, [u8]>, Span)>,
    result: Option<Cow<'a, [u8]>>,
}

/// The comment the token `t` of the game's `bytes` is, if it is one: its text is sliced from
/// the bytes once (not the token's text, then the text inside).
#[inline(always)]
fn comment_of(bytes: &[u8], t: GameToken) -> Option<RawComment<'_>> {
    let (kind, end) = match t.kind {
        TokenKind::BraceComment => (CommentKind::Brace, t.span.end.saturating_sub(1)),
        TokenKind::LineComment => (CommentKind::Line, t.span.end),
        _ => return None,
    };
    Some(RawComment {
        text: bytes.get(t.span.start + 1..end).unwrap_or_default(),
        kind,
    })
}

impl<'a> GameReader<'a> {
    fn diag(&mut self, kind: DiagnosticKind, span: Span) {
        self.diag_move(kind, span, None, None);
    }

    #[cold]
    fn diag_move(
        &mut self,
        kind: DiagnosticKind,
        span: Span,
        move_text: Option<String>,
        fen: Option<String>,
    ) {
        let bytes = self.game.bytes;
        let first_line = self.game.line;
        let index = self
            .index
            .get_or_insert_with(|| LineIndex::with_first_line(bytes, first_line));
        let lc = index.line_col(span.start);
        // The game's first line may start after other text of its line.
        let column = if lc.line == first_line {
            lc.column + self.game.column.saturating_sub(1)
        } else {
            lc.column
        };
        let severity = kind.severity();
        let severity = if self.options.strict && kind == DiagnosticKind::LowerCasePiece {
            Severity::Error
        } else {
            severity
        };
        self.diagnostics.push(Diagnostic {
            severity,
            kind,
            start: self.game.offset + span.start as u64,
            end: self.game.offset + span.end as u64,
            line: lc.line,
            column,
            move_text,
            fen,
        });
    }

    fn end_span(&self) -> Span {
        let end = self.game.bytes.len();
        let trimmed = self.game.bytes.trim_ascii_end().len();
        Span::new(trimmed.min(end), end.max(trimmed))
    }

    /// The token `t` of the game, with its text.
    #[inline(always)]
    fn token(&self, t: GameToken) -> Token<'a> {
        t.token(self.game.bytes)
    }

    fn run<V: Visitor, T: Tokens>(&mut self, mut lexer: T, visitor: &mut V) -> V::Output {
        // ---- Tag section ----
        let mut special = SpecialTags::default();
        let mut names = TagNames::default();
        let mut pre_comments: SmallVec<[RawComment<'a>; 2]> = SmallVec::new();
        let mut first_movetext: Option<GameToken> = None;
        let mut tag_error = false;
        let mut tab_warned = false;
        while let Some(token) = lexer.next() {
            match token.kind {
                TokenKind::TagOpen => {
                    if !self.read_tag(&mut lexer, token, &mut names, &mut special, visitor) {
                        tag_error = true;
                        break;
                    }
                    let tab = lexer.tab_in_string();
                    if let (false, Some(span)) = (tab_warned, tab) {
                        tab_warned = true;
                        self.diag(DiagnosticKind::TabInTag, span);
                    }
                }
                TokenKind::BraceComment | TokenKind::LineComment => {
                    if V::TEXT
                        && let Some(c) = comment_of(self.game.bytes, token)
                    {
                        pre_comments.push(c);
                    }
                }
                TokenKind::Escape => {}
                TokenKind::Error(LexErrorKind::UnterminatedString) => {
                    self.diag(DiagnosticKind::UnterminatedString, token.span);
                }
                _ => {
                    first_movetext = Some(token);
                    break;
                }
            }
        }
        if visitor.end_tags() == Skip::Yes {
            return visitor.end_game();
        }
        if tag_error {
            // The rest of the game, up to and including its marker, is skipped.
            return visitor.end_game();
        }
        // ---- Starting position ----
        let Some(start) = self.start_position(&special) else {
            return visitor.end_game();
        };
        visitor.begin_movetext(&start);
        let result_tag = special.result.as_deref().and_then(Termination::from_exact);
        let mut lines: SmallVec<[Line<'a>; 4]> = SmallVec::new();
        let mut main = Line::new(start, Span::new(0, 0));
        main.pending = pre_comments;
        lines.push(main);
        let mut marker: Option<(Termination, Span)> = None;
        let mut after_marker: SmallVec<[(RawComment<'a>, Span); 1]> = SmallVec::new();
        let marker_first = first_movetext
            .is_some_and(|token| self.movetext_token(token, &mut lines, &mut marker, visitor));
        if !marker_first {
            lexer.read_movetext(|token| {
                self.movetext_token(token, &mut lines, &mut marker, visitor)
            });
        }
        // After the marker: only comments (kept with this game) may follow.
        for raw in lexer.by_ref() {
            let token = self.token(raw);
            match token.kind {
                TokenKind::BraceComment | TokenKind::LineComment => {
                    if let Some(c) = comment_of(self.game.bytes, raw) {
                        after_marker.push((c, token.span));
                    }
                }
                TokenKind::Escape => {}
                _ => {
                    self.diag(unexpected(&token), token.span);
                    break;
                }
            }
        }
        // ---- End of the game ----
        let marker_read = marker.is_some();
        if lines.len() > 1 {
            // A marker inside the variation already reported why it stays open.
            if self.var_marker.is_none() {
                let open = lines.get(1).map_or(self.end_span(), |l| l.open);
                self.diag(DiagnosticKind::UnclosedVariation, open);
            }
            close_variations(&mut lines, visitor);
        }
        if marker.is_none() {
            marker = self.var_marker;
        }
        // A game skipped for its size (no bytes, one error) has nothing more to report.
        if marker.is_none() && !self.game.bytes.is_empty() {
            let end = self.end_span();
            let t = result_tag.unwrap_or(Termination::Unknown);
            self.diag(DiagnosticKind::MissingMarker(t.to_string()), end);
            marker = Some((t, end));
        }
        let (termination, marker_span) = marker.unwrap_or((Termination::Unknown, Span::new(0, 0)));
        if let Some(main) = lines.first_mut() {
            end_line(main, visitor);
            if !after_marker.is_empty() {
                let span = after_marker[0].1;
                self.diag(DiagnosticKind::CommentAfterMarker, span);
                for (c, _) in after_marker.into_iter().filter(|_| V::TEXT) {
                    if main.has_move && !main.after_close && !main.skipping {
                        visitor.comment(c);
                    } else {
                        visitor.trailing_comment(c);
                    }
                }
            }
        }
        if let (Some(tag), Some(value), true) = (result_tag, special.result.as_deref(), marker_read)
            && tag != termination
        {
            self.diag(
                DiagnosticKind::ResultMismatch {
                    tag: String::from_utf8_lossy(value).into_owned(),
                    marker: termination.to_string(),
                },
                marker_span,
            );
        }
        visitor.termination(termination);
        visitor.end_game()
    }

    /// Reads one tag pair after its `[`. Returns `false` on a malformed
    /// tag section (the game is broken and its movetext skipped).
    fn read_tag<V: Visitor, T: Tokens>(
        &mut self,
        lexer: &mut T,
        open: GameToken,
        names: &mut TagNames<'a>,
        special: &mut SpecialTags<'a>,
        visitor: &mut V,
    ) -> bool {
        let name = match lexer.next().map(|t| self.token(t)) {
            Some(t)
                if matches!(t.kind, TokenKind::Symbol | TokenKind::Integer)
                    && is_tag_name(t.text) =>
            {
                t
            }
            other => {
                let span = other.map_or(open.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected a tag name, found {what}")),
                    span,
                );
                return false;
            }
        };
        // The value's text is sliced only where it is wanted (see below).
        let value = match lexer.next() {
            Some(t) if t.kind == TokenKind::String => t,
            Some(t) if t.kind == TokenKind::Error(LexErrorKind::UnterminatedString) => {
                // Reading continues with the next line, still in the tags.
                self.diag(DiagnosticKind::UnterminatedString, t.span);
                return true;
            }
            other => {
                let other = other.map(|t| self.token(t));
                let span = other.map_or(name.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected a tag value, found {what}")),
                    span,
                );
                return false;
            }
        };
        match lexer.next() {
            Some(t) if t.kind == TokenKind::TagClose => {}
            other => {
                let other = other.map(|t| self.token(t));
                let span = other.map_or(value.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected `]`, found {what}")),
                    span,
                );
                return false;
            }
        }
        let name_text = name.text;
        if !names.insert(name_text) {
            self.diag(
                DiagnosticKind::DuplicateTag(String::from_utf8_lossy(name_text).into_owned()),
                open.span,
            );
            return true;
        }
        let special_name = matches!(name_text, b"FEN" | b"SetUp" | b"Variant" | b"Result");
        if !V::TEXT && !special_name {
            return true;
        }
        let value = self.token(value);
        let unescaped = value.string_value().unwrap_or_default();
        match name_text {
            b"FEN" => special.fen = Some((unescaped.clone(), value.span)),
            b"SetUp" => special.setup = Some((unescaped.clone(), value.span)),
            b"Variant" => special.variant = Some((unescaped.clone(), value.span)),
            b"Result" => special.result = Some(unescaped.clone()),
            _ => {}
        }
        if V::TEXT {
            visitor.tag(name_text, &unescaped);
        }
        true
    }

    /// The starting position from FEN, SetUp and Variant; `None` (with an
    /// error) when the game cannot be read.
    fn start_position(&mut self, special: &SpecialTags<'a>) -> Option<Position> {
        let mut chess960 = false;
        if let Some((variant, span)) = &special.variant {
            match VariantKind::from_tag(variant) {
                VariantKind::Standard => {}
                VariantKind::Chess960 => chess960 = true,
                VariantKind::Unsupported => {
                    let name = String::from_utf8_lossy(variant).into_owned();
                    self.diag(DiagnosticKind::UnsupportedVariant(name), *span);
                    return None;
                }
            }
        }
        match &special.fen {
            Some((fen, span)) => {
                let setup = match Setup::parse(fen) {
                    Ok(s) => s,
                    Err(e) => {
                        // Point at the offending character when the value
                        // holds no escapes (then its bytes are the text's).
                        let at = if fen.len() + 2 == span.end - span.start {
                            let start = (span.start + 1 + e.offset).min(span.end - 1);
                            Span::new(start, (start + 1).min(span.end - 1).max(start))
                        } else {
                            *span
                        };
                        self.diag(DiagnosticKind::InvalidFen(e.to_string()), at);
                        return None;
                    }
                };
                let mode = if chess960 || setup.castling_mode() == CastlingMode::Chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                match Position::from_setup(setup.clone(), mode) {
                    // Without a Variant tag, the castling rights that are
                    // kept decide (see `castling_needs_chess960`).
                    Ok(p)
                        if mode == CastlingMode::Chess960
                            && !chess960
                            && !castling_needs_chess960(&p) =>
                    {
                        Some(Position::from_setup(setup, CastlingMode::Standard).unwrap_or(p))
                    }
                    Ok(p) => Some(p),
                    Err(e) => {
                        let message = format!("invalid FEN: {e}");
                        self.diag(DiagnosticKind::InvalidFen(message), *span);
                        None
                    }
                }
            }
            None => {
                if let Some((setup, span)) = &special.setup
                    && setup.as_ref() == b"1"
                {
                    self.diag(DiagnosticKind::SetUpWithoutFen, *span);
                }
                if chess960 {
                    let setup =
                        Setup::parse(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                            .ok()?;
                    Position::from_setup(setup, CastlingMode::Chess960).ok()
                } else {
                    Some(Position::new())
                }
            }
        }
    }

    /// Handles one movetext token; `true` when it was the game's marker
    /// (outside variations), which ends the movetext.
    #[inline(always)]
    fn movetext_token<V: Visitor>(
        &mut self,
        token: GameToken,
        lines: &mut SmallVec<[Line<'a>; 4]>,
        marker: &mut Option<(Termination, Span)>,
        visitor: &mut V,
    ) -> bool {
        let depth = lines.len();
        let Some(line) = lines.last_mut() else {
            return false;
        };
        if line.skipping {
            match token.kind {
                TokenKind::VariationOpen => line.skip_depth += 1,
                TokenKind::VariationClose if line.skip_depth > 0 => line.skip_depth -= 1,
                TokenKind::VariationClose if depth > 1 => self.close_variation(lines, visitor),
                TokenKind::Termination(outcome) => {
                    self.marker(token.span, outcome.into(), lines, marker);
                    return marker.is_some();
                }
                _ => {}
            }
            return false;
        }
        // Moves first, without the jump over every kind: half of the tokens
        // here (most others are comments).
        if matches!(token.kind, TokenKind::Symbol | TokenKind::NullMove) {
            self.play(token.span, line, depth > 1, visitor);
            return false;
        }
        match token.kind {
            TokenKind::Integer | TokenKind::Period | TokenKind::Escape => {}
            TokenKind::Symbol | TokenKind::NullMove => {}
            TokenKind::Suffix(suffix) => {
                if line.after_move {
                    line.after_move = false;
                    visitor.nag(Nag(suffix.nag()));
                } else {
                    line.skipping = true;
                    self.diag(DiagnosticKind::MisplacedSuffix, token.span);
                }
            }
            TokenKind::Nag => {
                line.after_move = false;
                let value = self.token(token).nag().unwrap_or(u32::MAX);
                match u8::try_from(value) {
                    Err(_) => {
                        line.skipping = true;
                        self.diag(DiagnosticKind::NagOutOfRange, token.span);
                    }
                    Ok(n) if line.has_move => visitor.nag(Nag(n)),
                    Ok(_) => self.diag(DiagnosticKind::NagBeforeMove, token.span),
                }
            }
            TokenKind::BraceComment | TokenKind::LineComment => {
                line.after_move = false;
                // Comments only ever reach the visitor (waiting ones too).
                if V::TEXT
                    && let Some(c) = comment_of(self.game.bytes, token)
                {
                    if line.has_move && !line.after_close {
                        visitor.comment(c);
                    } else {
                        line.pending.push(c);
                    }
                }
            }
            TokenKind::VariationOpen => {
                line.after_move = false;
                let refused = if !line.has_move {
                    Some(DiagnosticKind::Unexpected("`(` before any move".to_owned()))
                } else if depth > MAX_VARIATION_DEPTH {
                    Some(DiagnosticKind::VariationTooDeep)
                } else {
                    None
                };
                if let Some(kind) = refused {
                    // Skip the rest of this line; the `(` itself opens a
                    // group that its `)` closes.
                    line.skipping = true;
                    line.skip_depth += 1;
                    self.diag(kind, token.span);
                    return false;
                }
                let mut var = Line::new(line.prev.clone(), token.span);
                var.parent_after_close = line.after_close;
                // Nothing of a variation reaches the visitor until its first
                // move, so an empty one can be dropped without a trace.
                var.announced = false;
                lines.push(var);
            }
            TokenKind::VariationClose => {
                if depth > 1 {
                    self.close_variation(lines, visitor);
                } else {
                    line.skipping = true;
                    self.diag(DiagnosticKind::UnmatchedClose, token.span);
                }
            }
            TokenKind::Termination(outcome) => {
                let text = self.token(token).text;
                if self.options.strict && text != outcome.as_str().as_bytes() {
                    line.skipping = true;
                    self.diag_move(
                        DiagnosticKind::LenientForm("result variant".into()),
                        token.span,
                        Some(lossy(text)),
                        None,
                    );
                }
                self.marker(token.span, outcome.into(), lines, marker);
                return marker.is_some();
            }
            TokenKind::Error(LexErrorKind::UnterminatedComment) => {
                line.skipping = true;
                self.diag(DiagnosticKind::UnterminatedComment, token.span);
            }
            _ => {
                line.skipping = true;
                let token = self.token(token);
                self.diag(unexpected(&token), token.span);
            }
        }
        false
    }

    fn marker(
        &mut self,
        span: Span,
        termination: Termination,
        lines: &mut SmallVec<[Line<'a>; 4]>,
        marker: &mut Option<(Termination, Span)>,
    ) {
        let in_variation = lines.len() > 1;
        match lines.last_mut() {
            // Inside a variation: an error of that line, skipped to its `)`
            // like any other; kept in case the game ends before that `)`.
            Some(line) if in_variation => {
                if !line.skipping {
                    line.skipping = true;
                    self.diag(DiagnosticKind::MarkerInVariation, span);
                }
                self.var_marker = Some((termination, span));
            }
            _ => *marker = Some((termination, span)),
        }
    }

    fn close_variation<V: Visitor>(
        &mut self,
        lines: &mut SmallVec<[Line<'a>; 4]>,
        visitor: &mut V,
    ) {
        let Some(mut var) = lines.pop() else { return };
        let mut dropped = false;
        if var.announced {
            end_line(&mut var, visitor);
            visitor.end_variation();
        } else if !var.has_move && !var.skipping {
            self.diag(DiagnosticKind::EmptyVariation, var.open);
            dropped = true;
        }
        if let Some(parent) = lines.last_mut() {
            // A dropped variation changes nothing: a comment after it
            // belongs where it would without the `()` (so export, which
            // cannot write the `()`, reads back to the same game).
            parent.after_close = if dropped {
                var.parent_after_close
            } else {
                true
            };
            parent.after_move = false;
        }
    }

    /// A separate en passant marker: only right after an en passant
    /// capture (and then a lenient form).
    fn en_passant_marker(&mut self, span: Span, text: &[u8], line: &mut Line<'a>) {
        let after_ep = line.after_move && line.last_en_passant;
        line.after_move = false;
        if after_ep && !self.options.strict {
            return;
        }
        line.skipping = true;
        let kind = if after_ep {
            DiagnosticKind::LenientForm("en passant marker".into())
        } else {
            DiagnosticKind::InvalidMove
        };
        self.diag_move(kind, span, Some(lossy(text)), None);
    }

    /// Resolves and plays a move of `line`, the current line (a variation
    /// when `in_variation`). Nearly every move is strict SAN, legal, and
    /// needs nothing reported: it is played here, in one step
    /// ([`Position::play_san`]); everything else goes to
    /// [`play_other`](GameReader::play_other), out of line, so the common
    /// path stays small.
    ///
    /// It takes the move's span alone (two registers; a whole token would
    /// be passed through memory) and slices the text itself.
    #[inline(never)]
    fn play<V: Visitor>(
        &mut self,
        span: Span,
        line: &mut Line<'a>,
        in_variation: bool,
        visitor: &mut V,
    ) {
        let text = span.slice(self.game.bytes);
        // The position before the move is kept when a variation may start
        // from it, when the visitor wants it, or for strict-mode messages.
        if self.keep_prev || V::MOVES {
            line.prev.clone_from(&line.pos);
        }
        // In strict mode a null move is an error; a variation's first move
        // is announced first.
        let fast = !self.options.strict && (line.announced || !in_variation);
        if fast && let Some(mv) = line.pos.play_san(text) {
            moved(line, mv, text, visitor);
            return;
        }
        self.play_other(span, text, line, in_variation, fast, visitor);
    }

    /// [`play`](GameReader::play) for the rest: lenient forms, errors,
    /// strict mode, en passant markers and a variation's first move.
    /// `tried`: the text is known not to be strict SAN for a legal move.
    #[cold]
    #[inline(never)]
    fn play_other<V: Visitor>(
        &mut self,
        span: Span,
        text: &'a [u8],
        line: &mut Line<'a>,
        in_variation: bool,
        tried: bool,
        visitor: &mut V,
    ) {
        // Strict SAN names the move (its `+`/`#` unchecked, which only
        // strict mode cares about). Anything else goes the lenient way,
        // which also gives the error.
        let strict_san = match self.options.strict || tried {
            false => line.pos.play_san(text),
            true => None,
        };
        let resolved: Result<(Move, Lenience), DiagnosticKind> = match strict_san {
            Some(m) => Ok((m, Lenience::NONE)),
            None if matches!(text, b"e.p." | b"ep") => {
                self.en_passant_marker(span, text, line);
                return;
            }
            None => match LenientSan::parse(text) {
                Ok(san) => san.to_move_and_play(&mut line.pos).map_err(|e| match e {
                    SanError::Ambiguous => DiagnosticKind::AmbiguousMove,
                    _ => DiagnosticKind::IllegalMove,
                }),
                Err(_) => Err(DiagnosticKind::InvalidMove),
            },
        };
        let (mv, lenience) = match resolved {
            Ok(r) => r,
            Err(kind) => {
                // The position is unchanged on error.
                line.skipping = true;
                let fen = line.pos.to_string();
                self.diag_move(kind, span, Some(lossy(text)), Some(fen));
                return;
            }
        };
        if !lenience.is_empty() || mv.is_null() {
            if self.options.strict {
                line.skipping = true;
                let forms: Vec<&str> = if mv.is_null() && lenience.is_empty() {
                    vec!["null move"]
                } else {
                    lenience.names().collect()
                };
                let fen = line.prev.to_string();
                self.diag_move(
                    DiagnosticKind::LenientForm(forms.join(", ")),
                    span,
                    Some(lossy(text)),
                    Some(fen),
                );
                return;
            }
            if lenience.contains(Lenience::LOWERCASE_PIECE) {
                self.diag_move(
                    DiagnosticKind::LowerCasePiece,
                    span,
                    Some(lossy(text)),
                    None,
                );
            }
        }
        // Announce a variation at its first move (the visitor may skip it).
        if !line.announced && in_variation {
            if visitor.begin_variation() == Skip::Yes {
                line.skipping = true;
                line.has_move = true;
                return;
            }
            line.announced = true;
        }
        moved(line, mv, text, visitor);
    }
}

/// After `mv` (written `text`) was played on `line`: the move's events
/// (with the comments waiting before it) and the line's state.
#[inline(always)]
fn moved<'a, V: Visitor>(line: &mut Line<'a>, mv: Move, text: &'a [u8], visitor: &mut V) {
    if V::MOVES {
        // Most moves have no comment before them: no drain to set up then.
        if !line.pending.is_empty() {
            for c in line.pending.drain(..) {
                visitor.comment_before(c);
            }
        }
        visitor.san(MoveEvent {
            before: &line.prev,
            after: &line.pos,
            mv,
            text,
        });
    } else if V::TEXT {
        // Without texts no comment ever waits.
        line.pending.clear();
    }
    line.last_en_passant = mv.is_en_passant();
    line.has_move = true;
    line.after_close = false;
    line.after_move = true;
}

/// Sends a line's waiting comments as trailing comments.
fn end_line<V: Visitor>(line: &mut Line<'_>, visitor: &mut V) {
    if line.skipping {
        line.pending.clear();
        return;
    }
    for c in line.pending.drain(..) {
        visitor.trailing_comment(c);
    }
}

/// Closes every open variation (the game ended inside them).
fn close_variations<V: Visitor>(lines: &mut SmallVec<[Line<'_>; 4]>, visitor: &mut V) {
    while lines.len() > 1 {
        if let Some(mut var) = lines.pop()
            && var.announced
        {
            end_line(&mut var, visitor);
            visitor.end_variation();
        }
    }
    if let Some(main) = lines.last_mut() {
        main.after_close = true;
    }
}

/// The tag names of a game so far, to find duplicates.
#[derive(Default)]
struct TagNames<'a> {
    /// One bit per name key hash: a clear bit means "surely new".
    seen: u64,
    names: SmallVec<[(u32, &'a [u8]); 24]>,
}

impl<'a> TagNames<'a> {
    /// Adds `name`; `false` if it was already there.
    #[inline(always)]
    fn insert(&mut self, name: &'a [u8]) -> bool {
        // Length, first, middle and last byte: cheap, and rarely shared (the middle byte tells
        // `UTCDate` from `UTCTime`, `EndDate` from `EndTime`).
        let byte = |i: usize| u32::from(name.get(i).copied().unwrap_or(0));
        let len = name.len();
        let key = (len as u32 & 0xff) << 24
            | byte(0) << 16
            | byte(len / 2) << 8
            | byte(len.wrapping_sub(1));
        let bit = 1u64 << (key.wrapping_mul(0x9e37_79b1) >> 26);
        if self.seen & bit != 0 {
            return self.insert_seen(key, name);
        }
        self.seen |= bit;
        self.names.push((key, name));
        true
    }

    /// [`insert`](TagNames::insert) when a name of the same hash was seen.
    #[inline(never)]
    fn insert_seen(&mut self, key: u32, name: &'a [u8]) -> bool {
        if self.names.iter().any(|&(k, n)| k == key && n == name) {
            return false;
        }
        self.names.push((key, name));
        true
    }
}

/// Whether a tag name's token text is a tag name (`A-Z a-z 0-9 _` only).
#[inline]
fn is_tag_name(text: &[u8]) -> bool {
    /// The bytes of tag names: one load a byte.
    static TAG_NAME: [bool; 256] = {
        let mut t = [false; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).is_ascii_alphanumeric() || i == b'_' as usize;
            i += 1;
        }
        t
    };
    text.iter().all(|&b| TAG_NAME[usize::from(b)])
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn describe(token: &Token<'_>) -> String {
    match token.kind {
        TokenKind::Error(kind) => kind.to_string(),
        kind => format!("{} `{}`", kind.name(), String::from_utf8_lossy(token.text)),
    }
}

/// What a token that has no place where it stands is: the lexer's own
/// error for bytes that form no token, else `unexpected <kind> <text>`.
fn unexpected(token: &Token<'_>) -> DiagnosticKind {
    match token.kind {
        TokenKind::Error(kind) => DiagnosticKind::Lex(kind),
        _ => DiagnosticKind::Unexpected(describe(token)),
    }
}

impl From<pgnkit_lexer::Outcome> for Termination {
    fn from(o: pgnkit_lexer::Outcome) -> Termination {
        match o {
            pgnkit_lexer::Outcome::WhiteWins => Termination::WhiteWins,
            pgnkit_lexer::Outcome::BlackWins => Termination::BlackWins,
            pgnkit_lexer::Outcome::Draw => Termination::Draw,
            pgnkit_lexer::Outcome::Unknown => Termination::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagnostics of every game of `input`, read with `visitor`.
    fn diagnostics_with<V: Visitor>(input: &[u8], visitor: V) -> Vec<Diagnostics> {
        visit_games(input, visitor, ReadOptions::default())
            .map(|game| game.diagnostics)
            .collect()
    }

    #[test]
    fn validate_skips_texts_but_not_diagnostics() {
        // Comments everywhere, escapes and TABs in tag values, duplicate and
        // special tags, a mismatched result, comments after the marker.
        let input = concat!(
            "[Event \"a \\\"b\\\" c\"]\n[Event \"d\"]\n[Result \"1-0\"]\n",
            "[White \"x\ty\"]\n{before} 1. e4 {after} e5 (1... c5 {in} 2. Nf3) ",
            "; line\n2. Nf3 {c} 0-1 {late}\n\n",
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n1. Kb1 {x} *\n\n",
            "[Variant \"Atomic\"]\n1. e4 *\n\n{only a comment} *\n",
        );
        let all = diagnostics_with(input.as_bytes(), TreeBuilder::new());
        assert_eq!(all.len(), 4);
        assert!(all.iter().any(|d| !d.is_empty()));
        assert_eq!(diagnostics_with(input.as_bytes(), crate::Validate), all);
    }

    #[test]
    fn tag_names_find_duplicates_even_with_shared_keys() {
        let mut names = TagNames::default();
        // Same length, first and last byte: the same key.
        assert!(names.insert(b"Abc"));
        assert!(names.insert(b"Axc"));
        assert!(!names.insert(b"Abc"));
        assert!(!names.insert(b"Axc"));
        for i in 0..100u8 {
            let name = [b'T', b'a' + i % 26, b'0' + i / 26];
            assert!(names.insert(Box::leak(Box::new(name))));
        }
        assert!(!names.insert(b"Ta0"));
        assert!(names.insert(b"Event"));
    }
}
