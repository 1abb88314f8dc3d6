//! Static evaluation and move-ordering hints for the giveaway goal.
//!
//! The side that runs out of moves wins, so what counts is how close each side is to having
//! nothing left to play: few pieces, few moves, men jammed against the enemy, pieces the enemy
//! will be forced to take. Kings work against their owner: a flying king is hard to lose, is
//! rarely blocked, and must take whatever the opponent offers it from across the board.

use super::board::{king_reach, opposite, shift, slide, step, Bits, Move, Position, Squares, NONE};
use super::movegen::{has_capture, FORWARD};
use crate::games::EVAL_LIMIT;

const MAN: i32 = 100;
const KING: i32 = 260;
/// Per quiet move (men); king moves count less, as a king has many anyway.
const MAN_MOBILITY: i32 = 6;
const KING_MOBILITY: i32 = 2;
/// Per man that cannot move forward at all (jammed).
const JAMMED: i32 = 10;
/// Per own piece the opponent could take if it were to move: an offer already on the board.
const EN_PRISE: i32 = 18;
/// Per rank a man has advanced: advanced men meet the enemy and get given away sooner.
const ADVANCE: i32 = 3;
/// A man one step from the far rank with an empty promotion square: about to be saddled with a king.
const CROWN_RISK: i32 = 25;

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

/// How good the standing is for its side in giveaway terms.
fn standing(v: &SideView) -> i32 {
    -(v.men * MAN + v.kings * KING) - v.man_moves * MAN_MOBILITY - v.king_moves * KING_MOBILITY
        + v.jammed * JAMMED
        + v.advance * ADVANCE
        - v.crown_risk * CROWN_RISK
}

/// Score from the side to move's point of view.
pub fn evaluate(p: &Position) -> i32 {
    let us = p.stm;
    let them = us ^ 1;
    let mine = side_view(p, us);
    let theirs = side_view(p, them);
    let mut v = standing(&mine) - standing(&theirs);
    v += EN_PRISE * en_prise(p, us).count_ones() as i32;
    v -= EN_PRISE * en_prise(p, them).count_ones() as i32;
    v.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
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
