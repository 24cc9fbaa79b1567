//! `cargo xtask ci`: everything a change must pass before it lands.

use crate::cmd::{cargo, exec};

/// Runs fmt, clippy, the release list and feature builds, the tests, the docs, the
/// conformance table, the instruction-count guard, the Python tests, the JavaScript package's
/// and web page's tests and a fuzz smoke test
/// (when nightly and cargo-fuzz are here), in that order, stopping at the first failure.
pub fn run_ci() -> Result<(), String> {
    exec(&mut cargo(&["fmt", "--all", "--", "--check"]))?;
    exec(&mut cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The published crates (list, order, metadata, `cargo package --list`) and the
    // facade's feature builds: the cheap part of `release-check`.
    crate::release::cheap_checks()?;
    exec(&mut cargo(&["test", "--workspace"]))?;
    // Private items too: the docs developers read (module maps, invariants)
    // keep their links checked like the public ones.
    let mut doc = cargo(&[
        "doc",
        "--workspace",
        "--no-deps",
        "--document-private-items",
    ]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    exec(&mut doc)?;
    facade_docs()?;
    examples()?;
    crate::conformance::run(&[])?;
    // The instruction-count guard (issue 34): a release build of the CLI, then `check`,
    // `export` and `convert` under callgrind on a fixed sample, and the Python `read_games`
    // loop over a release wheel it builds and installs apart (so it needs no step of
    // `pytest` before it), against bench/instructions.json; more than 2% above it fails.
    crate::bench_instructions::run(false)?;
    pytest(&[])?;
    // The npm package: built for wasm32 and tested from Node against the command (its memory
    // test too), its TypeScript declarations checked with tsc, and the web page tested in
    // headless Chromium (xtask/src/wasm_web.rs).
    crate::wasm::run(&["--test".to_owned()])?;
    fuzz_smoke()?;
    eprintln!("xtask ci: all checks passed");
    Ok(())
}

/// Seconds each fuzz target runs in CI: a smoke test (the targets build, their seeds, the
/// committed findings and a few thousand mutations pass), not a search; `cargo xtask fuzz`
/// runs them longer.
pub const FUZZ_SMOKE_SECONDS: u32 = 10;

/// libFuzzer's seed in CI: the same mutations every run, so CI fails for a change, not for
/// what a random search happened to reach that day (a fresh search is `cargo xtask fuzz`,
/// which finds new inputs; they are fixed and kept in `fuzz/findings/`).
pub const FUZZ_SMOKE_SEED: u32 = 1;

/// Every fuzz target for [`FUZZ_SMOKE_SECONDS`] when the nightly toolchain and cargo-fuzz
/// are here (as on CI's machine); otherwise a loud skip.
fn fuzz_smoke() -> Result<(), String> {
    if !crate::fuzz::available() {
        eprintln!(
            "\n*** xtask ci: fuzz smoke SKIPPED: `cargo +nightly fuzz` does not run here \
             (no nightly toolchain, or no cargo-fuzz: `cargo install --locked cargo-fuzz \
             --version {}`). The fuzz targets were not built nor run. ***\n",
            crate::fuzz::CARGO_FUZZ
        );
        return Ok(());
    }
    let fuzz = crate::cmd::root().join("fuzz");
    let targets = crate::fuzz::targets(&fuzz)?;
    crate::fuzz::run_targets(&fuzz, &targets, FUZZ_SMOKE_SECONDS, Some(FUZZ_SMOKE_SEED))
}

/// The facade's docs as a dependent reads them (what docs.rs shows): public
/// items only, every intra-doc link resolving.
fn facade_docs() -> Result<(), String> {
    let mut doc = cargo(&["doc", "-p", "pgnkit", "--no-deps"]);
    doc.env(
        "RUSTDOCFLAGS",
        "-D warnings -D rustdoc::broken_intra_doc_links",
    );
    exec(&mut doc)
}

/// The facade's examples that check their own results: one for each task a
/// newcomer tries first (issue 37), and a few more. Those that read the
/// corpus find it through `PGNKIT_CORPUS`, as the tests do. (`tasks` is the
/// benchmark's program and takes a file.)
pub const EXAMPLES: &[&str] = &[
    "read_file",
    "build_game",
    "equality",
    "main_line",
    "play_from_fen",
    "parallel_reader",
    "count_games",
    "compressed_input",
    "query_eco",
    "errors",
    "broken_game",
    "json_round_trip",
    "variations",
    "stdin_and_str",
];

/// Runs every example of [`EXAMPLES`]; each fails (a panic) when its result
/// is wrong. Standard input is empty, so no example waits for it.
fn examples() -> Result<(), String> {
    for name in EXAMPLES {
        let mut run = cargo(&["run", "--quiet", "-p", "pgnkit", "--example", name]);
        run.stdin(std::process::Stdio::null());
        exec(&mut run)?;
    }
    Ok(())
}

/// Entry point for `cargo xtask ci`.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`ci` takes no arguments (got `{arg}`)"));
    }
    run_ci()
}

/// Entry point for `cargo xtask pytest`: builds the `pgnkit` binary and
/// runs the Python tests against it.
pub fn pytest(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`pytest` takes no arguments (got `{arg}`)"));
    }
    exec(&mut cargo(&["build", "-p", "pgnkit-cli"]))?;
    let binary = crate::cmd::root()
        .join("target")
        .join("debug")
        .join(format!("pgnkit{}", std::env::consts::EXE_SUFFIX));
    crate::python::run_pytest(&binary)
}

#[cfg(test)]
mod tests {
    use super::EXAMPLES;

    #[test]
    fn ci_runs_every_example_of_the_facade_but_the_benchmark_s() {
        let dir = crate::cmd::root().join("crates/pgnkit/examples");
        let mut found: Vec<String> = std::fs::read_dir(&dir)
            .expect("the examples folder")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                Some(name.strip_suffix(".rs")?.to_owned())
            })
            .filter(|name| name != "tasks")
            .collect();
        found.sort();
        let mut listed: Vec<String> = EXAMPLES.iter().map(|&e| e.to_owned()).collect();
        listed.sort();
        assert_eq!(
            listed,
            found,
            "EXAMPLES in xtask/src/ci.rs and {}",
            dir.display()
        );
    }
}
