//! Actions and observations for learning (see `games::actions`).
//!
//! Action: `route * 1024 + from * 32 + to`, squares numbered `rank * 4 + file / 2` (a1 = 0,
//! h8 = 31); `route` (0 or 1) tells apart two captures between the same two squares
//! (different routes, different men taken), in notation order. A third such capture has no
//! action; random games never met one (the bijection test). Nearly every legal move is in the
//! first 1,024 actions, a piece's in 32 bytes of a mask row: batched play writes and reads
//! half the cache lines that `(from * 32 + to) * 2 + route` took.
//!
//! Observation: 5 planes of 8 × 8 (row 0 = rank 1, column 0 = file a): white men, white
//! kings, black men, black kings, and a plane of ones when Black is to move.

use super::board::{file_of, rank_of, Bits, Move, Position, Squares, BLACK, WHITE};
use super::movegen::legal_moves_by_square;
use super::Poddavki;
use crate::games::actions::{encode, fill_plane, ActionSpace, Actions, Decisions};

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
    /// The generator lists the moves in action order, so `encode`'s sort finds them sorted.
    fn decisions(
        &self,
        pos: &Position,
        pending: &[u32],
        moves: &mut Vec<Move>,
        out: &mut Decisions<Move>,
    ) -> usize {
        debug_assert!(pending.is_empty(), "one decision per move");
        moves.clear();
        legal_moves_by_square(pos, moves);
        encode(self, pos, moves, out)
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
    use crate::games::actions::{action_of, Decision};
    use crate::games::prelude::*;

    /// The generator's own order gives the list that encoding the legal moves gives (sorted,
    /// ties ranked by notation), along random games.
    #[test]
    fn decisions_are_the_encoded_legal_moves() {
        let game = Poddavki::default();
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let (mut listed, mut encoded) = (Vec::new(), Vec::new());
        let mut kings = 0;
        for pos in random_positions(43, 3000) {
            listed.clear();
            let left = game.decisions(&pos, &[], &mut scratch, &mut listed);
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            encoded.clear();
            assert_eq!(left, encode(&game, &pos, &moves, &mut encoded));
            assert_eq!(listed, encoded, "{}", game.format_position(&pos));
            kings += usize::from(pos.kings != 0);
        }
        assert!(kings > 300, "{kings} positions with kings");
    }

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

    /// Two captures between the same squares (b4 to b8, different men taken): the first in
    /// notation order is `from * 32 + to`, the second 1,024 past it, whether the actions come
    /// from the position's list or one move at a time; the list stays ascending (another
    /// capture, h4 to d4, has a key between the two).
    #[test]
    fn two_routes_between_the_same_squares_are_told_apart_by_notation() {
        let game = Poddavki::default();
        let pos = game
            .parse_position("W:Wa1,e1,g1,b2,f2,h2,a3,b4,h4,a5:Bc5,e5,g5,b6,a7,c7,e7,g7,d8,h8")
            .expect("a position");
        let key = 12 * 32 + 28;
        let (mut moves, mut listed) = (Vec::new(), Vec::new());
        assert_eq!(game.decisions(&pos, &[], &mut moves, &mut listed), 0);
        let expected = [
            ("b4:d6:b8", key),
            ("h4:f6:d4", 15 * 32 + 13),
            ("b4:d6:f4:h6:f8:d6:b8", 1024 + key),
        ];
        let mut actions = Vec::new();
        for (text, action) in expected {
            let mv = game.parse_move(&pos, text).expect("a legal move");
            assert_eq!(action_of(&game, &pos, mv), Some(action), "{text}");
            actions.push((action as u32, Decision::Move(mv)));
        }
        assert_eq!(listed, actions);
    }
}
