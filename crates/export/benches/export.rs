//! Export throughput on the bench file (`target/bench.pgn`, built by
//! `../shared/corpus/bench-file.sh` when missing; `PGNKIT_BENCH_FILE`
//! overrides): read + validate + export with the streaming writer, the same
//! through a `Game` tree, and the baseline pgn-reader + shakmaty doing
//! validate + SAN-with-suffix writing.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pgnkit_export::{ExportOptions, GameWriter, StreamWriter};
use pgnkit_game::{ReadOptions, read_games, visit_games};

fn bench_file() -> PathBuf {
    if let Some(file) = std::env::var_os("PGNKIT_BENCH_FILE") {
        return PathBuf::from(file);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("target/bench.pgn");
    if !file.exists() {
        let corpus = std::env::var_os("PGNKIT_CORPUS")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../shared/corpus"));
        let status = Command::new(corpus.join("bench-file.sh"))
            .arg(&file)
            .status()
            .expect("run bench-file.sh (is the corpus at PGNKIT_CORPUS?)");
        assert!(status.success(), "bench-file.sh failed");
    }
    file
}

/// Read + validate + export, streaming: returns (games written, bytes).
fn stream_export(data: &[u8], out: &mut Vec<u8>) -> (u64, usize) {
    out.clear();
    let mut games = visit_games(
        data,
        StreamWriter::new(ExportOptions::export()),
        ReadOptions::default(),
    );
    let mut written = 0;
    while let Some(read) = games.next() {
        if !read.is_broken() {
            games.visitor().write_game_to(out).expect("Vec");
            written += 1;
        }
    }
    (written, out.len())
}

/// Read into trees + export.
fn tree_export(data: &[u8], out: &mut Vec<u8>) -> (u64, usize) {
    out.clear();
    let mut writer = GameWriter::new(ExportOptions::export());
    let mut written = 0;
    for read in read_games(data) {
        if !read.is_broken() {
            writer.write(&read.value, out).expect("Vec");
            written += 1;
        }
    }
    (written, out.len())
}

/// The baseline: pgn-reader + shakmaty validating every move (variations
/// included) and writing SAN with its suffix.
mod baseline {
    use super::*;
    use pgn_reader::{RawTag, Reader, SanPlus as RawSanPlus, Skip, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::san::SanPlus;
    use shakmaty::{CastlingMode, Chess};

    pub struct Validate {
        pub out: String,
    }

    pub struct Line {
        pos: Chess,
        prev: Chess,
        stack: Vec<(Chess, Chess)>,
        ok: bool,
    }

    impl Visitor for Validate {
        type Tags = Option<Chess>;
        type Movetext = Line;
        type Output = bool;

        fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
            ControlFlow::Continue(None)
        }

        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<bool> {
            if name == b"FEN" {
                let pos = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
                match pos {
                    Some(pos) => *tags = Some(pos),
                    None => return ControlFlow::Break(false),
                }
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Line> {
            let pos = tags.unwrap_or_default();
            ControlFlow::Continue(Line {
                prev: pos.clone(),
                pos,
                stack: Vec::new(),
                ok: true,
            })
        }

        fn san(&mut self, line: &mut Line, san_plus: RawSanPlus) -> ControlFlow<bool> {
            match san_plus.san.to_move(&line.pos) {
                Ok(m) => {
                    line.prev = line.pos.clone();
                    let san = SanPlus::from_move_and_play_unchecked(&mut line.pos, m);
                    san.append_to_string(&mut self.out);
                    self.out.push(' ');
                    ControlFlow::Continue(())
                }
                Err(_) => {
                    line.ok = false;
                    ControlFlow::Break(false)
                }
            }
        }

        fn begin_variation(&mut self, line: &mut Line) -> ControlFlow<bool, Skip> {
            line.stack.push((line.pos.clone(), line.prev.clone()));
            line.pos = line.prev.clone();
            ControlFlow::Continue(Skip(false))
        }

        fn end_variation(&mut self, line: &mut Line) -> ControlFlow<bool> {
            if let Some((pos, prev)) = line.stack.pop() {
                line.pos = pos;
                line.prev = prev;
            }
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, line: Line) -> bool {
            line.ok
        }
    }

    pub fn run(data: &[u8]) -> u64 {
        let mut reader = Reader::new(data);
        let mut visitor = Validate { out: String::new() };
        let mut ok = 0;
        while let Ok(Some(valid)) = reader.read_game(&mut visitor) {
            ok += u64::from(valid);
            visitor.out.clear();
        }
        ok
    }
}

fn export(c: &mut Criterion) {
    let path = bench_file();
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::with_capacity(data.len() + data.len() / 4);

    let (written, bytes) = stream_export(&data, &mut out);
    assert!(written > 1000, "only {written} games written");
    assert!(
        bytes > data.len() / 2,
        "export suspiciously short: {bytes} bytes"
    );
    let (tree_written, _) = tree_export(&data, &mut out);
    assert_eq!(tree_written, written);
    let baseline_ok = baseline::run(&data);
    assert!(baseline_ok > 1000);
    eprintln!(
        "bench file {}: {} bytes, {written} games exported, baseline validated {baseline_ok}",
        path.display(),
        data.len()
    );

    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("read+validate+export (stream)", |b| {
        b.iter(|| {
            let (n, _) = stream_export(black_box(&data), &mut out);
            assert_eq!(n, written);
        })
    });
    group.bench_function("read tree+export", |b| {
        b.iter(|| black_box(tree_export(black_box(&data), &mut out)))
    });
    group.bench_function("baseline pgn-reader+shakmaty validate+SAN", |b| {
        b.iter(|| black_box(baseline::run(black_box(&data))))
    });
    group.finish();
}

criterion_group!(benches, export);
criterion_main!(benches);
