//! Tidy tests: facts about the workspace that no compiler checks.
//!
//! - every crate's workspace dependencies are exactly the ones the table in
//!   ARCHITECTURE.md states (dev-dependencies may only use crates below, or
//!   the test-support crate `pgnkit-corpus`), and every crate, path and
//!   module path it names exists;
//! - every source file of a workspace member starts with a `//!` module doc;
//! - no pending insta snapshot (`*.snap.new`, `*.pending-snap`) is tracked;
//! - no import circle between the modules of one crate ([`imports`]), paths
//!   through re-exports followed to the module that defines the name;
//! - no source file over 900 lines unless ARCHITECTURE.md says why;
//! - module folders sit beside their files (`name.rs` + `name/`, no `mod.rs`).

mod imports;

use crate::cmd::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `crate name -> (folder, workspace dependencies)` from ARCHITECTURE.md.
fn architecture_table() -> BTreeMap<String, (String, BTreeSet<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut table = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | `crate` | `folder` | deps |
        if let ["", name, folder, deps, ""] = cells[..]
            && let (Some(name), Some(folder)) = (ticked(name), ticked(folder))
        {
            let deps = deps
                .split(',')
                .filter_map(|d| ticked(d.trim()))
                .map(str::to_string)
                .collect();
            table.insert(name.to_string(), (folder.to_string(), deps));
        }
    }
    table
}

/// The folders of the repository whose paths ARCHITECTURE.md may name.
const NAMED_FOLDERS: &[&str] = &["crates/", "xtask/", "tests/", "bench/", "docs/", "fuzz/"];

/// What `text` names that does not exist: a crate (`pgnkit-x` or
/// `pgnkit_x`) that is not a workspace member; a path under one of
/// [`NAMED_FOLDERS`] that is not on disk; a module path `pgnkit_x::a::b`
/// (up to its first capitalised part, a type) whose modules are not files or
/// folders of that crate's `src/`.
fn missing_names(text: &str, crates: &BTreeMap<String, (String, BTreeSet<String>)>) -> Vec<String> {
    let mut missing = BTreeSet::new();
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || "_-./:*".contains(c)));
    for word in words {
        let word = word.trim_end_matches(['.', ':', '-']);
        if NAMED_FOLDERS.iter().any(|f| word.starts_with(f)) {
            if !root().join(word).exists() {
                missing.insert(format!("path {word}"));
            }
            continue;
        }
        let Some(rest) = word
            .strip_prefix("pgnkit-")
            .or_else(|| word.strip_prefix("pgnkit_"))
        else {
            continue;
        };
        let mut parts = rest.split("::");
        let name = format!("pgnkit-{}", parts.next().unwrap_or_default());
        let Some((folder, _)) = crates.get(&name) else {
            missing.insert(format!("crate {name}"));
            continue;
        };
        let mut module = root().join(folder).join("src");
        for part in parts.take_while(|p| p.starts_with(|c: char| c.is_ascii_lowercase())) {
            module.push(part);
            if !module.is_dir() && !module.with_extension("rs").is_file() {
                missing.insert(format!("module {word}"));
                break;
            }
        }
    }
    missing.into_iter().collect()
}

#[test]
fn architecture_names_only_what_exists() {
    let table = architecture_table();
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let missing = missing_names(&text, &table);
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what does not exist: {missing:#?}"
    );
    // The check can fail: names that do not exist are found.
    let made_up = "`pgnkit-nothing`, `crates/lexer/src/nothing.rs`, `pgnkit_lexer::nothing`, \
                   `pgnkit_lexer::split::GameSplitter`, `crates/lexer/src/split.rs`.";
    assert_eq!(
        missing_names(made_up, &table),
        [
            "crate pgnkit-nothing",
            "module pgnkit_lexer::nothing",
            "path crates/lexer/src/nothing.rs",
        ]
    );
}

fn ticked(cell: &str) -> Option<&str> {
    cell.strip_prefix('`')?.strip_suffix('`')
}

/// The workspace crates a manifest names in one dependency section.
fn workspace_deps(manifest: &str, section: &str) -> BTreeSet<String> {
    manifest
        .lines()
        .skip_while(|line| line.trim() != section)
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .filter_map(|line| line.split(['=', '.']).next())
        .map(str::trim)
        .filter(|name| name.starts_with("pgnkit"))
        .map(str::to_string)
        .collect()
}

fn package_name(manifest: &str) -> Option<String> {
    manifest
        .lines()
        .skip_while(|line| line.trim() != "[package]")
        .find_map(|line| line.trim().strip_prefix("name = "))
        .map(|name| name.trim_matches('"').to_string())
}

#[test]
fn crate_graph_matches_architecture() {
    let table = architecture_table();
    assert!(
        table.len() >= 8,
        "ARCHITECTURE.md's crate table has {} rows; expected every crate",
        table.len()
    );
    let mut seen = BTreeSet::new();
    for path in member_manifests() {
        let manifest = std::fs::read_to_string(&path).unwrap();
        let name = package_name(&manifest).unwrap();
        let (folder, stated) = table.get(&name).unwrap_or_else(|| {
            panic!(
                "crate {name} ({}) is missing from ARCHITECTURE.md",
                path.display()
            )
        });
        assert_eq!(
            root().join(folder).join("Cargo.toml"),
            path,
            "ARCHITECTURE.md puts {name} in {folder}"
        );
        let actual = workspace_deps(&manifest, "[dependencies]");
        assert_eq!(
            &actual, stated,
            "{name}: Cargo.toml depends on {actual:?}, ARCHITECTURE.md says {stated:?}"
        );
        let dev = workspace_deps(&manifest, "[dev-dependencies]");
        let allowed = closure(&table, stated);
        for dep in &dev {
            assert!(
                allowed.contains(dep) || dep == TEST_SUPPORT,
                "{name}: dev-dependency {dep} is not below it in ARCHITECTURE.md"
            );
        }
        seen.insert(name);
    }
    let missing: Vec<_> = table.keys().filter(|k| !seen.contains(*k)).collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md lists crates that do not exist: {missing:?}"
    );
}

/// The manifest of every workspace member: the root `Cargo.toml`'s
/// `members`, with `dir/*` standing for every folder of `dir` that holds a
/// `Cargo.toml` (so a new crate is checked wherever it is added).
fn member_manifests() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let start = text
        .find("\nmembers = [")
        .expect("the root Cargo.toml lists its `members = [...]`")
        + "\nmembers = [".len();
    let members = &text[start..start + text[start..].find(']').unwrap()];
    let mut manifests = Vec::new();
    for member in members.split(',') {
        let member = member.trim().trim_matches('"');
        if member.is_empty() {
            continue;
        }
        if let Some(dir) = member.strip_suffix("/*") {
            let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
                .unwrap()
                .map(|e| e.unwrap().path().join("Cargo.toml"))
                .filter(|m| m.is_file())
                .collect();
            found.sort();
            manifests.extend(found);
        } else {
            manifests.push(root().join(member).join("Cargo.toml"));
        }
    }
    assert!(manifests.len() >= 8, "members: {manifests:?}");
    manifests
}

/// The one crate every crate's tests may use: it depends on nothing of ours.
const TEST_SUPPORT: &str = "pgnkit-corpus";

/// Everything reachable from `deps` through the table.
fn closure(
    table: &BTreeMap<String, (String, BTreeSet<String>)>,
    deps: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    let mut todo: Vec<&String> = deps.iter().collect();
    while let Some(dep) = todo.pop() {
        if all.insert(dep.clone())
            && let Some((_, more)) = table.get(dep)
        {
            todo.extend(more);
        }
    }
    all
}

#[test]
fn the_layering_invariants_hold() {
    let table = architecture_table();
    assert!(
        table["pgnkit-chess"].1.is_empty(),
        "pgnkit-chess must depend on no workspace crate"
    );
    assert!(
        table["pgnkit-lexer"].1.is_empty(),
        "pgnkit-lexer must depend on no workspace crate"
    );
    assert!(
        table[TEST_SUPPORT].1.is_empty(),
        "{TEST_SUPPORT} must depend on no workspace crate"
    );
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_source_file_starts_with_module_docs() {
    let mut files = Vec::new();
    for src in source_folders() {
        rust_files(&src, &mut files);
    }
    assert!(!files.is_empty());
    let undocumented: Vec<_> = files
        .iter()
        .filter(|f| !std::fs::read_to_string(f).unwrap().starts_with("//!"))
        .collect();
    assert!(
        undocumented.is_empty(),
        "these files do not start with a `//!` module doc: {undocumented:#?}"
    );
}

#[test]
fn no_pending_snapshots_are_tracked() {
    let out = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(root())
        .output();
    let listed = match out {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        // Not a git checkout (a packaged source tree): nothing is tracked.
        _ => return,
    };
    let pending: Vec<&str> = listed
        .lines()
        .filter(|f| f.ends_with(".snap.new") || f.ends_with(".pending-snap"))
        .collect();
    assert!(
        pending.is_empty(),
        "pending insta snapshots are committed: {pending:?}"
    );
}

/// The `src` folder of every workspace member (see [`member_manifests`]),
/// so that a new crate is held to these tests wherever it is added.
fn source_folders() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = member_manifests()
        .iter()
        .map(|m| m.parent().unwrap().join("src"))
        .filter(|src| src.is_dir())
        .collect();
    folders.sort();
    folders
}

/// Circles that are known and being removed, as `crate folder: circle`
/// (the form [`imports::show`] prints). Each entry names its issue; the
/// test fails when an entry is no longer needed, so the list only shrinks.
const KNOWN_CIRCLES: &[&str] = &[];

#[test]
fn the_circle_fixture_is_caught() {
    let src = root().join("xtask/testdata/circle/src");
    let graph = imports::graph(&src);
    let found: Vec<String> = imports::circles(&graph)
        .iter()
        .map(|c| imports::show(c))
        .collect();
    assert_eq!(found, ["a -> b -> c -> a"], "graph: {graph:#?}");
    let edges = |module: &[&str]| -> Vec<String> {
        let module: imports::ModPath = module.iter().map(|m| m.to_string()).collect();
        graph[&module].iter().map(|m| m.join("::")).collect()
    };
    // What does not count: comments, strings, tests. `crate::A` is the
    // root's re-export of `a::A`, so `d` uses `a`.
    assert_eq!(edges(&["d"]), ["a"]);
    assert!(edges(&["e"]).is_empty());
    assert_eq!(edges(&["a"]), ["b", "e"]);
    assert_eq!(edges(&["f"]), ["f::g"]);
    assert!(edges(&["f", "g"]).is_empty());
}

/// A circle that only shows when `crate::Name`, `crate::{A, B}` and
/// `super::Name` are followed through re-exports (the root's `pub use`, an
/// alias, a glob, a parent's private `use`) fails the check, and the
/// message names it.
#[test]
fn a_circle_through_a_re_export_fails_the_check() {
    let src = root().join("xtask/testdata/reexport_circle/src");
    let graph = imports::graph(&src);
    let edges = |module: &[&str]| -> Vec<String> {
        let module: imports::ModPath = module.iter().map(|m| m.to_string()).collect();
        graph[&module].iter().map(|m| m.join("::")).collect()
    };
    assert_eq!(edges(&["split"]), ["pass"], "through the root's alias");
    assert_eq!(edges(&["pass"]), ["span", "split"], "a group and a glob");
    assert_eq!(
        edges(&["walk", "step"]),
        ["mid"],
        "through the parent's use"
    );
    assert_eq!(edges(&["mid"]), ["walk::step"], "through the folder's face");
    let message = check_circles(&[src], &[]).unwrap_err();
    for circle in [
        "xtask/testdata/reexport_circle: pass -> split -> pass",
        "xtask/testdata/reexport_circle: mid -> walk::step -> mid",
    ] {
        assert!(message.contains(circle), "{circle} is not in: {message}");
    }
}

/// Every import circle of the crates whose sources are in `folders`, as
/// `crate folder: circle`; an error naming the ones not in `known` (and the
/// entries of `known` that are gone).
fn check_circles(folders: &[PathBuf], known: &[&str]) -> Result<(), String> {
    let mut found = Vec::new();
    for src in folders {
        let folder = src.parent().unwrap().strip_prefix(root()).unwrap();
        let graph = imports::graph(src);
        assert!(graph.len() > 1 || src.join("lib.rs").is_file() || src.join("main.rs").is_file());
        for circle in imports::circles(&graph) {
            found.push(format!("{}: {}", folder.display(), imports::show(&circle)));
        }
    }
    let unexpected: Vec<&String> = found
        .iter()
        .filter(|c| !known.contains(&c.as_str()))
        .collect();
    if !unexpected.is_empty() {
        return Err(format!(
            "import circles between modules (give the shared piece a home below both sides): \
             {unexpected:#?}"
        ));
    }
    let stale: Vec<&&str> = known
        .iter()
        .filter(|known| !found.iter().any(|c| c == **known))
        .collect();
    if !stale.is_empty() {
        return Err(format!(
            "these circles are gone; remove them from KNOWN_CIRCLES: {stale:?}"
        ));
    }
    Ok(())
}

#[test]
fn no_import_circles_inside_a_crate() {
    if let Err(message) = check_circles(&source_folders(), KNOWN_CIRCLES) {
        panic!("{message}");
    }
}

/// Files over the limit that are being split, each with its issue; the
/// test fails when one of them is short again, so the list only shrinks.
const KNOWN_LONG_FILES: &[&str] = &[];

/// The line count above which a library file needs a note.
const MAX_LINES: usize = 900;

/// Files ARCHITECTURE.md names under its "Files over 900 lines" heading,
/// one `- \`path\`: why` bullet each.
fn noted_long_files() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    text.lines()
        .skip_while(|line| !line.starts_with("#") || !line.contains("Files over 900 lines"))
        .skip(1)
        .take_while(|line| !line.starts_with('#'))
        .filter_map(|line| line.strip_prefix("- `"))
        .filter_map(|line| line.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn no_library_file_is_too_long() {
    let noted = noted_long_files();
    let mut files = Vec::new();
    for src in source_folders() {
        rust_files(&src, &mut files);
    }
    let mut long = Vec::new();
    for file in &files {
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        if KNOWN_LONG_FILES.contains(&name.as_str()) {
            assert!(
                lines > MAX_LINES,
                "{name} has {lines} lines now; remove it from KNOWN_LONG_FILES"
            );
        } else if lines > MAX_LINES && !noted.contains(&name) {
            long.push(format!("{name}: {lines} lines"));
        }
    }
    long.sort();
    assert!(
        long.is_empty(),
        "library files over {MAX_LINES} lines: split them into modules named for what \
         each part holds, or say why in ARCHITECTURE.md under \"Files over 900 lines\": \
         {long:#?}"
    );
}

/// The folder convention of ARCHITECTURE.md: a module with parts is
/// `name.rs` beside `name/`; no `mod.rs`.
#[test]
fn module_folders_sit_beside_their_files() {
    let mut wrong = Vec::new();
    for src in source_folders() {
        let mut dirs = vec![src];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.strip_prefix(root()).unwrap().display().to_string();
                if path.is_dir() {
                    if !path.with_extension("rs").is_file() {
                        wrong.push(format!("{name}/ has no {name}.rs beside it"));
                    }
                    dirs.push(path);
                } else if path.file_name().is_some_and(|f| f == "mod.rs") {
                    wrong.push(format!(
                        "{name}: use the folder's name.rs instead of mod.rs"
                    ));
                }
            }
        }
    }
    wrong.sort();
    assert!(wrong.is_empty(), "{wrong:#?}");
}
