//! The end of a build: the sorted postings written to `<stem>.pos` and
//! their per-move statistics counted into `<stem>.stats` (moves played in
//! one game only into `<stem>.single`, as the game's number).
//!
//! The postings come in units that share no (key, move): the partitions of
//! a build that spilled ([`crate::partition`]; their keys' top bits differ)
//! or ranges of a sorted buffer cut where the (key, move) changes. So the
//! units are read, sorted and counted on several threads at once. Where a
//! unit's postings go in `.pos` is known before (the postings before it),
//! so each thread writes them there itself; the statistics, whose places
//! are known only once counted, go in pieces of encoded records to the
//! calling thread, which writes them in unit order. The files are the same
//! whatever the threads.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};

use crate::error::IndexError;
use crate::partition::{PART_BITS, PARTS, SortSpace, Store, feed_part};
use crate::record::{
    HEADER, NO_MOVE, Posting, Record, RecordWriter, Single, StatsRecord, header, write_all_at,
};
use crate::sort::put_packed_postings;
use crate::tree::Scores;

/// Sorted postings written to `.pos` at a time and counted into one
/// [`Piece`]: 64 KiB of records, in cache when written. (Writes of 1 MiB
/// here cost up to 9 times the kernel time of 64 KiB ones, now and then:
/// 0.1 s to 1 s for 536 MB.)
const PIECE: usize = 1 << 12;

/// Encoded records a [`Piece`] gathers (from several chunks of [`PIECE`]
/// postings) before it is sent to the writing side: one hand-over (and
/// wake-up of the writing thread) for about 15 chunks, not one a chunk
/// (8,000 a second of futex calls and context switches on 536 MB of
/// postings).
const SEND_BYTES: usize = 1 << 18;

/// Pieces of a unit waiting to be written at most (a unit ahead of the one
/// being written waits for it with this many, its memory bounded: 4 MiB
/// or so).
const QUEUED: usize = 16;

/// Postings counted at a time by [`Counter::count`].
const BLOCK: usize = 4096;

/// Where the sorted postings come from.
pub(crate) enum Units<'a> {
    /// A buffer sorted whole, counted in ranges (`cuts[i]..cuts[i + 1]`)
    /// that each begin a (key, move).
    Sorted {
        postings: &'a [u128],
        cuts: Vec<usize>,
    },
    /// The partitions of the spill file (in key order) and each one's
    /// postings kept in memory (`last[s[i]..s[i + 1]]` for each `s` of
    /// `starts`: one a piece of `last` distributed on its own); a
    /// partition of more than `limit` postings is split again as it is
    /// read ([`feed_part`]).
    Parts {
        store: &'a Store,
        last: &'a [u128],
        starts: &'a [Vec<usize>],
        limit: usize,
    },
}

impl Units<'_> {
    fn len(&self) -> usize {
        match self {
            Units::Sorted { cuts, .. } => cuts.len().saturating_sub(1),
            Units::Parts { .. } => PARTS,
        }
    }

    /// Where each unit's postings start among all of them, and their
    /// number last.
    fn pos_starts(&self) -> Vec<u64> {
        match self {
            Units::Sorted { cuts, .. } => cuts.iter().map(|&c| c as u64).collect(),
            Units::Parts { store, starts, .. } => {
                let mut at = 0u64;
                let mut pos_starts = vec![0];
                for i in 0..PARTS {
                    let kept: usize = starts.iter().map(|s| s[i + 1] - s[i]).sum();
                    at += store.count(i) + kept as u64;
                    pos_starts.push(at);
                }
                pos_starts
            }
        }
    }
}

/// Cuts of the sorted `postings` into ranges of about `step` postings
/// (at least 16 [`PIECE`]s) that each begin a (key, move), for
/// [`Units::Sorted`].
pub(crate) fn cuts(postings: &[u128], step: usize) -> Vec<usize> {
    let step = step.max(PIECE * 16);
    let n = postings.len();
    let mut cuts = vec![0];
    let mut at = step;
    while at < n {
        let top = postings[at - 1] >> 48;
        while at < n && postings[at] >> 48 == top {
            at += 1;
        }
        if at < n {
            cuts.push(at);
        }
        at += step;
    }
    if n > 0 {
        cuts.push(n);
    }
    cuts
}

/// Encoded records of some postings of a unit.
#[derive(Default)]
struct Piece {
    stats: Vec<u8>,
    singles: Vec<u8>,
}

/// Pieces written, to be filled again (no new memory to fault in).
#[derive(Default)]
struct Pool(Mutex<Vec<Piece>>);

impl Pool {
    fn get(&self) -> Piece {
        self.0
            .lock()
            .map(|mut v| v.pop())
            .unwrap_or_default()
            .unwrap_or_default()
    }

    fn put(&self, mut piece: Piece) {
        piece.stats.clear();
        piece.singles.clear();
        if let Ok(mut v) = self.0.lock() {
            v.push(piece);
        }
    }
}

/// Writes the postings of `units` (sorted, or sorted here) to
/// `<stem>.pos`, `<stem>.stats` and `<stem>.single` in `dir`, on `threads`
/// threads beside the calling one (which writes the statistics); returns
/// the three counts.
pub(crate) fn write_sorted(
    dir: &Path,
    stem: &str,
    scores: &[Scores],
    units: &Units<'_>,
    threads: usize,
) -> Result<(u64, u64, u64), IndexError> {
    let pos_path = dir.join(format!("{stem}.pos"));
    let pos = File::create(&pos_path).map_err(|e| IndexError::io(&pos_path, e))?;
    write_all_at(&pos, &header::<Posting>(), 0).map_err(|e| IndexError::io(&pos_path, e))?;
    let pos_starts = units.pos_starts();
    let out = PosOut {
        file: &pos,
        path: &pos_path,
        starts: &pos_starts,
    };
    let stats_path = dir.join(format!("{stem}.stats"));
    let mut stats = RecordWriter::<StatsRecord>::create(&stats_path)?;
    let mut singles = RecordWriter::<Single>::create(&dir.join(format!("{stem}.single")))?;
    let stats_file = stats.handle()?;
    let count = units.len();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let pool = Pool::default();
    let written = std::thread::scope(|scope| {
        let (register, registered) = channel::<(usize, Receiver<Piece>)>();
        // `.pos` written back as units are done, not all at the final `sync_all` (a
        // quarter of a second for 512 MB here, with every core idle); `.stats` too
        // (what is written of it so far: 0.05-0.1 s at the end for its 141 MB).
        let (unit_done, units_done) = channel::<()>();
        let file = &pos;
        let stats_file = &stats_file;
        let (pos_path, stats_path) = (&pos_path, &stats_path);
        let syncer = scope.spawn(move || -> Result<(), IndexError> {
            while units_done.recv().is_ok() {
                while units_done.try_recv().is_ok() {}
                file.sync_data().map_err(|e| IndexError::io(pos_path, e))?;
                stats_file
                    .sync_data()
                    .map_err(|e| IndexError::io(stats_path, e))?;
            }
            Ok(())
        });
        let workers: Vec<_> = (0..threads.clamp(1, 64).min(count.max(1)))
            .map(|_| {
                let register = register.clone();
                let unit_done = unit_done.clone();
                let (next, stop, pool, out) = (&next, &stop, &pool, &out);
                scope.spawn(move || -> Result<(), IndexError> {
                    let mut space = SortSpace::default();
                    let mut encoded = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count || stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let (tx, rx) = sync_channel(QUEUED);
                        if register.send((i, rx)).is_err() {
                            return Ok(());
                        }
                        let room = (&mut space, &mut encoded);
                        match run_unit(units, i, scores, pool, out, room, tx) {
                            Ok(true) => {
                                let _ = unit_done.send(());
                            }
                            Ok(false) => return Ok(()),
                            Err(e) => {
                                stop.store(true, Ordering::Relaxed);
                                return Err(e);
                            }
                        }
                    }
                })
            })
            .collect();
        drop(register);
        drop(unit_done);
        let written = write_units(count, &registered, &pool, &mut stats, &mut singles);
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        drop(registered);
        let mut worked = Ok(());
        for w in workers {
            let r = w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
            if worked.is_ok() {
                worked = r;
            }
        }
        // A write-back error is kept to the end: the next sync might not report it again.
        let synced = syncer
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        worked.and(written).and(synced)
    });
    written?;
    pos.sync_all().map_err(|e| IndexError::io(pos_path, e))?;
    let positions = pos_starts.last().copied().unwrap_or(0);
    Ok((positions, stats.finish()?, singles.finish()?))
}

/// The writing side of [`write_sorted`]: the pieces of unit 0, then of unit
/// 1, and so on, as the workers register them. Stops at a unit never
/// registered (a worker stopped on an error, which is the one reported).
fn write_units(
    count: usize,
    registered: &Receiver<(usize, Receiver<Piece>)>,
    pool: &Pool,
    stats: &mut RecordWriter<StatsRecord>,
    singles: &mut RecordWriter<Single>,
) -> Result<(), IndexError> {
    let mut waiting: HashMap<usize, Receiver<Piece>> = HashMap::new();
    for i in 0..count {
        let rx = loop {
            if let Some(rx) = waiting.remove(&i) {
                break rx;
            }
            match registered.recv() {
                Ok((j, rx)) => {
                    waiting.insert(j, rx);
                }
                Err(_) => return Ok(()),
            }
        };
        for piece in rx {
            stats.push_bytes(&piece.stats)?;
            singles.push_bytes(&piece.singles)?;
            pool.put(piece);
        }
    }
    Ok(())
}

/// Where the workers write `.pos`: the file, and where each unit's
/// postings start ([`Units::pos_starts`]).
struct PosOut<'a> {
    file: &'a File,
    path: &'a Path,
    starts: &'a [u64],
}

/// Sorts (if need be) and counts unit `i` of `units`: its postings written
/// to `.pos` in their place, their statistics in pieces sent to `tx`;
/// `false` when the writing side has stopped. `room`: where a partition is
/// sorted and postings encoded, kept from one unit to the next.
fn run_unit(
    units: &Units<'_>,
    i: usize,
    scores: &[Scores],
    pool: &Pool,
    out: &PosOut<'_>,
    room: (&mut SortSpace, &mut Vec<u8>),
    tx: SyncSender<Piece>,
) -> Result<bool, IndexError> {
    let (space, encoded) = room;
    let mut sink = Sink {
        counter: Counter::new(scores),
        tx,
        pool,
        pending: None,
        out,
        at: out.starts[i],
        encoded,
    };
    let fed = match units {
        Units::Sorted { postings, cuts } => sink.take(&postings[cuts[i]..cuts[i + 1]])?,
        Units::Parts {
            store,
            last,
            starts,
            limit,
        } => {
            let extra: Vec<&[u128]> = starts.iter().map(|s| &last[s[i]..s[i + 1]]).collect();
            feed_part(
                store,
                i,
                &extra,
                128 - PART_BITS,
                *limit,
                space,
                &mut |sorted| sink.take(sorted),
            )?
        }
    };
    if fed && sink.at != out.starts[i + 1] {
        return Err(IndexError::corrupt(
            out.path,
            "a spill file changed while it was read back",
        ));
    }
    Ok(fed && sink.finish())
}

/// A unit's sorted postings written to `.pos`, counted into pieces and
/// sent on.
struct Sink<'a> {
    counter: Counter<'a>,
    tx: SyncSender<Piece>,
    pool: &'a Pool,
    /// The last piece, kept until the next one or the end (the open
    /// (key, move) is counted into it).
    pending: Option<Piece>,
    out: &'a PosOut<'a>,
    /// The number among all postings of the next one to write.
    at: u64,
    /// Postings encoded to be written.
    encoded: &'a mut Vec<u8>,
}

impl Sink<'_> {
    /// Writes and counts `sorted` (the next postings of the unit); `false`
    /// when the writing side has stopped.
    fn take(&mut self, sorted: &[u128]) -> Result<bool, IndexError> {
        for chunk in sorted.chunks(PIECE) {
            self.encoded.clear();
            put_packed_postings(chunk, self.encoded);
            let offset = HEADER + self.at * Posting::SIZE as u64;
            write_all_at(self.out.file, self.encoded, offset)
                .map_err(|e| IndexError::io(self.out.path, e))?;
            self.at += chunk.len() as u64;
            let mut piece = match self.pending.take() {
                Some(piece) if piece.stats.len() + piece.singles.len() < SEND_BYTES => piece,
                Some(full) => {
                    if self.tx.send(full).is_err() {
                        return Ok(false);
                    }
                    self.pool.get()
                }
                None => self.pool.get(),
            };
            self.counter.count(chunk, &mut piece);
            self.pending = Some(piece);
        }
        Ok(true)
    }

    /// Counts the last (key, move) and sends the last piece.
    fn finish(mut self) -> bool {
        let mut piece = self.pending.take().unwrap_or_else(|| self.pool.get());
        self.counter.finish(&mut piece);
        self.tx.send(piece).is_ok()
    }
}

/// A (key, move) of the sorted postings, being counted. Most are played
/// in one game (a [`Single`]): the first game's scores are kept as they
/// are, and summed only once a second game plays it.
#[derive(Clone, Copy, Default)]
struct Group {
    /// The packed postings' bits from 48 up: key and move.
    top: u128,
    /// The last game counted (a game that reaches the (key, move) twice
    /// counts once).
    last: u32,
    /// Games counted.
    games: u32,
    /// The first game's scores.
    first: Scores,
    /// The games' sums, once there are two (stale before).
    sums: Sums,
}

/// The sums of a (key, move)'s games: of fixed size, each game added with
/// no branch on its scores.
#[derive(Clone, Copy, Default)]
struct Sums {
    /// Games by [`Scores::result`] (4 and up: none of them).
    results: [u32; 5],
    white_rating_count: u32,
    black_rating_count: u32,
    white_rating_sum: u64,
    black_rating_sum: u64,
    /// The greatest `date << 32 | game`: the latest game (greatest date, then
    /// the last), as [`Tally`](crate::tree::Tally) picks it.
    latest: u64,
    /// The greatest `(white + black rating) << 32 | !game` of the games with
    /// both ratings, or 0: the highest rated, then the first.
    best: u64,
}

impl Sums {
    /// Adds `game`.
    #[inline]
    fn add(&mut self, game: u32, s: &Scores) {
        self.results[usize::from(s.result.min(4))] += 1;
        self.white_rating_count += u32::from(s.white_elo > 0);
        self.black_rating_count += u32::from(s.black_elo > 0);
        self.white_rating_sum += u64::from(s.white_elo);
        self.black_rating_sum += u64::from(s.black_elo);
        self.latest = self.latest.max(u64::from(s.date) << 32 | u64::from(game));
        let both = s.white_elo > 0 && s.black_elo > 0;
        let rating = u64::from(s.white_elo) + u64::from(s.black_elo);
        let best = rating << 32 | u64::from(!game);
        self.best = self.best.max(if both { best } else { 0 });
    }
}

impl Group {
    /// Starts counting the (key, move) `top`, first played in `game`.
    #[inline]
    fn start(&mut self, top: u128, game: u32, scores: &Scores) {
        self.top = top;
        self.last = game;
        self.games = 1;
        self.first = *scores;
    }

    /// Counts `game`, not the last one counted.
    #[inline]
    fn add(&mut self, game: u32, scores: &Scores) {
        if self.games == 1 {
            self.sums = Sums::default();
            self.sums.add(self.last, &self.first);
        }
        self.sums.add(game, scores);
        self.games += 1;
        self.last = game;
    }
}

/// Counts a unit's sorted postings: a (key, move) played in several games
/// gives a [`StatsRecord`], one played in one game a [`Single`], a game's
/// final position (no move) nothing.
struct Counter<'a> {
    /// The games' scores, by segment number.
    scores: &'a [Scores],
    group: Option<Group>,
    block_scores: Vec<Scores>,
}

impl Counter<'_> {
    fn new(scores: &[Scores]) -> Counter<'_> {
        Counter {
            scores,
            group: None,
            block_scores: Vec::with_capacity(BLOCK),
        }
    }

    /// Counts `chunk` into `piece`.
    fn count(&mut self, chunk: &[u128], piece: &mut Piece) {
        for block in chunk.chunks(BLOCK) {
            // The block's games' scores read before they are counted: loads
            // that do not wait for each other, where a read per posting in
            // the loop below would wait for each (the games of a key are far
            // apart).
            self.block_scores.clear();
            self.block_scores.extend(
                block
                    .iter()
                    .map(|&p| self.scores[(p >> 16) as u32 as usize]),
            );
            let mut group = match self.group.take() {
                Some(g) => g,
                None => match block.first() {
                    Some(&p) => {
                        let mut g = Group::default();
                        g.start(p >> 48, (p >> 16) as u32, &self.block_scores[0]);
                        g
                    }
                    None => continue,
                },
            };
            for (&p, p_scores) in block.iter().zip(&self.block_scores) {
                let top = p >> 48;
                let game = (p >> 16) as u32;
                if group.top == top {
                    if group.last != game {
                        group.add(game, p_scores);
                    }
                } else {
                    flush(&group, piece);
                    group.start(top, game, p_scores);
                }
            }
            self.group = Some(group);
        }
    }

    /// Counts the open (key, move) into `piece`: the unit ends.
    fn finish(&mut self, piece: &mut Piece) {
        if let Some(g) = self.group.take() {
            flush(&g, piece);
        }
    }
}

/// The record of a (key, move) counted whole: a [`Single`] or a
/// [`StatsRecord`], encoded as their `put` does (one copy of the record's
/// bytes, not one a field).
fn flush(g: &Group, piece: &mut Piece) {
    let key = (g.top >> 16) as u64;
    let mv = g.top as u16;
    if mv == NO_MOVE {
        return;
    }
    if g.games == 1 {
        let n = u128::from(key) | u128::from(mv) << 64 | u128::from(g.last) << 96;
        piece.singles.extend_from_slice(&n.to_le_bytes());
        return;
    }
    let mut b = [0u8; StatsRecord::SIZE];
    b[..8].copy_from_slice(&key.to_le_bytes());
    b[8..10].copy_from_slice(&mv.to_le_bytes());
    let sums = &g.sums;
    let counts = [
        g.games,
        sums.results[1],
        sums.results[3],
        sums.results[2],
        sums.white_rating_count,
        sums.black_rating_count,
    ];
    for (i, v) in counts.into_iter().enumerate() {
        b[12 + 4 * i..16 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    b[40..48].copy_from_slice(&sums.white_rating_sum.to_le_bytes());
    b[48..56].copy_from_slice(&sums.black_rating_sum.to_le_bytes());
    b[56..60].copy_from_slice(&(sums.latest as u32).to_le_bytes());
    let best = if sums.best == 0 {
        u32::MAX
    } else {
        !(sums.best as u32)
    };
    b[60..64].copy_from_slice(&best.to_le_bytes());
    piece.stats.extend_from_slice(&b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_begin_a_key_and_move() {
        // Groups of 3 postings of one (key, move), 100k postings.
        let postings: Vec<u128> = (0..100_000u128).map(|i| (i / 3) << 48 | i).collect();
        let cuts = cuts(&postings, 10);
        assert_eq!(cuts[0], 0);
        assert_eq!(*cuts.last().unwrap(), postings.len());
        assert!(cuts.len() > 2);
        for w in cuts.windows(2) {
            assert!(w[0] < w[1]);
            assert_ne!(
                postings[w[1] - 1] >> 48,
                postings.get(w[1]).map_or(u128::MAX, |p| p >> 48)
            );
        }
        assert_eq!(super::cuts(&[], 10), vec![0]);
    }

    /// The counted records are those [`Tally`] and the records' `put` make,
    /// whatever where the chunks and blocks end: singles, games reaching a
    /// (key, move) twice, final positions, unknown results and ratings,
    /// equal dates and ratings (ties).
    #[test]
    fn counted_records_are_the_tallies() {
        use crate::tree::Tally;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let scores: Vec<Scores> = (0..500)
            .map(|_| {
                let r = next();
                Scores {
                    date: [0, 20240101, 20240102, 19990000][r as usize % 4],
                    white_elo: [0, 1500, 2000, 2500][(r >> 8) as usize % 4],
                    black_elo: [0, 1500, 2000, 2500][(r >> 16) as usize % 4],
                    result: (r >> 24) as u8 % 4,
                }
            })
            .collect();
        let mut postings: Vec<u128> = (0..20_000)
            .map(|_| {
                let r = next();
                let key = r % 4000;
                let mv = if r >> 20 & 15 == 0 {
                    NO_MOVE
                } else {
                    (r >> 10) as u16 % 3
                };
                let game = (r >> 32) as u32 % 500;
                u128::from(key) << 64
                    | u128::from(mv) << 48
                    | u128::from(game) << 16
                    | ((r >> 50) as u128 % 3)
            })
            .collect();
        postings.sort_unstable();

        let (mut stats, mut singles) = (Vec::new(), Vec::new());
        let mut at = 0;
        while at < postings.len() {
            let top = postings[at] >> 48;
            let end = at
                + postings[at..]
                    .iter()
                    .take_while(|&&p| p >> 48 == top)
                    .count();
            let mut games: Vec<u32> = postings[at..end]
                .iter()
                .map(|&p| (p >> 16) as u32)
                .collect();
            games.dedup();
            let (key, mv) = ((top >> 16) as u64, top as u16);
            if mv != NO_MOVE && games.len() == 1 {
                Single {
                    key,
                    mv,
                    game: games[0],
                }
                .put(&mut singles);
            } else if mv != NO_MOVE {
                let mut tally = Tally::default();
                for &g in &games {
                    tally.add_scores(&scores[g as usize], u64::from(g));
                }
                let s = tally.stats;
                StatsRecord {
                    key,
                    mv,
                    games: s.games as u32,
                    white: s.white as u32,
                    draws: s.draws as u32,
                    black: s.black as u32,
                    white_rating_count: s.white_rating_count as u32,
                    white_rating_sum: s.white_rating_sum,
                    black_rating_count: s.black_rating_count as u32,
                    black_rating_sum: s.black_rating_sum,
                    latest: tally.latest.map_or(u32::MAX, |(_, o)| o as u32),
                    best: tally.best.map_or(u32::MAX, |(_, o)| o as u32),
                }
                .put(&mut stats);
            }
            at = end;
        }
        assert!(stats.len() > 100 * StatsRecord::SIZE && singles.len() > 100 * Single::SIZE);

        for chunk in [1, 7, 4096, 20_000] {
            let mut counter = Counter::new(&scores);
            let mut piece = Piece::default();
            for c in postings.chunks(chunk) {
                counter.count(c, &mut piece);
            }
            counter.finish(&mut piece);
            assert!(piece.stats == stats, "chunks of {chunk}");
            assert!(piece.singles == singles, "chunks of {chunk}");
        }
    }
}
