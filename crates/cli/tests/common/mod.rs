//! What the integration tests of the CLI share: running the binary (with
//! standard input), watching a child process's peak resident memory
//! while it runs, and reading the rows of an NDJSON table. Each test file
//! uses a part of it.

#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread;
use std::time::Duration;

/// The rows of the NDJSON table at `path`, one JSON object per line.
pub fn ndjson_rows(path: &Path) -> Vec<serde_json::Value> {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

/// The `pgnkit` binary under test, with `args`.
pub fn pgnkit(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pgnkit"));
    command.args(args);
    command
}

/// Runs `pgnkit` with `args` to its end, its output captured.
pub fn run(args: &[&str]) -> Output {
    pgnkit(args).output().expect("the binary runs")
}

/// Runs `pgnkit` with `args` and `stdin` as its standard input.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    output_with_stdin(&mut pgnkit(args), stdin)
}

/// Runs `command` with `stdin` written to its standard input, its output
/// captured. The input is written from a thread of its own, so a child that
/// writes much before it has read all its input cannot block on a full
/// pipe; a child that exits without reading all of it (a command refused
/// before reading) is not an error.
pub fn output_with_stdin(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin is piped");
    let bytes = stdin.to_vec();
    let writer = thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let output = child.wait_with_output().expect("the binary ends");
    writer.join().expect("stdin writer");
    output
}

/// Waits for `child` to exit, reading its peak resident memory (`VmHWM`, in
/// kB) from `/proc` every 2 ms while it runs: its exit status and that peak
/// (0 when `/proc` could not be read before the exit).
pub fn wait_with_peak(child: &mut Child) -> (ExitStatus, u64) {
    let pid = child.id();
    let mut peak = 0;
    loop {
        if let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status"))
            && let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kb = line.split_whitespace().nth(1).and_then(|n| n.parse().ok());
            peak = peak.max(kb.unwrap_or(0));
        }
        if let Some(status) = child.try_wait().expect("waiting") {
            return (status, peak);
        }
        thread::sleep(Duration::from_millis(2));
    }
}
