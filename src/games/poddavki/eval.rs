//! Static evaluation and move-ordering hints for the giveaway goal.
//!
//! The side that runs out of moves wins. The terms and their signs were chosen by self-play
//! matches (see `tests/selfplay.rs`), which overturned the first guess that few moves are good:
//! - fewer own pieces is better, but material is worth less than freedom;
//! - own mobility is worth a lot: a side with choices decides when and what to give away, while a
//!   side short of moves gets pushed into captures it does not want;
//! - men held back are a reserve of tempo moves (men rushing forward lose);
//! - men jammed against enemy pieces are a step towards being blocked;
//! - a piece already on offer (the opponent could take it) is good for its owner;
//! - a man about to crown is a small liability; kings otherwise count little as material and
//!   earn their keep through their mobility.

use super::board::{king_reach, opposite, shift, slide, step, Bits, Move, Position, Squares, NONE};
use super::movegen::{has_capture, FORWARD};
use crate::games::EVAL_LIMIT;

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

fn side_view(p: &Position, side: usize) -> SideView {
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
    let (a, b) = (side_view(p, us), side_view(p, them));
    let en = |side| en_prise(p, side).count_ones() as i32;
    [
        a.men - b.men,
        a.kings - b.kings,
        a.man_moves - b.man_moves,
        a.king_moves - b.king_moves,
        a.jammed - b.jammed,
        a.advance - b.advance,
        a.crown_risk - b.crown_risk,
        en(us) - en(them),
    ]
}

/// Score from the side to move's point of view.
pub fn evaluate(p: &Position) -> i32 {
    evaluate_with(p, &WEIGHTS)
}

pub fn evaluate_with(p: &Position, w: &Weights) -> i32 {
    crate::tune::dot(&w.to_array(), &features(p)).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}

/// The terms of [`evaluate`], each the side to move's contribution minus the opponent's; they
/// add up to it (before the clamp to the evaluation bound).
pub fn terms(p: &Position) -> Vec<(&'static str, i32)> {
    const LABELS: [&str; Weights::LEN] = [
        "men",
        "kings",
        "man mobility",
        "king mobility",
        "jammed men",
        "advance",
        "crown risk",
        "en prise",
    ];
    let f = features(p);
    let w = WEIGHTS.to_array();
    (0..Weights::LEN)
        .map(|i| (LABELS[i], f[i] * w[i]))
        .collect()
}

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
