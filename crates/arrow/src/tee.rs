//! [`RecordTee`]: one reading of a game for the games table's every column,
//! `movetext` included: a [`RecordVisitor`] (tags, the main line) and
//! `pgnkit-export`'s [`StreamWriter`] writing the movetext alone (everything,
//! variations too, no tag section) fed the same events; and, for opening
//! classification, the main line's moves as the reader resolved them.

use pgnkit_chess::Position;
use pgnkit_export::{ExportOptions, StreamWriter};
use pgnkit_game::{GameStart, MoveEvent, Nag, RawComment, Skip, Termination, Visitor};
use pgnkit_select::{MAX_PLIES, Moves};

use crate::record::{GameRecord, RecordOptions, RecordVisitor};

/// A reader [`Visitor`] that makes a [`GameRecord`] with its
/// [`movetext`](GameRecord::movetext) filled: the record's events go to a
/// [`RecordVisitor`] (main line only) and every event to a [`StreamWriter`]
/// that writes the movetext alone (in export format, as `pgnkit export`
/// writes it after the tag section).
///
/// ```
/// use pgnkit_arrow::{RecordOptions, RecordTee};
/// use pgnkit_game::{ReadOptions, visit_games_with};
///
/// let tee = RecordTee::new(RecordOptions::default());
/// let pgn = b"[White \"A\"]\n\n1. e4 (1. d4 d5) e5 *\n";
/// let record = visit_games_with(pgn, tee, ReadOptions::new()).next().unwrap().value;
/// assert_eq!(record.movetext.as_deref(), Some("1. e4 (1. d4 d5) 1... e5 *"));
/// assert_eq!(record.moves.len(), 2); // the record keeps the main line only
/// ```
#[derive(Debug)]
pub struct RecordTee {
    record: RecordVisitor,
    text: Option<StreamWriter>,
    /// The main line's first moves, kept for opening classification.
    main_line: Option<Moves>,
    /// Variations open: their events go to the text visitor alone.
    depth: usize,
}

impl RecordTee {
    /// A tee filling records with `options` and their movetext.
    pub fn new(options: RecordOptions) -> RecordTee {
        RecordTee {
            record: RecordVisitor::new(options),
            text: Some(StreamWriter::movetext_only(ExportOptions::export())),
            main_line: None,
            depth: 0,
        }
    }

    /// With `on`, the `movetext` is written for games read with nested
    /// comments ([`ExportOptions::nested_comments`]: a comment holding a
    /// brace as a `;` comment, so that the column reads back as it was read).
    pub fn nested_comments(mut self, on: bool) -> RecordTee {
        if on && self.text.is_some() {
            let options = ExportOptions {
                nested_comments: true,
                ..ExportOptions::export()
            };
            self.text = Some(StreamWriter::movetext_only(options));
        }
        self
    }

    /// A tee with no movetext: records as a [`RecordVisitor`] makes them (for
    /// the moves table, which has no `movetext` column), at its cost.
    pub fn without_text(options: RecordOptions) -> RecordTee {
        RecordTee {
            record: RecordVisitor::new(options),
            text: None,
            main_line: None,
            depth: 0,
        }
    }

    /// The tee also keeps each game's start position and main line's first
    /// moves (as many as opening classification looks at), as the reader
    /// resolved them: [`main_line`](RecordTee::main_line).
    pub fn keeping_main_line(mut self) -> RecordTee {
        self.main_line = Some(Moves::default());
        self
    }

    /// The last game's start position and first main-line moves (up to
    /// `pgnkit_select::MAX_PLIES`), when [`keeping_main_line`](RecordTee::keeping_main_line).
    pub fn main_line(&self) -> Option<&Moves> {
        self.main_line.as_ref()
    }

    fn text(&mut self) -> Option<&mut StreamWriter> {
        self.text.as_mut()
    }

    /// Takes back a record this tee made, once its rows are written: the next games'
    /// records reuse its short strings ([`RecordVisitor`]'s).
    pub(crate) fn recycle(&mut self, record: GameRecord) {
        self.record.recycle(record);
    }
}

impl Visitor for RecordTee {
    type Output = GameRecord;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.depth = 0;
        if let Some(kept) = &mut self.main_line {
            kept.start = None;
            kept.moves.clear();
        }
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
        if let Some(kept) = &mut self.main_line {
            kept.start = Some(start.clone());
        }
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
            if let Some(kept) = &mut self.main_line
                && kept.moves.len() < MAX_PLIES
            {
                kept.moves.push(event.mv);
            }
            let spelled = self.record.moves_read();
            self.record.san(event);
            // The record's row spells the move as the text visitor would: handed over,
            // the move is spelled once (the two spellings were 4% of `convert`).
            if let Some(san) = self.record.move_spelled(spelled)
                && let Some(text) = self.text()
            {
                let (bytes, len) = san.padded();
                text.san_spelled(event, *bytes, len);
                return;
            }
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
    fn end_movetext(&mut self, last: &Position) {
        self.record.end_movetext(last);
        if let Some(text) = self.text() {
            text.end_movetext(last);
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
        if let Some(text) = &mut self.text {
            text.end_game();
            record.set_movetext(text.game_text());
        }
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_export::to_string;
    use pgnkit_game::{ReadOptions, read_games, visit_games_with};
    use pgnkit_select::Openings;

    const PGN: &[u8] =
        b"[White \"A\"]\n\n1. e4 { [%clk 0:03:00] } (1. d4 $1 { x } d5) e5 $2 2. Nf3 1-0\n\n\
        1. d4 d5 *\n\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 0-1\n";

    #[test]
    fn the_record_is_the_record_visitors_and_the_movetext_the_export_writers() {
        let plain: Vec<GameRecord> = visit_games_with(
            PGN,
            RecordVisitor::new(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value)
        .collect();
        let teed: Vec<GameRecord> = visit_games_with(
            PGN,
            RecordTee::new(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value)
        .collect();
        let exported: Vec<String> = read_games(PGN)
            .map(|g| to_string(&g.value, &ExportOptions::export()))
            .collect();
        assert_eq!(teed.len(), 3);
        for ((mut teed, plain), exported) in teed.into_iter().zip(plain).zip(exported) {
            // The movetext is the export text after its tag section.
            let movetext = teed.movetext.take().unwrap();
            let body = &exported[exported.find("\n\n").unwrap() + 2..];
            assert_eq!(movetext, body.trim_end());
            // Variations stayed out of the record: only the movetext differs.
            assert_eq!(teed, plain);
        }
    }

    /// The movetext is written from the record's spelling of each main-line move (a
    /// check, a mate, a promotion, castling, a disambiguated move, a null move), the
    /// export writer's own in variations and without a moves table: the export text either way.
    #[test]
    fn the_movetext_spelled_from_the_records_moves_is_the_export_writers() {
        let pgn = b"1. e4 f5 2. Qh5+ g6 3. Nf3 (3. Qxg6+ hxg6 4. Bd3) 3... gxh5 4. Nc3 Nf6 \
            5. Nd5 Nxd5 6. exf5 Nf6 7. d4 Nc6 8. Bc4 e6 9. O-O Ne4 10. -- Nxd4 11. Nxd4 *\n\n\
            [FEN \"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n[SetUp \"1\"]\n\n\
            1. b8=Q+ Kd7 2. O-O-O+ Kc6 3. Rd6# 1-0\n\n\
            [FEN \"7k/8/8/8/8/8/8/N3K2N w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Nac2 Kg8 2. Ng3 *\n";
        let exported: Vec<String> = read_games(&pgn[..])
            .map(|g| to_string(&g.value, &ExportOptions::export()))
            .collect();
        assert_eq!(exported.len(), 3);
        for games_only in [false, true] {
            let options = RecordOptions {
                games_only,
                ..RecordOptions::default()
            };
            let teed = visit_games_with(&pgn[..], RecordTee::new(options), ReadOptions::new());
            for (read, exported) in teed.zip(&exported) {
                assert_eq!(read.value.moves.is_empty(), games_only);
                let body = &exported[exported.find("\n\n").unwrap() + 2..];
                assert_eq!(read.value.movetext.as_deref(), Some(body.trim_end()));
            }
        }
    }

    /// Records made from the allocations of records handed back are the records made
    /// without: every string emptied before it is reused.
    #[test]
    fn a_record_handed_back_is_reused_and_the_next_records_are_the_same() {
        let pgn = [
            PGN,
            b"\n[Event \"Long\"]\n[Site \"Somewhere far away\"]\n[WhiteElo \"2400\"]\n\
              [Annotator \"Someone\"]\n[PlyCount \"5\"]\n\n\
              { A comment before, longer than the tags around it } 1. d4 $1 { a plain comment } \
              Nf6 { [%clk 0:01:00] [%eval 0.3] text } 2. c4 e6 3. Nc3 *\n\n\
              [Variant \"Chess960\"]\n[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\
              [SetUp \"1\"]\n\n9. g3 O-O 10. Ng2 *\n\n\
              [White \"A\"]\n\n1. e4 Ke7 *\n\n[Event \"x\"]\n\n*\n",
        ]
        .concat();
        let fresh: Vec<GameRecord> = visit_games_with(
            &pgn[..],
            RecordTee::new(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value)
        .collect();
        assert_eq!(fresh.len(), 7);
        let mut games =
            pgnkit_game::visit_games(&pgn[..], RecordTee::new(RecordOptions::default()));
        for expected in &fresh {
            let record = games.next().unwrap().value;
            assert_eq!(&record, expected);
            games.visitor().recycle(record);
        }
        assert!(games.next().is_none());
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
            RecordTee::without_text(RecordOptions::default()),
            ReadOptions::new(),
        )
        .map(|g| g.value);
        assert!(plain.eq(bare));
    }

    #[test]
    fn the_kept_main_line_classifies_as_the_tree_does() {
        let table = Openings::lichess();
        let trees: Vec<_> = read_games(PGN).map(|g| g.value).collect();
        let mut games = pgnkit_game::visit_games(
            PGN,
            RecordTee::new(RecordOptions::default()).keeping_main_line(),
        );
        let mut found = 0;
        for tree in &trees {
            games.next().unwrap();
            let kept = games.visitor().main_line().unwrap();
            assert!(kept.moves.len() <= MAX_PLIES);
            let a = kept.classify(table).map(|c| c.opening.eco.clone());
            let b = table.classify(tree).map(|c| c.opening.eco.clone());
            assert_eq!(a, b);
            found += usize::from(a.is_some());
        }
        assert_eq!(found, 3);
    }
}
