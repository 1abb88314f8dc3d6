//! Perft and move generation against the independent model; round-trips.

use super::reference::{RefBoard, RefPos};
use super::*;
use crate::testkit;

#[test]
fn perft_from_start_matches_reference_counts() {
    let g = Diamond;
    let s = g.start();
    let want = [62u64, 3844, 230702, 13615200];
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(g.perft(&s, d as u32 + 1), n, "perft({})", d + 1);
    }
}

#[test]
fn perft_matches_the_independent_brute_force() {
    let g = Diamond;
    let rb = RefBoard::new();
    let start = RefPos::parse(&g.start().to_fen());
    for d in 1..=3 {
        assert_eq!(
            g.perft(&g.start(), d),
            start.perft(&rb, d),
            "start depth {d}"
        );
    }
    // Swap turn, movement phase with neutrals and captures, and a position one ply from wins.
    let others = [
        "7/8/8/8/4B3/8/8/7 w 11 12 0".to_string(),
        setup(
            "b5 c5 b6 d4 e3 f2",
            "c6 d5 e4 f3 g2",
            "a1 h8",
            'b',
            [0, 0],
            10,
        )
        .to_fen(),
        setup("b5 c5 b6 c7 e3 f4", "d6 e4 f3 b7 d3", "", 'w', [0, 0], 47).to_fen(),
        WIN_IN_ONE[0].fen.to_string(),
    ];
    for f in &others {
        let p = fen(f);
        let r = RefPos::parse(f);
        for d in 1..=3 {
            assert_eq!(g.perft(&p, d), r.perft(&rb, d), "{f} depth {d}");
            assert_eq!(g.perft(&p, d), crate::games::generic_perft(&g, &p, d));
        }
    }
}

#[test]
fn moves_and_results_match_the_independent_model() {
    let g = Diamond;
    let rb = RefBoard::new();
    let positions = random_positions(7, 40, 1500);
    let mut captures = 0;
    let mut removals = 0;
    for p in &positions {
        let f = p.to_fen();
        let r = RefPos::parse(&f);
        let ours = move_strings(p);
        assert_eq!(ours, r.moves(&rb), "moves of {f}");
        let mut moves = Vec::new();
        g.legal_moves(p, &mut moves);
        for m in moves {
            let text = g.format_move(p, m);
            captures += text.ends_with('*') as usize;
            removals += text.starts_with('(') as usize;
            assert_eq!(
                g.make(p, m).to_fen(),
                r.make(&rb, &text).format(),
                "{text} in {f}"
            );
        }
    }
    assert!(captures > 100 && removals > 100, "{captures} {removals}");
}

#[test]
fn notation_positions_and_hashes_round_trip() {
    let g = Diamond;
    let positions = random_positions(11, 60, 3000);
    assert!(positions.len() > 4000);
    let mut moves = Vec::new();
    for p in &positions {
        // Position and move round trips, distinct move names, the move-listing variants.
        testkit::check_position(&g, p, &mut moves);
        let f = g.format_position(p);
        assert_eq!(p.hash, p.compute_hash());
        let mut seen = std::collections::HashSet::new();
        for &m in &moves {
            assert!(seen.insert(m), "duplicate move");
            let text = g.format_move(p, m);
            assert_eq!(g.parse_move(p, &text.to_uppercase()), Ok(m));
            if let Some(plain) = text.strip_suffix('*') {
                assert_eq!(g.parse_move(p, plain), Ok(m), "'*' may be omitted");
            } else if let Move::Step(..) = m {
                assert!(matches!(
                    g.parse_move(p, &format!("{text}*")),
                    Err(RuleError::Illegal(_))
                ));
            }
            let next = g.make(p, m);
            assert_eq!(next.hash, next.compute_hash(), "{text} in {f}");
            assert_eq!(g.hash(&next), next.compute_hash());
        }
    }
}
