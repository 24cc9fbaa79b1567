//! The import graph between the modules of one crate, read from its source
//! files, and the circles in it.
//!
//! A module is a file under `src/` (`lib.rs` is the root, `a.rs` is `a`,
//! `a/b.rs` is `a::b`; `a/mod.rs` would be `a`). An edge `a -> b` is any
//! path `crate::b…`, `super::…`, `self::…` or `child::…` (relative to the
//! module) in `a`'s code outside its `#[cfg(test)]` items that resolves to
//! the module `b`: the longest module path that is a prefix of it, then, for
//! the name after that prefix, through the `use` items of that module (`pub`
//! or not, aliases and globs too) to the module that defines it. So
//! `crate::RawGame`, `crate::{RawGame, Span}` and `super::San` lead to the
//! module the crate root (or the parent) re-exports the name from, not to
//! the root. Paths that end at the crate root (a type `lib.rs` defines) or
//! at another ancestor of the module (`super::San` in `san/parse.rs` when
//! `san.rs` defines `San`) lead to a folder's face, not to a sibling, and
//! are not edges; neither are a module's paths into itself. A parent
//! holding the types its children implement is the usual shape of a
//! folder, not a circle. Comments and string literals are ignored line by
//! line (good enough for this workspace's code).
//!
//! This is a text scan, not a compiler: it knows nothing of `#[path]` or
//! macros, and that is enough to keep the floors of a crate pointing down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path inside a crate: `[]` is the root, `["san", "parse"]` is
/// `split::vector`.
pub type ModPath = Vec<String>;

/// The modules of the crate whose sources are in `src` and, for each, the
/// modules it imports.
pub fn graph(src: &Path) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut files = Vec::new();
    collect(src, &mut files);
    let code: BTreeMap<ModPath, String> = files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            (module_of(src, &file), code_lines(&text))
        })
        .collect();
    let scope = Scope {
        known: code.keys().collect(),
        uses: code.iter().map(|(m, c)| (m, uses(c))).collect(),
        code: &code,
    };
    let mut graph = BTreeMap::new();
    for (module, text) in &code {
        let mut edges = BTreeSet::new();
        for path in paths(text) {
            if let Some(target) = scope.resolve(module, &path, 0)
                && !module.starts_with(&target)
            {
                edges.insert(target);
            }
        }
        graph.insert(module.clone(), edges);
    }
    graph
}

/// Every circle of the graph, each once, as the modules around it (the
/// first module repeated at the end), smallest first.
pub fn circles(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    // Strongly connected components (Tarjan); each with two or more modules
    // holds a circle, shown as one shortest loop through its first module.
    let mut found = Vec::new();
    for component in components(graph) {
        if component.len() < 2 {
            continue;
        }
        let start = component.iter().next().unwrap().clone();
        found.push(shortest_loop(graph, &start, &component));
    }
    found.sort_by_key(Vec::len);
    found
}

/// `a::b -> c -> a::b`, the way a failing test names a circle.
pub fn show(circle: &[ModPath]) -> String {
    circle
        .iter()
        .map(|m| {
            if m.is_empty() {
                "crate".to_string()
            } else {
                m.join("::")
            }
        })
        .collect::<Vec<_>>()
        .join(" -> ")
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_of(src: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: ModPath = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod")) {
        parts.pop();
    }
    if parts == ["lib"] || parts == ["main"] {
        parts.clear();
    }
    parts
}

/// The file's code without comments, string literals and `#[cfg(test)]`
/// items (a `#[cfg(test)]` line and the item after it, up to its closing
/// brace or semicolon).
fn code_lines(text: &str) -> String {
    let mut out = String::new();
    let mut skip_depth: Option<i64> = None;
    let mut pending_cfg_test = false;
    // A string may go on over line ends (`"...\n\` and the next line).
    let mut in_string = false;
    for line in text.lines() {
        let code = strip_comment_and_strings(line, &mut in_string);
        let trimmed = code.trim();
        if let Some(depth) = skip_depth.as_mut() {
            *depth += brace_balance(&code);
            if *depth <= 0 && (code.contains('}') || trimmed.ends_with(';')) {
                skip_depth = None;
            }
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            pending_cfg_test = true;
            continue;
        }
        if pending_cfg_test {
            if trimmed.starts_with("#[") || trimmed.is_empty() {
                continue;
            }
            pending_cfg_test = false;
            let depth = brace_balance(&code);
            if depth > 0 {
                skip_depth = Some(depth);
            }
            continue;
        }
        out.push_str(&code);
        out.push('\n');
    }
    out
}

fn brace_balance(code: &str) -> i64 {
    code.chars()
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}

/// `line` without its comment and the insides of its string literals; `in_string` says
/// whether the line starts inside a string, and is left saying whether it ends inside one.
fn strip_comment_and_strings(line: &str, in_string: &mut bool) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if *in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => *in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => *in_string = true,
            '/' if chars.peek() == Some(&'/') => break,
            // A char literal: skip it so `'{'` does not count as a brace.
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    // '\x', '\n', '\u{..}': skip to the closing quote.
                    for d in chars.by_ref() {
                        if d == '\'' {
                            break;
                        }
                    }
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                } else {
                    out.push(c); // a lifetime
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Every `crate::…`, `super::…`, `self::…` and relative `name::…` path of
/// the code, with `use`
/// groups expanded (`use crate::{a, b::C}` gives `crate::a` and
/// `crate::b::C`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // Join `use` items that span several lines into one.
    let flat: String = code.replace('\n', " ");
    let bytes = flat.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        if starts_word
            && let Some(head) = ["crate::", "super::", "self::"]
                .into_iter()
                .find(|h| flat[i..].starts_with(h))
        {
            let (tree, len) = use_tree(&flat[i..]);
            out.extend(tree);
            i += len.max(head.len());
            continue;
        }
        // A path relative to the module (`g::make` for its child `g`): read
        // as `self::g::make`; it resolves to the module itself unless `g`
        // is a child.
        if starts_word && !flat[..i].ends_with("::") && bytes[i].is_ascii_alphabetic() {
            let mut end = i;
            while end < bytes.len() && is_ident(bytes[end]) {
                end += 1;
            }
            if flat[end..].starts_with("::") {
                let (tree, len) = use_tree(&flat[i..]);
                out.extend(tree.into_iter().map(|mut p| {
                    p.insert(0, "self".to_string());
                    p
                }));
                i += len.max(end - i);
                continue;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The paths of one use tree starting at `text`, and how many bytes it
/// spans.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while i < bytes.len() && is_ident(bytes[i]) {
            i += 1;
        }
        if i > start {
            prefix.push(text[start..i].to_string());
        }
        if text[i..].starts_with("::") {
            i += 2;
            if text[i..].starts_with('{') {
                // A group: split its items at top-level commas.
                let mut depth = 0;
                let mut item_start = i + 1;
                let mut out = Vec::new();
                let mut j = i;
                while j < bytes.len() {
                    match bytes[j] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                out.extend(group_item(&prefix, &text[item_start..j]));
                                return (out, j + 1);
                            }
                        }
                        b',' if depth == 1 => {
                            out.extend(group_item(&prefix, &text[item_start..j]));
                            item_start = j + 1;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                return (out, j);
            }
            continue;
        }
        return (vec![prefix], i);
    }
}

fn group_item(prefix: &[String], item: &str) -> Vec<Vec<String>> {
    let item = item.trim();
    if item.is_empty() {
        return Vec::new();
    }
    if item == "self" {
        return vec![prefix.to_vec()];
    }
    let (tree, _) = use_tree(item);
    tree.into_iter()
        .map(|mut p| {
            let mut full = prefix.to_vec();
            full.append(&mut p);
            full
        })
        .collect()
}

/// What a path can lead to: the crate's modules, the names each brings in
/// with `use`, and each module's code (to find what a glob brings in).
struct Scope<'c> {
    known: BTreeSet<&'c ModPath>,
    uses: BTreeMap<&'c ModPath, Vec<Use>>,
    code: &'c BTreeMap<ModPath, String>,
}

/// How many `use` items a path is followed through before giving up (a
/// re-export of a re-export is two).
const MAX_HOPS: usize = 8;

impl Scope<'_> {
    /// The module a path leads to, from inside `module`, following the
    /// `use` items of the module it reaches for the name after it.
    fn resolve(&self, module: &ModPath, path: &[String], hops: usize) -> Option<ModPath> {
        let mut base: ModPath = Vec::new();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => rest = &path[1..],
            Some("self") => {
                base = module.clone();
                rest = &path[1..];
            }
            Some("super") => {
                base = module.clone();
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            _ => return None,
        }
        let mut best = base.clone();
        let mut used = 0;
        let mut candidate = base;
        for (i, part) in rest.iter().enumerate() {
            candidate.push(part.clone());
            if self.known.contains(&candidate) {
                best = candidate.clone();
                used = i + 1;
            }
        }
        let after = &rest[used..];
        let Some(name) = after.first() else {
            return Some(best);
        };
        if hops < MAX_HOPS
            && let Some(target) = self.import_of(&best, name)
        {
            let mut next = target;
            if !matches!(next[0].as_str(), "crate" | "self" | "super") {
                next.insert(0, "self".to_string()); // a child, or another crate
            }
            next.extend_from_slice(&after[1..]);
            if let Some(found) = self.resolve(&best, &next, hops + 1) {
                return Some(found);
            }
        }
        Some(best)
    }

    /// The path `module` brings `name` in from: a `use` naming it (or an
    /// alias of it), else a glob `use` of a module of this crate that
    /// defines or brings in `name`.
    fn import_of(&self, module: &ModPath, name: &str) -> Option<Vec<String>> {
        let uses = self.uses.get(module)?;
        if let Some(found) = uses.iter().find(|u| u.name.as_deref() == Some(name)) {
            return Some(found.path.clone());
        }
        uses.iter().filter(|u| u.name.is_none()).find_map(|glob| {
            let mut path = glob.path.clone();
            if !matches!(path[0].as_str(), "crate" | "self" | "super") {
                path.insert(0, "self".to_string());
            }
            let from = self.resolve(module, &path, MAX_HOPS)?;
            let holds = self.code.get(&from).is_some_and(|code| defines(code, name))
                || self
                    .uses
                    .get(&from)
                    .is_some_and(|u| u.iter().any(|u| u.name.as_deref() == Some(name)));
            (from != *module && holds).then(|| {
                let mut full = glob.path.clone();
                full.push(name.to_string());
                full
            })
        })
    }
}

/// One name a module's `use` item brings in: `name` (the alias, or the
/// path's last part; `None` for a glob `*`) and the path as written.
#[derive(Debug, PartialEq)]
struct Use {
    name: Option<String>,
    path: Vec<String>,
}

/// The module-level `use` items of the code (`pub`, `pub(crate)` or
/// private; not those inside functions or inline modules), one [`Use`] per
/// name they bring in.
fn uses(code: &str) -> Vec<Use> {
    let flat: String = code.replace('\n', " ");
    let bytes = flat.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i64;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
        let starts_word = i == 0 || !is_ident(bytes[i - 1]);
        if depth == 0 && starts_word && flat[i..].starts_with("use ") {
            let start = i + "use ".len();
            let Some(len) = flat[start..].find(';') else {
                break;
            };
            use_items(&[], flat[start..start + len].trim(), &mut out);
            i = start + len;
        }
        i += 1;
    }
    out
}

/// The names one use tree (`a::b::{C, d::E as F, g::*}`) brings in, with
/// `prefix` before each path.
fn use_items(prefix: &[String], tree: &str, out: &mut Vec<Use>) {
    let tree = tree.trim().trim_start_matches("::");
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{')
        && tree.ends_with('}')
    {
        let mut full = prefix.to_vec();
        full.extend(segments(tree[..open].trim().trim_end_matches("::")));
        let inner = &tree[open + 1..tree.len() - 1];
        let mut depth = 0;
        let mut start = 0;
        for (j, b) in inner.bytes().enumerate() {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b',' if depth == 0 => {
                    use_items(&full, &inner[start..j], out);
                    start = j + 1;
                }
                _ => {}
            }
        }
        use_items(&full, &inner[start..], out);
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path.trim(), Some(alias.trim().to_string())),
        None => (tree, None),
    };
    let mut full = prefix.to_vec();
    full.extend(segments(path));
    if full.last().is_some_and(|last| last == "self") {
        full.pop();
    }
    if full.last().is_some_and(|last| last == "*") {
        full.pop();
        out.push(Use {
            name: None,
            path: full,
        });
        return;
    }
    if alias.as_deref() == Some("_") || full.is_empty() {
        return; // `use Trait as _` names nothing
    }
    let name = alias.or_else(|| full.last().cloned());
    out.push(Use { name, path: full });
}

fn segments(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Whether the code defines an item called `name` at any depth (`struct`,
/// `enum`, `fn`, `trait`, `type`, `const`, `static`, `mod`, `union`,
/// `macro_rules!`): enough to tell what a glob `use` brings in.
fn defines(code: &str, name: &str) -> bool {
    const KINDS: &[&str] = &[
        "struct ",
        "enum ",
        "fn ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "union ",
        "macro_rules! ",
    ];
    code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ' ' || c == '!'))
        .any(|chunk| {
            KINDS.iter().any(|kind| {
                chunk.match_indices(kind).any(|(at, _)| {
                    (at == 0 || chunk.as_bytes()[at - 1] == b' ')
                        && chunk[at + kind.len()..].trim_start().split(' ').next() == Some(name)
                })
            })
        })
}

fn components(graph: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<BTreeSet<ModPath>> {
    struct State<'g> {
        graph: &'g BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'g ModPath, usize>,
        low: BTreeMap<&'g ModPath, usize>,
        stack: Vec<&'g ModPath>,
        on_stack: BTreeSet<&'g ModPath>,
        out: Vec<BTreeSet<ModPath>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph.get(v).into_iter().flatten() {
            if !graph.contains_key(w) {
                continue;
            }
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.insert(w.clone());
                if w == v {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}

/// A shortest path from `start` back to itself inside `component`.
fn shortest_loop(
    graph: &BTreeMap<ModPath, BTreeSet<ModPath>>,
    start: &ModPath,
    component: &BTreeSet<ModPath>,
) -> Vec<ModPath> {
    let mut parent: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in &graph[v] {
            if !component.contains(w) {
                continue;
            }
            if w == start {
                let mut path = vec![start.clone()];
                let mut at = v;
                while at != start {
                    path.push(at.clone());
                    at = parent[at];
                }
                path.push(start.clone());
                path.reverse();
                return path;
            }
            if !parent.contains_key(w) {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    vec![start.clone()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(code: &str) -> Vec<String> {
        uses(code)
            .into_iter()
            .map(|u| {
                format!(
                    "{} = {}",
                    u.name.as_deref().unwrap_or("*"),
                    u.path.join("::")
                )
            })
            .collect()
    }

    #[test]
    fn use_items_name_what_they_bring_in() {
        let code = "pub use a::{B, c::{D as E, self}, f::*};\n\
                    use pgnkit_lexer::{self as lexer, RawGame};\n\
                    pub(crate) use std::fmt::Write as _;\n\
                    fn f() { use inner::Hidden; }\n";
        assert_eq!(
            shown(code),
            [
                "B = a::B",
                "E = a::c::D",
                "c = a::c",
                "* = a::f",
                "lexer = pgnkit_lexer",
                "RawGame = pgnkit_lexer::RawGame",
            ]
        );
    }

    #[test]
    fn definitions_are_found_by_kind_and_name() {
        let code = "pub struct Span<T>(T);\npub(crate) fn make() {}\nconst MAX: u8 = 1;\n";
        assert!(defines(code, "Span"));
        assert!(defines(code, "make"));
        assert!(defines(code, "MAX"));
        assert!(!defines(code, "Spa"));
        assert!(!defines(code, "T"));
    }

    /// A test module's string that goes on over a line end, with a `}` on its second line,
    /// does not end the module early: the paths after it are still the test's.
    #[test]
    fn a_string_over_two_lines_stays_inside_its_test_module() {
        let text = "use crate::a::A;\n\
                    #[cfg(test)]\n\
                    mod tests {\n\
                    \x20   const S: &str = \"{ one\\n\\\n\
                    \x20       two } three\";\n\
                    \x20   fn f() { crate::b::g(); }\n\
                    }\n\
                    fn h() { crate::c::k(); }\n";
        let code = code_lines(text);
        assert!(code.contains("crate::a::A"), "{code}");
        assert!(code.contains("crate::c::k"), "{code}");
        assert!(!code.contains("crate::b"), "{code}");
    }
}
