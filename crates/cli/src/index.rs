//! `pgnkit index` (build or append to a position index) and `pgnkit tree`
//! (the moves played from a position): the flags become pgnkit-index's
//! options and its results are printed; the index's rules live there.

use pgnkit_index::{
    BuildOptions, Filter, GameSummary, Index, IndexError, Side, Tree, append, build,
    parse_position, tree_scan,
};

use std::io::Write;

use crate::args::{ColorArg, FilterArgs, IndexArgs, TreeArgs};
use crate::console;
use crate::failure::Failure;
use crate::options::read_flags;
use crate::outcome::Outcome;

/// An error of pgnkit-index as the command's failure (exit status 2), worded by the library.
pub fn failure(e: IndexError) -> Failure {
    Failure::usage(e.to_string())
}

/// Runs `pgnkit index`.
pub fn run(args: &IndexArgs) -> Result<Outcome, Failure> {
    let options = BuildOptions {
        threads: args.threads.unwrap_or(0),
        run_positions: usize::try_from(args.run_memory / 16)
            .unwrap_or(usize::MAX)
            .max(1024),
        read: read_flags(&args.read),
    };
    let (target, summary) = match (&args.append, &args.output) {
        (Some(index), _) => (index, append(index, &args.files, &options)),
        (None, Some(out)) => (out, build(out, &args.files, &options)),
        (None, None) => return Err(Failure::usage("give -o INDEX or --append INDEX")),
    };
    let summary = summary.map_err(failure)?;
    let verb = if args.append.is_some() {
        "appended to"
    } else {
        "written to"
    };
    console::say(&format!(
        "pgnkit index: {} games ({} positions) {verb} {}{}",
        summary.games,
        summary.positions,
        target.display(),
        if summary.broken > 0 {
            format!("; {} games with errors left out", summary.broken)
        } else {
            String::new()
        }
    ));
    Ok(if summary.broken > 0 {
        Outcome::Errors
    } else {
        Outcome::Clean
    })
}

/// The filter that the flags shared by `tree` and `book` ask for.
pub fn filter(args: &FilterArgs) -> Filter {
    Filter {
        min_rating: args.min_rating,
        max_rating: args.max_rating,
        speeds: args.speed.clone(),
        since: args.since,
        until: args.until,
        player: args.player.clone().map(|name| {
            let side = args.color.map(|c| match c {
                ColorArg::White => Side::White,
                ColorArg::Black => Side::Black,
            });
            (name, side)
        }),
    }
}

/// Runs `pgnkit tree`.
pub fn tree(args: &TreeArgs) -> Result<Outcome, Failure> {
    let pos = parse_position(&args.position).map_err(failure)?;
    let filter = filter(&args.filter);
    let tree = match &args.index {
        Some(path) => Index::open(path)
            .and_then(|index| index.tree(&pos, &filter))
            .map_err(failure)?,
        None => {
            let threads = args.threads.unwrap_or(0);
            tree_scan(&args.files, &pos, &filter, threads, read_flags(&args.read))
                .map_err(failure)?
        }
    };
    let text = if args.json {
        let mut text = serde_json::to_string(&tree).map_err(|e| Failure::usage(e.to_string()))?;
        text.push('\n');
        text
    } else {
        render(&tree)
    };
    print(&text)?;
    Ok(Outcome::Clean)
}

/// Writes a command's whole answer (a tree, a book's moves) to standard output; its
/// reader gone (`| head`) ends the run quietly.
pub(crate) fn print(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::write("standard output", &e))
        }
        _ => Ok(()),
    }
}

/// A game in one cell: `White (elo) - Black (elo), result, date, source #n`.
fn game(g: &Option<GameSummary>) -> String {
    let Some(g) = g else {
        return "-".into();
    };
    let elo = |e: Option<u16>| e.map_or(String::new(), |e| format!(" ({e})"));
    format!(
        "{}{} - {}{}, {}, {}, {} #{}",
        g.white,
        elo(g.white_elo),
        g.black,
        elo(g.black_elo),
        g.result,
        g.date,
        g.source,
        g.number
    )
}

/// The tree as a table, one move a line, then the games of each move.
fn render(tree: &Tree) -> String {
    let mut out = format!("{}\nPolyglot key {}\n", tree.fen, tree.key);
    if tree.moves.is_empty() {
        out.push_str("no games reach this position\n");
        return out;
    }
    out.push_str(&format!(
        "{:<8} {:>8}  {:>15}  {:>15}  {:>15}  {:>6}  {:>6}  {:>8}  {:>5}\n",
        "move", "games", "white wins", "draws", "black wins", "rating", "score", "opponent", "perf"
    ));
    let total: u64 = tree.moves.iter().map(|m| m.stats.games).sum();
    for m in &tree.moves {
        let s = &m.stats;
        let cell = |n: u64| format!("{n} {:5.1}%", s.percent(n));
        let known = |n: Option<String>| n.unwrap_or_else(|| "-".into());
        out.push_str(&format!(
            "{:<8} {:>8}  {:>15}  {:>15}  {:>15}  {:>6}  {:>5.1}%  {:>8}  {:>5}\n",
            m.san,
            s.games,
            cell(s.white),
            cell(s.draws),
            cell(s.black),
            known(s.average_rating().map(|r| r.to_string())),
            m.score,
            known(m.average_opponent.map(|r| r.to_string())),
            known(m.performance.map(|r| r.to_string())),
        ));
    }
    out.push_str(&format!("{:<8} {:>8}\n\n", "total", total));
    for m in &tree.moves {
        out.push_str(&format!(
            "{}: latest {}\n{:width$}  highest-rated {}\n",
            m.san,
            game(&m.latest),
            "",
            game(&m.best),
            width = m.san.len()
        ));
    }
    out
}
