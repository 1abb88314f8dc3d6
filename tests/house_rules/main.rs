//! The house rules, checked on the repository's source (Rust, Python, JavaScript), in the way
//! of rust-analyzer's `tidy.rs`: docs/architecture.md states them, this file holds them.
//!
//! 1. Layers: a module of `src/` imports only from layers below its own ([`LAYERS`]); the GUI
//!    imports nothing of the engine. (Rust only: the Python and JavaScript have no layers.)
//! 2. File sizes: no source file (`.rs`, `.py`, `.js` under `src/`, `tests/`, `scripts/`,
//!    `examples/`, `python/`) over [`LIMIT`] lines, but the few in [`LONG_FILES`], each with
//!    its reason.
//! 3. No game name outside the game folders: no code in `src/` outside `src/games/` and
//!    `src/egdb/` names a game (a name `list_games` gives, or its family, `pods` of
//!    `pods-standard`), comments and test code aside; the exceptions are [`NAMES_ALLOWED`],
//!    each with its reason.
//! 4. No game name in the GUI (`src/gui/`), comments included (its tests aside).
//!
//! Each rule is shown to fail on a planted violation (`*_catches_*`): a test of the test.
//! The game names come from the binary's `list_games` (without the test kit's toy row): the
//! registry, not a list kept here.

mod checks;
mod layers;
mod lexer;
mod planted;

use std::path::PathBuf;

use checks::{game_names, long_files, names_in_gui, names_outside_games};
use layers::{import_edges, layer_violations};
use lexer::files_under;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The most lines a source file has (docs/architecture.md): a longer one is split by subject,
/// and test data too long for code is a text file beside its tests.
const LIMIT: usize = 600;

/// Files allowed over [`LIMIT`], each with why; remove a row when its file is split.
const LONG_FILES: &[(&str, &str)] = &[
    (
        "src/gui/page.js",
        "TODO: the GUI page is being split into ES modules (issue 41), each under the limit",
    ),
    (
        "tests/cli/ugi.rs",
        "TODO: the UGI tests through the binary, to split by subject (options, search, perft)",
    ),
];

/// Files outside the game folders allowed to name a game, each with why.
const NAMES_ALLOWED: &[(&str, &str)] = &[
    (
        "src/main.rs",
        "the command line's help says which games the engine plays, and `--pods-data` is the \
         flag scripts pass the Pods data file with",
    ),
    (
        "src/fuzz.rs",
        "test support: the `pods_data` fuzz target feeds the Pods data file's parser",
    ),
    (
        "src/render/",
        "the picture format's `pods` field (the pieces a Pods hand holds): a format word the GUI \
         and the documents read, not the game",
    ),
];

// ---------------------------------------------------------------------------------------------
// The rules on the repository

/// The layering docs/architecture.md describes, checked on the source: the import graph of the
/// crate's top-level modules follows [`LAYERS`], so it has no cycle.
#[test]
fn modules_import_only_from_layers_below() {
    let src = root().join("src");
    let bad = layer_violations(&src);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let edges = import_edges(&src);
    // The reader sees what it checks: the graph is not empty, and known imports are in it.
    for known in [
        ("engine", "games"),
        ("session", "registry"),
        ("main", "protocol"),
    ] {
        assert!(
            edges.contains(&(known.0.to_string(), known.1.to_string())),
            "{known:?} in {edges:?}"
        );
    }
}

/// The GUI is a protocol client like any outside GUI: it imports no module of the engine.
#[test]
fn gui_imports_nothing_of_the_engine() {
    let edges = import_edges(&root().join("src"));
    let from_gui: Vec<_> = edges.iter().filter(|(from, _)| from == "gui").collect();
    assert!(from_gui.is_empty(), "{from_gui:?}");
    assert!(
        edges.contains(&("main".to_string(), "gui".to_string())),
        "{edges:?}"
    );
}

#[test]
fn no_source_file_is_over_the_limit() {
    let long = long_files(&root(), LONG_FILES);
    assert!(long.is_empty(), "split by subject: {long:?}");
    // An allowance outlives its reason once the file is short: drop it then.
    for (file, why) in LONG_FILES {
        let lines = std::fs::read_to_string(root().join(file)).map_or(0, |t| t.lines().count());
        assert!(
            lines > LIMIT,
            "{file} is {lines} lines now; drop its allowance ({why})"
        );
    }
}

#[test]
fn no_code_outside_the_game_folders_names_a_game() {
    let names = game_names();
    eprintln!("house rules: the games are {}", names.join(" "));
    let allowed: Vec<&str> = NAMES_ALLOWED.iter().map(|(f, _)| *f).collect();
    let bad = names_outside_games(&root(), &names, &allowed);
    assert!(
        bad.is_empty(),
        "ask the registry or a game hook:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_gui_names_no_game() {
    let names = game_names();
    let bad = names_in_gui(&root(), &names);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(files_under(&root().join("src/gui")).len() >= 5);
}
