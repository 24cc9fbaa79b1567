//! [`ExportOptions`]: what the writer writes and how.

use std::fmt;

use pgnkit_chess::FenOptions;

use crate::error::{NotationError, TagOrderError};
use crate::letters::PieceLetters;

/// How moves are written.
///
/// Besides SAN, LAN, UCI and FAN, the long algebraic forms of pgn-extract's
/// `-W` (with its names, so that a pgn-extract command line carries over),
/// and SAN with another language's piece letters. Read from its name with
/// `FromStr` (the names of [`Notation::NAMES`], letters after `san`,
/// `elalg`, `xlalg` and `xolalg` as pgn-extract writes them: `sanBSLTDK`,
/// or with a colon, `san:BSLTDK`); [`Display`](std::fmt::Display) writes
/// the name back.
///
/// ```
/// use pgnkit_export::{Notation, PieceLetters};
/// let german: Notation = "sanBSLTDK".parse().unwrap();
/// assert_eq!(german, Notation::SanLetters("BSLTDK".parse().unwrap()));
/// assert_eq!("xlalg".parse(), Ok(Notation::Xlalg(PieceLetters::ENGLISH)));
/// assert_eq!(german.to_string(), "sanBSLTDK");
/// assert!("lanBSLTDK".parse::<Notation>().is_err());
/// ```
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
    /// SAN with other piece letters (pgn-extract `-WsanBSLTDK`: `Sf3`,
    /// `exd8=D#`).
    SanLetters(PieceLetters),
    /// Long algebraic as pgn-extract's `-Wlalg`: from-square, to-square,
    /// promotion letter, check suffix (`e2e4`, `g1f3`, `e1g1` for castling,
    /// `e7d8Q#`).
    Lalg,
    /// Hyphenated long algebraic, pgn-extract's `-Whalg`: `e2-e4`, `g1-f3`,
    /// `d4-c5` for a capture too, `e1-g1`, `e7-d8Q#`.
    Halg,
    /// Enhanced long algebraic, pgn-extract's `-Welalg`: the piece letter
    /// before [`Notation::Lalg`], `ep` after an en passant capture (`e2e4`,
    /// `Ng1f3`, `e5d6ep`, `e1g1`).
    Elalg(PieceLetters),
    /// pgn-extract's `-Wxlalg`: [`Notation::Elalg`] with `x` before the
    /// to-square of a capture and `-` otherwise (`Ng1-f3`, `e5xd6ep`,
    /// `e1-g1`, `e7xd8Q#`).
    Xlalg(PieceLetters),
    /// pgn-extract's `-Wxolalg`: [`Notation::Xlalg`] with `O-O` and
    /// `O-O-O` for castling.
    Xolalg(PieceLetters),
}

impl Notation {
    /// The names `FromStr` reads.
    pub const NAMES: [&'static str; 9] = [
        "san", "lan", "uci", "fan", "lalg", "halg", "elalg", "xlalg", "xolalg",
    ];

    /// The piece letters of a notation that takes them.
    fn letters(self) -> Option<PieceLetters> {
        match self {
            Notation::SanLetters(l)
            | Notation::Elalg(l)
            | Notation::Xlalg(l)
            | Notation::Xolalg(l) => Some(l),
            _ => None,
        }
    }

    /// The name without letters.
    fn name(self) -> &'static str {
        match self {
            Notation::San | Notation::SanLetters(_) => "san",
            Notation::Lan => "lan",
            Notation::Uci => "uci",
            Notation::Fan => "fan",
            Notation::Lalg => "lalg",
            Notation::Halg => "halg",
            Notation::Elalg(_) => "elalg",
            Notation::Xlalg(_) => "xlalg",
            Notation::Xolalg(_) => "xolalg",
        }
    }
}

impl std::str::FromStr for Notation {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Notation, NotationError> {
        // The longest name that starts the text (`xolalg` before `lalg`).
        let name = Notation::NAMES
            .iter()
            .filter(|name| text.len() >= name.len() && text.is_char_boundary(name.len()))
            .filter(|name| text[..name.len()].eq_ignore_ascii_case(name))
            .max_by_key(|name| name.len())
            .ok_or_else(|| NotationError::UnknownName {
                name: text.to_owned(),
                expected: &Notation::NAMES,
            })?;
        let rest = &text[name.len()..];
        let rest = rest.strip_prefix(':').unwrap_or(rest);
        let letters = if rest.is_empty() {
            None
        } else {
            Some(rest.parse::<PieceLetters>())
        };
        let english = PieceLetters::ENGLISH;
        Ok(match (*name, letters) {
            ("san", None) => Notation::San,
            ("san", Some(l)) => {
                let l = l?;
                if l.is_english() {
                    Notation::San
                } else {
                    Notation::SanLetters(l)
                }
            }
            ("elalg", l) => Notation::Elalg(l.transpose()?.unwrap_or(english)),
            ("xlalg", l) => Notation::Xlalg(l.transpose()?.unwrap_or(english)),
            ("xolalg", l) => Notation::Xolalg(l.transpose()?.unwrap_or(english)),
            (name, Some(_)) => return Err(NotationError::LettersNotAllowed((*name).to_owned())),
            ("lan", None) => Notation::Lan,
            ("uci", None) => Notation::Uci,
            ("fan", None) => Notation::Fan,
            ("lalg", None) => Notation::Lalg,
            ("halg", None) => Notation::Halg,
            _ => {
                return Err(NotationError::UnknownName {
                    name: text.to_owned(),
                    expected: &Notation::NAMES,
                });
            }
        })
    }
}

impl fmt::Display for Notation {
    /// The name `FromStr` reads back, letters other than English appended.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self.letters() {
            Some(letters) if !letters.is_english() => write!(f, "{letters}"),
            _ => Ok(()),
        }
    }
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
    /// Write move numbers (`1.`, `1...`); off: moves alone, as pgn-extract's
    /// `--nomovenumbers`.
    pub move_numbers: bool,
    /// Write the termination marker after the moves; off: no marker (the
    /// `Result` tag is still written), as pgn-extract's `--noresults`.
    pub results: bool,
    /// Write the tag section and its empty line; off: the movetext alone.
    pub tags: bool,
    /// Write the check and mate suffixes `+` and `#` (pgn-extract's
    /// `--nochecks` turns them off).
    pub checks: bool,
    /// Write each comment on lines of its own: the line before it ends, and
    /// so does its last line (pgn-extract's `--commentlines`).
    pub comment_lines: bool,
    /// The order of the tags (pgn-extract's `-R`), in place of the roster
    /// then ASCII order; `None`: the export format's order.
    pub tag_order: Option<TagOrder>,
    /// The games were read with nested comments (pgn-extract's
    /// `--nestedcomments`, `ReadOptions::nested_comments`), so a comment
    /// may hold braces: one holding a `{` is written as a `;` comment ending
    /// its line, as one holding a `}` always is, so that the output reads
    /// back the same with nested comments or without. Off, a `{` in a
    /// comment is plain text (`{ a { b }`), as the standard has it.
    pub nested_comments: bool,
}

/// A tag order (pgn-extract's `-R` file): the tags named are written first,
/// in the order named (a roster tag even when the game lacks it, with its
/// default), then the roster tags not named and the other tags as the
/// export format orders them, unless [`TagOrder::only_listed`] (`--xroster`):
/// then only the tags named, and what replaying the game needs (`FEN`,
/// `SetUp`, `Variant`).
///
/// ```
/// use pgnkit_export::{ExportOptions, TagOrder, to_string};
/// use pgnkit_game::Game;
///
/// let order = TagOrder::parse("White\nBlack\n% the players only\nECO\n", true).unwrap();
/// let game: Game = "[White \"A\"]\n[ECO \"C20\"]\n[Annotator \"Z\"]\n\n1. e4 *".parse().unwrap();
/// let options = ExportOptions { tag_order: Some(order), ..ExportOptions::export() };
/// assert_eq!(to_string(&game, &options), "[White \"A\"]\n[Black \"?\"]\n[ECO \"C20\"]\n\n1. e4 *\n\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagOrder {
    names: Vec<String>,
    only_listed: bool,
}

impl TagOrder {
    /// The order of `names` (a name named twice counts at its first place).
    pub fn new<S: AsRef<str>>(names: &[S], only_listed: bool) -> TagOrder {
        let mut unique: Vec<String> = Vec::with_capacity(names.len());
        for name in names {
            let name = name.as_ref();
            if !unique.iter().any(|n| n == name) {
                unique.push(name.to_string());
            }
        }
        TagOrder {
            names: unique,
            only_listed,
        }
    }

    /// Reads a tag order file: one tag name a line (the first word of the
    /// line: a pgn-extract file's `Name "value"` lines give their names);
    /// empty lines and lines starting with `%` or `;` are skipped. A word
    /// that is not a tag name (letters, digits, `_`; a letter or digit
    /// first) is an error naming its line.
    pub fn parse(text: &str, only_listed: bool) -> Result<TagOrder, TagOrderError> {
        let mut names = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') || line.starts_with(';') {
                continue;
            }
            let word = line.split_whitespace().next().unwrap_or_default();
            let valid = word
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric())
                && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !valid {
                return Err(TagOrderError {
                    line: i + 1,
                    found: word.to_string(),
                });
            }
            names.push(word);
        }
        Ok(TagOrder::new(&names, only_listed))
    }

    /// The tags named, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether only the tags named are written (and what replaying needs).
    pub fn only_listed(&self) -> bool {
        self.only_listed
    }

    /// Whether `name` is named.
    pub(crate) fn lists(&self, name: &[u8]) -> bool {
        self.names.iter().any(|n| n.as_bytes() == name)
    }
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
            move_numbers: true,
            results: true,
            tags: true,
            checks: true,
            comment_lines: false,
            tag_order: None,
            nested_comments: false,
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
