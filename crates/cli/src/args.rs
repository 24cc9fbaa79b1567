//! The command line: subcommands and their options.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Read, check and rewrite chess games in PGN.
///
/// pgnkit reads PGN the way real files are written (import format: `0-0`,
/// `Ng1f3`, `e8Q`, missing move numbers, CRLF, Latin-1, ChessBase's empty
/// lines...), resolves every move of every line against its position, and
/// writes export format exactly as the 1994 standard asks. A game that
/// cannot be read is never dropped silently: it is reported with
/// file:line:column, and `export --rejects` keeps its original text.
#[derive(Debug, Parser)]
#[command(name = "pgnkit", version, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read import format and write export format (the standard's byte-exact form).
    ///
    /// Games are written in input order. Games with errors (an illegal or
    /// ambiguous move, an unterminated comment, an unsupported variant...)
    /// are not written: their diagnostics go to stderr and their original
    /// text to --rejects. A summary line on stderr counts games read,
    /// written and rejected. Exit status: 0 all written, 1 some rejected,
    /// 2 usage or I/O error.
    Export(ExportArgs),
    /// Validate every move; print diagnostics as file:line:column.
    ///
    /// Each diagnostic is `file:line:column: error|warning: message`, then
    /// the offending line with a caret under the column. Exit status: 0 no
    /// errors (warnings allowed), 1 errors found, 2 usage or I/O error.
    Check(CheckArgs),
    /// One JSON object per game per line (tags, moves with SAN and UCI, NAGs,
    /// comments, variations, result).
    ///
    /// Games with errors are reported on stderr and not written. Exit
    /// status as for `check`.
    Json(JsonArgs),
    /// The final position of each game's main line as FEN (or every position).
    ///
    /// Games with errors are reported on stderr and not written.
    Fen(FenArgs),
}

/// Where games come from, and how to read them.
#[derive(Debug, Args)]
pub struct Inputs {
    /// PGN files to read, in order; `-` (or no file) reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Report every lenient form (`0-0`, `Ng1f3`, `e8Q`, `--`, ...) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Worker threads for reading and writing games (output keeps input
    /// order) [default: one per CPU].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

impl Inputs {
    /// The worker threads to use: `--threads`, else one per CPU.
    pub fn threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        )
    }
}

/// Options of `pgnkit export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the original text of every game with errors to this file, verbatim.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Reduced export format: the seven roster tags (plus SetUp, FEN and
    /// Variant when needed to replay), moves only.
    #[arg(long)]
    pub reduced: bool,
    /// Leave out comments.
    #[arg(long)]
    pub no_comments: bool,
    /// Leave out variations.
    #[arg(long)]
    pub no_variations: bool,
    /// Leave out NAGs (`$1`, and the `!`/`?` suffixes read as NAGs).
    #[arg(long)]
    pub no_nags: bool,
    /// Maximum line length in characters (the standard's export format: 79).
    #[arg(long, value_name = "N", default_value_t = 79, value_parser = clap::value_parser!(u16).range(1..))]
    pub width: u16,
    /// Move notation: SAN (standard), LAN (`Ng1-f3`), UCI (`g1f3`), FAN (`♘f3`).
    #[arg(long, value_enum, default_value_t = NotationArg::San)]
    pub notation: NotationArg,
}

/// The move notations `export` can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NotationArg {
    /// Standard algebraic notation (export format).
    San,
    /// Long algebraic: `e2-e4`, `Ng1-f3`, `e7xd8=Q`.
    Lan,
    /// UCI: `e2e4`, `e7e8q`.
    Uci,
    /// Figurine algebraic: SAN with ♔♕♖♗♘ for the pieces.
    Fan,
}

/// Options of `pgnkit check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// One JSON object per diagnostic instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Options of `pgnkit json`.
#[derive(Debug, Args)]
pub struct JsonArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// Write broken games too: what was read, with a "diagnostics" array
    /// (line, column, severity, message). Their errors are still reported.
    #[arg(long)]
    pub keep_broken: bool,
}

/// Options of `pgnkit fen`.
#[derive(Debug, Args)]
pub struct FenArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// Every position of the main line (the start and after each ply),
    /// with an empty line after each game.
    #[arg(long)]
    pub every_ply: bool,
    /// Write EPD (the four position fields with `hmvc` and `fmvn`
    /// operations) instead of FEN.
    #[arg(long)]
    pub epd: bool,
}
