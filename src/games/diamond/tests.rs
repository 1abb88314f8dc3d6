use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{adj, parse_point, point_name, Bits, PointSet, TABLES, VALID};
use super::eval::{evaluate, order_hint, side_view, swap_worth, WIN_NEXT};
use super::movegen::{legal_moves, Move};
use super::position::Pos;
use super::reference::{self, RefBoard, RefPos};
use super::suites::{self, BLOCK_ONE, WIN_IN_ONE};
use super::Diamond;
use crate::games::{outcome, DrawTracker, Game, Outcome, RuleError, Side, EVAL_LIMIT};

fn fen(s: &str) -> Pos {
    Pos::from_fen(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pts(list: &str) -> u64 {
    list.split_whitespace()
        .map(|s| 1u64 << parse_point(s).unwrap_or_else(|| panic!("bad point {s}")))
        .fold(0, |a, b| a | b)
}

/// A movement-phase (or any) position from point lists.
fn setup(black: &str, white: &str, neutral: &str, side: char, hands: [u8; 2], counter: u16) -> Pos {
    let mut p = Pos::start();
    p.pieces = [pts(black), pts(white)];
    p.neutral = pts(neutral);
    p.hand = hands;
    p.stm = (side == 'w') as usize;
    p.counter = counter;
    p.hash = p.compute_hash();
    // Go through the string form so that every hand-built position is also a valid string.
    fen(&p.to_fen())
}

fn play(pos: &Pos, text: &str) -> Pos {
    let g = Diamond;
    let m = g
        .parse_move(pos, text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen()));
    g.make(pos, m)
}

fn move_strings(pos: &Pos) -> Vec<String> {
    let g = Diamond;
    let mut v = Vec::new();
    g.legal_moves(pos, &mut v);
    let mut s: Vec<String> = v.iter().map(|&m| g.format_move(pos, m)).collect();
    s.sort();
    s
}

fn adjacent(a: &str, b: &str) -> bool {
    let (a, b) = (parse_point(a).unwrap(), parse_point(b).unwrap());
    adj(a).has(b)
}

// ---------------------------------------------------------------- board

#[test]
fn board_has_62_points_133_lines_24_squares_48_triangles() {
    assert_eq!(VALID.count_ones(), 62);
    assert!(parse_point("a8").is_none() && parse_point("h1").is_none());
    let degrees: u32 = Bits(VALID).map(|p| adj(p).count_ones()).sum();
    assert_eq!(degrees, 2 * 133);
    let mut orth = 0;
    let mut diag = 0;
    for p in Bits(VALID) {
        assert_eq!(
            adj(p) & !VALID,
            0,
            "line leaves the board at {}",
            point_name(p)
        );
        let mut diagonals = 0;
        for q in Bits(adj(p)) {
            let (df, dr) = (
                (q % 8) as i32 - (p % 8) as i32,
                (q / 8) as i32 - (p / 8) as i32,
            );
            if df.abs() + dr.abs() == 1 {
                orth += 1;
            } else {
                assert_eq!((df.abs(), dr.abs()), (1, 1));
                diag += 1;
                diagonals += 1;
            }
        }
        assert!(
            diagonals <= 1,
            "{} has {diagonals} diagonals",
            point_name(p)
        );
    }
    assert_eq!((orth / 2, diag / 2), (108, 25));
    let mut squares: Vec<u64> = TABLES.squares.to_vec();
    squares.sort_unstable();
    squares.dedup();
    assert_eq!(squares.len(), 24);
    assert!(squares
        .iter()
        .all(|q| q.count_ones() == 4 && q & !VALID == 0));
    let mut tris: Vec<u64> = TABLES
        .triangles
        .iter()
        .map(|t| t.iter().map(|&p| 1u64 << p).sum())
        .collect();
    tris.sort_unstable();
    tris.dedup();
    assert_eq!(tris.len(), 48);
    for t in &TABLES.triangles {
        let [a, b, c] = t.map(|p| p as usize);
        assert!(adj(a).has(b) && adj(b).has(c) && adj(a).has(c));
    }
}

#[test]
fn named_lines_and_squares_from_the_rules() {
    for (a, b) in [
        ("e3", "f4"),
        ("a1", "b2"),
        ("b3", "c2"),
        ("d5", "e4"),
        ("a7", "b8"),
        ("g1", "h2"),
        ("e3", "e4"),
        ("g3", "f3"),
        ("f4", "e3"),
    ] {
        assert!(adjacent(a, b), "{a}-{b} should be a line");
    }
    for (a, b) in [
        ("b2", "c3"),
        ("e4", "f5"),
        ("a7", "a8"),
        ("g1", "h1"),
        ("c2", "d3"),
    ] {
        assert!(
            parse_point(b).is_none() || !adjacent(a, b),
            "{a}-{b} is no line"
        );
    }
    for sq in ["b1 c1 c2 b2", "b5 c5 c6 b6", "e4 f4 f5 e5"] {
        assert!(TABLES.squares.contains(&pts(sq)), "{sq} is a square");
    }
    assert!(!TABLES.squares.contains(&pts("a1 b1 b2 a2")));
    for tri in ["a7 b7 b8", "g1 g2 h2", "e3 f3 f4", "e3 e4 f4"] {
        let m = pts(tri);
        assert!(
            TABLES
                .triangles
                .iter()
                .any(|t| t.iter().map(|&p| 1u64 << p).sum::<u64>() == m),
            "{tri} is a triangle"
        );
    }
}

#[test]
fn tables_match_the_independent_model() {
    let rb = RefBoard::new();
    assert_eq!(rb.points.len(), 62);
    assert_eq!(rb.lines.len(), 133);
    assert_eq!(rb.squares.len(), 24);
    assert_eq!(rb.triangles.len(), 48);
    let bit = |p: reference::Pt| 1u64 << (p.1 * 8 + p.0);
    for &a in &rb.points {
        let want: u64 = rb
            .points
            .iter()
            .filter(|&&b| rb.joined(a, b))
            .map(|&b| bit(b))
            .sum();
        assert_eq!(
            adj((a.1 * 8 + a.0) as usize),
            want,
            "{}",
            reference::name(a)
        );
    }
    let mut ours: Vec<u64> = TABLES.squares.to_vec();
    let mut theirs: Vec<u64> = rb.squares.iter().map(|q| q.map(bit).iter().sum()).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
    let mut ours: Vec<u64> = TABLES
        .triangles
        .iter()
        .map(|t| t.iter().map(|&p| 1u64 << p).sum())
        .collect();
    let mut theirs: Vec<u64> = rb
        .triangles
        .iter()
        .map(|t| t.map(bit).iter().sum())
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_from_start_matches_reference_counts() {
    let g = Diamond;
    let s = g.start();
    let want = [62u64, 3844, 230702, 13615200];
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(g.perft(&s, d as u32 + 1), n, "perft({})", d + 1);
    }
}

#[test]
fn perft_matches_the_independent_brute_force() {
    let g = Diamond;
    let rb = RefBoard::new();
    let start = RefPos::parse(&g.start().to_fen());
    for d in 1..=3 {
        assert_eq!(
            g.perft(&g.start(), d),
            start.perft(&rb, d),
            "start depth {d}"
        );
    }
    // Swap turn, movement phase with neutrals and captures, and a position one ply from wins.
    let others = [
        "7/8/8/8/4B3/8/8/7 w 11 12 0".to_string(),
        setup(
            "b5 c5 b6 d4 e3 f2",
            "c6 d5 e4 f3 g2",
            "a1 h8",
            'b',
            [0, 0],
            10,
        )
        .to_fen(),
        setup("b5 c5 b6 c7 e3 f4", "d6 e4 f3 b7 d3", "", 'w', [0, 0], 47).to_fen(),
        WIN_IN_ONE[0].fen.to_string(),
    ];
    for f in &others {
        let p = fen(f);
        let r = RefPos::parse(f);
        for d in 1..=3 {
            assert_eq!(g.perft(&p, d), r.perft(&rb, d), "{f} depth {d}");
            assert_eq!(g.perft(&p, d), crate::games::generic_perft(&g, &p, d));
        }
    }
}

// ---------------------------------------------------------------- random positions

/// Positions from random games (placement and movement) and random movement-phase set-ups.
fn random_positions(seed: u64, games: usize, setups: usize) -> Vec<Pos> {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut p = g.start();
        for _ in 0..300 {
            if g.terminal(&p).is_some() {
                break;
            }
            moves.clear();
            g.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(p);
            p = g.make(&p, moves[rng.gen_range(0..moves.len())]);
        }
    }
    for _ in 0..setups {
        let nb = rng.gen_range(1..=12u32);
        let nw = rng.gen_range(1..=12u32);
        let nn = rng.gen_range(0..=(24 - nb - nw).min(12));
        let mut free: Vec<usize> = Bits(VALID).collect();
        let mut p = Pos::start();
        p.hand = [0, 0];
        for (kind, n) in [(0, nb), (1, nw), (2, nn)] {
            for _ in 0..n {
                let q = free.swap_remove(rng.gen_range(0..free.len()));
                match kind {
                    0 => p.pieces[0] |= 1 << q,
                    1 => p.pieces[1] |= 1 << q,
                    _ => p.neutral |= 1 << q,
                }
            }
        }
        p.stm = rng.gen_range(0..2);
        p.counter = rng.gen_range(0..50);
        p.hash = p.compute_hash();
        if g.terminal(&p).is_none() {
            out.push(p);
        }
    }
    out
}

#[test]
fn moves_and_results_match_the_independent_model() {
    let g = Diamond;
    let rb = RefBoard::new();
    let positions = random_positions(7, 40, 1500);
    let mut captures = 0;
    let mut removals = 0;
    for p in &positions {
        let f = p.to_fen();
        let r = RefPos::parse(&f);
        let ours = move_strings(p);
        assert_eq!(ours, r.moves(&rb), "moves of {f}");
        let mut moves = Vec::new();
        g.legal_moves(p, &mut moves);
        for m in moves {
            let text = g.format_move(p, m);
            captures += text.ends_with('*') as usize;
            removals += text.starts_with('(') as usize;
            assert_eq!(
                g.make(p, m).to_fen(),
                r.make(&rb, &text).format(),
                "{text} in {f}"
            );
        }
    }
    assert!(captures > 100 && removals > 100, "{captures} {removals}");
}

#[test]
fn notation_positions_and_hashes_round_trip() {
    let g = Diamond;
    let positions = random_positions(11, 60, 3000);
    assert!(positions.len() > 4000);
    let mut moves = Vec::new();
    for p in &positions {
        let f = g.format_position(p);
        assert_eq!(g.parse_position(&f).as_ref(), Ok(p), "{f}");
        assert_eq!(p.hash, p.compute_hash());
        moves.clear();
        g.legal_moves(p, &mut moves);
        let mut seen = std::collections::HashSet::new();
        for &m in &moves {
            assert!(seen.insert(m), "duplicate move");
            let text = g.format_move(p, m);
            assert_eq!(g.parse_move(p, &text), Ok(m), "{text} in {f}");
            assert_eq!(g.parse_move(p, &text.to_uppercase()), Ok(m));
            if let Some(plain) = text.strip_suffix('*') {
                assert_eq!(g.parse_move(p, plain), Ok(m), "'*' may be omitted");
            } else if let Move::Step(..) = m {
                assert!(matches!(
                    g.parse_move(p, &format!("{text}*")),
                    Err(RuleError::Illegal(_))
                ));
            }
            let next = g.make(p, m);
            assert_eq!(next.hash, next.compute_hash(), "{text} in {f}");
            assert_eq!(g.hash(&next), next.compute_hash());
        }
    }
}

// ---------------------------------------------------------------- phases, swap

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

// ---------------------------------------------------------------- notation and strings

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
    assert_eq!(text.lines().count(), 17);
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

// ---------------------------------------------------------------- the published puzzle

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

// ---------------------------------------------------------------- suites

#[test]
fn win_suite_positions_are_valid_and_winnable() {
    let g = Diamond;
    assert!(WIN_IN_ONE.len() >= 30);
    let (mut placements, mut steps) = (0, 0);
    for case in WIN_IN_ONE {
        let p = fen(case.fen);
        assert_eq!(p.to_fen(), case.fen, "canonical: {}", case.note);
        assert_eq!(g.terminal(&p), None, "{}", case.note);
        let wins = suites::winning(&p);
        assert!(!wins.is_empty(), "no win: {}", case.note);
        assert!(wins.len() < move_strings(&p).len(), "{}", case.note);
        match wins[0] {
            Move::Place(_) => placements += 1,
            _ => steps += 1,
        }
        let texts = suites::winning_moves(case.fen).unwrap();
        assert_eq!(texts.len(), wins.len());
        // The ordering hint puts a winning move first and the evaluation sees the win.
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        let best = moves.iter().max_by_key(|&&m| order_hint(&p, m)).unwrap();
        assert!(wins.contains(best), "{}", case.note);
        assert_eq!(evaluate(&p), WIN_NEXT, "{}", case.note);
    }
    assert!(placements >= 10 && steps >= 10, "{placements} {steps}");
}

#[test]
fn block_suite_positions_have_one_threat_and_a_defence() {
    let g = Diamond;
    assert!(BLOCK_ONE.len() >= 30);
    let (mut placements, mut steps) = (0, 0);
    for case in BLOCK_ONE {
        let p = fen(case.fen);
        assert_eq!(p.to_fen(), case.fen, "canonical: {}", case.note);
        assert_eq!(g.terminal(&p), None, "{}", case.note);
        assert!(suites::winning(&p).is_empty(), "mover wins: {}", case.note);
        assert_eq!(
            suites::threat_points(&p).count_ones(),
            1,
            "not a single threat: {}",
            case.note
        );
        let saving = suites::blocking(&p);
        let all = move_strings(&p).len();
        assert!(!saving.is_empty(), "no defence: {}", case.note);
        assert!(
            saving.len() * 2 <= all,
            "too easy: {} ({} of {all})",
            case.note,
            saving.len()
        );
        match saving[0] {
            Move::Place(_) => placements += 1,
            _ => steps += 1,
        }
        assert_eq!(
            suites::blocking_moves(case.fen).unwrap().len(),
            saving.len()
        );
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        let best = moves.iter().max_by_key(|&&m| order_hint(&p, m)).unwrap();
        assert!(saving.contains(best), "ordering: {}", case.note);
    }
    assert!(placements >= 10 && steps >= 10, "{placements} {steps}");
}

// ---------------------------------------------------------------- evaluation, playouts

#[test]
fn evaluation_is_bounded_and_colour_symmetric() {
    let positions = random_positions(5, 30, 500);
    for p in &positions {
        let v = evaluate(p);
        assert!(v.abs() < EVAL_LIMIT, "{v} at {}", p.to_fen());
        let mut q = *p;
        q.pieces = [p.pieces[1], p.pieces[0]];
        q.hand = [p.hand[1], p.hand[0]];
        q.stm ^= 1;
        q.hash = q.compute_hash();
        assert_eq!(evaluate(&q), v, "{}", p.to_fen());
    }
}

#[test]
fn square_features_match_a_plain_loop_over_the_squares() {
    for p in &random_positions(9, 30, 400) {
        for side in 0..2 {
            let v = side_view(p, side);
            let own = p.pieces[side];
            let spoil = p.pieces[side ^ 1] | p.neutral;
            let mut squares = 0;
            let mut threats = 0u64;
            for &q in TABLES.squares.iter().filter(|&&q| q & spoil == 0) {
                let n = (q & own).count_ones() as usize;
                squares += [0, 6, 24, 70, 0][n];
                if n == 3 {
                    let e = q & !own;
                    let feeder = Bits(own & !q).any(|f| adj(f) & e != 0);
                    if p.hand[side] > 0 || feeder {
                        threats |= e;
                    }
                }
            }
            assert_eq!(v.squares, squares, "{}", p.to_fen());
            assert_eq!(v.threats, threats, "{}", p.to_fen());
            // The threats are exactly the winning points when it is that side's turn.
            let mut q = *p;
            q.stm = side;
            q.hash = q.compute_hash();
            if super::playout::terminal(&q).is_none() {
                let mut wins = 0u64;
                for m in suites::winning(&q) {
                    if let Move::Place(t) | Move::Step(_, t) = m {
                        wins |= 1 << t;
                    }
                }
                assert_eq!(v.threats, wins, "{}", p.to_fen());
            }
        }
    }
}

/// A plain alpha-beta over the trait, to check that evaluation and ordering lead a shallow
/// search to the right move (the engine's real search lives elsewhere).
fn negamax(g: &Diamond, p: &Pos, depth: u32, mut alpha: i32, beta: i32) -> (i32, Option<Move>) {
    if let Some(t) = g.terminal(p) {
        return match t.outcome {
            Outcome::Draw => (0, None),
            // The side that just moved completed a square.
            _ => (-30_000 - depth as i32, None),
        };
    }
    if depth == 0 {
        return (evaluate(p), None);
    }
    let mut moves = Vec::new();
    g.legal_moves(p, &mut moves);
    if moves.is_empty() {
        return (0, None);
    }
    moves.sort_by_key(|&m| -order_hint(p, m));
    let mut best = (i32::MIN + 1, None);
    for m in moves {
        let v = -negamax(g, &g.make(p, m), depth - 1, -beta, -alpha).0;
        if v > best.0 {
            best = (v, Some(m));
        }
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[test]
fn shallow_search_wins_and_blocks_in_the_suites() {
    let g = Diamond;
    for case in WIN_IN_ONE {
        let p = fen(case.fen);
        let (_, m) = negamax(&g, &p, 2, -100_000, 100_000);
        assert!(suites::winning(&p).contains(&m.unwrap()), "{}", case.note);
    }
    for case in BLOCK_ONE {
        let p = fen(case.fen);
        let (v, m) = negamax(&g, &p, 2, -100_000, 100_000);
        assert!(suites::blocking(&p).contains(&m.unwrap()), "{}", case.note);
        assert!(v > -20_000, "{}: {v}", case.note);
    }
}

#[test]
fn evaluation_values_material_and_threats() {
    // Same shape, White a piece down (captured, now neutral).
    let even = setup("b2 d4 f6", "c3 e5 g7", "", 'b', [0, 0], 0);
    let up = setup("b2 d4 f6", "c3 e5", "a1", 'b', [0, 0], 0);
    assert!(evaluate(&up) > evaluate(&even) + 50);
    // Two open threats for the opponent while we must place: lost.
    let lost = setup("a1 h8 b1 g8", "b5 c5 b6 e4 f4 e5", "", 'b', [6, 6], 0);
    assert!(evaluate(&lost) < -5000, "{}", evaluate(&lost));
}

#[test]
fn playouts_end_with_plausible_results() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(3);
    let mut tally = [0; 3];
    for _ in 0..2000 {
        match g.playout(&g.start(), &mut rng, 10_000) {
            Outcome::Win(Side::P1) => tally[0] += 1,
            Outcome::Win(Side::P2) => tally[1] += 1,
            Outcome::Draw => tally[2] += 1,
        }
    }
    assert!(tally.iter().all(|&n| n > 20), "{tally:?}");
    // A finished position stays finished.
    let won = play(&fen(WIN_IN_ONE[0].fen), "c6");
    assert_eq!(g.playout(&won, &mut rng, 100), Outcome::Win(Side::P1));
}

#[test]
fn playout_result_distribution_matches_the_generic_playout() {
    // Same rules, different move sampling: the win/draw shares must agree closely.
    let g = Diamond;
    let n = 3000;
    let mut rng = SmallRng::seed_from_u64(17);
    let mut fast = [0i32; 3];
    let mut slow = [0i32; 3];
    let idx = |o: Outcome| match o {
        Outcome::Win(Side::P1) => 0,
        Outcome::Win(Side::P2) => 1,
        Outcome::Draw => 2,
    };
    for _ in 0..n {
        fast[idx(g.playout(&g.start(), &mut rng, 10_000))] += 1;
        slow[idx(crate::games::generic_playout(
            &g,
            &g.start(),
            &mut rng,
            10_000,
        ))] += 1;
    }
    for k in 0..3 {
        assert!((fast[k] - slow[k]).abs() < n / 20, "{fast:?} vs {slow:?}");
    }
}

/// CPU seconds used by this thread (the machine is shared, so wall time overstates the cost).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[test]
#[ignore]
fn diamond_speed() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let cpu0 = thread_cpu_seconds();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < 3.0 {
        for _ in 0..1000 {
            let _ = g.playout(&g.start(), &mut rng, 100_000);
        }
        n += 1000;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "diamond playouts: {n} in {secs:.2}s = {:.0}/s",
        n as f64 / secs
    );
    if let (Some(a), Some(b)) = (cpu0, thread_cpu_seconds()) {
        println!(
            "  per CPU second of this thread: {:.0}/s",
            n as f64 / (b - a)
        );
    }
    let t = std::time::Instant::now();
    let leaves = g.perft(&g.start(), 5);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "diamond perft(5) = {leaves} in {secs:.2}s = {:.0} leaves/s",
        leaves as f64 / secs
    );
}

#[test]
#[ignore]
fn diamond_random_game_lengths() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut total = 0u64;
    let mut hist = [0u32; 8];
    let n = 20000;
    let mut moves = Vec::new();
    for _ in 0..n {
        let mut p = g.start();
        let mut plies = 0;
        loop {
            if g.terminal(&p).is_some() {
                break;
            }
            moves.clear();
            g.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            p = g.make(&p, moves[rng.gen_range(0..moves.len())]);
            plies += 1;
            if plies > 5000 {
                break;
            }
        }
        total += plies;
        hist[(plies as usize / 50).min(7)] += 1;
    }
    println!("avg plies {} hist {:?}", total as f64 / n as f64, hist);
}

#[test]
#[ignore]
fn diamond_show_board() {
    let p = setup(
        "f3 c5 b6 a5 d6",
        "e3 g3 g4 e5 f5 e2 f2",
        "b2",
        'w',
        [0, 0],
        0,
    );
    println!("{}", Diamond.render(&p));
}

/// Plays `games` games of a `depth`-ply search against uniformly random moves, alternating
/// colours; returns (search wins, draws, losses).
fn search_vs_random(depth: u32, games: u32, seed: u64) -> (u32, u32, u32) {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = (0, 0, 0);
    for i in 0..games {
        let engine = (i % 2) as usize;
        let mut p = g.start();
        let mut tracker = DrawTracker::new(p.hash);
        let result = loop {
            if let Some(t) = outcome(&g, &p, &tracker) {
                break t.outcome;
            }
            let mut moves = Vec::new();
            g.legal_moves(&p, &mut moves);
            let m = if p.stm == engine {
                negamax(&g, &p, depth, -100_000, 100_000).1.unwrap()
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            let progress = g.is_progress(&p, m);
            p = g.make(&p, m);
            tracker.push(p.hash, progress);
        };
        match result {
            Outcome::Draw => tally.1 += 1,
            Outcome::Win(s) if s.index() == engine => tally.0 += 1,
            Outcome::Win(_) => tally.2 += 1,
        }
    }
    tally
}

#[test]
fn one_ply_search_beats_random_play() {
    let (w, d, l) = search_vs_random(1, 20, 4);
    assert!(w >= 18 && l == 0, "{w} {d} {l}");
}

#[test]
#[ignore]
fn diamond_search_vs_random() {
    for depth in 1..=3 {
        println!("depth {depth}: {:?}", search_vs_random(depth, 20, 8));
    }
}

#[test]
#[ignore]
fn diamond_deeper_beats_shallower() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(21);
    let (deep, shallow) = (3, 1);
    let mut tally = (0, 0, 0);
    for i in 0..20 {
        let deep_side = i % 2;
        let mut p = g.start();
        // Two random opening placements (no swap) so that the games differ.
        for _ in 0..2 {
            let e: Vec<usize> = Bits(p.empty()).collect();
            p = g.make(&p, Move::Place(e[rng.gen_range(0..e.len())] as u8));
        }
        let mut tracker = DrawTracker::new(p.hash);
        let mut plies = 0;
        let result = loop {
            if let Some(t) = outcome(&g, &p, &tracker) {
                break t.outcome;
            }
            let d = if p.stm == deep_side { deep } else { shallow };
            let m = negamax(&g, &p, d, -100_000, 100_000).1.unwrap();
            let progress = g.is_progress(&p, m);
            p = g.make(&p, m);
            tracker.push(p.hash, progress);
            plies += 1;
        };
        match result {
            Outcome::Draw => tally.1 += 1,
            Outcome::Win(s) if s.index() == deep_side => tally.0 += 1,
            Outcome::Win(_) => tally.2 += 1,
        }
        println!("game {i}: {result:?} after {plies} plies (deep plays {deep_side})");
    }
    println!("depth {deep} vs {shallow}: {tally:?}");
}
