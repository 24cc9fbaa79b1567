//! `select --check-file` and `--duplicates`: how duplicates are told apart,
//! the duplicate keys of another file's games, read before the inputs, and
//! the comment that names where a duplicate's first occurrence was.

use pgnkit::game::{ReadOptions, TreeBuilder};
use pgnkit::select::{GameKey, Seen};

use crate::console;
use crate::failure::Failure;
use crate::options::read_options;
use crate::pipeline::{self, Game, Job};

/// How duplicates are told apart.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Keys {
    None,
    Exact,
    Fuzzy(usize),
}

/// The duplicate keys of `--check-file`'s games, read as the inputs are.
struct KeyJob {
    read: ReadOptions,
    keys: Keys,
}

impl Job for KeyJob {
    type State = TreeBuilder;
    /// The game's key, `None` when it has errors.
    type Output = Option<GameKey>;

    fn state(&self) -> TreeBuilder {
        TreeBuilder::new()
    }

    fn run(&self, builder: &mut TreeBuilder, game: Game<'_, '_>, _: &mut Vec<u8>) -> Self::Output {
        let (game, diagnostics) = game.visit(builder, self.read);
        if diagnostics.has_errors() {
            return None;
        }
        match self.keys {
            Keys::None => None,
            Keys::Exact => Some(GameKey::of(&game)),
            Keys::Fuzzy(ply) => Some(GameKey::at_ply(&game, ply)),
        }
    }
}

/// Reads `--check-file` into `seen` (its games kept before any input's), its
/// name first in `names`; returns the games read and those with errors (not
/// counted as kept: they are reported, as the inputs' are).
pub(crate) fn read_check_file(
    path: &std::path::Path,
    inputs: &crate::args::Inputs,
    keys: Keys,
    seen: &mut Dedupe,
    names: &mut Vec<String>,
) -> Result<(u64, u64), Failure> {
    let check = crate::args::Inputs {
        files: vec![path.to_path_buf()],
        read: inputs.read,
        threads: inputs.threads,
        range: None,
        max_game_bytes: inputs.max_game_bytes,
        max_window: inputs.max_window,
        warnings: inputs.warnings,
    };
    let job = KeyJob {
        read: read_options(inputs),
        keys,
    };
    let (mut games, mut broken) = (0, 0);
    let ended = pipeline::over_inputs(&check, &job, |name, game, key, _| {
        games += 1;
        let Some(key) = key else {
            broken += 1;
            return console::write(&format!(
                "{name}:{}: --check-file game with errors: not counted\n",
                game.line
            ));
        };
        if names.last().map(String::as_str) != Some(name) {
            names.push(name.to_string());
        }
        let input = u32::try_from(names.len() - 1).unwrap_or(u32::MAX);
        match seen {
            Dedupe::Keys(set) => drop(set.first(key, ())),
            Dedupe::Placed(set) => drop(set.first(key, (input, game.line))),
        }
        Ok(())
    })?;
    if !ended.complete() {
        return Err(Failure::usage(format!(
            "--check-file {}: could not be read to its end",
            path.display()
        )));
    }
    Ok((games, broken))
}

/// The kept games' places: keys only, or keys and (input, line).
pub(crate) enum Dedupe {
    Keys(Seen<()>),
    Placed(Seen<(u32, u64)>),
}

/// `name` and `line` as a comment before a duplicate's moves: `{Duplicate of a.pgn line 12}`.
pub(crate) fn with_comment(text: &[u8], name: &str, line: u64) -> Vec<u8> {
    let note = format!(
        "{{Duplicate of {} line {line}}}\n",
        name.replace(['{', '}'], "_")
    );
    let at = match text.windows(2).position(|w| w == b"\n\n") {
        Some(at) if text.first() == Some(&b'[') => at + 2,
        _ => 0,
    };
    let mut out = Vec::with_capacity(text.len() + note.len());
    out.extend_from_slice(&text[..at]);
    out.extend_from_slice(note.as_bytes());
    out.extend_from_slice(&text[at..]);
    out
}
