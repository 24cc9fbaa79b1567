//! The facade's features, built one at a time (part of `cargo xtask ci` and
//! `release-check`): `pgnkit` with no default features, then with each feature alone
//! (the list read from its manifest through `cargo metadata`, so a new feature is
//! built too), all targets (its examples say which features they need), under clippy
//! with warnings denied. And with
//! no default features, no crate in its build graph compiles C (`cc`), so a program
//! that depends on it that way needs no C compiler.

use crate::cmd::{cargo, exec, output};
use crate::release::crates::Crate;

/// The facade crate whose features are checked.
pub const FACADE: &str = "pgnkit";

/// Entry point: builds the facade's feature combinations, given the published crates.
pub fn check(crates: &[Crate]) -> Result<(), String> {
    let facade = crates
        .iter()
        .find(|c| c.name == FACADE)
        .ok_or("the facade `pgnkit` is not among the published crates")?;
    no_c_compiler()?;
    let mut runs: Vec<Vec<&str>> = vec![vec![]];
    runs.extend(
        facade
            .features
            .iter()
            .map(|f| vec!["--features", f.as_str()]),
    );
    for run in &runs {
        // clippy, as in `ci`: warnings fail (a feature alone may leave an item unused),
        // and the dependencies' builds are shared with the workspace's clippy run.
        let mut args = vec![
            "clippy",
            "-p",
            FACADE,
            "--all-targets",
            "--no-default-features",
            "--quiet",
        ];
        args.extend(run);
        args.extend(["--", "-D", "warnings"]);
        exec(&mut cargo(&args))?;
    }
    eprintln!(
        "xtask features: {FACADE} builds with no default features and with each of {:?} alone",
        facade.features
    );
    Ok(())
}

/// The build graph of the facade with no default features (normal and build
/// dependencies: what a user compiles) holds no `cc`.
fn no_c_compiler() -> Result<(), String> {
    let tree = output(&mut cargo(&[
        "tree",
        "-p",
        FACADE,
        "--no-default-features",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]))?;
    let c_building: Vec<&str> = tree
        .lines()
        .filter(|line| line.split_whitespace().next() == Some("cc"))
        .collect();
    if c_building.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "`{FACADE}` with no default features builds C code ({c_building:?}); \
             put the crate that needs it behind a feature"
        ))
    }
}
