//! Streams a PGN file through [`pgnkit_lexer::Reader`] and prints its game count, in constant
//! memory. Usage: `stream_count FILE [--tokens | --tokenized]` (`--tokens` also counts every
//! game's tokens with a [`Lexer`](pgnkit_lexer::Lexer) of its own; `--tokenized` counts them
//! from the reader's single pass, as the game reader gets them: a profile of that pass alone).

use std::io::BufReader;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: stream_count FILE [--tokens | --tokenized]")?;
    let mode = args.next();
    let tokens = mode.is_some();
    let file = std::fs::File::open(&path)?;
    let mut reader = pgnkit_lexer::Reader::new(BufReader::with_capacity(64 * 1024, file));
    let (mut games, mut count, mut bytes) = (0u64, 0u64, 0u64);
    if mode.as_deref() == Some("--tokenized") {
        while let Some(game) = reader.next_tokenized()? {
            games += 1;
            bytes += game.raw.bytes.len() as u64;
            count += game.tokens.len() as u64;
        }
    } else {
        while let Some(game) = reader.next_game()? {
            games += 1;
            bytes += game.bytes.len() as u64;
            if tokens {
                count += pgnkit_lexer::Lexer::new(game.bytes).count() as u64;
            }
        }
    }
    println!(
        "{games} games, {bytes} bytes in games, {} bytes skipped",
        reader.skipped()
    );
    if tokens {
        println!("{count} tokens");
    }
    Ok(())
}
