//! Memory of a pzstd-layout `.zst` input (issue 15): the plain file's peak plus, per
//! decompressing thread, the stream's window and one frame, and the compressed frame (a frame
//! decoded in one call needs no window but its compressed bytes whole: smaller than the
//! window for `pzstd -19`'s frames, as the Lichess database is written, larger for this
//! test's level-1 frames, which compress in a second). The bench file is cut into 32 MiB
//! frames with an 8 MiB window (what `pzstd -19` writes), and the peak resident memory
//! (VmHWM) of `pgnkit check` is watched through /proc while it runs.

mod common;

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;

/// pzstd -19's frames: 32 MiB of input each.
const FRAME: usize = 32 << 20;

/// pzstd -19's window on such frames: 2^23 bytes.
const WINDOW_LOG: u32 = 23;

/// The bench file in pzstd's layout, frames of [`FRAME`] bytes without their decoded size,
/// and its largest compressed frame's size.
fn bench_zst() -> (PathBuf, u64) {
    let bench = pgnkit_corpus::bench_file();
    let dir = pgnkit_corpus::workspace_root().join("target/cli-input-memory");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let zst = dir.join("bench-32m.pgn.zst");
    let text = std::fs::read(&bench).expect("bench file");
    let mut compressor = zstd::bulk::Compressor::new(1).expect("zstd context");
    for parameter in [
        zstd::zstd_safe::CParameter::ContentSizeFlag(false),
        zstd::zstd_safe::CParameter::WindowLog(WINDOW_LOG),
    ] {
        compressor.set_parameter(parameter).expect("zstd parameter");
    }
    let mut out = Vec::new();
    let mut largest = 0;
    for chunk in text.chunks(FRAME) {
        let compressed = compressor.compress(chunk).expect("zstd compresses");
        largest = largest.max(compressed.len() as u64);
        out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
        out.extend_from_slice(&4u32.to_le_bytes());
        let len = u32::try_from(compressed.len()).expect("frame under 4 GiB");
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&compressed);
    }
    assert!(
        text.len() > FRAME * 2,
        "the bench file holds several frames"
    );
    std::fs::write(&zst, out).expect("fixture");
    (zst, largest)
}

/// Runs `pgnkit args`, watching its peak resident memory (VmHWM, kB) through /proc.
fn peak_kb(args: &[&str]) -> (ExitStatus, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let err = thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    });
    let (status, peak) = common::wait_with_peak(&mut child);
    (status, err.join().expect("stderr"), peak)
}

#[test]
fn pzstd_frames_in_memory_stay_within_the_budget() {
    let (zst, compressed) = bench_zst();
    let zst = zst.to_str().expect("UTF-8 path");
    let bench = pgnkit_corpus::bench_file();
    let bench = bench.to_str().expect("UTF-8 path");
    let (_, plain, plain_kb) = peak_kb(&["check", bench, "--threads", "2"]);
    // The counts, before the timing: `pgnkit check: N games read, ... bytes in`.
    let counts = |err: &str| {
        let last = err.lines().last().unwrap_or_default();
        last.split(" in ").next().unwrap_or_default().to_string()
    };
    let summary = counts(&plain);
    assert!(summary.contains("games read"), "{plain}");
    let per_thread_kb = ((FRAME as u64) + (1 << WINDOW_LOG) + compressed) / 1000;
    for threads in [1u64, 2] {
        let (status, err, peak) = peak_kb(&["check", zst, "--threads", &threads.to_string()]);
        assert!(status.code().is_some_and(|c| c < 2), "{err}");
        assert_eq!(counts(&err), summary, "the plain file's games");
        let budget = plain_kb + threads * per_thread_kb;
        assert!(
            peak <= budget,
            "--threads {threads}: peak RSS {peak} kB, over the budget of {budget} kB \
             (plain file {plain_kb} kB)"
        );
    }
}

/// About 1 MiB of the bench file as `zstd --long=31` writes it: a 2 GiB window with long
/// distance matching (some 250 KB compressed).
fn long_31_zst() -> (PathBuf, Vec<u8>) {
    use std::io::Write;
    let mut text = Vec::new();
    std::fs::File::open(pgnkit_corpus::bench_file())
        .expect("bench file")
        .take(1 << 20)
        .read_to_end(&mut text)
        .expect("bench file");
    let mut encoder = zstd::stream::Encoder::new(Vec::new(), 3).expect("zstd encoder");
    for parameter in [
        zstd::zstd_safe::CParameter::WindowLog(31),
        zstd::zstd_safe::CParameter::EnableLongDistanceMatching(true),
    ] {
        encoder.set_parameter(parameter).expect("zstd parameter");
    }
    encoder.write_all(&text).expect("compresses");
    let zst = encoder.finish().expect("compresses");
    let dir = pgnkit_corpus::workspace_root().join("target/cli-input-memory");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join("long31.pgn.zst");
    std::fs::write(&path, zst).expect("fixture");
    (path, text)
}

#[test]
fn a_2_gib_zstd_window_is_refused_in_bounded_memory_unless_allowed() {
    let (zst, text) = long_31_zst();
    let zst = zst.to_str().expect("UTF-8 path");
    for command in [
        &["check"][..],
        &["convert", "-o", "-", "--format", "ndjson"],
    ] {
        let started = std::time::Instant::now();
        let args = [command, &[zst, "--threads", "2"]].concat();
        let (status, err, peak) = peak_kb(&args);
        let command = command[0];
        assert_eq!(status.code(), Some(2), "{command}: {err}");
        assert_eq!(
            err.lines().next().unwrap_or_default(),
            format!(
                "pgnkit: cannot read {zst}: the zstd data needs a window of 2GiB, more than the \
                 limit of 128MiB; raise the limit with --max-window 2GiB"
            ),
            "{command}"
        );
        assert!(peak < 64_000, "{command}: peak RSS {peak} kB, over 64 MB");
        assert!(
            started.elapsed().as_secs() < 5,
            "{command}: refused at once"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .args(["export", zst, "--max-window", "2GiB"])
        .output()
        .expect("the binary runs");
    // The last game is cut where the 1 MiB ends: exit 1 (a rejected game), not 2.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plain = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .arg("export")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take().expect("stdin");
            let text = text.clone();
            let feeder = thread::spawn(move || std::io::Write::write_all(&mut stdin, &text));
            let out = child.wait_with_output();
            let _ = feeder.join();
            out
        })
        .expect("the binary runs");
    assert!(
        !out.stdout.is_empty() && out.stdout == plain.stdout,
        "--max-window 2GiB reads the games the plain text holds"
    );
}

/// CRC-32 (IEEE), as xz's headers carry it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// About 1 MiB of the bench file as xz whose block header asks for a 1.5 GiB dictionary (the
/// data is compressed with a small one, then the header's LZMA2 property byte is raised and
/// its CRC made good: what `xz --lzma2=dict=1536MiB` writes, without the 17 GB the encoder
/// would take), and that text.
fn hostile_xz() -> (PathBuf, Vec<u8>) {
    use std::io::Write;
    let mut text = Vec::new();
    std::fs::File::open(pgnkit_corpus::bench_file())
        .expect("bench file")
        .take(1 << 20)
        .read_to_end(&mut text)
        .expect("bench file");
    let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 0);
    encoder.write_all(&text).expect("compresses");
    let mut xz = encoder.finish().expect("compresses");
    // The block header follows the 12-byte stream header: its size, flags, the optional
    // sizes (varints), then the filter: LZMA2 (0x21), one property byte (the dictionary).
    let start = 12;
    let size = (usize::from(xz[start]) + 1) * 4;
    let flags = xz[start + 1];
    let mut at = start + 2;
    let skip_varint = |at: &mut usize, xz: &[u8]| {
        while xz[*at] & 0x80 != 0 {
            *at += 1;
        }
        *at += 1;
    };
    if flags & 0x40 != 0 {
        skip_varint(&mut at, &xz);
    }
    if flags & 0x80 != 0 {
        skip_varint(&mut at, &xz);
    }
    assert_eq!(
        &xz[at..at + 2],
        [0x21, 0x01],
        "an LZMA2 filter with one property byte"
    );
    // 37: (2 | 1) << (37 / 2 + 11) = 1.5 GiB.
    xz[at + 2] = 37;
    let crc = crc32(&xz[start..start + size - 4]);
    xz[start + size - 4..start + size].copy_from_slice(&crc.to_le_bytes());
    let dir = pgnkit_corpus::workspace_root().join("target/cli-input-memory");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join("dict-1536m.pgn.xz");
    std::fs::write(&path, xz).expect("fixture");
    (path, text)
}

/// gzip (a 32 KiB window) and bzip2 (900 KB blocks at most) decode in a fixed, small memory
/// whatever the file says: only zstd's window and xz's dictionary are the file's to choose,
/// and each has its test here.
#[test]
fn a_1_5_gib_xz_dictionary_is_refused_in_bounded_memory_unless_allowed() {
    let (xz, text) = hostile_xz();
    let xz = xz.to_str().expect("UTF-8 path");
    for command in [
        &["check"][..],
        &["convert", "-o", "-", "--format", "ndjson"],
    ] {
        let args = [command, &[xz]].concat();
        let (status, err, peak) = peak_kb(&args);
        let command = command[0];
        assert_eq!(status.code(), Some(2), "{command}: {err}");
        assert_eq!(
            err.lines().next().unwrap_or_default(),
            format!(
                "pgnkit: cannot read {xz}: the xz data needs a window of 1536MiB, more than the \
                 limit of 128MiB; raise the limit with --max-window 1536MiB"
            ),
            "{command}"
        );
        assert!(peak < 64_000, "{command}: peak RSS {peak} kB, over 64 MB");
    }
    // Allowed, it reads the games the plain text holds.
    let (status, err, peak) = peak_kb(&["check", xz, "--max-window", "2GiB"]);
    assert_eq!(status.code(), Some(1), "the cut last game only: {err}");
    let games = err
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("pgnkit check: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.replace(',', "").parse::<usize>().ok())
        .unwrap_or_else(|| panic!("a summary: {err}"));
    let want = text.windows(8).filter(|w| w == b"[Event \"").count();
    assert_eq!(games, want, "{err}");
    // The dictionary is reserved, not touched: memory follows the data, not the header.
    assert!(peak < 64_000, "--max-window 2GiB: peak RSS {peak} kB");
}
