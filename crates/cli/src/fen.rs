//! `pgnkit fen`: the final position of each game's main line, or every one,
//! as FEN, (`--epd`) as EPD with `hmvc` and `fmvn` operations, or
//! (`--polyglot`) as Polyglot keys.

use pgnkit::Position;
use pgnkit::chess::Epd;
use pgnkit::game::{Diagnostics, GameStart, MoveEvent, ReadOptions, Skip, Visitor};

use crate::args::FenArgs;
use crate::failure::Failure;
use crate::options::read_options;
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::tally::Tally;
use crate::{console, render};

/// Follows the main line, keeping the position (and every FEN on request).
struct MainLine {
    every_ply: bool,
    epd: bool,
    polyglot: bool,
    position: Option<Position>,
    fens: Vec<String>,
}

impl Visitor for MainLine {
    type Output = Vec<String>;

    fn begin_game(&mut self, _game: GameStart<'_>) {
        self.position = None;
        self.fens.clear();
    }

    fn begin_movetext(&mut self, start: &Position) {
        if self.every_ply {
            let fen = self.text(start);
            self.fens.push(fen);
        }
        self.position = Some(start.clone());
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        if let Some(position) = &mut self.position {
            position.play_unchecked(event.mv);
            if self.every_ply {
                let text = text_of(self.epd, self.polyglot, position);
                self.fens.push(text);
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip::Yes
    }

    fn end_game(&mut self) -> Vec<String> {
        if !self.every_ply
            && let Some(position) = &self.position
        {
            let text = self.text(position);
            self.fens.push(text);
        }
        std::mem::take(&mut self.fens)
    }
}

impl MainLine {
    /// `position` as FEN, as EPD with its counters, or its Polyglot key.
    fn text(&self, position: &Position) -> String {
        text_of(self.epd, self.polyglot, position)
    }
}

/// `position` as FEN, as EPD with its counters, or its Polyglot key.
fn text_of(epd: bool, polyglot: bool, position: &Position) -> String {
    if polyglot {
        format!("{:016x}", position.polyglot_key())
    } else if epd {
        Epd::from_position(position).to_string()
    } else {
        position.to_string()
    }
}

struct FenJob {
    read: ReadOptions,
    every_ply: bool,
    epd: bool,
    polyglot: bool,
}

impl Job for FenJob {
    type State = MainLine;
    type Output = (Vec<String>, Diagnostics);

    fn state(&self) -> MainLine {
        MainLine {
            every_ply: self.every_ply,
            epd: self.epd,
            polyglot: self.polyglot,
            position: None,
            fens: Vec::new(),
        }
    }

    fn run(&self, line: &mut MainLine, game: Game<'_, '_>, _text: &mut Vec<u8>) -> Self::Output {
        game.visit(line, self.read)
    }
}

/// Runs `pgnkit fen`.
pub fn run(args: &FenArgs) -> Result<Outcome, Failure> {
    check_plan(&args.inputs, &[], true)?;
    let job = FenJob {
        read: read_options(&args.inputs),
        every_ply: args.every_ply,
        epd: args.epd,
        polyglot: args.polyglot,
    };
    let mut tally = Tally::new();
    let mut out = Output::stdout();
    let mut text = String::new();
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, (fens, diagnostics), _| {
        tally.game(game.bytes.len(), &diagnostics);
        if diagnostics.has_errors() {
            return console::write(&render::errors(name, &game, &diagnostics, false));
        }
        text.clear();
        for fen in &fens {
            text.push_str(fen);
            text.push('\n');
        }
        if args.every_ply {
            text.push('\n');
        }
        out.write_game(text.as_bytes())
    })?;
    finish(ended, tally, vec![out], true, ("fen", "written"))
}
