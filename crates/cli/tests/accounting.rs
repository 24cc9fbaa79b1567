//! Nothing is lost by `pgnkit export --rejects`: on every malformed-on-purpose
//! file of the shared corpus (`edge/`) and a few large real ones, the
//! binary's summary counts as many games as the lexer's splitter finds,
//! written + rejected = read, the counts are the library's, the output holds
//! exactly the written games and the rejects file is exactly the
//! concatenation of the broken games' original bytes, in order.

use std::path::Path;
use std::process::Command;

use pgnkit::game::read_games;
use pgnkit::lexer::GameSplitter;

/// The numbers of `pgnkit export: N games read, W written, R rejected, ...`.
fn summary_counts(stderr: &str) -> (usize, usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pgnkit export: "))
        .unwrap_or_else(|| panic!("no summary line in stderr:\n{stderr}"));
    let number = |word: &str| -> usize {
        let before = line
            .split(word)
            .next()
            .unwrap_or_else(|| panic!("no `{word}` in {line}"));
        before
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count before `{word}` in {line}"))
    };
    (
        number(" games read"),
        number(" written"),
        number(" rejected"),
    )
}

/// What the library says of `data`: games found, and the original bytes of
/// the broken ones, concatenated in order.
fn expected(data: &[u8]) -> (usize, usize, Vec<u8>) {
    let found = GameSplitter::new(data).count();
    let mut broken = 0;
    let mut rejects = Vec::new();
    for game in read_games(data) {
        if game.is_broken() {
            broken += 1;
            rejects.extend_from_slice(&game.raw);
        }
    }
    (found, broken, rejects)
}

/// Runs `pgnkit export FILE -o OUT --rejects R` (plus `extra`) and checks
/// its accounting against the library's.
fn check_file(file: &Path, extra: &[&str], scratch: &Path) -> Result<(usize, usize), String> {
    let name = file.display().to_string();
    let data = std::fs::read(file).map_err(|e| format!("{name}: {e}"))?;
    let out = scratch.join("out.pgn");
    let rejects = scratch.join("rejects.pgn");
    let output = Command::new(env!("CARGO_BIN_EXE_pgnkit"))
        .arg("export")
        .arg(file)
        .arg("-o")
        .arg(&out)
        .arg("--rejects")
        .arg(&rejects)
        .args(extra)
        .output()
        .map_err(|e| format!("the binary does not run: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let (read, written, rejected) = summary_counts(&stderr);
    let (found, broken, expected_rejects) = expected(&data);
    let status = output.status.code();
    let mut problems = Vec::new();
    if read != found {
        problems.push(format!("{read} games read, the splitter finds {found}"));
    }
    if written + rejected != read {
        problems.push(format!(
            "{written} written + {rejected} rejected != {read} read"
        ));
    }
    if rejected != broken {
        problems.push(format!(
            "{rejected} rejected, the library finds {broken} broken"
        ));
    }
    let expected_status = if rejected == 0 { 0 } else { 1 };
    if status != Some(expected_status) {
        problems.push(format!(
            "exit status {status:?}, expected {expected_status}"
        ));
    }
    let kept = std::fs::read(&rejects).map_err(|e| format!("{name}: no rejects file: {e}"))?;
    if kept != expected_rejects {
        problems.push(format!(
            "the rejects file ({} bytes) is not the broken games' bytes ({} bytes)",
            kept.len(),
            expected_rejects.len()
        ));
    }
    let written_text = std::fs::read(&out).map_err(|e| format!("{name}: no output: {e}"))?;
    let again: Vec<_> = read_games(&written_text).collect();
    if again.len() != written || again.iter().any(|g| g.is_broken()) {
        problems.push(format!(
            "the output holds {} games ({} broken), {written} were written",
            again.len(),
            again.iter().filter(|g| g.is_broken()).count()
        ));
    }
    if problems.is_empty() {
        Ok((read, rejected))
    } else {
        Err(format!("{name} {extra:?}: {}", problems.join("; ")))
    }
}

#[test]
fn export_rejects_account_for_every_game() {
    let corpus = pgnkit_corpus::dir();
    let mut files = pgnkit_corpus::pgn_files(&corpus.join("edge"));
    assert!(files.len() > 50, "only {} files under edge/", files.len());
    for extra in [
        "annotated/pgn-extract/test-splitvariants.pgn",
        "big/chesscom/cancer0707_chesscom.pgn",
        "fen-start/pgn-extract_odds.pgn",
    ] {
        files.push(corpus.join(extra));
    }
    let scratch = std::env::temp_dir().join(format!("pgnkit-accounting-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    let mut failures = Vec::new();
    let (mut games, mut rejected) = (0, 0);
    for file in &files {
        match check_file(file, &["--threads", "1"], &scratch) {
            Ok((g, r)) => {
                games += g;
                rejected += r;
            }
            Err(e) => failures.push(e),
        }
    }
    // The threaded pipeline keeps the same accounting.
    let big = corpus.join("big/chesscom/cancer0707_chesscom.pgn");
    if let Err(e) = check_file(&big, &["--threads", "2"], &scratch) {
        failures.push(e);
    }
    std::fs::remove_dir_all(&scratch).ok();
    eprintln!("{} files: {games} games, {rejected} rejected", files.len());
    assert!(rejected > 0, "edge/ has malformed games");
    assert!(
        failures.is_empty(),
        "{} files fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
