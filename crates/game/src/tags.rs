//! Tag pairs of a game, kept in the order they were read.
//!
//! Names are case-sensitive (`Event` and `event` are two tags). A name can
//! appear only once: the reader keeps the first value of a duplicate and
//! warns; [`Tags::insert`] follows the same rule, [`Tags::set`] replaces.

/// The tag pairs of a game, ordered as read.
///
/// ```
/// use pgnkit_game::Tags;
/// let mut tags = Tags::new();
/// assert!(tags.insert("Event", "Casual"));
/// assert!(!tags.insert("Event", "Other")); // duplicate: the first value wins
/// assert_eq!(tags.get("Event"), Some("Casual"));
/// tags.set("Event", "Other");
/// assert_eq!(tags.get("Event"), Some("Other"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Tags {
    pairs: Vec<(String, String)>,
}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The number of tag pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there are no tag pairs.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The value of the tag `name` (case-sensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether a tag `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }

    /// Appends a tag pair unless `name` is already present (the first value
    /// wins). Returns whether it was added.
    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<String>) -> bool {
        let name = name.into();
        if self.contains(&name) {
            return false;
        }
        self.pairs.push((name, value.into()));
        true
    }

    /// Sets the value of `name`, replacing it in place if present, otherwise
    /// appending it.
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.pairs.iter_mut().find(|(n, _)| *n == name) {
            Some(pair) => pair.1 = value,
            None => self.pairs.push((name, value)),
        }
    }

    /// Removes the tag `name`, returning its value.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let index = self.pairs.iter().position(|(n, _)| n == name)?;
        Some(self.pairs.remove(index).1)
    }

    /// The tag pairs in order, as `(name, value)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

impl<N: Into<String>, V: Into<String>> FromIterator<(N, V)> for Tags {
    /// Collects pairs; a duplicate name keeps its first value.
    fn from_iter<I: IntoIterator<Item = (N, V)>>(iter: I) -> Tags {
        let mut tags = Tags::new();
        for (n, v) in iter {
            tags.insert(n, v);
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
