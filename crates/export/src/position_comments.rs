//! [`PositionComments`]: the comments the [`StreamWriter`](crate::StreamWriter)
//! writes after every move with the position it leads to (its FEN, its
//! Polyglot key), and [`Notes`], the buffer those texts wait in until the
//! move's own annotations are written.
//!
//! They are pgn-extract's `--fencomments` and `--hashcomments` written while
//! streaming, byte for byte what `pgnkit_select::add_fen_comments` and
//! `add_hash_comments` make of a game's tree and the tree writer then
//! writes: each text is a comment after the move's other annotations (its
//! NAGs and comments, even those read after its variations), before its
//! variations. No tree, no `String` per FEN, no comment object per position:
//! the texts are written into one buffer reused from move to move.

use pgnkit_chess::{FenOptions, Position, polyglot};

/// Which comments are written after every move, in the main line and the
/// variations: the FEN of the position after it, then its Polyglot key
/// (lowercase hexadecimal, no leading zeros), each as its own comment.
/// Nothing is written when the writer writes no comments.
///
/// ```
/// use pgnkit_export::{ExportOptions, PositionComments, StreamWriter};
/// use pgnkit_game::visit_games;
///
/// let comments = PositionComments { fen: None, polyglot_key: true };
/// let writer = StreamWriter::new(ExportOptions::export()).with_position_comments(comments);
/// let mut games = visit_games(b"1. e4 $1 { best } *", writer);
/// games.next();
/// let text = String::from_utf8(games.visitor().movetext().to_vec()).unwrap();
/// assert_eq!(text, "1. e4 $1 { best } { 823c9b50fd114196 } *\n\n");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionComments {
    /// A comment holding the FEN of the position after each move, written
    /// with these options (`select --fen-comments`).
    pub fen: Option<FenOptions>,
    /// A comment holding the Polyglot key of the position after each move,
    /// after the FEN's when both are asked for (`select --hash-comments`).
    pub polyglot_key: bool,
}

impl PositionComments {
    /// Whether any comment is asked for.
    pub fn any(&self) -> bool {
        self.fen.is_some() || self.polyglot_key
    }
}

/// The texts of the moves whose comments are not written yet: at most one
/// move a line, and a line's texts are always the last ones (a variation
/// writes its own before it ends, so before its parent line goes on).
#[derive(Debug, Default)]
pub(crate) struct Notes {
    text: Vec<u8>,
}

/// Where one move's texts are in [`Notes`]: the FEN from `from` to `split`,
/// the key from `split` to the end.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Note {
    from: usize,
    split: usize,
    /// The FEN's spaces: bit `i` of `spaces[i / 64]` set when its byte `i`
    /// is one (a key has none).
    spaces: [u64; 2],
}

/// A comment text as the writer made it: plain words (ASCII, no brace, no
/// word starting with `[` or `%`) separated by single spaces, where
/// `spaces` says (see [`Note::spaces`]).
pub(crate) struct Plain<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) spaces: [u64; 2],
}

impl Notes {
    /// Empties the buffer (a game begins).
    pub(crate) fn clear(&mut self) {
        self.text.clear();
    }

    /// Writes the texts `comments` asks for of the position `after`, whose
    /// Polyglot key is `key`.
    pub(crate) fn push(&mut self, comments: PositionComments, after: &Position, key: u64) -> Note {
        let from = self.text.len();
        let mut spaces = [0u64; 2];
        if let Some(options) = comments.fen {
            after
                .to_setup(options.en_passant)
                .push_fen(&mut self.text, options.castling);
            // A FEN has six fields: its five spaces are in the short fields
            // after the board's, found from the end.
            let fen = self.text.get(from..).unwrap_or_default();
            let mut found = 0;
            for (i, &b) in fen.iter().enumerate().rev() {
                if b == b' ' {
                    if let Some(mask) = spaces.get_mut(i / 64) {
                        *mask |= 1 << (i % 64);
                    }
                    found += 1;
                    if found == 5 {
                        break;
                    }
                }
            }
        }
        let split = self.text.len();
        if comments.polyglot_key {
            polyglot::push_hex(key, &mut self.text);
        }
        Note {
            from,
            split,
            spaces,
        }
    }

    /// The comments of `note` (the FEN's, the key's; either may be empty).
    pub(crate) fn texts(&self, note: Note) -> (Plain<'_>, Plain<'_>) {
        let text = self.text.as_slice();
        let fen = Plain {
            text: text.get(note.from..note.split).unwrap_or_default(),
            spaces: note.spaces,
        };
        let key = Plain {
            text: text.get(note.split..).unwrap_or_default(),
            spaces: [0; 2],
        };
        (fen, key)
    }

    /// Drops `note`'s texts once written (they are the last ones).
    pub(crate) fn pop(&mut self, note: Note) {
        self.text.truncate(note.from);
    }
}
