//! A position as users write it on the command line: a FEN, or moves from
//! the start in SAN (`"e4 c5 Nf3"`, move numbers allowed). An illegal move
//! is reported with its number, its text and why.

use pgnkit_chess::{Position, San, SanPlus};

use crate::error::IndexError;

/// The position `text` stands for: a FEN when it has a `/`, else the
/// position after its moves from the start.
///
/// ```
/// use pgnkit_index::parse_position;
///
/// let pos = parse_position("1. e4 c5 2. Nf3").unwrap();
/// assert_eq!(pos.to_string(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
/// let error = parse_position("e4 e5 Qh9").unwrap_err().to_string();
/// assert!(error.starts_with("move 3 `Qh9` (after e4 e5): not a move:"), "{error}");
/// ```
pub fn parse_position(text: &str) -> Result<Position, IndexError> {
    if text.contains('/') {
        return Position::from_fen(text.trim())
            .map_err(|e| IndexError::Position(format!("invalid FEN `{}`: {e}", text.trim())));
    }
    let mut pos = Position::new();
    let mut played: Vec<String> = Vec::new();
    for token in text.split_whitespace() {
        // Move numbers: `1.`, `1...`, `12.e4` (the number stripped).
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = token.trim_start_matches('.');
        if token.is_empty() {
            continue;
        }
        let number = played.len() + 1;
        let context = if played.is_empty() {
            "from the start".to_string()
        } else {
            format!("after {}", played.join(" "))
        };
        let san: San = token.parse().map_err(|e| {
            IndexError::Position(format!(
                "move {number} `{token}` ({context}): not a move: {e}"
            ))
        })?;
        let m = san.to_move(&pos).map_err(|e| {
            IndexError::Position(format!(
                "move {number} `{token}` ({context}): {e} in {}",
                pos
            ))
        })?;
        played.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn illegal_moves_say_which_and_why() {
        let e = parse_position("e4 e5 Ke3").unwrap_err().to_string();
        assert!(
            e.starts_with("move 3 `Ke3` (after e4 e5): illegal move in "),
            "{e}"
        );
        let e = parse_position("8/8/8 w - - 0 1").unwrap_err().to_string();
        assert!(e.starts_with("invalid FEN"), "{e}");
        assert_eq!(parse_position("").unwrap(), Position::new());
    }
}
