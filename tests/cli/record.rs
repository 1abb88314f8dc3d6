//! GTP `game_record`: the game so far as the arena writes its records (PGN, PDN for Poddavki),
//! through the binary. Reading the records back with pydraughts: tests/arena/test_tetrad.py.

use crate::common;

use common::Engine;

/// The answer's lines after the `= EXT` line.
fn record(e: &mut Engine, args: &str) -> (String, Vec<String>) {
    e.send(format!("game_record {args}").trim_end());
    let mut lines = e.answer();
    assert!(!lines.is_empty() && lines[0].starts_with("= "), "{lines:?}");
    let ext = lines.remove(0)[2..].to_string();
    (ext, lines)
}

#[test]
fn poddavki_is_written_as_pdn_with_the_arenas_tags() {
    let mut e = Engine::start(&[]);
    for mv in ["c3-d4", "f6-e5", "d4:f6"] {
        assert_eq!(e.gtp(&format!("play {mv}")), "=");
    }
    let (ext, lines) = record(
        &mut e,
        r#"white=Alice p2="tetrad \"2\"" Date=2026.12.02 Event="a b" Annotator=me"#,
    );
    assert_eq!(ext, "pdn");
    assert_eq!(
        lines,
        [
            r#"[Event "a b"]"#,
            r#"[Site "?"]"#,
            r#"[Date "2026.12.02"]"#,
            r#"[Round "-"]"#,
            r#"[White "Alice"]"#,
            r#"[Black "tetrad \"2\""]"#,
            r#"[Result "*"]"#,
            r#"[GameType "25,W,8,8,A0,0"]"#,
            r#"[Rules "giveaway"]"#,
            r#"[Variant "poddavki"]"#,
            r#"[TimeControl "-"]"#,
            r#"[Termination "unterminated"]"#,
            r#"[PlyCount "3"]"#,
            r#"[Opening "start"]"#,
            r#"[Annotator "me"]"#,
            "1. c3-d4 f6-e5 2. d4xf6 *",
        ]
    );
}

#[test]
fn a_set_up_position_a_second_mover_first_and_the_end() {
    let mut e = Engine::start(&[]);
    // Black to move first: its move is numbered `1...`; the position goes in FEN.
    assert_eq!(e.gtp("set_position B:Wa1,c3:Bh8"), "=");
    assert_eq!(e.gtp("play h8-g7"), "=");
    let (_, lines) = record(&mut e, "");
    assert!(lines.contains(&r#"[SetUp "1"]"#.to_string()), "{lines:?}");
    assert!(lines.contains(&r#"[FEN "B:Wa1,c3:Bh8"]"#.to_string()));
    assert!(lines.contains(&r#"[Opening "set-up"]"#.to_string()));
    assert_eq!(lines.last().map(String::as_str), Some("1... h8-g7 *"));
    // White has no move, and wins: the result from White's side, the winner's player named.
    assert_eq!(e.gtp("set_position W:Wa1:Bb2,c3"), "=");
    let (_, lines) = record(&mut e, "p1=Zoe");
    assert!(
        lines.contains(&r#"[Result "1-0"]"#.to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&r#"[Termination "Zoe wins (no-moves)"]"#.to_string()));
    assert_eq!(lines.last().map(String::as_str), Some("1-0"));
}

#[test]
fn other_games_are_pgn_with_white_as_the_side_called_white() {
    let mut e = Engine::start(&[]);
    // Diamond's first mover is black and White (the side called white) moves second.
    assert_eq!(e.gtp("set_game diamond"), "=");
    assert_eq!(e.gtp("play h4"), "=");
    assert_eq!(e.gtp("play b7"), "=");
    let (ext, lines) = record(&mut e, "p1=first p2=second");
    assert_eq!(ext, "pgn");
    assert!(
        lines.contains(&r#"[White "second"]"#.to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&r#"[Black "first"]"#.to_string()));
    assert!(!lines.iter().any(|l| l.starts_with("[GameType")));
    assert_eq!(lines.last().map(String::as_str), Some("1... h4 2. b7 *"));
    // Sides not called white and black get a tag each too.
    assert_eq!(e.gtp("set_game phutball"), "=");
    let (_, lines) = record(&mut e, "red=r blue=b");
    for tag in [
        r#"[White "r"]"#,
        r#"[Black "b"]"#,
        r#"[Red "r"]"#,
        r#"[Blue "b"]"#,
    ] {
        assert!(lines.contains(&tag.to_string()), "{tag}: {lines:?}");
    }
}

#[test]
fn refused_fields_change_nothing() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("play c3-d4"), "=");
    for (args, why) in [
        (
            "Result=1-0",
            "? game_record: the tag Result is written from the game, not given",
        ),
        (
            "GameType=20",
            "? game_record: the tag GameType is written from the game, not given",
        ),
        ("x", "? syntax error: expected NAME=VALUE ..."),
        ("Event=\"open", "? syntax error: expected NAME=VALUE ..."),
        ("1x=2", "? syntax error: expected NAME=VALUE ..."),
    ] {
        assert_eq!(e.gtp(&format!("game_record {args}")), why, "{args}");
    }
    let (_, lines) = record(&mut e, "");
    assert_eq!(lines.last().map(String::as_str), Some("1. c3-d4 *"));
}
