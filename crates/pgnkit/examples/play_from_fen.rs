//! Play moves from a FEN: SAN with reasons for refusals, UCI, the outcome,
//! EPD, and a game from that start.
use pgnkit::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")?;
    let start = pos.clone();
    let mate = pos.play_san("Qxf7#!")?; // `&str` or bytes; the `!` is allowed
    println!("Qxf7#: {mate} (UCI {})", mate.uci());
    assert_eq!(mate.uci().to_string(), "h5f7");
    assert_eq!(pos.play_san("Nf3"), Err(PlaySanError::Illegal)); // the game is over
    assert!(pos.is_game_over());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Decisive {
            winner: Color::White
        })
    );
    // EPD: the four fields, then operations; the move counters only when asked.
    assert_eq!(
        pos.epd(),
        "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq -"
    );
    let mut epd = Epd::new(start.clone());
    epd.set("bm", "Qxf7#")?;
    epd.set("id", "\"scholar\"")?;
    println!("{epd}");
    assert_eq!(
        epd.to_string(),
        format!("{} bm Qxf7#; id \"scholar\";", start.epd())
    );
    let back: Epd = epd.to_string().parse()?;
    assert_eq!(back.moves("bm").next(), Some(mate));
    assert!(
        Epd::from_position(&start)
            .to_string()
            .ends_with(" fmvn 4; hmvc 4;")
    );
    // The same start as a game, written with its FEN and SetUp tags.
    let mut game = Game::from_position(start);
    let root = game.root().id();
    game.add_uci(root, "h5f7")?;
    game.set_termination(Termination::WhiteWins);
    let text = game.pgn().to_string();
    print!("{text}");
    assert!(text.contains("[FEN \"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\"]\n[SetUp \"1\"]\n"));
    assert!(text.ends_with("\n4. Qxf7# 1-0\n\n"));
    Ok(())
}
