//! Fuzz target `query`: the `select` query language. The input is a nesting byte and the
//! query text: the text is wrapped in up to 25,500 parentheses or `not`s (the byte says how
//! many and which), so deep queries are tried as well as shallow ones. Parsing never panics
//! nor overflows the stack: a query deeper than `MAX_QUERY_DEPTH` is refused with
//! `TooDeep`; an error's span lies in the text and renders with its caret. A query that
//! parses is evaluated against fixed games (with and without a classified ECO code):
//! `not (q)` selects exactly what `q` does not, `(q) and (q)` and `(q) or (q)` what `q`
//! does, and a query that reads the tags only selects a game as it selects the game's tag
//! section alone.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use pgnkit::game::Game;
use pgnkit::select::{Context, MAX_QUERY_DEPTH, Query, QueryErrorKind};

const TAGS: &str = "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abc\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"Anand\"]\n[Black \"Carlsen, M.\"]\n[Result \"1-0\"]\n[WhiteElo \"2780\"]\n[BlackElo \"2850\"]\n[ECO \"C60\"]\n[TimeControl \"180+2\"]\n[PlyCount \"7\"]\n";

/// Games with moves (a scholar's mate, a Chess960 castling, a draw), and the same games' tag sections alone.
static GAMES: LazyLock<Vec<(Game, Game)>> = LazyLock::new(|| {
    let full = [
        format!(
            "{TAGS}\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
        ),
        "[Event \"?\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1\"]\n\n1. O-O Kd7 2. e4 *\n"
            .to_owned(),
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 { [%clk 0:03:00] } 1/2-1/2\n".to_owned(),
    ];
    full.iter()
        .map(|text| {
            let tags: String = text
                .lines()
                .take_while(|l| l.starts_with('['))
                .map(|l| format!("{l}\n"))
                .collect();
            let game: Game = text.parse().expect("a fixed game");
            let alone: Game = format!("{tags}\n*\n").parse().expect("a fixed tag section");
            (game, alone)
        })
        .collect()
});

fn selects(query: &Query) -> Vec<bool> {
    let mut out = Vec::new();
    for (game, alone) in GAMES.iter() {
        for eco in [None, Some("C60"), Some("")] {
            let context = Context { eco };
            let selected = query.matches(game, &context);
            if query.reads_tags_only() {
                assert_eq!(
                    query.matches(alone, &context),
                    selected,
                    "a tags-only query selects the tag section otherwise"
                );
            }
            out.push(selected);
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&nesting, text)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(text);
    let depth = usize::from(nesting >> 1) * 200;
    let query = if nesting & 1 == 0 {
        format!("{}{text}{}", "(".repeat(depth), ")".repeat(depth))
    } else {
        format!("{}{text}", "not ".repeat(depth))
    };
    let parsed = Query::parse(&query);
    let q = match parsed {
        Ok(q) => q,
        Err(e) => {
            assert!(e.start <= e.end && e.end <= query.len() + 1, "span {e:?}");
            let _ = e.render(&query);
            let _ = e.to_string();
            if depth > MAX_QUERY_DEPTH {
                assert!(
                    matches!(e.kind, QueryErrorKind::TooDeep(MAX_QUERY_DEPTH)),
                    "a query {depth} deep: {e}"
                );
            }
            return;
        }
    };
    assert!(depth <= MAX_QUERY_DEPTH, "a query {depth} deep was taken");
    let selected = selects(&q);
    if depth + 2 > MAX_QUERY_DEPTH {
        return;
    }
    let inverted = match Query::parse(&format!("not ({query})")) {
        Ok(inverted) => inverted,
        Err(e) if matches!(e.kind, QueryErrorKind::TooDeep(_)) => return,
        Err(e) => panic!("not ({query}) does not parse: {e}"),
    };
    let expected: Vec<bool> = selected.iter().map(|s| !s).collect();
    assert_eq!(selects(&inverted), expected, "not ({query})");
    for op in ["and", "or"] {
        let twice = match Query::parse(&format!("({query}) {op} ({query})")) {
            Ok(twice) => twice,
            Err(e) if matches!(e.kind, QueryErrorKind::TooDeep(_)) => return,
            Err(e) => panic!("({query}) {op} ({query}) does not parse: {e}"),
        };
        assert_eq!(selects(&twice), selected, "({query}) {op} ({query})");
    }
});
