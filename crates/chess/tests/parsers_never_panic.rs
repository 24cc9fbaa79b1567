//! Property tests: the FEN, SAN, lenient SAN and UCI parsers (and move
//! resolution of whatever they accept) never panic, whatever the input.

use pgnkit_chess::{LenientSan, Position, San, SanPlus, Setup, Uci};
use proptest::prelude::*;

fn positions() -> Vec<Position> {
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]
    .iter()
    .map(|f| Position::from_fen(f).expect("test FEN"))
    .collect()
}

/// Bytes that look like moves more often than random ones do.
fn move_like() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop::sample::select(b"abcdefgh12345678NBRQKPnbrqkpxX-=+#O0oZ@.ep!?: ".to_vec()),
        0..12,
    )
}

/// Bytes that look like FEN more often than random ones do.
fn fen_like() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop::sample::select(b"pnbrqkPNBRQK12345678/ wb-KQkqAHahe3609".to_vec()),
        0..80,
    )
}

fn exercise_move(bytes: &[u8], positions: &[Position]) {
    let _ = San::parse(bytes);
    let _ = SanPlus::parse(bytes);
    let _ = Uci::parse(bytes);
    if let Ok(san) = San::parse(bytes) {
        for pos in positions {
            let _ = san.to_move(pos);
        }
    }
    if let Ok(uci) = Uci::parse(bytes) {
        for pos in positions {
            let _ = uci.to_move(pos);
        }
    }
    if let Ok(lenient) = LenientSan::parse(bytes) {
        for pos in positions {
            let _ = lenient.to_move(pos);
            let mut copy = pos.clone();
            let _ = lenient.to_move_and_play(&mut copy);
        }
    }
}

fn exercise_fen(bytes: &[u8]) {
    if let Ok(setup) = Setup::parse(bytes) {
        let _ = setup.to_string();
        let mode = setup.castling_mode();
        if let Ok(pos) = Position::from_setup(setup, mode) {
            let _ = pos.perft(2);
            let _ = pos.outcome();
            let _ = pos.to_string();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn move_parsers_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        exercise_move(&bytes, &positions());
    }

    #[test]
    fn move_parsers_on_move_like_bytes(bytes in move_like()) {
        exercise_move(&bytes, &positions());
    }

    #[test]
    fn fen_parser_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
        exercise_fen(&bytes);
    }

    #[test]
    fn fen_parser_on_fen_like_bytes(bytes in fen_like()) {
        exercise_fen(&bytes);
    }

    #[test]
    fn fen_parser_on_mutated_fens(index in 0usize..62, byte in any::<u8>()) {
        let mut fen = b"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".to_vec();
        fen[index] = byte;
        exercise_fen(&fen);
    }

    #[test]
    fn str_parsers_on_arbitrary_strings(s in "\\PC{0,30}") {
        let _ = s.parse::<Setup>();
        let _ = s.parse::<Position>();
        let _ = s.parse::<San>();
        let _ = s.parse::<Uci>();
    }
}
