//! Rules 2 to 4: file sizes and game names.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::lexer::{files_under, is_test_file, rel, strip, without_test_items, Lang};
use super::LIMIT;

/// Every source file under `root`'s `src/`, `tests/`, `scripts/`, `examples/` and `python/` over
/// [`LIMIT`] lines and not in `allowed`.
pub fn long_files(root: &Path, allowed: &[(&str, &str)]) -> Vec<String> {
    let mut long = Vec::new();
    for dir in ["src", "tests", "scripts", "examples", "python"] {
        for path in files_under(&root.join(dir)) {
            if Lang::of(&path).is_none() {
                continue;
            }
            let name = rel(root, &path);
            let lines = std::fs::read_to_string(&path)
                .expect("a text file")
                .lines()
                .count();
            if lines > LIMIT && !allowed.iter().any(|(a, _)| *a == name) {
                long.push(format!("{name}: {lines} lines"));
            }
        }
    }
    long
}

// ---------------------------------------------------------------------------------------------
// 3. and 4. Game names

/// The engine's games (`list_games` of the binary, without the test kit's toy row).
pub fn game_names() -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .env_remove("TETRAD_TOY_GAME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tetrad starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"list_games\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("tetrad ends");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let names: Vec<String> = text
        .trim_start_matches("= ")
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 2, "list_games: {text}");
    names
}

/// The words that name a game: each name and its family (`pods` of `pods-standard`).
pub fn game_words(names: &[String]) -> BTreeSet<String> {
    names
        .iter()
        .flat_map(|n| [n.clone(), n.split('-').next().unwrap_or(n).to_string()])
        .collect()
}

/// The words of `code`, lower case: runs of letters, digits and `-`, and each run's parts
/// split at `-`, `_` and a lower-to-upper case change (`PodsRules` gives `pods` and `rules`).
pub fn words(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for run in code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        let run = run.trim_matches('-');
        if run.is_empty() {
            continue;
        }
        out.insert(run.to_ascii_lowercase());
        for part in run.split(['-', '_']) {
            out.insert(part.to_ascii_lowercase());
            let mut word = String::new();
            let mut prev_lower = false;
            for c in part.chars() {
                if c.is_ascii_uppercase() && prev_lower {
                    out.insert(std::mem::take(&mut word).to_ascii_lowercase());
                }
                prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
                word.push(c);
            }
            out.insert(word.to_ascii_lowercase());
        }
    }
    out
}

/// Each file of `root`'s `src/` outside `src/games/` and `src/egdb/` whose code (comments and
/// test code aside, strings included) names a game of `names`, unless `allowed` (a file, or a
/// folder ending in `/`) lets it.
pub fn names_outside_games(root: &Path, names: &[String], allowed: &[&str]) -> Vec<String> {
    let src = root.join("src");
    let game_words = game_words(names);
    let mut bad = Vec::new();
    for path in files_under(&src) {
        let Some(lang) = Lang::of(&path) else {
            continue;
        };
        let name = rel(root, &path);
        let inside = path.strip_prefix(&src).expect("under src");
        if name.starts_with("src/games/")
            || name.starts_with("src/egdb/")
            || is_test_file(inside)
            || allowed
                .iter()
                .any(|a| name == *a || (a.ends_with('/') && name.starts_with(a)))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a text file");
        let mut code = strip(&text, lang, true);
        if lang == Lang::Rust {
            code = without_test_items(&code);
        }
        for (n, line) in code.lines().enumerate() {
            let named: Vec<String> = words(line).intersection(&game_words).cloned().collect();
            if !named.is_empty() {
                bad.push(format!("{name}:{}: names {}", n + 1, named.join(", ")));
            }
        }
    }
    bad
}

/// Each file of `root`'s `src/gui/` (its tests aside) that names a game anywhere, comments
/// included: a name of `names`, or a part of one longer than four letters (`advanced`).
pub fn names_in_gui(root: &Path, names: &[String]) -> Vec<String> {
    let mut needles: BTreeSet<String> = names.iter().cloned().collect();
    needles.extend(
        names
            .iter()
            .flat_map(|n| n.split('-'))
            .filter(|p| p.len() > 4)
            .map(str::to_string),
    );
    let mut bad = Vec::new();
    for path in files_under(&root.join("src/gui")) {
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .expect("a text file")
            .to_lowercase();
        for needle in &needles {
            if text.contains(needle.as_str()) {
                bad.push(format!("{} names '{needle}'", rel(root, &path)));
            }
        }
        if text.contains("crate::games") {
            bad.push(format!("{} uses the games", rel(root, &path)));
        }
    }
    bad
}
