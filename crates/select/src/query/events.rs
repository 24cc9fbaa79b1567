//! The predicates of a game as played and written (issue 33, pgn-extract's
//! game-event options): how the main line ends, its length, its players,
//! what the movetext holds. Their evaluation lives here, their parsing in
//! `parse/events.rs` (called by `parse.rs` before a comparison); the
//! grammar and their meaning are documented on [`Query`](super::Query).
//!
//! - Flags, a name alone: `checkmate`, `stalemate`, `insufficient_material`,
//!   `threefold`, `fifty_moves`, `seventy_five_moves`, `underpromotion`,
//!   `higher_rated_won`, `lower_rated_won`, `commented`, `has_variations`,
//!   `has_clock`, `has_eval`, `setup`, `result_consistent`.
//! - Counts compared with a number: `moves` (full moves), `piece_count`
//!   (pieces on the board at the end, kings included).
//! - `soundex FIELD = NAME`: a sound-alike match on `player` or a tag.
//! - `any_tag OP TEXT` with `~`, `=~` or `=`: some tag's value holds.

use pgnkit_chess::Position;
use pgnkit_game::Termination;

use super::subject::Subject;
use super::{Op, Value};
use crate::ending;
use crate::value::number;

/// A predicate without a value (a name alone in the query).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flag {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Threefold,
    FiftyMoves,
    SeventyFiveMoves,
    Underpromotion,
    HigherRatedWon,
    LowerRatedWon,
    Commented,
    HasVariations,
    HasClock,
    HasEval,
    Setup,
    ResultConsistent,
}

/// The flags by their names in the query.
pub(super) const FLAGS: [(&str, Flag); 15] = [
    ("checkmate", Flag::Checkmate),
    ("stalemate", Flag::Stalemate),
    ("insufficient_material", Flag::InsufficientMaterial),
    ("threefold", Flag::Threefold),
    ("fifty_moves", Flag::FiftyMoves),
    ("seventy_five_moves", Flag::SeventyFiveMoves),
    ("underpromotion", Flag::Underpromotion),
    ("higher_rated_won", Flag::HigherRatedWon),
    ("lower_rated_won", Flag::LowerRatedWon),
    ("commented", Flag::Commented),
    ("has_variations", Flag::HasVariations),
    ("has_clock", Flag::HasClock),
    ("has_eval", Flag::HasEval),
    ("setup", Flag::Setup),
    ("result_consistent", Flag::ResultConsistent),
];

/// What a count predicate counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Counted {
    /// Full moves of the main line: plies / 2, rounded up.
    Moves,
    /// Pieces on the board at the end of the main line, kings included.
    PieceCount,
}

/// Whose names a `soundex` match reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Names {
    /// White or Black.
    Player,
    /// A tag.
    Tag(String),
}

/// One predicate of this module.
#[derive(Debug, Clone)]
pub(super) enum Predicate {
    Flag(Flag),
    Count {
        what: Counted,
        op: Op,
        value: f64,
    },
    /// Every code (of the value's words) is the code of a word of the name.
    Soundex {
        names: Names,
        codes: Vec<String>,
    },
    /// Some tag's value holds `op value` (`~`, `=~` or `=`).
    AnyTag {
        op: Op,
        value: Value,
    },
}

impl Predicate {
    /// Whether evaluating it replays the main line.
    pub(super) fn needs_moves(&self) -> bool {
        match self {
            Predicate::Flag(flag) => matches!(
                flag,
                Flag::Checkmate
                    | Flag::Stalemate
                    | Flag::InsufficientMaterial
                    | Flag::Threefold
                    | Flag::FiftyMoves
                    | Flag::SeventyFiveMoves
                    | Flag::Underpromotion
                    | Flag::ResultConsistent
            ),
            Predicate::Count { .. } => true,
            Predicate::Soundex { .. } | Predicate::AnyTag { .. } => false,
        }
    }

    /// Whether it reads the tag section alone (the result is not: the
    /// movetext's marker may decide it).
    pub(super) fn reads_tags_only(&self) -> bool {
        match self {
            Predicate::Flag(flag) => *flag == Flag::Setup,
            Predicate::Count { .. } => false,
            Predicate::Soundex { .. } | Predicate::AnyTag { .. } => true,
        }
    }

    /// Whether the predicate can be read from a [`Record`](crate::Record):
    /// all but `has_clock` and `has_eval` (which comment a clock belongs to
    /// is the tree's to say).
    pub(super) fn reads_record(&self) -> bool {
        !matches!(self, Predicate::Flag(Flag::HasClock | Flag::HasEval))
    }

    /// What a [`Record`](crate::Record) must keep for it.
    pub(super) fn needs(&self) -> crate::record::Needs {
        let end = matches!(
            self,
            Predicate::Flag(
                Flag::Checkmate
                    | Flag::Stalemate
                    | Flag::InsufficientMaterial
                    | Flag::ResultConsistent
            ) | Predicate::Count {
                what: Counted::PieceCount,
                ..
            }
        );
        let (tags, comments) = match self {
            Predicate::Flag(flag) => match flag {
                Flag::Checkmate
                | Flag::Stalemate
                | Flag::InsufficientMaterial
                | Flag::Threefold
                | Flag::FiftyMoves
                | Flag::SeventyFiveMoves
                | Flag::Underpromotion
                | Flag::HasVariations
                | Flag::HasClock
                | Flag::HasEval => (false, false),
                Flag::Commented => (false, true),
                // The result is the movetext's marker in a record (see
                // `Record::termination`).
                Flag::ResultConsistent => (false, false),
                Flag::HigherRatedWon | Flag::LowerRatedWon | Flag::Setup => (true, false),
            },
            Predicate::Count { .. } => (false, false),
            Predicate::Soundex { .. } | Predicate::AnyTag { .. } => (true, false),
        };
        crate::record::Needs {
            tags,
            comments,
            end,
            repetitions: matches!(self, Predicate::Flag(Flag::Threefold)),
            clock: matches!(
                self,
                Predicate::Flag(Flag::FiftyMoves | Flag::SeventyFiveMoves)
            ),
        }
    }

    /// Whether `game` holds it.
    pub(super) fn matches(&self, game: &impl Subject) -> bool {
        match self {
            Predicate::Flag(flag) => flag.holds(game),
            Predicate::Count { what, op, value } => {
                let n = match what {
                    Counted::Moves => game.moves().count().div_ceil(2),
                    Counted::PieceCount => game.end().board().occupied().count(),
                };
                super::eval::holds(*op, &Value::Number(*value), &n.to_string())
            }
            Predicate::Soundex { names, codes } => {
                let tags = game.tags();
                let sounds = |name: Option<&str>| {
                    name.is_some_and(|name| {
                        let have = crate::soundex::codes(name);
                        codes.iter().all(|c| have.contains(c))
                    })
                };
                match names {
                    Names::Player => sounds(tags.get("White")) || sounds(tags.get("Black")),
                    Names::Tag(tag) => sounds(tags.get(tag)),
                }
            }
            Predicate::AnyTag { op, value } => game
                .tags()
                .iter()
                .any(|(_, v)| super::eval::holds(*op, value, v)),
        }
    }
}

impl Flag {
    fn holds(self, game: &impl Subject) -> bool {
        let end = || game.end();
        match self {
            Flag::Checkmate => end().is_checkmate(),
            Flag::Stalemate => end().is_stalemate(),
            Flag::InsufficientMaterial => end().is_insufficient_material(),
            Flag::Threefold => game.threefold(),
            Flag::FiftyMoves => game.halfmove_clock_reaches(100),
            Flag::SeventyFiveMoves => game.halfmove_clock_reaches(150),
            Flag::Underpromotion => ending::underpromotion(game.moves()),
            Flag::HigherRatedWon | Flag::LowerRatedWon => rated_winner(game, self),
            Flag::Commented => game.commented(),
            Flag::HasVariations => game.has_variations(),
            Flag::HasClock => game.has_clock(),
            Flag::HasEval => game.has_eval(),
            Flag::Setup => game.tags().contains("FEN") || game.tags().contains("SetUp"),
            Flag::ResultConsistent => result_consistent(&end(), game.termination()),
        }
    }
}

/// `higher_rated_won` / `lower_rated_won`: both ratings are numbers and
/// differ, and the side rated higher (lower) won.
fn rated_winner(game: &impl Subject, flag: Flag) -> bool {
    let elo = |name| game.tags().get(name).and_then(number);
    let (Some(white), Some(black)) = (elo("WhiteElo"), elo("BlackElo")) else {
        return false;
    };
    let white_higher = match white.partial_cmp(&black) {
        Some(std::cmp::Ordering::Greater) => true,
        Some(std::cmp::Ordering::Less) => false,
        _ => return false,
    };
    let higher_won = match game.termination() {
        Termination::WhiteWins => white_higher,
        Termination::BlackWins => !white_higher,
        Termination::Draw | Termination::Unknown => return false,
    };
    higher_won == (flag == Flag::HigherRatedWon)
}

/// Whether `result` agrees with the last position where that position
/// decides the result (the rule of [`fix_result`](crate::fix_result)).
fn result_consistent(end: &Position, result: Termination) -> bool {
    crate::fix::decided_result(end).is_none_or(|due| due == result)
}

#[cfg(test)]
mod tests {
    use crate::error::QueryErrorKind;
    use crate::query::{Context, Query};
    use pgnkit_game::Game;

    fn game(tags: &[(&str, &str)], moves: &str) -> Game {
        let mut text = String::new();
        for (n, v) in tags {
            text.push_str(&format!("[{n} \"{v}\"]\n"));
        }
        text.push('\n');
        text.push_str(moves);
        text.parse().unwrap()
    }

    fn from(fen: &str, moves: &str) -> Game {
        game(&[("SetUp", "1"), ("FEN", fen)], moves)
    }

    fn sel(q: &str, g: &Game) -> bool {
        Query::parse(q).unwrap().matches(g, &Context::default())
    }

    #[test]
    fn how_the_game_ends() {
        let mate = game(&[], "1. f3 e5 2. g4 Qh4# 0-1");
        assert!(sel(
            "checkmate and not stalemate and result_consistent",
            &mate
        ));
        let stalemate = from("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "1. Qf7 1/2-1/2");
        assert!(sel("stalemate and not checkmate", &stalemate));
        let open = game(&[], "1. e4 e5 *");
        assert!(!sel(
            "checkmate or stalemate or insufficient_material",
            &open
        ));
        let bare = from("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "1. Kxd2 Kd7 1/2-1/2");
        assert!(sel("insufficient_material", &bare));
        assert!(!sel(
            "insufficient_material",
            &from("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "1. Kf1 *")
        ));
        let knights = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2";
        assert!(sel("threefold", &game(&[], knights)));
        assert!(!sel(
            "threefold",
            &game(&[], "1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2")
        ));
        let rook = |clock: u32| format!("4k3/8/8/8/8/8/8/R3K3 w - - {clock} 80");
        assert!(sel(
            "fifty_moves and not seventy_five_moves",
            &from(&rook(99), "1. Ra2 *")
        ));
        assert!(!sel("fifty_moves", &from(&rook(98), "1. Ra2 *")));
        assert!(sel("seventy_five_moves", &from(&rook(149), "1. Ra2 *")));
        let pawn = "8/P6k/8/8/8/8/8/4K3 w - - 0 1";
        assert!(sel("underpromotion", &from(pawn, "1. a8=N *")));
        assert!(!sel("underpromotion", &from(pawn, "1. a8=Q *")));
    }

    #[test]
    fn results_against_the_last_position() {
        // Mate with a wrong result: the reader keeps the marker.
        assert!(!sel(
            "result_consistent",
            &game(&[], "1. f3 e5 2. g4 Qh4# 1-0")
        ));
        assert!(!sel(
            "result_consistent",
            &game(&[], "1. f3 e5 2. g4 Qh4# *")
        ));
        let stalemate = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
        assert!(!sel("result_consistent", &from(stalemate, "1. Qf7 1-0")));
        // The position decides nothing: any result is consistent.
        assert!(sel("result_consistent", &game(&[], "1. e4 0-1")));
    }

    #[test]
    fn counts() {
        let g = game(&[], "1. e4 e5 2. Nf3 d5 3. exd5 *");
        assert!(sel("moves = 3 and plies = 5", &g));
        assert!(sel("moves > 2 and moves <= 3 and not moves != 3", &g));
        assert!(sel("piece_count = 31 and piece_count < 32", &g));
        assert!(!sel("piece_count >= 32", &g));
        // From a position with Black to move: 1... Kd7 2. Ke2 is two plies, one full move each.
        let g = from("4k3/8/8/8/8/8/8/4K3 b - - 0 1", "1... Kd7 2. Ke2 *");
        assert!(sel("moves = 1 and piece_count = 2", &g));
        assert!(sel("moves = 0", &game(&[], "*")));
    }

    #[test]
    fn players() {
        let tags = |result: &str, white: &str, black: &str| {
            game(
                &[
                    ("White", "Fischer, Robert J."),
                    ("Black", "Spassky, Boris V."),
                    ("WhiteElo", white),
                    ("BlackElo", black),
                    ("Result", result),
                ],
                result,
            )
        };
        let g = tags("1-0", "2785", "2660");
        assert!(sel("higher_rated_won and not lower_rated_won", &g));
        assert!(sel(
            "lower_rated_won and not higher_rated_won",
            &tags("0-1", "2785", "2660")
        ));
        assert!(sel("lower_rated_won", &tags("1-0", "2600", "2660")));
        for (result, w, b) in [
            ("1/2-1/2", "2785", "2660"),
            ("1-0", "2700", "2700"),
            ("1-0", "?", "2660"),
            ("*", "2785", "2660"),
        ] {
            assert!(
                !sel("higher_rated_won or lower_rated_won", &tags(result, w, b)),
                "{result} {w} {b}"
            );
        }
        assert!(sel("soundex player = Fisher", &g));
        assert!(sel("soundex player = \"Spasski Boris\"", &g));
        assert!(
            !sel("soundex White = \"fisher, bobby\"", &g),
            "bobby is not Robert"
        );
        assert!(sel("soundex Black = Spaski", &g));
        assert!(!sel("soundex White = Spaski", &g));
        assert!(!sel("soundex Annotator = Fisher", &g), "a missing tag");
        assert!(sel(
            "any_tag ~ Boris and any_tag = 2660 and any_tag =~ \"^Fisch\"",
            &g
        ));
        assert!(!sel("any_tag ~ boris", &g), "case counts with ~");
        assert!(sel("any_tag =~ \"(?i)boris\"", &g));
        assert!(!sel("any_tag = 266", &g));
    }

    #[test]
    fn content() {
        let g = game(&[], "{Opening} 1. e4 { [%clk 0:03:00] } e5 *");
        assert!(sel(
            "commented and has_clock and not has_eval and not has_variations",
            &g
        ));
        let g = game(&[], "1. e4 { [%eval 0.2] [%clk 0:03:00] } e5 (1... c5) *");
        assert!(sel(
            "not commented and has_clock and has_eval and has_variations",
            &g
        ));
        let g = game(&[], "1. e4 e5 (1... c5 { a comment in a variation }) *");
        assert!(sel("commented", &g));
        let g = game(
            &[],
            "1. e4 e5 (1... c5 2. Nf3 (2. c3 { [%clk 0:01:00] })) *",
        );
        assert!(sel("has_clock and has_variations and not commented", &g));
        assert!(!sel(
            "commented or has_clock or has_eval or has_variations or setup",
            &game(&[], "1. e4 {} *")
        ));
        assert!(sel("setup", &from("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "*")));
        assert!(sel(
            "setup",
            &game(&[("FEN", "4k3/8/8/8/8/8/8/4K3 w - - 0 1")], "*")
        ));
    }

    #[test]
    fn what_reads_what() {
        for (q, tags_only) in [
            ("setup", true),
            ("soundex player = Tal", true),
            ("any_tag ~ x", true),
            ("higher_rated_won", false),
            ("moves > 3", false),
            ("commented", false),
            ("checkmate", false),
        ] {
            assert_eq!(Query::parse(q).unwrap().reads_tags_only(), tags_only, "{q}");
        }
        assert!(Query::parse("threefold").unwrap().needs_moves());
        assert!(!Query::parse("setup").unwrap().needs_moves());
    }

    #[test]
    fn errors_say_what_fits() {
        let error = |q: &str| {
            let e = Query::parse(q).unwrap_err();
            (e.kind, e.start, e.end)
        };
        let (kind, start, end) = error("plies > 3 and chekmate");
        assert_eq!((start, end), (14, 22));
        let shown = kind.to_string();
        assert!(shown.contains("unknown field `chekmate`"), "{shown}");
        let flags = super::FLAGS.iter().map(|(name, _)| *name);
        for name in flags.chain(["soundex", "any_tag", "moves", "piece_count"]) {
            assert!(shown.contains(name), "{name} in {shown}");
        }
        assert!(matches!(
            error("checkmate = 1"),
            (QueryErrorKind::Value(_), 10, 11)
        ));
        assert!(matches!(
            error("moves > many"),
            (QueryErrorKind::Value(_), 8, 12)
        ));
        assert!(matches!(
            error("moves ~ 3"),
            (QueryErrorKind::Value(_), 6, 7)
        ));
        assert!(matches!(
            error("piece_count"),
            (QueryErrorKind::Syntax(_), 11, 12)
        ));
        assert!(matches!(
            error("soundex player ~ Tal"),
            (QueryErrorKind::Syntax(_), 15, 16)
        ));
        assert!(matches!(
            error("soundex colour = Tal"),
            (QueryErrorKind::Value(_), 8, 14)
        ));
        assert!(matches!(
            error("soundex player = \"42\""),
            (QueryErrorKind::Value(_), 17, 21)
        ));
        assert!(matches!(
            error("any_tag > 3"),
            (QueryErrorKind::Syntax(_), 8, 9)
        ));
        assert!(matches!(
            error("any_tag =~ \"(x\""),
            (QueryErrorKind::Regex(_), 11, 15)
        ));
        // A tag named like a predicate but capitalised is a tag.
        assert!(Query::parse("Checkmate = 1").is_ok());
        // A longer name is not a predicate.
        assert!(matches!(
            error("checkmated"),
            (QueryErrorKind::UnknownField(_), 0, 10)
        ));
    }
}
