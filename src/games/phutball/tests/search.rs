//! Evaluation, selective move lists, and the tactical suites.

use super::*;

#[test]
fn evaluation_is_symmetric_and_bounded() {
    let game = g();
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..300 {
        let p = random_pos(&mut rng, 0.12);
        if game.terminal(&p).is_some() {
            continue;
        }
        // Mirror rows and swap the side: the same position for the other player.
        let mut men = Bits::EMPTY;
        for q in p.men.iter() {
            men.set(point(q % 15, 20 - q / 15));
        }
        let b = p.ball as usize;
        let m = Pos::new(men, point(b % 15, 20 - b / 15) as u16, p.side.other());
        let (e, em) = (game.evaluate(&p), game.evaluate(&m));
        assert_eq!(e, em, "{}", game.format_position(&p));
        assert!(e.abs() < EVAL_LIMIT);
    }
    // Near even, not decided: the learned weights are fitted on positions ten random plies and
    // more from the start, and the empty board, never in their data, evaluates at -135 for the
    // side to move (docs/strength/phutball.md, "The learned weights fitted on 1,500 varied
    // games").
    let e = game.evaluate(&game.start());
    assert!(e.abs() < 200, "{e}");
}

#[test]
fn evaluation_prefers_a_ladder_towards_the_goal() {
    let game = g();
    // Red to move; Red's men lead up from the ball; Blue needs placements all the way.
    let ahead = pos("h10", "h11 h13 h15 h17", 'r');
    let behind = pos("h10", "h9 h7 h5", 'r');
    assert!(game.evaluate(&ahead) > game.evaluate(&behind) + 200);
    assert_eq!(crate::games::phutball::eval::distance(&ahead, Side::P1), 1);
    assert_eq!(
        crate::games::phutball::eval::distance(&g().start(), Side::P1),
        5
    );
    assert_eq!(
        crate::games::phutball::eval::distance(&g().start(), Side::P2),
        5
    );
}

#[test]
fn search_lists_follow_the_tactics() {
    let game = g();
    // Red can score: h16 over h17, h18 to h19.
    let win = pos("h16", "h17 h18 c5", 'r');
    let mut v = Vec::new();
    game.search_moves(&win, &mut v);
    assert_eq!(v.len(), 1);
    assert!(game.terminal(&game.make(&win, v[0])).is_some());
    assert_eq!(game.evaluate(&win), crate::games::phutball::WIN_NOW);
    v.clear();
    game.root_moves(&win, &mut v);
    assert_eq!(v.len(), 1);
    // Blue to move, Red threatens c16-a18-a20: a man on a18 makes the first jump leave the board.
    let threat = pos("c16", "b17 a19 k5", 'b');
    assert!(game.threat(&threat).is_some());
    v.clear();
    game.search_moves(&threat, &mut v);
    assert!(v.contains(&Move::Place(point(0, 18) as u16)), "{v:?}");
    assert!(v.len() < 10, "{v:?}");
    for &m in &v {
        let child = game.make(&threat, m);
        assert!(game.winning_move(&child).is_none());
    }
    // Quiet: root gets everything, inner nodes a subset that still has moves near the ball.
    let quiet = pos("h10", "h11 c5", 'b');
    v.clear();
    game.root_moves(&quiet, &mut v);
    assert_eq!(v.len(), game.perft(&quiet, 1) as usize);
    v.clear();
    game.search_moves(&quiet, &mut v);
    assert!(v.len() < 80 && v.len() > 10, "{}", v.len());
    assert!(v.contains(&Move::Place(point(7, 9) as u16)));
}

#[test]
fn unstoppable_threat_evaluates_as_lost() {
    let game = g();
    // Red threatens h16-h19 and h16-j18-j20. A man on h19 leaves the second, one on j18 makes
    // h16-k19; Blue's own ball moves end on his goal or leave j18-j20 to Red.
    let p = pos("h16", "h17 h18 i17 j19", 'b');
    assert!(game.threat(&p).is_some());
    assert!(game.winning_move(&p).is_none());
    assert!(game.threat_stoppers(&p).is_empty());
    assert_eq!(game.evaluate(&p), -crate::games::phutball::WIN_NOW);
    let mut v = Vec::new();
    game.search_moves(&p, &mut v);
    assert_eq!(v.len(), 1);
    v.clear();
    game.root_moves(&p, &mut v);
    assert_eq!(v.len() as u64, game.perft(&p, 1));
    // Every Blue move indeed loses at once (brute force over Red's replies).
    for &m in &v {
        let c = game.make(&p, m);
        let lost_now = game.terminal(&c).is_some();
        let mut replies = Vec::new();
        game.legal_moves(&c, &mut replies);
        let red_scores = replies.iter().any(|&r| {
            game.terminal(&game.make(&c, r)).map(|t| t.outcome) == Some(Outcome::Win(Side::P1))
        });
        assert!(lost_now || red_scores, "{}", game.format_move(&p, m));
    }
}

#[test]
fn score_in_one_suite() {
    let game = g();
    let suite = &*crate::games::phutball::suites::SCORE_IN_ONE;
    assert!(suite.len() >= 30);
    assert!(suite.iter().filter(|s| s.min_jumps >= 4).count() >= 10);
    assert!(suite.iter().filter(|s| s.own_goal_trap).count() >= 4);
    for s in suite {
        crate::games::phutball::suites::check_score_in_one(&game, s).unwrap();
        // Search gets exactly the winning move, and the evaluation knows.
        let p = game.parse_position(s.position).unwrap();
        let mut v = Vec::new();
        game.search_moves(&p, &mut v);
        assert_eq!(v.len(), 1, "{}", s.name);
        assert!(game.terminal(&game.make(&p, v[0])).is_some(), "{}", s.name);
        assert_eq!(
            game.evaluate(&p),
            crate::games::phutball::WIN_NOW,
            "{}",
            s.name
        );
    }
    let sides: BTreeSet<_> = suite
        .iter()
        .map(|s| crate::games::phutball::suites::side_of(&game, s.position) == Some(Side::P1))
        .collect();
    assert_eq!(sides.len(), 2, "both colours appear");
}

#[test]
fn stop_the_threat_suite() {
    let game = g();
    let suite = &*crate::games::phutball::suites::STOP_THE_THREAT;
    assert!(suite.len() >= 30);
    for s in suite {
        crate::games::phutball::suites::check_stop_the_threat(&game, s).unwrap();
        let p = game.parse_position(s.position).unwrap();
        // The stopper set is exact: a legal move is in it iff no reply scores.
        let stoppers = game.threat_stoppers(&p);
        let mut moves = Vec::new();
        game.legal_moves(&p, &mut moves);
        for &m in &moves {
            assert_eq!(
                stoppers.contains(&m),
                crate::games::phutball::suites::stops_threat(&game, &p, m),
                "{}: {}",
                s.name,
                game.format_move(&p, m)
            );
        }
        // Search looks at the stoppers only, and the position is not scored as lost.
        let mut v = Vec::new();
        game.search_moves(&p, &mut v);
        let (a, b): (BTreeSet<_>, BTreeSet<_>) = (
            v.iter().map(|&m| game.format_move(&p, m)).collect(),
            stoppers.iter().map(|&m| game.format_move(&p, m)).collect(),
        );
        assert_eq!(a, b, "{}", s.name);
        assert!(
            game.evaluate(&p) > -crate::games::phutball::WIN_NOW,
            "{}",
            s.name
        );
    }
}

#[test]
fn set_based_distances_match_the_point_by_point_search() {
    use crate::games::phutball::eval::{
        distances, distances_and_paths, distances_point_by_point, race, reach_point_by_point,
        MAX_DIST,
    };
    let mut rng = SmallRng::seed_from_u64(41);
    let mut seen = BTreeSet::new();
    let (mut paths_checked, mut paths_won) = (0u32, 0u32);
    let mut reach_one_differs = false;
    for i in 0..3_000 {
        let density = [0.0, 0.02, 0.06, 0.12, 0.25, 0.45, 0.7][i % 7];
        let p = random_pos(&mut rng, density);
        let text = g().format_position(&p);
        let want = distances_point_by_point(&p);
        assert_eq!(distances(&p, None), want, "{text}");
        let (d, paths) = distances_and_paths(&p);
        assert_eq!(d, want, "{text}");
        let race = race(&p);
        assert_eq!(race.dist, want, "{text}");
        let plain = reach_point_by_point(&p);
        for (s, (got, expected)) in race.reach.iter().zip(plain).enumerate() {
            assert_eq!(got[0], expected[0], "{text} side {s}");
            if want.iter().all(|&d| d > 0) {
                assert_eq!(got[1], expected[1], "{text} side {s}");
                reach_one_differs |= expected[1] != expected[0];
            }
        }
        for s in 0..2 {
            let gaps = paths[s];
            if d[s] > MAX_DIST as u32 {
                assert!(gaps.is_empty(), "{text}");
                continue;
            }
            // One gap per placement, all on free points; with men there the race is won
            // (unless the path lands where it earlier passed a gap: the model allows that).
            assert_eq!(gaps.count(), d[s], "{text} side {s}");
            assert!(gaps.is_subset(&PLACEABLE.andnot(&p.men)), "{text}");
            let filled = Pos::new(p.men.or(&gaps), p.ball, p.side);
            paths_checked += 1;
            paths_won += u32::from(distances(&filled, None)[s] == 0);
        }
        seen.extend(want);
    }
    // Races of every length from 0 to far occur.
    assert!(seen.contains(&0) && seen.len() >= 8, "{seen:?}");
    // A placement carries the ball further than the men alone somewhere.
    assert!(reach_one_differs);
    assert!(
        paths_won * 100 >= paths_checked * 95,
        "{paths_won} of {paths_checked}"
    );
}
