//! The Python environment of the project's Python tests: a virtual
//! environment under `target/python-venv`, made with `python3.11 -m venv`
//! (or `PGNKIT_PYTHON`) and filled from `tests/python/requirements.txt`
//! (every version pinned). Made once; remade when the requirements change.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd::{exec, root};

/// The requirements file, relative to the workspace root.
pub const REQUIREMENTS: &str = "tests/python/requirements.txt";

/// The Python that makes the environment: `PGNKIT_PYTHON`, else `python3.11`.
fn base_python() -> String {
    std::env::var("PGNKIT_PYTHON").unwrap_or_else(|_| "python3.11".into())
}

/// The environment's folder.
pub fn venv_dir() -> PathBuf {
    root().join("target").join("python-venv")
}

fn venv_python(dir: &Path) -> PathBuf {
    if cfg!(windows) {
        dir.join("Scripts").join("python.exe")
    } else {
        dir.join("bin").join("python")
    }
}

/// Makes sure the environment exists with exactly the pinned requirements
/// installed, and returns its `python`.
pub fn ensure_venv() -> Result<PathBuf, String> {
    let dir = venv_dir();
    let python = venv_python(&dir);
    let requirements = root().join(REQUIREMENTS);
    let wanted = std::fs::read_to_string(&requirements)
        .map_err(|e| format!("cannot read {}: {e}", requirements.display()))?;
    // The requirements the environment was filled from, copied there.
    let stamp = dir.join("pgnkit-requirements.txt");
    if python.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(&wanted) {
        return Ok(python);
    }
    if dir.exists() {
        std::fs::remove_dir_all(&dir)
            .map_err(|e| format!("cannot remove the old {}: {e}", dir.display()))?;
    }
    let base = base_python();
    exec(Command::new(&base).args(["-m", "venv"]).arg(&dir)).map_err(|e| {
        format!("{e}\n(the Python tests need Python 3.11 with venv; set PGNKIT_PYTHON to another interpreter)")
    })?;
    exec(pip(&python).arg("-r").arg(&requirements))?;
    std::fs::write(&stamp, &wanted)
        .map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(python)
}

/// The Python package's folder (crates/python: its pyproject.toml, Python
/// sources and tests).
pub const PACKAGE: &str = "crates/python";

/// Builds the `pgnkit` Python package's wheel with maturin ([`build_wheel`]) and installs
/// that wheel into the environment with pip, as users get it (the debug profile, where the
/// hot crates are optimised anyway; `release` for benchmarks), after checking its Python
/// code, the Python tests and bench scripts are formatted (`ruff format --check`) and the
/// package is typed (`mypy`). Returns the environment's `python` and the wheel.
pub fn install_package(release: bool) -> Result<(PathBuf, PathBuf), String> {
    let python = ensure_venv()?;
    let bin = python
        .parent()
        .ok_or("the environment's python has no folder")?
        .to_path_buf();
    exec(
        Command::new(bin.join("ruff"))
            .args(["format", "--check", "--quiet"])
            // The package (its settings in its pyproject.toml), the Python tests and the
            // bench scripts (ruff.toml at the root).
            .args([PACKAGE, "tests/python", "bench"])
            .current_dir(root()),
    )?;
    // The typed surface (stubs and annotations; config in its pyproject.toml): about 1 s.
    exec(
        Command::new(bin.join("mypy"))
            .arg("--no-error-summary")
            .current_dir(root().join(PACKAGE)),
    )?;
    let wheel = build_wheel(release)?;
    exec(pip_install(&python, &wheel).arg("--force-reinstall"))?;
    Ok((python, wheel))
}

/// `python -m pip install WHEEL`, offline and without dependencies (the wheel needs none to
/// import): the caller adds where it goes (`--force-reinstall` into the environment, or
/// `--target DIR`).
pub fn pip_install(python: &Path, wheel: &Path) -> Command {
    let mut command = pip(python);
    command.args(["--no-index", "--no-deps"]).arg(wheel);
    command
}

/// `python -m pip install`, quiet and without pip's version check; the caller adds what.
fn pip(python: &Path) -> Command {
    let mut command = Command::new(python);
    command.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ]);
    command
}

/// The manylinux policy the wheels are checked against and tagged with: glibc 2.34, the
/// newest symbol versions a build on this machine (Debian 12, glibc 2.36) links to with
/// the Rust toolchain's std (`GLIBC_2.34`: `manylinux_2_17` fails maturin's check). An
/// older policy needs a build on an older glibc (a manylinux container or `--zig`).
pub const MANYLINUX: &str = "manylinux_2_34";

/// Builds the package's `abi3` wheel (CPython 3.9 and later) with maturin into
/// `target/wheels/{debug,release}` (emptied first) and returns its path. On Linux it is
/// checked against, and tagged for, [`MANYLINUX`].
pub fn build_wheel(release: bool) -> Result<PathBuf, String> {
    let python = ensure_venv()?;
    let dir = venv_dir();
    let bin = python
        .parent()
        .ok_or("the environment's python has no folder")?
        .to_path_buf();
    let out = root()
        .join("target")
        .join("wheels")
        .join(if release { "release" } else { "debug" });
    if out.exists() {
        std::fs::remove_dir_all(&out)
            .map_err(|e| format!("cannot empty {}: {e}", out.display()))?;
    }
    let mut maturin = Command::new(bin.join("maturin"));
    maturin
        .args(["build", "--quiet", "-m"])
        .arg(root().join(PACKAGE).join("Cargo.toml"))
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .env("VIRTUAL_ENV", &dir)
        .env("PATH", path_with(&bin));
    if cfg!(target_os = "linux") {
        maturin.args(["--compatibility", MANYLINUX]);
    }
    if release {
        maturin.arg("--release");
    }
    exec(&mut maturin)?;
    let wheels: Vec<PathBuf> = std::fs::read_dir(&out)
        .map_err(|e| format!("cannot read {}: {e}", out.display()))?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "whl"))
        .collect();
    match &wheels[..] {
        [wheel] => Ok(wheel.clone()),
        _ => Err(format!(
            "maturin left {} wheels in {}, expected one",
            wheels.len(),
            out.display()
        )),
    }
}

/// The test of the wheel as users get it (crates/python/tests/test_pkg_wheel.py: a fresh
/// environment, no Rust toolchain on PATH), on `wheel`, with the environment's Python.
pub fn run_wheel_test(python: &Path, wheel: &Path) -> Result<(), String> {
    exec(
        Command::new(python)
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "crates/python/tests/test_pkg_wheel.py",
            ])
            .current_dir(root())
            .env("PGNKIT_WHEEL", wheel)
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    )
}

/// `PATH` with `first` in front.
fn path_with(first: &Path) -> std::ffi::OsString {
    let mut paths = vec![first.to_path_buf()];
    if let Some(path) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(paths).unwrap_or_default()
}

/// Runs the pytest suites in `tests/python` (the CLI's Python tests) and
/// `crates/python/tests` (the package's) with the environment's Python,
/// against the `pgnkit` binary at `binary` and the package built from this
/// tree. Each suite runs in its own pytest: both have a `conftest.py` that
/// their tests import by that name, and one run would import only one of them.
/// pytest's exit status 5 (no tests collected) is a failure like any other.
pub fn run_pytest(binary: &Path) -> Result<(), String> {
    let (python, wheel) = install_package(false)?;
    let corpus = pgnkit_corpus::try_dir()?;
    for suite in ["tests/python", "crates/python/tests"] {
        let mut command = Command::new(&python);
        command
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                // The slowest tests' times, in the log, for the CI-time budget.
                "--durations=15",
                // A test that hangs fails after 15 minutes (pytest-timeout), with its stacks.
                "--timeout=900",
                suite,
            ])
            .current_dir(root())
            .env("PGNKIT_BIN", binary)
            // The wheel the package was installed from, for test_pkg_wheel.py.
            .env("PGNKIT_WHEEL", &wheel)
            .env("PGNKIT_CORPUS", &corpus)
            .env("PYTHONDONTWRITEBYTECODE", "1");
        // `exec` fails on any status but 0, so 5 (no tests) fails too.
        exec(&mut command)?;
    }
    Ok(())
}
