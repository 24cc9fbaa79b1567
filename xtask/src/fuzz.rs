//! `cargo xtask fuzz`: every cargo-fuzz target (one file each in `fuzz/fuzz_targets/`) for a
//! fixed time each, from a seed corpus made at run time by `fuzz/seed.sh` (the shared corpus
//! and files generated from it: compressed, in pzstd frames, UTF-16), never committed.
//!
//! The targets need the nightly toolchain and cargo-fuzz ([`CARGO_FUZZ`], installed if
//! missing, pinned). They are built without a sanitizer (`-s none`): the libraries forbid
//! `unsafe`, and one build serves every target (AddressSanitizer costs a build of its own
//! and a factor of about five in executions). Memory is bounded by libFuzzer's limits
//! ([`LIMITS`]), so a decoder that allocates what a hostile file asks for is a crash.

use std::path::Path;
use std::process::Command;

use crate::cmd::{exec, root};

/// The cargo-fuzz release installed when none is (`cargo install --locked`).
pub const CARGO_FUZZ: &str = "0.13.1";

/// libFuzzer's memory limits for every target: RSS and a single allocation, in MiB.
const LIMITS: [&str; 2] = ["-rss_limit_mb=2048", "-malloc_limit_mb=512"];

/// Entry point for `cargo xtask fuzz [--list] [--seconds N] [TARGET...]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut seconds = 60;
    let mut chosen = Vec::new();
    let mut list = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--list" => list = true,
            "--seconds" => {
                let n = args.next().ok_or("--seconds takes a number of seconds")?;
                seconds = n
                    .parse::<u32>()
                    .map_err(|_| format!("--seconds takes a whole number, not `{n}`"))?;
            }
            flag if flag.starts_with('-') => {
                return Err(
                    "usage: cargo xtask fuzz [--list] [--seconds N] [TARGET...]".to_string()
                );
            }
            target => chosen.push(target.to_string()),
        }
    }
    let fuzz = root().join("fuzz");
    let all = targets(&fuzz)?;
    if list {
        for target in &all {
            println!("{target}");
        }
        return Ok(());
    }
    if let Some(unknown) = chosen.iter().find(|t| !all.contains(t)) {
        return Err(format!(
            "no fuzz target `{unknown}`; the targets: {}",
            all.join(", ")
        ));
    }
    let targets = if chosen.is_empty() { all } else { chosen };
    if !available() {
        exec(Command::new("cargo").args([
            "install",
            "--locked",
            "cargo-fuzz",
            "--version",
            CARGO_FUZZ,
        ]))?;
    }
    run_targets(&fuzz, &targets, seconds, None)?;
    eprintln!(
        "xtask fuzz: {} targets, {seconds} s each, no crash",
        targets.len()
    );
    Ok(())
}

/// Whether `cargo +nightly fuzz` runs here (the nightly toolchain and cargo-fuzz).
pub fn available() -> bool {
    Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The fuzz targets: the files of `fuzz/fuzz_targets`, sorted.
pub fn targets(fuzz: &Path) -> Result<Vec<String>, String> {
    let dir = fuzz.join("fuzz_targets");
    let mut targets: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| format!("no fuzz targets at {}: {e}", dir.display()))?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    targets.sort();
    if targets.is_empty() {
        return Err(format!("no fuzz targets in {}", dir.display()));
    }
    Ok(targets)
}

/// Seeds the corpus (`fuzz/seed.sh`), builds every target once and runs each of `targets`
/// for `seconds` on its corpus; the first crash fails (libFuzzer writes the input to
/// `fuzz/artifacts/<target>/`).
pub fn run_targets(
    fuzz: &Path,
    targets: &[String],
    seconds: u32,
    seed: Option<u32>,
) -> Result<(), String> {
    exec(Command::new("sh").arg(fuzz.join("seed.sh")))?;
    exec(
        Command::new("cargo")
            .current_dir(fuzz)
            .args(["+nightly", "fuzz", "build", "-s", "none"]),
    )?;
    for target in targets {
        let time = format!("-max_total_time={seconds}");
        let corpus = format!("corpus/{target}");
        exec(
            Command::new("cargo")
                .current_dir(fuzz)
                .args(["+nightly", "fuzz", "run", "-s", "none", target, &corpus])
                .args(["--", &time])
                .args(seed.map(|seed| format!("-seed={seed}")))
                .args(LIMITS),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_a_bin_and_a_readme_row() {
        let fuzz = root().join("fuzz");
        let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
        let readme = std::fs::read_to_string(fuzz.join("README.md")).expect("fuzz/README.md");
        let seed = std::fs::read_to_string(fuzz.join("seed.sh")).expect("fuzz/seed.sh");
        let targets = targets(&fuzz).expect("fuzz targets");
        assert!(targets.len() >= 12, "{targets:?}");
        for target in targets {
            assert!(
                manifest.contains(&format!("path = \"fuzz_targets/{target}.rs\"")),
                "{target} has no [[bin]] in fuzz/Cargo.toml"
            );
            assert!(
                readme.contains(&format!("| `{target}` |")),
                "{target} has no row in fuzz/README.md"
            );
            assert!(
                seed.contains(&format!("$out/{target}")),
                "fuzz/seed.sh seeds no corpus for {target}"
            );
        }
    }
}
