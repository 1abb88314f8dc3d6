//! Rule 1: the layers of `src/` (docs/architecture.md, Layers).

use super::lexer::{strip, without_test_items, Lang};

/// The crate's layers, lowest first: a module may import only from layers below its own (so
/// there can be no cycle either). Modules on one layer know nothing of each other. `fuzz` and
/// `testkit` are test support (the `testkit` feature); test code itself (`tests/` folders,
/// `tests.rs` files, `#[cfg(test)]` items) may import anything and is not part of the graph.
const LAYERS: &[&[&str]] = &[
    &["render", "options"],
    &["games"],
    &["search"],
    // Batched play (the Python package's VecEnv): many games of one kind stepped at once,
    // the search as an optional opponent.
    &["batch"],
    // The endgame databases implement the search's oracle for their game.
    &["engine", "egdb"],
    &["bench", "learn", "testkit"],
    &["registry"],
    &["session"],
    &["protocol"],
    &["fuzz"],
    // The browser GUI drives engine processes over the protocol and imports nothing of the
    // crate (`gui_imports_nothing_of_the_engine`); only the command line starts it.
    &["gui"],
    // The command line's subcommand files (`src/cli/`), part of the binary like main.rs.
    &["cli"],
    &["main"],
];

/// The identifiers a path continues with after `at` (`a` of `a::…`, or each `a` of `{a, b::c}`).
pub fn first_segments(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let text = text.trim_start();
    let Some(group) = text.strip_prefix('{') else {
        return vec![ident(text)];
    };
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && !c.is_whitespace() => {
                names.push(ident(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    names
}

/// (importing module, imported module) for every crate-internal path in the files under `src`
/// outside test code; the module is a file's first path component (`main` for `main.rs`).
pub fn import_edges(src: &std::path::Path) -> std::collections::BTreeSet<(String, String)> {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("readable src") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "tests") {
                    files(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(path);
            }
        }
    }
    let mut all = Vec::new();
    files(src, &mut all);
    let mut edges = std::collections::BTreeSet::new();
    for path in all {
        let rel = path.strip_prefix(src).expect("under src");
        // The file's module path: `games/pods/board.rs` is games::pods::board, `mod.rs` its dir.
        let mut module: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if module.last().is_some_and(|m| m == "mod" || m == "lib") {
            module.pop();
        }
        let Some(top) = module.first().cloned() else {
            continue; // lib.rs declares the modules; it imports nothing
        };
        let text = std::fs::read_to_string(&path).expect("readable file");
        let code = without_test_items(&strip(&text, Lang::Rust, false));
        let root = if top == "main" || top == "cli" {
            "tetrad::"
        } else {
            "crate::"
        };
        for (at, _) in code.match_indices(root) {
            if code[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
            {
                continue;
            }
            for name in first_segments(&code[at + root.len()..]) {
                edges.insert((top.clone(), name));
            }
        }
        for (at, _) in code.match_indices("super::") {
            if code[..at].ends_with("super::") {
                continue; // counted from the first `super::` of the chain
            }
            let mut ups = 0;
            let mut tail = &code[at..];
            while let Some(t) = tail.strip_prefix("super::") {
                ups += 1;
                tail = t;
            }
            if ups >= module.len() {
                for name in first_segments(tail) {
                    edges.insert((top.clone(), name));
                }
            }
        }
    }
    edges
}

/// Every import that breaks [`LAYERS`], and every module not given a layer.
pub fn layer_violations(src: &std::path::Path) -> Vec<String> {
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut modules: Vec<String> = std::fs::read_dir(src)
        .expect("readable src")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().expect("a name").to_string_lossy().to_string())
        .filter(|m| m != "lib")
        .collect();
    modules.sort();
    let mut bad: Vec<String> = modules
        .iter()
        .filter(|m| layer(m).is_none())
        .map(|m| format!("module {m} has no layer in LAYERS"))
        .collect();
    for (from, to) in import_edges(src) {
        if from == to || !modules.contains(&to) {
            continue; // inside one module, or an item of the crate root (a macro)
        }
        if let (Some(a), Some(b)) = (layer(&from), layer(&to)) {
            if b >= a {
                bad.push(format!("{from} imports {to}, a layer that is not below it"));
            }
        }
    }
    bad
}
