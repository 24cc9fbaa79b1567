//! Splitting a byte slice into games: [`GameSplitter`] and [`RawGame`], and the scanner that
//! finds where a game ends (shared with the streaming [`Reader`](crate::Reader)).
//!
//! # Where a game ends
//!
//! A game starts at its first byte that is not white space and ends where the next one starts,
//! so its bytes hold its trailing white space. The scanner reads tag pairs, strings, comments
//! and movetext tokens only as far as needed to find the next game's start, which is:
//!
//! - after movetext, a line that starts like a tag pair (`[` in the first column, a tag name,
//!   optional spaces, `"`), so `...*\n[Event` splits; after a termination marker such a `[`
//!   splits anywhere on a line (`1-0 [Event "x"]`), elsewhere in movetext it is movetext;
//! - in the tag section, a tag pair is read to its `]`; when something other than `]` follows
//!   its value (`[White ""Expert""]`, unescaped quotes) the rest of its line belongs to it;
//!   control characters there (a stray NUL before `[Event`) are not movetext: they stay in the
//!   tag section, so the game keeps all its tags and the reader reports the error;
//! - in the tag section, a tag pair whose name already appeared in it, when an empty line (or a
//!   line of white space) separates it from the tag pair or comment before it (ChessBase puts
//!   empty lines inside tag sections, so other empty lines do not split);
//! - a line that starts like a tag pair inside an unterminated `{` comment (SPEC-NOTES: the
//!   comment is unterminated, reading resumes at that line as a new game);
//! - after a termination marker outside variations, the next movetext token (a game without
//!   tags): the split is before the comments that came between the marker and that token, which
//!   thus stand before the new game. Comments after a marker followed by a tag line, or by the
//!   end of the input, stay with the game that ended (so does an input that ends in what may be
//!   a cut-off tag pair, `1-0 [Eve`: a stream reads on before it decides). A `%` there that is
//!   not in the first column (no escape: an unexpected character) starts no game, since a
//!   game's bytes read on their own put its first byte in the first column: it is passed over
//!   like a comment, so `1-0 %x 1. e4` splits before `x` and `1-0 %\n[Event` before `[`.
//!
//! `;` comments, `%` escape lines (in the first column) and strings are skipped as the lexer
//! reads them, so a `{` or `[` inside them means nothing.
//!
//! The scanner that applies these rules is the crate's `game_end` module, which the splitter,
//! the streaming reader and the single pass share; its movetext scan looks only at the bytes
//! that can change its state and passes over the others in bulk (long comments with `memchr3`).
//!
//! # Junk
//!
//! Only the bytes before the first game are not part of a game: a UTF-8 byte order mark and
//! white space (also an input of white space only). A byte order mark at the start of a later
//! game (files joined with `cat`) stays in that game's bytes, and the scanner reads past it as
//! the lexer does. Anything else, however broken, is part of some game (text after a marker is
//! a game without tags), so no byte is silently dropped: the game reader reports it and the
//! game's original bytes are at hand. The count of skipped bytes is
//! [`GameSplitter::skipped`] / [`Reader::skipped`](crate::Reader::skipped).

use crate::LexOptions;
use crate::byte_class::{bom_len, is_ws};
use crate::game_end::{game_end, game_end_for};
use crate::single_pass::{GameTokens, TokenizedGame};

pub use crate::raw_game::RawGame;

/// The 1-based column just after `bytes`, which started at `column`: characters after the last
/// line end (UTF-8 characters when those bytes are UTF-8, else bytes); a byte order mark at the
/// very start of the input is left out by the callers.
pub(crate) fn column_after(column: u64, bytes: &[u8]) -> u64 {
    let (base, tail) = match bytes.iter().rposition(|&b| b == b'\n' || b == b'\r') {
        Some(i) => (1, bytes.get(i + 1..).unwrap_or_default()),
        None => (column, bytes),
    };
    let chars = match std::str::from_utf8(tail) {
        Ok(text) => text.chars().count(),
        Err(_) => tail.len(),
    };
    base + chars as u64
}

/// `junk` (white space, and a byte order mark at the start of the input) as columns.
pub(crate) fn junk_column(column: u64, junk: &[u8], at_start: bool) -> u64 {
    let junk = match at_start {
        true => junk.strip_prefix(crate::byte_class::BOM).unwrap_or(junk),
        false => junk,
    };
    column_after(column, junk)
}

/// Length of the junk before the first game: a UTF-8 byte order mark (when `at_start`) and
/// white space.
pub(crate) fn junk_len(buf: &[u8], at_start: bool) -> usize {
    let mut pos = if at_start { bom_len(buf) } else { 0 };
    while buf.get(pos).is_some_and(|&b| is_ws(b)) {
        pos += 1;
    }
    pos
}

/// Number of line ends (LF, CR LF, lone CR) in `bytes`: what the caller of a
/// [`Reader`](crate::Reader) that does not count the lines of its blocks
/// ([`set_block_lines`](crate::Reader::set_block_lines)) adds for each block left uncounted.
///
/// ```
/// use pgnkit_lexer::split::line_ends;
/// assert_eq!(line_ends(b"a\nb\r\nc\rd"), 3);
/// ```
pub fn line_ends(bytes: &[u8]) -> u64 {
    // memchr counts a byte with vector compares; CRs are rare (one search finds none), and in
    // the files that have them each is looked at once: it counts unless an LF follows it.
    let lf = memchr::memchr_iter(b'\n', bytes).count();
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count();
    (lf + lone_cr) as u64
}

/// Counts the line ends of the games one after another, with one search for a CR over all the
/// bytes read instead of one per game (most files have none; in those that do, each search
/// stops at the next game's first CR).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineEnds {
    /// The caller's buffer holds no CR before this index (from the last game's start on).
    pub(crate) cr_free: usize,
}

impl LineEnds {
    /// Line ends in `read[start..until]`, where `read` holds all the bytes read so far.
    pub(crate) fn count(&mut self, read: &[u8], start: usize, until: usize) -> u64 {
        if until > self.cr_free {
            let from = self.cr_free.max(start);
            let rest = read.get(from..).unwrap_or_default();
            self.cr_free = memchr::memchr(b'\r', rest).map_or(read.len(), |i| from + i);
        }
        let bytes = read.get(start..until).unwrap_or_default();
        if until <= self.cr_free {
            memchr::memchr_iter(b'\n', bytes).count() as u64
        } else {
            line_ends(bytes)
        }
    }
}

/// Splits a byte slice into games (see the [module docs](self) for the rules).
///
/// ```
/// use pgnkit_lexer::GameSplitter;
/// let pgn = b"[Event \"a\"]\n\n1. e4 e5 1-0\n[Event \"b\"]\n\n1. d4 *\n";
/// let games: Vec<_> = GameSplitter::new(pgn).collect();
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].bytes, b"[Event \"b\"]\n\n1. d4 *\n");
/// assert_eq!((games[1].offset, games[1].line), (26, 4));
/// ```
#[derive(Clone, Debug)]
pub struct GameSplitter<'a> {
    input: &'a [u8],
    /// File offset of `input[0]`.
    base: u64,
    pos: usize,
    line: u64,
    column: u64,
    skipped: u64,
    names: Vec<(usize, usize)>,
    tokens: GameTokens,
    line_ends: LineEnds,
}

impl<'a> GameSplitter<'a> {
    /// A splitter over the whole input.
    pub fn new(input: &'a [u8]) -> GameSplitter<'a> {
        GameSplitter::at(input, 0, 1, 1)
    }

    /// A splitter over a part of a file that starts at a game's first byte (or, at the file's
    /// start, `offset` 0, before the junk): `offset`, `line` and `column` are where `input`
    /// starts in the file, and the games' places are the file's. A byte order mark is junk
    /// only at offset 0. The parallel reader splits its batches (cut by
    /// [`Reader::next_block`](crate::Reader::next_block)) with it.
    ///
    /// ```
    /// use pgnkit_lexer::GameSplitter;
    /// let part = b"[Event \"b\"]\n\n1. d4 *\n";
    /// let game = GameSplitter::at(part, 26, 4, 1).next().expect("a game");
    /// assert_eq!((game.offset, game.line, game.column), (26, 4, 1));
    /// ```
    pub fn at(input: &'a [u8], offset: u64, line: u64, column: u64) -> GameSplitter<'a> {
        let at_start = offset == 0;
        let junk = junk_len(input, at_start);
        let junk_bytes = input.get(..junk).unwrap_or_default();
        let line = line + line_ends(junk_bytes);
        GameSplitter {
            input,
            base: offset,
            pos: junk,
            line,
            column: junk_column(column, junk_bytes, at_start),
            skipped: junk as u64,
            names: Vec::new(),
            tokens: GameTokens::default(),
            line_ends: LineEnds::default(),
        }
    }

    /// The splitter reading with the rules of `options` (the games it finds and their tokens).
    ///
    /// ```
    /// use pgnkit_lexer::{GameSplitter, LexOptions};
    /// let pgn = b"1. e4 { a { b } [Event \"x\"] } e5 *\n";
    /// let nested = LexOptions::new().with_nested_comments(true);
    /// let mut games = GameSplitter::new(pgn).with_options(nested);
    /// assert_eq!(games.next_tokenized().unwrap().tokens.len(), 6);
    /// assert!(games.next().is_none());
    /// ```
    pub fn with_options(mut self, options: LexOptions) -> GameSplitter<'a> {
        self.tokens.options = options;
        self
    }

    /// Bytes skipped as junk (byte order mark and white space before the first game).
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// The next game with its tokens, read in one pass: the same game as [`Iterator::next`]
    /// gives, and the same tokens and warnings as a [`Lexer`](crate::Lexer) over its bytes.
    /// The tokens are lent until the next call.
    pub fn next_tokenized(&mut self) -> Option<TokenizedGame<'a, '_>> {
        let rest = self.input.get(self.pos..).filter(|r| !r.is_empty())?;
        let end = self.tokens.read(rest, true);
        let raw = self.advance(rest, end)?;
        Some(TokenizedGame {
            raw,
            tokens: &self.tokens.tokens,
            warnings: &self.tokens.warnings,
            too_large: None,
            variations: Some(self.tokens.variations),
        })
    }

    /// The game of the first `end` bytes of `rest` (the input from `pos`), and moves past it.
    fn advance(&mut self, rest: &'a [u8], end: usize) -> Option<RawGame<'a>> {
        let end = end.clamp(1, rest.len());
        let bytes = rest.get(..end)?;
        let game = RawGame {
            bytes,
            offset: self.base + self.pos as u64,
            line: self.line,
            column: self.column,
        };
        self.line += self.line_ends.count(self.input, self.pos, self.pos + end);
        self.pos += end;
        self.column = column_after(self.column, bytes);
        Some(game)
    }
}

/// Whether the splitter, reading `bytes` from a game's first byte, ends that game at `end`.
/// The parallel reader checks with it that a batch cut at a line that starts like a tag pair
/// ([`resync::next_cut`](crate::resync::next_cut)) ends where the splitter reading from the
/// file's start ends a game: `bytes` is the batch's last game and the first line of the next
/// batch (the splitter decides there, on that line, whether a game starts), `end` the game's
/// length.
///
/// ```
/// use pgnkit_lexer::split::ends_at;
/// let game = b"[Event \"a\"]\n1. e4 1-0\n";
/// assert!(ends_at(&[&game[..], b"[Event \"b\"]\n"].concat(), game.len()));
/// // A tag pair after an empty line in a tag section, whose name was not seen, continues it.
/// let tags = b"[Event \"a\"]\n\n";
/// assert!(!ends_at(&[&tags[..], b"[Site \"b\"]\n"].concat(), tags.len()));
/// ```
pub fn ends_at(bytes: &[u8], end: usize) -> bool {
    game_end(bytes, &mut Vec::new()) == end
}

/// [`ends_at`] with the rules of `options` (those the games were split with).
pub fn ends_at_with(bytes: &[u8], end: usize, options: LexOptions) -> bool {
    game_end_for(bytes, &mut Vec::new(), options) == end
}

impl<'a> Iterator for GameSplitter<'a> {
    type Item = RawGame<'a>;

    fn next(&mut self) -> Option<RawGame<'a>> {
        let rest = self.input.get(self.pos..).filter(|r| !r.is_empty())?;
        let end = game_end_for(rest, &mut self.names, self.tokens.options);
        self.advance(rest, end)
    }
}

impl std::iter::FusedIterator for GameSplitter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_end::{
        Scanners, game_end_with, has_empty_line, movetext_stop, next_tag_line, stops_movetext,
    };

    fn split(input: &str) -> Vec<&str> {
        GameSplitter::new(input.as_bytes())
            .map(|g| std::str::from_utf8(g.bytes).unwrap())
            .collect()
    }

    #[test]
    fn blank_line_separated() {
        let g = split("[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n");
        assert_eq!(
            g,
            [
                "[Event \"a\"]\n\n1. e4 1-0\n\n",
                "[Event \"b\"]\n\n1. d4 0-1\n"
            ]
        );
    }

    #[test]
    fn control_characters_in_a_tag_section_stay_in_its_game() {
        // A stray NUL (or ESC) before or between tag pairs is not movetext: the tags after it
        // are the same game's, which the reader then reports whole.
        let input = "\0[Event \"x\"]\n[Site \"y\"]\n\x1b\n1. e4 e5 *\n[Event \"z\"]\n*\n";
        assert_eq!(
            split(input),
            [
                "\0[Event \"x\"]\n[Site \"y\"]\n\x1b\n1. e4 e5 *\n",
                "[Event \"z\"]\n*\n"
            ]
        );
        let mut splitter = GameSplitter::new(input.as_bytes());
        let game = splitter.next_tokenized().expect("a game");
        assert_eq!(game.raw.bytes.len(), split(input)[0].len());
    }

    #[test]
    fn next_tag_line_finds_a_line_that_starts_like_a_tag_pair() {
        let buf = b"x [Event \"a\"]\n{ [Site }\n[Site \"b\"]";
        assert_eq!(next_tag_line(buf, 1, false), Ok(24));
        assert_eq!(next_tag_line(b"abc\n[Eve", 1, false), Err(3));
        assert_eq!(next_tag_line(b"abc\n[Eve", 1, true), Ok(8));
        assert_eq!(next_tag_line(b"abcdef", 1, false), Err(5));
        assert_eq!(next_tag_line(b"\n[Event \"", 1, false), Ok(1));
    }

    #[test]
    fn no_blank_line_and_same_line() {
        assert_eq!(split("1. e4 *\n[Event \"b\"]\n*").len(), 2);
        assert_eq!(
            split("1. e4 1-0 [Event \"b\"] *"),
            ["1. e4 1-0 ", "[Event \"b\"] *"]
        );
    }

    #[test]
    fn tagless_games_after_markers() {
        assert_eq!(
            split("1. e4 1-0\n1. d4 0-1\n2. c4"),
            ["1. e4 1-0\n", "1. d4 0-1\n", "2. c4"]
        );
        assert_eq!(split("e4 0-0 0-1 0-0-0"), ["e4 0-0 0-1 ", "0-0-0"]);
    }

    /// Found by the `ranges` fuzz target: a game without tags started at a `%` after a marker
    /// on the same line (`3%%*%%0. Bxh3 ... 1-0`); read from its own first byte, that `%` was
    /// in the first column, so the whole line was an escape line, its `1-0` unseen, and the
    /// `[Event` of the next line went on the same game (where a range started a game, as the
    /// standard has it: a `%` escapes only in the first column). Such a `%` starts no game.
    #[test]
    fn a_percent_sign_after_a_marker_mid_line_starts_no_game() {
        let input = "1. e4 3%%*%%0. d4 1-0\n\n[Event \"b\"]\n1. c4 *\n";
        let want = ["1. e4 3%%*%%", "0. d4 1-0\n\n", "[Event \"b\"]\n1. c4 *\n"];
        assert_eq!(split(input), want);
        assert_eq!(split("e4 1-0 % {c} %x d4 *"), ["e4 1-0 % ", "{c} %x d4 *"]);
        assert_eq!(
            split("e4 1-0 %%\n[E \"x\"] *"),
            ["e4 1-0 %%\n", "[E \"x\"] *"]
        );
        assert_eq!(split("e4 1-0 %"), ["e4 1-0 %"]);
        // In the first column it is an escape line, as before.
        assert_eq!(
            split("e4 1-0\n%x d4\n[E \"x\"] *"),
            ["e4 1-0\n%x d4\n", "[E \"x\"] *"]
        );
        // The single pass cuts the same games.
        let mut splitter = GameSplitter::new(input.as_bytes());
        let mut cut = Vec::new();
        while let Some(game) = splitter.next_tokenized() {
            cut.push(std::str::from_utf8(game.raw.bytes).expect("ascii"));
        }
        assert_eq!(cut, want);
    }

    #[test]
    fn comments_after_marker() {
        // Followed by a tag: they stay with the ended game.
        assert_eq!(
            split("e4 1-0 {a} ; b\n[E \"x\"] *"),
            ["e4 1-0 {a} ; b\n", "[E \"x\"] *"]
        );
        // Followed by tagless movetext: they go with the new game.
        assert_eq!(split("e4 1-0 {a} d4 *"), ["e4 1-0 ", "{a} d4 *"]);
        // At the end of the input: they stay.
        assert_eq!(split("e4 1-0 {a}\n"), ["e4 1-0 {a}\n"]);
    }

    #[test]
    fn input_ending_in_a_cut_tag_pair_after_a_marker() {
        assert_eq!(split("e4 1-0 {c}\n[Eve"), ["e4 1-0 {c}\n[Eve"]);
        assert_eq!(split("e4 1-0 {c}\n[Eve]"), ["e4 1-0 ", "{c}\n[Eve]"]);
    }

    #[test]
    fn markers_in_variations_do_not_split() {
        assert_eq!(split("e4 (d4 *) e5 *").len(), 1);
    }

    #[test]
    fn chessbase_empty_lines_and_duplicate_tags() {
        assert_eq!(split("[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *").len(), 1);
        assert_eq!(split("[Event \"a\"]\n[Event \"b\"]\n*").len(), 1);
        assert_eq!(
            split("[Event \"a\"]\n\n[Event \"b\"]\n*"),
            ["[Event \"a\"]\n\n", "[Event \"b\"]\n*"]
        );
        assert_eq!(split("[Event \"a\"]\r\n \r\n[Event \"b\"]\r\n*").len(), 2);
        assert_eq!(
            split("[A \"a\"]\n{c}\n\n[A \"b\"]\n*"),
            ["[A \"a\"]\n{c}\n\n", "[A \"b\"]\n*"]
        );
    }

    #[test]
    fn unterminated_comment_at_tag_line() {
        let g = split("[E \"a\"]\n1. e4 { oops\n[E \"b\"]\n1. d4 *");
        assert_eq!(g, ["[E \"a\"]\n1. e4 { oops\n", "[E \"b\"]\n1. d4 *"]);
        // `[` inside a comment that is not in the first column, or not tag-like, is text.
        assert_eq!(split("e4 { x [E \"a\"] \n[%clk 1] } *").len(), 1);
    }

    #[test]
    fn strings_semicolons_and_escapes_hide_braces() {
        assert_eq!(split("[E \"{\"]\ne4 ; {\n% {\ne5 *").len(), 1);
    }

    #[test]
    fn junk_lines_and_offsets() {
        let input = "\u{feff}\n\n[E \"a\"]\n*\n\n[E \"b\"]\r*";
        let mut s = GameSplitter::new(input.as_bytes());
        let a = s.next().unwrap();
        assert_eq!((a.offset, a.line), (5, 3));
        let b = s.next().unwrap();
        assert_eq!((b.offset, b.line), (16, 6));
        assert!(s.next().is_none());
        assert_eq!(s.skipped(), 5);
        assert_eq!(GameSplitter::new(b" \n\t").count(), 0);
        assert_eq!(GameSplitter::new(b" \n\t").skipped(), 3);
    }

    #[test]
    fn a_byte_order_mark_after_a_game_is_read_as_the_lexer_reads_it() {
        // Files joined with `cat`, each with its own byte order mark: the game after the mark
        // splits as it would without it (the lexer skips a mark at a game's start).
        for game in [
            "[(\n\n]*\"",
            "[E \"a\"]\n\n[E \"b\"]\n*",
            "[E \"a\"]\n(1-0\n",
        ] {
            let (plain, marked) = (format!("1-0\n{game}"), format!("1-0\n\u{feff}{game}"));
            let (plain, marked) = (split(&plain), split(&marked));
            let unmarked: Vec<_> = marked
                .iter()
                .map(|g| g.strip_prefix('\u{feff}').unwrap_or(g))
                .collect();
            assert_eq!(unmarked, plain, "{game:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn word_scans_agree_with_byte_scans(
            buf in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::any::<u8>(),
                    proptest::sample::select(&b"aZ09_ e4-:;[{}\"*#&'\x80\xff"[..]),
                ],
                0..40,
            ),
            from in 0usize..8,
        ) {
            let from = from.min(buf.len());
            let expected = buf[from..].iter().position(|&b| stops_movetext(b));
            proptest::prop_assert_eq!(movetext_stop(&buf, from), expected.map_or(buf.len(), |i| from + i));
            let expected = buf[from..].iter().position(|&b| !crate::byte_class::is_tag_name(b));
            proptest::prop_assert_eq!(
                crate::shapes::tag_name_end(&buf, from),
                expected.map_or(buf.len(), |i| from + i)
            );
        }
    }

    /// The splitter's end of the game at `buf[0]` with the word-by-word movetext scanners (the
    /// scan before the vectorized searches): the reference for [`game_end`].
    fn reference_game_end(buf: &[u8]) -> usize {
        game_end_with(buf, &mut Vec::new(), Scanners::WORD_BY_WORD)
    }

    /// Pieces of PGN that move the splitter's state, with long comments and long runs of
    /// moves (past the word-by-word look and into the bulk searches) and look-alikes.
    const FRAGMENTS: &[&str] = &[
        "[Event \"a\"]",
        "\n[Site \"x\"]\n",
        "[A\t\"b\" ]",
        "[Event \"",
        "\n\n",
        "\r\n",
        "\r",
        "\n",
        " ",
        "\"",
        "{ c }",
        "{[%clk 0:10:00]}",
        "{d=39, sd=53, pd=Be7, mt=51362, tl=2776684, s=4378694, n=224902903, pv=Be2 O-O}",
        "{ a long comment that runs past thirty-two bytes (1-0) ; \"x\" ",
        "\n[Event \"in a comment\"]",
        "{",
        "}",
        "; c\n",
        "\n%x\n",
        "%",
        "(",
        ")",
        "[",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "½-½",
        "\u{bd}-\u{bd}",
        "1–0",
        "0:1",
        "O-O",
        "O-O-O",
        "$1",
        "#",
        "é",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. d3 b5 6. Bb3 d6 7. c3 ",
        "1.d4 Nf6 2.c4 g6 3.Nc3 Bg7 4.e4 d6 5.Be2 ",
        "12.",
        "Nf3",
        "1",
        "0",
    ];

    fn pgnish() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            8 => prop::sample::select(FRAGMENTS).prop_map(|s| s.as_bytes().to_vec()),
            1 => any::<u8>().prop_map(|b| vec![b]),
        ];
        prop::collection::vec(piece, 1..40).prop_map(|v| v.concat())
    }

    /// From every game start of `input`, and of `input` less its last `cut` bytes (a stream's
    /// buffer ends anywhere), the fast `game_end` finds the reference scanner's end.
    fn game_ends_agree(
        input: &[u8],
        cut: usize,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        for buf in [input, &input[..input.len().saturating_sub(cut)]] {
            let mut pos = junk_len(buf, false);
            while pos < buf.len() {
                let rest = &buf[pos..];
                let end = game_end(rest, &mut Vec::new());
                proptest::prop_assert_eq!(end, reference_game_end(rest), "at {} of {:?}", pos, buf);
                pos += end.max(1);
            }
        }
        Ok(())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 4000,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn fast_scans_agree_with_word_by_word_scans(input in pgnish(), cut in 0usize..64) {
            // From every game start, and on a prefix too (a stream's buffer ends anywhere).
            game_ends_agree(&input, cut)?;
        }
    }

    /// Bytes that change the splitter's state, each put right after `pad` bytes of plain
    /// movetext so that it falls at a chosen offset of a word or a block.
    const SPECIAL: &[&str] = &[
        "{",
        "}",
        "{[%clk 0:00:10.0]}",
        "\n",
        "\r",
        "\n\n",
        "\n[Event \"x\"]\n",
        "[",
        "\"",
        ";",
        "\n%",
        "(",
        ")",
        "*",
        "1-0",
        "0-1",
        "1/2-1/2",
        "O-O",
        "$1",
        "\u{bd}-\u{bd}",
        "1\u{2013}0",
        "0:1",
        "\u{e9}",
        "\x01",
    ];

    /// How the comments of [`boundary_game`] end.
    const COMMENT_ENDS: &[&[u8]] = &[b"}", b"\n", b"\n[A \"", b"\r"];

    /// A game whose special bytes fall at offsets 15 to 17, 31 to 33 and 63 to 65 of a
    /// 16-, 32- or 64-byte block (and so at every word boundary too): the plain runs before
    /// them are as long as needed to get there from the previous piece. Comments of every
    /// length up to 70 bytes put their `}` (or a line end in them) at every distance from the
    /// `{` as well.
    fn boundary_game() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let special = prop_oneof![
            prop::sample::select(SPECIAL).prop_map(|s| s.as_bytes().to_vec()),
            (0usize..70, prop::sample::select(COMMENT_ENDS)).prop_map(|(len, end)| {
                let body = b"[%clk 0:00:10.0] d=3, pv=e4 e5 ".iter().cycle().take(len);
                [&b"{"[..], &body.copied().collect::<Vec<u8>>(), end].concat()
            }),
        ];
        let piece = (
            prop::sample::select(&[15usize, 16, 17, 31, 32, 33, 63, 64, 65][..]),
            special,
        );
        prop::collection::vec(piece, 1..12).prop_map(|pieces| {
            let mut game = b"[Event \"a\"]\n\n1. ".to_vec();
            for (offset, special) in pieces {
                let block = if offset < 32 { 16 } else { 64 };
                let pad = (offset + block - game.len() % block) % block;
                game.extend(b"e4 Nf3 ".iter().cycle().take(pad));
                game.extend(special);
            }
            game
        })
    }

    proptest::proptest! {
        #[test]
        fn fast_scans_agree_at_block_boundaries(game in boundary_game(), cut in 0usize..80) {
            game_ends_agree(&game, cut)?;
        }
    }

    proptest::proptest! {
        #[test]
        fn game_lines_count_every_line_end_before_them(input in pgnish()) {
            for game in GameSplitter::new(&input) {
                let before = &input[..game.offset as usize];
                proptest::prop_assert_eq!(game.line, 1 + line_ends(before));
            }
        }
    }

    #[test]
    fn fast_scans_agree_on_the_corpus() {
        let files = pgnkit_corpus::all_pgn_files();
        let mut games = 0;
        for path in &files {
            let input = std::fs::read(path).unwrap();
            let splitter = GameSplitter::new(&input);
            let (mut line, mut column) = (splitter.line, splitter.column);
            let mut pos = splitter.pos;
            for game in splitter {
                let rest = &input[pos..];
                assert_eq!(
                    game.bytes.len(),
                    reference_game_end(rest).clamp(1, rest.len())
                );
                assert_eq!(
                    (game.offset, game.line, game.column),
                    (pos as u64, line, column)
                );
                line += line_ends(game.bytes);
                column = column_after(column, game.bytes);
                pos += game.bytes.len();
                games += 1;
            }
            assert_eq!(pos, input.len(), "{}", path.display());
        }
        assert!(games > 10_000, "only {games} games in the corpus");
    }

    proptest::proptest! {
        #[test]
        fn line_ends_counted_as_one_by_one(
            bytes in proptest::collection::vec(
                proptest::sample::select(&b"\r\na "[..]),
                0..60,
            )
        ) {
            let one_by_one = (0..bytes.len())
                .filter(|&i| {
                    bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
                })
                .count();
            proptest::prop_assert_eq!(line_ends(&bytes), one_by_one as u64);
        }
    }

    #[test]
    fn line_end_counting() {
        assert_eq!(line_ends(b"a\r\nb\rc\n"), 3);
        assert!(has_empty_line(b"\r\n\r\n"));
        assert!(!has_empty_line(b"\r\n  "));
    }
}
