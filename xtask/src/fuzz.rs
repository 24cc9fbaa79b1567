//! `cargo xtask fuzz`: every cargo-fuzz target for a fixed time each.

use crate::cmd::{exec, root};
use std::process::Command;

/// Entry point for `cargo xtask fuzz [--seconds N]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let seconds = match args {
        [] => 60,
        [flag, n] if flag == "--seconds" => n
            .parse::<u32>()
            .map_err(|_| format!("--seconds takes a whole number, not `{n}`"))?,
        _ => return Err("usage: cargo xtask fuzz [--seconds N]".into()),
    };
    let fuzz = root().join("fuzz");
    let targets_dir = fuzz.join("fuzz_targets");
    let mut targets: Vec<String> = std::fs::read_dir(&targets_dir)
        .map_err(|e| format!("no fuzz targets at {}: {e}", targets_dir.display()))?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    targets.sort();
    if targets.is_empty() {
        return Err(format!("no fuzz targets in {}", targets_dir.display()));
    }
    let have_fuzz = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !have_fuzz {
        exec(Command::new("cargo").args(["install", "--locked", "cargo-fuzz"]))?;
    }
    for target in &targets {
        let time = format!("-max_total_time={seconds}");
        exec(
            Command::new("cargo")
                .current_dir(&fuzz)
                .args(["+nightly", "fuzz", "run", target, "--", &time]),
        )?;
    }
    eprintln!(
        "xtask fuzz: {} targets, {seconds} s each, no crash",
        targets.len()
    );
    Ok(())
}
