//! Reading the typed tags: ratings, dates, times and time controls.
//!
//! Each parser returns `Ok(None)` for an unknown value (absent, `?`, `-`,
//! a date with `?` in it) and `Err(())` for a malformed one, which the
//! record turns into a null plus a [`TagWarning`](crate::TagWarning).

/// A rating or rating difference (`1500`, `+12`, `-7`) as int16.
pub(crate) fn rating(value: &str) -> Result<Option<i16>, ()> {
    let value = value.trim();
    if matches!(value, "" | "?" | "-") {
        return Ok(None);
    }
    let digits = value.strip_prefix('+').unwrap_or(value);
    let unsigned = digits.strip_prefix('-').unwrap_or(digits);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    digits.parse::<i16>().map(Some).map_err(|_| ())
}

/// Days since 1970-01-01 of a `YYYY.MM.DD` date (date32); `None` when a
/// part is unknown (`????.??.??`, `2024.??.??`). ISO 8601's `YYYY-MM-DD`,
/// which many sites write, reads the same (the tag's text stays as read).
pub(crate) fn date(value: &str) -> Result<Option<i32>, ()> {
    if let Some(date) = full_date(value.as_bytes()) {
        return date;
    }
    let value = value.trim();
    let iso = matches!(value.as_bytes(), [_, _, _, _, b'-', _, _, b'-', _, _]);
    let mut parts = value.split(if iso { '-' } else { '.' });
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(());
    };
    let shape = |part: &str, len: usize| {
        part.len() == len
            && (part.bytes().all(|b| b.is_ascii_digit()) || part.bytes().all(|b| b == b'?'))
    };
    if !(shape(y, 4) && shape(m, 2) && shape(d, 2)) {
        return Err(());
    }
    if [y, m, d].iter().any(|part| part.starts_with('?')) {
        // A month or day given without the year is still checked.
        if let Ok(month) = m.parse::<u32>()
            && !(1..=12).contains(&month)
        {
            return Err(());
        }
        if let Ok(day) = d.parse::<u32>()
            && !(1..=31).contains(&day)
        {
            return Err(());
        }
        return Ok(None);
    }
    let (year, month, day) = (
        y.parse::<i32>().map_err(|_| ())?,
        m.parse::<u32>().map_err(|_| ())?,
        d.parse::<u32>().map_err(|_| ())?,
    );
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(());
    }
    Ok(Some(days_from_civil(year, month, day)))
}

/// A date of eight digits, `YYYY.MM.DD` or `YYYY-MM-DD` (nearly every `Date` and `UTCDate`),
/// read with no loop and no splitting: the same value as [`date`]'s general reading, in
/// about a tenth of its 590 instructions. `None` for any other shape.
#[inline]
pub(crate) fn full_date(value: &[u8]) -> Option<Result<Option<i32>, ()>> {
    let &[y1, y2, y3, y4, dot, m1, m2, dot2, d1, d2] = value else {
        return None;
    };
    let digits = [y1, y2, y3, y4, m1, m2, d1, d2];
    if dot != dot2 || !(dot == b'.' || dot == b'-') || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let [y1, y2, y3, y4, m1, m2, d1, d2] = digits.map(|d| u32::from(d - b'0'));
    let year = (y1 * 1000 + y2 * 100 + y3 * 10 + y4) as i32;
    let (month, day) = (m1 * 10 + m2, d1 * 10 + d2);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Some(Err(()));
    }
    Some(Ok(Some(days_from_civil(year, month, day))))
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since the Unix epoch of a proleptic Gregorian date (Howard
/// Hinnant's `days_from_civil`).
fn days_from_civil(year: i32, month: u32, day: u32) -> i32 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400) as u32;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe as i32 - 719_468
}

/// Seconds since midnight of `HH:MM:SS` (time32 seconds); `None` for
/// `??:??:??`.
pub(crate) fn time(value: &str) -> Result<Option<i32>, ()> {
    if let Some(time) = full_time(value.as_bytes()) {
        return time;
    }
    let value = value.trim();
    if value.is_empty() || value.bytes().all(|b| b == b'?' || b == b':') {
        return Ok(None);
    }
    let mut parts = value.split(':');
    let (Some(h), Some(m), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(());
    };
    let field = |part: &str, max: i32| -> Result<i32, ()> {
        if part.len() != 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        let n: i32 = part.parse().map_err(|_| ())?;
        if n > max { Err(()) } else { Ok(n) }
    };
    Ok(Some(
        field(h, 23)? * 3600 + field(m, 59)? * 60 + field(s, 60)?.min(59),
    ))
}

/// `HH:MM:SS` (nearly every `UTCTime`) read with no splitting: the same value as
/// [`time`]'s general reading. `None` for any other shape.
#[inline]
pub(crate) fn full_time(value: &[u8]) -> Option<Result<Option<i32>, ()>> {
    let &[h1, h2, b':', m1, m2, b':', s1, s2] = value else {
        return None;
    };
    let digits = [h1, h2, m1, m2, s1, s2];
    if !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let [h1, h2, m1, m2, s1, s2] = digits.map(|d| i32::from(d - b'0'));
    let (h, m, s) = (h1 * 10 + h2, m1 * 10 + m2, s1 * 10 + s2);
    if h > 23 || m > 59 || s > 60 {
        return Some(Err(()));
    }
    Some(Ok(Some(h * 3600 + m * 60 + s.min(59))))
}

/// A rating of one to four digits after an optional sign (`1500`, `+12`, `-7`: nearly
/// every rating and rating difference) read from its bytes: the same value as [`rating`].
/// `None` for any other shape.
#[inline]
pub(crate) fn short_rating(value: &[u8]) -> Option<i16> {
    let (negative, digits) = match value {
        [b'-', digits @ ..] => (true, digits),
        [b'+', digits @ ..] => (false, digits),
        digits => (false, digits),
    };
    if digits.is_empty() || digits.len() > 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let number = digits
        .iter()
        .fold(0i16, |n, &d| n * 10 + i16::from(d - b'0'));
    Some(if negative { -number } else { number })
}

/// `(base, increment)` in seconds of a `base+inc` time control. Other forms
/// of the standard (`-`, `?`, `300`, `40/7200:3600`, `*60`, and a lone
/// `moves/seconds` period such as a daily game's `1/259200`) give `None`:
/// their text is in the `TimeControl` column. A value outside the
/// standard's grammar is an error.
pub(crate) fn time_control(value: &str) -> Result<Option<(i32, i32)>, ()> {
    // `base+inc` (nearly every time control) with no list of periods made: the same
    // value as the general reading below.
    if let Some((base, inc)) = value.split_once('+')
        && let (Some(base), Some(inc)) = (number(base), number(inc))
    {
        return Ok(Some((base, inc)));
    }
    let value = value.trim();
    if matches!(value, "" | "?" | "-") {
        return Ok(None);
    }
    let periods: Vec<&str> = value.split(':').collect();
    for period in &periods {
        let ok = if let Some(sand) = period.strip_prefix('*') {
            number(sand).is_some()
        } else if let Some((moves, seconds)) = period.split_once('/') {
            number(moves).is_some() && number(seconds).is_some()
        } else if let Some((base, inc)) = period.split_once('+') {
            number(base).is_some() && number(inc).is_some()
        } else {
            number(period).is_some()
        };
        if !ok {
            return Err(());
        }
    }
    if let [single] = periods[..]
        && let Some((base, inc)) = single.split_once('+')
    {
        return match (number(base), number(inc)) {
            (Some(base), Some(inc)) => Ok(Some((base, inc))),
            _ => Err(()),
        };
    }
    Ok(None)
}

/// A non-negative decimal integer that fits an int32.
fn number(text: &str) -> Option<i32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings() {
        assert_eq!(rating("1500"), Ok(Some(1500)));
        assert_eq!(rating("+12"), Ok(Some(12)));
        assert_eq!(rating("-7"), Ok(Some(-7)));
        assert_eq!(rating("?"), Ok(None));
        assert_eq!(rating(""), Ok(None));
        assert_eq!(rating("abc"), Err(()));
        assert_eq!(rating("99999"), Err(()));
        assert_eq!(rating("+"), Err(()));
    }

    #[test]
    fn dates() {
        assert_eq!(date("1970.01.01"), Ok(Some(0)));
        assert_eq!(date("2024.02.29"), Ok(Some(19_782)));
        assert_eq!(date("1969.12.31"), Ok(Some(-1)));
        assert_eq!(date("????.??.??"), Ok(None));
        assert_eq!(date("2024.??.??"), Ok(None));
        assert_eq!(date("2024.13.45"), Err(()));
        assert_eq!(date("2023.02.29"), Err(()));
        assert_eq!(date("2024-01-01"), date("2024.01.01"));
        assert_eq!(date("2022-07-13"), Ok(Some(19_186)));
        assert_eq!(date("2024-13-01"), Err(()));
        assert_eq!(date("2024-1-01"), Err(()));
        assert_eq!(date("2024.01-01"), Err(()));
        assert_eq!(date("????.13.??"), Err(()));
    }

    #[test]
    fn times() {
        assert_eq!(time("00:00:01"), Ok(Some(1)));
        assert_eq!(time("23:59:59"), Ok(Some(86_399)));
        assert_eq!(time("??:??:??"), Ok(None));
        assert_eq!(time("24:00:00"), Err(()));
        assert_eq!(time("1:2:3"), Err(()));
    }

    /// The readings with no loop (eight-digit dates, `HH:MM:SS`, `base+inc`) give what the
    /// general ones give, around and at the edges of their shapes.
    #[test]
    fn the_short_readings_equal_the_general_ones() {
        let general_date = |value: &str| {
            // The general reading alone: a space in front takes the value off the short one.
            date(&format!(" {value}"))
        };
        for value in [
            "1970.01.01",
            "2024.02.29",
            "2023.02.29",
            "2000.02.29",
            "1900.02.29",
            "2024.00.10",
            "2024.12.31",
            "2024.12.32",
            "2024.04.31",
            "2024.13.01",
            "0000.01.01",
            "9999.12.31",
            "2024-01-01",
            "2024-02-30",
            "2024.01-01",
            "2024-01.01",
            "2024/01/01",
            "2024.01.00",
            "????.??.??",
            "2024.??.??",
            "2024.1a.01",
            "2024.01.1",
        ] {
            assert_eq!(date(value), general_date(value), "{value}");
        }
        for value in [
            "00:00:00", "23:59:59", "23:59:60", "24:00:00", "12:60:00", "12:00:61", "1a:00:00",
            "12.00.00", "??:??:??",
        ] {
            assert_eq!(time(value), time(&format!(" {value}")), "{value}");
        }
        for value in [
            "180+2",
            "0+0",
            "2147483647+1",
            "2147483648+1",
            "180+",
            "+2",
            "180+2+3",
            "1/2+3",
            "40/7200:3600+30",
            "180+-2",
        ] {
            assert_eq!(
                time_control(value),
                time_control(&format!(" {value}")),
                "{value}"
            );
        }
        for value in [
            "1500", "+12", "-7", "0", "-0", "0012", "9999", "32767", "-32768", "+", "-", "?", "",
            "+-5", "12a", "1 500", "+1234",
        ] {
            let short = short_rating(value.as_bytes());
            assert_eq!(
                short.map(|r| Ok(Some(r))).unwrap_or(rating(value)),
                rating(value)
            );
            if value.len() <= 4 && value.bytes().all(|b| b.is_ascii_digit()) && !value.is_empty() {
                assert!(short.is_some(), "{value}");
            }
        }
        assert_eq!(time_control("2147483647+1"), Ok(Some((i32::MAX, 1))));
        assert_eq!(time("23:59:60"), Ok(Some(86_399)));
    }

    #[test]
    fn time_controls() {
        assert_eq!(time_control("180+2"), Ok(Some((180, 2))));
        assert_eq!(time_control("60+0"), Ok(Some((60, 0))));
        assert_eq!(time_control("-"), Ok(None));
        assert_eq!(time_control("300"), Ok(None));
        assert_eq!(time_control("40/7200:3600"), Ok(None));
        assert_eq!(time_control("*60"), Ok(None));
        assert_eq!(time_control("1/259200"), Ok(None));
        assert_eq!(time_control("40/7200"), Ok(None));
        assert_eq!(time_control("1/"), Err(()));
        assert_eq!(time_control("fast"), Err(()));
        assert_eq!(time_control("180+"), Err(()));
    }
}
