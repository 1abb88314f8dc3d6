//! The cheap questions generic code asks instead of listing every move (`has_legal_move`,
//! `is_legal`, `count_moves_upto`) agree with the full list.

use super::*;
use crate::games::phutball::board::N;
use crate::games::phutball::movegen::{has_jump, has_jump_start, push_jumps};

/// Boards whose moves are listed here have at most this many.
const LISTED: usize = 50_000;

/// Values of the move type no position produces: never legal, never a panic.
fn garbage(p: &Pos) -> Vec<Move> {
    let some = Bits(p.men.0.map(|w| w & 0x5555_5555_5555_5555));
    vec![
        Move::Place(N as u16),
        Move::Place(u16::MAX),
        Move::Place(p.ball),
        Move::Place(point(3, 0) as u16),
        Move::Place(point(3, 20) as u16),
        Move::Jump {
            to: N as u16,
            removed: some,
        },
        Move::Jump {
            to: u16::MAX,
            removed: p.men,
        },
        Move::Jump {
            to: point(0, 0) as u16,
            removed: Bits::EMPTY,
        },
        Move::Jump {
            to: point(0, 0) as u16,
            removed: Bits([u64::MAX; 5]),
        },
    ]
}

#[test]
fn cheap_move_questions_agree_with_the_list() {
    let mut rng = SmallRng::seed_from_u64(5);
    let densities = [0.0, 0.2, 0.35, 0.45, 0.6, 0.9, 1.0];
    let boards: Vec<Pos> = (0..70)
        .map(|i| random_pos(&mut rng, densities[i % densities.len()]))
        .collect();
    let (mut listed, mut over_cap, mut stale_legal, mut stale_illegal) = (0, 0, 0, 0);
    let mut prev: Vec<Move> = Vec::new();
    for p in &boards {
        let text = g().format_position(p);
        assert!(g().has_legal_move(p), "{text}");
        for m in garbage(p) {
            assert!(!g().is_legal(p, m), "{m:?} at {text}");
            let _ = g().format_move(p, m);
        }
        let Some(n) = g().count_moves_upto(p, LISTED) else {
            over_cap += 1;
            continue;
        };
        listed += 1;
        let mut moves = Vec::new();
        g().legal_moves(p, &mut moves);
        assert_eq!(moves.len(), n, "{text}");
        assert_eq!(g().count_moves_upto(p, n), Some(n));
        if n > 0 {
            assert_eq!(g().count_moves_upto(p, n - 1), None);
        }
        // Asked with another board's moves listed last (nothing of `p` known): directly.
        g().legal_moves(&g().start(), &mut Vec::new());
        for &m in moves.iter().step_by(moves.len() / 300 + 1) {
            assert!(g().is_legal(p, m), "{} at {text}", g().format_move(p, m));
        }
        for &m in prev.iter().step_by(prev.len() / 300 + 1) {
            let legal = moves.contains(&m);
            assert_eq!(g().is_legal(p, m), legal, "{m:?} at {text}");
            if legal {
                stale_legal += 1;
            } else {
                stale_illegal += 1;
            }
        }
        prev = moves;
    }
    assert!(listed > 30 && over_cap > 0, "{listed} {over_cap}");
    assert!(stale_legal > 100 && stale_illegal > 100);
}

/// Moves of the position one move earlier: many still legal, some not (the man just placed
/// blocks a chain, or stands where a chain landed), and the direct check must tell which.
#[test]
fn moves_of_the_previous_position() {
    let mut rng = SmallRng::seed_from_u64(9);
    let (mut blocked, mut kept) = (0, 0);
    for _ in 0..40 {
        let p = random_pos(&mut rng, 0.3);
        if g().count_moves_upto(&p, LISTED).is_none() {
            continue;
        }
        let mut before = Vec::new();
        g().legal_moves(&p, &mut before);
        let jumps: Vec<Move> = before
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Jump { .. }))
            .collect();
        // A man on a landing point of the ball's moves (or next to the ball) changes them.
        let mut near = Bits::EMPTY;
        for m in &jumps {
            if let Move::Jump { to, .. } = *m {
                near.set(to as usize);
            }
        }
        let spots: Vec<usize> = near.and(&p.empty_placeable()).iter().collect();
        let Some(&spot) = spots.get(rng.gen_range(0..spots.len().max(1))) else {
            continue;
        };
        let next = g().make(&p, Move::Place(spot as u16));
        if g().count_moves_upto(&next, LISTED).is_none() {
            continue;
        }
        let mut after = Vec::new();
        g().legal_moves(&next, &mut after);
        g().legal_moves(&g().start(), &mut Vec::new());
        for &m in jumps.iter().step_by(jumps.len() / 200 + 1) {
            let legal = after.contains(&m);
            assert_eq!(g().is_legal(&next, m), legal);
            if legal {
                kept += 1;
            } else {
                blocked += 1;
            }
        }
    }
    assert!(blocked > 20 && kept > 20, "{blocked} {kept}");
}

/// A man next to the ball is not yet a move: the run behind it may reach the edge.
#[test]
fn has_jump_needs_a_landing_on_the_board() {
    let edge = pos(
        "a10",
        "b10 c10 d10 e10 f10 g10 h10 i10 j10 k10 l10 m10 n10 o10",
        'r',
    );
    assert!(has_jump_start(&edge.men, edge.ball));
    assert!(!has_jump(&edge.men, edge.ball));
    let mut v = Vec::new();
    push_jumps(&edge, &mut v);
    assert!(v.is_empty());
    let open = pos(
        "a10",
        "b10 c10 d10 e10 f10 g10 h10 i10 j10 k10 l10 m10 n10",
        'r',
    );
    assert!(has_jump(&open.men, open.ball));
    // A full board: no placement left, so the ball's moves alone decide.
    let mut full = random_pos(&mut SmallRng::seed_from_u64(1), 1.0);
    assert!(full.empty_placeable().is_empty());
    assert!(g().has_legal_move(&full));
    full.men.clear(point(0, 19));
    assert_eq!(g().count_moves_upto(&full, 0), None);
}
