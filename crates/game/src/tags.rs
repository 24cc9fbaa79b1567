//! Tag pairs of a game, kept in the order they were read.
//!
//! Names are case-sensitive (`Event` and `event` are two tags). A name can
//! appear only once. [`Tags::insert`] follows `HashMap::insert`: it
//! replaces the value (in place) and returns the old one;
//! [`Tags::insert_new`] keeps the first value, as the reader does with a
//! duplicate tag (and warns).
//!
//! [`clean_tags`] reads a game's tag section straight from its bytes, without
//! lexing its movetext, when the reader would report nothing on it.

use std::fmt;

/// The Seven Tag Roster in export order, each with the value export format
/// writes when a game lacks it (`Result`'s is the marker of an unknown
/// result). The one list of the workspace: the export writer, game equality
/// and the Python package's headers use it.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];
use std::hash::{Hash, Hasher};

use pgnkit_lexer::LexOptions;

use crate::encoding::{Encoding, decode_into};
use crate::game_start::GameStart;

/// The tag pairs of a game, ordered as read.
///
/// ```
/// use pgnkit_game::Tags;
/// let mut tags = Tags::new();
/// assert_eq!(tags.insert("Event", "Casual"), None);
/// assert_eq!(tags.insert("Event", "Open"), Some("Casual".to_owned())); // like HashMap
/// assert!(!tags.insert_new("Event", "Other")); // the reader's rule: the first value wins
/// assert_eq!(tags.get("Event"), Some("Open"));
/// tags.insert("WhiteElo", "2650");
/// assert_eq!(tags.white_elo(), Some(2650));
/// assert_eq!(tags.white(), None);
/// ```
///
/// With serde, tags are a map from name to value, in order:
///
/// ```
/// # use pgnkit_game::Tags;
/// let tags: Tags = [("White", "Réti"), ("Black", "Bogoljubov")].into_iter().collect();
/// let json = serde_json::to_string(&tags).unwrap();
/// assert_eq!(json, r#"{"White":"Réti","Black":"Bogoljubov"}"#);
/// assert_eq!(serde_json::from_str::<Tags>(&json).unwrap(), tags);
/// ```
#[derive(Clone, Default)]
pub struct Tags {
    /// Every name and value, back to back in order: one allocation for a
    /// game's whole tag section instead of two for each pair.
    text: String,
    /// For each pair, where its name ends and where its value ends in
    /// `text`; its name starts where the previous pair's value ends.
    ends: Vec<(usize, usize)>,
    /// The [`name_bit`] of every name, or-ed: a clear bit means no name
    /// with that bit is present, which settles most duplicate checks
    /// without walking the names.
    names: u64,
}

/// One of 64 bits for a tag name, from its length, first and last byte
/// (cheap, and rarely shared by the names of one game).
#[inline]
fn name_bit(name: &[u8]) -> u64 {
    let first = name.first().copied().unwrap_or(0);
    let last = name.last().copied().unwrap_or(0);
    let key = (name.len() as u32 & 0xffff) << 16 | u32::from(first) << 8 | u32::from(last);
    1 << (key.wrapping_mul(0x9e37_79b1) >> 26)
}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// Makes room for `pairs` more pairs of `bytes` bytes in all.
    pub(crate) fn reserve(&mut self, pairs: usize, bytes: usize) {
        self.text.reserve(bytes);
        self.ends.reserve(pairs);
    }

    /// The number of tag pairs.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no tag pairs.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The value of the tag `name` (case-sensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.position(name.as_bytes()).map(|i| self.pair(i).1)
    }

    /// The index of the pair named `name`: a walk over the name bytes,
    /// lengths compared first (every new pair is checked against all the
    /// others, so this is the tag section's inner loop).
    fn position(&self, name: &[u8]) -> Option<usize> {
        self.find(name, name_bit(name))
    }

    /// [`Tags::position`] of `name`, whose [`name_bit`] is `bit`.
    #[inline]
    fn find(&self, name: &[u8], bit: u64) -> Option<usize> {
        if self.names & bit == 0 {
            return None;
        }
        let text = self.text.as_bytes();
        let mut start = 0;
        for (i, &(name_end, end)) in self.ends.iter().enumerate() {
            if name_end - start == name.len() && text.get(start..name_end) == Some(name) {
                return Some(i);
            }
            start = end;
        }
        None
    }

    /// Whether a tag `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Sets `name` to `value`, as `HashMap::insert` does: replaces the
    /// value in place and returns the old one, or appends the pair and
    /// returns `None`.
    pub fn insert(&mut self, name: impl AsRef<str>, value: impl AsRef<str>) -> Option<String> {
        let (name, value) = (name.as_ref(), value.as_ref());
        let Some(i) = self.position(name.as_bytes()) else {
            self.insert_new(name, value);
            return None;
        };
        // In place: the value's text replaced, the pairs after it shifted.
        let (name_end, end) = self.ends[i];
        let old = self.text.get(name_end..end).unwrap_or_default().to_owned();
        self.text.replace_range(name_end..end, value);
        let new_end = name_end + value.len();
        self.ends[i].1 = new_end;
        for pair in &mut self.ends[i + 1..] {
            pair.0 = pair.0 - end + new_end;
            pair.1 = pair.1 - end + new_end;
        }
        Some(old)
    }

    /// Appends a tag pair unless `name` is already present (the first value
    /// wins, the reader's rule for a duplicate tag). Returns whether it was
    /// added.
    pub fn insert_new(&mut self, name: impl AsRef<str>, value: impl AsRef<str>) -> bool {
        let (name, value) = (name.as_ref(), value.as_ref());
        let bit = name_bit(name.as_bytes());
        if self.find(name.as_bytes(), bit).is_some() {
            return false;
        }
        self.text.reserve(name.len() + value.len());
        self.text.push_str(name);
        let name_end = self.text.len();
        self.text.push_str(value);
        self.ends.push((name_end, self.text.len()));
        self.names |= bit;
        true
    }

    /// [`Tags::insert_new`] of a pair still in the input's bytes, decoded
    /// straight into the tag text (the tree builder's path).
    pub(crate) fn insert_decoded(&mut self, name: &[u8], value: &[u8], encoding: Encoding) -> bool {
        self.push_with(
            |text| decode_into(name, encoding, text),
            |text| decode_into(value, encoding, text),
        )
    }

    /// Appends the name and the value that `name` and `value` write, unless
    /// the name is already present.
    fn push_with(
        &mut self,
        name: impl FnOnce(&mut String),
        value: impl FnOnce(&mut String),
    ) -> bool {
        let start = self.text.len();
        name(&mut self.text);
        let name_end = self.text.len();
        let new_name = self.text.as_bytes().get(start..).unwrap_or_default();
        let bit = name_bit(new_name);
        if self.find(new_name, bit).is_some() {
            self.text.truncate(start);
            return false;
        }
        value(&mut self.text);
        self.ends.push((name_end, self.text.len()));
        self.names |= bit;
        true
    }

    /// Sets the value of `name`, replacing it in place if present, otherwise
    /// appending it ([`Tags::insert`] without the old value).
    pub fn set(&mut self, name: impl AsRef<str>, value: impl AsRef<str>) {
        self.insert(name, value);
    }

    /// Removes the tag `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let value = self.get(name)?.to_owned();
        *self = self.iter().filter(|&(n, _)| n != name).collect();
        Some(value)
    }

    /// The tag pairs in order, as `(name, value)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + Clone + '_ {
        (0..self.ends.len()).map(|i| self.pair(i))
    }

    /// The `i`-th pair.
    fn pair(&self, i: usize) -> (&str, &str) {
        let start = i
            .checked_sub(1)
            .and_then(|before| self.ends.get(before))
            .map_or(0, |&(_, end)| end);
        let (name_end, end) = self.ends.get(i).copied().unwrap_or_default();
        (
            self.text.get(start..name_end).unwrap_or_default(),
            self.text.get(name_end..end).unwrap_or_default(),
        )
    }
}

impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl Hash for Tags {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for pair in self.iter() {
            pair.hash(state);
        }
    }
}

impl std::ops::Index<&str> for Tags {
    type Output = str;

    /// The value of the tag `name`, as `HashMap`'s index gives a value:
    /// panics when there is no such tag (use [`Tags::get`] when it may be
    /// missing, as for any tag of a game read from a file).
    ///
    /// ```
    /// use pgnkit_game::Game;
    /// let game: Game = "[White \"Morphy\"]\n\n1. e4 *".parse().unwrap();
    /// assert_eq!(&game.tags()["White"], "Morphy");
    /// assert_eq!(game.tags().get("Black"), None); // `["Black"]` would panic
    /// ```
    fn index(&self, name: &str) -> &str {
        match self.get(name) {
            Some(value) => value,
            None => panic!("no tag {name:?}"),
        }
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<N: AsRef<str>, V: AsRef<str>> FromIterator<(N, V)> for Tags {
    /// Collects pairs; a duplicate name keeps its first value.
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Tags {
        let mut tags = Tags::new();
        for (n, v) in iter {
            tags.insert_new(n, v);
        }
        tags
    }
}

/// Typed accessors for the Seven Tag Roster and the Elo tags. A roster
/// tag's value `?` (unknown, the export default) reads as `None`.
impl Tags {
    fn known(&self, name: &str) -> Option<&str> {
        self.get(name).filter(|v| *v != "?")
    }

    /// `Event`.
    pub fn event(&self) -> Option<&str> {
        self.known("Event")
    }

    /// `Site`.
    pub fn site(&self) -> Option<&str> {
        self.known("Site")
    }

    /// `Date` as written (`YYYY.MM.DD`, `?` for unknown parts).
    pub fn date(&self) -> Option<&str> {
        self.get("Date").filter(|v| *v != "????.??.??")
    }

    /// `Round`.
    pub fn round(&self) -> Option<&str> {
        self.known("Round")
    }

    /// `White`.
    pub fn white(&self) -> Option<&str> {
        self.known("White")
    }

    /// `Black`.
    pub fn black(&self) -> Option<&str> {
        self.known("Black")
    }

    /// `Result` as written (see [`Game::termination`](crate::Game::termination)
    /// for the game's result).
    pub fn result(&self) -> Option<&str> {
        self.get("Result")
    }

    /// `WhiteElo` as a number (`None` when missing or not a number).
    pub fn white_elo(&self) -> Option<u32> {
        self.get("WhiteElo").and_then(|v| v.trim().parse().ok())
    }

    /// `BlackElo` as a number.
    pub fn black_elo(&self) -> Option<u32> {
        self.get("BlackElo").and_then(|v| v.trim().parse().ok())
    }
}

impl serde::Serialize for Tags {
    /// A map from name to value, in order.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for Tags {
    /// From a map, in its order; a repeated name keeps its first value.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tags, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Tags;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of tag names to values")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Tags, A::Error> {
                let mut tags = Tags::new();
                while let Some((name, value)) = map.next_entry::<String, String>()? {
                    tags.insert_new(name, value);
                }
                Ok(tags)
            }
        }
        d.deserialize_map(V)
    }
}

/// Reads `game`'s tag section into `tags` (cleared first) from its bytes:
/// the lexer's tag pairs ([`pgnkit_lexer::tags`]), the movetext not lexed.
/// The tags are those the reader gives a visitor ([`TagsOnly`] or the tree
/// builder). `None` when the reader would report something on the section
/// (a malformed pair, a `]` missing, a TAB or a quote in a value, a
/// duplicate name) or a name does not start with a letter: such a game is
/// left to the reader, whose path gives the same tags with its warnings;
/// `tags` then holds what was read so far.
///
/// ```
/// use pgnkit_game::{GameStart, Tags, clean_tags};
///
/// let mut tags = Tags::new();
/// let start = |bytes: &'static [u8]| GameStart { bytes, offset: 0, line: 1, column: 1 };
/// let game = b"[Event \"Open\"]\n[Site \"Bled\"]\n\n1. e4 e5 *\n";
/// assert!(clean_tags(start(game), &mut tags).is_some());
/// assert_eq!(tags.iter().collect::<Vec<_>>(), [("Event", "Open"), ("Site", "Bled")]);
/// // A duplicate name: the reader warns about it, so it is left to the reader.
/// let game = b"[Event \"a\"]\n[Event \"b\"]\n*\n";
/// assert!(clean_tags(start(game), &mut tags).is_none());
/// ```
///
/// [`TagsOnly`]: crate::TagsOnly
pub fn clean_tags(game: GameStart<'_>, tags: &mut Tags) -> Option<()> {
    clean_tags_with(game, tags, LexOptions::new())
}

/// [`clean_tags`] for a game read with the lexer's rules `options`
/// ([`ReadOptions::lex_options`](crate::ReadOptions::lex_options)): with
/// nested comments every section is left to the reader (`None`, `tags`
/// empty), as the lexer's tag pairs end comments by the standard.
pub fn clean_tags_with(game: GameStart<'_>, tags: &mut Tags, options: LexOptions) -> Option<()> {
    if options.nested_comments {
        *tags = Tags::new();
        return None;
    }
    *tags = Tags::new();
    let bytes = game.bytes;
    let mut encoding = None;
    for pair in pgnkit_lexer::tags(bytes) {
        let pair = pair.ok()?;
        let closed = pair.span.end.checked_sub(1).and_then(|i| bytes.get(i)) == Some(&b']');
        // A quote inside the value may be an unescaped one, which the
        // reader warns about: such a value is left to it.
        if !closed || pair.raw_value.iter().any(|&b| b == b'\t' || b == b'"') {
            return None;
        }
        // The reader takes a name the lexer reads as one token: a name that
        // does not start with a letter (`_x`, `1_x`) is left to it.
        if !pair.name.first().is_some_and(u8::is_ascii_alphabetic) {
            return None;
        }
        let value = pair.value();
        // ASCII reads the same in either encoding: the game's encoding (a
        // scan of all its bytes) is found only for a value that needs it.
        let encoding = if value.is_ascii() {
            Encoding::Utf8
        } else {
            *encoding.get_or_insert_with(|| game.encoding())
        };
        if !tags.insert_decoded(pair.name, &value, encoding) {
            return None;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_names_all_found_and_duplicates_refused() {
        // More names than the 64 bits of the quick check: collisions must
        // still fall back to comparing the names.
        let names: Vec<String> = (0..200).map(|i| format!("T{i}")).collect();
        let mut tags = Tags::new();
        for (i, name) in names.iter().enumerate() {
            assert!(tags.insert_new(name, i.to_string()));
        }
        for (i, name) in names.iter().enumerate() {
            assert!(!tags.insert_new(name, "again"));
            assert_eq!(tags.get(name), Some(i.to_string().as_str()));
        }
        assert_eq!(tags.get("T200"), None);
        assert_eq!(tags.len(), 200);
        let rebuilt: Tags = tags.iter().filter(|(n, _)| n.len() == 2).collect();
        assert_eq!(rebuilt.len(), 10);
        assert_eq!(rebuilt.get("T150"), None);
    }

    #[test]
    fn insert_replaces_in_place() {
        let mut tags: Tags = [
            ("Event", "E"),
            ("Result", "*"),
            ("White", "W"),
            ("Black", "B"),
        ]
        .into_iter()
        .collect();
        assert_eq!(tags.insert("Result", "1/2-1/2"), Some("*".to_owned()));
        assert_eq!(tags.insert("Event", ""), Some("E".to_owned()));
        assert_eq!(tags.insert("Black", "Bb"), Some("B".to_owned()));
        let pairs: Vec<_> = tags.iter().collect();
        assert_eq!(
            pairs,
            [
                ("Event", ""),
                ("Result", "1/2-1/2"),
                ("White", "W"),
                ("Black", "Bb")
            ]
        );
        let rebuilt: Tags = pairs.into_iter().collect();
        assert_eq!(rebuilt, tags, "as if built with these values");
        assert_eq!(tags.get("White"), Some("W"));
        assert!(!tags.insert_new("Result", "x"));
    }

    #[test]
    fn keeps_order_and_first_value() {
        let tags: Tags = [
            ("White", "a"),
            ("Event", "b"),
            ("White", "c"),
            ("white", "d"),
        ]
        .into_iter()
        .collect();
        let pairs: Vec<_> = tags.iter().collect();
        assert_eq!(pairs, vec![("White", "a"), ("Event", "b"), ("white", "d")]);
    }

    #[test]
    fn set_replaces_in_place_and_remove() {
        let mut tags: Tags = [("A", "1"), ("B", "2")].into_iter().collect();
        tags.set("A", "3");
        assert_eq!(tags.iter().next(), Some(("A", "3")));
        assert_eq!(tags.remove("A").as_deref(), Some("3"));
        assert_eq!(tags.len(), 1);
        assert!(tags.remove("A").is_none());
        tags.set("C", "4");
        assert_eq!(tags.iter().collect::<Vec<_>>(), [("B", "2"), ("C", "4")]);
    }

    #[test]
    fn insert_follows_hash_map_and_insert_new_keeps_the_first() {
        let mut tags: Tags = [("A", "1"), ("B", "2")].into_iter().collect();
        assert_eq!(tags.insert("A", "3"), Some("1".to_owned()));
        assert_eq!(tags.insert("C", "4"), None);
        assert!(!tags.insert_new("B", "5"));
        let pairs: Vec<_> = tags.iter().collect();
        assert_eq!(pairs, [("A", "3"), ("B", "2"), ("C", "4")]);
        let roster: Tags = [("White", "?"), ("Black", "B"), ("BlackElo", "x")]
            .into_iter()
            .collect();
        assert_eq!((roster.white(), roster.black()), (None, Some("B")));
        assert_eq!(roster.black_elo(), None);
    }

    #[test]
    fn equality_and_debug_see_only_the_pairs() {
        // The same pairs reached by different edits are equal.
        let mut edited: Tags = [("A", "1"), ("X", "9"), ("B", "2")].into_iter().collect();
        edited.remove("X");
        let plain: Tags = [("A", "1"), ("B", "2")].into_iter().collect();
        assert_eq!(edited, plain);
        assert_eq!(format!("{plain:?}"), r#"[("A", "1"), ("B", "2")]"#);
        assert!(Tags::new().is_empty() && !plain.is_empty());
    }

    #[test]
    fn decoded_pairs_are_latin1_or_utf8() {
        let mut tags = Tags::new();
        assert!(tags.insert_decoded(b"White", b"R\xe9ti", Encoding::Latin1));
        assert!(tags.insert_decoded(b"Black", "Réti".as_bytes(), Encoding::Utf8));
        assert!(!tags.insert_decoded(b"White", b"other", Encoding::Utf8));
        assert_eq!(tags.get("White"), Some("Réti"));
        assert_eq!(tags.get("Black"), Some("Réti"));
        assert_eq!(tags.len(), 2);
    }
}
