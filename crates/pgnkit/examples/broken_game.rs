//! A broken game: what was read is kept, and every diagnostic says where and why.
use pgnkit::prelude::*;

fn main() {
    let pgn = "[Event \"Broken\"]\n\n1. e4 e5 (1... c5 2. Ke3) 2. Nf3 Bc5 3. Qxf7 Nf6 *";
    let read = read_game(pgn).expect("one game");
    for d in &read.diagnostics {
        // Display gives `line:column: severity: message`; `d` is a std::error::Error too.
        println!("{d}");
    }
    assert!(read.is_broken());
    let errors: Vec<String> = read
        .diagnostics
        .errors()
        .map(|d| format!("{}:{}", d.line, d.column))
        .collect();
    assert_eq!(errors, ["3:22", "3:41"]);
    let sans = read
        .value
        .main_line_nodes()
        .filter_map(|n| Some(n.san()?.to_string()));
    let moves: Vec<String> = sans.collect();
    println!("kept: {}", moves.join(" "));
    assert_eq!(moves, ["e4", "e5", "Nf3", "Bc5"]);
    // `parse` wants exactly one good game: a broken one is an error.
    match pgn.parse::<Game>() {
        Ok(_) => unreachable!("the game is broken"),
        Err(e) => println!("not read: {e}"),
    }
}
