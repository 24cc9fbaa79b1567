//! Lexical shapes shared by the lexer, the splitter and the tag reader, so that all three agree
//! on where strings, comments, tag lines and termination markers begin and end.

use crate::Outcome;
use crate::byte_class::is_symbol_continue;

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
    let mut i = run_end(input, pos + 1, &TAG_NAME_BYTES);
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
#[inline]
pub(crate) fn comment_end(input: &[u8], open: usize) -> (usize, bool) {
    // One search per line of the comment: most comments are one line.
    let mut from = open + 1;
    while let Some(rest) = input.get(from..) {
        match memchr::memchr3(b'}', b'\n', b'\r', rest) {
            None => break,
            Some(i) => {
                let at = from + i;
                if input.get(at) == Some(&b'}') {
                    return (at + 1, true);
                }
                if tag_shape(input, at + 1).is_some() {
                    return (at + 1, false);
                }
                from = at + 1;
            }
        }
    }
    (input.len(), false)
}

/// The end of the string opened at `open`: `Ok(index after the closing quote)`, or
/// `Err(index of the line end)` when the line (or the input) ends first. `\"` and `\\` are
/// escapes; any other backslash is plain.
#[inline]
pub(crate) fn string_end(input: &[u8], open: usize) -> Result<usize, usize> {
    string_end_and_tab(input, open).0
}

/// [`string_end`], and whether the string holds a TAB (for the lexer's warning).
#[inline]
pub(crate) fn string_end_and_tab(input: &[u8], open: usize) -> (Result<usize, usize>, bool) {
    let mut i = open + 1;
    let mut tab = false;
    loop {
        i = run_end(input, i, &STRING_PLAIN);
        match input.get(i) {
            None => return (Err(input.len()), tab),
            Some(b'"') => return (Ok(i + 1), tab),
            Some(b'\\') if matches!(input.get(i + 1), Some(b'"' | b'\\')) => i += 2,
            Some(b'\\') => i += 1,
            Some(b'\t') => {
                tab = true;
                i += 1;
            }
            Some(_) => return (Err(i), tab),
        }
    }
}

/// Bytes a string scan passes over: all but `"`, `\`, LF, CR and TAB.
static STRING_PLAIN: [u8; 256] = {
    let mut t = [1u8; 256];
    t[b'\t' as usize] = 0;
    t[b'"' as usize] = 0;
    t[b'\\' as usize] = 0;
    t[b'\n' as usize] = 0;
    t[b'\r' as usize] = 0;
    t
};

/// Tag-name bytes `A-Z a-z 0-9 _` as 1, others 0.
pub(crate) static TAG_NAME_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ((i as u8).is_ascii_alphanumeric() || i == b'_' as usize) as u8;
        i += 1;
    }
    t
};

/// The end of the run of bytes marked 1 in `table`, from `from`. Eight bytes are classified
/// at a time without branches (a bit mask of table lookups), so short runs (tag names and
/// values) cost one predictable exit instead of a mispredicted loop end.
#[inline(always)]
pub(crate) fn run_end(input: &[u8], from: usize, table: &[u8; 256]) -> usize {
    let mut e = from;
    while let Some(chunk) = input.get(e..e + 8) {
        let mut mask = 0u32;
        for (k, &b) in chunk.iter().enumerate() {
            mask |= u32::from(table[b as usize]) << k;
        }
        let run = mask.trailing_ones() as usize;
        e += run;
        if run < 8 {
            return e;
        }
    }
    while input.get(e).is_some_and(|&b| table[b as usize] == 1) {
        e += 1;
    }
    e
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn comments_and_strings() {
        assert_eq!(comment_end(b"{ a [%clk] }x", 0), (12, true));
        assert_eq!(comment_end(b"{ a\n[Event \"x\"]}", 0), (4, false));
        assert_eq!(comment_end(b"{ a ", 0), (4, false));
        assert_eq!(string_end(b"\"a\\\"b\" x", 0), Ok(6));
        assert_eq!(string_end(b"\"a\\\\\"", 0), Ok(5));
        assert_eq!(string_end(b"\"a\\b\"", 0), Ok(5));
        assert_eq!(string_end(b"\"ab\r\n\"", 0), Err(3));
        assert_eq!(string_end(b"\"ab", 0), Err(3));
        assert_eq!(line_end(b"ab\r\n", 0), 2);
        assert_eq!(line_end(b"ab", 5), 2);
    }

    #[test]
    fn char_lengths() {
        assert_eq!(char_len("é".as_bytes(), 0), 2);
        assert_eq!(char_len(b"\xe9x", 0), 1);
        assert_eq!(char_len("–".as_bytes(), 0), 3);
        assert_eq!(char_len(b"\xe2\x80", 0), 1);
    }
}
