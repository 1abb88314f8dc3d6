//! Every rule on a hand-built position; notation and position strings.

use super::*;

#[test]
fn placement_phase_places_anywhere_and_never_captures() {
    let g = Diamond;
    let s = g.start();
    assert_eq!(move_strings(&s).len(), 62);
    assert!(move_strings(&s).iter().all(|m| m.len() == 2));
    // White f3 sits between Black f4 and the empty e3: a placement on e3 does not capture it.
    let p = setup("f4", "f3", "", 'b', [11, 11], 0);
    let q = play(&p, "e3");
    assert_eq!(q.pieces[1], pts("f3"));
    assert_eq!(q.neutral, 0);
    assert!(matches!(
        g.parse_move(&p, "e3*"),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_move(&p, "f4-e4"),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(g.parse_move(&p, "f4"), Err(RuleError::Illegal(_))));
    assert_eq!(q.hand, [10, 11]);
    assert_eq!(q.stm, 1);
}

#[test]
fn movement_phase_steps_along_lines_only() {
    let g = Diamond;
    let p = setup("e3", "a1", "", 'b', [0, 0], 0);
    // e3: e2, e4, d3, f3 and the diagonal to f4.
    assert_eq!(
        move_strings(&p),
        ["e3-d3", "e3-e2", "e3-e4", "e3-f3", "e3-f4"]
    );
    assert!(matches!(g.parse_move(&p, "e5"), Err(RuleError::Illegal(_))));
    assert!(matches!(
        g.parse_move(&p, "e3-d4"),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_move(&p, "a1-a2"),
        Err(RuleError::Illegal(_))
    ));
    let q = play(&p, "e3-f4");
    assert_eq!(q.pieces[0], pts("f4"));
    assert_eq!(q.counter, 1);
}

#[test]
fn swap_is_colour_stable_and_only_on_whites_first_turn() {
    let g = Diamond;
    let s = g.start();
    assert!(matches!(
        g.parse_move(&s, "swap"),
        Err(RuleError::Illegal(_))
    ));
    let p = play(&s, "d4");
    assert!(move_strings(&p).contains(&"swap".to_string()));
    assert_eq!(move_strings(&p).len(), 62);
    let q = play(&p, "swap");
    assert_eq!(q.to_fen(), "7/8/8/8/3W4/8/8/7 b 12 11 0");
    assert_eq!(g.side_to_move(&q), Side::P1);
    assert!(g.is_progress(&p, Move::Swap));
    // Never again: not for Black after the swap, nor for White later.
    assert!(!move_strings(&q).contains(&"swap".to_string()));
    let r = play(&play(&q, "e4"), "e5");
    assert!(!move_strings(&r).contains(&"swap".to_string()));
    let r = play(&play(&p, "e4"), "e5");
    assert!(!move_strings(&r).contains(&"swap".to_string()));
    // The swap turn read from a string.
    let t = fen("7/8/8/8/8/8/8/B6 w 11 12 0");
    assert!(move_strings(&t).contains(&"swap".to_string()));
    let t = fen("7/8/8/8/8/8/8/B6 w 10 12 0");
    assert!(!move_strings(&t).contains(&"swap".to_string()));
}

#[test]
fn swap_decision_prefers_central_first_pieces() {
    let central = play(&Pos::start(), "d4");
    let corner = play(&Pos::start(), "a1");
    assert!(swap_worth(&central));
    assert!(!swap_worth(&corner));
    assert!(order_hint(&central, Move::Swap) > order_hint(&central, Move::Place(0)));
    assert!(order_hint(&corner, Move::Swap) < order_hint(&corner, Move::Place(27)));
}

// ---------------------------------------------------------------- captures

fn step_result(pos: &Pos, text: &str) -> (String, Pos) {
    let g = Diamond;
    let m = g.parse_move(pos, text).unwrap();
    (g.format_move(pos, m), g.make(pos, m))
}

#[test]
fn capture_on_one_triangle() {
    // d3-e3: triangle e3-f3-f4 holds Black f4 and White f3.
    let p = setup("d3 f4", "f3 a1", "", 'b', [0, 0], 7);
    let (text, q) = step_result(&p, "d3-e3");
    assert_eq!(text, "d3-e3*");
    assert_eq!(q.pieces[1], pts("a1"));
    assert_eq!(q.neutral, pts("f3"));
    assert_eq!(q.counter, 0);
    assert!(Diamond.is_progress(&p, Move::Step(19, 20)));
}

#[test]
fn capture_of_one_piece_cornered_on_two_triangles() {
    // e2-e3: White f4 is cornered on e3-f3-f4 (Black f3) and on e3-e4-f4 (Black e4).
    let p = setup("e2 f3 e4", "f4 a1", "", 'b', [0, 0], 0);
    let (text, q) = step_result(&p, "e2-e3");
    assert_eq!(text, "e2-e3*");
    assert_eq!(q.neutral, pts("f4"));
    assert_eq!(q.pieces[1], pts("a1"));
}

#[test]
fn no_capture_when_two_different_pieces_are_cornered() {
    // d3-e3 corners White f3 (with Black f4 on e3-f3-f4) and White e4 (on e3-e4-f4).
    let p = setup("d3 f4", "f3 e4", "", 'b', [0, 0], 3);
    let (text, q) = step_result(&p, "d3-e3");
    assert_eq!(text, "d3-e3");
    assert_eq!(q.pieces[1], pts("f3 e4"));
    assert_eq!(q.neutral, 0);
    assert_eq!(q.counter, 4);
    assert!(matches!(
        Diamond.parse_move(&p, "d3-e3*"),
        Err(RuleError::Illegal(_))
    ));
}

#[test]
fn stepping_between_two_enemy_pieces_is_safe() {
    let p = setup("d3", "f3 f4", "", 'b', [0, 0], 0);
    let (text, q) = step_result(&p, "d3-e3");
    assert_eq!(text, "d3-e3");
    assert_eq!(q.pieces, [pts("e3"), pts("f3 f4")]);
    // And White may not capture it back by standing still: captures need a step.
    assert!(move_strings(&q).iter().all(|m| !m.ends_with('*')));
}

#[test]
fn capture_is_judged_with_the_origin_empty() {
    // f3-e3 leaves f3 empty, so White f4 is not cornered on e3-f3-f4.
    let p = setup("f3", "f4", "", 'b', [0, 0], 0);
    let (text, q) = step_result(&p, "f3-e3");
    assert_eq!(text, "f3-e3");
    assert_eq!(q.pieces[1], pts("f4"));
}

#[test]
fn white_captures_too() {
    // White d3-e3 corners Black f3 against White f4.
    let p = setup("f3 a1", "d3 f4", "", 'w', [0, 0], 0);
    let (text, q) = step_result(&p, "d3-e3");
    assert_eq!(text, "d3-e3*");
    assert_eq!(q.pieces[0], pts("a1"));
    assert_eq!(q.neutral, pts("f3"));
}

// ---------------------------------------------------------------- neutral pieces

#[test]
fn neutral_pieces_never_move_and_go_only_when_unguarded() {
    let g = Diamond;
    // d5 touches e4 by the diagonal: White e4 guards it; Black c7 is not adjacent.
    let p = setup("c7", "e4", "d5", 'b', [0, 0], 9);
    assert!(matches!(
        g.parse_move(&p, "(d5)"),
        Err(RuleError::Illegal(_))
    ));
    assert!(move_strings(&p).iter().all(|m| !m.starts_with('(')));
    let p = setup("c7", "h4", "d5", 'b', [0, 0], 9);
    assert!(move_strings(&p).contains(&"(d5)".to_string()));
    let q = play(&p, "(d5)");
    assert_eq!(q.neutral, 0);
    assert_eq!(q.counter, 0);
    assert!(g.is_progress(&p, Move::Remove(parse_point("d5").unwrap() as u8)));
    // No neutral piece moves, and removal is a movement-phase move only.
    assert!(move_strings(&p).iter().all(|m| !m.starts_with("d5-")));
    let p = setup("c7", "h4", "d5", 'b', [1, 1], 0);
    assert!(matches!(
        g.parse_move(&p, "(d5)"),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(
        g.parse_move(&p, "(e5)"),
        Err(RuleError::Illegal(_))
    ));
}

#[test]
fn neutral_pieces_spoil_squares() {
    let p = setup("b5 c5 c7", "a1", "b6", 'b', [0, 0], 0);
    // c7-c6 would make three corners of b5-c5-c6-b6, but b6 is neutral.
    let q = play(&p, "c7-c6");
    assert_eq!(Diamond.terminal(&q), None);
}

// ---------------------------------------------------------------- game end

#[test]
fn a_full_square_wins_in_the_placement_phase() {
    let g = Diamond;
    let p = fen(WIN_IN_ONE[0].fen);
    let q = play(&p, "c6");
    let t = g.terminal(&q).unwrap();
    assert_eq!((t.outcome, t.reason), (Outcome::Win(Side::P1), "square"));
    let q = play(&p, "d6");
    assert_eq!(g.terminal(&q), None);
}

#[test]
fn a_full_square_wins_in_the_movement_phase_even_on_the_fiftieth_ply() {
    let g = Diamond;
    let p = setup("a2 b2 a3 c3", "d2 d3 e5", "", 'b', [0, 0], 49);
    let q = play(&p, "c3-b3");
    assert_eq!(q.counter, 50);
    assert_eq!(g.terminal(&q).unwrap().outcome, Outcome::Win(Side::P1));
    let q = play(&p, "c3-c4");
    let t = g.terminal(&q).unwrap();
    assert_eq!((t.outcome, t.reason), (Outcome::Draw, "fifty-plies"));
    assert_eq!(g.perft(&q, 2), 0);
    // A capture on that ply resets the counter instead.
    let p = setup("d3 f4 b5", "f3 a1", "", 'b', [0, 0], 49);
    let q = play(&p, "d3-e3*");
    assert_eq!(q.counter, 0);
    assert_eq!(g.terminal(&q), None);
}

#[test]
fn white_wins_with_a_square_too() {
    let p = setup("d4 d5 f3 g4", "e4 f4 e5 g5", "", 'w', [0, 0], 0);
    let q = play(&p, "g5-f5");
    assert_eq!(
        Diamond.terminal(&q).unwrap().outcome,
        Outcome::Win(Side::P2)
    );
}

#[test]
fn no_legal_move_is_a_draw() {
    let g = Diamond;
    // Black a1 is hemmed in by White a2, b1 and a neutral on b2 that it guards itself.
    let p = setup("a1", "a2 b1 h8", "b2", 'b', [0, 0], 5);
    assert!(move_strings(&p).is_empty());
    assert_eq!(g.terminal(&p), None);
    let t = outcome(&g, &p, &DrawTracker::new(p.hash)).unwrap();
    assert_eq!((t.outcome, t.reason), (Outcome::Draw, "no-moves"));
}

#[test]
fn threefold_repetition_is_a_draw_and_the_counter_is_not_hashed() {
    let g = Diamond;
    let p0 = setup("a1 c3", "h8 f6", "", 'b', [0, 0], 0);
    let mut tracker = DrawTracker::new(g.hash(&p0));
    let mut p = p0;
    let cycle = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"];
    for (i, text) in cycle.iter().chain(cycle.iter()).enumerate() {
        let m = g.parse_move(&p, text).unwrap();
        assert!(!g.is_progress(&p, m));
        p = g.make(&p, m);
        tracker.push(g.hash(&p), false);
        let end = outcome(&g, &p, &tracker);
        if i < 7 {
            assert_eq!(end, None, "after {text} ({i})");
        } else {
            assert_eq!(end.map(|t| t.reason), Some("repetition"));
        }
    }
    assert_eq!(p.counter, 8);
    assert_ne!(p, p0);
    assert_eq!(p.hash, p0.hash);
    assert_eq!(Diamond.draw_rules().repetition, Some(3));
}

#[test]
fn counter_resets_on_placement_and_counts_quiet_steps() {
    let p = setup("a1", "h8", "", 'w', [0, 1], 0);
    let q = play(&p, "d4");
    assert_eq!(q.counter, 0);
    let q = play(&q, "a1-a2");
    assert_eq!(q.counter, 1);
    let q = play(&q, "d4-d5");
    assert_eq!(q.counter, 2);
}

#[test]
fn notation_examples_parse() {
    let g = Diamond;
    let s = g.start();
    assert_eq!(g.parse_move(&s, "E4"), Ok(Move::Place(28)));
    assert_eq!(g.parse_move(&s, " e4 "), Ok(Move::Place(28)));
    for bad in [
        "", "e9", "a8", "h1", "i1", "e", "e4-", "(e4", "e4-e5-e6", "swapx", "*", "ééé",
    ] {
        assert!(g.parse_move(&s, bad).is_err(), "{bad}");
    }
    let p = setup("e3", "a1", "", 'b', [0, 0], 0);
    assert_eq!(g.parse_move(&p, "e3e4"), g.parse_move(&p, "e3-e4"));
    assert!(matches!(
        g.parse_move(&p, "(e4)"),
        Err(RuleError::Illegal(_))
    ));
}

#[test]
fn position_strings_parse_and_reject_nonsense() {
    let g = Diamond;
    let s = g.start();
    assert_eq!(g.format_position(&s), "7/8/8/8/8/8/8/7 b 12 12 0");
    assert_eq!(g.parse_position("7/8/8/8/8/8/8/7 b 12 12 0"), Ok(s));
    for bad in [
        "",
        "8/8/8/8/8/8/8/8 b 12 12 0",
        "7/8/8/8/8/8/8/7 x 12 12 0",
        "7/8/8/8/8/8/8/7 b 13 12 0",
        "7/8/8/8/8/8/8/7 b 12 12 z",
        "7/8/8/8/8/8/8 b 12 12 0",
        "N6/8/8/8/8/8/8/7 b 12 12 0",
        "B6/8/8/8/8/8/8/7 b 12 12 0",
        "7/8/8/8/8/8/8/07 b 12 12 0",
        "7/9/8/8/8/8/8/7 b 12 12 0",
        "7/X7/8/8/8/8/8/7 b 12 12 0",
    ] {
        assert!(
            matches!(g.parse_position(bad), Err(RuleError::InvalidPosition(_))),
            "{bad}"
        );
    }
}

#[test]
fn render_draws_every_point_without_empty_lines() {
    let p = setup("b5 c5", "e4", "d7", 'w', [0, 0], 3);
    let text = Diamond.render(&p);
    assert!(text.lines().all(|l| !l.trim().is_empty()));
    assert_eq!(text.lines().count(), 18);
    let cells: usize = text
        .lines()
        .take(15)
        .map(|l| l.chars().skip(2).filter(|c| ".BWN".contains(*c)).count())
        .sum();
    assert_eq!(cells, 62);
    assert!(text.contains("white to move"));
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,40}") {
            let g = Diamond;
            let _ = g.parse_move(&g.start(), &s);
            let _ = g.parse_position(&s);
        }

        #[test]
        fn position_like_strings_never_panic(s in "[BWN1-9/]{0,40} [bw] [0-9]{1,2} [0-9]{1,2} [0-9]{1,3}") {
            let g = Diamond;
            if let Ok(p) = g.parse_position(&s) {
                prop_assert_eq!(g.parse_position(&g.format_position(&p)), Ok(p));
            }
        }
    }
}

#[test]
fn published_puzzle_line_is_legal_and_wins() {
    let g = Diamond;
    // White to move; Black threatens to take b5 and c6 (from a5 and d6) for b5-c5-c6-b6.
    let p = setup("f3 c5 b6 a5 d6", "e3 g3 g4 e5 f5 e2 f2", "", 'w', [0, 0], 0);
    let mut line = vec![p];
    for text in ["e3-e4", "f3-f4", "g3-f3", "f4-e3", "f3-f4"] {
        let cur = *line.last().unwrap();
        assert_eq!(g.terminal(&cur), None, "before {text}");
        let m = g.parse_move(&cur, text).unwrap();
        // The published text omits '*': the final step also captures Black e3 (with e4).
        assert_eq!(g.format_move(&cur, m).trim_end_matches('*'), text);
        line.push(g.make(&cur, m));
    }
    let end = g.terminal(line.last().unwrap()).unwrap();
    assert_eq!(
        (end.outcome, end.reason),
        (Outcome::Win(Side::P2), "square")
    );
    // 3.g4-f4 wins as well.
    assert_eq!(
        g.terminal(&play(&line[4], "g4-f4")).unwrap().outcome,
        Outcome::Win(Side::P2)
    );
    // 1...f3-f4 is Black's only move that stops an immediate White win; after 2.g3-f3 nothing
    // does any more (f4-e3 stops e2-f2-f3-e3 but opens f4).
    let played = g.parse_move(&line[1], "f3-f4").unwrap();
    assert_eq!(suites::blocking(&line[1]), vec![played]);
    assert!(suites::blocking(&line[3]).is_empty());
    // And Black, left alone, wins in two: it has a move after which it threatens two wins.
    let mut quiet = p;
    quiet.stm = 0;
    quiet.hash = quiet.compute_hash();
    let q = play(&quiet, "a5-b5");
    assert!(suites::threat_points(&q) != 0);
}
