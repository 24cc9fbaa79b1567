//! Inputs we refuse or that break: the error says what and where, and the text decoded before
//! a fault is kept.

#![cfg_attr(
    not(all(feature = "zstd", feature = "gzip")),
    allow(dead_code, unused_imports)
)]

mod fixtures;

use std::io::Read;

use fixtures::*;
use pgnkit_input::{InputError, Options, Source, open};

fn refusal(name: &str, bytes: &[u8]) -> String {
    let dir = scratch("bad");
    let path = write(&dir, name, bytes);
    let err = open(Source::named_path(&path, name), None, &options()).expect_err("refused");
    assert!(matches!(err, InputError::NotPgn { .. }), "{err:?}");
    let from_stdin = open(
        Source::reader("-", std::io::Cursor::new(bytes.to_vec())),
        None,
        &options(),
    )
    .expect_err("refused on standard input too");
    assert!(matches!(from_stdin, InputError::NotPgn { .. }));
    err.to_string()
}

#[test]
fn a_7z_archive_is_named() {
    assert_eq!(
        refusal("games.7z", b"7z\xbc\xaf\x27\x1c\0\x04rest"),
        "games.7z: a 7z archive; pgnkit reads PGN text and .zst, .gz, .bz2, .xz and .zip: extract it first"
    );
}

#[test]
fn a_png_image_is_named() {
    let message = refusal("board.pgn", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert!(message.starts_with("board.pgn: a PNG image;"), "{message}");
}

#[test]
fn nul_heavy_text_is_binary() {
    let utf16_without_bom: Vec<u8> = b"[Event \"x\"]\n1. e4 *\n"
        .iter()
        .flat_map(|&b| [b, 0])
        .collect();
    let message = refusal("wide.pgn", &utf16_without_bom);
    assert!(
        message.contains("binary data, not PGN text (NUL bytes)"),
        "{message}"
    );
    assert!(
        message.contains("UTF-16 needs its byte order mark"),
        "{message}"
    );
}

#[cfg(feature = "gzip")]
#[test]
fn a_tar_inside_gzip_is_named() {
    let mut tar = vec![b'x'; 1024];
    tar[257..262].copy_from_slice(b"ustar");
    let message = refusal("games.tar.gz", &gzip_members(&tar));
    assert!(
        message.starts_with("games.tar.gz: a tar archive"),
        "{message}"
    );
}

/// Reads `stream` to its error; returns the bytes before it and the error.
fn read_to_fault(name: &str, bytes: &[u8]) -> (Vec<u8>, InputError) {
    read_to_fault_with(name, bytes, &options())
}

/// [`read_to_fault`] with `options`.
fn read_to_fault_with(name: &str, bytes: &[u8], options: &Options) -> (Vec<u8>, InputError) {
    let dir = scratch("bad");
    let path = write(&dir, name, bytes);
    let mut stream = open(Source::named_path(&path, name), None, options)
        .expect("opens")
        .streams
        .remove(0);
    let mut kept = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match stream.reader.read(&mut buf) {
            Ok(0) => panic!("{name}: no error"),
            Ok(n) => kept.extend_from_slice(&buf[..n]),
            Err(e) => {
                let inner = e.into_inner().expect("an InputError");
                let err = *inner.downcast::<InputError>().expect("an InputError");
                return (kept, err);
            }
        }
    }
}

fn text() -> Vec<u8> {
    let mut text = Vec::new();
    for i in 0..20_000 {
        text.extend_from_slice(
            format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n").as_bytes(),
        );
    }
    text
}

#[cfg(feature = "zstd")]
#[test]
fn a_truncated_zst_keeps_what_came_before() {
    let text = text();
    let mut bytes = zstd_one(&text);
    let cut = bytes.len() * 2 / 3;
    bytes.truncate(cut);
    let (kept, err) = read_to_fault("cut.pgn.zst", &bytes);
    let InputError::Corrupt {
        name,
        format,
        offset,
        ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!((name.as_str(), *format), ("cut.pgn.zst", "zstd"));
    assert!(*offset <= cut as u64 && *offset > 0, "{offset}");
    assert!(kept.len() > text.len() / 3, "kept {} bytes", kept.len());
    assert!(text.starts_with(&kept));
    assert!(err.to_string().contains("of the compressed file"), "{err}");
}

#[cfg(feature = "zstd")]
#[test]
fn a_truncated_pzstd_file_keeps_the_frames_before() {
    let text = text();
    let mut bytes = pzstd(&text, 64 << 10);
    bytes.truncate(bytes.len() - 10);
    // The index no longer covers the file: the streaming decoder reads it.
    let (kept, err) = read_to_fault("cut.pz.zst", &bytes);
    assert!(
        matches!(err, InputError::Corrupt { format: "zstd", .. }),
        "{err:?}"
    );
    assert!(text.starts_with(&kept) && kept.len() > text.len() / 2);
}

#[cfg(feature = "zstd")]
#[test]
fn a_cut_frame_in_pzstd_layout_keeps_what_decoded_before_the_cut() {
    // pzstd's layout throughout (the index is whole), but the second frame's bytes end half
    // way: the frames decode in pieces, so what came before the cut in that frame is kept too.
    let text = text().repeat(3);
    let (first, second) = (256 << 10, 1 << 20);
    let frame = |chunk: &[u8], keep: fn(usize) -> usize| {
        let compressed = zstd::bulk::compress(chunk, 1).expect("zstd compresses");
        let kept = &compressed[..keep(compressed.len())];
        let mut out = Vec::new();
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&u32::try_from(kept.len()).expect("small").to_le_bytes());
        out.extend_from_slice(kept);
        out
    };
    let mut bytes = frame(&text[..first], |n| n);
    let cut_at = bytes.len() as u64 + 12;
    bytes.extend(frame(&text[first..first + second], |n| n / 2));
    bytes.extend(frame(&text[first + second..], |n| n));
    // Workers decoding in pieces, and the reader decoding frames itself (one thread).
    for threads in [2, 3, 1] {
        let options = Options {
            threads,
            ..Options::default()
        };
        let (kept, err) = read_to_fault_with("cut-frame.pgn.zst", &bytes, &options);
        let InputError::Corrupt { format, offset, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((*format, *offset), ("zstd", cut_at), "{err}");
        assert!(text.starts_with(&kept));
        assert!(
            kept.len() > first + (128 << 10),
            "{threads} thread(s): kept {} bytes: the first frame and part of the second",
            kept.len()
        );
    }
}

#[cfg(feature = "gzip")]
#[test]
fn a_corrupt_gz_says_where() {
    let text = text();
    let mut bytes = gzip_members(&text);
    let at = bytes.len() / 2;
    for b in &mut bytes[at..at + 64] {
        *b ^= 0x5a;
    }
    let (kept, err) = read_to_fault("bad.pgn.gz", &bytes);
    let InputError::Corrupt { format, offset, .. } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(*format, "gzip");
    assert!(*offset > 0 && *offset <= bytes.len() as u64, "{offset}");
    assert!(text.starts_with(&kept[..kept.len().min(text.len() / 4)]));
}

/// A compressed file whose decoder this build leaves out (its cargo feature off) is refused,
/// naming the feature.
#[test]
fn a_format_built_without_is_refused_with_its_feature() {
    let files: [(&str, &[u8], &str, bool); 5] = [
        (
            "a.pgn.zst",
            b"\x28\xb5\x2f\xfd\x00\x58rest",
            "zstd",
            cfg!(feature = "zstd"),
        ),
        (
            "a.pgn.gz",
            b"\x1f\x8b\x08\0rest",
            "gzip",
            cfg!(feature = "gzip"),
        ),
        (
            "a.pgn.bz2",
            b"BZh91AY&SYrest",
            "bzip2",
            cfg!(feature = "bzip2"),
        ),
        (
            "a.pgn.xz",
            b"\xfd7zXZ\0\0\x04rest",
            "xz",
            cfg!(feature = "xz"),
        ),
        ("a.zip", b"PK\x03\x04rest", "zip", cfg!(feature = "zip")),
    ];
    let dir = scratch("built-without");
    for (name, bytes, format, built) in files {
        let path = write(&dir, name, bytes);
        let result = open(Source::named_path(&path, name), None, &options());
        match result {
            Err(InputError::Unsupported { feature, .. }) => {
                assert!(!built, "{name}: refused though built with {format}");
                let err =
                    open(Source::named_path(&path, name), None, &options()).expect_err("refused");
                assert_eq!(
                    err.to_string(),
                    format!(
                        "{name}: a {format} file, and this pgnkit was built without {format} \
                         support (cargo feature `{feature}` of pgnkit-input)"
                    )
                );
            }
            other => assert!(built, "{name}: {other:?}"),
        }
    }
}
