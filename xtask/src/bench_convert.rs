//! `cargo xtask bench --convert`: `pgnkit convert` (games + moves Parquet)
//! against `pgnkit check` with the same threads on the bench file, peak RSS
//! on the bench file and on it repeated four times (memory must not grow
//! with input), and the python-chess + pyarrow peer
//! (`bench/peers/python_chess_games.py`) on a sample of the file, against
//! `convert` of the games table alone (the table the peer builds). Beside
//! them, the floor: what the Parquet encoding of the two tables alone costs
//! (`crates/arrow/examples/parquet_encode.rs`).
//!
//! The commands are release builds run as separate processes, in turn
//! (check, convert, convert of the games table; one warm-up round, then the
//! measured rounds); wall time
//! is measured here, CPU time (user + system) and peak RSS come from
//! `/usr/bin/time -f '%U %S %M'`. The CPU ratio is given beside the wall
//! ratio: on a machine shared with other builds it is the steadier figure.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::cmd::{cargo, exec, output, root, show};

/// `/usr/bin/time`, for peak RSS.
const TIME: &str = "/usr/bin/time";

/// One timed run: wall seconds, CPU seconds (user + system; 0 when unknown) and peak RSS in
/// KiB (0 when unknown).
fn timed(command: &mut Command) -> Result<(f64, f64, u64), String> {
    let shown = show(command);
    let rss_file = root().join("target/bench-convert/rss.txt");
    let mut wrapped = if Path::new(TIME).exists() {
        let mut wrapped = Command::new(TIME);
        wrapped
            .args(["-f", "%U %S %M", "-o"])
            .arg(&rss_file)
            .arg(command.get_program())
            .args(command.get_args());
        wrapped
    } else {
        let mut plain = Command::new(command.get_program());
        plain.args(command.get_args());
        plain
    };
    wrapped.stdout(Stdio::null()).stderr(Stdio::null());
    let started = Instant::now();
    let status = wrapped
        .status()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    // `convert` and `check` exit 1 when some games have errors: the bench
    // file has a few. Only 2 (usage, I/O) is a failure.
    if status.code().is_none_or(|code| code > 1) {
        return Err(format!("`{shown}` failed ({status})"));
    }
    let report = std::fs::read_to_string(&rss_file).unwrap_or_default();
    let fields: Vec<f64> = report
        .lines()
        .last()
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|field| field.parse().ok())
        .collect();
    let (cpu, rss) = match fields[..] {
        [user, system, rss] => (user + system, rss as u64),
        _ => (0.0, 0),
    };
    Ok((seconds, cpu, rss))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Entry point: `cargo xtask bench --convert [--pairs N] [--threads N]
/// [--python-bytes N] [FILE]`.
pub fn run(file: &Path, pairs: usize, threads: usize, python_bytes: u64) -> Result<(), String> {
    exec(&mut cargo(&["build", "--release", "-p", "pgnkit-cli"]))?;
    exec(&mut cargo(&[
        "build",
        "--release",
        "-p",
        "pgnkit-arrow",
        "--example",
        "parquet_encode",
    ]))?;
    let binary = root().join("target/release/pgnkit");
    let out = root().join("target/bench-convert");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bytes = std::fs::metadata(file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let threads_arg = threads.to_string();
    let check = |input: &Path| {
        let mut command = Command::new(&binary);
        command
            .arg("check")
            .arg(input)
            .args(["--threads", &threads_arg]);
        command
    };
    let convert_tables = |input: &Path, moves: bool| {
        let mut command = Command::new(&binary);
        command
            .arg("convert")
            .arg(input)
            .arg("-o")
            .arg(out.join("games.parquet"))
            .args(["--threads", &threads_arg]);
        if moves {
            command.arg("--moves").arg(out.join("moves.parquet"));
        }
        command
    };
    let convert = |input: &Path| convert_tables(input, true);
    println!(
        "bench file: {} ({bytes} bytes), {threads} threads, {pairs} pairs",
        file.display()
    );
    let (mut check_times, mut convert_times) = (Vec::new(), Vec::new());
    let (mut check_cpu, mut convert_cpu) = (Vec::new(), Vec::new());
    let (mut games_times, mut games_cpu) = (Vec::new(), Vec::new());
    let (mut check_rss, mut convert_rss, mut games_rss) = (0, 0, 0);
    for pair in 0..=pairs {
        let (c, c_cpu, c_rss) = timed(&mut check(file))?;
        let (v, v_cpu, v_rss) = timed(&mut convert(file))?;
        // The games table alone: what the python-chess peer builds.
        let (g, g_cpu, g_rss) = timed(&mut convert_tables(file, false))?;
        if pair > 0 {
            check_times.push(c);
            convert_times.push(v);
            check_cpu.push(c_cpu);
            convert_cpu.push(v_cpu);
            games_times.push(g);
            games_cpu.push(g_cpu);
        }
        check_rss = check_rss.max(c_rss);
        convert_rss = convert_rss.max(v_rss);
        games_rss = games_rss.max(g_rss);
    }
    let (c, v) = (median(&mut check_times), median(&mut convert_times));
    let (c_cpu, v_cpu) = (median(&mut check_cpu), median(&mut convert_cpu));
    let (g, g_cpu) = (median(&mut games_times), median(&mut games_cpu));
    println!(
        "{:<36} {:>9} {:>9} {:>9} {:>12}",
        "command", "median s", "CPU s", "MB/s", "peak RSS MB"
    );
    let row = |name: &str, seconds: f64, cpu: f64, rss: u64| {
        println!(
            "{name:<36} {seconds:>9.2} {cpu:>9.2} {:>9.1} {:>12.1}",
            bytes as f64 / seconds / 1e6,
            rss as f64 / 1024.0
        );
    };
    row("check", c, c_cpu, check_rss);
    row("convert (games + moves Parquet)", v, v_cpu, convert_rss);
    row("convert (games Parquet only)", g, g_cpu, games_rss);
    println!(
        "convert / check: {:.2}x wall, {:.2}x CPU (target <= 7x, issue 34)",
        v / c,
        v_cpu / c_cpu.max(f64::EPSILON)
    );

    // The floor under `convert`: the two tables' Parquet encoding alone
    // (arrow-rs and zstd with convert's settings, from batches in memory),
    // which no change of ours makes cheaper; `convert` also reads every
    // game as `check` does, so its CPU is at least the two together.
    let encode = output(
        Command::new(root().join("target/release/examples/parquet_encode"))
            .arg(format!("{}:256", out.join("games.parquet").display()))
            .arg(format!("{}:20000", out.join("moves.parquet").display())),
    )?;
    let encode_cpu: f64 = encode
        .lines()
        .filter_map(|line| line.rsplit_once('\t')?.1.parse::<f64>().ok())
        .sum();
    let c_cpu = c_cpu.max(f64::EPSILON);
    println!(
        "Parquet encoding alone (both tables, `examples/parquet_encode`): {encode_cpu:.2} s CPU, \
         {:.2}x check's CPU; with the reading, convert's CPU is at least {:.2}x check's",
        encode_cpu / c_cpu,
        (encode_cpu + c_cpu) / c_cpu,
    );

    // Memory must not grow with the input: the file four times over.
    let four = out.join("bench-x4.pgn");
    if !four.exists() {
        let text = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let mut all = Vec::with_capacity(text.len() * 4);
        for _ in 0..4 {
            all.extend_from_slice(&text);
        }
        std::fs::write(&four, all).map_err(|e| format!("{}: {e}", four.display()))?;
    }
    let (seconds, cpu, rss) = timed(&mut convert(&four))?;
    row("convert, the file 4 times", seconds, cpu, rss);
    std::fs::remove_file(&four).ok();

    if python_bytes > 0 {
        let python = crate::python::ensure_venv()?;
        let script = root().join("bench/peers/python_chess_games.py");
        let mut command = Command::new(python);
        command
            .arg(&script)
            .arg(file)
            .arg(out.join("python-games.parquet"))
            .args(["--max-bytes", &python_bytes.to_string()])
            .stderr(Stdio::inherit());
        let shown = show(&command);
        let output = command
            .output()
            .map_err(|e| format!("could not start `{shown}`: {e}"))?;
        if !output.status.success() {
            return Err(format!("`{shown}` failed ({})", output.status));
        }
        let line = String::from_utf8_lossy(&output.stdout);
        println!("{}", line.trim());
        // The script's last line: "... N games, B bytes in S s ...".
        let words: Vec<&str> = line.split_whitespace().collect();
        let read = words
            .iter()
            .position(|w| *w == "bytes")
            .and_then(|i| words.get(i.checked_sub(1)?)?.parse::<f64>().ok());
        let secs = words
            .iter()
            .position(|w| *w == "s")
            .and_then(|i| words.get(i.checked_sub(1)?)?.parse::<f64>().ok());
        let cpu = words
            .iter()
            .position(|w| *w == "cpu")
            .and_then(|i| words.get(i + 1)?.parse::<f64>().ok());
        if let (Some(read), Some(secs)) = (read, secs) {
            let full = secs * bytes as f64 / read;
            println!(
                "python-chess + pyarrow (the games table), extrapolated to the whole file: \
                 {full:.0} s; convert of the same table is {:.0}x faster by wall time \
                 (target >= 100x); with the moves table too, {:.0}x",
                full / g,
                full / v
            );
            if let Some(cpu) = cpu {
                let full_cpu = cpu * bytes as f64 / read;
                println!(
                    "  by CPU time: the peer {full_cpu:.0} s, convert of the games table \
                     {g_cpu:.2} s: {:.0}x",
                    full_cpu / g_cpu.max(f64::EPSILON)
                );
            }
        }
    }
    Ok(())
}
