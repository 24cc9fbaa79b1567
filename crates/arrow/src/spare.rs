//! [`Spare`]: the emptied short strings of the records already written, which the next
//! games' records reuse instead of allocating (a game's record was about 25 allocations of
//! a few bytes and as many frees).

/// Emptied strings kept for the next games' tags, comments and final FEN, at most.
const SPARE_STRINGS: usize = 64;

/// A kept string's room, at most (bytes): a longer one is freed. Only short strings are
/// kept (tag values, a final FEN): keeping a game's rows (14 KiB or more) and its movetext
/// for the next game's cut 6.5 M instructions more on the guard's sample, but raised
/// `convert`'s peak RSS on the bench file by about 2 MiB (15 alternating pairs).
const SPARE_ROOM: usize = 128;

/// The short strings of the records handed back (`RecordVisitor::recycle`), which the next
/// games' records reuse: a game's record was about 25 allocations of a few bytes and as
/// many frees (its tag values and names, its final FEN).
#[derive(Debug, Clone, Default)]
pub(crate) struct Spare {
    /// Empty strings with room.
    pub(crate) strings: Vec<String>,
    /// Empty tag pairs with room.
    pub(crate) other_tags: Vec<(String, String)>,
}

impl Spare {
    /// `text` in a kept string, or a new one.
    #[inline]
    pub(crate) fn string(strings: &mut Vec<String>, text: &str) -> String {
        match strings.pop() {
            Some(mut kept) => {
                kept.push_str(text);
                kept
            }
            None => text.to_owned(),
        }
    }

    /// Keeps `text`'s room for another string, unless enough are kept or it is long.
    #[inline]
    pub(crate) fn keep(strings: &mut Vec<String>, mut text: String) {
        if strings.len() < SPARE_STRINGS && text.capacity() <= SPARE_ROOM {
            text.clear();
            strings.push(text);
        }
    }
}
