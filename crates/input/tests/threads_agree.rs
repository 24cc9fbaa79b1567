//! One thread and several read a pzstd-layout file the same way, corrupt or not: the same
//! text before the same fault (found by the `decode` fuzz target).

#![cfg(feature = "zstd")]

mod fixtures;

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};

use fixtures::*;
use pgnkit_input::{Options, Source, open};

/// The text read from `bytes` with `threads` threads, and the error that ended it.
fn read_with(bytes: &[u8], threads: usize) -> (Vec<u8>, Option<String>) {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let dir = scratch("threads");
    let name = format!("t{}.pgn.zst", FILES.fetch_add(1, Ordering::Relaxed));
    let path = write(&dir, &name, bytes);
    let path_text = path.display().to_string();
    let anonymous = |e: String| e.replace(&path_text, "FILE");
    let options = Options {
        threads,
        ..Options::default()
    };
    let mut stream = match open(Source::path(&path), None, &options) {
        Ok(opened) => opened.streams.into_iter().next().expect("a stream"),
        Err(e) => return (Vec::new(), Some(anonymous(e.to_string()))),
    };
    let mut kept = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match stream.reader.read(&mut buf) {
            Ok(0) => return (kept, None),
            Ok(n) => kept.extend_from_slice(&buf[..n]),
            Err(e) => return (kept, Some(anonymous(e.to_string()))),
        }
    }
}

/// A pzstd header for a region of `len` bytes.
fn header(len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&u32::try_from(len).expect("small").to_le_bytes());
    out
}

fn game(i: usize) -> Vec<u8> {
    format!("[Event \"g{i}\"]\n[Site \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {{game {i}}} 1-0\n\n")
        .into_bytes()
}

fn frame(text: &[u8]) -> Vec<u8> {
    zstd::bulk::compress(text, 1).expect("zstd compresses")
}

fn assert_agree(what: &str, bytes: &[u8]) {
    let one = read_with(bytes, 1);
    for threads in [2, 4] {
        let many = read_with(bytes, threads);
        assert!(
            one == many,
            "{what}: 1 thread read {} bytes, then {:?}; {threads} threads {} bytes, then {:?}",
            one.0.len(),
            one.1,
            many.0.len(),
            many.1
        );
    }
}

#[test]
fn a_region_holding_a_frame_and_more_reads_alike_on_any_thread_count() {
    let texts: Vec<Vec<u8>> = (0..4)
        .map(|i| (0..50).flat_map(|j| game(i * 100 + j)).collect())
        .collect();
    let frames: Vec<Vec<u8>> = texts.iter().map(|t| frame(t)).collect();
    // Regions: the second holds two frames, the third a frame and garbage.
    let cases: Vec<(&str, Vec<Vec<u8>>)> = vec![
        (
            "two frames in a region",
            vec![
                frames[0].clone(),
                [frames[1].clone(), frames[2].clone()].concat(),
                frames[3].clone(),
            ],
        ),
        (
            "garbage after a frame",
            vec![
                frames[0].clone(),
                [frames[1].clone(), b"garbage!".to_vec()].concat(),
                frames[3].clone(),
            ],
        ),
        (
            "a skippable frame after a frame",
            vec![
                frames[0].clone(),
                [frames[1].clone(), header(0)].concat(),
                frames[3].clone(),
            ],
        ),
    ];
    for (what, regions) in cases {
        let mut bytes = Vec::new();
        for region in &regions {
            bytes.extend(header(region.len()));
            bytes.extend_from_slice(region);
        }
        assert_agree(what, &bytes);
    }
}

#[test]
fn flipped_bytes_in_any_frame_read_alike_on_any_thread_count() {
    let texts: Vec<Vec<u8>> = (0..3)
        .map(|i| (0..40).flat_map(|j| game(i * 100 + j)).collect())
        .collect();
    let mut clean = Vec::new();
    for t in &texts {
        let f = frame(t);
        clean.extend(header(f.len()));
        clean.extend(f);
    }
    for at in (0..clean.len()).step_by(7) {
        for xor in [0x01, 0x80, 0xff] {
            let mut bytes = clean.clone();
            bytes[at] ^= xor;
            assert_agree(&format!("byte {at} ^ {xor:#x}"), &bytes);
        }
    }
}
