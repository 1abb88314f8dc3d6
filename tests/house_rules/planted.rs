//! Tests of the tests: each rule fails on a planted violation, and the lexer reads past
//! comments and strings where it must.

use std::path::{Path, PathBuf};

use super::checks::{long_files, names_in_gui, names_outside_games};
use super::layers::{import_edges, layer_violations};
use super::lexer::{strip, Lang};
use super::LIMIT;

/// A scratch repository under the target's temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("house-rules-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }
    fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The check finds what it must: a cycle, an upward import through `super::` and a grouped
/// `use`, and no false alarm from comments, strings or test code.
#[test]
fn the_layer_check_catches_upward_imports() {
    let s = Scratch::new("layers");
    s.write("lib.rs", "pub mod games;\npub mod search;\n");
    s.write(
        "games/mod.rs",
        "// use crate::search;\nconst S: &str = \"crate::search\";\n\
         #[cfg(test)]\nmod tests {\n    use crate::search::run;\n    fn f() { let _ = '{'; }\n}\n",
    );
    s.write(
        "search/mod.rs",
        "use crate::{render::Picture, games::Side};\n",
    );
    assert_eq!(layer_violations(&s.0), Vec::<String>::new());
    assert!(import_edges(&s.0).contains(&("search".to_string(), "games".to_string())));
    // games -> search closes a cycle with search -> games.
    s.write(
        "games/eval.rs",
        "pub fn f() { super::super::search::go(); }\n",
    );
    assert_eq!(
        layer_violations(&s.0),
        ["games imports search, a layer that is not below it"]
    );
    s.write("newmod.rs", "");
    assert!(layer_violations(&s.0).contains(&"module newmod has no layer in LAYERS".to_string()));
}

#[test]
fn the_size_check_catches_long_files_of_each_language() {
    let s = Scratch::new("sizes");
    let lines = |n: usize| "x\n".repeat(n);
    s.write("src/ok.rs", &lines(LIMIT));
    s.write("src/long.rs", &lines(LIMIT + 1));
    s.write("scripts/long.py", &lines(LIMIT + 1));
    s.write("src/gui/long.js", &lines(LIMIT + 1));
    s.write("docs/long.md", &lines(LIMIT + 1));
    assert_eq!(
        long_files(&s.0, &[]),
        [
            "src/gui/long.js: 601 lines",
            "src/long.rs: 601 lines",
            "scripts/long.py: 601 lines"
        ]
    );
    assert_eq!(
        long_files(
            &s.0,
            &[("src/long.rs", "a reason"), ("scripts/long.py", "a reason")]
        ),
        ["src/gui/long.js: 601 lines"]
    );
}

#[test]
fn the_name_check_catches_a_game_named_in_code_of_each_language() {
    let s = Scratch::new("names");
    let names = ["chess".to_string(), "go-small".to_string()];
    // Not code, or code where a game may be named: no finding.
    s.write("src/games/chess/mod.rs", "pub struct Chess;\n");
    s.write("src/egdb/probe.rs", "use crate::games::chess::Chess;\n");
    s.write(
        "src/session/mod.rs",
        "// chess\n/* go-small */\nfn f() {}\n#[cfg(test)]\nmod tests { const C: &str = \"chess\"; }\n",
    );
    s.write("src/session/tests/play.rs", "const C: &str = \"chess\";\n");
    s.write("src/gui/page.py", "# Chess\nx = 1\n");
    assert_eq!(names_outside_games(&s.0, &names, &[]), Vec::<String>::new());
    // A path, a string (the family of `go-small`) and a type of each language.
    s.write(
        "src/session/mod.rs",
        "fn f() {}\nuse crate::games::chess::ChessRules;\n",
    );
    s.write("src/protocol/x.py", "x = 'go'  # a string names it\n");
    s.write("src/gui/x.js", "const g = `go-small`;\n");
    s.write("src/render/x.rs", "struct ChessHand;\n");
    assert_eq!(
        names_outside_games(&s.0, &names, &[]),
        [
            "src/gui/x.js:1: names go, go-small",
            "src/protocol/x.py:1: names go",
            "src/render/x.rs:1: names chess",
            "src/session/mod.rs:2: names chess"
        ]
    );
    assert_eq!(
        names_outside_games(
            &s.0,
            &names,
            &["src/render/", "src/gui/x.js", "src/protocol/x.py"]
        ),
        ["src/session/mod.rs:2: names chess"]
    );
}

#[test]
fn the_gui_check_catches_a_game_named_even_in_a_comment() {
    let s = Scratch::new("gui");
    let names = ["chess".to_string(), "go-advanced".to_string()];
    s.write("src/gui/tests.rs", "const G: &str = \"chess\";\n");
    s.write("src/gui/page.html", "<p>games</p>\n");
    assert_eq!(names_in_gui(&s.0, &names), Vec::<String>::new());
    s.write("src/gui/page.js", "// the Advanced rules\n");
    s.write("src/gui/tab.rs", "use crate::games::Side;\n");
    assert_eq!(
        names_in_gui(&s.0, &names),
        [
            "src/gui/page.js names 'advanced'",
            "src/gui/tab.rs uses the games"
        ]
    );
}

/// The lexer blanks comments (and, asked, literals) of each language and keeps line numbers.
#[test]
fn the_lexer_tells_code_from_comments_and_strings() {
    let rust = "let a = \"//x\"; // c\nlet b = r#\"\"{\"#; /* c\n c */ let c = '{';\n";
    assert_eq!(
        strip(rust, Lang::Rust, false),
        "let a = \"\"; \nlet b = \"\"; \n let c = ' ';\n"
    );
    assert_eq!(strip(rust, Lang::Rust, true).lines().count(), 3);
    let py = "a = '#x'  # c\nb = \"\"\"doc\n# not a comment\"\"\"\n";
    assert_eq!(strip(py, Lang::Python, false), "a = \"\"  \nb = \"\"\n\n");
    assert_eq!(
        strip(py, Lang::Python, true),
        "a = '#x'  \nb = \"\"\"doc\n# not a comment\"\"\"\n"
    );
    let js = "const a = `x\n// y`; // c\nconst b = '/*';\n";
    assert_eq!(
        strip(js, Lang::Js, false),
        "const a = \"\"\n; \nconst b = \"\";\n"
    );
}
