//! The web page of the `pgnkit` npm package and the tests beyond Node's (`cargo xtask wasm`).
//!
//! - [`assemble`]: `web/` (a static page: HTML, its JavaScript modules, CSS) with the
//!   package's browser build in `pgnkit/` beside it, in `target/web`: a folder any static
//!   server serves, nothing fetched from elsewhere.
//! - [`run_tests`]: the test packages pinned in `web/tests/package.json` and its lock file
//!   (playwright-core, typescript) installed under `target/web-tests` with `npm ci
//!   --ignore-scripts` (no browser download), then `tsc --noEmit` on `web/tests/types.ts`
//!   (the package's declarations as a TypeScript user uses them) and the browser tests
//!   (`web/tests/browser.test.mjs`, Debian's Chromium headless). Each step's seconds are
//!   printed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::cmd::{exec, root};

/// The page's sources.
const WEB: &str = "web";

/// Where Chromium is, unless `PGNKIT_CHROMIUM` says otherwise (Debian's package).
const CHROMIUM: &str = "/usr/bin/chromium";

/// Copies the page and the package's browser build (`package`/web) into `target/web`;
/// returns that folder.
pub fn assemble(package: &Path) -> Result<PathBuf, String> {
    let out = root().join("target").join("web");
    if out.exists() {
        std::fs::remove_dir_all(&out)
            .map_err(|e| format!("cannot remove {}: {e}", out.display()))?;
    }
    copy_files(&root().join(WEB), &out)?;
    copy_files(&package.join("web"), &out.join("pgnkit"))?;
    eprintln!(
        "xtask wasm: the web page is in {} (serve the folder with any static server)",
        out.display()
    );
    Ok(out)
}

/// The TypeScript check and the browser tests of the page in `web` against `package`.
pub fn run_tests(package: &Path, web: &Path) -> Result<(), String> {
    let modules = timed("npm ci (web/tests)", install_test_packages)?;
    let tsc = modules.join("typescript").join("bin").join("tsc");
    timed("tsc --noEmit (web/tests/types.ts)", || {
        exec(
            Command::new("node")
                .arg(&tsc)
                .arg("-p")
                .arg(root().join(WEB).join("tests").join("tsconfig.json"))
                .current_dir(root()),
        )
    })?;
    timed("browser tests (web/tests)", || {
        let mut node = Command::new("node");
        node.arg("--test")
            .arg(root().join(WEB).join("tests").join("browser.test.mjs"))
            .env("PGNKIT_WEB", web)
            .env("PGNKIT_WEB_MODULES", &modules)
            .env("PGNKIT_NPM", package)
            .current_dir(root());
        if std::env::var_os("PGNKIT_CHROMIUM").is_none() {
            node.env("PGNKIT_CHROMIUM", CHROMIUM);
        }
        if std::env::var_os("PGNKIT_CORPUS").is_none() {
            node.env(
                "PGNKIT_CORPUS",
                root().join("..").join("shared").join("corpus"),
            );
        }
        exec(&mut node)
    })
}

/// Installs `web/tests/package.json`'s pinned packages under `target/web-tests` (`npm ci`,
/// scripts off) unless the lock file installed there is the committed one; returns the
/// `node_modules` folder.
fn install_test_packages() -> Result<PathBuf, String> {
    let from = root().join(WEB).join("tests");
    let to = root().join("target").join("web-tests");
    let modules = to.join("node_modules");
    let lock = "package-lock.json";
    let installed = std::fs::read(to.join(lock)).ok();
    if installed.is_some()
        && installed == std::fs::read(from.join(lock)).ok()
        && modules.join(".package-lock.json").exists()
    {
        return Ok(modules);
    }
    std::fs::create_dir_all(&to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for name in ["package.json", lock] {
        copy(&from.join(name), &to.join(name))?;
    }
    exec(
        Command::new("npm")
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
            .current_dir(&to),
    )?;
    Ok(modules)
}

/// Runs `step`, then prints how long `what` took.
fn timed<T>(what: &str, step: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    let start = Instant::now();
    let result = step();
    eprintln!("xtask wasm: {what}: {:.1} s", start.elapsed().as_secs_f64());
    result
}

/// Copies the files (not the folders) of `from` into `to`, made if missing.
fn copy_files(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries =
        std::fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot list {}: {e}", from.display()))?
            .path();
        if path.is_file() {
            copy(&path, &to.join(path.file_name().unwrap_or_default()))?;
        }
    }
    Ok(())
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_test_packages_are_pinned_exactly_and_locked() {
        let dir = crate::cmd::root().join(super::WEB).join("tests");
        let manifest = std::fs::read_to_string(dir.join("package.json")).expect("package.json");
        let lock = std::fs::read_to_string(dir.join("package-lock.json")).expect("lock file");
        for name in ["playwright-core", "typescript"] {
            let line = manifest
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("\"{name}\":")))
                .unwrap_or_else(|| panic!("{name} in web/tests/package.json"));
            let version = line.split('"').nth(3).expect("a version");
            assert!(
                version.chars().all(|c| c.is_ascii_digit() || c == '.'),
                "{name} is pinned to one version, not a range ({version})"
            );
            assert!(
                lock.contains(&format!(
                    "\"node_modules/{name}\": {{\n      \"version\": \"{version}\""
                )),
                "the lock file has {name} {version}"
            );
        }
    }
}
