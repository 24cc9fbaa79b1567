//! The speed baseline: pgn-reader + shakmaty validating every move
//! (variations included) and writing SAN with its suffix, as the project's
//! reference for "validate + SAN writing". Shared by the export bench and
//! the `export_timing` example.

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus as RawSanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess};

/// Validates moves and writes SAN.
pub struct Validate {
    pub out: String,
}

/// Validates moves and writes SAN.
pub struct Line {
    pos: Chess,
    prev: Chess,
    stack: Vec<(Chess, Chess)>,
    ok: bool,
}

impl Visitor for Validate {
    type Tags = Option<Chess>;
    type Movetext = Line;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Option<Chess>> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<bool> {
        if name == b"FEN" {
            let pos = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok());
            match pos {
                Some(pos) => *tags = Some(pos),
                None => return ControlFlow::Break(false),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<bool, Line> {
        let pos = tags.unwrap_or_default();
        ControlFlow::Continue(Line {
            prev: pos.clone(),
            pos,
            stack: Vec::new(),
            ok: true,
        })
    }

    fn san(&mut self, line: &mut Line, san_plus: RawSanPlus) -> ControlFlow<bool> {
        match san_plus.san.to_move(&line.pos) {
            Ok(m) => {
                line.prev = line.pos.clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut line.pos, m);
                san.append_to_string(&mut self.out);
                self.out.push(' ');
                ControlFlow::Continue(())
            }
            Err(_) => {
                line.ok = false;
                ControlFlow::Break(false)
            }
        }
    }

    fn begin_variation(&mut self, line: &mut Line) -> ControlFlow<bool, Skip> {
        line.stack.push((line.pos.clone(), line.prev.clone()));
        line.pos = line.prev.clone();
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, line: &mut Line) -> ControlFlow<bool> {
        if let Some((pos, prev)) = line.stack.pop() {
            line.pos = pos;
            line.prev = prev;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, line: Line) -> bool {
        line.ok
    }
}

pub fn run(data: &[u8]) -> u64 {
    let mut reader = Reader::new(data);
    let mut visitor = Validate { out: String::new() };
    let mut ok = 0;
    while let Ok(Some(valid)) = reader.read_game(&mut visitor) {
        ok += u64::from(valid);
        visitor.out.clear();
    }
    ok
}
