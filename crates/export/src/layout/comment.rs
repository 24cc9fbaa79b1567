//! Comments in the layout: [`Layout::comment`] and its paths (short texts
//! written whole, plain texts placed from their space masks, any other text
//! word by word with white space collapsed), and the comment scanners they
//! use.

use super::clock::Clock;
use super::plain_text::{
    HIGHS, ONES, PLAIN_BLOCK, PlainScan, long_plain_spaces, plain_spaces, tail_chunk,
};
use super::word::char_count;
use super::{Join, Layout};

/// Whether `b` is white space in a comment: space, TAB, LF, CR, VT or FF.
#[inline]
pub(crate) fn is_comment_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

impl Layout {
    /// A comment. Returns whether anything was written (an empty comment is
    /// not). A comment containing `}` (or, with nested comments, `{`) is
    /// written as a `; text` comment that ends its line; any other as
    /// `{ words }`.
    pub(crate) fn comment(&mut self, text: &[u8]) -> bool {
        if self.comment_lines {
            return self.comment_alone(text);
        }
        if let Some(clock) = Clock::new(text)
            && self.clock_comment(&clock)
        {
            return true;
        }
        self.any_comment(text)
    }

    /// A comment whose writer made its text plain: ASCII, not empty, words
    /// separated by single spaces (bit `i` of `spaces[i / 64]` set when
    /// `text[i]` is one), no brace, no word starting with `[` or `%`, not a
    /// clock command. Writes what [`Layout::comment`] writes of it, without
    /// looking for any of that: the FEN and key comments after every move.
    pub(crate) fn plain_words_comment(&mut self, text: &[u8], spaces: [u64; 2]) -> bool {
        if self.comment_lines || text.is_empty() || text.len() > 2 * PLAIN_BLOCK {
            return self.comment(text);
        }
        self.push_array(b"{ ", 2, Join::Free);
        self.plain_comment(text, [(0, spaces[0]), (PLAIN_BLOCK, spaces[1])]);
        true
    }

    /// A comment on lines of its own (pgn-extract's `--commentlines`): the
    /// line before it ends, and so does its last line. Kept out of line.
    #[inline(never)]
    fn comment_alone(&mut self, text: &[u8]) -> bool {
        if text.iter().all(|&b| is_comment_space(b)) {
            return false;
        }
        if self.fill.line_chars > 0 || self.fill.unit_chars > 0 {
            self.break_line_after();
        }
        let written = self.any_comment(text);
        self.break_line_after();
        written
    }

    /// [`Layout::comment`] for any text. Kept out of line: the clock path
    /// stays small.
    #[inline(never)]
    fn any_comment(&mut self, text: &[u8]) -> bool {
        // With nested comments a `{` needs the `;` form: not a fast path.
        let open_brace = self.nested_comments && text.contains(&b'{');
        if !open_brace && let Some(short) = ShortText::new(text) {
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
        if !open_brace && let Some(spaces) = plain_spaces(trimmed) {
            self.plain_comment(trimmed, [(0, spaces)]);
            return true;
        }
        if !open_brace
            && trimmed.len() > PLAIN_BLOCK
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
        let brace = open_brace || words.contains(&b'}');
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

/// The end of the word that starts at `from` in `buf`: the offset of the
/// first comment white space byte at or after `from`, or `buf.len()`.
///
/// Eight bytes at a time: every white space byte is below `!`, and a word
/// byte almost never is (a control character), so the first byte below `!`
/// in a chunk is nearly always the word's end; when it is not, the scan goes
/// on after it.
pub(super) fn word_end(buf: &[u8], from: usize) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
