//! Board pictures and board geometry through the binary: `showboard svg` is well-formed XML with
//! one piece element per piece on the board, `board_layout` is JSON whose points are the names
//! the notation uses, and `tetrad render` / `tetrad layout` print the same documents.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use common::Engine;
use serde_json::Value;

/// Moves leading from a game's start to a mid-game position, for the games that have them
/// here; any other game in the registry plays its first listed move a few times instead.
const MID_GAME: [(&str, &str); 5] = [
    (
        "poddavki",
        "a3-b4 b6-c5 c3-d4 c5:a3 b2-c3 a3-b2 c1:a3 d6-e5 a1-b2 f6-g5 d4:f6:h4 c7-b6 a3-b4 h6-g5",
    ),
    ("phutball", "h11 h12 g9 g11 i14 h8 h10-h13-j15"),
    (
        "diamond",
        "a1 b2 b1 b3 a2 c1 b4 d1 b5 e1 d2 f1 d3 g1 f2 c2 e3 e2 c5 g2 d4 h2 a3 e4 c5-d5* c2-c3",
    ),
    (
        "pods-standard",
        "A@a1 C@a2 N@d3 A@b2 B@c1 N@a5 C@d1 I@f6 E@e2",
    ),
    (
        "pods-advanced",
        "A@a1 A@a2 B@b1 B@d1 A@a1 N@a5 A@b2 A@e1 C@c2 C@f1",
    ),
];

/// Pieces on the board, counted from the position string (independently of the picture code).
fn pieces_in_position(game: &str, pos: &str) -> usize {
    let board = pos.split(' ').next().unwrap_or_default();
    match game {
        // W:Wa1,Kc3:Bb6 — one square per piece.
        "poddavki" => pos
            .split(':')
            .skip(1)
            .map(|list| list[1..].split(',').filter(|s| !s.is_empty()).count())
            .sum(),
        "phutball" => board.chars().filter(|&c| c == 'X' || c == 'O').count(),
        _ => board.chars().filter(|c| c.is_ascii_alphabetic()).count(),
    }
}

/// The `class="piece ..."` elements of an SVG document, after checking it parses.
fn piece_elements(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    for n in doc.descendants() {
        assert!(
            !matches!(n.tag_name().name(), "script" | "image" | "foreignObject"),
            "not self-contained: {}",
            n.tag_name().name()
        );
        for a in n.attributes() {
            assert!(!a.value().contains("http") || a.name() == "xmlns", "{a:?}");
        }
    }
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').any(|w| w == "piece"))
        })
        .map(|n| n.attribute("data-point").unwrap_or_default().to_string())
        .collect()
}

/// Every `<file letter><digits>` token of a move, the way a GUI finds the points to click.
fn move_points(mv: &str) -> Vec<String> {
    let b = mv.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
        {
            let j = (i + 1..b.len())
                .find(|&j| !b[j].is_ascii_digit())
                .unwrap_or(b.len());
            out.push(mv[i..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn layout(e: &mut Engine) -> Value {
    let text = e.gtp("board_layout");
    let body = text.strip_prefix("=\n").unwrap_or_else(|| panic!("{text}"));
    serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}\n{body}"))
}

fn point_names(layout: &Value) -> BTreeSet<String> {
    layout["points"]
        .as_array()
        .expect("points")
        .iter()
        .map(|p| p["name"].as_str().expect("name").to_string())
        .collect()
}

fn check_position(e: &mut Engine, game: &str) {
    let pos = e.gtp("get_position");
    let pos = pos.strip_prefix("= ").expect("position");
    let svg = e.gtp("showboard svg");
    let svg = svg
        .strip_prefix("=\n")
        .expect("svg answer on its own lines");
    let pieces = piece_elements(svg);
    assert_eq!(pieces.len(), pieces_in_position(game, pos), "{game} {pos}");
    let lay = layout(e);
    let names = point_names(&lay);
    assert_eq!(lay["position"].as_str(), Some(pos));
    let listed: Vec<&str> = lay["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| p["point"].as_str().expect("point"))
        .collect();
    assert_eq!(listed.len(), pieces.len(), "{game} {pos}");
    for p in &pieces {
        assert!(names.contains(p), "{game}: piece on unknown point {p}");
        assert!(
            listed.contains(&p.as_str()),
            "{game}: {p} not in the layout's pieces"
        );
    }
    let to_move = e.gtp("side_to_move");
    assert_eq!(
        lay["to_move"].as_str(),
        to_move.strip_prefix("= "),
        "{game}"
    );
}

/// Every game of the registry with its mid-game moves (see [`MID_GAME`]).
fn games() -> Vec<(String, String)> {
    common::game_names()
        .into_iter()
        .map(|game| {
            let moves = match MID_GAME.iter().find(|(g, _)| *g == game) {
                Some((_, moves)) => moves.to_string(),
                None => first_moves(&game, 4),
            };
            (game, moves)
        })
        .collect()
}

/// The first listed legal move, `n` times from the start.
fn first_moves(game: &str, n: usize) -> String {
    let mut e = Engine::start(&["--game", game]);
    let mut played = Vec::new();
    for _ in 0..n {
        let list = e.gtp("legal_moves");
        let Some(mv) = list.trim_start_matches('=').split_whitespace().next() else {
            break;
        };
        assert_eq!(e.gtp(&format!("play {mv}")), "=", "{game} {mv}");
        played.push(mv.to_string());
    }
    assert!(!played.is_empty(), "{game}: no move from the start");
    played.join(" ")
}

#[test]
fn svg_and_layout_of_start_and_mid_game_positions() {
    let mut e = Engine::start(&[]);
    for (game, moves) in games() {
        let (game, moves) = (game.as_str(), moves.as_str());
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        check_position(&mut e, game);
        for mv in moves.split(' ') {
            assert_eq!(e.gtp(&format!("play {mv}")), "=", "{game} {mv}");
        }
        check_position(&mut e, game);
        // The last move is marked, on its points.
        let lay = layout(&mut e);
        let last = moves.split(' ').next_back().expect("a move");
        assert_eq!(lay["last_move"]["move"].as_str(), Some(last), "{game}");
        let marked: Vec<&str> = lay["last_move"]["points"]
            .as_array()
            .expect("points")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(marked, move_points(last), "{game}");
        let svg = e.gtp("showboard svg");
        // A move that names no point (the toy game's `2`) has nothing to mark.
        assert_eq!(
            svg.contains(r#"class="last-move""#),
            !marked.is_empty(),
            "{game}"
        );
        assert!(svg.contains(&format!("last move: {last}")), "{game}");
    }
}

/// Every point of every legal move along random games is a layout point, and the layout has
/// exactly as many points as the board.
#[test]
fn layout_points_are_the_notation_names() {
    let sizes = HashMap::from([
        ("poddavki", 32),
        ("phutball", 315),
        ("diamond", 62),
        ("pods-standard", 36),
        ("pods-advanced", 36),
    ]);
    let mut e = Engine::start(&[]);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut games = common::game_names();
    games.sort();
    for game in &games {
        let game = game.as_str();
        for rotation in ["0", "90", "180", "270"] {
            if !game.starts_with("pods") && rotation != "0" {
                continue;
            }
            assert_eq!(e.gtp(&format!("set_game {game}")), "=");
            if game.starts_with("pods") {
                assert_eq!(e.gtp(&format!("set_option pods_rotation {rotation}")), "=");
                assert_eq!(e.gtp("clear_board"), "=");
            }
            let names = point_names(&layout(&mut e));
            // A game not in the table (one only the registry names) gets the other checks.
            let size = sizes.get(game).copied();
            if let Some(size) = size {
                assert_eq!(names.len(), size, "{game}");
            }
            let mut used = BTreeSet::new();
            for _ in 0..40 {
                let moves = e.gtp("legal_moves");
                let moves: Vec<&str> = moves
                    .strip_prefix('=')
                    .expect("moves")
                    .split(' ')
                    .filter(|m| !m.is_empty())
                    .collect();
                if moves.is_empty() {
                    break;
                }
                for m in &moves {
                    for p in move_points(m) {
                        assert!(
                            names.contains(&p),
                            "{game}: {m} names {p}, not in the layout"
                        );
                        used.insert(p);
                    }
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pick = moves[(seed >> 33) as usize % moves.len()];
                assert_eq!(e.gtp(&format!("play {pick}")), "=");
            }
            // Placement games name (nearly) every point in their moves; draughts most squares.
            if size.is_some() {
                assert!(used.len() * 2 > names.len(), "{game}: {}", used.len());
            }
        }
    }
}

fn tetrad(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(args)
        .output()
        .expect("tetrad runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn render_and_layout_subcommands_match_the_gtp_answers() {
    let mut e = Engine::start(&[]);
    for (game, moves) in games() {
        let (game, moves) = (game.as_str(), moves.as_str());
        let mut args = vec!["render", "--game", game, "--moves"];
        args.extend(moves.split(' '));
        let svg = tetrad(&args);
        assert_eq!(svg, tetrad(&args), "deterministic");
        assert!(!svg.lines().any(|l| l.trim().is_empty()), "no empty line");
        args[0] = "layout";
        let json = tetrad(&args);
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        for mv in moves.split(' ') {
            assert_eq!(e.gtp(&format!("play {mv}")), "=");
        }
        assert_eq!(e.gtp("showboard svg"), format!("=\n{}", svg.trim_end()));
        assert_eq!(e.gtp("board_layout"), format!("=\n{}", json.trim_end()));
    }
    // A position string, and errors.
    let pos = "W:WKa1:Bc3,f6,Kh2";
    let svg = tetrad(&["render", "--game", "poddavki", "--position", pos]);
    assert_eq!(piece_elements(&svg).len(), 4);
    assert!(svg.contains(r#"class="piece king white""#));
    let bad = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["render", "--game", "poddavki", "--moves", "a1-b2"])
        .output()
        .expect("tetrad runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("illegal move"));
}

#[test]
fn showboard_arguments() {
    let mut e = Engine::start(&[]);
    assert!(e.gtp("showboard SVG").starts_with("=\n<svg "));
    assert!(e.gtp("showboard png").starts_with("? syntax error"));
    assert!(e.gtp("board_layout x").starts_with("? syntax error"));
    assert_eq!(e.gtp("known_command board_layout"), "= true");
    let text = e.gtp("showboard");
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("legend: ")),
        "{text}"
    );
}

/// Where every point can take a first placement, the first moves name exactly the layout's
/// points: no layout point is unknown to the notation.
#[test]
fn first_placements_name_exactly_the_layout_points() {
    let mut e = Engine::start(&[]);
    for game in ["diamond", "pods-advanced"] {
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        let names = point_names(&layout(&mut e));
        let moves = e.gtp("legal_moves");
        let used: BTreeSet<String> = moves
            .trim_start_matches('=')
            .split(' ')
            .flat_map(move_points)
            .collect();
        assert_eq!(used, names, "{game}");
    }
}
