//! Hostile inputs: deep nesting, huge comments, tag values, games and
//! lines, control bytes, random bytes, and files that end in the middle of
//! something. Each must end in a clear diagnostic (kind and line checked),
//! never a panic or a stack overflow, with memory bounded by the input's
//! size: the peak resident set size (VmHWM) is reset before each heavy test
//! and checked after it against a generous bound. Heavy tests run one at a
//! time (a lock) so that their peaks do not add up.

use std::sync::{Mutex, MutexGuard};

use pgnkit::export::{ExportOptions, to_string};
use pgnkit::game::{
    Diagnostic, DiagnosticKind, Game, MAX_VARIATION_DEPTH, ReadGame, Severity, read_games,
};
use pgnkit::lexer::{GameSplitter, LexErrorKind};

/// Heavy tests take this lock so that one runs at a time.
static HEAVY: Mutex<()> = Mutex::new(());

fn heavy() -> MutexGuard<'static, ()> {
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A process's peak resident set size in bytes, from `/proc/self/status`
/// (`None` where there is no such file).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak (Linux: writing 5 to `clear_refs`); returns the resident
/// size to measure from: the current peak after the reset.
fn reset_peak() -> Option<u64> {
    std::fs::write("/proc/self/clear_refs", "5").ok()?;
    peak_rss()
}

/// Runs `f` on `input` and checks that the peak RSS grew by less than
/// 20 × the input's size + 64 MB. Returns `f`'s result.
fn bounded<'a, T>(what: &str, input: &'a [u8], f: impl FnOnce(&'a [u8]) -> T) -> T {
    bounded_by(what, input, 20 * input.len() as u64 + (64 << 20), f)
}

/// Runs `f` on `input` and checks that the peak RSS grew by less than
/// `bound` bytes. Returns `f`'s result.
fn bounded_by<'a, T>(what: &str, input: &'a [u8], bound: u64, f: impl FnOnce(&'a [u8]) -> T) -> T {
    let before = reset_peak();
    let out = f(input);
    if let (Some(before), Some(after)) = (before, peak_rss()) {
        let grew = after.saturating_sub(before);
        eprintln!(
            "{what}: input {} bytes, peak RSS grew {} bytes",
            input.len(),
            grew
        );
        assert!(
            grew < bound,
            "{what}: peak RSS grew {grew} bytes for {} input bytes (bound {bound})",
            input.len()
        );
    }
    out
}

/// Reads every game, checking that none is lost (as many as the splitter
/// finds) and that every diagnostic's span lies inside the input.
fn read_all(input: &[u8]) -> Vec<ReadGame<'_, Game>> {
    let games: Vec<_> = read_games(input).collect();
    assert_eq!(
        games.len(),
        GameSplitter::new(input).count(),
        "every game is returned"
    );
    for game in &games {
        for d in &game.diagnostics {
            assert!(
                d.start <= d.end && d.end <= input.len() as u64,
                "diagnostic {d} spans {}..{} outside the input of {} bytes",
                d.start,
                d.end,
                input.len()
            );
        }
    }
    games
}

/// The only game of `input`.
fn read_one(input: &[u8]) -> ReadGame<'_, Game> {
    let mut games = read_all(input);
    assert_eq!(games.len(), 1, "one game expected");
    games.remove(0)
}

/// The first error of a game, which must exist.
fn first_error<'a>(game: &'a ReadGame<'_, Game>) -> &'a Diagnostic {
    game.diagnostics
        .errors()
        .next()
        .unwrap_or_else(|| panic!("an error expected, got {:?}", game.diagnostics))
}

fn no_errors(game: &ReadGame<'_, Game>) {
    assert!(
        !game.is_broken(),
        "no error expected: {:?}",
        game.diagnostics.errors().take(3).collect::<Vec<_>>()
    );
}

/// Export format of `game`, read back: it must be the same text again.
fn export_is_stable(game: &Game) -> String {
    let text = to_string(game, &ExportOptions::export());
    let back = read_one(text.as_bytes());
    no_errors(&back);
    assert_eq!(
        to_string(&back.value, &ExportOptions::export()),
        text,
        "export is not idempotent"
    );
    text
}

/// The knight shuffle `Nf3 Nf6 Ng1 Ng8`, `cycles` times: legal whatever
/// the repetitions, `4 × cycles` plies.
fn knight_shuffle(cycles: usize, separator: &str) -> String {
    let mut text = String::with_capacity(cycles * 40);
    for i in 0..cycles {
        let n = 2 * i + 1;
        text.push_str(&format!(
            "{n}. Nf3 Nf6{separator}{}. Ng1 Ng8{separator}",
            n + 1
        ));
    }
    text
}

const DEEP: usize = 100_000;

/// The error for the first `(` past [`MAX_VARIATION_DEPTH`], which must be
/// the game's first error, at `line` and `column`.
fn too_deep_at(game: &ReadGame<'_, Game>, line: u64, column: u64) {
    let error = first_error(game);
    assert_eq!(error.kind, DiagnosticKind::VariationTooDeep);
    assert_eq!((error.line, error.column), (line, column), "{error}");
}

/// The `i`-th move of the knight shuffle (0 is `Nf3`).
fn shuffle_move(i: usize) -> &'static str {
    ["Nf3", "Nf6", "Ng1", "Ng8"][i % 4]
}

#[test]
fn variations_nested_100000_deep() {
    let _lock = heavy();
    // `1. e4 (Nf3 Nf6 (Nf6 Ng1 (Ng1 Ng8 ...`: each variation is an
    // alternative to the second move of the one around it, so the tree
    // would be DEEP levels deep, not only the text. The reader stops at
    // MAX_VARIATION_DEPTH: memory stays bounded and the main line is kept.
    let mut input = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for i in 0..DEEP {
        input
            .extend_from_slice(format!("({} {} ", shuffle_move(i), shuffle_move(i + 1)).as_bytes());
    }
    input.extend(std::iter::repeat_n(b')', DEEP));
    input.extend_from_slice(b" *\n");
    let game = bounded("100,000 nested variations", &input, read_one);
    // Each `(Nf3 Nf6 ` is 9 characters; the first `(` is in column 7.
    too_deep_at(&game, 3, 7 + 9 * MAX_VARIATION_DEPTH as u64);
    // Nothing else: every `)` closes its `(` and the marker ends the game.
    assert_eq!(game.diagnostics.iter().count(), 1, "{:?}", game.diagnostics);
    // Walk down: each level's first move has the next level as its second child.
    let tree = game.value.tree();
    let mut depth = 0;
    let mut node = tree
        .get(tree.root())
        .and_then(|r| r.children().get(1).copied());
    while let Some(id) = node {
        depth += 1;
        node = tree.get(id).and_then(|n| n.children().get(1).copied());
    }
    assert_eq!(depth, MAX_VARIATION_DEPTH, "variation depth");
    // What was read is a game of its own: exported, it reads back whole.
    let text = export_is_stable(&game.value);
    let flat = text.replace('\n', " ");
    assert!(flat.ends_with(")) *  "), "{:?}", &text[text.len() - 40..]);
    // JSON is written without recursion; reading it back stops at
    // serde_json's nesting limit with an error, not a stack overflow.
    let json = game.value.to_json();
    assert!(json.starts_with("{\"tags\":[[\"Event\",\"deep\"]]"));
    // Nf3 opens every fourth level and ends the one before it.
    assert_eq!(
        json.matches("\"san\":\"Nf3\"").count(),
        MAX_VARIATION_DEPTH / 2
    );
    assert!(matches!(
        Game::from_json(&json),
        Err(pgnkit::game::JsonError::Json(_))
    ));
}

#[test]
fn variations_nested_100000_deep_in_text_only() {
    let _lock = heavy();
    // `1. e4 (1. d4 (1. d4 (...`: every `(` is an alternative to a first
    // move, so the tree is flat, but the text nests DEEP levels.
    let mut input = b"1. e4 ".to_vec();
    for _ in 0..DEEP {
        input.extend_from_slice(b"(1. d4 ");
    }
    input.extend(std::iter::repeat_n(b')', DEEP));
    input.extend_from_slice(b" *\n");
    let game = bounded("100,000 nested parentheses", &input, read_one);
    too_deep_at(&game, 1, 7 + 7 * MAX_VARIATION_DEPTH as u64);
    // Nothing else: every `)` closes its `(` and the marker ends the game.
    assert_eq!(game.diagnostics.iter().count(), 1, "{:?}", game.diagnostics);
    let tree = game.value.tree();
    let root = tree.get(tree.root()).expect("root");
    assert_eq!(
        root.children().len(),
        MAX_VARIATION_DEPTH + 1,
        "e4 and the alternatives up to the limit"
    );
}

#[test]
fn variations_nested_100000_deep_never_closed() {
    let _lock = heavy();
    let mut input = b"[Event \"deep\"]\n\n1. e4 ".to_vec();
    for _ in 0..DEEP {
        input.extend_from_slice(b"(1. d4 ");
    }
    input.push(b'\n');
    let game = bounded("100,000 unclosed variations", &input, read_one);
    too_deep_at(&game, 3, 7 + 7 * MAX_VARIATION_DEPTH as u64);
    // Then, at the end: the first `(` still open, and no marker.
    let kinds: Vec<_> = game
        .diagnostics
        .iter()
        .map(|d| (d.kind.clone(), d.line, d.column))
        .collect();
    assert!(
        kinds.contains(&(DiagnosticKind::UnclosedVariation, 3, 7)),
        "{kinds:?}"
    );
    assert!(
        kinds
            .iter()
            .any(|(k, _, _)| matches!(k, DiagnosticKind::MissingMarker(_))),
        "{kinds:?}"
    );
}

#[test]
fn parentheses_nested_100000_deep_without_moves() {
    let _lock = heavy();
    let mut input = b"1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'(', DEEP));
    input.extend(std::iter::repeat_n(b')', DEEP));
    input.extend_from_slice(b" e5 *\n");
    let game = bounded("100,000 empty parentheses", &input, read_one);
    let error = first_error(&game);
    assert_eq!(
        error.kind,
        DiagnosticKind::Unexpected("`(` before any move".into())
    );
    assert_eq!((error.line, error.column), (1, 8));
}

#[test]
fn comment_of_10_mb() {
    let _lock = heavy();
    let words = "a comment word ".repeat(10 << 20 >> 4);
    let input = format!("[Event \"big\"]\n\n1. e4 {{{words}}} e5 *\n");
    let game = bounded("10 MB comment", input.as_bytes(), read_one);
    no_errors(&game);
    let e4 = game.value.main_line().next().expect("e4");
    let comment = game
        .value
        .node(e4)
        .and_then(|n| n.comments().next())
        .expect("the comment");
    assert_eq!(comment.text(), words);
    assert_eq!(game.value.main_line().count(), 2);
    let text = bounded("10 MB comment, export", input.as_bytes(), |_| {
        export_is_stable(&game.value)
    });
    assert!(text.lines().all(|l| l.len() <= 80), "export wraps at 80");
}

#[test]
fn unterminated_comment_of_10_mb() {
    let _lock = heavy();
    let words = "never closed ".repeat(10 << 20 >> 4);
    let input = format!("[Event \"big\"]\n\n1. e4 e5 {{{words}");
    let game = bounded("10 MB unterminated comment", input.as_bytes(), read_one);
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::UnterminatedComment);
    assert_eq!((error.line, error.column), (3, 10));
    assert_eq!(game.value.main_line().count(), 2);
}

#[test]
fn tag_value_of_10_mb() {
    let _lock = heavy();
    let value = "v".repeat(10 << 20);
    let input = format!("[Event \"{value}\"]\n[Site \"here\"]\n\n1. e4 *\n");
    let game = bounded("10 MB tag value", input.as_bytes(), read_one);
    no_errors(&game);
    assert_eq!(game.value.tags().get("Event").map(str::len), Some(10 << 20));
    assert_eq!(game.value.tags().get("Site"), Some("here"));
    let text = export_is_stable(&game.value);
    assert!(text.starts_with("[Event \"vvv"));
}

#[test]
fn unterminated_tag_value_of_10_mb() {
    let _lock = heavy();
    let value = "v".repeat(10 << 20);
    let input = format!("[Event \"ok\"]\n[Site \"{value}");
    let game = bounded("10 MB unterminated tag value", input.as_bytes(), read_one);
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::UnterminatedString);
    assert_eq!((error.line, error.column), (2, 7));
}

#[test]
fn game_of_100000_plies() {
    let _lock = heavy();
    let moves = knight_shuffle(25_000, "\n");
    let input = format!("[Event \"long\"]\n\n{moves}1/2-1/2\n");
    let game = bounded("100,000 plies", input.as_bytes(), read_one);
    no_errors(&game);
    assert_eq!(game.value.main_line().count(), 100_000);
    let last = game.value.main_line().last().expect("a last move");
    assert_eq!(
        game.value.move_number(last),
        (50_000, pgnkit::chess::Color::Black)
    );
    let text = bounded("100,000 plies, export", input.as_bytes(), |_| {
        export_is_stable(&game.value)
    });
    let flat = text.replace('\n', " ");
    assert!(flat.contains(" 50000. Ng1 Ng8 1/2-1/2 "), "the last moves");
    let json = game.value.to_json();
    let back = Game::from_json(&json).expect("JSON reads back");
    assert_eq!(back.main_line().count(), 100_000);
}

#[test]
fn line_of_1_mb() {
    let _lock = heavy();
    // About 1 MB of moves on one line, no line end at all.
    let moves = knight_shuffle(40_000, " ");
    let input = format!("{moves}*");
    assert!(input.len() >= 1 << 20, "{}", input.len());
    let game = bounded("1 MB line", input.as_bytes(), read_one);
    no_errors(&game);
    assert_eq!(game.value.main_line().count(), 160_000);
}

#[test]
fn token_of_1_mb() {
    let _lock = heavy();
    let mut input = b"[Event \"long token\"]\n\n1. e4 ".to_vec();
    input.extend(std::iter::repeat_n(b'a', 1 << 20));
    input.extend_from_slice(b" e5 *\n");
    let game = bounded("1 MB token", &input, read_one);
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::Lex(LexErrorKind::TokenTooLong));
    assert_eq!((error.line, error.column), (3, 7));
    assert_eq!(error.end - error.start, 1 << 20);
}

#[test]
fn nul_and_control_bytes_in_movetext() {
    let input = b"[Event \"ctl\"]\n\n1. e4 \x00\x01\x02 e5 *\n";
    let game = read_one(input);
    let error = first_error(&game);
    assert_eq!(
        error.kind,
        DiagnosticKind::Lex(LexErrorKind::ControlCharacter)
    );
    assert_eq!((error.line, error.column), (3, 7));
    assert_eq!(game.value.main_line().count(), 1, "e4 read before");
}

#[test]
fn nul_and_control_bytes_in_tags_and_comments() {
    // Inside a string or a comment, control bytes are text: kept as read.
    let input = b"[Event \"a\x00b\"]\n\n1. e4 {x\x07y} e5 *\n";
    let game = read_one(input);
    for d in &game.diagnostics {
        assert_eq!(d.severity, Severity::Warning, "{d}");
    }
    assert_eq!(game.value.tags().get("Event"), Some("a\u{0}b"));
    let e4 = game.value.main_line().next().expect("e4");
    let comment = game.value.node(e4).and_then(|n| n.comments().next());
    assert_eq!(comment.map(|c| c.text()), Some("x\u{7}y"));
}

#[test]
fn nul_bytes_only() {
    let input = vec![0u8; 4096];
    let games = read_all(&input);
    assert_eq!(games.len(), 1, "NUL bytes are not white space: one game");
    let error = first_error(&games[0]);
    assert_eq!(
        error.kind,
        DiagnosticKind::Lex(LexErrorKind::ControlCharacter)
    );
    assert_eq!((error.line, error.column), (1, 1));
}

/// A small deterministic generator (xorshift64*), so the test is the same
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

#[test]
fn random_bytes() {
    let _lock = heavy();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let input: Vec<u8> = (0..1 << 20).map(|_| rng.next() as u8).collect();
    let games = bounded("1 MB random bytes", &input, read_all);
    assert!(games.iter().any(|g| g.is_broken()));
    // The games hold every byte but the junk before the first one.
    let total: usize = games.iter().map(|g| g.raw.len()).sum();
    let first = games.first().map_or(input.len() as u64, |g| g.offset);
    assert_eq!(total as u64 + first, input.len() as u64);
}

#[test]
fn random_pgn_characters() {
    let _lock = heavy();
    // Bytes drawn from PGN's own alphabet reach deeper into the reader.
    let alphabet = b"[]\"{}();$!?*-/.0123456789 \n\nabcdefghKQRBNOxe=+#%\\";
    let mut rng = Rng(42);
    let input: Vec<u8> = (0..1 << 20)
        .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
        .collect();
    let games = bounded("1 MB random PGN characters", &input, read_all);
    let total: usize = games.iter().map(|g| g.raw.len()).sum();
    let first = games.first().map_or(input.len() as u64, |g| g.offset);
    assert_eq!(total as u64 + first, input.len() as u64);
}

#[test]
fn file_ends_inside_a_string() {
    let game = read_one(b"[Event \"x\"]\n[Site \"somewh");
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::UnterminatedString);
    assert_eq!((error.line, error.column), (2, 7));
}

#[test]
fn file_ends_inside_a_comment() {
    let game = read_one(b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 {the knight");
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::UnterminatedComment);
    assert_eq!((error.line, error.column), (3, 17));
    assert_eq!(game.value.main_line().count(), 3);
}

#[test]
fn file_ends_inside_a_variation() {
    let game = read_one(b"[Event \"x\"]\n\n1. e4 e5 (1... c5 2. Nf3");
    let error = first_error(&game);
    assert_eq!(error.kind, DiagnosticKind::UnclosedVariation);
    assert_eq!((error.line, error.column), (3, 10));
    assert_eq!(game.value.main_line().count(), 2);
}

#[test]
fn file_ends_inside_a_tag() {
    for (input, column) in [
        (&b"[Event \"x\"]\n[Site"[..], 2),
        (&b"[Event \"x\"]\n[Site \"y\""[..], 7),
        (&b"[Event \"x\"]\n["[..], 1),
    ] {
        let game = read_one(input);
        let error = first_error(&game);
        assert!(
            matches!(error.kind, DiagnosticKind::MalformedTag(_)),
            "{}: {error}",
            String::from_utf8_lossy(input)
        );
        assert_eq!(
            (error.line, error.column),
            (2, column),
            "{}: {error}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn many_games_on_one_line_of_1_mb() {
    let _lock = heavy();
    // `1. e4 * 1. e4 * ...`: after a marker the next movetext token starts
    // a game without tags, so this one line of 1 MB holds 131,072 games,
    // read by the streaming reader and by `read_games` alike.
    let mut input = "1. e4 * ".repeat(1 << 17);
    input.push_str("1. Ke2 *\n");
    let games = bounded("131,073 games on a 1 MB line", input.as_bytes(), |input| {
        pgnkit::game::Reader::new(input)
            .map(|g| g.expect("reading a slice cannot fail"))
            .collect::<Vec<_>>()
    });
    assert_eq!(games.len(), (1 << 17) + 1);
    assert_eq!(
        GameSplitter::new(input.as_bytes()).count(),
        games.len(),
        "the splitter finds as many"
    );
    assert!(games[..1 << 17].iter().all(|g| !g.is_broken()));
    let last = games.last().expect("the last game");
    let error = first_error(last);
    assert_eq!(error.kind, DiagnosticKind::IllegalMove);
    assert_eq!((error.line, error.column), (1, 8 * (1 << 17) + 4));
    let sliced = bounded(
        "131,073 games on a 1 MB line, read_games",
        input.as_bytes(),
        read_all,
    );
    assert_eq!(sliced.len(), games.len());
    let error = first_error(sliced.last().expect("the last game"));
    assert_eq!((error.line, error.column), (1, 8 * (1 << 17) + 4));
}
