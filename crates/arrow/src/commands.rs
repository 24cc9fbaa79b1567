//! A move's comment read in one pass: its `[%clk]`, `[%emt]` and `[%eval]`
//! commands and its text without commands, from the comment's text as the
//! reader lends it, without building a `Comment`.
//!
//! The results equal `Comment::clock`, `Comment::emt`, `Comment::eval` and
//! `Comment::text_without_commands` of the same text (the test below checks
//! it on many shapes): commands are found as `pgnkit-game` finds them (`[%`,
//! a name of ASCII letters, digits and `_`, the arguments up to the first
//! `]`), the first command of each name counts, and the usual argument
//! shapes (`0:03:00`, `1:05:23.4`, `0.25`, `-1.5`, `#-3`) are read here
//! exactly as `pgnkit-game` reads them; any other shape is handed to its
//! `Command::duration`/`Command::eval`. In a profile of `convert` on the
//! bench file, decoding each comment into a `Comment` and parsing it once per
//! command had been a quarter of all instructions.

use pgnkit_game::{Command, Score};

/// What one comment after a move holds for the moves table.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Commands {
    /// The first `[%clk]`'s time, milliseconds (outer `None`: no such command).
    pub clock: Option<Option<u64>>,
    /// The first `[%emt]`'s time, milliseconds.
    pub emt: Option<Option<u64>>,
    /// The first `[%eval]`'s score.
    pub eval: Option<Option<Score>>,
}

/// White space in comments: space, TAB, LF, CR, VT and FF (as `pgnkit-game`).
fn is_comment_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// The commands of `text` (valid UTF-8, so every command is one) and its
/// text without them, white space runs collapsed to one space, appended to
/// `plain` after a space when `plain` is not empty. Returns what the
/// commands hold.
pub(crate) fn scan(text: &str, plain: &mut String) -> Commands {
    let mut found = Commands::default();
    let bytes = text.as_bytes();
    let mut rest_start = 0;
    let mut at = 0;
    let mut words = Words { plain };
    while let Some(open) = memchr_pair(bytes, at) {
        let after = open + 2;
        let Some(close) = bytes[after..].iter().position(|&b| b == b']') else {
            break;
        };
        let body = &text[after..after + close];
        let name_len = body
            .bytes()
            .position(|c| !(c.is_ascii_alphanumeric() || c == b'_'))
            .unwrap_or(body.len());
        if name_len == 0 {
            at = after;
            continue;
        }
        let (name, args) = body.split_at(name_len);
        let command = Command {
            name,
            args: args.trim(),
        };
        match name {
            "clk" if found.clock.is_none() => found.clock = Some(duration(command)),
            "emt" if found.emt.is_none() => found.emt = Some(duration(command)),
            "eval" if found.eval.is_none() => found.eval = Some(eval(command)),
            _ => {}
        }
        words.push(&text[rest_start..open]);
        rest_start = after + close + 1;
        at = rest_start;
    }
    words.push(&text[rest_start..]);
    found
}

/// Words appended to a text with one space between them.
struct Words<'a> {
    plain: &'a mut String,
}

impl Words<'_> {
    fn push(&mut self, text: &str) {
        for word in text.split(is_comment_space).filter(|w| !w.is_empty()) {
            if !self.plain.is_empty() {
                self.plain.push(' ');
            }
            self.plain.push_str(word);
        }
    }
}

/// Where the next `[%` is, from `from`.
fn memchr_pair(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = bytes.get(at..)?.iter().position(|&b| b == b'[') {
        let open = at + i;
        if bytes.get(open + 1) == Some(&b'%') {
            return Some(open);
        }
        at = open + 1;
    }
    None
}

/// Digits only, as a number (at most 9 digits, so no overflow).
fn digits(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 9 || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(text.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// `digits` or `digits.d{1,3}` as thousandths (exactly what rounding the
/// parsed `f64` times 1000 gives, for so few decimals).
fn thousandths(text: &[u8]) -> Option<u64> {
    let (whole, fraction) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], &text[dot + 1..]),
        None => (text, &b""[..]),
    };
    if fraction.len() > 3 || (fraction.is_empty() && text.len() != whole.len()) {
        return None;
    }
    let mut milli = digits(whole)? * 1000;
    if !fraction.is_empty() {
        let scale = [100, 10, 1][fraction.len() - 1];
        milli += digits(fraction)? * scale;
    }
    Some(milli)
}

/// A `[%clk]`/`[%emt]` time in milliseconds: `H:MM:SS(.fff)` here, any other
/// shape through `Command::duration`.
fn duration(command: Command<'_>) -> Option<u64> {
    if let Some(millis) = hours_minutes_seconds(command.args.as_bytes()) {
        return Some(millis);
    }
    command
        .duration()
        .and_then(|d| u64::try_from(d.as_millis()).ok())
}

/// `H:MM:SS` with an optional `.f{1,3}`, each number of 1 to 9 digits, in milliseconds, read
/// in one pass left to right (splitting at the colons from the right first, then reading
/// each part, cost about 300 instructions a clock: 3% of `convert`). `None` for any other
/// shape (fewer or more colons, other characters), which `duration` hands on.
fn hours_minutes_seconds(args: &[u8]) -> Option<u64> {
    if let Some(millis) = short_clock(args) {
        return Some(millis);
    }
    let (hours, rest) = leading_digits(args)?;
    let (minutes, rest) = leading_digits(rest.strip_prefix(b":")?)?;
    let (seconds, rest) = leading_digits(rest.strip_prefix(b":")?)?;
    let fraction = match rest {
        [] => 0,
        [b'.', fraction @ ..] => {
            let (value, after) = leading_digits(fraction)?;
            if !after.is_empty() || fraction.len() > 3 {
                return None;
            }
            value * [100, 10, 1][fraction.len() - 1]
        }
        _ => return None,
    };
    Some((hours * 3600 + minutes * 60 + seconds) * 1000 + fraction)
}

/// `H:MM:SS` with one digit of hours and an optional `.f{1,3}`, the shapes nearly every
/// clock has (`0:03:00`, Lichess's `0:09:57.1`), read with no loop: about 60 instructions
/// where the general reading of [`hours_minutes_seconds`] takes 200. The same value as
/// that reading; `None` for any other shape.
#[inline]
fn short_clock(args: &[u8]) -> Option<u64> {
    let (&[h, b':', m1, m2, b':', s1, s2], rest) = args.split_first_chunk::<7>()? else {
        return None;
    };
    let all = [h, m1, m2, s1, s2];
    if !all.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let [h, m1, m2, s1, s2] = all.map(|d| u64::from(d - b'0'));
    let digit = |d: u8| d.is_ascii_digit().then(|| u64::from(d - b'0'));
    let fraction = match *rest {
        [] => 0,
        [b'.', a] => digit(a)? * 100,
        [b'.', a, b] => digit(a)? * 100 + digit(b)? * 10,
        [b'.', a, b, c] => digit(a)? * 100 + digit(b)? * 10 + digit(c)?,
        _ => return None,
    };
    Some((h * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2) * 1000 + fraction)
}

/// The clock of a comment that holds nothing but one `[%clk H:MM:SS(.f)]` between spaces
/// (the comment of nearly every move of a Lichess game), read from its bytes: what [`scan`]
/// finds in it (that clock, no other command, no text), without checking the text as
/// UTF-8 first and walking it for commands. `None` for any other comment.
///
/// A comment with no space around the command (the bench file's) is matched as it is: the
/// trimming walks, a third of this reading, are only for the others.
#[inline]
pub(crate) fn clock_only(text: &[u8]) -> Option<u64> {
    let command = match text {
        [b'[', .., b']'] => text,
        _ => {
            let start = text.iter().position(|&b| b != b' ')?;
            let end = text.iter().rposition(|&b| b != b' ')? + 1;
            &text[start..end]
        }
    };
    let [b'[', b'%', b'c', b'l', b'k', b' ', args @ .., b']'] = command else {
        return None;
    };
    short_clock(args)
}

/// The number that `text` starts with (1 to 9 ASCII digits) and the text after it; `None`
/// when it starts with no digit or with more than 9.
fn leading_digits(text: &[u8]) -> Option<(u64, &[u8])> {
    let len = text
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(text.len());
    if len == 0 || len > 9 {
        return None;
    }
    let value = text[..len]
        .iter()
        .fold(0, |n, &d| n * 10 + u64::from(d - b'0'));
    Some((value, &text[len..]))
}

/// A `[%eval]` score: `[+-]pawns(.dd)` and `#n` here, any other shape
/// (a depth after a comma, more decimals) through `Command::eval`.
fn eval(command: Command<'_>) -> Option<Score> {
    let args = command.args.as_bytes();
    if let Some(mate) = args.strip_prefix(b"#") {
        let (negative, n) = match mate.first() {
            Some(b'-') => (true, &mate[1..]),
            Some(b'+') => (false, &mate[1..]),
            _ => (false, mate),
        };
        if let Some(n) = digits(n).and_then(|n| i32::try_from(n).ok()) {
            return Some(Score::Mate(if negative { -n } else { n }));
        }
    } else {
        let (negative, pawns) = match args.first() {
            Some(b'-') => (true, &args[1..]),
            Some(b'+') => (false, &args[1..]),
            _ => (false, args),
        };
        // Thousandths of a pawn with at most two decimals are whole tenths of a centipawn.
        let two_decimals = pawns
            .iter()
            .position(|&b| b == b'.')
            .is_none_or(|dot| pawns.len() - dot - 1 <= 2);
        if two_decimals
            && let Some(cp) = thousandths(pawns).and_then(|m| i32::try_from(m / 10).ok())
        {
            return Some(Score::Centipawns(if negative { -cp } else { cp }));
        }
    }
    command.eval().map(|e| e.score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgnkit_game::{Comment, CommentKind};

    /// What `pgnkit-game`'s `Comment` reads from `text`, in the scan's terms.
    fn reference(text: &str) -> (Commands, String) {
        let comment = Comment::new(text, CommentKind::Brace);
        let first = |name: &str| comment.commands().find(|c| c.name == name);
        let millis = |d: std::time::Duration| u64::try_from(d.as_millis()).ok();
        let found = Commands {
            clock: first("clk").map(|_| comment.clock().and_then(millis)),
            emt: first("emt").map(|_| comment.emt().and_then(millis)),
            eval: first("eval").map(|_| comment.eval().map(|e| e.score)),
        };
        (found, comment.text_without_commands())
    }

    #[test]
    fn the_scan_reads_what_the_comment_reads() {
        let texts = [
            "",
            "  ",
            "plain text, no command",
            " [%clk 0:03:00] ",
            "[%eval 0.25] [%clk 0:02:59.5]",
            "good move [%eval -1.07] [%clk 1:05:23.125] really",
            "[%eval #-3] [%clk 0:00:09]",
            "[%eval #4]",
            "[%eval #+2]",
            "[%eval +0.3,18] [%emt 0:00:05]",
            "[%eval 12.345] [%clk 0:1:2.4567]",
            "[%eval 0.] [%clk 1.5]",
            "[%eval -.5] [%clk :5]",
            "[%eval abc] [%clk x] [%emt 1:2:3:4]",
            "[%clk 0:01:00] [%clk 0:02:00] [%eval 1] [%eval 2]",
            "[% not] [%] [%%clk 0:00:01] [%clk 0:00:02]",
            "text [%cal Ge2e4,Rd7d5][%csl Gd4] more\n\ttext",
            "unclosed [%clk 0:00:01",
            "é [%clk 0:00:01] ü\u{a0}",
            "[%eval 99999999999] [%clk 99999999999:00:00]",
            "[%eval 1e3] [%clk 0:00:1e1]",
            "[%evalx 1] [%clk_ 0:00:01] [%eval\t0.50 ]",
            "[%clk 0:03:00.] [%emt 0:03:00.1234]",
            "[%clk 10:00:00.05] [%emt 1::00]",
            "[%clk 0:03:+1] [%emt 0:3:00x]",
            "[%clk 1234567890:00:00] [%emt 0:0000000001:00.0]",
            "[%clk 9:59:59] [%emt 0:5a:00]",
            "[%clk 0:0:000] [%emt 1:23:45] [%eval 0]",
        ];
        for text in texts {
            let mut plain = String::new();
            let found = scan(text, &mut plain);
            assert_eq!((found, plain), reference(text), "{text:?}");
        }
    }

    #[test]
    fn a_clock_alone_is_read_as_the_scan_reads_it() {
        let alone = [
            "[%clk 0:03:00]",
            " [%clk 1:59:07] ",
            "  [%clk 9:00:00]   ",
            "[%clk 0:09:57.1]",
            "[%clk 0:09:57.12]",
            "[%clk 0:09:57.123]",
            "[%clk 0:99:99.9]",
        ];
        for text in alone {
            let mut plain = String::new();
            let found = scan(text, &mut plain);
            let millis = clock_only(text.as_bytes()).expect(text);
            assert_eq!(found.clock, Some(Some(millis)), "{text:?}");
            assert_eq!((found.emt, found.eval, plain.as_str()), (None, None, ""));
        }
        assert_eq!(clock_only(b" [%clk 1:59:07] "), Some(7_147_000));
        assert_eq!(clock_only(b"[%clk 0:09:57.1]"), Some(597_100));
        assert_eq!(clock_only(b"[%clk 0:09:57.05]"), Some(597_050));
        // Anything else is the scan's.
        let others = [
            "[%clk 0:03:00] x",
            "x [%clk 0:03:00]",
            "[%clk 0:03:00][%clk 0:02:00]",
            "[%clk  0:03:00]",
            "[%clk 0:03:00 ]",
            "[%clk 10:03:00]",
            "[%clk 0:03:0a]",
            "[%clk 0:03:00.]",
            "[%clk 0:03:00.1234]",
            "[%clk 0:03:00.x]",
            "[%clk 0:03:00,5]",
            "\t[%clk 0:03:00]",
            "[%emt 0:03:00]",
            "[%clk 0;03:00]",
            "[%clk 0:03:00",
            "",
            " ",
        ];
        for text in others {
            assert_eq!(clock_only(text.as_bytes()), None, "{text:?}");
        }
    }

    #[test]
    fn plain_text_goes_after_a_space() {
        let mut plain = String::from("before");
        scan(" [%clk 0:00:01]  after\nit ", &mut plain);
        assert_eq!(plain, "before after it");
    }
}
