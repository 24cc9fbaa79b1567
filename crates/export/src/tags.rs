//! The tag-pair section writer (SPEC-NOTES "Writing", rules 1 and 9).
//!
//! Tags are formatted into their lines in one reusable byte arena as they
//! are read, then written: the Seven Tag Roster first (defaults for missing
//! ones, `Result` always the termination marker), then every other tag in
//! ASCII order of its name (the first of duplicate names wins), one per
//! line, values escaped, then one empty line.

use std::ops::Range;

use crate::options::TagOrder;
use crate::short_copy;

/// The Seven Tag Roster in export order, with the default of each
/// ([`pgnkit_game::SEVEN_TAG_ROSTER`], as bytes).
pub(crate) const ROSTER: [(&[u8], &[u8]); 7] = {
    const R: [(&str, &str); 7] = pgnkit_game::SEVEN_TAG_ROSTER;
    let mut out: [(&[u8], &[u8]); 7] = [(b"", b""); 7];
    let mut i = 0;
    while i < R.len() {
        out[i] = (R[i].0.as_bytes(), R[i].1.as_bytes());
        i += 1;
    }
    out
};

/// Which tags besides the roster are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagFilter {
    /// Every tag (export format).
    All,
    /// Reduced export format: only `SetUp` (when a FEN is written) and
    /// `Variant` (when `variant` is set) besides the roster and the FEN.
    Reduced {
        /// Whether the game needs its `Variant` tag to be replayed.
        variant: bool,
    },
}

impl TagFilter {
    /// Whether the tag `name` (not of the roster, not `FEN`) is written; `fen` says
    /// whether a FEN is.
    fn keeps(self, name: &[u8], fen: bool) -> bool {
        match self {
            TagFilter::All => true,
            TagFilter::Reduced { variant } => {
                (name == b"SetUp" && fen) || (name == b"Variant" && variant)
            }
        }
    }
}

/// The index of the `Result` tag in [`ROSTER`].
const RESULT: usize = 6;

/// The index of `name` in [`ROSTER`], if it is a roster tag.
fn roster_index(name: &[u8]) -> Option<usize> {
    match name {
        b"Event" => Some(0),
        b"Site" => Some(1),
        b"Date" => Some(2),
        b"Round" => Some(3),
        b"White" => Some(4),
        b"Black" => Some(5),
        b"Result" => Some(RESULT),
        _ => None,
    }
}

/// A sort key for a tag name: its first eight bytes, big-endian, zero
/// padded. Comparing keys orders names as comparing the names does, except
/// that equal keys need the names compared; most tag names differ in their
/// first eight bytes, so sorting rarely looks at the names themselves.
fn sort_key(name: &[u8]) -> u64 {
    if let Some(first) = name.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    // A short name, copied without a call into a zeroed chunk.
    let mut chunk = [0u8; 8];
    short_copy::put(&mut chunk, 0, name);
    u64::from_be_bytes(chunk)
}

/// One tag besides the roster: its sort key and its line in the arena,
/// `line..end`, the name ending at `name_end`.
#[derive(Clone, Debug)]
struct Entry {
    key: u64,
    line: usize,
    name_end: usize,
    end: usize,
}

impl Entry {
    /// The tag's name.
    fn name<'a>(&self, arena: &'a [u8]) -> &'a [u8] {
        arena.get(self.line + 1..self.name_end).unwrap_or_default()
    }

    /// Whether the name sorts after `FEN`: told by the key, unless the key
    /// is `FEN`'s.
    fn after_fen(&self, arena: &[u8]) -> bool {
        const FEN_KEY: u64 = u64::from_be_bytes(*b"FEN\0\0\0\0\0");
        self.key > FEN_KEY || (self.key == FEN_KEY && self.name(arena) > b"FEN".as_slice())
    }
}

/// The order of the tags besides the roster, by name, as indices into their
/// list; remembered from one game to the next.
///
/// Why remember it: games from one source carry the same tags in the same
/// order, so sorting them again finds the same order. When the tags' sort
/// keys are those of the last sort, and those were all different (so that
/// the keys alone decide the order), the last order is used again.
#[derive(Clone, Debug, Default)]
struct Order {
    /// Indices into the tag list, in writing order.
    indices: Vec<usize>,
    /// The keys `indices` was found for, in list order, when they were all
    /// different; else empty.
    keys: Vec<u64>,
}

impl Order {
    /// The entries of `others` in ASCII order of their names; a stable sort
    /// keeps duplicate names in read order.
    fn of<'a>(&mut self, arena: &[u8], others: &'a [Entry]) -> impl Iterator<Item = &'a Entry> {
        let n = others.len();
        let known = self.indices.len() == n
            && self.keys.len() == n
            && others.iter().zip(&self.keys).all(|(e, &key)| e.key == key);
        if !known {
            self.indices.clear();
            self.indices.extend(0..n);
            let entry = |i: usize| others.get(i);
            self.indices.sort_by(|&a, &b| match (entry(a), entry(b)) {
                (Some(a), Some(b)) => a
                    .key
                    .cmp(&b.key)
                    .then_with(|| a.name(arena).cmp(b.name(arena))),
                _ => a.cmp(&b),
            });
            self.keys.clear();
            let distinct = self
                .indices
                .windows(2)
                .all(|w| entry(w[0]).map(|e| e.key) != entry(w[1]).map(|e| e.key));
            if distinct {
                self.keys.extend(others.iter().map(|e| e.key));
            }
        }
        self.indices.iter().filter_map(|&i| others.get(i))
    }
}

/// A game's tags, collected for writing. Reuse one across games: clearing
/// keeps the allocations.
///
/// Each tag is formatted into its line when it is added, so writing the
/// section only copies lines. The roster tags are kept in fixed slots
/// (written first, in roster order) and the other tags in a list sorted
/// only when written, so adding a tag costs no search.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagSection {
    /// Tag lines, as written.
    arena: Vec<u8>,
    /// The line of the first value read of each roster tag.
    roster: [Option<Range<usize>>; 7],
    /// Whether a `FEN` tag was read (its value is never written as read).
    fen_read: bool,
    /// The other tags, in read order.
    others: Vec<Entry>,
    /// The order in which `others` are written (kept from game to game).
    order: Order,
    /// The line of the FEN to write (normalised by the caller), replacing
    /// any FEN tag.
    fen: Option<Range<usize>>,
}

impl TagSection {
    /// Forgets all tags.
    pub(crate) fn clear(&mut self) {
        self.arena.clear();
        self.roster = Default::default();
        self.fen_read = false;
        self.others.clear();
        self.fen = None;
    }

    /// Adds a tag (name and unescaped value), after those added before. Of
    /// several tags with one name, the first is written.
    pub(crate) fn push(&mut self, name: &[u8], value: &[u8]) {
        if let Some(i) = roster_index(name) {
            if let Some(slot) = self.roster.get_mut(i)
                && slot.is_none()
            {
                let start = self.arena.len();
                write_tag(&mut self.arena, name, value);
                *slot = Some(start..self.arena.len());
            }
            return;
        }
        if name == b"FEN" {
            self.fen_read = true;
            return;
        }
        let line = self.arena.len();
        write_tag(&mut self.arena, name, value);
        self.others.push(Entry {
            key: sort_key(name),
            line,
            name_end: line + 1 + name.len(),
            end: self.arena.len(),
        });
    }

    /// Sets the tag `name` to `value`, in place of every value added before
    /// (a `Result` value is not written: the marker is; a `FEN` tag is not
    /// set here but by [`TagSection::set_fen`]).
    pub(crate) fn set(&mut self, name: &[u8], value: &[u8]) {
        if let Some(i) = roster_index(name) {
            if let Some(slot) = self.roster.get_mut(i) {
                let start = self.arena.len();
                write_tag(&mut self.arena, name, value);
                *slot = Some(start..self.arena.len());
            }
            return;
        }
        if name != b"FEN" {
            let arena = &self.arena;
            self.others.retain(|e| e.name(arena) != name);
            self.push(name, value);
        }
    }

    /// Whether a `FEN` tag was added.
    pub(crate) fn has_fen(&self) -> bool {
        self.fen_read
    }

    /// Sets the FEN to write in place of any `FEN` tag (`None`: no FEN tag
    /// is written at all).
    pub(crate) fn set_fen(&mut self, fen: Option<&[u8]>) {
        self.fen = fen.map(|fen| {
            let start = self.arena.len();
            write_tag(&mut self.arena, b"FEN", fen);
            start..self.arena.len()
        });
    }

    /// Writes the tag section and the empty line after it, with `result`
    /// (the termination marker) as the `Result` value. Returns the offset in
    /// `out` of that value.
    pub(crate) fn write(&mut self, out: &mut Vec<u8>, result: &[u8], filter: TagFilter) -> usize {
        let arena = &self.arena;
        let mut result_at = 0;
        for (i, ((name, default), slot)) in ROSTER.iter().zip(&self.roster).enumerate() {
            match slot {
                _ if i == RESULT => {
                    result_at = out.len() + b"[Result \"".len();
                    write_tag(out, name, result);
                }
                Some(line) => out.extend_from_slice(arena.get(line.clone()).unwrap_or_default()),
                None => write_tag(out, name, default),
            }
        }

        // Every other tag, FEN included, in ASCII order of its name.
        let fen = self.fen.clone().map(|r| arena.get(r).unwrap_or_default());
        write_others(&mut self.order, arena, &self.others, out, fen, |name| {
            filter.keeps(name, fen.is_some())
        });
        out.push(b'\n');
        result_at
    }
}

impl TagSection {
    /// Writes the tag section in `order` (see [`TagOrder`]) and the empty
    /// line after it, with `result` as the `Result` value; `filter` still
    /// decides which tags besides the roster may be written, and `variant`
    /// tells whether replaying needs the `Variant` tag. Returns the offset
    /// in `out` of the `Result` value (`usize::MAX` when it is not written).
    pub(crate) fn write_ordered(
        &mut self,
        out: &mut Vec<u8>,
        result: &[u8],
        filter: TagFilter,
        order: &TagOrder,
        variant: bool,
    ) -> usize {
        let arena = &self.arena;
        let fen = self.fen.clone().map(|r| arena.get(r).unwrap_or_default());
        let mut result_at = usize::MAX;
        let mut roster_done = [false; 7];
        let mut fen_done = false;
        let allowed = |name: &[u8]| filter.keeps(name, fen.is_some());
        let roster = |i: usize, out: &mut Vec<u8>, result_at: &mut usize| {
            let Some(((name, default), slot)) = ROSTER.get(i).zip(self.roster.get(i)) else {
                return;
            };
            match slot {
                _ if i == RESULT => {
                    *result_at = out.len() + b"[Result \"".len();
                    write_tag(out, name, result);
                }
                Some(line) => out.extend_from_slice(arena.get(line.clone()).unwrap_or_default()),
                None => write_tag(out, name, default),
            }
        };
        let first_named = |name: &[u8]| self.others.iter().find(|e| e.name(arena) == name);
        for name in order.names() {
            let name = name.as_bytes();
            if let Some(i) = roster_index(name) {
                if let Some(done) = roster_done.get_mut(i) {
                    *done = true;
                }
                roster(i, out, &mut result_at);
            } else if name == b"FEN" {
                if let Some(line) = fen {
                    out.extend_from_slice(line);
                }
                fen_done = true;
            } else if allowed(name)
                && let Some(entry) = first_named(name)
            {
                out.extend_from_slice(arena.get(entry.line..entry.end).unwrap_or_default());
            }
        }
        if order.only_listed() {
            // What replaying the game needs is written all the same.
            if let Some(line) = fen.filter(|_| !fen_done) {
                out.extend_from_slice(line);
            }
            for (name, needed) in [(b"SetUp".as_slice(), fen.is_some()), (b"Variant", variant)] {
                if needed
                    && !order.lists(name)
                    && let Some(entry) = first_named(name)
                {
                    out.extend_from_slice(arena.get(entry.line..entry.end).unwrap_or_default());
                }
            }
        } else {
            for (i, done) in roster_done.iter().enumerate() {
                if !done {
                    roster(i, out, &mut result_at);
                }
            }
            let fen = fen.filter(|_| !fen_done);
            write_others(&mut self.order, arena, &self.others, out, fen, |name| {
                allowed(name) && !order.lists(name)
            });
        }
        out.push(b'\n');
        result_at
    }
}

/// Writes the tags besides the roster that `keep` accepts in ASCII order of their
/// names (the first of duplicate names wins), with the `fen` line, when given, at its
/// place in that order.
fn write_others(
    order: &mut Order,
    arena: &[u8],
    others: &[Entry],
    out: &mut Vec<u8>,
    fen: Option<&[u8]>,
    keep: impl Fn(&[u8]) -> bool,
) {
    let mut fen_pending = fen;
    let mut previous: Option<&Entry> = None;
    for entry in order.of(arena, others) {
        // Names with different keys differ: most need no comparison.
        if previous.is_some_and(|p| p.key == entry.key && p.name(arena) == entry.name(arena)) {
            continue;
        }
        previous = Some(entry);
        if let Some(line) = fen_pending
            && entry.after_fen(arena)
        {
            out.extend_from_slice(line);
            fen_pending = None;
        }
        if keep(entry.name(arena)) {
            out.extend_from_slice(arena.get(entry.line..entry.end).unwrap_or_default());
        }
    }
    if let Some(line) = fen_pending {
        out.extend_from_slice(line);
    }
}

/// Whether a tag line cannot hold `b` as it is: `\` and `"` are escaped,
/// TAB, LF and CR become spaces.
fn needs_escape(b: u8) -> bool {
    matches!(b, b'\\' | b'"' | b'\t' | b'\n' | b'\r')
}

/// Writes one tag line, `[Name "value"]`, escaping `\` and `"`. TAB, LF and
/// CR (which a tag line cannot hold) are written as spaces.
pub(crate) fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    let escape = may_need_escape(value);
    if !escape && write_short_tag(out, name, value) {
        return;
    }
    out.reserve(name.len() + value.len() + 6);
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    if escape {
        write_escaped(out, value);
    } else {
        out.extend_from_slice(value);
    }
    out.extend_from_slice(b"\"]\n");
}

/// Writes the tag line of `name` and `value` (which needs no escaping) if
/// it is at most [`short_copy::MAX`] bytes long (most are), assembled in a
/// fixed-size buffer and appended with one copy; returns whether it did.
#[inline]
fn write_short_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) -> bool {
    let n = name.len();
    let mut line = [0u8; short_copy::MAX];
    let len = n + value.len() + 6;
    if len > line.len() {
        return false;
    }
    line[0] = b'[';
    // The name and value fit (checked above), so both copies happen.
    short_copy::put(&mut line, 1, name);
    line[n + 1] = b' ';
    line[n + 2] = b'"';
    short_copy::put(&mut line, n + 3, value);
    line[len - 3] = b'"';
    line[len - 2] = b']';
    line[len - 1] = b'\n';
    let end = out.len() + len;
    out.extend_from_slice(&line);
    out.truncate(end);
    true
}

/// Whether `value` may hold a byte that [`needs_escape`]: a `\\`, a `"` or
/// a control character. Most values hold none: then one check of eight
/// bytes at a time and one copy write them.
fn may_need_escape(value: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = ONES * 0x80;
    // Nonzero iff some byte of `x` is zero (exact as a yes or no).
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let suspect = |x: u64| {
        let control = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        control | has_zero(x ^ (ONES * u64::from(b'"'))) | has_zero(x ^ (ONES * u64::from(b'\\')))
    };
    let Some(last) = value.last_chunk::<8>() else {
        // A short value (`1-0`, `?`, a date's parts), padded with a byte
        // that is not suspect, is checked as one chunk.
        let mut chunk = [b'a'; 8];
        short_copy::put(&mut chunk, 0, value);
        return suspect(u64::from_le_bytes(chunk)) != 0;
    };
    // The chunks, and the last eight bytes for the rest (bytes seen twice
    // change no yes or no).
    let (chunks, _) = value.as_chunks::<8>();
    chunks.iter().chain([last]).fold(0, |found, chunk| {
        found | suspect(u64::from_le_bytes(*chunk))
    }) != 0
}

/// Appends `value` escaped for a tag line.
fn write_escaped(out: &mut Vec<u8>, value: &[u8]) {
    let mut rest = value;
    while let Some(i) = rest.iter().position(|&b| needs_escape(b)) {
        out.extend_from_slice(&rest[..i]);
        match rest[i] {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            _ => out.push(b' '),
        }
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(tags: &[(&str, &str)], result: &str, fen: Option<&str>, filter: TagFilter) -> String {
        let mut section = TagSection::default();
        for (n, v) in tags {
            section.push(n.as_bytes(), v.as_bytes());
        }
        section.set_fen(fen.map(str::as_bytes));
        let mut out = Vec::new();
        section.write(&mut out, result.as_bytes(), filter);
        String::from_utf8(out).expect("UTF-8")
    }

    const DEFAULT_ROSTER: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
        [Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n";

    #[test]
    fn missing_roster_tags_get_defaults() {
        assert_eq!(
            write(&[], "*", None, TagFilter::All),
            format!("{DEFAULT_ROSTER}[Result \"*\"]\n\n")
        );
    }

    #[test]
    fn roster_comes_first_in_order_then_others_in_ascii_order() {
        let tags = [
            ("WhiteElo", "2700"),
            ("Result", "1-0"),
            ("ECO", "C65"),
            ("Black", "B"),
            ("annotator", "lower case sorts after upper case"),
            ("Annotator", "A"),
            ("White", "W"),
            ("Event", "E"),
            ("Round", "3"),
            ("Date", "2024.01.02"),
            ("Site", "S"),
            ("BlackElo", "2600"),
        ];
        let got = write(&tags, "1-0", None, TagFilter::All);
        assert_eq!(
            got,
            "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"3\"]\n\
             [White \"W\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Annotator \"A\"]\n\
             [BlackElo \"2600\"]\n[ECO \"C65\"]\n[WhiteElo \"2700\"]\n\
             [annotator \"lower case sorts after upper case\"]\n\n"
        );
    }

    #[test]
    fn result_is_always_the_marker() {
        let got = write(&[("Result", "1-0")], "0-1", None, TagFilter::All);
        assert!(got.contains("[Result \"0-1\"]\n"));
        assert!(!got.contains("1-0"));
    }

    #[test]
    fn empty_value_is_written_as_read() {
        let got = write(&[("Site", ""), ("Opening", "")], "*", None, TagFilter::All);
        assert!(got.contains("[Site \"\"]\n"));
        assert!(got.contains("[Opening \"\"]\n"));
    }

    #[test]
    fn escaping() {
        let got = write(&[("Event", r#"a "b" \c\"#)], "*", None, TagFilter::All);
        assert!(
            got.starts_with("[Event \"a \\\"b\\\" \\\\c\\\\\"]\n"),
            "{got}"
        );
        let got = write(&[("Event", "tab\there\nline")], "*", None, TagFilter::All);
        assert!(got.starts_with("[Event \"tab here line\"]\n"), "{got}");
    }

    #[test]
    fn duplicate_names_first_wins() {
        let got = write(
            &[
                ("Event", "first"),
                ("Event", "second"),
                ("X", "1"),
                ("X", "2"),
            ],
            "*",
            None,
            TagFilter::All,
        );
        assert!(got.contains("[Event \"first\"]"));
        assert!(got.contains("[X \"1\"]"));
        assert!(!got.contains("second") && !got.contains("[X \"2\"]"));
    }

    #[test]
    fn fen_is_replaced_by_the_normalised_one_and_setup_kept_as_read() {
        let tags = [
            ("SetUp", "1"),
            (
                "FEN",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",
            ),
        ];
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let got = write(&tags, "*", Some(fen), TagFilter::All);
        assert_eq!(
            got,
            format!("{DEFAULT_ROSTER}[Result \"*\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n")
        );
        // No FEN given: the FEN tag is not written; SetUp is still as read.
        let got = write(&tags, "*", None, TagFilter::All);
        assert_eq!(
            got,
            format!("{DEFAULT_ROSTER}[Result \"*\"]\n[SetUp \"1\"]\n\n")
        );
        // SetUp is never added.
        let got = write(&[], "*", Some(fen), TagFilter::All);
        assert_eq!(
            got,
            format!("{DEFAULT_ROSTER}[Result \"*\"]\n[FEN \"{fen}\"]\n\n")
        );
    }

    #[test]
    fn fen_sorts_among_the_other_tags() {
        let got = write(
            &[("Annotator", "a"), ("ECO", "b"), ("Zz", "z")],
            "*",
            Some("F"),
            TagFilter::All,
        );
        assert!(got.ends_with("[Annotator \"a\"]\n[ECO \"b\"]\n[FEN \"F\"]\n[Zz \"z\"]\n\n"));
        let got = write(
            &[("A", "a"), ("FEN", "old"), ("FENx", "b")],
            "*",
            Some("F"),
            TagFilter::All,
        );
        assert!(
            got.ends_with("[A \"a\"]\n[FEN \"F\"]\n[FENx \"b\"]\n\n"),
            "{got}"
        );
    }

    #[test]
    fn reduced_keeps_only_what_replaying_needs() {
        let tags = [
            ("Event", "E"),
            ("ECO", "C00"),
            ("SetUp", "1"),
            ("FEN", "x"),
            ("Variant", "Chess960"),
            ("WhiteElo", "1"),
        ];
        let got = write(
            &tags,
            "1-0",
            Some("F"),
            TagFilter::Reduced { variant: true },
        );
        assert_eq!(
            got,
            "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n[FEN \"F\"]\n\
             [SetUp \"1\"]\n[Variant \"Chess960\"]\n\n"
        );
        let got = write(&tags, "1-0", None, TagFilter::Reduced { variant: false });
        assert!(got.ends_with("[Result \"1-0\"]\n\n"), "{got}");
    }

    #[test]
    fn section_is_reusable() {
        let mut section = TagSection::default();
        section.push(b"Event", b"one");
        section.set_fen(Some(b"F"));
        section.clear();
        section.push(b"Event", b"two");
        let mut out = Vec::new();
        section.write(&mut out, b"*", TagFilter::All);
        let got = String::from_utf8(out).expect("UTF-8");
        assert!(got.starts_with("[Event \"two\"]"));
        assert!(!got.contains("FEN") && !got.contains("one"));
    }

    /// The section of each game in turn, written by one reused section.
    fn games(games: &[&[(&str, &str)]]) -> Vec<String> {
        let mut section = TagSection::default();
        games
            .iter()
            .map(|tags| {
                section.clear();
                for (n, v) in *tags {
                    section.push(n.as_bytes(), v.as_bytes());
                }
                let mut out = Vec::new();
                section.write(&mut out, b"*", TagFilter::All);
                let text = String::from_utf8(out).expect("UTF-8");
                text.strip_prefix(DEFAULT_ROSTER)
                    .and_then(|t| t.strip_prefix("[Result \"*\"]\n"))
                    .expect("the roster first")
                    .to_string()
            })
            .collect()
    }

    #[test]
    fn order_is_found_again_for_each_game() {
        let ab = [("B", "1"), ("A", "2")];
        let ba = [("A", "3"), ("B", "4")];
        // Names alike in their first eight bytes have equal sort keys.
        let long = [("WhiteTeamB", "1"), ("WhiteTeamA", "2")];
        let long_swapped = [("WhiteTeamA", "3"), ("WhiteTeamB", "4")];
        let twice = [("X", "first"), ("X", "second")];
        let got = games(&[
            &ab,
            &ab,
            &ba,
            &long,
            &long_swapped,
            &long,
            &twice,
            &twice,
            &[],
            &ab,
        ]);
        assert_eq!(
            got,
            [
                "[A \"2\"]\n[B \"1\"]\n\n",
                "[A \"2\"]\n[B \"1\"]\n\n",
                "[A \"3\"]\n[B \"4\"]\n\n",
                "[WhiteTeamA \"2\"]\n[WhiteTeamB \"1\"]\n\n",
                "[WhiteTeamA \"3\"]\n[WhiteTeamB \"4\"]\n\n",
                "[WhiteTeamA \"2\"]\n[WhiteTeamB \"1\"]\n\n",
                "[X \"first\"]\n\n",
                "[X \"first\"]\n\n",
                "\n",
                "[A \"2\"]\n[B \"1\"]\n\n",
            ]
        );
    }

    #[test]
    fn write_returns_where_the_result_value_is() {
        let mut section = TagSection::default();
        section.push(b"Result", b"1-0");
        let mut out = b"before".to_vec();
        let at = section.write(&mut out, b"*", TagFilter::All);
        assert_eq!(out.get(at), Some(&b'*'));
        assert!(out[..at].ends_with(b"\n[Result \""));
    }

    #[test]
    fn after_fen_is_the_name_order() {
        for name in [
            &b"FEN"[..],
            b"FE",
            b"FEN2",
            b"FENX",
            b"FEM",
            b"Fa",
            b"ECO",
            b"",
            b"FEN\0",
            b"FEN\0\0\0\0\0\x01",
            b"FEN\0\0\0\0\0",
        ] {
            let mut arena = Vec::new();
            write_tag(&mut arena, name, b"v");
            let entry = Entry {
                key: sort_key(name),
                line: 0,
                name_end: 1 + name.len(),
                end: arena.len(),
            };
            assert_eq!(
                entry.after_fen(&arena),
                name > b"FEN".as_slice(),
                "{name:?}"
            );
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn sort_keys_order_names_as_the_names_do(
                a in prop::collection::vec(any::<u8>(), 0..12),
                b in prop::collection::vec(any::<u8>(), 0..12),
            ) {
                let (ka, kb) = (sort_key(&a), sort_key(&b));
                if ka != kb {
                    prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
                }
                if a.len() <= 8 && b.len() <= 8 && !a.contains(&0) && !b.contains(&0) {
                    prop_assert_eq!(ka == kb, a == b);
                }
            }

            #[test]
            fn values_to_escape_are_never_missed(value in prop::collection::vec(any::<u8>(), 0..40)) {
                let needs = value.iter().any(|&b| needs_escape(b));
                let suspect = value.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
                prop_assert!(!needs || may_need_escape(&value));
                prop_assert_eq!(may_need_escape(&value), suspect);
            }
        }
    }
}
