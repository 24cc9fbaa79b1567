//! Round trips over the positions of every perft suite: for every legal
//! move (two plies deep for the first `DEEP_POSITIONS` positions of each
//! suite, one ply for the rest), the written SAN parses and resolves back
//! to the same move (strict and lenient, with no lenience flags), the UCI
//! likewise, and the FEN of the position after the move reads back as the
//! same position with the same Zobrist hash.

mod common;

use pgnkit_chess::{FenOptions, Lenience, LenientSan, Move, Position, San, SanPlus, Setup, Uci};

const DEEP_POSITIONS: usize = 120;

fn check_move(pos: &Position, m: Move, name: &str) {
    let san_plus = SanPlus::from_move(pos, m);
    let text = san_plus.to_string();
    let strict: SanPlus = text
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
    assert_eq!(strict, san_plus, "{name}: {text}");
    assert_eq!(strict.san.to_move(pos), Ok(m), "{name}: {pos}: {text}");
    let lenient =
        LenientSan::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{name}: {text}: {e}"));
    assert_eq!(
        lenient.to_move(pos),
        Ok((m, Lenience::NONE)),
        "{name}: {pos}: {text}"
    );
    assert_eq!(San::from_move(pos, m), san_plus.san);

    let uci = Uci::from_move(m, pos.castling_mode());
    let uci_text = uci.to_string();
    let parsed: Uci = uci_text
        .parse()
        .unwrap_or_else(|e| panic!("{name}: {uci_text}: {e}"));
    assert_eq!(parsed.to_move(pos), Ok(m), "{name}: {pos}: {uci_text}");
    // Long algebraic input resolves too.
    let (lan_move, lenience) = LenientSan::parse(uci_text.as_bytes())
        .map(|l| l.to_move(pos))
        .unwrap_or_else(|e| panic!("{name}: {uci_text}: {e}"))
        .unwrap_or_else(|e| panic!("{name}: {pos}: {uci_text}: {e}"));
    assert_eq!(lan_move, m, "{name}: {pos}: {uci_text}");
    assert!(lenience.contains(Lenience::LONG_ALGEBRAIC), "{uci_text}");

    let after = pos.after(m);
    for options in [
        FenOptions::default(),
        FenOptions::new().en_passant_1994(),
        FenOptions::new().shredder(),
    ] {
        let fen = after.fen(options);
        let setup = Setup::parse(fen.as_bytes()).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
        let back = Position::from_setup(setup, after.castling_mode())
            .unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
        assert_eq!(back, after, "{name}: {fen}");
        assert_eq!(back.zobrist(), after.zobrist(), "{name}: {fen}");
        assert_eq!(back.fen(options), fen);
    }
}

#[test]
fn san_uci_and_fen_round_trip_over_perft_positions() {
    let mut moves = 0usize;
    for path in common::suite_files() {
        for (index, case) in common::read_suite(&path).iter().enumerate() {
            let pos = &case.pos;
            for m in pos.legal_moves() {
                check_move(pos, m, &case.name);
                moves += 1;
                if index < DEEP_POSITIONS {
                    let child = pos.after(m);
                    for m2 in child.legal_moves() {
                        check_move(&child, m2, &case.name);
                        moves += 1;
                    }
                }
            }
        }
    }
    assert!(moves > 500_000, "only {moves} moves checked");
    eprintln!("{moves} moves round-tripped");
}
