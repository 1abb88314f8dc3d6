//! Static evaluation (side to move's view, about 100 per unit) and move-ordering hints.

use super::board::Tables;
use super::movegen::PodsMove;
use super::position::Pos;
use super::solver;

/// Keeps evaluations well inside the search's `EVAL_LIMIT`.
const CLAMP: i32 = 15_000;
/// A standard position the solver has proven, above any heuristic score.
pub const PROVEN: i32 = 12_000;
/// Standard positions with at most this many placement points (both sides) are solved...
const EXACT_POINTS: u32 = 4;
/// ...within this many solver nodes.
const EXACT_NODES: u64 = 200;

/// What one side could still place, for the standard evaluation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Room {
    /// Points where the side has at least one legal placement.
    pub points: u64,
    /// Legal (pod, point) pairs.
    pub pairs: u32,
    pub hand: u32,
}

pub fn room(t: &Tables, pos: &Pos, colour: usize) -> Room {
    let mut r = Room {
        hand: pos.hand[colour].count_ones(),
        ..Room::default()
    };
    t.for_each_placement(pos, colour, false, |q, pods| {
        r.points |= 1 << q;
        r.pairs += pods.count_ones();
    });
    r
}

/// Standard Pods is lost by the first player without a safe placement. The main term is the
/// difference in points each side can still place on (no more than it has pods in hand), then
/// the points only one side can use (the other cannot take them away by occupying them), then
/// the number of (pod, point) placements as a tie-break. Self-play at equal depth preferred this
/// to plain mobility and to exclusive points alone.
pub fn standard(t: &Tables, pos: &Pos) -> i32 {
    let me = usize::from(pos.side);
    let a = room(t, pos, me);
    let b = room(t, pos, me ^ 1);
    // So little is left that the exact answer is cheaper than a guess.
    if (a.points | b.points).count_ones() <= EXACT_POINTS {
        if let Some(s) = solver::solve_standard(t, pos, EXACT_NODES) {
            return if s.win { PROVEN } else { -PROVEN };
        }
    }
    let usable = |r: &Room| r.points.count_ones().min(r.hand) as i32;
    let only_a = (a.points & !b.points).count_ones() as i32;
    let only_b = (b.points & !a.points).count_ones() as i32;
    let v = 100 * (usable(&a) - usable(&b))
        + 20 * (only_a - only_b)
        + (a.pairs as i32 - b.pairs as i32);
    v.clamp(1 - PROVEN, PROVEN - 1)
}

/// Pods of `colour` with exactly one unblocked leg: one pod on that point removes them.
fn at_risk(t: &Tables, pos: &Pos, colour: usize) -> i32 {
    let g = t.geo(pos);
    let occ = pos.all();
    let mut n = 0;
    let mut bits = pos.occ[colour];
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if let Some((c, letter)) = pos.pod_at(p) {
            let free = t.legs[c][letter].all & g.free_dirs(p, occ);
            if free.count_ones() == 1 {
                n += 1;
            }
        }
    }
    n
}

crate::weight_table! {
    /// Weights of the advanced evaluation's terms, per unit from the side to move's view. The
    /// values the engine plays with are [`WEIGHTS`] (`weights.rs`, written by `scripts/tune`).
    pub struct Weights {
        /// Per pod the opponent has in hand more than the side to move.
        pub hand,
        /// Per own pod more than the opponent's that one enemy move could block off the board.
        pub at_risk,
        /// Per move more than the opponent's (the difference capped at 60 either way).
        pub mobility,
        /// The side to move has pods in hand and no placement (0 or 1).
        pub stuck,
        /// The opponent has pods in hand and no placement (0 or 1).
        pub opp_stuck,
    }
}

pub use super::weights::WEIGHTS;

/// Advanced Pods is won by emptying the hand: fewer pods in hand is the main term, then pods
/// that one enemy move could block off the board, then mobility.
pub fn advanced(t: &Tables, pos: &Pos) -> i32 {
    crate::tune::dot(&WEIGHTS.to_array(), &advanced_features(t, pos)).clamp(-CLAMP, CLAMP)
}

/// The raw terms of [`advanced`], in [`Weights::NAMES`] order.
pub fn advanced_features(t: &Tables, pos: &Pos) -> [i32; Weights::LEN] {
    let me = usize::from(pos.side);
    let op = me ^ 1;
    let hand_me = pos.hand[me].count_ones() as i32;
    let hand_op = pos.hand[op].count_ones() as i32;
    let mob_me = t.count_moves(pos, me, true) as i32;
    let mob_op = t.count_moves(pos, op, true) as i32;
    // A hand that cannot be placed from is stuck until the board changes.
    let stuck = |colour: usize| {
        let mut any = false;
        t.for_each_placement(pos, colour, true, |_, _| any = true);
        pos.hand[colour] != 0 && !any
    };
    [
        hand_op - hand_me,
        at_risk(t, pos, me) - at_risk(t, pos, op),
        (mob_me - mob_op).clamp(-60, 60),
        i32::from(stuck(me)),
        i32::from(stuck(op)),
    ]
}

/// Placements that attack many empty points take room from the opponent; in advanced play,
/// placing (emptying the hand) comes before moving.
pub fn order_hint(t: &Tables, pos: &Pos, mv: PodsMove, advanced: bool) -> i32 {
    match mv {
        PodsMove::Place { pod, to } => {
            let g = t.geo(pos);
            let occ = pos.all();
            let colour = usize::from(pos.side);
            let att = t.attacks_from(g, colour, usize::from(pod), usize::from(to), occ);
            let base = if advanced { 50 } else { 0 };
            base + 10 * (att & !occ).count_ones() as i32
        }
        PodsMove::Step { .. } => 0,
    }
}
