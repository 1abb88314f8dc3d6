//! Move generation: geometry, agreement with the independent path walker, and one test per rule.

use std::collections::HashSet;

use super::paths::reference_paths;
use super::{legal_strings, pos, random_positions};
use crate::games::poddavki::board::{
    file_of, rank_of, shift, square_at, step, Move, Position, Squares, NONE, RAY,
};
use crate::games::poddavki::movegen::{has_capture, legal_moves};
use crate::games::poddavki::notation::capture_paths;
use crate::games::poddavki::perft::perft;

#[test]
fn shifts_match_the_neighbour_table() {
    for (s, rays) in RAY.iter().enumerate() {
        for (d, ray) in rays.iter().enumerate() {
            let n = step(s, d);
            let expect = if n == NONE { 0 } else { 1u32 << n };
            assert_eq!(shift(1 << s, d), expect, "square {s} dir {d}");
            let (df, dr) = [(1, 1), (-1, 1), (1, -1), (-1, -1)][d];
            let f = file_of(s) as i32 + df;
            let r = rank_of(s) as i32 + dr;
            assert_eq!(square_at(f, r).map(|q| q as u8).unwrap_or(NONE), n);
            let ray_len = ray.count_ones() as i32;
            let room = |x: i32, dx: i32| if dx > 0 { 7 - x } else { x };
            let (f0, r0) = (file_of(s) as i32, rank_of(s) as i32);
            assert_eq!(ray_len, room(f0, df).min(room(r0, dr)));
        }
    }
}

/// Quiet moves read straight off the board, square by square.
fn reference_quiet(p: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    let occ = p.occupied();
    for s in Squares(p.pieces[p.stm]) {
        let king = p.kings >> s & 1 != 0;
        let dirs: &[(i32, i32)] = match (king, p.stm) {
            (true, _) => &[(1, 1), (-1, 1), (1, -1), (-1, -1)],
            (false, 0) => &[(1, 1), (-1, 1)],
            (false, _) => &[(1, -1), (-1, -1)],
        };
        for &(df, dr) in dirs {
            let mut k = 1;
            while let Some(t) = square_at(file_of(s) as i32 + k * df, rank_of(s) as i32 + k * dr) {
                if occ >> t & 1 != 0 {
                    break;
                }
                let far = if p.stm == 0 { 7 } else { 0 };
                out.push(Move {
                    captured: 0,
                    from: s as u8,
                    to: t as u8,
                    promo: !king && rank_of(t) == far,
                });
                if !king {
                    break;
                }
                k += 1;
            }
        }
    }
    out
}

fn reference_moves(p: &Position) -> HashSet<Move> {
    let caps: HashSet<Move> = Squares(p.pieces[p.stm])
        .flat_map(|s| reference_paths(p, s))
        .map(|(mv, _)| mv)
        .collect();
    if caps.is_empty() {
        reference_quiet(p).into_iter().collect()
    } else {
        caps
    }
}

#[test]
fn generator_agrees_with_the_path_walker_on_random_positions() {
    let mut captures_seen = 0;
    for p in random_positions(11, 4000) {
        let mut fast = Vec::new();
        legal_moves(&p, &mut fast);
        let set: HashSet<Move> = fast.iter().copied().collect();
        assert_eq!(set.len(), fast.len(), "duplicate moves in {p:?}");
        assert_eq!(set, reference_moves(&p), "{p:?}");
        assert_eq!(perft(&p, 1), fast.len() as u64);
        let capturing = fast.iter().any(|m| m.is_capture());
        assert_eq!(has_capture(&p), capturing);
        assert!(!capturing || fast.iter().all(|m| m.is_capture()));
        captures_seen += capturing as u32;
    }
    assert!(
        captures_seen > 500,
        "too few capture positions: {captures_seen}"
    );
}

/// The notation's paths come from the engine's capture search: every path the independent
/// walker finds, no more, as multisets (a move may have several paths).
#[test]
fn notation_paths_agree_with_the_path_walker() {
    let mut paths_seen = 0;
    for p in random_positions(12, 2000) {
        for s in Squares(p.pieces[p.stm]) {
            let mut ours: Vec<(Move, Vec<usize>)> = capture_paths(&p, s)
                .into_iter()
                .map(|c| (c.mv, c.squares))
                .collect();
            let mut theirs = reference_paths(&p, s);
            let key =
                |(m, sq): &(Move, Vec<usize>)| (m.from, m.to, m.captured, m.promo, sq.clone());
            ours.sort_by_key(key);
            theirs.sort_by_key(key);
            assert_eq!(ours, theirs, "{p:?} from {s}");
            paths_seen += ours.len();
        }
    }
    assert!(paths_seen > 500, "too few capture paths: {paths_seen}");
}

#[test]
fn start_moves() {
    let p = Position::start();
    let expect = [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ];
    assert_eq!(legal_strings(&p), expect);
}

#[test]
fn capture_is_compulsory() {
    // White could move a1-b2 or the other men quietly, but c3 must take d4.
    let p = pos("W:Wa1,c3,g3:Bd4,h8");
    assert_eq!(legal_strings(&p), ["c3:e5"]);
}

#[test]
fn men_capture_backwards_but_move_forwards_only() {
    let p = pos("W:Wd4:Bc3");
    assert_eq!(legal_strings(&p), ["d4:b2"]);
    let p = pos("B:Wf6:Be5");
    assert_eq!(legal_strings(&p), ["e5:g7"]);
    let p = pos("W:Wd4:Bh8");
    assert_eq!(legal_strings(&p), ["d4-c5", "d4-e5"]);
}

#[test]
fn kings_fly_quietly_in_all_directions() {
    let p = pos("W:WKd4:Bh8");
    let moves = legal_strings(&p);
    // a1-g7 diagonal minus the own square and h8 (occupied), plus the a7-g1 diagonal.
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(moves.contains(&"d4-a1".to_string()) && moves.contains(&"d4-g1".to_string()));
    assert!(!moves.contains(&"d4-h8".to_string()));
}

#[test]
fn a_man_reaching_the_far_rank_is_crowned() {
    let g = super::Poddavki::default();
    let p = pos("W:Wc7:Bh2");
    let mut moves = Vec::new();
    legal_moves(&p, &mut moves);
    assert_eq!(moves.len(), 2);
    for m in moves {
        assert!(m.promo);
        let after = crate::games::Rules::make(&g, &p, m);
        assert!(after.kings >> m.to & 1 != 0);
    }
}

#[test]
fn turkish_strike_captured_king_blocks() {
    // After h8:c3:e1:g3 the king on g3 would see c7 behind e5, but e5 (taken) still stands.
    let p = pos("W:WKh8:Bf2,d2,c7,Ke5");
    assert_eq!(
        legal_strings(&p),
        ["h8:c3:e1:g3", "h8:c3:e1:h4", "h8:d4:g1"]
    );
}

#[test]
fn turkish_strike_no_piece_taken_twice() {
    // Jumping d2 back would land on the (vacated) start square c1; d2 is already taken.
    let p = pos("W:Wc1:Bd2");
    assert_eq!(legal_strings(&p), ["c1:e3"]);
    // Same for a king: from any landing square it could look back over c3 to a1.
    let p = pos("W:WKa1:Bc3");
    assert!(legal_strings(&p)
        .iter()
        .all(|m| m.matches(':').count() == 1));
}

#[test]
fn loop_back_to_the_start_square_is_one_move() {
    let p = pos("W:We3:Bd4,d6,f6,f4,Kh8");
    assert_eq!(legal_strings(&p), ["e3:c5:e7:g5:e3"]);
    let paths = capture_paths(&p, square_at(4, 2).unwrap_or(0));
    assert_eq!(paths.len(), 2);
    assert_eq!(paths[0].mv, paths[1].mv);
}

#[test]
fn king_continues_along_the_same_diagonal() {
    let p = pos("W:WKa1:Bc3,f6,Kh2");
    assert_eq!(legal_strings(&p), ["a1:d4:g7", "a1:d4:h8"]);
}

#[test]
fn king_must_land_where_the_capture_continues() {
    // Only d4 lets the king go on (over e3); e5, f6, g7 and h8 are not allowed stops.
    let p = pos("W:WKa1:Bc3,e3,Kh6");
    assert_eq!(legal_strings(&p), ["a1:d4:f2", "a1:d4:g1"]);
}

#[test]
fn king_may_stop_anywhere_when_nothing_continues() {
    let p = pos("W:WKa1:Bc3");
    assert_eq!(
        legal_strings(&p),
        ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    );
}

#[test]
fn promotion_during_a_capture_continues_as_a_king() {
    let p = pos("W:Wf6:Be7,b6,Kh2");
    let mut moves = Vec::new();
    legal_moves(&p, &mut moves);
    assert_eq!(legal_strings(&p), ["f6:d8:a5"]);
    assert!(moves[0].promo);
    assert!(p.make(moves[0]).kings >> moves[0].to & 1 != 0);
}

#[test]
fn promotion_at_the_end_of_a_capture() {
    let p = pos("B:Wd2:Be3");
    let mut moves = Vec::new();
    legal_moves(&p, &mut moves);
    assert_eq!(legal_strings(&p), ["e3:c1"]);
    assert!(p.make(moves[0]).kings >> moves[0].to & 1 != 0);
}

#[test]
fn no_majority_rule() {
    let p = pos("W:Wc3:Bb4,d4,f6,Kh2");
    assert_eq!(legal_strings(&p), ["c3:a5", "c3:e5:g7"]);
}

#[test]
fn start_square_counts_as_empty_during_the_capture() {
    // A loop round four men: the king may land on (and end on) its own start square c1.
    let p = pos("W:WKc1:Bd2,d4,b4,b2");
    assert_eq!(legal_strings(&p), ["c1:a3:c5:e3:c1"]);
}
