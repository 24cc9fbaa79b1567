//! Fault injection on the built `pgnkit` binary: one test per way a run can lose or damage a
//! user's files (issue "Nothing lost, nothing corrupted"; the promises are listed in
//! `docs/reliability.md`). Every test checks the exit status and the message, that every input
//! is byte for byte unchanged, and that no partial output (nor a temporary file) is left under
//! any name.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// A good game (export format), and a broken one (an illegal move).
const GOOD: &str = "[Event \"good\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n";
const BROKEN: &str = "[Event \"broken\"]\n\n1. e4 e5 2. Ke3 *\n\n";

/// An empty folder for one test, under cargo's temporary directory for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reliability")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Every file of `dir` (links as their target's path) with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut all = BTreeMap::new();
    for entry in fs::read_dir(dir).expect("the scratch folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = match fs::read_link(&path) {
            Ok(target) => target.to_string_lossy().into_owned().into_bytes(),
            Err(_) => fs::read(&path).unwrap_or_default(),
        };
        all.insert(name, bytes);
    }
    all
}

fn pgnkit(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    command.args(args).current_dir(dir);
    command
}

fn run(dir: &Path, args: &[&str]) -> Output {
    pgnkit(dir, args).output().expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Checks that a run failed with status 2 and `message` on stderr.
fn failed_with(out: &Output, message: &str) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    assert!(stderr(out).contains(message), "{}", stderr(out));
}

/// Runs `args` in `dir` and checks that it failed with status 2 and `message` on stderr, and
/// that the folder is exactly as before.
fn refused(dir: &Path, args: &[&str], message: &str) {
    let before = files(dir);
    let out = run(dir, args);
    failed_with(&out, message);
    assert_eq!(files(dir), before, "{args:?} changed the folder");
}

/// A child's exit and its peak resident memory (VmHWM, kB), watched through /proc while it
/// runs; its standard output and error are read (and kept) as it writes them.
fn watch(mut child: Child) -> (Output, u64) {
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let (status, peak) = common::wait_with_peak(&mut child);
    let output = Output {
        status,
        stdout: out.join().expect("stdout"),
        stderr: err.join().expect("stderr"),
    };
    (output, peak)
}

fn spawn(mut command: Command) -> Child {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

#[test]
fn an_output_that_is_an_input_is_refused_and_nothing_changes() {
    let dir = scratch("same-file");
    fs::write(dir.join("a.pgn"), GOOD.repeat(3)).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("a.pgn", dir.join("link.pgn")).unwrap();
        fs::hard_link(dir.join("a.pgn"), dir.join("hard.pgn")).unwrap();
    }
    let is_input = "is the input a.pgn: refusing to overwrite it";
    refused(&dir, &["export", "a.pgn", "-o", "a.pgn"], is_input);
    refused(&dir, &["export", "a.pgn", "-o", "./a.pgn"], is_input);
    refused(&dir, &["export", "a.pgn", "--rejects", "a.pgn"], is_input);
    #[cfg(unix)]
    {
        refused(&dir, &["export", "a.pgn", "-o", "link.pgn"], is_input);
        refused(
            &dir,
            &["export", "a.pgn", "--rejects", "hard.pgn"],
            is_input,
        );
    }
    // Standard input redirected from the output.
    let before = files(&dir);
    let out = pgnkit(&dir, &["export", "-", "-o", "a.pgn"])
        .stdin(fs::File::open(dir.join("a.pgn")).unwrap())
        .output()
        .unwrap();
    failed_with(&out, "-o a.pgn is standard input");
    assert_eq!(files(&dir), before);
    // Standard output appended to an input (`>> a.pgn`) would read what it writes.
    let out = pgnkit(&dir, &["export", "a.pgn"])
        .stdout(
            fs::OpenOptions::new()
                .append(true)
                .open(dir.join("a.pgn"))
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("standard output is the input a.pgn"));
    assert_eq!(files(&dir), before);
}

#[test]
fn two_outputs_that_are_one_file_are_refused() {
    let dir = scratch("two-outputs");
    fs::write(dir.join("a.pgn"), [GOOD, BROKEN].concat()).unwrap();
    let same = "are the same file";
    refused(
        &dir,
        &["export", "a.pgn", "-o", "x.pgn", "--rejects", "x.pgn"],
        same,
    );
    refused(
        &dir,
        &["export", "a.pgn", "-o", "x.pgn", "--rejects", "./x.pgn"],
        same,
    );
    fs::write(dir.join("x.pgn"), "kept").unwrap();
    refused(
        &dir,
        &["export", "a.pgn", "-o", "x.pgn", "--rejects", "x.pgn"],
        same,
    );
}

#[test]
fn a_missing_input_or_bad_output_path_touches_no_output() {
    let dir = scratch("missing");
    fs::write(dir.join("keep.pgn"), "an old export").unwrap();
    fs::write(dir.join("a.pgn"), GOOD).unwrap();
    fs::create_dir(dir.join("folder")).unwrap();
    refused(
        &dir,
        &["export", "missing.pgn", "-o", "keep.pgn"],
        "cannot read missing.pgn: no such file",
    );
    refused(
        &dir,
        &["export", "a.pgn", "missing.pgn", "-o", "keep.pgn"],
        "cannot read missing.pgn: no such file",
    );
    refused(
        &dir,
        &["export", "folder", "-o", "keep.pgn"],
        "folder is a directory",
    );
    refused(
        &dir,
        &[
            "export",
            "a.pgn",
            "-o",
            "keep.pgn",
            "--rejects",
            "nowhere/r.pgn",
        ],
        "cannot write nowhere/r.pgn: no such directory",
    );
    refused(
        &dir,
        &["export", "a.pgn", "-o", "folder"],
        "cannot write folder: is a directory",
    );
}

#[test]
fn a_full_disk_is_a_write_error_that_names_the_output_and_leaves_nothing() {
    let dir = scratch("full");
    fs::write(dir.join("a.pgn"), GOOD.repeat(20_000)).unwrap();
    // `-o /dev/full`.
    let before = files(&dir);
    let out = run(&dir, &["export", "a.pgn", "-o", "/dev/full"]);
    failed_with(&out, "cannot write /dev/full: No space left on device");
    assert_eq!(files(&dir), before);
    // `> /dev/full`.
    let out = pgnkit(&dir, &["export", "a.pgn"])
        .stdout(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    failed_with(
        &out,
        "cannot write standard output: No space left on device",
    );
    // A file-size limit (`ulimit -f`, 100 blocks): the write fails past it. An existing file
    // under the output's name is left as it was, and no temporary file stays.
    fs::write(dir.join("out.pgn"), "an old export").unwrap();
    let before = files(&dir);
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -f 100; exec '{}' export a.pgn -o out.pgn",
            env!("CARGO_BIN_EXE_pgnkit")
        ))
        .current_dir(&dir)
        .output()
        .unwrap();
    failed_with(&out, "cannot write out.pgn: File too large");
    assert_eq!(files(&dir), before);
}

#[test]
fn a_disk_that_fills_up_leaves_no_partial_output() {
    // A 256 KiB tmpfs, when this machine lets the test mount one (root in CI).
    let dir = scratch("tmpfs");
    let disk = dir.join("disk");
    fs::create_dir(&disk).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&disk)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("no tmpfs could be mounted here: covered by /dev/full and ulimit -f");
        return;
    }
    fs::write(dir.join("a.pgn"), GOOD.repeat(20_000)).unwrap();
    fs::write(disk.join("out.pgn"), "an old export").unwrap();
    let out = run(&dir, &["export", "a.pgn", "-o", "disk/out.pgn"]);
    let left = files(&disk);
    let _ = Command::new("umount").arg(&disk).status();
    failed_with(&out, "cannot write disk/out.pgn: No space left on device");
    assert_eq!(
        left,
        BTreeMap::from([("out.pgn".to_string(), b"an old export".to_vec())])
    );
}

#[test]
fn a_closed_standard_error_ends_the_run_quietly_without_an_output() {
    let dir = scratch("stderr");
    // Many broken games: far more diagnostics than a pipe holds.
    fs::write(dir.join("a.pgn"), [GOOD, BROKEN].concat().repeat(5_000)).unwrap();
    let before = files(&dir);
    let mut child = pgnkit(&dir, &["export", "a.pgn", "-o", "out.pgn"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let mut first = [0u8; 64];
    err.read_exact(&mut first).unwrap();
    drop(err); // `2>&1 | head -c 64`
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(2),
        "no panic (101), the run is incomplete"
    );
    assert!(String::from_utf8_lossy(&first).starts_with("a.pgn:"));
    assert_eq!(files(&dir), before, "no out.pgn, no temporary file");
}

#[test]
fn an_interrupt_removes_the_unfinished_output_and_says_so() {
    let dir = scratch("sigint");
    fs::write(dir.join("out.pgn"), "an old export").unwrap();
    let before = files(&dir);
    let mut child = pgnkit(&dir, &["export", "-", "-o", "out.pgn"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Games arrive; the command writes them to its temporary file and waits for more.
    let mut input = child.stdin.take().unwrap();
    input.write_all(GOOD.repeat(10_000).as_bytes()).unwrap();
    let temp_seen = (0..500).any(|_| {
        thread::sleep(Duration::from_millis(10));
        files(&dir).keys().any(|name| name.ends_with(".tmp"))
    });
    assert!(temp_seen, "the output is written to a temporary file");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    drop(input);
    assert_eq!(out.status.code(), Some(130));
    assert_eq!(stderr(&out), "pgnkit: interrupted: out.pgn not written\n");
    assert_eq!(files(&dir), before);
}

#[test]
fn endless_binary_input_ends_quickly_in_bounded_memory() {
    let dir = scratch("binary");
    for device in ["/dev/zero", "/dev/urandom"] {
        let started = Instant::now();
        let (out, peak_kb) = watch(spawn(pgnkit(&dir, &["check", device])));
        assert_eq!(out.status.code(), Some(2), "{device}");
        let message = format!("pgnkit: cannot read {device}: binary data, not PGN text");
        assert!(stderr(&out).starts_with(&message), "{}", stderr(&out));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(peak_kb < 64 * 1024, "{device}: {peak_kb} kB");
        assert!(out.stdout.is_empty());
    }
    // Text, then five seconds of NUL bytes with no game boundary: read (and dropped) as one
    // game over the size limit, in bounded memory.
    let mut child = pgnkit(
        &dir,
        &["check", "-", "--threads", "2", "--max-game-bytes", "4M"],
    )
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut input = child.stdin.take().unwrap();
    let feeder = thread::spawn(move || {
        // Enough text first that the start of the input is not taken for binary data.
        input.write_all(GOOD.repeat(1000).as_bytes()).unwrap();
        input.write_all(b"[Event \"zeros\"]\n\n").unwrap();
        let zeros = vec![0u8; 1 << 16];
        let started = Instant::now();
        let mut sent = 0u64;
        while started.elapsed() < Duration::from_secs(5) {
            if input.write_all(&zeros).is_err() {
                break;
            }
            sent += zeros.len() as u64;
        }
        sent
    });
    let (out, peak_kb) = watch(child);
    let sent = feeder.join().unwrap();
    // Far more than the limit went through (however busy the machine).
    assert!(sent > 16 << 20, "only {sent} bytes of zeros were read");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.starts_with("-:10001:1: error: game of ") && report.contains("over the size limit"),
        "{report}"
    );
    assert!(peak_kb < 64 * 1024, "{peak_kb} kB for {sent} bytes");
}

#[test]
fn a_huge_line_is_skipped_in_bounded_memory_and_never_echoed_whole() {
    let dir = scratch("huge-line");
    // 200 MB on one line: an illegal move, then knight moves to and fro.
    let mut game = b"[Event \"huge\"]\n\n1. e4 e5 2. Ke3 ".to_vec();
    let dance = b"Nf3 Nf6 Ng1 Ng8 ";
    game.reserve(200 << 20);
    while game.len() < 200_000_000 {
        game.extend_from_slice(dance);
    }
    game.extend_from_slice(b"*\n");
    let mut file = fs::File::create(dir.join("huge.pgn")).unwrap();
    file.write_all(&game).unwrap();
    file.write_all(GOOD.as_bytes()).unwrap();
    drop(file);
    let huge = game.len();
    drop(game);
    let limit_kb = 16 * 1024; // the default --max-game-bytes
    let (out, peak_kb) = watch(spawn(pgnkit(
        &dir,
        &[
            "export",
            "huge.pgn",
            "-o",
            "out.pgn",
            "--rejects",
            "bad.pgn",
        ],
    )));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.len() < 1000, "{} bytes of messages", err.len());
    let expected = format!(
        "huge.pgn:1:1: error: game of {huge} bytes is over the size limit; skipped\n\
         huge.pgn:1: game rejected: over the --max-game-bytes limit, not kept\n"
    );
    assert!(err.starts_with(&expected), "{err}");
    assert!(peak_kb < 64 * 1024 + 2 * limit_kb, "{peak_kb} kB");
    assert_eq!(fs::read_to_string(dir.join("out.pgn")).unwrap(), GOOD);
    assert_eq!(fs::read(dir.join("bad.pgn")).unwrap(), b"");
    // Under a raised limit the game is read, and the message shows a window of its line.
    fs::write(
        dir.join("long.pgn"),
        format!(
            "1. e4 e5 {}2. Ke3 {}*\n",
            "{ padding } ".repeat(100_000),
            "Nf3 ".repeat(100_000)
        ),
    )
    .unwrap();
    let out = run(&dir, &["check", "long.pgn", "--max-game-bytes", "4M"]);
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 3, "{report}");
    assert!(lines[0].starts_with("long.pgn:1:1200013: error: illegal move `Ke3`"));
    assert!(lines[1].starts_with("  ...") && lines[1].ends_with("..."));
    assert!(lines[1].chars().count() < 140, "{}", lines[1]);
    let caret = lines[2].find('^').unwrap();
    assert_eq!(lines[1].get(caret..caret + 3), Some("Ke3"));
}

#[test]
fn a_control_byte_in_a_tag_section_rejects_the_whole_game_verbatim() {
    let dir = scratch("nul");
    let broken = "\0[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 *\n\n";
    fs::write(dir.join("a.pgn"), [broken, GOOD].concat()).unwrap();
    let out = run(
        &dir,
        &["export", "a.pgn", "-o", "out.pgn", "--rejects", "bad.pgn"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("a.pgn:1:1: error: control character\n  \\x00[Event"));
    assert!(stderr(&out).contains("2 games read, 1 written, 1 rejected"));
    // No game is written with a tag dropped: the broken one is kept whole.
    assert_eq!(fs::read_to_string(dir.join("out.pgn")).unwrap(), GOOD);
    assert_eq!(fs::read_to_string(dir.join("bad.pgn")).unwrap(), broken);
}

#[test]
fn control_characters_in_a_broken_game_are_shown_escaped() {
    let dir = scratch("escape");
    fs::write(
        dir.join("a.pgn"),
        "[Event \"x\"]\n\n1. e4 {\x1b[2J\x07\u{202e}} e5 2. Ke3 *\n",
    )
    .unwrap();
    for command in ["export", "check"] {
        let out = run(&dir, &[command, "a.pgn"]);
        assert_eq!(out.status.code(), Some(1));
        let shown = [out.stdout, out.stderr].concat();
        let shown = String::from_utf8(shown).unwrap();
        assert!(
            shown.contains("  1. e4 {\\x1b[2J\\x07\\u{202e}} e5 2. Ke3 *\n"),
            "{shown}"
        );
        assert!(
            !shown.contains(['\x1b', '\x07', '\u{202e}']),
            "{command}: a raw control character reached the terminal"
        );
    }
}

#[test]
fn too_many_threads_are_refused_not_a_panic() {
    let dir = scratch("threads");
    fs::write(dir.join("a.pgn"), GOOD).unwrap();
    let out = run(
        &dir,
        &["export", "a.pgn", "--threads", "32000", "-o", "out.pgn"],
    );
    failed_with(
        &out,
        "the number of threads must be from 1 to 1024, not 32000",
    );
    assert_eq!(files(&dir).len(), 1);
    // The most accepted run, and one thread fewer than asked would still be a clean run.
    let out = run(&dir, &["export", "a.pgn", "--threads", "1024"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD);
}

#[test]
fn a_missing_file_among_several_is_reported_and_the_others_read() {
    let dir = scratch("several");
    fs::write(dir.join("a.pgn"), GOOD).unwrap();
    fs::write(dir.join("b.pgn"), GOOD.replace("good", "b")).unwrap();
    let before = files(&dir);
    let out = run(&dir, &["export", "a.pgn", "missing.pgn", "b.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        [GOOD, &GOOD.replace("good", "b")].concat()
    );
    let err = stderr(&out);
    assert!(
        err.starts_with("pgnkit: cannot read missing.pgn: no such file\n"),
        "{err}"
    );
    assert!(
        err.contains("pgnkit export: 2 games read, 2 written"),
        "{err}"
    );
    assert!(
        err.trim_end().ends_with("1 input could not be read"),
        "{err}"
    );
    assert_eq!(files(&dir), before);
}

#[test]
fn a_closed_standard_output_counts_only_games_written() {
    let dir = scratch("stdout");
    fs::write(dir.join("a.pgn"), GOOD.repeat(50_000)).unwrap();
    let mut child = pgnkit(&dir, &["export", "a.pgn"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 15];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take()); // `| head -c 15`
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first, b"[Event \"good\"]\n");
    assert_eq!(out.status.code(), Some(0), "quietly: {}", stderr(&out));
    let err = stderr(&out);
    let count = |word: &str| -> u64 {
        let before = err.split(word).next().unwrap();
        before.split_whitespace().last().unwrap().parse().unwrap()
    };
    let (read, written, not) = (
        count(" games read"),
        count(" written,"),
        count(" games not written"),
    );
    assert!(written < 50_000, "{err}");
    assert_eq!(written + not, read, "{err}");
    // What was counted fits in what a pipe and the command's buffer can hold.
    assert!(written * GOOD.len() as u64 <= 4 << 20, "{err}");
}
