//! Static evaluation and move-ordering hints for the giveaway goal.
//!
//! The side that runs out of moves wins. The terms and their signs were chosen by self-play
//! matches (see `tests/engine/selfplay.rs`), which overturned the first guess that few moves are
//! good:
//! - fewer own pieces is better, but material is worth less than freedom;
//! - own mobility is worth a lot: a side with choices decides when and what to give away, while a
//!   side short of moves gets pushed into captures it does not want;
//! - men held back are a reserve of tempo moves (men rushing forward lose);
//! - men jammed against enemy pieces are a step towards being blocked;
//! - a piece already on offer (the opponent could take it) is good for its owner;
//! - a quiet move that hands the opponent nothing to take is worth more than mobility alone: it
//!   is a move the owner can wait with, while the opponent's replies are forced less often
//!   (fixed-node matches, docs/strength/poddavki.md);
//! - a man about to crown is a small liability; kings otherwise count little as material and
//!   earn their keep through their mobility.

use super::board::{king_reach, opposite, shift, slide, step, Bits, Move, Position, Squares, NONE};
use super::movegen::{for_each_quiet, has_capture, FORWARD};
use crate::games::EVAL_LIMIT;
use std::ops::ControlFlow;

crate::weight_table! {
    /// Term weights: value to the owner per unit, in hundredths of a man-sized advantage. The
    /// values the engine plays with are [`WEIGHTS`] (`weights.rs`, written by `scripts/tune`).
    pub struct Weights {
        /// Per man owned.
        pub man,
        /// Per king owned.
        pub king,
        /// Per quiet move of a man.
        pub man_mobility,
        /// Per quiet move of a king.
        pub king_mobility,
        /// Per man that cannot move forward at all.
        pub jammed,
        /// Per rank a man has advanced.
        pub advance,
        /// Per man one step from the far rank that can step onto it.
        pub crown_risk,
        /// Per own piece the opponent could take if it were to move.
        pub en_prise,
        /// Per quiet move that leaves the opponent no capture.
        pub safe_move,
    }
}

pub use super::weights::WEIGHTS;

/// One side's standing; higher = closer to winning (losing everything).
struct SideView {
    men: i32,
    kings: i32,
    man_moves: i32,
    king_moves: i32,
    jammed: i32,
    advance: i32,
    crown_risk: i32,
    safe_moves: i32,
}

/// Squares of `side`'s pieces the other side's pieces could jump right now.
fn en_prise(p: &Position, side: usize) -> Bits {
    let victims = p.pieces[side];
    let empty = !p.occupied();
    let takers = p.pieces[side ^ 1];
    let men = takers & !p.kings;
    let mut hit = 0;
    for d in 0..4 {
        // A man on s, a victim on s+d, empty s+2d.
        hit |= shift(men, d) & victims & shift(empty, opposite(d));
    }
    let occ = p.occupied();
    for k in Squares(takers & p.kings) {
        for d in 0..4 {
            if let (_, Some(b)) = slide(k, d, occ) {
                let land = step(b, d);
                if victims >> b & 1 != 0 && land != NONE && empty >> land & 1 != 0 {
                    hit |= 1 << b;
                }
            }
        }
    }
    hit
}

/// The quiet moves of `side` (as if it were to move) after which the other side has no capture.
/// `offered`: `side`'s pieces the other side could take now ([`en_prise`]).
fn safe_moves(p: &Position, side: usize, offered: Bits) -> i32 {
    let mut q = *p;
    q.stm = side;
    let takers = p.pieces[side ^ 1];
    let mut n = 0;
    if offered != 0 || takers & p.kings != 0 {
        let _ = for_each_quiet(&q, |m| {
            let mut after = q.make_with::<false>(m);
            after.stm = side ^ 1;
            n += !has_capture(&after) as i32;
            ControlFlow::Continue(())
        });
        return n;
    }
    // No capture for the other side now and no flying king there: a capture after the move
    // jumps the moved piece, or lands on the square it left.
    let ours = p.pieces[side];
    let empty = !(ours | takers);
    let men = ours & !p.kings;
    for d in FORWARD[side] {
        let to = shift(men, d) & empty;
        // Taken where it lands: a taker right ahead jumps back onto the square left, one on
        // another side needs the square beyond empty.
        let mut bad = shift(takers, opposite(d));
        // Taken on the way back to the square left: another of ours next to it, a taker beyond.
        let mut opened = 0;
        for e in (0..4).filter(|&e| e != d) {
            bad |= shift(takers, opposite(e)) & shift(empty, e);
            opened |= shift(ours & shift(takers, opposite(e)), opposite(e));
        }
        bad |= shift(opened, d);
        n += (to & !bad).count_ones() as i32;
    }
    let _ = for_each_quiet(&q, |m| {
        let (f, t) = (m.from as usize, m.to as usize);
        if p.kings >> f & 1 == 0 {
            return ControlFlow::Continue(());
        }
        let mine = (ours & !(1 << f)) | 1 << t;
        let empty = !(mine | takers);
        let hit = (0..4).any(|d| {
            let (a, l) = (step(t, d), step(t, opposite(d)));
            let x = step(f, d);
            (a != NONE && l != NONE && takers >> a & 1 != 0 && empty >> l & 1 != 0)
                || (x != NONE
                    && mine >> x & 1 != 0
                    && step(x as usize, d) != NONE
                    && takers >> step(x as usize, d) & 1 != 0)
        });
        n += !hit as i32;
        ControlFlow::Continue(())
    });
    n
}

fn side_view(p: &Position, side: usize, offered: Bits) -> SideView {
    let occ = p.occupied();
    let empty = !occ;
    let men = p.pieces[side] & !p.kings;
    let kings = p.pieces[side] & p.kings;
    let [d1, d2] = FORWARD[side];
    let to1 = shift(men, d1) & empty;
    let to2 = shift(men, d2) & empty;
    let movable = shift(to1, opposite(d1)) | shift(to2, opposite(d2));
    let king_moves: u32 = Squares(kings)
        .map(|k| king_reach(k, occ).count_ones())
        .sum();
    // Rank advanced, 0 on the own first rank.
    let advance: u32 = Squares(men)
        .map(|s| if side == 0 { s / 4 } else { 7 - s / 4 } as u32)
        .sum();
    let next_to_last = if side == 0 { 0x0F00_0000 } else { 0x0000_00F0 };
    let crown_risk = (movable & men & next_to_last).count_ones();
    SideView {
        safe_moves: safe_moves(p, side, offered),
        men: men.count_ones() as i32,
        kings: kings.count_ones() as i32,
        man_moves: (to1.count_ones() + to2.count_ones()) as i32,
        king_moves: king_moves as i32,
        jammed: (men & !movable).count_ones() as i32,
        advance: advance as i32,
        crown_risk: crown_risk as i32,
    }
}

/// The raw terms, in [`Weights::NAMES`] order: each the side to move's count minus the
/// opponent's.
pub fn features(p: &Position) -> [i32; Weights::LEN] {
    let us = p.stm;
    let them = us ^ 1;
    let (ea, eb) = (en_prise(p, us), en_prise(p, them));
    let (a, b) = (side_view(p, us, ea), side_view(p, them, eb));
    [
        a.men - b.men,
        a.kings - b.kings,
        a.man_moves - b.man_moves,
        a.king_moves - b.king_moves,
        a.jammed - b.jammed,
        a.advance - b.advance,
        a.crown_risk - b.crown_risk,
        ea.count_ones() as i32 - eb.count_ones() as i32,
        a.safe_moves - b.safe_moves,
    ]
}

/// Score from the side to move's point of view.
pub fn evaluate(p: &Position) -> i32 {
    evaluate_with(p, &WEIGHTS)
}

pub fn evaluate_with(p: &Position, w: &Weights) -> i32 {
    crate::games::tune::dot(&w.to_array(), &features(p)).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}

/// The terms of [`evaluate`], each the side to move's contribution minus the opponent's; they
/// add up to it (before the clamp to the evaluation bound).
pub fn terms(p: &Position) -> Vec<(&'static str, i32)> {
    let f = features(p);
    let w = WEIGHTS.to_array();
    (0..Weights::LEN)
        .map(|i| (LABELS[i], f[i] * w[i]))
        .collect()
}

/// The terms' names as `eval` shows them, in [`Weights::NAMES`] order.
pub const LABELS: [&str; Weights::LEN] = [
    "men",
    "kings",
    "man mobility",
    "king mobility",
    "jammed men",
    "advance",
    "crown risk",
    "en prise",
    "safe moves",
];

/// Captures taking little first (every piece taken from the opponent helps them); quiet moves
/// that leave the opponent a capture (a piece offered) first among quiet moves, then men moves.
pub fn order_hint(p: &Position, m: Move) -> i32 {
    if m.is_capture() {
        return 1000 - 100 * m.captured.count_ones() as i32 - if m.promo { 50 } else { 0 };
    }
    let after = p.make_with::<false>(m);
    let mut h = 0;
    if has_capture(&after) {
        h += 500;
    }
    if p.kings >> m.from & 1 == 0 {
        h += 20;
    }
    if m.promo {
        h -= 100;
    }
    h
}

#[cfg(test)]
mod term_tests {
    use super::super::position::parse_position;
    use super::*;

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        for fen in [
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            "B:WKh8,d4,c3:Bf2,d2,c7,Ke5",
        ] {
            let p = parse_position(fen).expect("position");
            let sum: i32 = terms(&p).iter().map(|t| t.1).sum();
            assert_eq!(sum, evaluate(&p), "{fen}");
        }
    }
}

#[cfg(test)]
mod safe_tests {
    use super::*;

    /// The quiet moves after which the other side has no capture, counted by playing each.
    fn safe_by_play(p: &Position, side: usize) -> i32 {
        let mut q = *p;
        q.stm = side;
        let mut n = 0;
        let _ = for_each_quiet(&q, |m| {
            let mut after = q.make_with::<false>(m);
            after.stm = side ^ 1;
            n += !has_capture(&after) as i32;
            ControlFlow::Continue(())
        });
        n
    }

    #[test]
    fn safe_moves_match_playing_each_move() {
        let mut seen = 0;
        for p in crate::games::poddavki::tests::random_positions(47, 3000) {
            for side in 0..2 {
                let n = safe_moves(&p, side, en_prise(&p, side));
                assert_eq!(n, safe_by_play(&p, side), "{p:?} side {side}");
                seen += n;
            }
        }
        assert!(seen > 1000);
    }
}
