//! Differential tests against pgn-extract 19.04 (Debian's `pgn-extract`
//! 19.04-1, which `.ci/run` installs): each case of
//! [`cases::CASES`] runs pgn-extract and `pgnkit` on the same corpus files
//! and compares what they write, and every difference must be one that
//! [`cases::KNOWN`] lists with its reason. An unexplained difference fails,
//! and so does a listed one that no longer occurs.
//!
//! Three ways to compare ([`cases::Compare`]):
//! - `Games`: the games written, each known by its start position and its
//!   main-line moves (both outputs read back by `pgnkit export --notation
//!   uci`), as multisets: a selection, duplicates left out;
//! - `Tags`: the same, and for each game the values of some tags (ECO
//!   classification);
//! - `Moves`: the move words of each game in order, as each program wrote
//!   them (a notation, `-W` against `--notation`), and, when pgnkit reads
//!   the notation, `Games` on both outputs read back;
//! - `Text`: each game whole (tags, comments, NAGs, variations) after both
//!   outputs are normalised by `pgnkit export` (a transform), games equal
//!   as text matched as multisets, the rest paired in order and their
//!   differing lines explained; with `tag_order` also the tag names of each
//!   game in the order each program wrote them.
//!
//! When pgn-extract is not installed the test says so loudly and passes,
//! except in CI (`CI` set to `true` or `1`, or `PGNKIT_REQUIRE_PGN_EXTRACT`
//! set), where it fails. `PGN_EXTRACT` names another binary.

#[path = "pgn_extract/cases.rs"]
mod cases;
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use cases::{CASES, Case, Compare, KNOWN, What};

/// The version the cases and their known differences were written for.
const VERSION: &str = "19-04";

/// The pgn-extract binary: `PGN_EXTRACT` (none if it names no file), else
/// `pgn-extract` on the path, else Debian's `/usr/games/pgn-extract`.
fn pgn_extract() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PGN_EXTRACT") {
        return Some(PathBuf::from(path)).filter(|path| path.is_file());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("pgn-extract"))
        .find(|candidate| candidate.is_file())
}

/// Whether a missing pgn-extract is a failure (CI) rather than a skip.
fn required() -> bool {
    let ci = std::env::var("CI").unwrap_or_default();
    ci.eq_ignore_ascii_case("true")
        || ci == "1"
        || std::env::var_os("PGNKIT_REQUIRE_PGN_EXTRACT").is_some()
}

/// One game as `pgnkit export --reduced --notation uci` writes it.
#[derive(Debug, Clone)]
struct Game {
    /// `FEN` (empty for the standard start) and the main line in UCI.
    key: String,
    tags: BTreeMap<String, String>,
}

impl Game {
    /// A short stable name for the game's key (FNV-1a, 64 bits), the name
    /// [`What`] uses.
    fn hash(&self) -> u64 {
        fnv(&self.key)
    }

    /// White, Black, Date and the first moves: enough to find the game.
    fn describe(&self) -> String {
        let tag = |name: &str| self.tags.get(name).map_or("?", String::as_str);
        let moves: String = self.key.chars().take(60).collect();
        format!(
            "{} - {}, {} [{moves}...]",
            tag("White"),
            tag("Black"),
            tag("Date")
        )
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads `pgn` back with pgnkit into games; a game pgnkit cannot read is
/// an error (it would otherwise vanish from the comparison).
fn read_back(pgn: &Path, work: &Path) -> Result<Vec<Game>, String> {
    if !pgn.exists() {
        return Ok(Vec::new());
    }
    let rejects = work.join("read-back-rejects.pgn");
    let output = common::run(&[
        "export",
        "--reduced",
        "--notation",
        "uci",
        "--width",
        "65535",
        "--warnings",
        "none",
        "--rejects",
        rejects.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    if !output.status.success() {
        return Err(format!(
            "pgnkit cannot read every game of {}: {}",
            pgn.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut games = Vec::new();
    let mut tags = BTreeMap::new();
    let mut movetext = String::new();
    for line in text.lines().chain([""]) {
        if let Some(pair) = line.strip_prefix('[') {
            if let Some((name, value)) = pair.split_once(" \"") {
                let value = value.trim_end_matches("\"]").replace("\\\"", "\"");
                tags.insert(name.to_owned(), value);
            }
        } else if !line.is_empty() {
            movetext.push_str(line);
            movetext.push(' ');
        } else if !movetext.is_empty() {
            // The empty line after the movetext ends the game.
            let fen = tags.get("FEN").cloned().unwrap_or_default();
            // The moves without their numbers or the result.
            let moves: Vec<&str> = movetext
                .split_whitespace()
                .filter(|word| !word.ends_with('.'))
                .filter(|word| !matches!(*word, "1-0" | "0-1" | "1/2-1/2" | "*"))
                .collect();
            games.push(Game {
                key: format!("{fen}|{}", moves.join(" ")),
                tags: std::mem::take(&mut tags),
            });
            movetext.clear();
        }
    }
    Ok(games)
}

/// The move words of each game in `pgn` as written (comments, NAGs and
/// variations left out by both programs): no move numbers, no result.
fn move_words(pgn: &Path) -> Vec<Vec<String>> {
    let text = fs::read(pgn).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let mut games = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            if let Some(words) = current.take() {
                games.push(words);
            }
            continue;
        }
        let words = current.get_or_insert_with(Vec::new);
        for word in line.split_whitespace() {
            // `12.`, `12...`, and a number glued to its move (`12.e4`);
            // not `0000` (UCI's null move).
            let digits = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let word = if digits.starts_with('.') {
                digits.trim_start_matches('.')
            } else {
                word
            };
            if word.is_empty() || matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "-1" | "/2-1/2")
            {
                continue;
            }
            words.push(word.to_owned());
        }
    }
    games.extend(current);
    games.retain(|words| !words.is_empty());
    games
}

/// A difference found, as [`What`] in [`KNOWN`] explains it.
#[derive(Debug)]
enum Diff {
    OnlyPgnkit(u64),
    OnlyPgnExtract(u64),
    Tags(u64),
    Word(String, String),
    /// Lines (or tag names) only pgnkit's game has, and only pgn-extract's.
    Text(Vec<String>, Vec<String>),
}

impl What {
    /// Whether this known difference is `diff`.
    fn explains(&self, diff: &Diff) -> bool {
        match (self, diff) {
            (What::OnlyPgnkit(a), Diff::OnlyPgnkit(b))
            | (What::OnlyPgnExtract(a), Diff::OnlyPgnExtract(b))
            | (What::Tags(a), Diff::Tags(b)) => a == b,
            (What::Word(rule), Diff::Word(ours, theirs)) => {
                rule(ours).as_deref() == Some(theirs.as_str())
            }
            (What::Text(rule), Diff::Text(ours, theirs)) => rule(ours, theirs),
            _ => false,
        }
    }
}

/// How many times each key occurs in `games`, with one game of each.
fn count(games: &[Game]) -> BTreeMap<&str, (usize, &Game)> {
    let mut counts: BTreeMap<&str, (usize, &Game)> = BTreeMap::new();
    for game in games {
        counts.entry(&game.key).or_insert((0, game)).0 += 1;
    }
    counts
}

/// One difference found: what it is, for the report and for [`KNOWN`].
struct Found {
    what: String,
    game: String,
}

/// What one case found on one file.
struct Outcome {
    /// Differences no entry of [`KNOWN`] explains.
    unexplained: Vec<Found>,
    /// For each entry of [`KNOWN`] (its index), how many differences it explained.
    explained: BTreeMap<usize, usize>,
    /// Games (or moves) compared.
    compared: usize,
}

/// The entries of [`KNOWN`] for `case` on `file`.
fn known_for<'a>(
    case: &'a str,
    file: &'a str,
) -> impl Iterator<Item = (usize, &'static cases::Known)> + 'a {
    KNOWN.iter().enumerate().filter(move |(_, k)| {
        (k.case == case || k.case == "*") && (k.file == file || k.file == "*")
    })
}

fn explain(case: &Case, file: &str, what: &Diff, outcome: &mut Outcome, found: Found) {
    let hit = known_for(case.name, file).find(|(_, k)| k.what.explains(what));
    match hit {
        Some((index, _)) => *outcome.explained.entry(index).or_default() += 1,
        None => outcome.unexplained.push(found),
    }
}

fn compare_games(
    case: &Case,
    file: &str,
    ours: &[Game],
    theirs: &[Game],
    tags: &[&str],
) -> Outcome {
    let mut outcome = Outcome {
        unexplained: Vec::new(),
        explained: BTreeMap::new(),
        compared: ours.len().max(theirs.len()),
    };
    let (our_counts, their_counts) = (count(ours), count(theirs));
    let keys: BTreeSet<&str> = our_counts
        .keys()
        .chain(their_counts.keys())
        .copied()
        .collect();
    for key in keys {
        let ours = our_counts.get(key).copied();
        let theirs = their_counts.get(key).copied();
        let (n_ours, n_theirs) = (ours.map_or(0, |c| c.0), theirs.map_or(0, |c| c.0));
        let game = ours.or(theirs).unwrap().1;
        let hash = game.hash();
        if n_ours > n_theirs {
            let what = Diff::OnlyPgnkit(hash);
            let found = Found {
                what: format!(
                    "{what:?} (0x{hash:016x}): written by pgnkit {n_ours} times, by pgn-extract {n_theirs}"
                ),
                game: game.describe(),
            };
            explain(case, file, &what, &mut outcome, found);
        } else if n_theirs > n_ours {
            let what = Diff::OnlyPgnExtract(hash);
            let found = Found {
                what: format!(
                    "{what:?} (0x{hash:016x}): written by pgn-extract {n_theirs} times, by pgnkit {n_ours}"
                ),
                game: game.describe(),
            };
            explain(case, file, &what, &mut outcome, found);
        }
        if let (Some((_, a)), Some((_, b))) = (ours, theirs) {
            let values = |g: &Game| -> Vec<Option<String>> {
                tags.iter().map(|t| g.tags.get(*t).cloned()).collect()
            };
            if values(a) != values(b) {
                let what = Diff::Tags(hash);
                let found = Found {
                    what: format!(
                        "{what:?} (0x{hash:016x}): {tags:?} pgnkit {:?}, pgn-extract {:?}",
                        values(a),
                        values(b)
                    ),
                    game: game.describe(),
                };
                explain(case, file, &what, &mut outcome, found);
            }
        }
    }
    outcome
}

fn compare_moves(case: &Case, file: &str, ours: &[Vec<String>], theirs: &[Vec<String>]) -> Outcome {
    let mut outcome = Outcome {
        unexplained: Vec::new(),
        explained: BTreeMap::new(),
        compared: 0,
    };
    if ours.len() != theirs.len() {
        outcome.unexplained.push(Found {
            what: format!(
                "pgnkit wrote {} games, pgn-extract {}",
                ours.len(),
                theirs.len()
            ),
            game: String::new(),
        });
        return outcome;
    }
    for (index, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a.len() != b.len() {
            outcome.unexplained.push(Found {
                what: format!(
                    "game {} has {} move words from pgnkit, {} from pgn-extract",
                    index + 1,
                    a.len(),
                    b.len()
                ),
                game: format!("{:?}...", &a[..a.len().min(6)]),
            });
            continue;
        }
        for (x, y) in a.iter().zip(b) {
            outcome.compared += 1;
            if x != y {
                let what = Diff::Word(x.clone(), y.clone());
                let found = Found {
                    what: format!("pgnkit `{x}`, pgn-extract `{y}`"),
                    game: format!("game {}", index + 1),
                };
                explain(case, file, &what, &mut outcome, found);
            }
        }
    }
    outcome
}

/// Each game of `pgn` as `pgnkit export --width 65535` writes it (the
/// movetext on one line), as text, read as `case` reads (with
/// `--nested-comments` when its pgnkit reads so); a game pgnkit cannot read
/// is an error.
fn normalised(pgn: &Path, work: &Path, case: &Case) -> Result<Vec<String>, String> {
    if !pgn.exists() {
        return Ok(Vec::new());
    }
    let rejects = work.join("normalise-rejects.pgn");
    // Read as the case's pgnkit reads (nested comments).
    let mut args = vec!["export"];
    if case.pgnkit.contains(&"--nested-comments") {
        args.push("--nested-comments");
    }
    args.extend([
        "--width",
        "65535",
        "--warnings",
        "none",
        "--rejects",
        rejects.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    let output = common::run(&args);
    if !output.status.success() {
        return Err(format!(
            "pgnkit cannot read every game of {}: {}",
            pgn.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut games = Vec::new();
    let mut game = String::new();
    let mut in_movetext = false;
    for line in text.lines() {
        if line.is_empty() {
            // The empty line after the tags starts the movetext; the one
            // after the movetext ends the game.
            if in_movetext {
                games.push(std::mem::take(&mut game));
            }
            in_movetext = !in_movetext && !game.is_empty();
            if in_movetext {
                game.push('\n');
            }
            continue;
        }
        game.push_str(line);
        game.push('\n');
    }
    if !game.trim().is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// The tag names of each game of `pgn` in the order written (a run of
/// lines starting with `[` is one game's tag section).
fn tag_names(pgn: &Path) -> Vec<Vec<String>> {
    let text = fs::read(pgn).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let mut games = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for line in text.lines() {
        // `[Name "value"]`, not a comment's `[%clk ...]` at a line's start.
        let name = line
            .strip_prefix('[')
            .filter(|_| line.ends_with("\"]"))
            .and_then(|pair| pair.split_once(" \""))
            .map(|(name, _)| name)
            .filter(|name| name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        match name {
            Some(name) => names.push(name.to_owned()),
            None if !names.is_empty() => games.push(std::mem::take(&mut names)),
            None => {}
        }
    }
    if !names.is_empty() {
        games.push(names);
    }
    games
}

/// The lines of `a` that `b` lacks (as multisets).
fn lines_only(a: &str, b: &str) -> Vec<String> {
    let mut other: Vec<&str> = b.lines().collect();
    a.lines()
        .filter(|line| match other.iter().position(|o| o == line) {
            Some(at) => {
                other.swap_remove(at);
                false
            }
            None => true,
        })
        .map(str::to_owned)
        .collect()
}

/// The first tag or movetext line of a normalised game, shortened.
fn first_words(game: &str) -> String {
    let white = game
        .lines()
        .find(|l| l.starts_with("[White "))
        .unwrap_or("");
    let black = game
        .lines()
        .find(|l| l.starts_with("[Black "))
        .unwrap_or("");
    let moves = game.lines().rfind(|l| !l.starts_with('[') && !l.is_empty());
    let moves: String = moves.unwrap_or("").chars().take(60).collect();
    format!("{white} {black} [{moves}...]")
}

/// `Text`: the games equal as text are matched as multisets; the others
/// are paired in the order written and each pair's differing lines must be
/// explained; a game left without a partner is `OnlyPgnkit`/`OnlyPgnExtract`
/// (the hash of its text).
fn compare_text(case: &Case, file: &str, ours: &[String], theirs: &[String]) -> Outcome {
    let mut outcome = Outcome {
        unexplained: Vec::new(),
        explained: BTreeMap::new(),
        compared: ours.len().max(theirs.len()),
    };
    let mut left: BTreeMap<&str, usize> = BTreeMap::new();
    for game in theirs {
        *left.entry(game).or_default() += 1;
    }
    let ours_left: Vec<&String> = ours
        .iter()
        .filter(|game| match left.get_mut(game.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect();
    let theirs_left: Vec<&String> = theirs
        .iter()
        .rev()
        .filter(|game| match left.get_mut(game.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    for (a, b) in ours_left.iter().zip(&theirs_left) {
        let what = Diff::Text(lines_only(a, b), lines_only(b, a));
        let found = Found {
            what: format!("{what:?}"),
            game: first_words(a),
        };
        explain(case, file, &what, &mut outcome, found);
    }
    let pairs = ours_left.len().min(theirs_left.len());
    for game in &ours_left[pairs..] {
        let what = Diff::OnlyPgnkit(fnv(game));
        let found = Found {
            what: format!("{what:?} (0x{:016x}): written by pgnkit only", fnv(game)),
            game: first_words(game),
        };
        explain(case, file, &what, &mut outcome, found);
    }
    for game in &theirs_left[pairs..] {
        let what = Diff::OnlyPgnExtract(fnv(game));
        let found = Found {
            what: format!(
                "{what:?} (0x{:016x}): written by pgn-extract only",
                fnv(game)
            ),
            game: first_words(game),
        };
        explain(case, file, &what, &mut outcome, found);
    }
    outcome
}

/// The tag names of each game in the order written, game for game.
fn compare_tag_order(
    case: &Case,
    file: &str,
    ours: &[Vec<String>],
    theirs: &[Vec<String>],
    outcome: &mut Outcome,
) {
    if ours.len() != theirs.len() {
        outcome.unexplained.push(Found {
            what: format!(
                "tag sections: pgnkit wrote {}, pgn-extract {}",
                ours.len(),
                theirs.len()
            ),
            game: String::new(),
        });
        return;
    }
    for (index, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if a != b {
            let what = Diff::Text(a.clone(), b.clone());
            let found = Found {
                what: format!("tag order {what:?}"),
                game: format!("game {}", index + 1),
            };
            explain(case, file, &what, outcome, found);
        }
    }
}

/// Runs `case` on `file` (relative to the corpus) in `work`.
fn run_case(
    px: &Path,
    case: &Case,
    corpus: &Path,
    file: &str,
    work: &Path,
) -> Result<Outcome, String> {
    fs::create_dir_all(work).map_err(|e| e.to_string())?;
    for (name, text) in case.inputs {
        fs::write(work.join(name), text).map_err(|e| e.to_string())?;
    }
    (case.setup)(work);
    // `{dir}/NAME`: a file of the case's `inputs`, not of the corpus.
    let input = match file.strip_prefix("{dir}/") {
        Some(name) => work.join(name),
        None => corpus.join(file),
    };
    let dir = work.to_str().unwrap();
    let theirs = work.join("pgn-extract.pgn");
    let mut command = Command::new(px);
    command.arg("-s");
    command.args(case.pgn_extract.iter().map(|a| a.replace("{dir}", dir)));
    command.arg(format!("-o{}", theirs.display())).arg(&input);
    let output = command.output().map_err(|e| format!("pgn-extract: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "pgn-extract {:?} failed: {}",
            case.pgn_extract,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let ours = work.join("pgnkit.pgn");
    let mut args: Vec<String> = case
        .pgnkit
        .iter()
        .map(|a| a.replace("{dir}", dir))
        .collect();
    args.extend([
        "--warnings".into(),
        "none".into(),
        "-o".into(),
        ours.display().to_string(),
    ]);
    args.push(input.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = common::run(&args);
    if output.status.code() == Some(2) || output.status.code().is_none() {
        return Err(format!(
            "pgnkit {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(match case.compare {
        Compare::Games => compare_games(
            case,
            file,
            &read_back(&ours, work)?,
            &read_back(&theirs, work)?,
            &[],
        ),
        Compare::Tags(tags) => compare_games(
            case,
            file,
            &read_back(&ours, work)?,
            &read_back(&theirs, work)?,
            tags,
        ),
        Compare::Moves { read_back: again } => {
            let mut outcome = compare_moves(case, file, &move_words(&ours), &move_words(&theirs));
            if again {
                let games = compare_games(
                    case,
                    file,
                    &read_back(&ours, work)?,
                    &read_back(&theirs, work)?,
                    &[],
                );
                outcome.unexplained.extend(games.unexplained);
                for (index, count) in games.explained {
                    *outcome.explained.entry(index).or_default() += count;
                }
            }
            outcome
        }
        Compare::Text { tag_order } => {
            let mut outcome = compare_text(
                case,
                file,
                &normalised(&ours, work, case)?,
                &normalised(&theirs, work, case)?,
            );
            if tag_order {
                compare_tag_order(
                    case,
                    file,
                    &tag_names(&ours),
                    &tag_names(&theirs),
                    &mut outcome,
                );
            }
            outcome
        }
    })
}

#[test]
fn pgnkit_agrees_with_pgn_extract_or_says_why_not() {
    let Some(px) = pgn_extract() else {
        let message = "pgn-extract is not installed: the differential tests against it \
                       did NOT run (apt-get install pgn-extract=19.04-1, or set PGN_EXTRACT)";
        assert!(!required(), "{message}; CI requires it");
        eprintln!("\n!!!!!!!!!!\n!!! SKIPPED: {message}\n!!!!!!!!!!\n");
        return;
    };
    let version = Command::new(&px)
        .arg("--version")
        .output()
        .expect("pgn-extract runs");
    let version = String::from_utf8_lossy(&version.stdout).into_owned()
        + &String::from_utf8_lossy(&version.stderr);
    assert!(
        version.contains(VERSION),
        "the cases are written for pgn-extract {VERSION}; {} says {version:?}",
        px.display()
    );
    let corpus = pgnkit_corpus::dir();
    let root = std::env::temp_dir().join(format!("pgnkit-pgn-extract-{}", std::process::id()));
    let started = Instant::now();
    let mut report = String::new();
    let mut failures = Vec::new();
    let mut used = BTreeMap::new();
    // Every (case, file) run, on a few threads (each run is two processes
    // and a read-back); the report keeps the table's order.
    let jobs: Vec<(&Case, usize, &str)> = CASES
        .iter()
        .inspect(|case| {
            assert!(
                case.files.len() >= 3,
                "case {}: at least three corpus files",
                case.name
            )
        })
        .flat_map(|case| {
            case.files
                .iter()
                .enumerate()
                .map(move |(n, f)| (case, n, *f))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    let mut results: Vec<(usize, Result<Outcome, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(case, n, file)) = jobs.get(index) else {
                            return done;
                        };
                        let work = root.join(format!("{}-{n}", case.name));
                        done.push((index, run_case(&px, case, &corpus, file, &work)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a worker panicked"))
            .collect()
    });
    results.sort_by_key(|(index, _)| *index);
    for (index, result) in results {
        let (case, _, file) = jobs[index];
        let outcome = match result {
            Ok(outcome) => outcome,
            Err(error) => {
                failures.push(format!("{} on {file}: {error}", case.name));
                continue;
            }
        };
        let explained: usize = outcome.explained.values().sum();
        let _ = writeln!(
            report,
            "{:<22} {file:<58} {:>6} compared, {explained:>4} known differences, {:>3} unexplained",
            case.name,
            outcome.compared,
            outcome.unexplained.len()
        );
        for (index, count) in outcome.explained {
            *used.entry(index).or_insert(0) += count;
        }
        for found in outcome.unexplained {
            failures.push(format!(
                "{} on {file}: {} -- {}",
                case.name, found.what, found.game
            ));
        }
    }
    let _ = fs::remove_dir_all(&root);
    for (index, known) in KNOWN.iter().enumerate() {
        let count = used.get(&index).copied().unwrap_or(0);
        let _ = writeln!(
            report,
            "known: {:<22} {:>5} x {}",
            known.case, count, known.reason
        );
        if count == 0 {
            failures.push(format!(
                "known difference no longer found (remove it from KNOWN): {} on {}: {:?}",
                known.case, known.file, known.what
            ));
        }
    }
    eprintln!(
        "{report}pgn-extract differential cases: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} unexplained differences with pgn-extract (list each in KNOWN with its reason, or fix pgnkit):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The comparisons find what they must: a game one side lacks, a tag
/// value that differs, a move word that differs (and a rule explains it).
#[test]
fn the_comparisons_find_differences() {
    let case = &CASES[0];
    let game = |key: &str, eco: &str| Game {
        key: key.to_owned(),
        tags: BTreeMap::from([("ECO".to_owned(), eco.to_owned())]),
    };
    let ours = [game("|e2e4", "B00"), game("|d2d4", "A40")];
    let theirs = [game("|e2e4", "C20")];
    let outcome = compare_games(case, "x.pgn", &ours, &theirs, &["ECO"]);
    assert_eq!(
        outcome.unexplained.len(),
        2,
        "one game missing, one ECO differs"
    );
    assert_eq!(
        compare_games(case, "x.pgn", &ours, &ours, &["ECO"])
            .unexplained
            .len(),
        0
    );
    let words = |w: &[&str]| vec![w.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    let uci = CASES.iter().find(|c| c.name == "notation-uci").unwrap();
    let outcome = compare_moves(
        uci,
        "x.pgn",
        &words(&["e7e8q", "e2e4"]),
        &words(&["e7e8Q", "e2e3"]),
    );
    assert_eq!(outcome.unexplained.len(), 1, "e2e4 against e2e3");
    assert_eq!(
        outcome.explained.values().sum::<usize>(),
        1,
        "the capital promotion"
    );
    // Text: games equal as text match in any order; a pair that differs by
    // a line a rule explains is explained only on the rule's file; a game
    // without a partner is reported.
    let seven = CASES.iter().find(|c| c.name == "seven").unwrap();
    let text = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let ours = text(&["[White \"A\"]\n\n1. e4 *\n", "[White \"B\"]\n\n1. d4 *\n"]);
    let theirs = text(&[
        "[White \"B\"]\n\n1. d4 *\n",
        "[White \"A\"]\n[Variant \"Standard\"]\n\n1. e4 *\n",
    ]);
    let studies = KNOWN.iter().find(|k| k.case == "seven").unwrap().file;
    let outcome = compare_text(seven, studies, &ours, &theirs);
    assert_eq!(outcome.unexplained.len(), 0);
    assert_eq!(outcome.explained.values().sum::<usize>(), 1);
    assert_eq!(
        compare_text(seven, "x.pgn", &ours, &theirs)
            .unexplained
            .len(),
        1
    );
    let outcome = compare_text(seven, studies, &ours, &theirs[..1]);
    assert_eq!(outcome.unexplained.len(), 1, "game A is pgnkit's only");
    assert!(outcome.unexplained[0].what.contains("OnlyPgnkit"));
}
