//! `cargo xtask bench --select`: `pgnkit select`, `dedupe` and `classify`
//! against pgn-extract (issue 19), side by side on the bench file with the
//! peers' machinery (alternating pairs, wall and CPU medians, peak RSS), then
//! dedupe's peak memory on the bench file repeated 4 times.
//!
//! pgn-extract is looked for on `PATH`, then where Debian puts it
//! (`/usr/games`); without it the comparison is skipped with a message and
//! only pgnkit's own rows (`--threads 2` against `--threads 1`) are run. Its
//! classification reads `eco.pgn` from `/usr/share/pgn-extract` (Debian's
//! package) or `PGN_EXTRACT_ECO`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{
    Comparison, DEBIAN_PGN_EXTRACT, Side, TIME, build_cli, compare, find_on_path, machine_line,
    print_notes, print_table, target_dir,
};

/// Debian's ECO file for pgn-extract's `-e`.
const DEBIAN_ECO: &str = "/usr/share/pgn-extract/eco.pgn";

/// One task: its label, pgnkit's arguments (after the command name) and
/// pgn-extract's (before the file), `None` when it has no equivalent here.
struct Task {
    label: &'static str,
    ours: Vec<OsString>,
    theirs: Option<Vec<OsString>>,
}

/// Entry point for `cargo xtask bench --select [--pairs N] [FILE]`.
pub fn run(file: &Path, pairs: usize) -> Result<(), String> {
    let bytes = std::fs::metadata(file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let have_time = Path::new(TIME).is_file();
    let release = target_dir().join("release");
    let cli = build_cli(&release)?;
    let extract = find_on_path("pgn-extract")
        .or_else(|| Some(PathBuf::from(DEBIAN_PGN_EXTRACT)).filter(|path| path.is_file()));
    let work = target_dir().join("bench-select");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    let tag_file = |name: &str, line: &str| -> Result<OsString, String> {
        let path = work.join(name);
        std::fs::write(&path, format!("{line}\n"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut arg = OsString::from("-t");
        arg.push(&path);
        Ok(arg)
    };
    let eco = std::env::var_os("PGN_EXTRACT_ECO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEBIAN_ECO));
    let words = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
    let tasks = [
        Task {
            label: "select by a tag (player)",
            ours: words(&["select", "--where", "player =~ \"^Tal\""]),
            theirs: Some(vec![tag_file("player.txt", "Player \"Tal\"")?]),
        },
        Task {
            label: "select by Elo",
            ours: words(&["select", "--where", "elo >= 2500"]),
            theirs: Some(vec![tag_file("elo.txt", "Elo >= \"2500\"")?]),
        },
        Task {
            label: "dedupe",
            ours: words(&["dedupe"]),
            theirs: Some(words(&["-D"])),
        },
        Task {
            label: "classify",
            ours: words(&["classify"]),
            theirs: eco.is_file().then(|| {
                let mut arg = OsString::from("-e");
                arg.push(&eco);
                vec![arg]
            }),
        },
    ];

    println!();
    println!("bench file: {} ({bytes} bytes)", file.display());
    println!("{}", machine_line());
    println!("{pairs} measured pairs per row after 1 warm-up pair, run alternately");
    let ours_side = |args: &[OsString], threads: Option<&str>| {
        let mut args = args.to_vec();
        args.extend([file.into(), "-o".into(), "/dev/null".into()]);
        if let Some(threads) = threads {
            args.extend(["--threads".into(), threads.into()]);
        }
        Side {
            program: cli.clone(),
            args,
            ok_codes: &[0, 1],
        }
    };
    let mut comparisons: Vec<Comparison> = Vec::new();
    match &extract {
        Some(extract) => {
            for task in &tasks {
                let Some(theirs) = &task.theirs else {
                    println!(
                        "note: {} is missing, so `{}` is not compared (set PGN_EXTRACT_ECO)",
                        eco.display(),
                        task.label
                    );
                    continue;
                };
                let mut args: Vec<OsString> = vec!["-s".into()];
                args.extend(theirs.iter().cloned());
                args.extend(["-o".into(), "/dev/null".into(), file.into()]);
                let peer = Side {
                    program: extract.clone(),
                    args,
                    ok_codes: &[0, 1],
                };
                let ours = ours_side(&task.ours, None);
                let mut comparison = compare(task.label, &ours, &peer, pairs, have_time)?;
                comparison.label = format!("{} vs pgn-extract", task.label);
                comparisons.push(comparison);
            }
        }
        None => {
            println!(
                "note: pgn-extract is neither on PATH nor in /usr/games, so the comparison \
                 with it is skipped (`apt-get install -y pgn-extract`); pgnkit's rows are \
                 --threads 2 against --threads 1"
            );
            for task in &tasks {
                let (two, one) = (
                    ours_side(&task.ours, Some("2")),
                    ours_side(&task.ours, Some("1")),
                );
                let mut comparison = compare(task.label, &two, &one, pairs, have_time)?;
                comparison.label = format!("{} --threads 2 vs --threads 1", task.label);
                comparisons.push(comparison);
            }
        }
    }
    print_table(&comparisons, bytes, None);
    print_notes(&comparisons);
    dedupe_memory(&cli, extract.as_deref(), file, &work, have_time)
}

/// Dedupe's peak RSS on the bench file repeated 4 times (made once under
/// `target/bench-select/`), one run each: pgnkit with its default threads
/// and with one, and pgn-extract `-D` when it is there.
fn dedupe_memory(
    cli: &Path,
    extract: Option<&Path>,
    file: &Path,
    work: &Path,
    have_time: bool,
) -> Result<(), String> {
    if !have_time {
        println!("note: {TIME} is missing, so dedupe's peak memory is not measured");
        return Ok(());
    }
    let x4 = work.join("bench-x4.pgn");
    let len = std::fs::metadata(file).map_err(|e| e.to_string())?.len();
    if std::fs::metadata(&x4).map(|m| m.len()).ok() != Some(4 * len) {
        let one = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        std::fs::write(&x4, one.repeat(4)).map_err(|e| format!("{}: {e}", x4.display()))?;
    }
    println!();
    println!(
        "dedupe on the bench file repeated 4 times ({} bytes), one run each:",
        4 * len
    );
    let ours = |threads: Option<&str>| {
        let mut args: Vec<OsString> = vec!["dedupe".into(), x4.clone().into()];
        args.extend(["-o".into(), "/dev/null".into()]);
        if let Some(threads) = threads {
            args.extend(["--threads".into(), threads.into()]);
        }
        Side {
            program: cli.to_path_buf(),
            args,
            ok_codes: &[0, 1],
        }
    };
    let mut runs = vec![
        ("pgnkit dedupe", ours(None)),
        ("pgnkit dedupe --threads 1", ours(Some("1"))),
    ];
    if let Some(extract) = extract {
        let args = ["-s", "-D", "-o", "/dev/null"].map(OsString::from).to_vec();
        let mut args = args;
        args.push(x4.clone().into());
        runs.push((
            "pgn-extract -D",
            Side {
                program: extract.to_path_buf(),
                args,
                ok_codes: &[0, 1],
            },
        ));
    }
    for (label, side) in runs {
        let run = super::measure(&side, true)?;
        println!(
            "  {label:<28} wall {:.2} s, CPU {}, peak RSS {}",
            run.wall,
            run.cpu.map_or("-".into(), |c| format!("{c:.2} s")),
            run.rss_kib
                .map_or("-".into(), |k| format!("{:.1} MB", k as f64 / 1024.0)),
        );
    }
    Ok(())
}
