//! The rules: moves, jumps, goals, repetition, move identity.

use super::*;

#[test]
fn start_position_and_284_moves() {
    let s = g().start();
    assert_eq!(g().format_position(&s), START);
    assert_eq!(g().parse_position(START).unwrap(), s);
    let mut v = Vec::new();
    g().legal_moves(&s, &mut v);
    assert_eq!(v.len(), 284);
    assert!(v.iter().all(|m| matches!(m, Move::Place(_))));
    assert_eq!(g().side_to_move(&s), Side::P1);
    assert_eq!(g().terminal(&s), None);
}

#[test]
fn perft_reference_counts() {
    let s = g().start();
    assert_eq!(g().perft(&s, 1), 284);
    assert_eq!(g().perft(&s, 2), 80380);
    assert_eq!(g().perft(&s, 3), 22_671_816);
}

#[test]
fn single_and_multi_jumps() {
    // Over one man, over a run of three, then on: h10 over h11 to h12, over h13-h15 to h16.
    let p = pos("h10", "h11 h13 h14 h15", 'r');
    let j = jump_strings(&p);
    assert_eq!(
        j,
        ["h10-h12", "h10-h12-h16"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    let after = play(&p, "h10-h12-h16");
    assert_eq!(after.ball, point(7, 16) as u16);
    assert!(after.men.is_empty(), "jumped men are removed");
    assert_eq!(after.side, Side::P2);
    // Diagonal chains with a turn, and a jump in each of the 8 directions from one point.
    let p = pos("h10", "i11 k13 g9 g10 g11 h9 h11 i9 i10", 'b');
    let j = jump_strings(&p);
    for s in [
        "h10-h12",
        "h10-h8",
        "h10-f10",
        "h10-j10",
        "h10-f12",
        "h10-f8",
        "h10-j8",
        "h10-j12",
        "h10-j12-l14",
    ] {
        assert!(j.contains(s), "{s} missing from {j:?}");
    }
}

#[test]
fn a_man_removed_mid_chain_opens_a_landing_point() {
    // h8 over h9 to h10, over h11-h12 to h13, over i13 to j13, over j12 to j11, and from j11
    // south-west over i10: h9 is empty now, so the ball lands there (not on g8).
    let p = pos("h8", "h9 h11 h12 i13 j12 i10", 'r');
    let m = g().parse_move(&p, "h8-h10-h13-j13-j11-h9").unwrap();
    let mut v = Vec::new();
    g().legal_moves(&p, &mut v);
    assert!(v.contains(&m));
    let after = g().make(&p, m);
    assert_eq!(after.ball, point(7, 9) as u16);
    assert!(after.men.is_empty());
    // With h9 still standing, the same jump runs on to g8.
    let q = pos("j11", "i10 h9", 'r');
    assert_eq!(
        jump_strings(&q),
        ["j11-g8".to_string()].into_iter().collect()
    );
}

#[test]
fn chains_pass_through_goal_rows_and_come_back() {
    // Blue's ball goes over h19 to h20 (behind Blue's goal) and comes back over i19 to j18.
    let p = pos("h18", "h19 i19", 'b');
    let j = jump_strings(&p);
    assert!(j.contains("h18-h20"));
    assert!(j.contains("h18-h20-j18"));
    let stop = play(&p, "h18-h20");
    assert_eq!(
        g().terminal(&stop).map(|t| t.outcome),
        Some(Outcome::Win(Side::P1)),
        "ending behind one's own goal loses"
    );
    let back = play(&p, "h18-h20-j18");
    assert_eq!(g().terminal(&back), None, "nothing is decided mid-chain");
    // Red through rows 1 and 0 and back: h3 over h2, h1 to h0, then over i1 to j2.
    let p = pos("h3", "h2 h1 i1", 'r');
    let j = jump_strings(&p);
    assert!(j.contains("h3-h0"));
    assert!(j.contains("h3-h0-j2"));
    assert_eq!(
        g().terminal(&play(&p, "h3-h0")).map(|t| t.outcome),
        Some(Outcome::Win(Side::P2))
    );
    assert_eq!(g().terminal(&play(&p, "h3-h0-j2")), None);
    // Landing on a goal line itself (row 1 / row 19) decides too.
    let p = pos("h17", "h18", 'r');
    let t = g().terminal(&play(&p, "h17-h19")).unwrap();
    assert_eq!((t.outcome, t.reason), (Outcome::Win(Side::P1), "goal"));
}

#[test]
fn jumps_off_the_board_are_illegal() {
    // West from b10 over a10, diagonally off the side, and over a run reaching the edge.
    let p = pos("b10", "a10 a11 a9", 'r');
    assert!(jump_strings(&p).is_empty());
    let p = pos("h10", "i10 j10 k10 l10 m10 n10 o10", 'r');
    assert!(jump_strings(&p).is_empty());
    assert!(matches!(
        g().parse_move(&p, "h10-p10"),
        Err(RuleError::Syntax(..))
    ));
    // Over the top: from h20 there is nothing above; from h19-row men a jump lands on row 20.
    let p = pos("h18", "h19", 'r');
    assert_eq!(jump_strings(&p).len(), 1);
    // Bottom corner: the ball on a1 region is terminal, so use b2 with men a1: SW lands off.
    let p = pos("b2", "a1", 'b');
    assert!(jump_strings(&p).is_empty());
}

#[test]
fn men_never_go_on_rows_0_and_20() {
    let p = g().start();
    for s in ["h0", "a20", "o0"] {
        assert!(matches!(g().parse_move(&p, s), Err(RuleError::Illegal(_))));
    }
    assert!(g().parse_move(&p, "h1").is_ok());
    assert!(g().parse_move(&p, "h19").is_ok());
    assert!(matches!(
        g().parse_move(&p, "h10"),
        Err(RuleError::Illegal(_))
    ));
    let bad = "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/X14 r";
    assert!(g().parse_position(bad).is_err());
}

#[test]
fn own_goals_lose() {
    // Red jumps down onto its own goal line: Blue wins.
    let p = pos("h3", "h2", 'r');
    let after = play(&p, "h3-h1");
    assert_eq!(
        g().terminal(&after).map(|t| t.outcome),
        Some(Outcome::Win(Side::P2))
    );
    // Blue onto row 19.
    let p = pos("c17", "c18", 'b');
    let after = play(&p, "c17-c19");
    assert_eq!(
        g().terminal(&after).map(|t| t.outcome),
        Some(Outcome::Win(Side::P1))
    );
    // Search never offers an own goal when other moves exist.
    let mut v = Vec::new();
    g().search_moves(&p, &mut v);
    assert!(!v
        .iter()
        .any(|&m| crate::games::phutball::tactics::is_own_goal(&p, m)));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let game = g();
    let mut p = game.start();
    let mut t = DrawTracker::new(game.hash(&p));
    for round in 0..2 {
        for mv in ["h11", "h10-h12", "h11", "h12-h10"] {
            p = play(&p, mv);
            t.push(
                game.hash(&p),
                game.is_progress(&p, game.parse_move(&p, "a5").unwrap()),
            );
            let res = outcome(&game, &p, &t);
            if round == 1 && mv == "h12-h10" {
                let r = res.expect("third occurrence of the start");
                assert_eq!((r.outcome, r.reason), (Outcome::Draw, "repetition"));
            } else {
                assert_eq!(res, None, "after {mv} in round {round}");
            }
        }
    }
    assert_eq!(p, game.start());
}

#[test]
fn move_identity_merges_paths() {
    // Four men around i11: the ball can go round the square either way and end on h10 with the
    // same men removed: one move, named by the smaller path.
    let p = pos("h10", "i10 j11 i12 h11", 'r');
    let mut v = Vec::new();
    g().legal_moves(&p, &mut v);
    let all4: Vec<_> = v
        .iter()
        .filter(|m| matches!(m, Move::Jump { removed, .. } if removed.count() == 4))
        .collect();
    assert_eq!(all4.len(), 1);
    let m = *all4[0];
    assert_eq!(g().format_move(&p, m), "h10-h12-j12-j10-h10");
    assert_eq!(g().parse_move(&p, "h10-j10-j12-h12-h10").unwrap(), m);
    assert_eq!(g().parse_move(&p, "H10-H12-J12-J10-H10").unwrap(), m);
    let after = g().make(&p, m);
    assert_eq!(after.ball, p.ball, "a ball move may end on its start point");
    assert!(after.men.is_empty());
    // Every formatted move is distinct and parses back to itself.
    let strings = formatted(&p);
    assert_eq!(strings.len(), v.len());
}

#[test]
fn shift_matches_steps_and_reach_bound_is_sound() {
    use crate::games::phutball::board::shift;
    use crate::games::phutball::board::{NONE, STEP};
    use crate::games::phutball::movegen::for_each_jump;
    use crate::games::phutball::scoring::reach_bound;
    for (d, steps) in STEP.iter().enumerate() {
        for (p, &to) in steps.iter().enumerate() {
            let mut b = Bits::EMPTY;
            b.set(p);
            let s = shift(&b, d);
            match to {
                NONE => assert!(s.is_empty(), "{d} {p}"),
                q => assert_eq!(s.iter().collect::<Vec<_>>(), vec![q as usize], "{d} {p}"),
            }
        }
    }
    let mut rng = SmallRng::seed_from_u64(3);
    for i in 0..500 {
        let p = random_pos(&mut rng, [0.1, 0.2, 0.25][i % 3]);
        let bound = reach_bound(&p.men, p.ball);
        for_each_jump(&p.men, p.ball, |to, _| assert!(bound.get(to as usize)));
    }
}
