//! `cargo xtask fuzz`: every cargo-fuzz target (one file each in `fuzz/fuzz_targets/`) for a
//! fixed time each, from a seed corpus made at run time by `fuzz/seed.sh` (the shared corpus
//! and files generated from it: compressed, in pzstd frames, UTF-16), never committed.
//!
//! The targets need the nightly toolchain and cargo-fuzz ([`CARGO_FUZZ`], installed if
//! missing, pinned). They are built without a sanitizer (`-s none`): the libraries forbid
//! `unsafe`, and one build serves every target (AddressSanitizer costs a build of its own
//! and a factor of about five in executions). Memory is bounded by libFuzzer's limits
//! ([`LIMITS`]), so a decoder that allocates what a hostile file asks for is a crash.

use std::fs::File;
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
///
/// What libFuzzer prints (a line for every input that finds something new: about 4 MB for
/// the 13 targets' smoke run) goes to `fuzz/target/logs/<target>.log`, not to our output:
/// a target that passes prints one line of its figures, and one that fails prints the end
/// of its log, so a failure is the last thing a CI log shows, not buried under the others.
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
    let logs = fuzz.join("target").join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("{}: {e}", logs.display()))?;
    for target in targets {
        let time = format!("-max_total_time={seconds}");
        let corpus = format!("corpus/{target}");
        let log = logs.join(format!("{target}.log"));
        let mut run = Command::new("cargo");
        run.current_dir(fuzz)
            .args(["+nightly", "fuzz", "run", "-s", "none", target, &corpus])
            .args(["--", &time])
            .args(seed.map(|seed| format!("-seed={seed}")))
            .args(LIMITS);
        run_logged(&mut run, target, &log)?;
    }
    Ok(())
}

/// Lines of a failed target's log printed: its crash report and the input's path are at
/// the end.
const FAILED_LOG_LINES: usize = 80;

/// Runs one target with its output in `log`; prints libFuzzer's closing figures when it
/// passes and the log's last [`FAILED_LOG_LINES`] lines when it fails.
fn run_logged(run: &mut Command, target: &str, log: &Path) -> Result<(), String> {
    let shown = crate::cmd::show(run);
    eprintln!("$ {shown} > {}", log.display());
    let file = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let status = run
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let text = log_end(log).map_err(|e| format!("{}: {e}", log.display()))?;
    if status.success() {
        eprintln!("fuzz {target}: {}", summary(&text));
        return Ok(());
    }
    let lines: Vec<&str> = text.lines().collect();
    let tail = &lines[lines.len().saturating_sub(FAILED_LOG_LINES)..];
    eprintln!(
        "--- the last {} lines of {} ---\n{}\n---",
        tail.len(),
        log.display(),
        tail.join("\n")
    );
    Err(format!(
        "fuzz target `{target}` failed ({status}); its whole output: {}; a crash's input \
         is in fuzz/artifacts/{target}/",
        log.display()
    ))
}

/// Bytes read from the end of a target's log: its closing figures, dictionary and crash
/// report fit, however long a run's progress lines made the whole.
const LOG_END_BYTES: u64 = 256 << 10;

/// The last [`LOG_END_BYTES`] of `log`, from the first whole line in them.
fn log_end(log: &Path) -> std::io::Result<String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(log)?;
    let start = file.metadata()?.len().saturating_sub(LOG_END_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(match text.split_once('\n') {
        Some((_, rest)) if start > 0 => rest.to_string(),
        _ => text.into_owned(),
    })
}

/// libFuzzer's closing figures from a passing run's output: its last `DONE` status line
/// (coverage, features, corpus) and its `Done N runs in S second(s)` line.
fn summary(text: &str) -> String {
    let done = text
        .lines()
        .rev()
        .find(|line| line.contains("\tDONE "))
        .and_then(|line| line.split_once("DONE"))
        .map(|(_, figures)| figures.trim().to_string());
    let runs = text
        .lines()
        .rev()
        .find(|line| line.starts_with("Done "))
        .map(str::trim);
    match (runs, done) {
        (Some(runs), Some(done)) => format!("{runs}; {done}"),
        (Some(runs), None) => runs.to_string(),
        (None, Some(done)) => done,
        (None, None) => "passed (libFuzzer printed no closing figures)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passing_run_is_summed_up_by_its_closing_lines() {
        let log = "INFO: Seed: 1\n#41\tINITED cov: 1920 ft: 3561\n\
                   #50932\tDONE   cov: 2653 ft: 12560 corp: 2658/2836Kb\n\
                   ###### Recommended dictionary. ######\n\"Site\" # Uses: 39\n\
                   Done 50932 runs in 11 second(s)\n";
        assert_eq!(
            summary(log),
            "Done 50932 runs in 11 second(s); cov: 2653 ft: 12560 corp: 2658/2836Kb"
        );
        assert_eq!(
            summary("nothing\n"),
            "passed (libFuzzer printed no closing figures)"
        );
    }

    #[test]
    fn a_run_goes_to_its_log_and_a_failure_names_it() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("t.log");
        let mut passes = Command::new("sh");
        passes.args(["-c", "echo 'Done 5 runs in 1 second(s)'; echo noise >&2"]);
        run_logged(&mut passes, "t", &log).unwrap();
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.contains("Done 5 runs") && text.contains("noise"),
            "{text}"
        );

        let mut fails = Command::new("sh");
        fails.args(["-c", "seq 1 200; echo '==1== deadly signal' >&2; exit 77"]);
        let err = run_logged(&mut fails, "t", &log).unwrap_err();
        assert!(err.contains("`t` failed") && err.contains("t.log"), "{err}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.starts_with("1\n") && text.contains("deadly signal"),
            "{text}"
        );

        // A log longer than what is read of it: its end, from a whole line.
        std::fs::write(&log, "x".repeat(LOG_END_BYTES as usize) + "\nDone 9 runs\n").unwrap();
        assert_eq!(log_end(&log).unwrap(), "Done 9 runs\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
