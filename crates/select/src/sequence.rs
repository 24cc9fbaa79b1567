//! Move sequences (`sequence "e4 e5 Nf3"` in a query): moves played in
//! this order, not necessarily one after the other, as Scoutfish's
//! `sequence` (whose steps are positions; here they are moves, which is
//! what a player remembers of a line).
//!
//! Each step is a move in SAN (`e4`, `Nf3`, `exd5`, `Nbd7`, `O-O`, `e8=Q`;
//! move numbers such as `1.` or `3...` and `+`/`#` are allowed and
//! ignored). A played move is the step when it is that kind of piece going
//! to that square, a capture exactly when `x` is written, with the same
//! promotion, and from the file or rank written (when one is). The side
//! that plays it does not count: `e5` is also Black's pawn from e6 or e7.
//!
//! ```
//! use pgnkit_chess::{Move, Position, San};
//! use pgnkit_select::Sequence;
//! let s = Sequence::parse("1. e4 Nf3").unwrap();
//! let mut pos = Position::new();
//! let mut plies = Vec::new();
//! let mut at = s.start();
//! for (ply, san) in ["e4", "e5", "Nf3"].iter().enumerate() {
//!     let mv = San::parse(san.as_bytes()).unwrap().to_move(&pos).unwrap();
//!     if s.step_is(at, &mv) {
//!         plies.push(ply + 1);
//!         at += 1;
//!     }
//!     pos.play_unchecked(mv);
//! }
//! assert_eq!(plies, [1, 3]);
//! assert!(s.is_done(at));
//! assert!(Sequence::parse("e4 Nz3").is_err());
//! ```

use pgnkit_chess::{Move, San, SanPlus};

/// Moves to find in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sequence {
    steps: Vec<San>,
}

impl Sequence {
    /// Reads the moves (separated by spaces); `Err` says what is wrong and
    /// the byte where.
    pub fn parse(text: &str) -> Result<Sequence, (usize, String)> {
        let mut steps = Vec::new();
        let mut at = 0;
        for word in text.split(' ') {
            let start = at;
            at += word.len() + 1;
            // A move number before the move, with or without a space.
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let word = if digits > 0 {
                let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
                if dots == 0 {
                    return Err((start, format!("`{word}` is not a move")));
                }
                &word[digits + dots..]
            } else {
                word
            };
            if word.is_empty() {
                continue;
            }
            match SanPlus::parse(word.as_bytes()) {
                Ok(san) => steps.push(san.san),
                Err(_) => {
                    return Err((
                        start + digits,
                        format!("`{word}` is not a move in SAN (as e4, Nf3, exd5, O-O, e8=Q)"),
                    ));
                }
            }
        }
        if steps.is_empty() {
            return Err((0, "no moves in the sequence".to_string()));
        }
        Ok(Sequence { steps })
    }

    /// The number of moves to find.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Always false: a sequence has a move at least.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The step to look for first.
    pub fn start(&self) -> usize {
        0
    }

    /// Whether every step was found when `at` steps are.
    pub fn is_done(&self, at: usize) -> bool {
        at >= self.steps.len()
    }

    /// Whether `mv` is step `at` (false past the last step).
    pub fn step_is(&self, at: usize, mv: &Move) -> bool {
        self.steps.get(at).is_some_and(|san| is(san, mv))
    }
}

/// Whether the played `mv` is what `san` says (see the module docs).
fn is(san: &San, mv: &Move) -> bool {
    match *san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            !mv.is_castle()
                && mv.role() == Some(role)
                && mv.to() == Some(to)
                && mv.is_capture() == capture
                && mv.promotion() == promotion
                && mv.from().is_some_and(|from| {
                    file.is_none_or(|f| from.file() == f) && rank.is_none_or(|r| from.rank() == r)
                })
        }
        San::Castle(side) => mv.castling_side() == Some(side),
        San::Null => mv.is_null(),
    }
}
