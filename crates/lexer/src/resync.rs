//! Where a game may start, judged from the text around an arbitrary offset: the rule that byte
//! ranges resynchronise with (`pgnkit-input`'s range readers, [`next_point`] in a buffer), and
//! the looser one the parallel reader cuts its batches with ([`next_cut`],
//! [`Reader::next_block`](crate::Reader::next_block)), whose cuts the splitter confirms, in
//! this one place.
//!
//! # The rule
//!
//! A *resynchronisation point* is the start of a line (after LF, CR or CR LF, or the file's
//! start; a UTF-8 byte order mark at the file's start is passed over) that
//!
//! 1. starts like a tag pair, as the splitter has it: `[` in the first column, a tag name,
//!    optional spaces or tabs, `"`; and
//! 2. follows a line that *closes a game*: the last line before it that is not blank (white
//!    space only) ends, outside `{}` comments closed on that line, in a termination marker
//!    (`1-0`, `0-1`, `1/2-1/2`, `*`) standing as a word, and holds no `;`, no `"` and no `}`
//!    without its `{` outside comments, and does not start with `[` or `%` (nor with control
//!    characters before a `[`, which the splitter passes over in a tag section). At the file's
//!    start (nothing but white space before) the first condition is enough.
//!
//! Every resynchronisation point is a game start for the splitter when it reads from the
//! file's start ([`split`](crate::split): after movetext, a line that starts like a tag pair
//! begins a new game; a comment still open there is cut there), so a reader that starts at such
//! a point splits the rest of the file exactly as a reader from the start does. The parallel
//! reader does not take this on trust: each batch cut at a point is checked by the splitter
//! ([`ends_at`](crate::split::ends_at)), and a batch whose end it does not confirm is
//! read again together with the next one.
//!
//! # Where it differs from reading from the start
//!
//! Some game starts are not resynchronisation points; a range reader does not stop at them and
//! the next range does not start at them, so such games go with the range before (each game
//! is still read once, and the ranges' games together are the file's):
//!
//! - a game without tags (after a termination marker, `1-0 1. e4 ...`), or one whose tag line
//!   comes after a marker on the same line (`1-0 [Event "x"]`);
//! - a game after a game without a termination marker, after a line that ends in a comment
//!   opened on an earlier line, or after a line that ends inside a `;` comment;
//! - a game after a line whose termination marker comes before the line's first `}` (`1-0
//!   {White wins}`): the line could start inside a comment that `}` closes;
//! - a second tag section split by a repeated tag name (ChessBase's empty lines).
//!
//! The conservative second condition is what keeps a tag pair after a comment in a tag
//! section (`[Event "x"]`, `{note}`, `[Site "y"]`: one game), a `[` line inside a tag
//! section and a line inside a multi-line comment from being taken for a game start. In a
//! pzstd file a frame may start anywhere in a line, so a range reader judges no frame's first
//! (partial) line: the line before a range's first frame is read from the frame before, or from
//! further back when no whole line is seen there before the first line that starts like a tag
//! pair, so that a range starts exactly where the range before it stops.

use std::io::{self, BufRead};

/// What the last non-blank line before a line was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Before {
    /// Nothing but white space before: the file's start.
    FileStart,
    /// A line that closes a game.
    Closing,
    /// Anything else, or unknown.
    Other,
}

impl Before {
    /// The state after the non-blank `line`.
    pub fn after(line: &[u8]) -> Before {
        if closes_game(line) {
            Before::Closing
        } else {
            Before::Other
        }
    }
}

/// Whether `line` (a whole line, its line end optional) starts like a tag pair.
pub fn starts_like_tag_pair(line: &[u8]) -> bool {
    let line = line.strip_prefix(crate::byte_class::BOM).unwrap_or(line);
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name == 0 {
        return false;
    }
    let rest = rest.get(name..).unwrap_or_default();
    let spaces = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    rest.get(spaces) == Some(&b'"')
}

/// Whether the line at a line start is a resynchronisation point after `before`.
pub fn is_point(line: &[u8], before: Before) -> bool {
    before != Before::Other && starts_like_tag_pair(line)
}

/// White space as the splitter sees it.
pub fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Whether `line` is blank.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_ws(b))
}

/// Whether the non-blank `line` closes a game (see the module's rule).
///
/// A Lichess game's movetext is one line of a few kilobytes, and the range readers ask this of
/// every game's last line: the line is passed over with `memchr`, stopping only at `{`, `}`,
/// `;` and `"`. The last word outside comments (each comment counts as a space) lies in the
/// last part outside comments that is not blank.
///
/// The line may also start inside a comment opened on an earlier line: then its first `}`
/// closes that comment and any `{` before it is comment text (`1-0{}` after a line `{{` is all
/// comment). So a line with a `}` closes a game only when the part after its first `}` does
/// too, read either way.
pub fn closes_game(line: &[u8]) -> bool {
    closes_game_from_outside(line)
        && memchr::memchr(b'}', line)
            .is_none_or(|close| closes_game_from_outside(line.get(close + 1..).unwrap_or_default()))
}

/// [`closes_game`] for a line read as starting outside any comment.
fn closes_game_from_outside(line: &[u8]) -> bool {
    let line = trim(line);
    // Control characters before a `[` leave the splitter in a tag section (it passes over
    // them there): such a line is a tag line, not the end of a game.
    let first = line
        .iter()
        .find(|&&b| !crate::byte_class::is_control(b) && !is_ws(b));
    if matches!(line.first(), Some(b'[' | b'%') | None) || first == Some(&b'[') {
        return false;
    }
    let mut last_part: &[u8] = &[];
    let mut rest = line;
    loop {
        // Outside a comment: up to the next `{`, or the line's end.
        let (part, comment) = match memchr::memchr3(b'{', b';', b'"', rest) {
            Some(i) if rest.get(i) == Some(&b'{') => (
                rest.get(..i).unwrap_or_default(),
                Some(rest.get(i + 1..).unwrap_or_default()),
            ),
            Some(_) => return false,
            None => (rest, None),
        };
        if memchr::memchr(b'}', part).is_some() {
            return false;
        }
        if !is_blank(part) {
            last_part = part;
        }
        let Some(comment) = comment else {
            break;
        };
        // Inside: up to its `}`, which must be on this line.
        let Some(close) = memchr::memchr(b'}', comment) else {
            return false;
        };
        rest = comment.get(close + 1..).unwrap_or_default();
    }
    let last_part = trim(last_part);
    let word_start = last_part
        .iter()
        .rposition(|&b| is_ws(b))
        .map_or(0, |i| i + 1);
    matches!(
        last_part.get(word_start..),
        Some(b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
    )
}

fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = bytes
        && is_ws(*first)
    {
        bytes = rest;
    }
    while let [rest @ .., last] = bytes
        && is_ws(*last)
    {
        bytes = rest;
    }
    bytes
}

/// The first resynchronisation point in `buf` at or after `from`, where `buf` starts at a game
/// start (a line before the point is judged only when all of it is in `buf` after a line end,
/// so a point's line before must lie in `buf`): `Ok(pos)` is that point's `[`. `Err(again)`
/// when there is none yet: search again from `again` once more bytes are in (with `complete`,
/// the end of the input, there are none: `Err(buf.len())`). The point's own line is looked at
/// only when whole in `buf` (or `complete`). A few lines are looked at for each point found:
/// the search jumps between `[` bytes with memchr.
pub fn next_point(buf: &[u8], from: usize, complete: bool) -> Result<usize, usize> {
    next_tag_line_after(buf, from, complete, closes_game)
}

/// Where the parallel reader cuts its batches: [`next_point`] with a looser second condition,
/// the last non-blank line before the tag line (whole in `buf`) does not start with `[` or
/// `%` (it is not a tag pair of the same tag section; a game ending in a comment opened on an
/// earlier line, as engine games often do, is cut after too). Such a line is a game start for
/// the splitter in every case of the first condition but a tag pair after a comment in a tag
/// section (`[Event "x"]`, `{note}`, `[Site "y"]`) and a line that continues a tag value; a
/// cut is therefore always confirmed by the splitter (see
/// [`Reader::next_block`](crate::Reader::next_block)), and a cut it does not confirm costs a
/// second reading of the batch, not a game.
pub fn next_cut(buf: &[u8], from: usize, complete: bool) -> Result<usize, usize> {
    next_tag_line_after(buf, from, complete, cut_after)
}

/// The last cut of [`next_cut`]'s rule in `buf` at or after `from`, found from the end (so
/// that a block read to a fixed size ends at the start of the game its end cuts, and only that
/// game's first part moves to the next buffer): the cut that calling [`next_cut`] from each
/// cut found on would end with. `None` when there is none. A line cut by the end of `buf` is
/// judged only when `complete` (as [`next_cut`] does, which stops there).
///
/// ```
/// use pgnkit_lexer::resync::{last_cut, next_cut};
/// let pgn = b"[Event \"a\"]\n1. e4 *\n[Event \"b\"]\n1. d4 *\n[Event \"c\"]\n1. c4";
/// assert_eq!(next_cut(pgn, 1, false), Ok(20));
/// assert_eq!(last_cut(pgn, 1, false), Some(40));
/// assert_eq!(last_cut(&pgn[..45], 1, false), Some(20));
/// assert_eq!(last_cut(pgn, 41, true), None);
/// ```
pub fn last_cut(buf: &[u8], from: usize, complete: bool) -> Option<usize> {
    let from = from.max(1);
    let mut end = buf.len();
    while end > from {
        let open = from + memchr::memrchr(b'[', buf.get(from..end)?)?;
        end = open;
        if !matches!(buf.get(open - 1), Some(b'\n' | b'\r')) {
            continue;
        }
        let rest = buf.get(open..).unwrap_or_default();
        let line = match memchr::memchr2(b'\n', b'\r', rest) {
            Some(line_end) => rest.get(..=line_end).unwrap_or_default(),
            None if complete => rest,
            None => continue,
        };
        if starts_like_tag_pair(line) && line_before(buf, open).is_some_and(cut_after) {
            return Some(open);
        }
    }
    None
}

/// [`next_cut`]'s second condition: the last non-blank line before a cut does not start with
/// `[` or `%`.
fn cut_after(line: &[u8]) -> bool {
    !matches!(trim(line).first(), Some(b'[' | b'%'))
}

/// The first line start in `buf` at or after `from` that starts like a tag pair and whose last
/// non-blank line before is whole in `buf` and `accepted` (see [`next_point`]).
fn next_tag_line_after(
    buf: &[u8],
    from: usize,
    complete: bool,
    accepted: impl Fn(&[u8]) -> bool,
) -> Result<usize, usize> {
    let mut at = from.max(1);
    while let Some(found) = buf.get(at..).and_then(|rest| memchr::memchr(b'[', rest)) {
        let open = at + found;
        if matches!(buf.get(open - 1), Some(b'\n' | b'\r')) {
            let rest = buf.get(open..).unwrap_or_default();
            let line = match memchr::memchr2(b'\n', b'\r', rest) {
                Some(end) => rest.get(..=end).unwrap_or_default(),
                None if complete => rest,
                None => return Err(open),
            };
            if starts_like_tag_pair(line) && line_before(buf, open).is_some_and(&accepted) {
                return Ok(open);
            }
        }
        at = open + 1;
    }
    Err(buf.len().max(from))
}

/// The last non-blank line before the line start `at`, when it is whole in `buf` after a line
/// end.
fn line_before(buf: &[u8], at: usize) -> Option<&[u8]> {
    let mut end = at;
    // `buf[end - 1]` is the line end of the line before `end`.
    while let Some(body_end) = end.checked_sub(1) {
        let before = buf.get(..body_end).unwrap_or_default();
        let start = memchr::memrchr2(b'\n', b'\r', before)? + 1;
        let line = buf.get(start..body_end).unwrap_or_default();
        if !is_blank(line) {
            return Some(line);
        }
        end = start;
    }
    None
}

/// Lines of a stream with their offsets; a CR LF is read as a CR line end and an empty line,
/// which changes nothing for the rule (empty lines are blank).
#[derive(Debug)]
pub struct Lines<R> {
    inner: R,
    pos: u64,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `inner`, whose first byte is at offset `pos`.
    pub fn new(inner: R, pos: u64) -> Lines<R> {
        Lines { inner, pos }
    }

    /// Reads the next line (with its line end) into `line`; returns its offset, or `None` at
    /// the end.
    pub fn next_line(&mut self, line: &mut Vec<u8>) -> io::Result<Option<u64>> {
        line.clear();
        let start = self.pos;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok((!line.is_empty()).then_some(start));
            }
            let (take, done) = match memchr::memchr2(b'\n', b'\r', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            line.extend_from_slice(available.get(..take).unwrap_or_default());
            self.inner.consume(take);
            self.pos += take as u64;
            if done {
                return Ok(Some(start));
            }
        }
    }

    /// The stream, after the lines read.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

/// Tracks, over the bytes of consecutive games, the state [`Before`] the next line and
/// whether the next byte starts a line.
///
/// The range readers feed it every game but ask [`is_point`](Tracker::is_point) about one
/// game in a range, so it keeps the last non-blank line and judges it only when asked: a
/// Lichess game's last line is its whole movetext.
#[derive(Debug)]
pub struct Tracker {
    /// The current line's bytes so far (since the last line end).
    carry: Vec<u8>,
    /// The state before the first line fed, until a non-blank line is seen.
    before: Before,
    /// The last non-blank complete line, when there is one: the state is [`Before::after`] it.
    last: Option<Vec<u8>>,
}

impl Tracker {
    /// A tracker at a line start with `before`.
    pub fn new(before: Before) -> Tracker {
        Tracker {
            carry: Vec::new(),
            before,
            last: None,
        }
    }

    /// Whether a game starting here (at the end of the bytes seen) is a resynchronisation
    /// point: `first_line` is its first line.
    pub fn is_point(&self, first_line: &[u8]) -> bool {
        let before = match &self.last {
            Some(line) => Before::after(line),
            None => self.before,
        };
        self.carry.is_empty() && is_point(first_line, before)
    }

    /// Passes over `bytes`.
    pub fn feed(&mut self, bytes: &[u8]) {
        let Some(last_end) = memchr::memrchr2(b'\n', b'\r', bytes) else {
            self.carry.extend_from_slice(bytes);
            return;
        };
        let whole = bytes.get(..last_end).unwrap_or_default();
        // The last non-blank line among the complete ones: scan back line by line.
        let mut end = whole.len();
        loop {
            let start = memchr::memrchr2(b'\n', b'\r', whole.get(..end).unwrap_or_default());
            let part = whole
                .get(start.map_or(0, |i| i + 1)..end)
                .unwrap_or_default();
            match start {
                Some(i) => {
                    if !is_blank(part) {
                        self.keep_last(part);
                        break;
                    }
                    end = i;
                }
                None => {
                    // The first line began in `carry`: whole now, it becomes the last line
                    // (`carry` is cleared below).
                    self.carry.extend_from_slice(part);
                    if !is_blank(&self.carry) {
                        std::mem::swap(self.last.get_or_insert_with(Vec::new), &mut self.carry);
                    }
                    break;
                }
            }
        }
        self.carry.clear();
        self.carry
            .extend_from_slice(bytes.get(last_end + 1..).unwrap_or_default());
    }

    /// Keeps `line` as the last non-blank line.
    fn keep_last(&mut self, line: &[u8]) {
        let last = self.last.get_or_insert_with(Vec::new);
        last.clear();
        last.extend_from_slice(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_close_a_game() {
        for line in [
            "1. e4 e5 1-0",
            "23. Qxf7# 1-0\n",
            "1. e4 { [%eval 0.2] } 1... e5 { [%clk 0:03:00] } 0-1",
            "*",
            "41. Kg2 1/2-1/2 ",
        ] {
            assert!(closes_game(line.as_bytes()), "{line}");
        }
        for line in [
            "[Result \"1-0\"]",
            "{ he won 1-0 }",
            "the game ended 1-0 }",
            "1. e4 { open comment 1-0",
            "1. e4 ; 1-0",
            "% 1-0",
            "2. Nf3 Nc6",
            "01-0",
            // The line may start inside a comment its first `}` closes.
            "1-0{}",
            "1-0 {White wins}",
        ] {
            assert!(!closes_game(line.as_bytes()), "{line}");
        }
    }

    /// The rule as first written, read from the line's start and from after its first `}`
    /// (see [`closes_game`]).
    fn closes_game_either_way(line: &[u8]) -> bool {
        closes_game_by_bytes(line)
            && line
                .iter()
                .position(|&b| b == b'}')
                .is_none_or(|close| closes_game_by_bytes(&line[close + 1..]))
    }

    /// The rule as first written: the line outside comments built byte by byte (each comment
    /// a space), then its last word.
    fn closes_game_by_bytes(line: &[u8]) -> bool {
        let line = trim(line);
        if matches!(line.first(), Some(b'[' | b'%') | None) {
            return false;
        }
        let mut start = line
            .iter()
            .skip_while(|&&b| b == 0x05 || b == 0 || is_ws(b));
        if start.next() == Some(&b'[') {
            return false;
        }
        let mut outside = Vec::new();
        let mut in_comment = false;
        for &b in line {
            match (in_comment, b) {
                (false, b'{') => {
                    in_comment = true;
                    outside.push(b' ');
                }
                (true, b'}') => in_comment = false,
                (true, _) => {}
                (false, b'}' | b';' | b'"') => return false,
                (false, _) => outside.push(b),
            }
        }
        if in_comment {
            return false;
        }
        let outside = trim(&outside);
        let word_start = outside.iter().rposition(|&b| is_ws(b)).map_or(0, |i| i + 1);
        matches!(
            outside.get(word_start..),
            Some(b"1-0" | b"0-1" | b"1/2-1/2" | b"*")
        )
    }

    #[test]
    fn closing_lines_as_the_rule_first_written() {
        // Every line of up to 5 bytes over the bytes that matter, and the markers in context.
        let alphabet = b"{};\" *1-0/2[%\t\x05";
        let mut line = Vec::new();
        let mut closing = 0;
        let mut count = 0;
        for len in 0..=5u32 {
            for mut n in 0..alphabet.len().pow(len) {
                line.clear();
                for _ in 0..len {
                    line.push(alphabet[n % alphabet.len()]);
                    n /= alphabet.len();
                }
                let want = closes_game_either_way(&line);
                assert_eq!(
                    closes_game(&line),
                    want,
                    "{:?}",
                    String::from_utf8_lossy(&line)
                );
                closing += usize::from(want);
                count += 1;
            }
        }
        assert!(closing > 100 && count > 500_000, "{closing} of {count}");
        for line in [
            "1-0 {x}",
            "1. e4 {a} {b} 0-1 { c }",
            "{a}1/2-1/2",
            "1-{x}0",
            "* {a",
            "1. e4 {a}} 1-0",
            "1. e4 {\"} 1-0",
            // Found by the `ranges` fuzz target: control characters before a `[` are a tag
            // line for the splitter, whatever follows.
            "\x05[\u{bb}] x 1/2-1/2",
            "\x05 1. e4 1-0",
        ] {
            let want = closes_game_either_way(line.as_bytes());
            assert_eq!(closes_game(line.as_bytes()), want, "{line}");
        }
    }

    proptest::proptest! {
        #[test]
        fn closing_lines_as_the_rule_first_written_longer(
            line in proptest::collection::vec(proptest::sample::select(
                b"{};\" *1-0/2[%\tae4.\n\x05\0".to_vec()), 0..60),
        ) {
            proptest::prop_assert_eq!(closes_game(&line), closes_game_either_way(&line));
        }
    }

    #[test]
    fn tag_pair_shapes() {
        assert!(starts_like_tag_pair(b"[Event \"x\"]\n"));
        assert!(starts_like_tag_pair(b"\xef\xbb\xbf[Event\t\"x\"]"));
        assert!(!starts_like_tag_pair(b" [Event \"x\"]"));
        assert!(!starts_like_tag_pair(b"[%clk 0:01]"));
        assert!(!starts_like_tag_pair(b"[Event x]"));
    }

    #[test]
    fn the_tracker_sees_lines_across_games() {
        let mut tracker = Tracker::new(Before::FileStart);
        tracker.feed(b"[Event \"a\"]\n\n1. e4 ");
        assert!(!tracker.is_point(b"[Event \"b\"]"), "mid-line");
        tracker.feed(b"1-0\r\n\r\n");
        assert!(tracker.is_point(b"[Event \"b\"]"));
        tracker.feed(b"[Event \"b\"]\n{note}\n");
        assert!(!tracker.is_point(b"[Site \"b\"]"));
        // A closing line fed in pieces, then blank lines in pieces.
        tracker.feed(b"1. e4 1-");
        tracker.feed(b"0");
        assert!(!tracker.is_point(b"[Event \"c\"]"), "mid-line");
        tracker.feed(b"\n  ");
        tracker.feed(b"\n");
        assert!(tracker.is_point(b"[Event \"c\"]"));
        tracker.feed(b"{a\n");
        assert!(!tracker.is_point(b"[Event \"d\"]"));
    }

    #[test]
    fn points_in_a_buffer() {
        let buf = b"[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n[Site \"c\"]\n*\r\n[Event \"d\"]";
        let b = 24;
        assert_eq!(&buf[b..b + 6], b"[Event");
        assert_eq!(next_point(buf, 0, false), Ok(b));
        assert_eq!(next_point(buf, b + 1, true), Ok(buf.len() - 11));
        // The last point's line is not whole: more bytes are needed.
        assert_eq!(next_point(buf, b + 1, false), Err(buf.len() - 11));
        // A tag line after a tag line, or in a comment after a line that does not close.
        let buf = b"1. e4 {\nx\n[Event \"b\"]\n}";
        assert_eq!(next_point(buf, 0, true), Err(buf.len()));
        // The line before must be whole in the buffer, after a line end.
        assert_eq!(next_point(b"1-0\n[Event \"b\"]\n", 0, true), Err(16));
        assert_eq!(next_point(b"\n1-0\n[Event \"b\"]\n", 0, true), Ok(5));
        // Cuts: after a comment closed on a later line too, never in a tag section.
        let buf = b"\n1. e4 {a\nb} 1-0\n\n[Event \"b\"]\n[Site \"c\"]\n%x\n[Round \"d\"]\n";
        assert_eq!(next_point(buf, 0, true), Err(buf.len()));
        assert_eq!(next_cut(buf, 0, true), Ok(18));
        assert_eq!(next_cut(buf, 19, true), Err(buf.len()));
    }

    /// The last cut `next_cut` gives when called from each cut it found on.
    fn last_by_next_cut(buf: &[u8], from: usize, complete: bool) -> Option<usize> {
        let mut last = None;
        let mut at = from;
        while let Ok(cut) = next_cut(buf, at, complete) {
            last = Some(cut);
            at = cut + 1;
        }
        last
    }

    #[test]
    fn the_last_cut_is_the_last_of_next_cut() {
        let buf = b"\n1. e4 {a\nb} 1-0\n\n[Event \"b\"]\n[Site \"c\"]\n%x\n[Round \"d\"]\n1. d4 \
            { [%clk 0:01] }\n[x\n*\r\n\r\n[Event \"e\"]\r[Site \"f\"]\r\r1. c4 *\r[Event \"g\"]";
        let mut checked = 0;
        for end in 0..=buf.len() {
            let window = &buf[..end];
            for from in 0..=end {
                for complete in [false, true] {
                    let want = last_by_next_cut(window, from, complete);
                    assert_eq!(last_cut(window, from, complete), want, "{end} {from}");
                    checked += usize::from(want.is_some());
                }
            }
        }
        assert!(checked > 1000, "{checked} cuts found");
    }

    #[test]
    fn lines_keep_their_offsets() {
        let mut lines = Lines::new(&b"a\r\nb\rc"[..], 10);
        let mut line = Vec::new();
        let mut seen = Vec::new();
        while let Some(at) = lines.next_line(&mut line).expect("slice") {
            seen.push((at, String::from_utf8(line.clone()).expect("ascii")));
        }
        let expected = [(10, "a\r"), (12, "\n"), (13, "b\r"), (15, "c")];
        let expected: Vec<_> = expected.iter().map(|(a, s)| (*a, s.to_string())).collect();
        assert_eq!(seen, expected);
    }
}
