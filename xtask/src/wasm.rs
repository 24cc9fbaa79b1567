//! `cargo xtask wasm`: the `pgnkit` npm package from `crates/wasm`, built without downloads
//! of prebuilt tools (wasm-pack's fail on these machines).
//!
//! 1. `wasm-bindgen-cli` at exactly the version of the `wasm-bindgen` crate in Cargo.lock,
//!    installed from crates.io with `cargo install` under `target/wasm-tools` (once; kept
//!    with the build cache).
//! 2. The module in the `wasm-release` profile (size first, fat LTO, panic abort) for
//!    `wasm32-unknown-unknown`.
//! 3. `wasm-bindgen --target web` (an ES module for browsers and bundlers, `await init()`)
//!    and `--target nodejs` (loaded at import), then the package folder
//!    `target/npm/pgnkit`: `package.json` (conditional exports: `node` and `default`),
//!    `node.mjs` (the ES module Node imports), the README and the TypeScript declarations
//!    wasm-bindgen writes (with the hand-written interfaces of `crates/wasm/src/game.rs`).
//!
//! 4. The web page (`web/`) with the package's browser build, in `target/web`
//!    ([`crate::wasm_web`]).
//!
//! `--test` then runs the Node tests (`crates/wasm/tests`, `node --test`), the differential
//! ones against `target/debug/pgnkit` on the corpus included, the memory test of the
//! streaming reader, the TypeScript check of the declarations and the browser tests of the
//! page ([`crate::wasm_web::run_tests`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{cargo, exec, root};

/// The crate of the bindings.
const CRATE: &str = "crates/wasm";

/// The Rust target.
const TARGET: &str = "wasm32-unknown-unknown";

/// Entry point for `cargo xtask wasm [--test]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut test = false;
    for arg in args {
        match arg.as_str() {
            "--test" => test = true,
            other => return Err(format!("`wasm` takes `--test` only (got `{other}`)")),
        }
    }
    let package = build()?;
    let web = crate::wasm_web::assemble(&package)?;
    if test {
        let start = std::time::Instant::now();
        run_tests(&package)?;
        eprintln!(
            "xtask wasm: Node tests (crates/wasm/tests): {:.1} s",
            start.elapsed().as_secs_f64()
        );
        crate::wasm_web::run_tests(&package, &web)?;
    }
    Ok(())
}

/// Builds the package; returns its folder.
pub fn build() -> Result<PathBuf, String> {
    let version = bindgen_version()?;
    let bindgen = ensure_bindgen(&version)?;
    if Command::new("rustup").arg("--version").output().is_ok() {
        exec(Command::new("rustup").args(["target", "add", TARGET]))?;
    }
    exec(&mut cargo(&[
        "build",
        "-p",
        "pgnkit-wasm",
        "--target",
        TARGET,
        "--profile",
        "wasm-release",
    ]))?;
    let module = root()
        .join("target")
        .join(TARGET)
        .join("wasm-release")
        .join("pgnkit_wasm.wasm");
    let package = root().join("target").join("npm").join("pgnkit");
    if package.exists() {
        std::fs::remove_dir_all(&package)
            .map_err(|e| format!("cannot remove {}: {e}", package.display()))?;
    }
    for (target, folder) in [("web", "web"), ("nodejs", "node")] {
        exec(
            Command::new(&bindgen)
                .args(["--target", target, "--out-name", "pgnkit", "--out-dir"])
                .arg(package.join(folder))
                .arg(&module),
        )?;
    }
    let js = root().join(CRATE).join("js");
    // `node/` holds CommonJS (wasm-bindgen's nodejs target) inside a `"type": "module"`
    // package: its own package.json says so.
    write(
        &package.join("node").join("package.json"),
        "{ \"type\": \"commonjs\" }\n",
    )?;
    copy(&js.join("node.mjs"), &package.join("node.mjs"))?;
    copy(
        &root().join(CRATE).join("README.md"),
        &package.join("README.md"),
    )?;
    let manifest = read(&js.join("package.json"))?.replace(
        "\"version\": \"0.0.0\"",
        &format!("\"version\": \"{}\"", workspace_version()?),
    );
    write(&package.join("package.json"), &manifest)?;
    report_size(&package.join("web").join("pgnkit_bg.wasm"))?;
    eprintln!("xtask wasm: the npm package is in {}", package.display());
    Ok(package)
}

/// Runs the Node tests against `package` and the debug `pgnkit` command.
fn run_tests(package: &Path) -> Result<(), String> {
    exec(&mut cargo(&["build", "-p", "pgnkit-cli"]))?;
    let binary = root()
        .join("target")
        .join("debug")
        .join(format!("pgnkit{}", std::env::consts::EXE_SUFFIX));
    let tests = root().join(CRATE).join("tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&tests)
        .map_err(|e| format!("cannot list {}: {e}", tests.display()))?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    let mut node = Command::new("node");
    node.arg("--test")
        .args(&files)
        .env("PGNKIT_NPM", package)
        .env("PGNKIT_BIN", &binary)
        .current_dir(root());
    if std::env::var_os("PGNKIT_CORPUS").is_none() {
        node.env(
            "PGNKIT_CORPUS",
            root().join("..").join("shared").join("corpus"),
        );
    }
    exec(&mut node)
}

/// The version of the `wasm-bindgen` crate in Cargo.lock.
fn bindgen_version() -> Result<String, String> {
    let lock = read(&root().join("Cargo.lock"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line != "name = \"wasm-bindgen\"" {
            continue;
        }
        if let Some(version) = lines
            .next()
            .and_then(|l| l.strip_prefix("version = \""))
            .and_then(|l| l.strip_suffix('"'))
        {
            return Ok(version.to_owned());
        }
    }
    Err("no wasm-bindgen in Cargo.lock".into())
}

/// `wasm-bindgen` at `version` under `target/wasm-tools`, installed when missing or of
/// another version.
fn ensure_bindgen(version: &str) -> Result<PathBuf, String> {
    let tools = root().join("target").join("wasm-tools");
    let bindgen = tools
        .join("bin")
        .join(format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX));
    let installed = Command::new(&bindgen)
        .arg("--version")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned());
    if installed.is_some_and(|v| v.split_whitespace().nth(1) == Some(version)) {
        return Ok(bindgen);
    }
    let install = |locked: bool| {
        let mut command = cargo(&["install", "wasm-bindgen-cli", "--version", version]);
        if locked {
            command.arg("--locked");
        }
        command.arg("--root").arg(&tools);
        exec(&mut command)
    };
    // `--locked` first (the CLI's own lock file); when the registry lacks a version it
    // names (as the index here lacked a webpki-roots of it), the newest compatible ones.
    if let Err(e) = install(true) {
        eprintln!("xtask wasm: {e}; installing without --locked");
        install(false)?;
    }
    Ok(bindgen)
}

/// The workspace's version (from the root Cargo.toml).
fn workspace_version() -> Result<String, String> {
    let manifest = read(&root().join("Cargo.toml"))?;
    manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .map(str::to_owned)
        .ok_or_else(|| "no version in the workspace's Cargo.toml".into())
}

/// Prints the module's size, and gzipped (`gzip -9`, when there is one).
fn report_size(module: &Path) -> Result<(), String> {
    let size = std::fs::metadata(module)
        .map_err(|e| format!("cannot read {}: {e}", module.display()))?
        .len();
    let gzipped = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(module)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| out.stdout.len());
    match gzipped {
        Some(g) => eprintln!(
            "xtask wasm: {}: {} KB, {} KB gzipped (target: at most 400 KB gzipped)",
            module.display(),
            size / 1024,
            g / 1024
        ),
        None => eprintln!("xtask wasm: {}: {} KB", module.display(), size / 1024),
    }
    Ok(())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_bindgen_version_is_the_one_the_crate_pins() {
        let version = super::bindgen_version().expect("wasm-bindgen in Cargo.lock");
        let manifest = super::read(&crate::cmd::root().join("crates/wasm/Cargo.toml"))
            .expect("crates/wasm/Cargo.toml");
        assert!(
            manifest.contains(&format!("wasm-bindgen = {{ version = \"={version}\"")),
            "crates/wasm/Cargo.toml pins wasm-bindgen ={version}"
        );
    }
}
