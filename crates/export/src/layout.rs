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

use clock::Clock;

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

/// Whether `b` is white space in a comment: space, TAB, LF, CR, VT or FF.
#[inline]
pub(crate) fn is_comment_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Number of Unicode code points in `text` (UTF-8): every byte that is not a
/// continuation byte starts one.
pub(crate) fn char_count(text: &[u8]) -> usize {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// A short ASCII token of at most eight bytes held in a `u64`, its first
/// byte lowest: moves and move numbers are built and written from a
/// register instead of byte by byte through memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word {
    bits: u64,
    len: usize,
}

impl Word {
    /// The first `len` bytes of `buf` (at most eight).
    #[inline]
    pub(crate) fn from_array(buf: &[u8; 8], len: usize) -> Word {
        let len = len.min(8);
        let mask = u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0);
        Word {
            bits: u64::from_le_bytes(*buf) & mask,
            len,
        }
    }

    /// The token whose bytes are the low `len` bytes of `bits` (the bytes
    /// above them zero; `len` at most eight).
    #[inline(always)]
    pub(crate) fn from_bits(bits: u64, len: usize) -> Word {
        debug_assert!(len <= 8 && (len == 8 || bits >> (8 * len) == 0));
        Word {
            bits,
            len: len.min(8),
        }
    }

    /// Appends `b`; a full word stays as it is (no token needs more).
    #[inline(always)]
    pub(crate) fn push(&mut self, b: u8) {
        if self.len < 8 {
            self.bits |= u64::from(b) << (8 * self.len);
            self.len += 1;
        }
    }

    /// The move number indication `12.` (White) or `12...` (Black), if it
    /// fits in a word (numbers below 100,000).
    #[inline]
    pub(crate) fn move_number(number: u32, black: bool) -> Option<Word> {
        let white = match MOVE_NUMBERS.get(number as usize) {
            Some(&packed) => Word {
                bits: packed & 0xffff_ffff,
                len: (packed >> 56) as usize,
            },
            None if number < 100_000 => {
                let mut buf = [b'.'; 8];
                let len = write_decimal(&mut buf, number) + 1;
                Word::from_array(&buf, len)
            }
            None => return None,
        };
        Some(if black {
            Word {
                bits: white.bits | 0x2e2e << (8 * white.len),
                len: white.len + 2,
            }
        } else {
            white
        })
    }

    /// The token's length in bytes.
    #[cfg(test)]
    pub(crate) fn len(self) -> usize {
        self.len
    }

    /// The bytes, the token first, zero padded.
    #[inline(always)]
    pub(crate) fn bytes(self) -> [u8; 8] {
        self.bits.to_le_bytes()
    }

    /// Writes the word into `text` at `at` (eight bytes are written, the
    /// token's length counts), returning the offset after the token.
    #[inline(always)]
    fn put<const N: usize>(self, text: &mut [u8; N], at: usize) -> usize {
        if let Some(dst) = text.get_mut(at..at + 8) {
            dst.copy_from_slice(&self.bytes());
        }
        at + self.len
    }
}

/// White's move number indications `1.` to `999.` (the numbers nearly
/// every game stays within), packed as in a [`Word`] with the length in
/// the top byte: one load gives both.
static MOVE_NUMBERS: [u64; 1000] = move_numbers();

const fn move_numbers() -> [u64; 1000] {
    let mut table = [0u64; 1000];
    let mut n = 0;
    while n < 1000 {
        let (h, t, u) = ((n / 100) as u64, ((n / 10) % 10) as u64, (n % 10) as u64);
        let (digits, len) = if n < 10 {
            (0x30 + u, 1)
        } else if n < 100 {
            ((0x30 + t) | (0x30 + u) << 8, 2)
        } else {
            ((0x30 + h) | (0x30 + t) << 8 | (0x30 + u) << 16, 3)
        };
        table[n] = digits | (b'.' as u64) << (8 * len) | ((len + 1) as u64) << 56;
        n += 1;
    }
    table
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
        }
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
    /// (`number` and whether Black plays) if given.
    #[inline]
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
                self.push_array(&number.bytes(), number.len, Join::Free);
            }
            self.push_array(&mv.bytes(), mv.len, Join::Free);
            return;
        }
        let start = self.out.len();
        let fill = &mut self.fill;
        fill.end_unit(&mut self.out);
        let mut text = [0u8; 24];
        let mut n = 0;
        if let Some(number) = number {
            if fill.line_chars > 0 {
                let fits = fill.line_chars + 1 + number.len <= fill.width;
                text[0] = if fits { b' ' } else { b'\n' };
                fill.line_chars = if fits { fill.line_chars + 1 } else { 0 };
                n = 1;
            }
            fill.line_chars += number.len;
            n = number.put(&mut text, n);
        }
        fill.unit_start = start + n;
        if fill.line_chars > 0 {
            text[n] = b' ';
            n += 1;
        }
        fill.unit_chars = mv.len;
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

    /// A comment. Returns whether anything was written (an empty comment is
    /// not). A comment containing `}` is written as a `; text` comment that
    /// ends its line; any other as `{ words }`.
    pub(crate) fn comment(&mut self, text: &[u8]) -> bool {
        if let Some(clock) = Clock::new(text)
            && self.clock_comment(&clock)
        {
            return true;
        }
        self.any_comment(text)
    }

    /// [`Layout::comment`] for any text. Kept out of line: the clock path
    /// stays small.
    #[inline(never)]
    fn any_comment(&mut self, text: &[u8]) -> bool {
        if let Some(short) = ShortText::new(text) {
            self.short_comment(&short);
            return true;
        }
        let Some(first) = text.iter().position(|&b| !is_comment_space(b)) else {
            return false;
        };
        let words = text.get(first..).unwrap_or_default();
        // The opener is `{` unless the text holds a `}`; the plain path
        // below needs no `}` to be found, so look for it only if it fails.
        // The space after it joins the first word to it.
        self.push_array(b"{ ", 2, Join::Free);
        let opener = self.out.len() - 2;
        // White space at the end is dropped whatever the path.
        let end = words
            .iter()
            .rposition(|&b| !is_comment_space(b))
            .map_or(0, |i| i + 1);
        let trimmed = words.get(..end).unwrap_or_default();
        if let Some(spaces) = plain_spaces(trimmed) {
            self.plain_comment(trimmed, [(0, spaces)]);
            return true;
        }
        if trimmed.len() > PLAIN_BLOCK
            && let Some(masks) = long_plain_spaces(trimmed)
        {
            // Long comments (annotations, engine lines) are about half of
            // the bytes of many files, and nearly all are plain: checked and
            // placed one block of 64 bytes at a time.
            let blocks = masks.into_iter().enumerate();
            let blocks = blocks.map(|(k, spaces)| (k * PLAIN_BLOCK, spaces));
            self.plain_comment(trimmed, blocks.take(trimmed.len().div_ceil(PLAIN_BLOCK)));
            return true;
        }
        let brace = words.contains(&b'}');
        if brace && let Some(open) = self.out.get_mut(opener) {
            *open = b';';
        }
        self.comment_words(words, brace, words.is_ascii());
        if brace {
            self.break_line_after();
        } else {
            self.close_comment();
        }
        true
    }

    /// Writes the ` }` ending a `{` comment: it joins the last word with a
    /// space (nothing imposes a tighter join after a word).
    fn close_comment(&mut self) {
        self.out.extend_from_slice(b" }");
        self.fill.unit_chars += 2;
    }

    /// A comment whose text is a [`ShortText`]: `{ `, the text and ` }`
    /// assembled in a small array and appended with one fixed-size copy,
    /// then its units placed. Clock comments (`[%clk 0:09:57.1]`, with or
    /// without a space inside each brace) are most comments of real files.
    #[inline]
    fn short_comment(&mut self, short: &ShortText<'_>) {
        self.start_token(Join::Free, 2);
        let len = short.text.len();
        let body = self.out.len() + 2;
        let mut buf = [0u8; 20];
        buf[..2].copy_from_slice(b"{ ");
        buf[2..10].copy_from_slice(&short.first);
        // The last eight bytes, over the first ones where they overlap.
        if let Some(dst) = buf.get_mut(len - 6..len + 2) {
            dst.copy_from_slice(&short.last);
        }
        if let Some(dst) = buf.get_mut(len + 2..len + 4) {
            dst.copy_from_slice(b" }");
        }
        self.out.extend_from_slice(&buf);
        self.out.truncate(body + len + 2);
        self.place_plain_words(short.text, body, [(0, short.spaces)]);
        // The ` }` is written: count it into the last unit.
        self.fill.unit_chars += 2;
    }

    /// Writes a plain comment text (see [`plain_spaces`]) after its `{ `
    /// (already written), then its closing ` }`. `blocks` as for
    /// [`Layout::place_plain_words`].
    fn plain_comment(&mut self, text: &[u8], blocks: impl IntoIterator<Item = (usize, u64)>) {
        let body = self.out.len();
        self.out.extend_from_slice(text);
        self.place_plain_words(text, body, blocks);
        self.close_comment();
    }

    /// Places the units of a plain comment text (see [`plain_spaces`]) that is
    /// already copied to `out` at `body`, after `{ ` (its closing ` }` is
    /// the caller's). `blocks` gives, for each block of up to 64 bytes of
    /// `text` in order, its offset in `text` and its spaces (bit `i` set
    /// when the block's byte `i` is a space).
    ///
    /// Why this fast path: most comments are clock or evaluation commands
    /// like `[%clk 0:09:57.1]` or annotations already written as export
    /// format wants them. Such a text is checked eight bytes at a time and
    /// copied as it is, and only its spaces need looking at: the ones where
    /// a unit ends become line feeds where a line is full.
    #[inline]
    fn place_plain_words(
        &mut self,
        text: &[u8],
        body: usize,
        blocks: impl IntoIterator<Item = (usize, u64)>,
    ) {
        let fill = &mut self.fill;
        // The pending unit is `{ ` (perhaps after a `(`) and the text from
        // `from` on; all ASCII, so characters are bytes.
        let mut chars = fill.unit_chars;
        let mut from = 0;
        for (base, spaces) in blocks {
            let mut spaces = spaces;
            while spaces != 0 {
                let i = base + spaces.trailing_zeros() as usize;
                spaces &= spaces - 1;
                // A plain text has a word after each space.
                if matches!(text.get(i + 1), Some(b'[' | b'%')) {
                    continue;
                }
                fill.unit_chars = chars + (i - from);
                fill.end_unit(&mut self.out);
                fill.unit_start = body + i;
                chars = 0;
                from = i + 1;
            }
        }
        fill.unit_chars = chars + (text.len() - from);
    }

    /// Writes a comment's words (`text` starts with one) after its opening
    /// `{ ` or `; ` (already written and counted). With `glue_all`
    /// every word joins the one before (a `;` comment is one unit); else a
    /// word starts a new unit unless it begins with `[` or `%`. `ascii`
    /// says the text is all ASCII (then characters need no counting).
    ///
    /// Why it works in place: the raw text is copied once after the opener
    /// and its words are then moved left over it, white space runs becoming
    /// one separator. The write position never passes the read position (a
    /// separator replaces at least one white space byte), so nothing is
    /// overwritten before it is read, and a comment whose words are already
    /// single-spaced (the usual case) is not moved at all: one copy, one
    /// scan, no call per word.
    fn comment_words(&mut self, text: &[u8], glue_all: bool, ascii: bool) {
        let fill = &mut self.fill;
        let out = &mut self.out;
        let mut unit_chars = fill.unit_chars;
        let mut w = out.len();
        out.extend_from_slice(text);
        let buf = out.as_mut_slice();
        let mut r = w;
        loop {
            // `r` is at the start of a word.
            let word = r;
            r = word_end(buf, r);
            let len = r - word;
            if w != word {
                buf.copy_within(word..r, w);
            }
            unit_chars += if ascii {
                len
            } else {
                char_count(buf.get(w..w + len).unwrap_or_default())
            };
            w += len;
            while buf.get(r).is_some_and(|&b| is_comment_space(b)) {
                r += 1;
            }
            let Some(&next) = buf.get(r) else {
                break;
            };
            if glue_all || next == b'[' || next == b'%' {
                unit_chars += 1;
            } else {
                // The next word starts a unit: place the pending one.
                fill.unit_chars = unit_chars;
                fill.end_unit(buf);
                unit_chars = 0;
                fill.unit_start = w;
            }
            if let Some(sep) = buf.get_mut(w) {
                *sep = b' ';
            }
            w += 1;
        }
        out.truncate(w);
        fill.unit_chars = unit_chars;
    }

    /// The game termination marker.
    pub(crate) fn marker(&mut self, marker: &str) {
        self.push(marker.as_bytes(), Join::Free);
    }
}

/// One in every byte of a `u64`.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte of a `u64`.
const HIGHS: u64 = ONES * 0x80;

/// The low seven bits of every byte of a `u64`.
const LOWS: u64 = !HIGHS;

/// The last `n` (1 to 7) bytes of `text` as a little-endian `u64`, the
/// missing bytes read as `a` (ASCII, not white space, not `}`).
#[inline]
fn tail_chunk(text: &[u8], n: usize) -> u64 {
    let padding = ONES * u64::from(b'a');
    let bits = 8 * n as u32;
    match text.last_chunk::<8>() {
        // The last eight bytes, shifted so that the last `n` come first.
        Some(last) => (u64::from_le_bytes(*last) >> (64 - bits)) | (padding << bits),
        None => {
            let mut chunk = padding.to_le_bytes();
            let rest = text.get(text.len().saturating_sub(n)..).unwrap_or_default();
            for (c, &b) in chunk.iter_mut().zip(rest) {
                *c = b;
            }
            u64::from_le_bytes(chunk)
        }
    }
}

/// The high bit set in each byte of `x` equal to `byte`, and no other bit.
#[inline]
fn byte_mask(x: u64, byte: u8) -> u64 {
    let v = x ^ (ONES * u64::from(byte));
    // A byte of `v` is zero iff neither its low seven bits (plus 0x7f,
    // which cannot carry into the next byte) nor its own high bit set the
    // high bit.
    !(((v & LOWS) + LOWS) | v) & HIGHS
}

/// One bit per byte of a [`byte_mask`]-style mask: bit `j` is byte `j`'s
/// high bit.
#[inline]
fn gather_bits(mask: u64) -> u64 {
    ((mask >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The length of the blocks a long plain text is checked in (see
/// [`is_long_plain`]): the bits of a `u64`.
const PLAIN_BLOCK: usize = 64;

/// The positions of the spaces in `text` (a comment's text from its first
/// word), bit `i` for `text[i]`, if the text is plain; else `None`.
///
/// Plain means already as export format writes it, so that each space is
/// a word boundary and characters are bytes: at most 64 bytes, all of them
/// printable ASCII below `}`, or single spaces between words.
fn plain_spaces(text: &[u8]) -> Option<u64> {
    if text.len() > PLAIN_BLOCK || text.last() == Some(&b' ') {
        return None;
    }
    block_spaces(text)
}

/// The positions of the spaces in `block` (at most 64 bytes), bit `i` for
/// `block[i]`, if all its bytes are printable ASCII below `}` or spaces and
/// no two spaces are next to each other; else `None`.
fn block_spaces(block: &[u8]) -> Option<u64> {
    let mut scan = PlainScan::default();
    let (chunks, rest) = block.as_chunks::<8>();
    for (k, chunk) in chunks.iter().enumerate() {
        scan.add(u64::from_le_bytes(*chunk), 8 * k);
        // Leaving early also keeps the compiler from vectorizing this loop,
        // which is slower for the few chunks of a comment.
        if scan.bad != 0 {
            return None;
        }
    }
    if !rest.is_empty() {
        scan.add(tail_chunk(block, rest.len()), 8 * chunks.len());
    }
    // Two spaces in a row are two bits in a row.
    let double = scan.spaces & (scan.spaces >> 1);
    (scan.bad == 0 && double == 0).then_some(scan.spaces)
}

/// The most blocks [`long_plain_spaces`] takes: texts up to 1 KB (longer
/// comments are rare and take the general path).
const PLAIN_BLOCKS: usize = 16;

/// The spaces of each block of 64 bytes of `text` (a comment's text from
/// its first word to its last, at most [`PLAIN_BLOCKS`] blocks long), as
/// [`block_spaces`] finds them, if `text` is plain as [`plain_spaces`]
/// means it: each block is, and no two spaces meet where blocks join.
fn long_plain_spaces(text: &[u8]) -> Option<[u64; PLAIN_BLOCKS]> {
    if text.len() > PLAIN_BLOCK * PLAIN_BLOCKS || text.last() == Some(&b' ') {
        return None;
    }
    let mut masks = [0u64; PLAIN_BLOCKS];
    let mut space_before = false;
    for (mask, block) in masks.iter_mut().zip(text.chunks(PLAIN_BLOCK)) {
        let spaces = block_spaces(block)?;
        if space_before && spaces & 1 != 0 {
            return None;
        }
        space_before = block.last() == Some(&b' ');
        *mask = spaces;
    }
    Some(masks)
}

/// A comment text of 8 to 16 bytes, once one space is taken off each
/// end, that is plain (see [`plain_spaces`]): the shape of clock comments.
#[derive(Debug)]
struct ShortText<'a> {
    /// The text, without the spaces taken off.
    text: &'a [u8],
    /// Its first eight bytes.
    first: [u8; 8],
    /// Its last eight bytes (overlapping the first ones when shorter than 16).
    last: [u8; 8],
    /// Bit `i` set when `text[i]` is a space.
    spaces: u64,
}

impl<'a> ShortText<'a> {
    /// `text` as a short plain text, if it is one.
    #[inline]
    fn new(text: &'a [u8]) -> Option<ShortText<'a>> {
        let text = text.strip_prefix(b" ").unwrap_or(text);
        let text = text.strip_suffix(b" ").unwrap_or(text);
        let len = text.len();
        if len > 16 {
            return None;
        }
        let first = *text.first_chunk::<8>()?;
        let last = *text.last_chunk::<8>()?;
        let mut scan = PlainScan::default();
        scan.add(u64::from_le_bytes(first), 0);
        match len - 8 {
            0 => {}
            8 => scan.add(u64::from_le_bytes(last), 8),
            rest => scan.add(tail_chunk(text, rest), 8),
        }
        // No space at either end (a second one was there) nor two in a row.
        let ends = 1 | 1 << (len - 1);
        let double = scan.spaces & (scan.spaces >> 1);
        (scan.bad == 0 && double == 0 && scan.spaces & ends == 0).then_some(ShortText {
            text,
            first,
            last,
            spaces: scan.spaces,
        })
    }
}

/// The state of [`plain_spaces`] over eight bytes at a time.
#[derive(Debug, Default)]
struct PlainScan {
    /// Nonzero once a byte that is not plain was seen.
    bad: u64,
    /// One bit per space seen.
    spaces: u64,
}

impl PlainScan {
    /// Looks at the chunk `x` holding the bytes from `at`.
    #[inline]
    fn add(&mut self, x: u64, at: usize) {
        // High bit set in bytes from `}` up (no carry crosses a byte) and in
        // bytes that are not ASCII.
        let high = ((x & LOWS) + ONES * (0x80 - 0x7d)) | x;
        // Nonzero iff some byte is below 0x20 (exact as a yes or no).
        let control = x.wrapping_sub(ONES * 0x20) & !x;
        self.bad |= (high | control) & HIGHS;
        self.spaces |= gather_bits(byte_mask(x, b' ')) << at;
    }
}

/// The end of the word that starts at `from` in `buf`: the offset of the
/// first comment white space byte at or after `from`, or `buf.len()`.
///
/// Eight bytes at a time: every white space byte is below `!`, and a word
/// byte almost never is (a control character), so the first byte below `!`
/// in a chunk is nearly always the word's end; when it is not, the scan goes
/// on after it.
fn word_end(buf: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = buf.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        // High bit set in each byte below 0x21 (exact for the lowest one:
        // a borrow only runs upwards from a byte that is itself flagged).
        let low = x.wrapping_sub(ONES * 0x21) & !x & HIGHS;
        if low == 0 {
            i += 8;
            continue;
        }
        i += (low.trailing_zeros() / 8) as usize;
        if buf.get(i).is_some_and(|&b| is_comment_space(b)) {
            return i;
        }
        i += 1;
    }
    while buf.get(i).is_some_and(|&b| !is_comment_space(b)) {
        i += 1;
    }
    i
}

/// Writes `n` in decimal at the start of `buf` (at least 10 bytes long for
/// any `u32`), returning the number of bytes written. Move numbers and NAGs
/// are nearly always below 100, so those take no loop.
#[inline]
pub(crate) fn write_decimal(buf: &mut [u8], n: u32) -> usize {
    if n < 10 {
        buf[0] = b'0' + n as u8;
        return 1;
    }
    if n < 100 {
        buf[0] = b'0' + (n / 10) as u8;
        buf[1] = b'0' + (n % 10) as u8;
        return 2;
    }
    let mut tmp = [0u8; 10];
    let mut i = tmp.len();
    let mut n = n;
    loop {
        i -= 1;
        tmp[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = tmp.len() - i;
    buf[..len].copy_from_slice(&tmp[i..]);
    len
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
    fn decimal() {
        let mut buf = [0u8; 10];
        for n in [0u32, 7, 10, 99, 255, 1000, u32::MAX] {
            let len = write_decimal(&mut buf, n);
            assert_eq!(&buf[..len], n.to_string().as_bytes());
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
    fn plain_comment_texts() {
        assert_eq!(plain_spaces(b"[%clk 0:10:00]"), Some(1 << 5));
        assert_eq!(plain_spaces(b"word"), Some(0));
        // Spaces past the first chunk, and a pair across a chunk boundary.
        assert_eq!(plain_spaces(b"abcdefgh ijklmnop q"), Some(1 << 8 | 1 << 17));
        assert_eq!(plain_spaces(b"abcdefg  hij"), None);
        for text in [
            &b"a  b"[..],
            b"a b ",
            b"a\tb",
            b"a\nb",
            b"a}b",
            b"a~b",
            "é".as_bytes(),
            b"a\x7fb",
        ] {
            assert_eq!(plain_spaces(text), None, "{text:?}");
        }
        let long = [b'x'; 64];
        assert_eq!(plain_spaces(&long), Some(0));
        assert_eq!(plain_spaces(&[b'x'; 65]), None);
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
    fn tail_chunks_pad_with_a_plain_byte() {
        assert_eq!(tail_chunk(b"abc", 3).to_le_bytes(), *b"abcaaaaa");
        assert_eq!(tail_chunk(b"0123456789", 2).to_le_bytes(), *b"89aaaaaa");
        assert_eq!(tail_chunk(b"01234567", 7).to_le_bytes(), *b"1234567a");
    }

    #[test]
    fn byte_masks_and_bits() {
        let x = u64::from_le_bytes(*b"a b  c d");
        let mask = byte_mask(x, b' ');
        assert_eq!(gather_bits(mask), 0b0101_1010);
        assert_eq!(
            byte_mask(u64::from_le_bytes(*b"\xa0 \x00\x20zzzz"), b' '),
            0x80 << 8 | 0x80 << 24
        );
    }

    #[test]
    fn move_number_words() {
        for (n, black) in [(1, false), (9, true), (10, false), (99, true), (100, false)]
            .into_iter()
            .chain([(999, true), (1000, false), (12345, true), (99_999, true)])
        {
            let word = Word::move_number(n, black).expect("fits");
            let dots = if black { "..." } else { "." };
            let expected = format!("{n}{dots}");
            assert_eq!(&word.bytes()[..word.len()], expected.as_bytes());
            assert!(word.bytes()[word.len()..].iter().all(|&b| b == 0));
        }
        assert_eq!(Word::move_number(100_000, false), None);
    }

    #[test]
    fn short_comment_texts() {
        let spaces = |t: &[u8]| ShortText::new(t).map(|s| (s.text.to_vec(), s.spaces));
        assert_eq!(
            spaces(b" [%clk 0:03:00] "),
            Some((b"[%clk 0:03:00]".to_vec(), 1 << 5))
        );
        assert_eq!(spaces(b"12345678"), Some((b"12345678".to_vec(), 0)));
        assert_eq!(
            spaces(b"abcdefgh ijklmno"),
            Some((b"abcdefgh ijklmno".to_vec(), 1 << 8))
        );
        // Too short, too long, white space left at an end, not plain.
        for text in [
            &b"1234567"[..],
            b"abcdefgh ijklmnop",
            b"  abcdefgh",
            b"abcdefgh  ",
            b"abcd  efgh",
            b"abcd}efgh",
            b"abcd\tefgh",
        ] {
            assert!(ShortText::new(text).is_none(), "{text:?}");
        }
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

    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// One movetext item for the layout.
        #[derive(Debug, Clone)]
        enum Item {
            Move(String),
            Number(u32, bool),
            /// A SAN move of at most 8 bytes written with
            /// [`Layout::ascii_move`], after its number if there is one.
            NumberedMove(Option<(u32, bool)>, String),
            Nag(u8),
            Comment(String),
            Open,
            Close,
        }

        fn item() -> impl Strategy<Value = Item> {
            prop_oneof![
                "[a-hNBRQKx1-8=+#-]{1,9}".prop_map(Item::Move),
                (1u32..300, any::<bool>()).prop_map(|(n, b)| Item::Number(n, b)),
                any::<u8>().prop_map(Item::Nag),
                // Words of any characters (braces and `;` included), spaces,
                // tabs and line ends between them, sometimes over-long.
                "([ \t\r\n]{0,3}[^ \t\r\n\x0b\x0c]{0,12}){0,8}( x{70,90})?".prop_map(Item::Comment),
                Just(Item::Open),
                Just(Item::Close),
            ]
        }

        /// Items as [`item`], plus moves written with their numbers and
        /// plain comments (printable ASCII words, single spaces: the
        /// layout's fast path), some longer than that path takes.
        fn item_or_plain() -> impl Strategy<Value = Item> {
            let number = prop::option::of((1u32..300, any::<bool>()));
            prop_oneof![
                item(),
                (number, "[a-hNBRQKx1-8=+#-]{1,8}").prop_map(|(n, m)| Item::NumberedMove(n, m)),
                "[!-|]{1,9}( [!-|]{1,9}){0,9}".prop_map(Item::Comment),
                // Short texts, a space or two at either end (the clock
                // comment shape, `{ [%clk 0:03:00] }`).
                " {0,2}[!-|]{1,9}( [!-|]{1,8})? {0,2}".prop_map(Item::Comment),
                // Clock commands, some too short or too long for their path.
                " {0,2}\\[%clk [0-9%\\[][!-|]{5,17}( [!-|]{1,3})? {0,2}".prop_map(Item::Comment),
            ]
        }

        /// Items as [`item_or_plain`], plus long comments (annotations) of
        /// up to a few hundred bytes: words, some starting with `[` or `%`,
        /// mostly single spaces, now and then two spaces, a line feed or a
        /// `}` (which the long plain path must leave to the general one).
        fn item_or_long() -> impl Strategy<Value = Item> {
            prop_oneof![
                item_or_plain(),
                " ?[!-|]{1,9}( [!-|\\[%]{1,9}){6,40} ?".prop_map(Item::Comment),
                "[!-|]{1,12}(( |  | \n|\t)[!-~]{1,12}){5,30}".prop_map(Item::Comment),
            ]
        }

        /// A plain two-phase reference: tokens to units, then units to
        /// lines, written straight from the rules.
        fn reference(items: &[Item], width: usize) -> String {
            // (text, join to previous); `None` is a forced line end.
            let mut tokens: Vec<Option<(String, Join, bool)>> = Vec::new();
            for item in items {
                match item {
                    Item::Move(m) => tokens.push(Some((m.clone(), Join::Free, false))),
                    Item::Number(n, b) => {
                        let dots = if *b { "..." } else { "." };
                        tokens.push(Some((format!("{n}{dots}"), Join::Free, false)));
                    }
                    Item::NumberedMove(number, m) => {
                        if let Some((n, b)) = number {
                            let dots = if *b { "..." } else { "." };
                            tokens.push(Some((format!("{n}{dots}"), Join::Free, false)));
                        }
                        tokens.push(Some((m.clone(), Join::Free, false)));
                    }
                    Item::Nag(n) => tokens.push(Some((format!("${n}"), Join::Free, false))),
                    Item::Open => tokens.push(Some(("(".into(), Join::Free, true))),
                    Item::Close => tokens.push(Some((")".into(), Join::Tight, false))),
                    Item::Comment(c) => {
                        let words: Vec<&str> = c
                            .split(|ch: char| ch.is_ascii() && is_comment_space(ch as u8))
                            .filter(|w| !w.is_empty())
                            .collect();
                        if words.is_empty() {
                            continue;
                        }
                        if c.contains('}') {
                            tokens.push(Some((";".into(), Join::Free, false)));
                            for w in words {
                                tokens.push(Some((w.into(), Join::Space, false)));
                            }
                            tokens.push(None);
                        } else {
                            tokens.push(Some(("{".into(), Join::Free, false)));
                            for (k, w) in words.iter().enumerate() {
                                let glued = k == 0 || w.starts_with('[') || w.starts_with('%');
                                let join = if glued { Join::Space } else { Join::Free };
                                tokens.push(Some(((*w).into(), join, false)));
                            }
                            tokens.push(Some(("}".into(), Join::Space, false)));
                        }
                    }
                }
            }
            // Units, each with a flag: a line must end after it.
            let mut units: Vec<(String, bool)> = Vec::new();
            let mut after_open = false;
            let mut after_break = false;
            for token in &tokens {
                let Some((text, join, opens)) = token else {
                    if let Some(u) = units.last_mut() {
                        u.1 = true;
                    }
                    after_break = true;
                    continue;
                };
                let join = if after_open && !after_break {
                    Join::Tight
                } else {
                    *join
                };
                match (join, units.last_mut()) {
                    (Join::Space, Some(u)) if !after_break => {
                        u.0.push(' ');
                        u.0.push_str(text);
                    }
                    (Join::Tight, Some(u)) if !after_break => u.0.push_str(text),
                    _ => units.push((text.clone(), false)),
                }
                after_open = *opens;
                after_break = false;
            }
            let mut out = String::new();
            let mut line = 0;
            for (unit, ends) in units {
                let n = unit.chars().count();
                if line == 0 {
                    line = n;
                } else if line + 1 + n <= width {
                    out.push(' ');
                    line += 1 + n;
                } else {
                    out.push('\n');
                    line = n;
                }
                out.push_str(&unit);
                if ends {
                    out.push('\n');
                    line = 0;
                }
            }
            if line > 0 {
                out.push('\n');
            }
            out
        }

        /// Lays `items` out at `width` and checks the text against the
        /// reference and the line invariants.
        fn check_layout(items: &[Item], width: usize) -> Result<(), TestCaseError> {
            let mut l = Layout::new(width);
            for item in items {
                match item {
                    Item::Move(m) => l.mov(m.as_bytes()),
                    Item::Number(n, b) => l.move_number(*n, *b),
                    Item::NumberedMove(number, m) => {
                        let mut buf = [0u8; 8];
                        for (d, s) in buf.iter_mut().zip(m.bytes()) {
                            *d = s;
                        }
                        l.ascii_move(*number, &buf, m.len());
                    }
                    Item::Nag(n) => l.nag(*n),
                    Item::Comment(c) => {
                        let written = l.comment(c.as_bytes());
                        prop_assert_eq!(written, c.bytes().any(|b| !is_comment_space(b)));
                    }
                    Item::Open => l.open_variation(),
                    Item::Close => l.close_variation(),
                }
            }
            l.finish();
            let text = std::str::from_utf8(l.output()).expect("UTF-8 in, UTF-8 out");
            prop_assert_eq!(text, reference(items, width));
            for line in text.lines() {
                prop_assert!(!line.is_empty());
                prop_assert!(!line.starts_with(' ') && !line.ends_with(' '), "{:?}", line);
                prop_assert!(
                    !line.starts_with('[') && !line.starts_with('%'),
                    "{:?}",
                    line
                );
            }
            Ok(())
        }

        proptest! {
            #[test]
            fn layout_matches_the_reference(items in prop::collection::vec(item(), 0..60), width in 10usize..100) {
                check_layout(&items, width)?;
            }

            #[test]
            fn fast_paths_match_the_reference(items in prop::collection::vec(item_or_plain(), 0..60), width in 10usize..100) {
                check_layout(&items, width)?;
            }

            #[test]
            fn long_comments_match_the_reference(items in prop::collection::vec(item_or_long(), 0..30), width in 10usize..100) {
                check_layout(&items, width)?;
            }

            #[test]
            fn long_plain_spaces_finds_exactly_the_plain_texts(text in "[!-|]([ -|]{0,3}[ -~\té]){20,60}[!-|]") {
                let bytes = text.as_bytes();
                let plain = !text.contains("  ") && bytes.iter().all(|&b| (b' '..=b'|').contains(&b));
                prop_assert_eq!(long_plain_spaces(bytes).is_some(), plain);
            }

            #[test]
            fn plain_spaces_finds_exactly_the_plain_texts(text in "[ -~\t\né}]{1,70}") {
                let bytes = text.as_bytes();
                let plain = bytes.len() <= 64
                    && bytes.first() != Some(&b' ')
                    && bytes.last() != Some(&b' ')
                    && !text.contains("  ")
                    && bytes.iter().all(|&b| (b' '..=b'|').contains(&b));
                let spaces = bytes
                    .iter()
                    .take(64)
                    .enumerate()
                    .filter(|(_, b)| **b == b' ')
                    .fold(0u64, |bits, (i, _)| bits | 1 << i);
                // A text given to it starts with a word.
                if bytes.first() != Some(&b' ') {
                    prop_assert_eq!(plain_spaces(bytes), plain.then_some(spaces));
                }
            }

            #[test]
            fn word_end_stops_at_the_first_white_space(text in "[ -~\t\n\r\x00-\x1fé]{0,40}", from in 0usize..40) {
                let bytes = text.as_bytes();
                let from = from.min(bytes.len());
                let expected = bytes[from..]
                    .iter()
                    .position(|&b| is_comment_space(b))
                    .map_or(bytes.len(), |i| from + i);
                prop_assert_eq!(word_end(bytes, from), expected);
            }
        }
    }
}
