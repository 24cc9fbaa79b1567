//! The command line: subcommands and their options.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use pgnkit::export::Notation;
use pgnkit::select::MatchNumbers;

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
    ///
    /// With --export-format, checks instead that each game is byte for byte
    /// export format (for testing PGN exporters; docs/testing-your-exporter.md).
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
    /// Games into tables: a games table (one row per game) and a moves
    /// table (one row per main-line move) as Parquet, Arrow, CSV or NDJSON.
    ///
    /// The format comes from the output's extension (`.parquet`, `.arrow`,
    /// `.arrows`, `.csv`, `.ndjson`/`.jsonl`) unless --format says. Games
    /// with errors are reported on stderr and not written (their text goes
    /// to --rejects), unless --keep-broken. A typed tag that cannot be read
    /// (`WhiteElo "abc"`) is a warning and a null. Variations stay out of
    /// the moves table. Exit status as for `export`.
    Convert(ConvertArgs),
    /// Cut a file into N byte ranges for `--range` (one `START END` per line).
    ///
    /// A plain file is cut in equal parts; a `.zst` file in pzstd's layout
    /// (independent frames, as the Lichess database) at frame starts, in
    /// compressed bytes, without decompressing it. Reading every range
    /// (`--range START..END`) reads every game of the file once.
    Ranges(RangesArgs),
    /// Games that match a query (--where), written in export format.
    ///
    /// The query language is in docs/select.md: tag fields (`WhiteElo >= 2500`,
    /// `Event ~ "Olympiad"`, `Site =~ "lichess"`), `and`, `or`, `not`,
    /// parentheses, pseudo-fields player, elo, elo_diff, plies, eco, result,
    /// `reaches "FEN"`, `material "KQkr"`. A bad query is shown with a caret
    /// under the fault (exit status 2) before any input is read. Games with
    /// errors are reported and not written; the summary line counts games
    /// selected, not matching, duplicates and each fix.
    Select(SelectArgs),
    /// Games without their duplicates (same start position, same main-line
    /// moves; tags and comments do not count): the first is kept.
    ///
    /// Takes every option of `select`; --duplicates FILE keeps the others,
    /// each after a comment naming the game kept (file and line).
    Dedupe(SelectArgs),
    /// Adds or replaces the ECO and Opening tags from the Lichess opening
    /// table (Lichess's rule: positions of the first 40 plies, the deepest wins).
    ///
    /// Takes every option of `select`; --openings FILE reads another table.
    Classify(SelectArgs),
    /// Games that match a query, and the plies where its position predicates
    /// hold: `pgnkit search FILE... QUERY` (the last word is the query).
    ///
    /// The query language is `select --where`'s (docs/select.md), with the
    /// position predicates `reaches "FEN"`, `pattern "..."` (a board with
    /// wildcards), `material "KQkr"`, `imbalance "R vs BN"`, `sequence "e4
    /// e5 Nf3"`, `at (... and stm white)` and `in_variations` (docs/search.md).
    /// Found games are written in export format, or one line each with
    /// --json or --offsets: the file, the byte offset of the game (in the
    /// decompressed text), its number in the file (from 1) and the plies.
    /// Every game is read, or with --index an exact position is looked up
    /// in a position index (`pgnkit index`). A bad query is shown with a caret
    /// under the fault (exit status 2) before any input is read.
    Search(SearchArgs),
    /// Build a position index of PGN files (docs/index.md), or add files to one.
    ///
    /// The index (a folder) keeps every main-line position by its Polyglot
    /// key and where each game is in its file (plain or compressed; the
    /// files stay where they are), with what `pgnkit tree` counts of it.
    /// Games with errors are left out and counted. --append adds files as a
    /// new segment, atomically.
    Index(IndexArgs),
    /// The moves played from a position, and how they scored.
    ///
    /// POSITION is a FEN or moves from the start ("e4 c5 Nf3"). For each
    /// move: games, White wins, draws and Black wins (counts and %), the
    /// players' average rating, the latest and the highest-rated game.
    /// Positions are matched by Polyglot key, so transpositions count
    /// together. Reads an index (--index) or the files themselves.
    Tree(TreeArgs),
    /// Make a Polyglot opening book (.bin) of the games' main lines, or read one (--probe).
    ///
    /// As Polyglot's make-book: each move played before --max-ply weighs 2
    /// points for a win of the side that played it, 1 for a draw (or no
    /// result), 0 for a loss; moves played in fewer than --min-games games or
    /// that never scored are left out. The book is readable by engines, GUIs
    /// and python-chess (chess.polyglot). Games with errors are left out and
    /// counted (exit status 1). --probe POSITION BOOK prints a book's moves
    /// for a position with their weights.
    Book(BookArgs),
}

/// Options of `pgnkit index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// PGN files to index (plain or compressed).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The index to write (a folder, conventionally `NAME.pgnidx`); an index
    /// there is replaced.
    #[arg(
        short,
        long,
        value_name = "INDEX",
        required_unless_present = "append",
        conflicts_with = "append"
    )]
    pub output: Option<PathBuf>,
    /// Add the FILEs to this index instead (a new segment; the index is
    /// unchanged if this fails).
    #[arg(long, value_name = "INDEX")]
    pub append: Option<PathBuf>,
    /// Threads reading games [default: one per CPU; at most 1024].
    #[arg(long, value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Memory for positions before they are written to disk, by partition of
    /// their keys (16 bytes a position; twice this is held at most; sizes as
    /// for --max-game-bytes).
    #[arg(long, value_name = "SIZE", default_value = "32MiB", value_parser = size)]
    pub run_memory: u64,
    /// How games are read (the index records nothing of it: give the same
    /// flags to `--append` and to a scan that is to agree with it).
    #[command(flatten)]
    pub read: ReadFlags,
}

/// Options of `pgnkit tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// The position: a FEN, or moves from the start such as "e4 c5 Nf3".
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// PGN files to read when there is no --index.
    #[arg(value_name = "FILE", required_unless_present = "index")]
    pub files: Vec<PathBuf>,
    /// Read this index (made by `pgnkit index`) instead of files.
    #[arg(long, value_name = "INDEX", conflicts_with = "files")]
    pub index: Option<PathBuf>,
    /// One JSON object: the position, its key and every move's figures.
    #[arg(long)]
    pub json: bool,
    /// Which games count.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Threads reading games without an index [default: one per CPU].
    #[arg(long, value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// How games are read without an index.
    #[command(flatten)]
    pub read: ReadFlags,
}

/// The game filters of `pgnkit tree` and `pgnkit book` (pgnkit-index's `Filter`).
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// Only games whose players' average rating is at least this.
    #[arg(long, value_name = "ELO")]
    pub min_rating: Option<u16>,
    /// Only games whose players' average rating is at most this.
    #[arg(long, value_name = "ELO")]
    pub max_rating: Option<u16>,
    /// Only games of these speeds (from TimeControl as Lichess counts it:
    /// ultrabullet, bullet, blitz, rapid, classical, correspondence).
    #[arg(long, value_name = "SPEED", value_delimiter = ',', value_parser = speed)]
    pub speed: Vec<pgnkit_index::Speed>,
    /// Only games on or after this date (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "DATE", value_parser = date)]
    pub since: Option<u32>,
    /// Only games on or before this date (YYYY.MM.DD, YYYY.MM or YYYY).
    #[arg(long, value_name = "DATE", value_parser = date_until)]
    pub until: Option<u32>,
    /// Only games of this player (the exact name, case-insensitive).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// With --player: only games where the player had this colour.
    #[arg(long, value_enum, requires = "player")]
    pub color: Option<ColorArg>,
}

/// Options of `pgnkit book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// PGN files to make the book of (plain or compressed); with --probe, the book to read.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The book to write (Polyglot's .bin format), put in place whole at the end.
    #[arg(short, long, value_name = "BOOK", required_unless_present = "probe")]
    pub output: Option<PathBuf>,
    /// Print the moves the book FILE holds for this position (a FEN, or moves
    /// from the start such as "e4 c5") with their weights, instead of making a book.
    #[arg(
        long,
        value_name = "POSITION",
        conflicts_with_all = [
            "output", "max_ply", "min_games", "min_score", "only_white", "only_black",
            "uniform", "threads", "min_rating", "max_rating", "speed", "since", "until", "player",
        ]
    )]
    pub probe: Option<String>,
    /// With --probe: one JSON object (the position, its key, each move's weight).
    #[arg(long, requires = "probe")]
    pub json: bool,
    /// Moves played from positions before this ply of each game count (Polyglot's -max-ply).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub max_ply: u32,
    /// Leave out moves played in fewer games (Polyglot's -min-game).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub min_games: u64,
    /// Leave out moves that scored under this percentage of the points (Polyglot's -min-score).
    #[arg(long, value_name = "PERCENT", default_value_t = 0.0, value_parser = percent)]
    pub min_score: f64,
    /// Only White's moves (the positions with White to move).
    #[arg(long, conflicts_with = "only_black")]
    pub only_white: bool,
    /// Only Black's moves.
    #[arg(long)]
    pub only_black: bool,
    /// Every move kept weighs 1 instead of its points (Polyglot's -uniform).
    #[arg(long)]
    pub uniform: bool,
    /// Which games count.
    #[command(flatten)]
    pub filter: FilterArgs,
    /// Threads reading games [default: one per CPU].
    #[arg(long, value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// How games are read.
    #[command(flatten)]
    pub read: ReadFlags,
}

/// A percentage, 0 to 100.
fn percent(text: &str) -> Result<f64, String> {
    match text.trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// The choices of `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White.
    White,
    /// Black.
    Black,
}

/// A speed class by the index's names.
fn speed(text: &str) -> Result<pgnkit_index::Speed, String> {
    pgnkit_index::Speed::from_name(text).ok_or_else(|| {
        format!(
            "`{text}`: the speeds are ultrabullet, bullet, blitz, rapid, classical, correspondence"
        )
    })
}

/// A first date (YYYY.MM.DD, YYYY.MM, YYYY), by the index's rule.
fn date(text: &str) -> Result<u32, String> {
    pgnkit_index::date_bound(text, false).ok_or_else(|| not_a_date(text))
}

/// A last date: a missing month or day is the last of the year or month (the index's rule).
fn date_until(text: &str) -> Result<u32, String> {
    pgnkit_index::date_bound(text, true).ok_or_else(|| not_a_date(text))
}

fn not_a_date(text: &str) -> String {
    format!("`{text}` is not a date (YYYY.MM.DD, YYYY.MM or YYYY)")
}

/// `--first N` and `--skip N` of `select` and `search`: which of the games
/// found are written ([`pgnkit::select::Window`]).
#[derive(Debug, Clone, Copy, Args)]
pub struct WindowArgs {
    /// Write at most N of the games found (`search`: reading stops there).
    #[arg(long, value_name = "N")]
    pub first: Option<u64>,
    /// Leave out the first N of the games found.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: u64,
}

impl WindowArgs {
    /// The window, its counts at zero.
    pub fn window(&self) -> pgnkit::select::Window {
        pgnkit::select::Window::new(self.skip, self.first)
    }
}

/// Options of `pgnkit search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Input files (then the query, last) and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// One JSON object per game found: {"file", "offset", "game", "plies", "variation_plies"}.
    #[arg(long, conflicts_with = "offsets")]
    pub json: bool,
    /// One line per game found: FILE, byte offset, game number, plies
    /// (comma-separated; `v` after a ply in a variation), tab-separated.
    #[arg(long)]
    pub offsets: bool,
    /// Answer from this position index (made by `pgnkit index`) instead of
    /// reading files: the query must be one exact position, `reaches "FEN"`
    /// or `hash KEY`; the games are read from the indexed files.
    #[arg(long, value_name = "INDEX")]
    pub index: Option<PathBuf>,
    /// Write to this file instead of standard output (compressed by its
    /// extension: .zst, .gz, .bz2, .xz).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Compress standard output in this format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub compress: Option<crate::compress::Codec>,
    /// Compression level (zstd 1-22, default 3; gzip, bzip2 and xz 1-9, default 6).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=22))]
    pub level: Option<u32>,
    /// Which of the games found are written (--skip, --first).
    #[command(flatten)]
    pub window: WindowArgs,
    /// How the games are written.
    #[command(flatten)]
    pub pgn: PgnFormat,
}

/// Options of `pgnkit select`, `dedupe` and `classify`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// The query: which games to write (all when absent). See docs/select.md.
    #[arg(long = "where", value_name = "EXPR")]
    pub query: Option<String>,
    /// Write to this file instead of standard output (compressed by its
    /// extension: .zst, .gz, .bz2, .xz).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Keep what -o OUT holds and write after it (put in place when the run
    /// completes, as any output; pgn-extract -a).
    #[arg(long, requires = "output", conflicts_with_all = ["split_every", "split_by"])]
    pub append: bool,
    /// Write the games that do not match the query here.
    #[arg(long, value_name = "FILE")]
    pub rejected: Option<PathBuf>,
    /// Which of the selected games are written (--skip, --first).
    #[command(flatten)]
    pub window: WindowArgs,
    /// Write only the matched games with these numbers (from 1): N or N:M,
    /// comma-separated, ascending, `1:10,15`; reading stops after the last
    /// (pgn-extract --selectonly). Counted after --dedupe, before --skip.
    #[arg(long, value_name = "RANGES", value_parser = match_numbers, conflicts_with = "skip_matching")]
    pub select_only: Option<MatchNumbers>,
    /// Leave out the matched games with these numbers (from 1): N or N:M,
    /// comma-separated, ascending (pgn-extract --skipmatching).
    #[arg(long, value_name = "RANGES", value_parser = match_numbers)]
    pub skip_matching: Option<MatchNumbers>,
    /// A game with errors goes on as read (what the reader recovered): it is
    /// written when it matches; its errors are still reported and counted
    /// (pgn-extract --keepbroken).
    #[arg(long)]
    pub keep_broken: bool,
    /// Leave out duplicates (same start position and main-line moves) of earlier games.
    #[arg(long)]
    pub dedupe: bool,
    /// Write the duplicates here, each after a comment naming the game kept (implies --dedupe).
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<PathBuf>,
    /// Put a comment TEXT at the ply where the query's `reaches` or
    /// `material` first holds (pgn-extract --markmatches).
    #[arg(long, value_name = "TEXT", requires = "query")]
    pub mark_matches: Option<String>,
    /// Games of FILE count as kept before the inputs' first: a game that
    /// duplicates one of them is a duplicate (pgn-extract -c; implies --dedupe).
    #[arg(long, value_name = "FILE")]
    pub check_file: Option<PathBuf>,
    /// Write only the games that occur more than once, each once, when its
    /// first duplicate is read (pgn-extract -U; implies --dedupe).
    #[arg(long)]
    pub repeated: bool,
    /// Duplicates are games whose board is the same after N plies (0: at the
    /// end), as pgn-extract's --fuzzydepth (implies --dedupe).
    #[arg(long, value_name = "N")]
    pub fuzzy_ply: Option<usize>,
    /// Add or replace ECO and Opening from the opening table; `eco` in the
    /// query is then the classified code.
    #[arg(long)]
    pub classify: bool,
    /// Another opening table (TSV: eco, name, pgn; implies --classify).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Correct a Result that the final position contradicts (checkmate, stalemate), with a warning.
    #[arg(long)]
    pub fix_result: bool,
    /// Add (or correct) a PlyCount tag: the plies of the main line.
    #[arg(long)]
    pub add_ply_count: bool,
    /// Add (or correct) a FinalFEN tag: the FEN of the main line's last position.
    #[arg(long)]
    pub add_final_fen: bool,
    /// Remove these tags (comma-separated names).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub drop_tags: Vec<String>,
    /// Write OUT-0001.EXT, OUT-0002.EXT... with N games each (needs -o; PGN or a table).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub split_every: Option<u64>,
    /// Write one file per value of this tag, OUT-VALUE.EXT (needs -o; names made safe).
    #[arg(long, value_name = "TAG", conflicts_with = "split_every")]
    pub split_by: Option<String>,
    /// With --split-by: the most files written (and open) at once; more values is an error.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub max_files: u64,
    /// Compress standard output in this format.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub compress: Option<crate::compress::Codec>,
    /// Compression level (zstd 1-22, default 3; gzip, bzip2 and xz 1-9, default 6).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=22))]
    pub level: Option<u32>,
    /// How the games are written.
    #[command(flatten)]
    pub pgn: PgnFormat,
    /// What is done to each game before it is written.
    #[command(flatten)]
    pub transforms: TransformArgs,
    /// Write a games table (as `convert`) in this format; without it, -o's
    /// extension decides (.parquet, .arrow, .arrows, .csv, .ndjson), else PGN.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// How a Parquet games table is compressed, as `convert --compression`: zstd (level 1,
    /// the default), zstd:LEVEL (1 to 22), lz4, snappy or none. Parquet tables only (PGN
    /// output: --compress).
    #[arg(long, value_name = "CODEC[:LEVEL]")]
    pub compression: Option<pgnkit_arrow::ParquetCompression>,
}

/// Options of `pgnkit ranges`.
#[derive(Debug, Args)]
pub struct RangesArgs {
    /// The file to cut.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// How many ranges (fewer when a `.zst` file has fewer frames).
    #[arg(short = 'n', value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub n: u32,
    /// Write to this file instead of standard output (it appears whole or not at all).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// A byte range `START..END` of `--range`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteRange {
    /// First byte.
    pub start: u64,
    /// The byte after the last.
    pub end: u64,
}

/// Parses `START..END`.
fn byte_range(text: &str) -> Result<ByteRange, String> {
    let (start, end) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not START..END"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|e| format!("`{s}` in `{text}`: {e}"))
    };
    let (start, end) = (number(start)?, number(end)?);
    if start > end {
        return Err(format!("`{text}`: START is after END"));
    }
    Ok(ByteRange { start, end })
}

/// The reading rules, shared by every command that reads games (mapped
/// to pgnkit-game's `ReadOptions` once, in `options::read_options`).
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct ReadFlags {
    /// Report every lenient form (`0-0`, `Ng1f3`, `e8Q`, `--`, ...) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Read nested brace comments, `{ a { b } c }`, as one comment
    /// (pgn-extract's --nestedcomments; by the standard the first `}` ends a
    /// comment). PGN output then writes a comment holding a brace as a `;`
    /// comment, which reads back the same with or without this flag.
    #[arg(long)]
    pub nested_comments: bool,
    /// Repair a tag value without its closing quote whose line ends with `]`:
    /// `[Site "Paris]` is read as `Paris`, with a warning (pgn-extract's
    /// --fixtagstrings); without the flag it is an error.
    #[arg(long)]
    pub fix_tag_strings: bool,
}

/// Where games come from, and how to read them.
#[derive(Debug, Clone, Args)]
pub struct Inputs {
    /// PGN files to read, in order; `-` (or no file) reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// How games are read.
    #[command(flatten)]
    pub read: ReadFlags,
    /// Worker threads for reading and writing games (output keeps input
    /// order) [default: one per CPU; at most 1024].
    #[arg(long, value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Read only the games whose first byte lies in this byte range of the
    /// one FILE (compressed bytes of a pzstd-layout `.zst`, snapped to its
    /// frames); see `pgnkit ranges`. Lines in messages count from the
    /// range's first game.
    #[arg(long, value_name = "START..END", value_parser = byte_range)]
    pub range: Option<ByteRange>,
    /// A game (or a run of bytes with no game boundary) longer than this is
    /// reported as one error and skipped without being held in memory
    /// (sizes: K, M, G, with or without B or iB, are all powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = size)]
    pub max_game_bytes: u64,
    /// The most memory a compressed input's window may take (a zstd window,
    /// an xz dictionary); a file that needs more is refused, naming what it
    /// needs (`zstd --long=31` writes 2 GiB windows: --max-window 2GiB).
    #[arg(long, value_name = "SIZE", default_value = "128MiB", value_parser = size)]
    pub max_window: u64,
    /// Warnings on standard error: the first 5 of each kind, then a count
    /// per kind at the end (summary), every one (all), or none (the summary
    /// line counts them all the same). `check` writes every diagnostic: they
    /// are its output.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = WarningsArg::Summary)]
    pub warnings: WarningsArg,
}

/// The choices of `--warnings`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WarningsArg {
    /// Every warning.
    All,
    /// The first 5 of each kind, then a count per kind.
    Summary,
    /// No warning lines.
    None,
}

/// A size such as `123`, `64K`, `16MiB` or `2GiB`, by pgnkit-input's rule (binary multiples).
fn size(text: &str) -> Result<u64, String> {
    pgnkit::input::parse_size(text).map_err(|e| e.to_string())
}

/// A `--threads` count, checked by the library's rule
/// ([`pgnkit::game::check_threads`]: from 1 to `MAX_THREADS`).
fn thread_count(text: &str) -> Result<usize, String> {
    let threads = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    pgnkit::game::check_threads(threads)
}

impl Inputs {
    /// The worker threads to use: `--threads`, else one per CPU.
    pub fn threads(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
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
    /// Keep what -o OUT holds and write after it (put in place when the run
    /// completes, as any output; pgn-extract -a).
    #[arg(long, requires = "output")]
    pub append: bool,
    /// Write the original text of every game with errors to this file, verbatim.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Compress standard output in this format (files named with `-o` and
    /// `--rejects` are compressed by their extension: .zst, .gz, .bz2, .xz).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub compress: Option<crate::compress::Codec>,
    /// Compression level (zstd 1-22, default 3; gzip, bzip2 and xz 1-9, default 6).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=22))]
    pub level: Option<u32>,
    /// How the games are written.
    #[command(flatten)]
    pub format: PgnFormat,
    /// What is done to each game before it is written.
    #[command(flatten)]
    pub transforms: TransformArgs,
}

/// How `export` and `select` write games: the export format and the options
/// that leave parts out.
#[derive(Debug, Args)]
pub struct PgnFormat {
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
    /// Move notation: san (standard), lan (`Ng1-f3`), uci (`g1f3`), fan
    /// (`♘f3`); pgn-extract's -W forms lalg (`g1f3`), halg (`g1-f3`), elalg
    /// (`Ng1f3`), xlalg (`Ng1-f3`, `e5xd6ep`), xolalg (xlalg with `O-O`);
    /// other piece letters (PNBRQK) after san, elalg, xlalg, xolalg:
    /// `sanBSLTDK` for German.
    #[arg(long, value_name = "NOTATION", default_value = "san", value_parser = notation)]
    pub notation: Notation,
    /// Leave out move numbers (pgn-extract --nomovenumbers).
    #[arg(long)]
    pub no_move_numbers: bool,
    /// Leave out the result after the moves; the Result tag stays (pgn-extract --noresults).
    #[arg(long)]
    pub no_results: bool,
    /// Leave out the tag section: the moves alone (pgn-extract --notags).
    #[arg(long)]
    pub no_tags: bool,
    /// Leave out the check and mate signs `+` and `#` (pgn-extract --nochecks).
    #[arg(long)]
    pub no_checks: bool,
    /// Only the Seven Tag Roster, plus FEN, SetUp and Variant when needed to
    /// replay (pgn-extract -7); comments, NAGs and variations stay.
    #[arg(long)]
    pub seven_tags: bool,
    /// Write each comment on lines of its own (pgn-extract --commentlines).
    #[arg(long)]
    pub comment_lines: bool,
    /// Write the tags named in FILE (one name a line) first, in that order,
    /// then the others in export order (pgn-extract -R).
    #[arg(long, value_name = "FILE")]
    pub tag_order: Option<PathBuf>,
    /// With --tag-order: only the tags named (and FEN, SetUp, Variant when
    /// needed to replay), as pgn-extract's --xroster.
    #[arg(long, requires = "tag_order")]
    pub only_listed_tags: bool,
}

/// The game transforms of `export`, `select`, `dedupe` and `classify`
/// (pgn-extract's), applied to each game written, after the query and the
/// duplicate check (which see the game as read).
#[derive(Debug, Args)]
pub struct TransformArgs {
    /// Keep the first N plies of each game (variations too); the result
    /// becomes `*` when moves were cut (pgn-extract --plylimit).
    #[arg(long, value_name = "N")]
    pub truncate_plies: Option<usize>,
    /// Drop the first N plies of the main line: the game starts from a FEN
    /// (SetUp and FEN tags). A game with fewer plies is written unchanged and
    /// counted (pgn-extract --dropply).
    #[arg(long, value_name = "N")]
    pub drop_plies: Option<usize>,
    /// Add a TotalPlyCount tag: the plies of the game as read, variations
    /// included (pgn-extract --totalplycount).
    #[arg(long)]
    pub total_ply_count: bool,
    /// A comment with the FEN after each move (pgn-extract --fencomments).
    #[arg(long)]
    pub fen_comments: bool,
    /// A comment with the position's Polyglot key after each move, in
    /// hexadecimal (pgn-extract --hashcomments; `hash 0x...` finds it again).
    #[arg(long)]
    pub hash_comments: bool,
    /// Add a HashCode tag: the Polyglot key of the main line's last position
    /// (pgn-extract --addhashcode writes a hash of its own instead).
    #[arg(long)]
    pub add_hash_code: bool,
    /// Write each line as a game of its own: the main line, then each
    /// variation nested at most DEPTH deep (all without DEPTH), from the
    /// game's start through the variation, result `*` (pgn-extract
    /// --splitvariants). DEPTH is given with `=`: `--split-variations=1`.
    #[arg(long, value_name = "DEPTH", num_args = 0..=1, require_equals = true)]
    pub split_variations: Option<Option<usize>>,
    /// Move a comment that stands before a variation's first move to after
    /// that move, as Lichess studies need (pgn-extract --lichesscommentfix).
    #[arg(long)]
    pub lichess_comment_fix: bool,
    /// Stop reading after N games are written (pgn-extract --stopafter).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub stop_after: Option<u64>,
}

/// A `--select-only`/`--skip-matching` list, read by the library's rule.
fn match_numbers(text: &str) -> Result<MatchNumbers, String> {
    text.parse()
        .map_err(|e: pgnkit::select::MatchNumbersError| e.to_string())
}

/// A `--notation` value, read by the writer's own rule.
fn notation(text: &str) -> Result<Notation, String> {
    text.parse()
        .map_err(|e: pgnkit::export::NotationError| e.to_string())
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
    /// Report each game that is not byte for byte export format
    /// (SPEC-NOTES "Writing") instead: `file:line:column: export format:
    /// RULE: expected ..., found ...` at its first difference from pgnkit's
    /// export, per rule broken. Exit status 1 when any game differs (or does
    /// not read).
    #[arg(long)]
    pub export_format: bool,
    /// With --export-format: a unified diff of each differing game against
    /// pgnkit's export of it.
    #[arg(long, requires = "export_format")]
    pub diff: bool,
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
    /// Write each position's Polyglot key (16 hex digits, as opening books
    /// and python-chess compute it) instead of its FEN.
    #[arg(long, conflicts_with = "epd")]
    pub polyglot: bool,
}

/// Options of `pgnkit convert`.
#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// Input files and reading options.
    #[command(flatten)]
    pub inputs: Inputs,
    /// The games table; `-` is standard output (stream formats only:
    /// arrows, csv, ndjson).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Also write the moves table (one row per main-line move) here.
    #[arg(long, value_name = "MOVES_OUT")]
    pub moves: Option<PathBuf>,
    /// Also write the positions table here: one row per main-line position, the start
    /// included (game_id, ply, Polyglot key, side to move, the move played from it as
    /// UCI, material; with --fen an epd column).
    #[arg(long, value_name = "POSITIONS_OUT")]
    pub positions: Option<PathBuf>,
    /// The format of both tables, instead of the extensions'.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// How the Parquet tables are compressed: zstd (level 1, the default), zstd:LEVEL
    /// (1 to 22), lz4 (Parquet's LZ4_RAW), snappy or none. Parquet outputs only.
    #[arg(long, value_name = "CODEC[:LEVEL]")]
    pub compression: Option<pgnkit_arrow::ParquetCompression>,
    /// A `fen` column in the moves table (the position after each move), an `epd` column
    /// in the positions table.
    #[arg(long)]
    pub fen: bool,
    /// Write games with errors too (what was read before each error), with
    /// an `errors` column.
    #[arg(long)]
    pub keep_broken: bool,
    /// Write the original text of every game with errors to this file, verbatim.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Set the ECO and Opening columns from the opening table (as `pgnkit classify`).
    #[arg(long)]
    pub classify: bool,
    /// Another opening table (TSV: eco, name, pgn; implies --classify).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Write OUT-0001.EXT, OUT-0002.EXT... (and MOVES_OUT's and POSITIONS_OUT's parts alike), part k holding
    /// the games read (k-1)*N to k*N-1 (needs files, not standard output).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub split_every: Option<u64>,
}

/// The formats `convert` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Apache Parquet (zstd level 1 unless convert's --compression says).
    Parquet,
    /// Arrow IPC file format.
    Arrow,
    /// Arrow IPC stream format.
    Arrows,
    /// CSV (nested columns as JSON text).
    Csv,
    /// One JSON object per line.
    Ndjson,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_from_one_to_the_librarys_limit() {
        assert_eq!(thread_count("1"), Ok(1));
        assert_eq!(thread_count("1024"), Ok(pgnkit::game::MAX_THREADS));
        for bad in ["0", "1025", "1000000"] {
            let message = thread_count(bad).unwrap_err();
            assert!(message.contains("from 1 to 1024"), "{message}");
        }
        assert!(thread_count("many").unwrap_err().contains("not a number"));
    }
}
