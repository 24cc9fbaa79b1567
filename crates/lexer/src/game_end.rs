//! Where a game ends: the rules of the [`split`](crate::split) module docs, read from the
//! bytes. The splitter, the streaming reader and the single pass all apply them; this module
//! uses none of those, so each can build on it.
//!
//! The tag section is read here; the movetext scan lives in `movetext_scan`: it looks only at
//! the bytes that can change its state and passes over the others in bulk (long comments with
//! `memchr3`).

mod movetext_scan;

use crate::byte_class::{is_control, is_ws};
use crate::shapes::{at_line_start, line_end, string_end, tag_name_end, tag_shape};
pub(crate) use movetext_scan::Scanners;
use movetext_scan::{Movetext, scan_movetext_with};
#[cfg(test)]
pub(crate) use movetext_scan::{movetext_stop, stops_movetext};

/// Where reading can start again when a game's beginning is not at hand (the streaming reader
/// skipping a game over its size limit): the first `[` at or after `from` that starts a line
/// (`from` at least 1, so the byte before it is there to look at) and starts like a tag pair.
///
/// `Ok(pos)` is that `[`, or `buf.len()` when `complete` and there is none. `Err(keep)` when
/// there is none yet: the bytes before `keep` hold no such start whatever follows, so a caller
/// may drop them and ask again from 1 once more bytes are in.
///
/// This is a resynchronisation, not the splitter's full rule: a tag line inside a multi-line
/// comment or after movetext that the splitter would keep in the game is taken as a start.
pub(crate) fn next_tag_line(buf: &[u8], from: usize, complete: bool) -> Result<usize, usize> {
    let mut at = from.max(1);
    while let Some(found) = buf.get(at..).and_then(|rest| memchr::memchr(b'[', rest)) {
        let open = at + found;
        if matches!(buf.get(open - 1), Some(b'\n' | b'\r')) {
            if tag_shape(buf, open).is_some() {
                return Ok(open);
            }
            if !complete && may_be_cut_tag_shape(buf, open) {
                return Err(open - 1);
            }
        }
        at = open + 1;
    }
    if complete {
        Ok(buf.len())
    } else {
        // The last byte may be the line end before a `[` still to come.
        Err(buf.len().saturating_sub(1))
    }
}

/// Whether the white space `ws` holds an empty line (two or more line ends).
#[inline]
pub(crate) fn has_empty_line(ws: &[u8]) -> bool {
    let mut ends = 0;
    for (i, &b) in ws.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && ws.get(i + 1) != Some(&b'\n')) {
            ends += 1;
            if ends >= 2 {
                return true;
            }
        }
    }
    false
}

/// After the tag name ending at `from`: optional spaces, a string, optional spaces, `]`, all
/// on one line as far as present. Returns where the tag pair ends.
fn skip_tag_pair(buf: &[u8], mut pos: usize) -> usize {
    let spaces = |mut p: usize| {
        while matches!(buf.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        p
    };
    pos = spaces(pos);
    if buf.get(pos) == Some(&b'"') {
        pos = match string_end(buf, pos) {
            Ok(end) => end,
            Err(line_end) => return line_end,
        };
        pos = spaces(pos);
    }
    match buf.get(pos) {
        Some(b']') => pos + 1,
        // A malformed tag pair (`[White ""Socrates Expert""]`, unescaped quotes): the rest of
        // its line belongs to it.
        Some(b'\n' | b'\r') | None => pos,
        Some(_) => line_end(buf, pos),
    }
}

/// The common shape of a tag pair, `[Name "value"]` (one space, the `]` right after the value):
/// the end of its name and of the pair, read in one go. Anything else takes the general path
/// ([`tag_shape`], then [`skip_tag_pair`]), which reads this shape the same way.
#[inline(always)]
fn plain_tag_pair(buf: &[u8], pos: usize) -> Option<(usize, usize)> {
    let name_end = tag_name_end(buf, pos + 1);
    if name_end == pos + 1 || buf.get(name_end..name_end + 2) != Some(b" \"") {
        return None;
    }
    let end = string_end(buf, name_end + 1).ok()?;
    (buf.get(end) == Some(&b']')).then_some((name_end, end + 1))
}

/// Whether the input ends before the tag-pair shape at `pos` (a `[` then tag-name characters
/// and spaces) could be decided.
pub(crate) fn may_be_cut_tag_shape(buf: &[u8], pos: usize) -> bool {
    buf.get(pos + 1..).is_some_and(|rest| {
        let name = rest
            .iter()
            .take_while(|&&b| crate::byte_class::is_tag_name(b))
            .count();
        rest.get(name..)
            .is_some_and(|after| after.iter().all(|&b| b == b' ' || b == b'\t'))
    })
}

/// After a termination marker (outside variations) ending at `pos`: the end of the game. Comments
/// (and `%` lines) may follow; a tag pair, wherever it starts, begins the next game; so does any
/// other token (a game without tags), but that one takes the comments before it along. A `%`
/// that is not in the first column begins no game: a game's bytes are read on their own (from
/// the splitter's slice, a split output, an index), where a game's first byte is in the first
/// column, so a game starting at `*%x 1-0` would read its whole first line as an escape line.
/// Such a `%` (an unexpected character for the lexer) is passed over like a comment that never
/// leads a game: it stays with the game that ended, or with comments before it.
fn after_marker(buf: &[u8], mut pos: usize, scanners: Scanners) -> usize {
    let mut first_comment = None;
    loop {
        while buf.get(pos).is_some_and(|&b| is_ws(b)) {
            pos += 1;
        }
        let Some(&b) = buf.get(pos) else {
            return buf.len();
        };
        match b {
            b'{' => match (scanners.comment_end)(buf, pos) {
                (end, true) => {
                    first_comment.get_or_insert(pos);
                    pos = end;
                }
                (end, false) => return end,
            },
            b';' => {
                first_comment.get_or_insert(pos);
                pos = line_end(buf, pos);
            }
            b'%' if at_line_start(buf, pos) => pos = line_end(buf, pos),
            b'%' => pos += 1,
            b'[' if tag_shape(buf, pos).is_some() => return pos,
            // Input ends inside what may be a tag pair: it stays with this game (and a stream
            // reads on before deciding).
            b'[' if may_be_cut_tag_shape(buf, pos) => return buf.len(),
            _ => return first_comment.unwrap_or(pos),
        }
    }
}

/// The end of the game that starts at `buf[0]`: the start of the next game, or `buf.len()`.
///
/// Streaming relies on this property: a result below `buf.len()` never depends on bytes past
/// `buf.len()` (every look-ahead that runs out of input decides "no split"), so the same split
/// is found whatever follows.
pub(crate) fn game_end(buf: &[u8], names: &mut Vec<(usize, usize)>) -> usize {
    game_end_with(buf, names, Scanners::FAST)
}

/// [`game_end`] with the rules of `options`.
#[inline(always)]
pub(crate) fn game_end_for(
    buf: &[u8],
    names: &mut Vec<(usize, usize)>,
    options: crate::LexOptions,
) -> usize {
    if options.nested_comments {
        game_end_with(buf, names, Scanners::NESTED)
    } else {
        game_end(buf, names)
    }
}

/// [`game_end`] with the given movetext scanners (the tests check the fast ones against the
/// word-by-word ones with it).
#[inline(always)]
pub(crate) fn game_end_with(
    buf: &[u8],
    names: &mut Vec<(usize, usize)>,
    scanners: Scanners,
) -> usize {
    names.clear();
    // A byte order mark at a game's start (files joined with `cat`, each with its own) is
    // skipped, as the lexer skips it: the tag section after it is read as one.
    let mut pos = crate::byte_class::bom_len(buf);
    let mut empty_line = false;
    // The tag section (with comments, `%` lines and empty lines) up to the first movetext token.
    loop {
        let ws_start = pos;
        while buf.get(pos).is_some_and(|&b| is_ws(b)) {
            pos += 1;
        }
        let Some(&b) = buf.get(pos) else {
            return buf.len();
        };
        // An empty line takes two line ends: one byte of white space (the usual LF) has none.
        if pos > ws_start + 1 && has_empty_line(buf.get(ws_start..pos).unwrap_or_default()) {
            empty_line = true;
        }
        match b {
            b'[' => {
                let pair = plain_tag_pair(buf, pos).or_else(|| {
                    tag_shape(buf, pos).map(|name_end| (name_end, skip_tag_pair(buf, name_end)))
                });
                if let Some((name_end, end)) = pair {
                    let name = buf.get(pos + 1..name_end).unwrap_or_default();
                    if empty_line && names.iter().any(|&(s, e)| buf.get(s..e) == Some(name)) {
                        return pos;
                    }
                    names.push((pos + 1, name_end));
                    pos = end;
                } else {
                    // A malformed tag pair.
                    let mut p = pos + 1;
                    while matches!(buf.get(p), Some(b' ' | b'\t')) {
                        p += 1;
                    }
                    while buf
                        .get(p)
                        .is_some_and(|&c| crate::byte_class::is_tag_name(c))
                    {
                        p += 1;
                    }
                    pos = skip_tag_pair(buf, p);
                }
                empty_line = false;
            }
            b'{' => {
                let (end, terminated) = (scanners.comment_end)(buf, pos);
                if !terminated {
                    return end;
                }
                empty_line = false;
                pos = end;
            }
            b';' => {
                empty_line = false;
                pos = line_end(buf, pos);
            }
            b'%' if at_line_start(buf, pos) => pos = line_end(buf, pos),
            b']' => pos += 1,
            // A control character is an error token, not movetext: the tag section goes on.
            _ if is_control(b) => pos += 1,
            b'"' => {
                pos = match string_end(buf, pos) {
                    Ok(end) | Err(end) => end.max(pos + 1),
                }
            }
            _ => break,
        }
    }
    match scan_movetext_with(buf, pos, scanners) {
        Movetext::End(end) => end,
        Movetext::Marker(end) => after_marker(buf, end, scanners),
    }
}
