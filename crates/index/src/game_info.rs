//! What the index keeps of a game besides its positions, read from its
//! tags: ratings, date, result, speed class (from `TimeControl`) and player
//! names; and the [`Filter`] that chooses games by them (one rule for the
//! index and for the scan without index).

use std::borrow::Cow;

use pgnkit_game::Termination;

use crate::record::GameRecord;

/// The speed class of a game, from its `TimeControl` tag as Lichess counts
/// it: the estimated duration is the base time plus 40 increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Speed {
    /// No `TimeControl`, or one that cannot be read.
    Unknown = 0,
    /// Under 30 s.
    UltraBullet = 1,
    /// Under 3 minutes.
    Bullet = 2,
    /// Under 8 minutes.
    Blitz = 3,
    /// Under 25 minutes.
    Rapid = 4,
    /// 25 minutes or more.
    Classical = 5,
    /// `-`: correspondence (no clock).
    Correspondence = 6,
}

impl Speed {
    /// The class of a `TimeControl` value (`300+3`, `-`, `40/7200:3600`: the
    /// first period counts).
    pub fn of_time_control(text: &str) -> Speed {
        Speed::of_time_control_bytes(text.as_bytes())
    }

    /// [`of_time_control`](Speed::of_time_control) of a value's bytes (read
    /// as UTF-8, invalid sequences replaced): bytes, not `str` searchers,
    /// since the index reads it once per game.
    pub(crate) fn of_time_control_bytes(text: &[u8]) -> Speed {
        match plain_time_control(text) {
            Some((base, inc)) => Speed::of_estimate(base, inc),
            None => Speed::of_any_time_control(text),
        }
    }

    /// [`of_time_control_bytes`](Speed::of_time_control_bytes) of any value.
    fn of_any_time_control(text: &[u8]) -> Speed {
        let whole;
        // Nearly every value is digits and `+`: nothing to trim, no `-`,
        // no `:` or `/` to split at.
        let first = if text.iter().all(|&b| b.is_ascii_digit() || b == b'+') {
            text
        } else {
            whole = trimmed(text);
            if *whole == *b"-" {
                return Speed::Correspondence;
            }
            let first = whole.split(|&b| b == b':').next().unwrap_or_default();
            first.rsplit(|&b| b == b'/').next().unwrap_or(first)
        };
        let (base, inc) = match first.iter().position(|&b| b == b'+') {
            Some(plus) => (&first[..plus], &first[plus + 1..]),
            None => (first, &b"0"[..]),
        };
        let (Some(base), Some(inc)) = (parse_u64(base), parse_u64(inc)) else {
            return Speed::Unknown;
        };
        Speed::of_estimate(base, inc)
    }

    /// The class of a game of `base` seconds plus `inc` a move, by Lichess's estimate of
    /// its length (`base + 40 × inc`).
    fn of_estimate(base: u64, inc: u64) -> Speed {
        match base.saturating_add(inc.saturating_mul(40)) {
            0..30 => Speed::UltraBullet,
            30..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The class named `name` (`bullet`, `blitz`, ...).
    pub fn from_name(name: &str) -> Option<Speed> {
        Some(match name.to_ascii_lowercase().as_str() {
            "ultrabullet" => Speed::UltraBullet,
            "bullet" => Speed::Bullet,
            "blitz" => Speed::Blitz,
            "rapid" => Speed::Rapid,
            "classical" => Speed::Classical,
            "correspondence" => Speed::Correspondence,
            _ => return None,
        })
    }

    fn from_number(n: u8) -> Speed {
        match n {
            1 => Speed::UltraBullet,
            2 => Speed::Bullet,
            3 => Speed::Blitz,
            4 => Speed::Rapid,
            5 => Speed::Classical,
            6 => Speed::Correspondence,
            _ => Speed::Unknown,
        }
    }
}

/// `base+inc` or `base` in digits, each part 1 to 18 digits (no overflow):
/// nearly every `TimeControl` value, read in one pass (the index reads one a
/// game); `None` for anything else, which goes the general way.
fn plain_time_control(text: &[u8]) -> Option<(u64, u64)> {
    let mut parts = [0u64; 2];
    let mut lengths = [0usize; 2];
    let mut part = 0;
    for &b in text {
        match b {
            b'0'..=b'9' => {
                parts[part] = parts[part] * 10 + u64::from(b - b'0');
                lengths[part] += 1;
                if lengths[part] > 18 {
                    return None;
                }
            }
            b'+' if part == 0 => part = 1,
            _ => return None,
        }
    }
    let digits_ok = |n: usize| (1..=18).contains(&n);
    match part {
        0 if digits_ok(lengths[0]) => Some((parts[0], 0)),
        1 if digits_ok(lengths[0]) && digits_ok(lengths[1]) => Some((parts[0], parts[1])),
        _ => None,
    }
}

/// A game's result as the index stores it.
pub(crate) fn result_number(t: Termination) -> u8 {
    match t {
        Termination::WhiteWins => 1,
        Termination::BlackWins => 2,
        Termination::Draw => 3,
        Termination::Unknown => 0,
    }
}

/// `Date` (`2024.03.??`) as YYYYMMDD with unknown parts 0.
pub fn date_number(text: &str) -> u32 {
    date_number_bytes(text.as_bytes())
}

/// [`date_number`] of a value's bytes (read as UTF-8, invalid sequences
/// replaced): bytes, not `str` searchers and `parse`, since the index reads
/// it once per game.
pub(crate) fn date_number_bytes(text: &[u8]) -> u32 {
    // Nearly every date is `YYYY.MM.DD` in digits: read at once.
    if let &[y0, y1, y2, y3, b'.', m0, m1, b'.', d0, d1] = text
        && [y0, y1, y2, y3, m0, m1, d0, d1]
            .iter()
            .all(u8::is_ascii_digit)
    {
        let number = |digits: &[u8]| digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
        return number(&[y0, y1, y2, y3]) * 10_000 + number(&[m0, m1]) * 100 + number(&[d0, d1]);
    }
    let text = trimmed(text);
    let mut parts = text.split(|&b| b == b'.');
    let mut value = 0;
    for (width, scale) in [(4, 10_000), (2, 100), (2, 1)] {
        let part = parts.next().unwrap_or_default();
        if part.len() == width && part.iter().all(u8::is_ascii_digit) {
            value += scale * part.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
        }
    }
    value
}

/// A date filter's bound (`tree --since`/`--until`): `YYYY.MM.DD`, `YYYY.MM` or `YYYY`
/// (`-` works as `.`) as [`date_number`]; for the `last` bound a missing month or day is
/// the last of the year or month (`2024` is `20241231`). `None` when the year is missing.
///
/// ```
/// use pgnkit_index::date_bound;
/// assert_eq!(date_bound("2024-03", false), Some(20240300));
/// assert_eq!(date_bound("2024", true), Some(20241231));
/// assert_eq!(date_bound("2024.03", true), Some(20240331));
/// assert_eq!(date_bound("March", true), None);
/// ```
pub fn date_bound(text: &str, last: bool) -> Option<u32> {
    let value = date_number(&text.replace('-', "."));
    if value < 10_000 {
        return None;
    }
    Some(match (last, value / 100 % 100, value % 100) {
        (false, _, _) => value,
        (true, 0, _) => value + 1231,
        (true, _, 0) => value + 31,
        (true, _, _) => value,
    })
}

/// A rating tag's value (read as UTF-8, invalid sequences replaced), 0 when
/// missing or not a number.
pub(crate) fn rating(text: &[u8]) -> u16 {
    // Nearly every rating is one to four digits alone: read at once.
    if let [_, ..] = text
        && text.len() <= 4
        && text.iter().all(u8::is_ascii_digit)
    {
        return text.iter().fold(0, |n, &d| n * 10 + u16::from(d - b'0'));
    }
    parse_u64(&trimmed(text))
        .and_then(|n| u16::try_from(n).ok())
        .unwrap_or(0)
}

/// `text` read as UTF-8 (invalid sequences replaced) and without the
/// whitespace [`str::trim`] removes; nearly every tag value is ASCII,
/// trimmed in place.
fn trimmed(text: &[u8]) -> Cow<'_, [u8]> {
    if text.is_ascii() {
        // The ASCII characters `char::is_whitespace` holds (`trim_ascii`
        // keeps the vertical tab).
        let space = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ');
        let start = text.iter().position(|b| !space(b)).unwrap_or(text.len());
        let end = text
            .iter()
            .rposition(|b| !space(b))
            .map_or(start, |i| i + 1);
        Cow::Borrowed(&text[start..end])
    } else {
        Cow::Owned(String::from_utf8_lossy(text).trim().as_bytes().to_vec())
    }
}

/// `text` as [`str::parse`] reads a `u64` (an optional `+`, then decimal
/// digits, no overflow), without its generic machinery.
fn parse_u64(text: &[u8]) -> Option<u64> {
    let digits = match text {
        [] | [b'+'] => return None,
        [b'+', rest @ ..] => rest,
        _ => text,
    };
    digits.iter().try_fold(0u64, |n, &d| {
        if d.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        } else {
            None
        }
    })
}

/// Which side a player filter looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The player had White.
    White,
    /// The player had Black.
    Black,
}

/// Which games count in a tree (Lichess explorer's filters). The default
/// takes every game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Lowest average rating of the two players (games without both ratings
    /// are left out when a rating bound is set).
    pub min_rating: Option<u16>,
    /// Highest average rating.
    pub max_rating: Option<u16>,
    /// Speed classes to take (empty: all).
    pub speeds: Vec<Speed>,
    /// First date, YYYYMMDD ([`date_number`]); games without a year are
    /// left out when a date bound is set.
    pub since: Option<u32>,
    /// Last date, YYYYMMDD.
    pub until: Option<u32>,
    /// A player (exact name, case-insensitive), on the side given or either.
    pub player: Option<(String, Option<Side>)>,
}

impl Filter {
    /// `true` when the filter takes every game.
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether [`admits`](Filter::admits) reads the names (a player filter): without one
    /// the names need not be read.
    pub(crate) fn reads_names(&self) -> bool {
        self.player.is_some()
    }

    /// Whether the game (its record and its names, `White\u{1f}Black`) counts.
    pub fn admits(&self, game: &GameRecord, names: &str) -> bool {
        self.admits_record(game) && self.admits_names(names)
    }

    /// [`admits`](Filter::admits) by all but the names.
    pub(crate) fn admits_record(&self, game: &GameRecord) -> bool {
        if self.min_rating.is_some() || self.max_rating.is_some() {
            if game.white_elo == 0 || game.black_elo == 0 {
                return false;
            }
            let average = (u32::from(game.white_elo) + u32::from(game.black_elo)) / 2;
            if self.min_rating.is_some_and(|m| average < u32::from(m))
                || self.max_rating.is_some_and(|m| average > u32::from(m))
            {
                return false;
            }
        }
        if !self.speeds.is_empty() && !self.speeds.contains(&Speed::from_number(game.speed)) {
            return false;
        }
        if self.since.is_some() || self.until.is_some() {
            if game.date < 10_000 {
                return false;
            }
            if self.since.is_some_and(|d| game.date < d)
                || self.until.is_some_and(|d| game.date > d)
            {
                return false;
            }
        }
        true
    }

    /// [`admits`](Filter::admits) by the names alone.
    fn admits_names(&self, names: &str) -> bool {
        self.admits_name_bytes(names.as_bytes())
    }

    /// [`admits`](Filter::admits) by the names alone, as they lie in the
    /// index (`White\u{1f}Black`, UTF-8 or not): what [`admits`](Filter::admits)
    /// answers for them read as UTF-8 with bad bytes replaced, without that
    /// reading. A tree over a common position asks this of every game.
    pub(crate) fn admits_name_bytes(&self, names: &[u8]) -> bool {
        let Some((player, side)) = &self.player else {
            return true;
        };
        // Bytes that are not UTF-8 read as U+FFFD, which only a name asked for with that
        // character can match; ASCII case aside, other bytes match as they are.
        if player.contains('\u{fffd}') && std::str::from_utf8(names).is_err() {
            return plays(player, *side, String::from_utf8_lossy(names).as_bytes());
        }
        plays(player, *side, names)
    }
}

/// Whether `player` (ASCII case aside) has the `side` asked for (either when
/// `None`) in `names` (`White\u{1f}Black`).
fn plays(player: &str, side: Option<Side>, names: &[u8]) -> bool {
    let (white, black) = match names.iter().position(|&b| b == 0x1f) {
        Some(i) => (&names[..i], &names[i + 1..]),
        None => (names, &[][..]),
    };
    let is = |name: &[u8]| name.eq_ignore_ascii_case(player.as_bytes());
    match side {
        Some(Side::White) => is(white),
        Some(Side::Black) => is(black),
        None => is(white) || is(black),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds() {
        assert_eq!(Speed::of_time_control("15+0"), Speed::UltraBullet);
        assert_eq!(Speed::of_time_control("60+1"), Speed::Bullet);
        assert_eq!(Speed::of_time_control("180+2"), Speed::Blitz);
        assert_eq!(Speed::of_time_control("600+5"), Speed::Rapid);
        assert_eq!(Speed::of_time_control("1800+20"), Speed::Classical);
        assert_eq!(Speed::of_time_control("-"), Speed::Correspondence);
        // The one-pass reading of plain values agrees with the general one.
        for text in [
            "300+3",
            "300",
            "0+0",
            "15+0",
            "1800+20",
            "+3",
            "3+",
            "300++3",
            "++3",
            "3+3+3",
            " 300+3",
            "180+2 ",
            "",
            "-",
            "40/7200:3600",
            "999999999999999999+1",
            "9999999999999999999+1",
            "1+99999999999999999999",
        ] {
            assert_eq!(
                Speed::of_time_control(text),
                Speed::of_any_time_control(text.as_bytes()),
                "{text}"
            );
        }
        assert_eq!(Speed::of_time_control("?"), Speed::Unknown);
        assert_eq!(Speed::of_time_control("40/7200:3600"), Speed::Classical);
        // Past u64 once the increment is counted 40 times: the longest class, no overflow.
        assert_eq!(
            Speed::of_time_control("18446744073709551615+461168601842738790"),
            Speed::Classical
        );
    }

    #[test]
    fn dates() {
        assert_eq!(date_number("2024.03.15"), 20240315);
        assert_eq!(date_number("2024.??.??"), 20240000);
        assert_eq!(date_number("????.??.??"), 0);
    }

    /// The byte-level readers give what the `str` forms they replaced
    /// gave (`trim`, `split`, `parse`), odd values too.
    #[test]
    fn byte_readers_equal_str_readers() {
        fn speed(text: &str) -> Speed {
            let text = text.trim();
            if text == "-" {
                return Speed::Correspondence;
            }
            let first = text.split(':').next().unwrap_or("");
            let first = first.rsplit('/').next().unwrap_or(first);
            let (base, inc) = first.split_once('+').unwrap_or((first, "0"));
            let (Ok(base), Ok(inc)) = (base.parse::<u64>(), inc.parse::<u64>()) else {
                return Speed::Unknown;
            };
            Speed::of_estimate(base, inc)
        }
        fn date(text: &str) -> u32 {
            let mut parts = text.trim().split('.');
            let mut value = 0;
            for (width, scale) in [(4, 10_000), (2, 100), (2, 1)] {
                let part = parts.next().unwrap_or("");
                let n = if part.len() == width && part.bytes().all(|b| b.is_ascii_digit()) {
                    part.parse::<u32>().unwrap_or(0)
                } else {
                    0
                };
                value += n * scale;
            }
            value
        }
        let texts = [
            "",
            " ",
            "-",
            " - ",
            "+",
            "++",
            "+5",
            "-5",
            "5+",
            "+5+5",
            "300++5",
            "300+-5",
            "60+1",
            " 180+2\t",
            "40/7200:3600",
            "40/7200:3600+30",
            "/",
            "a/60+0",
            "60/",
            "1:2:3",
            "18446744073709551615",
            "18446744073709551616",
            "65535",
            "65536",
            "0065535",
            "2400",
            " 2400 ",
            "2400\u{b}",
            "2400\u{a0}",
            "２４００",
            "2024.03.15",
            "2024.03",
            "2024",
            "2024.3.15",
            "2024.03.15.01",
            "????.??.??",
            ".03.15",
            " 2024.01.02 ",
            "2024.0a.01",
            "\u{2003}2024.05.06",
            "x",
            "12345.01.01",
            "0",
            "0000",
            "9999",
            "10000",
            "0000.00.00",
            "9999.99.99",
            "2024.03.1a",
            "2024-03-15",
            "2024.03.15 ",
            "2024.03.150",
            "1800+20",
            "1800+",
            "600+5+5",
        ];
        for text in texts {
            assert_eq!(Speed::of_time_control(text), speed(text), "{text:?}");
            assert_eq!(date_number(text), date(text), "{text:?}");
            let rated = text.trim().parse::<u16>().unwrap_or(0);
            assert_eq!(rating(text.as_bytes()), rated, "{text:?}");
        }
    }

    #[test]
    fn filters() {
        let game = GameRecord {
            white_elo: 2000,
            black_elo: 2200,
            date: 20200501,
            speed: Speed::Blitz as u8,
            ..GameRecord::default()
        };
        let names = "Alice\u{1f}Bob";
        assert!(Filter::default().admits(&game, names));
        let f = Filter {
            min_rating: Some(2100),
            ..Filter::default()
        };
        assert!(f.admits(&game, names));
        let f = Filter {
            min_rating: Some(2101),
            ..Filter::default()
        };
        assert!(!f.admits(&game, names));
        let f = Filter {
            player: Some(("bob".into(), Some(Side::Black))),
            speeds: vec![Speed::Blitz],
            since: Some(20200101),
            ..Filter::default()
        };
        assert!(f.admits(&game, names));
        let f = Filter {
            player: Some(("bob".into(), Some(Side::White))),
            ..Filter::default()
        };
        assert!(!f.admits(&game, names));
    }

    /// The names as they lie in the index are matched as their reading as
    /// UTF-8 (bad bytes replaced) would be, also when they are not UTF-8.
    #[test]
    fn name_bytes_match_as_their_utf8_reading() {
        let names: [&[u8]; 9] = [
            b"Alice\x1fBob",
            b"Caf\xe9\x1fbob",
            b"caf\xc3\xa9\x1fBOB",
            b"\xff\x1f\xfe",
            b"Bob",
            b"\x1fBob\x1fBob",
            b"",
            b"Caf\xe9\x1fCaf\xe9\xe9",
            b"Caf\xef\xbf\xbd\x1f",
        ];
        let players = ["bob", "BOB", "alice", "Caf\u{fffd}", "café", "\u{fffd}", ""];
        let sides = [None, Some(Side::White), Some(Side::Black)];
        for names in names {
            let text = String::from_utf8_lossy(names);
            let (white, black) = text.split_once('\u{1f}').unwrap_or((&text, ""));
            for player in players {
                for side in sides {
                    let is = |name: &str| name.eq_ignore_ascii_case(player);
                    let expected = match side {
                        Some(Side::White) => is(white),
                        Some(Side::Black) => is(black),
                        None => is(white) || is(black),
                    };
                    let f = Filter {
                        player: Some((player.into(), side)),
                        ..Filter::default()
                    };
                    assert_eq!(
                        f.admits_name_bytes(names),
                        expected,
                        "{text:?} {player:?} {side:?}"
                    );
                }
            }
        }
    }
}
