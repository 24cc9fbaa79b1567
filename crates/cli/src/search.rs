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
use pgnkit::select::{Context, Place, Ply, PlyFinder, Query, Window};

use pgnkit_index::{GameHit, Index, IndexError, SearchOptions};

use crate::args::SearchArgs;
use crate::failure::Failure;
use crate::options::{self, read_options};
use crate::outcome::{Outcome, finish};
use crate::output::{Output, OutputError};
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
/// plies as `3,5,7v` (`v`: in a variation); appended to `out`.
fn offsets_line(
    out: &mut Vec<u8>,
    file: &str,
    offset: u64,
    number: u64,
    plies: impl Iterator<Item = Ply>,
) {
    out.extend_from_slice(file.as_bytes());
    out.push(b'\t');
    push_decimal(out, offset);
    out.push(b'\t');
    push_decimal(out, number);
    out.push(b'\t');
    for (i, p) in plies.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_decimal(out, u64::from(p.ply));
        if !p.main_line {
            out.push(b'v');
        }
    }
    out.push(b'\n');
}

/// The two digits of each number below 100, as the bytes of a little-endian number.
const PAIRS: [u16; 100] = {
    let mut pairs = [0u16; 100];
    let mut i = 0;
    while i < 100 {
        pairs[i] = u16::from_le_bytes([b'0' + (i / 10) as u8, b'0' + (i % 10) as u8]);
        i += 1;
    }
    pairs
};

/// The eight digits of `v` (below 10^8, zeros before it) as the bytes of a little-endian
/// number, the first digit in the lowest byte: four pairs, computed apart from one another.
fn eight_digits(v: u32) -> u64 {
    let (high, low) = (v / 10_000, v % 10_000);
    let pair = |n: u32| u64::from(PAIRS[n as usize]);
    pair(high / 100) | pair(high % 100) << 16 | pair(low / 100) << 32 | pair(low % 100) << 48
}

/// `n` in decimal, without `fmt` (a huge hit list is mostly these numbers): eight
/// digits at a time, each computed apart from the others, written whole and cut.
#[inline(always)]
fn push_decimal(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
    } else if n < 100_000_000 {
        push_digits(out, eight_digits(n as u32));
    } else {
        push_decimal_long(out, n);
    }
}

/// [`push_decimal`] of a number of nine digits or more (up to twenty).
#[inline(never)]
fn push_decimal_long(out: &mut Vec<u8>, n: u64) {
    let high = n / 100_000_000;
    if high < 10 {
        out.push(b'0' + high as u8);
    } else if high < 100_000_000 {
        push_digits(out, eight_digits(high as u32));
    } else {
        push_digits(out, eight_digits((high / 100_000_000) as u32));
        out.extend_from_slice(&eight_digits((high % 100_000_000) as u32).to_le_bytes());
    }
    out.extend_from_slice(&eight_digits((n % 100_000_000) as u32).to_le_bytes());
}

/// Eight digits ([`eight_digits`]) without their leading zeros (the last digit kept).
#[inline]
fn push_digits(out: &mut Vec<u8>, digits: u64) {
    // A digit `0` is a zero byte once every byte has lost b'0': the leading zeros are
    // the low zero bytes.
    let zeros = ((digits - u64::from_le_bytes([b'0'; 8])).trailing_zeros() / 8).min(7);
    let start = out.len();
    out.extend_from_slice(&(digits >> (8 * zeros)).to_le_bytes());
    out.truncate(start + 8 - zeros as usize);
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
    let mut window = args.window.window();
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
        match window.place() {
            Place::Skipped => return Ok(()),
            // `--first 0`: nothing is written; reading stops at the first game found.
            Place::After => return Err(pipeline::stop()),
            Place::Kept => {}
        }
        match shape {
            Shape::Pgn => out.write_game(text),
            Shape::Json => out.write_game(json_line(name, game.offset, number, &plies).as_bytes()),
            Shape::Offsets => out.write_game_with(|text| {
                offsets_line(text, name, game.offset, number, plies.iter().copied())
            }),
        }?;
        // `--first N`: the Nth game is out, no later one can be; reading stops.
        if window.is_full() {
            return Err(pipeline::stop());
        }
        Ok(())
    })?;
    tally.written = window.kept().min(tally.written);
    tally.extra = vec![format!("{not_matching} not matching")];
    tally.extra.extend(window_lines(&window));
    finish(ended, tally, vec![out], false, ("search", "found"))
}

/// What the summary says of `--skip` and `--first`.
fn window_lines(window: &Window) -> Vec<String> {
    let mut lines = Vec::new();
    if window.skip() > 0 {
        lines.push(format!("{} skipped (--skip)", window.skipped()));
    }
    if let Some(n) = window.first()
        && window.is_full()
    {
        lines.push(format!("stopped after --first {n}"));
    }
    lines
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
    let mut out = match &args.output {
        Some(path) => Output::file(path)?.compressed(None, args.level)?,
        None => Output::stdout().compressed(args.compress, args.level)?,
    };
    let mut written = Written {
        shape,
        index: &index,
        read: read_options(&args.inputs),
        writer: GameWriter::new(export),
        out: &mut out,
        window: args.window.window(),
    };
    // The games at the same place (the same file indexed twice) come as one game with all
    // their plies. With `--first N`, the postings are read as the games are written, and
    // no further than the game after the Nth.
    let options = SearchOptions {
        lazy: args.window.first.is_some(),
        join_places: true,
    };
    let answered = index
        .search_each(key, options, |game| written.game(&game))
        .or_else(|stopped| match stopped {
            Stopped::Full => Ok(()),
            other => Err(other),
        })
        .and_then(|()| written.out.flush().map_err(|e| Stopped::writing(&e)));
    if let Err(stopped) = answered {
        return match stopped.failure() {
            Some(failure) => Err(failure),
            None => Ok(Outcome::Clean),
        };
    }
    let window = written.window;
    let name = out.name().to_string();
    out.finish()?;
    let mut said = window_lines(&window);
    if args.output.is_some() {
        said.push(format!("written to {name}"));
    }
    console::say(&format!(
        "pgnkit search: {} games found in {} (index){}",
        window.kept(),
        path.display(),
        said.iter()
            .map(|line| format!(", {line}"))
            .collect::<String>()
    ));
    Ok(Outcome::Clean)
}

/// A ply of the index's answer: in the main line.
fn as_ply(&ply: &u32) -> Ply {
    Ply {
        main_line: true,
        ply,
    }
}

/// Writes the games of an index's answer in the shape asked for.
struct Written<'a> {
    shape: Shape,
    index: &'a Index,
    read: ReadOptions,
    writer: GameWriter,
    out: &'a mut Output,
    window: Window,
}

impl Written<'_> {
    /// Writes `game` if the window keeps it; [`Stopped::Full`] once no later game can be.
    fn game(&mut self, game: &GameHit<'_>) -> Result<(), Stopped> {
        match self.window.place() {
            Place::Skipped => return Ok(()),
            Place::After => return Err(Stopped::Full),
            Place::Kept => self.write(game)?,
        }
        if self.window.is_full() {
            return Err(Stopped::Full);
        }
        Ok(())
    }

    #[inline(always)]
    fn write(&mut self, game: &GameHit<'_>) -> Result<(), Stopped> {
        let name = game.source;
        let written = match self.shape {
            Shape::Json => {
                let plies: Vec<Ply> = game.plies.iter().map(as_ply).collect();
                let line = json_line(name, game.offset, game.number, &plies);
                self.out.write_game(line.as_bytes())
            }
            Shape::Offsets => self.out.write_game_with(|text| {
                offsets_line(
                    text,
                    name,
                    game.offset,
                    game.number,
                    game.plies.iter().map(as_ply),
                )
            }),
            Shape::Pgn => {
                let hit = game.first_hit();
                let bytes = self
                    .index
                    .game_text(&hit)
                    .map_err(|e| Failure::usage(e.to_string()))?;
                let mut text = Vec::new();
                match pgnkit::game::read_games_with(&bytes[..], self.read).next() {
                    Some(read) if !read.is_broken() => {
                        // Writing to a Vec cannot fail.
                        let _ = self.writer.write(&read.value, &mut text);
                    }
                    _ => {
                        return Err(Failure::usage(format!(
                            "{name}: the game at byte {} no longer reads as it did when indexed",
                            game.offset
                        ))
                        .into());
                    }
                }
                self.out.write_game(&text)
            }
        };
        written.map_err(|e| Stopped::writing(&e))
    }
}

/// Why an index's answer stopped before its end: the index, writing it, the reader of
/// standard output gone (`| head`), which ends the run quietly, or the games of
/// `--first N` written.
enum Stopped {
    Full,
    Index(IndexError),
    Failed(Failure),
    Closed,
}

impl Stopped {
    /// An error of [`Output`]'s (it names the output already).
    fn writing(e: &std::io::Error) -> Stopped {
        match OutputError::of(e) {
            Some(output) if e.kind() == std::io::ErrorKind::BrokenPipe && output.is_stdout() => {
                Stopped::Closed
            }
            _ => Stopped::Failed(Failure::usage(e.to_string())),
        }
    }

    /// The failure that ends the run, or `None` for a closed standard output.
    fn failure(self) -> Option<Failure> {
        match self {
            Stopped::Index(e) => Some(Failure::usage(e.to_string())),
            Stopped::Failed(f) => Some(f),
            Stopped::Closed | Stopped::Full => None,
        }
    }
}

impl From<IndexError> for Stopped {
    fn from(e: IndexError) -> Stopped {
        Stopped::Index(e)
    }
}

impl From<Failure> for Stopped {
    fn from(f: Failure) -> Stopped {
        Stopped::Failed(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_fmt_writes_them() {
        let mut numbers = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 65_535, u64::MAX];
        numbers.extend((0..20).map(|i| 10u64.pow(i)));
        numbers.extend((1..20).map(|i| 10u64.pow(i) - 1));
        numbers.extend((1..20).map(|i| 10u64.pow(i) + 1));
        numbers.extend([
            1_234_567_890_123,
            842_318_599,
            100_000_000,
            99_999_999,
            12_345_678,
        ]);
        for n in numbers {
            let mut out = b"x".to_vec();
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}").into_bytes(), "{n}");
        }
    }

    #[test]
    fn an_offsets_line() {
        let mut line = b"old\n".to_vec();
        let plies =
            [(true, 3), (true, 5), (false, 7)].map(|(main_line, ply)| Ply { main_line, ply });
        offsets_line(&mut line, "a.pgn", 0, 12, plies.into_iter());
        assert_eq!(line, b"old\na.pgn\t0\t12\t3,5,7v\n");
    }
}
