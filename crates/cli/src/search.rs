//! `pgnkit search FILE... QUERY`: the games a query selects, with the plies
//! where its position predicates hold, found by reading every game (no
//! index). Workers evaluate the query on each game and write what is asked:
//! the game in export format, or a line giving its place (`--json`,
//! `--offsets`).
//!
//! A query on main-line positions alone is decided as the game is read
//! ([`PlyFinder`] around [`Validate`]: each position tested as it is
//! played, no tree, no move kept); a game found is then read again by
//! the streaming writer `export` uses. Any other query is evaluated on the
//! game's tree ([`Query::matching_plies`]).

use pgnkit::export::{ExportOptions, GameWriter, StreamWriter};
use pgnkit::game::{Diagnostics, ReadOptions, TreeBuilder, Validate};
use pgnkit::select::{Context, Ply, PlyFinder, Query};

use pgnkit_index::Index;

use crate::args::SearchArgs;
use crate::failure::Failure;
use crate::options::{self, read_options};
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

/// What is written for each game found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// The game in export format.
    Pgn,
    /// One JSON object per line.
    Json,
    /// One tab-separated line.
    Offsets,
}

struct SearchJob {
    read: ReadOptions,
    query: Query,
    export: ExportOptions,
    shape: Shape,
}

/// What the main thread needs of one game.
struct Found {
    diagnostics: Diagnostics,
    /// The plies, when the game is selected.
    plies: Option<Vec<Ply>>,
}

impl Job for SearchJob {
    type State = (
        TreeBuilder,
        GameWriter,
        Option<PlyFinder<Validate>>,
        StreamWriter,
    );
    type Output = Found;

    fn state(&self) -> Self::State {
        (
            TreeBuilder::new(),
            GameWriter::new(self.export.clone()),
            // A game that can no longer be selected is read no further.
            self.query.ply_finder(Validate).map(PlyFinder::stopping),
            StreamWriter::new(self.export.clone()),
        )
    }

    fn run(&self, state: &mut Self::State, game: Game<'_, '_>, text: &mut Vec<u8>) -> Found {
        let (builder, writer, finder, stream) = state;
        if let Some(finder) = finder {
            let ((_, plies), diagnostics) = game.visit(finder, self.read);
            if diagnostics.has_errors() {
                return Found {
                    diagnostics,
                    plies: None,
                };
            }
            if plies.is_some() && self.shape == Shape::Pgn {
                // The same reading again, as `export` writes it.
                let _ = game.visit(stream, self.read);
                text.extend_from_slice(stream.game_text());
            }
            return Found { diagnostics, plies };
        }
        let (game, diagnostics) = game.visit(builder, self.read);
        if diagnostics.has_errors() {
            return Found {
                diagnostics,
                plies: None,
            };
        }
        let plies = self.query.matching_plies(&game, &Context::default());
        if plies.is_some() && self.shape == Shape::Pgn {
            // Writing to a Vec cannot fail.
            let _ = writer.write(&game, text);
        }
        Found { diagnostics, plies }
    }
}

/// One `--offsets` line: file, offset, game number and the plies, tab-separated, the
/// plies as `3,5,7v` (`v`: in a variation); written into `line`, emptied first.
fn offsets_line(
    line: &mut Vec<u8>,
    file: &str,
    offset: u64,
    number: u64,
    plies: impl Iterator<Item = Ply>,
) {
    line.clear();
    line.extend_from_slice(file.as_bytes());
    line.push(b'\t');
    push_decimal(line, offset);
    line.push(b'\t');
    push_decimal(line, number);
    line.push(b'\t');
    for (i, p) in plies.enumerate() {
        if i > 0 {
            line.push(b',');
        }
        push_decimal(line, u64::from(p.ply));
        if !p.main_line {
            line.push(b'v');
        }
    }
    line.push(b'\n');
}

/// The two digits of each number below 100.
const PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// `n` in decimal, without `fmt`, two digits at a time (a huge hit list is mostly
/// these numbers).
fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        at -= 2;
        digits[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        digits[at] = b'0' + n as u8;
    }
    out.extend_from_slice(&digits[at..]);
}

/// One JSON line: `{"file":..,"offset":..,"game":..,"plies":[..],"variation_plies":[..]}`.
fn json_line(file: &str, offset: u64, number: u64, plies: &[Ply]) -> String {
    let pick = |main: bool| -> Vec<u32> {
        plies
            .iter()
            .filter(|p| p.main_line == main)
            .map(|p| p.ply)
            .collect()
    };
    let value = serde_json::json!({
        "file": file,
        "offset": offset,
        "game": number,
        "plies": pick(true),
        "variation_plies": pick(false),
    });
    format!("{value}\n")
}

/// Runs `pgnkit search`.
pub fn run(args: &SearchArgs) -> Result<Outcome, Failure> {
    // The last word is the query; the words before it name the inputs.
    let mut inputs = args.inputs.clone();
    let Some(text) = inputs.files.pop() else {
        return Err(Failure::usage(
            "search needs a query after the files: pgnkit search FILE... QUERY",
        ));
    };
    let text = text.to_string_lossy().into_owned();
    // Everything that can be wrong with the command line is found before any input is read.
    let query = Query::parse(&text)
        .map_err(|e| Failure::usage(format!("bad query:\n{}", e.render(&text))))?;
    let shape = match (args.json, args.offsets) {
        (true, _) => Shape::Json,
        (false, true) => Shape::Offsets,
        (false, false) => Shape::Pgn,
    };
    if let Some(index) = &args.index {
        if !inputs.files.is_empty() {
            return Err(Failure::usage(
                "search --index INDEX takes the query alone: the index names the files",
            ));
        }
        return run_indexed(args, index, &query, shape);
    }
    check_plan(&inputs, &[("-o", &args.output)], args.output.is_none())?;
    let job = SearchJob {
        read: read_options(&inputs),
        query,
        export: options::export_options(&args.pgn, &inputs)?,
        shape,
    };
    let mut out = match &args.output {
        Some(path) => Output::file(path)?.compressed(None, args.level)?,
        None => Output::stdout().compressed(args.compress, args.level)?,
    };
    let mut tally = Tally::with_warnings(options::warnings(&inputs));
    let (mut not_matching, mut number, mut current) = (0u64, 0u64, String::new());
    let mut line = Vec::new();
    let ended = pipeline::over_inputs(&inputs, &job, |name, game, found, text| {
        if current != name {
            current = name.to_string();
            number = 0;
        }
        number += 1;
        tally.game(game.bytes.len(), &found.diagnostics);
        if found.diagnostics.has_errors() {
            return console::write(&render::errors(name, &game, &found.diagnostics, false));
        }
        let Some(plies) = found.plies else {
            not_matching += 1;
            return Ok(());
        };
        match shape {
            Shape::Pgn => out.write_game(text),
            Shape::Json => out.write_game(json_line(name, game.offset, number, &plies).as_bytes()),
            Shape::Offsets => {
                offsets_line(&mut line, name, game.offset, number, plies.iter().copied());
                out.write_game(&line)
            }
        }
    })?;
    tally.written = (tally.games - tally.rejected - not_matching).min(tally.written);
    tally.extra = vec![format!("{not_matching} not matching")];
    finish(ended, tally, vec![out], false, ("search", "found"))
}

/// `pgnkit search --index INDEX QUERY`: the games of an exact position, looked up in a
/// position index (pgnkit-index), each read from its file only to be written in export
/// format. The lines of `--offsets` and `--json` are those of a scan of the same files.
fn run_indexed(
    args: &SearchArgs,
    path: &std::path::Path,
    query: &Query,
    shape: Shape,
) -> Result<Outcome, Failure> {
    let Some(key) = query.exact_position_key() else {
        return Err(Failure::usage(
            "with --index the query must be one exact position, `reaches \"FEN\"` or \
             `hash KEY` (other predicates read every game: give the files instead)",
        ));
    };
    let export = options::export_options(&args.pgn, &args.inputs)?;
    let index = Index::open(path).map_err(|e| Failure::usage(e.to_string()))?;
    let games = index
        .search_games(key)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let mut out = match &args.output {
        Some(path) => Output::file(path)?.compressed(None, args.level)?,
        None => Output::stdout().compressed(args.compress, args.level)?,
    };
    let mut writer = GameWriter::new(export);
    let mut found = 0u64;
    let mut line = Vec::new();
    let mut plies: Vec<Ply> = Vec::new();
    let mut rest = games.iter().peekable();
    while let Some(first) = rest.next() {
        // A game's plies; those of the next games at the same place too (the same
        // file indexed twice), as one game.
        plies.clear();
        let as_ply = |&ply: &u32| Ply {
            main_line: true,
            ply,
        };
        plies.extend(first.plies.iter().map(as_ply));
        while let Some(next) = rest
            .next_if(|g| (g.offset, g.stream, g.path) == (first.offset, first.stream, first.path))
        {
            plies.extend(next.plies.iter().map(as_ply));
        }
        found += 1;
        let name = first.source;
        let written = match shape {
            Shape::Json => {
                out.write_game(json_line(name, first.offset, first.number, &plies).as_bytes())
            }
            Shape::Offsets => {
                offsets_line(
                    &mut line,
                    name,
                    first.offset,
                    first.number,
                    plies.iter().copied(),
                );
                out.write_game(&line)
            }
            Shape::Pgn => {
                let bytes = index
                    .game_text(&first.first_hit())
                    .map_err(|e| Failure::usage(e.to_string()))?;
                let mut text = Vec::new();
                match pgnkit::game::read_games_with(&bytes[..], read_options(&args.inputs)).next() {
                    Some(read) if !read.is_broken() => {
                        // Writing to a Vec cannot fail.
                        let _ = writer.write(&read.value, &mut text);
                    }
                    _ => {
                        return Err(Failure::usage(format!(
                            "{name}: the game at byte {} no longer reads as it did when indexed",
                            first.offset
                        )));
                    }
                }
                out.write_game(&text)
            }
        };
        written.map_err(|e| Failure::write(out.name(), &e))?;
    }
    let name = out.name().to_string();
    out.finish()?;
    console::say(&format!(
        "pgnkit search: {found} games found in {} (index){}",
        path.display(),
        if args.output.is_some() {
            format!(", written to {name}")
        } else {
            String::new()
        }
    ));
    Ok(Outcome::Clean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_fmt_writes_them() {
        let mut numbers = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, u64::MAX];
        numbers.extend((0..20).map(|i| 10u64.pow(i)));
        numbers.extend((1..20).map(|i| 10u64.pow(i) - 1));
        for n in numbers {
            let mut out = b"x".to_vec();
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes(), "{n}");
        }
    }

    #[test]
    fn an_offsets_line() {
        let mut line = b"old".to_vec();
        let plies =
            [(true, 3), (true, 5), (false, 7)].map(|(main_line, ply)| Ply { main_line, ply });
        offsets_line(&mut line, "a.pgn", 0, 12, plies.into_iter());
        assert_eq!(line, b"a.pgn\t0\t12\t3,5,7v\n");
    }
}
