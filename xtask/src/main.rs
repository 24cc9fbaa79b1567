//! `cargo xtask`: the project's automation, in Rust so it runs wherever cargo does.
//!
//! ```text
//! cargo xtask ci                      fmt check, clippy -D warnings, tests, docs, conformance, instructions, pytest, fuzz smoke
//! cargo xtask pytest                  the Python tests (tests/python, crates/python/tests) in target/python-venv
//! cargo xtask conformance [--bless]   the conformance suite as a table per spec area
//! cargo xtask bench [FILE]           criterion throughput on the bench file (scan, validate, tree, export)
//! cargo xtask bench --peers [--pairs N] [FILE]
//!                                     ours against pgn-reader + shakmaty and pgn-extract, side by side
//! cargo xtask bench --convert [--pairs N] [--threads N] [--python-bytes N] [FILE]
//!                                     convert (games + moves Parquet) against check, peak RSS,
//!                                     the python-chess + pyarrow peer on a sample
//! cargo xtask bench --instructions [--bless]
//!                                     callgrind instruction counts of check, export, convert
//!                                     on a fixed sample against bench/instructions.json
//! cargo xtask fuzz [--list] [--seconds N] [TARGET...]  cargo-fuzz targets, N seconds each (60)
//! cargo xtask wasm [--test]           the `pgnkit` npm package (WebAssembly) in target/npm/pgnkit
//!                                     and the web page in target/web; --test runs its Node
//!                                     tests, the TypeScript check and the browser tests
//! cargo xtask public-api [--bless]   the public API against its committed listing
//! cargo xtask release-check [--allow-dirty] [--bless]
//!                                     published crates in order, feature builds, CHANGELOG
//!                                     entry, cargo package, docs, public API, Python wheel
//! ```
//!
//! The `tidy` tests (`cargo test -p xtask`) keep the workspace honest: the
//! crate graph in ARCHITECTURE.md, `//!` docs on every library file, no
//! pending insta snapshots.

mod bench;
mod bench_convert;
mod bench_instructions;
mod ci;
mod cmd;
mod conformance;
mod features;
mod fuzz;
mod peers;
mod python;
mod release;
#[cfg(test)]
mod tidy;
mod wasm;
mod wasm_web;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  ci                      fmt check, clippy (-D warnings), tests, docs (-D warnings), conformance,
                          the instruction-count guard (bench --instructions), the Python tests
  pytest                  the Python tests (tests/python: DuckDB and python-chess against
                          `pgnkit convert`; crates/python/tests: the `pgnkit` package, built
                          with maturin) in a venv under target/ (python3.11 or PGNKIT_PYTHON)
  conformance [--bless]   run the conformance suite and print a table per spec area;
                          --bless accepts changed snapshots (read them first!)
  bench [FILE]            criterion throughput (MB/s, games/s) of scan, validate, tree and export
                          on the bench file (built by ../shared/corpus/bench-file.sh under
                          target/ if missing)
  bench --peers [--pairs N] [FILE]
                          ours against pgn-reader + shakmaty (and pgn-extract when installed),
                          alternating A B pairs: median time, MB/s, games/s, peak RSS, ratios
  bench --convert [--pairs N] [--threads N] [--python-bytes N] [FILE]
                          `pgnkit convert` to games + moves Parquet against `pgnkit check`
                          (same threads, default 2), peak RSS on the file and on it 4 times,
                          and the python-chess + pyarrow peer on the first N bytes
                          (default 2000000; 0 skips it), extrapolated to the whole file
  bench --instructions [--bless]
                          instructions (callgrind Ir) of release `check`, `export` and
                          `convert`, one thread, on the first 4.2 MB of the bench file; fails
                          when one is more than 2% above bench/instructions.json (--bless
                          rewrites it)
  fuzz [--list] [--seconds N] [TARGET...]
                          list the fuzz targets, or run them (all by default) N seconds
                          each (default 60) from a seeded corpus; fails on a crash
  wasm [--test]           the `pgnkit` npm package (crates/wasm built for wasm32, wasm-bindgen-cli
                          at the crate's version installed under target/wasm-tools) in
                          target/npm/pgnkit, and the web page (web/) with it in target/web;
                          --test runs its Node tests (node --test), the differential ones
                          against target/debug/pgnkit on the corpus too, the memory test of
                          PgnReader, tsc --noEmit on web/tests/types.ts and the browser tests
                          (playwright-core, /usr/bin/chromium headless; web/tests)
  public-api [--bless]    the public API of every published library against public-api/*.txt
                          (cargo public-api, nightly rustdoc JSON); --bless rewrites them
  release-check [--allow-dirty] [--bless]
                          what must hold before publishing: the published crates (from cargo
                          metadata, in dependency order) and their crates.io metadata, the
                          facade's feature builds, the CHANGELOG entry, `cargo package` of
                          them all, docs with all features, the public API against
                          public-api/*.txt (--bless accepts a deliberate change), the release
                          wheel (abi3, manylinux) installed without Rust, the sdist.
                          It does not run `ci` or `fuzz`: run them too";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, rest) = match args.split_first() {
        Some((task, rest)) => (task.as_str(), rest),
        None => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match task {
        "ci" => ci::run(rest),
        "pytest" => ci::pytest(rest),
        "conformance" => conformance::run(rest),
        "bench" => bench::run(rest),
        "fuzz" => fuzz::run(rest),
        "release-check" => release::run(rest),
        "public-api" => release::api::run(rest),
        "wasm" => wasm::run(rest),
        "help" | "-h" | "--help" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown task `{other}`\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}
