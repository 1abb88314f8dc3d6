//! The server's request handling against real engine processes, and the browser suite.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use super::api::handle;
use super::{is_loopback, Config, Tabs};

/// This build's `tetrad` binary (cargo builds it for the integration tests, next to `deps/`).
pub(super) fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("TETRAD_BIN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/");
    let bin = dir.join(format!("tetrad{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} not built: run the tests with `cargo test` (which builds it) or set TETRAD_BIN",
        bin.display()
    );
    bin
}

/// A GTP engine written in Python in front of this build's: each line read runs `before`
/// (which may answer it itself and `continue`), is relayed, and its answer runs `after` before
/// it is sent on. Both are Python statements at the loop's indentation, lines joined by `\n`.
pub(super) fn relay_engine(dir: &Path, name: &str, before: &str, after: &str) -> Vec<String> {
    let indent = |code: &str| {
        code.lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    };
    let text = format!(
        "import os, subprocess, sys, time\n\
         e = subprocess.Popen([{bin:?}, '--protocol', 'gtp'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n\
         for line in sys.stdin:\n\
         {before}\
         \x20   e.stdin.write(line); e.stdin.flush()\n\
         \x20   answer = ''\n\
         \x20   while True:\n\
         \x20       l = e.stdout.readline()\n\
         \x20       if not l: sys.exit(0)\n\
         \x20       answer += l\n\
         \x20       if l.strip() == '' and answer.strip(): break\n\
         {after}\
         \x20   sys.stdout.write(answer); sys.stdout.flush()\n",
        bin = binary().to_string_lossy(),
        before = indent(before),
        after = indent(after),
    );
    let script = dir.join(format!("{name}.py"));
    std::fs::write(&script, text).expect("script written");
    vec!["python3".into(), script.to_string_lossy().into_owned()]
}

pub(super) fn tabs(max_tabs: usize) -> Tabs {
    let config = Config {
        engine: vec![binary().to_string_lossy().into_owned()],
        max_tabs,
        idle: Duration::from_secs(3600),
        ..Config::default()
    };
    Tabs::new(config).expect("tabs")
}

fn post(tabs: &Tabs, action: &str, body: Value) -> (u16, Value) {
    let reply = handle(
        tabs,
        "POST",
        &format!("/api/{action}"),
        body.to_string().as_bytes(),
    );
    let value = serde_json::from_slice(&reply.body).expect("every API reply is JSON");
    (reply.status, value)
}

/// A new tab's id.
fn open(tabs: &Tabs) -> String {
    let (status, state) = post(tabs, "open", json!({}));
    assert_eq!(status, 200, "{state}");
    state["tab"].as_str().expect("a tab id").to_string()
}

#[test]
fn loopback_addresses() {
    assert!(is_loopback("127.0.0.1") && is_loopback("::1") && is_loopback("localhost"));
    assert!(!is_loopback("0.0.0.0") && !is_loopback("192.168.1.2"));
}

#[test]
fn every_game_opens_plays_and_takes_back() {
    let tabs = tabs(2);
    let (status, state) = post(&tabs, "open", json!({}));
    assert_eq!(status, 200, "{state}");
    let id = state["tab"].as_str().expect("a tab id").to_string();
    let games: Vec<String> = state["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g.as_str().map(String::from))
        .collect();
    assert_eq!(games.len(), crate::games::GameKind::all().len());
    for game in &games {
        let (status, state) = post(&tabs, "new", json!({"tab": id, "game": game}));
        assert_eq!(status, 200, "{state}");
        let first = state["legal"][0]["move"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let (status, state) = post(&tabs, "play", json!({"tab": id, "move": first}));
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["moves"], json!([first]));
        let (status, state) = post(&tabs, "engine", json!({"tab": id, "movetime": 20}));
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["moves"].as_array().map(Vec::len), Some(2));
        // The score of the engine's own search comes with its move, for the evaluation bar.
        let kind = state["search"]["score"]["kind"].as_str();
        assert!(matches!(kind, Some("cp" | "mate")), "{state}");
        assert!(state["search"]["score"]["value"].is_i64(), "{state}");
        // A movetime search may end before its first iteration (a debug build, a loaded
        // machine): depth 0 is still a depth.
        assert!(state["search"]["depth"].is_u64(), "{state}");
        let (status, state) = post(&tabs, "undo", json!({"tab": id}));
        assert_eq!(status, 200, "{state}");
        assert_eq!(state["moves"], json!([first]));
        let (status, v) = post(
            &tabs,
            "analyse",
            json!({"tab": id, "depth": 2, "multipv": 2}),
        );
        assert_eq!(status, 200, "{v}");
        assert!(
            !v["lines"].as_array().expect("lines").is_empty(),
            "{game}: {v}"
        );
        // The record, in the format the engine names.
        let (status, r) = post(
            &tabs,
            "record",
            json!({"tab": id, "players": ["a", "b \"c\""], "date": "2026.12.02"}),
        );
        assert_eq!(status, 200, "{r}");
        let text = r["text"].as_str().expect("the record");
        assert!(text.contains(&format!("[Variant \"{game}\"]")), "{text}");
        assert!(text.contains("[Date \"2026.12.02\"]") && text.contains("b \\\"c\\\""));
        assert!(r["extension"] == "pgn" || r["extension"] == "pdn", "{r}");
        // The options the engine says are this game's own.
        let own: Vec<&Value> = state["options"]
            .as_array()
            .expect("options")
            .iter()
            .filter(|o| {
                o["games"]
                    .as_array()
                    .is_some_and(|g| g.contains(&json!(game)))
            })
            .collect();
        assert!(own.iter().all(|o| o["name"] != "hash"), "{game}");
    }
}

/// The options of a new game are that game's: `eval` is each game's own, so one set before the
/// game is selected would be the previous game's and the new one would search with its default.
#[test]
fn a_new_games_options_are_set_in_that_game() {
    let tabs = tabs(1);
    let id = open(&tabs);
    let score = |eval: &str| {
        // From another game each time, as a user switching games would.
        let (status, s) = post(&tabs, "new", json!({"tab": id, "game": "poddavki"}));
        assert_eq!(status, 200, "{s}");
        let options = json!({"eval": eval});
        let (status, s) = post(
            &tabs,
            "new",
            json!({"tab": id, "game": "diamond", "options": options}),
        );
        assert_eq!(status, 200, "{s}");
        let (status, v) = post(&tabs, "analyse", json!({"tab": id, "depth": 2}));
        assert_eq!(status, 200, "{v}");
        v["lines"][0]["score"].clone()
    };
    let (learned, classic) = (score("learned"), score("classic"));
    assert!(
        classic["kind"] == "cp" && learned["kind"] == "cp",
        "{classic} {learned}"
    );
    assert_ne!(classic, learned);
}

/// The streaming analysis deepens while it runs, and whatever the tab asks the engine next
/// ends it first; stopping it leaves the engine answering.
#[test]
fn the_streaming_analysis_deepens_until_stopped() {
    let tabs = tabs(1);
    let (_, state) = post(&tabs, "open", json!({}));
    let id = state["tab"].as_str().expect("a tab id").to_string();
    let depth = |v: &Value| {
        v["lines"]
            .as_array()
            .and_then(|l| l.first())
            .and_then(|l| l["depth"].as_u64())
            .unwrap_or(0)
    };
    let deepest = |until: u64| {
        let start = std::time::Instant::now();
        loop {
            let (status, v) = post(&tabs, "stream", json!({"tab": id}));
            assert_eq!(status, 200, "{v}");
            assert_eq!(v["running"], true, "{v}");
            if depth(&v) >= until {
                return v;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "stuck at {v}");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let (status, v) = post(&tabs, "stream_start", json!({"tab": id, "multipv": 2}));
    assert_eq!(status, 200, "{v}");
    let v = deepest(2);
    assert_eq!(v["lines"].as_array().map(Vec::len), Some(2), "{v}");
    assert_eq!(v["lines"][1]["multipv"], 2);
    deepest(depth(&v) + 1);
    // A move ends the analysis: the engine answers the move, and the stream is over.
    let mv = state["legal"][0]["move"].clone();
    let (status, state) = post(&tabs, "play", json!({"tab": id, "move": mv}));
    assert_eq!(status, 200, "{state}");
    let (_, v) = post(&tabs, "stream", json!({"tab": id}));
    assert_eq!(v["running"], false, "{v}");
    // Started again and stopped: the engine goes on answering.
    post(&tabs, "stream_start", json!({"tab": id}));
    deepest(1);
    let (status, _) = post(&tabs, "stream_stop", json!({"tab": id}));
    assert_eq!(status, 200);
    let (status, state) = post(&tabs, "engine", json!({"tab": id, "movetime": 20}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(2));
    // On a clock: the engine is told its time and moves.
    let clock = json!({"left": 5000, "base": 60000});
    let (status, state) = post(&tabs, "engine", json!({"tab": id, "clock": clock}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(3));
    assert!(state["search"]["score"]["value"].is_i64(), "{state}");
    // Closing the tab ends its engine, analysing or not.
    post(&tabs, "stream_start", json!({"tab": id}));
    let (status, _) = post(&tabs, "close", json!({"tab": id}));
    assert_eq!(status, 200);
    assert_eq!(tabs.count(), 0);
}

#[test]
fn refusals_change_nothing() {
    let tabs = tabs(1);
    let (_, state) = post(&tabs, "open", json!({}));
    let id = state["tab"].as_str().expect("a tab id").to_string();
    let position = state["position"].clone();
    let refused = [
        ("play", json!({"tab": id, "move": "zz99"}), 422),
        ("play", json!({"tab": id, "move": "a1\nquit"}), 422),
        ("play", json!({"tab": id}), 400),
        ("play", json!({"tab": id, "move": 3}), 400),
        ("play", json!({"tab": "nope", "move": "x"}), 404),
        ("new", json!({"tab": id, "game": "chess"}), 422),
        (
            "new",
            json!({"tab": id, "game": state["game"], "options": {"hash": "0"}}),
            422,
        ),
        (
            "new",
            json!({"tab": id, "game": state["game"], "options": {"nope": "1"}}),
            422,
        ),
        ("position", json!({"tab": id, "position": "x\nquit"}), 422),
        (
            "position",
            json!({"tab": id, "position": "not a position"}),
            422,
        ),
        ("engine", json!({"tab": id, "movetime": 0}), 422),
        ("engine", json!({"tab": id, "movetime": -5}), 400),
        ("undo", json!({"tab": id}), 422),
        ("analyse", json!({"tab": id, "multipv": 99}), 422),
        ("view", json!({"tab": id, "ply": 7}), 422),
        ("stream_start", json!({"tab": id, "multipv": 9}), 422),
        ("record", json!({"tab": id, "players": ["a"]}), 400),
        (
            "record",
            json!({"tab": id, "players": ["a", "b\nquit"]}),
            422,
        ),
        ("record", json!({"tab": id, "players": ["a", ""]}), 422),
        ("engine", json!({"tab": id, "clock": 5}), 400),
        (
            "engine",
            json!({"tab": id, "clock": {"left": 0, "base": 1}}),
            422,
        ),
        ("frobnicate", json!({"tab": id}), 404),
        ("open", json!({}), 503),
    ];
    for (action, body, want) in refused {
        let (status, v) = post(&tabs, action, body.clone());
        assert_eq!(status, want, "{action} {body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (status, state) = post(&tabs, "state", json!({"tab": id}));
    assert_eq!(status, 200);
    assert_eq!(state["position"], position);
    assert_eq!(state["moves"], json!([]));
    for (method, url, body, want) in [
        ("GET", "/api/state", "", 405),
        ("POST", "/api/state", "{", 400),
        ("POST", "/api/state", "[]", 400),
        ("PUT", "/", "", 405),
        ("GET", "/etc/passwd", "", 404),
        ("GET", "/../Cargo.toml", "", 404),
    ] {
        assert_eq!(
            handle(&tabs, method, url, body.as_bytes()).status,
            want,
            "{method} {url}"
        );
    }
}

/// Seeded random requests (actions, fields, values, raw bodies): each gets an answer, none
/// panics, and the tab's engine still plays afterwards.
#[test]
fn fuzzed_requests_are_answered() {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};
    let tabs = tabs(2);
    let (_, state) = post(&tabs, "open", json!({}));
    let id = state["tab"].as_str().expect("a tab id").to_string();
    let actions = [
        "state",
        "new",
        "play",
        "engine",
        "undo",
        "position",
        "analyse",
        "view",
        "close",
        "",
        "open/x",
        "../state",
        "stream_start",
        "stream",
        "stream_stop",
        "record",
    ];
    let fields = [
        "move", "game", "position", "ply", "depth", "tab", "options", "movetime", "players",
        "clock", "multipv", "date",
    ];
    let nasty = [
        "",
        " ",
        "\n",
        "quit",
        "play a1\nquit",
        "%00",
        "\u{0}",
        "😀",
        "-1",
        "1e9",
        "{}",
        "[]",
        "null",
        "true",
        "99999999999999999999",
        "set_option hash 4096",
    ];
    let mut rng = SmallRng::seed_from_u64(25);
    for _ in 0..400 {
        let action = actions[rng.gen_range(0..actions.len())];
        let url = format!("/api/{action}");
        if rng.gen_bool(0.3) {
            let raw: Vec<u8> = (0..rng.gen_range(0..80)).map(|_| rng.gen()).collect();
            let reply = handle(&tabs, "POST", &url, &raw);
            assert!(
                (400..500).contains(&reply.status) || reply.status == 200,
                "{url}"
            );
            continue;
        }
        let mut body = json!({"tab": if action == "close" { "other" } else { id.as_str() }});
        for _ in 0..rng.gen_range(0..3) {
            let field = fields[rng.gen_range(0..fields.len())];
            let value = if rng.gen_bool(0.5) {
                json!(nasty[rng.gen_range(0..nasty.len())])
            } else {
                let len = rng.gen_range(0..12);
                json!((0..len)
                    .map(|_| char::from(rng.gen_range(0u8..128)))
                    .collect::<String>())
            };
            if field != "tab" {
                body[field] = value;
            }
        }
        let reply = handle(&tabs, "POST", &url, body.to_string().as_bytes());
        assert!(
            (200..500).contains(&reply.status),
            "{url} {body}: {}",
            reply.status
        );
    }
    let (status, state) = post(&tabs, "state", json!({"tab": id}));
    assert_eq!(status, 200, "{state}");
    if let Some(mv) = state["legal"][0]["move"].as_str() {
        let (status, state) = post(&tabs, "play", json!({"tab": id, "move": mv}));
        assert_eq!(status, 200, "{state}");
    }
}
/// A review steps the engine back along the game and forth again: each ply's analysis is of that
/// ply's position, and the game goes on at its end afterwards; a record loads with every ply.
#[test]
fn a_review_analyses_each_ply_and_a_record_loads() {
    let tabs = tabs(2);
    let tab = open(&tabs);
    let (_, state) = post(&tabs, "new", json!({"tab": tab, "game": "poddavki"}));
    assert_eq!(state["game"], "poddavki");
    for mv in ["c3-d4", "f6-e5"] {
        let (status, body) = post(&tabs, "play", json!({"tab": tab, "move": mv}));
        assert_eq!(status, 200, "{body}");
    }
    for ply in [2, 0, 1] {
        let (status, a) = post(
            &tabs,
            "analyse",
            json!({"tab": tab, "ply": ply, "depth": 2, "movetime": 60000}),
        );
        assert_eq!(status, 200, "{a}");
        assert_eq!(a["ply"], ply);
        let best = a["lines"][0]["move"]
            .as_str()
            .expect("a best move")
            .to_string();
        // The best move is one of that position's moves, with how it is entered.
        assert_eq!(a["legal"][0]["move"], best.as_str(), "{a}");
        let side = if ply % 2 == 0 { "white" } else { "black" };
        assert_eq!(a["to_move"], side);
    }
    let (status, _) = post(&tabs, "analyse", json!({"tab": tab, "ply": 3}));
    assert_eq!(status, 422);
    // Back at the end: the game goes on from the last move.
    let (status, body) = post(&tabs, "play", json!({"tab": tab, "move": "d4:f6"}));
    assert_eq!(status, 200, "{body}");
    let (_, record) = post(
        &tabs,
        "record",
        json!({"tab": tab, "players": ["a", "b"],
        "annotations": [{"mark": "?!", "comment": "+0.10/2 0.001s"}, null, {"mark": null}]}),
    );
    let text = record["text"].as_str().expect("a record");
    assert!(
        text.contains("1. c3-d4?! {+0.10/2 0.001s} f6-e5 2. d4xf6 *"),
        "{text}"
    );
    // Loaded back from another game: the same moves, each ply to look at.
    post(&tabs, "new", json!({"tab": tab, "game": "diamond"}));
    let (status, state) = post(&tabs, "load_record", json!({"tab": tab, "record": text}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["game"], "poddavki");
    assert_eq!(state["moves"], json!(["c3-d4", "f6-e5", "d4:f6"]));
    let (status, _) = post(&tabs, "view", json!({"tab": tab, "ply": 3}));
    assert_eq!(status, 200);
    // A record that is not one changes nothing.
    let (status, _) = post(
        &tabs,
        "load_record",
        json!({"tab": tab, "record": "1. zz *"}),
    );
    assert_eq!(status, 422);
    let (_, after) = post(&tabs, "state", json!({"tab": tab}));
    assert_eq!(after["moves"], state["moves"]);
}

/// Any GTP engine can be the tab's: one without `last_search` still plays, with no score.
#[test]
fn an_engine_without_last_search_moves_with_no_score() {
    let dir = std::env::temp_dir().join(format!("tetrad-gui-nolast-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let engine = relay_engine(
        &dir,
        "nolast",
        "if line.split()[:1] == ['last_search']:\n\
         \x20   sys.stdout.write('? unknown command\\n\\n'); sys.stdout.flush(); continue",
        "",
    );
    let config = Config {
        engine,
        max_tabs: 1,
        idle: Duration::from_secs(3600),
        ..Config::default()
    };
    let tabs = Tabs::new(config).expect("tabs");
    let id = open(&tabs);
    let (status, state) = post(&tabs, "engine", json!({"tab": id, "movetime": 20}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(1), "{state}");
    assert!(state["search"].is_null(), "{state}");
    tabs.close(&id);
    let _ = std::fs::remove_dir_all(dir);
}
