//! `eval` and `eval_file` are each game's own options: a value set while one game is selected is
//! kept for that game, and another game with options of those names shows and uses its own
//! (one game's weight file would be refused by the next, and a choice of evaluation made for one
//! game would silently change another's play).

use std::path::Path;

use crate::common::Engine;

/// A game's shipped weight file, given by path as a user would give any weight file.
fn shipped(dir: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/games")
        .join(dir)
        .join("learned.txt")
        .display()
        .to_string()
}

/// The current game's `eval` and `eval_file` values (GTP `list_options game`).
fn eval_values(e: &mut Engine) -> (String, String) {
    let list = e.gtp("list_options game");
    let value = |name: &str| {
        list.lines()
            .find_map(|l| l.strip_prefix("= ").unwrap_or(l).strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{name} in {list}"))
            .to_string()
    };
    (value("eval "), value("eval_file "))
}

fn select(e: &mut Engine, game: &str) {
    let answer = e.gtp(&format!("set_game {game}"));
    assert_eq!(answer, "=", "set_game {game}");
}

fn set(e: &mut Engine, name: &str, value: &str) {
    let answer = e.gtp(&format!("set_option {name} {value}"));
    assert_eq!(answer, "=", "set_option {name} {value}");
}

#[test]
fn gtp_each_game_keeps_its_own_evaluation_options() {
    let (poddavki, diamond) = (shipped("poddavki"), shipped("diamond"));
    let mut e = Engine::start(&["--protocol", "gtp"]);
    set(&mut e, "eval", "classic");
    set(&mut e, "eval_file", &poddavki);
    // Phutball's defaults, not Poddavki's settings (its default is the learned evaluation).
    select(&mut e, "phutball");
    assert_eq!(eval_values(&mut e), ("learned".into(), "builtin".into()));
    select(&mut e, "diamond");
    assert_eq!(eval_values(&mut e), ("learned".into(), "builtin".into()));
    set(&mut e, "eval", "classic");
    set(&mut e, "eval_file", &diamond);
    // Pods advanced's defaults (learned too), not Diamond's settings.
    select(&mut e, "pods-advanced");
    assert_eq!(eval_values(&mut e), ("learned".into(), "builtin".into()));
    // Each game has what was set for it when it comes back.
    select(&mut e, "poddavki");
    assert_eq!(eval_values(&mut e), ("classic".into(), poddavki.clone()));
    select(&mut e, "diamond");
    assert_eq!(eval_values(&mut e), ("classic".into(), diamond));
    // A game without a learned evaluation has no such option to set.
    select(&mut e, "pods-standard");
    let answer = e.gtp("set_option eval learned");
    assert!(
        answer.starts_with("? ") && answer.contains("pods-standard"),
        "{answer}"
    );
    select(&mut e, "poddavki");
    assert_eq!(eval_values(&mut e), ("classic".into(), poddavki));
}

/// The `eval` option line of a new handshake (`uci`), and any error line with it.
fn eval_lines(e: &mut Engine) -> Vec<String> {
    e.send("uci");
    e.until("uciok")
        .into_iter()
        .filter(|l| l.starts_with("option name eval ") || l.contains("error"))
        .collect()
}

#[test]
fn ugi_each_game_keeps_its_own_evaluation_options() {
    let mut e = Engine::start(&["--protocol", "ugi"]);
    let poddavki = shipped("poddavki");
    e.send("setoption name eval value classic");
    e.send(&format!("setoption name eval_file value {poddavki}"));
    e.send("setoption name UCI_Variant value phutball");
    assert_eq!(
        eval_lines(&mut e),
        ["option name eval type combo default learned var classic var learned"]
    );
    e.send("setoption name UCI_Variant value poddavki");
    assert_eq!(
        eval_lines(&mut e),
        ["option name eval type combo default classic var classic var learned"]
    );
    e.send("setoption name UCI_Variant value pods-standard");
    e.send("setoption name eval value learned");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines[0].starts_with("info string error: ") && lines[0].contains("pods-standard"),
        "{lines:?}"
    );
}
