//! Zobrist hashing keys.
//!
//! The keys are our own: splitmix64 from a fixed seed, computed by
//! `const fn` at compile time. A position's hash is the XOR of a key per
//! piece on its square, a key per castling rook square that still has
//! rights, a key for the en passant file (only when a legal en passant
//! capture exists, so equal positions hash equally however they were
//! reached) and a key when Black is to move. [`crate::Position::zobrist`]
//! computes it when asked (one lookup per piece): reading and validating
//! games never needs it, so playing a move does not keep it up to date.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::role::{Piece, Role};
use crate::square::Square;

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 64],
    ep_file: [u64; 8],
    black: u64,
}

const fn build_keys() -> Keys {
    let mut state = 0x5067_6e6b_6974_2121u64;
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [0; 64],
        ep_file: [0; 8],
        black: 0,
    };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            keys.pieces[p][sq] = splitmix(&mut state);
            sq += 1;
        }
        p += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        keys.castling[sq] = splitmix(&mut state);
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.ep_file[f] = splitmix(&mut state);
        f += 1;
    }
    keys.black = splitmix(&mut state);
    keys
}

static KEYS: Keys = build_keys();

/// Key of `piece` on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.color as usize * 6 + piece.role as usize][sq.idx()]
}

/// XOR of the keys of the castling rook squares in `rooks`.
#[inline]
pub(crate) fn castling_key(rooks: Bitboard) -> u64 {
    let mut h = 0;
    for sq in rooks {
        h ^= KEYS.castling[sq.idx()];
    }
    h
}

/// Key of an en passant square's file.
#[inline]
pub(crate) fn ep_key(sq: Square) -> u64 {
    KEYS.ep_file[sq.file() as usize]
}

/// Key for Black to move.
#[inline]
pub(crate) fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => KEYS.black,
    }
}

/// Hash of a whole position, from scratch.
pub(crate) fn hash_from_scratch(
    board: &Board,
    turn: Color,
    castles: Bitboard,
    ep: Option<Square>,
) -> u64 {
    let mut h = 0;
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            for sq in board.by_piece(piece) {
                h ^= piece_key(piece, sq);
            }
        }
    }
    h ^= castling_key(castles);
    if let Some(ep) = ep {
        h ^= ep_key(ep);
    }
    h ^ turn_key(turn)
}
