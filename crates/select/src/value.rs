//! Tag values read as what they mean for a comparison: a PGN date with
//! unknown parts, a time control's base time, a number.
//!
//! These are the bottom floor of the crate: plain functions over text, used
//! by the query parser (for the literal) and its evaluation (for the game's
//! tag), so both read a value the same way.

use std::cmp::Ordering;

/// A PGN date (`YYYY.MM.DD`), each part known or not (`??`, `????`).
///
/// ```
/// use pgnkit_select::PgnDate;
/// let d = PgnDate::parse("1992.??.05").unwrap();
/// assert_eq!((d.year, d.month, d.day), (Some(1992), None, Some(5)));
/// assert_eq!(PgnDate::parse("1992"), PgnDate::parse("1992.??.??"));
/// assert!(PgnDate::parse("May 1992").is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PgnDate {
    /// The year, when known.
    pub year: Option<u16>,
    /// The month (1-12), when known.
    pub month: Option<u8>,
    /// The day (1-31), when known.
    pub day: Option<u8>,
}

impl PgnDate {
    /// Reads `YYYY.MM.DD`, `YYYY.MM` or `YYYY`, any part `?`s (unknown).
    /// `None` when the text is not such a date.
    pub fn parse(text: &str) -> Option<PgnDate> {
        let mut parts = text.trim().split('.');
        let year = part(parts.next()?, 4, 0, 9999)?;
        let month = match parts.next() {
            Some(p) => part(p, 2, 1, 12)?,
            None => None,
        };
        let day = match parts.next() {
            Some(p) => part(p, 2, 1, 31)?,
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(PgnDate {
            year: year.map(|y| y as u16),
            month: month.map(|m| m as u8),
            day: day.map(|d| d as u8),
        })
    }

    /// Compares a game's date with a pattern, part by part from the year;
    /// the comparison stops (equal so far) at the first part unknown on
    /// either side. `None` when the game's year is unknown: such a date
    /// neither matches nor fails to match anything.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use pgnkit_select::PgnDate;
    /// let pattern = PgnDate::parse("2000.??.??").unwrap();
    /// let game = PgnDate::parse("2000.05.17").unwrap();
    /// assert_eq!(game.compare(&pattern), Some(Ordering::Equal));
    /// assert_eq!(PgnDate::parse("1999.12.31").unwrap().compare(&pattern), Some(Ordering::Less));
    /// assert_eq!(PgnDate::parse("????.05.17").unwrap().compare(&pattern), None);
    /// ```
    pub fn compare(&self, pattern: &PgnDate) -> Option<Ordering> {
        let year = self.year?;
        let pairs = [
            (Some(year), pattern.year),
            (self.month.map(u16::from), pattern.month.map(u16::from)),
            (self.day.map(u16::from), pattern.day.map(u16::from)),
        ];
        for (game, want) in pairs {
            match (game, want) {
                (Some(g), Some(w)) if g != w => return Some(g.cmp(&w)),
                (Some(_), Some(_)) => {}
                _ => return Some(Ordering::Equal),
            }
        }
        Some(Ordering::Equal)
    }
}

/// One date part: `digits` digits (fewer allowed for month and day), or all `?`.
fn part(text: &str, digits: usize, min: u32, max: u32) -> Option<Option<u32>> {
    if !text.is_empty() && text.len() <= digits && text.bytes().all(|b| b == b'?') {
        return Some(None);
    }
    if text.is_empty() || text.len() > digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = text.parse().ok()?;
    (min..=max).contains(&n).then_some(Some(n))
}

/// The base time of a PGN `TimeControl`, in seconds: `300+3` is 300,
/// `40/7200:3600` is 7200 (the first period), `*180` (sandclock) is 180;
/// `-` (none), `?` (unknown) and anything else are `None`.
///
/// ```
/// use pgnkit_select::time_control_base;
/// assert_eq!(time_control_base("180+2"), Some(180));
/// assert_eq!(time_control_base("40/5400+30:1800+30"), Some(5400));
/// assert_eq!(time_control_base("-"), None);
/// ```
pub fn time_control_base(text: &str) -> Option<u64> {
    let first = text.trim().split(':').next()?;
    let first = first.strip_prefix('*').unwrap_or(first);
    let first = match first.split_once('/') {
        Some((_moves, rest)) => rest,
        None => first,
    };
    let base = first.split('+').next()?;
    if base.is_empty() || !base.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    base.parse().ok()
}

/// A tag value read as a number (surrounding spaces allowed), `None` when it is not one.
pub fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_with_unknown_parts() {
        assert_eq!(
            PgnDate::parse("????.??.??"),
            Some(PgnDate {
                year: None,
                month: None,
                day: None
            })
        );
        assert!(PgnDate::parse("2020.13.01").is_none());
        assert!(PgnDate::parse("2020.1.1").is_some());
        assert!(PgnDate::parse("2020.01.01.01").is_none());
        assert!(PgnDate::parse("").is_none());
    }

    #[test]
    fn dates_compare_up_to_the_first_unknown_part() {
        let p = PgnDate::parse("2020.06.15").unwrap();
        let g = |s| PgnDate::parse(s).unwrap().compare(&p);
        assert_eq!(g("2020.??.??"), Some(Ordering::Equal));
        assert_eq!(g("2020.07.01"), Some(Ordering::Greater));
        assert_eq!(g("2020.06.14"), Some(Ordering::Less));
        assert_eq!(g("2021.01.01"), Some(Ordering::Greater));
    }

    #[test]
    fn time_controls_by_base() {
        assert_eq!(time_control_base("60"), Some(60));
        assert_eq!(time_control_base("*180"), Some(180));
        assert_eq!(time_control_base("?"), None);
        assert_eq!(time_control_base("abc+3"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(number(" 2500 "), Some(2500.0));
        assert_eq!(number("-"), None);
        assert_eq!(number("inf"), None);
    }
}
