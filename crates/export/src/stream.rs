//! [`StreamWriter`]: a reader [`Visitor`] that writes export format as the
//! events arrive, with no move tree per game.
//!
//! Events go straight into the line layout while the main line has no open
//! variation. From a main-line move's first variation until the main line's
//! next move, tokens go to a small tape instead, because a NAG or comment
//! that annotates a move can arrive after that move's variations (a NAG
//! after `)`) and must be written before them; the tape is replayed into the
//! layout at the next main-line move. Memory is bounded by the largest game
//! and reused from game to game.

use std::io;
use std::ops::Range;

use pgnkit_chess::{CastlingMode, Color, Position, polyglot};
use pgnkit_game::{
    Encoding, GameStart, MoveEvent, Nag, RawComment, Skip, Termination, Visitor, san_plus,
};

use crate::layout::{Layout, Word, is_comment_space};
use crate::movetext::Numbering;
use crate::notation::{MoveWriter, san_word};
use crate::options::{ExportOptions, Notation, TagOrder};
use crate::position_comments::{Note, Notes, Plain, PositionComments};
use crate::tags::{TagFilter, TagSection};

/// One recorded movetext token; text lives in the tape's arena.
#[derive(Debug, Clone)]
enum Token {
    Number(u32, bool),
    Move(Range<usize>),
    Nag(u8),
    Comment(Range<usize>),
    Open,
    Close,
}

/// One open line: the main line or a variation.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// The ply (from 0) of the line's first move.
    first_ply: u64,
    /// The ply (from 0) the line's next move gets.
    next_ply: u64,
    /// Whether a black move written next needs its number.
    need_number: bool,
    /// Where in the tape the variations after the line's last move start,
    /// while that group of variations is open (a late NAG goes there).
    alternatives_at: Option<usize>,
    /// Where in the tape the line's `(` is.
    open_at: usize,
    /// Where this line's deferred siblings start in the held tokens.
    held_from: usize,
    /// The line is an alternative to its parent line's first move: in the
    /// tree it is a sibling of the parent line, written after the parent
    /// line's `)`. Its tokens move to the held tokens when it ends.
    sibling: bool,
    /// The position comments of the line's last move, not written yet
    /// (see [`StreamWriter::with_position_comments`]).
    note: Option<Note>,
    /// The Polyglot key after the line's last move and before it (only
    /// kept with key comments).
    key: u64,
    key_before: u64,
}

impl Line {
    /// The main line, from the game's start (whose Polyglot key is `key`).
    fn main(key: u64) -> Line {
        Line {
            note: None,
            key,
            key_before: key,
            first_ply: 0,
            next_ply: 0,
            need_number: true,
            alternatives_at: None,
            open_at: 0,
            held_from: 0,
            sibling: false,
        }
    }
}

/// A [`Visitor`] that writes each game in export format as the reader's
/// events arrive.
///
/// After the reader finishes a game, [`StreamWriter::game_text`] holds that
/// game's export text (the caller decides whether to keep it, e.g. only
/// when the game had no errors) and [`StreamWriter::write_game_to`] copies it
/// out. The text is replaced when the next game begins.
///
/// ```
/// use pgnkit_export::{ExportOptions, StreamWriter};
/// use pgnkit_game::visit_games;
///
/// let pgn = b"[White \"A\"]\n1. e4 (1. d4) $1 e5 1-0\n\n1. e4 Qh4 *\n";
/// let mut games = visit_games(pgn, StreamWriter::new(ExportOptions::export()));
/// let mut out = Vec::new();
/// while let Some(read) = games.next() {
///     // Keep only games without errors (export the broken ones elsewhere).
///     if !read.is_broken() {
///         games.visitor().write_game_to(&mut out).unwrap();
///     }
/// }
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("[Result \"1-0\"]\n\n1. e4 $1 (1. d4) 1... e5 1-0\n\n"));
/// assert_eq!(text.matches("[Event ").count(), 1); // `Qh4` is illegal
/// ```
#[derive(Debug)]
pub struct StreamWriter {
    options: ExportOptions,
    layout: Layout,
    tags: TagSection,
    moves: MoveWriter,
    encoding: Encoding,
    numbering: Numbering,
    lines: Vec<Line>,
    tape: Vec<Token>,
    /// Variations written after their parent line's `)` (see [`Line::sibling`]).
    held: Vec<Token>,
    arena: Vec<u8>,
    /// Decoding scratch for Latin-1 text.
    scratch: Vec<u8>,
    started: bool,
    /// Offset in the game text of the `Result` tag's value (written as `*`
    /// before the marker is known).
    result_at: usize,
    /// Whether the tag section is written (see [`StreamWriter::movetext_only`]).
    tag_section: bool,
    /// Offset in the game text of the movetext's first byte: the end of the
    /// tag section and its empty line (the text starts at 0). With the
    /// filter the section was written with, [`StreamWriter::set_tags`]
    /// writes it again.
    movetext_at: usize,
    filter: TagFilter,
    /// The game starts from a Chess960 position (its `Variant` tag is
    /// needed to replay it).
    chess960: bool,
    /// The game ended (its text is whole).
    ended: bool,
    /// Tags were set after the section was written, before the game ended:
    /// the game's end writes the section again.
    retag: bool,
    /// The standard starting position (built once: it is compared with
    /// every game's start).
    standard: Position,
    termination: Termination,
    games: u64,
    /// The comments written after every move (none unless asked for).
    positions: PositionComments,
    notes: Notes,
}

impl StreamWriter {
    /// A writer with `options`.
    pub fn new(options: ExportOptions) -> StreamWriter {
        let mut moves = MoveWriter::default();
        moves.set_checks(options.checks);
        StreamWriter {
            tag_section: options.tags,
            chess960: false,
            layout: Layout::new(options.width),
            options,
            tags: TagSection::default(),
            moves,
            encoding: Encoding::Utf8,
            numbering: Numbering::from_parts(1, Color::White),
            lines: Vec::new(),
            tape: Vec::new(),
            held: Vec::new(),
            arena: Vec::new(),
            scratch: Vec::new(),
            started: false,
            result_at: 0,
            movetext_at: 0,
            filter: TagFilter::All,
            ended: false,
            retag: false,
            standard: Position::new(),
            termination: Termination::Unknown,
            games: 0,
            positions: PositionComments::default(),
            notes: Notes::default(),
        }
    }

    /// This writer, writing `comments` after every move: the FEN of the
    /// position it leads to and its Polyglot key, each as a comment after
    /// the move's own NAGs and comments, before its variations (`select
    /// --fen-comments`, `--hash-comments`). The text is byte for byte what
    /// the tree writer writes of a game that `pgnkit_select::add_fen_comments`
    /// and `add_hash_comments` changed, with no tree. Nothing is added when
    /// the options write no comments.
    ///
    /// ```
    /// use pgnkit_chess::FenOptions;
    /// use pgnkit_export::{ExportOptions, PositionComments, StreamWriter};
    /// use pgnkit_game::visit_games;
    ///
    /// let fen = PositionComments { fen: Some(FenOptions::default()), polyglot_key: false };
    /// let writer = StreamWriter::new(ExportOptions::export()).with_position_comments(fen);
    /// let mut games = visit_games(b"1. e4 (1. d4) *", writer);
    /// games.next();
    /// let text = String::from_utf8(games.visitor().movetext().to_vec()).unwrap();
    /// let e4 = text.find("e4 { rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 }");
    /// let d4 = text.find("{ rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 })");
    /// assert!(e4.is_some() && e4 < d4, "{text}");
    /// ```
    pub fn with_position_comments(mut self, comments: PositionComments) -> StreamWriter {
        self.positions = if self.options.comments {
            comments
        } else {
            PositionComments::default()
        };
        self
    }

    /// A writer with `options` that writes each game's movetext alone, with
    /// no tag section: [`game_text`](StreamWriter::game_text) is then the
    /// movetext and its empty line, byte for byte what follows the tag
    /// section's empty line in the whole game's text (the tags are neither
    /// formatted nor written, which saves their cost when only the movetext
    /// is wanted: the games table's `movetext` column).
    ///
    /// ```
    /// use pgnkit_export::{ExportOptions, StreamWriter};
    /// use pgnkit_game::visit_games;
    ///
    /// let pgn = b"[White \"A\"]\n\n1. e4 { hi } e5 1-0\n";
    /// let mut whole = visit_games(pgn, StreamWriter::new(ExportOptions::export()));
    /// whole.next();
    /// let mut alone = visit_games(pgn, StreamWriter::movetext_only(ExportOptions::export()));
    /// alone.next();
    /// assert_eq!(alone.visitor().game_text(), b"1. e4 { hi } 1... e5 1-0\n\n");
    /// assert_eq!(whole.visitor().movetext(), alone.visitor().game_text());
    /// ```
    pub fn movetext_only(options: ExportOptions) -> StreamWriter {
        StreamWriter {
            tag_section: false,
            ..StreamWriter::new(options)
        }
    }

    /// The export text of the last game read (empty before the first).
    pub fn game_text(&self) -> &[u8] {
        self.layout.output()
    }

    /// The movetext of the last game read: its export text after the tag
    /// section and its empty line, ending with the game's empty line (the
    /// writer knows where its tag section ends: nothing is searched for).
    pub fn movetext(&self) -> &[u8] {
        let text = self.layout.output();
        text.get(self.movetext_at..).unwrap_or_default()
    }

    /// Writes the last game's export text to `out`.
    pub fn write_game_to(&self, out: &mut impl io::Write) -> io::Result<()> {
        out.write_all(self.layout.output())
    }

    /// Takes the last game's export text without copying it, leaving
    /// `replacement` (emptied; its capacity is reused) as the buffer the
    /// next game is written into. [`StreamWriter::game_text`] is empty
    /// afterwards.
    ///
    /// ```
    /// use pgnkit_export::{ExportOptions, StreamWriter};
    /// use pgnkit_game::visit_games;
    ///
    /// let mut games = visit_games(b"1. e4 *", StreamWriter::new(ExportOptions::export()));
    /// games.next();
    /// let text = games.visitor().take_game_text(Vec::new());
    /// assert!(text.ends_with(b"\n\n1. e4 *\n\n"));
    /// assert!(games.visitor().game_text().is_empty());
    /// ```
    pub fn take_game_text(&mut self, replacement: Vec<u8>) -> Vec<u8> {
        self.layout.take_output(replacement)
    }

    /// Sets tags of the game being read or just read (after its end, before
    /// the next one begins), each in place of any value it had: its text is
    /// the one written had the game held those values (the `Result` value
    /// is the marker's; `FEN` cannot be set). For a value known only once
    /// the moves were read, such as a game's classified opening: the tag
    /// section is written again from the writer's tags, in its order.
    ///
    /// ```
    /// use pgnkit_export::{ExportOptions, StreamWriter};
    /// use pgnkit_game::visit_games;
    ///
    /// let mut games = visit_games(
    ///     b"[Opening \"?\"]\n[Round \"3\"]\n1. e4 *",
    ///     StreamWriter::new(ExportOptions::export()),
    /// );
    /// games.next();
    /// games.visitor().set_tags([("ECO", "B00"), ("Opening", "King's Pawn")]);
    /// let text = String::from_utf8(games.visitor().game_text().to_vec()).unwrap();
    /// assert!(text.contains("[Result \"*\"]\n[ECO \"B00\"]\n[Opening \"King's Pawn\"]\n\n1. e4 *"));
    /// ```
    pub fn set_tags<'t>(&mut self, tags: impl IntoIterator<Item = (&'t str, &'t str)>) {
        for (name, value) in tags {
            let value = value.as_bytes();
            self.tags.set(name.as_bytes(), value);
        }
        if self.ended {
            self.rewrite_tags();
        } else if self.started {
            self.retag = true;
        }
    }

    /// Writes the tag section of the ended game again, from its tags (see
    /// [`StreamWriter::set_tags`]).
    fn rewrite_tags(&mut self) {
        self.retag = false;
        if !self.tag_section {
            return; // the movetext alone: no section to write
        }
        let mut section = std::mem::take(&mut self.scratch);
        section.clear();
        let order = self.options.tag_order.as_ref();
        let result_at = write_section(
            &mut self.tags,
            order,
            self.filter,
            self.chess960,
            &mut section,
        );
        patch_result_at(
            &mut section,
            result_at,
            self.termination.as_str().as_bytes(),
        );
        let out = self.layout.raw();
        out.splice(..self.movetext_at.min(out.len()), section.iter().copied());
        self.result_at = result_at;
        self.movetext_at = section.len();
        self.scratch = section;
    }

    /// How many games were written (ended) so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// `bytes` decoded to UTF-8 with the game's encoding (Latin-1 bytes
    /// become their code points).
    #[inline]
    fn decode<'a>(scratch: &'a mut Vec<u8>, encoding: Encoding, bytes: &'a [u8]) -> &'a [u8] {
        match encoding {
            Encoding::Utf8 => bytes,
            Encoding::Latin1 => latin1_to_utf8(scratch, bytes),
        }
    }

    /// Whether tokens go to the tape (a main-line move's variations are open).
    fn taping(&self) -> bool {
        !self.tape.is_empty()
    }

    /// Writes or records one token.
    fn emit(&mut self, token: Token) {
        if self.taping() || matches!(token, Token::Open) {
            self.tape.push(token);
        } else {
            replay(&mut self.layout, &self.arena, &token);
        }
    }

    /// Replays the tape into the layout and empties it.
    fn flush_tape(&mut self) {
        for token in &self.tape {
            replay(&mut self.layout, &self.arena, token);
        }
        self.tape.clear();
        self.arena.clear();
    }

    fn current(&mut self) -> Option<&mut Line> {
        self.lines.last_mut()
    }

    /// Writes the tag section, before the first movetext event (every
    /// movetext event calls this; only the first does anything).
    #[inline]
    fn start_movetext(&mut self, start: Option<&Position>) {
        if !self.started {
            self.write_tags(start);
        }
    }

    /// Writes the tag section for a game starting at `start` (`None`: the
    /// standard start).
    fn write_tags(&mut self, start: Option<&Position>) {
        self.started = true;
        let start = start.unwrap_or(&self.standard);
        let needs_fen = *start != self.standard;
        let write_fen = needs_fen || (!self.options.reduced_tags && self.tags.has_fen());
        if write_fen && self.tag_section {
            let fen = start.fen(self.options.fen);
            self.tags.set_fen(Some(fen.as_bytes()));
        }
        let chess960 = start.castling_mode() == CastlingMode::Chess960;
        self.moves.set_mode(start.castling_mode());
        self.numbering = Numbering::new(start);
        // The marker is not known yet: the Result line is patched in
        // `end_game` (the roster is always written, so it is found by
        // position: the seventh line).
        let filter = if self.options.reduced_tags {
            TagFilter::Reduced { variant: chess960 }
        } else {
            TagFilter::All
        };
        self.filter = filter;
        self.chess960 = chess960;
        self.result_at = if self.tag_section {
            let order = self.options.tag_order.as_ref();
            write_section(&mut self.tags, order, filter, chess960, self.layout.raw())
        } else {
            usize::MAX // no Result tag to patch
        };
        self.movetext_at = self.layout.output().len();
        self.lines.clear();
        let key = if self.positions.polyglot_key {
            start.polyglot_key()
        } else {
            0
        };
        self.lines.push(Line::main(key));
    }

    /// A comment token (if comments are written and it is not empty);
    /// returns whether it was written.
    fn push_comment(&mut self, text: &[u8]) -> bool {
        if !self.options.comments || is_blank(text) {
            return false;
        }
        let taping = self.taping();
        let text = Self::decode(&mut self.scratch, self.encoding, text);
        if taping {
            let range = store(&mut self.arena, text);
            self.tape.push(Token::Comment(range));
        } else {
            self.layout.comment(text);
        }
        true
    }

    /// A comment after a move while tokens go to the tape or the move's
    /// variations came before it (see [`StreamWriter::annotate`]).
    #[inline(never)]
    fn late_comment(&mut self, text: &[u8]) {
        if is_blank(text) {
            return;
        }
        let text = Self::decode(&mut self.scratch, self.encoding, text);
        let range = store(&mut self.arena, text);
        self.annotate(Token::Comment(range));
    }

    /// An annotation (NAG or comment) of the current line's last move:
    /// written now, or before that move's variations if they came first.
    fn annotate(&mut self, token: Token) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        line.need_number = true;
        match line.alternatives_at {
            Some(at) => {
                line.alternatives_at = Some(at + 1);
                let at = at.min(self.tape.len());
                self.tape.insert(at, token);
            }
            None => self.emit(token),
        }
    }
}

impl StreamWriter {
    /// A move while tokens go to the tape or in another notation than SAN,
    /// after its move number (`number` and whether Black plays) if given.
    /// Kept out of line: the common path of [`Visitor::san`] stays small.
    #[inline(never)]
    fn other_move(&mut self, event: &MoveEvent<'_>, number: Option<(u32, bool)>) {
        let san = san_plus(event);
        let taping = self.taping();
        if let Some((number, black)) = number {
            self.emit(Token::Number(number, black));
        }
        let text = self
            .moves
            .write_parts(&event.mv, &san, self.options.notation);
        if taping {
            let range = store(&mut self.arena, text);
            self.tape.push(Token::Move(range));
        } else {
            self.layout.mov(text);
        }
    }
}

impl StreamWriter {
    /// Keeps the position comments of the move `event` just written, until
    /// its annotations are read (see [`StreamWriter::write_note`]).
    fn take_note(&mut self, event: &MoveEvent<'_>) {
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        if self.positions.polyglot_key {
            line.key_before = line.key;
            line.key = polyglot::key_after(event.before, line.key, event.after);
        }
        line.note = Some(self.notes.push(self.positions, event.after, line.key));
    }

    /// Writes the position comments of the current line's last move, after
    /// its annotations: called when the line's next move, a comment before
    /// it, or the line's end comes.
    fn write_note(&mut self) {
        let Some(note) = self.lines.last_mut().and_then(|line| line.note.take()) else {
            return;
        };
        let notes = std::mem::take(&mut self.notes);
        let (fen, key) = notes.texts(note);
        for plain in [fen, key] {
            if !plain.text.is_empty() {
                self.note_comment(plain);
            }
        }
        self.notes = notes;
        self.notes.pop(note);
    }

    /// One position comment of the current line's last move, as
    /// [`Visitor::comment`] writes a comment after a move.
    fn note_comment(&mut self, plain: Plain<'_>) {
        let late = self
            .lines
            .last()
            .is_some_and(|l| l.alternatives_at.is_some());
        if late || self.taping() {
            let range = store(&mut self.arena, plain.text);
            self.annotate(Token::Comment(range));
            return;
        }
        let written = self.layout.plain_words_comment(plain.text, plain.spaces);
        if let Some(line) = self.lines.last_mut() {
            line.need_number |= written;
        }
    }
}

/// `bytes` read as Latin-1, written into `scratch` as UTF-8. Kept out of
/// line: the callers' common path (UTF-8 text) stays small.
#[inline(never)]
fn latin1_to_utf8<'a>(scratch: &'a mut Vec<u8>, bytes: &[u8]) -> &'a [u8] {
    scratch.clear();
    for &b in bytes {
        if b < 0x80 {
            scratch.push(b);
        } else {
            scratch.push(0xc0 | (b >> 6));
            scratch.push(0x80 | (b & 0x3f));
        }
    }
    scratch
}

/// Whether a comment is only white space (and so is not written).
fn is_blank(text: &[u8]) -> bool {
    text.iter().all(|&b| is_comment_space(b))
}

/// Records `text` in `arena`, returning its range.
fn store(arena: &mut Vec<u8>, text: &[u8]) -> Range<usize> {
    let start = arena.len();
    arena.extend_from_slice(text);
    start..arena.len()
}

/// Writes one token into the layout.
fn replay(layout: &mut Layout, arena: &[u8], token: &Token) {
    match token {
        Token::Number(n, black) => layout.move_number(*n, *black),
        Token::Move(r) => layout.mov(arena.get(r.clone()).unwrap_or_default()),
        Token::Nag(n) => layout.nag(*n),
        Token::Comment(r) => {
            layout.comment(arena.get(r.clone()).unwrap_or_default());
        }
        Token::Open => layout.open_variation(),
        Token::Close => layout.close_variation(),
    }
}

impl StreamWriter {
    /// [`Visitor::san`] with the move spelled by the caller: `san` holds its SAN and
    /// check suffix as `San::write_move_ascii` and `SanPlus::suffix_of` spell them (`len`
    /// ASCII bytes, zero after). For a caller that spells each move for itself too (the
    /// moves table of `pgnkit-arrow`), so that the move is spelled once; the text written
    /// is [`san`](Visitor::san)'s.
    pub fn san_spelled(&mut self, event: MoveEvent<'_>, san: [u8; 8], len: usize) {
        self.write_move(event, |_| Word::from_san_ascii(&san, len.min(8)));
    }

    /// A move of the line: its number if due, then the move as `spell` spells it in the
    /// common case (SAN with checks, nothing taped), else as the options say.
    #[inline(always)]
    fn write_move(&mut self, event: MoveEvent<'_>, spell: impl FnOnce(&MoveEvent<'_>) -> Word) {
        self.start_movetext(None);
        if self.positions.any() {
            // The last move's annotations are all read.
            self.write_note();
        }
        let Some(line) = self.lines.last_mut() else {
            return;
        };
        let ply = line.next_ply;
        let need_number = line.need_number;
        line.next_ply += 1;
        line.need_number = false;
        line.alternatives_at = None;
        if self.lines.len() == 1 && self.taping() {
            self.flush_tape();
        }
        let (number, black) = self.numbering.at(ply);
        let number =
            ((!black || need_number) && self.options.move_numbers).then_some((number, black));
        if !self.taping() && self.options.notation == Notation::San && self.options.checks {
            // The common case: straight into the layout, SAN in a register.
            self.layout.word_move(number, spell(&event));
        } else {
            self.other_move(&event, number);
        }
        if self.positions.any() {
            self.take_note(&event);
        }
    }
}

impl Visitor for StreamWriter {
    type Output = ();

    fn begin_game(&mut self, game: GameStart<'_>) {
        // An ASCII game is UTF-8; the check for ASCII (an OR of all bytes,
        // which the compiler vectorizes) is much cheaper than the check for
        // UTF-8, which only a game with other bytes needs.
        self.encoding = if game.bytes.iter().fold(0, |all, &b| all | b) < 0x80 {
            Encoding::Utf8
        } else {
            game.encoding()
        };
        self.layout.clear();
        self.layout.set_width(self.options.width);
        self.layout.set_comment_lines(self.options.comment_lines);
        self.layout
            .set_nested_comments(self.options.nested_comments);
        self.tags.clear();
        self.tape.clear();
        self.held.clear();
        self.arena.clear();
        self.lines.clear();
        self.notes.clear();
        self.started = false;
        self.ended = false;
        self.retag = false;
        self.termination = Termination::Unknown;
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        if !self.tag_section {
            return;
        }
        let value = Self::decode(&mut self.scratch, self.encoding, value);
        // First value wins, as in the tree (the section keeps the first).
        self.tags.push(name, value);
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.start_movetext(Some(start));
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        self.start_movetext(None);
        if self.positions.any() {
            // A comment before the line's next move: the last move's are all read.
            self.write_note();
        }
        if self.push_comment(comment.text)
            && let Some(line) = self.current()
        {
            line.need_number = true;
        }
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        self.write_move(event, san_word);
    }

    fn nag(&mut self, nag: Nag) {
        if self.options.nags {
            self.annotate(Token::Nag(nag.0));
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        if !self.options.comments {
            return;
        }
        let late = self
            .lines
            .last()
            .is_some_and(|l| l.alternatives_at.is_some());
        if late || self.taping() {
            self.late_comment(comment.text);
            return;
        }
        // The common case: straight into the layout, which skips a blank
        // comment (then the black move after it needs no number).
        let text = Self::decode(&mut self.scratch, self.encoding, comment.text);
        let written = self.layout.comment(text);
        if let Some(line) = self.lines.last_mut() {
            line.need_number |= written;
        }
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.start_movetext(None);
        self.push_comment(comment.text);
    }

    fn begin_variation(&mut self) -> Skip {
        if !self.options.variations {
            return Skip::Yes;
        }
        self.start_movetext(None);
        let open_at = self.tape.len();
        let held_from = self.held.len();
        let depth = self.lines.len();
        let Some(line) = self.lines.last_mut() else {
            return Skip::Yes;
        };
        // An alternative to a variation's first move is, in the tree, one
        // more alternative to the move that variation replaces.
        let sibling = depth > 1 && line.next_ply == line.first_ply + 1;
        if !sibling {
            if line.alternatives_at.is_none() {
                line.alternatives_at = Some(open_at);
            }
            line.need_number = true;
        }
        let ply = line.next_ply.saturating_sub(1);
        // The variation starts where the move it replaces was played.
        let key = line.key_before;
        self.emit(Token::Open);
        self.lines.push(Line {
            note: None,
            key,
            key_before: key,
            first_ply: ply,
            next_ply: ply,
            need_number: true,
            alternatives_at: None,
            open_at,
            held_from,
            sibling,
        });
        Skip::No
    }

    fn end_variation(&mut self) {
        if self.lines.len() < 2 {
            return;
        }
        if self.positions.any() {
            self.write_note();
        }
        let Some(line) = self.lines.pop() else {
            return;
        };
        self.emit(Token::Close);
        // The alternatives to this line's first move follow its `)`.
        let from = line.held_from.min(self.held.len());
        self.tape.extend(self.held.drain(from..));
        if line.sibling {
            let at = line.open_at.min(self.tape.len());
            self.held.extend(self.tape.drain(at..));
        }
    }

    fn termination(&mut self, termination: Termination) {
        self.termination = termination;
    }

    fn end_game(&mut self) {
        self.start_movetext(None);
        // Close variations left open by an error, so the text stays balanced.
        while self.lines.len() > 1 {
            self.end_variation();
        }
        if self.positions.any() {
            self.write_note();
        }
        self.tape.append(&mut self.held);
        self.flush_tape();
        if self.options.results {
            self.layout.marker(self.termination.as_str());
        }
        self.layout.finish();
        self.layout.raw().push(b'\n');
        let result = self.termination.as_str().as_bytes();
        if patch_result_at(self.layout.raw(), self.result_at, result) {
            // The tag section grew by the marker's length less the `*`'s.
            self.movetext_at += result.len() - 1;
        }
        self.ended = true;
        if self.retag {
            self.rewrite_tags();
        }
        self.games += 1;
    }
}

/// Writes the tag section of `tags` into `out` with `*` as the `Result`
/// value, in `order` if one is given; returns the offset of that value.
fn write_section(
    tags: &mut TagSection,
    order: Option<&TagOrder>,
    filter: TagFilter,
    chess960: bool,
    out: &mut Vec<u8>,
) -> usize {
    match order {
        Some(order) => tags.write_ordered(out, b"*", filter, order, chess960),
        None => tags.write(out, b"*", filter),
    }
}

/// Replaces the `*` at `at` (the `Result` tag's value) with `result`;
/// returns whether it did.
fn patch_result_at(out: &mut Vec<u8>, at: usize, result: &[u8]) -> bool {
    if result != b"*" && out.get(at) == Some(&b'*') {
        out.splice(at..at + 1, result.iter().copied());
        return true;
    }
    false
}

/// Replaces the `*` of the `[Result "*"]` line (the seventh line) with
/// `result`, finding that line (the writer knows where it is; this finds it
/// in any text).
#[cfg(test)]
fn patch_result(out: &mut Vec<u8>, result: &[u8]) {
    let mut line_start = 0;
    for _ in 0..6 {
        match out[line_start..].iter().position(|&b| b == b'\n') {
            Some(i) => line_start += i + 1,
            None => return,
        }
    }
    let prefix = b"[Result \"*\"]";
    if out[line_start..].starts_with(prefix) {
        patch_result_at(out, line_start + prefix.len() - 3, result);
    }
}

#[cfg(test)]
mod tests;
