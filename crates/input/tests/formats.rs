//! Every compressed form of a corpus file decodes to the plain file's bytes, byte for byte:
//! one file of every corpus folder (every file of `edge`: BOM, CR line ends; a Latin-1 file), the
//! bench file in pzstd layout; from files and from a reader (standard input).

#![cfg_attr(not(all(feature = "zstd", feature = "zip")), allow(unused_imports))]

mod fixtures;

use std::path::{Path, PathBuf};

use fixtures::*;
use pgnkit_input::{Format, Options, Source, Transcoded, open};

/// The smallest file of each corpus folder, and every file of `edge`.
fn samples() -> Vec<PathBuf> {
    let corpus = pgnkit_corpus::dir();
    let mut samples = Vec::new();
    let mut folders: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus folder")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    for folder in folders {
        let mut files = pgnkit_corpus::pgn_files(&folder);
        if folder.ends_with("edge") {
            samples.extend(files);
            continue;
        }
        files.sort_by_key(|f| std::fs::metadata(f).map_or(u64::MAX, |m| m.len()));
        samples.extend(
            files
                .into_iter()
                .find(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0)),
        );
    }
    // Latin-1 (not UTF-8), per SOURCES.md; `edge` holds the BOM files.
    samples.push(corpus.join("fen-start/pgn-extract_odds.pgn"));
    assert!(samples.len() > 20, "{} samples", samples.len());
    samples
}

/// The compressed forms of `text`: (suffix, bytes, whether standard input can carry it).
fn variants(text: &[u8]) -> Vec<(&'static str, Vec<u8>, bool)> {
    let mut variants = Vec::new();
    if cfg!(feature = "zstd") {
        variants.push(("zst", zstd_one(text), true));
        variants.push(("multi.zst", zstd_frames(text), true));
        variants.push(("pz.zst", pzstd(text, 4096), true));
    }
    if cfg!(feature = "gzip") {
        variants.push(("gz", gzip_members(text), true));
    }
    if cfg!(feature = "bzip2") {
        variants.push(("bz2", bzip2_streams(text), true));
    }
    if cfg!(feature = "xz") {
        variants.push(("xz", xz_streams(text), true));
    }
    if cfg!(feature = "zip") && !text.is_empty() {
        variants.push(("zip", zip(&[("games.PGN", text)]), false));
    }
    variants
}

fn check_file(plain: &Path, dir: &Path) {
    let text = std::fs::read(plain).expect("corpus file");
    let stem = plain
        .file_name()
        .and_then(|n| n.to_str())
        .expect("file name");
    for (suffix, bytes, stdin) in variants(&text) {
        let path = write(dir, &format!("{stem}.{suffix}"), &bytes);
        let name = path.display().to_string();
        let streams = read_all(
            open(Source::named_path(&path, &name), None, &options())
                .unwrap_or_else(|e| panic!("{e}")),
        );
        let expected_name = if suffix == "zip" {
            format!("{name}:games.PGN")
        } else {
            name.clone()
        };
        assert_eq!(streams.len(), 1, "{name}");
        let (got_name, got) = &streams[0];
        assert_eq!(got_name, &expected_name);
        assert!(
            got == &text,
            "{name}: decoded bytes differ from {}",
            plain.display()
        );
        if stdin {
            let reader = Box::new(std::io::Cursor::new(bytes));
            let streams = read_all(
                open(
                    Source::Reader {
                        name: "-".into(),
                        reader,
                    },
                    None,
                    &options(),
                )
                .unwrap_or_else(|e| panic!("{e}")),
            );
            assert!(streams[0].1 == text, "{name} on standard input");
        }
    }
}

#[test]
fn every_format_decodes_to_the_plain_bytes() {
    let dir = scratch("formats");
    for plain in samples() {
        check_file(&plain, &dir);
    }
}

#[cfg(feature = "zstd")]
#[test]
fn the_bench_file_in_pzstd_layout() {
    let bench = pgnkit_corpus::bench_file();
    let text = std::fs::read(&bench).expect("bench file");
    let dir = scratch("formats-bench");
    let path = write(&dir, "bench.pgn.zst", &pzstd(&text, 8 << 20));
    let opened = open(Source::named_path(&path, "bench.pgn.zst"), None, &options()).expect("opens");
    assert_eq!(opened.streams[0].format, Format::Zstd);
    let streams = read_all(opened);
    assert!(streams[0].1 == text, "the bench file decodes to its bytes");
}

#[cfg(feature = "zip")]
#[test]
fn zip_members_in_order_and_others_named_in_one_warning() {
    let dir = scratch("zip");
    let bytes = zip(&[
        ("b.pgn", b"[Event \"b\"]\n*\n"),
        ("readme.txt", b"hello"),
        ("a.Pgn", b"[Event \"a\"]\n*\n"),
        ("img.png", b"\x89PNG"),
    ]);
    let path = write(&dir, "games.zip", &bytes);
    let opened = open(Source::named_path(&path, "games.zip"), None, &options()).expect("opens");
    assert_eq!(
        opened.warnings,
        ["games.zip: 2 member(s) not read (not .pgn): readme.txt, img.png"]
    );
    let streams = read_all(opened);
    let names: Vec<_> = streams.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["games.zip:b.pgn", "games.zip:a.Pgn"]);
    assert_eq!(streams[1].1, b"[Event \"a\"]\n*\n");
}

#[test]
fn utf16_with_a_bom_becomes_utf8() {
    let text = "[White \"Ljubojević\"]\n\n1. e4 ½-½\n";
    let le: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let dir = scratch("utf16");
    let mut files = vec![("le.pgn", le.clone())];
    if cfg!(feature = "gzip") {
        files.push(("le.pgn.gz", gzip_members(&le)));
    }
    for (name, bytes) in files {
        let path = write(&dir, name, &bytes);
        let opened = open(Source::named_path(&path, name), None, &options()).expect("opens");
        assert_eq!(
            opened.streams[0].transcoded,
            Some(Transcoded::Utf16Le),
            "{name}"
        );
        let streams = read_all(opened);
        assert_eq!(streams[0].1, text.as_bytes(), "{name}");
    }
    let be: Vec<u8> = [0xfe, 0xff]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    let opened = open(
        Source::reader("-", std::io::Cursor::new(be)),
        None,
        &options(),
    )
    .expect("opens");
    assert_eq!(opened.streams[0].transcoded, Some(Transcoded::Utf16Be));
    let path = write(&dir, "utf8.pgn", text.as_bytes());
    let opened = open(Source::named_path(&path, "utf8.pgn"), None, &options()).expect("opens");
    assert_eq!(
        opened.streams[0].transcoded, None,
        "UTF-8 is read as stored"
    );
}

#[cfg(feature = "zip")]
#[test]
fn a_utf16_member_of_a_zip_becomes_utf8() {
    let text = "[White \"Ljubojević\"]\n\n1. e4 ½-½\n";
    let le: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = [0xfe, 0xff]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    let dir = scratch("utf16-zip");
    let bytes = zip(&[
        ("le.pgn", &le),
        ("plain.pgn", text.as_bytes()),
        ("be.pgn", &be),
    ]);
    let path = write(&dir, "utf16.zip", &bytes);
    let opened = open(Source::named_path(&path, "utf16.zip"), None, &options()).expect("opens");
    let encodings: Vec<_> = opened.streams.iter().map(|s| s.transcoded).collect();
    assert_eq!(
        encodings,
        [Some(Transcoded::Utf16Le), None, Some(Transcoded::Utf16Be)]
    );
    for (name, bytes) in read_all(opened) {
        assert_eq!(String::from_utf8_lossy(&bytes), text, "{name}");
    }
}

#[cfg(feature = "zstd")]
#[test]
fn pzstd_frames_of_any_size_on_any_number_of_threads() {
    // Frames without their decoded size (as pzstd writes them), growing and shrinking: a
    // frame larger than any before it does not fit the buffer sized by them.
    let mut text = Vec::new();
    for file in pgnkit_corpus::pgn_files(&pgnkit_corpus::dir().join("edge")) {
        text.extend(std::fs::read(&file).expect("corpus file"));
    }
    let text = text.repeat(8);
    let dir = scratch("pzstd-sizes");
    let sizes = [1000, 5000, 300, 20_000, 20_000, 100_000, 7];
    let path = write(&dir, "sizes.pgn.zst", &pzstd_unsized(&text, &sizes));
    for threads in [1, 2, 3, 5] {
        let options = Options {
            threads,
            ..Options::default()
        };
        let opened =
            open(Source::named_path(&path, "sizes.pgn.zst"), None, &options).expect("opens");
        let streams = read_all(opened);
        assert!(streams[0].1 == text, "{threads} thread(s)");
    }
}
