//! The pgnkit conformance suite: fixtures under `tests/conformance/`, the
//! readable dumps its snapshots hold, and the [`model`] comparison that round
//! trips through export and JSON must pass.
//!
//! Fixtures live in three folders:
//!
//! - `ok/`: games that must read with no diagnostic at all;
//! - `err/`: inputs that must give at least one diagnostic (errors or warnings);
//! - `roundtrip/`: text already in export format, which must be written
//!   back byte for byte.
//!
//! A fixture's name starts with the area of the standard it tests
//! (`tags-`, `san-`, `comments-`...); [`area`] maps that prefix to the
//! section. Each fixture gets four snapshots in `tests/conformance/snapshots/`:
//! the token stream, the JSON model, the export output and the diagnostics.
//!
//! ```
//! let fixtures = pgnkit_conformance::fixtures();
//! assert!(fixtures.len() >= 40);
//! let dump = pgnkit_conformance::token_dump(b"1. e4 {hi} *");
//! assert!(dump.starts_with("0..1 integer 1\n"));
//! ```

pub mod model;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pgnkit::game::Diagnostics;
use pgnkit::lexer::Lexer;

/// What a fixture must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Reads with no diagnostic.
    Clean,
    /// Gives at least one diagnostic.
    Diagnostics,
    /// Is export format already: written back byte for byte.
    Roundtrip,
}

/// One fixture file.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The file.
    pub path: PathBuf,
    /// Its name without `.pgn`, e.g. `san-castling-both-sides`.
    pub name: String,
    /// What it must show.
    pub expect: Expect,
}

impl Fixture {
    /// The spec area it tests (from its name's prefix).
    pub fn area(&self) -> &'static str {
        area(&self.name)
    }

    /// Its bytes.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path)
            .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", self.path.display()))
    }

    /// The snapshot name for one kind of dump: `ok.san-castling.export`.
    pub fn snapshot(&self, kind: &str) -> String {
        let folder = match self.expect {
            Expect::Clean => "ok",
            Expect::Diagnostics => "err",
            Expect::Roundtrip => "roundtrip",
        };
        format!("{folder}.{}.{kind}", self.name)
    }
}

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the conformance crate lives one level below the workspace root")
        .to_path_buf()
}

/// Every fixture, sorted by folder and name.
pub fn fixtures() -> Vec<Fixture> {
    let base = workspace_root().join("tests/conformance");
    let mut all = Vec::new();
    for (folder, expect) in [
        ("ok", Expect::Clean),
        ("err", Expect::Diagnostics),
        ("roundtrip", Expect::Roundtrip),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(base.join(folder))
            .unwrap_or_else(|e| panic!("no fixture folder {folder}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("fixture names are UTF-8")
                .to_string();
            all.push(Fixture { path, name, expect });
        }
    }
    all
}

/// The part of the standard (or of SPEC-NOTES) a fixture name's prefix names.
pub fn area(name: &str) -> &'static str {
    let prefix = name.split('-').next().unwrap_or("");
    match prefix {
        "tags" => "8.1 tag pairs",
        "movetext" => "8.2 movetext",
        "san" => "8.2.3 SAN",
        "nags" => "8.2.4 NAGs and suffixes",
        "variations" => "8.2.5 variations (RAV)",
        "results" => "8.2.6 termination markers",
        "comments" => "5 comments",
        "escape" => "6 escape mechanism",
        "structure" => "4 files, games, blank lines",
        "encoding" => "4.1 character set, BOM, line ends",
        "fen" => "16.1 FEN and SetUp",
        "chess960" => "Chess960 (X-FEN, castling)",
        "variants" => "9.x Variant tag",
        "lenient" => "import leniency (SPEC-NOTES)",
        "recovery" => "errors and recovery (SPEC-NOTES)",
        "export" => "8 export format layout",
        _ => "other",
    }
}

/// One line per token: `start..end kind text` (text escaped so the dump is
/// one line per token and shows every byte).
pub fn token_dump(input: &[u8]) -> String {
    let mut out = String::new();
    for token in Lexer::new(input) {
        let _ = writeln!(
            out,
            "{}..{} {} {}",
            token.span.start,
            token.span.end,
            token.kind.name(),
            escape(token.text())
        );
    }
    out
}

/// Bytes as text: printable ASCII and valid UTF-8 as they are, `\n`, `\r`,
/// `\t` and other bytes escaped.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\\' => out.push_str("\\\\"),
                c if c.is_control() => {
                    let _ = write!(out, "\\u{{{:x}}}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// One line per diagnostic: `game N: line:column: severity: message ...`.
pub fn diagnostics_dump(games: &[(usize, &Diagnostics)]) -> String {
    let mut out = String::new();
    for (index, diagnostics) in games {
        for d in diagnostics.iter() {
            let _ = writeln!(out, "game {}: {d}", index + 1);
        }
    }
    if out.is_empty() {
        out.push_str("(no diagnostics)\n");
    }
    out
}

/// A corpus file's name for messages: its path below the corpus folder `dir`.
pub fn corpus_name(dir: &Path, file: &Path) -> String {
    file.strip_prefix(dir).unwrap_or(file).display().to_string()
}

/// Where two outputs first differ, with up to 300 bytes before and 200 after
/// of each (`stream:` and `tree:` lines), for a test's failure message.
///
/// ```
/// let text = pgnkit_conformance::first_difference(b"1. e4 e5", b"1. e4 c5");
/// assert_eq!(text, "differs at byte 6\nstream: 1. e4 e5\ntree:   1. e4 c5");
/// ```
pub fn first_difference(stream: &[u8], tree: &[u8]) -> String {
    let at = stream
        .iter()
        .zip(tree)
        .position(|(a, b)| a != b)
        .unwrap_or(stream.len().min(tree.len()));
    let lo = at.saturating_sub(300);
    let around = |out: &[u8]| {
        String::from_utf8_lossy(out.get(lo..(at + 200).min(out.len())).unwrap_or_default())
            .into_owned()
    };
    format!(
        "differs at byte {at}\nstream: {}\ntree:   {}",
        around(stream),
        around(tree)
    )
}
