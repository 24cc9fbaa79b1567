//! The tokens the game reader reads: a game's tokens from the lexer's
//! single pass (kinds and spans in the game's bytes; the reader slices a
//! token's text only where it needs it), with the lexer's warnings.

use pgnkit_lexer::{GameToken, LexWarning, LexWarningKind, Span, TokenKind};

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

    /// Gives `tag` the tag pairs of the usual shape that come next, `[`, a symbol, a string
    /// and `]`, as `(open, name, value)`: up to the first other token or the first pair `tag`
    /// declines (returns `false`), which is left unread with what follows. Nothing when the
    /// lexer warned about the game: a warning may belong to a tag pair, and the general path
    /// reads them (see [`tab_in_string`](Tokens::tab_in_string)).
    ///
    /// Like [`read_movetext`](Tokens::read_movetext), the loop runs on a local copy of the
    /// tokens (in registers, not stored back at every token); `tag` gets references, so that
    /// only the parts it reads are loaded (callgrind: copying the three tokens cost 18
    /// instructions a tag of `check`).
    #[inline(always)]
    pub(super) fn read_plain_tags(
        &mut self,
        mut tag: impl FnMut(&GameToken, &GameToken, &GameToken) -> bool,
    ) {
        if !self.warnings.is_empty() {
            return;
        }
        let mut rest = self.tokens.as_slice();
        while let [open, name, value, close, after @ ..] = rest
            && matches!(open.kind, TokenKind::TagOpen)
            && matches!(name.kind, TokenKind::Symbol)
            && matches!(value.kind, TokenKind::String)
            && matches!(close.kind, TokenKind::TagClose)
            && tag(open, name, value)
        {
            rest = after;
        }
        self.tokens = rest.iter();
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

#[cfg(test)]
mod tests {
    use pgnkit_lexer::{GameToken, LexWarning, LexWarningKind, Span, TokenKind};

    use super::Tokens;

    /// Tokens of the kinds `kinds`, the `i`-th at bytes `i..i + 1`.
    fn tokens(kinds: &[TokenKind]) -> Vec<GameToken> {
        (0..)
            .zip(kinds)
            .map(|(i, &kind)| GameToken {
                kind,
                span: Span::new(i, i + 1),
            })
            .collect()
    }

    /// The `(open, name, value)` starts `read_plain_tags` gives, taking all, and the kind of
    /// the next token then.
    fn plain(tokens: &[GameToken], warnings: &[LexWarning]) -> (Vec<usize>, Option<TokenKind>) {
        let mut read = Tokens::new(tokens, warnings);
        let mut opens = Vec::new();
        read.read_plain_tags(|open, name, value| {
            assert_eq!(
                (name.span.start, value.span.start),
                (open.span.start + 1, open.span.start + 2)
            );
            opens.push(open.span.start);
            true
        });
        (opens, read.next().map(|t| t.kind))
    }

    #[test]
    fn plain_tags_are_runs_of_the_four_tokens() {
        use TokenKind::*;
        let pair = [TagOpen, Symbol, String, TagClose];
        let two_then = |k: &[TokenKind]| tokens(&[&pair[..], &pair, k].concat());
        assert_eq!(plain(&two_then(&[Symbol]), &[]), (vec![0, 4], Some(Symbol)));
        assert_eq!(plain(&two_then(&[]), &[]), (vec![0, 4], None));
        assert_eq!(
            plain(&two_then(&[BraceComment]), &[]),
            (vec![0, 4], Some(BraceComment))
        );
        // Any other shape is left, from its `[`, to the general path.
        for other in [
            &[TagOpen, Integer, String, TagClose][..],
            &[TagOpen, Symbol, Symbol, TagClose],
            &[TagOpen, Symbol, String, Symbol],
            &[TagOpen, Symbol, String],
            &[TagOpen, Symbol],
            &[TagOpen],
            &[Escape, TagOpen, Symbol, String, TagClose],
        ] {
            assert_eq!(
                plain(&two_then(other), &[]),
                (vec![0, 4], Some(other[0])),
                "{other:?}"
            );
        }
        // A game with a lexer warning is read by the general path only.
        let warning = LexWarning {
            kind: LexWarningKind::LongString,
            span: Span::new(100, 101),
        };
        assert_eq!(plain(&two_then(&[]), &[warning]), (vec![], Some(TagOpen)));
    }

    #[test]
    fn a_declined_plain_tag_is_left_unread() {
        use TokenKind::*;
        let all = tokens(&[TagOpen, Symbol, String, TagClose].repeat(3));
        let mut read = Tokens::new(&all, &[]);
        let mut seen = 0;
        read.read_plain_tags(|_, _, _| {
            seen += 1;
            seen < 2
        });
        assert_eq!(seen, 2);
        assert_eq!(read.next(), Some(all[4]));
        assert_eq!(read.unread(true), &all[4..]);
    }
}
