//! Which matched games to keep by their number: pgn-extract's
//! `--selectonly` and `--skipmatching` (`select --select-only 1:10,15` and
//! `--skip-matching`). [`MatchNumbers`] is the list of ranges (`N` or `N:M`,
//! counted from 1, strictly ascending), [`MatchFilter`] keeps or leaves out
//! the games whose number is in it.

use std::str::FromStr;

use crate::error::MatchNumbersError;

/// Ascending, disjoint ranges of game numbers (from 1), as pgn-extract's
/// `--selectonly` takes them: `1:10,15,89:94` (`N-M` is read as `N:M`).
///
/// ```
/// let numbers: pgnkit_select::MatchNumbers = "1:3,10".parse().unwrap();
/// assert!(numbers.contains(2) && numbers.contains(10) && !numbers.contains(4));
/// assert_eq!(numbers.last(), 10);
/// assert!("3,1".parse::<pgnkit_select::MatchNumbers>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchNumbers {
    /// Inclusive ranges, ascending, not overlapping; never empty.
    ranges: Vec<(u64, u64)>,
}

impl MatchNumbers {
    /// Whether game number `n` (from 1) is in a range.
    pub fn contains(&self, n: u64) -> bool {
        // The ranges are sorted: the one that may hold `n` is the last
        // starting at or before it.
        let at = self.ranges.partition_point(|&(first, _)| first <= n);
        at > 0 && n <= self.ranges[at - 1].1
    }

    /// The highest number in a range.
    pub fn last(&self) -> u64 {
        self.ranges.last().map_or(0, |&(_, last)| last)
    }
}

impl FromStr for MatchNumbers {
    type Err = MatchNumbersError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let number = |word: &str| -> Result<u64, MatchNumbersError> {
            match word.trim().parse::<u64>() {
                Ok(n) if n >= 1 => Ok(n),
                _ => Err(MatchNumbersError::Number(word.trim().to_owned())),
            }
        };
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for part in text.split(',') {
            let (first, last) = match part.split_once([':', '-']) {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let n = number(part)?;
                    (n, n)
                }
            };
            if last < first {
                return Err(MatchNumbersError::Backwards(part.trim().to_owned()));
            }
            if ranges.last().is_some_and(|&(_, end)| first <= end) {
                return Err(MatchNumbersError::NotAscending(part.trim().to_owned()));
            }
            ranges.push((first, last));
        }
        Ok(MatchNumbers { ranges })
    }
}

/// Keeps or leaves out matched games by their number (the first game that
/// matches is 1): pgn-extract's `--selectonly` ([`MatchFilter::Only`]) and
/// `--skipmatching` ([`MatchFilter::Skip`]).
///
/// ```
/// use pgnkit_select::MatchFilter;
/// let only = MatchFilter::Only("2,4:5".parse().unwrap());
/// let kept: Vec<u64> = (1..=7).filter(|&n| only.keeps(n)).collect();
/// assert_eq!(kept, [2, 4, 5]);
/// assert!(!only.done(4) && only.done(5), "nothing after the 5th is kept");
/// let skip = MatchFilter::Skip("2,4:5".parse().unwrap());
/// let kept: Vec<u64> = (1..=7).filter(|&n| skip.keeps(n)).collect();
/// assert_eq!(kept, [1, 3, 6, 7]);
/// assert!(!skip.done(1_000_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchFilter {
    /// Only the games whose number is listed.
    Only(MatchNumbers),
    /// Every game but those whose number is listed.
    Skip(MatchNumbers),
}

impl MatchFilter {
    /// Whether matched game number `n` (from 1) is kept.
    pub fn keeps(&self, n: u64) -> bool {
        match self {
            MatchFilter::Only(numbers) => numbers.contains(n),
            MatchFilter::Skip(numbers) => !numbers.contains(n),
        }
    }

    /// Whether no game after number `n` can be kept (reading may stop, as
    /// pgn-extract's `--selectonly` does once its last game is written).
    pub fn done(&self, n: u64) -> bool {
        match self {
            MatchFilter::Only(numbers) => n >= numbers.last(),
            MatchFilter::Skip(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Result<MatchNumbers, MatchNumbersError> {
        text.parse()
    }

    #[test]
    fn ranges_and_single_numbers() {
        let n = numbers("1:10,15,89:94").unwrap();
        let kept: Vec<u64> = (1..=100).filter(|&i| n.contains(i)).collect();
        let mut expected: Vec<u64> = (1..=10).collect();
        expected.push(15);
        expected.extend(89..=94);
        assert_eq!(kept, expected);
        assert_eq!(n.last(), 94);
        assert_eq!(numbers("3-5").unwrap(), numbers("3:5").unwrap());
        assert_eq!(numbers(" 7 ").unwrap().last(), 7);
    }

    #[test]
    fn refused_as_pgn_extract_refuses_them() {
        for (text, message) in [
            ("3,1", "in ascending order"),
            ("2:3,3:5", "in ascending order"),
            ("0", "not a game number"),
            ("", "not a game number"),
            ("1,,2", "not a game number"),
            ("a", "not a game number"),
            ("5:2", "ends before it starts"),
        ] {
            let error = numbers(text).unwrap_err().to_string();
            assert!(error.contains(message), "{text}: {error}");
        }
    }

    #[test]
    fn only_is_done_after_its_last_number() {
        let only = MatchFilter::Only(numbers("3").unwrap());
        assert!(!only.keeps(2) && only.keeps(3) && !only.keeps(4));
        assert!(!only.done(2) && only.done(3));
    }
}
