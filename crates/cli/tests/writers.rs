//! The export promises on every writer (`docs/reliability.md`, issue "Hardening"): `convert`
//! (Parquet, Arrow, CSV, NDJSON, one file or `--split-every` parts), `select`, `dedupe` and
//! `classify` (one file, `--split-every`, `--split-by`, a table) and `ranges -o`. A signal
//! mid-write (a real child process fed games on standard input) leaves every old output as it
//! was and no temporary file; a full disk names the output; a split output that stops leaves
//! no partial part under its final name, and the parts already complete are listed.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A good game (export format).
const GOOD: &str = "[Event \"good\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";

/// An empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("writers")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Every file of `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .expect("the scratch folder")
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, fs::read(&path).unwrap_or_default())
        })
        .collect()
}

fn pgnkit(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    command.args(args).current_dir(dir);
    command
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names a run's `complete and in place: ...` line lists.
fn listed_in_place(err: &str) -> Vec<String> {
    err.lines()
        .find_map(|line| line.strip_prefix("pgnkit: complete and in place: "))
        .map(|names| names.split(", ").map(str::to_string).collect())
        .unwrap_or_default()
}

/// Checks that a file put in place is whole: a Parquet file ends with its footer's magic, a
/// PGN part holds `every` games.
fn whole(path: &Path, every: usize) {
    let bytes = fs::read(path).expect("a part in place");
    let name = path.display();
    if name.to_string().ends_with(".parquet") {
        assert!(bytes.ends_with(b"PAR1"), "{name} ends with its footer");
    } else {
        let games = String::from_utf8_lossy(&bytes).matches("[Event ").count();
        assert_eq!(games, every, "{name} holds a whole part");
    }
}

/// Runs `args` (reading standard input, fed games until it stops reading) in `dir`, waits
/// until a temporary file is being written (and `wait_for`, a file put in place, exists), sends
/// `signal` and checks the promises: exit status 130, the message names what was not written
/// (a split output caught between two parts has nothing unwritten),
/// every old file is as it was, no temporary file is left, and any new file is one the message
/// lists as complete. Returns the files listed.
fn interrupt(dir: &Path, args: &[&str], signal: &str, wait_for: Option<&str>) -> Vec<String> {
    let before = files(dir);
    let mut child = pgnkit(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    let feeder = thread::spawn(move || {
        let chunk = GOOD.repeat(1_000);
        let started = Instant::now();
        // Until the child stops reading (or a minute, should it never).
        while started.elapsed() < Duration::from_secs(60) {
            if input.write_all(chunk.as_bytes()).is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
    });
    let ready = (0..2_000).any(|_| {
        thread::sleep(Duration::from_millis(10));
        let now = files(dir);
        now.keys().any(|name| name.ends_with(".tmp"))
            && wait_for.is_none_or(|name| now.contains_key(name))
    });
    assert!(
        ready,
        "{args:?}: writes a temporary file (and {wait_for:?})"
    );
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(kill.success());
    let out = child.wait_with_output().expect("the child ends");
    feeder.join().expect("the feeder");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{args:?} {signal}: {err}");
    // A split output may be caught between two parts, a part put in place and the next not
    // yet begun: then nothing is unwritten and the message says only "interrupted".
    let between_parts = wait_for.is_some() && err.starts_with("pgnkit: interrupted\n");
    assert!(
        between_parts || (err.starts_with("pgnkit: interrupted: ") && err.contains(" not written")),
        "{args:?} {signal}: {err}"
    );
    let listed = listed_in_place(&err);
    let after = files(dir);
    for (name, bytes) in &before {
        assert_eq!(
            after.get(name),
            Some(bytes),
            "{args:?}: {name} is as it was"
        );
    }
    for name in after.keys().filter(|name| !before.contains_key(*name)) {
        assert!(!name.ends_with(".tmp"), "{args:?}: {name} was left");
        assert!(
            listed.contains(name),
            "{args:?}: {name} is new but not listed as complete: {err}"
        );
    }
    listed
}

#[test]
fn a_signal_leaves_the_old_outputs_of_every_table_writer_and_no_temporary_file() {
    let dir = scratch("signal-tables");
    for (name, signal) in [
        ("games.parquet", "INT"),
        ("games.arrow", "TERM"),
        ("games.csv", "HUP"),
        ("games.ndjson", "INT"),
    ] {
        fs::write(dir.join(name), "an old table").unwrap();
        fs::write(dir.join("moves.parquet"), "an old moves table").unwrap();
        let listed = interrupt(
            &dir,
            &["convert", "-", "-o", name, "--moves", "moves.parquet"],
            signal,
            None,
        );
        assert_eq!(listed, Vec::<String>::new(), "{name}: nothing is in place");
    }
    fs::write(dir.join("sel.parquet"), "an old table").unwrap();
    interrupt(&dir, &["select", "-", "-o", "sel.parquet"], "TERM", None);
}

#[test]
fn a_signal_leaves_the_old_outputs_of_select_dedupe_and_classify() {
    let dir = scratch("signal-select");
    for (command, signal) in [("select", "INT"), ("dedupe", "TERM"), ("classify", "INT")] {
        let out = format!("{command}.pgn");
        fs::write(dir.join(&out), "an old file").unwrap();
        let listed = interrupt(&dir, &[command, "-", "-o", &out], signal, None);
        assert_eq!(listed, Vec::<String>::new());
    }
    // `--split-by`: every file stays open to the end, none is put in place.
    fs::write(dir.join("by-good.pgn"), "an old part").unwrap();
    let listed = interrupt(
        &dir,
        &["select", "-", "-o", "by.pgn", "--split-by", "Event"],
        "TERM",
        None,
    );
    assert_eq!(listed, Vec::<String>::new());
}

#[test]
fn a_signal_during_a_split_output_leaves_whole_parts_and_lists_them() {
    let dir = scratch("signal-split");
    // An old file under the name of a part that will not be reached stays as it was.
    fs::write(dir.join("part-9999.pgn"), "an old part").unwrap();
    for (args, first) in [
        (
            &["select", "-", "-o", "part.pgn", "--split-every", "500"][..],
            "part-0001.pgn",
        ),
        (
            &["classify", "-", "-o", "cls.pgn", "--split-every", "500"],
            "cls-0001.pgn",
        ),
        (
            &["convert", "-", "-o", "g.parquet", "--split-every", "500"],
            "g-0001.parquet",
        ),
    ] {
        let listed = interrupt(&dir, args, "INT", Some(first));
        assert!(
            listed.iter().any(|name| name == first),
            "{args:?}: {listed:?}"
        );
        for name in &listed {
            whole(&dir.join(name), 500);
        }
    }
}

#[test]
fn a_split_output_whose_input_fails_lists_the_parts_in_place_and_leaves_no_partial_one() {
    let dir = scratch("split-input-fails");
    fs::write(dir.join("a.pgn"), GOOD.repeat(1_200)).unwrap();
    // A `.zst` cut short: its games are read up to the cut, then the input fails.
    let zst = zstd::encode_all(GOOD.repeat(100).as_bytes(), 3).unwrap();
    fs::write(dir.join("cut.pgn.zst"), &zst[..zst.len() - 8]).unwrap();
    let before = files(&dir);
    let out = pgnkit(
        &dir,
        &[
            "select",
            "a.pgn",
            "cut.pgn.zst",
            "-o",
            "p.pgn",
            "--split-every",
            "500",
        ],
    )
    .output()
    .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("pgnkit: cannot read cut.pgn.zst"), "{err}");
    assert!(
        err.contains("pgnkit: p-0003.pgn not written: not every input could be read"),
        "{err}"
    );
    assert_eq!(listed_in_place(&err), ["p-0001.pgn", "p-0002.pgn"], "{err}");
    let after = files(&dir);
    let new: Vec<&String> = after.keys().filter(|n| !before.contains_key(*n)).collect();
    assert_eq!(new, ["p-0001.pgn", "p-0002.pgn"]);
    whole(&dir.join("p-0001.pgn"), 500);
    whole(&dir.join("p-0002.pgn"), 500);
}

/// Mounts a 256 KiB tmpfs at `disk` when this machine lets the test (root in CI).
fn small_disk(disk: &Path) -> bool {
    fs::create_dir_all(disk).unwrap();
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(disk)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_full_disk_names_the_output_of_every_writer() {
    let dir = scratch("full");
    fs::write(dir.join("a.pgn"), GOOD.repeat(20_000)).unwrap();
    let before = files(&dir);
    let runs: [&[&str]; 9] = [
        &["convert", "a.pgn", "-o", "/dev/full", "--format", "parquet"],
        &["convert", "a.pgn", "-o", "/dev/full", "--format", "arrow"],
        &["convert", "a.pgn", "-o", "/dev/full", "--format", "csv"],
        &["convert", "a.pgn", "-o", "/dev/full", "--format", "ndjson"],
        &["select", "a.pgn", "-o", "/dev/full"],
        &["select", "a.pgn", "-o", "/dev/full", "--format", "parquet"],
        &[
            "dedupe",
            "a.pgn",
            "-o",
            "x.pgn",
            "--duplicates",
            "/dev/full",
        ],
        &["classify", "a.pgn", "-o", "/dev/full"],
        &["ranges", "a.pgn", "-n", "4", "-o", "/dev/full"],
    ];
    for args in runs {
        let out = pgnkit(&dir, args).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.lines().last(),
            Some("pgnkit: cannot write /dev/full: No space left on device"),
            "{args:?}: {err}"
        );
        assert_eq!(files(&dir), before, "{args:?} left a file");
    }
    // `ranges > /dev/full`.
    let out = pgnkit(&dir, &["ranges", "a.pgn", "-n", "4"])
        .stdout(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "pgnkit: cannot write standard output: No space left on device\n"
    );
    // `ranges -o` puts its file in place whole.
    let out = pgnkit(&dir, &["ranges", "a.pgn", "-n", "2", "-o", "r.txt"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let ranges = fs::read_to_string(dir.join("r.txt")).unwrap();
    assert_eq!(ranges.lines().count(), 2, "{ranges}");
}

#[test]
fn a_disk_that_fills_up_during_a_split_output_lists_the_parts_in_place() {
    let dir = scratch("full-split");
    let disk = dir.join("disk");
    if !small_disk(&disk) {
        eprintln!("no tmpfs could be mounted here: covered by the failing input above");
        return;
    }
    fs::write(dir.join("a.pgn"), GOOD.repeat(6_000)).unwrap();
    let runs: [(&[&str], &str, &str); 2] = [
        (
            &[
                "select",
                "a.pgn",
                "-o",
                "disk/s.pgn",
                "--split-every",
                "1500",
            ],
            "disk/s-",
            ".pgn",
        ),
        (
            &[
                "convert",
                "a.pgn",
                "-o",
                "disk/g.csv",
                "--split-every",
                "1000",
            ],
            "disk/g-",
            ".csv",
        ),
    ];
    let mut results = Vec::new();
    for (args, prefix, ext) in runs {
        let out = pgnkit(&dir, args).output().unwrap();
        let left = files(&disk);
        for name in left.keys() {
            let _ = fs::remove_file(disk.join(name));
        }
        results.push((args, prefix, ext, out, left));
    }
    let _ = Command::new("umount").arg(&disk).status();
    for (args, prefix, ext, out, left) in results {
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let failed = err
            .lines()
            .find_map(|l| l.strip_prefix("pgnkit: cannot write "))
            .unwrap_or_else(|| panic!("{args:?}: {err}"));
        assert!(
            failed.starts_with(prefix) && failed.ends_with(": No space left on device"),
            "{args:?}: {err}"
        );
        let listed = listed_in_place(&err);
        assert!(!listed.is_empty(), "{args:?}: some parts fit: {err}");
        let on_disk: Vec<String> = left.keys().map(|n| format!("disk/{n}")).collect();
        assert_eq!(
            on_disk, listed,
            "{args:?}: the parts in place are those listed"
        );
        assert!(listed.iter().all(|n| n.ends_with(ext)));
    }
}
