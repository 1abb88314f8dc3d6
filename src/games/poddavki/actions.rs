//! Actions and observations for learning (see `games::actions`).
//!
//! Action: `(from * 32 + to) * 2 + rank`, squares numbered `rank * 4 + file / 2` (a1 = 0,
//! h8 = 31); `rank` tells apart two captures between the same two squares (different routes,
//! different men taken), in notation order. A third such capture has no action; random games
//! never met one (the bijection test).
//!
//! Observation: 5 planes of 8 × 8 (row 0 = rank 1, column 0 = file a): white men, white
//! kings, black men, black kings, and a plane of ones when Black is to move.

use super::board::{file_of, rank_of, Bits, Move, Position, Squares, BLACK, WHITE};
use super::Poddavki;
use crate::games::actions::{fill_plane, ActionSpace, Actions};

impl Actions for Poddavki {
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            keys: 32 * 32,
            slots: 2,
        }
    }
    fn action_key(&self, _pos: &Position, mv: Move) -> usize {
        usize::from(mv.from) * 32 + usize::from(mv.to)
    }
    fn observation_shape(&self) -> [usize; 3] {
        [5, 8, 8]
    }
    fn observe(&self, pos: &Position, out: &mut [f32]) {
        out.fill(0.0);
        for (plane, &bits) in planes(pos).iter().enumerate() {
            for s in Squares(bits) {
                out[plane * 64 + rank_of(s) * 8 + file_of(s)] = 1.0;
            }
        }
        if pos.stm == BLACK {
            fill_plane(out, 4, 64, 1.0);
        }
    }
    fn observe_change(&self, before: &Position, after: &Position, out: &mut [f32]) {
        let (old, new) = (planes(before), planes(after));
        for (plane, (&old, &new)) in old.iter().zip(&new).enumerate() {
            for s in Squares(old ^ new) {
                out[plane * 64 + rank_of(s) * 8 + file_of(s)] =
                    f32::from(u8::from(new >> s & 1 != 0));
            }
        }
        if before.stm != after.stm {
            fill_plane(out, 4, 64, if after.stm == BLACK { 1.0 } else { 0.0 });
        }
    }
}

/// The first four planes' squares: white men, white kings, black men, black kings.
fn planes(pos: &Position) -> [Bits; 4] {
    let (white, black) = (pos.pieces[WHITE], pos.pieces[BLACK]);
    [
        white & !pos.kings,
        white & pos.kings,
        black & !pos.kings,
        black & pos.kings,
    ]
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_positions;
    use super::*;
    use crate::games::prelude::*;

    /// The planes as the module documents them: white men, white kings, black men, black
    /// kings (row 0 = rank 1, column 0 = file a), then ones when Black is to move.
    #[test]
    fn the_planes_are_the_documented_ones() {
        let game = Poddavki::default();
        let pos = game
            .parse_position("B:WKa1,c3:Bf6,Kh8")
            .expect("a position");
        let mut obs = vec![f32::NAN; 320];
        game.observe(&pos, &mut obs);
        let ones: Vec<usize> = (0..256).filter(|&i| obs[i] == 1.0).collect();
        assert_eq!(ones, [2 * 8 + 2, 64, 2 * 64 + 5 * 8 + 5, 3 * 64 + 63]);
        assert!(obs[..256].iter().all(|&v| v == 0.0 || v == 1.0));
        assert!(obs[256..].iter().all(|&v| v == 1.0));
    }

    /// From any position's planes to any other's (a move, or a finished game back to the
    /// start, as batched play does), the change gives the planes `observe` writes.
    #[test]
    fn observe_change_gives_the_planes_observe_writes() {
        let game = Poddavki::default();
        let mut positions = random_positions(41, 400);
        positions.push(game.start());
        let mut moves = Vec::new();
        for (k, before) in positions.iter().enumerate() {
            moves.clear();
            game.legal_moves(before, &mut moves);
            let mut afters: Vec<Position> = moves.iter().map(|&m| game.make(before, m)).collect();
            afters.push(positions[(k * 7 + 3) % positions.len()]);
            for after in &afters {
                let (mut changed, mut fresh) = (vec![f32::NAN; 320], vec![f32::NAN; 320]);
                game.observe(before, &mut changed);
                game.observe_change(before, after, &mut changed);
                game.observe(after, &mut fresh);
                assert_eq!(changed, fresh, "{}", game.format_position(after));
            }
        }
    }
}
