//! Reading PGN: `parsePgn` (a whole text to games), `check` (diagnostics only, the reader's
//! fast path), `PgnReader` (chunks in, games out, in constant memory) and `binaryError`
//! (pgnkit-input's rule for binary data that is not PGN text).
//!
//! All three are the game crate's readers: the games are the lexer's splitter's games, the
//! moves are resolved and the diagnostics found by `pgnkit-game`, exactly as for the command.
//! `PgnReader` feeds the pushed chunks to the game crate's streaming [`Reader`] through
//! `Feed`, a source that says "would block" when it has no bytes yet: the reader keeps its
//! place and goes on when the next chunk comes.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::rc::Rc;

use js_sys::{Array, Function};
use pgnkit_game::{ReadOptions, Reader, Validate, read_games_with, visit_games_with};
use pgnkit_input::{HEAD_LEN, binary_message};
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::type_error;
use crate::game::{JsGame, diagnostic_value, to_js};
use crate::input::{bytes, describe, string};
use crate::options::read_options;

/// Every game of `text` (a string or a `Uint8Array`), each with its diagnostics; `options`:
/// `{ strict, nestedComments, fixTagStrings }`. Bad PGN never throws: a broken game comes back with its errors.
#[wasm_bindgen(js_name = parsePgn, unchecked_return_type = "Game[]")]
pub fn parse_pgn(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
) -> Result<Array, JsValue> {
    let input = bytes(&text, "the PGN text")?;
    let options = read_options(&options.unwrap_or(JsValue::UNDEFINED))?;
    Ok(read_games_with(&input, options)
        .map(|read| {
            JsValue::from(JsGame::new(
                read.value,
                read.diagnostics,
                read.offset,
                read.line,
            ))
        })
        .collect())
}

/// The diagnostics of every game of `text`, without building games (what `pgnkit check`
/// does): `{ game, line, column, offset, severity, message, move, fen }` objects, `game`
/// counting from 1.
#[wasm_bindgen(unchecked_return_type = "CheckDiagnostic[]")]
pub fn check(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
) -> Result<Array, JsValue> {
    let input = bytes(&text, "the PGN text")?;
    let options = read_options(&options.unwrap_or(JsValue::UNDEFINED))?;
    let mut out = Vec::new();
    for (index, read) in visit_games_with(&input, Validate, options).enumerate() {
        for d in read.diagnostics.iter() {
            let mut value = diagnostic_value(d);
            if let Value::Object(fields) = &mut value {
                fields.insert("game".into(), (index + 1).into());
            }
            out.push(value);
        }
    }
    let array = Array::new();
    for value in &out {
        array.push(&to_js(value));
    }
    Ok(array)
}

/// The error the `pgnkit` command gives for the input `name` when `head` (its first bytes: a
/// string or a `Uint8Array`; the first 4096 are looked at) is binary data rather than PGN
/// text, or `null`: the rule of `pgnkit-input` (NUL bytes, and control characters making at
/// least one byte in twenty). `parsePgn` and `check` read any bytes given; a page or a tool
/// that takes files from users asks this first, to give one clear error for an image or an
/// executable.
#[wasm_bindgen(js_name = binaryError, unchecked_return_type = "string | null")]
pub fn binary_error(
    #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] head: JsValue,
) -> Result<JsValue, JsValue> {
    let name = string(&name, "the name")?;
    let head = bytes(&head, "the head")?;
    let head = head.get(..HEAD_LEN).unwrap_or(&head);
    Ok(binary_message(&name, head).map_or(JsValue::NULL, JsValue::from))
}

/// The chunks pushed and not yet read, and whether the input has ended.
#[derive(Default)]
struct Pending {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes of the front chunk already read.
    read: usize,
    /// Bytes read in all.
    taken: u64,
    ended: bool,
}

/// The stream the game crate's reader reads: the pushed chunks, then "would block" until
/// more come or the input ends.
#[derive(Clone, Default)]
struct Feed(Rc<RefCell<Pending>>);

impl Feed {
    /// Whether a read would not block.
    fn ready(&self) -> bool {
        let pending = self.0.borrow();
        pending.ended || !pending.chunks.is_empty()
    }

    /// How many bytes were read in all.
    fn taken(&self) -> u64 {
        self.0.borrow().taken
    }
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut pending = self.0.borrow_mut();
        let mut written = 0;
        while written < buf.len() {
            let start = pending.read;
            let Some(front) = pending.chunks.front() else {
                break;
            };
            let rest = front.get(start..).unwrap_or_default();
            let n = rest.len().min(buf.len() - written);
            buf[written..written + n].copy_from_slice(&rest[..n]);
            written += n;
            if start + n == front.len() {
                pending.chunks.pop_front();
                pending.read = 0;
            } else {
                pending.read = start + n;
            }
        }
        pending.taken += written as u64;
        if written == 0 && !pending.ended {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(written)
    }
}

/// Games from a stream of chunks: `push(chunk)` each chunk (a string or a `Uint8Array`), then
/// `end()`; `onGame(game)` is called with each game as soon as its end is known. Memory holds
/// the game being read and a chunk or two, whatever the length of the stream.
#[wasm_bindgen]
pub struct PgnReader {
    reader: Reader<Feed>,
    feed: Feed,
    on_game: Function,
    games: f64,
    ended: bool,
}

#[wasm_bindgen]
impl PgnReader {
    /// A reader that calls `onGame` with each game; `options`: `{ strict, nestedComments,
    /// fixTagStrings }` (the games are split by the same rules).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "(game: Game) => void")] on_game: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ReadOptions")] options: Option<JsValue>,
    ) -> Result<PgnReader, JsValue> {
        let Ok(on_game) = on_game.clone().dyn_into::<Function>() else {
            return Err(type_error(format!(
                "onGame must be a function, not {}",
                describe(&on_game)
            )));
        };
        let options: ReadOptions = read_options(&options.unwrap_or(JsValue::UNDEFINED))?;
        let feed = Feed::default();
        Ok(PgnReader {
            reader: Reader::with_options(feed.clone(), options),
            feed,
            on_game,
            games: 0.0,
            ended: false,
        })
    }

    /// Reads `chunk` (a string or a `Uint8Array`) and calls `onGame` with each game it ends;
    /// returns how many it ended.
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] chunk: JsValue,
    ) -> Result<f64, JsValue> {
        if self.ended {
            return Err(type_error("push after end(): the reader has ended"));
        }
        let bytes = bytes(&chunk, "the chunk")?;
        if !bytes.is_empty() {
            self.feed.0.borrow_mut().chunks.push_back(bytes);
        }
        self.drain()
    }

    /// Ends the input: the last game is read and passed to `onGame`; returns how many games
    /// this call ended.
    pub fn end(&mut self) -> Result<f64, JsValue> {
        if self.ended {
            return Ok(0.0);
        }
        self.ended = true;
        self.feed.0.borrow_mut().ended = true;
        self.drain()
    }

    /// How many games were passed to `onGame` so far.
    #[wasm_bindgen(getter)]
    pub fn games(&self) -> f64 {
        self.games
    }
}

impl PgnReader {
    /// Passes every game the bytes at hand end to `onGame`.
    fn drain(&mut self) -> Result<f64, JsValue> {
        let mut count = 0.0;
        let mut taken = self.feed.taken();
        loop {
            match self.reader.next_game() {
                None => break,
                Some(Ok(read)) => {
                    let game = JsGame::new(read.value, read.diagnostics, read.offset, read.line);
                    count += 1.0;
                    self.games += 1.0;
                    self.on_game.call1(&JsValue::NULL, &JsValue::from(game))?;
                }
                // Out of bytes. The reader asked for more than there was (it reads a chunk
                // at a time) but keeps what it got: ask again while it takes bytes, as the
                // game may end in them; then wait for the next chunk. A stale "would block"
                // (kept by the reader's read-ahead) is passed over when bytes are there.
                Some(Err(e)) if e.kind() == io::ErrorKind::WouldBlock => {
                    let now = self.feed.taken();
                    if now == taken && !self.feed.ready() {
                        break;
                    }
                    taken = now;
                }
                Some(Err(e)) => return Err(type_error(format!("reading failed: {e}"))),
            }
        }
        Ok(count)
    }
}
