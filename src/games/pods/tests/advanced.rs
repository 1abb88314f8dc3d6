//! The advanced rules: blocked pods removed (own ones back to the hand, the enemy's out of
//! the game) as soon as a move blocks them, the empty-hand win, and repetitions.

use super::*;

#[test]
fn advanced_own_blocked_pod_returns_to_hand() {
    let g = game(true);
    // White A on a3 has one free leg (east, b3); placing C on b3 blocks it.
    let p = at(&g, "6/6/6/A5/6/6 w BCDEFGHIJKLMN abcdefghijklmn 0");
    let after = play(&g, &p, "C@b3");
    assert_eq!(
        g.format_position(&after),
        "6/6/6/1C4/6/6 b ABDEFGHIJKLMN abcdefghijklmn 0"
    );
}

#[test]
fn advanced_blocked_enemy_pod_leaves_the_game() {
    let g = game(true);
    // Black a on a3 (only leg: east to b3); White B moves d3-b3 along its long west leg.
    let p = at(&g, "6/6/6/a2B2/6/6 w ACDEFGHIJKLMN bcdefghijklmn 0");
    assert!(g.is_progress(&p, mv(&g, &p, "d3-b3")));
    let after = play(&g, &p, "d3-b3");
    assert_eq!(
        g.format_position(&after),
        "6/6/6/1B4/6/6 b ACDEFGHIJKLMN bcdefghijklmn 0"
    );
    // Placing next to it is impossible: the free leg attacks that point.
    illegal_because(&g, &p, "C@b3", "attacked");
}

#[test]
fn advanced_moved_pod_blocked_on_arrival_returns() {
    let g = game(true);
    // D walks d2-b2; there its W line is missing and M (c3), N (c1) fill NE and SE.
    let p = at(&g, "6/6/6/2M3/3D2/2N3 w ABCEFGHIJKL abcdefghijklmn 0");
    let after = play(&g, &p, "d2-b2");
    assert_eq!(
        g.format_position(&after),
        "6/6/6/2M3/6/2N3 b ABCDEFGHIJKL abcdefghijklmn 0"
    );
}

#[test]
fn advanced_removal_is_judged_at_once() {
    let g = game(true);
    // Black g on a1 (free legs NE b2, E b1) and White F on b1 (free legs N b2, W a1) block
    // each other except through b2. B arrives on b2: both are blocked on the board after the
    // move and both go, although removing either alone would free the other.
    let p = at(&g, "6/6/6/6/4B1/gF4 w ACDEGHIJKLMN abcdefhijklmn 0");
    let after = play(&g, &p, "e2-b2");
    assert_eq!(
        g.format_position(&after),
        "6/6/6/6/1B4/6 b ACDEFGHIJKLMN abcdefhijklmn 0"
    );
}

#[test]
fn advanced_win_by_empty_hand_and_loss_without_moves() {
    let g = game(true);
    let p = at(&g, "6/6/6/6/6/6 w A abcdefghijklmn 0");
    let won = play(&g, &p, "A@c3");
    assert_eq!(
        g.terminal(&won),
        Some(Terminal::new(Outcome::Win(Side::P1), "hand-empty"))
    );
    assert_eq!(g.perft(&won, 1), 0);
    // A pod that comes straight back does not empty the hand.
    let back = play(&g, &p, "A@a2");
    assert!(g.terminal(&back).is_none());
    // Only the player who just moved can have won this way.
    let p = at(&g, "6/6/6/6/6/6 w - abcdefghijklmn 0");
    assert!(g.terminal(&p).is_none());
    assert!(move_strings(&g, &p).is_empty());
    let t = outcome(&g, &p, &DrawTracker::new(g.hash(&p)));
    assert_eq!(t, Some(Terminal::new(Outcome::Win(Side::P2), "no-moves")));
    // Standard has no hand-empty rule.
    assert!(game(false).terminal(&won).is_none());
}

#[test]
fn draw_rules_per_rule_set() {
    let std_rules = game(false).draw_rules();
    assert_eq!(std_rules.repetition, None);
    assert!(!std_rules.search_repetition);
    let adv = game(true).draw_rules();
    assert_eq!(adv.repetition, None);
    assert_eq!(adv.no_progress_plies, None);
    assert!(adv.search_repetition);
}

#[test]
fn advanced_positions_can_repeat() {
    // Pods moving out and back recreate the position (search scores that as a draw).
    let g = game(true);
    let p = at(&g, "a5/6/6/2M3/6/6 w ABCDEFGHIJKL bcdefghijklmn 0");
    let mut q = p;
    for text in ["c3-c4", "a6-b6", "c4-c3", "b6-a6"] {
        let m = mv(&g, &q, text);
        assert!(!g.is_progress(&q, m), "{text}");
        q = g.make(&q, m);
    }
    assert_eq!(q, p);
}
