//! What users of python-chess and shakmaty reach for: [`Move::uci`], and
//! with the `serde` feature, serde for [a `Position`](crate::Position) (its
//! FEN string), [`Move`] (its UCI string, written only: a UCI string names
//! a move only in a position) and [`Uci`] (its string).

use crate::castling::CastlingMode;
use crate::moves::Move;
use crate::uci::Uci;

#[cfg(feature = "serde")]
use crate::position::Position;

impl Move {
    /// The move in UCI (`e2e4`, `e7e8q`, `0000` for a null move), castling
    /// written as the king's two-square step (`e1g1`) as standard chess
    /// engines expect. For a Chess960 game use
    /// `Uci::from_move(m, CastlingMode::Chess960)` (king takes rook).
    ///
    /// ```
    /// use pgnkit_chess::{CastlingMode, Position, San, Uci};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// let castle = San::parse(b"O-O").unwrap().to_move(&pos).unwrap();
    /// assert_eq!(castle.uci().to_string(), "e1g1");
    /// assert_eq!(Uci::from_move(castle, CastlingMode::Chess960).to_string(), "e1h1");
    /// ```
    pub fn uci(self) -> Uci {
        Uci::from_move(self, CastlingMode::Standard)
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use std::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Move, Position, Uci};
    use crate::fen::FenOptions;

    /// A string read through `FromStr`.
    struct FromStrVisitor<T>(&'static str, std::marker::PhantomData<T>);

    impl<T: std::str::FromStr> Visitor<'_> for FromStrVisitor<T>
    where
        T::Err: fmt::Display,
    {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            v.parse().map_err(E::custom)
        }
    }

    impl Serialize for Position {
        /// Its FEN ([`FenOptions::default`]).
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(&self.fen(FenOptions::default()))
        }
    }

    impl<'de> Deserialize<'de> for Position {
        /// From a FEN, validated (its castling mode from the FEN).
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
            d.deserialize_str(FromStrVisitor("a FEN string", std::marker::PhantomData))
        }
    }

    impl Serialize for Move {
        /// Its UCI ([`Move::uci`]).
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&self.uci())
        }
    }

    impl Serialize for Uci {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    impl<'de> Deserialize<'de> for Uci {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Uci, D::Error> {
            d.deserialize_str(FromStrVisitor("a UCI move", std::marker::PhantomData))
        }
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use crate::{Position, San, Uci};

    #[test]
    fn serde_as_strings() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let json = serde_json::to_string(&pos).unwrap();
        assert_eq!(json, r#""4k3/8/8/8/8/8/8/4K2R w K - 0 1""#);
        assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
        assert!(serde_json::from_str::<Position>(r#""8/8 w""#).is_err());
        let castle = San::parse(b"O-O").unwrap().to_move(&pos).unwrap();
        assert_eq!(serde_json::to_string(&castle).unwrap(), r#""e1g1""#);
        let uci: Uci = serde_json::from_str(r#""e7e8q""#).unwrap();
        assert_eq!(serde_json::to_string(&uci).unwrap(), r#""e7e8q""#);
    }
}
