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

/// What strict SAN names, by filtering the full legal move list (the
/// definition `San::to_move` must agree with, fast paths included).
fn reference(legal: &[Move], san: &San) -> Result<Move, pgnkit_chess::SanError> {
    let San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = *san
    else {
        unreachable!("only normal moves are compared")
    };
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            let Some(from) = m.from() else { return false };
            !m.is_castle()
                && m.role() == Some(role)
                && m.to() == Some(to)
                && m.promotion() == promotion
                && m.is_capture() == capture
                && file.is_none_or(|f| from.file() == f)
                && rank.is_none_or(|r| from.rank() == r)
                && (role != pgnkit_chess::Role::Pawn || capture || from.file() == to.file())
        })
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(pgnkit_chess::SanError::Illegal),
        _ => Err(pgnkit_chess::SanError::Ambiguous),
    }
}

#[test]
fn strict_san_resolution_agrees_with_move_list_filtering() {
    use pgnkit_chess::{File, Rank, Role, Square};
    let mut positions = Vec::new();
    for path in common::suite_files() {
        for case in common::read_suite(&path).into_iter().take(40) {
            for m in case.pos.legal_moves().into_iter().take(3) {
                positions.push(case.pos.after(m));
            }
            positions.push(case.pos);
        }
    }
    let mut compared = 0usize;
    for pos in &positions {
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        for role in Role::ALL {
            for index in 0..64 {
                let to = Square::new(index);
                let promotions: &[Option<Role>] =
                    if role == Role::Pawn && matches!(to.rank(), Rank::First | Rank::Eighth) {
                        &[
                            None,
                            Some(Role::Queen),
                            Some(Role::Knight),
                            Some(Role::King),
                        ]
                    } else {
                        &[None]
                    };
                let mut disambiguations = vec![(None, None)];
                for f in File::ALL {
                    disambiguations.push((Some(f), None));
                }
                if role != Role::Pawn {
                    for r in Rank::ALL {
                        disambiguations.push((None, Some(r)));
                    }
                }
                for &promotion in promotions {
                    for capture in [false, true] {
                        for &(file, rank) in &disambiguations {
                            let san = San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            };
                            assert_eq!(san.to_move(pos), reference(&legal, &san), "{pos}: {san:?}");
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 1_000_000, "only {compared} compared");
    eprintln!("{compared} SAN resolutions compared");
}

/// What a lenient token names: like [`reference`], but the capture mark is
/// not checked (a pawn's start file decides push or capture).
fn lenient_reference(legal: &[Move], san: &San) -> Result<Move, pgnkit_chess::SanError> {
    let San::Normal {
        role,
        file,
        rank,
        to,
        promotion,
        ..
    } = *san
    else {
        unreachable!("only normal moves are compared")
    };
    let matches: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            let Some(from) = m.from() else { return false };
            !m.is_castle()
                && m.role() == Some(role)
                && m.to() == Some(to)
                && m.promotion() == promotion
                && file.is_none_or(|f| from.file() == f)
                && rank.is_none_or(|r| from.rank() == r)
                && (role != pgnkit_chess::Role::Pawn || file.is_some() || from.file() == to.file())
        })
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] => Err(pgnkit_chess::SanError::Illegal),
        _ => Err(pgnkit_chess::SanError::Ambiguous),
    }
}

#[test]
fn lenient_resolution_agrees_with_move_list_filtering() {
    use pgnkit_chess::{File, Rank, Role, Square};
    let mut positions = Vec::new();
    for path in common::suite_files() {
        for case in common::read_suite(&path).into_iter().take(12) {
            for m in case.pos.legal_moves().into_iter().take(2) {
                positions.push(case.pos.after(m));
            }
            positions.push(case.pos);
        }
    }
    let mut compared = 0usize;
    for pos in &positions {
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        for role in Role::ALL {
            for index in 0..64 {
                let to = Square::new(index);
                let promotions: &[Option<Role>] =
                    if role == Role::Pawn && matches!(to.rank(), Rank::First | Rank::Eighth) {
                        &[None, Some(Role::Queen), Some(Role::Knight)]
                    } else {
                        &[None]
                    };
                let mut disambiguations = vec![(None, None)];
                for f in File::ALL {
                    // A pawn token starting with `b` may also be a bishop move.
                    if !(role == Role::Pawn && f == File::B) {
                        disambiguations.push((Some(f), None));
                    }
                }
                if role != Role::Pawn {
                    for r in Rank::ALL {
                        disambiguations.push((None, Some(r)));
                    }
                }
                for &promotion in promotions {
                    for capture in [false, true] {
                        for &(file, rank) in &disambiguations {
                            let san = San::Normal {
                                role,
                                file,
                                rank,
                                capture,
                                to,
                                promotion,
                            };
                            let text = san.to_string();
                            let Ok(lenient) = LenientSan::parse(text.as_bytes()) else {
                                continue;
                            };
                            assert_eq!(
                                lenient.to_move(pos).map(|(m, _)| m),
                                lenient_reference(&legal, &san),
                                "{pos}: {text}"
                            );
                            compared += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 1_000_000, "only {compared} compared");
    eprintln!("{compared} lenient resolutions compared");
}
