//! Duplicate games: a 128-bit key per game and the set of keys seen.
//!
//! Two games are duplicates when they start from the same position and
//! their main lines play the same moves; tags, comments, NAGs and
//! variations do not count. [`GameKey::of`] hashes the start position
//! (board, side to move, castling rights, en passant; the standard start is
//! one constant) and the main line's moves (two bytes each) into 128 bits
//! with a hash of our own ([`Hasher128`]: two 64-bit lanes, each word mixed
//! by a 64x64->128-bit multiply). With 128 bits, the chance that two
//! different games of a 10^9-game collection share a key is below 10^-20.
//!
//! Memory: [`Seen`] keeps 16 bytes (the key) per distinct game in a hash
//! table, plus the table's spare room (hashbrown keeps at least 1/8 of its
//! slots free and doubles when full, with one control byte per slot), so
//! between 19.4 (table 7/8 full) and 38.9 bytes (just grown) per distinct game as allocated; it keeps nothing
//! else. [`Seen::with_place`] also keeps where each kept game was (a `P` of
//! the caller's choosing) for the caller who names it.
//!
//! With `fuzzy_ply` ([`GameKey::at_ply`]), games are duplicates when the
//! board after that many plies (or at the end of a shorter game; 0 means
//! at the end) is the same: pieces on squares only, as pgn-extract's
//! `--fuzzydepth` (side to move, castling and en passant are not compared).

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use pgnkit_chess::{Move, Position, Square};
use pgnkit_game::Game;

/// A game's 128-bit identity for duplicate detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey(pub u128);

impl GameKey {
    /// The key of the start position and the main line's moves.
    ///
    /// ```
    /// use pgnkit_game::Game;
    /// use pgnkit_select::GameKey;
    /// let a: Game = "[Event \"A\"]\n\n1. e4 {x} e5 (1... c5) 2. Nf3 1-0".parse().unwrap();
    /// let b: Game = "[Event \"B\"]\n\n1. e4 e5 2. Nf3 *".parse().unwrap();
    /// let c: Game = "1. e4 e5 2. Nc3 *".parse().unwrap();
    /// assert_eq!(GameKey::of(&a), GameKey::of(&b));
    /// assert_ne!(GameKey::of(&a), GameKey::of(&c));
    /// ```
    pub fn of(game: &Game) -> GameKey {
        GameKey::of_moves(
            game.start_position(),
            game.main_line_moves().map(|played| played.mv),
        )
    }

    /// The key of a start position and main-line moves, as [`GameKey::of`]
    /// computes it from a game (for a caller that has the moves without a
    /// tree, such as [`MainLine`](crate::MainLine)).
    ///
    /// ```
    /// use pgnkit_chess::Position;
    /// use pgnkit_game::Game;
    /// use pgnkit_select::GameKey;
    /// let game: Game = "1. e4 e5 2. Nf3 *".parse().unwrap();
    /// let moves = game.main_line_moves().map(|m| m.mv);
    /// assert_eq!(GameKey::of_moves(&Position::new(), moves), GameKey::of(&game));
    /// ```
    pub fn of_moves(start: &Position, moves: impl IntoIterator<Item = Move>) -> GameKey {
        let mut h = Hasher128::new(0x5eed_0001);
        if *start == Position::new() {
            h.write_word(0);
        } else {
            h.write_word(1);
            write_position(&mut h, start, true);
        }
        let mut word = 0u64;
        let mut n = 0u32;
        for mv in moves {
            word = (word << 16) | u64::from(move_code(mv));
            n += 1;
            if n.is_multiple_of(4) {
                h.write_word(word);
                word = 0;
            }
        }
        h.write_word(word);
        h.write_word(u64::from(n));
        GameKey(h.finish())
    }

    /// The key of the board after `ply` plies of the main line (or at its
    /// end when it is shorter, or when `ply` is 0): pieces only.
    ///
    /// ```
    /// use pgnkit_game::Game;
    /// use pgnkit_select::GameKey;
    /// let a: Game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *".parse().unwrap();
    /// let b: Game = "1. Nf3 Nc6 2. e4 e5 3. Bc4 *".parse().unwrap();
    /// assert_eq!(GameKey::at_ply(&a, 4), GameKey::at_ply(&b, 4));
    /// assert_ne!(GameKey::at_ply(&a, 5), GameKey::at_ply(&b, 5));
    /// ```
    pub fn at_ply(game: &Game, ply: usize) -> GameKey {
        let mut pos = game.start_position().clone();
        for (i, played) in game.main_line_moves().enumerate() {
            if ply != 0 && i >= ply {
                break;
            }
            pos.play_unchecked(played.mv);
        }
        let mut h = Hasher128::new(0x5eed_0002);
        write_position(&mut h, &pos, false);
        GameKey(h.finish())
    }
}

/// Hashes the board (and with `full`, side to move, castling and en passant).
fn write_position(h: &mut Hasher128, pos: &Position, full: bool) {
    for (square, piece) in pos.board().pieces() {
        let code = (u64::from(square.index()) << 8)
            | ((piece.color as u64) << 4)
            | (piece.role as u64 + 1);
        h.write_word(code);
    }
    h.write_word(u64::MAX);
    if full {
        h.write_word(pos.turn() as u64);
        let rooks = pos.castles().rooks();
        h.write_word(rooks.0);
        h.write_word(pos.ep_square().map_or(64, |sq| u64::from(sq.index())));
    }
}

/// A move in 16 bits: from, to (6 bits each), the promotion or the kind.
fn move_code(mv: Move) -> u16 {
    let sq = |s: Square| s.index() as u16;
    match mv {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => sq(from) | (sq(to) << 6) | (promotion.map_or(0, |r| r as u16 + 1) << 12),
        Move::EnPassant { from, to } => sq(from) | (sq(to) << 6) | (8 << 12),
        Move::Castle { king, rook } => sq(king) | (sq(rook) << 6) | (9 << 12),
        Move::Null => 0xffff,
    }
}

/// The 128-bit hash of the keys: two lanes of 64 bits, each word folded in
/// with a 64x64->128-bit multiply (the high and low halves XORed), the lanes
/// with different constants; a final round of each lane with the other.
/// Not cryptographic: it separates real games, not adversarial ones.
#[derive(Debug, Clone)]
pub struct Hasher128 {
    a: u64,
    b: u64,
}

const K1: u64 = 0x9e37_79b9_7f4a_7c15;
const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;
const K3: u64 = 0x1656_67b1_9e37_79f9;
const K4: u64 = 0x27d4_eb2f_1656_67c5;

fn fold(x: u64, k: u64) -> u64 {
    let m = u128::from(x) * u128::from(k);
    (m as u64) ^ ((m >> 64) as u64)
}

impl Hasher128 {
    /// A hasher with a seed (different seeds give unrelated hashes).
    pub fn new(seed: u64) -> Hasher128 {
        Hasher128 {
            a: fold(seed ^ K3, K1),
            b: fold(seed ^ K4, K2),
        }
    }

    /// Folds in one word.
    pub fn write_word(&mut self, w: u64) {
        self.a = fold(self.a ^ w ^ K3, K1);
        self.b = fold(self.b.rotate_left(29) ^ w ^ K4, K2);
    }

    /// The hash.
    pub fn finish(&self) -> u128 {
        let a = fold(self.a ^ self.b.rotate_left(17), K2);
        let b = fold(self.b ^ a, K1);
        (u128::from(a) << 64) | u128::from(b)
    }
}

/// The keys are hashes already: the table uses their low 64 bits as they are.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHash;

/// The hasher of [`KeyHash`]: takes the `u128` key's low half.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

impl BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// The keys seen so far, and for each where its first game was (`P`; `()` to keep nothing).
///
/// ```
/// use pgnkit_select::{GameKey, Seen};
/// let mut seen = Seen::<()>::new();
/// assert_eq!(seen.first(GameKey(7), ()), None);
/// assert_eq!(seen.first(GameKey(7), ()), Some(&()));
/// let mut placed = Seen::with_place();
/// placed.first(GameKey(7), ("a.pgn", 1));
/// assert_eq!(placed.first(GameKey(7), ("b.pgn", 9)), Some(&("a.pgn", 1)));
/// ```
#[derive(Debug, Clone)]
pub struct Seen<P> {
    map: HashMap<u128, P, KeyHash>,
}

impl Seen<()> {
    /// Keys only: 16 bytes per distinct game plus the table's spare room.
    pub fn new() -> Seen<()> {
        Seen {
            map: HashMap::with_hasher(KeyHash),
        }
    }
}

impl Default for Seen<()> {
    fn default() -> Self {
        Seen::new()
    }
}

impl<P> Seen<P> {
    /// Keys and where each kept game was.
    pub fn with_place() -> Seen<P> {
        Seen {
            map: HashMap::with_hasher(KeyHash),
        }
    }

    /// `None` when `key` is new (it is kept, with `place`); else where the
    /// first game with this key was.
    pub fn first(&mut self, key: GameKey, place: P) -> Option<&P> {
        use std::collections::hash_map::Entry;
        match self.map.entry(key.0) {
            Entry::Occupied(e) => Some(e.into_mut()),
            Entry::Vacant(e) => {
                e.insert(place);
                None
            }
        }
    }

    /// Distinct games seen.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no game was seen.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_count() {
        let a: Game = "1. e4 *".parse().unwrap();
        let b: Game = "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1. e4 *"
            .parse()
            .unwrap();
        let c: Game = "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1\"]\n\n1. e4 *"
            .parse()
            .unwrap();
        assert_eq!(
            GameKey::of(&a),
            GameKey::of(&b),
            "the start by FEN is the start"
        );
        assert_ne!(GameKey::of(&a), GameKey::of(&c), "castling rights count");
    }

    #[test]
    fn lengths_and_order_count() {
        let key = |t: &str| GameKey::of(&t.parse::<Game>().unwrap());
        assert_ne!(key("1. e4 e5 2. Nf3 Nc6 *"), key("1. Nf3 Nc6 2. e4 e5 *"));
        assert_ne!(key("*"), key("1. e4 *"));
        assert_ne!(key("1. a3 a6 2. a4 a5 *"), key("1. a3 a6 2. a4 *"));
        assert_ne!(key("*"), GameKey::at_ply(&"*".parse::<Game>().unwrap(), 0));
    }
}
