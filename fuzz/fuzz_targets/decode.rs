//! Fuzz target `decode`: content detection and every decoder, through pgnkit-input's
//! `open`. The input is a plan (`pgnkit_fuzz::inputs::Plan`): text stored raw, as zstd, in
//! pzstd's layout (two frames), as two gzip members, bzip2, xz, a zip archive (two `.pgn`
//! members and one that is not read), UTF-16 LE or BE with a byte order mark, or UTF-16 in
//! pzstd frames; then up to three bytes of the stored file flipped. The file is opened from
//! a temporary file and from a named in-memory reader, with a small window limit (8 MiB:
//! the fuzzer's memory limit catches a decoder that allocates what a file asks for anyway).
//! No panic; one thread and two give the same games and the same error (pzstd frames decode
//! ahead on worker threads with two); a file that reads without error reads to the same
//! games from a reader (zip needs a file) and, unless it was corrupted, to the text's games.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::input::Source;
use pgnkit_fuzz::inputs::{Outcome, Plan, Stored, read, temp_file};

/// The games of `read`, without their stream's index (a zip's members are streams of
/// their own; a reader of the same text has one).
fn texts(read: &Outcome) -> Vec<&[u8]> {
    read.games.iter().map(|(_, _, g)| g.as_slice()).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some(plan) = Plan::parse(data) else {
        return;
    };
    let bytes = plan.bytes();
    let path = temp_file("decode", &bytes);
    let one = read(Source::path(&path), None, 1);
    let two = read(Source::path(&path), None, 2);
    assert_eq!(one, two, "threads=1 and threads=2 differ");
    if plan.stored != Stored::Zip {
        let stream = read(
            Source::reader("mem", std::io::Cursor::new(bytes.clone())),
            None,
            2,
        );
        if one.error.is_none() && stream.error.is_none() {
            assert_eq!(texts(&one), texts(&stream), "a file and a reader differ");
        }
    }
    let decoded_text = plan.text.len() as u64 <= pgnkit_fuzz::inputs::MAX_DECODED / 4;
    if plan.flips.is_empty() && one.error.is_none() && decoded_text {
        // Unchanged, the file holds the text's games (UTF-16 holds the text as UTF-8 reads
        // it, invalid bytes replaced; a zip has its two halves in two streams).
        let text = match plan.stored {
            Stored::Utf16Le | Stored::Utf16Be | Stored::PzstdUtf16 => {
                String::from_utf8_lossy(plan.text).into_owned().into_bytes()
            }
            _ => plan.text.to_vec(),
        };
        if plan.stored != Stored::Zip {
            let plain = read(Source::reader("text", std::io::Cursor::new(text)), None, 1);
            if plain.error.is_none() {
                assert_eq!(
                    texts(&one),
                    texts(&plain),
                    "the decoded games are not the text's"
                );
            }
        }
    }
});
