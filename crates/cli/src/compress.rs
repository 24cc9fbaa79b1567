//! Compressed outputs: `-o games.pgn.zst` (and `.gz`, `.bz2`, `.xz`) compress by the
//! output's extension; standard output only with `--compress FORMAT`. The
//! [`Compressor`] sits inside [`Output`](crate::output::Output), before its
//! buffer goes out.

use std::io::{self, Write};
use std::path::Path;

use clap::ValueEnum;

/// The formats an output can be compressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Codec {
    /// zstd (level 3 unless `--level`), on every CPU.
    Zst,
    /// gzip.
    Gz,
    /// bzip2.
    Bz2,
    /// xz.
    Xz,
}

impl Codec {
    /// The codec an output file's name asks for, if any.
    pub fn for_path(path: &Path) -> Option<Codec> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "zst" | "zstd" => Some(Codec::Zst),
            "gz" => Some(Codec::Gz),
            "bz2" => Some(Codec::Bz2),
            "xz" => Some(Codec::Xz),
            _ => None,
        }
    }
}

/// A compressing stage of an output: text in, compressed bytes out, in
/// memory, so that the output's own writing (temporary file, counting of
/// games written, error names) stays as it is.
pub struct Compressor(Box<dyn Stage>);

/// An encoder writing into a `Vec<u8>` whose bytes are taken as they come.
trait Stage: Write + Send {
    /// The compressed bytes so far.
    fn take(&mut self) -> Vec<u8>;
    /// Ends the stream: the last compressed bytes.
    fn finish(self: Box<Self>) -> io::Result<Vec<u8>>;
}

macro_rules! stage {
    ($ty:ty) => {
        impl Stage for $ty {
            fn take(&mut self) -> Vec<u8> {
                std::mem::take(self.get_mut())
            }
            fn finish(self: Box<Self>) -> io::Result<Vec<u8>> {
                (*self).finish()
            }
        }
    };
}

stage!(zstd::stream::write::Encoder<'static, Vec<u8>>);
stage!(flate2::write::GzEncoder<Vec<u8>>);
stage!(bzip2::write::BzEncoder<Vec<u8>>);
stage!(liblzma::write::XzEncoder<Vec<u8>>);

impl Compressor {
    /// A compressor for `codec` at `level` (the codec's default when `None`).
    pub fn new(codec: Codec, level: Option<u32>) -> io::Result<Compressor> {
        let out = Vec::new();
        let stage: Box<dyn Stage> = match codec {
            Codec::Zst => {
                let level = level.map_or(3, |l| i32::try_from(l).unwrap_or(19));
                let mut encoder = zstd::stream::write::Encoder::new(out, level)?;
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                if threads > 1 {
                    encoder.multithread(u32::try_from(threads).unwrap_or(1))?;
                }
                Box::new(encoder)
            }
            Codec::Gz => Box::new(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::new(level.unwrap_or(6).min(9)),
            )),
            Codec::Bz2 => Box::new(bzip2::write::BzEncoder::new(
                out,
                bzip2::Compression::new(level.unwrap_or(6).clamp(1, 9)),
            )),
            Codec::Xz => Box::new(liblzma::write::XzEncoder::new(
                out,
                level.unwrap_or(6).min(9),
            )),
        };
        Ok(Compressor(stage))
    }

    /// Compresses `text`; returns the compressed bytes ready so far.
    pub fn push(&mut self, text: &[u8]) -> io::Result<Vec<u8>> {
        self.0.write_all(text)?;
        Ok(self.0.take())
    }

    /// Ends the stream; returns its last bytes.
    pub fn finish(self) -> io::Result<Vec<u8>> {
        self.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_round_trips() {
        use std::io::Read;
        let text = b"[Event \"x\"]\n\n1. e4 e5 1-0\n\n".repeat(1000);
        for codec in [Codec::Zst, Codec::Gz, Codec::Bz2, Codec::Xz] {
            let mut compressor = Compressor::new(codec, Some(1)).expect("encoder");
            let mut bytes = Vec::new();
            for chunk in text.chunks(777) {
                bytes.extend(compressor.push(chunk).expect("compresses"));
            }
            bytes.extend(compressor.finish().expect("ends"));
            let mut back = Vec::new();
            match codec {
                Codec::Zst => zstd::stream::read::Decoder::new(&bytes[..])
                    .and_then(|mut d| d.read_to_end(&mut back)),
                Codec::Gz => flate2::read::GzDecoder::new(&bytes[..]).read_to_end(&mut back),
                Codec::Bz2 => bzip2::read::BzDecoder::new(&bytes[..]).read_to_end(&mut back),
                Codec::Xz => liblzma::read::XzDecoder::new(&bytes[..]).read_to_end(&mut back),
            }
            .expect("decompresses");
            assert!(back == text, "{codec:?}");
        }
    }

    #[test]
    fn extensions_choose_the_codec() {
        assert_eq!(Codec::for_path(Path::new("a.pgn.zst")), Some(Codec::Zst));
        assert_eq!(Codec::for_path(Path::new("a.PGN.GZ")), Some(Codec::Gz));
        assert_eq!(Codec::for_path(Path::new("a.bz2")), Some(Codec::Bz2));
        assert_eq!(Codec::for_path(Path::new("a.xz")), Some(Codec::Xz));
        assert_eq!(Codec::for_path(Path::new("a.pgn")), None);
    }
}
