//! Piece kinds ([`Role`]) and colored pieces ([`Piece`]).

use crate::color::Color;
use core::fmt;

/// A kind of piece, regardless of color.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, queen first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// Index 0 (pawn) to 5 (king), for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter: `p n b r q k`.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// Upper-case letter: `P N B R Q K`. (One table load: SAN writing asks
    /// for it on every piece move.)
    #[inline]
    pub const fn upper_char(self) -> char {
        b"PNBRQK"[self as usize] as char
    }

    /// Parses a piece letter of either case.
    pub const fn from_char(ch: char) -> Option<Role> {
        match ch.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// Parses an upper-case piece letter only.
    pub const fn from_upper_char(ch: char) -> Option<Role> {
        if ch.is_ascii_uppercase() {
            Role::from_char(ch)
        } else {
            None
        }
    }

    /// This role with a color.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        })
    }
}

/// A piece: a [`Role`] with a [`Color`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Parses a FEN letter (upper case White, lower case Black).
    pub const fn from_char(ch: char) -> Option<Piece> {
        match Role::from_char(ch) {
            Some(role) => Some(Piece {
                color: if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::from_char(role.char()), Some(role));
            assert_eq!(Role::from_upper_char(role.upper_char()), Some(role));
            assert_eq!(Role::from_upper_char(role.char()), None);
            for color in Color::ALL {
                let piece = role.of(color);
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
            }
        }
        assert_eq!(Role::from_char('x'), None);
        assert_eq!(Piece::from_char('N'), Some(Role::Knight.of(Color::White)));
    }
}
