//! Select games with a query and name their openings (ECO codes from the
//! Lichess table).
use pgnkit::prelude::*;
use pgnkit::select::{Context, Openings, Query};

const PGN: &str = "[White \"Tal, Mikhail\"]\n[Black \"Botvinnik, Mikhail\"]\n[WhiteElo \"2700\"]\n\n\
    1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 1-0\n\n\
    [White \"Botvinnik, Mikhail\"]\n[Black \"Tal, Mikhail\"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 0-1\n\n\
    [White \"Smyslov, Vassily\"]\n[Black \"Keres, Paul\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1/2-1/2\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let openings = Openings::lichess();
    let query = Query::parse(r#"player ~ "Tal" and eco >= B00 and eco < E99"#)?;
    let mut selected = Vec::new();
    for read in read_games(PGN.as_bytes()) {
        let mut game = read.value;
        let Some(found) = openings.classify(&game) else {
            continue;
        };
        let (eco, name) = (found.opening.eco.clone(), found.opening.name.clone());
        game.tags_mut().insert("ECO", &eco);
        game.tags_mut().insert("Opening", &name);
        let context = Context { eco: Some(&eco) };
        if query.matches(&game, &context) {
            println!(
                "{} - {}: {eco} {name}",
                &game.tags()["White"],
                &game.tags()["Black"]
            );
            selected.push(eco);
        }
    }
    assert_eq!(selected, ["B90", "E20"]);
    // A query with a mistake says where.
    let error = Query::parse("player ~").unwrap_err();
    println!("{}", error.render("player ~"));
    Ok(())
}
