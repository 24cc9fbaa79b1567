//! Short ASCII tokens in a register: [`Word`] (moves and move numbers of at
//! most eight bytes in a `u64`), the table of move number indications, the
//! decimal writer for move numbers and NAGs, and the character count.

/// Number of Unicode code points in `text` (UTF-8): every byte that is not a
/// continuation byte starts one.
pub(crate) fn char_count(text: &[u8]) -> usize {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// A short ASCII token of at most eight bytes held in a `u64`, its first
/// byte lowest: moves and move numbers are built and written from a
/// register instead of byte by byte through memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word {
    bits: u64,
    len: usize,
}

impl Word {
    /// The first `len` bytes of `buf` (at most eight).
    #[inline]
    pub(crate) fn from_array(buf: &[u8; 8], len: usize) -> Word {
        let len = len.min(8);
        let mask = u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0);
        Word {
            bits: u64::from_le_bytes(*buf) & mask,
            len,
        }
    }

    /// The SAN that [`San::write_ascii`](pgnkit_chess::San::write_ascii)
    /// wrote into `buf` (`len` bytes, at most eight, the rest zero as that
    /// writer leaves them): no mask needed.
    #[inline(always)]
    pub(crate) fn from_san_ascii(buf: &[u8; 8], len: usize) -> Word {
        Word {
            bits: u64::from_le_bytes(*buf),
            len,
        }
    }

    /// Appends `b`; a full word stays as it is (no token needs more).
    #[inline(always)]
    pub(crate) fn push(&mut self, b: u8) {
        if self.len < 8 {
            self.bits |= u64::from(b) << (8 * self.len);
            self.len += 1;
        }
    }

    /// The move number indication `12.` (White) or `12...` (Black), if it
    /// fits in a word (numbers below 100,000).
    #[inline]
    pub(crate) fn move_number(number: u32, black: bool) -> Option<Word> {
        let white = match MOVE_NUMBERS.get(number as usize) {
            Some(&packed) => Word {
                bits: packed & 0xffff_ffff,
                len: (packed >> 56) as usize,
            },
            None if number < 100_000 => {
                let mut buf = [b'.'; 8];
                let len = write_decimal(&mut buf, number) + 1;
                Word::from_array(&buf, len)
            }
            None => return None,
        };
        Some(if black {
            Word {
                bits: white.bits | 0x2e2e << (8 * white.len),
                len: white.len + 2,
            }
        } else {
            white
        })
    }

    /// The token's length in bytes.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.len
    }

    /// The bytes, the token first, zero padded.
    #[inline(always)]
    pub(crate) fn bytes(self) -> [u8; 8] {
        self.bits.to_le_bytes()
    }

    /// Writes the word into `text` at `at` (eight bytes are written, the
    /// token's length counts), returning the offset after the token.
    #[inline(always)]
    pub(super) fn put<const N: usize>(self, text: &mut [u8; N], at: usize) -> usize {
        if let Some(dst) = text.get_mut(at..at + 8) {
            dst.copy_from_slice(&self.bytes());
        }
        at + self.len
    }
}

/// White's move number indications `1.` to `999.` (the numbers nearly
/// every game stays within), packed as in a [`Word`] with the length in
/// the top byte: one load gives both.
static MOVE_NUMBERS: [u64; 1000] = move_numbers();

const fn move_numbers() -> [u64; 1000] {
    let mut table = [0u64; 1000];
    let mut n = 0;
    while n < 1000 {
        let (h, t, u) = ((n / 100) as u64, ((n / 10) % 10) as u64, (n % 10) as u64);
        let (digits, len) = if n < 10 {
            (0x30 + u, 1)
        } else if n < 100 {
            ((0x30 + t) | (0x30 + u) << 8, 2)
        } else {
            ((0x30 + h) | (0x30 + t) << 8 | (0x30 + u) << 16, 3)
        };
        table[n] = digits | (b'.' as u64) << (8 * len) | ((len + 1) as u64) << 56;
        n += 1;
    }
    table
}

/// Writes `n` in decimal at the start of `buf` (at least 10 bytes long for
/// any `u32`), returning the number of bytes written. Move numbers and NAGs
/// are nearly always below 100, so those take no loop.
#[inline]
pub(crate) fn write_decimal(buf: &mut [u8], n: u32) -> usize {
    if n < 10 {
        buf[0] = b'0' + n as u8;
        return 1;
    }
    if n < 100 {
        buf[0] = b'0' + (n / 10) as u8;
        buf[1] = b'0' + (n % 10) as u8;
        return 2;
    }
    let mut tmp = [0u8; 10];
    let mut i = tmp.len();
    let mut n = n;
    loop {
        i -= 1;
        tmp[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = tmp.len() - i;
    buf[..len].copy_from_slice(&tmp[i..]);
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal() {
        let mut buf = [0u8; 10];
        for n in [0u32, 7, 10, 99, 255, 1000, u32::MAX] {
            let len = write_decimal(&mut buf, n);
            assert_eq!(&buf[..len], n.to_string().as_bytes());
        }
    }
    #[test]
    fn move_number_words() {
        for (n, black) in [(1, false), (9, true), (10, false), (99, true), (100, false)]
            .into_iter()
            .chain([(999, true), (1000, false), (12345, true), (99_999, true)])
        {
            let word = Word::move_number(n, black).expect("fits");
            let dots = if black { "..." } else { "." };
            let expected = format!("{n}{dots}");
            assert_eq!(&word.bytes()[..word.len()], expected.as_bytes());
            assert!(word.bytes()[word.len()..].iter().all(|&b| b == 0));
        }
        assert_eq!(Word::move_number(100_000, false), None);
    }
}
