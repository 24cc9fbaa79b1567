//! Where `select`'s games go: one output, or parts of N games each
//! (`--split-every`: `OUT-0001.pgn`, `OUT-0002.pgn`...), or one file per
//! value of a tag (`--split-by`: `OUT-VALUE.pgn`, the value made safe for a
//! file name, at most `--max-files` files).
//!
//! Every file is an [`Output`]: written to a temporary file beside it and
//! put in place at the end. A part of `--split-every` is put in place as
//! soon as it is full (so at most one part is open); the files of
//! `--split-by` stay open until the end, hence the limit.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use crate::args::Inputs;
use crate::failure::Failure;
use crate::output::{Output, OutputError};

/// How the selected games are laid out.
pub enum Split {
    /// One output (a file or standard output).
    One(Output),
    /// Parts of `every` games.
    Every {
        /// Games per part.
        every: u64,
        /// The `-o` path the parts are named after.
        base: PathBuf,
        /// Compression level.
        level: Option<u32>,
        /// The part being written and its games.
        current: Option<(Output, u64)>,
        /// Parts written so far.
        parts: u64,
        /// Games in the parts put in place.
        done_games: u64,
    },
    /// One file per tag value.
    By {
        /// The `-o` path the files are named after.
        base: PathBuf,
        /// Compression level.
        level: Option<u32>,
        /// Files by value.
        files: HashMap<String, Output>,
        /// File names given, for uniqueness.
        names: HashMap<String, String>,
        /// The most files.
        max: u64,
    },
}

/// `dir/games.pgn.zst` -> (`dir/games`, `.pgn.zst`): the name cut at its first dot.
fn stem_and_ext(base: &Path) -> (PathBuf, String) {
    let name = base
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (stem, ext) = match name.find('.') {
        Some(0) | None => (name.as_str(), ""),
        Some(at) => name.split_at(at),
    };
    (base.with_file_name(stem), ext.to_string())
}

/// `base` with `-suffix` before its extensions.
fn named(base: &Path, suffix: &str) -> PathBuf {
    let (stem, ext) = stem_and_ext(base);
    let mut name = stem.into_os_string();
    name.push(format!("-{suffix}{ext}"));
    PathBuf::from(name)
}

/// A tag value as part of a file name: ASCII letters, digits, `.`, `_`,
/// `-` kept, other runs as one `_`, at most 64 bytes, never starting with `.`.
pub fn safe_name(value: &str) -> String {
    let mut out = String::new();
    for c in value.trim().chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
        if out.len() >= 64 {
            break;
        }
    }
    if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    if out.is_empty() || out == "_" {
        return "none".to_string();
    }
    out
}

/// Opens a file output, checked against the inputs first.
fn open(inputs: &Inputs, path: PathBuf, level: Option<u32>) -> Result<Output, Failure> {
    crate::check_plan(inputs, &[("-o", &Some(path.clone()))], false)?;
    Output::file(&path)?.compressed(None, level)
}

impl Split {
    /// Writes one game's text; `value` is the `--split-by` tag's value.
    pub fn write(&mut self, inputs: &Inputs, text: &[u8], value: Option<&str>) -> io::Result<()> {
        let to_io = |f: Failure| OutputError::other("split output", f);
        match self {
            Split::One(out) => out.write_game(text),
            Split::Every {
                every,
                base,
                level,
                current,
                parts,
                done_games,
            } => {
                if current.is_none() {
                    *parts += 1;
                    let path = named(base, &format!("{parts:04}"));
                    *current = Some((open(inputs, path, *level).map_err(to_io)?, 0));
                }
                let Some((out, games)) = current else {
                    return Ok(());
                };
                out.write_game(text)?;
                *games += 1;
                if *games == *every
                    && let Some((mut out, _)) = current.take()
                {
                    out.flush()?;
                    *done_games += out.games_written();
                    out.finish().map_err(to_io)?;
                }
                Ok(())
            }
            Split::By {
                base,
                level,
                files,
                names,
                max,
                ..
            } => {
                let value = value.unwrap_or("").to_string();
                if !files.contains_key(&value) {
                    if files.len() as u64 >= *max {
                        return Err(OutputError::other(
                            "--split-by",
                            format!(
                                "more than {max} values (`{value}` would be one more file): raise --max-files"
                            ),
                        ));
                    }
                    let mut name = safe_name(&value);
                    let mut n = 1;
                    while names.contains_key(&name) {
                        n += 1;
                        name = format!("{}-{n}", safe_name(&value));
                    }
                    names.insert(name.clone(), value.clone());
                    let out = open(inputs, named(base, &name), *level).map_err(to_io)?;
                    files.insert(value.clone(), out);
                }
                match files.get_mut(&value) {
                    Some(out) => out.write_game(text),
                    None => Ok(()),
                }
            }
        }
    }

    /// The outputs still to put in place, and the games put in place already.
    pub fn into_outputs(self) -> (Vec<Output>, u64) {
        match self {
            Split::One(out) => (vec![out], 0),
            Split::Every {
                current,
                done_games,
                ..
            } => (
                current.map(|(out, _)| out).into_iter().collect(),
                done_games,
            ),
            Split::By { files, .. } => {
                let mut outs: Vec<Output> = files.into_values().collect();
                outs.sort_by(|a, b| a.name().cmp(b.name()));
                (outs, 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            named(Path::new("out/games.pgn.zst"), "0001"),
            PathBuf::from("out/games-0001.pgn.zst")
        );
        assert_eq!(named(Path::new("games"), "x"), PathBuf::from("games-x"));
        assert_eq!(safe_name("Carlsen, Magnus"), "Carlsen_Magnus");
        assert_eq!(safe_name("../../etc/passwd"), "_._.._etc_passwd");
        assert_eq!(safe_name(""), "none");
        assert_eq!(safe_name("?"), "none");
        assert!(safe_name(&"x".repeat(500)).len() <= 64);
    }
}
