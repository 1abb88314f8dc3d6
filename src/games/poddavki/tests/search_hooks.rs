//! Evaluation, forcing test and move-ordering hints.

use super::{pos, random_positions};
use crate::games::poddavki::board::Position;
use crate::games::poddavki::Poddavki;
use crate::games::{Game, EVAL_LIMIT};

/// The same position seen from the other side: board turned round, colours swapped.
fn mirror(p: &Position) -> Position {
    Position::new(
        p.pieces[1].reverse_bits(),
        p.pieces[0].reverse_bits(),
        p.kings.reverse_bits(),
        p.stm ^ 1,
    )
}

fn eval(fen: &str) -> i32 {
    Poddavki::default().evaluate(&pos(fen))
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

#[test]
fn fewer_own_pieces_is_better() {
    // Same structure, the side to move short of two men against long of two.
    let short = eval("W:Wc3:Bb6,f6,h6");
    let long = eval("W:Wc3,a3,e3:Bf6");
    assert!(short > 100 && long < -100, "{short} {long}");
}

#[test]
fn own_king_is_a_burden() {
    assert!(eval("W:Wd4:Bb8,h8") > eval("W:WKd4:Bb8,h8"));
    // An opponent king is welcome: it must take whatever is offered to it.
    assert!(eval("W:Wa1:BKe5,h8") > eval("W:Wa1:Be5,h8"));
}

#[test]
fn pieces_on_offer_and_jammed_men_count_for_their_owner() {
    // White's c3 is on offer to d4 (b2 behind it is free; e5 stops c3 taking d4).
    assert!(eval("W:Wg1,c3:Bd4,e5") > eval("W:Wg1,c3:Bd6,e5"));
    // White's man on a3 is jammed behind b4/c5 (and cannot be taken); on c1 it runs free.
    assert!(eval("W:Wa3,g1:Bb4,c5") > eval("W:Wc1,g1:Bb4,c5"));
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
