//! The tokens the game reader reads: a game's tokens from the lexer's
//! single pass (kinds and spans in the game's bytes; the reader slices a
//! token's text only where it needs it), with the lexer's warnings.

use pgnkit_lexer::{GameToken, LexWarning, LexWarningKind, Span};

/// A game's tokens, read in order.
pub(super) struct Tokens<'t> {
    /// All the game's tokens.
    all: &'t [GameToken],
    tokens: std::slice::Iter<'t, GameToken>,
    warnings: &'t [LexWarning],
}

impl<'t> Tokens<'t> {
    /// The tokens `tokens` with the lexer's `warnings` for them.
    pub(super) fn new(tokens: &'t [GameToken], warnings: &'t [LexWarning]) -> Tokens<'t> {
        Tokens {
            all: tokens,
            tokens: tokens.iter(),
            warnings,
        }
    }

    /// The tokens not read yet, after the last one read when `with_last`.
    pub(super) fn unread(&self, with_last: bool) -> &'t [GameToken] {
        let rest = self.tokens.as_slice().len() + usize::from(with_last);
        self.all
            .get(self.all.len().saturating_sub(rest)..)
            .unwrap_or_default()
    }

    /// The end of the last token read (0 before the first), found from
    /// how many are left: only the rare warnings ask for it, so reading a
    /// token stores nothing but the iterator's step.
    fn pos(&self) -> usize {
        let read = self.all.len() - self.tokens.as_slice().len();
        read.checked_sub(1)
            .and_then(|last| self.all.get(last))
            .map_or(0, |t| t.span.end)
    }

    /// The first TAB-in-a-string warning of the tokens read so far.
    pub(super) fn tab_in_string(&self) -> Option<Span> {
        if self.warnings.is_empty() {
            return None;
        }
        // A warning belongs to the token it starts with: those read so far start before `pos`.
        let pos = self.pos();
        self.warnings
            .iter()
            .take_while(|w| w.span.start < pos)
            .find(|w| w.kind == LexWarningKind::TabInString)
            .map(|w| w.span)
    }

    /// Whether the lexer read the string starting at `start` (read already)
    /// as a tag value with unescaped quotes inside.
    #[inline]
    pub(super) fn unescaped_quote_at(&self, start: usize) -> bool {
        self.warnings
            .iter()
            .take_while(|w| w.span.start <= start)
            .any(|w| w.kind == LexWarningKind::UnescapedQuote && w.span.start == start)
    }

    /// Gives `take` the next tokens, up to the first for which it returns
    /// `true` or the last. The usual move numbers are not among them (the
    /// reader's lexing options leave them out,
    /// [`LexOptions::skip_move_numbers`](pgnkit_lexer::LexOptions::skip_move_numbers));
    /// the others reach `take`, which passes over them.
    ///
    /// The loop runs on a local copy of the slice iterator (kept in
    /// registers, not stored back at every token), which goes back into
    /// `self` at the end.
    #[inline(always)]
    pub(super) fn read_movetext(&mut self, mut take: impl FnMut(GameToken) -> bool) {
        let mut tokens = self.tokens.clone();
        for &token in tokens.by_ref() {
            if take(token) {
                break;
            }
        }
        self.tokens = tokens;
    }
}

impl Iterator for Tokens<'_> {
    type Item = GameToken;

    #[inline]
    fn next(&mut self) -> Option<GameToken> {
        self.tokens.next().copied()
    }
}
