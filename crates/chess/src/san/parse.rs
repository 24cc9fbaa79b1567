//! Reading SAN text: [`San::parse`] and [`SanPlus::parse`].
//!
//! The shapes nearly all real moves take (`e4`, `Nf3`, `exd5`, `Nbd7`,
//! `e8=Q`, castling) are decoded by length and fixed positions
//! (`parse_common_shape`); anything else goes to the general parser, which
//! decides the result and the error. The byte helpers (`square_of`,
//! `piece_of`, `file_or_rank`) serve `Position::play_san` too.

use super::{ParseSanError, ParseSanErrorKind, San, SanPlus, Suffix};
use crate::castling::CastlingSide;
use crate::role::Role;
use crate::square::{File, Rank, Square};

fn perr(offset: usize, kind: ParseSanErrorKind) -> ParseSanError {
    ParseSanError { offset, kind }
}

impl San {
    /// Parses strict SAN (`Nf3`, `exd5`, `e8=Q`, `Rad1`, `O-O`, `--`). A
    /// trailing `+` or `#` is accepted and ignored (see [`SanPlus::parse`]).
    #[inline]
    pub fn parse(s: &[u8]) -> Result<San, ParseSanError> {
        SanPlus::parse(s).map(|sp| sp.san)
    }

    fn parse_body(s: &[u8]) -> Result<San, ParseSanError> {
        match s {
            b"" => return Err(perr(0, ParseSanErrorKind::Empty)),
            b"O-O" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" => return Ok(San::Castle(CastlingSide::QueenSide)),
            b"--" => return Ok(San::Null),
            _ => {}
        }
        if s.len() > 7 {
            return Err(perr(7, ParseSanErrorKind::TooLong));
        }
        let (role, mut i) = match Role::from_upper_char(s[0] as char) {
            Some(Role::Pawn) => return Err(perr(0, ParseSanErrorKind::UnexpectedChar)),
            Some(role) => (role, 1),
            None => (Role::Pawn, 0),
        };
        // Collect the squares' characters: up to file, rank, 'x', file, rank.
        let mut end = s.len();
        let mut promotion = None;
        if end >= 2 && s[end - 2] == b'=' {
            if role != Role::Pawn {
                return Err(perr(end - 2, ParseSanErrorKind::UnexpectedChar));
            }
            match Role::from_upper_char(s[end - 1] as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => {
                    promotion = Some(r)
                }
                _ => return Err(perr(end - 1, ParseSanErrorKind::UnexpectedChar)),
            }
            end -= 2;
        }
        if end < i + 2 {
            return Err(perr(end, ParseSanErrorKind::MissingSquare));
        }
        let to = match (File::from_byte(s[end - 2]), Rank::from_byte(s[end - 1])) {
            (Some(f), Some(r)) => Square::from_coords(f, r),
            (None, _) => return Err(perr(end - 2, ParseSanErrorKind::UnexpectedChar)),
            (_, None) => return Err(perr(end - 1, ParseSanErrorKind::UnexpectedChar)),
        };
        let mut file = None;
        let mut rank = None;
        let mut capture = false;
        let stop = end - 2;
        if i < stop
            && let Some(f) = File::from_byte(s[i])
        {
            file = Some(f);
            i += 1;
        }
        if i < stop
            && let Some(r) = Rank::from_byte(s[i])
        {
            rank = Some(r);
            i += 1;
        }
        if i < stop && s[i] == b'x' {
            capture = true;
            i += 1;
        }
        if i != stop {
            return Err(perr(i, ParseSanErrorKind::UnexpectedChar));
        }
        if role == Role::Pawn {
            // Strict pawn moves: `e4`, `exd5`, with promotion only on the last rank.
            let valid = match (file, rank, capture) {
                (None, None, false) => true,
                (Some(f), None, true) => f != to.file(),
                _ => false,
            };
            if !valid {
                return Err(perr(0, ParseSanErrorKind::UnexpectedChar));
            }
            let last = matches!(to.rank(), Rank::First | Rank::Eighth);
            if promotion.is_some() != last && promotion.is_some() {
                return Err(perr(end, ParseSanErrorKind::UnexpectedChar));
            }
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

/// The square named by a file letter and a rank digit.
#[inline]
pub(crate) fn square_of(file: u8, rank: u8) -> Option<Square> {
    let (f, r) = (file.wrapping_sub(b'a'), rank.wrapping_sub(b'1'));
    (f < 8 && r < 8).then(|| Square::new(u32::from(f) | u32::from(r) << 3))
}

/// The piece named by an upper-case letter (not `P`: strict SAN omits it).
#[inline]
pub(crate) fn piece_of(letter: u8) -> Option<Role> {
    match letter {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    }
}

/// A piece or pawn move without start square or promotion.
#[inline]
fn simple(role: Role, capture: bool, to: Square) -> San {
    San::Normal {
        role,
        file: None,
        rank: None,
        capture,
        to,
        promotion: None,
    }
}

/// A pawn capture `exd5` (start file `from`), maybe promoting.
#[inline]
fn pawn_capture(from: u8, to: Square, promotion: Option<Role>) -> Option<San> {
    let file = File::from_byte(from).filter(|&f| f != to.file())?;
    Some(San::Normal {
        role: Role::Pawn,
        file: Some(file),
        rank: None,
        capture: true,
        to,
        promotion,
    })
}

/// The promotion `=Q` onto `to`, only on a back rank (elsewhere the
/// general parser reports the error).
#[inline]
fn promotion_onto(to: Square, letter: u8) -> Option<Role> {
    let role = piece_of(letter).filter(|&r| r != Role::King)?;
    matches!(to.rank(), Rank::First | Rank::Eighth).then_some(role)
}

/// A piece move with its start file or rank `d` (`Nbd7`, `R1xe2`).
#[inline]
fn disambiguated(p: u8, d: u8, capture: bool, f: u8, r: u8) -> Option<San> {
    let role = piece_of(p)?;
    let to = square_of(f, r)?;
    let (file, rank) = file_or_rank(d)?;
    Some(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    })
}

/// The start file or rank a disambiguating byte names (one of the two).
#[inline]
pub(crate) fn file_or_rank(d: u8) -> Option<(Option<File>, Option<Rank>)> {
    match (File::from_byte(d), Rank::from_byte(d)) {
        (Some(file), _) => Some((Some(file), None)),
        (_, Some(rank)) => Some((None, Some(rank))),
        _ => None,
    }
}

/// Decodes the shapes nearly all real moves take (`e4`, `exd5`, `Nf3`,
/// `Nxe5`, `Nbd7`, `R1e2`, `e8=Q`, `exd8=Q`, castling, each maybe with `+`
/// or `#`) by their length and fixed positions, without the general
/// parser's scanning. `None` means "not one of these": the general parser
/// then decides, so results and errors are exactly its own.
#[inline(always)]
pub(super) fn parse_common_shape(s: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match s {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (s, None),
    };
    let san = match *body {
        [f, r] => simple(Role::Pawn, false, square_of(f, r)?),
        [b'O', b'-', b'O'] => San::Castle(CastlingSide::KingSide),
        [p, f, r] => simple(piece_of(p)?, false, square_of(f, r)?),
        [p, b'x', f, r] => match piece_of(p) {
            Some(role) => simple(role, true, square_of(f, r)?),
            None => pawn_capture(p, square_of(f, r)?, None)?,
        },
        [f, r, b'=', q] => {
            let to = square_of(f, r)?;
            San::Normal {
                role: Role::Pawn,
                file: None,
                rank: None,
                capture: false,
                to,
                promotion: Some(promotion_onto(to, q)?),
            }
        }
        [p, d, f, r] => disambiguated(p, d, false, f, r)?,
        [b'O', b'-', b'O', b'-', b'O'] => San::Castle(CastlingSide::QueenSide),
        [p, d, b'x', f, r] => disambiguated(p, d, true, f, r)?,
        [e, b'x', f, r, b'=', q] => {
            let to = square_of(f, r)?;
            pawn_capture(e, to, Some(promotion_onto(to, q)?))?
        }
        _ => return None,
    };
    Some(SanPlus { san, suffix })
}

impl SanPlus {
    /// Parses strict SAN with an optional `+` or `#`.
    #[inline]
    pub fn parse(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        match parse_common_shape(s) {
            Some(san_plus) => Ok(san_plus),
            None => SanPlus::parse_general(s),
        }
    }

    /// The full strict parser: every shape, and the errors with offsets.
    pub(super) fn parse_general(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        // Move suffixes (`!`, `?`) are the lexer's; point at the first one.
        if let Some(i) = s.iter().position(|&b| b == b'!' || b == b'?') {
            return Err(perr(i, ParseSanErrorKind::UnexpectedChar));
        }
        let (body, suffix) = match s.last() {
            Some(b'+') => (&s[..s.len() - 1], Some(Suffix::Check)),
            Some(b'#') => (&s[..s.len() - 1], Some(Suffix::Checkmate)),
            _ => (s, None),
        };
        let san = San::parse_body(body)?;
        if san == San::Null && suffix.is_some() {
            // Passing gives no check: `--+` and `--#` are not moves (as in `LenientSan`).
            return Err(perr(body.len(), ParseSanErrorKind::UnexpectedChar));
        }
        Ok(SanPlus { san, suffix })
    }
}
