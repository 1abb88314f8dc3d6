//! Checks for the endgame databases that share no code with their builder: a plain retrograde
//! over every Poddavki position with few pieces, in hash maps, from the game's move generator
//! only; and a bounded exhaustive search that proves wins and losses within a depth.

use std::collections::HashMap;

use crate::games::poddavki::{Move, Poddavki, Position};
use crate::games::{Moves, Rules};

/// A solved position for the side to move, with its distance to zeroing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    Win(u32),
    Loss(u32),
    Draw,
}

/// (white, black, kings, side to move).
pub type Key = (u32, u32, u32, usize);

pub fn key(p: &Position) -> Key {
    (p.pieces[0], p.pieces[1], p.kings, p.stm)
}

/// Every position with 1 to `max_pieces` pieces (a side may have none), both sides to move.
pub fn positions(max_pieces: u32) -> Vec<Position> {
    // Piece kinds: white man, white king, black man, black king.
    fn place(sq: usize, left: u32, acc: [u32; 3], out: &mut Vec<[u32; 3]>) {
        if sq == 32 {
            if acc[0] | acc[1] != 0 {
                out.push(acc);
            }
            return;
        }
        place(sq + 1, left, acc, out);
        if left == 0 {
            return;
        }
        let rank = sq / 4;
        let bit = 1u32 << sq;
        if rank != 7 {
            place(sq + 1, left - 1, [acc[0] | bit, acc[1], acc[2]], out);
        }
        place(sq + 1, left - 1, [acc[0] | bit, acc[1], acc[2] | bit], out);
        if rank != 0 {
            place(sq + 1, left - 1, [acc[0], acc[1] | bit, acc[2]], out);
        }
        place(sq + 1, left - 1, [acc[0], acc[1] | bit, acc[2] | bit], out);
    }
    let mut sets = Vec::new();
    place(0, max_pieces, [0; 3], &mut sets);
    sets.iter()
        .flat_map(|&[w, b, k]| [0, 1].map(|stm| Position::new(w, b, k, stm)))
        .collect()
}

fn zeroing(p: &Position, m: Move) -> bool {
    m.captured != 0 || p.kings & (1 << m.from) == 0
}

/// Solves every position with up to `max_pieces` pieces: win/loss/draw by plain iteration to a
/// fixed point, then distances to zeroing round by round (round k settles distance k).
pub fn retrograde(max_pieces: u32) -> HashMap<Key, Solved> {
    let game = Poddavki::default();
    let all = positions(max_pieces);
    let id: HashMap<Key, usize> = all.iter().enumerate().map(|(i, p)| (key(p), i)).collect();
    let mut moves = Vec::new();
    let succ: Vec<Vec<(usize, bool)>> = all
        .iter()
        .map(|p| {
            moves.clear();
            game.legal_moves(p, &mut moves);
            moves
                .iter()
                .map(|&m| (id[&key(&game.make(p, m))], zeroing(p, m)))
                .collect()
        })
        .collect();
    // 1 win, -1 loss, 0 not known (a draw at the end).
    let mut wdl = vec![0i8; all.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..all.len() {
            if wdl[i] != 0 {
                continue;
            }
            let s = &succ[i];
            let v = if s.is_empty() || s.iter().any(|&(j, _)| wdl[j] == -1) {
                1
            } else if s.iter().all(|&(j, _)| wdl[j] == 1) {
                -1
            } else {
                0
            };
            if v != 0 {
                wdl[i] = v;
                changed = true;
            }
        }
    }
    let mut dtz: Vec<Option<u32>> = vec![None; all.len()];
    for i in 0..all.len() {
        if succ[i].is_empty() {
            dtz[i] = Some(0);
        }
    }
    let mut k = 1;
    loop {
        let mut now = Vec::new();
        for i in 0..all.len() {
            if wdl[i] == 0 || dtz[i].is_some() {
                continue;
            }
            // A move's distance if known before this round.
            let d = |&(j, z): &(usize, bool)| -> Option<u32> {
                if z {
                    Some(1)
                } else {
                    dtz[j].filter(|&t| t < k).map(|t| t + 1)
                }
            };
            let ok = if wdl[i] == 1 {
                succ[i]
                    .iter()
                    .filter(|e| wdl[e.0] == -1)
                    .any(|e| d(e) == Some(k))
            } else {
                let ds: Option<Vec<u32>> = succ[i].iter().map(d).collect();
                ds.is_some_and(|ds| ds.iter().max() == Some(&k))
            };
            if ok {
                now.push(i);
            }
        }
        if now.is_empty() {
            break;
        }
        for i in now {
            dtz[i] = Some(k);
        }
        k += 1;
    }
    all.iter()
        .enumerate()
        .map(|(i, p)| {
            let v = match (wdl[i], dtz[i]) {
                (0, _) => Solved::Draw,
                (1, Some(d)) => Solved::Win(d),
                (-1, Some(d)) => Solved::Loss(d),
                _ => panic!("no distance for a decided position {i}"),
            };
            (key(p), v)
        })
        .collect()
}

/// Proves the result for the side to move within `depth` plies (`Some(true)`: it wins), by
/// exhaustive search with the pure rules (no draw rule can end a forced line this short without
/// a repetition, which a shortest forced win never makes).
pub fn prove(pos: &Position, depth: u32) -> Option<bool> {
    prove_memo(&Poddavki::default(), pos, depth, &mut HashMap::new())
}

fn prove_memo(
    game: &Poddavki,
    pos: &Position,
    depth: u32,
    memo: &mut HashMap<(Key, u32), Option<bool>>,
) -> Option<bool> {
    if let Some(&r) = memo.get(&(key(pos), depth)) {
        return r;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let r = if moves.is_empty() {
        Some(true)
    } else if depth == 0 {
        None
    } else {
        let mut all_win = true;
        let mut wins = false;
        for m in moves {
            match prove_memo(game, &game.make(pos, m), depth - 1, memo) {
                Some(false) => {
                    wins = true;
                    break;
                }
                Some(true) => {}
                None => all_win = false,
            }
        }
        if wins {
            Some(true)
        } else if all_win {
            Some(false)
        } else {
            None
        }
    };
    memo.insert((key(pos), depth), r);
    r
}
