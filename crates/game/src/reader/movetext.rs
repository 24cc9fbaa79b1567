//! The movetext: lines of play (the main line and open variations), each
//! move resolved and played in its line's position, NAGs, comments,
//! variations and the termination marker, with recovery after an error.

use pgnkit_chess::{Lenience, LenientSan, Move, Position, SanError};
use pgnkit_lexer::{GameToken, LexErrorKind, Span, TokenKind};
use smallvec::SmallVec;

use super::state::{GameReader, comment_of, lossy};
use crate::Nag;
use crate::error::DiagnosticKind;
use crate::limits::MAX_VARIATION_DEPTH;
use crate::termination::Termination;
use crate::visitor::{MoveEvent, RawComment, Skip, Visitor};

/// One line of play being read: the main line or an open variation.
pub(super) struct Line<'a> {
    /// The position after the line's last move.
    pub(super) pos: Position,
    /// The position before the line's last move (variations start there).
    pub(super) prev: Position,
    /// Whether the line has a move.
    pub(super) has_move: bool,
    /// Whether the visitor was told the variation began.
    pub(super) announced: bool,
    /// Skipping to the line's end after an error.
    pub(super) skipping: bool,
    /// The visitor skipped this variation (or one it is inside): its moves
    /// are still played and checked, so an error in it is reported to every
    /// visitor alike, but no event of it reaches the visitor.
    pub(super) silent: bool,
    /// Nested parentheses inside the skipped part.
    pub(super) skip_depth: u32,
    /// The last token was a `)` closing a variation of this line.
    pub(super) after_close: bool,
    /// The last token was this line's move (a suffix may follow).
    pub(super) after_move: bool,
    /// The line's last move was an en passant capture.
    pub(super) last_en_passant: bool,
    /// Comments waiting for the next move of this line.
    pub(super) pending: SmallVec<[RawComment<'a>; 2]>,
    /// Where the variation opened.
    pub(super) open: Span,
    /// The parent line's `after_close` when this variation opened: a
    /// variation dropped for having no moves leaves its parent as if the
    /// `(` ... `)` were not there.
    pub(super) parent_after_close: bool,
}

impl<'a> Line<'a> {
    pub(super) fn new(pos: Position, open: Span) -> Line<'a> {
        Line {
            prev: pos.clone(),
            pos,
            has_move: false,
            announced: false,
            skipping: false,
            silent: false,
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

impl<'a> GameReader<'a> {
    /// Handles one movetext token; `true` when it was the game's marker
    /// (outside variations), which ends the movetext.
    #[inline(always)]
    pub(super) fn movetext_token<V: Visitor>(
        &mut self,
        token: GameToken,
        lines: &mut Vec<Line<'a>>,
        marker: &mut Option<(Termination, Span)>,
        visitor: &mut V,
    ) -> bool {
        let depth = lines.len();
        let Some(line) = lines.last_mut() else {
            return false;
        };
        // Moves first, without the jump over every kind: half of the tokens
        // here (most others are comments). A line skipped after an error
        // passes over its moves.
        if matches!(token.kind, TokenKind::Symbol | TokenKind::NullMove) {
            if !line.skipping {
                self.play(token.span, line, depth > 1, visitor);
                // A visitor that needs no more moves ends the movetext here
                // (the rest is passed over: `GameReader::skip_to_marker`).
                return V::STOP && depth == 1 && visitor.stop();
            }
            return false;
        }
        // Without comments in the visitor (`check`), a comment only ends what may follow a
        // move: tested before the jump over every kind, as most tokens here that are no
        // moves are comments.
        if !V::COMMENTS && matches!(token.kind, TokenKind::BraceComment | TokenKind::LineComment) {
            if !line.skipping {
                line.after_move = false;
            }
            return false;
        }
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
        match token.kind {
            TokenKind::Integer | TokenKind::Period | TokenKind::Escape => {}
            TokenKind::Symbol | TokenKind::NullMove => {}
            TokenKind::Suffix(suffix) => {
                if line.after_move {
                    line.after_move = false;
                    if !line.silent {
                        visitor.nag(Nag(suffix.nag()));
                    }
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
                    Ok(_) if line.silent && line.has_move => {}
                    Ok(n) if line.has_move => visitor.nag(Nag(n)),
                    Ok(_) => self.diag(DiagnosticKind::NagBeforeMove, token.span),
                }
            }
            TokenKind::BraceComment | TokenKind::LineComment => {
                line.after_move = false;
                // Comments only ever reach the visitor (waiting ones too).
                if V::COMMENTS
                    && !line.silent
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
                var.silent = line.silent;
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
                self.diag(self.unexpected(&token), token.span);
            }
        }
        false
    }

    /// After a visitor stopped the reading ([`Visitor::stop`]): passes over
    /// the rest of the movetext, only counting parentheses, up to the
    /// game's marker outside variations (a marker inside one is kept as
    /// the reading keeps it, in case no other follows).
    pub(super) fn skip_to_marker(
        &mut self,
        tokens: &mut impl Iterator<Item = GameToken>,
        marker: &mut Option<(Termination, Span)>,
    ) {
        let mut depth = 0u32;
        for token in tokens {
            match token.kind {
                TokenKind::VariationOpen => depth += 1,
                TokenKind::VariationClose => depth = depth.saturating_sub(1),
                TokenKind::Termination(outcome) if depth == 0 => {
                    *marker = Some((outcome.into(), token.span));
                    return;
                }
                TokenKind::Termination(outcome) => {
                    self.var_marker = Some((outcome.into(), token.span));
                }
                _ => {}
            }
        }
    }

    fn marker(
        &mut self,
        span: Span,
        termination: Termination,
        lines: &mut [Line<'a>],
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

    fn close_variation<V: Visitor>(&mut self, lines: &mut Vec<Line<'a>>, visitor: &mut V) {
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
    /// be passed through memory) and slices the text itself. Inlined into
    /// the movetext loop: the call's register saves and restores cost
    /// more per move than the loop loses to the inlined path.
    #[inline(always)]
    fn play<V: Visitor>(
        &mut self,
        span: Span,
        line: &mut Line<'a>,
        in_variation: bool,
        visitor: &mut V,
    ) {
        // The position before the move is kept when a variation may start
        // from it, when the visitor reads it, or for strict-mode messages.
        // Strict mode keeps it (`keep_prev`): without it, strict mode is not tested again.
        let keep_prev = self.keep_prev;
        if keep_prev || (V::MOVES && V::BEFORE) {
            line.prev.clone_from(&line.pos);
        }
        let strict = keep_prev && self.options.strict;
        // The lexer's spans always lie in the game's bytes: the text is sliced with one
        // test and a branch, not `Span::slice`'s empty text for a span outside them (its
        // selects cost 18 instructions a move of `check`, callgrind); that case goes the
        // rare way, with that empty text.
        let Some(text) = self.game.bytes.get(span.start..span.end) else {
            let fast = !strict && (!in_variation || line.announced || line.silent);
            self.play_other(span, &[], line, in_variation, fast, visitor);
            return;
        };
        // In strict mode a null move is an error; a variation's first move
        // is announced first. The main line's test comes first: it is known
        // already (the line count), the flags of the line are loads
        // (callgrind: `check` 0.7% fewer instructions than testing them first).
        let fast = !strict && (!in_variation || line.announced || line.silent);
        if fast && let Ok(mv) = line.pos.play_san(text) {
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
            false => line.pos.play_san(text).ok(),
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
        // Announce a variation at its first move (the visitor may skip it:
        // then it is read on, silently).
        if !line.announced && !line.silent && in_variation {
            if visitor.begin_variation() == Skip::Yes {
                line.silent = true;
            } else {
                line.announced = true;
            }
        }
        moved(line, mv, text, visitor);
    }
}

/// After `mv` (written `text`) was played on `line`: the move's events
/// (with the comments waiting before it) and the line's state.
#[inline(always)]
fn moved<'a, V: Visitor>(line: &mut Line<'a>, mv: Move, text: &'a [u8], visitor: &mut V) {
    if V::MOVES && !line.silent {
        // Most moves have no comment before them: no drain to set up then.
        // Without comments none ever waits.
        if V::COMMENTS && !line.pending.is_empty() {
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
    } else if V::COMMENTS {
        // Without comments none ever waits.
        line.pending.clear();
    }
    line.last_en_passant = mv.is_en_passant();
    line.has_move = true;
    line.after_close = false;
    line.after_move = true;
}

/// Sends a line's waiting comments as trailing comments.
pub(super) fn end_line<V: Visitor>(line: &mut Line<'_>, visitor: &mut V) {
    if line.skipping {
        line.pending.clear();
        return;
    }
    for c in line.pending.drain(..) {
        visitor.trailing_comment(c);
    }
}

/// Closes every open variation (the game ended inside them).
pub(super) fn close_variations<V: Visitor>(lines: &mut Vec<Line<'_>>, visitor: &mut V) {
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
