//! Memory a compressed file asks for is bounded: a zstd window (`zstd --long=31` writes 2 GiB
//! ones) or an xz dictionary larger than `Options::max_window` (128 MiB by default) is refused
//! with what the file needs, at once when the first frame or block asks for it, at the frame
//! that asks otherwise; a larger limit reads the file.

#![cfg_attr(
    not(all(feature = "zstd", feature = "xz")),
    allow(unused_imports, dead_code)
)]

mod fixtures;

use std::io::{Read, Write};

use fixtures::*;
use pgnkit_input::{DEFAULT_MAX_WINDOW, InputError, Options, Source, open};

/// About 1 MiB of real PGN (the bench file's first games).
fn pgn() -> Vec<u8> {
    let mut text = Vec::new();
    std::fs::File::open(pgnkit_corpus::bench_file())
        .expect("bench file")
        .take(1 << 20)
        .read_to_end(&mut text)
        .expect("bench file");
    text
}

/// `text` as `zstd --long=31` writes it: a 2 GiB window with long distance matching.
#[cfg(feature = "zstd")]
fn zstd_long(text: &[u8], window_log: u32) -> Vec<u8> {
    use zstd::zstd_safe::CParameter;
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).expect("zstd encoder");
    encoder
        .set_parameter(CParameter::WindowLog(window_log))
        .expect("window log");
    encoder
        .set_parameter(CParameter::EnableLongDistanceMatching(true))
        .expect("long distance matching");
    encoder.write_all(text).expect("compresses");
    encoder.finish().expect("compresses")
}

/// The text of `name` (holding `bytes`) read with `options`, or the error opening or reading
/// it gave.
fn read(name: &str, bytes: &[u8], options: &Options) -> Result<Vec<u8>, InputError> {
    let dir = scratch("windows");
    let path = write(&dir, name, bytes);
    let mut opened = open(Source::named_path(&path, name), None, options)?;
    let mut text = Vec::new();
    for stream in &mut opened.streams {
        stream.reader.read_to_end(&mut text).map_err(|e| {
            let inner = e.into_inner().expect("an InputError");
            *inner.downcast::<InputError>().expect("an InputError")
        })?;
    }
    Ok(text)
}

fn with_window(max_window: u64) -> Options {
    Options {
        max_window,
        ..options()
    }
}

#[cfg(feature = "zstd")]
#[test]
fn a_long_31_zstd_file_is_refused_by_default_and_read_with_a_larger_limit() {
    let text = pgn();
    let zst = zstd_long(&text, 31);
    assert!(zst.len() < 400 << 10, "{} bytes", zst.len());
    let started = std::time::Instant::now();
    let err = read("long.pgn.zst", &zst, &options()).expect_err("refused");
    assert!(started.elapsed().as_secs() < 2, "refused at once");
    assert!(
        matches!(
            err,
            InputError::WindowTooLarge {
                format: "zstd",
                needs: Some(2147483648),
                limit: DEFAULT_MAX_WINDOW,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "long.pgn.zst: the zstd data needs a window of 2GiB, more than the limit of 128MiB"
    );
    assert_eq!(err.window_to_read(), Some(2 << 30));
    // Standard input is refused the same way.
    let err = open(
        Source::reader("-", std::io::Cursor::new(zst.clone())),
        None,
        &options(),
    )
    .expect_err("refused on standard input");
    assert!(matches!(err, InputError::WindowTooLarge { .. }), "{err:?}");
    let got = read("long.pgn.zst", &zst, &with_window(2 << 30)).expect("reads");
    assert!(got == text, "decoded text differs");
}

#[cfg(feature = "zstd")]
#[test]
fn a_later_zstd_frame_with_a_large_window_stops_the_decoder_there() {
    let text = pgn();
    let (first, second) = text.split_at(text.len() / 2);
    let mut zst = zstd::bulk::compress(first, 1).expect("compresses");
    zst.extend(zstd_long(second, 28));
    let err = read("later.pgn.zst", &zst, &options()).expect_err("refused");
    assert!(
        matches!(
            err,
            InputError::WindowTooLarge {
                format: "zstd",
                needs: None,
                ..
            }
        ),
        "{err:?}"
    );
    let got = read("later.pgn.zst", &zst, &with_window(256 << 20)).expect("reads");
    assert!(got == text, "decoded text differs");
}

/// `text` as xz streams of the given presets (preset 0: a 256 KiB dictionary, 6: 8 MiB).
#[cfg(feature = "xz")]
fn xz(parts: &[(&[u8], u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (text, preset) in parts {
        let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), *preset);
        encoder.write_all(text).expect("compresses");
        out.extend(encoder.finish().expect("compresses"));
    }
    out
}

#[cfg(feature = "xz")]
#[test]
fn an_xz_dictionary_over_the_limit_is_refused_with_its_size() {
    let text = pgn();
    let file = xz(&[(&text, 6)]);
    let err = read("big.pgn.xz", &file, &with_window(1 << 20)).expect_err("refused");
    assert_eq!(
        err.to_string(),
        "big.pgn.xz: the xz data needs a window of 8MiB, more than the limit of 1MiB"
    );
    assert_eq!(err.window_to_read(), Some(8 << 20));
    assert!(read("big.pgn.xz", &file, &options()).expect("reads") == text);
    // A later stream asking for more: the decoder's memory limit stops it there.
    let (first, second) = text.split_at(text.len() / 2);
    let file = xz(&[(first, 0), (second, 6)]);
    let err = read("later.pgn.xz", &file, &with_window(1 << 20)).expect_err("refused");
    assert!(
        matches!(
            err,
            InputError::WindowTooLarge {
                format: "xz",
                needs: None,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(read("later.pgn.xz", &file, &options()).expect("reads") == text);
}
