//! The layout's fast path for clock comments, `{[%clk 0:09:57.1]}`.
//!
//! Why a path of its own: in real files (online play) nearly every
//! comment is a clock command, one per move, so these comments are about
//! as many as the moves. Their shape is fixed: `[%clk `, then a value with
//! no space that starts with a digit. So the text is recognised with three
//! eight-byte loads and a few mask operations, and it is always two units,
//! `{ [%clk` and `0:09:57.1] }` (a `[%clk` word joins the `{` before it,
//! the value starts a unit): both are placed with no scan of the text.

use super::plain_text::{HIGHS, LOWS, ONES};
use super::{Join, Layout};

/// `[%clk ` as the low six bytes of a little-endian `u64`.
const PREFIX: u64 = u64::from_le_bytes(*b"[%clk \0\0");

/// The six bytes of [`PREFIX`] in a `u64`.
const PREFIX_MASK: u64 = 0xffff_ffff_ffff;

/// The first unit of a clock comment, `{ [%clk`, in characters.
const OPENER: usize = 7;

/// The shortest text taken: `[%clk `, then eight bytes (`0:00:00]`).
const MIN_LEN: usize = 14;

/// The longest text taken: the value is read as two eight-byte chunks.
const MAX_LEN: usize = 22;

/// A clock comment's text, `[%clk ` and a value of 8 to 16 bytes (its
/// closing `]` included) that starts with a digit and holds only printable
/// ASCII bytes other than space and `}`: written as it is, split after
/// `[%clk`. The text is held as three chunks that cover it: bytes 0 to 8,
/// 6 to 14 and its last eight bytes.
#[derive(Debug)]
pub(super) struct Clock {
    len: usize,
    head: [u8; 8],
    middle: [u8; 8],
    tail: [u8; 8],
}

impl Clock {
    /// `text` (a comment's text, between its braces) as a clock comment, if
    /// it is one. One space at each end is dropped (`{ [%clk 0:03:00] }`).
    #[inline]
    pub(super) fn new(text: &[u8]) -> Option<Clock> {
        if !(MIN_LEN..=MAX_LEN + 2).contains(&text.len()) {
            return None;
        }
        let (&first, &last) = (text.first()?, text.last()?);
        let from = usize::from(first == b' ');
        let to = text.len() - usize::from(last == b' ');
        let text = text.get(from..to)?;
        let len = text.len();
        if !(MIN_LEN..=MAX_LEN).contains(&len) {
            return None;
        }
        let head = *text.first_chunk::<8>()?;
        let middle = *text.get(6..)?.first_chunk::<8>()?;
        let tail = *text.last_chunk::<8>()?;
        let (m, t) = (u64::from_le_bytes(middle), u64::from_le_bytes(tail));
        let clock = u64::from_le_bytes(head) & PREFIX_MASK == PREFIX
            && (m as u8).is_ascii_digit()
            && (not_word(m) | not_word(t)) == 0;
        clock.then_some(Clock {
            len,
            head,
            middle,
            tail,
        })
    }

    /// The text as written, `{ ` and ` }` around it, at `buf[1..]`.
    #[inline(always)]
    fn put(&self, buf: &mut [u8; 32]) {
        let len = self.len;
        buf[1..3].copy_from_slice(b"{ ");
        buf[3..11].copy_from_slice(&self.head);
        buf[9..17].copy_from_slice(&self.middle);
        if let Some(dst) = buf.get_mut(len - 5..len + 3) {
            dst.copy_from_slice(&self.tail);
        }
        if let Some(dst) = buf.get_mut(len + 3..len + 5) {
            dst.copy_from_slice(b" }");
        }
    }
}

/// The high bit set in some byte of `x` iff that byte is not printable
/// ASCII other than space and `}` (`!` to `|`).
#[inline(always)]
fn not_word(x: u64) -> u64 {
    // High bit set in bytes from `}` up (no carry crosses a byte) and in
    // bytes that are not ASCII.
    let high = ((x & LOWS) + ONES * (0x80 - 0x7d)) | x;
    // Nonzero iff some byte is below `!` (exact as a yes or no).
    let low = x.wrapping_sub(ONES * 0x21) & !x;
    (high | low) & HIGHS
}

impl Layout {
    /// Writes `clock` and returns `true`, unless a token before it imposes a
    /// join or the line is empty (then nothing is written; the general path
    /// takes the comment).
    #[inline]
    pub(super) fn clock_comment(&mut self, clock: &Clock) -> bool {
        if self.next != Join::Free || self.break_after {
            return false;
        }
        let fill = &mut self.fill;
        fill.end_unit(&mut self.out);
        if fill.line_chars == 0 {
            return false;
        }
        // `{ [%clk` is placed at once (the value's unit follows it), after
        // a space or at the start of the next line.
        let fits = fill.line_chars + 1 + OPENER <= fill.width;
        let mut buf = [0u8; 32];
        buf[0] = if fits { b' ' } else { b'\n' };
        fill.line_chars = if fits {
            fill.line_chars + 1 + OPENER
        } else {
            OPENER
        };
        clock.put(&mut buf);
        let start = self.out.len();
        self.out.extend_from_slice(&buf);
        self.out.truncate(start + clock.len + 5);
        // The value's unit is pending, from the space after `[%clk`: the
        // value and ` }`.
        fill.unit_start = start + 1 + OPENER;
        fill.unit_chars = clock.len - 4;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_texts() {
        for text in [
            &b"[%clk 0:00:00]"[..],
            b"[%clk 0:09:57.1]",
            b" [%clk 10:00:00] ",
            b"[%clk 0:00:00]xxxxxxxx",
        ] {
            assert!(Clock::new(text).is_some(), "{text:?}");
        }
        for text in [
            &b"[%clk 0:00:0]"[..],
            b"[%clk 0:00:00]xxxxxxxxx",
            b"[%clk 0:00:00]xxxx xxx x",
            b"  [%clk 0:00:00]",
            b"[%clk 0:00:00]  ",
            b"[%clk  0:00:00]",
            b"[%clk [%emt 0:0]",
            b"[%clk 0:00 00]",
            b"[%clk 0:00:00}",
            b"[%clk 0:00:\t0]",
            b"[%emt 0:00:00]",
            b"[%clk 0:00:00\xc3\xa9]",
        ] {
            assert!(Clock::new(text).is_none(), "{text:?}");
        }
    }

    #[test]
    fn clocks_are_two_units() {
        let mut l = Layout::new(20);
        l.mov(b"e4");
        assert!(l.comment(b"[%clk 0:03:00]"));
        l.mov(b"e5");
        assert!(l.comment(b" [%clk 0:09:57.1] "));
        l.finish();
        assert_eq!(
            std::str::from_utf8(l.output()).expect("UTF-8"),
            "e4 { [%clk\n0:03:00] } e5\n{ [%clk 0:09:57.1] }\n"
        );
    }
}
