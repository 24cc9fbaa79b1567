//! `cargo xtask release-check`: what must hold before a version is published.

use crate::cmd::{cargo, exec, root};

/// Library crates in dependency order: each one packages against the ones before it.
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
    for krate in PUBLISHED {
        // Crates that depend on unpublished siblings cannot be verified
        // against crates.io yet; `--no-verify` still checks the manifest
        // and the file list.
        exec(&mut cargo(&[
            "package",
            "--allow-dirty",
            "--no-verify",
            "-p",
            krate,
        ]))?;
    }
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
