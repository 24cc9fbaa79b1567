//! What several integration tests of the CLI share: watching a child
//! process's peak resident memory while it runs.

use std::fs;
use std::process::{Child, ExitStatus};
use std::thread;
use std::time::Duration;

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
