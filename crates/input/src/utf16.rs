//! UTF-16 text (with its byte order mark) transcoded to UTF-8 while it streams.

use std::io::{self, BufRead, Read};

use encoding_rs::{CoderResult, Decoder, Encoding};

/// UTF-8 bytes out of a UTF-16 stream; the byte order mark is dropped and malformed code units
/// become U+FFFD, as `encoding_rs` does.
pub struct Utf16<R> {
    inner: R,
    decoder: Decoder,
    out: Vec<u8>,
    pos: usize,
    len: usize,
    ended: bool,
}

impl<R: BufRead> Utf16<R> {
    /// Transcodes `inner`, UTF-16 in `encoding` (`UTF_16LE` or `UTF_16BE`), from its start
    /// (the byte order mark included).
    pub fn new(inner: R, encoding: &'static Encoding) -> Utf16<R> {
        Utf16 {
            inner,
            decoder: encoding.new_decoder_with_bom_removal(),
            out: vec![0; 64 << 10],
            pos: 0,
            len: 0,
            ended: false,
        }
    }
}

impl<R: BufRead> BufRead for Utf16<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.len && !self.ended {
            let input = self.inner.fill_buf()?;
            let last = input.is_empty();
            let (result, read, written, _) =
                self.decoder
                    .decode_to_utf8(input, self.out.as_mut_slice(), last);
            self.inner.consume(read);
            self.pos = 0;
            self.len = written;
            if last && result == CoderResult::InputEmpty {
                self.ended = true;
            }
        }
        Ok(self.out.get(self.pos..self.len).unwrap_or_default())
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.len);
    }
}

impl<R: BufRead> Read for Utf16<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        crate::read_buffered(self, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_byte_orders_become_utf8() {
        let text = "[White \"Ljubojević\"]\n1. e4 ½-½\n";
        let le: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for (bytes, encoding) in [(le, encoding_rs::UTF_16LE), (be, encoding_rs::UTF_16BE)] {
            // A tiny buffer: code units and surrogate pairs cut between reads.
            let reader = io::BufReader::with_capacity(3, &bytes[..]);
            let mut out = String::new();
            Utf16::new(reader, encoding)
                .read_to_string(&mut out)
                .expect("transcoded");
            assert_eq!(out, text);
        }
    }
}
