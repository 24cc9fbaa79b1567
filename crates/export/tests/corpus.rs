//! Corpus-wide export tests (corpus from `PGNKIT_CORPUS`, default
//! `../shared/corpus` beside the workspace): for every game read without
//! errors, export is idempotent (`export(read(export(g))) == export(g)`),
//! reading the export gives the same model (moves, tags, NAGs, comment text
//! modulo white space), the streaming writer gives the same bytes, and the
//! output keeps the layout invariants.
//!
//! Every game of every file is covered (about 265k games); the crate is
//! built optimised in test builds so this stays well under a minute.

mod common;

use std::path::{Path, PathBuf};

use pgnkit_export::{ExportOptions, GameWriter, Notation, StreamWriter};
use pgnkit_game::{Annotation, Comment, Game, Node, NodeId, ReadOptions, read_games, visit_games};

fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("PGNKIT_CORPUS") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
        {
            out.push(path);
        }
    }
}

/// The comment's words joined by single spaces (what export keeps).
fn collapse(comment: &Comment) -> String {
    comment
        .text()
        .split([' ', '\t', '\n', '\r', '\x0b', '\x0c'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn comments<'a>(list: impl IntoIterator<Item = &'a Comment>) -> Vec<String> {
    list.into_iter()
        .map(collapse)
        .filter(|c| !c.is_empty())
        .collect()
}

/// A node's annotations as comparable text: NAGs and non-empty comments.
fn annotations(node: &Node) -> Vec<String> {
    node.annotations()
        .iter()
        .filter_map(|a| match a {
            Annotation::Nag(n) => Some(n.to_string()),
            Annotation::Comment(c) => Some(collapse(c)).filter(|c| !c.is_empty()),
        })
        .collect()
}

/// Compares the move trees of `a` and `b` node by node.
fn same_tree(a: &Game, b: &Game) -> Result<(), String> {
    let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
    while let Some((x, y)) = stack.pop() {
        let (Some(nx), Some(ny)) = (a.node(x), b.node(y)) else {
            return Err("missing node".into());
        };
        if nx.mv() != ny.mv() {
            return Err(format!("moves differ: {:?} / {:?}", nx.san(), ny.san()));
        }
        if comments(nx.comments_before()) != comments(ny.comments_before()) {
            return Err(format!("comments before {:?} differ", nx.san()));
        }
        if annotations(nx) != annotations(ny) {
            return Err(format!(
                "annotations of {:?} differ: {:?} / {:?}",
                nx.san(),
                annotations(nx),
                annotations(ny)
            ));
        }
        if comments(nx.trailing_comments()) != comments(ny.trailing_comments()) {
            return Err(format!("trailing comments of {:?} differ", nx.san()));
        }
        if nx.children().len() != ny.children().len() {
            return Err(format!("children of {:?} differ", nx.san()));
        }
        stack.extend(
            nx.children()
                .iter()
                .copied()
                .zip(ny.children().iter().copied()),
        );
    }
    Ok(())
}

fn same_tags(a: &Game, b: &Game) -> Result<(), String> {
    for (name, value) in a.tags().iter() {
        let got = b.tags().get(name);
        let ok = match name {
            "Result" => got == Some(a.termination().as_str()),
            "FEN" => got.is_some(),
            _ => got == Some(value),
        };
        if !ok {
            return Err(format!("tag {name}: {value:?} became {got:?}"));
        }
    }
    if a.termination() != b.termination() || a.start_position() != b.start_position() {
        return Err("marker or start position differs".into());
    }
    Ok(())
}

#[test]
fn corpus_export_is_idempotent_and_keeps_the_model() {
    let dir = corpus_dir();
    assert!(
        dir.is_dir(),
        "corpus not found at {} (set PGNKIT_CORPUS)",
        dir.display()
    );
    let mut files = Vec::new();
    pgn_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no .pgn files under {}", dir.display());

    let options = ExportOptions::export();
    let mut writer = GameWriter::new(options.clone());
    // Reduced export in figurines: only the layout invariants are checked.
    let mut reduced = GameWriter::new(ExportOptions {
        notation: Notation::Fan,
        ..ExportOptions::reduced()
    });
    let mut failures = Vec::new();
    let (mut games, mut written) = (0u64, 0u64);
    for file in &files {
        let data = std::fs::read(file).expect("readable corpus file");
        let input = &data[..];
        let name = file
            .strip_prefix(&dir)
            .unwrap_or(file)
            .display()
            .to_string();
        let mut file_out = Vec::new();
        for read in read_games(input) {
            games += 1;
            if read.is_broken() {
                continue;
            }
            let game = read.value;
            let mut first = Vec::new();
            writer.write(&game, &mut first).expect("writing to a Vec");
            file_out.extend_from_slice(&first);
            written += 1;
            let text = String::from_utf8_lossy(&first).into_owned();
            let fail = |what: String| format!("{name} line {}: {what}\n{text}", read.line);
            if let Err(e) = common::check_layout(&text) {
                failures.push(fail(e));
                continue;
            }
            let mut small = Vec::new();
            reduced.write(&game, &mut small).expect("writing to a Vec");
            let small = String::from_utf8_lossy(&small);
            if let Err(e) = common::check_layout(&small) {
                failures.push(fail(format!("reduced: {e}\n{small}")));
            }
            let mut again: Vec<_> = read_games(&first).collect();
            if again.len() != 1 || again[0].is_broken() {
                let diags = again.first().map(|g| format!("{:?}", g.diagnostics));
                failures.push(fail(format!(
                    "export reads as {} games: {diags:?}",
                    again.len()
                )));
                continue;
            }
            let game2 = again.remove(0).value;
            let mut second = Vec::new();
            writer.write(&game2, &mut second).expect("writing to a Vec");
            if second != first {
                failures.push(fail(format!(
                    "not idempotent; second export:\n{}",
                    String::from_utf8_lossy(&second)
                )));
                continue;
            }
            if let Err(e) = same_tree(&game, &game2).and_then(|()| same_tags(&game, &game2)) {
                failures.push(fail(e));
            }
        }
        // The streaming writer gives the same bytes for the same games.
        let mut stream = visit_games(
            input,
            StreamWriter::new(options.clone()),
            ReadOptions::default(),
        );
        let mut stream_out = Vec::new();
        while let Some(read) = stream.next() {
            if !read.is_broken() {
                stream
                    .visitor()
                    .write_game_to(&mut stream_out)
                    .expect("Vec");
            }
        }
        if stream_out != file_out {
            let at = stream_out
                .iter()
                .zip(&file_out)
                .position(|(a, b)| a != b)
                .unwrap_or(stream_out.len().min(file_out.len()));
            let lo = at.saturating_sub(300);
            failures.push(format!(
                "{name}: streaming output differs at byte {at}\nstream: {}\ntree:   {}",
                String::from_utf8_lossy(&stream_out[lo..(at + 200).min(stream_out.len())]),
                String::from_utf8_lossy(&file_out[lo..(at + 200).min(file_out.len())]),
            ));
        }
    }
    eprintln!("{} files, {games} games, {written} written", files.len());
    assert!(written > 1000, "only {written} games written");
    assert!(
        failures.is_empty(),
        "{} failures; first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n---\n")
    );
}
