//! Attacks, legal moves, making moves (with advanced removal), perft and playouts.

use std::ops::ControlFlow;

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{Geometry, POINTS};
use super::position::Pos;
use super::tables::Tables;

const BOARD: u64 = (1 << POINTS) - 1;
/// Pods A and B: the only pods White's very first move may place.
const BIPODS: u16 = 0b11;

/// A move: place a pod from hand, or (advanced) move a pod along one of its legs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PodsMove {
    Place { pod: u8, to: u8 },
    Step { from: u8, to: u8 },
}

/// The placement rule's view of one empty point, for the side about to place.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointView {
    /// Directions with a line to an empty neighbour (a leg there is not blocked).
    pub free: u8,
    /// Directions whose neighbour, joined by a line, holds an enemy pod (short legs attack it).
    pub hit_short: u8,
    /// Directions whose first pod along the line is an enemy pod (long legs attack it).
    pub hit_long: u8,
}

impl Tables {
    #[inline]
    pub fn geo(&self, pos: &Pos) -> &Geometry {
        &self.geo[usize::from(pos.rot & 3)]
    }

    /// Every point `colour`'s pods attack.
    pub fn attacks(&self, pos: &Pos, colour: usize) -> u64 {
        let g = self.geo(pos);
        let occ = pos.all();
        let mut att = 0u64;
        let mut bits = pos.occ[colour];
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            att |= self.pod_attacks(g, pos, p, occ);
        }
        att
    }

    /// Points attacked by the pod standing on `p` (nothing when `p` is empty).
    pub fn pod_attacks(&self, g: &Geometry, pos: &Pos, p: usize, occ: u64) -> u64 {
        let Some((colour, letter)) = pos.pod_at(p) else {
            return 0;
        };
        self.attacks_from(g, colour, letter, p, occ)
    }

    /// Points a pod of `colour`/`letter` standing on `p` would attack.
    #[inline]
    pub fn attacks_from(
        &self,
        g: &Geometry,
        colour: usize,
        letter: usize,
        p: usize,
        occ: u64,
    ) -> u64 {
        let m = self.legs[colour][letter];
        let mut att = 0u64;
        let mut s = m.short & g.conn[p];
        while s != 0 {
            let d = s.trailing_zeros() as usize;
            s &= s - 1;
            att |= 1u64 << g.nbr[p][d];
        }
        let mut l = m.long & g.conn[p];
        while l != 0 {
            let d = l.trailing_zeros() as usize;
            l &= l - 1;
            att |= g.long_reach(p, d, occ);
        }
        att
    }

    #[inline]
    pub fn point_view(&self, g: &Geometry, pos: &Pos, q: usize, enemy: usize) -> PointView {
        let occ = pos.all();
        let mut v = PointView::default();
        let mut c = g.conn[q];
        while c != 0 {
            let d = c.trailing_zeros() as usize;
            c &= c - 1;
            let nb = 1u64 << g.nbr[q][d];
            if occ & nb == 0 {
                v.free |= 1 << d;
            }
            let first = g.first_hit(q, d, occ);
            if first & pos.occ[enemy] != 0 {
                v.hit_long |= 1 << d;
                if first == nb {
                    v.hit_short |= 1 << d;
                }
            }
        }
        v
    }

    /// Pods in `colour`'s hand that may be placed now (the first-move bipod rule applied).
    #[inline]
    pub fn placeable_hand(&self, pos: &Pos, colour: usize) -> u16 {
        if pos.first_move() {
            pos.hand[colour] & BIPODS
        } else {
            pos.hand[colour]
        }
    }

    /// Calls `f(q, pods)` for every point where `colour` may place, with the mask of the pods
    /// that may go there. `advanced` drops the "not all legs blocked" condition.
    #[inline]
    pub fn for_each_placement(
        &self,
        pos: &Pos,
        colour: usize,
        advanced: bool,
        mut f: impl FnMut(usize, u16),
    ) {
        let hand = self.placeable_hand(pos, colour);
        if hand == 0 {
            return;
        }
        let g = self.geo(pos);
        let enemy = colour ^ 1;
        let mut cand = BOARD & !pos.all() & !self.attacks(pos, enemy);
        let legs = &self.legs[colour];
        while cand != 0 {
            let q = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let v = self.point_view(g, pos, q, enemy);
            let free = if advanced { 0xff } else { v.free };
            let mut ok = 0u16;
            let mut h = hand;
            while h != 0 {
                let letter = h.trailing_zeros() as usize;
                h &= h - 1;
                let m = legs[letter];
                if m.all & free != 0 && (m.short & v.hit_short) | (m.long & v.hit_long) == 0 {
                    ok |= 1 << letter;
                }
            }
            if ok != 0 {
                f(q, ok);
            }
        }
    }

    /// Calls `f(from, targets)` for each of `colour`'s pods on the board (advanced moves).
    #[inline]
    pub fn for_each_step(&self, pos: &Pos, colour: usize, mut f: impl FnMut(usize, u64)) {
        let g = self.geo(pos);
        let occ = pos.all();
        let mut bits = pos.occ[colour];
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let targets = self.pod_attacks(g, pos, p, occ) & !occ;
            if targets != 0 {
                f(p, targets);
            }
        }
    }

    pub fn gen_moves(&self, pos: &Pos, advanced: bool, out: &mut Vec<PodsMove>) {
        let _ = self.for_each_move(pos, advanced, |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with every legal move (placements by point, then steps) until it breaks.
    #[inline]
    pub fn for_each_move(
        &self,
        pos: &Pos,
        advanced: bool,
        mut f: impl FnMut(PodsMove) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let colour = usize::from(pos.side);
        // The walks below cannot stop; once `f` breaks they only run out.
        let mut flow = ControlFlow::Continue(());
        self.for_each_placement(pos, colour, advanced, |q, mut pods| {
            while pods != 0 && flow.is_continue() {
                let letter = pods.trailing_zeros() as u8;
                pods &= pods - 1;
                flow = f(PodsMove::Place {
                    pod: letter,
                    to: q as u8,
                });
            }
        });
        if advanced && flow.is_continue() {
            self.for_each_step(pos, colour, |from, mut targets| {
                while targets != 0 && flow.is_continue() {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    flow = f(PodsMove::Step {
                        from: from as u8,
                        to,
                    });
                }
            });
        }
        flow
    }

    /// Number of legal moves of `colour` (as if it were to move).
    pub fn count_moves(&self, pos: &Pos, colour: usize, advanced: bool) -> u32 {
        let mut n = 0u32;
        self.for_each_placement(pos, colour, advanced, |_, pods| n += pods.count_ones());
        if advanced {
            self.for_each_step(pos, colour, |_, t| n += t.count_ones());
        }
        n
    }

    pub fn make(&self, pos: &Pos, mv: PodsMove, advanced: bool) -> Pos {
        let mut next = *pos;
        let colour = usize::from(pos.side);
        match mv {
            PodsMove::Place { pod, to } => {
                let letter = usize::from(pod);
                next.hand_take(colour, letter);
                next.put(colour, letter, usize::from(to));
            }
            PodsMove::Step { from, to } => {
                if let Some((c, letter)) = next.pod_at(usize::from(from)) {
                    next.lift(c, letter, usize::from(from));
                    next.put(c, letter, usize::from(to));
                }
            }
        }
        if advanced {
            self.remove_blocked(&mut next, colour);
        }
        next.flip_side();
        next
    }

    /// Pods (both colours) all of whose legs are blocked.
    pub fn blocked_pods(&self, pos: &Pos) -> u64 {
        let g = self.geo(pos);
        let occ = pos.all();
        let mut blocked = 0u64;
        let mut bits = occ;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some((c, letter)) = pos.pod_at(p) {
                let mut legs = self.legs[c][letter].all & g.conn[p];
                let mut free = false;
                while legs != 0 {
                    let d = legs.trailing_zeros() as usize;
                    legs &= legs - 1;
                    if occ & (1u64 << g.nbr[p][d]) == 0 {
                        free = true;
                        break;
                    }
                }
                if !free {
                    blocked |= 1 << p;
                }
            }
        }
        blocked
    }

    /// Advanced removal, judged at once: the mover's blocked pods go back to hand, the
    /// opponent's leave the game.
    pub fn remove_blocked(&self, pos: &mut Pos, mover: usize) {
        let mut blocked = self.blocked_pods(pos);
        while blocked != 0 {
            let p = blocked.trailing_zeros() as usize;
            blocked &= blocked - 1;
            if let Some((c, letter)) = pos.pod_at(p) {
                pos.lift(c, letter, p);
                if c == mover {
                    pos.hand_give(c, letter);
                }
            }
        }
    }

    /// Advanced: the player who just moved has emptied the hand.
    #[inline]
    pub fn hand_emptied(&self, pos: &Pos) -> bool {
        pos.hand[usize::from(pos.side ^ 1)] == 0
    }

    pub fn perft(&self, pos: &Pos, depth: u32, advanced: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        if advanced && self.hand_emptied(pos) {
            return 0;
        }
        if depth == 1 {
            return u64::from(self.count_moves(pos, usize::from(pos.side), advanced));
        }
        let mut moves = Vec::with_capacity(128);
        self.gen_moves(pos, advanced, &mut moves);
        moves
            .iter()
            .map(|&m| self.perft(&self.make(pos, m, advanced), depth - 1, advanced))
            .sum()
    }

    /// Random game to the end; `Some(winner colour)`, `None` when `max_plies` ran out.
    pub fn playout(
        &self,
        pos: &Pos,
        advanced: bool,
        rng: &mut SmallRng,
        max_plies: u32,
    ) -> Option<usize> {
        let mut pos = *pos;
        let mut moves = Vec::with_capacity(128);
        for _ in 0..max_plies {
            if advanced && self.hand_emptied(&pos) {
                return Some(usize::from(pos.side ^ 1));
            }
            moves.clear();
            self.gen_moves(&pos, advanced, &mut moves);
            if moves.is_empty() {
                return Some(usize::from(pos.side ^ 1));
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            pos = self.make(&pos, mv, advanced);
        }
        None
    }
}
