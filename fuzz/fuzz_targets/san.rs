//! Fuzz target `san`: arbitrary bytes as a move token. Strict SAN, SAN with
//! its suffix, UCI and lenient SAN parse without panicking; lenient SAN is
//! resolved against a few fixed positions (the start, a middle game full of
//! tactics, promotions, en passant, and a Chess960 position with castling
//! rights): a resolved move is legal, resolving and playing agree, an error
//! leaves the position unchanged, and whatever strict SAN resolves to,
//! lenient SAN resolves to the same move.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use pgnkit::chess::{CastlingMode, LenientSan, Position, San, SanPlus, Setup, Uci};

static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        // "Kiwipete": castling both ways, pins, captures everywhere.
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        // Promotions with and without capture, for both sides.
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        // An en passant capture is legal (exd6 / e5xd6).
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
            CastlingMode::Standard,
        ),
        // Chess960: king on g1, rooks on f1 and h1; both sides may castle.
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        ),
        // Two knights and two rooks that need disambiguation.
        ("1k6/8/8/8/R6R/8/1N3N2/K7 w - - 0 1", CastlingMode::Standard),
    ]
    .into_iter()
    .map(|(fen, mode)| {
        let setup = Setup::parse(fen.as_bytes()).expect("a fixed FEN");
        Position::from_setup(setup, mode).expect("a fixed position")
    })
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let strict = San::parse(data);
    let _ = SanPlus::parse(data);
    let uci = Uci::parse(data);
    let lenient = LenientSan::parse(data);
    // Known and reported: strict SAN reads `--+` and `--#` as a null move,
    // lenient SAN refuses them (the lexer never makes such a token).
    let null_with_suffix = data.len() == 3 && data.starts_with(b"--");
    if strict.is_ok() && !null_with_suffix {
        assert!(
            lenient.is_ok(),
            "strict SAN that lenient SAN refuses: {data:?}"
        );
    }
    for pos in POSITIONS.iter() {
        if let Ok(uci) = &uci
            && let Ok(m) = uci.to_move(pos)
        {
            assert!(
                m.is_null() || pos.is_legal(m),
                "UCI {uci} gave an illegal move in {pos}"
            );
        }
        let Ok(lenient) = &lenient else { continue };
        let resolved = lenient.to_move(pos);
        let mut played = pos.clone();
        let resolved_and_played = lenient.to_move_and_play(&mut played);
        assert_eq!(
            resolved, resolved_and_played,
            "to_move and to_move_and_play differ in {pos}"
        );
        match resolved {
            Ok((m, _)) => {
                if m.is_null() {
                    assert!(lenient.is_null());
                } else {
                    assert!(
                        pos.is_legal(m),
                        "{data:?} resolved to an illegal move in {pos}"
                    );
                    assert_eq!(played, pos.after(m));
                    // The canonical SAN of the move names it again.
                    let canonical = San::from_move(pos, m);
                    assert_eq!(canonical.to_move(pos), Ok(m));
                }
            }
            Err(_) => assert_eq!(&played, pos, "a failed move changed the position"),
        }
        if let Ok(strict) = &strict
            && let Ok(m) = strict.to_move(pos)
        {
            assert_eq!(
                resolved.map(|r| r.0),
                Ok(m),
                "strict and lenient SAN name different moves in {pos}"
            );
        }
    }
});
