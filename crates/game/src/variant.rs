//! Which chess a game plays, from its `Variant` tag (SPEC-NOTES "When a
//! game is Chess960, and other variants").

use pgnkit_chess::{Bitboard, Color, Position, Square};

/// Whether a position read with Chess960 castling needs it: whether some
/// castling right it kept (the impossible ones are dropped when it is made)
/// has its king off the e-file or its rook off a corner.
///
/// A FEN's file letters alone do not make a game Chess960: `HAha` on the
/// standard start, or `EQkq` whose `E` names no rook, keeps only rights
/// that standard chess has, which export writes as X-FEN `KQkq`/`Qkq` and
/// which read back as standard chess. Deciding on the kept rights makes
/// `read(export(g))` the same game (SPEC-NOTES: idempotence is part of the
/// contract).
pub(crate) fn castling_needs_chess960(pos: &Position) -> bool {
    let rights = pos.castles();
    Color::ALL.into_iter().any(|color| {
        let rooks = rights.of(color);
        let king_home = pos.board().king_of(color) == Some(Square::E1.relative_to(color));
        !rooks.is_empty() && (!king_home || (rooks & !Bitboard::CORNERS).any())
    })
}

/// What a `Variant` tag value means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VariantKind {
    /// `Standard`, `Normal`, `Chess`, `From Position` or empty.
    Standard,
    /// `Chess960`, `chess 960`, `960`, `Fischerandom`, `Fischer Random`, `FRC`.
    Chess960,
    /// Anything else (crazyhouse, atomic, ...): not supported.
    Unsupported,
}

impl VariantKind {
    /// Classifies a `Variant` tag value (case-insensitive, surrounding
    /// white space ignored).
    ///
    /// ```
    /// use pgnkit_game::VariantKind;
    /// assert_eq!(VariantKind::from_tag(b"Fischer Random"), VariantKind::Chess960);
    /// assert_eq!(VariantKind::from_tag(b"From Position"), VariantKind::Standard);
    /// assert_eq!(VariantKind::from_tag(b"Crazyhouse"), VariantKind::Unsupported);
    /// ```
    pub fn from_tag(value: &[u8]) -> VariantKind {
        let value = value.trim_ascii();
        let is = |name: &str| value.eq_ignore_ascii_case(name.as_bytes());
        if [
            "chess960",
            "chess 960",
            "960",
            "fischerandom",
            "fischer random",
            "frc",
        ]
        .iter()
        .any(|n| is(n))
        {
            VariantKind::Chess960
        } else if ["standard", "normal", "chess", "from position", ""]
            .iter()
            .any(|n| is(n))
        {
            VariantKind::Standard
        } else {
            VariantKind::Unsupported
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for v in ["chess960", "CHESS 960", " 960 ", "FRC", "fischerandom"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Chess960,
                "{v}"
            );
        }
        for v in ["", "Standard", "normal", "Chess", "from position"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Standard,
                "{v}"
            );
        }
        for v in ["atomic", "Three-check", "chess9600", "horde"] {
            assert_eq!(
                VariantKind::from_tag(v.as_bytes()),
                VariantKind::Unsupported,
                "{v}"
            );
        }
    }
}
