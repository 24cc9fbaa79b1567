//! `cargo xtask release-check`: what must hold before a version is published.

use crate::cmd::{cargo, exec, root};

/// The library crates, in dependency order.
const PUBLISHED: &[&str] = &[
    "pgnkit-chess",
    "pgnkit-lexer",
    "pgnkit-game",
    "pgnkit-export",
    "pgnkit",
];

/// Entry point for `cargo xtask release-check`.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`release-check` takes no arguments (got `{arg}`)"));
    }
    crate::ci::run_ci()?;
    crate::fuzz::run(&["--seconds".to_string(), "30".to_string()])?;
    check_changelog()?;
    // One `cargo package` for all of them: cargo packages them in
    // dependency order and verifies each against the ones packaged before
    // it (a local registry overlay), so no sibling needs to be on crates.io.
    let mut args = vec!["package"];
    for krate in PUBLISHED {
        args.extend(["-p", krate]);
    }
    exec(&mut cargo(&args))?;
    eprintln!("xtask release-check: ready");
    Ok(())
}

/// The workspace version must have a `## <version>` entry in CHANGELOG.md.
fn check_changelog() -> Result<(), String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).map_err(|e| e.to_string())?;
    let version = manifest
        .lines()
        .skip_while(|line| line.trim() != "[workspace.package]")
        .find_map(|line| line.trim().strip_prefix("version = "))
        .map(|v| v.trim_matches('"').to_string())
        .ok_or("no version in [workspace.package]")?;
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md"))
        .map_err(|e| format!("CHANGELOG.md: {e}"))?;
    if changelog
        .lines()
        .any(|line| line.starts_with("## ") && line.contains(&version))
    {
        Ok(())
    } else {
        Err(format!("CHANGELOG.md has no `## {version}` entry"))
    }
}
