//! Rule tests: the rule text's examples, placement and attack conditions, notation, position
//! strings and the diagram; the advanced rules in `advanced.rs`, random input in
//! `robustness.rs`, the data file in `data.rs`, the exact solver in `solver.rs`, the fast rules
//! against the plain ones in `cross.rs`.

use super::board::{parse_point, rotate_point, Geometry};
use super::position::{BLACK, WHITE};
use super::*;
use crate::games::{outcome, DrawTracker, EVAL_LIMIT};
use rand::{Rng, SeedableRng};

mod advanced;
mod cross;
mod data;
mod dfpn;
mod proofs;
mod robustness;
mod solver;

pub fn game(advanced: bool) -> Pods {
    Pods::new(if advanced {
        PodsRules::Advanced
    } else {
        PodsRules::Standard
    })
}

pub fn at(g: &Pods, text: &str) -> Pos {
    match g.parse_position(text) {
        Ok(p) => p,
        Err(e) => panic!("{text}: {e}"),
    }
}

pub fn move_strings(g: &Pods, pos: &Pos) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(pos, &mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| g.format_move(pos, m)).collect();
    out.sort();
    out
}

fn mv(g: &Pods, pos: &Pos, text: &str) -> PodsMove {
    match g.parse_move(pos, text) {
        Ok(m) => m,
        Err(e) => panic!("{text} in {}: {e}", g.format_position(pos)),
    }
}

fn play(g: &Pods, pos: &Pos, text: &str) -> Pos {
    g.make(pos, mv(g, pos, text))
}

fn illegal_because(g: &Pods, pos: &Pos, text: &str, why: &str) {
    match g.parse_move(pos, text) {
        Err(RuleError::Illegal(msg)) => assert!(msg.contains(why), "{text}: '{msg}' lacks '{why}'"),
        other => panic!("{text}: expected illegal ({why}), got {other:?}"),
    }
}

fn pt(name: &str) -> usize {
    parse_point(name).unwrap_or(usize::MAX)
}

/// Random games (seeded), every position visited, for both the fast and the plain rules.
/// A number or text from the environment, for the measurements run by hand.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The engine's own line from `pos` to the end (depth-3 search, so the same every run), with
/// `pos` first.
pub fn searched_line(g: &Pods, mut pos: Pos) -> Vec<Pos> {
    let mut line = vec![pos];
    let mut moves = vec![];
    loop {
        moves.clear();
        g.legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            return line;
        }
        let best = crate::testkit::search(g, &pos, 3).best.unwrap_or(moves[0]);
        pos = g.make(&pos, best);
        line.push(pos);
    }
}

pub fn random_positions(g: &Pods, seed: u64, games: usize, max_plies: usize) -> Vec<Pos> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Pos::start(rng.gen_range(0..4));
        for _ in 0..max_plies {
            out.push(pos);
            if g.terminal(&pos).is_some() {
                break;
            }
            let mut moves = Vec::new();
            g.legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            pos = g.make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn names_and_sides() {
    assert_eq!(game(false).name(), "pods-standard");
    assert_eq!(game(true).name(), "pods-advanced");
    assert_eq!(game(true).side_names(), ["white", "black"]);
    let g = game(false);
    let p = at(&g, "6/6/6/6/6/6 b ABCDEFGHIJKLMN abcdefghijklmn 0");
    assert_eq!(g.side_to_move(&p), Side::P2);
}

#[test]
fn start_position_string_and_rotations() {
    let g = game(false);
    assert_eq!(
        g.format_position(&g.start()),
        "6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn 0"
    );
    for deg in [0, 90, 180, 270] {
        let s = Pods::start_string(deg).unwrap_or_default();
        assert!(s.ends_with(&format!(" {deg}")), "{s}");
        assert_eq!(g.format_position(&at(&g, &s)), s);
    }
    assert!(Pods::start_string(45).is_none());
    let mut g = game(true);
    assert_eq!(g.set_option("pods_rotation", "270"), Ok(true));
    assert!(g.format_position(&g.start()).ends_with(" 270"));
    assert!(matches!(
        g.set_option("pods_rotation", "45"),
        Err(RuleError::Option(_))
    ));
    assert_eq!(g.set_option("no_such_option", "1"), Ok(false));
}

#[test]
fn first_move_must_be_a_bipod_in_both_rule_sets() {
    for adv in [false, true] {
        let g = game(adv);
        let start = g.start();
        let moves = move_strings(&g, &start);
        assert!(!moves.is_empty());
        assert!(moves
            .iter()
            .all(|m| m.starts_with("A@") || m.starts_with("B@")));
        illegal_because(&g, &start, "C@c3", "bipod");
    }
    // Black is not bound by it.
    let g = game(false);
    let after = play(&g, &g.start(), "A@c3");
    assert!(move_strings(&g, &after).iter().any(|m| m.starts_with("N@")));
}

#[test]
fn bipod_on_a2_has_both_legs_blocked() {
    // Rule text: no point west of a2, and no line a2-b2.
    let g = game(false);
    let start = g.start();
    illegal_because(&g, &start, "A@a2", "blocked");
    illegal_because(&g, &start, "B@a2", "blocked");
    // b2: the west leg is cut by the missing line, the east leg is free.
    assert!(g.parse_move(&start, "A@b2").is_ok());
    // Advanced: the placement is legal and the pod goes straight back to hand.
    let g = game(true);
    let after = play(&g, &g.start(), "A@a2");
    assert_eq!(
        g.format_position(&after),
        "6/6/6/6/6/6 b ABCDEFGHIJKLMN abcdefghijklmn 0"
    );
    assert!(g.terminal(&after).is_none());
}

#[test]
fn tripod_on_c2_needs_one_free_leg() {
    // C: E long, SW short, NW short. On c2 the SW line (b1-c2) is missing; pods on d2 and b3
    // block the other two legs, so it may not be placed.
    let g = game(false);
    let p = at(&g, "6/6/6/1F4/3E2/6 w ABCDGHIJKLMN abcdefghijklmn 0");
    illegal_because(&g, &p, "C@c2", "blocked");
    // Only the adjacent point matters: with d2 empty the long east leg is free.
    let p = at(&g, "6/6/6/1F4/4E1/6 w ABCDGHIJKLMN abcdefghijklmn 0");
    assert!(g.parse_move(&p, "C@c2").is_ok());
    // D (W long, NE short, SE short) on c2 with b2 and d1 taken: the NE leg is free.
    let p = at(&g, "6/6/6/6/1F4/3E2 w ABCDGHIJKLMN abcdefghijklmn 0");
    assert!(g.parse_move(&p, "D@c2").is_ok());
    let p = at(&g, "6/6/6/3G2/1F4/3E2 w ABCDHIJKLMN abcdefghijklmn 0");
    illegal_because(&g, &p, "D@c2", "blocked");
    // Advanced ignores the condition; the blocked pod returns to hand.
    let ga = game(true);
    let p = at(&ga, "6/6/6/1F4/3E2/6 w ABCDGHIJKLMN abcdefghijklmn 0");
    let after = play(&ga, &p, "C@c2");
    assert_eq!(
        ga.format_position(&after),
        "6/6/6/1F4/3E2/6 b ABCDGHIJKLMN abcdefghijklmn 0"
    );
}

#[test]
fn black_pods_are_white_pods_turned() {
    let g = game(false);
    let t = &g.tables;
    for letter in 0..14 {
        let w = t.legs[WHITE][letter];
        let b = t.legs[BLACK][letter];
        assert_eq!(b.all, w.all.rotate_left(4));
        assert_eq!(b.long, w.long.rotate_left(4));
    }
    // A: W short, E long for White; a: E short, W long for Black.
    let geo = &t.geo[0];
    let empty = 0;
    let white_a = t.attacks_from(geo, WHITE, 0, pt("c3"), empty);
    let black_a = t.attacks_from(geo, BLACK, 0, pt("c3"), empty);
    let set = |names: &[&str]| names.iter().fold(0u64, |m, n| m | 1 << pt(n));
    assert_eq!(white_a, set(&["b3", "d3"]));
    assert_eq!(black_a, set(&["b3", "a3", "d3"]));
}

#[test]
fn attack_rays_stop_at_the_first_pod_and_at_missing_lines() {
    let g = game(false);
    let t = &g.tables;
    let geo = &t.geo[0];
    let set = |names: &[&str]| names.iter().fold(0u64, |m, n| m | 1 << pt(n));
    // Black a on f4: long leg west along row 4 until b4-c4 (missing); short leg east: edge.
    assert_eq!(
        t.attacks_from(geo, BLACK, 0, pt("f4"), 0),
        set(&["e4", "d4", "c4"])
    );
    // A pod on d4 (either colour) ends the walk there, itself included.
    let occ = set(&["d4"]);
    assert_eq!(
        t.attacks_from(geo, BLACK, 0, pt("f4"), occ),
        set(&["e4", "d4"])
    );
    // In play: with Black's f on d4, c4 is no longer attacked and D may go there.
    let blocked = at(&g, "6/6/3f1a/6/6/6 w ABCDEFGHIJKLMN bcdeghijklmn 0");
    assert_eq!(t.attacks(&blocked, BLACK) & set(&["c4"]), 0);
    assert!(g.parse_move(&blocked, "D@c4").is_ok());
    illegal_because(&g, &blocked, "D@e4", "attacked");
    let open = at(&g, "6/6/5a/6/6/6 w ABCDEFGHIJKLMN bcdefghijklmn 0");
    illegal_because(&g, &open, "D@c4", "attacked");
}

#[test]
fn placement_may_not_attack_an_enemy_pod() {
    let g = game(false);
    // Black f on e1 attacks only e2 and f1. White A on a1 would reach e1 along row 1.
    let p = at(&g, "6/6/6/6/6/4f1 w ABCDEFGHIJKLMN abcdeghijklmn 0");
    illegal_because(&g, &p, "A@a1", "attack an enemy pod");
    // An own pod on c1 ends the walk first.
    let p = at(&g, "6/6/6/6/6/2G1f1 w ABCDEFHIJKLMN abcdeghijklmn 0");
    assert!(g.parse_move(&p, "A@a1").is_ok());
    // A short leg reaches only the adjacent point: B's east leg on c1 stops at d1.
    let p = at(&g, "6/6/6/6/6/4f1 w ABCDEFGHIJKLMN abcdeghijklmn 0");
    assert!(g.parse_move(&p, "B@c1").is_ok());
    illegal_because(&g, &p, "A@c1", "attack an enemy pod");
}

#[test]
fn standard_player_without_placement_loses() {
    let g = game(false);
    // Empty hand: no placement.
    let p = at(&g, "ABCDEF/GHIJKL/MN4/6/6/6 w - abcdefghijklmn 0");
    assert!(move_strings(&g, &p).is_empty());
    let t = outcome(&g, &p, &DrawTracker::new(g.hash(&p)));
    assert_eq!(t, Some(Terminal::new(Outcome::Win(Side::P2), "no-moves")));
    assert!(g.terminal(&p).is_none());
    // Natural game ends: the side to move has no placement and loses; pods never leave.
    let mut ends = 0;
    for pos in random_positions(&g, 7, 6, 40) {
        if move_strings(&g, &pos).is_empty() {
            ends += 1;
            assert_eq!(
                g.no_moves(&pos).outcome,
                Outcome::Win(g.side_to_move(&pos).other())
            );
            let on_board = (pos.occ[0] | pos.occ[1]).count_ones();
            let in_hand = pos.hand[0].count_ones() + pos.hand[1].count_ones();
            assert_eq!(on_board + in_hand, 28);
        }
    }
    assert_eq!(ends, 6);
}

#[test]
fn rotation_turns_only_the_lines() {
    // (x, y) -> (5 - y, x) per quarter turn: a1 -> f1, b1 -> f2, f6 -> a6.
    assert_eq!(rotate_point(pt("a1"), 1), pt("f1"));
    assert_eq!(rotate_point(pt("b1"), 1), pt("f2"));
    assert_eq!(rotate_point(pt("f6"), 1), pt("a6"));
    for p in 0..36 {
        assert_eq!(rotate_point(p, 4), p);
        assert_eq!(rotate_point(rotate_point(p, 1), 3), p);
    }
    let g = game(false);
    let missing = &g.data().missing;
    let joined = |geo: &Geometry, a: &str, b: &str| {
        (0..8).any(|d| geo.conn[pt(a)] & (1 << d) != 0 && usize::from(geo.nbr[pt(a)][d]) == pt(b))
    };
    let r0 = Geometry::new(missing, 0);
    let r90 = Geometry::new(missing, 1);
    let r180 = Geometry::new(missing, 2);
    assert!(!joined(&r0, "a2", "b2"));
    // a2-b2 turned by 90 is e1-e2, by 180 f5-e5.
    assert!(joined(&r90, "a2", "b2"));
    assert!(!joined(&r90, "e1", "e2"));
    assert!(!joined(&r180, "e5", "f5"));
    // Every rotation lacks exactly the 12 lines (24 directed links) of the data.
    for r in 0..4 {
        let geo = Geometry::new(missing, r);
        let links: u32 = geo.conn.iter().map(|c| c.count_ones()).sum();
        let all_links = 2 * (2 * 30 + 2 * 25);
        assert_eq!(links, all_links - 24);
    }
    // Rotation is part of the position: same pods, different rotation, different hash and moves.
    let a = at(&g, "6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn 0");
    let b = at(&g, "6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn 90");
    assert_ne!(g.hash(&a), g.hash(&b));
    assert!(move_strings(&g, &a).contains(&"A@f3".to_string()));
    assert!(!move_strings(&g, &b).contains(&"A@f3".to_string()));
}

#[test]
fn notation_parses_leniently_and_round_trips() {
    let g = game(true);
    let start = g.start();
    assert_eq!(
        g.parse_move(&start, "a@C3"),
        Ok(PodsMove::Place {
            pod: 0,
            to: pt("c3") as u8
        })
    );
    assert_eq!(
        g.parse_move(&start, "  B@f6 "),
        Ok(PodsMove::Place {
            pod: 1,
            to: pt("f6") as u8
        })
    );
    for bad in [
        "", "A", "A@", "@c3", "A@g7", "Q@c3", "AB@c3", "c3-", "c9-c3", "x",
    ] {
        assert!(
            matches!(g.parse_move(&start, bad), Err(RuleError::Syntax(..))),
            "{bad}"
        );
    }
    let p = at(&g, "6/6/6/2M3/6/6 w ABCDEFGHIJKL abcdefghijklmn 0");
    assert_eq!(
        g.parse_move(&p, "c3c5"),
        Ok(PodsMove::Step {
            from: pt("c3") as u8,
            to: pt("c5") as u8
        })
    );
    illegal_because(&g, &p, "c3-e4", "cannot reach");
    illegal_because(&g, &p, "d3-d4", "no pod");
    illegal_because(&g, &p, "M@a1", "not in hand");
    illegal_because(&game(false), &p, "c3-c4", "never move");
    for adv in [false, true] {
        let g = game(adv);
        for pos in random_positions(&g, 11, 4, 60) {
            let mut moves = Vec::new();
            g.legal_moves(&pos, &mut moves);
            for &m in &moves {
                let text = g.format_move(&pos, m);
                assert_eq!(g.parse_move(&pos, &text), Ok(m), "{text}");
                assert_eq!(g.parse_move(&pos, &text.to_lowercase()), Ok(m), "{text}");
            }
        }
    }
}

#[test]
fn position_strings_round_trip_and_hash_is_incremental() {
    for adv in [false, true] {
        let g = game(adv);
        let mut moves = Vec::new();
        for pos in random_positions(&g, 5, 6, 80) {
            // Position and move round trips, distinct move names, the move-listing variants.
            crate::testkit::check_position(&g, &pos, &mut moves);
            assert_eq!(pos.hash, pos.compute_hash());
        }
    }
}

#[test]
fn malformed_position_strings_are_rejected() {
    let g = game(false);
    for bad in [
        "",
        "6/6/6/6/6 w - - 0",
        "6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn",
        "6/6/6/6/6/7 w - - 0",
        "6/6/6/6/6/5 w - - 0",
        "6/6/6/6/6/A1A4 w - - 0",
        "6/6/6/6/6/A5 w A - 0",
        "6/6/6/6/6/6 w abc - 0",
        "6/6/6/6/6/6 w - ABC 0",
        "6/6/6/6/6/6 x - - 0",
        "6/6/6/6/6/6 w - - 45",
        "6/6/6/6/6/O5 w - - 0",
        "6/6/6/6/6/6 w AA - 0",
        "6/6/6/6/6/6é w - - 0",
    ] {
        assert!(
            matches!(g.parse_position(bad), Err(RuleError::InvalidPosition(_))),
            "accepted '{bad}'"
        );
    }
}

#[test]
fn render_has_no_empty_lines_and_shows_lines_and_pods() {
    let g = game(false);
    let p = at(&g, "6/6/6/6/6/Ab4 w BCDEFGHIJKLMN acdefghijklmn 0");
    let r = g.render(&p);
    assert!(r.lines().all(|l| !l.trim().is_empty()), "{r}");
    let row2 = r.lines().find(|l| l.starts_with("2 ")).unwrap_or_default();
    let row1 = r.lines().find(|l| l.starts_with("1 ")).unwrap_or_default();
    // a2-b2 is missing, b2-c2 is not.
    assert!(row2.starts_with("2  .   . - ."), "{row2}");
    assert!(row1.starts_with("1  A - b"), "{row1}");
    assert!(r.contains("white hand: BCDEFGHIJKLMN"));
}

#[test]
fn evaluation_stays_in_bounds_and_points_the_right_way() {
    for adv in [false, true] {
        let g = game(adv);
        for pos in random_positions(&g, 3, 6, 60) {
            let v = g.evaluate(&pos);
            assert!(v.abs() < EVAL_LIMIT);
        }
    }
    // Standard: the side to move that cannot place while the opponent can is worse off.
    let g = game(false);
    let mut checked = 0;
    for pos in random_positions(&g, 9, 10, 40) {
        let mine = g.tables.count_moves(&pos, usize::from(pos.side), false);
        let theirs = g.tables.count_moves(&pos, usize::from(pos.side ^ 1), false);
        if mine == 0 && theirs > 0 {
            assert!(g.evaluate(&pos) < 0);
            checked += 1;
        }
        if mine > 0 && theirs == 0 {
            assert!(g.evaluate(&pos) > 0);
            checked += 1;
        }
    }
    assert!(checked > 0);
    // Advanced: fewer pods left in hand is better.
    let g = game(true);
    let near = at(&g, "6/6/6/6/6/6 w A abcdefghijklmn 0");
    let far = at(&g, "6/6/6/6/6/6 b A abcdefghijklmn 0");
    assert!(g.evaluate(&near) > 300);
    assert!(g.evaluate(&far) < -300);
}

#[test]
fn advanced_last_pod_placed_for_good_is_a_win_now() {
    use crate::games::tune::Tunable;
    let g = game(true);
    // White's last pod, the bipod A, stays on c3 (both legs free) but not on a2 (no point to
    // the west, no line to b2): placed there it is blocked and returns to hand.
    let win = at(&g, "6/6/6/6/6/6 w A abcdefghijklmn 0");
    assert_eq!(g.evaluate(&win), eval::WIN_NOW);
    assert_eq!(g.features(&win), None);
    let hint = |text: &str| g.order_hint(&win, mv(&g, &win, text));
    assert!(hint("A@a2") < 0);
    assert!(hint("A@c3") >= 100_000);
    // The same with Black to move: White threatens to win on more points than one Black move
    // can take away.
    let lost = at(&g, "6/6/6/6/6/6 b A abcdefghijklmn 0");
    assert_eq!(g.evaluate(&lost), -eval::WIN_NOW);
    assert_eq!(g.features(&lost), None);
    // With more than one pod in hand nothing is decided yet.
    let open = at(&g, "6/6/6/6/6/6 w AB abcdefghijklmn 0");
    assert!(g.features(&open).is_some());
    assert!(g.order_hint(&open, mv(&g, &open, "A@c3")) < 100_000);
}
