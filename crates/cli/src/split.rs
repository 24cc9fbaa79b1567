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

use pgnkit_arrow::{Format, GameRecord, WriterOptions};

use crate::args::Inputs;
use crate::failure::Failure;
use crate::output::{Output, OutputError};
use crate::select_table::TableOut;

/// What the files of a [`Split`] hold.
#[derive(Debug, Clone, Copy)]
pub enum PartFormat {
    /// PGN text, compressed by the name's extension at this level.
    Pgn {
        /// Compression level.
        level: Option<u32>,
    },
    /// A games table in this format (`convert`'s formats), written as the options say
    /// (a Parquet table's codec).
    Table(Format, WriterOptions),
}

/// One file the selected games go to.
pub enum Part {
    /// PGN text.
    Pgn(Output),
    /// A games table.
    Table(Box<TableOut>),
}

/// A selected game as the outputs take it.
pub struct Selected<'a> {
    /// Its text in the output's PGN format.
    pub text: &'a [u8],
    /// The input it was read from (the table's `source`).
    pub source: &'a str,
    /// Its row, when the outputs are tables.
    pub record: Option<&'a GameRecord>,
}

impl Part {
    /// Opens a file part, checked against the inputs first.
    fn open(inputs: &Inputs, path: PathBuf, format: PartFormat) -> Result<Part, Failure> {
        crate::paths::check_plan(inputs, &[("-o", &Some(path.clone()))], false)?;
        Ok(match format {
            PartFormat::Pgn { level } => Part::Pgn(Output::file(&path)?.compressed(None, level)?),
            PartFormat::Table(format, options) => {
                Part::Table(Box::new(TableOut::open(Some(&path), format, options)?))
            }
        })
    }

    /// Writes one game: `id` is its place among the selected games (the table's `game_id`).
    fn write(&mut self, id: u64, game: &Selected<'_>) -> io::Result<()> {
        match (self, game.record) {
            (Part::Pgn(out), _) => out.write_game(game.text),
            (Part::Table(table), Some(record)) => table.push(id, game.source, record),
            (Part::Table(table), None) => Err(OutputError::other(
                table.name(),
                "a game without its row (the job did not record it)",
            )),
        }
    }

    /// Ends the part (a table's last batch and footer) when the run is complete; the output
    /// is then put in place by `finish`. A table of an unfinished run is dropped (its
    /// temporary file removed), a PGN output is given back as it is.
    fn close(self, complete: bool) -> Result<Option<Output>, Failure> {
        match self {
            Part::Pgn(out) => Ok(Some(out)),
            Part::Table(table) if complete => table.close().map(Some),
            Part::Table(_) => Ok(None),
        }
    }
}

/// How the selected games are laid out.
pub enum Split {
    /// One output (a file or standard output).
    One(Part),
    /// Parts of `every` games.
    Every {
        /// Games per part.
        every: u64,
        /// The `-o` path the parts are named after.
        base: PathBuf,
        /// What the parts hold.
        format: PartFormat,
        /// The part being written and its games.
        current: Option<(Part, u64)>,
        /// Parts written so far.
        parts: u64,
        /// Games in the parts put in place.
        done_games: u64,
    },
    /// One file per tag value.
    By {
        /// The `-o` path the files are named after.
        base: PathBuf,
        /// What the files hold.
        format: PartFormat,
        /// Files by value.
        files: HashMap<String, Part>,
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
pub fn named(base: &Path, suffix: &str) -> PathBuf {
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

/// The outputs of a run: the layout and the games written to it.
pub struct Outputs {
    split: Split,
    written: u64,
}

impl Outputs {
    /// The games go to `split`.
    pub fn new(split: Split) -> Outputs {
        Outputs { split, written: 0 }
    }

    /// Writes one game; `value` is the `--split-by` tag's value.
    pub fn write(
        &mut self,
        inputs: &Inputs,
        game: &Selected<'_>,
        value: Option<&str>,
    ) -> io::Result<()> {
        let id = self.written;
        self.written += 1;
        let to_io = |f: Failure| OutputError::failure("split output", &f);
        match &mut self.split {
            Split::One(out) => out.write(id, game),
            Split::Every {
                every,
                base,
                format,
                current,
                parts,
                done_games,
            } => {
                if current.is_none() {
                    *parts += 1;
                    let path = named(base, &format!("{parts:04}"));
                    *current = Some((Part::open(inputs, path, *format).map_err(to_io)?, 0));
                }
                let Some((out, games)) = current else {
                    return Ok(());
                };
                out.write(id, game)?;
                *games += 1;
                if *games == *every
                    && let Some((part, games)) = current.take()
                    && let Some(mut out) = part.close(true).map_err(to_io)?
                {
                    out.flush()?;
                    *done_games += games;
                    out.finish().map_err(to_io)?;
                }
                Ok(())
            }
            Split::By {
                base,
                format,
                files,
                names,
                max,
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
                    let part = Part::open(inputs, named(base, &name), *format).map_err(to_io)?;
                    files.insert(value.clone(), part);
                }
                match files.get_mut(&value) {
                    Some(out) => out.write(id, game),
                    None => Ok(()),
                }
            }
        }
    }

    /// The outputs still to put in place (tables ended with their footer when the run is
    /// `complete`, dropped otherwise), and the games put in place already.
    pub fn into_outputs(self, complete: bool) -> Result<(Vec<Output>, u64), Failure> {
        let (parts, done) = match self.split {
            Split::One(out) => (vec![out], 0),
            Split::Every {
                current,
                done_games,
                ..
            } => (
                current.map(|(out, _)| out).into_iter().collect(),
                done_games,
            ),
            Split::By { files, .. } => (files.into_values().collect(), 0),
        };
        let mut outs = Vec::new();
        for part in parts {
            outs.extend(part.close(complete)?);
        }
        outs.sort_by(|a, b| a.name().cmp(b.name()));
        Ok((outs, done))
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
