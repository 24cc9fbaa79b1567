//! Board coordinates: [`File`], [`Rank`] and [`Square`] (a1 = 0 … h8 = 63).

use crate::color::Color;
use core::fmt;
use thiserror::Error;

/// A column of the board, `a` to `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// All files, `a` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `index & 7` (0 = a).
    ///
    /// A `match` rather than an index into [`File::ALL`]: the compiler turns
    /// it into a plain mask, where the array index made it build the array
    /// on the stack at every call.
    #[inline]
    pub const fn new(index: u32) -> File {
        match index & 7 {
            0 => File::A,
            1 => File::B,
            2 => File::C,
            3 => File::D,
            4 => File::E,
            5 => File::F,
            6 => File::G,
            _ => File::H,
        }
    }

    /// The file with this index, if it is below 8.
    #[inline]
    pub const fn try_new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File::new(index))
        } else {
            None
        }
    }

    /// 0 (a) to 7 (h).
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// The letter `a`..`h`.
    #[inline]
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The upper-case letter `A`..`H` (Shredder-FEN, X-FEN white rights).
    #[inline]
    pub const fn upper_char(self) -> char {
        (b'A' + self as u8) as char
    }

    /// Parses a lower-case file letter.
    #[inline]
    pub const fn from_char(ch: char) -> Option<File> {
        if ch >= 'a' && ch <= 'h' {
            Some(File::new(ch as u32 - 'a' as u32))
        } else {
            None
        }
    }

    /// Parses a lower-case file letter given as a byte.
    #[inline]
    pub const fn from_byte(b: u8) -> Option<File> {
        File::from_char(b as char)
    }

    /// The file this many steps to the right (negative: left), if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File::new(i as u32))
        } else {
            None
        }
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A row of the board, `1` to `8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// All ranks, `1` first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `index & 7` (0 = first rank).
    ///
    /// A `match` for the same reason as [`File::new`].
    #[inline]
    pub const fn new(index: u32) -> Rank {
        match index & 7 {
            0 => Rank::First,
            1 => Rank::Second,
            2 => Rank::Third,
            3 => Rank::Fourth,
            4 => Rank::Fifth,
            5 => Rank::Sixth,
            6 => Rank::Seventh,
            _ => Rank::Eighth,
        }
    }

    /// The rank with this index, if it is below 8.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank::new(index))
        } else {
            None
        }
    }

    /// 0 (first rank) to 7 (eighth rank).
    #[inline]
    pub const fn index(self) -> u32 {
        self as u32
    }

    /// The digit `1`..`8`.
    #[inline]
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses a digit `1`..`8`.
    #[inline]
    pub const fn from_char(ch: char) -> Option<Rank> {
        if ch >= '1' && ch <= '8' {
            Some(Rank::new(ch as u32 - '1' as u32))
        } else {
            None
        }
    }

    /// Parses a digit `1`..`8` given as a byte.
    #[inline]
    pub const fn from_byte(b: u8) -> Option<Rank> {
        Rank::from_char(b as char)
    }

    /// This rank seen from `color`'s side (the first rank for Black is the eighth).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::new(7 - self as u32),
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square, numbered a1 = 0, b1 = 1, … h1 = 7, a2 = 8, … h8 = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($i);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index `index & 63`. (Indices come from bit scans and
    /// tables, so they are always in range; the mask only keeps this total.)
    #[inline]
    pub const fn new(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(file as u8 | ((rank as u8) << 3))
    }

    /// 0 (a1) to 63 (h8).
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The same as [`Square::index`], as `usize` for table lookups. (The
    /// mask changes nothing, a square is always below 64, but it lets the
    /// compiler drop the bounds check of every 64-entry table lookup.)
    #[inline]
    pub const fn idx(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File::new(self.0 as u32 & 7)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self.0 as u32 >> 3)
    }

    /// The square mirrored top to bottom (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square from `color`'s side (flipped vertically for Black).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `delta` indices away, if still on the board (no wrap check
    /// across files; use for vertical steps).
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<Square> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The square with this square's file and `other`'s rank.
    #[inline]
    pub const fn with_rank_of(self, other: Square) -> Square {
        Square((self.0 & 7) | (other.0 & 56))
    }

    /// Parses a square name like `e4` (lower-case file letter).
    pub const fn from_ascii(s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        match (File::from_byte(s[0]), Rank::from_byte(s[1])) {
            (Some(f), Some(r)) => Some(Square::from_coords(f, r)),
            _ => None,
        }
    }

    /// Chebyshev distance (king steps) between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.0 as i32 & 7) - (other.0 as i32 & 7);
        let dr = (self.0 as i32 >> 3) - (other.0 as i32 >> 3);
        let df = df.unsigned_abs();
        let dr = dr.unsigned_abs();
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file().char())?;
        f.write_char(self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file().upper_char())?;
        f.write_char(self.rank().char())
    }
}

impl core::str::FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, Self::Err> {
        Square::from_ascii(s.as_bytes()).ok_or(ParseSquareError)
    }
}

// Errors of this module (gathered in `error.rs`).

/// A square name was not `a1`..`h8`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("invalid square name")]
pub struct ParseSquareError;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        assert_eq!(Square::E4.file(), File::E);
        assert_eq!(Square::E4.rank(), Rank::Fourth);
        assert_eq!(Square::from_coords(File::H, Rank::Eighth), Square::H8);
        assert_eq!(Square::from_ascii(b"e4"), Some(Square::E4));
        assert_eq!(Square::from_ascii(b"E4"), None);
        assert_eq!(Square::from_ascii(b"i4"), None);
        assert_eq!(Square::from_ascii(b"e9"), None);
        assert_eq!("a8".parse::<Square>().ok(), Some(Square::A8));
        assert_eq!(Square::A1.relative_to(Color::Black), Square::A8);
        assert_eq!(Square::B2.distance(Square::H8), 6);
        assert_eq!(Square::G7.to_string(), "g7");
        assert_eq!(Square::try_new(64), None);
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
    }
}
