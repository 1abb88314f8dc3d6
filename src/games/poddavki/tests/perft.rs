//! Perft against the reference counts of the rules file.

use super::{pos, random_positions};
use crate::games::generic_perft;
use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;

const START_COUNTS: [u64; 12] = [
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189, 544770444,
];

#[test]
fn perft_from_start_through_depth_9() {
    let g = Poddavki::default();
    let start = g.start();
    for (i, &n) in START_COUNTS.iter().enumerate().take(9) {
        assert_eq!(g.perft(&start, i as u32 + 1), n, "depth {}", i + 1);
    }
}

#[test]
#[ignore]
fn perft_from_start_depth_10_to_12() {
    let g = Poddavki::default();
    let start = g.start();
    for d in 10..=12 {
        assert_eq!(
            g.perft(&start, d),
            START_COUNTS[d as usize - 1],
            "depth {d}"
        );
    }
}

#[test]
fn fast_perft_agrees_with_generic_perft() {
    let g = Poddavki::default();
    let start = g.start();
    for d in 1..=6 {
        assert_eq!(
            g.perft(&start, d),
            generic_perft(&g, &start, d),
            "depth {d}"
        );
    }
}

#[test]
fn reference_positions() {
    let cases = [
        ("W:WKh8:Bf2,d2,c7,Ke5", 3, 165),
        ("W:We3:Bd4,d6,f6,f4,Kh8", 1, 70),
        ("W:WKa1:Bc3,f6,Kh2", 2, 790),
        ("W:WKa1:Bc3,e3,Kh6", 2, 745),
        ("W:Wf6:Be7,b6,Kh2", 1, 326),
        ("W:Wc3:Bb4,d4,f6,Kh2", 2, 300),
    ];
    let g = Poddavki::default();
    for (fen, p1, p4) in cases {
        let p = pos(fen);
        assert_eq!(g.perft(&p, 1), p1, "{fen} perft 1");
        assert_eq!(g.perft(&p, 4), p4, "{fen} perft 4");
        assert_eq!(generic_perft(&g, &p, 4), p4, "{fen} generic perft 4");
    }
}

/// The perft's own board and capture split (bulk-counted single jumps, walked multi-jumps)
/// against the move list, on positions with kings, long captures and crowning mid-capture.
#[test]
fn fast_perft_agrees_with_generic_perft_on_random_positions() {
    let g = Poddavki::default();
    for (i, p) in random_positions(29, 1200).iter().enumerate() {
        let depth = 1 + (i % 3) as u32;
        assert_eq!(
            g.perft(p, depth),
            generic_perft(&g, p, depth),
            "{} perft {depth}",
            g.format_position(p)
        );
    }
}

/// A man that crowns on its second or third jump is counted without a move list when it cannot
/// go on as a king, and walked when it can: both against the move list, one capture each.
#[test]
fn fast_perft_counts_men_crowned_mid_capture() {
    let cases = [
        // b4:d6:f8, the king on f8 stopped by the man it took on e7.
        "W:Wb4:Bc5,e7",
        // b4:d6:f8:h6, the king goes on over g7.
        "W:Wb4:Bc5,e7,g7",
        // b2:d4:f6:h8, crowned on the third jump.
        "W:Wb2:Bc3,e5,g7",
        // g5:e3:c1 for Black, crowned on the second jump.
        "B:Wf4,d2:Bg5",
    ];
    let g = Poddavki::default();
    for fen in cases {
        let p = pos(fen);
        assert_eq!(g.perft(&p, 1), 1, "{fen} perft 1");
        for depth in 1..=3 {
            assert_eq!(
                g.perft(&p, depth),
                generic_perft(&g, &p, depth),
                "{fen} perft {depth}"
            );
        }
    }
}
