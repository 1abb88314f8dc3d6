//! Position strings and the diagram.

use proptest::prelude::*;

use super::{pos, random_positions};
use crate::games::poddavki::board::Position;
use crate::games::poddavki::position::{format_position, parse_position, render};
use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;
use crate::games::RuleError;

const START: &str = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

#[test]
fn start_position_string() {
    let g = Poddavki::default();
    assert_eq!(g.format_position(&g.start()), START);
    assert_eq!(pos(START), g.start());
}

#[test]
fn lenient_input_gives_the_canonical_string() {
    let cases = [
        (" b:bKh8,c7:wkA1,e3 ", "B:WKa1,e3:Bc7,Kh8", (2, 2)),
        ("W:W:Bc5", "W:W:Bc5", (0, 1)),
        ("B:B:W", "B:W:B", (0, 0)),
        ("W:Wg3, Ke5:Bd6.", "W:Wg3,Ke5:Bd6", (2, 1)),
    ];
    for (text, canon, (nw, nb)) in cases {
        let p = pos(text);
        assert_eq!(format_position(&p), canon, "{text}");
        assert_eq!(
            (p.pieces[0].count_ones(), p.pieces[1].count_ones()),
            (nw, nb)
        );
    }
    let p = pos("B:WKa1:Bc7");
    assert_eq!(p.stm, 1);
    assert_eq!(p.kings, 1);
}

#[test]
fn random_positions_round_trip() {
    let mut moves = Vec::new();
    for p in random_positions(31, 3000) {
        // Position and move round trips, distinct move names, the move-listing variants.
        crate::testkit::check_position(&Poddavki::default(), &p, &mut moves);
        assert_eq!(p.hash, p.compute_hash());
    }
}

#[test]
fn invalid_positions_are_rejected_with_a_reason() {
    let bad = [
        ("W:Wa2:Bc5", "light square"),
        ("W:Wa1,a1:Bc5", "named twice"),
        ("W:Wa1:Bc5,a1", "named twice"),
        ("W:Wb8:Bc5", "far rank"),
        ("W:Wc3:Ba1", "far rank"),
        ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:Bh8", "13 pieces"),
        ("X:Wa1:Bc5", "W or B"),
        ("W:Wa1", "no piece list for B"),
        ("W:Wa1:Bc5:Wc3", "two piece lists"),
        ("W:Wa1:Qc5", "starts with W or B"),
        ("W:Wz9:Bc5", "not a square"),
        ("W:Wa1,,c3:Bc5", "not a square"),
        ("", "W or B"),
        ("garbage", "W or B"),
    ];
    for (text, why) in bad {
        match parse_position(text) {
            Err(RuleError::InvalidPosition(msg)) => assert!(msg.contains(why), "{text}: {msg}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // Kings may stand on any rank.
    assert!(parse_position("W:WKb8:BKa1").is_ok());
}

/// The piece letters on the board lines of a diagram.
fn board_letters(text: &str) -> String {
    text.lines()
        .take(8)
        .flat_map(|l| l.chars().skip(1))
        .filter(|c| c.is_alphabetic())
        .collect()
}

#[test]
fn diagram_has_no_empty_lines_and_shows_every_piece() {
    let p = pos("B:WKa1,c3:Bd6,Kh8");
    let text = render(&p);
    assert!(text.lines().all(|l| !l.trim().is_empty()), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11);
    assert!(
        lines[0].starts_with('8') && lines[0].ends_with('B'),
        "{text}"
    );
    assert!(
        lines[7].starts_with('1') && lines[7].contains('W'),
        "{text}"
    );
    let expect = [
        "8    .   .   .   B",
        "7  .   .   .   .",
        "6    .   b   .   .",
        "5  .   .   .   .",
        "4    .   .   .   .",
        "3  .   w   .   .",
        "2    .   .   .   .",
        "1  W   .   .   .",
        "   a b c d e f g h",
        "black to move",
        "legend: w white man, W white king, b black man, B black king, . empty",
    ];
    assert_eq!(lines, expect);
    assert!(lines[9].contains("black"));
    let mut letters: Vec<char> = board_letters(&text).chars().collect();
    letters.sort();
    assert_eq!(letters, ['B', 'W', 'b', 'w']);
    let start = board_letters(&render(&Position::start()));
    assert_eq!(start.matches('w').count(), 12);
    assert_eq!(start.matches('b').count(), 12);
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,60}") {
        let _ = parse_position(&text);
    }

    #[test]
    fn near_miss_text_parses_to_a_valid_position_or_errs(
        text in "[wWbBkK]:[wWbBkK]?[a-iA-I0-9kK,]{0,30}(:[wWbBkK][a-iA-I0-9kK,]{0,30})?"
    ) {
        if let Ok(p) = parse_position(&text) {
            prop_assert_eq!(p.pieces[0] & p.pieces[1], 0);
            prop_assert!(p.pieces[0].count_ones() <= 12 && p.pieces[1].count_ones() <= 12);
            prop_assert_eq!(p.pieces[0] & !p.kings & 0xF000_0000, 0);
            prop_assert_eq!(p.pieces[1] & !p.kings & 0xF, 0);
            prop_assert_eq!(parse_position(&format_position(&p)), Ok(p));
        }
    }
}
