//! [`ExportOptions`]: what the writer writes and how.

use pgnkit_chess::FenOptions;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Notation {
    /// Standard Algebraic Notation, canonical, with `+`/`#` (`Nf3`, `exd8=Q#`).
    #[default]
    San,
    /// Long algebraic notation: piece letter (not for pawns), from-square,
    /// `-` or `x`, to-square, promotion, check suffix (`e2-e4`, `Ng1-f3`,
    /// `e7xd8=Q`, `O-O`).
    Lan,
    /// UCI (`e2e4`, `e7e8q`; castling `e1g1`, or king takes rook `e1h1` in
    /// Chess960; `0000` for a null move).
    Uci,
    /// Figurine algebraic notation: SAN with the figurines ♔ ♕ ♖ ♗ ♘ for
    /// the piece letters (`♘f3`, `exd8=♕#`).
    Fan,
}

/// What the writer writes and how.
///
/// Start from [`ExportOptions::export`] (SPEC-NOTES rules 1-8) or
/// [`ExportOptions::reduced`] (rule 9) and change fields:
///
/// ```
/// use pgnkit_export::{ExportOptions, Notation};
/// let options = ExportOptions {
///     comments: false,
///     notation: Notation::Lan,
///     ..ExportOptions::export()
/// };
/// assert!(options.nags && options.variations);
/// assert_eq!(options.width, 79);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// The most characters (Unicode code points) on a movetext line; a
    /// single unit longer than this stands alone on its line. Tag lines are
    /// never wrapped. Default 79 (the standard: less than 80).
    pub width: usize,
    /// Write comments.
    pub comments: bool,
    /// Write NAGs (move suffixes are NAGs).
    pub nags: bool,
    /// Write variations.
    pub variations: bool,
    /// Write only the Seven Tag Roster, plus `FEN`, `SetUp` and `Variant`
    /// when the game needs them to be replayed (rule 9).
    pub reduced_tags: bool,
    /// How moves are written.
    pub notation: Notation,
    /// How the `FEN` tag is written (en passant square, Chess960 castling).
    pub fen: FenOptions,
}

impl ExportOptions {
    /// Export format, SPEC-NOTES rules 1-8: every tag, comments, NAGs and
    /// variations, SAN, 79 characters a line.
    pub fn export() -> ExportOptions {
        ExportOptions {
            width: 79,
            comments: true,
            nags: true,
            variations: true,
            reduced_tags: false,
            notation: Notation::San,
            fen: FenOptions::default(),
        }
    }

    /// Reduced export format, rule 9: the roster tags (and what replaying
    /// needs), no comments, NAGs or variations.
    pub fn reduced() -> ExportOptions {
        ExportOptions {
            comments: false,
            nags: false,
            variations: false,
            reduced_tags: true,
            ..ExportOptions::export()
        }
    }
}

impl Default for ExportOptions {
    /// [`ExportOptions::export`].
    fn default() -> ExportOptions {
        ExportOptions::export()
    }
}
