//! Static evaluation: how many placements each side still needs before one ball move can carry
//! the ball over the goal line, found by a shortest-path search over ball points.
//!
//! Model: from a ball point, a jump in one direction may pass over existing men for free and over
//! up to [`MAX_GAPS`] empty points that would first need a man each (one placement, i.e. one
//! move, per gap). Men removed by earlier jumps are ignored; the exact "score now" solver in
//! `tactics.rs` covers the cases where that matters.

#[cfg(test)]
use super::board::N;
use super::board::{row, shift_to, Bits, NONE, PLACEABLE, STEP};
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
pub fn distances(pos: &Pos, gaps: Option<&mut Bits>) -> [u32; 2] {
    match gaps {
        None => by_levels(pos, false).0,
        Some(g) => {
            let (d, paths, _) = by_levels(pos, true);
            *g = g.or(&paths[0]).or(&paths[1]);
            d
        }
    }
}

/// The race from one search: each side's [`distances`], and how far towards each side's goal
/// the ball gets (its [`progress`] at the best point) with jumps over the men alone
/// (`reach[side][0]`) and with one placement more (`reach[side][1]`): a chain that cannot score
/// yet may still carry the ball most of the way, which the distance alone does not tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    pub dist: [u32; 2],
    pub reach: [[i32; 2]; 2],
}

/// See [`Race`].
pub fn race(pos: &Pos) -> Race {
    let (dist, _, reach) = by_levels(pos, false);
    Race { dist, reach }
}

/// The best progress of points in `set` for each side (`set` holds the ball's point at least).
fn best_progress(set: &Bits) -> [i32; 2] {
    let up = set.last().map_or(0, |p| row(p) as i32 - 10);
    let down = set.iter().next().map_or(0, |p| 10 - row(p) as i32);
    [up, down]
}

/// The costs of [`distances`] with a point-by-point search (a bucket queue over ball points),
/// the plain form the set-based search is checked against.
#[cfg(test)]
pub(crate) fn distances_point_by_point(pos: &Pos) -> [u32; 2] {
    let mut gaps = Bits::EMPTY;
    distances_with_paths(pos, Some(&mut gaps))
}

/// [`distances`] with each side's path gaps apart (for tests).
#[cfg(test)]
pub(crate) fn distances_and_paths(pos: &Pos) -> ([u32; 2], [Bits; 2]) {
    let (d, paths, _) = by_levels(pos, true);
    (d, paths)
}

/// [`Race::reach`] by a plain bucket search over points of every cost up to 1 (for tests;
/// `reach[s][1]` is only compared where neither side's distance is 0, since the set-based search
/// stops at cost 0 then).
#[cfg(test)]
pub(crate) fn reach_point_by_point(pos: &Pos) -> [[i32; 2]; 2] {
    let mut cost = [u8::MAX; N];
    let mut queue = vec![(pos.ball as usize, 0u8)];
    cost[pos.ball as usize] = 0;
    while let Some((b, c)) = queue.pop() {
        if cost[b] < c {
            continue;
        }
        for step in STEP.iter() {
            legs(pos, b, step, |qi, gaps| {
                let nc = c + gaps as u8;
                if nc <= 1 && nc < cost[qi] {
                    cost[qi] = nc;
                    queue.push((qi, nc));
                }
            });
        }
    }
    let mut reach = [[-10; 2]; 2];
    for (p, &c) in cost.iter().enumerate() {
        for (side, best) in reach
            .iter_mut()
            .zip([row(p) as i32 - 10, 10 - row(p) as i32])
        {
            for r in side.iter_mut().skip(usize::from(c)) {
                *r = (*r).max(best);
            }
        }
    }
    reach
}

/// The points one leg of a jump chain from `b` in the direction of `step` lands on, each with
/// the gaps it needs filled (placements): past at least one man, at most [`MAX_GAPS`] gaps, and
/// only over placeable points. The plain searches' (tests') one way of walking a ray.
#[cfg(test)]
fn legs(pos: &Pos, b: usize, step: &[u16; N], mut land: impl FnMut(usize, usize)) {
    let (mut q, mut gaps, mut run) = (step[b], 0, 0);
    while q != NONE {
        let qi = q as usize;
        if pos.men.get(qi) {
            run += 1;
            q = step[qi];
            continue;
        }
        if run > 0 {
            land(qi, gaps);
        }
        if gaps == MAX_GAPS || !PLACEABLE.get(qi) {
            break;
        }
        gaps += 1;
        run += 1;
        q = step[qi];
    }
}

#[cfg(test)]
fn distances_with_paths(pos: &Pos, mut gaps: Option<&mut Bits>) -> [u32; 2] {
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
                legs(pos, b, step, |qi, gaps| {
                    let nc = c + gaps;
                    if nc <= MAX_DIST && nc < dist[qi] as usize {
                        dist[qi] = nc as u8;
                        prev[qi] = (b as u16, d as u8);
                        buckets[nc][lens[nc]] = qi as u16;
                        lens[nc] += 1;
                    }
                });
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

/// The search of [`distances`], a whole cost level at a time on point sets (the board is five
/// words): all points reached at cost `c` scan each direction together. A scan's future depends
/// only on its point, direction and gaps used, so merging scans from different origins loses
/// nothing: the costs are exactly those of a point-by-point search, at a fraction of its price
/// (this runs at every leaf). With `paths`, each side's path is traced back through the
/// recorded frontiers and its gaps returned.
/// With the costs, the sides' best progress at cost 0 and at cost 1 or less (see [`Race`]).
fn by_levels(pos: &Pos, paths: bool) -> ([u32; 2], [Bits; 2], [[i32; 2]; 2]) {
    let targets = [scoring_rows(Side::P1), scoring_rows(Side::P2)];
    let men = pos.men;
    let gap = PLACEABLE.andnot(&men);
    let mut start = Bits::EMPTY;
    start.set(pos.ball as usize);
    let mut pending = [Bits::EMPTY; MAX_DIST + 1 + MAX_GAPS];
    pending[0] = start;
    let mut settled = Bits::EMPTY;
    let mut out = [MAX_DIST as u32 + 1; 2];
    let mut ends = [None::<usize>; 2];
    let mut reach = [[0; 2]; 2];
    // Frontiers in the order found, with their cost (only when tracing paths).
    let mut layers: Vec<(usize, Bits)> = Vec::new();
    for c in 0..=MAX_DIST {
        let mut frontier = pending[c].andnot(&settled);
        let mut level = frontier;
        while !frontier.is_empty() {
            settled = settled.or(&frontier);
            if paths {
                layers.push((c, frontier));
            }
            let mut land = [Bits::EMPTY; MAX_GAPS + 1];
            scan_all(&frontier, &men, &gap, &mut land);
            for g in 1..=MAX_GAPS {
                pending[c + g] = pending[c + g].or(&land[g]);
            }
            // Jumps over men alone cost nothing: they extend this level.
            frontier = land[0].andnot(&settled);
            level = level.or(&frontier);
        }
        for s in 0..2 {
            if ends[s].is_none() {
                if let Some(p) = level.and(targets[s]).iter().next() {
                    ends[s] = Some(p);
                    out[s] = c as u32;
                }
            }
        }
        // `settled` holds every point of cost c or less now.
        if c < 2 {
            let best = best_progress(&settled);
            for s in 0..2 {
                reach[s][c] = best[s];
            }
        }
        if ends.iter().all(Option::is_some) {
            if c == 0 {
                reach[0][1] = reach[0][0];
                reach[1][1] = reach[1][0];
            }
            break;
        }
    }
    let mut gaps = [Bits::EMPTY; 2];
    if paths {
        for (g, end) in gaps.iter_mut().zip(ends) {
            if let Some(end) = end {
                *g = trace_gaps(pos, &layers, end);
            }
        }
    }
    (out, gaps, reach)
}

/// The gaps of one shortest path from the ball to `end`: from each point, a jump back to a point
/// found earlier whose cost plus the jump's gaps is this point's cost.
fn trace_gaps(pos: &Pos, layers: &[(usize, Bits)], end: usize) -> Bits {
    let layer_of = |p: usize| layers.iter().position(|(_, b)| b.get(p));
    let mut gaps = Bits::EMPTY;
    let mut t = end;
    let Some(mut k) = layer_of(t) else {
        return gaps;
    };
    while k > 0 {
        let cost = layers[k].0;
        let mut back = None;
        'dirs: for d in 0..8 {
            // Walk against direction d: `q` would be the jump's origin, the points passed the
            // men and gaps it jumps.
            let step = &STEP[(d + 4) % 8];
            let mut q = step[t];
            let (mut passed, mut g, mut seg) = (0, 0, Bits::EMPTY);
            while q != NONE {
                let qi = q as usize;
                if passed > 0 && !pos.men.get(qi) {
                    if let Some(kb) = layer_of(qi) {
                        if kb < k && layers[kb].0 + g == cost {
                            back = Some((qi, kb, seg));
                            break 'dirs;
                        }
                    }
                }
                if pos.men.get(qi) {
                } else if g < MAX_GAPS && PLACEABLE.get(qi) {
                    g += 1;
                    seg.set(qi);
                } else {
                    break;
                }
                passed += 1;
                q = step[qi];
            }
        }
        let Some((b, kb, seg)) = back else {
            break;
        };
        gaps = gaps.or(&seg);
        t = b;
        k = kb;
    }
    gaps
}

/// Landing points of jumps from `from` in all eight directions, by gaps used (see [`scan`]).
#[inline]
fn scan_all(from: &Bits, men: &Bits, gap: &Bits, land: &mut [Bits; MAX_GAPS + 1]) {
    scan::<0>(from, men, gap, land);
    scan::<1>(from, men, gap, land);
    scan::<2>(from, men, gap, land);
    scan::<3>(from, men, gap, land);
    scan::<4>(from, men, gap, land);
    scan::<5>(from, men, gap, land);
    scan::<6>(from, men, gap, land);
    scan::<7>(from, men, gap, land);
}

/// Jumps in direction `D` from every point of `from`, as the point-by-point search walks them:
/// men are passed for free, an empty placeable point is passed as a gap (up to [`MAX_GAPS`]),
/// and every non-man point after at least one man or gap is a landing, at the gaps so far.
#[inline(always)]
fn scan<const D: usize>(from: &Bits, men: &Bits, gap: &Bits, land: &mut [Bits; MAX_GAPS + 1]) {
    let first = shift_to::<D>(from);
    // Scan points by gaps used; each has at least one man or gap behind it.
    let mut at = [Bits::EMPTY; MAX_GAPS + 1];
    at[0] = shift_to::<D>(&first.and(men));
    at[1] = shift_to::<D>(&first.and(gap));
    for g in 0..=MAX_GAPS {
        let mut x = at[g];
        while !x.is_empty() {
            let open = x.andnot(men);
            land[g] = land[g].or(&open);
            if g < MAX_GAPS {
                at[g + 1] = at[g + 1].or(&shift_to::<D>(&open.and(gap)));
            }
            x = shift_to::<D>(&x.and(men));
        }
    }
}

/// [`distances`] for one side.
pub fn distance(pos: &Pos, side: Side) -> u32 {
    distances(pos, None)[side.index()]
}

#[cfg(test)]
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
    RACE_STEP * (dop - dm) + TEMPO + PROGRESS * progress(pos, me)
}

/// What one placement of lead in the race is worth.
pub const RACE_STEP: i32 = 100;
/// The side to move is half a move ahead in the race.
pub const TEMPO: i32 = 30;
/// What a row of the ball's advance towards one's goal is worth.
pub const PROGRESS: i32 = 8;
