//! Lexical shapes shared by the lexer, the splitter and the tag reader, so that all three agree
//! on where strings, comments, tag lines and termination markers begin and end.
//!
//! [`skip_comment`] is [`comment_end`] made fast (sixteen bytes at a time, long comments with
//! `memchr2` for `}` and `[`); the lexer and the splitter's movetext scan both use it.

use crate::Outcome;
use crate::byte_class::{is_symbol_continue, is_tag_name};
use crate::swar;
use crate::vector;

/// Index of the first LF or CR at or after `from` (the end of that line), or `input.len()`.
#[inline]
pub(crate) fn line_end(input: &[u8], from: usize) -> usize {
    match input.get(from..) {
        Some(rest) => memchr::memchr2(b'\n', b'\r', rest).map_or(input.len(), |i| from + i),
        None => input.len(),
    }
}

/// Whether `pos` is in the first column (offset 0 counts as a line start).
#[inline]
pub(crate) fn at_line_start(input: &[u8], pos: usize) -> bool {
    pos == 0 || matches!(input.get(pos.wrapping_sub(1)), Some(b'\n' | b'\r'))
}

/// If `input[pos..]` starts like a tag pair (`[`, a tag name, optional spaces or TABs, `"`),
/// the end of the tag name.
#[inline]
pub(crate) fn tag_shape(input: &[u8], pos: usize) -> Option<usize> {
    if input.get(pos) != Some(&b'[') {
        return None;
    }
    let mut i = tag_name_end(input, pos + 1);
    if i == pos + 1 {
        return None;
    }
    let name_end = i;
    while matches!(input.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    (input.get(i) == Some(&b'"')).then_some(name_end)
}

/// The end of the brace comment opened at `open`: `(index after '}', true)`, or, for an
/// unterminated comment, `(end, false)` where `end` is the start of the first line inside it
/// that starts like a tag pair, else `input.len()`.
#[inline(always)]
pub(crate) fn comment_end(input: &[u8], open: usize) -> (usize, bool) {
    let mut from = open + 1;
    loop {
        let at = comment_stop(input, from);
        match input.get(at) {
            None => return (input.len(), false),
            Some(b'}') => return (at + 1, true),
            Some(b'\n' | b'\r') if starts_like_tag(input, at + 1) => return (at + 1, false),
            Some(_) => from = at + 1,
        }
    }
}

/// [`comment_end`] when comments nest ([`LexOptions::nested_comments`](crate::LexOptions)):
/// each `{` inside opens a level, each `}` closes one; `(index after the '}' closing the
/// first level, true)`, or, unterminated, as [`comment_end`]: `(end, false)` where `end` is
/// the start of the first line inside that starts like a tag pair, else `input.len()`.
pub(crate) fn nested_comment_end(input: &[u8], open: usize) -> (usize, bool) {
    // An option's path, byte by byte: plain comments keep the fast scans.
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&b) = input.get(i) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return (i + 1, true);
                }
            }
            b'\n' | b'\r' if starts_like_tag(input, i + 1) => return (i + 1, false),
            _ => {}
        }
        i += 1;
    }
    (input.len(), false)
}

/// The brace comment opened at `open` as a token when comments nest: its end and kind (an
/// unterminated one is an error token, as [`comment_end`]'s is for the lexer).
pub(crate) fn nested_comment_token(input: &[u8], open: usize) -> (usize, crate::TokenKind) {
    match nested_comment_end(input, open) {
        (e, true) => (e, crate::TokenKind::BraceComment),
        (e, false) => (
            e.max(open + 1).min(input.len()),
            crate::TokenKind::Error(crate::LexErrorKind::UnterminatedComment),
        ),
    }
}

/// The end of the clock comment at `open`, `{[%clk H:MM:SS]}` or `{[%clk H:MM:SS.d]}` (most
/// comments of real files, one after each move), checked with two masked compares of 16 bytes
/// instead of a scan. Exact: in the bytes checked, every byte before the `}` is a byte the
/// scan passes over (`[%clk ]`, `.` and `0x30..=0x3f`, digits among them), so the scan
/// would stop at that `}` too. `None` for anything else (the caller scans, [`comment_end`]).
#[inline(always)]
pub(crate) fn clock_comment_end(input: &[u8], open: usize) -> Option<usize> {
    let rest = input.get(open..)?;
    let head = u128::from_le_bytes(*rest.first_chunk::<16>()?);
    if head & CLOCK.mask == CLOCK.bytes {
        return Some(open + 16);
    }
    let tenths = head & CLOCK_TENTHS.mask == CLOCK_TENTHS.bytes;
    (tenths && rest.get(16..18) == Some(b"]}")).then_some(open + 18)
}

/// The end of the run of digits from `from`.
#[inline(always)]
pub(crate) fn digits_end(input: &[u8], from: usize) -> usize {
    let mut e = from;
    while input.get(e).is_some_and(u8::is_ascii_digit) {
        e += 1;
    }
    e
}

/// The end of the run of periods from `from`.
#[inline(always)]
pub(crate) fn periods_end(input: &[u8], from: usize) -> usize {
    let mut e = from;
    while input.get(e) == Some(&b'.') {
        e += 1;
    }
    e
}

/// The move number at `pos` (the digit there and up to two more, then a run of periods:
/// `12.`, `3...`) as the end of its digits and the end of its periods; `None` when four or
/// more digits, or no period, follow `pos`. The same as [`digits_end`]
/// from `pos + 1` and then [`periods_end`] after the first period,
/// with the usual shapes (one or two digits, one or three periods) read from four bytes
/// without a loop (callgrind: the loops cost `check` 46 instructions a move number, and
/// one movetext token in three is one).
#[inline(always)]
pub(crate) fn move_number(input: &[u8], pos: usize) -> Option<(usize, usize)> {
    let Some(&[_, b1, b2, b3]) = input.get(pos..).and_then(<[u8]>::first_chunk::<4>) else {
        let digits = digits_end(input, pos + 1);
        return (digits - pos < 4 && input.get(digits) == Some(&b'.'))
            .then(|| (digits, periods_end(input, digits + 1)));
    };
    // The end of the periods from `pos + 3` on, the byte there being `b3`.
    let from_3 = |b3: u8| match b3 {
        b'.' => periods_end(input, pos + 4),
        _ => pos + 3,
    };
    match (b1, b2) {
        (b'.', b'.') => Some((pos + 1, from_3(b3))),
        (b'.', _) => Some((pos + 1, pos + 2)),
        (b'0'..=b'9', b'.') => Some((pos + 2, from_3(b3))),
        (b'0'..=b'9', b'0'..=b'9') if b3 == b'.' => Some((pos + 3, periods_end(input, pos + 4))),
        _ => None,
    }
}

/// The shape of 16 bytes: a byte must equal the pattern's where the pattern holds `?`, else
/// be in `0x30..=0x3f` (its high four bits `3`).
struct WordShape {
    mask: u128,
    bytes: u128,
}

impl WordShape {
    const fn new(pattern: &[u8; 16]) -> WordShape {
        let (mut mask, mut bytes) = (0u128, 0u128);
        let mut i = 0;
        while i < 16 {
            let (m, b) = match pattern[i] {
                b'?' => (0xf0, 0x30),
                b => (0xff, b),
            };
            mask |= (m as u128) << (8 * i);
            bytes |= (b as u128) << (8 * i);
            i += 1;
        }
        WordShape { mask, bytes }
    }
}

/// `{[%clk 0:10:00]}`, the whole comment.
const CLOCK: WordShape = WordShape::new(b"{[%clk ???????]}");
/// `{[%clk 0:10:00.0]}`, its first 16 bytes.
const CLOCK_TENTHS: WordShape = WordShape::new(b"{[%clk ???????.?");

/// Whether a line inside a comment starts like a tag pair: out of line, as most comments hold
/// no line end and the tag-name scan's constants would weigh on every comment.
#[inline(never)]
fn starts_like_tag(input: &[u8], pos: usize) -> bool {
    tag_shape(input, pos).is_some()
}

/// The first byte at or after `from` that may end a comment: `}` or a control character (LF
/// and CR among them; the caller passes over the others), else `input.len()`. Comments are
/// mostly short (`{[%clk 0:10:00]}`), so a word-at-a-time scan beats a memchr call.
#[inline(always)]
fn comment_stop(input: &[u8], from: usize) -> usize {
    swar::find(
        input,
        from,
        |w| swar::equal(w, swar::splat(b'}')) | swar::below(w, 0x0e),
        |b| b == b'}' || b < 0x0e,
    )
}

/// The end of the string opened at `open`: `Ok(index after the closing quote)`, or
/// `Err(index of the line end)` when the line (or the input) ends first. `\"` and `\\` are
/// escapes; any other backslash is plain.
#[inline]
pub(crate) fn string_end(input: &[u8], open: usize) -> Result<usize, usize> {
    string_end_and_tab(input, open).0
}

/// The end of the string opened at `open` (the index after its closing quote) when it is
/// plain: no backslash, TAB or other control byte before its first quote, and that quote
/// directly followed by `]`, as in nearly every tag value; `None` for any other string (then
/// [`string_end_and_tab`] decides). Where it gives an end, it is [`string_end`]'s, with no
/// TAB: one word scan and a two-byte test, nothing kept across them.
#[inline(always)]
pub(crate) fn plain_string_end(input: &[u8], open: usize) -> Option<usize> {
    let close = string_stop(input, open + 1);
    (input.get(close..close + 2) == Some(b"\"]")).then_some(close + 1)
}

/// [`string_end`], and whether the string needs a second look for the lexer's warnings: it
/// holds a TAB, or it is a tag value run to its line's last quote ([`value_end`]).
#[inline(always)]
pub(crate) fn string_end_and_tab(input: &[u8], open: usize) -> (Result<usize, usize>, bool) {
    let (end, tab) = string_scan(input, open);
    match end {
        // Nearly every string is a tag value closed by `"]`; the others are looked at again
        // out of line (an unescaped quote inside a tag value, [`value_end`]).
        Ok(e) if input.get(e) != Some(&b']') => string_end_after_quote(input, open, e - 1, tab),
        _ => (end, tab),
    }
}

/// The string opened at `open` up to its first unescaped quote (or its line's end), and
/// whether it holds a TAB.
#[inline(always)]
pub(crate) fn string_scan(input: &[u8], open: usize) -> (Result<usize, usize>, bool) {
    let mut i = open + 1;
    let mut tab = false;
    loop {
        i = string_stop(input, i);
        match input.get(i) {
            None => return (Err(input.len()), tab),
            Some(b'"') => return (Ok(i + 1), tab),
            Some(b'\\') if matches!(input.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            Some(b'\n' | b'\r') => return (Err(i), tab),
            Some(b'\t') => {
                tab = true;
                i += 1;
            }
            // A backslash before anything else, or another control character: plain.
            Some(_) => i += 1,
        }
    }
}

/// Where a string whose quote at `close` would end it really ends (the index after its closing
/// quote). A quote followed, after spaces or TABs, by `]` ends it, as nearly always; otherwise,
/// in a tag value (`tag_value`: the string follows `[Name`), it may be an unescaped quote inside
/// the value (`[White ""Mephisto""]`, `[Event "The "Big" Open"]`): when the line ends with `"]`
/// (white space allowed after it) and that last quote comes after `close`, the value runs to
/// that last quote (SPEC-NOTES "Tag pairs"). The end of `input` counts as a line end (the
/// streaming reader gives its scanners whole lines, see `Reader::next_raw`).
#[inline(always)]
pub(crate) fn value_end(input: &[u8], close: usize, tag_value: impl FnOnce() -> bool) -> usize {
    let mut j = close + 1;
    while matches!(input.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    if input.get(j) == Some(&b']') || !tag_value() {
        return close + 1;
    }
    value_end_after_quote(input, close)
}

/// [`value_end`] when the quote is not followed by `]`: the line's last quote, if the line
/// ends with `"]`.
#[cold]
#[inline(never)]
fn value_end_after_quote(input: &[u8], close: usize) -> usize {
    let end = line_end(input, close + 1);
    let line = input.get(..end).unwrap_or_default();
    let trimmed = line.trim_ascii_end();
    match trimmed.len().checked_sub(2) {
        Some(last) if last > close && trimmed.ends_with(b"\"]") => last + 1,
        _ => close + 1,
    }
}

/// Whether the string opened at `open` is a tag value: `[`, a tag name, then spaces or TABs.
#[inline]
pub(crate) fn is_tag_value(input: &[u8], open: usize) -> bool {
    let before = input.get(..open).unwrap_or_default();
    let name = before.trim_ascii_end();
    let name_len = name
        .iter()
        .rev()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
        .count();
    name_len > 0 && name.len() > name_len && name.get(name.len() - name_len - 1) == Some(&b'[')
}

/// [`string_end_and_tab`] at a quote not directly followed by `]`, out of the hot loop.
#[cold]
#[inline(never)]
fn string_end_after_quote(
    input: &[u8],
    open: usize,
    close: usize,
    tab: bool,
) -> (Result<usize, usize>, bool) {
    let end = value_end(input, close, || is_tag_value(input, open));
    // A value run to a later quote needs the lexer's warning.
    (Ok(end), tab || end > close + 1)
}

/// The first byte at or after `from` that a string scan must look at: `"`, `\\` or a control
/// character (LF, CR and TAB among them), else `input.len()`. Eight bytes at a time: tag
/// values are short, and this is a fixed dozen instructions per word.
#[inline(always)]
pub(crate) fn string_stop(input: &[u8], from: usize) -> usize {
    swar::find(
        input,
        from,
        |w| {
            swar::equal(w, swar::splat(b'"'))
                | swar::equal(w, swar::splat(b'\\'))
                | swar::below(w, 0x20)
        },
        |b| b == b'"' || b == b'\\' || b < 0x20,
    )
}

/// The end of the run of tag-name bytes (`A-Z a-z 0-9 _`) from `from`, eight bytes at a time.
#[inline]
pub(crate) fn tag_name_end(input: &[u8], from: usize) -> usize {
    swar::find(
        input,
        from,
        |w| {
            !(swar::between(w, b'0', b'9')
                | swar::between(w | swar::splat(0x20), b'a', b'z')
                | swar::between(w, b'_', b'_'))
        },
        |b| !is_tag_name(b),
    )
}

/// [`tag_name_end`] for the usual short name: when the eight bytes at `from` are there and
/// hold a byte that is not a tag-name byte, one word test finds it (a name and the space after
/// it nearly always fit); otherwise [`tag_name_end`] reads on.
#[inline(always)]
pub(crate) fn tag_name_word_end(input: &[u8], from: usize) -> usize {
    let Some(w) = input
        .get(from..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map(|c| u64::from_le_bytes(*c))
    else {
        return tag_name_end(input, from);
    };
    // `between` is exact in every byte, so its complement flags exactly the other bytes.
    let other = !(swar::between(w, b'0', b'9')
        | swar::between(w | swar::splat(0x20), b'a', b'z')
        | swar::between(w, b'_', b'_'));
    match swar::first(other) {
        Some(k) => from + k,
        None => tag_name_end(input, from + 8),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    One,
    Zero,
    Half,
}

/// `1/2`, `½` in UTF-8 (C2 BD) or Latin-1 (BD), `1`, `0`.
#[inline]
fn side(input: &[u8], p: usize) -> Option<(Side, usize)> {
    match input.get(p..)? {
        [b'1', b'/', b'2', ..] => Some((Side::Half, 3)),
        [0xc2, 0xbd, ..] => Some((Side::Half, 2)),
        [0xbd, ..] => Some((Side::Half, 1)),
        [b'1', ..] => Some((Side::One, 1)),
        [b'0', ..] => Some((Side::Zero, 1)),
        _ => None,
    }
}

/// `-`, `:`, an en dash in UTF-8 (E2 80 93) or Windows-1252 (96).
#[inline]
fn separator(input: &[u8], p: usize) -> Option<usize> {
    match input.get(p..)? {
        [b'-' | b':' | 0x96, ..] => Some(1),
        [0xe2, 0x80, 0x93, ..] => Some(3),
        _ => None,
    }
}

/// A termination marker other than `*` starting at `pos`: `1-0`, `0-1`, `1/2-1/2` and the
/// variants `½-½`, `1–0` (en dash), `0:1`. Not followed by a symbol character (so `0-1-0` is
/// not one). Returns its length and outcome.
#[inline]
pub(crate) fn match_marker(input: &[u8], pos: usize) -> Option<(usize, Outcome)> {
    let (left, l) = side(input, pos)?;
    let s = separator(input, pos + l)?;
    let (right, r) = side(input, pos + l + s)?;
    let outcome = match (left, right) {
        (Side::One, Side::Zero) => Outcome::WhiteWins,
        (Side::Zero, Side::One) => Outcome::BlackWins,
        (Side::Half, Side::Half) => Outcome::Draw,
        _ => return None,
    };
    let len = l + s + r;
    match input.get(pos + len) {
        Some(&b) if is_symbol_continue(b) => None,
        _ => Some((len, outcome)),
    }
}

/// Length of the UTF-8 character starting at `pos` if it is a valid one, else 1.
#[inline]
pub(crate) fn char_len(input: &[u8], pos: usize) -> usize {
    let Some(&b) = input.get(pos) else { return 1 };
    let n = match b {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return 1,
    };
    match input.get(pos..pos + n) {
        Some(c) if std::str::from_utf8(c).is_ok() => n,
        _ => 1,
    }
}

/// [`comment_end`] of the comment opened at `open`, for the movetext scan: clock comments
/// (`{[%clk 0:09:57.1]}`, the `}` 15 to 17 bytes after the `{`) in one look at the byte after
/// the `{` and one vector test of the sixteen after it, longer ones (engine output, a few
/// hundred bytes) with a vectorized search for `}` and `[` (a line inside a comment that
/// starts like a tag pair ends the comment unterminated; other control bytes mean nothing
/// there). A comment longer than the vector test goes to the search at once: reading its next
/// 32 bytes word by word first cost an engine comment more than the search saved
/// (callgrind, issue 34: 250 engine games of the bench file 32.97 M -> 30.45 M instructions,
/// the guard's sample +0.05%).
#[inline(always)]
pub(crate) fn skip_comment(buf: &[u8], open: usize) -> (usize, bool) {
    // The byte after the `{`, then the sixteen after it at once: most comments end there.
    let (Some(&second), Some(rest)) = (
        buf.get(open + 1),
        buf.get(open + 2..).and_then(<[u8]>::first_chunk::<16>),
    ) else {
        return long_comment_end(buf, open + 1);
    };
    let stop = if matches!(second, b'}' | 0..0x0e) {
        open + 1
    } else if let Some(k) = vector::first_hit(rest, |b| (b == b'}') | (b < 0x0e)) {
        open + 2 + k
    } else {
        return long_comment_end(buf, open + 18);
    };
    comment_end_at(buf, stop)
}

/// [`comment_end`] when the first `}` or control byte of the comment is at `stop`.
#[inline(always)]
fn comment_end_at(buf: &[u8], stop: usize) -> (usize, bool) {
    match buf.get(stop) {
        Some(b'}') => (stop + 1, true),
        // A line end or another control byte: the rest in bulk, from that byte.
        _ => long_comment_end(buf, stop),
    }
}

/// [`comment_end`] of a comment whose bytes before `from` hold no `}` and no line end (the
/// `{` may be at `from - 1`). A line end inside ends the comment only when a `[` follows it
/// (and a tag pair's shape), so the search is for `}` and `[` alone: a comment over several
/// lines is one search, and `memchr2` reads a little faster than `memchr3` (callgrind, issue
/// 34: 250 engine games of the bench file 33.87 M -> 32.97 M instructions).
#[inline(never)]
fn long_comment_end(buf: &[u8], mut from: usize) -> (usize, bool) {
    loop {
        let Some(at) = buf
            .get(from..)
            .and_then(|rest| memchr::memchr2(b'}', b'[', rest))
            .map(|i| from + i)
        else {
            return (buf.len(), false);
        };
        if buf.get(at) == Some(&b'}') {
            return (at + 1, true);
        }
        // A `[` at `from` follows no line end inside the comment: the byte before it is the
        // `{` or a byte before `from`.
        if at > from
            && matches!(buf.get(at - 1), Some(b'\n' | b'\r'))
            && tag_shape(buf, at).is_some()
        {
            return (at, false);
        }
        from = at + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_as_the_byte_scans_read_them() {
        let bytes_scan = |input: &[u8], pos: usize| {
            let digits = digits_end(input, pos + 1);
            (digits - pos < 4 && input.get(digits) == Some(&b'.'))
                .then(|| (digits, periods_end(input, digits + 1)))
        };
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for number in ["1", "12", "123", "1234", "12345678", "x", ".", "7x", "1x."] {
            for periods in 0..7 {
                for after in ["", " e4", "e4", "\n", "0", "}"] {
                    texts.push(format!("{number}{}{after}", ".".repeat(periods)).into_bytes());
                }
            }
        }
        for text in &texts {
            for lead in 0..2 {
                let mut input = b"e4 ".repeat(lead);
                let pos = input.len();
                input.extend_from_slice(text);
                // Every cut of the input, so that the four bytes run past its end too.
                for end in pos + 1..=input.len() {
                    let cut = &input[..end];
                    assert_eq!(
                        move_number(cut, pos),
                        bytes_scan(cut, pos),
                        "{:?}",
                        String::from_utf8_lossy(&cut[pos..])
                    );
                }
            }
        }
    }

    #[test]
    fn tag_name_word_end_is_the_byte_scan_s() {
        // Every byte value at every place of a name, with and without eight bytes after it.
        for len in 1..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = b;
                    bytes.extend_from_slice(b" \"x\"]\n");
                    let expected = bytes.iter().position(|&c| !is_tag_name(c)).unwrap_or(len);
                    assert_eq!(tag_name_word_end(&bytes, 0), expected, "{len} {at} {b}");
                    let short = &bytes[..len];
                    let expected = expected.min(len);
                    assert_eq!(tag_name_word_end(short, 0), expected, "{len} {at} {b}");
                }
            }
        }
        assert_eq!(tag_name_word_end(b"[Event", 1), 6);
        assert_eq!(tag_name_word_end(b"[Event", 6), 6);
    }

    #[test]
    fn markers() {
        let m = |s: &[u8]| match_marker(s, 0);
        assert_eq!(m(b"1-0"), Some((3, Outcome::WhiteWins)));
        assert_eq!(m(b"0-1 "), Some((3, Outcome::BlackWins)));
        assert_eq!(m(b"1/2-1/2"), Some((7, Outcome::Draw)));
        assert_eq!(m("½-½".as_bytes()), Some((5, Outcome::Draw)));
        assert_eq!(m(b"\xbd-\xbd"), Some((3, Outcome::Draw)));
        assert_eq!(m("1–0".as_bytes()), Some((5, Outcome::WhiteWins)));
        assert_eq!(m(b"1\x960"), Some((3, Outcome::WhiteWins)));
        assert_eq!(m(b"0:1"), Some((3, Outcome::BlackWins)));
        assert_eq!(m(b"1:0)"), Some((3, Outcome::WhiteWins)));
        assert_eq!(m(b"0-0"), None);
        assert_eq!(m(b"0-0-0"), None);
        assert_eq!(m(b"0-1-0"), None);
        assert_eq!(m(b"1-0x"), None);
        assert_eq!(m(b"1-"), None);
        assert_eq!(m(b"1/2"), None);
    }

    #[test]
    fn tag_shapes() {
        assert_eq!(tag_shape(b"[Event \"x\"]", 0), Some(6));
        assert_eq!(tag_shape(b"[Event\"x\"]", 0), Some(6));
        assert_eq!(tag_shape(b"[Event\t \"", 0), Some(6));
        assert_eq!(tag_shape(b"[ Event \"x\"]", 0), None);
        assert_eq!(tag_shape(b"[%clk 1:00]", 0), None);
        assert_eq!(tag_shape(b"[Event x]", 0), None);
        assert_eq!(comment_end(b"{a\r[A \"x\"]}", 0), (3, false));
        assert_eq!(comment_end(b"{a\r\n[A x]}", 0), (10, true));
    }

    #[test]
    fn nested_comments() {
        assert_eq!(nested_comment_end(b"{ a { b } c }x", 0), (13, true));
        assert_eq!(nested_comment_end(b"{{}{}}}", 0), (6, true));
        assert_eq!(nested_comment_end(b"{ a { b }", 0), (9, false));
        // A line that starts like a tag pair ends it unterminated, at any depth.
        assert_eq!(nested_comment_end(b"{ a {\n[Event \"x\"]}}", 0), (6, false));
        assert_eq!(nested_comment_end(b"{ a {\r\n[A x]} }", 0), (15, true));
        // `}` and `{` at the end of the input.
        assert_eq!(nested_comment_end(b"{", 0), (1, false));
        assert_eq!(nested_comment_end(b"x{}", 1), (3, true));
    }

    #[test]
    fn comments_and_strings() {
        assert_eq!(comment_end(b"{ a [%clk] }x", 0), (12, true));
        assert_eq!(comment_end(b"{ a\n[Event \"x\"]}", 0), (4, false));
        assert_eq!(comment_end(b"{ a ", 0), (4, false));
        assert_eq!(string_end(b"\"a\\\"b\" x", 0), Ok(6));
        assert_eq!(string_end(b"\"a\\\\\"", 0), Ok(5));
        assert_eq!(string_end(b"\"a\\b\"", 0), Ok(5));
        assert_eq!(string_end(b"\"ab\r\n\"", 0), Err(3));
        assert_eq!(string_end(b"\"ab", 0), Err(3));
        // Unescaped quotes inside a tag value: to the line's last quote when it ends with `"]`.
        let tag = b"[White \"\"Mephisto\"\"]  \r\n[Black \"x\"]";
        assert_eq!(string_end(tag, 7), Ok(19));
        let tag = b"[Event \"The \"Big\" Open\"]\n";
        assert_eq!(string_end(tag, 7), Ok(23));
        assert_eq!(string_end_and_tab(b"[A \"a \"b\tc\"]", 3), (Ok(11), true));
        assert_eq!(string_end_and_tab(b"[A \"a \"bc\"]", 3), (Ok(10), true));
        // Not a tag value: the first quote ends it.
        assert_eq!(string_end(b"{c} \"\"M\"\"]\n", 4), Ok(6));
        // The end of the input ends the line.
        assert_eq!(string_end(b"[A \"\"M\" x", 3), Ok(5));
        assert_eq!(string_end(b"[A \"\"M\"\"] ", 3), Ok(8));
        // A quote followed by `]` ends the value, whatever follows on the line.
        assert_eq!(string_end(b"\"a\"] [B \"b\"]", 0), Ok(3));
        // No `"]` at the line's end: the first quote ends it.
        assert_eq!(string_end(b"\"a\"b\" c\n\"]", 0), Ok(3));
        // The plain case: a quote right before `]`, nothing to look at before it.
        assert_eq!(plain_string_end(b"[A \"a b\"]", 3), Some(8));
        assert_eq!(plain_string_end(b"\"\"]", 0), Some(2));
        for other in [
            &b"\"a\" ]"[..],
            b"\"a\tb\"]",
            b"\"a\\\"b\"]",
            b"\"a\"",
            b"\"a\n\"]",
            b"\"a",
        ] {
            assert_eq!(plain_string_end(other, 0), None, "{other:?}");
        }
        assert_eq!(line_end(b"ab\r\n", 0), 2);
        assert_eq!(line_end(b"ab", 5), 2);
    }

    /// Bytes that matter to string and comment scans, often, at every offset of a word.
    fn scan_input() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => prop::sample::select(&b"ab \"\\}\t\n\r\x01\x0e\x1f\x7f\x80\xff["[..]).prop_map(|b| vec![b]),
            1 => Just(b"\n[Event \"".to_vec()),
            1 => Just(b"\r\n[A\t\"".to_vec()),
            1 => Just(b"[%clk 0:10:00]".to_vec()),
            1 => Just(b"\"]".to_vec()),
        ];
        prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #[test]
        fn word_scans_agree_with_the_grammar(body in scan_input()) {
            // A tag value, so that unescaped quotes are tried too.
            let string = [&b"[A \""[..], &body].concat();
            let (rest, kind) = crate::grammar::string(&string[3..], true).unwrap();
            let end = string.len() - rest.len();
            let expected = match kind {
                crate::TokenKind::String => Ok(end),
                _ => Err(end),
            };
            proptest::prop_assert_eq!(string_end(&string, 3), expected);
            let tab = string_end_and_tab(&string, 3).1;
            let scanned = &string[4..string_end(&string, 3).unwrap_or_else(|e| e)];
            let extended = string_scan(&string, 3).0 != string_end(&string, 3);
            proptest::prop_assert_eq!(tab, scanned.contains(&b'\t') || extended);
            // The plain case, where it answers, is the full scan's answer.
            if let Some(end) = plain_string_end(&string, 3) {
                proptest::prop_assert_eq!(string_end_and_tab(&string, 3), (Ok(end), false));
            }

            let comment = [&b"{"[..], &body].concat();
            let (rest, kind) = crate::grammar::brace_comment(&comment).unwrap();
            let end = comment.len() - rest.len();
            let terminated = kind == crate::TokenKind::BraceComment;
            proptest::prop_assert_eq!(comment_end(&comment, 0), (end, terminated));
            // Nesting changes nothing for a comment with no `{` inside.
            if !body.contains(&b'{') {
                proptest::prop_assert_eq!(nested_comment_end(&comment, 0), (end, terminated));
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_fast_comment_scan_is_comment_end(
            lead in proptest::collection::vec(
                proptest::sample::select(&b"ab -=.,:0"[..]),
                0..120,
            ),
            body in scan_input(),
        ) {
            // A run of plain bytes first, so that the vector test and the bulk search are
            // reached from every place, then the bytes that matter.
            let comment = [&b"{"[..], &lead, &body].concat();
            proptest::prop_assert_eq!(skip_comment(&comment, 0), comment_end(&comment, 0));
            for from in 1..comment.len().min(60) {
                // The bulk search's own rule: from any place with no `}` and no control byte
                // before it.
                if comment[1..from].iter().all(|&b| b != b'}' && b >= 0x0e) {
                    proptest::prop_assert_eq!(
                        long_comment_end(&comment, from),
                        comment_end(&comment, 0),
                    );
                }
            }
        }
    }

    #[test]
    fn long_comments_end_at_a_tag_line_only() {
        let engine = b"{d=26, pv=Nc3 Be7 f4 Nc6 Be3 O-O Qf3 a6 Rad1 Qc7 g4 b5 g5 Nxd4 Bxd4 Nd7,\n\
            tb=null, h=0.0, ph=0.0, wv=0.16,} e4";
        let close = engine.iter().position(|&b| b == b'}').unwrap();
        assert_eq!(skip_comment(engine, 0), (close + 1, true));
        // A `[` that does not start a line, or starts one that is not a tag pair, is text.
        let text = b"{ a long comment of more than fifty bytes, with [brackets]\n[and a line] }";
        assert_eq!(skip_comment(text, 0), (text.len(), true));
        let cut = b"{ a long comment of more than fifty bytes, cut by a tag pair\r\n[Event \"x\"]";
        assert_eq!(skip_comment(cut, 0), (cut.len() - 11, false));
        let early = b"{ a\n[Event \"x\"] then more than fifty bytes of the next game's text";
        assert_eq!(skip_comment(early, 0), (4, false));
        assert_eq!(
            skip_comment(b"{ unterminated, and more than fifty bytes long........", 0),
            (54, false)
        );
    }

    #[test]
    fn clock_comments_end_where_the_scan_ends() {
        let mut inputs = vec![
            b"{[%clk 0:10:00]}".to_vec(),
            b"{[%clk 0:09:57.1]} e4".to_vec(),
            b"{[%clk 0:0}:00]}".to_vec(),
            b"{[%clk 0:00:00.}]}".to_vec(),
            b"{[%clk 0:10:00] }".to_vec(),
            b"{[%clk 0:10:00]".to_vec(),
            b"{[%clk 0:00:00.0]".to_vec(),
            b"{[%clk 0:00:00.0]x}".to_vec(),
            b"{[%clk 10:00:00]}".to_vec(),
        ];
        // Every byte value at every place of both shapes.
        for shape in [&b"{[%clk 0:10:00]} "[..], b"{[%clk 0:10:00.0]} "] {
            for at in 1..shape.len() {
                for b in 0..=255u8 {
                    let mut input = shape.to_vec();
                    input[at] = b;
                    inputs.push(input);
                }
            }
        }
        let mut clocks = 0;
        for input in inputs {
            let Some(end) = clock_comment_end(&input, 0) else {
                continue;
            };
            clocks += 1;
            let (rest, kind) = crate::grammar::brace_comment(&input).unwrap();
            assert_eq!(kind, crate::TokenKind::BraceComment, "{input:?}");
            assert_eq!(end, input.len() - rest.len(), "{input:?}");
        }
        // Clocks: the two first inputs, then per shape 16 values at each digit place (`0x30` to
        // `0x3f`), the one right byte at each other place, any byte after the `}`.
        assert_eq!(clocks, 2 + (7 * 16 + 8 + 256) + (8 * 16 + 9 + 256));
        assert_eq!(clock_comment_end(b"{[%clk 0:10:00]}", 0), Some(16));
        assert_eq!(clock_comment_end(b"{[%clk 0:10:00.0]}", 0), Some(18));
    }

    #[test]
    fn char_lengths() {
        assert_eq!(char_len("é".as_bytes(), 0), 2);
        assert_eq!(char_len(b"\xe9x", 0), 1);
        assert_eq!(char_len("–".as_bytes(), 0), 3);
        assert_eq!(char_len(b"\xe2\x80", 0), 1);
    }
}
