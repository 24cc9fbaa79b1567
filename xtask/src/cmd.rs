//! Running commands from the workspace root, and where things are.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the parent of this crate's folder).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// A `cargo` command run from the workspace root.
pub fn cargo(args: &[&str]) -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command.args(args).current_dir(root());
    command
}

/// Runs a command, echoing it first; an error names the command that failed.
pub fn exec(command: &mut Command) -> Result<(), String> {
    let shown = show(command);
    eprintln!("$ {shown}");
    let status = command
        .status()
        .map_err(|err| format!("could not start `{shown}`: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

/// The command as a person would type it.
pub fn show(command: &Command) -> String {
    let mut words = vec![command.get_program().to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|a| a.to_string_lossy().into_owned()));
    words.join(" ")
}

/// Runs a command, echoing it first, and returns what it printed on standard output
/// (its standard error goes to ours); an error names the command that failed.
pub fn output(command: &mut Command) -> Result<String, String> {
    let shown = show(command);
    eprintln!("$ {shown}");
    let out = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|err| format!("could not start `{shown}`: {err}"))?;
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|_| format!("`{shown}` printed non-UTF-8 text"))
    } else {
        Err(format!("`{shown}` failed ({})", out.status))
    }
}
