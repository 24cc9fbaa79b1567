//! One key's postings in one segment, handed out a game at a time in game
//! order ([`GameOrder`]) while they are read, a piece at a time: for a search
//! that stops after a few games (`search --first 50`), which then reads a few
//! pieces of postings, not all of them (the start position has one posting
//! per game). A key's postings are sorted by the move played from the
//! position, then by game and ply: one sorted run per move, merged here.

use crate::error::IndexError;
use crate::record::{Posting, RecordFile};

/// Postings read from a run at a time (8 KiB).
const PIECE: u64 = 512;

/// The postings of one move played from the key's position: `next..end` not read yet,
/// `read[at..]` read and not handed out, as (game, ply) numbers.
#[derive(Debug)]
struct Run {
    next: u64,
    end: u64,
    read: Vec<u64>,
    at: usize,
}

/// A key's postings in one segment, a game at a time in game order ([`GameOrder::next_game`]).
#[derive(Debug)]
pub(crate) struct GameOrder {
    runs: Vec<Run>,
}

/// A posting as one number, (game, ply), ordered as games and plies are.
fn number(p: &Posting) -> u64 {
    u64::from(p.game) << 16 | u64::from(p.ply)
}

impl GameOrder {
    /// The postings `start..end` of `positions` (those of one key). The runs of each
    /// move are found by binary searches; the last posting of each is read, so that a
    /// game number past the segment's `games` is an error now, before any game is
    /// handed out (the runs are sorted by game: the last posting has the largest).
    pub(crate) fn new(
        positions: &RecordFile<Posting>,
        start: u64,
        end: u64,
        games: u64,
    ) -> Result<GameOrder, IndexError> {
        let mut runs = Vec::new();
        let mut at = start;
        while at < end {
            let mv = positions.get(at)?.mv;
            let run_end =
                positions.lower_bound_in(at, end, u64::from(mv) + 1, |p| u64::from(p.mv))?;
            let last = positions.get(run_end - 1)?;
            if u64::from(last.game) >= games {
                return Err(IndexError::corrupt(
                    &positions.path,
                    format!("game {} where the segment has {games} games", last.game),
                ));
            }
            runs.push(Run {
                next: at,
                end: run_end,
                read: Vec::new(),
                at: 0,
            });
            at = run_end;
        }
        Ok(GameOrder { runs })
    }

    /// The next game (its number in the segment) and its plies, ascending, written into
    /// `plies`; `None` after the last.
    pub(crate) fn next_game(
        &mut self,
        positions: &RecordFile<Posting>,
        plies: &mut Vec<u32>,
    ) -> Result<Option<u32>, IndexError> {
        let mut game = None::<u32>;
        for run in &mut self.runs {
            if let Some(head) = run.head(positions)? {
                let id = (head >> 16) as u32;
                game = Some(game.map_or(id, |g| g.min(id)));
            }
        }
        let Some(game) = game else {
            return Ok(None);
        };
        plies.clear();
        for run in &mut self.runs {
            while let Some(head) = run.head(positions)?
                && (head >> 16) as u32 == game
            {
                plies.push((head & 0xffff) as u32);
                run.at += 1;
            }
        }
        // A game's plies come from the runs of the moves played there, a run after another.
        plies.sort_unstable();
        Ok(Some(game))
    }
}

impl Run {
    /// The next posting not handed out, read with the next piece of the run when needed.
    fn head(&mut self, positions: &RecordFile<Posting>) -> Result<Option<u64>, IndexError> {
        if self.at == self.read.len() {
            if self.next == self.end {
                return Ok(None);
            }
            let to = self.end.min(self.next + PIECE);
            self.read = positions.read_map(self.next, to, |p| number(&p))?;
            self.next = to;
            self.at = 0;
        }
        Ok(self.read.get(self.at).copied())
    }
}
