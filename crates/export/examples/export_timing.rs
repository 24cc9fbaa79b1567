//! Times reading alone and reading + export on one file:
//! `cargo run --release -p pgnkit-export --example export_timing -- FILE`.

use std::time::Instant;

use pgnkit_export::{ExportOptions, StreamWriter};
use pgnkit_game::{ReadOptions, Validate, visit_games};

fn main() {
    let path = std::env::args().nth(1).expect("usage: export_timing FILE");
    let data = std::fs::read(&path).expect("readable file");
    for _ in 0..2 {
        let t = Instant::now();
        let n = visit_games(&data, Validate, ReadOptions::default()).count();
        let validate = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut out = Vec::with_capacity(data.len());
        let mut games = visit_games(
            &data,
            StreamWriter::new(ExportOptions::export()),
            ReadOptions::default(),
        );
        while let Some(read) = games.next() {
            if !read.is_broken() {
                games.visitor().write_game_to(&mut out).expect("Vec");
            }
        }
        let export = t.elapsed().as_secs_f64();
        let mb = data.len() as f64 / 1e6;
        println!(
            "{n} games, {mb:.1} MB: validate {validate:.2}s ({:.1} MB/s), validate+export {export:.2}s ({:.1} MB/s, {:.0} games/s), output {} bytes",
            mb / validate,
            mb / export,
            n as f64 / export,
            out.len()
        );
    }
}
