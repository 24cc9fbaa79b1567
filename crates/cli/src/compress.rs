//! Compressed outputs: `-o games.pgn.zst` (and `.gz`, `.bz2`, `.xz`) compress by the
//! output's extension; standard output only with `--compress FORMAT`.

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

/// A writer that must be finished to be whole (a compressed stream's trailer).
pub trait Finish: Write + Send {
    /// Writes what is left and flushes.
    fn finish(self: Box<Self>) -> io::Result<()>;
}

/// Plain output: finishing is flushing.
struct Plain<W>(W);

impl<W: Write + Send> Write for Plain<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

impl<W: Write + Send> Finish for Plain<W> {
    fn finish(mut self: Box<Self>) -> io::Result<()> {
        self.0.flush()
    }
}

macro_rules! finish_with {
    ($ty:ty, $finish:expr) => {
        impl<W: Write + Send> Finish for $ty {
            fn finish(self: Box<Self>) -> io::Result<()> {
                let mut inner = $finish(*self)?;
                inner.flush()
            }
        }
    };
}

finish_with!(
    zstd::stream::write::Encoder<'static, W>,
    |e: zstd::stream::write::Encoder<'static, W>| e.finish()
);
finish_with!(
    flate2::write::GzEncoder<W>,
    |e: flate2::write::GzEncoder<W>| e.finish()
);
finish_with!(bzip2::write::BzEncoder<W>, |e: bzip2::write::BzEncoder<
    W,
>| e.finish());
finish_with!(
    liblzma::write::XzEncoder<W>,
    |e: liblzma::write::XzEncoder<W>| e.finish()
);

/// `out`, compressed with `codec` at `level` (the codec's default when `None`), or as is.
pub fn writer<W: Write + Send + 'static>(
    out: W,
    codec: Option<Codec>,
    level: Option<u32>,
) -> io::Result<Box<dyn Finish>> {
    Ok(match codec {
        None => Box::new(Plain(out)),
        Some(Codec::Zst) => {
            let level = level.map_or(3, |l| i32::try_from(l).unwrap_or(19));
            let mut encoder = zstd::stream::write::Encoder::new(out, level)?;
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            if threads > 1 {
                encoder.multithread(u32::try_from(threads).unwrap_or(1))?;
            }
            Box::new(encoder)
        }
        Some(Codec::Gz) => Box::new(flate2::write::GzEncoder::new(
            out,
            flate2::Compression::new(level.unwrap_or(6).min(9)),
        )),
        Some(Codec::Bz2) => Box::new(bzip2::write::BzEncoder::new(
            out,
            bzip2::Compression::new(level.unwrap_or(6).clamp(1, 9)),
        )),
        Some(Codec::Xz) => Box::new(liblzma::write::XzEncoder::new(
            out,
            level.unwrap_or(6).min(9),
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_choose_the_codec() {
        assert_eq!(Codec::for_path(Path::new("a.pgn.zst")), Some(Codec::Zst));
        assert_eq!(Codec::for_path(Path::new("a.PGN.GZ")), Some(Codec::Gz));
        assert_eq!(Codec::for_path(Path::new("a.bz2")), Some(Codec::Bz2));
        assert_eq!(Codec::for_path(Path::new("a.xz")), Some(Codec::Xz));
        assert_eq!(Codec::for_path(Path::new("a.pgn")), None);
    }
}
