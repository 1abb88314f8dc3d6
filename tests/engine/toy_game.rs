//! Adding a game is its folder and one registry row: the kit's toy game, a row of test builds
//! (`games/nim/`), passes the conformance kit, plays over GTP and UGI through the real protocol
//! loop (in-process) and runs its part of the bench, with no other edit anywhere.

use std::io::Cursor;
use std::sync::Arc;

use tetrad::bench;
use tetrad::games::GameKind;
use tetrad::protocol::{self, Dialect};
use tetrad::registry::Registry;
use tetrad::session::Session;
use tetrad::testkit::{self, Soak};

/// The registry with the toy row (which this run may list already, see
/// `the_toy_game_can_be_a_built_in_row`).
pub(crate) fn registry() -> Arc<Registry> {
    if Registry::builtin().kinds().contains(&GameKind::Toy) {
        return Registry::builtin();
    }
    Arc::new(Registry::builtin().with(GameKind::Toy))
}

/// The games the binary lists, with the toy-game variable set or not.
fn binary_games(toy: bool) -> Vec<String> {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tetrad"));
    if toy {
        cmd.env(tetrad::games::registry::TOY_GAME_VAR, "1");
    } else {
        cmd.env_remove(tetrad::games::registry::TOY_GAME_VAR);
    }
    let out = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(b"list_games\n")?;
            child.wait_with_output()
        })
        .expect("tetrad runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    text.trim_start_matches("= ")
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// A sixth game is one registry row: in a test build asked for it, the toy game is a listed
/// row of the binary the tests run, after the engine's own games, so every test that loops over
/// the games (they loop over the registry: `GameKind::all`, or the binary's `list_games`) plays
/// it with no edit. CI runs the whole suite once that way (.ci/run). Without the variable the
/// list is the engine's.
#[test]
fn the_toy_game_can_be_a_built_in_row() {
    let mut names: Vec<String> = GameKind::ROWS
        .iter()
        .filter(|&&k| k != GameKind::Toy)
        .map(|k| k.name().to_string())
        .collect();
    assert_eq!(binary_games(false), names);
    names.push("nim".to_string());
    assert_eq!(binary_games(true), names);
}

/// The protocol loop over `input` to its end, as the binary runs it on stdin/stdout.
fn run(dialect: Option<Dialect>, input: &str) -> String {
    let mut out = Vec::new();
    let session = Session::with_registry(registry());
    let code = protocol::run(session, dialect, Cursor::new(input.to_string()), &mut out);
    assert_eq!(code, 0);
    String::from_utf8(out).expect("utf-8 output")
}

/// GTP answers, `=`/`?` and the text, one per command.
fn answers(out: &str) -> Vec<String> {
    out.split("\n\n")
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_registered_toy_game_passes_the_conformance_kit() {
    let registry = registry();
    let kind = registry.find("nim").map_err(|e| e.to_string()).unwrap();
    let report = testkit::conformance_kind(kind, Soak::new(20, 3));
    assert_eq!(report.finished_games, 20);
    assert!(report.transpositions > 0, "{report:?}");
    assert!(report.decided_searches > 0, "{report:?}");
}

#[test]
fn gtp_lists_selects_and_plays_the_toy_game() {
    let out = run(
        None,
        "list_games\nset_game toy\nperft 3\nplay 3\nplay second 2\nset_option depth 3\n\
         genmove\nshowboard\nset_position 2 first\ngenmove\ngame_result\nlegal_moves\n\
         genmove\nset_game chess\n",
    );
    let a = answers(&out);
    let names = registry().names();
    assert_eq!(a[0], format!("= {}", names.join("\n")));
    assert_eq!(a[1..5], ["=", "= 27", "=", "="]);
    // 16 stones, first to move: a take of 1 to 3 is legal, the winning one (none: 16 is lost).
    let reply = a[6].strip_prefix("= ").expect("a move");
    assert!(["1", "2", "3"].contains(&reply), "{out}");
    let left = 16 - reply.parse::<u32>().unwrap();
    assert_eq!(a[7], format!("=\nstones {left}\nsecond to move"));
    assert_eq!(a[8..11], ["=", "= 2", "= first no-moves"]);
    assert_eq!(a[11], "=");
    assert_eq!(a[12], "? game is over");
    assert!(
        a[13].starts_with("? unknown game 'chess' (valid: poddavki,"),
        "{}",
        a[13]
    );
    assert!(a[13].ends_with(", nim)"), "{}", a[13]);
    assert_eq!(a.len(), 14, "{out}");
}

#[test]
fn ugi_offers_and_searches_the_toy_game() {
    let out = run(
        None,
        "ugi\nsetoption name UCI_Variant value nim\nposition startpos moves 1 3 2\n\
         go depth 3\nquery gameover\nposition fen 3 second\ngo depth 3\nquery p1turn\n\
         position fen 0 second\nquery result\n",
    );
    let variant = out
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .expect("the game option");
    assert!(variant.ends_with(" var nim"), "{variant}");
    let best: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    // 15 stones left, nothing decided within 3 plies: any take will do.
    assert_eq!(best.len(), 2, "{out}");
    assert!(["1", "2", "3"].contains(&best[0]), "{out}");
    // 3 stones: taking all wins at once.
    assert_eq!(best[1], "3", "{out}");
    let responses: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("response "))
        .collect();
    assert_eq!(responses, ["false", "false", "p1win"], "{out}");
    assert!(!out.contains("error"), "{out}");
}

#[test]
fn the_bench_runs_the_toy_game() {
    let registry = registry();
    let kind = registry.find("toy").map_err(|e| e.to_string()).unwrap();
    let mut out = Vec::new();
    let settings = bench::Settings {
        quick: true,
        threads: 1,
        depth: None,
        repeat: 1,
    };
    let totals = tetrad::registry::bench([kind], settings, &mut out).expect("bench");
    let text = String::from_utf8(out).unwrap();
    // From 21 stones: 3 moves, then 9, then 27 leaves.
    let perft = format!(
        "{:<14} perft {:<6} depth {:>2}  leaves {:>12}",
        "nim", "start", 3, 27
    );
    assert!(text.contains(&perft), "{text}");
    assert!(totals.search_nodes > 0 && totals.playouts == 500, "{text}");
}
