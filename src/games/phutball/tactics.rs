//! Exact one-move tactics and the selective move lists built on them.
//!
//! - "Can the side to move score now?" is answered exhaustively over jump chains.
//! - A *threat* is a scoring chain the opponent would have if it were his turn. A move stops it
//!   when, after it, the opponent has no scoring chain. Only a man placed on a landing point of a
//!   scoring chain can break that chain (men elsewhere leave every jump of it unchanged), so the
//!   placements worth checking are the points the opponent's ball can reach; each is then
//!   verified by running the solver again. Ball moves are all checked.

use super::board::{col, row, Bits, NONE, STEP};
use super::eval::distances;
use super::movegen::{make, push_jumps_limited, push_placements, scoring_rows, Move};
use super::position::Pos;
use super::scoring::{scan_scoring, scoring_jump, Scan};
use crate::games::Side;

/// Jump states the solver may visit per question inside search (deciding "can he score?" is
/// NP-hard; past this the answer counts as "no").
pub const SEARCH_BUDGET: usize = 20_000;
/// The same at the root, asked once per search.
pub const ROOT_BUDGET: usize = 300_000;
/// Per re-check of a candidate stopper, when not exhaustive.
const VERIFY_BUDGET: usize = 50_000;

/// A ball move with which the side to move scores now (exhaustive).
pub fn winning_move(pos: &Pos) -> Option<Move> {
    scoring_jump(pos, pos.side)
}

/// A scoring chain the opponent would have if it were his move now (exhaustive).
pub fn threat(pos: &Pos) -> Option<Move> {
    scoring_jump(pos, pos.side.other())
}

/// True when `mv` (by the side to move) ends on its own goal side and so loses at once.
pub fn is_own_goal(pos: &Pos, mv: Move) -> bool {
    match mv {
        Move::Jump { to, .. } => scoring_rows(pos.side.other()).get(to as usize),
        Move::Place(_) => false,
    }
}

/// When the opponent threatens to score ([`threat`]), every legal move after which he cannot
/// score with his next move (own goals excluded, scoring moves included), exhaustively. Empty
/// when there is no threat, or when nothing stops it.
pub fn threat_stoppers(pos: &Pos) -> Vec<Move> {
    let mut out = Vec::new();
    if threat(pos).is_some() {
        stoppers(pos, usize::MAX, usize::MAX, false, usize::MAX, &mut out);
    }
    out
}

/// What search must know first at a node.
#[derive(Clone, Debug, PartialEq)]
pub enum Urgency {
    /// The side to move scores with this move.
    Win(Move),
    /// The opponent threatens to score; these moves stop it (empty: nothing does).
    Threatened(Vec<Move>),
    Quiet,
}

/// The urgent facts of `pos`, with the solver limited to `budget` states per question.
pub fn urgency(pos: &Pos, budget: usize) -> Urgency {
    urgency_with(pos, budget, budget, budget.min(VERIFY_BUDGET), usize::MAX)
}

/// [`urgency`] at the root: [`ROOT_BUDGET`] per question, but when threatened, only the ball
/// moves of a walk as short as [`root_candidates`]'s, and at most [`ROOT_JUMPS`] of them kept
/// (the most advancing ones): in a dense position nearly every ball move stops the threat, and
/// checking hundreds of thousands would take seconds for moves the search could not look at.
pub fn root_urgency(pos: &Pos) -> Urgency {
    urgency_with(pos, ROOT_BUDGET, ROOT_JUMP_WALK, VERIFY_BUDGET, ROOT_JUMPS)
}

fn urgency_with(pos: &Pos, budget: usize, walk: usize, verify: usize, keep: usize) -> Urgency {
    if let Scan::Scores(m) = scan_scoring(pos, pos.side, budget) {
        return Urgency::Win(m);
    }
    if !scores(pos, pos.side.other(), budget) {
        return Urgency::Quiet;
    }
    let mut out = Vec::new();
    stoppers(pos, walk, verify, false, keep, &mut out);
    Urgency::Threatened(out)
}

/// Static facts for the evaluation: (side to move scores now, opponent threatens, some move
/// stops the threat).
pub fn eval_facts(pos: &Pos) -> (bool, bool, bool) {
    if scores(pos, pos.side, SEARCH_BUDGET) {
        return (true, false, false);
    }
    if !scores(pos, pos.side.other(), SEARCH_BUDGET) {
        return (false, false, false);
    }
    let mut out = Vec::new();
    stoppers(
        pos,
        SEARCH_BUDGET,
        SEARCH_BUDGET,
        true,
        usize::MAX,
        &mut out,
    );
    (false, true, !out.is_empty())
}

fn scores(pos: &Pos, side: Side, budget: usize) -> bool {
    matches!(scan_scoring(pos, side, budget), Scan::Scores(_))
}

/// `budget` bounds the walk over the position's own chains, `verify` each re-check of a
/// candidate (a re-check that runs out counts as "stopped"). Keeps at most `max_jumps` ball
/// moves, checking the most advancing ones first when there are more.
fn stoppers(
    pos: &Pos,
    budget: usize,
    verify: usize,
    first_only: bool,
    max_jumps: usize,
    out: &mut Vec<Move>,
) {
    let opp = pos.side.other();
    let mut jumps = Vec::new();
    push_jumps_limited(pos, budget, &mut jumps);
    let mut landings = Bits::EMPTY;
    for m in &jumps {
        if let Move::Jump { to, .. } = *m {
            landings.set(to as usize);
        }
    }
    for p in landings.and(&pos.empty_placeable()).iter() {
        let mv = Move::Place(p as u16);
        if !scores(&make(pos, mv), opp, verify) {
            out.push(mv);
            if first_only {
                return;
            }
        }
    }
    if jumps.len() > max_jumps {
        jumps.sort_by_key(|&m| -jump_gain(pos, m));
    }
    let mine = scoring_rows(pos.side);
    let mut kept = 0;
    for mv in jumps {
        if is_own_goal(pos, mv) {
            continue;
        }
        let child = make(pos, mv);
        if mine.get(child.ball as usize) || !scores(&child, opp, verify) {
            out.push(mv);
            kept += 1;
            if first_only || kept >= max_jumps {
                return;
            }
        }
    }
}

/// Ball moves searched at the root at most (the rest, in dense positions only, are cut).
pub const ROOT_JUMPS: usize = 2_000;
/// States of the walk that lists the root's ball moves.
const ROOT_JUMP_WALK: usize = ROOT_BUDGET / 6;

/// Root moves in a quiet position: every legal move, unless the ball has more than
/// [`ROOT_JUMPS`] distinct moves (then all placements and the most advancing ball moves among
/// those a bounded walk finds).
pub fn root_candidates(pos: &Pos, out: &mut Vec<Move>) {
    push_placements(pos, out);
    let start = out.len();
    push_jumps_limited(pos, ROOT_JUMP_WALK, out);
    let jumps = &mut out[start..];
    if jumps.len() > ROOT_JUMPS {
        jumps.sort_by_key(|&m| (is_own_goal(pos, m), -jump_gain(pos, m)));
        out.truncate(start + ROOT_JUMPS);
    }
}

/// Ball moves kept at a non-root node before the rest are cut (best progress first).
const MAX_JUMPS: usize = 48;

/// Candidate moves for a quiet node: ball moves (not own goals, the most advancing ones when
/// there are very many) and placements on points that can matter: next to the ball or two
/// away, the landing points of the ball's jumps (to block or extend them), and the empty points
/// of each side's shortest path to its goal (to build one's own ladder or spoil the other's).
pub fn quiet_candidates(pos: &Pos, out: &mut Vec<Move>) {
    let start = out.len();
    push_jumps_limited(pos, SEARCH_BUDGET, out);
    let mut hot = Bits::EMPTY;
    for m in &out[start..] {
        if let Move::Jump { to, .. } = *m {
            hot.set(to as usize);
        }
    }
    out.retain(|&m| !is_own_goal(pos, m));
    let jumps = &mut out[start..];
    if jumps.len() > MAX_JUMPS {
        jumps.sort_by_key(|&m| -jump_gain(pos, m));
        out.truncate(start + MAX_JUMPS);
    }

    let b = pos.ball as usize;
    let (bc, br) = (col(b) as i32, row(b) as i32);
    for dc in -2..=2i32 {
        for dr in -2..=2i32 {
            let (c, r) = (bc + dc, br + dr);
            if (0..15).contains(&c) && (0..21).contains(&r) {
                hot.set((r * 15 + c) as usize);
            }
        }
    }
    for step in STEP.iter() {
        let mut q = step[b];
        let mut run = 0;
        while q != NONE && pos.men.get(q as usize) {
            q = step[q as usize];
            run += 1;
        }
        if run > 0 && q != NONE {
            hot.set(q as usize);
            let q2 = step[q as usize];
            if q2 != NONE {
                hot.set(q2 as usize);
            }
        }
    }
    distances(pos, Some(&mut hot));
    for p in hot.and(&pos.empty_placeable()).iter() {
        out.push(Move::Place(p as u16));
    }
    if out.len() == start {
        push_placements(pos, out);
    }
}

/// Rows a ball move gains towards the mover's goal (negative when it goes back).
pub fn jump_gain(pos: &Pos, mv: Move) -> i32 {
    match mv {
        Move::Jump { to, .. } => {
            let d = row(to as usize) as i32 - row(pos.ball as usize) as i32;
            match pos.side {
                Side::P1 => d,
                Side::P2 => -d,
            }
        }
        Move::Place(_) => 0,
    }
}

/// Cheap ordering: advancing ball moves first, then placements close to the ball, preferring
/// the side it should travel to.
pub fn order_hint(pos: &Pos, mv: Move) -> i32 {
    match mv {
        Move::Jump { .. } => {
            if is_own_goal(pos, mv) {
                -10_000
            } else {
                1_000 + 50 * jump_gain(pos, mv)
            }
        }
        Move::Place(p) => {
            let b = pos.ball as usize;
            let p = p as usize;
            let dc = (col(p) as i32 - col(b) as i32).abs();
            let dr = row(p) as i32 - row(b) as i32;
            let forward = match pos.side {
                Side::P1 => dr,
                Side::P2 => -dr,
            };
            // On one of the ball's eight lines: it can start, block or extend a jump.
            let on_line = dc == 0 || dr == 0 || dc == dr.abs();
            500 - 80 * dc.max(dr.abs()) + 15 * forward + if on_line { 60 } else { 0 }
        }
    }
}
