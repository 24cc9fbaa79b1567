//! `pgnkit book`: a Polyglot opening book of the games' main lines, or
//! `--probe`, the moves a book holds for a position. The flags become
//! pgnkit-index's [`BookOptions`]; how a book is made, encoded and read is
//! that crate's (`pgnkit_index::make_book`, `Book`). The book is written
//! through [`Output`]: a temporary file renamed into place when complete.

use pgnkit_index::{Book, BookOptions, BookProbe, Side, make_book, parse_position, write_book};

use crate::args::BookArgs;
use crate::console;
use crate::failure::Failure;
use crate::index::{failure, filter, print};
use crate::outcome::Outcome;
use crate::output::Output;
use crate::paths::{OutputPath, Plan};

/// Runs `pgnkit book`.
pub fn run(args: &BookArgs) -> Result<Outcome, Failure> {
    if let Some(position) = &args.probe {
        return probe(args, position);
    }
    let Some(out) = &args.output else {
        return Err(Failure::usage("give -o BOOK, or --probe POSITION BOOK"));
    };
    Plan {
        inputs: &args.files,
        outputs: vec![OutputPath {
            option: "-o",
            path: out,
        }],
        stdout: false,
    }
    .check()?;
    let options = BookOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
        min_score: args.min_score / 100.0,
        side: match (args.only_white, args.only_black) {
            (true, _) => Some(Side::White),
            (_, true) => Some(Side::Black),
            _ => None,
        },
        uniform: args.uniform,
        filter: filter(&args.filter),
        threads: args.threads.unwrap_or(0),
        read: crate::options::read_flags(&args.read),
    };
    let made = make_book(&args.files, &options).map_err(failure)?;
    let mut output = Output::file(out)?;
    write_book(&made.entries, &mut output).map_err(|e| Failure::write(output.name(), &e))?;
    output.finish()?;
    let mut note = String::new();
    if made.filtered > 0 {
        note.push_str(&format!(
            "; {} games left out by the filters",
            made.filtered
        ));
    }
    if made.broken > 0 {
        note.push_str(&format!("; {} games with errors left out", made.broken));
    }
    console::say(&format!(
        "pgnkit book: {} entries from {} games written to {}{note}",
        made.entries.len(),
        made.games,
        out.display()
    ));
    Ok(if made.broken > 0 {
        Outcome::Errors
    } else {
        Outcome::Clean
    })
}

/// `pgnkit book --probe POSITION BOOK`.
fn probe(args: &BookArgs, position: &str) -> Result<Outcome, Failure> {
    let pos = parse_position(position).map_err(failure)?;
    let [path] = args.files.as_slice() else {
        return Err(Failure::usage("--probe reads one book: give one FILE"));
    };
    let probe = Book::open(path)
        .and_then(|book| book.probe(&pos))
        .map_err(failure)?;
    let text = if args.json {
        let mut text = serde_json::to_string(&probe).map_err(|e| Failure::usage(e.to_string()))?;
        text.push('\n');
        text
    } else {
        render(&probe, &path.display().to_string())
    };
    print(&text)?;
    Ok(Outcome::Clean)
}

/// The moves as a table, one a line, in the book's order.
fn render(probe: &BookProbe, book: &str) -> String {
    let mut out = format!("{}\nPolyglot key {}\n", probe.fen, probe.key);
    if probe.moves.is_empty() {
        out.push_str(&format!("no moves for this position in {book}\n"));
        return out;
    }
    out.push_str(&format!(
        "{:<8} {:<6} {:>7} {:>7} {:>6}\n",
        "move", "uci", "weight", "%", "learn"
    ));
    for m in &probe.moves {
        out.push_str(&format!(
            "{:<8} {:<6} {:>7} {:>6.1}% {:>6}\n",
            m.san, m.uci, m.weight, m.percent, m.learn
        ));
    }
    out
}
