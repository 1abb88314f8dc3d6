//! Static evaluation: how many placements each side still needs before one ball move can carry
//! the ball over the goal line, found by a shortest-path search over ball points.
//!
//! Model: from a ball point, a jump in one direction may pass over existing men for free and over
//! up to [`MAX_GAPS`] empty points that would first need a man each (one placement, i.e. one
//! move, per gap). Men removed by earlier jumps are ignored; the exact "score now" solver in
//! `tactics.rs` covers the cases where that matters.

use super::board::{row, Bits, N, NONE, PLACEABLE, STEP};
use super::movegen::scoring_rows;
use super::position::Pos;
use crate::games::Side;

const MAX_GAPS: usize = 2;
/// Distances beyond this are reported as `MAX_DIST + 1`; the race is long anyway.
pub const MAX_DIST: usize = 12;

/// Placements each side (index: [`Side::index`]) needs before a single ball move can score
/// (0 = a chain of jumps over the current men reaches its goal, ignoring removals). One
/// shortest-path search from the ball serves both sides. When `gaps` is given, it receives the
/// empty points of one shortest path for each side (where those men would go).
pub fn distances(pos: &Pos, mut gaps: Option<&mut Bits>) -> [u32; 2] {
    let targets = [scoring_rows(Side::P1), scoring_rows(Side::P2)];
    let start = pos.ball as usize;
    let mut found = [None::<(u32, usize)>; 2];
    let mut dist = [u8::MAX; N];
    let mut prev = [(NONE, 0u8); N];
    let mut buckets = [[0u16; N]; MAX_DIST + 1];
    let mut lens = [0usize; MAX_DIST + 1];
    dist[start] = 0;
    buckets[0][0] = start as u16;
    lens[0] = 1;
    'search: for c in 0..=MAX_DIST {
        let mut i = 0;
        while i < lens[c] {
            let b = buckets[c][i] as usize;
            i += 1;
            if dist[b] as usize != c {
                continue;
            }
            // A chain may pass through either goal area and go on (only its end counts).
            for (f, t) in found.iter_mut().zip(targets) {
                if f.is_none() && t.get(b) {
                    *f = Some((c as u32, b));
                }
            }
            if found.iter().all(Option::is_some) {
                break 'search;
            }
            for (d, step) in STEP.iter().enumerate() {
                let mut q = step[b];
                let mut cost = 0usize;
                let mut run = 0;
                while q != NONE {
                    let qi = q as usize;
                    if pos.men.get(qi) {
                        run += 1;
                        q = step[qi];
                        continue;
                    }
                    if run > 0 {
                        let nc = c + cost;
                        if nc <= MAX_DIST && nc < dist[qi] as usize {
                            dist[qi] = nc as u8;
                            prev[qi] = (b as u16, d as u8);
                            buckets[nc][lens[nc]] = q;
                            lens[nc] += 1;
                        }
                    }
                    if cost == MAX_GAPS || !PLACEABLE.get(qi) {
                        break;
                    }
                    cost += 1;
                    run += 1;
                    q = step[qi];
                }
            }
        }
    }
    let mut out = [MAX_DIST as u32 + 1; 2];
    for (o, f) in out.iter_mut().zip(found) {
        if let Some((c, end)) = f {
            *o = c;
            if let Some(g) = gaps.as_deref_mut() {
                collect_gaps(pos, start, end, &prev, g);
            }
        }
    }
    out
}

/// [`distances`] for one side.
pub fn distance(pos: &Pos, side: Side) -> u32 {
    distances(pos, None)[side.index()]
}

fn collect_gaps(pos: &Pos, start: usize, end: usize, prev: &[(u16, u8); N], gaps: &mut Bits) {
    let mut t = end;
    for _ in 0..N {
        if t == start {
            return;
        }
        let (b, d) = prev[t];
        if b == NONE {
            return;
        }
        let step = &STEP[d as usize];
        let mut q = step[b as usize];
        while q != NONE && q as usize != t {
            if !pos.men.get(q as usize) {
                gaps.set(q as usize);
            }
            q = step[q as usize];
        }
        t = b as usize;
    }
}

/// Rows the ball has advanced towards `side`'s scoring rows from the middle row.
pub fn progress(pos: &Pos, side: Side) -> i32 {
    let r = row(pos.ball as usize) as i32 - 10;
    match side {
        Side::P1 => r,
        Side::P2 => -r,
    }
}

/// Evaluation of a quiet position for the side to move, given the exact facts: `me_scores` (the
/// side to move has a scoring chain) and `opp_scores` (the opponent would have one).
pub fn race_eval(pos: &Pos, me_scores: bool, opp_scores: bool) -> i32 {
    let me = pos.side;
    let opp = me.other();
    let exact = |scores: bool, d: u32| match (scores, d) {
        (true, _) => 0,
        (false, 0) => 1,
        (false, d) => d,
    };
    let d = distances(pos, None);
    let dm = exact(me_scores, d[me.index()]) as i32;
    let dop = exact(opp_scores, d[opp.index()]) as i32;
    // The side to move is half a move ahead in the race.
    const TEMPO: i32 = 30;
    100 * (dop - dm) + TEMPO + 8 * progress(pos, me)
}
