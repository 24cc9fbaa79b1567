//! `cargo xtask bench --positions`: the position index and position search
//! (issue 31), with the peers' machinery (alternating pairs, wall and CPU
//! medians, peak RSS from `/usr/bin/time`).
//!
//! - `pgnkit index` against `pgnkit check`, same input and threads, on the
//!   bench file repeated 10 times (made once under
//!   `target/bench-positions/`, never in the repository), with the index
//!   build's peak RSS and the index's size (per game, against the PGN text);
//! - warm latency of `search --index` (exact positions) and of `tree` for
//!   several positions, the start included: whole processes, wall time
//!   measured here (the CPU time of a few milliseconds is below
//!   `/usr/bin/time`'s 10 ms resolution);
//! - `pgnkit search` by a board pattern and by material against
//!   `pgn-extract --fenpattern` (as a `FENPattern` tag of `-t`) and `-z` on
//!   the bench file itself (pgn-extract reads about 13 MB/s).
//!
//! pgn-extract is looked for on `PATH`, then in `/usr/games`; without it the
//! last part is skipped with a message.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::{
    Comparison, DEBIAN_PGN_EXTRACT, Run, Side, TIME, build_cli, compare, compare_each,
    find_on_path, machine_line, median, print_notes, print_table, quartiles, target_dir,
};

/// How many copies of the bench file the index is built from.
const COPIES: u64 = 10;

/// Warm runs measured per latency row (after one warm-up run).
const LATENCY_RUNS: usize = 9;

/// The games of the start position's row with `--first` (a GUI's first page).
const FIRST_GAMES: u64 = 50;

/// Exact positions searched through the index, as moves from the start
/// (`""` is the start position).
const SEARCHES: &[&str] = &[
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
    "d4 Nf6 c4 e6 Nc3 Bb4",
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3",
    "e4 e5 Nf3 Nc6 Bb5",
    "",
];

/// Positions whose tree is asked (`""` is the start position), with the
/// filter arguments of the row.
const TREES: &[(&str, &[&str])] = &[
    ("", &[]),
    ("e4", &[]),
    ("e4 c5", &[]),
    ("d4 Nf6 c4 e6", &[]),
    ("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6", &[]),
    ("e4 c5 Nf3 d6", &["--min-rating", "2200"]),
    // A filter reads every game of the position: the start position's are all of them.
    ("", &["--min-rating", "2200"]),
    ("", &["--player", "Carlsen, Magnus"]),
];

/// Entry point for `cargo xtask bench --positions [--pairs N] [--threads N]
/// [FILE]`.
pub fn run(file: &Path, pairs: usize, threads: usize) -> Result<(), String> {
    let bytes = std::fs::metadata(file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let have_time = Path::new(TIME).is_file();
    let cli = build_cli(&target_dir().join("release"))?;
    let work = target_dir().join("bench-positions");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let big = work.join(format!("bench-x{COPIES}.pgn"));
    if std::fs::metadata(&big).map(|m| m.len()).ok() != Some(COPIES * bytes) {
        let one = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        std::fs::write(&big, one.repeat(COPIES as usize))
            .map_err(|e| format!("{}: {e}", big.display()))?;
    }
    let index = work.join("bench.pgnidx");
    let threads = threads.to_string();

    println!();
    println!("{}", machine_line());
    println!("load: {}", load_line());
    println!(
        "input: {} ({} bytes, the bench file {COPIES} times), --threads {threads}, \
         {pairs} measured pairs after 1 warm-up pair, run alternately",
        big.display(),
        COPIES * bytes
    );
    let check = Side {
        program: cli.clone(),
        args: vec![
            "check".into(),
            big.clone().into(),
            "--threads".into(),
            threads.as_str().into(),
        ],
        ok_codes: &[0, 1],
    };
    let build = Side {
        program: cli.clone(),
        args: vec![
            "index".into(),
            big.clone().into(),
            "-o".into(),
            index.clone().into(),
            "--threads".into(),
            threads.as_str().into(),
        ],
        ok_codes: &[0, 1],
    };
    // A new index each time (the one before removed first, not timed): what a build
    // costs. Then the same command replacing the index the run before wrote, whose
    // removal (the kernel freeing its cached pages) is timed too.
    eprintln!(
        "{} is removed before each build of the first comparison",
        index.display()
    );
    let remove = || match index.exists() {
        true => std::fs::remove_dir_all(&index).map_err(|e| format!("{}: {e}", index.display())),
        false => Ok(()),
    };
    let fresh = compare_each(
        "index (new) vs check",
        &build,
        &check,
        pairs,
        have_time,
        remove,
    )?;
    index_table(&fresh, COPIES * bytes, "a new index");
    let replacing = compare(
        "index (replacing) vs check",
        &build,
        &check,
        pairs,
        have_time,
    )?;
    index_table(&replacing, COPIES * bytes, "replacing the last one");
    size_lines(&index, COPIES * bytes)?;

    println!();
    println!("load: {}", load_line());
    println!(
        "warm latency, whole process, median of {LATENCY_RUNS} runs after 1 warm-up \
         (wall time measured here; target: search --index < 10 ms, tree < 50 ms)"
    );
    println!("| command | position | answer | median | min | max |");
    println!("|---|---|---:|---:|---:|---:|");
    let index_arg: OsString = index.clone().into();
    for moves in SEARCHES {
        let fen = fen_of(&cli, &index, moves)?;
        let side = Side {
            program: cli.clone(),
            args: vec![
                "search".into(),
                "--index".into(),
                index_arg.clone(),
                format!("reaches \"{fen}\"").into(),
                "--offsets".into(),
            ],
            ok_codes: &[0],
        };
        let runs = latency(&side)?;
        latency_row(
            "search --index --offsets",
            moves,
            &games_found(&runs[0]),
            &runs,
        );
        if moves.is_empty() {
            pipe_floor(&cli, &work, &side)?;
            first_games(&side)?;
        }
    }
    for (moves, filter) in TREES {
        let mut tree_args: Vec<OsString> = vec![
            "tree".into(),
            shown_moves(moves).into(),
            "--index".into(),
            index_arg.clone(),
        ];
        tree_args.extend(filter.iter().map(OsString::from));
        let side = Side {
            program: cli.clone(),
            args: tree_args,
            ok_codes: &[0],
        };
        let runs = latency(&side)?;
        let label = if filter.is_empty() {
            "tree".to_string()
        } else {
            format!("tree {}", filter.join(" "))
        };
        // A row per move played (the total row has two words): count them.
        let moves_played = runs[0]
            .stdout
            .lines()
            .filter(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                words.len() > 3 && is_number(words[1])
            })
            .count();
        latency_row(&label, moves, &format!("{moves_played} moves"), &runs);
    }

    match find_on_path("pgn-extract")
        .or_else(|| Some(PathBuf::from(DEBIAN_PGN_EXTRACT)).filter(|path| path.is_file()))
    {
        Some(extract) => against_pgn_extract(&cli, &extract, file, &work, pairs, have_time),
        None => {
            println!(
                "note: pgn-extract is neither on PATH nor in /usr/games, so pattern and \
                 material search are not compared (`apt-get install -y pgn-extract`)"
            );
            Ok(())
        }
    }
}

/// `uptime`'s load averages (1, 5, 15 minutes), from `/proc/loadavg`.
fn load_line() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "unknown".into())
}

fn is_number(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit() || b == b',')
}

/// The moves as `tree` takes them; the start position as its FEN.
fn shown_moves(moves: &str) -> &str {
    if moves.is_empty() {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    } else {
        moves
    }
}

/// The FEN after `moves`, as `pgnkit tree --json` gives it.
fn fen_of(cli: &Path, index: &Path, moves: &str) -> Result<String, String> {
    let output = Command::new(cli)
        .args(["tree", shown_moves(moves), "--json", "--index"])
        .arg(index)
        .output()
        .map_err(|e| format!("could not run {}: {e}", cli.display()))?;
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|e| {
        format!(
            "pgnkit tree --json {moves:?}: {e}: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )
    })?;
    json["fen"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("pgnkit tree --json {moves:?} gave no `fen`"))
}

/// One run of a latency row: its wall time, and what it wrote (the first
/// [`KEPT_STDOUT`] bytes of standard output kept, all of them counted).
struct Latency {
    /// Wall time in seconds, from the start until the process has exited.
    wall: f64,
    /// Bytes written to standard output.
    bytes: u64,
    /// The first [`KEPT_STDOUT`] bytes of standard output.
    stdout: String,
    /// Standard error.
    stderr: String,
}

/// How much of a latency run's standard output is kept (a tree's table is a
/// few KiB; the start position's `--offsets` answer is 28 MB, only counted).
const KEPT_STDOUT: usize = 1 << 20;

/// One warm-up run, then [`LATENCY_RUNS`] measured ones (wall time only).
fn latency(side: &Side) -> Result<Vec<Latency>, String> {
    measure_streamed(side)?;
    (0..LATENCY_RUNS).map(|_| measure_streamed(side)).collect()
}

/// Runs `side` once, reading its standard output as `| wc -c` would: into
/// one reused buffer, so a large answer costs the pipe, not this harness
/// (`Command::output` grows a vector to the answer's size, about 6 ms of
/// page faults for 28 MB; and this unoptimized harness would take longer to
/// count the lines than the search takes to write them).
fn measure_streamed(side: &Side) -> Result<Latency, String> {
    use std::io::Read;
    let mut command = super::command(side, false);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let shown = crate::cmd::show(&command);
    let start = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    let mut out = child.stdout.take().ok_or("no stdout pipe")?;
    let mut buffer = vec![0u8; 64 * 1024];
    let (mut bytes, mut kept) = (0u64, Vec::new());
    loop {
        let n = out
            .read(&mut buffer)
            .map_err(|e| format!("reading `{shown}`: {e}"))?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        let room = KEPT_STDOUT.saturating_sub(kept.len());
        kept.extend_from_slice(&buffer[..room.min(n)]);
    }
    // Standard error is one line: it fits the pipe while standard output is read.
    let mut stderr = String::new();
    if let Some(mut err) = child.stderr.take() {
        err.read_to_string(&mut stderr)
            .map_err(|e| format!("reading `{shown}`: {e}"))?;
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for `{shown}`: {e}"))?;
    let wall = start.elapsed().as_secs_f64();
    if !status
        .code()
        .is_some_and(|code| side.ok_codes.contains(&code))
    {
        return Err(format!("`{shown}` failed ({status}): {}", stderr.trim()));
    }
    Ok(Latency {
        wall,
        bytes,
        stdout: String::from_utf8_lossy(&kept).into_owned(),
        stderr,
    })
}

fn latency_row(command: &str, moves: &str, answer: &str, runs: &[Latency]) {
    let walls: Vec<f64> = runs.iter().map(|r| r.wall * 1e3).collect();
    let min = walls.iter().copied().fold(f64::INFINITY, f64::min);
    let max = walls.iter().copied().fold(0.0, f64::max);
    let position = if moves.is_empty() { "start" } else { moves };
    println!(
        "| {command} | {position} | {answer} | {:.1} ms | {min:.1} ms | {max:.1} ms |",
        median(&walls)
    );
}

/// What a GUI asks of the start position: its first [`FIRST_GAMES`] games (`search
/// --first 50`), the index read no further than they need.
fn first_games(search: &Side) -> Result<(), String> {
    let mut side = search.clone();
    side.args
        .extend(["--first".into(), FIRST_GAMES.to_string().into()]);
    let runs = latency(&side)?;
    latency_row(
        &format!("search --index --offsets --first {FIRST_GAMES}"),
        "",
        &games_found(&runs[0]),
        &runs,
    );
    Ok(())
}

/// A search's answer: `N games, B bytes`, N read from `pgnkit search: N games found
/// in ...` on standard error.
fn games_found(run: &Latency) -> String {
    let hits = run.stderr.split_whitespace().nth(2).unwrap_or("?");
    format!("{hits} games, {} bytes", run.bytes)
}

/// The floor under a search whose answer is large: the same bytes as the
/// start position's `--offsets` answer, read from a file by `cat` through the
/// same pipe and harness.
fn pipe_floor(cli: &Path, work: &Path, search: &Side) -> Result<(), String> {
    let answer = work.join("start-answer.txt");
    let file = std::fs::File::create(&answer).map_err(|e| format!("{}: {e}", answer.display()))?;
    let status = Command::new(cli)
        .args(&search.args)
        .stdout(file)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("could not run {}: {e}", cli.display()))?;
    if !status.success() {
        return Err(format!("the start position's search failed ({status})"));
    }
    let cat = Side {
        program: "cat".into(),
        args: vec![answer.into()],
        ok_codes: &[0],
    };
    let runs = latency(&cat)?;
    let bytes = runs[0].bytes;
    latency_row(
        "cat of the start's answer (the pipe's floor)",
        "start",
        &format!("{bytes} bytes"),
        &runs,
    );
    Ok(())
}

/// The index build against `check`: medians, ratios, peak RSS.
/// The build against `check` (`what`: a new index or one replacing the last).
fn index_table(comparison: &Comparison, bytes: u64, what: &str) {
    let column = |runs: &[Run], pick: fn(&Run) -> Option<f64>| -> Vec<f64> {
        runs.iter().filter_map(pick).collect()
    };
    println!();
    println!("| command | median wall | MB/s | median CPU (user+sys) | peak RSS (max) |");
    println!("|---|---:|---:|---:|---:|");
    for (name, runs) in [
        (&format!("pgnkit index, {what}")[..], &comparison.ours),
        ("pgnkit check", &comparison.peer),
    ] {
        let wall = median(&column(runs, |r| Some(r.wall)));
        let cpu = column(runs, |r| r.cpu);
        let rss = runs.iter().filter_map(|r| r.rss_kib).max();
        println!(
            "| {name} | {wall:.2} s | {:.1} | {} | {} |",
            bytes as f64 / wall / 1e6,
            if cpu.is_empty() {
                "-".into()
            } else {
                format!("{:.2} s", median(&cpu))
            },
            rss.map_or("-".into(), |kib| format!("{:.0} MiB", kib as f64 / 1024.0)),
        );
    }
    // Speed of index / speed of check = check time / index time (target >= 0.5).
    // `ratios` are peer time / our time: check's over index's.
    let speed = comparison.ratios();
    let cpu_speed = comparison.cpu_ratios();
    let (q1, q3) = quartiles(&speed);
    println!(
        "index speed / check speed, {what}: {:.2} by wall (IQR {q1:.2}-{q3:.2}), {} by CPU \
         (target >= 0.5)",
        median(&speed),
        if cpu_speed.is_empty() {
            "-".into()
        } else {
            format!("{:.2}", median(&cpu_speed))
        }
    );
    if let Some(rss) = comparison.ours.iter().filter_map(|r| r.rss_kib).max() {
        println!(
            "index build peak RSS: {:.0} MiB (target <= 512 MiB)",
            rss as f64 / 1024.0
        );
    }
    if let Some(run) = comparison.ours.first() {
        let said = run.stderr.lines().last().unwrap_or_default();
        println!("pgnkit index said: {said}");
    }
}

/// The index's size by file kind, per game and against the PGN text.
fn size_lines(index: &Path, pgn_bytes: u64) -> Result<(), String> {
    let manifest = std::fs::read_to_string(index.join("MANIFEST"))
        .map_err(|e| format!("{}: {e}", index.display()))?;
    // The first line is the version; the rest is JSON.
    let json: serde_json::Value = manifest
        .split_once('\n')
        .and_then(|(_, rest)| serde_json::from_str(rest).ok())
        .ok_or_else(|| format!("{}: MANIFEST is not version + JSON", index.display()))?;
    let segments = json["segments"].as_array().cloned().unwrap_or_default();
    let sum = |field: &str| -> u64 { segments.iter().filter_map(|s| s[field].as_u64()).sum() };
    let (games, positions) = (sum("games"), sum("positions"));
    let mut by_kind: Vec<(String, u64)> = Vec::new();
    let mut total = 0;
    for entry in std::fs::read_dir(index).map_err(|e| format!("{}: {e}", index.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let len = entry.metadata().map_err(|e| e.to_string())?.len();
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = name.rsplit('.').next().unwrap_or(&name).to_string();
        match by_kind.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += len,
            None => by_kind.push((kind, len)),
        }
        total += len;
    }
    by_kind.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    println!();
    println!(
        "index size: {total} bytes ({:.1} MiB) for {games} games and {positions} positions: \
         {:.0} bytes a game, {:.1} a position, {:.1}% of the PGN text ({pgn_bytes} bytes)",
        total as f64 / 1048576.0,
        total as f64 / games.max(1) as f64,
        total as f64 / positions.max(1) as f64,
        100.0 * total as f64 / pgn_bytes as f64
    );
    let parts: Vec<String> = by_kind
        .iter()
        .map(|(kind, n)| format!(".{kind} {:.1} MiB", *n as f64 / 1048576.0))
        .collect();
    println!("  by file: {}", parts.join(", "));
    Ok(())
}

/// Pattern and material search against pgn-extract, both writing the games
/// found to standard output (captured here, to count them).
fn against_pgn_extract(
    cli: &Path,
    extract: &Path,
    file: &Path,
    work: &Path,
    pairs: usize,
    have_time: bool,
) -> Result<(), String> {
    let bytes = std::fs::metadata(file).map_err(|e| e.to_string())?.len();
    let write = |name: &str, text: &str| -> Result<PathBuf, String> {
        let path = work.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    };
    let pattern = "6k1/5ppp/*/*/*/*/*/*";
    let mut tag_arg = OsString::from("-t");
    tag_arg.push(write(
        "fenpattern.txt",
        &format!("FENPattern \"{pattern}\"\n"),
    )?);
    let mut z_arg = OsString::from("-z");
    z_arg.push(write("material.txt", "1 rp r\n")?);
    let tasks: [(&str, String, OsString); 2] = [
        (
            "pattern vs pgn-extract --fenpattern",
            format!("pattern \"{pattern}\""),
            tag_arg,
        ),
        (
            "material vs pgn-extract -z",
            "material \"KRPkr\"".into(),
            z_arg,
        ),
    ];
    println!();
    println!("load: {}", load_line());
    println!(
        "pattern and material search on {} ({bytes} bytes), pgnkit with one thread per CPU, \
         pgn-extract -s (one thread); {pairs} pairs after a warm-up pair",
        file.display()
    );
    let mut comparisons = Vec::new();
    for (label, query, theirs) in tasks {
        let ours = Side {
            program: cli.to_path_buf(),
            args: vec!["search".into(), file.into(), query.into()],
            ok_codes: &[0, 1],
        };
        let peer = Side {
            program: extract.to_path_buf(),
            args: vec!["-s".into(), theirs, file.into()],
            ok_codes: &[0, 1],
        };
        let mut comparison = compare(label, &ours, &peer, pairs, have_time)?;
        // Only the count is kept of what they wrote.
        for run in comparison.ours.iter_mut().chain(comparison.peer.iter_mut()) {
            let games = run
                .stdout
                .lines()
                .filter(|line| line.starts_with("[Event "))
                .count();
            run.stdout = format!("games={games}");
        }
        comparisons.push(comparison);
    }
    print_table(&comparisons, bytes, None);
    print_notes(&comparisons);
    println!("target: >= 20x pgn-extract (issue 31)");
    Ok(())
}
