//! Fuzz target `fen`: arbitrary bytes as a FEN. Parsing never panics; a
//! setup that validates (in its own castling mode, standard or Chess960)
//! writes a FEN that reads back to the same position in every notation;
//! every legal move round-trips through SAN and UCI, and the positions after
//! them round-trip through FEN too.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::{CastlingMode, FenOptions, Position, San, Setup, Uci};

fn round_trip(pos: &Position) {
    let mode = pos.castling_mode();
    for options in [
        FenOptions::new(),
        FenOptions::new().en_passant_1994(),
        FenOptions::new().shredder(),
    ] {
        let fen = pos.fen(options);
        let setup = Setup::parse(fen.as_bytes())
            .unwrap_or_else(|e| panic!("written FEN {fen:?} does not parse: {e}"));
        let back = Position::from_setup(setup, mode)
            .unwrap_or_else(|e| panic!("written FEN {fen:?} does not validate: {e}"));
        assert_eq!(&back, pos, "FEN {fen:?} reads back to another position");
        assert_eq!(back.fen(options), fen);
        assert_eq!(back.zobrist(), pos.zobrist(), "{fen}");
    }
}

fuzz_target!(|data: &[u8]| {
    let parsed = Setup::parse(data);
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(
            Position::from_fen(text).is_ok(),
            parsed
                .as_ref()
                .is_ok_and(|s| Position::from_setup(s.clone(), s.castling_mode()).is_ok()),
            "from_fen and Setup::parse + from_setup disagree"
        );
    }
    let Ok(setup) = parsed else { return };
    for mode in [
        setup.castling_mode(),
        CastlingMode::Standard,
        CastlingMode::Chess960,
    ] {
        let Ok(pos) = Position::from_setup(setup.clone(), mode) else {
            continue;
        };
        round_trip(&pos);
        let _ = (
            pos.is_checkmate(),
            pos.is_stalemate(),
            pos.is_insufficient_material(),
        );
        let _ = pos.outcome();
        let moves = pos.legal_moves();
        assert_eq!(moves.len(), pos.count_legal_moves());
        for &m in moves.iter() {
            assert!(pos.is_legal(m));
            let san = San::from_move(&pos, m);
            assert_eq!(san.to_move(&pos), Ok(m), "SAN {san} in {pos}");
            let text = san.to_string();
            let reparsed: San = text.parse().unwrap_or_else(|e| panic!("SAN {text}: {e:?}"));
            assert_eq!(reparsed.to_move(&pos), Ok(m), "SAN {text} in {pos}");
            let uci = Uci::from_move(m, mode);
            assert_eq!(uci.to_move(&pos).ok(), Some(m), "UCI {uci} in {pos}");
            let after = pos.after(m);
            round_trip(&after);
        }
    }
});
