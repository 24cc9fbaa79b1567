//! One game's rows: [`GameRecord`] (the games table) and its
//! [`MoveRecord`]s (the moves table) and [`PositionRecord`]s (the positions
//! table), filled by [`RecordVisitor`] from the
//! reader's events or by [`GameRecord::from_game`] from a [`Game`].

use pgnkit_chess::{Color, FenOptions, Move, Position, Role, San, SanPlus, Uci};
use pgnkit_game::{
    Comment, Diagnostic, Diagnostics, Encoding, Game, GameStart, MoveEvent, Nag, RawComment, Score,
    Severity, Skip, Termination, Visitor, decode,
};

use crate::commands;
use crate::error::TagWarning;
use crate::move_text::MoveText;
use crate::spare::Spare;
use crate::typed;

/// The tags that have a string column of their own in the games table, in
/// column order (`Variant` goes to `variant`).
pub const STRING_TAGS: [&str; 13] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
];

/// The rating tags (int16 columns), in column order.
pub const RATING_TAGS: [&str; 4] = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"];

/// The index of `name` in [`STRING_TAGS`]: one `match` (a switch on the length, then one
/// comparison), where a search of the list compared the name with each tag in turn (every
/// tag of every game is looked up).
fn string_tag_index(name: &str) -> Option<usize> {
    let i = match name {
        "Event" => 0,
        "Site" => 1,
        "Date" => 2,
        "Round" => 3,
        "White" => 4,
        "Black" => 5,
        "Result" => 6,
        "WhiteTitle" => 7,
        "BlackTitle" => 8,
        "ECO" => 9,
        "Opening" => 10,
        "Termination" => 11,
        "TimeControl" => 12,
        _ => return None,
    };
    debug_assert_eq!(STRING_TAGS[i], name);
    Some(i)
}

/// The index of `name` in [`RATING_TAGS`], as [`string_tag_index`].
fn rating_tag_index(name: &str) -> Option<usize> {
    let i = match name {
        "WhiteElo" => 0,
        "BlackElo" => 1,
        "WhiteRatingDiff" => 2,
        "BlackRatingDiff" => 3,
        _ => return None,
    };
    debug_assert_eq!(RATING_TAGS[i], name);
    Some(i)
}

/// The name of a tag the games table reads (a column of its own, or `UTCDate`, `UTCTime`,
/// `Variant`) from its bytes, with no UTF-8 check: `None` for any other name.
fn column_tag_name(name: &[u8]) -> Option<&'static str> {
    Some(match name {
        b"Event" => "Event",
        b"Site" => "Site",
        b"Date" => "Date",
        b"Round" => "Round",
        b"White" => "White",
        b"Black" => "Black",
        b"Result" => "Result",
        b"WhiteTitle" => "WhiteTitle",
        b"BlackTitle" => "BlackTitle",
        b"ECO" => "ECO",
        b"Opening" => "Opening",
        b"Termination" => "Termination",
        b"TimeControl" => "TimeControl",
        b"WhiteElo" => "WhiteElo",
        b"BlackElo" => "BlackElo",
        b"WhiteRatingDiff" => "WhiteRatingDiff",
        b"BlackRatingDiff" => "BlackRatingDiff",
        b"UTCDate" => "UTCDate",
        b"UTCTime" => "UTCTime",
        b"Variant" => "Variant",
        _ => return None,
    })
}

/// What a game becomes in the games table (one row) and the moves table
/// (one row per main-line move).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameRecord {
    /// Byte offset of the game's first byte in its input.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// The values of [`STRING_TAGS`], in that order.
    pub strings: [Option<String>; 13],
    /// The values of [`RATING_TAGS`], in that order.
    pub ratings: [Option<i16>; 4],
    /// `UTCDate`, days since 1970-01-01.
    pub utc_date: Option<i32>,
    /// `UTCTime`, seconds since midnight.
    pub utc_time: Option<i32>,
    /// `Date` when complete, days since 1970-01-01 (the `game_date` column).
    pub game_date: Option<i32>,
    /// `TimeControl` `base+inc`: the base, seconds.
    pub time_base: Option<i32>,
    /// `TimeControl` `base+inc`: the increment, seconds.
    pub time_increment: Option<i32>,
    /// The `Variant` tag.
    pub variant: Option<String>,
    /// Every other tag, in read order (and the text of a typed tag whose
    /// value could not be read, so nothing read is lost).
    pub other_tags: Vec<(String, String)>,
    /// The export-format movetext: filled by [`RecordTee`](crate::RecordTee)
    /// from `pgnkit-export`'s `StreamWriter` (or by
    /// [`set_movetext`](GameRecord::set_movetext) from a writer's movetext),
    /// `None` from a bare [`RecordVisitor`].
    pub movetext: Option<String>,
    /// The main line's moves (none with [`RecordOptions::games_only`]).
    pub moves: Vec<MoveRecord>,
    /// The main line's positions, the start position first (only with
    /// [`RecordOptions::positions`]): one more than `moves` when the start
    /// position could be set up.
    pub positions: Vec<PositionRecord>,
    /// The main line's moves counted but not recorded: with
    /// [`RecordOptions::games_only`], `moves` stays empty and this holds
    /// their number; otherwise 0.
    pub plies: usize,
    /// The position after the main line's last move (null when the
    /// starting position could not be set up).
    pub final_fen: Option<String>,
    /// `checkmate`, `stalemate` or `insufficient material` in the final
    /// position.
    pub outcome: Option<&'static str>,
    /// The game's errors (only written with
    /// [`TableOptions::errors`](crate::TableOptions::errors)).
    pub errors: Vec<RecordError>,
    /// Typed tags that were malformed (their columns are null).
    pub warnings: Vec<TagWarning>,
}

impl GameRecord {
    /// The main line's ply count, as the uint16 column holds it.
    pub fn ply_count(&self) -> u16 {
        u16::try_from(self.moves.len() + self.plies).unwrap_or(u16::MAX)
    }

    /// Fills [`errors`](GameRecord::errors) from a game's diagnostics (its
    /// errors; warnings do not break a game and stay out).
    pub fn set_errors(&mut self, diagnostics: &Diagnostics) {
        self.errors = diagnostics.errors().map(RecordError::of).collect();
    }

    /// Sets [`movetext`](GameRecord::movetext) from an export writer's
    /// movetext (`StreamWriter::movetext`, `GameWriter::movetext`: the text
    /// after the tag section), its final line ends taken off; bytes that are
    /// not UTF-8 are replaced (the writers write UTF-8).
    ///
    /// ```
    /// let mut record = pgnkit_arrow::GameRecord::default();
    /// record.set_movetext(b"1. e4 *\n\n");
    /// assert_eq!(record.movetext.as_deref(), Some("1. e4 *"));
    /// ```
    pub fn set_movetext(&mut self, text: &[u8]) {
        let body = text.trim_ascii_end();
        // `from_utf8` checks ASCII a word at a time; `from_utf8_lossy` walks the bytes one by
        // one (its `Utf8Chunks`: 5% of `read_arrow`'s instructions). Text that is not UTF-8
        // (the writer writes UTF-8, so none is expected) takes the lossy path.
        self.movetext = Some(match std::str::from_utf8(body) {
            Ok(text) => text.to_owned(),
            Err(_) => String::from_utf8_lossy(body).into_owned(),
        });
    }

    /// The value of a string tag column by its tag name.
    pub fn string_tag(&self, name: &str) -> Option<&str> {
        let i = STRING_TAGS.iter().position(|&tag| tag == name)?;
        self.strings[i].as_deref()
    }

    /// Builds the record of a game read into a tree (main line only); its `errors` are
    /// set apart, from the diagnostics read with it ([`set_errors`](GameRecord::set_errors)).
    pub fn from_game(game: &Game, options: RecordOptions) -> GameRecord {
        let mut visitor = RecordVisitor::new(options);
        visitor.start(0, 1);
        for (name, value) in game.tags().iter() {
            visitor.add_tag(name, value);
        }
        visitor.begin_movetext(game.start_position());
        let mut position = game.start_position().clone();
        // The comments before the first move (the root's) stand before it, as the reader
        // sends them (`comment_before`): they go to the first move's row.
        visitor.pending.extend(game.root().comments().cloned());
        for id in game.main_line() {
            let Some(node) = game.node(id) else { break };
            let Some(played) = node.played() else { break };
            let before = position.clone();
            position.play_unchecked(played.mv);
            for comment in node.comments_before() {
                visitor.pending.push(comment.clone());
            }
            visitor.push_move(&before, &position, played.mv);
            for annotation in node.annotations() {
                match annotation {
                    pgnkit_game::Annotation::Nag(nag) => visitor.nag(*nag),
                    pgnkit_game::Annotation::Comment(comment) => visitor.after_move(comment.text()),
                }
            }
            // A comment after the last move's variations, with no move following: the
            // tree keeps it apart, the reader sends it as a trailing comment, which the
            // streaming visitor adds to the row of the line's last move.
            for comment in node.trailing_comments() {
                visitor.after_move(comment.text());
            }
        }
        // The reader hands the last position over at the end (`end_movetext`).
        visitor.last = Some(position);
        // A game's diagnostics come beside it (`ReadGame::diagnostics`): give them to
        // `set_errors` for the `errors` column.
        visitor.end_game()
    }
}

/// One main-line move of the moves table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveRecord {
    /// Canonical SAN with `+`/`#`.
    pub san: MoveText,
    /// UCI (Chess960 castling as king takes rook).
    pub uci: MoveText,
    /// The position after the move (only with [`RecordOptions::fen`]).
    pub fen: Option<String>,
    /// `[%clk]`, milliseconds.
    pub clock: Option<i32>,
    /// `[%emt]`, milliseconds.
    pub emt: Option<i32>,
    /// `[%eval]` in centipawns, White's point of view.
    pub eval_cp: Option<i32>,
    /// `[%eval #n]`, mate distance, White's point of view.
    pub eval_mate: Option<i16>,
    /// The move's NAGs, in read order.
    pub nags: Vec<u8>,
    /// The comments after the move (and any standing before it), the
    /// `[%...]` commands taken out, joined by a space; `None` when empty.
    pub comment: Option<String>,
    /// The move gives check.
    pub is_check: bool,
    /// The move captures.
    pub is_capture: bool,
    /// The moving piece, `P N B R Q K` (null for a null move).
    pub piece: Option<char>,
    /// From square (`e2`).
    pub from_square: Option<MoveText>,
    /// To square; castling gives the king's target in standard chess and
    /// the rook's square in Chess960, as UCI does.
    pub to_square: Option<MoveText>,
    /// Promotion piece, `Q R B N`.
    pub promotion: Option<char>,
}

/// Material points of a role: pawn 1, knight and bishop 3, rook 5, queen 9, king 0.
const POINTS: [(Role, u32); 5] = [
    (Role::Pawn, 1),
    (Role::Knight, 3),
    (Role::Bishop, 3),
    (Role::Rook, 5),
    (Role::Queen, 9),
];

/// One position of a game's main line, as the positions table holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PositionRecord {
    /// The Polyglot key ([`Position::polyglot_key`]).
    pub key: u64,
    /// The EPD (only with [`RecordOptions::fen`](crate::RecordOptions::fen)).
    pub epd: Option<String>,
    /// White is to move.
    pub white_to_move: bool,
    /// Men on the board, kings included.
    pub pieces: u8,
    /// White's material: pawn 1, knight and bishop 3, rook 5, queen 9.
    pub white_material: u8,
    /// Black's material, counted alike.
    pub black_material: u8,
}

impl PositionRecord {
    /// The row of `position`, with its EPD when `epd`.
    ///
    /// ```
    /// use pgnkit_arrow::PositionRecord;
    /// use pgnkit_chess::Position;
    ///
    /// let start = PositionRecord::of(&Position::new(), true);
    /// assert_eq!(start.key, 0x463b_9618_1691_fc9c);
    /// assert_eq!(start.epd.as_deref(), Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"));
    /// assert_eq!((start.pieces, start.white_material, start.black_material), (32, 39, 39));
    /// ```
    pub fn of(position: &Position, epd: bool) -> PositionRecord {
        let board = position.board();
        let material = |color: Color| {
            let men = board.by_color(color);
            let points: u32 = POINTS
                .iter()
                .map(|&(role, points)| points * (board.by_role(role) & men).count() as u32)
                .sum();
            u8::try_from(points).unwrap_or(u8::MAX)
        };
        PositionRecord {
            key: position.polyglot_key(),
            epd: epd.then(|| position.epd()),
            white_to_move: position.turn() == Color::White,
            pieces: u8::try_from(board.occupied().count()).unwrap_or(u8::MAX),
            white_material: material(Color::White),
            black_material: material(Color::Black),
        }
    }
}

/// One error of a game, as the games table's `errors` column holds it (a
/// list of these structs per game, with
/// [`TableOptions::errors`](crate::TableOptions::errors)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line, in the input (or the file a range of it was read from).
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
    /// `error` or `warning` (the column keeps the games' errors: `error`).
    pub severity: &'static str,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    /// The row of one diagnostic.
    pub fn of(diagnostic: &Diagnostic) -> RecordError {
        RecordError {
            line: diagnostic.line,
            column: diagnostic.column,
            severity: match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            message: diagnostic.message(),
        }
    }
}

/// What a [`RecordVisitor`] computes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordOptions {
    /// Each move's FEN after it (costs a FEN string per move).
    pub fen: bool,
    /// For the games table alone: the main line's moves are counted
    /// ([`GameRecord::plies`]), not recorded, so their SAN, UCI, clocks,
    /// evals, NAGs and comments are not worked out; every games-table
    /// column comes out the same, and the moves table gets no rows.
    pub games_only: bool,
    /// Each main-line position's row ([`GameRecord::positions`]: the Polyglot key,
    /// side to move, material, and with [`fen`](RecordOptions::fen) its EPD); needs the
    /// moves recorded (not [`games_only`](RecordOptions::games_only)).
    pub positions: bool,
}

/// Moves a game's record makes room for at least (most games have fewer): with 96, the
/// rows of one game in twelve on the guard's sample grew (copied whole), 2.3 M instructions.
const MOVES_ROOM: usize = 160;

/// A reader [`Visitor`] that turns each game into a [`GameRecord`]:
/// tags, the main line's moves (variations are skipped), clocks, evals,
/// NAGs and comments.
#[derive(Debug, Clone, Default)]
pub struct RecordVisitor {
    options: RecordOptions,
    record: GameRecord,
    encoding: Encoding,
    /// Comments standing before the next move.
    pending: Vec<Comment>,
    /// A comment's text without commands, before it is trimmed and added.
    plain: String,
    /// The previous game's move count: room made for as many moves.
    moves_hint: usize,
    /// The main line's last position, handed over at its end
    /// ([`end_movetext`](Visitor::end_movetext)).
    last: Option<Position>,
    /// What records handed back left to reuse.
    spare: Spare,
}

impl RecordVisitor {
    /// A visitor that fills records with `options`.
    pub fn new(options: RecordOptions) -> RecordVisitor {
        RecordVisitor {
            options,
            ..RecordVisitor::default()
        }
    }

    fn start(&mut self, offset: u64, line: u64) {
        self.record = GameRecord {
            offset,
            line,
            // Room for the last game's moves, and at least for a usual game's: growing a
            // game's rows (copying them) was 6 M instructions of `convert` on the guard's
            // sample.
            moves: Vec::with_capacity(self.moves_hint.max(MOVES_ROOM)),
            other_tags: std::mem::take(&mut self.spare.other_tags),
            positions: if self.options.positions {
                Vec::with_capacity(self.moves_hint + 1)
            } else {
                Vec::new()
            },
            ..GameRecord::default()
        };
        self.pending.clear();
        self.last = None;
    }

    fn add_tag(&mut self, name: &str, value: &str) {
        let record = &mut self.record;
        if let Some(i) = string_tag_index(name) {
            if record.strings[i].is_some() {
                return; // a duplicate keeps its first value, as `Tags` does
            }
            record.strings[i] = Some(Spare::string(&mut self.spare.strings, value));
            match name {
                "Date" => {
                    if let Ok(date) = typed::date(value) {
                        record.game_date = date;
                    } else {
                        self.warn("Date", value, "a date YYYY.MM.DD");
                    }
                }
                "TimeControl" => match typed::time_control(value) {
                    Ok(control) => {
                        record.time_base = control.map(|c| c.0);
                        record.time_increment = control.map(|c| c.1);
                    }
                    Err(()) => self.warn("TimeControl", value, "a time control such as 180+2"),
                },
                _ => {}
            }
            return;
        }
        if let Some(i) = rating_tag_index(name) {
            match typed::rating(value) {
                Ok(rating) => record.ratings[i] = record.ratings[i].or(rating),
                Err(()) => {
                    self.warn(RATING_TAGS[i], value, "an int16 rating");
                    self.keep(name, value);
                }
            }
            return;
        }
        match name {
            "UTCDate" => match typed::date(value) {
                Ok(date) => record.utc_date = record.utc_date.or(date),
                Err(()) => {
                    self.warn("UTCDate", value, "a date YYYY.MM.DD");
                    self.keep(name, value);
                }
            },
            "UTCTime" => match typed::time(value) {
                Ok(time) => record.utc_time = record.utc_time.or(time),
                Err(()) => {
                    self.warn("UTCTime", value, "a time HH:MM:SS");
                    self.keep(name, value);
                }
            },
            "Variant" => {
                if record.variant.is_none() {
                    record.variant = Some(Spare::string(&mut self.spare.strings, value));
                }
            }
            _ => self.keep(name, value),
        }
    }

    /// A rating, `UTCDate` or `UTCTime` tag (by its column name) whose value has the usual
    /// shape (ASCII digits: the same in any encoding), taken from its bytes as
    /// [`add_tag`](RecordVisitor::add_tag) takes it; `false` (nothing done) for any other
    /// tag or shape, and for a value `add_tag` warns of.
    #[inline]
    fn typed_tag(&mut self, name: &'static str, value: &[u8]) -> bool {
        let record = &mut self.record;
        match (rating_tag_index(name), name) {
            (Some(i), _) => match typed::short_rating(value) {
                Some(rating) => record.ratings[i] = record.ratings[i].or(Some(rating)),
                None => return false,
            },
            (None, "UTCDate") => match typed::full_date(value) {
                Some(Ok(date)) => record.utc_date = record.utc_date.or(date),
                _ => return false,
            },
            (None, "UTCTime") => match typed::full_time(value) {
                Some(Ok(time)) => record.utc_time = record.utc_time.or(time),
                _ => return false,
            },
            _ => return false,
        }
        true
    }

    fn keep(&mut self, name: &str, value: &str) {
        let tags = &mut self.record.other_tags;
        if !tags.iter().any(|(n, _)| n == name) {
            let strings = &mut self.spare.strings;
            let name = Spare::string(strings, name);
            tags.push((name, Spare::string(strings, value)));
        }
    }

    fn warn(&mut self, tag: &'static str, value: &str, expected: &'static str) {
        self.record.warnings.push(TagWarning {
            tag,
            value: value.to_owned(),
            expected,
        });
    }

    /// A comment after the last move (UTF-8 text): its clock, elapsed time and eval go to
    /// the move's row when the row has none yet, its text without commands to the row's
    /// `comment`.
    fn after_move(&mut self, text: &str) {
        let Some(row) = self.record.moves.last_mut() else {
            return; // a comment of a game without moves: no row to hold it
        };
        let plain = if text.contains("[%") {
            self.plain.clear();
            let found = commands::scan(text, &mut self.plain);
            if row.clock.is_none()
                && let Some(Some(clock)) = found.clock
            {
                row.clock = i32::try_from(clock).ok();
            }
            if row.emt.is_none()
                && let Some(Some(emt)) = found.emt
            {
                row.emt = i32::try_from(emt).ok();
            }
            if row.eval_cp.is_none()
                && row.eval_mate.is_none()
                && let Some(Some(score)) = found.eval
            {
                match score {
                    Score::Centipawns(cp) => row.eval_cp = Some(cp),
                    Score::Mate(n) => row.eval_mate = i16::try_from(n).ok(),
                }
            }
            self.plain.trim()
        } else {
            text.trim()
        };
        if !plain.is_empty() {
            match &mut row.comment {
                Some(before) => {
                    before.push(' ');
                    before.push_str(plain);
                }
                None => row.comment = Some(Spare::string(&mut self.spare.strings, plain)),
            }
        }
    }

    /// A comment after the last move, as the reader lends it: a clock alone read here,
    /// any other comment in a call of its own (inlined here, its register saves were paid
    /// by every clock: with them and the trimming walks of `clock_only`, 84 instructions a
    /// clock besides `short_clock`; 59 now, on the guard's sample).
    #[inline]
    fn add_comment(&mut self, comment: RawComment<'_>) {
        let Some(row) = self.record.moves.last_mut() else {
            return;
        };
        // A comment of one clock and nothing else (nearly every move of a Lichess game):
        // read from its bytes, as `after_move` would read it (ASCII, in any encoding).
        if let Some(clock) = commands::clock_only(comment.text) {
            if row.clock.is_none() {
                row.clock = i32::try_from(clock).ok();
            }
            return;
        }
        self.add_comment_text(comment);
    }

    /// A comment after the last move that is not a clock alone.
    #[inline(never)]
    fn add_comment_text(&mut self, comment: RawComment<'_>) {
        match (self.encoding, std::str::from_utf8(comment.text)) {
            (Encoding::Utf8, Ok(text)) => self.after_move(text),
            _ => self.after_move(&decode(comment.text, self.encoding)),
        }
    }

    fn push_move(&mut self, before: &Position, after: &Position, mv: Move) {
        let (uci, from_square, to_square) = match Uci::from_move(mv, before.castling_mode()) {
            Uci::Normal {
                from,
                to,
                promotion,
            } if !mv.is_null() => {
                let (from, to) = (MoveText::square(from), MoveText::square(to));
                let (f, t) = (from.padded().0, to.padded().0);
                let mut text = [f[0], f[1], t[0], t[1], 0, 0, 0, 0];
                let len = match promotion {
                    Some(role) => {
                        text[4] = role.char() as u8;
                        5
                    }
                    None => 4,
                };
                (MoveText::from_array(text, len), Some(from), Some(to))
            }
            other => (MoveText::new(&other.to_string()), None, None),
        };
        let mut comment = None;
        if !self.pending.is_empty() {
            comment = self.pending_comment();
        }
        // The writers' speller (`San::write_move_ascii`: a move that needs no
        // disambiguation put together in a register, as `pgnkit-export` spells the
        // movetext), the suffix as `SanPlus` writes it; building a `San` first
        // (`san_plus`) was a quarter of this function's instructions.
        let mut san = [0u8; 8];
        let mut len = San::write_move_ascii(before, &mv, &mut san);
        if let Some(suffix) = SanPlus::suffix_of(after) {
            san[len & 7] = suffix.char() as u8;
            len += 1;
        }
        let san = MoveText::from_array(san, len);
        self.record.moves.push(MoveRecord {
            san,
            uci,
            fen: self.options.fen.then(|| after.fen(FenOptions::default())),
            is_check: after.is_check(),
            is_capture: mv.is_capture(),
            piece: mv.role().map(|role| role.upper_char()),
            from_square,
            to_square,
            promotion: mv.promotion().map(|role| role.upper_char()),
            comment,
            ..MoveRecord::default()
        });
        if self.options.positions {
            let row = PositionRecord::of(after, self.options.fen);
            self.record.positions.push(row);
        }
    }

    /// Takes back a record this visitor made, once its rows are written: the next games'
    /// records reuse its short strings (tag names and values, the final FEN). What comes
    /// out is the same; only fewer allocations are made.
    pub(crate) fn recycle(&mut self, mut record: GameRecord) {
        let strings = &mut self.spare.strings;
        for text in record.strings.iter_mut().filter_map(Option::take) {
            Spare::keep(strings, text);
        }
        for text in [record.variant, record.final_fen].into_iter().flatten() {
            Spare::keep(strings, text);
        }
        for (name, value) in record.other_tags.drain(..) {
            Spare::keep(strings, name);
            Spare::keep(strings, value);
        }
        self.spare.other_tags = record.other_tags;
    }

    /// Rows of the moves table read so far in this game.
    pub(crate) fn moves_read(&self) -> usize {
        self.record.moves.len()
    }

    /// The SAN of the row read after the first `before` rows, if there is one: the move
    /// of the last [`san`](Visitor::san) event when it made a row.
    pub(crate) fn move_spelled(&self, before: usize) -> Option<MoveText> {
        (self.record.moves.len() == before + 1)
            .then(|| self.record.moves.last().map(|row| row.san))
            .flatten()
    }

    /// The comments standing before the move (taken), their commands out, joined by a
    /// space; `None` when they hold no text.
    fn pending_comment(&mut self) -> Option<String> {
        let mut comment = None;
        for before in self.pending.drain(..) {
            let plain = before.text_without_commands();
            let plain = plain.trim();
            if !plain.is_empty() {
                let text: &mut String = comment.get_or_insert_with(String::new);
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(plain);
            }
        }
        comment
    }
}

impl Visitor for RecordVisitor {
    type Output = GameRecord;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.start(game.offset, game.line);
        self.encoding = game.encoding();
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        // UTF-8 tags (nearly all) are read in place: decoding each name and value into a
        // new `String` first was two allocations a tag (5% of `convert`'s instructions).
        // A name with a column of its own is known by its bytes (`from_utf8` was a call of
        // about 90 instructions a name).
        // A rating, `UTCDate` or `UTCTime` of the usual shape is read from its bytes (the
        // value's `from_utf8` was a call of about 90 instructions).
        let known = column_tag_name(name);
        if let Some(known) = known
            && self.typed_tag(known, value)
        {
            return;
        }
        if self.encoding == Encoding::Utf8
            && let (Ok(name), Ok(value)) = (
                known.ok_or(()).or_else(|()| std::str::from_utf8(name)),
                std::str::from_utf8(value),
            )
        {
            self.add_tag(name, value);
            return;
        }
        let name = decode(name, self.encoding);
        let value = decode(value, self.encoding);
        self.add_tag(&name, &value);
    }

    fn begin_movetext(&mut self, start: &Position) {
        if self.options.positions && !self.options.games_only {
            let row = PositionRecord::of(start, self.options.fen);
            self.record.positions.push(row);
        }
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        if !self.options.games_only {
            self.pending.push(comment.decode(self.encoding));
        }
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        if self.options.games_only {
            self.record.plies += 1;
        } else {
            self.push_move(event.before, event.after, event.mv);
        }
    }

    fn nag(&mut self, nag: Nag) {
        if let Some(row) = self.record.moves.last_mut() {
            row.nags.push(nag.0);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.add_comment(comment);
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.add_comment(comment);
    }

    fn begin_variation(&mut self) -> Skip {
        Skip::Yes // the moves table holds the main line only
    }

    /// The main line's last position, taken once a game: copying each move's position
    /// after it was 16 instructions and a store of 104 bytes a move.
    fn end_movetext(&mut self, last: &Position) {
        self.last = Some(last.clone());
    }

    fn termination(&mut self, termination: Termination) {
        // The Result tag and the marker are one value, as in `Game`: where
        // a Result tag holding a marker disagrees, the marker wins
        // (SPEC-NOTES). Tags that hold no marker stay as read.
        let result = STRING_TAGS.iter().position(|&tag| tag == "Result");
        if let Some(slot) = result.map(|i| &mut self.record.strings[i])
            && slot
                .as_deref()
                .and_then(|v| Termination::from_exact(v.as_bytes()))
                .is_some_and(|tag| tag != termination)
        {
            *slot = Some(termination.as_str().to_owned());
        }
    }

    fn end_game(&mut self) -> GameRecord {
        self.pending.clear();
        self.moves_hint = self.record.moves.len();
        if let Some(last) = self.last.take() {
            let mut fen = self.spare.strings.pop().unwrap_or_default();
            // Writing into a `String` cannot fail.
            let _ = last.write_fen(&mut fen, FenOptions::default());
            self.record.final_fen = Some(fen);
            self.record.outcome = if last.is_checkmate() {
                Some("checkmate")
            } else if last.is_stalemate() {
                Some("stalemate")
            } else if last.is_insufficient_material() {
                Some("insufficient material")
            } else {
                None
            };
        }
        std::mem::take(&mut self.record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::{ReadOptions, read_games, visit_games_with};

    #[test]
    fn tag_indexes_follow_the_column_lists() {
        for (i, tag) in STRING_TAGS.iter().enumerate() {
            assert_eq!(string_tag_index(tag), Some(i));
            assert_eq!(rating_tag_index(tag), None);
        }
        for (i, tag) in RATING_TAGS.iter().enumerate() {
            assert_eq!(rating_tag_index(tag), Some(i));
            assert_eq!(string_tag_index(tag), None);
        }
        for tag in STRING_TAGS
            .iter()
            .chain(&RATING_TAGS)
            .chain(&["UTCDate", "UTCTime", "Variant"])
        {
            assert_eq!(column_tag_name(tag.as_bytes()), Some(*tag));
        }
        assert_eq!(column_tag_name(b"event"), None);
        assert_eq!(column_tag_name(b"PlyCount"), None);
        assert_eq!(string_tag_index("event"), None);
        assert_eq!(string_tag_index("Variant"), None);
    }

    /// Found by the `records` fuzz target: `from_game` left out the comments before the
    /// first move (the tree keeps them on its root), which the streaming visitor puts on
    /// the first move's row as the columns' documentation says.
    /// The record of the first game of `pgn` streamed and built from its tree.
    fn streamed_and_built(pgn: &[u8]) -> (GameRecord, GameRecord) {
        let options = RecordOptions {
            fen: true,
            games_only: false,
            positions: true,
        };
        let streamed = visit_games_with(pgn, RecordVisitor::new(options), ReadOptions::new())
            .next()
            .expect("a game")
            .value;
        let game = read_games(pgn).next().expect("a game").value;
        (streamed, GameRecord::from_game(&game, options))
    }

    #[test]
    fn from_game_keeps_the_comments_before_the_first_move() {
        let pgn = b"[Event \"x\"]\n\n{ before } 1. e4 { after } e5 *\n";
        let (streamed, built) = streamed_and_built(pgn);
        assert_eq!(built, streamed);
        assert_eq!(built.moves[0].comment.as_deref(), Some("before after"));
    }

    /// Found by the `records` fuzz target (CI, stop 40): a comment after the last move's
    /// variations (the tree's trailing comments) was on the last row when streamed and
    /// missing from `from_game`'s.
    #[test]
    fn from_game_keeps_a_comment_after_the_last_moves_variations() {
        let pgn = b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 {own} (2... d6) { after } *\n";
        let (streamed, built) = streamed_and_built(pgn);
        assert_eq!(built, streamed);
        assert_eq!(built.moves[3].comment.as_deref(), Some("own after"));
    }
}
