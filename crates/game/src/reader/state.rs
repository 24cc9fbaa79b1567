//! The reader's state for one game ([`GameReader`]) and what every part of
//! the walk shares: diagnostics with their line and column, a token's text,
//! comments and the words of error messages. Below the tag section and the
//! movetext, which both add to it.

use pgnkit_lexer::{GameToken, LexErrorKind, LineIndex, Span, Token, TokenKind};

use super::ReadOptions;
use crate::comment::CommentKind;
use crate::diagnostic::{Diagnostic, Diagnostics, Severity};
use crate::error::DiagnosticKind;
use crate::game_start::GameStart;
use crate::termination::Termination;
use crate::visitor::RawComment;

/// The state of the reader for one game.
pub(super) struct GameReader<'a> {
    pub(super) game: GameStart<'a>,
    /// The last marker read inside a variation (an error).
    pub(super) var_marker: Option<(Termination, Span)>,
    pub(super) keep_prev: bool,
    pub(super) options: ReadOptions,
    pub(super) diagnostics: Diagnostics,
    pub(super) index: Option<LineIndex<'a>>,
    /// For a game the lexer's reader skipped for its size: its length
    /// ([`TokenizedGame::too_large`](pgnkit_lexer::TokenizedGame::too_large)).
    pub(super) too_large: Option<u64>,
}

/// The comment the token `t` of the game's `bytes` is, if it is one: its text is sliced from
/// the bytes once (not the token's text, then the text inside).
#[inline(always)]
pub(super) fn comment_of(bytes: &[u8], t: GameToken) -> Option<RawComment<'_>> {
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
    pub(super) fn diag(&mut self, kind: DiagnosticKind, span: Span) {
        self.diag_move(kind, span, None, None);
    }

    #[cold]
    pub(super) fn diag_move(
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

    pub(super) fn end_span(&self) -> Span {
        let end = self.game.bytes.len();
        let trimmed = self.game.bytes.trim_ascii_end().len();
        Span::new(trimmed.min(end), end.max(trimmed))
    }

    /// What a token that has no place where it stands is: the lexer's own
    /// error for bytes that form no token (with the game's size for a game
    /// skipped for its size), else `unexpected <kind> <text>`.
    pub(super) fn unexpected(&self, token: &Token<'_>) -> DiagnosticKind {
        match token.kind {
            TokenKind::Error(LexErrorKind::GameTooLarge) => DiagnosticKind::GameTooLarge {
                bytes: self.too_large.unwrap_or_default(),
            },
            TokenKind::Error(kind) => DiagnosticKind::Lex(kind),
            _ => DiagnosticKind::Unexpected(describe(token)),
        }
    }

    /// The token `t` of the game, with its text.
    #[inline(always)]
    pub(super) fn token(&self, t: GameToken) -> Token<'a> {
        t.token(self.game.bytes)
    }
}

pub(super) fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(super) fn describe(token: &Token<'_>) -> String {
    match token.kind {
        TokenKind::Error(kind) => kind.to_string(),
        kind => format!("{} `{}`", kind.name(), String::from_utf8_lossy(token.text)),
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
