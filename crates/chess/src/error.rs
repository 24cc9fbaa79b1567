//! Every error of this crate, gathered in one place: FEN, position, SAN,
//! UCI and move errors.
//!
//! Each error is defined beside the type whose parsing or checking can fail
//! (a square's parse error in `square.rs`, a FEN's in `fen.rs`, and so on),
//! so that no module has to look up here; this module only re-exports them.
//! Parse errors carry the byte offset (into the text given to the parser)
//! of the character that is wrong, so callers can turn them into line and
//! column positions.

pub use crate::fen::{FenErrorKind, FenField, ParseFenError};
pub use crate::position::{FenError, IllegalMoveError, PositionError};
pub use crate::san::{ParseSanError, ParseSanErrorKind, SanError};
pub use crate::san_play::PlaySanError;
pub use crate::square::ParseSquareError;
pub use crate::uci::{IllegalUciError, ParseUciError};
