//! An independent reading of the capture rules for the tests: it walks (file, rank)
//! coordinates rather than bitboards, and lists every capture path of a piece, so that the
//! engine's one capture search (moves and notation paths alike) is checked against it.

use crate::games::poddavki::board::{
    file_of, rank_of, square_at, Bits, Move, Position, PROMO_RANK,
};

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

struct PathWalk<'a> {
    pos: &'a Position,
    from: usize,
    out: Vec<(Move, Vec<usize>)>,
}

impl PathWalk<'_> {
    /// Empty for the capturing piece: its start square is vacated; captured pieces stay.
    fn is_empty(&self, s: usize) -> bool {
        s == self.from || self.pos.occupied() >> s & 1 == 0
    }

    fn is_enemy(&self, s: usize, captured: Bits) -> bool {
        self.pos.pieces[self.pos.stm ^ 1] >> s & 1 != 0 && captured >> s & 1 == 0
    }

    /// Extends `path` from its last square; returns whether any jump was possible there.
    fn extend(&mut self, path: &mut Vec<usize>, captured: Bits, king: bool, promo: bool) -> bool {
        let Some(&cur) = path.last() else {
            return false;
        };
        let (f0, r0) = (file_of(cur) as i32, rank_of(cur) as i32);
        let mut any = false;
        for (df, dr) in DIRS {
            let mut step = 1;
            // A man looks at the adjacent square only; a king slides over empty squares first.
            let mut victim = square_at(f0 + df, r0 + dr);
            if king {
                while victim.is_some_and(|v| self.is_empty(v)) {
                    step += 1;
                    victim = square_at(f0 + step * df, r0 + step * dr);
                }
            }
            let Some(v) = victim.filter(|&v| self.is_enemy(v, captured)) else {
                continue;
            };
            let mut lands = Vec::new();
            let mut k = step + 1;
            while let Some(l) = square_at(f0 + k * df, r0 + k * dr) {
                if !self.is_empty(l) {
                    break;
                }
                lands.push(l);
                if !king {
                    break;
                }
                k += 1;
            }
            if lands.is_empty() {
                continue;
            }
            any = true;
            let cap = captured | 1 << v;
            let mut goes_on = Vec::new();
            for &l in &lands {
                let crowned = !king && PROMO_RANK[self.pos.stm] >> l & 1 != 0;
                path.push(l);
                goes_on.push(self.extend(path, cap, king || crowned, promo || crowned));
                path.pop();
            }
            if goes_on.iter().any(|&g| g) {
                continue;
            }
            // No landing square lets the capture go on: the move may stop on any of them (a
            // man only has one).
            for &l in &lands {
                let crowned = promo || (!king && PROMO_RANK[self.pos.stm] >> l & 1 != 0);
                let mut squares = path.clone();
                squares.push(l);
                self.out.push((
                    Move {
                        captured: cap,
                        from: self.from as u8,
                        to: l as u8,
                        promo: crowned,
                    },
                    squares,
                ));
            }
        }
        any
    }
}

/// Every capture path (move, squares stood on) of the piece on `from` (belonging to the side to move).
pub fn reference_paths(pos: &Position, from: usize) -> Vec<(Move, Vec<usize>)> {
    if from >= 32 || pos.pieces[pos.stm] >> from & 1 == 0 {
        return Vec::new();
    }
    let mut w = PathWalk {
        pos,
        from,
        out: Vec::new(),
    };
    let king = pos.kings >> from & 1 != 0;
    w.extend(&mut vec![from], 0, king, false);
    w.out
}
