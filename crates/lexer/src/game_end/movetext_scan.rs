//! Where a game's movetext ends, for the splitter: a scan that reads movetext the way the
//! lexer does, looking only at the bytes that can change its state.
//!
//! Plain movetext is tested sixteen bytes at once with comparisons the compiler turns into
//! SSE2 vector instructions (commented games stop every dozen bytes, so the first test mostly
//! finds the stop: `vector::first_hit`), then 32 bytes at a time (a run of moves without
//! comments), then word by word to find the byte ([`movetext_stop`]). Inside a brace comment
//! only `}` and line ends matter (a line that starts like a tag pair ends the comment
//! unterminated): a clock comment (`{[%clk 0:09:57.1]}`) ends within the seventeen bytes after
//! its `{`, which take one look and one vector test; longer comments are read word by word,
//! long ones (engine output of a few hundred bytes per move) with a vectorized search
//! (`memchr3`) that passes over most of their bytes in bulk.

use crate::byte_class::is_symbol_continue;
#[cfg(test)]
use crate::shapes::comment_end;
use crate::shapes::{
    at_line_start, char_len, line_end, match_marker, skip_comment, string_end, tag_shape,
};
use crate::swar;
use crate::vector;

/// What ended the movetext scan.
pub(crate) enum Movetext {
    /// The game ends here (a tag line, an unterminated comment, the end of the input).
    End(usize),
    /// A termination marker outside variations ends here.
    Marker(usize),
}

/// The first byte at or after `from` that the movetext scan must look at, else `buf.len()`:
/// comment, string, escape and parenthesis characters, `*`, `$`, `[`, the marker separators
/// `-` and `:`, and every byte of 0x80 and above (`½`, an en dash, or text the lexer reads one
/// character at a time). Eight bytes at a time; `#`, `&` and `'` stop it too (they share a
/// range with `"` to `*`, which is one test), and the caller passes over them.
#[inline(always)]
pub(crate) fn movetext_stop(buf: &[u8], from: usize) -> usize {
    swar::find(buf, from, movetext_flags, stops_movetext)
}

/// Flags (see [`swar`]) the bytes [`movetext_stop`] stops at in the word `w`.
#[inline(always)]
fn movetext_flags(w: u64) -> u64 {
    w // the high bit: bytes of 0x80 and above
        | swar::between(w, b'"', b'*')
        | swar::between(w, b'-', b'-')
        | swar::between(w, b':', b';')
        | swar::between(w | swar::splat(0x20), b'{', b'{') // `{` and `[`
}

/// [`movetext_stop`]: the first sixteen bytes in one vector test, then long runs (movetext
/// without comments, a few hundred bytes of moves) passed over 32 bytes at a time by a test
/// the compiler turns into vector instructions.
#[inline(always)]
fn next_stop(buf: &[u8], from: usize) -> usize {
    // Commented games stop every dozen bytes: the first sixteen bytes in one vector test.
    let Some(first) = buf.get(from..).and_then(<[u8]>::first_chunk::<16>) else {
        return movetext_stop(buf, from);
    };
    if let Some(k) = vector::first_hit(first, stops_movetext_branchless) {
        return from + k;
    }
    run_stop(buf, from + 16)
}

/// [`movetext_stop`] in a long run, 32 bytes at a time: out of line, so that the loop keeps
/// its constants in registers (inlined into the scan, it reloaded them every round).
#[inline(never)]
fn run_stop(buf: &[u8], mut at: usize) -> usize {
    while let Some(chunk) = buf.get(at..).and_then(<[u8]>::first_chunk::<32>) {
        if chunk
            .iter()
            .fold(false, |any, &b| any | stops_movetext_branchless(b))
        {
            break;
        }
        at += 32;
    }
    movetext_stop(buf, at)
}

/// [`stops_movetext`] as comparisons without branches, which the compiler can run on sixteen
/// bytes at once.
#[inline(always)]
fn stops_movetext_branchless(b: u8) -> bool {
    (b.wrapping_sub(b'"') <= b'*' - b'"')
        | (b == b'-')
        | (b | 1 == b';') // `:` and `;`
        | (b | 0x20 == b'{') // `[` and `{`
        | (b >= 0x80)
}

/// Whether [`movetext_stop`] stops at `b`, one byte at a time.
#[inline]
pub(crate) fn stops_movetext(b: u8) -> bool {
    matches!(b, b'"'..=b'*' | b'-' | b':' | b';' | b'[' | b'{' | 0x80..)
}

/// A termination marker whose separator (`-`, `:` or an en dash) is at `sep` and whose left
/// side (`1`, `0` or `1/2`) lies in the plain run that began at `run_start` and starts a token
/// (the byte before it is not a symbol character): its end. Markers that start with `½` are
/// found at the `½` itself.
#[inline]
fn marker_around(buf: &[u8], run_start: usize, sep: usize) -> Option<usize> {
    for back in [1, 3] {
        let Some(start) = sep.checked_sub(back) else {
            continue;
        };
        if start < run_start {
            continue;
        }
        // Most separators are castling's (`O-O`): one look at the first byte rules them out.
        if !buf.get(start).is_some_and(|&c| starts_marker(c)) {
            continue;
        }
        if start > 0 && buf.get(start - 1).is_some_and(|&c| is_symbol_continue(c)) {
            continue;
        }
        if let Some((n, _)) = match_marker(buf, start) {
            return Some(start + n);
        }
    }
    None
}

/// Whether a termination marker may start with `b` (`1`, `0`, `½` in UTF-8 or Latin-1).
#[inline(always)]
fn starts_marker(b: u8) -> bool {
    matches!(b, b'0' | b'1' | 0xbd | 0xc2)
}

/// How [`scan_movetext_with`] (and the tag section's scan, `game_end_with`) finds the next
/// byte to look at and the end of a brace comment.
#[derive(Clone, Copy)]
pub(crate) struct Scanners {
    /// The next byte of plain movetext to look at ([`movetext_stop`]'s result).
    pub(crate) stop: fn(&[u8], usize) -> usize,
    /// The end of the brace comment opened at the given index ([`comment_end`](crate::shapes::comment_end)'s result).
    pub(crate) comment_end: fn(&[u8], usize) -> (usize, bool),
}

impl Scanners {
    /// The scanners the splitter uses.
    pub(crate) const FAST: Scanners = Scanners {
        stop: next_stop,
        comment_end: skip_comment,
    };

    /// The scanners with nested comments ([`LexOptions::nested_comments`](crate::LexOptions)).
    pub(crate) const NESTED: Scanners = Scanners {
        stop: next_stop,
        comment_end: crate::shapes::nested_comment_end,
    };

    /// The word-by-word scanners they stand for (the tests' reference).
    #[cfg(test)]
    pub(crate) const WORD_BY_WORD: Scanners = Scanners {
        stop: movetext_stop,
        comment_end,
    };
}

/// Scans movetext from `pos` (a token start) the way the lexer reads it, looking only at the
/// bytes that matter: comments, strings, `;` and `%` lines, parentheses, tag lines, and
/// termination markers at token starts.
#[inline(always)]
pub(crate) fn scan_movetext_with(buf: &[u8], mut pos: usize, scanners: Scanners) -> Movetext {
    let len = buf.len();
    let mut depth = 0u32;
    loop {
        // The fast part: letters, digits, white space, periods, suffixes, eight bytes at a time.
        let run_start = pos;
        pos = (scanners.stop)(buf, pos);
        let Some(&b) = buf.get(pos) else {
            return Movetext::End(len);
        };
        match b {
            b'-' | b':' | 0xe2 | 0x96 => match marker_around(buf, run_start, pos) {
                Some(end) if depth == 0 => return Movetext::Marker(end),
                Some(end) => pos = end,
                None if b < 0x80 => pos += 1,
                None => pos += char_len(buf, pos),
            },
            0xbd | 0xc2 => match match_marker(buf, pos) {
                Some((n, _)) if depth == 0 => return Movetext::Marker(pos + n),
                Some((n, _)) => pos += n,
                None => pos += char_len(buf, pos),
            },
            b'{' => match (scanners.comment_end)(buf, pos) {
                (end, true) => pos = end,
                (end, false) => return Movetext::End(end),
            },
            b';' => pos = line_end(buf, pos),
            b'%' if at_line_start(buf, pos) => pos = line_end(buf, pos),
            b'"' => {
                pos = match string_end(buf, pos) {
                    Ok(end) | Err(end) => end.max(pos + 1),
                }
            }
            b'(' => {
                depth += 1;
                pos += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                pos += 1;
            }
            b'*' if depth == 0 => return Movetext::Marker(pos + 1),
            b'$' => {
                pos += 1;
                while buf.get(pos).is_some_and(u8::is_ascii_digit) {
                    pos += 1;
                }
            }
            b'[' if at_line_start(buf, pos) && tag_shape(buf, pos).is_some() => {
                return Movetext::End(pos);
            }
            _ if b >= 0x80 => pos += char_len(buf, pos),
            _ => pos += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branchless_stops_are_the_stops() {
        for b in 0..=255u8 {
            assert_eq!(stops_movetext_branchless(b), stops_movetext(b), "{b:#x}");
        }
    }

    /// Bytes that matter to the movetext and comment scans, often, at every offset.
    fn scan_input() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            6 => prop::sample::select(&b"ab e4.+\"#$%&'()*-:;[{}\t\n\r\x01\x0e\x7f\x80\xbd\xff"[..])
                .prop_map(|b| vec![b]),
            2 => Just(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ".to_vec()),
            1 => Just(b"\n[Event \"".to_vec()),
            1 => Just(b"\r[A \"".to_vec()),
            1 => Just(b"1-0".to_vec()),
        ];
        prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #[test]
        fn fast_scanners_agree_with_word_by_word_ones(body in scan_input(), from in 0usize..40) {
            let from = from.min(body.len());
            proptest::prop_assert_eq!(next_stop(&body, from), movetext_stop(&body, from));
            let comment = [&b"{"[..], &body].concat();
            proptest::prop_assert_eq!(skip_comment(&comment, 0), comment_end(&comment, 0));
        }
    }
}
