//! The streaming decoders, one per compressed format, each behind its cargo feature: a
//! format whose feature is off is refused with [`InputError::Unsupported`]. Each decoder runs
//! on its own thread ([`Piped`]) with its memory bounded by
//! [`Options::max_window`](crate::Options::max_window) where the file decides it.

use std::io::{BufRead, Read};

use crate::detect::hint;
use crate::piped::{Fault, Piped};
use crate::{Format, InputError, Options, window};

/// The cargo feature that decodes `format`, and whether this build has it.
pub(crate) fn feature(format: Format) -> Option<(&'static str, bool)> {
    match format {
        Format::Zstd => Some(("zstd", cfg!(feature = "zstd"))),
        Format::Gzip => Some(("gzip", cfg!(feature = "gzip"))),
        Format::Bzip2 => Some(("bzip2", cfg!(feature = "bzip2"))),
        Format::Xz => Some(("xz", cfg!(feature = "xz"))),
        Format::Zip => Some(("zip", cfg!(feature = "zip"))),
        _ => None,
    }
}

/// [`InputError::Unsupported`] when this build does not decode `format`.
pub(crate) fn supported(name: &str, format: Format) -> Result<(), InputError> {
    match feature(format) {
        Some((feature, false)) => Err(InputError::Unsupported {
            name: name.to_owned(),
            format: format.name(),
            feature,
        }),
        _ => Ok(()),
    }
}

/// A streaming decoder for `format` over `compressed`, on its own thread (`compressed`
/// itself for text).
#[cfg_attr(
    not(any(feature = "zstd", feature = "gzip", feature = "bzip2", feature = "xz")),
    allow(unreachable_code)
)]
#[cfg_attr(not(any(feature = "zstd", feature = "xz")), allow(unused_variables))]
pub(crate) fn decoder(
    format: Format,
    compressed: Box<dyn BufRead + Send>,
    fault: Fault,
    options: &Options,
) -> Result<Box<dyn BufRead + Send>, InputError> {
    supported(&fault.name, format)?;
    let source: Box<dyn Read + Send> = match format {
        #[cfg(feature = "zstd")]
        Format::Zstd => {
            let mut decoder = zstd::stream::read::Decoder::with_buffer(compressed)
                .map_err(|e| InputError::io(&fault.name, e))?;
            decoder
                .window_log_max(window::zstd_window_log_max(options.max_window))
                .map_err(|e| InputError::io(&fault.name, e))?;
            Box::new(decoder)
        }
        #[cfg(feature = "gzip")]
        Format::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(compressed)),
        #[cfg(feature = "bzip2")]
        Format::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(compressed)),
        #[cfg(feature = "xz")]
        Format::Xz => {
            let stream = liblzma::stream::Stream::new_stream_decoder(
                window::xz_memlimit(options.max_window),
                liblzma::stream::CONCATENATED,
            )
            .map_err(|e| InputError::io(&fault.name, e.into()))?;
            Box::new(liblzma::bufread::XzDecoder::new_stream(compressed, stream))
        }
        _ => return Ok(compressed),
    };
    Ok(Box::new(Piped::spawn(source, fault)))
}

/// Refuses a format we do not read, or do not read in this build.
pub(crate) fn refuse_format(name: &str, format: Format) -> Result<(), InputError> {
    if let Format::Refused(looks_like) = format {
        return Err(InputError::NotPgn {
            name: name.to_owned(),
            looks_like,
            hint: hint(format),
        });
    }
    supported(name, format)
}

/// Admits an input of `format` whose first bytes are `head`: a format we read in this build
/// ([`refuse_format`]), and a window within `options` ([`window::check`]).
pub(crate) fn admit(
    name: &str,
    format: Format,
    head: &[u8],
    options: &Options,
) -> Result<(), InputError> {
    refuse_format(name, format)?;
    window::check(name, format, head, options.max_window)
}
