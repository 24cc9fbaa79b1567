//! Inputs at scale through the built binary (issue 15): every compressed form
//! exports byte for byte as the plain file, from files and standard input;
//! refused and broken inputs (message, exit status, games kept); compressed
//! output; byte ranges.

mod common;

use common::{pgnkit, run, run_with_stdin};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(test: &str) -> PathBuf {
    let dir = pgnkit_corpus::workspace_root()
        .join("target/cli-inputs")
        .join(test);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// `text` in pzstd's layout, frames of `frame` input bytes.
fn pzstd(text: &[u8], frame: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in text.chunks(frame.max(1)) {
        let compressed = zstd::bulk::compress(chunk, 1).expect("zstd compresses");
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        out.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
        out.extend_from_slice(&compressed);
    }
    out
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text).expect("gzip");
    encoder.finish().expect("gzip")
}

/// The compressed forms of `text` (suffix, bytes).
fn variants(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let (a, b) = text.split_at(text.len() / 2);
    let mut multi_zst = zstd::bulk::compress(a, 3).expect("zstd");
    multi_zst.extend(zstd::bulk::compress(b, 3).expect("zstd"));
    let mut multi_gz = gzip(a);
    multi_gz.extend(gzip(b));
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(text).expect("bzip2");
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
    xz.write_all(text).expect("xz");
    vec![
        ("zst", zstd::bulk::compress(text, 3).expect("zstd")),
        ("multi.zst", multi_zst),
        ("pz.zst", pzstd(text, 8192)),
        ("gz", gzip(text)),
        ("multi.gz", multi_gz),
        ("bz2", bz.finish().expect("bzip2")),
        ("xz", xz.finish().expect("xz")),
    ]
}

/// The smallest non-empty PGN file of every corpus folder.
fn samples() -> Vec<PathBuf> {
    let corpus = pgnkit_corpus::dir();
    let mut folders: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut samples = Vec::new();
    for folder in folders {
        let mut files = pgnkit_corpus::pgn_files(&folder);
        files.sort_by_key(|f| std::fs::metadata(f).map_or(u64::MAX, |m| m.len()));
        samples.extend(
            files
                .into_iter()
                .find(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0)),
        );
    }
    // A UTF-8 file with a BOM.
    let bom = corpus.join("edge/python-chess/utf8-bom.pgn");
    assert!(bom.is_file(), "{} is in the corpus", bom.display());
    samples.push(bom);
    // Latin-1 (not UTF-8), per SOURCES.md.
    let latin1 = corpus.join("fen-start/pgn-extract_odds.pgn");
    assert!(latin1.is_file(), "{} is in the corpus", latin1.display());
    samples.push(latin1);
    samples
}

#[test]
fn every_compressed_form_exports_as_the_plain_file() {
    let dir = scratch("formats");
    let zip_tool = Command::new("zip").arg("-v").output().is_ok();
    assert!(
        zip_tool,
        "the zip tool is needed for this test (apt-get install zip)"
    );
    for plain in samples() {
        let expected = run(&["export", path_str(&plain)]);
        let text = std::fs::read(&plain).expect("corpus file");
        let stem = plain.file_name().and_then(|n| n.to_str()).expect("name");
        for (suffix, bytes) in variants(&text) {
            let path = dir.join(format!("{stem}.{suffix}"));
            std::fs::write(&path, &bytes).expect("fixture");
            let got = run(&["export", path_str(&path)]);
            assert!(got.stdout == expected.stdout, "{}", path.display());
            assert_eq!(
                got.status.code(),
                expected.status.code(),
                "{}",
                path.display()
            );
            let piped = run_with_stdin(&["export", "-"], &bytes);
            assert!(
                piped.stdout == expected.stdout,
                "{} on stdin",
                path.display()
            );
            // A pipe named as a file is read as a stream too.
            let named = run_with_stdin(&["export", "/dev/stdin"], &bytes);
            assert!(
                named.stdout == expected.stdout,
                "{} as /dev/stdin",
                path.display()
            );
        }
        let zip = dir.join(format!("{stem}.zip"));
        let _ = std::fs::remove_file(&zip);
        let zipped = Command::new("zip")
            .args(["-q", "-j", path_str(&zip), path_str(&plain)])
            .status()
            .expect("zip runs");
        assert!(zipped.success());
        let got = run(&["export", path_str(&zip)]);
        assert!(got.stdout == expected.stdout, "{}", zip.display());
    }
}

#[test]
fn the_bench_file_in_pzstd_layout_exports_as_the_plain_file() {
    let bench = pgnkit_corpus::bench_file();
    let text = std::fs::read(&bench).expect("bench file");
    let zst = scratch("bench").join("bench.pgn.zst");
    std::fs::write(&zst, pzstd(&text, 8 << 20)).expect("fixture");
    let expected = run(&["export", path_str(&bench)]);
    let got = run(&["export", path_str(&zst)]);
    assert!(got.stdout == expected.stdout, "bench in pzstd layout");
    assert_eq!(got.status.code(), expected.status.code());
}

fn games_text(n: usize) -> Vec<u8> {
    let mut text = Vec::new();
    for i in 0..n {
        text.extend_from_slice(
            format!("[Event \"{i}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n")
                .as_bytes(),
        );
    }
    text
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn refused_inputs_say_what_they_look_like_and_the_others_are_read() {
    let dir = scratch("refused");
    let good = dir.join("good.pgn");
    std::fs::write(&good, games_text(3)).expect("fixture");
    let wide: Vec<u8> = games_text(2).iter().flat_map(|&b| [b, 0]).collect();
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "games.7z",
            b"7z\xbc\xaf\x27\x1c\0\x04xxxx".to_vec(),
            "games.7z: a 7z archive; pgnkit reads PGN text and .zst, .gz, .bz2, .xz and .zip: extract it first",
        ),
        (
            "board.png",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
            "board.png: a PNG image;",
        ),
        (
            "wide.pgn",
            wide,
            "wide.pgn: binary data, not PGN text (NUL bytes)",
        ),
    ];
    for (name, bytes, message) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("fixture");
        let output = run(&["check", path_str(&path), path_str(&good)]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(message), "{name}: {err}");
        assert!(
            err.contains("3 games read"),
            "{name}: the other file is read: {err}"
        );
    }
}

#[test]
fn utf16_with_a_bom_reads_like_utf8() {
    let dir = scratch("utf16");
    let text = games_text(2);
    let utf8 = dir.join("a.pgn");
    std::fs::write(&utf8, &text).expect("fixture");
    let mut le = vec![0xff, 0xfe];
    le.extend(text.iter().flat_map(|&b| [b, 0]));
    let utf16 = dir.join("a16.pgn");
    std::fs::write(&utf16, &le).expect("fixture");
    let expected = run(&["export", path_str(&utf8)]);
    let got = run(&["export", path_str(&utf16)]);
    assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
    assert!(got.stdout == expected.stdout);
}

#[test]
fn a_truncated_zst_keeps_its_games_and_says_where() {
    let dir = scratch("truncated");
    let text = games_text(20_000);
    let mut bytes = zstd::bulk::compress(&text, 3).expect("zstd");
    bytes.truncate(bytes.len() / 2);
    let cut = dir.join("cut.pgn.zst");
    std::fs::write(&cut, &bytes).expect("fixture");
    let good = dir.join("good.pgn");
    std::fs::write(&good, games_text(1)).expect("fixture");
    // Every thread count keeps the same games: the workers' batches read
    // before the error are handed over before it is reported.
    let mut counts = Vec::new();
    for threads in ["1", "2", "3"] {
        let output = run(&[
            "export",
            "--threads",
            threads,
            path_str(&cut),
            path_str(&good),
        ]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{err}");
        assert!(
            err.contains("cut.pgn.zst: zstd data corrupt or truncated near byte"),
            "{err}"
        );
        let written = output
            .stdout
            .windows(8)
            .filter(|w| w == b"[Event \"")
            .count();
        assert!(
            written > 1000,
            "games before the fault are written: {written}"
        );
        let read: usize = err
            .split(" games read")
            .next()
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("summary");
        assert_eq!(
            read, written,
            "every game read is counted and written: {err}"
        );
        counts.push(written);
    }
    assert!(counts.iter().all(|&n| n == counts[0]), "{counts:?}");
}

#[test]
fn a_corrupt_gz_says_where() {
    let dir = scratch("corrupt");
    let mut bytes = gzip(&games_text(5000));
    let at = bytes.len() / 2;
    for b in &mut bytes[at..at + 32] {
        *b ^= 0xa5;
    }
    let path = dir.join("bad.pgn.gz");
    std::fs::write(&path, &bytes).expect("fixture");
    let output = run(&["check", path_str(&path)]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.pgn.gz: gzip data corrupt or truncated near byte"),
        "{err}"
    );
}

#[test]
fn zip_members_are_named_in_diagnostics() {
    let dir = scratch("zip");
    let member = dir.join("m.pgn");
    std::fs::write(&member, b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").expect("fixture");
    let zip = dir.join("a.zip");
    let _ = std::fs::remove_file(&zip);
    let status = Command::new("zip")
        .args(["-q", "-j", path_str(&zip), path_str(&member)])
        .status()
        .expect("the zip tool is needed for this test (apt-get install zip)");
    assert!(status.success());
    let output = pgnkit(&["check", "a.zip"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.starts_with("a.zip:m.pgn:3:"), "{out}");
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn compressed_output_decompresses_to_the_plain_export() {
    let dir = scratch("output");
    let input = dir.join("in.pgn");
    std::fs::write(&input, games_text(500)).expect("fixture");
    let plain = run(&["export", path_str(&input)]);
    let zst = dir.join("out.pgn.zst");
    let made = run(&["export", path_str(&input), "-o", path_str(&zst)]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let zstd = Command::new("zstd")
        .args(["-d", "-c", path_str(&zst)])
        .output()
        .expect("the zstd tool is needed for this test (apt-get install zstd)");
    assert!(
        zstd.stdout == plain.stdout,
        "zstd -d gives the plain export"
    );
    for (ext, tool) in [("gz", "gzip"), ("bz2", "bzip2"), ("xz", "xz")] {
        let out = dir.join(format!("out.pgn.{ext}"));
        let made = run(&[
            "export",
            path_str(&input),
            "-o",
            path_str(&out),
            "--level",
            "1",
        ]);
        assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
        let back = Command::new(tool)
            .args(["-d", "-c", path_str(&out)])
            .output()
            .unwrap_or_else(|e| panic!("the {tool} tool is needed for this test: {e}"));
        assert!(
            back.stdout == plain.stdout,
            "{tool} -d gives the plain export"
        );
    }
    let piped = run(&["export", path_str(&input), "--compress", "zst"]);
    assert!(
        piped.stdout.starts_with(b"\x28\xb5\x2f\xfd"),
        "stdout compressed on request"
    );
    let again = run_with_stdin(&["export"], &piped.stdout);
    assert!(again.stdout == plain.stdout);
}

#[test]
fn ranges_together_export_the_whole_file() {
    let dir = scratch("ranges");
    let text = games_text(3000);
    let plain = dir.join("r.pgn");
    std::fs::write(&plain, &text).expect("fixture");
    let zst = dir.join("r.pgn.zst");
    std::fs::write(&zst, pzstd(&text, 16 << 10)).expect("fixture");
    for file in [&plain, &zst] {
        let whole = run(&["export", path_str(file)]);
        let listed = run(&["ranges", path_str(file), "-n", "5"]);
        let listed = String::from_utf8(listed.stdout).expect("UTF-8");
        let ranges: Vec<&str> = listed.lines().collect();
        assert_eq!(ranges.len(), 5, "{listed}");
        let mut joined = Vec::new();
        for line in ranges {
            let range = line.replace(' ', "..");
            let part = run(&["export", "--range", &range, path_str(file)]);
            assert_eq!(part.status.code(), Some(0), "{}", stderr(&part));
            joined.extend(part.stdout);
        }
        assert!(joined == whole.stdout, "{}", file.display());
    }
}

#[test]
fn json_records_that_a_game_was_transcoded_from_utf16() {
    let dir = scratch("utf16-json");
    let text = games_text(2);
    let mut le = vec![0xff, 0xfe];
    le.extend(text.iter().flat_map(|&b| [b, 0]));
    let mut be = vec![0xfe, 0xff];
    be.extend(text.iter().flat_map(|&b| [0, b]));
    for (name, bytes, label) in [("le.pgn", le, "utf-16le"), ("be.pgn", be, "utf-16be")] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).expect("fixture");
        let got = run(&["json", path_str(&path)]);
        assert_eq!(got.status.code(), Some(0), "{}", stderr(&got));
        let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&got.stdout)
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON object per line"))
            .collect();
        assert_eq!(lines.len(), 2, "{name}");
        for game in &lines {
            assert_eq!(game["encoding"], label, "{name}: {game}");
            assert_eq!(game["result"], "1-0", "{name}: {game}");
        }
    }
    let utf8 = dir.join("utf8.pgn");
    std::fs::write(&utf8, &text).expect("fixture");
    let got = run(&["json", path_str(&utf8)]);
    assert!(
        !String::from_utf8_lossy(&got.stdout).contains("encoding"),
        "a UTF-8 game records no encoding"
    );
}
