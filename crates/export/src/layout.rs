//! The line-layout engine: movetext tokens grouped into units that never
//! break across lines, and units filled greedily into lines of at most
//! `width` characters (SPEC-NOTES "Writing", rules 2-4).
//!
//! The engine appends straight to one output `Vec<u8>`: a unit is written
//! after a one-byte separator placeholder, and when the unit is complete the
//! placeholder becomes a space (the unit fits on the line) or a line feed
//! (it starts the next line). A token is copied once (a comment's words
//! move left in place only where white space collapses) and nothing is
//! allocated per token. Short tokens are copied as small fixed-size arrays,
//! clock comments take a path of their own (`clock.rs`), and other comments
//! already in export shape take a path that checks eight bytes at a time
//! (see [`Layout::comment`]).

mod clock;
mod comment;
mod plain_text;
#[cfg(test)]
mod properties;
mod word;

pub(crate) use comment::is_comment_space;
#[cfg(test)]
use plain_text::{long_plain_spaces, plain_spaces};
use word::write_decimal;
pub(crate) use word::{Word, char_count};

/// How a token attaches to the token written before it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) enum Join {
    /// The token starts a new unit: a line may break before it, otherwise
    /// one space separates it from the token before.
    Free,
    /// Same unit as the token before, one space between them.
    Space,
    /// Same unit as the token before, nothing between them.
    Tight,
}

/// Where the current line and the pending unit stand. Kept apart from the
/// output buffer so that code writing into the buffer can place units
/// without giving the buffer up.
#[derive(Debug, Clone, Copy)]
struct Fill {
    /// Maximum number of characters on a line (a lone longer unit excepted).
    width: usize,
    /// Characters on the current line, not counting the pending unit.
    line_chars: usize,
    /// Offset in the output of the pending unit's separator byte (if it has
    /// one) or of its first byte. A unit has a separator placeholder before
    /// it when the line was not empty as it started; the line's count does
    /// not change while a unit is pending, so `line_chars > 0` tells.
    unit_start: usize,
    /// Characters in the pending unit; 0 when there is none.
    unit_chars: usize,
}

impl Fill {
    /// Places the pending unit: on the current line if the line stays within
    /// the width, else at the start of the next line (its separator in
    /// `out` becomes a line feed).
    #[inline]
    fn end_unit(&mut self, out: &mut [u8]) {
        if self.unit_chars == 0 {
            return;
        }
        if self.line_chars == 0 {
            self.line_chars = self.unit_chars;
        } else if self.line_chars + 1 + self.unit_chars > self.width {
            if let Some(sep) = out.get_mut(self.unit_start) {
                *sep = b'\n';
            }
            self.line_chars = self.unit_chars;
        } else {
            self.line_chars += 1 + self.unit_chars;
        }
        self.unit_chars = 0;
    }

    /// Places the pending unit and starts a new one at the end of `out`,
    /// after a separator placeholder unless the line is empty.
    #[inline]
    fn start_unit(&mut self, out: &mut Vec<u8>) {
        self.end_unit(out);
        self.unit_start = out.len();
        if self.line_chars > 0 {
            out.push(b' ');
        }
    }
}

/// Greedy line filler over one output buffer.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// Everything written so far (tag sections, finished and current lines).
    out: Vec<u8>,
    /// The current line and pending unit.
    fill: Fill,
    /// The join the last token imposes on the next one (`(` and `{`).
    next: Join,
    /// The last unit must end its line (a `;` comment was written).
    break_after: bool,
    /// Each comment on lines of its own ([`Layout::set_comment_lines`]).
    comment_lines: bool,
    /// A comment holding `{` written as a `;` comment
    /// ([`Layout::set_nested_comments`]).
    nested_comments: bool,
}

impl Layout {
    /// An empty layout filling lines up to `width` characters.
    pub(crate) fn new(width: usize) -> Self {
        Layout {
            out: Vec::with_capacity(1 << 12),
            fill: Fill {
                width,
                line_chars: 0,
                unit_start: 0,
                unit_chars: 0,
            },
            next: Join::Free,
            break_after: false,
            comment_lines: false,
            nested_comments: false,
        }
    }

    /// Whether each comment is written on lines of its own (the line before
    /// it ends, and so does its last line).
    pub(crate) fn set_comment_lines(&mut self, on: bool) {
        self.comment_lines = on;
    }

    /// Writes a comment holding a `{` as a `;` comment, as one holding a
    /// `}` always is ([`ExportOptions::nested_comments`](crate::ExportOptions)).
    pub(crate) fn set_nested_comments(&mut self, on: bool) {
        self.nested_comments = on;
    }

    /// Sets the line width for the movetext that follows.
    pub(crate) fn set_width(&mut self, width: usize) {
        self.fill.width = width;
    }

    /// The output written so far. Complete only after [`Layout::finish`].
    pub(crate) fn output(&self) -> &[u8] {
        &self.out
    }

    /// Gives the output buffer away, putting `replacement` (emptied) in its
    /// place.
    pub(crate) fn take_output(&mut self, replacement: Vec<u8>) -> Vec<u8> {
        let mut replacement = replacement;
        replacement.clear();
        std::mem::replace(&mut self.out, replacement)
    }

    /// The output buffer for raw writes (tag sections). Only use it when no
    /// movetext line is open (before the first token or after `finish`).
    pub(crate) fn raw(&mut self) -> &mut Vec<u8> {
        debug_assert!(self.fill.line_chars == 0 && self.fill.unit_chars == 0);
        &mut self.out
    }

    /// Empties the output buffer, keeping its capacity.
    pub(crate) fn clear(&mut self) {
        self.out.clear();
        self.fill.line_chars = 0;
        self.fill.unit_chars = 0;
        self.next = Join::Free;
        self.break_after = false;
    }

    /// Appends one token. `join` says how it attaches to the token before;
    /// the token before may impose a tighter join (`(`, `{`). Empty tokens
    /// are ignored.
    pub(crate) fn push(&mut self, text: &[u8], join: Join) {
        let chars = char_count(text);
        if chars == 0 {
            return;
        }
        self.push_counted(text, chars, join);
    }

    /// [`Layout::push`] for a token whose character count is known.
    #[inline]
    pub(crate) fn push_counted(&mut self, text: &[u8], chars: usize, join: Join) {
        self.start_token(join, chars);
        self.out.extend_from_slice(text);
    }

    /// [`Layout::push_counted`] for a short ASCII token held in the first
    /// `len` bytes of a small array. Copying the whole array (a fixed-size
    /// copy the compiler inlines) and cutting the surplus is much cheaper
    /// than a `memcpy` call for a few bytes; moves and move numbers are most
    /// of the tokens.
    #[inline(always)]
    fn push_array<const N: usize>(&mut self, buf: &[u8; N], len: usize, join: Join) {
        self.start_token(join, len);
        let end = self.out.len() + len.min(N);
        self.out.extend_from_slice(buf);
        self.out.truncate(end);
    }

    /// Writes what goes before a token of `chars` characters joined by
    /// `join` (placing the pending unit and writing a separator placeholder
    /// if the token starts a unit) and counts the token into its unit. The
    /// caller appends the token's bytes.
    #[inline(always)]
    fn start_token(&mut self, join: Join, chars: usize) {
        let mut join = join;
        if self.next != Join::Free || self.break_after {
            join = join.max(self.next);
            self.next = Join::Free;
            if self.break_after {
                self.break_after = false;
                self.fill.end_unit(&mut self.out);
                self.out.push(b'\n');
                self.fill.line_chars = 0;
                join = Join::Free;
            }
        }
        if join == Join::Free || self.fill.unit_chars == 0 {
            self.fill.start_unit(&mut self.out);
        } else if join == Join::Space {
            self.out.push(b' ');
            self.fill.unit_chars += 1;
        }
        self.fill.unit_chars += chars;
    }

    /// Makes the next token join this one with at least `join`.
    pub(crate) fn glue_next(&mut self, join: Join) {
        self.next = self.next.max(join);
    }

    /// Ends the line after the current unit, whatever comes next.
    pub(crate) fn break_line_after(&mut self) {
        self.break_after = true;
    }

    /// Ends the movetext: places the last unit and ends the open line.
    /// Does not write the empty line that ends a game.
    pub(crate) fn finish(&mut self) {
        self.fill.end_unit(&mut self.out);
        if self.fill.line_chars > 0 {
            self.out.push(b'\n');
        }
        self.fill.line_chars = 0;
        self.next = Join::Free;
        self.break_after = false;
    }

    // --- Movetext tokens -------------------------------------------------

    /// A move number indication, `12.` for White or `12...` for Black.
    #[inline]
    pub(crate) fn move_number(&mut self, number: u32, black: bool) {
        // The dots are already in place after the digits.
        let mut buf = [b'.'; 16];
        let digits = write_decimal(&mut buf, number);
        let len = digits + if black { 3 } else { 1 };
        self.push_array(&buf, len, Join::Free);
    }

    /// A short ASCII move (SAN), held in the first `len` bytes of `buf`,
    /// after its move number (`number` and whether Black plays) if given.
    #[cfg(test)]
    pub(crate) fn ascii_move(&mut self, number: Option<(u32, bool)>, buf: &[u8; 8], len: usize) {
        self.word_move(number, Word::from_array(buf, len));
    }

    /// A short ASCII move (SAN) held in a [`Word`], after its move number
    /// (`number` and whether Black plays) if given. Inlined into each of the stream
    /// writer's two move paths (`san`, `san_spelled`): outlined, a call a move cost
    /// `export` 1.6% of its instructions.
    #[inline(always)]
    pub(crate) fn word_move(&mut self, number: Option<(u32, bool)>, mv: Word) {
        match number {
            None => self.numbered_move(None, mv),
            Some((n, black)) => match Word::move_number(n, black) {
                Some(number) => self.numbered_move(Some(number), mv),
                None => {
                    self.move_number(n, black);
                    self.numbered_move(None, mv);
                }
            },
        }
    }

    /// A move held in a [`Word`], after its move number if given: the
    /// writer's most common tokens.
    ///
    /// Why a path of its own: a move number is a unit nothing joins, so it
    /// is placed at once, and the separators, the number and the move are
    /// assembled in a small array and appended with one fixed-size copy;
    /// only the move stays pending (a `)` may join it).
    #[inline(always)]
    pub(crate) fn numbered_move(&mut self, number: Option<Word>, mv: Word) {
        if self.next != Join::Free || self.break_after {
            // After `(` or a `;` comment: the general path.
            if let Some(number) = number {
                self.push_array(&number.bytes(), number.len(), Join::Free);
            }
            self.push_array(&mv.bytes(), mv.len(), Join::Free);
            return;
        }
        let start = self.out.len();
        let fill = &mut self.fill;
        fill.end_unit(&mut self.out);
        let mut text = [0u8; 24];
        let mut n = 0;
        if let Some(number) = number {
            if fill.line_chars > 0 {
                let fits = fill.line_chars + 1 + number.len() <= fill.width;
                text[0] = if fits { b' ' } else { b'\n' };
                fill.line_chars = if fits { fill.line_chars + 1 } else { 0 };
                n = 1;
            }
            fill.line_chars += number.len();
            n = number.put(&mut text, n);
        }
        fill.unit_start = start + n;
        if fill.line_chars > 0 {
            text[n] = b' ';
            n += 1;
        }
        fill.unit_chars = mv.len();
        n = mv.put(&mut text, n);
        self.out.extend_from_slice(&text);
        self.out.truncate(start + n);
    }

    /// A move in any notation (`Nf3`, `e2-e4`, `--`, FAN figurines).
    pub(crate) fn mov(&mut self, text: &[u8]) {
        if text.is_ascii() {
            self.push_counted(text, text.len(), Join::Free);
        } else {
            self.push(text, Join::Free);
        }
    }

    /// A numeric annotation glyph, `$n`.
    pub(crate) fn nag(&mut self, nag: u8) {
        let mut buf = [0u8; 16];
        buf[0] = b'$';
        let n = 1 + write_decimal(&mut buf[1..], u32::from(nag));
        self.push_array(&buf, n, Join::Free);
    }

    /// The `(` opening a variation; the token after it is written against it.
    pub(crate) fn open_variation(&mut self) {
        self.push_array(b"(", 1, Join::Free);
        self.glue_next(Join::Tight);
    }

    /// The `)` closing a variation, written against the token before it
    /// (unless that token is a `;` comment, which ends its line).
    pub(crate) fn close_variation(&mut self) {
        self.push_array(b")", 1, Join::Tight);
    }

    /// The game termination marker.
    pub(crate) fn marker(&mut self, marker: &str) {
        self.push(marker.as_bytes(), Join::Free);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(layout: &Layout) -> &str {
        std::str::from_utf8(layout.output()).expect("layout writes UTF-8")
    }

    /// Writes `n` moves `1. e4 e5 2. e4 e5 ...` style tokens of fixed width.
    fn words(layout: &mut Layout, words: &[&str]) {
        for w in words {
            layout.push(w.as_bytes(), Join::Free);
        }
    }

    #[test]
    fn tokens_are_separated_by_one_space() {
        let mut l = Layout::new(79);
        l.move_number(1, false);
        l.mov(b"e4");
        l.mov(b"e5");
        l.nag(14);
        l.marker("1-0");
        l.finish();
        assert_eq!(text(&l), "1. e4 e5 $14 1-0\n");
    }

    #[test]
    fn line_of_exactly_79_characters_is_kept() {
        // 39 two-character words and a final one: 39*3 - 1 = 116 > 79.
        let mut l = Layout::new(79);
        // 26 words of 2 chars = 26*2 + 25 = 77, then one of 1 char = 79.
        let mut ws = vec!["ab"; 26];
        ws.push("c");
        ws.push("d");
        words(&mut l, &ws);
        l.finish();
        let out = text(&l);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0].chars().count(), 79);
        assert_eq!(lines[1], "d");
    }

    #[test]
    fn line_of_80_characters_breaks() {
        let mut l = Layout::new(79);
        // 26 words of 2 chars = 77, then a 2-char word would make 80.
        let mut ws = vec!["ab"; 26];
        ws.push("cd");
        words(&mut l, &ws);
        l.finish();
        let out = text(&l);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), 77);
        assert_eq!(lines[1], "cd");
    }

    #[test]
    fn characters_are_code_points_not_bytes() {
        // "é" is two bytes but one character: 26 two-char words + "é" = 79.
        let mut l = Layout::new(79);
        let mut ws = vec!["ab"; 26];
        ws.push("é");
        ws.push("x");
        words(&mut l, &ws);
        l.finish();
        let out = text(&l);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0].chars().count(), 79);
        assert!(lines[0].len() > 79);
        assert_eq!(lines[1], "x");
        assert_eq!(char_count("♘f3".as_bytes()), 3);
    }

    #[test]
    fn over_long_unit_stands_alone() {
        let long = "x".repeat(100);
        let mut l = Layout::new(79);
        l.mov(b"1.");
        l.mov(b"e4");
        l.comment(format!("see {long} here").as_bytes());
        l.mov(b"e5");
        l.finish();
        assert_eq!(text(&l), format!("1. e4 {{ see\n{long}\nhere }} e5\n"));
    }

    #[test]
    fn over_long_first_unit() {
        let long = "y".repeat(90);
        let mut l = Layout::new(79);
        l.mov(long.as_bytes());
        l.mov(b"e4");
        l.finish();
        assert_eq!(text(&l), format!("{long}\ne4\n"));
    }

    #[test]
    fn comment_whitespace_collapses_and_braces_stick_to_words() {
        let mut l = Layout::new(79);
        l.mov(b"e4");
        assert!(l.comment(b" \t a  lot\r\nof\x0b\x0cspace  "));
        l.finish();
        assert_eq!(text(&l), "e4 { a lot of space }\n");
    }

    #[test]
    fn empty_comment_is_not_written() {
        let mut l = Layout::new(79);
        l.mov(b"e4");
        assert!(!l.comment(b""));
        assert!(!l.comment(b" \n\t "));
        l.mov(b"e5");
        l.finish();
        assert_eq!(text(&l), "e4 e5\n");
    }

    #[test]
    fn comment_braces_break_with_their_words() {
        // The line is full: `{ word` must move to the next line together.
        let mut l = Layout::new(20);
        words(&mut l, &["aaaaaaaaaaaaaaaa"]); // 16
        l.comment(b"bb cc");
        l.finish();
        assert_eq!(text(&l), "aaaaaaaaaaaaaaaa\n{ bb cc }\n");

        let mut l = Layout::new(20);
        words(&mut l, &["aaaaaaaaaaaaa"]); // 13
        l.comment(b"bb cc");
        l.finish();
        // `{ bb` fits (13 + 1 + 4 = 18), `cc }` does not (18 + 1 + 4 = 23).
        assert_eq!(text(&l), "aaaaaaaaaaaaa { bb\ncc }\n");
    }

    #[test]
    fn single_word_comment_is_one_unit() {
        let mut l = Layout::new(10);
        words(&mut l, &["abcd"]);
        l.comment(b"word");
        l.finish();
        // "abcd { word }" is 13 > 10: the whole `{ word }` moves.
        assert_eq!(text(&l), "abcd\n{ word }\n");
    }

    #[test]
    fn bracket_and_percent_words_stick_to_the_token_before() {
        let mut l = Layout::new(79);
        l.mov(b"e4");
        l.comment(b"[%clk 0:01:00] [%eval 0.3] %x y");
        l.finish();
        assert_eq!(text(&l), "e4 { [%clk 0:01:00] [%eval 0.3] %x y }\n");

        // Width 20: units are `e4`, `{ [%clk`, `0:01:00] [%eval`, `0.3] %x`, `y }`.
        let mut l = Layout::new(20);
        l.mov(b"e4");
        l.comment(b"[%clk 0:01:00] [%eval 0.3] %x y");
        l.finish();
        assert_eq!(text(&l), "e4 { [%clk\n0:01:00] [%eval\n0.3] %x y }\n");
        for line in text(&l).lines() {
            assert!(!line.starts_with('[') && !line.starts_with('%'));
        }
    }

    #[test]
    fn parentheses_are_written_against_their_neighbours() {
        let mut l = Layout::new(79);
        l.move_number(2, false);
        l.mov(b"Nf3");
        l.open_variation();
        l.move_number(2, false);
        l.mov(b"Nc3");
        l.open_variation();
        l.move_number(2, false);
        l.mov(b"c3");
        l.close_variation();
        l.close_variation();
        l.move_number(2, true);
        l.mov(b"Nc6");
        l.open_variation();
        l.comment(b"a comment");
        l.move_number(2, true);
        l.mov(b"d6");
        l.comment(b"end");
        l.close_variation();
        l.finish();
        assert_eq!(
            text(&l),
            "2. Nf3 (2. Nc3 (2. c3)) 2... Nc6 ({ a comment } 2... d6 { end })\n"
        );
    }

    #[test]
    fn open_parenthesis_breaks_with_the_token_after_it() {
        let mut l = Layout::new(10);
        words(&mut l, &["abcdefg"]); // 7
        l.open_variation();
        l.mov(b"xy"); // "(xy" = 3 chars, 7 + 1 + 3 = 11 > 10
        l.close_variation();
        l.finish();
        assert_eq!(text(&l), "abcdefg\n(xy)\n");
    }

    #[test]
    fn close_parenthesis_breaks_with_the_token_before_it() {
        let mut l = Layout::new(10);
        words(&mut l, &["abcdefg", "xy"]); // "abcdefg xy" = 10
        l.close_variation(); // "xy)" no longer fits
        l.finish();
        assert_eq!(text(&l), "abcdefg\nxy)\n");
    }

    #[test]
    fn semicolon_comment_with_closing_brace_ends_its_line() {
        let mut l = Layout::new(79);
        l.open_variation();
        l.move_number(1, false);
        l.mov(b"e4");
        assert!(l.comment(b"a } in   here"));
        l.close_variation();
        l.mov(b"d4");
        l.finish();
        assert_eq!(text(&l), "(1. e4 ; a } in here\n) d4\n");
    }

    #[test]
    fn semicolon_comment_last_in_game() {
        let mut l = Layout::new(79);
        l.mov(b"e4");
        l.comment(b"}");
        l.finish();
        assert_eq!(text(&l), "e4 ; }\n");
    }

    #[test]
    fn semicolon_comment_wraps_as_one_unit() {
        let mut l = Layout::new(20);
        words(&mut l, &["aaaaaaaaaa"]);
        l.comment(b"x } y z w");
        l.mov(b"e5");
        l.finish();
        assert_eq!(text(&l), "aaaaaaaaaa\n; x } y z w\ne5\n");
    }

    #[test]
    fn move_number_may_end_a_line() {
        let mut l = Layout::new(10);
        words(&mut l, &["abcdef"]);
        l.move_number(15, false); // "abcdef 15." = 10
        l.mov(b"Nb1");
        l.finish();
        assert_eq!(text(&l), "abcdef 15.\nNb1\n");
    }

    #[test]
    fn no_line_starts_or_ends_with_space() {
        let mut l = Layout::new(12);
        for i in 1..40 {
            l.move_number(i, false);
            l.mov(b"Nf3");
            l.comment(b"  x  ");
            l.mov(b"Nf6");
        }
        l.marker("*");
        l.finish();
        for line in text(&l).lines() {
            assert!(!line.is_empty());
            assert!(!line.starts_with(' ') && !line.ends_with(' '), "{line:?}");
            assert!(line.chars().count() <= 12, "{line:?}");
        }
    }

    #[test]
    fn empty_movetext_writes_nothing() {
        let mut l = Layout::new(79);
        l.finish();
        assert_eq!(text(&l), "");
    }

    #[test]
    fn spec_notes_example_movetext() {
        let mut l = Layout::new(79);
        l.comment(b"Starts after 1. e4");
        l.move_number(1, true);
        l.mov(b"e5");
        l.move_number(2, false);
        l.mov(b"Nf3");
        l.nag(1);
        l.comment(b"develops");
        l.move_number(2, true);
        l.mov(b"Nc6");
        l.open_variation();
        l.move_number(2, true);
        l.mov(b"d6");
        l.move_number(3, false);
        l.mov(b"d4");
        l.open_variation();
        l.move_number(3, false);
        l.mov(b"Bc4");
        l.mov(b"Be7");
        l.close_variation();
        l.move_number(3, true);
        l.mov(b"exd4");
        l.close_variation();
        l.move_number(3, false);
        l.mov(b"Bb5");
        l.marker("*");
        l.finish();
        assert_eq!(
            text(&l),
            "{ Starts after 1. e4 } 1... e5 2. Nf3 $1 { develops } 2... Nc6 (2... d6 3. d4\n\
             (3. Bc4 Be7) 3... exd4) 3. Bb5 *\n"
        );
    }

    #[test]
    fn long_plain_texts_are_checked_across_blocks() {
        let text = |head: usize, gap: &str| format!("{}{gap}b c", "a".repeat(head));
        // One space either side of the first block's end: plain.
        let masks = long_plain_spaces(text(63, " ").as_bytes()).expect("plain");
        assert_eq!(masks[..3], [1 << 63, 1 << 1, 0]);
        let masks = long_plain_spaces(text(64, " ").as_bytes()).expect("plain");
        assert_eq!(masks[..3], [0, 1 | 1 << 2, 0]);
        // Two spaces, one each side of the block boundary, or both after it.
        assert!(long_plain_spaces(text(63, "  ").as_bytes()).is_none());
        assert!(long_plain_spaces(text(64, "  ").as_bytes()).is_none());
        // What is not plain in any block.
        for bad in ["\n", "}", "\t", "é", " \u{7f}"] {
            assert!(
                long_plain_spaces(text(100, bad).as_bytes()).is_none(),
                "{bad:?}"
            );
        }
        // The plain path (one space) lays words out as the general path
        // (which the other gaps take) does: single-spaced, `[`/`%` words
        // joined to the word before, lines filled greedily.
        let layouts: Vec<Vec<u8>> = [" ", "  ", " \n "]
            .iter()
            .map(|gap| {
                let comment = format!("{} [%eval 1.2]{gap}{}", "a".repeat(60), "d ".repeat(40));
                let mut l = Layout::new(79);
                assert!(l.comment(comment.as_bytes()));
                l.finish();
                l.output().to_vec()
            })
            .collect();
        assert!(layouts[0].starts_with(b"{ aaaa"));
        assert!(layouts[0].ends_with(b"d d }\n"));
        assert_eq!(layouts[0].iter().filter(|&&b| b == b'\n').count(), 2);
        assert_eq!(layouts[0], layouts[1]);
        assert_eq!(layouts[0], layouts[2]);
    }

    #[test]
    fn short_comments_are_written_whole() {
        let mut l = Layout::new(20);
        l.move_number(1, false);
        l.mov(b"e4");
        assert!(l.comment(b" [%clk 0:03:00] "));
        l.move_number(1, true);
        l.mov(b"e5");
        l.comment(b"[%clk 0:09:57.1]");
        l.finish();
        assert_eq!(
            text(&l),
            "1. e4 { [%clk\n0:03:00] } 1... e5\n{ [%clk 0:09:57.1] }\n"
        );
    }

    #[test]
    fn nag_forms() {
        let mut l = Layout::new(79);
        for n in [0u8, 1, 9, 10, 99, 100, 255] {
            l.nag(n);
        }
        l.finish();
        assert_eq!(text(&l), "$0 $1 $9 $10 $99 $100 $255\n");
    }
}
