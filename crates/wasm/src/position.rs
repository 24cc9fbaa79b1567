//! `Position`: a chess position for JavaScript (chess.js's habits: `fen()`, `legalMoves()`,
//! `play(san)`, `isCheckmate()`...) over `pgnkit-chess`: FEN and X-FEN in and out, EPD out,
//! SAN and UCI both ways. A bad FEN or an illegal move throws a `RangeError`.

use js_sys::Array;
use pgnkit_chess::{FenOptions, Position, SanPlus, Uci};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::error::range_error;
use crate::input::string;

/// A chess position (standard or Chess960).
#[wasm_bindgen(js_name = Position)]
#[derive(Clone)]
pub struct JsPosition {
    position: Position,
}

#[wasm_bindgen(js_class = Position)]
impl JsPosition {
    /// The standard starting position.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsPosition {
        JsPosition {
            position: Position::new(),
        }
    }

    /// The position of a FEN (or X-FEN, or Shredder-FEN); a bad one throws a `RangeError`
    /// saying what is wrong.
    #[wasm_bindgen(js_name = fromFen)]
    pub fn from_fen(
        #[wasm_bindgen(unchecked_param_type = "string")] fen: JsValue,
    ) -> Result<JsPosition, JsValue> {
        let fen = string(&fen, "the FEN")?;
        Position::from_fen(&fen)
            .map(|position| JsPosition { position })
            .map_err(|e| range_error(format!("bad FEN `{fen}`: {e}")))
    }

    /// The FEN.
    pub fn fen(&self) -> String {
        self.position.fen(FenOptions::default())
    }

    /// The EPD: the FEN's first four fields.
    pub fn epd(&self) -> String {
        self.position.epd()
    }

    /// Who moves: `w` or `b`.
    pub fn turn(&self) -> String {
        self.position.turn().fold_wb("w", "b").to_owned()
    }

    /// The legal moves in SAN (with `+` and `#`).
    #[wasm_bindgen(js_name = legalMoves, unchecked_return_type = "string[]")]
    pub fn legal_moves(&self) -> Array {
        self.position
            .legal_moves()
            .iter()
            .map(|&mv| JsValue::from(SanPlus::from_move(&self.position, mv).to_string()))
            .collect()
    }

    /// The legal moves in UCI.
    #[wasm_bindgen(js_name = legalMovesUci, unchecked_return_type = "string[]")]
    pub fn legal_moves_uci(&self) -> Array {
        let mode = self.position.castling_mode();
        self.position
            .legal_moves()
            .iter()
            .map(|&mv| JsValue::from(Uci::from_move(mv, mode).to_string()))
            .collect()
    }

    /// The SAN of a move given in UCI (`e2e4`); an illegal or malformed one throws a
    /// `RangeError`.
    pub fn san(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] uci: JsValue,
    ) -> Result<String, JsValue> {
        let uci = string(&uci, "the move")?;
        let parsed: Uci = uci
            .parse()
            .map_err(|e| range_error(format!("bad UCI move `{uci}`: {e}")))?;
        let mv = parsed
            .to_move(&self.position)
            .map_err(|e| range_error(format!("move `{uci}` in {}: {e}", self.fen())))?;
        Ok(SanPlus::from_move(&self.position, mv).to_string())
    }

    /// The UCI of a move given in SAN; an illegal or malformed one throws a `RangeError`.
    pub fn uci(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] san: JsValue,
    ) -> Result<String, JsValue> {
        let mut after = self.position.clone();
        let san = string(&san, "the move")?;
        let mv = after
            .play_san(&san)
            .map_err(|e| range_error(format!("move `{san}` in {}: {e}", self.fen())))?;
        Ok(Uci::from_move(mv, self.position.castling_mode()).to_string())
    }

    /// Plays a move given in SAN and returns its canonical SAN; an illegal or malformed one
    /// throws a `RangeError` and leaves the position as it was.
    pub fn play(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] san: JsValue,
    ) -> Result<String, JsValue> {
        let san = string(&san, "the move")?;
        let before = self.position.clone();
        let mv = self
            .position
            .play_san(&san)
            .map_err(|e| range_error(format!("move `{san}` in {}: {e}", self.fen())))?;
        Ok(SanPlus::from_move(&before, mv).to_string())
    }

    /// Plays a move given in UCI and returns its SAN; an illegal or malformed one throws a
    /// `RangeError` and leaves the position as it was.
    #[wasm_bindgen(js_name = playUci)]
    pub fn play_uci(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] uci: JsValue,
    ) -> Result<String, JsValue> {
        let san = self.san(uci.clone())?;
        let uci = string(&uci, "the move")?;
        let parsed: Uci = uci
            .parse()
            .map_err(|e| range_error(format!("bad UCI move `{uci}`: {e}")))?;
        let mv = parsed
            .to_move(&self.position)
            .map_err(|e| range_error(format!("move `{uci}`: {e}")))?;
        self.position.play_unchecked(mv);
        Ok(san)
    }

    /// Whether the side to move is in check.
    #[wasm_bindgen(js_name = isCheck)]
    pub fn is_check(&self) -> bool {
        self.position.is_check()
    }

    /// Whether the side to move is checkmated.
    #[wasm_bindgen(js_name = isCheckmate)]
    pub fn is_checkmate(&self) -> bool {
        self.position.is_checkmate()
    }

    /// Whether the side to move is stalemated.
    #[wasm_bindgen(js_name = isStalemate)]
    pub fn is_stalemate(&self) -> bool {
        self.position.is_stalemate()
    }

    /// Whether neither side can mate.
    #[wasm_bindgen(js_name = isInsufficientMaterial)]
    pub fn is_insufficient_material(&self) -> bool {
        self.position.is_insufficient_material()
    }

    /// Whether the game is over on the board (mate, stalemate, insufficient material).
    #[wasm_bindgen(js_name = isGameOver)]
    pub fn is_game_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// A copy of this position.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> JsPosition {
        self.clone()
    }
}

impl Default for JsPosition {
    fn default() -> JsPosition {
        JsPosition::new()
    }
}
