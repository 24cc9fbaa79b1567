//! pgnkit's side of `cargo xtask bench --peers`: the same four tasks as the
//! `peers` binary (pgn-reader + shakmaty), done with pgnkit, printing the same
//! one-line result so both sides can be compared.
//!
//! ```text
//! cargo run --release -p pgnkit --example tasks -- scan FILE       split into games + tokenize, one pass (pgnkit-lexer)
//! cargo run --release -p pgnkit --example tasks -- validate FILE   resolve every move, every line (pgnkit-game `Validate`)
//! cargo run --release -p pgnkit --example tasks -- san FILE        read + validate + export format (pgnkit-export `StreamWriter`)
//! cargo run --release -p pgnkit --example tasks -- trees FILE      build every game's tree (`Game`, as python-chess `read_game`)
//! cargo run --release -p pgnkit --example tasks -- perft           start position depth 5 + Kiwipete depth 4
//! ```
//!
//! Each task prints `TASK games=N bytes=B` (B: bytes read from FILE) or
//! `perft nodes=N` on standard output; notes (tokens, games with errors,
//! export bytes) go to standard error. The file is streamed in constant
//! memory.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;
use std::rc::Rc;

use pgnkit::chess::Position;
use pgnkit::export::{ExportOptions, StreamWriter};
use pgnkit::game::{Reader, Validate};

const USAGE: &str = "usage: tasks scan|validate|san|trees FILE | tasks perft";

/// Kiwipete, the usual second perft position.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Bytes read from the file at a time.
const CHUNK: usize = 64 * 1024;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [task] if task == "perft" => perft(),
        [task, file] if task == "scan" => scan(file),
        [task, file] if task == "validate" => validate(file),
        [task, file] if task == "san" => export(file),
        [task, file] if task == "trees" => trees(file),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("tasks: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A reader that counts the bytes read through it (into a shared cell, as
/// the game reader does not give its stream back).
struct Counting<R> {
    inner: R,
    bytes: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.set(self.bytes.get() + n as u64);
        Ok(n)
    }
}

/// A writer that only counts what it is given.
#[derive(Default)]
struct CountingSink {
    bytes: u64,
}

impl Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The file, buffered, counting what is read from it.
type Input = BufReader<Counting<File>>;

/// The file, buffered, and the count of bytes read from it.
fn open(path: &str) -> Result<(Input, Rc<Cell<u64>>), String> {
    let file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let bytes = Rc::new(Cell::new(0));
    let counting = Counting {
        inner: file,
        bytes: Rc::clone(&bytes),
    };
    Ok((BufReader::with_capacity(CHUNK, counting), bytes))
}

/// Splits the file into games and tokenizes every game (in one pass).
fn scan(path: &str) -> Result<String, String> {
    let (file, bytes) = open(path)?;
    let mut reader = pgnkit::lexer::Reader::new(file);
    let (mut games, mut tokens) = (0u64, 0u64);
    while let Some(game) = reader
        .next_tokenized()
        .map_err(|e| format!("{path}: {e}"))?
    {
        games += 1;
        tokens += game.tokens.len() as u64;
    }
    eprintln!("tasks scan: {tokens} tokens");
    let bytes = bytes.get();
    Ok(format!("scan games={games} bytes={bytes}"))
}

/// Resolves every move of every line with the `Validate` visitor.
fn validate(path: &str) -> Result<String, String> {
    let (file, bytes) = open(path)?;
    let mut reader = Reader::new(file);
    let (mut games, mut broken) = (0u64, 0u64);
    let mut visitor = Validate;
    while let Some(read) = reader.visit_next(&mut visitor) {
        let read = read.map_err(|e| format!("{path}: {e}"))?;
        games += 1;
        broken += u64::from(read.is_broken());
    }
    eprintln!("tasks validate: {broken} games with an error");
    let bytes = bytes.get();
    Ok(format!("validate games={games} bytes={bytes}"))
}

/// Reads, validates and writes every game in export format (the games
/// without errors, as `pgnkit export` does), to a sink that counts bytes.
fn export(path: &str) -> Result<String, String> {
    let (file, bytes) = open(path)?;
    let mut reader = Reader::new(file);
    let mut writer = StreamWriter::new(ExportOptions::export());
    let mut sink = CountingSink::default();
    let (mut games, mut broken) = (0u64, 0u64);
    while let Some(read) = reader.visit_next(&mut writer) {
        let read = read.map_err(|e| format!("{path}: {e}"))?;
        games += 1;
        if read.is_broken() {
            broken += 1;
        } else {
            writer
                .write_game_to(&mut sink)
                .map_err(|e| format!("writing: {e}"))?;
        }
    }
    eprintln!(
        "tasks san: {broken} games with an error, {} bytes of export format written",
        sink.bytes
    );
    let bytes = bytes.get();
    Ok(format!("san games={games} bytes={bytes}"))
}

/// Builds every game's tree (what python-chess's `read_game` does; the
/// peers have no such task).
fn trees(path: &str) -> Result<String, String> {
    let (file, bytes) = open(path)?;
    let (mut games, mut nodes) = (0u64, 0u64);
    for read in Reader::new(file) {
        let read = read.map_err(|e| format!("{path}: {e}"))?;
        games += 1;
        nodes += read.value.tree().capacity_used() as u64;
    }
    eprintln!("tasks trees: {nodes} nodes");
    let bytes = bytes.get();
    Ok(format!("trees games={games} bytes={bytes}"))
}

/// Perft of the start position to depth 5 and of Kiwipete to depth 4.
fn perft() -> Result<String, String> {
    let kiwipete = Position::from_fen(KIWIPETE).map_err(|e| format!("Kiwipete: {e}"))?;
    let nodes = Position::new().perft(5) + kiwipete.perft(4);
    Ok(format!("perft nodes={nodes}"))
}
