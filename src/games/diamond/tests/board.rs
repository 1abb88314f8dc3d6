//! The board and its tables against the rule file.

use super::reference::{self, RefBoard};
use super::*;

#[test]
fn board_has_62_points_133_lines_24_squares_48_triangles() {
    assert_eq!(VALID.count_ones(), 62);
    assert!(parse_point("a8").is_none() && parse_point("h1").is_none());
    let degrees: u32 = Bits(VALID).map(|p| adj(p).count_ones()).sum();
    assert_eq!(degrees, 2 * 133);
    let mut orth = 0;
    let mut diag = 0;
    for p in Bits(VALID) {
        assert_eq!(
            adj(p) & !VALID,
            0,
            "line leaves the board at {}",
            point_name(p)
        );
        let mut diagonals = 0;
        for q in Bits(adj(p)) {
            let (df, dr) = (
                (q % 8) as i32 - (p % 8) as i32,
                (q / 8) as i32 - (p / 8) as i32,
            );
            if df.abs() + dr.abs() == 1 {
                orth += 1;
            } else {
                assert_eq!((df.abs(), dr.abs()), (1, 1));
                diag += 1;
                diagonals += 1;
            }
        }
        assert!(
            diagonals <= 1,
            "{} has {diagonals} diagonals",
            point_name(p)
        );
    }
    assert_eq!((orth / 2, diag / 2), (108, 25));
    let mut squares: Vec<u64> = TABLES.squares.to_vec();
    squares.sort_unstable();
    squares.dedup();
    assert_eq!(squares.len(), 24);
    assert!(squares
        .iter()
        .all(|q| q.count_ones() == 4 && q & !VALID == 0));
    let mut tris: Vec<u64> = TABLES
        .triangles
        .iter()
        .map(|t| t.iter().map(|&p| 1u64 << p).sum())
        .collect();
    tris.sort_unstable();
    tris.dedup();
    assert_eq!(tris.len(), 48);
    for t in &TABLES.triangles {
        let [a, b, c] = t.map(|p| p as usize);
        assert!(adj(a).has(b) && adj(b).has(c) && adj(a).has(c));
    }
}

#[test]
fn named_lines_and_squares_from_the_rules() {
    for (a, b) in [
        ("e3", "f4"),
        ("a1", "b2"),
        ("b3", "c2"),
        ("d5", "e4"),
        ("a7", "b8"),
        ("g1", "h2"),
        ("e3", "e4"),
        ("g3", "f3"),
        ("f4", "e3"),
    ] {
        assert!(adjacent(a, b), "{a}-{b} should be a line");
    }
    for (a, b) in [
        ("b2", "c3"),
        ("e4", "f5"),
        ("a7", "a8"),
        ("g1", "h1"),
        ("c2", "d3"),
    ] {
        assert!(
            parse_point(b).is_none() || !adjacent(a, b),
            "{a}-{b} is no line"
        );
    }
    for sq in ["b1 c1 c2 b2", "b5 c5 c6 b6", "e4 f4 f5 e5"] {
        assert!(TABLES.squares.contains(&pts(sq)), "{sq} is a square");
    }
    assert!(!TABLES.squares.contains(&pts("a1 b1 b2 a2")));
    for tri in ["a7 b7 b8", "g1 g2 h2", "e3 f3 f4", "e3 e4 f4"] {
        let m = pts(tri);
        assert!(
            TABLES
                .triangles
                .iter()
                .any(|t| t.iter().map(|&p| 1u64 << p).sum::<u64>() == m),
            "{tri} is a triangle"
        );
    }
}

#[test]
fn tables_match_the_independent_model() {
    let rb = RefBoard::new();
    assert_eq!(rb.points.len(), 62);
    assert_eq!(rb.lines.len(), 133);
    assert_eq!(rb.squares.len(), 24);
    assert_eq!(rb.triangles.len(), 48);
    let bit = |p: reference::Pt| 1u64 << (p.1 * 8 + p.0);
    for &a in &rb.points {
        let want: u64 = rb
            .points
            .iter()
            .filter(|&&b| rb.joined(a, b))
            .map(|&b| bit(b))
            .sum();
        assert_eq!(
            adj((a.1 * 8 + a.0) as usize),
            want,
            "{}",
            reference::name(a)
        );
    }
    let mut ours: Vec<u64> = TABLES.squares.to_vec();
    let mut theirs: Vec<u64> = rb.squares.iter().map(|q| q.map(bit).iter().sum()).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
    let mut ours: Vec<u64> = TABLES
        .triangles
        .iter()
        .map(|t| t.iter().map(|&p| 1u64 << p).sum())
        .collect();
    let mut theirs: Vec<u64> = rb
        .triangles
        .iter()
        .map(|t| t.map(bit).iter().sum())
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
}
