//! The files a command reads and writes, checked before anything is touched: no output may be
//! an input (compared by device and inode, so `./a.pgn`, a symbolic link or a hard link to an
//! input is caught, and so is standard input or output redirected from or to one), no two
//! outputs may be one file, and with a file output every input must be there to read.

use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

use crate::args::Inputs;
use crate::failure::Failure;

/// One file's identity: device and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity(u64, u64);

#[cfg(unix)]
fn identity(meta: &Metadata) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    Some(Identity(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn identity(_meta: &Metadata) -> Option<Identity> {
    None
}

/// The identity of the file behind standard input (`out = false`) or output, when it is a
/// regular file.
#[cfg(unix)]
fn standard(out: bool) -> Option<Identity> {
    use std::os::fd::AsFd;
    let fd = if out {
        io::stdout().as_fd().try_clone_to_owned()
    } else {
        io::stdin().as_fd().try_clone_to_owned()
    };
    let meta = File::from(fd.ok()?).metadata().ok()?;
    meta.is_file().then(|| identity(&meta)).flatten()
}

#[cfg(not(unix))]
fn standard(_out: bool) -> Option<Identity> {
    None
}

/// An output of the command: its option and path.
#[derive(Debug, Clone, Copy)]
pub struct OutputPath<'a> {
    /// How the command line named it (`-o`, `--rejects`).
    pub option: &'a str,
    /// Where it goes.
    pub path: &'a Path,
}

/// What a command reads and writes.
#[derive(Debug)]
pub struct Plan<'a> {
    /// The inputs, `-` for standard input.
    pub inputs: &'a [PathBuf],
    /// The file outputs.
    pub outputs: Vec<OutputPath<'a>>,
    /// Whether standard output is written.
    pub stdout: bool,
}

impl Plan<'_> {
    /// Checks the plan; the error names both paths when an output would overwrite an input.
    pub fn check(&self) -> Result<(), Failure> {
        let mut inputs = Vec::new();
        for path in self.inputs {
            if path == Path::new("-") {
                if let Some(id) = standard(false) {
                    inputs.push((id, "standard input".to_string()));
                }
                continue;
            }
            let name = path.display().to_string();
            match fs::metadata(path) {
                Ok(meta) if meta.is_dir() => {
                    if !self.outputs.is_empty() {
                        return Err(Failure::usage(format!(
                            "{name} is a directory; give the PGN files inside it"
                        )));
                    }
                }
                Ok(meta) => {
                    if let Some(id) = identity(&meta) {
                        inputs.push((id, format!("the input {name}")));
                    }
                }
                // Without a file output, a missing input is reported in its turn and the
                // others are read; with one, nothing is written from an incomplete run.
                Err(e) if !self.outputs.is_empty() => return Err(Failure::io(&name, &e)),
                Err(_) => {}
            }
        }
        if self.stdout
            && let Some(id) = standard(true)
            && let Some((_, input)) = inputs.iter().find(|(i, _)| *i == id)
        {
            return Err(Failure::usage(format!(
                "standard output is {input}: refusing to write over what is being read"
            )));
        }
        let mut seen: Vec<(Option<Identity>, PathBuf, &OutputPath<'_>)> = Vec::new();
        for output in &self.outputs {
            let name = output.path.display();
            let meta = fs::metadata(output.path).ok();
            if meta.as_ref().is_some_and(Metadata::is_dir) {
                return Err(Failure::usage(format!(
                    "cannot write {name}: is a directory"
                )));
            }
            let id = meta.as_ref().and_then(identity);
            if let Some(id) = id
                && let Some((_, input)) = inputs.iter().find(|(i, _)| *i == id)
            {
                return Err(Failure::usage(format!(
                    "{} {name} is {input}: refusing to overwrite it (nothing was written)",
                    output.option
                )));
            }
            let place = place(output.path)?;
            if let Some((_, _, other)) = seen.iter().find(|(other_id, other_place, _)| {
                (id.is_some() && *other_id == id) || *other_place == place
            }) {
                return Err(Failure::usage(format!(
                    "{} {name} and {} {} are the same file: give each output its own",
                    output.option,
                    other.option,
                    other.path.display()
                )));
            }
            seen.push((id, place, output));
        }
        Ok(())
    }
}

/// Where `path` is: its directory made absolute (links resolved) and its file name. The
/// directory must exist.
fn place(path: &Path) -> Result<PathBuf, Failure> {
    let name = path.display().to_string();
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let dir = fs::canonicalize(dir).map_err(|e| {
        Failure::usage(format!(
            "cannot write {name}: {}",
            match e.kind() {
                io::ErrorKind::NotFound => "no such directory".to_string(),
                _ => e.to_string(),
            }
        ))
    })?;
    let file = path
        .file_name()
        .ok_or_else(|| Failure::usage(format!("cannot write {name}: not a file name")))?;
    Ok(dir.join(file))
}

/// Checks what a command reads and writes (see this module) before anything is
/// opened: `outputs` are its file outputs, `stdout` whether it writes
/// standard output.
pub fn check_plan(
    inputs: &Inputs,
    outputs: &[(&str, &Option<PathBuf>)],
    stdout: bool,
) -> Result<(), Failure> {
    let files = crate::input::names(&inputs.files);
    let outputs = outputs
        .iter()
        .filter_map(|&(option, path)| path.as_deref().map(|path| OutputPath { option, path }))
        .collect();
    Plan {
        inputs: &files,
        outputs,
        stdout,
    }
    .check()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty folder for one test, removed at its end if it passes (a failed test's is
    /// left to look at).
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pgnkit-paths-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    fn check(inputs: &[PathBuf], outputs: &[(&str, &Path)]) -> Result<(), String> {
        Plan {
            inputs,
            outputs: outputs
                .iter()
                .map(|&(option, path)| OutputPath { option, path })
                .collect(),
            stdout: false,
        }
        .check()
        .map_err(|f| f.to_string())
    }

    #[test]
    fn an_output_may_not_be_an_input_however_it_is_named() {
        let dir = scratch("same");
        let input = dir.join("a.pgn");
        fs::write(&input, "*\n").expect("an input");
        let inputs = [input.clone()];
        let err = check(&inputs, &[("-o", &input)]).expect_err("the same path");
        assert!(err.contains("is the input"), "{err}");
        let dotted = dir.join(".").join("a.pgn");
        assert!(check(&inputs, &[("--rejects", &dotted)]).is_err());
        #[cfg(unix)]
        {
            let link = dir.join("link.pgn");
            std::os::unix::fs::symlink(&input, &link).expect("a symbolic link");
            assert!(check(&inputs, &[("-o", &link)]).is_err());
            let hard = dir.join("hard.pgn");
            fs::hard_link(&input, &hard).expect("a hard link");
            assert!(check(&inputs, &[("-o", &hard)]).is_err());
        }
        assert_eq!(check(&inputs, &[("-o", &dir.join("b.pgn"))]), Ok(()));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_outputs_may_not_be_one_file() {
        let dir = scratch("outputs");
        let out = dir.join("x.pgn");
        let err = check(&[], &[("-o", &out), ("--rejects", &dir.join("./x.pgn"))])
            .expect_err("one file twice");
        assert!(err.contains("are the same file"), "{err}");
        fs::write(&out, "").expect("now it exists");
        assert!(check(&[], &[("-o", &out), ("--rejects", &out)]).is_err());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn with_a_file_output_every_input_must_be_there() {
        let dir = scratch("missing");
        let missing = [dir.join("missing.pgn")];
        let err = check(&missing, &[("-o", &dir.join("keep.pgn"))]).expect_err("missing");
        assert!(err.contains("missing.pgn: no such file"), "{err}");
        assert_eq!(check(&missing, &[]), Ok(()));
        let err = check(&[], &[("-o", &dir.join("nowhere/x.pgn"))]).expect_err("no dir");
        assert!(err.contains("no such directory"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }
}
