//! Move ordering for [`super::alphabeta`], in the manner of Stockfish's movepick: the table
//! move first, then the game's ordering hint, killer moves and history scores, handed out best
//! first by a lazy selection sort (a cutoff usually comes after a move or two).

use std::hash::Hash;

use super::tt::{move_hashes, MoveCode};
use crate::games::prelude::*;

const HISTORY_SIZE: usize = 4096;
const TT_MOVE: i32 = 1 << 30;
const KILLER_1: i32 = 1 << 24;
const KILLER_2: i32 = 1 << 23;
/// Order hints are clamped to this so that they stay below the killer bonuses' reach.
const HINT_LIMIT: i32 = 1 << 20;
const HINT_SCALE: i32 = 64;
const HISTORY_LIMIT: i32 = 1 << 20;

/// What the search learns about moves across its nodes (killers per ply, history per move) and
/// the scored move lists of each ply, kept to spare allocations.
pub(super) struct MoveOrder<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<(i32, M, bool)>>,
    /// The game's hints for the node being scored.
    hints: Vec<i32>,
}

/// The moves of one node with their ordering scores, handed out best first.
pub(super) struct MovePicker<M> {
    /// Ordering score, move, and whether the game's hint marks it a threat.
    scored: Vec<(i32, M, bool)>,
    next: usize,
}

/// A move from [`MovePicker::next`].
#[derive(Clone, Copy)]
pub(super) struct Pick<M> {
    pub mv: M,
    /// How many moves were handed out before this one.
    pub index: usize,
    /// Neither the table move nor a killer: a candidate for reduction, and for the killer and
    /// history tables when it cuts off.
    pub quiet: bool,
    /// The game's ordering hint reached the threat level it gave ([`MoveOrder::picker`]).
    pub threat: bool,
}

impl<M: Copy + Eq + Hash> MoveOrder<M> {
    pub fn new(max_ply: usize) -> Self {
        MoveOrder {
            killers: vec![[None; 2]; max_ply],
            history: vec![0; HISTORY_SIZE],
            buffers: vec![Vec::new(); max_ply],
            hints: Vec::new(),
        }
    }

    /// Scores `moves` of `pos`, searched at `ply`; the first move whose code is `tt_move` (the
    /// table's move for `pos`) goes first. Only moves of `moves` are ever handed out, so a table
    /// move is played only if it is one of the node's own moves.
    pub fn picker<G: Game<Move = M>>(
        &mut self,
        game: &G,
        pos: &G::Pos,
        ply: usize,
        moves: &[M],
        tt_move: Option<MoveCode>,
        threat_hint: Option<i32>,
    ) -> MovePicker<M> {
        let mut scored = std::mem::take(&mut self.buffers[ply]);
        scored.clear();
        let killers = self.killers[ply];
        self.hints.clear();
        game.order_hints(pos, moves, &mut self.hints);
        for (&m, &hint) in moves.iter().zip(&self.hints) {
            let (h, code) = move_hashes(&m);
            let threat = threat_hint.is_some_and(|t| hint >= t);
            let s = if tt_move == Some(code) {
                TT_MOVE
            } else {
                let mut s = hint.clamp(-HINT_LIMIT, HINT_LIMIT) * HINT_SCALE;
                if Some(m) == killers[0] {
                    s += KILLER_1;
                } else if Some(m) == killers[1] {
                    s += KILLER_2;
                }
                s + self.history[move_slot(h)]
            };
            scored.push((s, m, threat));
        }
        MovePicker { scored, next: 0 }
    }

    /// The node at `ply` is done with its picker: its buffer serves the next node there.
    pub fn give_back(&mut self, ply: usize, picker: MovePicker<M>) {
        self.buffers[ply] = picker.scored;
    }

    /// A quiet move cut off at `ply` with `depth` left: it becomes the first killer there and
    /// gains history; with `tried` (history malus), the quiet moves that picker handed out
    /// before it, which did not cut off, lose as much.
    pub fn cutoff(&mut self, ply: usize, m: M, depth: i32, tried: Option<&MovePicker<M>>) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = depth * depth;
        self.bump(&m, bonus);
        if let Some(picker) = tried {
            let before = picker.next.saturating_sub(1);
            for &(order, other, _) in &picker.scored[..before] {
                if order < KILLER_2 && other != m {
                    self.bump(&other, -bonus);
                }
            }
        }
    }

    fn bump(&mut self, m: &M, bonus: i32) {
        let h = &mut self.history[move_slot(move_hashes(m).0)];
        *h = (*h + bonus).clamp(-HISTORY_LIMIT, HISTORY_LIMIT);
    }
}

impl<M: Copy> MovePicker<M> {
    pub fn len(&self) -> usize {
        self.scored.len()
    }

    /// Late-move pruning passed over a quiet move that makes no threat: the moves still to come
    /// score no higher, so are quiet too, and of them only the threats will be searched. The
    /// others are dropped instead of each being found by a scan of all that remain.
    pub fn keep_threats(&mut self) {
        let mut kept = self.next;
        for j in self.next..self.scored.len() {
            if self.scored[j].2 {
                self.scored.swap(kept, j);
                kept += 1;
            }
        }
        self.scored.truncate(kept);
    }

    /// The best-scored move not yet handed out (the first of equals).
    pub fn next(&mut self) -> Option<Pick<M>> {
        let i = self.next;
        if i >= self.scored.len() {
            return None;
        }
        let mut bi = i;
        for j in i + 1..self.scored.len() {
            if self.scored[j].0 > self.scored[bi].0 {
                bi = j;
            }
        }
        self.scored.swap(i, bi);
        self.next += 1;
        let (order, mv, threat) = self.scored[i];
        Some(Pick {
            mv,
            index: i,
            quiet: order < KILLER_2,
            threat,
        })
    }
}

fn move_slot(hash: u64) -> usize {
    (hash as usize) & (HISTORY_SIZE - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After late-move pruning passes over a move, only the threats still to come are handed
    /// out, best first, after the moves already handed out.
    #[test]
    fn keeping_threats_drops_the_other_moves_still_to_come() {
        let scored = vec![
            (50, 'a', false),
            (10, 'b', true),
            (40, 'c', false),
            (30, 'd', true),
            (20, 'e', false),
            (35, 'f', true),
        ];
        let mut picker = MovePicker { scored, next: 0 };
        let first: Vec<char> = (0..2).filter_map(|_| picker.next()).map(|p| p.mv).collect();
        assert_eq!(first, ['a', 'c']);
        picker.keep_threats();
        let rest: Vec<(char, usize, bool)> = std::iter::from_fn(|| picker.next())
            .map(|p| (p.mv, p.index, p.threat))
            .collect();
        assert_eq!(rest, [('f', 2, true), ('d', 3, true), ('b', 4, true)]);
        assert_eq!(picker.len(), 5);
    }
}
