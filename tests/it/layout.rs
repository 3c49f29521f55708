//! The dependency direction of `src/`, checked on the code itself: each folder may
//! import only the folders listed for it (docs/architecture.md), the top-level
//! modules form no cycle, no two files import each other (directly or around a
//! circle), and no module is placed by a `#[path]` attribute. Reads every `crate::` path of every file, test
//! modules left out (a test may reach anywhere).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Each top-level module and the modules it may import. `testkit` is the door for
/// tests; `lib` only declares the modules.
const ALLOWED: &[(&str, &[&str])] = &[
    ("domain", &[]),
    ("settings", &["domain"]),
    ("cli", &["domain", "settings", "sim"]),
    ("output", &["domain"]),
    ("sim", &["domain"]),
    ("http", &["domain", "settings"]),
    (
        "run",
        &["domain", "cli", "settings", "http", "output", "sim"],
    ),
    (
        "testkit",
        &["domain", "cli", "settings", "http", "output", "sim", "run"],
    ),
    ("lib", &["run"]),
    ("main", &[]),
];

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The top-level module a file belongs to: `src/http/client.rs` -> `http`.
fn top_module(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap();
    let first = relative.components().next().unwrap().as_os_str();
    first.to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The code of a file without its test modules and comments.
fn non_test_code(text: &str) -> String {
    let code = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every top-level module named by a `crate::` path, including inside `use
/// crate::{a::x, b::y}` groups.
fn imported_modules(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Items at the group's own depth: `a::x, b::{c, d}` names a and b.
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        item_start = false;
                        let name: String = group[i..]
                            .chars()
                            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                            .collect();
                        found.insert(name);
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.insert(name);
        }
    }
    found
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let top = top_module(&src, &file);
        let code = non_test_code(&fs::read_to_string(&file).unwrap());
        let imports = graph.entry(top.clone()).or_default();
        imports.extend(imported_modules(&code).into_iter().filter(|m| *m != top));
    }
    graph
}

#[test]
fn every_import_follows_the_direction_table() {
    let mut wrong = Vec::new();
    for (module, imports) in graph() {
        let Some((_, allowed)) = ALLOWED.iter().find(|(name, _)| *name == module) else {
            wrong.push(format!("{module}: not in the direction table"));
            continue;
        };
        for import in imports.iter().filter(|i| !allowed.contains(&i.as_str())) {
            wrong.push(format!("{module} imports {import}"));
        }
    }
    assert!(wrong.is_empty(), "imports against the table: {wrong:#?}");
}

/// A cycle of `graph`, when there is one: a depth-first search, where a node met
/// again while still on the path closes it. `below(a, b)`: an edge from a to b that
/// is no dependency (a module declaring its own submodule).
fn find_cycle<N: Ord + Clone + std::fmt::Debug>(
    graph: &BTreeMap<N, BTreeSet<N>>,
    below: impl Fn(&N, &N) -> bool,
) -> Option<Vec<N>> {
    fn visit<N: Ord + Clone>(
        node: &N,
        graph: &BTreeMap<N, BTreeSet<N>>,
        below: &dyn Fn(&N, &N) -> bool,
        path: &mut Vec<N>,
        done: &mut BTreeSet<N>,
    ) -> Option<Vec<N>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            return Some(path[at..].to_vec());
        }
        if !done.insert(node.clone()) {
            return None;
        }
        path.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if below(node, next) {
                continue;
            }
            if let Some(cycle) = visit(next, graph, below, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &below, &mut Vec::new(), &mut done))
}

#[test]
fn top_level_modules_form_no_cycle() {
    let cycle = find_cycle(&graph(), |_, _| false);
    assert!(cycle.is_none(), "import cycle: {cycle:?}");
}

#[test]
fn the_checker_sees_grouped_and_inline_paths() {
    let code =
        "use crate::domain::x;\nuse crate::{http::a, output::b::{c, d}};\nlet v = crate::run::f();";
    let found: Vec<String> = imported_modules(code).into_iter().collect();
    assert_eq!(found, ["domain", "http", "output", "run"]);
    let without_tests =
        non_test_code("use crate::a;\n#[cfg(test)]\nmod tests {\n use crate::b;\n}");
    assert_eq!(imported_modules(&without_tests).len(), 1);
}

/// A file's module path: `src/http/client.rs` -> `http::client`, `src/sim/data/mod.rs`
/// -> `sim::data`, `src/lib.rs` -> the crate root (empty).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
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

/// The paths a use tree names from `at` on: `a::b::{c, d::e}` -> a::b::c, a::b::d::e.
fn use_tree(code: &[u8], at: &mut usize, prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        while code.get(*at).is_some_and(|c| c.is_ascii_whitespace()) {
            *at += 1;
        }
        if code.get(*at) == Some(&b'{') {
            *at += 1;
            loop {
                use_tree(code, at, path.clone(), found);
                while code
                    .get(*at)
                    .is_some_and(|c| c.is_ascii_whitespace() || *c == b',')
                {
                    *at += 1;
                }
                match code.get(*at) {
                    Some(b'}') => {
                        *at += 1;
                        return;
                    }
                    None => return,
                    _ => {}
                }
            }
        }
        let start = *at;
        while code
            .get(*at)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            *at += 1;
        }
        if *at == start {
            found.push(path);
            return;
        }
        path.push(String::from_utf8_lossy(&code[start..*at]).into_owned());
        if code[*at..].starts_with(b"::") {
            *at += 2;
        } else {
            found.push(path);
            return;
        }
    }
}

/// Every module path a file names through `crate::`, `super::` or `self::`,
/// resolved against the file's own module path.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for (i, _) in code.match_indices("::") {
        let word_start = code[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |p| p + 1);
        let word = &code[word_start..i];
        let base = match word {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            _ => continue,
        };
        if word_start > 0 && code[..word_start].ends_with("::") {
            continue;
        }
        let mut at = i + 2;
        use_tree(bytes, &mut at, base, &mut found);
    }
    found
}

/// Imports between files of `src/`: each file and the files it names.
fn file_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_path(&src, f), f.clone()))
        .collect();
    let owner = |path: &[String]| {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| modules.contains_key(m))
    };
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let code = non_test_code(&fs::read_to_string(file).unwrap());
        let targets: BTreeSet<Vec<String>> = named_paths(&code, module)
            .iter()
            .filter_map(|p| owner(p))
            .filter(|t| t != module && !t.is_empty())
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

#[test]
fn no_import_circle_between_files() {
    // A module's own submodules are below it: a mod.rs naming them is no circle.
    let circle = find_cycle(&file_graph(), |node, next| next.starts_with(node));
    let shown = circle.map(|c| c.iter().map(|n| n.join("/")).collect::<Vec<_>>());
    assert!(shown.is_none(), "import circle between files: {shown:?}");
}

#[test]
fn no_module_is_placed_by_a_path_attribute() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let placed: Vec<_> = files
        .iter()
        .filter(|f| fs::read_to_string(f).unwrap().contains("#[path"))
        .collect();
    assert!(placed.is_empty(), "#[path] modules: {placed:?}");
}

#[test]
fn the_file_checker_resolves_grouped_and_relative_paths() {
    let module = vec!["settings".to_string(), "config".to_string()];
    let paths = named_paths(
        "use crate::{a::b, c::{d, e::f}};\nuse super::proxy::x;",
        &module,
    );
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(shown, ["a::b", "c::d", "c::e::f", "settings::proxy::x"]);
}
