//! The tag-pair section writer (SPEC-NOTES "Writing", rules 1 and 9).
//!
//! Tags are collected into one reusable byte arena in the order they were
//! read, then written: the Seven Tag Roster first (defaults for missing
//! ones, `Result` always the termination marker), then every other tag in
//! ASCII order of its name (the first of duplicate names wins), one per
//! line, values escaped, then one empty line.

use std::ops::Range;

/// The Seven Tag Roster in export order, with the default of each.
pub(crate) const ROSTER: [(&[u8], &[u8]); 7] = [
    (b"Event", b"?"),
    (b"Site", b"?"),
    (b"Date", b"????.??.??"),
    (b"Round", b"?"),
    (b"White", b"?"),
    (b"Black", b"?"),
    (b"Result", b"*"),
];

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

/// One tag: ranges of its name and value in the arena.
#[derive(Clone, Debug)]
struct Entry {
    name: Range<usize>,
    value: Range<usize>,
}

/// A game's tags, collected for writing. Reuse one across games: clearing
/// keeps the allocations.
#[derive(Clone, Debug, Default)]
pub(crate) struct TagSection {
    arena: Vec<u8>,
    entries: Vec<Entry>,
    order: Vec<usize>,
    /// The FEN to write (normalised by the caller), replacing any FEN tag.
    fen: Option<Range<usize>>,
}

impl TagSection {
    /// Forgets all tags.
    pub(crate) fn clear(&mut self) {
        self.arena.clear();
        self.entries.clear();
        self.order.clear();
        self.fen = None;
    }

    /// Adds a tag (name and unescaped value), after those added before.
    pub(crate) fn push(&mut self, name: &[u8], value: &[u8]) {
        let start = self.arena.len();
        self.arena.extend_from_slice(name);
        let mid = self.arena.len();
        self.arena.extend_from_slice(value);
        self.entries.push(Entry {
            name: start..mid,
            value: mid..self.arena.len(),
        });
    }

    /// The first value of the tag `name`, if any.
    pub(crate) fn get(&self, name: &[u8]) -> Option<&[u8]> {
        self.entries
            .iter()
            .find(|e| &self.arena[e.name.clone()] == name)
            .map(|e| &self.arena[e.value.clone()])
    }

    /// Sets the FEN to write in place of any `FEN` tag (`None`: no FEN tag
    /// is written at all).
    pub(crate) fn set_fen(&mut self, fen: Option<&[u8]>) {
        self.fen = fen.map(|fen| {
            let start = self.arena.len();
            self.arena.extend_from_slice(fen);
            start..self.arena.len()
        });
    }

    /// Writes the tag section and the empty line after it, with `result`
    /// (the termination marker) as the `Result` value.
    pub(crate) fn write(&mut self, out: &mut Vec<u8>, result: &[u8], filter: TagFilter) {
        for (name, default) in ROSTER {
            let value = if name == b"Result" {
                result
            } else {
                self.get(name).unwrap_or(default)
            };
            write_tag(out, name, value);
        }

        // Every other tag, FEN included, in ASCII order of its name; a stable
        // sort keeps duplicates in read order so the first one wins.
        self.order.clear();
        self.order.extend(0..self.entries.len());
        let (arena, entries) = (&self.arena, &self.entries);
        self.order
            .sort_by(|&a, &b| arena[entries[a].name.clone()].cmp(&arena[entries[b].name.clone()]));
        let fen = self.fen.clone().map(|r| &self.arena[r]);
        let mut fen_written = fen.is_none();
        let mut previous: Option<&[u8]> = None;
        for &i in &self.order {
            let name = &self.arena[self.entries[i].name.clone()];
            if previous == Some(name) {
                continue;
            }
            previous = Some(name);
            if ROSTER.iter().any(|(r, _)| *r == name) {
                continue;
            }
            if !fen_written && name >= b"FEN".as_slice() {
                if let Some(fen) = fen {
                    write_tag(out, b"FEN", fen);
                }
                fen_written = true;
            }
            if name == b"FEN" {
                continue;
            }
            let keep = match filter {
                TagFilter::All => true,
                TagFilter::Reduced { variant } => {
                    (name == b"SetUp" && fen.is_some()) || (name == b"Variant" && variant)
                }
            };
            if keep {
                write_tag(out, name, &self.arena[self.entries[i].value.clone()]);
            }
        }
        if !fen_written && let Some(fen) = fen {
            write_tag(out, b"FEN", fen);
        }
        out.push(b'\n');
    }
}

/// Writes one tag line, `[Name "value"]`, escaping `\` and `"`. TAB, LF and
/// CR (which a tag line cannot hold) are written as spaces.
pub(crate) fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    let mut rest = value;
    while let Some(i) = rest
        .iter()
        .position(|&b| matches!(b, b'\\' | b'"' | b'\t' | b'\n' | b'\r'))
    {
        out.extend_from_slice(&rest[..i]);
        match rest[i] {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'"' => out.extend_from_slice(b"\\\""),
            _ => out.push(b' '),
        }
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.extend_from_slice(b"\"]\n");
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
}
