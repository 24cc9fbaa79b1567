//! [`main_line_moves`]: how many moves a game's main line holds, counted
//! on its tokens (no chess).

use crate::{GameToken, TokenKind};

/// The move tokens (symbols and null moves) of a game's movetext outside
/// variations, up to its termination marker: the plies of its main line
/// when the game reads without errors. The tag section (`[` to `]`) is
/// passed over, so are comments, move numbers, NAGs and the tokens inside
/// `(` ... `)`. A count of tokens, not of legal moves: a game with errors
/// may hold more or fewer plies than this says.
///
/// ```
/// use pgnkit_lexer::{GameSplitter, main_line_moves};
/// let pgn = b"[White \"A\"]\n\n1. e4 { a } e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 -- $1 1-0\n";
/// let mut games = GameSplitter::new(pgn);
/// let game = games.next_tokenized().unwrap();
/// assert_eq!(main_line_moves(game.tokens), 4);
/// ```
pub fn main_line_moves(tokens: &[GameToken]) -> usize {
    let mut moves = 0;
    let mut depth = 0usize;
    let mut in_tag = false;
    for token in tokens {
        match token.kind {
            TokenKind::Symbol | TokenKind::NullMove => {
                moves += usize::from(depth == 0 && !in_tag);
            }
            TokenKind::TagOpen => in_tag = true,
            TokenKind::TagClose => in_tag = false,
            TokenKind::VariationOpen => depth += 1,
            TokenKind::VariationClose => depth = depth.saturating_sub(1),
            TokenKind::Termination(_) if depth == 0 => break,
            _ => {}
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameSplitter;

    fn count(pgn: &[u8]) -> usize {
        let mut games = GameSplitter::new(pgn);
        let game = games.next_tokenized().expect("a game");
        main_line_moves(game.tokens)
    }

    #[test]
    fn moves_outside_tags_variations_and_after_the_marker() {
        assert_eq!(count(b"[PlyCount \"3\"]\n\n1. e4 e5 2. Nf3 *\n"), 3);
        assert_eq!(count(b"1... e5 2. Z0 0000 @@@@ Nf3! ?? $3 *"), 5);
        assert_eq!(
            count(b"1. e4 ((1. d4) 1. c4 (1. b4 (1. a4))) e5 { x } ; y\n*"),
            2
        );
        assert_eq!(count(b"1. e4 (1. d4 0-1) e5 1-0 { after }"), 2);
        assert_eq!(count(b"[Event \"?\"]\n\n*"), 0);
        assert_eq!(count(b"1. e4 ) e5 *"), 2);
    }
}
