//! The opening tree: for each move played from a position, how many games,
//! how they ended, the players' average rating, the score, opponents'
//! average rating and performance of the side that played it, and the
//! latest and highest-rated game. [`Tally`] is the one rule that counts games into a
//! move's line, used by the index build (per segment), by the index's
//! filtered trees and by [`tree_scan`] without an index, so that all agree.
//! Positions are matched by key, so transpositions count together; a game
//! that plays the same move from the same position twice counts once.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use pgnkit_chess::{Color, Position, SanPlus, Uci};
use pgnkit_game::ReadOptions;
use serde::Serialize;

use crate::error::IndexError;
use crate::game_info::Filter;
use crate::moves;
use crate::record::{GameRecord, NO_MOVE};
use crate::scan::read_sources;

/// How a move scored over the games that played it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MoveStats {
    /// Games.
    pub games: u64,
    /// Games White won.
    pub white: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games Black won.
    pub black: u64,
    /// Sum of the players' known ratings.
    pub rating_sum: u64,
    /// Number of known ratings (up to two per game).
    pub rating_count: u64,
    /// Sum of White's known ratings.
    pub white_rating_sum: u64,
    /// Number of games with White's rating.
    pub white_rating_count: u64,
    /// Sum of Black's known ratings.
    pub black_rating_sum: u64,
    /// Number of games with Black's rating.
    pub black_rating_count: u64,
}

impl MoveStats {
    /// The players' average rating, if any rating is known.
    pub fn average_rating(&self) -> Option<u64> {
        (self.rating_count > 0).then(|| self.rating_sum / self.rating_count)
    }

    /// The average rating of the opponents of `side` (the side that played
    /// the move), if any is known.
    pub fn average_opponent(&self, side: Color) -> Option<u64> {
        let (sum, count) = match side {
            Color::White => (self.black_rating_sum, self.black_rating_count),
            Color::Black => (self.white_rating_sum, self.white_rating_count),
        };
        (count > 0).then(|| sum / count)
    }

    /// The performance rating of `side` with the move: the opponents'
    /// average rating plus `400 × log10(p / (1 - p))` for its score `p`
    /// (the logistic Elo curve, FIDE's table in closed form), at most ±800
    /// (a score of 0 or 1 gives ∓800 / ±800). `None` without opponent ratings.
    pub fn performance(&self, side: Color) -> Option<i64> {
        let opponents = self.average_opponent(side)?;
        let p = self.score(side) / 100.0;
        let difference = if p <= 0.0 {
            -800.0
        } else if p >= 1.0 {
            800.0
        } else {
            (400.0 * (p / (1.0 - p)).log10()).clamp(-800.0, 800.0)
        };
        Some(opponents as i64 + difference.round() as i64)
    }

    /// The score of `side` (a win counts 1, a draw ½), in percent of the
    /// games (0 without games): in a tree, the score of the side that
    /// played the move.
    pub fn score(&self, side: Color) -> f64 {
        let wins = match side {
            Color::White => self.white,
            Color::Black => self.black,
        };
        self.percent(2 * wins + self.draws) / 2.0
    }

    /// `part` of the games in percent (0 without games).
    pub fn percent(&self, part: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * part as f64 / self.games as f64
        }
    }
}

/// What [`Tally`] reads of a game (12 bytes, a quarter of its
/// [`GameRecord`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Scores {
    /// `Date` as YYYYMMDD.
    pub date: u32,
    /// `WhiteElo`, 0 when unknown.
    pub white_elo: u16,
    /// `BlackElo`, 0 when unknown.
    pub black_elo: u16,
    /// 1 White won, 2 Black won, 3 draw, 0 unknown.
    pub result: u8,
}

impl Scores {
    /// What the statistics need of `game`.
    pub fn of(game: &GameRecord) -> Scores {
        Scores {
            date: game.date,
            white_elo: game.white_elo,
            black_elo: game.black_elo,
            result: game.result,
        }
    }
}

/// Counts games into one move's line (see the module's docs). `order` is a
/// game's place among all indexed games (input order): it breaks ties.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub stats: MoveStats,
    /// (date, order) of the latest game: the greatest date, then the last.
    pub latest: Option<(u32, u64)>,
    /// (sum of both ratings, order) of the highest-rated game with both
    /// ratings: the greatest sum, then the first.
    pub best: Option<(u32, u64)>,
}

impl Tally {
    /// Counts `game`.
    pub fn add(&mut self, game: &GameRecord, order: u64) {
        self.add_scores(&Scores::of(game), order);
    }

    /// Counts a game of which only what the statistics need is at hand.
    pub fn add_scores(&mut self, game: &Scores, order: u64) {
        let s = &mut self.stats;
        s.games += 1;
        match game.result {
            1 => s.white += 1,
            2 => s.black += 1,
            3 => s.draws += 1,
            _ => {}
        }
        if game.white_elo > 0 {
            s.white_rating_sum = s.white_rating_sum.saturating_add(u64::from(game.white_elo));
            s.white_rating_count += 1;
        }
        if game.black_elo > 0 {
            s.black_rating_sum = s.black_rating_sum.saturating_add(u64::from(game.black_elo));
            s.black_rating_count += 1;
        }
        s.rating_sum = s.white_rating_sum.saturating_add(s.black_rating_sum);
        s.rating_count = s.white_rating_count + s.black_rating_count;
        self.offer(
            Some((game.date, order)),
            (game.white_elo > 0 && game.black_elo > 0)
                .then(|| (u32::from(game.white_elo) + u32::from(game.black_elo), order)),
        );
    }

    /// Takes the latest and best candidates of another tally.
    pub fn offer(&mut self, latest: Option<(u32, u64)>, best: Option<(u32, u64)>) {
        if let Some(l) = latest
            && self.latest.is_none_or(|m| l > m)
        {
            self.latest = Some(l);
        }
        if let Some((rating, order)) = best
            && self
                .best
                .is_none_or(|(r, o)| rating > r || (rating == r && order < o))
        {
            self.best = Some((rating, order));
        }
    }
}

/// A game as the tree shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// The source's name (its path as given, `archive.zip:member` for a member).
    pub source: String,
    /// The source file.
    pub path: PathBuf,
    /// Byte offset of the game in its (decoded) stream.
    pub offset: u64,
    /// Its number in its stream, from 1.
    pub number: u64,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's rating, if known.
    pub white_elo: Option<u16>,
    /// Black's rating, if known.
    pub black_elo: Option<u16>,
    /// `Date` as `YYYY.MM.DD` (`??` for unknown parts).
    pub date: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'static str,
}

impl GameSummary {
    pub(crate) fn new(
        record: &GameRecord,
        names: &str,
        source: String,
        path: PathBuf,
    ) -> GameSummary {
        let (white, black) = names.split_once('\u{1f}').unwrap_or((names, ""));
        let part = |n: u32, width: usize| {
            if n == 0 {
                "?".repeat(width)
            } else {
                format!("{n:0width$}")
            }
        };
        let d = record.date;
        GameSummary {
            source,
            path,
            offset: record.offset,
            number: record.number,
            white: white.to_string(),
            black: black.to_string(),
            white_elo: (record.white_elo > 0).then_some(record.white_elo),
            black_elo: (record.black_elo > 0).then_some(record.black_elo),
            date: format!(
                "{}.{}.{}",
                part(d / 10_000, 4),
                part(d / 100 % 100, 2),
                part(d % 100, 2)
            ),
            result: match record.result {
                1 => "1-0",
                2 => "0-1",
                3 => "1/2-1/2",
                _ => "*",
            },
        }
    }
}

/// One move of a tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeMove {
    /// The move in UCI.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// How it scored.
    pub stats: MoveStats,
    /// The score of the side that played it, in percent ([`MoveStats::score`]).
    pub score: f64,
    /// The average rating of its players' opponents ([`MoveStats::average_opponent`]).
    pub average_opponent: Option<u64>,
    /// Its players' performance rating ([`MoveStats::performance`]).
    pub performance: Option<i64>,
    /// The latest game (greatest date; the last of equal dates).
    pub latest: Option<GameSummary>,
    /// The highest-rated game (greatest sum of both ratings; the first of equals).
    pub best: Option<GameSummary>,
}

/// The moves played from a position, most played first (then by UCI).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tree {
    /// The position's FEN.
    pub fen: String,
    /// Its Polyglot key, as 16 hex digits.
    pub key: String,
    /// The moves.
    pub moves: Vec<TreeMove>,
}

/// Builds a [`Tree`] from tallies by move number; `describe` gives a game's
/// summary from its order.
pub(crate) fn finish(
    pos: &Position,
    tallies: BTreeMap<u16, Tally>,
    mut describe: impl FnMut(u64) -> Result<GameSummary, IndexError>,
) -> Result<Tree, IndexError> {
    let mut moves_out = Vec::new();
    for (number, tally) in tallies {
        let Some(m) = moves::decode(pos, number) else {
            continue; // a key shared with another position
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut pos.clone(), m).to_string();
        moves_out.push(TreeMove {
            uci: Uci::from_move(m, pos.castling_mode()).to_string(),
            san,
            stats: tally.stats,
            score: tally.stats.score(pos.turn()),
            average_opponent: tally.stats.average_opponent(pos.turn()),
            performance: tally.stats.performance(pos.turn()),
            latest: tally.latest.map(|(_, o)| describe(o)).transpose()?,
            best: tally.best.map(|(_, o)| describe(o)).transpose()?,
        });
    }
    moves_out.sort_by(|a, b| b.stats.games.cmp(&a.stats.games).then(a.uci.cmp(&b.uci)));
    Ok(Tree {
        fen: pos.to_string(),
        key: format!("{:016x}", pos.polyglot_key()),
        moves: moves_out,
    })
}

/// The tree of `pos` over `paths`, read without an index (on `threads`
/// threads, each game read with `read`): the same counts as an index of
/// the same files, built with the same `read`, gives.
pub fn tree_scan(
    paths: &[PathBuf],
    pos: &Position,
    filter: &Filter,
    threads: usize,
    read: ReadOptions,
) -> Result<Tree, IndexError> {
    let key = pos.polyglot_key();
    let mut tallies: BTreeMap<u16, Tally> = BTreeMap::new();
    let mut games: HashMap<u64, GameSummary> = HashMap::new();
    let mut order = 0u64;
    read_sources(
        paths,
        threads,
        Some(key),
        read,
        |_| Ok(()),
        |stream, offset, number, game| {
            let this = order;
            order += 1;
            game.record.offset = offset;
            game.record.number = number;
            if game.positions.is_empty() || !filter.admits(&game.record, &game.names) {
                return Ok(());
            }
            let mut seen: Vec<u16> = Vec::new();
            for (_, mv, _) in game.fields() {
                if mv != NO_MOVE && !seen.contains(&mv) {
                    seen.push(mv);
                    tallies.entry(mv).or_default().add(&game.record, this);
                }
            }
            let summary = GameSummary::new(
                &game.record,
                &game.names,
                stream.name.clone(),
                stream.path.clone(),
            );
            games.insert(this, summary);
            Ok(())
        },
    )?;
    finish(pos, tallies, |order| {
        games
            .get(&order)
            .cloned()
            .ok_or_else(|| IndexError::Position("internal: game not kept".into()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_opponents_and_performance_are_the_movers() {
        let stats = MoveStats {
            games: 6,
            white: 3,
            draws: 2,
            black: 1,
            white_rating_sum: 2 * 2400,
            white_rating_count: 2,
            black_rating_sum: 3 * 2000,
            black_rating_count: 3,
            ..MoveStats::default()
        };
        // White scored 4 of 6: 400 × log10(2) = 120 over Black's 2000.
        assert!((stats.score(Color::White) - 400.0 / 6.0).abs() < 1e-9);
        assert_eq!(stats.average_opponent(Color::White), Some(2000));
        assert_eq!(stats.performance(Color::White), Some(2120));
        assert_eq!(stats.average_opponent(Color::Black), Some(2400));
        assert_eq!(stats.performance(Color::Black), Some(2280));
        let won = MoveStats {
            games: 1,
            white: 1,
            black_rating_sum: 1500,
            black_rating_count: 1,
            ..MoveStats::default()
        };
        assert_eq!(won.performance(Color::White), Some(2300));
        assert_eq!(won.performance(Color::Black), None, "no opponent rating");
    }
}
