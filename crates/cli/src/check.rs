//! `pgnkit check`: validate every move and print diagnostics; with
//! `--export-format`, report each game that is not byte for byte export
//! format (the library's `pgnkit_export::conformance` decides; this prints).

use std::io::Read;

use pgnkit::export::conformance::{Conformance, GameReport, Verdict, check_export_format};
use pgnkit::game::{Diagnostics, ReadOptions, Validate};

use crate::args::CheckArgs;
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::render;
use crate::tally::Tally;

struct CheckJob {
    read: ReadOptions,
}

impl Job for CheckJob {
    type State = Validate;
    type Output = Diagnostics;

    fn state(&self) -> Validate {
        Validate
    }

    fn run(&self, validate: &mut Validate, game: Game<'_, '_>, _text: &mut Vec<u8>) -> Diagnostics {
        game.visit(validate, self.read).1
    }
}

/// Runs `pgnkit check`.
pub fn run(args: &CheckArgs) -> Result<Outcome, Failure> {
    check_plan(&args.inputs, &[], true)?;
    if args.export_format {
        return run_export_format(args);
    }
    let job = CheckJob {
        read: read_options(&args.inputs),
    };
    let mut tally = Tally::new();
    let mut out = Output::stdout();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, diagnostics, _| {
        tally.game(game.bytes.len(), &diagnostics);
        for d in diagnostics.iter() {
            if args.json {
                out.write_text(render::json(name, d).as_bytes())?;
                out.write_text(b"\n")?;
            } else {
                out.write_text(render::text(name, &game, d).as_bytes())?;
            }
        }
        Ok(())
    })?;
    finish(ended, tally, vec![out], false, ("check", "without errors"))
}

/// Runs `pgnkit check --export-format`: each input is read whole (through
/// the input crate, so compressed files work too) and checked game by game.
fn run_export_format(args: &CheckArgs) -> Result<Outcome, Failure> {
    let mut out = Output::stdout();
    let (mut games, mut failing) = (0usize, 0usize);
    for path in crate::input::names(&args.inputs.files) {
        for mut input in crate::input::open(&path, &args.inputs)? {
            let mut text = Vec::new();
            let read = input.reader.read_to_end(&mut text);
            if let Some(bar) = &input.progress {
                bar.finish_and_clear();
            }
            read.map_err(|e| crate::input::read_failure(&input.name, &e))?;
            let report = check_export_format(&text);
            games += report.games;
            failing += report.failures.len();
            // An error of `Output` names it already.
            write_report(&mut out, &input.name, &report, args)
                .map_err(|e| Failure::usage(e.to_string()))?;
        }
    }
    out.flush().map_err(|e| Failure::usage(e.to_string()))?;
    out.finish()?;
    crate::console::say(&format!(
        "pgnkit: check --export-format: {games} games, {} export format, {failing} not",
        games - failing
    ));
    Ok(if failing > 0 {
        Outcome::Errors
    } else {
        Outcome::Clean
    })
}

/// One line per deviation (or per error of a game that does not read), as
/// text (the library's wording after `file:`) or JSON, and with `--diff`
/// the game against its export.
fn write_report(
    out: &mut Output,
    name: &str,
    report: &Conformance,
    args: &CheckArgs,
) -> std::io::Result<()> {
    for game in &report.failures {
        if !args.json {
            for line in game.to_string().lines() {
                out.write_text(format!("{name}:{line}\n").as_bytes())?;
            }
        }
        match &game.verdict {
            Verdict::Unreadable { diagnostics } if args.json => {
                for d in diagnostics.errors() {
                    let line = serde_json::json!({
                        "file": name, "line": d.line, "column": d.column,
                        "rule": "does not read", "message": d.message(),
                    });
                    out.write_text(format!("{line}\n").as_bytes())?;
                }
            }
            Verdict::Deviates { deviations, export } => {
                if args.json {
                    for d in deviations {
                        let line = serde_json::json!({
                            "file": name, "line": d.line, "column": d.column,
                            "offset": d.offset, "rule": d.rule.name(),
                            "spec": d.rule.spec_rule(),
                            "expected": d.expected, "found": d.found,
                        });
                        out.write_text(format!("{line}\n").as_bytes())?;
                    }
                }
                if args.diff {
                    out.write_text(unified_diff(name, game, export).as_bytes())?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The game (as found) against its export, as a unified diff.
fn unified_diff(name: &str, game: &GameReport, export: &str) -> String {
    let found = String::from_utf8_lossy(&game.original);
    similar::TextDiff::from_lines(found.as_ref(), export)
        .unified_diff()
        .context_radius(2)
        .header(
            &format!("{name}:{} (game {})", game.line, game.index + 1),
            "export format (pgnkit export)",
        )
        .to_string()
}
