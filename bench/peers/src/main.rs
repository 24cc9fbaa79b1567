//! The peer side of `cargo xtask bench --peers`: the benchmark tasks done with
//! pgn-reader 0.29 and shakmaty 0.30, the way their own examples do them.
//!
//! ```text
//! peers scan FILE       syntax only: pgn-reader with a visitor that does nothing
//! peers validate FILE   resolve and play every SAN, main line and variations
//! peers san FILE        validate + write SAN with +/# for every move into a String
//! peers perft           shakmaty::perft: start position depth 5 + Kiwipete depth 4
//! ```
//!
//! Each task prints one line on standard output, `TASK games=N bytes=B` (B is
//! the number of bytes read from FILE) or `perft nodes=N`, the same line as
//! pgnkit's `tasks` example prints, so the xtask can check both sides agree.
//! Notes (games with an illegal move, SAN bytes written) go to standard error;
//! with `PEERS_VERBOSE` set, each illegal move is named there too.
//! The file is streamed: memory stays constant whatever its size.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const USAGE: &str = "usage: peers scan|validate|san FILE | peers perft";

/// Kiwipete, the usual second perft position.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [task] if task == "perft" => perft(),
        [task, file] if task == "scan" => scan(file),
        [task, file] if task == "validate" => validate(file, false),
        [task, file] if task == "san" => validate(file, true),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("peers: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    bytes: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
}

fn open(path: &str) -> Result<Reader<Counting<File>>, String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(Reader::new(Counting {
        inner: file,
        bytes: 0,
    }))
}

/// A visitor that does nothing: what pgn-reader's syntax pass costs alone.
struct Nothing;

impl Visitor for Nothing {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) {}
}

fn scan(path: &str) -> Result<String, String> {
    let mut reader = open(path)?;
    let mut games = 0u64;
    while reader
        .read_game(&mut Nothing)
        .map_err(|e| format!("{path}: {e}"))?
        .is_some()
    {
        games += 1;
    }
    let bytes = reader.into_inner().bytes;
    Ok(format!("scan games={games} bytes={bytes}"))
}

/// One line of play: the main line or an open variation.
#[derive(Clone, Default)]
struct Line {
    /// The position after the line's last move.
    pos: Chess,
    /// The position before the line's last move (its variations start there).
    prev: Chess,
    /// Whether the line has a move yet.
    has_move: bool,
    /// An illegal move was met: the rest of the line is skipped.
    dead: bool,
}

/// Resolves and plays every move of the main line and of every variation,
/// as pgn-reader's `examples/validate.rs` does for the main line (FEN tags
/// read in Chess960 mode, like the example, and castling rights without
/// their rook dropped, as pgnkit does for odds games). After an illegal move the rest
/// of that line is skipped and the game counts as invalid; the other lines
/// go on. With `write_san`, also writes every move as SAN with `+`/`#`
/// (`SanPlus::from_move_and_play_unchecked`) into a String reused per game.
struct Validator {
    write_san: bool,
    /// The starting position from a FEN tag.
    start: Option<Chess>,
    /// The FEN tag could not be read.
    bad_fen: bool,
    /// The game has an illegal move.
    broken: bool,
    current: Line,
    /// The lines the open variations interrupted; `None` for a skipped one.
    stack: Vec<Option<Line>>,
    san: String,
    /// Games begun so far.
    games: u64,
    /// Name each illegal move on standard error (`PEERS_VERBOSE` set).
    verbose: bool,
    invalid: u64,
    san_bytes: u64,
}

impl Visitor for Validator {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<()> {
        self.games += 1;
        self.start = None;
        self.bad_fen = false;
        self.broken = false;
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            match Fen::from_ascii(value.as_bytes()).ok().and_then(|fen| {
                fen.into_position(CastlingMode::Chess960)
                    .or_else(|e| e.ignore_invalid_castling_rights().map_err(drop))
                    .ok()
            }) {
                Some(pos) => self.start = Some(pos),
                None => {
                    if self.verbose {
                        eprintln!("game {}: bad FEN {value:?}", self.games);
                    }
                    self.bad_fen = true;
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<()> {
        if self.bad_fen {
            self.invalid += 1;
            return ControlFlow::Break(());
        }
        let pos = self.start.take().unwrap_or_default();
        self.current = Line {
            prev: pos.clone(),
            pos,
            has_move: false,
            dead: false,
        };
        self.stack.clear();
        self.san.clear();
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        let line = &mut self.current;
        if line.dead {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&line.pos) {
            Ok(m) => {
                line.prev.clone_from(&line.pos);
                if self.write_san {
                    SanPlus::from_move_and_play_unchecked(&mut line.pos, m)
                        .append_to_string(&mut self.san);
                    self.san.push(' ');
                } else {
                    line.pos.play_unchecked(m);
                }
                line.has_move = true;
            }
            Err(err) => {
                if self.verbose {
                    eprintln!("game {}: {err}: {san_plus}", self.games + 1);
                }
                line.dead = true;
                self.broken = true;
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<(), Skip> {
        if self.current.dead || !self.current.has_move {
            self.stack.push(None);
            return ControlFlow::Continue(Skip(true));
        }
        let start = self.current.prev.clone();
        let variation = Line {
            prev: start.clone(),
            pos: start,
            has_move: false,
            dead: false,
        };
        self.stack
            .push(Some(std::mem::replace(&mut self.current, variation)));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _movetext: &mut ()) -> ControlFlow<()> {
        if let Some(Some(line)) = self.stack.pop() {
            self.current = line;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) {
        self.invalid += u64::from(self.broken);
        self.san_bytes += self.san.len() as u64;
    }
}

fn validate(path: &str, write_san: bool) -> Result<String, String> {
    let mut reader = open(path)?;
    let mut validator = Validator {
        write_san,
        start: None,
        bad_fen: false,
        broken: false,
        current: Line::default(),
        stack: Vec::new(),
        san: String::new(),
        games: 0,
        verbose: std::env::var_os("PEERS_VERBOSE").is_some(),
        invalid: 0,
        san_bytes: 0,
    };
    let mut games = 0u64;
    while reader
        .read_game(&mut validator)
        .map_err(|e| format!("{path}: {e}"))?
        .is_some()
    {
        games += 1;
    }
    let bytes = reader.into_inner().bytes;
    let task = if write_san { "san" } else { "validate" };
    eprintln!(
        "peers {task}: {} games with an illegal move or bad FEN{}",
        validator.invalid,
        if write_san {
            format!(", {} bytes of SAN written", validator.san_bytes)
        } else {
            String::new()
        }
    );
    Ok(format!("{task} games={games} bytes={bytes}"))
}

fn perft() -> Result<String, String> {
    let kiwipete: Chess = KIWIPETE
        .parse::<Fen>()
        .map_err(|e| format!("Kiwipete FEN: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("Kiwipete position: {e}"))?;
    let nodes = shakmaty::perft(&Chess::default(), 5) + shakmaty::perft(&kiwipete, 4);
    Ok(format!("perft nodes={nodes}"))
}
