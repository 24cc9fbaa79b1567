//! The public API of every published library against a committed listing,
//! `public-api/<crate>.txt`: one line per public item, as `cargo public-api` prints it
//! from nightly rustdoc JSON (all features; blanket impls such as `impl<T> From<T> for T`
//! left out as noise, auto traits and derived impls kept: losing `Send` or `Clone` breaks
//! users too). Any difference fails with the lines added and removed, until the listing
//! is regenerated with `--bless` and committed: an API change is then a reviewed diff in
//! the commit that makes it, not a surprise at release time.
//!
//! Why `cargo public-api` and not `cargo semver-checks`: nothing is published yet, so
//! there is no release to compare against, and semver-checks answers "is this change
//! compatible with a baseline" where we want "is this change to the API deliberate";
//! a committed listing says exactly what the API is, and its diff shows every change,
//! compatible or not. The cost: a nightly toolchain (rustdoc JSON is unstable), and a
//! `cargo-public-api` whose rustdoc-JSON format matches that nightly's ([`TOOL_VERSION`]).

use std::collections::BTreeSet;
use std::process::Command;

use super::crates::Crate;
use crate::cmd::{cargo, exec, output, root};

/// The folder of the listings, relative to the workspace root.
pub const LISTINGS: &str = "public-api";

/// The `cargo-public-api` installed when none is: it reads the rustdoc JSON format of
/// nightly 2026-05 (format versions change with nightly; update both together).
pub const TOOL_VERSION: &str = "0.52.0";

/// Entry point for `cargo xtask public-api [--bless]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let bless = match args {
        [] => false,
        [flag] if flag == "--bless" => true,
        _ => return Err("usage: cargo xtask public-api [--bless]".into()),
    };
    let metadata = super::crates::metadata()?;
    check(&super::crates::published(&metadata)?, bless)
}

/// Compares (or with `bless`, rewrites) the listing of every published library.
pub fn check(crates: &[Crate], bless: bool) -> Result<(), String> {
    ensure_tool()?;
    let dir = root().join(LISTINGS);
    let mut changed = Vec::new();
    let mut expected = BTreeSet::new();
    for krate in crates.iter().filter(|c| c.has_lib) {
        let name = krate.name.as_str();
        let file = format!("{name}.txt");
        expected.insert(file.clone());
        let listing = output(&mut cargo(&[
            "public-api",
            "-p",
            name,
            "--simplified",
            "--all-features",
            "--color",
            "never",
        ]))?;
        let path = dir.join(&file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == listing {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            std::fs::write(&path, &listing).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("xtask public-api: wrote {LISTINGS}/{file}");
        } else {
            changed.push(format!(
                "{LISTINGS}/{file}:\n{}",
                diff(&committed, &listing)
            ));
        }
    }
    // A listing of a crate that is no longer published (or renamed) is stale.
    let stale: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|f| f.ends_with(".txt") && !expected.contains(f))
                .collect()
        })
        .unwrap_or_default();
    if !stale.is_empty() {
        changed.push(format!(
            "listings of crates that are not published libraries: {stale:?}; remove them"
        ));
    }
    if changed.is_empty() {
        eprintln!(
            "xtask public-api: {} listings {}",
            crates.iter().filter(|c| c.has_lib).count(),
            if bless { "up to date" } else { "match" }
        );
        Ok(())
    } else {
        Err(format!(
            "the public API differs from its committed listing:\n\n{}\n\nIf the change is \
             deliberate, run `cargo xtask public-api --bless`, commit {LISTINGS}/ and say \
             what changed in CHANGELOG.md.",
            changed.join("\n\n")
        ))
    }
}

/// The lines only in `old` (`-`) and only in `new` (`+`); listings are sorted and
/// their lines unique, so this is the diff.
fn diff(old: &str, new: &str) -> String {
    let old_lines: BTreeSet<&str> = old.lines().collect();
    let new_lines: BTreeSet<&str> = new.lines().collect();
    let mut shown: Vec<String> = old_lines
        .difference(&new_lines)
        .map(|l| format!("- {l}"))
        .chain(new_lines.difference(&old_lines).map(|l| format!("+ {l}")))
        .collect();
    if shown.len() > 60 {
        let more = shown.len() - 60;
        shown.truncate(60);
        shown.push(format!("... and {more} more lines"));
    }
    shown.join("\n")
}

/// `cargo public-api` and a nightly toolchain are there, or are installed.
fn ensure_tool() -> Result<(), String> {
    let has = |args: &[&str]| {
        Command::new("cargo")
            .args(args)
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if !has(&["+nightly", "--version"]) {
        return Err(
            "the public API listing needs a nightly toolchain (rustdoc JSON): \
                    `rustup toolchain install nightly --profile minimal`"
                .into(),
        );
    }
    if !has(&["public-api", "--version"]) {
        let tool = format!("cargo-public-api@{TOOL_VERSION}");
        exec(Command::new("cargo").args(["install", "--locked", &tool]))
            .map_err(|e| format!("{e}\n(`cargo public-api` lists the public API)"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_removed_and_added_lines() {
        let old = "pub fn a()\npub fn b()\n";
        let new = "pub fn a()\npub fn c()\n";
        assert_eq!(diff(old, new), "- pub fn b()\n+ pub fn c()");
        assert_eq!(diff(old, old), "");
    }
}
