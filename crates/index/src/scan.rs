//! Reading source files for the index: every game's main-line positions as
//! Polyglot keys with the move played from each, and its [`GameRecord`]
//! fields from its tags. The build and the scan without index
//! ([`crate::tree_scan`], [`crate::search_scan`]) both read through here, so
//! they see the same games and positions. Files are opened with
//! pgnkit-input's [`open`](fn@pgnkit_input::open) (compressed ones too), split
//! and read by the caller's [`ReadOptions`] (nested comments, repaired tag
//! strings, strictness) on several threads by pgnkit-game's
//! [`run_ordered_games`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pgnkit_chess::polyglot::LineKey;
use pgnkit_chess::{Color, Position};
use pgnkit_game::{
    GameStart, Job, MoveEvent, ReadOptions, Skip, Termination, Visitor, run_ordered_games,
    visit_tokenized,
};
use pgnkit_input::{Options, Source, open};
use pgnkit_lexer::{Reader, TokenizedGame};

use crate::error::IndexError;
use crate::game_info::{Speed, date_number_bytes, rating, result_number};
use crate::moves;
use crate::record::{GameRecord, NO_MOVE, Posting};

/// A game read for the index.
#[derive(Debug, Default)]
pub(crate) struct ScannedGame {
    /// Ratings, date, result, speed, plies (offset, number, source and the
    /// names' place are set by the caller).
    pub record: GameRecord,
    /// `White\u{1f}Black`.
    pub names: String,
    /// Each main-line position packed as its posting ([`Posting::pack`])
    /// with game 0: `key << 64 | move << 48 | ply`, the last with
    /// [`NO_MOVE`]. One number a position: the visitor stores it whole and
    /// the build only adds the game's number ([`ScannedGame::fields`] reads
    /// the parts).
    pub positions: Vec<u128>,
    /// Whether Black moves first (a game from a set-up position): the side
    /// to move at ply `p` is White when `p` is even, unless this is set.
    pub black_first: bool,
}

impl ScannedGame {
    /// (key, move, ply) of each of [`positions`](ScannedGame::positions).
    pub fn fields(&self) -> impl Iterator<Item = (u64, u16, u16)> + '_ {
        self.positions
            .iter()
            .map(|&p| ((p >> 64) as u64, (p >> 48) as u16, p as u16))
    }
}

/// Follows the main line, keying each position.
struct Keys {
    /// Keep only this key's positions (a scan for one position).
    target: Option<u64>,
    game: ScannedGame,
    white: String,
    black: String,
    /// The buffer the next game's names go into (a spare one, or empty).
    names: String,
    /// The key of the line's last position, once the movetext started.
    last: Option<LineKey>,
    ply: u16,
    /// The last game's start position and its key: most games start from
    /// the same position, whose key is then not computed again from every
    /// piece.
    start: Option<(Position, LineKey)>,
}

impl Keys {
    fn keep(&mut self, key: u64, mv: u16) {
        if self.target.is_none_or(|t| t == key) {
            // Game 0: the build adds the game's number.
            self.game.positions.push(
                Posting {
                    key,
                    mv,
                    game: 0,
                    ply: self.ply,
                }
                .pack(),
            );
        }
    }
}

impl Visitor for Keys {
    type Output = ScannedGame;

    /// The keys follow the moves ([`LineKey`]): the reader need not copy
    /// the position before each move.
    const BEFORE: bool = false;

    fn begin_game(&mut self, _game: GameStart<'_>) {
        // The positions' buffer is kept (a spare one: [`KeyJob::spares`]).
        let mut positions = std::mem::take(&mut self.game.positions);
        positions.clear();
        self.game = ScannedGame {
            positions,
            ..ScannedGame::default()
        };
        self.white.clear();
        self.black.clear();
        self.last = None;
        self.ply = 0;
    }

    /// The index reads no comment: the reader need not collect them.
    const COMMENTS: bool = false;

    /// Most tags are none of these: the reader does not unescape their
    /// values. Inlined into the reader's tag loop (asked of every tag).
    #[inline(always)]
    fn wants_tag(&self, name: &[u8]) -> bool {
        matches!(
            name,
            b"WhiteElo" | b"BlackElo" | b"Date" | b"TimeControl" | b"White" | b"Black"
        )
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        let record = &mut self.game.record;
        match name {
            b"WhiteElo" => record.white_elo = rating(value),
            b"BlackElo" => record.black_elo = rating(value),
            b"Date" => record.date = date_number_bytes(value),
            b"TimeControl" => record.speed = Speed::of_time_control_bytes(value) as u8,
            // Into the visitor's strings, which keep their allocation.
            b"White" => lossy_into(&mut self.white, value),
            b"Black" => lossy_into(&mut self.black, value),
            _ => {}
        }
    }

    fn begin_movetext(&mut self, start: &Position) {
        self.game.black_first = start.turn() == Color::Black;
        // Nearly every game fits (the same allocation cost as a smaller
        // one; 128 left one game in nine of the sample to copy its
        // positions when it grew).
        self.game.positions.reserve(256);
        // The key of a start position equal to the last game's (the
        // double push too: it counts in the key, not in `==`) is known.
        let line = match &self.start {
            Some((pos, line))
                if pos == start && pos.double_push_square() == start.double_push_square() =>
            {
                *line
            }
            _ => {
                let line = LineKey::new(start);
                self.start = Some((start.clone(), line));
                line
            }
        };
        self.last = Some(line);
    }

    /// Inlined into the reader's move loop, with the key's update
    /// ([`LineKey::play`]): no event built in memory, no call a move.
    #[inline(always)]
    fn san(&mut self, event: MoveEvent<'_>) {
        // `begin_movetext` comes before every move.
        let Some(line) = &mut self.last else {
            return;
        };
        let key = line.key();
        // Updated from what the move changed, not recomputed from every piece.
        line.play(event.mv, event.after);
        debug_assert_eq!(line.key(), event.after.polyglot_key());
        if let Some(mv) = moves::encode(event.mv) {
            self.keep(key, mv);
        }
        self.ply = self.ply.saturating_add(1);
    }

    fn begin_variation(&mut self) -> Skip {
        Skip::Yes
    }

    fn termination(&mut self, termination: Termination) {
        self.game.record.result = result_number(termination);
    }

    fn end_game(&mut self) -> ScannedGame {
        if let Some(line) = self.last {
            self.keep(line.key(), NO_MOVE);
        }
        self.game.record.plies = self.ply;
        let mut game = std::mem::take(&mut self.game);
        // Into a spare buffer when there is one.
        let mut names = std::mem::take(&mut self.names);
        names.clear();
        names.reserve(self.white.len() + 1 + self.black.len());
        names.push_str(&self.white);
        names.push('\u{1f}');
        names.push_str(&self.black);
        game.names = names;
        game
    }
}

/// `text` (UTF-8, invalid sequences replaced) in `out`, replacing what it held.
fn lossy_into(out: &mut String, text: &[u8]) {
    out.clear();
    // Nearly every name is valid UTF-8: checked at once, no chunks.
    match std::str::from_utf8(text) {
        Ok(valid) => out.push_str(valid),
        Err(_) => out.push_str(&String::from_utf8_lossy(text)),
    }
}

/// The job run on every game: `None` for a game with errors (not indexed).
struct KeyJob {
    target: Option<u64>,
    /// How games are read (and split: [`ReadOptions::lex_options`]).
    read: ReadOptions,
    /// The buffers of games taken ([`KeyJob::give_back`]), for the next
    /// games read: a game's positions and names are made on a reading
    /// thread and dropped on the thread taking the games, and allocating
    /// them anew for every game cost about 3.6% of a build's CPU (`perf`,
    /// malloc and free across threads).
    spares: Mutex<Vec<Spare>>,
}

/// The buffers of a game taken, emptied.
struct Spare {
    positions: Vec<u128>,
    names: String,
}

/// At most this many [`Spare`]s are kept (about 4 KiB each): more games
/// than the readers are ahead of the taker.
const SPARES: usize = 1024;

/// A game's buffers are kept only up to this many positions (16 KiB) and
/// this many bytes of names: a long game's are freed, so that the spares
/// hold at most about 16 MiB whatever the input.
const SPARE_POSITIONS: usize = 1024;
const SPARE_NAMES: usize = 256;

impl KeyJob {
    /// Keeps `game`'s buffers for a game to come.
    fn give_back(&self, game: ScannedGame) {
        let ScannedGame {
            mut positions,
            mut names,
            ..
        } = game;
        if positions.capacity() == 0
            || positions.capacity() > SPARE_POSITIONS
            || names.capacity() > SPARE_NAMES
        {
            return;
        }
        positions.clear();
        names.clear();
        if let Ok(mut spares) = self.spares.lock()
            && spares.len() < SPARES
        {
            spares.push(Spare { positions, names });
        }
    }
}

impl Job for KeyJob {
    type State = Keys;
    type Output = Option<ScannedGame>;

    fn state(&self) -> Keys {
        Keys {
            target: self.target,
            game: ScannedGame::default(),
            white: String::new(),
            black: String::new(),
            names: String::new(),
            last: None,
            ply: 0,
            start: None,
        }
    }

    fn run(&self, state: &mut Keys, game: TokenizedGame<'_, '_>, _: &mut Vec<u8>) -> Self::Output {
        if state.game.positions.capacity() == 0
            && let Some(spare) = self.spares.lock().ok().and_then(|mut s| s.pop())
        {
            state.game.positions = spare.positions;
            state.names = spare.names;
        }
        let (game, diagnostics) = visit_tokenized(game, state, self.read);
        if diagnostics.has_errors() {
            // Its buffers for the next game.
            if state.game.positions.capacity() == 0 {
                state.game.positions = game.positions;
                state.names = game.names;
            }
            return None;
        }
        Some(game)
    }
}

/// One stream of a source file: what the index's manifest records of it.
#[derive(Debug, Clone)]
pub(crate) struct StreamInfo {
    /// The file, absolute.
    pub path: PathBuf,
    /// The stream's number among the file's (zip members; 0 otherwise).
    pub stream: u32,
    /// The stream's name for messages.
    pub name: String,
    /// The stream's number in this read (from 0, over all the files).
    pub index: u32,
}

/// What a read of sources saw.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct ReadTotals {
    /// Games read, broken ones too.
    pub games: u64,
    /// Games with errors, not indexed.
    pub broken: u64,
}

/// Reads every game of `paths` on `threads` threads with `read`, calling `each` with
/// the stream it is in, its offset, its
/// number in the stream, and the game (its buffers are reused once `each`
/// returns), for every game without errors; only
/// the positions with key `target` are kept when it is set. `new_stream`
/// is called once per stream before its games.
pub(crate) fn read_sources(
    paths: &[PathBuf],
    threads: usize,
    target: Option<u64>,
    read: ReadOptions,
    mut new_stream: impl FnMut(&StreamInfo) -> Result<(), IndexError>,
    mut each: impl FnMut(&StreamInfo, u64, u64, &mut ScannedGame) -> Result<(), IndexError>,
) -> Result<ReadTotals, IndexError> {
    let job = KeyJob {
        target,
        read,
        spares: Mutex::new(Vec::new()),
    };
    let mut totals = ReadTotals::default();
    let mut streams = 0u32;
    for path in paths {
        let absolute = absolute(path)?;
        let options = Options {
            threads: threads.max(1),
            ..Options::default()
        };
        let opened = open(Source::path(path), None, &options)?;
        for (n, stream) in opened.streams.into_iter().enumerate() {
            let info = StreamInfo {
                path: absolute.clone(),
                stream: n as u32,
                name: stream.name.clone(),
                index: streams,
            };
            streams += 1;
            new_stream(&info)?;
            let name = stream.name.clone();
            let mut number = 0u64;
            let mut failure = None;
            let mut games = Reader::new(stream.reader);
            games.set_options(read.lex_options());
            let result = run_ordered_games(&job, games, threads, |start, game, _| {
                number += 1;
                totals.games += 1;
                match game {
                    Some(mut game) => {
                        let result = each(&info, start.offset, number, &mut game);
                        job.give_back(game);
                        if let Err(e) = result {
                            failure = Some(e);
                            return Err(std::io::Error::other("stopped"));
                        }
                    }
                    None => totals.broken += 1,
                }
                Ok(())
            });
            if let Some(e) = failure {
                return Err(e);
            }
            result.map_err(|e| IndexError::io(&name, e))?;
        }
    }
    Ok(totals)
}

/// `path` made absolute (the index finds its sources from anywhere).
pub(crate) fn absolute(path: &Path) -> Result<PathBuf, IndexError> {
    std::path::absolute(path).map_err(|e| IndexError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's buffers go to the next game read ([`KeyJob::give_back`]),
    /// emptied: the short game after a long one gets the long one's
    /// buffer, and only its own positions and names.
    #[test]
    fn buffers_of_a_game_taken_serve_the_next() {
        // 300 plies of knights going back and forth, then a two-ply game.
        let pgn = format!(
            "[White \"Long White\"]\n[Black \"Long Black\"]\n\n{}*\n\n\
             [White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n",
            knights(150)
        );
        let seen = read_each("spares", &pgn, |game| {
            (
                game.positions.capacity(),
                game.fields().collect::<Vec<_>>(),
                game.names.clone(),
            )
        });
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].1.len(), 301);
        assert_eq!(seen[0].2, "Long White\u{1f}Long Black");
        // The long game's buffer (grown past the 256 reserved), reused.
        assert!(seen[1].0 >= 301, "capacity {}", seen[1].0);
        let start = Position::default().polyglot_key();
        let plies: Vec<(u16, bool)> = seen[1]
            .1
            .iter()
            .map(|&(key, mv, ply)| {
                (
                    ply,
                    (key == start) == (ply == 0) && (mv == NO_MOVE) == (ply == 2),
                )
            })
            .collect();
        assert_eq!(plies, [(0, true), (1, true), (2, true)]);
        assert_eq!(seen[1].2, "A\u{1f}B");
    }

    /// A long game's buffers are freed, not kept for the games after it: what
    /// the spares hold stays bounded whatever the input.
    #[test]
    fn a_long_games_buffers_are_not_kept() {
        // 1,200 plies (over SPARE_POSITIONS), then a two-ply game.
        let pgn = format!("{}*\n\n1. e4 e5 *\n", knights(600));
        let seen = read_each("spares-long", &pgn, |game| {
            (game.positions.capacity(), game.positions.len())
        });
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0].1, 1201);
        assert!(seen[1].0 <= SPARE_POSITIONS, "capacity {}", seen[1].0);
    }

    /// `2 * moves` plies of knights going out and back.
    fn knights(moves: u32) -> String {
        (1..=moves)
            .map(|n| match n % 2 {
                1 => format!("{n}. Nf3 Nf6 "),
                _ => format!("{n}. Ng1 Ng8 "),
            })
            .collect()
    }

    /// What `look` says of each game of `pgn`, read by [`read_sources`]
    /// on one thread from a file in a folder of its own (`name`).
    fn read_each<T>(name: &str, pgn: &str, mut look: impl FnMut(&ScannedGame) -> T) -> Vec<T> {
        let dir = std::env::temp_dir().join(format!("pgnkit-{name}-{}", std::process::id()));
        fs_reset(&dir);
        let path = dir.join("games.pgn");
        std::fs::write(&path, pgn).unwrap();
        let mut seen = Vec::new();
        read_sources(
            std::slice::from_ref(&path),
            1,
            None,
            ReadOptions::default(),
            |_| Ok(()),
            |_, _, _, game| {
                seen.push(look(game));
                Ok(())
            },
        )
        .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        seen
    }

    fn fs_reset(dir: &Path) {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).unwrap();
    }
}
