//! `cargo xtask bench --peers`: pgnkit side by side with pgn-reader + shakmaty
//! (and pgn-extract when it is installed), as separate processes on the same
//! file.
//!
//! Both sides are release builds of small programs with the same four tasks
//! and the same one-line output: pgnkit's `tasks` example
//! (`crates/pgnkit/examples/tasks.rs`) and the `peers` binary
//! (`bench/peers`). For each task the two run alternately, ours then the
//! peer's (one warm-up pair, then the measured pairs), so a machine whose load
//! changes hurts both the same. Wall time is measured here around each
//! process; peak RSS comes from `/usr/bin/time -f "%M %U %S"` when it is
//! installed (Debian package `time`). The output lines of the two sides must
//! agree (games and bytes read, or perft nodes); a mismatch is printed, not
//! hidden, and makes the task fail after the table.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::cmd::{cargo, exec, root, show};

pub mod positions;
pub mod select;

/// `/usr/bin/time`, the source of peak RSS and CPU time.
const TIME: &str = "/usr/bin/time";

/// Where Debian's `pgn-extract` package puts the program.
const DEBIAN_PGN_EXTRACT: &str = "/usr/games/pgn-extract";

/// The tasks both sides implement, with whether they read the file.
const TASKS: &[(&str, bool)] = &[
    ("scan", true),
    ("validate", true),
    ("san", true),
    ("perft", false),
];

/// One program run with its arguments.
#[derive(Debug, Clone)]
struct Side {
    program: PathBuf,
    args: Vec<OsString>,
    /// Exit codes taken as success (`pgnkit export` exits 1 when it rejected
    /// a game).
    ok_codes: &'static [i32],
}

/// What one run measured.
#[derive(Debug, Clone)]
struct Run {
    /// Wall time in seconds.
    wall: f64,
    /// Peak resident set size in KiB.
    rss_kib: Option<u64>,
    /// User + system CPU time in seconds.
    cpu: Option<f64>,
    /// The program's standard output, trimmed.
    stdout: String,
    /// Its standard error (notes), trimmed.
    stderr: String,
}

/// The measured pairs of one comparison.
#[derive(Debug)]
struct Comparison {
    label: String,
    ours: Vec<Run>,
    peer: Vec<Run>,
}

impl Comparison {
    /// `peer time / our time` of each pair: above 1 means we are faster.
    fn ratios(&self) -> Vec<f64> {
        self.ours
            .iter()
            .zip(&self.peer)
            .map(|(ours, peer)| peer.wall / ours.wall)
            .collect()
    }

    /// `peer CPU time / our CPU time` of each pair where both were measured
    /// (user + system: what the programs cost on a loaded machine).
    fn cpu_ratios(&self) -> Vec<f64> {
        self.ours
            .iter()
            .zip(&self.peer)
            .filter_map(|(ours, peer)| Some(peer.cpu? / ours.cpu?))
            .filter(|ratio| ratio.is_finite())
            .collect()
    }
}

/// Entry point for `cargo xtask bench --peers [--pairs N] FILE`.
pub fn run(file: &Path, pairs: usize) -> Result<(), String> {
    let bytes = std::fs::metadata(file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let have_time = Path::new(TIME).is_file();

    exec(&mut cargo(&[
        "build",
        "--release",
        "-p",
        "pgnkit",
        "--example",
        "tasks",
    ]))?;
    exec(&mut cargo(&["build", "--release", "-p", "peers"]))?;
    let release = target_dir().join("release");
    let ours_bin = release.join("examples/tasks");
    let peer_bin = release.join("peers");

    let extract = find_on_path("pgn-extract").or_else(|| {
        // Debian installs it under /usr/games, often not on PATH.
        Some(PathBuf::from(DEBIAN_PGN_EXTRACT)).filter(|path| path.is_file())
    });
    let cli = extract.as_ref().map(|_| build_cli(&release));

    println!();
    println!("bench file: {} ({bytes} bytes)", file.display());
    println!("{}", machine_line());
    if !have_time {
        println!(
            "note: {TIME} is missing, so peak RSS and CPU time are not measured \
             (install it with `apt-get install -y time`)"
        );
    }
    println!(
        "{pairs} measured pairs per task after 1 warm-up pair (the two-thread rows {}), run \
         alternately ours/peer",
        pairs * SCALING_PAIRS
    );
    println!();

    let mut comparisons = Vec::new();
    let mut mismatches = Vec::new();
    let mut games_by_task = Vec::new();
    for &(task, reads_file) in TASKS {
        let mut args: Vec<OsString> = vec![task.into()];
        if reads_file {
            args.push(file.into());
        }
        let ours = Side {
            program: ours_bin.clone(),
            args: args.clone(),
            ok_codes: &[0],
        };
        let peer = Side {
            program: peer_bin.clone(),
            args,
            ok_codes: &[0],
        };
        let comparison = compare(task, &ours, &peer, pairs, have_time)?;
        let (ours_line, peer_line) = (&comparison.ours[0].stdout, &comparison.peer[0].stdout);
        if ours_line != peer_line {
            mismatches.push(format!(
                "{task}: pgnkit says `{ours_line}`, pgn-reader/shakmaty says `{peer_line}`"
            ));
        }
        games_by_task.push(field(ours_line, "games"));
        comparisons.push(comparison);
    }
    let games = games_by_task.iter().flatten().copied().max();

    if let (Some(extract), Some(cli)) = (&extract, &cli) {
        let peer = Side {
            program: extract.clone(),
            args: vec!["-s".into(), "-o".into(), "/dev/null".into(), file.into()],
            ok_codes: &[0, 1],
        };
        // pgn-extract works on one thread: compare with one thread, then
        // with the CLI's default (one per CPU).
        let sides: Vec<(Side, String)> = match cli {
            Ok(cli) => [
                ("1", "export --threads 1"),
                ("", "export (one thread per CPU)"),
            ]
            .into_iter()
            .map(|(threads, what)| {
                let mut args: Vec<OsString> = vec![
                    "export".into(),
                    file.into(),
                    "-o".into(),
                    "/dev/null".into(),
                ];
                if !threads.is_empty() {
                    args.extend(["--threads".into(), threads.into()]);
                }
                let side = Side {
                    program: cli.clone(),
                    args,
                    ok_codes: &[0, 1],
                };
                (side, format!("{what} vs pgn-extract -s"))
            })
            .collect(),
            Err(why) => {
                println!(
                    "note: the CLI did not build ({why}); timing the `tasks san` example instead"
                );
                let side = Side {
                    program: ours_bin.clone(),
                    args: vec!["san".into(), file.into()],
                    ok_codes: &[0],
                };
                vec![(side, "tasks san vs pgn-extract -s".to_string())]
            }
        };
        for (ours, label) in sides {
            let mut comparison = compare("export", &ours, &peer, pairs, have_time)?;
            comparison.label = label;
            comparisons.push(comparison);
        }
    } else {
        println!(
            "note: pgn-extract is neither on PATH nor in /usr/games, so `pgnkit export` vs \
             `pgn-extract -s` is skipped (`apt-get install -y pgn-extract`)"
        );
    }

    match build_cli(&release) {
        Ok(cli) => comparisons.extend(ours_against_ours(&cli, file, pairs, have_time)?),
        Err(why) => println!("note: the CLI did not build ({why}); threads and .zst skipped"),
    }

    print_table(&comparisons, bytes, games);
    print_notes(&comparisons);
    if mismatches.is_empty() {
        println!("\nboth sides agree on every task's games, bytes and perft nodes");
        Ok(())
    } else {
        for mismatch in &mismatches {
            println!("MISMATCH {mismatch}");
        }
        Err(format!(
            "{} task(s) disagree between the two sides",
            mismatches.len()
        ))
    }
}

/// Entry point for `cargo xtask bench --input [--pairs N] FILE`: only
/// [`ours_against_ours`], each `.zst` row for pzstd -3 and pzstd -19 frames.
pub fn run_input(file: &Path, pairs: usize) -> Result<(), String> {
    let bytes = std::fs::metadata(file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let have_time = Path::new(TIME).is_file();
    let cli = build_cli(&target_dir().join("release"))?;
    println!();
    println!("bench file: {} ({bytes} bytes)", file.display());
    println!("{}", machine_line());
    println!(
        "{pairs} measured pairs per row after 1 warm-up pair (the two-thread rows {}), run \
         alternately",
        pairs * SCALING_PAIRS
    );
    let comparisons = ours_against_ours(&cli, file, pairs, have_time)?;
    print_table(&comparisons, bytes, None);
    print_notes(&comparisons);
    Ok(())
}

/// The bench file in pzstd's layout at `level` (`target/bench.pgn.zst` for
/// -3, `target/bench-19.pgn.zst` for -19), made once; `None` without pzstd.
fn pzstd_file(file: &Path, level: u32) -> Option<PathBuf> {
    let name = if level == 3 {
        "bench.pgn.zst".to_string()
    } else {
        format!("bench-{level}.pgn.zst")
    };
    let zst = target_dir().join(name);
    if zst.is_file() {
        return Some(zst);
    }
    let made = Command::new("pzstd")
        .args(["-q", "-f", &format!("-{level}"), "-p", "2"])
        .arg(file)
        .arg("-o")
        .arg(&zst)
        .status();
    made.is_ok_and(|s| s.success()).then_some(zst)
}

/// How many times `--pairs` the two-thread rows run. A two-thread `check` of the bench file
/// takes 0.07 s, and anything else the machine does in that time takes one of its two
/// cores: session 26's run of 9 pairs read 1.10x to 2.77x pair by pair (median 1.68x),
/// where 21 pairs alone read 1.83x. The rows are cheap, so they get more pairs.
const SCALING_PAIRS: usize = 3;

/// pgnkit against itself (issue 15): `--threads 2` against `--threads 1` for
/// check and export (the ratio is the speed-up), and check of the bench file
/// in pzstd's layout (`pzstd -3` and `pzstd -19`, under `target/`, made once) against
/// the plain file, `zstdcat | pgnkit check -` and `pzstd -d | pgnkit check -`
/// (a ratio above 1: the `.zst` is faster).
fn ours_against_ours(
    cli: &Path,
    file: &Path,
    pairs: usize,
    have_time: bool,
) -> Result<Vec<Comparison>, String> {
    let side = |args: Vec<OsString>| Side {
        program: cli.to_path_buf(),
        args,
        ok_codes: &[0, 1],
    };
    let run = |command: &str, threads: &str| {
        let mut args: Vec<OsString> = vec![command.into(), file.into()];
        if command == "export" {
            args.extend(["-o".into(), "/dev/null".into()]);
        }
        args.extend(["--threads".into(), threads.into()]);
        side(args)
    };
    let mut comparisons = Vec::new();
    for command in ["check", "export"] {
        let mut comparison = compare(
            command,
            &run(command, "2"),
            &run(command, "1"),
            pairs * SCALING_PAIRS,
            have_time,
        )?;
        comparison.label = format!("{command} --threads 2 vs --threads 1");
        comparisons.push(comparison);
    }
    for level in [3, 19] {
        let Some(zst) = pzstd_file(file, level) else {
            println!("note: pzstd is missing (apt-get install zstd): the .zst rows are skipped");
            return Ok(comparisons);
        };
        let ours = side(vec!["check".into(), zst.clone().into()]);
        let shell = |pipe: String| Side {
            program: PathBuf::from("sh"),
            args: vec!["-c".into(), pipe.into()],
            ok_codes: &[0, 1],
        };
        let (zst_shown, cli_shown) = (zst.display(), cli.display());
        let peers = [
            ("plain file", side(vec!["check".into(), file.into()])),
            (
                "zstdcat | check -",
                shell(format!("zstdcat '{zst_shown}' | '{cli_shown}' check -")),
            ),
            (
                "pzstd -d | check -",
                shell(format!("pzstd -dcq '{zst_shown}' | '{cli_shown}' check -")),
            ),
        ];
        for (what, peer) in peers {
            let mut comparison = compare("check", &ours, &peer, pairs, have_time)?;
            comparison.label = format!("check pzstd -{level} .zst vs {what}");
            comparisons.push(comparison);
        }
    }
    Ok(comparisons)
}

/// Where cargo puts build output: `CARGO_TARGET_DIR`, else `target/`.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                root().join(dir)
            }
        }
        None => root().join("target"),
    }
}

/// Builds the `pgnkit` CLI in release; the binary, or why it did not build.
fn build_cli(release: &Path) -> Result<PathBuf, String> {
    exec(&mut cargo(&["build", "--release", "-p", "pgnkit-cli"]))?;
    let binary = release.join("pgnkit");
    if binary.is_file() {
        Ok(binary)
    } else {
        Err(format!("{} not found after the build", binary.display()))
    }
}

/// The first `name` on `PATH`.
fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// `nproc`, the CPU model and the compiler, on one line.
fn machine_line() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let rustc = Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .unwrap_or_else(|| "rustc unknown".into());
    format!("machine: {cores} cores, {cpu}, {rustc}")
}

/// Runs ours and the peer alternately: one warm-up pair, then `pairs` pairs.
fn compare(
    task: &str,
    ours: &Side,
    peer: &Side,
    pairs: usize,
    have_time: bool,
) -> Result<Comparison, String> {
    compare_each(task, ours, peer, pairs, have_time, || Ok(()))
}

/// [`compare`], with `before` run ahead of each of our runs (not timed).
fn compare_each(
    task: &str,
    ours: &Side,
    peer: &Side,
    pairs: usize,
    have_time: bool,
    mut before: impl FnMut() -> Result<(), String>,
) -> Result<Comparison, String> {
    eprintln!(
        "$ {}  vs  {}",
        show(&command(ours, false)),
        show(&command(peer, false))
    );
    let mut comparison = Comparison {
        label: task.to_string(),
        ours: Vec::new(),
        peer: Vec::new(),
    };
    for pair in 0..=pairs {
        before()?;
        let a = measure(ours, have_time)?;
        let b = measure(peer, have_time)?;
        eprintln!(
            "  {task} {}: ours {:.3}s, peer {:.3}s",
            if pair == 0 {
                "warm-up".to_string()
            } else {
                format!("pair {pair}")
            },
            a.wall,
            b.wall
        );
        if pair > 0 {
            comparison.ours.push(a);
            comparison.peer.push(b);
        }
    }
    Ok(comparison)
}

/// The command for `side`, wrapped in `/usr/bin/time` when `timed`.
fn command(side: &Side, timed: bool) -> Command {
    if timed {
        let mut command = Command::new(TIME);
        command
            .args(["-f", "%M %U %S", "-o"])
            .arg(time_file())
            .arg(&side.program)
            .args(&side.args);
        command
    } else {
        let mut command = Command::new(&side.program);
        command.args(&side.args);
        command
    }
}

/// Where `/usr/bin/time` writes its numbers.
fn time_file() -> PathBuf {
    std::env::temp_dir().join(format!("pgnkit-peers-{}.time", std::process::id()))
}

/// Runs `side` once and measures it.
fn measure(side: &Side, have_time: bool) -> Result<Run, String> {
    let mut command = command(side, have_time);
    command.stdin(Stdio::null());
    let shown = show(&command);
    let start = Instant::now();
    let output = command
        .output()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let wall = start.elapsed().as_secs_f64();
    let code = output.status.code();
    if !code.is_some_and(|code| side.ok_codes.contains(&code)) {
        return Err(format!(
            "`{shown}` failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let (rss_kib, cpu) = if have_time {
        read_time_file()?
    } else {
        (None, None)
    };
    Ok(Run {
        wall,
        rss_kib,
        cpu,
        stdout: String::from_utf8_lossy(&output.stdout).trim().to_string(),
        stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
    })
}

/// Peak RSS (KiB) and user + system seconds from `/usr/bin/time`'s file.
fn read_time_file() -> Result<(Option<u64>, Option<f64>), String> {
    let path = time_file();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // A child that exits non-zero makes time write "Command exited with
    // non-zero status N" first: the numbers are on the last line.
    let last = text.lines().last().unwrap_or_default();
    let mut words = last.split_whitespace();
    let rss = words.next().and_then(|w| w.parse().ok());
    let user: Option<f64> = words.next().and_then(|w| w.parse().ok());
    let system: Option<f64> = words.next().and_then(|w| w.parse().ok());
    Ok((rss, user.zip(system).map(|(u, s)| u + s)))
}

/// The number after `name=` in an output line.
fn field(line: &str, name: &str) -> Option<u64> {
    line.split_whitespace()
        .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
        .and_then(|value| value.parse().ok())
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The first and third quartiles of `values` (medians of the lower and upper
/// halves, the middle value left out of both for an odd count): how far the
/// pairs spread on a shared machine.
fn quartiles(values: &[f64]) -> (f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let half = sorted.len() / 2;
    let upper = sorted.len() - half;
    (median(&sorted[..half]), median(&sorted[upper..]))
}

/// `ratios` as text, then their median and interquartile range.
fn ratio_line(ratios: &[f64]) -> String {
    let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
    let (q1, q3) = quartiles(ratios);
    format!(
        "{}  (median {:.2}, IQR {q1:.2}-{q3:.2})",
        shown.join(" "),
        median(ratios)
    )
}

/// Median wall time, MB/s, games/s (or Mnodes/s), peak RSS and CPU time of
/// one side's runs, as table cells.
fn cells(runs: &[Run], bytes: u64, games: Option<u64>) -> [String; 5] {
    let wall = median(&runs.iter().map(|r| r.wall).collect::<Vec<_>>());
    let nodes = runs.first().and_then(|r| field(&r.stdout, "nodes"));
    let (mbs, per_second) = match nodes {
        Some(nodes) => (
            "-".to_string(),
            format!("{:.1} Mn/s", nodes as f64 / wall / 1e6),
        ),
        None => (
            format!("{:.1}", bytes as f64 / wall / 1e6),
            games.map_or("-".into(), |g| format!("{:.0}", g as f64 / wall)),
        ),
    };
    let rss = runs
        .iter()
        .filter_map(|r| r.rss_kib)
        .max()
        .map_or("-".into(), |kib| format!("{:.1} MB", kib as f64 / 1024.0));
    let cpu: Vec<f64> = runs.iter().filter_map(|r| r.cpu).collect();
    let cpu = if cpu.is_empty() {
        "-".into()
    } else {
        format!("{:.2}s", median(&cpu))
    };
    [format!("{:.3}s", wall), mbs, per_second, rss, cpu]
}

fn print_table(comparisons: &[Comparison], bytes: u64, games: Option<u64>) {
    println!();
    println!(
        "| task | side | median wall | MB/s | games/s | peak RSS (max) | median CPU | speed ratio (peer/ours wall), median | CPU ratio, median |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for comparison in comparisons {
        let ratio = median(&comparison.ratios());
        let cpu_ratios = comparison.cpu_ratios();
        let cpu_ratio = if cpu_ratios.is_empty() {
            "-".to_string()
        } else {
            format!("{:.2}x", median(&cpu_ratios))
        };
        let peer_name = if comparison.label.contains("pgn-extract") {
            "pgn-extract -s"
        } else if comparison.label == "perft" {
            "shakmaty"
        } else {
            "pgn-reader + shakmaty"
        };
        let [wall, mbs, rate, rss, cpu] = cells(&comparison.ours, bytes, games);
        println!(
            "| {} | pgnkit | {wall} | {mbs} | {rate} | {rss} | {cpu} | **{ratio:.2}x** | {cpu_ratio} |",
            comparison.label
        );
        let [wall, mbs, rate, rss, cpu] = cells(&comparison.peer, bytes, games);
        println!("| | {peer_name} | {wall} | {mbs} | {rate} | {rss} | {cpu} | | |");
    }
    println!();
    println!("per-pair speed ratios (peer time / our time; above 1 means pgnkit is faster):");
    for comparison in comparisons {
        println!(
            "  {:<36} {}",
            comparison.label,
            ratio_line(&comparison.ratios())
        );
    }
    println!("per-pair CPU-time ratios (user + system, 10 ms resolution):");
    for comparison in comparisons {
        println!(
            "  {:<36} {}",
            comparison.label,
            ratio_line(&comparison.cpu_ratios())
        );
    }
}

/// What each side said on standard output and standard error (first run).
fn print_notes(comparisons: &[Comparison]) {
    println!();
    println!("outputs (first measured run):");
    for comparison in comparisons {
        for (side, runs) in [("pgnkit", &comparison.ours), ("peer", &comparison.peer)] {
            if let Some(run) = runs.first() {
                let mut said = run.stdout.clone();
                if let Some(note) = last_note(&run.stderr) {
                    said.push_str(" | ");
                    said.push_str(&note);
                }
                println!("  {:<28} {side:<7} {said}", comparison.label);
            }
        }
    }
}

/// The last line of a program's standard error (its summary), at most 160
/// characters: pgn-extract prints a line per game it could not read.
fn last_note(stderr: &str) -> Option<String> {
    let last = stderr.lines().rev().find(|line| !line.trim().is_empty())?;
    let mut note: String = last.trim().chars().take(160).collect();
    if note.len() < last.trim().len() {
        note.push_str("...");
    }
    Some(note)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_from_output_lines() {
        assert_eq!(field("scan games=42 bytes=1000", "games"), Some(42));
        assert_eq!(field("scan games=42 bytes=1000", "bytes"), Some(1000));
        assert_eq!(field("perft nodes=8951212", "nodes"), Some(8_951_212));
        assert_eq!(field("perft nodes=8951212", "games"), None);
        assert_eq!(field("scan xgames=1", "games"), None);
    }

    #[test]
    fn notes_are_the_last_line_cut_short() {
        assert_eq!(last_note(""), None);
        assert_eq!(last_note("a\nb\n\n").as_deref(), Some("b"));
        let long = "x".repeat(200);
        assert_eq!(last_note(&long).map(|n| n.len()), Some(163));
    }

    #[test]
    fn quartiles_of_odd_and_even_counts() {
        assert_eq!(quartiles(&[5.0, 1.0, 3.0, 2.0, 4.0]), (1.5, 4.5));
        assert_eq!(quartiles(&[4.0, 1.0, 3.0, 2.0]), (1.5, 3.5));
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn ratios_are_peer_over_ours_per_pair() {
        let run = |wall| Run {
            wall,
            rss_kib: None,
            cpu: None,
            stdout: String::new(),
            stderr: String::new(),
        };
        let comparison = Comparison {
            label: "scan".into(),
            ours: vec![run(1.0), run(2.0)],
            peer: vec![run(3.0), run(3.0)],
        };
        assert_eq!(comparison.ratios(), vec![3.0, 1.5]);
        assert!(comparison.cpu_ratios().is_empty());
        let timed = |cpu| Run {
            cpu: Some(cpu),
            ..run(1.0)
        };
        let comparison = Comparison {
            label: "scan".into(),
            ours: vec![timed(0.5), timed(0.0), timed(2.0)],
            peer: vec![timed(1.0), timed(1.0), timed(1.0)],
        };
        // A zero CPU time (below time's resolution) gives no ratio.
        assert_eq!(comparison.cpu_ratios(), vec![2.0, 0.5]);
    }
}
