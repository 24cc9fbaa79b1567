//! [`PieceLetters`]: the letter (or figurine) written for each kind of piece,
//! English `PNBRQK` by default, another language's as pgn-extract's
//! `-WsanBSLTDK` (German) names them.

use std::fmt;

use pgnkit_chess::Role;

use crate::error::NotationError;

/// The six characters written for pawn, knight, bishop, rook, queen and
/// king, in that order (`PNBRQK`, as pgn-extract's `-Wsan[PNBRQK]`).
///
/// Pawn moves are written without a letter in every notation, so the pawn's
/// letter is only there to keep pgn-extract's six-letter form.
///
/// ```
/// use pgnkit_export::PieceLetters;
/// let german: PieceLetters = "BSLTDK".parse().unwrap();
/// assert_eq!(german.to_string(), "BSLTDK");
/// assert!("BSLTD".parse::<PieceLetters>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceLetters {
    letters: [char; 6],
}

impl PieceLetters {
    /// `PNBRQK`.
    pub const ENGLISH: PieceLetters = PieceLetters {
        letters: ['P', 'N', 'B', 'R', 'Q', 'K'],
    };

    /// The figurines of figurine algebraic notation (`♘ ♗ ♖ ♕ ♔`; a pawn
    /// has none written).
    pub const FIGURINES: PieceLetters = PieceLetters {
        letters: ['P', '♘', '♗', '♖', '♕', '♔'],
    };

    /// The letters `letters` (pawn, knight, bishop, rook, queen, king),
    /// or the first that would not read back as a piece.
    pub fn new(letters: [char; 6]) -> Result<PieceLetters, NotationError> {
        match letters.iter().find(|&&c| !usable(c)) {
            Some(&bad) => Err(NotationError::BadLetter(bad)),
            None => Ok(PieceLetters { letters }),
        }
    }

    /// The character written for `role`.
    pub fn of(&self, role: Role) -> char {
        self.letters[role as usize]
    }

    /// Whether these are the English letters.
    pub fn is_english(&self) -> bool {
        *self == PieceLetters::ENGLISH
    }
}

impl Default for PieceLetters {
    /// [`PieceLetters::ENGLISH`].
    fn default() -> PieceLetters {
        PieceLetters::ENGLISH
    }
}

/// Whether `c` can stand for a piece in movetext.
fn usable(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_ascii_digit()
        || matches!(c, 'a'..='h' | 'x' | '-' | '=' | '+' | '#' | '!' | '?')
        || matches!(
            c,
            '{' | '}'
                | '('
                | ')'
                | '['
                | ']'
                | ';'
                | '"'
                | '%'
                | '$'
                | '.'
                | '*'
                | '<'
                | '>'
                | '\\'
        )
        || c.is_control())
}

impl std::str::FromStr for PieceLetters {
    type Err = NotationError;

    /// Six characters, `PNBRQK` in order.
    fn from_str(s: &str) -> Result<PieceLetters, NotationError> {
        let chars: Vec<char> = s.chars().collect();
        let letters: [char; 6] = chars
            .as_slice()
            .try_into()
            .map_err(|_| NotationError::LetterCount(chars.len()))?;
        PieceLetters::new(letters)
    }
}

impl fmt::Display for PieceLetters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.letters.iter().try_for_each(|c| write!(f, "{c}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_read_back_and_bad_ones_are_named() {
        let german: PieceLetters = "BSLTDK".parse().unwrap();
        assert_eq!(german.of(Role::Knight), 'S');
        assert_eq!(german.of(Role::King), 'K');
        assert_eq!(german.to_string(), "BSLTDK");
        assert!(PieceLetters::ENGLISH.is_english());
        assert_eq!(
            "PNBRQ".parse::<PieceLetters>(),
            Err(NotationError::LetterCount(5))
        );
        assert_eq!(
            "PNBRQb".parse::<PieceLetters>(),
            Err(NotationError::BadLetter('b'))
        );
        assert_eq!(
            "PN RQK".parse::<PieceLetters>(),
            Err(NotationError::BadLetter(' '))
        );
        // Any alphabet: Russian letters.
        let russian: PieceLetters = "пКСЛФКр"
            .chars()
            .take(6)
            .collect::<String>()
            .parse()
            .unwrap();
        assert_eq!(russian.of(Role::Knight), 'К');
    }
}
