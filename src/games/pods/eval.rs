//! Static evaluation (side to move's view, about 100 per unit) and move-ordering hints.

use std::ops::ControlFlow;

use super::movegen::PodsMove;
use super::position::Pos;
use super::solver;
use super::tables::Tables;

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

/// A win on the next move, below the standard solver's proofs and above any weighted sum.
pub const WIN_NOW: i32 = 10_000;

/// What one side could do if it were to move, for the advanced evaluation.
#[derive(Clone, Copy, Debug, Default)]
struct Reach {
    /// Points where the side may place at least one pod.
    points: u64,
    /// Pods in hand that have at least one legal point.
    pods: u16,
    /// Legal moves (placements and steps).
    moves: u32,
    /// Own pods with exactly one unblocked leg: one pod on that point removes them.
    at_risk: i32,
    /// Placements that empty the hand (only with one pod left in it): a win on that move.
    wins: u32,
}

/// Points that are the one unblocked leg target of some pod of `colour` (a pod put there blocks
/// it), and how many such pods there are.
fn sole_targets(t: &Tables, pos: &Pos, colour: usize) -> (u64, i32) {
    let g = t.geo(pos);
    let occ = pos.all();
    let (mut sole, mut n) = (0u64, 0);
    let mut bits = pos.occ[colour];
    while bits != 0 {
        let p = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if let Some((c, letter)) = pos.pod_at(p) {
            let free = t.legs[c][letter].all & g.free_dirs(p, occ);
            if free.count_ones() == 1 {
                n += 1;
                sole |= 1 << g.nbr[p][free.trailing_zeros() as usize];
            }
        }
    }
    (sole, n)
}

/// Whether placing `letter` of `colour` on the empty point `q` keeps every own pod on the board:
/// the placed pod has an unblocked leg there and `q` is no other own pod's last free leg.
fn placement_stays(
    t: &Tables,
    pos: &Pos,
    colour: usize,
    letter: usize,
    q: usize,
    sole: u64,
) -> bool {
    let g = t.geo(pos);
    sole & (1 << q) == 0 && t.legs[colour][letter].all & g.free_dirs(q, pos.all()) != 0
}

/// Whether `colour`, with one pod left in hand, can place it for good now.
fn wins_now(t: &Tables, pos: &Pos, colour: usize) -> bool {
    if pos.hand[colour].count_ones() != 1 {
        return false;
    }
    let (sole, _) = sole_targets(t, pos, colour);
    let mut win = false;
    t.for_each_placement(pos, colour, true, |q, pods| {
        win = win || placement_stays(t, pos, colour, pods.trailing_zeros() as usize, q, sole);
    });
    win
}

/// Whether the side to move has a move after which the opponent cannot place its last pod for
/// good at once. Asked only when the opponent threatens to, so a lost position is scored as lost
/// without spending search nodes on all the replies.
fn can_stop_last_pod(t: &Tables, pos: &Pos) -> bool {
    let op = usize::from(pos.side ^ 1);
    t.for_each_move(pos, true, |m| {
        if wins_now(t, &t.make(pos, m, true), op) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .is_break()
}

fn reach(t: &Tables, pos: &Pos, colour: usize) -> Reach {
    let (sole, at_risk) = sole_targets(t, pos, colour);
    let last = pos.hand[colour].count_ones() == 1;
    let mut r = Reach {
        at_risk,
        ..Reach::default()
    };
    t.for_each_placement(pos, colour, true, |q, pods| {
        r.points |= 1 << q;
        r.pods |= pods;
        r.moves += pods.count_ones();
        if last {
            let letter = pods.trailing_zeros() as usize;
            if placement_stays(t, pos, colour, letter, q, sole) {
                r.wins += 1;
            }
        }
    });
    t.for_each_step(pos, colour, |_, targets| r.moves += targets.count_ones());
    r
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
        /// The side to move (always 1): in a race to empty the hand the mover is a move ahead.
        pub tempo,
        /// Per pod in hand with no legal point, the side to move's more than the opponent's.
        pub idle_pods,
        /// Per pod in hand beyond the points its side can place on, own more than opponent's.
        pub short,
        /// Per point only the side to move can place on, more than the opponent's only points
        /// (capped at 12 either way).
        pub exclusive,
        /// The opponent has one pod left and a placement that empties the hand (0 or 1).
        pub threat,
        /// ... and more than one such point (0 or 1): one move rarely covers both.
        pub threats,
    }
}

pub use super::weights::WEIGHTS;

/// Advanced Pods is won by emptying the hand: fewer pods in hand is the main term, then the
/// room left to place them (points only one side can use, pods with nowhere to go), the
/// opponent's threat to place its last pod, and mobility. A side to move that can place its
/// last pod for good has won.
pub fn advanced(t: &Tables, pos: &Pos) -> i32 {
    match advanced_terms(t, pos) {
        Terms::Weighted(f) => crate::games::tune::dot(&WEIGHTS.to_array(), &f).clamp(-CLAMP, CLAMP),
        Terms::Fixed(v) => v,
    }
}

/// What the advanced evaluation is made of at one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terms {
    /// The raw terms, in [`Weights::NAMES`] order.
    Weighted([i32; Weights::LEN]),
    /// Decided within two plies: the side to move places its last pod for good ([`WIN_NOW`]),
    /// or cannot stop the opponent from doing so (`-WIN_NOW`).
    Fixed(i32),
}

/// The terms of [`advanced`].
pub fn advanced_terms(t: &Tables, pos: &Pos) -> Terms {
    let me = usize::from(pos.side);
    let op = me ^ 1;
    let a = reach(t, pos, me);
    if a.wins > 0 {
        return Terms::Fixed(WIN_NOW);
    }
    let b = reach(t, pos, op);
    if b.wins > 0 && !can_stop_last_pod(t, pos) {
        return Terms::Fixed(-WIN_NOW);
    }
    let hand = |c: usize| pos.hand[c].count_ones() as i32;
    // A hand that cannot be placed from is stuck until the board changes.
    let stuck = |c: usize, r: &Reach| pos.hand[c] != 0 && r.points == 0;
    let idle = |c: usize, r: &Reach| (pos.hand[c] & !r.pods).count_ones() as i32;
    let short = |c: usize, r: &Reach| (hand(c) - r.points.count_ones() as i32).max(0);
    let only_a = (a.points & !b.points).count_ones() as i32;
    let only_b = (b.points & !a.points).count_ones() as i32;
    Terms::Weighted([
        hand(op) - hand(me),
        a.at_risk - b.at_risk,
        (a.moves as i32 - b.moves as i32).clamp(-60, 60),
        i32::from(stuck(me, &a)),
        i32::from(stuck(op, &b)),
        1,
        idle(me, &a) - idle(op, &b),
        short(me, &a) - short(op, &b),
        (only_a - only_b).clamp(-12, 12),
        i32::from(b.wins > 0),
        i32::from(b.wins > 1),
    ])
}

/// Placements that attack many empty points take room from the opponent; in advanced play,
/// placing (emptying the hand) comes before moving, a placement of the last pod that stays
/// (the win) before everything, and a placement that only returns to hand comes last.
pub fn order_hint(t: &Tables, pos: &Pos, mv: PodsMove, advanced: bool) -> i32 {
    match mv {
        PodsMove::Place { pod, to } => {
            let g = t.geo(pos);
            let occ = pos.all();
            let colour = usize::from(pos.side);
            let (letter, to) = (usize::from(pod), usize::from(to));
            let att = t.attacks_from(g, colour, letter, to, occ);
            let room = 10 * (att & !occ).count_ones() as i32;
            if !advanced {
                return room;
            }
            if t.legs[colour][letter].all & g.free_dirs(to, occ) == 0 {
                // Blocked at once: back to hand, a pass.
                return -10;
            }
            if pos.hand[colour].count_ones() == 1 {
                let (sole, _) = sole_targets(t, pos, colour);
                if placement_stays(t, pos, colour, letter, to, sole) {
                    return WIN_HINT;
                }
            }
            50 + room
        }
        PodsMove::Step { .. } => 0,
    }
}

/// Order hint of a winning placement, above every other hint.
const WIN_HINT: i32 = 100_000;
