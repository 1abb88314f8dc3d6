//! Evaluation, forcing test and move-ordering hints.

use super::{pos, random_positions};
use crate::games::poddavki::board::Position;
use crate::games::poddavki::eval::{evaluate_with, Weights};
use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;
use crate::games::EVAL_LIMIT;

/// The same position seen from the other side: board turned round, colours swapped.
fn mirror(p: &Position) -> Position {
    Position::new(
        p.pieces[1].reverse_bits(),
        p.pieces[0].reverse_bits(),
        p.kings.reverse_bits(),
        p.stm ^ 1,
    )
}

/// The hand-written evaluation (`eval classic`), whose preferences some tests pin.
fn classic_eval(fen: &str) -> i32 {
    let mut g = Poddavki::default();
    g.set_option("eval", "classic").expect("an option");
    g.evaluate(&pos(fen))
}

#[test]
fn evaluation_is_bounded_and_colour_blind() {
    let g = Poddavki::default();
    for p in random_positions(41, 2000) {
        let v = g.evaluate(&p);
        assert!(v.abs() < EVAL_LIMIT);
        assert_eq!(v, g.evaluate(&mirror(&p)), "{}", g.format_position(&p));
    }
    assert_eq!(g.evaluate(&g.start()), g.evaluate(&mirror(&g.start())));
}

/// The evaluation with a single term switched on at weight 1: that term's own-minus-opponent
/// count from the side to move's view.
fn term(fen: &str, set: fn(&mut Weights)) -> i32 {
    let mut w = Weights {
        man: 0,
        king: 0,
        man_mobility: 0,
        king_mobility: 0,
        jammed: 0,
        en_prise: 0,
        advance: 0,
        crown_risk: 0,
        safe_move: 0,
    };
    set(&mut w);
    evaluate_with(&pos(fen), &w)
}

#[test]
fn each_term_counts_what_it_says() {
    assert_eq!(term("W:Wc3,Kd4:Bb6,d6,f6", |w| w.man = 1), 1 - 3);
    assert_eq!(term("W:Wc3,Kd4:Bb6,d6,f6", |w| w.king = 1), 1);
    // White c3 b4/d4 + g1 f2/h2 = 4; black h8 g7 = 1.
    assert_eq!(term("W:Wc3,g1:Bh8", |w| w.man_mobility = 1), 4 - 1);
    // The a1 king sees the whole long diagonal; black has no king.
    assert_eq!(term("B:WKa1:Bh6", |w| w.king_mobility = 1), -7);
    // a3 is stuck behind b4 (c5 stops the capture); black's men can both step.
    assert_eq!(term("W:Wa3,g1:Bb4,c5", |w| w.jammed = 1), 1);
    // d4 could take c3 (b2 free); c3 cannot take d4 (e5 behind it).
    assert_eq!(term("W:Wg1,c3:Bd4,e5", |w| w.en_prise = 1), 1);
    assert_eq!(term("B:Wg1,c3:Bd4,e5", |w| w.en_prise = 1), -1);
    // c5 has come four ranks; f8 none.
    assert_eq!(term("W:Wc5:Bf8", |w| w.advance = 1), 4);
    assert_eq!(term("B:Wc5:Bd6", |w| w.advance = 1), 2 - 4);
    // c7 can crown; the black man on h4 is far from its crowning rank.
    assert_eq!(term("W:Wc7:Bh4", |w| w.crown_risk = 1), 1);
    assert_eq!(term("W:Wc7:Bb8,d8,h4", |w| w.crown_risk = 1), 0);
    // c3-d4 is taken by e5 (landing on c3, just left); c3-b4 is safe. Black: e5-d4 is taken by
    // c3, e5-f4 and h8-g7 are safe.
    assert_eq!(term("W:Wc3:Be5,h8", |w| w.safe_move = 1), 1 - 2);
    // The king's six squares up the long diagonal are safe but g7, next to h8 with f6 empty;
    // h8-g7 walks into the king's reach.
    assert_eq!(term("W:WKa1:Bh8", |w| w.safe_move = 1), 5);
}

#[test]
fn fewer_pieces_and_men_held_back_are_better() {
    assert!(classic_eval("W:Wc3:Bb6,d6,f6,h6,a7") > 0);
    assert!(classic_eval("B:Wc3:Bb6,d6,f6,h6,a7") < 0);
    assert!(classic_eval("W:Wc1:Bf8") > classic_eval("W:Wc5:Bf8"));
}

#[test]
fn forcing_means_a_capture_is_due() {
    let g = Poddavki::default();
    let mut moves = Vec::new();
    let mut forcing = 0;
    for p in random_positions(43, 2000) {
        moves.clear();
        g.legal_moves(&p, &mut moves);
        let f = g.is_forcing(&p);
        assert_eq!(f, moves.first().is_some_and(|m| m.is_capture()));
        forcing += f as u32;
    }
    assert!(forcing > 100);
}

#[test]
fn ordering_prefers_small_captures_and_offers() {
    let g = Poddavki::default();
    let p = pos("W:Wc3:Bb4,d4,f6,Kh2");
    let hint = |p: &Position, text: &str| match g.parse_move(p, text) {
        Ok(m) => g.order_hint(p, m),
        Err(e) => panic!("{text}: {e}"),
    };
    assert!(hint(&p, "c3:a5") > hint(&p, "c3:e5:g7"));
    // e3-f4 offers the man to g5 (landing e3 is free again); e3-d4 does not.
    let p = pos("W:We3,a1:Bg5,a7");
    assert!(hint(&p, "e3-f4") > hint(&p, "e3-d4"));
    let p = pos("W:We3,Ka1:Bg5,a7");
    assert!(hint(&p, "e3-d4") > hint(&p, "a1-b2"));
}
