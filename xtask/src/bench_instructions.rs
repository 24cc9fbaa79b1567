//! `cargo xtask bench --instructions [--bless]`: the instruction-count guard (issue 34).
//!
//! Wall-clock figures mean little on a shared machine; instruction counts do not move with
//! the load. This task builds the release CLI, cuts a fixed sample from the bench file
//! ([`SAMPLE_BYTES`] at most, ending at a game boundary), runs each task of [`TASKS`] on it
//! under `valgrind --tool=callgrind` and reads callgrind's total of executed instructions
//! (`Ir`). It then builds the Python package's release wheel, installs it apart from the
//! environment's own (in `target/bench-instructions/python`, first on `PYTHONPATH`) and
//! counts the Python `read_games` loop ([`PYTHON_TASK`], [`PYTHON_SCRIPT`]): the loop's run
//! less a run that imports `pgnkit` and reads nothing, so Python's start-up is not counted.
//! It compares the counts with the committed baseline ([`BASELINE`]) and fails when any
//! count is more than [`TOLERANCE_PERCENT`] above its baseline; `--bless` rewrites the
//! baseline instead (a deliberate commit that says why).
//!
//! A thin wrapper around valgrind rather than the iai-callgrind crate: the guard measures
//! whole processes (the command as users run it), valgrind is installed by `.ci/run`, and no
//! new dependency (nor a runner binary whose version must match the crate's) is needed.
//! Callgrind counts the same instructions every run (within 0.2% for `convert`, whose
//! Parquet writer hashes with random seeds), unlike `perf stat`, which also needs
//! `perf_event_paranoid` to allow it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::cmd::{cargo, exec, output, root, show};

/// The committed baseline, relative to the workspace root.
pub const BASELINE: &str = "bench/instructions.json";

/// The sample: at most this many bytes of the bench file, cut before the first `[Event `
/// line that does not fit (the 4.2 MB sample of docs/performance.md, whole games only).
pub const SAMPLE_BYTES: usize = 4_200_000;

/// A count more than this percentage above its baseline fails the guard.
pub const TOLERANCE_PERCENT: u64 = 2;

/// The measured tasks: a name and the CLI's arguments, `{sample}` and `{out}` replaced by
/// the sample file and the output folder. One thread each, so the counts are one core's work.
pub const TASKS: &[(&str, &[&str])] = &[
    ("check", &["check", "{sample}", "--threads", "1"]),
    (
        "export",
        &[
            "export",
            "{sample}",
            "--threads",
            "1",
            "-o",
            "{out}/export.pgn",
        ],
    ),
    (
        "convert",
        &[
            "convert",
            "{sample}",
            "--threads",
            "1",
            "-o",
            "{out}/games.parquet",
            "--moves",
            "{out}/moves.parquet",
        ],
    ),
];

/// The Python entry's name in the baseline: `pgnkit.read_games` over the sample.
pub const PYTHON_TASK: &str = "read_games";

/// The Python entry's script, relative to the workspace root: with the sample it reads every
/// game, touching its headers and main-line moves; with `--import-only` it imports `pgnkit`
/// and reads nothing (the count subtracted).
pub const PYTHON_SCRIPT: &str = "bench/python/instructions_read_games.py";

/// Entry point for `cargo xtask bench --instructions [--bless]`.
pub fn run(bless: bool) -> Result<(), String> {
    let valgrind = valgrind_version()?;
    exec(&mut cargo(&["build", "--release", "-p", "pgnkit-cli"]))?;
    let binary = root()
        .join("target/release")
        .join(format!("pgnkit{}", std::env::consts::EXE_SUFFIX));
    let out = root().join("target/bench-instructions");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bench = pgnkit_corpus::try_bench_file()?;
    let sample = Sample::cut(&bench, &out.join("sample.pgn"))?;
    let started = std::time::Instant::now();
    let mut counts = BTreeMap::new();
    for (task, args) in TASKS {
        counts.insert(
            (*task).to_owned(),
            count(&binary, args, &sample.path, &out)?,
        );
    }
    let python = Python::install(&out)?;
    counts.insert(PYTHON_TASK.to_owned(), python.count(&sample.path, &out)?);
    let seconds = started.elapsed().as_secs_f64();
    let baseline_path = root().join(BASELINE);
    if bless {
        let text = baseline_json(&sample, &valgrind, &python.version, &counts);
        std::fs::write(&baseline_path, text)
            .map_err(|e| format!("{}: {e}", baseline_path.display()))?;
        for (task, now) in &counts {
            println!("{task:<10} {now:>14}");
        }
        println!(
            "wrote {BASELINE} ({seconds:.1} s under callgrind); commit it saying why the counts changed"
        );
        return Ok(());
    }
    let baseline = read_baseline(&baseline_path)?;
    if baseline.sample != sample.description() {
        return Err(format!(
            "the sample differs from the one {BASELINE} was measured on \
             (baseline: {}; now: {}): the corpus or the bench file changed; \
             check, then rewrite the baseline with `cargo xtask bench --instructions --bless`",
            baseline.sample,
            sample.description()
        ));
    }
    let report = compare(&baseline.counts, &counts);
    println!("{}", report.table);
    println!(
        "({seconds:.1} s under callgrind, {valgrind}, {})",
        python.version
    );
    if baseline.python.as_deref() != Some(python.version.as_str()) {
        eprintln!(
            "note: {BASELINE} counted the Python entry with {}; this is {}",
            baseline.python.as_deref().unwrap_or("no Python"),
            python.version
        );
    }
    if report.failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "instruction counts more than {TOLERANCE_PERCENT}% above {BASELINE}: {}; \
             make the change cheaper, or rewrite the baseline with \
             `cargo xtask bench --instructions --bless` in a commit that says why",
            report.failures.join(", ")
        ))
    }
}

/// `valgrind --version`, or an error saying how to install it.
fn valgrind_version() -> Result<String, String> {
    let out = Command::new("valgrind")
        .arg("--version")
        .output()
        .map_err(|e| {
            format!("valgrind is needed for the instruction counts ({e}); `.ci/run` installs it")
        })?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The sample cut from the bench file, and what identifies it.
struct Sample {
    path: PathBuf,
    bytes: usize,
    games: usize,
    hash: u64,
}

impl Sample {
    /// Writes the sample of `bench` to `path`: its first [`SAMPLE_BYTES`] bytes at most,
    /// ending before an `[Event ` line.
    fn cut(bench: &Path, path: &Path) -> Result<Sample, String> {
        let data = std::fs::read(bench).map_err(|e| format!("{}: {e}", bench.display()))?;
        let bytes = sample_len(&data, SAMPLE_BYTES);
        if bytes == 0 {
            return Err(format!(
                "{}: no game ends within its first {SAMPLE_BYTES} bytes",
                bench.display()
            ));
        }
        let sample = &data[..bytes];
        std::fs::write(path, sample).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Sample {
            path: path.to_owned(),
            bytes,
            games: event_lines(sample),
            hash: fnv1a(sample),
        })
    }

    /// How the baseline names the sample; a different sample cannot be compared.
    fn description(&self) -> String {
        format!(
            "the first {} bytes of the bench file ({} games by `[Event ` lines, FNV-1a {:016x})",
            self.bytes, self.games, self.hash
        )
    }
}

/// The length of the longest prefix of `data` of at most `limit` bytes that is followed by
/// an `[Event ` line (or is the whole of `data`); 0 when there is none.
fn sample_len(data: &[u8], limit: usize) -> usize {
    if data.len() <= limit {
        return data.len();
    }
    let mut end = 0;
    let mut at = 0;
    while at <= limit {
        if data[at..].starts_with(b"[Event ") && (at == 0 || data[at - 1] == b'\n') {
            end = at;
        }
        match data[at..].iter().position(|&b| b == b'\n') {
            Some(newline) => at += newline + 1,
            None => break,
        }
    }
    end
}

fn event_lines(data: &[u8]) -> usize {
    data.split(|&b| b == b'\n')
        .filter(|line| line.starts_with(b"[Event "))
        .count()
}

/// 64-bit FNV-1a: a fingerprint of the sample without a hashing dependency.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs one task under callgrind and returns its total `Ir`.
fn count(binary: &Path, args: &[&str], sample: &Path, out: &Path) -> Result<u64, String> {
    let mut command = Command::new(binary);
    for arg in args {
        command.arg(
            arg.replace("{sample}", &sample.to_string_lossy())
                .replace("{out}", &out.to_string_lossy()),
        );
    }
    // `check` and the writers exit 1 when some games have errors (the bench file has a
    // few); only 2 and above (usage, I/O, valgrind's own failure) is a failure.
    callgrind(&command, out, 1)
}

/// Runs `program` (its program, arguments and environment) under callgrind and returns its
/// total `Ir`; an exit status above `worst_ok` is a failure.
fn callgrind(program: &Command, out: &Path, worst_ok: i32) -> Result<u64, String> {
    let profile = out.join("callgrind.out");
    let mut command = Command::new("valgrind");
    command
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", profile.display()))
        .arg(program.get_program())
        .args(program.get_args());
    for (key, value) in program.get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    let shown = show(&command);
    eprintln!("$ {shown}");
    let result = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    if result.status.code().is_none_or(|code| code > worst_ok) {
        return Err(format!(
            "`{shown}` failed ({}):\n{}",
            result.status,
            String::from_utf8_lossy(&result.stderr)
        ));
    }
    let text =
        std::fs::read_to_string(&profile).map_err(|e| format!("{}: {e}", profile.display()))?;
    total_ir(&text).ok_or_else(|| format!("{}: no `summary:` line", profile.display()))
}

/// The Python package's release wheel installed for the guard alone: the environment's
/// `python` ([`crate::python::ensure_venv`]) with the package in a folder of its own first on
/// `PYTHONPATH`, so the environment's installed package (the debug wheel `cargo xtask
/// pytest` tests) stays as it is, and the guard needs no earlier step of `cargo xtask ci`.
struct Python {
    python: PathBuf,
    site: PathBuf,
    /// `python --version`, for the baseline.
    version: String,
}

impl Python {
    fn install(out: &Path) -> Result<Python, String> {
        let python = crate::python::ensure_venv()?;
        let wheel = crate::python::build_wheel(true)?;
        let site = out.join("python");
        if site.exists() {
            std::fs::remove_dir_all(&site).map_err(|e| format!("{}: {e}", site.display()))?;
        }
        exec(
            crate::python::pip_install(&python, &wheel)
                .arg("--target")
                .arg(&site),
        )?;
        let version = output(Command::new(&python).arg("--version"))?
            .trim()
            .to_owned();
        Ok(Python {
            python,
            site,
            version,
        })
    }

    /// The script run with this package: hash seed fixed (Python's start-up and dicts do
    /// the same work every run), no user site, no bytecode written.
    fn command(&self, args: &[&std::ffi::OsStr]) -> Command {
        let mut command = Command::new(&self.python);
        command
            .arg(root().join(PYTHON_SCRIPT))
            .args(args)
            .current_dir(root())
            .env("PYTHONPATH", &self.site)
            .env("PYTHONHASHSEED", "0")
            .env("PYTHONNOUSERSITE", "1")
            .env("PYTHONDONTWRITEBYTECODE", "1");
        command
    }

    /// The loop's count less the import-only run's.
    fn count(&self, sample: &Path, out: &Path) -> Result<u64, String> {
        let reading = callgrind(&self.command(&[sample.as_os_str()]), out, 0)?;
        let importing = callgrind(&self.command(&["--import-only".as_ref()]), out, 0)?;
        reading.checked_sub(importing).ok_or_else(|| {
            format!(
                "{PYTHON_SCRIPT}: the loop counted {reading} instructions, \
                 fewer than importing pgnkit alone ({importing})"
            )
        })
    }
}

/// The `summary:` (or `totals:`) line of a callgrind profile: the first event's total, `Ir`.
fn total_ir(profile: &str) -> Option<u64> {
    profile.lines().find_map(|line| {
        let rest = line
            .strip_prefix("summary:")
            .or_else(|| line.strip_prefix("totals:"))?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

/// The baseline as read from [`BASELINE`].
struct Baseline {
    sample: String,
    /// The Python the Python entry was counted with (`python --version`).
    python: Option<String>,
    counts: BTreeMap<String, u64>,
}

fn read_baseline(path: &Path) -> Result<Baseline, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: {e} (write it with `cargo xtask bench --instructions --bless`)",
            path.display()
        )
    })?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let sample = value["sample"]
        .as_str()
        .ok_or_else(|| format!("{}: no \"sample\" string", path.display()))?
        .to_owned();
    let counts = value["instructions"]
        .as_object()
        .ok_or_else(|| format!("{}: no \"instructions\" object", path.display()))?
        .iter()
        .map(|(task, n)| {
            n.as_u64()
                .map(|n| (task.clone(), n))
                .ok_or_else(|| format!("{}: \"{task}\" is not a count", path.display()))
        })
        .collect::<Result<_, _>>()?;
    let python = value["python"].as_str().map(str::to_owned);
    Ok(Baseline {
        sample,
        python,
        counts,
    })
}

fn baseline_json(
    sample: &Sample,
    valgrind: &str,
    python: &str,
    counts: &BTreeMap<String, u64>,
) -> String {
    let mut commands: BTreeMap<String, String> = TASKS
        .iter()
        .map(|(task, args)| (task.to_string(), format!("pgnkit {}", args.join(" "))))
        .collect();
    commands.insert(
        PYTHON_TASK.to_owned(),
        format!("python {PYTHON_SCRIPT} {{sample}}, less python {PYTHON_SCRIPT} --import-only"),
    );
    let value = serde_json::json!({
        "about": format!(
            "Instruction counts (callgrind Ir) on the sample, one thread: the release CLI's \
             whole process, and the Python `read_games` loop over the release wheel (its \
             process less one that imports pgnkit and reads nothing). `cargo xtask bench \
             --instructions` fails when one is more than {TOLERANCE_PERCENT}% above; \
             `--bless` rewrites this file (commit it saying why)."
        ),
        "sample": sample.description(),
        "valgrind": valgrind,
        "python": python,
        "commands": commands,
        "instructions": counts,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("a JSON value prints");
    text.push('\n');
    text
}

/// The comparison table and the tasks that failed it.
struct Report {
    table: String,
    failures: Vec<String>,
}

fn compare(baseline: &BTreeMap<String, u64>, counts: &BTreeMap<String, u64>) -> Report {
    let mut table = format!(
        "{:<10} {:>14} {:>14} {:>9}",
        "task", "baseline", "now", "change"
    );
    let mut failures = Vec::new();
    for (task, &now) in counts {
        let Some(&before) = baseline.get(task) else {
            table.push_str(&format!("\n{task:<10} {:>14} {now:>14}", "-"));
            failures.push(format!("{task} has no baseline"));
            continue;
        };
        let change = (now as f64 / before as f64 - 1.0) * 100.0;
        table.push_str(&format!(
            "\n{task:<10} {before:>14} {now:>14} {change:>+8.2}%"
        ));
        // In integers: exactly 2% above its baseline still passes.
        if u128::from(now) * 100 > u128::from(before) * u128::from(100 + TOLERANCE_PERCENT) {
            failures.push(format!("{task} {change:+.2}%"));
        }
    }
    Report { table, failures }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_ends_before_the_last_event_line_that_fits() {
        let data = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        let second = data.windows(8).rposition(|w| w == b"[Event \"").unwrap();
        assert_eq!(sample_len(data, second + 3), second);
        assert_eq!(sample_len(data, second), second);
        assert_eq!(sample_len(data, second - 1), 0);
        assert_eq!(sample_len(data, data.len()), data.len());
        // An `[Event ` that does not start a line is not a boundary.
        assert_eq!(sample_len(b"x [Event \"a\"]\nmore text", 5), 0);
    }

    #[test]
    fn the_total_comes_from_the_summary_line() {
        let profile = "version: 1\nevents: Ir\nfn=main\n1 5\nsummary: 96286144\ntotals: 1\n";
        assert_eq!(total_ir(profile), Some(96_286_144));
        assert_eq!(total_ir("events: Ir\n"), None);
    }

    #[test]
    fn a_count_more_than_the_tolerance_above_its_baseline_fails() {
        let baseline = BTreeMap::from([("check".to_owned(), 1_000_000), ("export".into(), 100)]);
        let counts = BTreeMap::from([("check".to_owned(), 1_020_000), ("export".into(), 103)]);
        let report = compare(&baseline, &counts);
        assert_eq!(report.failures, ["export +3.00%"]);
        let counts = BTreeMap::from([("check".to_owned(), 1_020_001), ("new".into(), 1)]);
        let report = compare(&baseline, &counts);
        assert_eq!(report.failures, ["check +2.00%", "new has no baseline"]);
    }
}
