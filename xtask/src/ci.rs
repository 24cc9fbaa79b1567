//! `cargo xtask ci`: everything a change must pass before it lands.

use crate::cmd::{cargo, exec};

/// Runs fmt, clippy, the release list and feature builds, the tests, the docs, the
/// conformance table and the Python tests, in that order, stopping at the first failure.
pub fn run_ci() -> Result<(), String> {
    exec(&mut cargo(&["fmt", "--all", "--", "--check"]))?;
    exec(&mut cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    // The published crates (list, order, metadata, `cargo package --list`) and the
    // facade's feature builds: the cheap part of `release-check`.
    crate::release::cheap_checks()?;
    exec(&mut cargo(&["test", "--workspace"]))?;
    // Private items too: the docs developers read (module maps, invariants)
    // keep their links checked like the public ones.
    let mut doc = cargo(&[
        "doc",
        "--workspace",
        "--no-deps",
        "--document-private-items",
    ]);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    exec(&mut doc)?;
    crate::conformance::run(&[])?;
    pytest(&[])?;
    eprintln!("xtask ci: all checks passed");
    Ok(())
}

/// Entry point for `cargo xtask ci`.
pub fn run(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`ci` takes no arguments (got `{arg}`)"));
    }
    run_ci()
}

/// Entry point for `cargo xtask pytest`: builds the `pgnkit` binary and
/// runs the Python tests against it.
pub fn pytest(args: &[String]) -> Result<(), String> {
    if let Some(arg) = args.first() {
        return Err(format!("`pytest` takes no arguments (got `{arg}`)"));
    }
    exec(&mut cargo(&["build", "-p", "pgnkit-cli"]))?;
    let binary = crate::cmd::root()
        .join("target")
        .join("debug")
        .join(format!("pgnkit{}", std::env::consts::EXE_SUFFIX));
    crate::python::run_pytest(&binary)
}
