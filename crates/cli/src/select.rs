//! `pgnkit select`, `dedupe` and `classify`: one job over `pgnkit-select`.
//!
//! Workers build each game (`TreeBuilder`), classify it, fix its tags,
//! evaluate the query, compute its duplicate key and write its export text.
//! The main thread gets the results in input order and decides what is
//! kept: duplicates (the set of keys lives here, so "first" is the input
//! order), `--skip` and `--first`, and where each game goes ([`Split`]).

use std::borrow::Cow;

use pgnkit::export::{ExportOptions, GameWriter, PositionComments, StreamWriter};
use pgnkit::game::{
    DiagnosticKind, Diagnostics, GameStart, ReadOptions, TagsOnly, TreeBuilder, Validate,
};
use pgnkit::select::{
    Context, DropPlies, Dropped, GameKey, Lines, MainLine, MatchFilter, Moves, Openings, Place,
    Query, Recorder, Seen, SplitLines, Transforms, add_final_fen, add_ply_count, drop_tags,
    fix_result, mark_plies,
};
use pgnkit_arrow::{Format, WriterOptions};

use crate::args::SelectArgs;
use crate::failure::Failure;
use crate::options::{self, read_options};
use crate::outcome::{Outcome, finish};
use crate::output::Output;
use crate::paths::check_plan;
use crate::pipeline::{self, Game, Job};
use crate::select_check::{Dedupe, Keys, read_check_file, with_comment};
use crate::select_table::{TableOut, format_of};
use crate::split::{Outputs, Part, PartFormat, Selected, Split};
use crate::tally::Tally;
use crate::{console, render};

/// Which command runs (each is `select` with one option on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `pgnkit select`.
    Select,
    /// `pgnkit dedupe`: `--dedupe` on.
    Dedupe,
    /// `pgnkit classify`: `--classify` on.
    Classify,
}

struct SelectJob<'a> {
    read: ReadOptions,
    query: Option<Query>,
    openings: Option<Cow<'a, Openings>>,
    keys: Keys,
    fix_result: bool,
    ply_count: bool,
    final_fen: bool,
    drop: Vec<String>,
    split_by: Option<String>,
    export: ExportOptions,
    /// `--mark-matches`: the comment put where the query's position
    /// predicates first hold.
    mark: Option<String>,
    /// The game transforms, applied to each selected game before it is
    /// written (after the query and the duplicate key, which see it as read).
    transforms: Transforms,
    /// The transforms when they are FEN or key comments alone
    /// ([`Transforms::only_position_comments`]): the streaming writer
    /// writes them (on the `stream` and `record` paths; a tree gets
    /// `transforms`).
    position_comments: PositionComments,
    /// Whether games that do not match need their text (`--rejected`).
    text_of_rejected: bool,
    /// Selected games become rows of a games table.
    table: bool,
    /// The query reads tags only and nothing changes them before it: a game is read
    /// past its tags only when they match.
    tags_first: bool,
    /// Nothing needs a game's tree (no fixes, fuzzy keys or rows; a query on
    /// tags alone, or none when classifying): a selected game is written by
    /// the streaming writer as `export` writes it, its key and opening taken
    /// from the main line's moves, with no tree.
    stream: bool,
    /// Nothing needs a game's tree and the query reads its tags and main
    /// line alone ([`Query::reads_record`]): each game is decided by a
    /// [`Recorder`], with no tree, and written by the streaming writer (as
    /// `stream`); see [`Recorders`].
    record: bool,
    /// With `stream`: the only transform, done while the game is read
    /// ([`Streamed`]); a game it cannot apply to goes the tree's way.
    transform_stream: Option<Streaming>,
    /// `--keep-broken`: a game with errors goes on as read (what the reader
    /// recovered): matched, transformed and written; its errors are still
    /// reported.
    keep_broken: bool,
}

/// A transform done while streaming (see [`Streamed`]).
#[derive(Debug, Clone, Copy)]
enum Streaming {
    /// Dropping this many plies ([`Transforms::streamed_drop`]).
    Drop(usize),
    /// Splitting into lines ([`Transforms::streamed_split`]).
    Split,
}

/// The streaming writers of the transforms done while streaming.
enum Streamed {
    /// The plies dropped as the game is read.
    Drop(Box<MainLine<DropPlies<StreamWriter>>>),
    /// A game without variations written as read.
    Split(Box<MainLine<SplitLines<StreamWriter>>>),
}

/// The kind of `--fix-result`'s warnings (see [`crate::warnings`]).
const RESULT_CORRECTED: &str = "Result corrected: the main line ends in checkmate or stalemate";

/// The readers of the `record` path. While fewer than a third of the games
/// so far were selected, a game is checked and recorded alone and read
/// again by the streaming writer when selected; past that, each game is
/// recorded while the writer writes it (one reading, the writing wasted on
/// a game left out). Either way the same games are written, the same.
struct Recorders {
    /// Checks and records a game, reading tag values and comments only when
    /// the query reads them (one of the two).
    text: Option<Recorder<Validate>>,
    plain: Option<Recorder<Validate, false>>,
    /// Records a game while writing it.
    writing: Recorder<StreamWriter>,
    /// The games this worker decided, and those it selected.
    seen: u64,
    selected: u64,
}

/// What the main thread needs of one game.
#[derive(Default)]
struct Verdict {
    diagnostics: Diagnostics,
    selected: bool,
    key: Option<GameKey>,
    classified: bool,
    results_fixed: u64,
    ply_counts: bool,
    final_fens: bool,
    dropped: u64,
    split_value: Option<String>,
    /// The games-table row (with `--format` or a table's extension).
    record: Option<pgnkit_arrow::GameRecord>,
    /// Warnings of the fixes (`Result` corrected).
    warnings: Vec<String>,
    /// The games the text holds once transformed (more than one when split).
    games: u64,
    /// Of those, the games a transform could not apply to (written unchanged).
    unchanged: u64,
}

impl Job for SelectJob<'_> {
    type State = (
        TreeBuilder,
        GameWriter,
        MainLine<StreamWriter>,
        pgnkit::Game,
        bool,
        Option<Box<Recorders>>,
        Option<Streamed>,
    );
    type Output = Verdict;

    fn state(&self) -> Self::State {
        (
            TreeBuilder::new(),
            GameWriter::new(self.export.clone()),
            MainLine::new(self.stream_writer()),
            pgnkit::Game::new(),
            false,
            self.query.as_ref().filter(|_| self.record).map(|query| {
                let plain = query.recorder_without_text(Validate);
                Box::new(Recorders {
                    text: plain.is_none().then(|| query.recorder(Validate)),
                    plain,
                    writing: query.recorder(self.stream_writer()),
                    seen: 0,
                    selected: 0,
                })
            }),
            self.transform_stream.map(|streaming| {
                let writer = StreamWriter::new(self.export.clone());
                match streaming {
                    Streaming::Drop(plies) => {
                        Streamed::Drop(Box::new(MainLine::new(DropPlies::new(plies, writer))))
                    }
                    Streaming::Split => {
                        Streamed::Split(Box::new(MainLine::new(SplitLines::new(writer))))
                    }
                }
            }),
        )
    }

    const BEFORE_LEXING: bool = true;

    /// A game whose tags do not match a tags-only query is decided here,
    /// before its bytes are lexed, when its tag section reads cleanly (the
    /// reader would report nothing on it); any other game goes to `run`,
    /// which decides it the same way (its tag section read from the tokens).
    /// A game whose tags matched here is marked in the state (its tags kept
    /// there): `run`, which the batch calls next for that game on this
    /// state, then does not read them again.
    fn before_lexing(&self, state: &mut Self::State, game: GameStart<'_>) -> Option<Verdict> {
        state.4 = false;
        let query = self.query.as_ref().filter(|_| self.tags_first)?;
        // A game holding the tags alone, kept from game to game.
        let probe = &mut state.3;
        pgnkit::game::clean_tags_with(game, probe.tags_mut(), self.read.lex_options())?;
        if query.matches(probe, &Context::default()) {
            state.4 = true;
            return None;
        }
        Some(Verdict::default())
    }

    fn run(&self, state: &mut Self::State, game: Game<'_, '_>, text: &mut Vec<u8>) -> Verdict {
        let (builder, writer, stream, checked, matched, recorder, transforming) = state;
        // Whether `before_lexing` read this game's tags and they matched.
        let matched = std::mem::take(matched);
        let mut probe = None;
        if self.tags_first
            && !matched
            && let Some(query) = &self.query
        {
            let (tags, diagnostics) = game.visit(&mut TagsOnly::default(), self.read);
            let mut tagged = pgnkit::Game::new();
            *tagged.tags_mut() = tags;
            if !query.matches(&tagged, &Context::default()) {
                return Verdict {
                    diagnostics,
                    ..Verdict::default()
                };
            }
            probe = Some(tagged);
        }
        if let (Some(recorders), Some(query)) = (recorder, &self.query) {
            return self.recorded(recorders, stream, query, game, text);
        }
        if self.stream {
            let probe = if matched {
                Some(&*checked)
            } else {
                probe.as_ref()
            };
            match transforming.as_mut() {
                None => return self.streamed(stream, game, probe, text),
                Some(Streamed::Drop(dropping)) => {
                    let (((_, dropped), moves), diagnostics) =
                        game.visit(&mut **dropping, self.read);
                    match dropped {
                        Dropped::Done => {
                            let writer = dropping.inner_mut().inner_mut();
                            return self.written(writer, &moves, diagnostics, game, probe, text);
                        }
                        // Written as read, as `Transforms::apply` leaves it.
                        Dropped::TooShort => {
                            let mut v = self.streamed(stream, game, probe, text);
                            v.unchanged = u64::from(v.selected);
                            return v;
                        }
                        // The tree's way, below.
                        Dropped::Tree => {}
                    }
                }
                Some(Streamed::Split(lines)) => {
                    let (((_, split), moves), diagnostics) = game.visit(&mut **lines, self.read);
                    if split == Lines::One {
                        let writer = lines.inner_mut().inner_mut();
                        return self.written(writer, &moves, diagnostics, game, probe, text);
                    }
                    // Lines of the tree, below.
                }
            }
        }
        let (mut game, diagnostics) = game.visit(builder, self.read);
        let mut v = Verdict {
            diagnostics,
            ..Verdict::default()
        };
        if v.diagnostics.has_errors() && !self.keep_broken {
            return v;
        }
        let mut eco = None;
        if let Some(table) = &self.openings
            && let Some(found) = table.classify(&game)
        {
            let (code, name) = (found.opening.eco.clone(), found.opening.name.clone());
            game.tags_mut().insert("ECO", &code);
            game.tags_mut().insert("Opening", &name);
            v.classified = true;
            eco = Some(code);
        }
        if self.fix_result {
            let mismatch = v
                .diagnostics
                .iter()
                .any(|d| matches!(d.kind, DiagnosticKind::ResultMismatch { .. }));
            v.results_fixed += u64::from(mismatch);
            if let Some((was, now)) = fix_result(&mut game) {
                v.results_fixed += 1;
                v.warnings.push(format!(
                    "Result {} corrected to {}: the main line ends in {}",
                    was.as_str(),
                    now.as_str(),
                    if now == pgnkit::game::Termination::Draw {
                        "stalemate"
                    } else {
                        "checkmate"
                    }
                ));
            }
        }
        if self.ply_count {
            v.ply_counts = add_ply_count(&mut game);
        }
        if self.final_fen {
            v.final_fens = add_final_fen(&mut game);
        }
        if !self.drop.is_empty() {
            v.dropped = drop_tags(&mut game, &self.drop) as u64;
        }
        let context = Context {
            eco: eco.as_deref(),
        };
        v.selected = self
            .query
            .as_ref()
            .is_none_or(|q| q.matches(&game, &context));
        if v.selected {
            v.key = match self.keys {
                Keys::None => None,
                Keys::Exact => Some(GameKey::of(&game)),
                Keys::Fuzzy(ply) => Some(GameKey::at_ply(&game, ply)),
            };
            if let Some(tag) = &self.split_by {
                v.split_value = game.tags().get(tag).map(str::to_string);
            }
        }
        if v.selected
            && let (Some(text), Some(query)) = (&self.mark, &self.query)
            && let Some(ply) = query.first_match(&game, &context)
        {
            mark_plies(&mut game, &[ply], text);
        }
        let transformed;
        let games = if v.selected && !self.transforms.is_empty() {
            transformed = self
                .transforms
                .apply(std::mem::replace(&mut game, pgnkit::Game::new()));
            v.unchanged = transformed.too_short as u64;
            transformed.games.as_slice()
        } else {
            std::slice::from_ref(&game)
        };
        v.games = games.len() as u64;
        if v.selected || self.text_of_rejected {
            for game in games {
                // Writing to a Vec cannot fail.
                let _ = writer.write(game, text);
            }
        }
        if v.selected
            && self.table
            && let Some(game) = games.first()
        {
            let mut record = pgnkit_arrow::GameRecord::from_game(game, Default::default());
            // The writer just wrote the game: its movetext, after the tag section.
            record.set_movetext(writer.movetext());
            v.record = Some(record);
        }
        v
    }
}

impl SelectJob<'_> {
    /// A streaming writer with the job's options.
    fn stream_writer(&self) -> StreamWriter {
        StreamWriter::new(self.export.clone()).with_position_comments(self.position_comments)
    }

    /// A game decided by its record (the `record` path, see [`Recorders`]).
    fn recorded(
        &self,
        r: &mut Recorders,
        stream: &mut MainLine<StreamWriter>,
        query: &Query,
        game: Game<'_, '_>,
        text: &mut Vec<u8>,
    ) -> Verdict {
        let context = Context::default();
        r.seen += 1;
        if r.selected * 3 > r.seen {
            let ((_, record), diagnostics) = game.visit(&mut r.writing, self.read);
            if diagnostics.has_errors() || !query.matches_record(&record, &context) {
                return Verdict {
                    diagnostics,
                    ..Verdict::default()
                };
            }
            r.selected += 1;
            let writer = r.writing.inner_mut();
            return self.written(writer, record.moves(), diagnostics, game, None, text);
        }
        let ((_, record), diagnostics) = match (&mut r.text, &mut r.plain) {
            (Some(recorder), _) => game.visit(recorder, self.read),
            (None, Some(recorder)) => game.visit(recorder, self.read),
            (None, None) => game.visit(&mut r.writing, self.read),
        };
        if diagnostics.has_errors() || !query.matches_record(&record, &context) {
            return Verdict {
                diagnostics,
                ..Verdict::default()
            };
        }
        r.selected += 1;
        self.streamed(stream, game, None, text)
    }

    /// A game the query selected (or every game, with no query) written by the
    /// streaming writer, in one reading: `probe` holds its tags when the query
    /// read them first. With classification, the opening is found from the
    /// main line's moves once the game is read, and `ECO` and `Opening` are
    /// then set by the writer
    /// ([`StreamWriter::set_tags`](pgnkit::export::StreamWriter::set_tags)).
    fn streamed(
        &self,
        stream: &mut MainLine<StreamWriter>,
        game: Game<'_, '_>,
        probe: Option<&pgnkit::Game>,
        text: &mut Vec<u8>,
    ) -> Verdict {
        let ((_, moves), diagnostics) = game.visit(&mut *stream, self.read);
        self.written(stream.inner_mut(), &moves, diagnostics, game, probe, text)
    }

    /// The verdict on a selected game that `writer` has just written, its
    /// main line `moves` (see [`SelectJob::streamed`]).
    fn written(
        &self,
        writer: &mut StreamWriter,
        moves: &Moves,
        diagnostics: Diagnostics,
        game: Game<'_, '_>,
        probe: Option<&pgnkit::Game>,
        text: &mut Vec<u8>,
    ) -> Verdict {
        let mut v = Verdict {
            diagnostics,
            ..Verdict::default()
        };
        if v.diagnostics.has_errors() {
            return v;
        }
        let found = self
            .openings
            .as_ref()
            .and_then(|table| moves.classify(table));
        v.selected = true;
        v.games = 1;
        v.classified = found.is_some();
        if let Keys::Exact = self.keys {
            v.key = Some(moves.key());
        }
        if let Some(tag) = &self.split_by {
            v.split_value = match (&found, tag.as_str(), probe) {
                (Some(found), "ECO", _) => Some(found.opening.eco.clone()),
                (Some(found), "Opening", _) => Some(found.opening.name.clone()),
                (_, _, Some(probe)) => probe.tags().get(tag).map(str::to_string),
                (_, _, None) => {
                    let (tags, _) = game.visit(&mut TagsOnly::default(), self.read);
                    tags.get(tag).map(str::to_string)
                }
            };
        }
        if let Some(found) = &found
            && !self.export.reduced_tags
        {
            let opening = &found.opening;
            let tags = [
                ("ECO", opening.eco.as_str()),
                ("Opening", opening.name.as_str()),
            ];
            writer.set_tags(tags);
        }
        if text.is_empty() {
            *text = writer.take_game_text(std::mem::take(text));
        } else {
            text.extend_from_slice(writer.game_text());
        }
        v
    }
}

/// `n thing`/`n things`, for the summary line's counts.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Runs `pgnkit select` (or `dedupe`, `classify`).
pub fn run(args: &SelectArgs, mode: Mode) -> Result<Outcome, Failure> {
    // Everything that can be wrong with the command line is found before any input is read.
    let query = options::query(args.query.as_deref())?;
    let classify = mode == Mode::Classify || args.classify || args.openings.is_some();
    let openings = options::openings(classify, args.openings.as_deref())?;
    let dedupe = mode == Mode::Dedupe
        || args.dedupe
        || args.check_file.is_some()
        || args.repeated
        || args.duplicates.is_some()
        || args.fuzzy_ply.is_some();
    let keys = match (dedupe, args.fuzzy_ply) {
        (false, _) => Keys::None,
        (true, Some(ply)) => Keys::Fuzzy(ply),
        (true, None) => Keys::Exact,
    };
    let table_format = format_of(args.output.as_deref(), args.format);
    let export = options::export_options(&args.pgn, &args.inputs)?;
    // `--compression` is a Parquet table's codec; PGN output is compressed by
    // `--compress` or its name, and the other table formats have no codec.
    let writing = match args.compression {
        Some(compression) if table_format != Some(Format::Parquet) => {
            return Err(Failure::usage(format!(
                "--compression {compression} is for a Parquet games table (-o NAME.parquet or \
                 --format parquet); PGN output is compressed by --compress or -o's extension"
            )));
        }
        Some(compression) => WriterOptions { compression },
        None => WriterOptions::default(),
    };
    if table_format.is_some() && args.append {
        return Err(Failure::usage(
            "--append adds to a PGN file: a games table cannot be appended to",
        ));
    }
    if table_format.is_some() && args.transforms.split_variations.is_some() {
        return Err(Failure::usage(
            "--split-variations makes several games of one: it writes PGN, not a games table",
        ));
    }
    check_plan(
        &args.inputs,
        &[
            ("-o", &args.output),
            ("--rejected", &args.rejected),
            ("--duplicates", &args.duplicates),
        ],
        args.output.is_none(),
    )?;
    let job = SelectJob {
        read: read_options(&args.inputs),
        query,
        openings,
        keys,
        fix_result: args.fix_result,
        ply_count: args.add_ply_count,
        final_fen: args.add_final_fen,
        drop: args.drop_tags.clone(),
        split_by: args.split_by.clone(),
        mark: args.mark_matches.clone(),
        transforms: options::transforms(&args.transforms, &export),
        position_comments: PositionComments::default(),
        export,
        text_of_rejected: args.rejected.is_some(),
        table: table_format.is_some(),
        tags_first: false,
        stream: false,
        record: false,
        transform_stream: None,
        keep_broken: args.keep_broken,
    };
    let tags_only = job.query.as_ref().is_some_and(Query::reads_tags_only);
    // FEN and key comments alone are written by the streaming writer, but
    // not after a tags-first reading (which reads no movetext of a game whose
    // tags do not match, so reports none of its errors): the games read and
    // reported stay those of the tree path.
    let comments_streamed = job.transforms.only_position_comments() && !tags_only;
    // A game with errors is decided on the tree the reader recovered, with
    // `--keep-broken`: neither the tags-first nor the streaming path.
    let plain = !job.keep_broken
        && !job.fix_result
        && !job.ply_count
        && !job.final_fen
        && job.drop.is_empty()
        && job.mark.is_none()
        && !job.text_of_rejected;
    let unfixed = plain && (job.transforms.is_empty() || comments_streamed);
    let recorded = job.query.as_ref().is_some_and(Query::reads_record);
    let whole = !matches!(job.keys, Keys::Fuzzy(_)) && !job.table;
    // Dropping plies or splitting lines, the only transform, is done while
    // streaming each game with no query (nor an opening: the tags it sets
    // after the game is written would not stand where the tree's transform
    // puts them).
    let transform_stream = match job.transforms.streamed_drop() {
        Some(plies) => Some(Streaming::Drop(plies)),
        None => job.transforms.streamed_split().then_some(Streaming::Split),
    }
    .filter(|_| plain && whole && job.query.is_none() && job.openings.is_none());
    let stream = transform_stream.is_some()
        || unfixed
            && if job.openings.is_some() {
                job.query.is_none()
            } else {
                tags_only || job.query.is_none()
            }
            && whole;
    let job = SelectJob {
        position_comments: options::position_comments(&job.transforms),
        tags_first: tags_only && unfixed && job.openings.is_none(),
        record: !tags_only
            && recorded
            && unfixed
            && job.openings.is_none()
            && !matches!(job.keys, Keys::Fuzzy(_))
            && !job.table,
        stream,
        transform_stream,
        ..job
    };
    let format = match table_format {
        Some(format) => PartFormat::Table(format, writing),
        None => PartFormat::Pgn { level: args.level },
    };
    let mut out = Outputs::new(match (&args.output, args.split_every, &args.split_by) {
        (Some(base), Some(every), _) => Split::Every {
            every,
            base: base.clone(),
            format,
            current: None,
            parts: 0,
            done_games: 0,
        },
        (Some(base), None, Some(_)) => Split::By {
            base: base.clone(),
            format,
            files: Default::default(),
            names: Default::default(),
            max: args.max_files,
        },
        (path, None, None) => Split::One(match table_format {
            Some(format) => {
                Part::Table(Box::new(TableOut::open(path.as_deref(), format, writing)?))
            }
            None => Part::Pgn(match path {
                Some(path) if args.append => Output::append(path)?.compressed(None, args.level)?,
                Some(path) => Output::file(path)?.compressed(None, args.level)?,
                None => Output::stdout().compressed(args.compress, args.level)?,
            }),
        }),
        (None, ..) => {
            return Err(Failure::usage(
                "--split-every and --split-by name their files after -o OUT: give -o",
            ));
        }
    });
    let file = |path: &Option<std::path::PathBuf>| -> Result<Option<Output>, Failure> {
        match path {
            Some(p) => Ok(Some(Output::file(p)?.compressed(None, args.level)?)),
            None => Ok(None),
        }
    };
    let mut rejected = file(&args.rejected)?;
    let mut duplicates = file(&args.duplicates)?;
    let mut seen = if args.duplicates.is_some() || args.check_file.is_some() {
        Dedupe::Placed(Seen::with_place())
    } else {
        Dedupe::Keys(Seen::new())
    };
    let mut names: Vec<String> = Vec::new();
    let checked = match &args.check_file {
        Some(path) => Some(read_check_file(
            path,
            &args.inputs,
            job.keys,
            &mut seen,
            &mut names,
        )?),
        None => None,
    };
    // Places before this input index are --check-file's.
    let check_inputs = names.len();
    let mut repeated = Seen::new();
    let mut once = 0u64;
    let (mut not_matching, mut dupes, mut written) = (0, 0, 0u64);
    let mut window = args.window.window();
    let (mut classified, mut fixed, mut ply_counts, mut fens, mut dropped) = (0, 0, 0, 0, 0u64);
    let (mut split, mut unchanged, mut stopped) = (0u64, 0u64, false);
    // --select-only / --skip-matching: the matched games by their number.
    let by_number = match (&args.select_only, &args.skip_matching) {
        (Some(numbers), _) => Some(MatchFilter::Only(numbers.clone())),
        (None, Some(numbers)) => Some(MatchFilter::Skip(numbers.clone())),
        (None, None) => None,
    };
    let (mut matched, mut left_by_number, mut kept_broken) = (0u64, 0u64, 0u64);
    let mut numbers_done = false;
    let mut tally = Tally::with_warnings(options::warnings(&args.inputs));
    let ended = pipeline::over_inputs(&args.inputs, &job, |name, game, v, text| {
        tally.game(game.bytes.len(), &v.diagnostics);
        if v.diagnostics.has_errors() {
            // With --keep-broken the game goes on: not "rejected".
            let kept = args.keep_broken;
            console::write(&render::errors(name, &game, &v.diagnostics, kept))?;
            if !args.keep_broken {
                return Ok(());
            }
        }
        for warning in &v.warnings {
            let line = || format!("{name}:{}:1: warning: {warning}\n", game.line);
            tally.warn(RESULT_CORRECTED, line)?;
        }
        classified += u64::from(v.classified);
        fixed += v.results_fixed;
        ply_counts += u64::from(v.ply_counts);
        fens += u64::from(v.final_fens);
        dropped += v.dropped;
        if !v.selected {
            not_matching += 1;
            return match &mut rejected {
                Some(file) => file.write_game(text),
                None => Ok(()),
            };
        }
        if let Some(key) = v.key {
            if names.last().map(String::as_str) != Some(name) {
                names.push(name.to_string());
            }
            let input = u32::try_from(names.len() - 1).unwrap_or(u32::MAX);
            let kept = match &mut seen {
                Dedupe::Keys(set) => set.first(key, ()).map(|_| None),
                Dedupe::Placed(set) => set.first(key, (input, game.line)).map(|&p| Some(p)),
            };
            match kept {
                Some(place) => {
                    dupes += 1;
                    if let (Some(file), Some((input, line))) = (&mut duplicates, place) {
                        let kept_in = names.get(input as usize).map_or("?", String::as_str);
                        file.write_game(&with_comment(text, kept_in, line))?;
                    }
                    // `--repeated` writes the first duplicate of each game.
                    if !args.repeated || repeated.first(key, ()).is_some() {
                        return Ok(());
                    }
                    // The game kept was counted as occurring once, unless
                    // it came from --check-file.
                    if place.is_none_or(|(input, _)| input as usize >= check_inputs) {
                        once = once.saturating_sub(1);
                    }
                }
                None if args.repeated => {
                    once += 1;
                    return Ok(());
                }
                None => {}
            }
        }
        if let Some(filter) = &by_number {
            matched += 1;
            numbers_done = filter.done(matched);
            if !filter.keeps(matched) {
                left_by_number += 1;
                // Past --select-only's last number (its game left out by
                // --skip or --first): nothing more can be written.
                return if numbers_done {
                    Err(pipeline::stop())
                } else {
                    Ok(())
                };
            }
        }
        if window.place() != Place::Kept {
            return Ok(());
        }
        written += 1;
        kept_broken += u64::from(v.diagnostics.has_errors());
        split += v.games;
        unchanged += v.unchanged;
        let game = Selected {
            text,
            source: name,
            record: v.record.as_ref(),
        };
        out.write(&args.inputs, &game, v.split_value.as_deref())?;
        match args.transforms.stop_after {
            Some(n) if written >= n => {
                stopped = true;
                Err(pipeline::stop())
            }
            // --select-only: its last game is written, nothing after it can be.
            _ if numbers_done => Err(pipeline::stop()),
            _ => Ok(()),
        }
    })?;
    let (mut outputs, _) = out.into_outputs(ended.complete())?;
    outputs.extend(rejected);
    outputs.extend(duplicates);
    tally.written = written.min(tally.written + kept_broken);
    let mut extra = Vec::new();
    if job.query.is_some() {
        extra.push(format!("{not_matching} not matching"));
    }
    if dedupe {
        extra.push(count(dupes, "duplicate", "duplicates"));
    }
    if let (Some(path), Some((games, broken))) = (&args.check_file, checked) {
        extra.push(format!(
            "{games} games in --check-file {} ({broken} with errors, not counted)",
            path.display()
        ));
    }
    if args.repeated {
        extra.push(format!("{once} occurring once (--repeated)"));
    }
    if args.select_only.is_some() {
        extra.push(format!(
            "{left_by_number} left out by number (--select-only)"
        ));
    }
    if args.skip_matching.is_some() {
        extra.push(format!(
            "{left_by_number} left out by number (--skip-matching)"
        ));
    }
    if numbers_done {
        extra.push(format!("stopped after match {matched} (--select-only)"));
    }
    if args.keep_broken {
        extra.push(format!("{kept_broken} with errors written (--keep-broken)"));
    }
    if args.window.skip > 0 {
        extra.push(format!("{} skipped (--skip)", window.skipped()));
    }
    if window.after() > 0 {
        extra.push(format!("{} after --first", window.after()));
    }
    if classify {
        extra.push(format!("{classified} classified"));
    }
    if args.fix_result {
        extra.push(count(fixed, "result fixed", "results fixed"));
    }
    if args.add_ply_count {
        extra.push(format!("{ply_counts} PlyCount set"));
    }
    if args.add_final_fen {
        extra.push(format!("{fens} FinalFEN set"));
    }
    if !args.drop_tags.is_empty() {
        extra.push(count(dropped, "tag dropped", "tags dropped"));
    }
    if args.transforms.split_variations.is_some() {
        extra.push(format!("{split} games from --split-variations"));
    }
    if let Some(plies) = args.transforms.drop_plies {
        extra.push(format!(
            "{unchanged} unchanged (--drop-plies {plies}: fewer plies)"
        ));
    }
    if stopped {
        extra.push(format!("stopped after {written} (--stop-after)"));
    }
    tally.extra = extra;
    let command = match mode {
        Mode::Select => "select",
        Mode::Dedupe => "dedupe",
        Mode::Classify => "classify",
    };
    finish(ended, tally, outputs, false, (command, "written"))
}
