//! An index opened for reading ([`Index`]): its manifest read and every
//! segment file's header and length checked against it, then lookups by
//! Polyglot key: the pieces of the key's partition found by binary searches
//! over the segment's `.pieces` and read from its `.pos`.
//! Anything that does not fit (a game number past the segment's games, a
//! source past the manifest's) is a [`IndexError::Corrupt`] naming the file.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use pgnkit_chess::Position;
use pgnkit_input::{Options, Source, open};

use crate::error::IndexError;
use crate::game_info::Filter;
use crate::key_postings::{GameOrder, KeyPostings};
use crate::manifest::{Manifest, SourceEntry};
use crate::record::{
    GameRecord, HEADER, NO_MOVE, Piece, Posting, Record, RecordFile, read_exact_at,
};
use crate::search::{FoundGame, GameHit, GameHits, Hit, Joined, SearchOptions};
use crate::tree::{GameSummary, Tally, Tree, finish};

/// Postings whose games are at most this many records apart share one read
/// of the games file (64 records: 3 KiB, cheaper to copy than another read).
const GAME_READ_GAP: u32 = 64;

/// The most game records one read spans (16 Ki records: 768 KiB).
const GAME_READ_MAX: u32 = 16 << 10;

/// The most bytes of names one read spans (names of games in one run of records).
const NAMES_READ_MAX: u64 = 64 << 10;

/// A segment opened for reading.
#[derive(Debug)]
struct Segment {
    /// Order of its first game among all games.
    base: u64,
    games: RecordFile<GameRecord>,
    positions: RecordFile<Posting>,
    pieces: RecordFile<Piece>,
    names: File,
    names_path: PathBuf,
    names_bytes: u64,
}

/// A position index opened for reading.
#[derive(Debug)]
pub struct Index {
    path: PathBuf,
    manifest: Manifest,
    segments: Vec<Segment>,
}

impl Index {
    /// Opens the index at `path` (a folder made by [`build`](fn@crate::build)).
    pub fn open(path: impl AsRef<Path>) -> Result<Index, IndexError> {
        let path = path.as_ref();
        let manifest = Manifest::read(path)?;
        let mut segments = Vec::new();
        let mut base = 0;
        for entry in &manifest.segments {
            let file = |ext: &str| path.join(format!("{}.{ext}", entry.stem));
            let names_path = file("names");
            let names = File::open(&names_path).map_err(|e| IndexError::io(&names_path, e))?;
            let size = names
                .metadata()
                .map_err(|e| IndexError::io(&names_path, e))?
                .len();
            if HEADER.checked_add(entry.names_bytes) != Some(size) {
                return Err(IndexError::corrupt(
                    &names_path,
                    format!(
                        "{} bytes where the manifest says {}",
                        size,
                        HEADER.saturating_add(entry.names_bytes)
                    ),
                ));
            }
            segments.push(Segment {
                base,
                games: RecordFile::open(&file("games"), entry.games)?,
                positions: RecordFile::open(&file("pos"), entry.positions)?,
                pieces: RecordFile::open(&file("pieces"), entry.pieces)?,
                names,
                names_path,
                names_bytes: entry.names_bytes,
            });
            base = base.checked_add(entry.games).ok_or_else(|| {
                IndexError::corrupt(path.join(crate::manifest::MANIFEST), "more games than fit")
            })?;
        }
        Ok(Index {
            path: path.to_path_buf(),
            manifest,
            segments,
        })
    }

    /// The index's folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Games indexed.
    pub fn games(&self) -> u64 {
        self.manifest.games()
    }

    /// Positions indexed.
    pub fn positions(&self) -> u64 {
        self.manifest.segments.iter().map(|s| s.positions).sum()
    }

    /// Segments (one per build or append).
    pub fn segments(&self) -> usize {
        self.segments.len()
    }

    /// Checks every source file against what was recorded when it was
    /// indexed (size, sample hash, modification time).
    pub fn verify_sources(&self) -> Result<(), IndexError> {
        let mut seen: Vec<&Path> = Vec::new();
        for source in &self.manifest.sources {
            if !seen.contains(&source.path.as_path()) {
                source.verify()?;
                seen.push(&source.path);
            }
        }
        Ok(())
    }

    /// The tree of `pos` over the games `filter` admits: every posting of the
    /// position and its game read, in each segment.
    pub fn tree(&self, pos: &Position, filter: &Filter) -> Result<Tree, IndexError> {
        let key = pos.polyglot_key();
        let mut tallies: BTreeMap<u16, Tally> = BTreeMap::new();
        for seg in &self.segments {
            // (game, move) as one number, the game's final position (no move) left out.
            let mut pairs = self.key_postings(seg, key)?.all(&seg.positions, |p| {
                u64::from(p.game) << 16 | u64::from(p.mv)
            })?;
            pairs.retain(|&n| n as u16 != NO_MOVE);
            // A game counts once per move, whatever the plies. The postings come in game
            // order, so a stable sort has little to do: it orders the moves of a game that
            // reaches the position more than once.
            pairs.sort();
            pairs.dedup();
            let ids: Vec<u32> = pairs.iter().map(|&n| (n >> 16) as u32).collect();
            // The names only of the games the rest of the filter admits, and only for a
            // filter that reads them.
            let mut names = filter
                .reads_names()
                .then(|| Names::new(seg, NAMES_READ_MAX));
            self.each_record(seg, &ids, &seg.positions.path, |i, g| {
                if !filter.admits_record(&g) {
                    return Ok(());
                }
                if let Some(names) = &mut names
                    && !filter.admits_name_bytes(names.bytes_of(&g)?)
                {
                    return Ok(());
                }
                let (mv, at) = (pairs[i] as u16, seg.base + (pairs[i] >> 16));
                tallies.entry(mv).or_default().add(&g, at);
                Ok(())
            })?;
        }
        finish(pos, tallies, |order| self.summary(order))
    }

    /// The games that reach `pos` in their main line, with each ply where
    /// they do, in input order. The source files are checked first
    /// ([`verify_sources`](Index::verify_sources)), so that no offset of a
    /// changed file is handed out.
    pub fn search(&self, pos: &Position) -> Result<Vec<Hit>, IndexError> {
        self.search_key(pos.polyglot_key())
    }

    /// [`search`](Index::search) by the position's Polyglot key (a query's
    /// `reaches "FEN"` or `hash KEY`).
    pub fn search_key(&self, key: u64) -> Result<Vec<Hit>, IndexError> {
        Ok(self.search_games(key)?.hits())
    }

    /// The games whose main line reaches the position of Polyglot key `key`,
    /// a game at a time with its plies: the hits of
    /// [`search_key`](Index::search_key), in the same order, without a
    /// [`Hit`] (two strings) made for each. The source files are checked first.
    pub fn search_games(&self, key: u64) -> Result<GameHits<'_>, IndexError> {
        let mut found = GameHits {
            sources: &self.manifest.sources,
            games: Vec::new(),
            plies: Vec::new(),
        };
        self.visit_games(key, |source, _, offset, number, plies| {
            found.plies.extend_from_slice(plies);
            found.games.push(FoundGame {
                source,
                offset,
                number,
                plies_end: found.plies.len() as u32,
            });
            Ok::<(), IndexError>(())
        })?;
        Ok(found)
    }

    /// The games of [`search_games`](Index::search_games), in the same order, each handed
    /// to `each` as soon as its record is read and nothing kept of it afterwards: a common
    /// position has hundreds of thousands of games, and a list of them all would cost more
    /// than the answer (the memory held is that of the position's postings, 8 bytes each).
    /// `options` says how the postings are read and whether the games at one place are
    /// joined ([`SearchOptions`]). The source files are checked, and the game numbers of
    /// the postings read first, before the first game is handed out; a game record found
    /// corrupt on the way (a source past the manifest's) ends the search with that error,
    /// after the games before it. An error of `each` ends the search and is returned.
    pub fn search_each<E: From<IndexError>>(
        &self,
        key: u64,
        options: SearchOptions,
        mut each: impl FnMut(GameHit<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        match (options.join_places, options.lazy) {
            (false, false) => self.visit_games(key, |_, source, offset, number, plies| {
                each(GameHit::of(source, offset, number, plies))
            }),
            (false, true) => self.visit_games_lazy(key, |source, offset, number, plies| {
                each(GameHit::of(source, offset, number, plies))
            }),
            (true, lazy) => {
                let mut joined = Joined::default();
                let mut hit = |source, offset, number, plies: &[u32]| {
                    joined.hit(source, offset, number, plies, &mut each)
                };
                match lazy {
                    true => self.visit_games_lazy(key, hit)?,
                    false => self.visit_games(key, |_, source, offset, number, plies| {
                        hit(source, offset, number, plies)
                    })?,
                }
                joined.finish(&mut each)
            }
        }
    }

    /// What [`search_each`](Index::search_each) finds with [`SearchOptions::lazy`], handed
    /// to `each` a game at a time: its source (checked against the manifest), offset,
    /// number and plies.
    fn visit_games_lazy<'s, E: From<IndexError>>(
        &'s self,
        key: u64,
        mut each: impl FnMut(&'s SourceEntry, u64, u64, &[u32]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.verify_sources()?;
        let mut orders = Vec::with_capacity(self.segments.len());
        for seg in &self.segments {
            orders.push(GameOrder::new(self.key_postings(seg, key)?));
        }
        let mut plies = Vec::new();
        let mut bytes = Vec::new();
        for (seg, mut order) in self.segments.iter().zip(orders) {
            // The records of the games handed out, read GAME_READ_GAP at a time.
            let mut block: Option<(u32, u32)> = None;
            while let Some(id) = order.next_game(&seg.positions, &mut plies)? {
                let (first, last) = match block {
                    Some((first, last)) if (first..last).contains(&id) => (first, last),
                    _ => {
                        let last = (u64::from(id) + u64::from(GAME_READ_GAP)).min(seg.games.len);
                        // `id` is below the segment's games (checked by GameOrder::new).
                        let last = last as u32;
                        seg.games
                            .read_bytes(u64::from(id), u64::from(last), &mut bytes)?;
                        block = Some((id, last));
                        (id, last)
                    }
                };
                debug_assert!(id < last);
                let at = (id - first) as usize * GameRecord::SIZE;
                let (offset, number, source) = GameRecord::place(&bytes[at..at + GameRecord::SIZE]);
                let entry = self.source_entry(seg, source)?;
                each(entry, offset, number, &plies)?;
            }
        }
        Ok(())
    }

    /// The manifest's source `source`, named by a game record of `seg`.
    #[inline]
    fn source_entry<'s>(
        &'s self,
        seg: &Segment,
        source: u32,
    ) -> Result<&'s SourceEntry, IndexError> {
        self.manifest.sources.get(source as usize).ok_or_else(|| {
            IndexError::corrupt(
                &seg.games.path,
                format!(
                    "source {source} where the manifest has {}",
                    self.manifest.sources.len()
                ),
            )
        })
    }

    /// What [`search_games`](Index::search_games) and [`search_each`](Index::search_each)
    /// find, handed to `each` a game at a time: its source (number and entry, checked
    /// against the manifest), offset, number and plies.
    fn visit_games<'s, E: From<IndexError>>(
        &'s self,
        key: u64,
        mut each: impl FnMut(u32, &'s SourceEntry, u64, u64, &[u32]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.verify_sources()?;
        // Every segment's postings first, as (game, ply) numbers in order, their game
        // numbers checked: an index whose postings are corrupt hands out no game.
        let mut postings = Vec::with_capacity(self.segments.len());
        for seg in &self.segments {
            let mut numbers = self.key_postings(seg, key)?.all(&seg.positions, |p| {
                u64::from(p.game) << 16 | u64::from(p.ply)
            })?;
            // In order already (the games were read in order): a check, unless the index
            // is damaged.
            numbers.sort();
            postings.push(numbers);
        }
        let game_of = |p: u64| (p >> 16) as u32;
        let mut bytes = Vec::new();
        let mut plies = Vec::new();
        for (seg, postings) in self.segments.iter().zip(&postings) {
            let mut rest = &postings[..];
            while let Some(&head) = rest.first() {
                // The records of nearby games are read in one read, not one read a game:
                // a read costs about a microsecond.
                let first = game_of(head);
                let (mut n, mut last) = (1, first);
                while let Some(&p) = rest.get(n) {
                    let id = game_of(p);
                    if id - last > GAME_READ_GAP || id - first >= GAME_READ_MAX {
                        break;
                    }
                    last = id;
                    n += 1;
                }
                let (mut run, after) = rest.split_at(n);
                rest = after;
                let run_bytes =
                    seg.games
                        .read_bytes(u64::from(first), u64::from(last) + 1, &mut bytes)?;
                while let Some(&head) = run.first() {
                    // A game's postings follow one another, its plies in order.
                    let id = game_of(head);
                    let k = run
                        .iter()
                        .position(|&p| game_of(p) != id)
                        .unwrap_or(run.len());
                    let (game, after) = run.split_at(k);
                    run = after;
                    // Most games reach a position once: their ply needs no list.
                    let one;
                    let plies: &[u32] = if let [p] = game {
                        one = [(p & 0xffff) as u32];
                        &one
                    } else {
                        plies.clear();
                        plies.extend(game.iter().map(|&p| (p & 0xffff) as u32));
                        &plies
                    };
                    let at = (id - first) as usize * GameRecord::SIZE;
                    let (offset, number, source) =
                        GameRecord::place(&run_bytes[at..at + GameRecord::SIZE]);
                    let entry = self.source_entry(seg, source)?;
                    each(source, entry, offset, number, plies)?;
                }
            }
        }
        Ok(())
    }

    /// The text of the game of `hit`, read from its source (compressed
    /// files are decoded up to it); the source is checked first.
    pub fn game_text(&self, hit: &Hit) -> Result<Vec<u8>, IndexError> {
        let source = self
            .manifest
            .sources
            .iter()
            .find(|s| s.path == hit.path && s.stream == hit.stream)
            .ok_or_else(|| {
                IndexError::Position(format!("{}: not a source of this index", hit.source))
            })?;
        source.verify()?;
        let options = Options {
            threads: 1,
            ..Options::default()
        };
        let opened = open(Source::path(&source.path), None, &options)?;
        let stream = opened
            .streams
            .into_iter()
            .nth(source.stream as usize)
            .ok_or_else(|| IndexError::SourceChanged {
                path: source.path.clone(),
                what: format!("its stream {} is gone", source.stream),
            })?;
        let mut reader = stream.reader;
        std::io::copy(&mut (&mut reader).take(hit.offset), &mut std::io::sink())
            .map_err(|e| IndexError::io(&source.path, e))?;
        let mut games = pgnkit_lexer::Reader::new(reader);
        match games.next_game() {
            Ok(Some(game)) => Ok(game.bytes.to_vec()),
            Ok(None) => Err(IndexError::SourceChanged {
                path: source.path.clone(),
                what: format!("no game at offset {}", hit.offset),
            }),
            Err(e) => Err(IndexError::io(&source.path, e)),
        }
    }

    /// The postings of `key` in `seg`, to be read.
    fn key_postings(&self, seg: &Segment, key: u64) -> Result<KeyPostings, IndexError> {
        KeyPostings::new(&seg.positions, &seg.pieces, key, seg.games.len)
    }

    fn game_record(&self, seg: &Segment, id: u32, from: &Path) -> Result<GameRecord, IndexError> {
        if u64::from(id) >= seg.games.len {
            return Err(IndexError::corrupt(
                from,
                format!("game {id} where the segment has {} games", seg.games.len),
            ));
        }
        seg.games.get(u64::from(id))
    }

    /// Hands `each` the record of each game of `ids` of `seg` (in ascending order, repeats
    /// allowed), with its place in `ids`. They are read in runs of nearby games, one read
    /// each, not one read per game: a common position has tens of thousands of games and a
    /// read costs about a microsecond. Only the records asked for are decoded, and none is
    /// kept: the start position's tree reads every game.
    fn each_record(
        &self,
        seg: &Segment,
        ids: &[u32],
        from: &Path,
        mut each: impl FnMut(usize, GameRecord) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let mut bytes = Vec::new();
        let mut rest = ids;
        let mut done = 0;
        while let Some(&first) = rest.first() {
            let mut n = 1;
            while let Some(&id) = rest.get(n)
                && id
                    .checked_sub(rest[n - 1])
                    .is_some_and(|gap| gap <= GAME_READ_GAP)
                && id - first < GAME_READ_MAX
            {
                n += 1;
            }
            let (run, after) = rest.split_at(n);
            rest = after;
            let last = run[n - 1];
            if u64::from(last) >= seg.games.len {
                return Err(IndexError::corrupt(
                    from,
                    format!("game {last} where the segment has {} games", seg.games.len),
                ));
            }
            let run_bytes =
                seg.games
                    .read_bytes(u64::from(first), u64::from(last) + 1, &mut bytes)?;
            for (i, &id) in run.iter().enumerate() {
                let at = (id - first) as usize * GameRecord::SIZE;
                each(
                    done + i,
                    GameRecord::get(&run_bytes[at..at + GameRecord::SIZE]),
                )?;
            }
            done += n;
        }
        Ok(())
    }

    fn names(&self, seg: &Segment, g: &GameRecord) -> Result<String, IndexError> {
        Ok(Names::new(seg, 0).of(g)?.into_owned())
    }

    fn source(&self, g: &GameRecord, from: &Path) -> Result<&SourceEntry, IndexError> {
        self.manifest.sources.get(g.source as usize).ok_or_else(|| {
            IndexError::corrupt(
                from,
                format!(
                    "source {} where the manifest has {}",
                    g.source,
                    self.manifest.sources.len()
                ),
            )
        })
    }

    /// The game whose order (among all indexed games) is `order`.
    fn summary(&self, order: u64) -> Result<GameSummary, IndexError> {
        let seg = self
            .segments
            .iter()
            .rev()
            .find(|s| s.base <= order)
            .ok_or_else(|| IndexError::corrupt(&self.path, "a game number out of range"))?;
        let g = self.game_record(seg, (order - seg.base) as u32, &seg.positions.path)?;
        let names = self.names(seg, &g)?;
        let source = self.source(&g, &seg.games.path)?;
        Ok(GameSummary::new(
            &g,
            &names,
            source.name.clone(),
            source.path.clone(),
        ))
    }
}

/// The names of games of a segment, asked in ascending order of their place in the names
/// file (the games' order), read a window of at least a given size at a time: one read for
/// the names of many games, none of them copied unless it is not UTF-8.
struct Names<'s> {
    seg: &'s Segment,
    /// Bytes read at least at a time.
    window: u64,
    /// The names file's bytes `at..at + bytes.len()` (after its header).
    bytes: Vec<u8>,
    at: u64,
}

impl<'s> Names<'s> {
    fn new(seg: &'s Segment, window: u64) -> Names<'s> {
        Names {
            seg,
            window,
            bytes: Vec::new(),
            at: 0,
        }
    }

    /// The names of `g`, `White\u{1f}Black`.
    fn of(&mut self, g: &GameRecord) -> Result<Cow<'_, str>, IndexError> {
        Ok(String::from_utf8_lossy(self.bytes_of(g)?))
    }

    /// The names of `g` as the names file holds them.
    fn bytes_of(&mut self, g: &GameRecord) -> Result<&[u8], IndexError> {
        let (start, len) = (g.names_offset, u64::from(g.names_len));
        let Some(end) = start
            .checked_add(len)
            .filter(|&e| e <= self.seg.names_bytes)
        else {
            return Err(IndexError::corrupt(
                &self.seg.games.path,
                "a game's names lie past the end of the names file",
            ));
        };
        if start < self.at || end > self.at + self.bytes.len() as u64 {
            let to = start
                .saturating_add(self.window)
                .clamp(end, self.seg.names_bytes);
            self.bytes.resize((to - start) as usize, 0);
            read_exact_at(&self.seg.names, &mut self.bytes, HEADER + start)
                .map_err(|e| IndexError::io(&self.seg.names_path, e))?;
            self.at = start;
        }
        let from = (start - self.at) as usize;
        Ok(&self.bytes[from..from + len as usize])
    }
}
