//! One game read from its tokens: the walk over the game's parts (tag
//! section, starting position, movetext, what follows the marker, the end
//! of the game), on top of the reader's state (`state.rs`), the tag section
//! (`tag_section.rs`) and the movetext (`movetext.rs`).

use pgnkit_lexer::{GameToken, LexErrorKind, Span, TokenKind};
use smallvec::SmallVec;

use super::ReadOptions;
use super::movetext::{Line, close_variations, end_line};
use super::state::{GameReader, comment_of};
use super::tag_section::{SpecialTags, TagNames};
use super::tokens::Tokens;
use crate::diagnostic::Diagnostics;
use crate::error::DiagnosticKind;
use crate::game_start::GameStart;
use crate::termination::Termination;
use crate::visitor::{MainLineMoves, RawComment, Skip, Visitor};

/// The lines of play room is made for at a game's start (see [`GameReader::run`]).
const LINES: usize = 3;

/// Reads one game from its tokens.
pub(super) fn read_game<'a, V: Visitor>(
    game: GameStart<'a>,
    tokens: Tokens<'_>,
    too_large: Option<u64>,
    variations: bool,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    let mut reader = GameReader {
        game,
        // Without a `(` token no variation can start, so the position
        // before each move need not be kept (the validate-only path saves a
        // copy a move); strict mode's messages show it.
        keep_prev: options.strict || variations,
        var_marker: None,
        options,
        diagnostics: Diagnostics::new(),
        index: None,
        too_large,
    };
    visitor.begin_game(game);
    let output = reader.run(tokens, visitor);
    (output, reader.diagnostics)
}

impl<'a> GameReader<'a> {
    /// Reads the game: tag section, starting position, movetext, what
    /// follows the marker, and the end of the game.
    fn run<V: Visitor>(&mut self, mut lexer: Tokens<'_>, visitor: &mut V) -> V::Output {
        // ---- Tag section ----
        let mut special = SpecialTags::default();
        let mut names = TagNames::default();
        let mut pre_comments: SmallVec<[RawComment<'a>; 2]> = SmallVec::new();
        let mut first_movetext: Option<GameToken> = None;
        let mut tag_error = false;
        let mut tab_warned = false;
        loop {
            // The usual tag pairs in a tight loop; the others, and what is between them, below.
            lexer.read_plain_tags(|open, name, value| {
                self.read_plain_tag(open, name, value, &mut names, &mut special, visitor)
            });
            let Some(token) = lexer.next() else {
                break;
            };
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
                    if V::COMMENTS
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
        if V::MAIN_LINE_MOVES {
            let movetext = lexer.unread(first_movetext.is_some());
            visitor.main_line_moves(MainLineMoves::new(movetext));
        }
        // ---- Starting position ----
        let Some(start) = self.start_position(&special) else {
            return visitor.end_game();
        };
        visitor.begin_movetext(&start);
        let result_tag = special.result.as_deref().and_then(Termination::from_exact);
        // A `Vec`, not a `SmallVec`: the movetext loop asks for the last line at
        // every token, and a `SmallVec` tests where its items are each time
        // (callgrind: 2.4% of `check` more than one allocation a game). Room for
        // the main line and two nested variations: more would be over 1 KiB,
        // which glibc's malloc serves on its slow path (callgrind: 480
        // instructions a game to allocate and free four lines, about 50 for three).
        let mut lines: Vec<Line<'a>> = Vec::with_capacity(LINES);
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
        // The movetext ended before its marker only when the visitor
        // stopped it or the tokens ran out (then nothing is left to pass over).
        if V::STOP && marker.is_none() {
            self.skip_to_marker(&mut lexer, &mut marker);
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
                    self.diag(self.unexpected(&token), token.span);
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
                for (c, _) in after_marker.into_iter().filter(|_| V::COMMENTS) {
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
        if let Some(main) = lines.first() {
            visitor.end_movetext(&main.pos);
        }
        visitor.termination(termination);
        visitor.end_game()
    }
}

#[cfg(test)]
mod tests {
    use super::{LINES, Line};

    #[test]
    fn the_lines_of_a_game_fit_in_malloc_s_fast_path() {
        // glibc's per-thread cache serves requests of up to 1032 bytes.
        let bytes = LINES * std::mem::size_of::<Line<'_>>();
        assert!(bytes <= 1032, "{LINES} lines take {bytes} bytes");
    }
}
