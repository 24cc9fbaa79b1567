//! Which of the games found are written: `--skip N` leaves out the first N,
//! `--first N` writes at most N after them (`pgnkit select`, `pgnkit search`
//! with or without an index, Python's `search(..., skip=, first=)`). One
//! [`Window`] counts the games as they come and says where each falls, and
//! when no later game can be written, so that a reader may stop.

/// The window of `--skip N --first M` over a run of games, counting them as
/// they come ([`Window::place`]).
///
/// ```
/// use pgnkit_select::{Place, Window};
///
/// let mut window = Window::new(2, Some(3));
/// let places: Vec<Place> = (0..6).map(|_| window.place()).collect();
/// assert_eq!(places, [
///     Place::Skipped, Place::Skipped,
///     Place::Kept, Place::Kept, Place::Kept,
///     Place::After,
/// ]);
/// assert!(window.is_full());
/// assert_eq!((window.skipped(), window.kept(), window.after()), (2, 3, 1));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    skip: u64,
    first: Option<u64>,
    skipped: u64,
    kept: u64,
    after: u64,
}

/// Where a game falls in a [`Window`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// One of the first `skip` games: left out.
    Skipped,
    /// In the window: written.
    Kept,
    /// After the window's `first` games: left out, and so is every later one.
    After,
}

impl Window {
    /// Leaves out the first `skip` games, then keeps at most `first` (all when `None`).
    pub fn new(skip: u64, first: Option<u64>) -> Window {
        Window {
            skip,
            first,
            ..Window::default()
        }
    }

    /// Where the next game falls; it is counted.
    pub fn place(&mut self) -> Place {
        if self.skipped < self.skip {
            self.skipped += 1;
            Place::Skipped
        } else if self.first.is_some_and(|n| self.kept >= n) {
            self.after += 1;
            Place::After
        } else {
            self.kept += 1;
            Place::Kept
        }
    }

    /// Whether no later game can be kept (`first` games kept): a reader may stop.
    pub fn is_full(&self) -> bool {
        self.first.is_some_and(|n| self.kept >= n)
    }

    /// Whether the window keeps every game (no `skip`, no `first`).
    pub fn is_all(&self) -> bool {
        self.skip == 0 && self.first.is_none()
    }

    /// Whether the window ends (`first` given): a search may read only what it needs.
    pub fn is_bounded(&self) -> bool {
        self.first.is_some()
    }

    /// The games to leave out first.
    pub fn skip(&self) -> u64 {
        self.skip
    }

    /// The most games kept, when bounded.
    pub fn first(&self) -> Option<u64> {
        self.first
    }

    /// Games left out so far as among the first `skip`.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// Games kept so far.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// Games left out so far as after the window.
    pub fn after(&self) -> u64 {
        self.after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(skip: u64, first: Option<u64>, games: u64) -> Vec<u64> {
        let mut window = Window::new(skip, first);
        (1..=games)
            .filter(|_| window.place() == Place::Kept)
            .collect()
    }

    #[test]
    fn the_window_is_a_slice_of_the_games() {
        let all: Vec<u64> = (1..=10).collect();
        for skip in 0..12 {
            for first in [None, Some(0), Some(1), Some(3), Some(20)] {
                let start = (skip as usize).min(all.len());
                let end = first.map_or(all.len(), |n| (start + n as usize).min(all.len()));
                assert_eq!(kept(skip, first, 10), all[start..end], "{skip} {first:?}");
            }
        }
    }

    #[test]
    fn full_once_first_games_are_kept() {
        let mut window = Window::new(1, Some(1));
        assert!(!window.is_full());
        assert_eq!(window.place(), Place::Skipped);
        assert!(!window.is_full());
        assert_eq!(window.place(), Place::Kept);
        assert!(window.is_full());
        assert!(Window::new(0, Some(0)).is_full());
        assert!(!Window::new(5, None).is_full());
        assert!(Window::default().is_all());
        assert!(!Window::new(0, Some(4)).is_all());
    }
}
