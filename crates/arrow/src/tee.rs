//! [`RecordTee`]: one reading of a game for the games table's every column,
//! `movetext` included: a [`RecordVisitor`] (tags, the main line) and a text
//! visitor that writes the game in export format (everything, variations too)
//! fed the same events.
//!
//! This crate does not depend on `pgnkit-export` (it sits beside it), so the
//! text visitor is a type parameter with a function that lends its game's
//! text: `pgnkit convert` and the Python package both pass
//! `StreamWriter::new(ExportOptions::export())` and `StreamWriter::game_text`,
//! so the column is the same whoever fills it.

use pgnkit_chess::Position;
use pgnkit_game::{GameStart, MoveEvent, Nag, RawComment, Skip, Termination, Visitor};

use crate::record::{GameRecord, RecordOptions, RecordVisitor};

/// A function that lends a text visitor's last game as export-format text
/// (tag section, blank line, movetext), such as `StreamWriter::game_text`.
pub type GameText<T> = fn(&T) -> &[u8];

/// A reader [`Visitor`] that makes a [`GameRecord`] with its
/// [`movetext`](GameRecord::movetext) filled: the record's events go to a
/// [`RecordVisitor`] (main line only) and every event to the text visitor
/// `T`, whose game text, without its tag section, becomes the movetext.
///
/// ```
/// use pgnkit_arrow::{GameText, RecordOptions, RecordTee};
/// use pgnkit_game::{ReadOptions, Skip, Visitor, visit_games_with};
///
/// /// A stand-in for the export writer: the SAN of every move, variations too.
/// #[derive(Default)]
/// struct Sans(Vec<u8>);
/// impl Visitor for Sans {
///     type Output = ();
///     fn begin_game(&mut self, _: pgnkit_game::GameStart<'_>) {
///         self.0.clear();
///     }
///     fn san(&mut self, event: pgnkit_game::MoveEvent<'_>) {
///         self.0.extend_from_slice(event.text);
///         self.0.push(b' ');
///     }
///     fn begin_variation(&mut self) -> Skip {
///         Skip::No
///     }
///     fn end_game(&mut self) {}
/// }
/// let text: GameText<Sans> = |s| s.0.as_slice();
///
/// let tee = RecordTee::new(RecordOptions::default(), Sans::default(), text);
/// let pgn = b"1. e4 (1. d4 d5) e5 *\n";
/// let record = visit_games_with(pgn, tee, ReadOptions::new()).next().unwrap().value;
/// assert_eq!(record.movetext.as_deref(), Some("e4 d4 d5 e5"));
/// assert_eq!(record.moves.len(), 2); // the record keeps the main line only
/// ```
#[derive(Debug, Clone)]
pub struct RecordTee<T> {
    record: RecordVisitor,
    text: Option<(T, GameText<T>)>,
    /// Variations open: their events go to the text visitor alone.
    depth: usize,
}

impl<T: Visitor> RecordTee<T> {
    /// A tee filling records with `options` and their movetext from `text`,
    /// whose game text `game_text` lends.
    pub fn new(options: RecordOptions, text: T, game_text: GameText<T>) -> RecordTee<T> {
        RecordTee {
            record: RecordVisitor::new(options),
            text: Some((text, game_text)),
            depth: 0,
        }
    }

    /// A tee with no text visitor: records with no movetext, as a
    /// [`RecordVisitor`] makes them (for the moves table, which has no
    /// `movetext` column), at its cost.
    pub fn without_text(options: RecordOptions) -> RecordTee<T> {
        RecordTee {
            record: RecordVisitor::new(options),
            text: None,
            depth: 0,
        }
    }

    fn text(&mut self) -> Option<&mut T> {
        self.text.as_mut().map(|(text, _)| text)
    }
}

/// The movetext of a game's export-format text: the text without its tag
/// section (everything up to the first blank line of a text that starts
/// with `[`), trailing whitespace removed; bytes that are not UTF-8 are
/// replaced (the export writer writes UTF-8).
///
/// ```
/// let text = b"[Event \"E\"]\n[Result \"*\"]\n\n1. e4 *\n\n";
/// assert_eq!(pgnkit_arrow::movetext(text), "1. e4 *");
/// assert_eq!(pgnkit_arrow::movetext(b"1. d4 *\n"), "1. d4 *");
/// ```
pub fn movetext(text: &[u8]) -> String {
    let body = match text.windows(2).position(|w| w == b"\n\n") {
        Some(at) if text.first() == Some(&b'[') => &text[at + 2..],
        _ => text,
    };
    let body = body.trim_ascii_end();
    // `from_utf8` checks ASCII a word at a time; `from_utf8_lossy` walks the bytes one by one
    // (its `Utf8Chunks`: 5% of `read_arrow`'s instructions). Text that is not UTF-8 (the
    // writer writes UTF-8, so none is expected) takes the lossy path.
    match std::str::from_utf8(body) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    }
}

impl<T: Visitor> Visitor for RecordTee<T> {
    type Output = GameRecord;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.depth = 0;
        self.record.begin_game(game);
        if let Some(text) = self.text() {
            text.begin_game(game);
        }
    }
    fn tag(&mut self, name: &[u8], value: &[u8]) {
        self.record.tag(name, value);
        if let Some(text) = self.text() {
            text.tag(name, value);
        }
    }
    fn end_tags(&mut self) -> Skip {
        let skip = self.record.end_tags();
        match self.text() {
            Some(text) => text.end_tags(),
            None => skip,
        }
    }
    fn begin_movetext(&mut self, start: &Position) {
        self.record.begin_movetext(start);
        if let Some(text) = self.text() {
            text.begin_movetext(start);
        }
    }
    fn comment_before(&mut self, comment: RawComment<'_>) {
        if self.depth == 0 {
            self.record.comment_before(comment);
        }
        if let Some(text) = self.text() {
            text.comment_before(comment);
        }
    }
    fn san(&mut self, event: MoveEvent<'_>) {
        if self.depth == 0 {
            self.record.san(event);
        }
        if let Some(text) = self.text() {
            text.san(event);
        }
    }
    fn nag(&mut self, nag: Nag) {
        if self.depth == 0 {
            self.record.nag(nag);
        }
        if let Some(text) = self.text() {
            text.nag(nag);
        }
    }
    fn comment(&mut self, comment: RawComment<'_>) {
        if self.depth == 0 {
            self.record.comment(comment);
        }
        if let Some(text) = self.text() {
            text.comment(comment);
        }
    }
    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        if self.depth == 0 {
            self.record.trailing_comment(comment);
        }
        if let Some(text) = self.text() {
            text.trailing_comment(comment);
        }
    }
    fn begin_variation(&mut self) -> Skip {
        // The record keeps the main line only: with no text visitor the
        // reader skips variations altogether.
        let skip = match self.text() {
            Some(text) => text.begin_variation(),
            None => Skip::Yes,
        };
        if skip == Skip::No {
            self.depth += 1;
        }
        skip
    }
    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if let Some(text) = self.text() {
            text.end_variation();
        }
    }
    fn termination(&mut self, termination: Termination) {
        self.record.termination(termination);
        if let Some(text) = self.text() {
            text.termination(termination);
        }
    }
    fn end_game(&mut self) -> GameRecord {
        let mut record = self.record.end_game();
        if let Some((text, game_text)) = &mut self.text {
            text.end_game();
            record.movetext = Some(movetext(game_text(text)));
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::{ReadOptions, visit_games_with};

    /// Every event's name, for the text side.
    #[derive(Default)]
    struct Events(Vec<u8>);

    impl Visitor for Events {
        type Output = ();
        fn begin_game(&mut self, _: GameStart<'_>) {
            self.0.clear();
        }
        fn tag(&mut self, name: &[u8], _: &[u8]) {
            self.0.push(b'[');
            self.0.extend_from_slice(name);
            self.0.extend_from_slice(b"]");
        }
        fn end_tags(&mut self) -> Skip {
            if !self.0.is_empty() {
                self.0.extend_from_slice(b"\n\n");
            }
            Skip::No
        }
        fn san(&mut self, event: MoveEvent<'_>) {
            self.0.extend_from_slice(event.text);
            self.0.push(b' ');
        }
        fn nag(&mut self, nag: Nag) {
            self.0.extend_from_slice(format!("${} ", nag.0).as_bytes());
        }
        fn comment(&mut self, comment: RawComment<'_>) {
            self.0.extend_from_slice(b"{");
            self.0.extend_from_slice(comment.text);
            self.0.extend_from_slice(b"} ");
        }
        fn begin_variation(&mut self) -> Skip {
            self.0.extend_from_slice(b"( ");
            Skip::No
        }
        fn end_variation(&mut self) {
            self.0.extend_from_slice(b") ");
        }
        fn termination(&mut self, termination: Termination) {
            self.0.extend_from_slice(termination.as_str().as_bytes());
        }
        fn end_game(&mut self) {
            self.0.push(b'\n');
        }
    }

    const PGN: &[u8] =
        b"[White \"A\"]\n\n1. e4 { [%clk 0:03:00] } (1. d4 $1 { x } d5) e5 $2 2. Nf3 1-0\n\n\
        1. d4 d5 *\n";

    fn tee() -> RecordTee<Events> {
        RecordTee::new(RecordOptions::default(), Events::default(), |e| {
            e.0.as_slice()
        })
    }

    #[test]
    fn the_record_is_the_record_visitors_and_the_movetext_the_texts() {
        let plain: Vec<GameRecord> = visit_games_with(
            PGN,
            RecordVisitor::new(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value)
        .collect();
        let teed: Vec<GameRecord> = visit_games_with(PGN, tee(), ReadOptions::new())
            .map(|g| g.value)
            .collect();
        assert_eq!(teed.len(), 2);
        assert_eq!(
            teed[0].movetext.as_deref(),
            Some("e4 { [%clk 0:03:00] } ( d4 $1 { x } d5 ) e5 $2 Nf3 1-0")
        );
        assert_eq!(teed[1].movetext.as_deref(), Some("d4 d5 *"));
        for (mut teed, plain) in teed.into_iter().zip(plain) {
            // Variations stayed out of the record: only the movetext differs.
            teed.movetext = None;
            assert_eq!(teed, plain);
        }
    }

    #[test]
    fn without_text_the_record_is_the_record_visitors() {
        let plain = visit_games_with(
            PGN,
            RecordVisitor::new(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value);
        let bare = visit_games_with(
            PGN,
            RecordTee::<Events>::without_text(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value);
        assert!(plain.eq(bare));
    }

    #[test]
    fn movetext_drops_the_tag_section_only() {
        assert_eq!(movetext(b"[A \"1\"]\n[B \"2\"]\n\n1. e4 *\n\n"), "1. e4 *");
        assert_eq!(movetext(b"1. e4 {\n\nx} *\n"), "1. e4 {\n\nx} *");
        assert_eq!(movetext(b"[A \"1\"]\n\n"), "");
        assert_eq!(movetext(b""), "");
        assert_eq!(
            movetext(b"[A \"\xff\"]\n\n1. e4 {\xff} *"),
            "1. e4 {\u{fffd}} *"
        );
    }
}
