//! `cargo xtask release-check`: what must hold before a version is published.
//!
//! In order, stopping at the first failure:
//!
//! 1. the published crates, read from the workspace ([`crates`]: every member whose
//!    `publish` is not `false`, in dependency order) with their crates.io metadata;
//! 2. the facade's feature builds ([`crate::features`]);
//! 3. CHANGELOG.md has an entry for the workspace version;
//! 4. `cargo package` of every published crate at once (cargo packages them in
//!    dependency order and verifies each against those packaged before it through a
//!    local registry overlay, so no sibling needs to be on crates.io yet);
//! 5. the docs of every published crate with all features, warnings denied (what
//!    docs.rs builds);
//! 6. the public API of every published library against its committed listing
//!    ([`api`]: `cargo public-api`, `--bless` to accept a deliberate change);
//! 7. the Python package: the release `abi3` wheel, checked for the manylinux policy,
//!    installed into a fresh environment with no Rust on PATH and read from; and the
//!    source distribution.
//!
//! Steps 1 and 2, the cheap ones, also run in `cargo xtask ci` ([`cheap_checks`]).
//! `release-check` does not run `ci` or the fuzz targets: run those too
//! (`cargo xtask ci`, `cargo xtask fuzz`).

pub mod api;
pub mod crates;

use std::time::Instant;

use crate::cmd::{cargo, exec, root};

/// Entry point for `cargo xtask release-check [--allow-dirty] [--bless]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut allow_dirty = false;
    let mut bless = false;
    for arg in args {
        match arg.as_str() {
            "--allow-dirty" => allow_dirty = true,
            "--bless" => bless = true,
            other => {
                return Err(format!(
                    "usage: cargo xtask release-check [--allow-dirty] [--bless] (got `{other}`)"
                ));
            }
        }
    }
    let started = Instant::now();
    let mut times = Vec::new();
    let mut step = |name: &str, at: &mut Instant| {
        times.push(format!("{name} {:.0} s", at.elapsed().as_secs_f64()));
        *at = Instant::now();
    };
    let mut at = Instant::now();

    let published = cheap_checks()?;
    step("crates and features", &mut at);
    check_changelog()?;
    package(&published, allow_dirty)?;
    step("package", &mut at);
    docs(&published)?;
    step("docs", &mut at);
    api::check(&published, bless)?;
    step("public API", &mut at);
    python_package()?;
    step("wheel and sdist", &mut at);
    eprintln!(
        "xtask release-check: ready to publish {} in {:.0} s ({})",
        published
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64(),
        times.join(", ")
    );
    Ok(())
}

/// The parts cheap enough for every CI run: the published crates (the list, its order,
/// their metadata, `cargo package --list` of all of them) and the facade's feature
/// builds. Returns the published crates in publishing order.
pub fn cheap_checks() -> Result<Vec<crates::Crate>, String> {
    let metadata = crates::metadata()?;
    let published = crates::published(&metadata)?;
    crates::check_manifests(&metadata, &published)?;
    eprintln!(
        "xtask: published crates, in order: {}",
        published
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    // The files each package would hold (no build): fails on a manifest cargo cannot
    // package, such as a readme outside the crate.
    let mut list = vec!["package", "--list", "--quiet", "--allow-dirty"];
    for krate in &published {
        list.extend(["-p", krate.name.as_str()]);
    }
    let mut command = cargo(&list);
    command.stdout(std::process::Stdio::null());
    exec(&mut command)?;
    crate::features::check(&published)?;
    Ok(published)
}

/// `cargo package` of every published crate in one call (see the module docs).
fn package(published: &[crates::Crate], allow_dirty: bool) -> Result<(), String> {
    forget_extracted(published)?;
    let mut args = vec!["package", "--locked"];
    if allow_dirty {
        args.push("--allow-dirty");
    }
    for krate in published {
        args.extend(["-p", krate.name.as_str()]);
    }
    exec(&mut cargo(&args))
}

/// `cargo package` verifies each crate against those packaged before it through a local
/// registry, whose crates cargo extracts under `$CARGO_HOME/registry/src/` and reuses by
/// name and version whatever their content: a second run at the same version verified
/// against the first run's sources (a function added in between was "not found"). The
/// extracted copies of the published crates are removed first.
fn forget_extracted(published: &[crates::Crate]) -> Result<(), String> {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")));
    let Some(home) = home else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(home.join("registry").join("src")) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        let Ok(entries) = std::fs::read_dir(registry.path()) else {
            continue;
        };
        for entry in entries.flatten() {
            let folder = entry.file_name().to_string_lossy().into_owned();
            if published.iter().any(|c| is_extracted(&folder, &c.name)) {
                std::fs::remove_dir_all(entry.path())
                    .map_err(|e| format!("{}: {e}", entry.path().display()))?;
            }
        }
    }
    Ok(())
}

/// Whether `folder` is an extracted crate `name` of some version (`pgnkit-0.1.0` is
/// `pgnkit`'s, `pgnkit-arrow-0.1.0` is not).
fn is_extracted(folder: &str, name: &str) -> bool {
    folder
        .strip_prefix(name)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|version| version.starts_with(|c: char| c.is_ascii_digit()))
}

/// The docs of every published crate as docs.rs builds them: all features, no
/// warnings.
fn docs(published: &[crates::Crate]) -> Result<(), String> {
    let mut args = vec!["doc", "--no-deps", "--all-features"];
    for krate in published.iter().filter(|c| c.has_lib) {
        args.extend(["-p", krate.name.as_str()]);
    }
    let mut doc = cargo(&args);
    doc.env("RUSTDOCFLAGS", "-D warnings");
    exec(&mut doc)
}

/// The Python package as PyPI would get it: the release wheel (abi3, manylinux
/// checked), installed into a fresh environment with no Rust on PATH and read from, and
/// the source distribution.
fn python_package() -> Result<(), String> {
    let wheel = crate::python::build_wheel(true)?;
    let python = crate::python::ensure_venv()?;
    crate::python::run_wheel_test(&python, &wheel)?;
    let maturin = python
        .parent()
        .ok_or("the environment's python has no folder")?
        .join("maturin");
    let out = wheel.parent().ok_or("the wheel has no folder")?;
    exec(
        std::process::Command::new(maturin)
            .args(["sdist", "-m"])
            .arg(root().join(crate::python::PACKAGE).join("Cargo.toml"))
            .arg("--out")
            .arg(out)
            .current_dir(root()),
    )
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

#[cfg(test)]
mod tests {
    use super::is_extracted;

    #[test]
    fn extracted_folders_are_told_by_name_and_version() {
        assert!(is_extracted("pgnkit-0.1.0", "pgnkit"));
        assert!(is_extracted("pgnkit-arrow-0.1.0", "pgnkit-arrow"));
        assert!(!is_extracted("pgnkit-arrow-0.1.0", "pgnkit"));
        assert!(!is_extracted("pgnkitx-0.1.0", "pgnkit"));
        assert!(!is_extracted("serde-1.0.0", "pgnkit"));
    }
}
