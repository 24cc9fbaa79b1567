//! Fuzz target `lexer`: arbitrary bytes through the lexer, the game
//! splitter, the streaming reader and the tag scanner. No panic; every span
//! lies inside its input; tokens come in order without overlap and their
//! text is the bytes their span names; games tile the input (only leading
//! junk is skipped) and the streaming reader finds the same games; the
//! single pass (`next_tokenized`, slice and stream) gives the same games
//! with the same tokens and warnings as the splitter + a lexer per game.
//! All of it with the options the input's last byte chooses (odd: nested
//! comments), so that both ways of reading comments are fuzzed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::lexer::{GameSplitter, LexOptions, Lexer, LineIndex, Reader, TokenizedGame, tags};

/// A game as the single pass gives it: where it is, its tokens and warnings.
fn described(game: &TokenizedGame<'_, '_>) -> (u64, u64, u64, usize, String) {
    let tokens: Vec<_> = game
        .tokens
        .iter()
        .map(|t| {
            let token = t.token(game.raw.bytes);
            (token.kind, token.span)
        })
        .collect();
    let raw = game.raw;
    let detail = format!("{tokens:?} {:?}", game.warnings);
    (raw.offset, raw.line, raw.column, raw.bytes.len(), detail)
}

/// The streaming reader over `data` in chunks of `chunk` bytes, with `options`.
fn stream(data: &[u8], chunk: usize, options: LexOptions) -> Reader<&[u8]> {
    let mut reader = Reader::with_chunk_size(data, chunk);
    reader.set_options(options);
    reader
}

fuzz_target!(|data: &[u8]| {
    let nested = data.last().is_some_and(|b| b & 1 == 1);
    let options = LexOptions::new().with_nested_comments(nested);
    pgnkit_fuzz::check_tokens(data, options);

    let mut splitter = GameSplitter::new(data).with_options(options);
    let mut games = Vec::new();
    let index = LineIndex::new(data);
    for game in splitter.by_ref() {
        games.push((game.offset, game.line, game.bytes.len()));
        let start = usize::try_from(game.offset).expect("offset fits");
        assert!(!game.bytes.is_empty(), "empty game at {start}");
        assert_eq!(
            data.get(start..start + game.bytes.len()),
            Some(game.bytes),
            "game bytes are the input at its offset"
        );
        assert_eq!(index.line_col(start).line, game.line, "game line");
        pgnkit_fuzz::check_tokens(game.bytes, options);
        let mut last = 0;
        for item in tags(game.bytes) {
            let span = match item {
                Ok(tag) => {
                    let _ = tag.value();
                    tag.span
                }
                Err(e) => e.span,
            };
            assert!(span.start <= span.end && span.end <= game.bytes.len());
            assert!(span.start >= last, "tag items go forward");
            last = span.start;
        }
    }
    // Games tile the input after the skipped junk.
    let skipped = splitter.skipped();
    let mut expect = skipped;
    for &(offset, _, len) in &games {
        assert_eq!(offset, expect, "games must be contiguous");
        expect += len as u64;
    }
    if !games.is_empty() {
        assert_eq!(expect, data.len() as u64, "the last game ends the input");
    } else {
        assert_eq!(skipped, data.len() as u64, "no game: everything is junk");
    }

    // The streaming reader, with a tiny chunk, cuts the same games.
    let mut reader = stream(data, 7, options);
    let mut streamed = Vec::new();
    while let Some(game) = reader.next_game().expect("reading a slice cannot fail") {
        streamed.push((game.offset, game.line, game.bytes.len()));
    }
    assert_eq!(streamed, games, "Reader and GameSplitter disagree");
    assert_eq!(reader.skipped(), skipped);

    // The single pass: the splitter's games, each lexed on its own.
    let reference: Vec<_> = GameSplitter::new(data)
        .with_options(options)
        .map(|game| {
            let mut lexer = Lexer::with_options(game.bytes, options);
            let tokens: Vec<_> = lexer.by_ref().map(|t| (t.kind, t.span)).collect();
            let detail = format!("{tokens:?} {:?}", lexer.warnings());
            (
                game.offset,
                game.line,
                game.column,
                game.bytes.len(),
                detail,
            )
        })
        .collect();
    let mut splitter = GameSplitter::new(data).with_options(options);
    let mut single = Vec::new();
    while let Some(game) = splitter.next_tokenized() {
        single.push(described(&game));
    }
    assert_eq!(single, reference, "the single pass over the slice differs");
    let mut reader = stream(data, 7, options);
    let mut single = Vec::new();
    while let Some(game) = reader
        .next_tokenized()
        .expect("reading a slice cannot fail")
    {
        single.push(described(&game));
    }
    assert_eq!(single, reference, "the single pass over a stream differs");
});
