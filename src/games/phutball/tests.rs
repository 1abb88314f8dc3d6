//! Rule, notation and search-support tests. The brute-force model at the bottom shares no code
//! with the engine's move generator: it works on a char grid and enumerates every jump path.

use std::collections::{BTreeMap, BTreeSet};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{point, Bits, N};
use super::movegen::Move;
use super::{Phutball, Pos};
use crate::games::{outcome, DrawTracker, Game, Outcome, RuleError, Side, EVAL_LIMIT};

const START: &str = "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 r";

fn g() -> Phutball {
    Phutball
}

/// A position from a ball point, men points and side, e.g. `pos("h10", "h11 h13", 'r')`.
fn pos(ball: &str, men: &str, side: char) -> Pos {
    let name = |s: &str| super::notation::parse_point(s).expect("point");
    let mut m = Bits::EMPTY;
    for s in men.split_whitespace() {
        m.set(name(s) as usize);
    }
    Pos::new(m, name(ball), if side == 'r' { Side::P1 } else { Side::P2 })
}

fn formatted(p: &Pos) -> BTreeSet<String> {
    let mut v = Vec::new();
    g().legal_moves(p, &mut v);
    v.iter().map(|&m| g().format_move(p, m)).collect()
}

fn jump_strings(p: &Pos) -> BTreeSet<String> {
    formatted(p)
        .into_iter()
        .filter(|s| s.contains('-'))
        .collect()
}

fn play(p: &Pos, text: &str) -> Pos {
    let m = g().parse_move(p, text).expect(text);
    g().make(p, m)
}

// ---------------------------------------------------------------------------------------------
// Rules

#[test]
fn start_position_and_284_moves() {
    let s = g().start();
    assert_eq!(g().format_position(&s), START);
    assert_eq!(g().parse_position(START).unwrap(), s);
    let mut v = Vec::new();
    g().legal_moves(&s, &mut v);
    assert_eq!(v.len(), 284);
    assert!(v.iter().all(|m| matches!(m, Move::Place(_))));
    assert_eq!(g().side_to_move(&s), Side::P1);
    assert_eq!(g().terminal(&s), None);
}

#[test]
fn perft_reference_counts() {
    let s = g().start();
    assert_eq!(g().perft(&s, 1), 284);
    assert_eq!(g().perft(&s, 2), 80380);
    assert_eq!(g().perft(&s, 3), 22_671_816);
}

#[test]
fn single_and_multi_jumps() {
    // Over one man, over a run of three, then on: h10 over h11 to h12, over h13-h15 to h16.
    let p = pos("h10", "h11 h13 h14 h15", 'r');
    let j = jump_strings(&p);
    assert_eq!(
        j,
        ["h10-h12", "h10-h12-h16"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    let after = play(&p, "h10-h12-h16");
    assert_eq!(after.ball, point(7, 16) as u16);
    assert!(after.men.is_empty(), "jumped men are removed");
    assert_eq!(after.side, Side::P2);
    // Diagonal chains with a turn, and a jump in each of the 8 directions from one point.
    let p = pos("h10", "i11 k13 g9 g10 g11 h9 h11 i9 i10", 'b');
    let j = jump_strings(&p);
    for s in [
        "h10-h12",
        "h10-h8",
        "h10-f10",
        "h10-j10",
        "h10-f12",
        "h10-f8",
        "h10-j8",
        "h10-j12",
        "h10-j12-l14",
    ] {
        assert!(j.contains(s), "{s} missing from {j:?}");
    }
}

#[test]
fn a_man_removed_mid_chain_opens_a_landing_point() {
    // h8 over h9 to h10, over h11-h12 to h13, over i13 to j13, over j12 to j11, and from j11
    // south-west over i10: h9 is empty now, so the ball lands there (not on g8).
    let p = pos("h8", "h9 h11 h12 i13 j12 i10", 'r');
    let m = g().parse_move(&p, "h8-h10-h13-j13-j11-h9").unwrap();
    let mut v = Vec::new();
    g().legal_moves(&p, &mut v);
    assert!(v.contains(&m));
    let after = g().make(&p, m);
    assert_eq!(after.ball, point(7, 9) as u16);
    assert!(after.men.is_empty());
    // With h9 still standing, the same jump runs on to g8.
    let q = pos("j11", "i10 h9", 'r');
    assert_eq!(
        jump_strings(&q),
        ["j11-g8".to_string()].into_iter().collect()
    );
}

#[test]
fn chains_pass_through_goal_rows_and_come_back() {
    // Blue's ball goes over h19 to h20 (behind Blue's goal) and comes back over i19 to j18.
    let p = pos("h18", "h19 i19", 'b');
    let j = jump_strings(&p);
    assert!(j.contains("h18-h20"));
    assert!(j.contains("h18-h20-j18"));
    let stop = play(&p, "h18-h20");
    assert_eq!(
        g().terminal(&stop).map(|t| t.outcome),
        Some(Outcome::Win(Side::P1)),
        "ending behind one's own goal loses"
    );
    let back = play(&p, "h18-h20-j18");
    assert_eq!(g().terminal(&back), None, "nothing is decided mid-chain");
    // Red through rows 1 and 0 and back: h3 over h2, h1 to h0, then over i1 to j2.
    let p = pos("h3", "h2 h1 i1", 'r');
    let j = jump_strings(&p);
    assert!(j.contains("h3-h0"));
    assert!(j.contains("h3-h0-j2"));
    assert_eq!(
        g().terminal(&play(&p, "h3-h0")).map(|t| t.outcome),
        Some(Outcome::Win(Side::P2))
    );
    assert_eq!(g().terminal(&play(&p, "h3-h0-j2")), None);
    // Landing on a goal line itself (row 1 / row 19) decides too.
    let p = pos("h17", "h18", 'r');
    let t = g().terminal(&play(&p, "h17-h19")).unwrap();
    assert_eq!((t.outcome, t.reason), (Outcome::Win(Side::P1), "goal"));
}

#[test]
fn jumps_off_the_board_are_illegal() {
    // West from b10 over a10, diagonally off the side, and over a run reaching the edge.
    let p = pos("b10", "a10 a11 a9", 'r');
    assert!(jump_strings(&p).is_empty());
    let p = pos("h10", "i10 j10 k10 l10 m10 n10 o10", 'r');
    assert!(jump_strings(&p).is_empty());
    assert!(matches!(
        g().parse_move(&p, "h10-p10"),
        Err(RuleError::Syntax(_))
    ));
    // Over the top: from h20 there is nothing above; from h19-row men a jump lands on row 20.
    let p = pos("h18", "h19", 'r');
    assert_eq!(jump_strings(&p).len(), 1);
    // Bottom corner: the ball on a1 region is terminal, so use b2 with men a1: SW lands off.
    let p = pos("b2", "a1", 'b');
    assert!(jump_strings(&p).is_empty());
}

#[test]
fn men_never_go_on_rows_0_and_20() {
    let p = g().start();
    for s in ["h0", "a20", "o0"] {
        assert!(matches!(g().parse_move(&p, s), Err(RuleError::Illegal(_))));
    }
    assert!(g().parse_move(&p, "h1").is_ok());
    assert!(g().parse_move(&p, "h19").is_ok());
    assert!(matches!(
        g().parse_move(&p, "h10"),
        Err(RuleError::Illegal(_))
    ));
    let bad = "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/X14 r";
    assert!(g().parse_position(bad).is_err());
}

#[test]
fn own_goals_lose() {
    // Red jumps down onto its own goal line: Blue wins.
    let p = pos("h3", "h2", 'r');
    let after = play(&p, "h3-h1");
    assert_eq!(
        g().terminal(&after).map(|t| t.outcome),
        Some(Outcome::Win(Side::P2))
    );
    // Blue onto row 19.
    let p = pos("c17", "c18", 'b');
    let after = play(&p, "c17-c19");
    assert_eq!(
        g().terminal(&after).map(|t| t.outcome),
        Some(Outcome::Win(Side::P1))
    );
    // Search never offers an own goal when other moves exist.
    let mut v = Vec::new();
    g().search_moves(&p, &mut v);
    assert!(!v.iter().any(|&m| super::tactics::is_own_goal(&p, m)));
}

#[test]
fn threefold_repetition_is_a_draw() {
    let game = g();
    let mut p = game.start();
    let mut t = DrawTracker::new(game.hash(&p));
    for round in 0..2 {
        for mv in ["h11", "h10-h12", "h11", "h12-h10"] {
            p = play(&p, mv);
            t.push(
                game.hash(&p),
                game.is_progress(&p, game.parse_move(&p, "a5").unwrap()),
            );
            let res = outcome(&game, &p, &t);
            if round == 1 && mv == "h12-h10" {
                let r = res.expect("third occurrence of the start");
                assert_eq!((r.outcome, r.reason), (Outcome::Draw, "repetition"));
            } else {
                assert_eq!(res, None, "after {mv} in round {round}");
            }
        }
    }
    assert_eq!(p, game.start());
}

#[test]
fn move_identity_merges_paths() {
    // Four men around i11: the ball can go round the square either way and end on h10 with the
    // same men removed: one move, named by the smaller path.
    let p = pos("h10", "i10 j11 i12 h11", 'r');
    let mut v = Vec::new();
    g().legal_moves(&p, &mut v);
    let all4: Vec<_> = v
        .iter()
        .filter(|m| matches!(m, Move::Jump { removed, .. } if removed.count() == 4))
        .collect();
    assert_eq!(all4.len(), 1);
    let m = *all4[0];
    assert_eq!(g().format_move(&p, m), "h10-h12-j12-j10-h10");
    assert_eq!(g().parse_move(&p, "h10-j10-j12-h12-h10").unwrap(), m);
    assert_eq!(g().parse_move(&p, "H10-H12-J12-J10-H10").unwrap(), m);
    let after = g().make(&p, m);
    assert_eq!(after.ball, p.ball, "a ball move may end on its start point");
    assert!(after.men.is_empty());
    // Every formatted move is distinct and parses back to itself.
    let strings = formatted(&p);
    assert_eq!(strings.len(), v.len());
}

#[test]
fn notation_is_lenient_and_errors_do_not_panic() {
    let p = pos("h10", "h11", 'r');
    assert_eq!(
        g().parse_move(&p, " H12 ").unwrap(),
        Move::Place(point(7, 12) as u16)
    );
    assert_eq!(
        g().format_move(&p, g().parse_move(&p, "H10-h12").unwrap()),
        "h10-h12"
    );
    for bad in [
        "",
        "-",
        "h",
        "h100",
        "z5",
        "h10-",
        "h10--h12",
        "h09",
        "h10-h11",
        "g10-g12",
        "h10-h14",
        "\u{0}",
        "ä1",
        "h10-h12-h12",
    ] {
        assert!(g().parse_move(&p, bad).is_err(), "{bad:?}");
    }
    for bad in [
        "",
        "r",
        "15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 x",
        "15/15/15/15/15/15/15/15/15/15/7O8/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7OO6/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/0O14/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/99O/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 r extra",
    ] {
        assert!(
            matches!(g().parse_position(bad), Err(RuleError::InvalidPosition(_))),
            "{bad:?}"
        );
    }
    let lower = "15/15/15/15/15/15/15/15/15/15/7o7/15/15/15/15/15/15/15/15/15/15 R";
    assert_eq!(g().parse_position(lower).unwrap(), g().start());
}

#[test]
fn render_has_no_empty_lines() {
    let p = pos("h10", "h11 c3", 'b');
    let r = g().render(&p);
    assert!(r.lines().all(|l| !l.trim().is_empty()));
    assert!(r.contains('O') && r.contains('X') && r.contains("blue to move"));
    assert_eq!(r.lines().count(), 21 + 3);
}

// ---------------------------------------------------------------------------------------------
// Random positions

fn random_pos(rng: &mut SmallRng, density: f64) -> Pos {
    let mut men = Bits::EMPTY;
    for r in 1..20 {
        for c in 0..15 {
            if rng.gen_bool(density) {
                men.set(point(c, r));
            }
        }
    }
    let ball = point(rng.gen_range(0..15), rng.gen_range(2..19));
    men.clear(ball);
    let side = if rng.gen_bool(0.5) {
        Side::P1
    } else {
        Side::P2
    };
    Pos::new(men, ball as u16, side)
}

#[test]
fn round_trips_over_random_positions() {
    let game = g();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut checked = 0;
    for i in 0..3000 {
        let density = [0.05, 0.12, 0.18, 0.24][i % 4];
        let p = random_pos(&mut rng, density);
        let s = game.format_position(&p);
        assert_eq!(game.parse_position(&s).unwrap(), p, "{s}");
        assert_eq!(p.hash, p.scratch_hash());
        moves.clear();
        game.legal_moves(&p, &mut moves);
        if moves.len() > 3000 {
            continue;
        }
        for &m in &moves {
            let text = game.format_move(&p, m);
            assert_eq!(game.parse_move(&p, &text), Ok(m), "{s}: {text}");
            let child = game.make(&p, m);
            assert_eq!(child.hash, child.scratch_hash(), "{s}: {text}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

// ---------------------------------------------------------------------------------------------
// Independent brute force: a char grid and plain recursion over every jump path.

type Grid = [[u8; 15]; 21];

fn grid_of(text: &str) -> (Grid, bool) {
    let (rows, side) = text.split_once(' ').unwrap();
    let mut g = [[b'.'; 15]; 21];
    for (i, row) in rows.split('/').enumerate() {
        let r = 20 - i;
        let mut c = 0;
        let mut num = 0;
        for ch in row.bytes() {
            if ch.is_ascii_digit() {
                num = num * 10 + (ch - b'0') as usize;
                continue;
            }
            c += num;
            num = 0;
            g[r][c] = ch;
            c += 1;
        }
    }
    (g, side == "r")
}

fn name_of(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r)
}

fn find_ball(g: &Grid) -> (usize, usize) {
    for (r, row) in g.iter().enumerate() {
        if let Some(c) = row.iter().position(|&ch| ch == b'O') {
            return (r, c);
        }
    }
    panic!("no ball")
}

/// (end point, removed men sorted) → every path string that makes that ball move.
type BruteMoves = BTreeMap<((usize, usize), Vec<(usize, usize)>), Vec<String>>;

/// Every jump path from the ball.
fn brute_jumps(g: &Grid) -> BruteMoves {
    fn rec(
        g: &mut Grid,
        at: (usize, usize),
        removed: &mut Vec<(usize, usize)>,
        path: &mut String,
        out: &mut BruteMoves,
    ) {
        for (dr, dc) in [
            (1i32, 0i32),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ] {
            let (mut r, mut c) = (at.0 as i32 + dr, at.1 as i32 + dc);
            let mut over = Vec::new();
            while (0..21).contains(&r) && (0..15).contains(&c) && g[r as usize][c as usize] == b'X'
            {
                over.push((r as usize, c as usize));
                r += dr;
                c += dc;
            }
            if over.is_empty() || !(0..21).contains(&r) || !(0..15).contains(&c) {
                continue;
            }
            let to = (r as usize, c as usize);
            for &(a, b) in &over {
                g[a][b] = b'.';
            }
            let len = removed.len();
            removed.extend(over.iter().copied());
            let plen = path.len();
            path.push('-');
            path.push_str(&name_of(to.0, to.1));
            let mut key = removed.clone();
            key.sort();
            out.entry((to, key)).or_default().push(path.clone());
            rec(g, to, removed, path, out);
            path.truncate(plen);
            removed.truncate(len);
            for &(a, b) in &over {
                g[a][b] = b'X';
            }
        }
    }
    let mut g = *g;
    let ball = find_ball(&g);
    g[ball.0][ball.1] = b'.';
    let mut out = BTreeMap::new();
    let mut path = name_of(ball.0, ball.1);
    rec(&mut g, ball, &mut Vec::new(), &mut path, &mut out);
    out
}

fn brute_over(g: &Grid) -> bool {
    let (r, _) = find_ball(g);
    r <= 1 || r >= 19
}

/// Children of a grid position (side flips are irrelevant to the counts).
fn brute_children(g: &Grid) -> Vec<Grid> {
    let mut out = Vec::new();
    for r in 1..20 {
        for c in 0..15 {
            if g[r][c] == b'.' {
                let mut ch = *g;
                ch[r][c] = b'X';
                out.push(ch);
            }
        }
    }
    let ball = find_ball(g);
    for ((to, removed), _) in brute_jumps(g) {
        let mut ch = *g;
        ch[ball.0][ball.1] = b'.';
        for (a, b) in removed {
            ch[a][b] = b'.';
        }
        ch[to.0][to.1] = b'O';
        out.push(ch);
    }
    out
}

fn brute_perft(g: &Grid, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if brute_over(g) {
        return 0;
    }
    brute_children(g)
        .iter()
        .map(|c| brute_perft(c, depth - 1))
        .sum()
}

#[test]
fn moves_and_canonical_names_match_brute_force() {
    let game = g();
    let mut rng = SmallRng::seed_from_u64(11);
    let mut jumps_seen = 0;
    for i in 0..400 {
        let p = random_pos(&mut rng, [0.1, 0.16, 0.22][i % 3]);
        let (grid, _) = grid_of(&game.format_position(&p));
        let brute = brute_jumps(&grid);
        if brute.values().map(Vec::len).sum::<usize>() > 20_000 {
            continue;
        }
        let expected: BTreeSet<String> = brute
            .values()
            .map(|paths| paths.iter().min().unwrap().clone())
            .collect();
        assert_eq!(jump_strings(&p), expected, "{}", game.format_position(&p));
        jumps_seen += expected.len();
    }
    assert!(jumps_seen > 2000, "{jumps_seen}");
}

/// Middle positions with men around the ball, in position-string form.
fn middle_positions() -> Vec<Pos> {
    vec![
        pos(
            "h10",
            "g9 h9 i9 g11 h11 i11 g10 i10 h12 h13 j11 f8 e7 k12",
            'r',
        ),
        pos(
            "e15",
            "e16 e17 f16 d14 c13 d16 f14 g13 e13 e12 h12 c15",
            'b',
        ),
        pos("k4", "k3 k2 j3 l3 j5 l5 k5 k6 i4 m4 h4 j2 l2", 'r'),
        pos("b9", "a8 a9 a10 b8 b10 c8 c9 c10 c11 d12 b11 b12", 'b'),
    ]
}

#[test]
fn perft2_matches_brute_force() {
    let game = g();
    let mut positions = vec![game.start()];
    positions.extend(middle_positions());
    for p in positions {
        let (grid, _) = grid_of(&game.format_position(&p));
        assert_eq!(
            game.perft(&p, 1),
            brute_perft(&grid, 1),
            "{}",
            game.format_position(&p)
        );
        assert_eq!(
            game.perft(&p, 2),
            brute_perft(&grid, 2),
            "{}",
            game.format_position(&p)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Search support

#[test]
fn evaluation_is_symmetric_and_bounded() {
    let game = g();
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..300 {
        let p = random_pos(&mut rng, 0.12);
        if game.terminal(&p).is_some() {
            continue;
        }
        // Mirror rows and swap the side: the same position for the other player.
        let mut men = Bits::EMPTY;
        for q in p.men.iter() {
            men.set(point(q % 15, 20 - q / 15));
        }
        let b = p.ball as usize;
        let m = Pos::new(men, point(b % 15, 20 - b / 15) as u16, p.side.other());
        let (e, em) = (game.evaluate(&p), game.evaluate(&m));
        assert_eq!(e, em, "{}", game.format_position(&p));
        assert!(e.abs() < EVAL_LIMIT);
    }
    let e = game.evaluate(&game.start());
    assert!(e.abs() < 100, "{e}");
}

#[test]
fn evaluation_prefers_a_ladder_towards_the_goal() {
    let game = g();
    // Red to move; Red's men lead up from the ball; Blue needs placements all the way.
    let ahead = pos("h10", "h11 h13 h15 h17", 'r');
    let behind = pos("h10", "h9 h7 h5", 'r');
    assert!(game.evaluate(&ahead) > game.evaluate(&behind) + 200);
    assert_eq!(super::eval::distance(&ahead, Side::P1), 1);
    assert_eq!(super::eval::distance(&g().start(), Side::P1), 5);
    assert_eq!(super::eval::distance(&g().start(), Side::P2), 5);
}

#[test]
fn search_lists_follow_the_tactics() {
    let game = g();
    // Red can score: h16 over h17, h18 to h19.
    let win = pos("h16", "h17 h18 c5", 'r');
    let mut v = Vec::new();
    game.search_moves(&win, &mut v);
    assert_eq!(v.len(), 1);
    assert!(game.terminal(&game.make(&win, v[0])).is_some());
    assert_eq!(game.evaluate(&win), super::WIN_NOW);
    v.clear();
    game.root_moves(&win, &mut v);
    assert_eq!(v.len(), 1);
    // Blue to move, Red threatens c16-a18-a20: a man on a18 makes the first jump leave the board.
    let threat = pos("c16", "b17 a19 k5", 'b');
    assert!(game.threat(&threat).is_some());
    v.clear();
    game.search_moves(&threat, &mut v);
    assert!(v.contains(&Move::Place(point(0, 18) as u16)), "{v:?}");
    assert!(v.len() < 10, "{v:?}");
    for &m in &v {
        let child = game.make(&threat, m);
        assert!(game.winning_move(&child).is_none());
    }
    // Quiet: root gets everything, inner nodes a subset that still has moves near the ball.
    let quiet = pos("h10", "h11 c5", 'b');
    v.clear();
    game.root_moves(&quiet, &mut v);
    assert_eq!(v.len(), game.perft(&quiet, 1) as usize);
    v.clear();
    game.search_moves(&quiet, &mut v);
    assert!(v.len() < 80 && v.len() > 10, "{}", v.len());
    assert!(v.contains(&Move::Place(point(7, 9) as u16)));
}

#[test]
fn unstoppable_threat_evaluates_as_lost() {
    let game = g();
    // Red threatens h16-h19 and h16-j18-j20. A man on h19 leaves the second, one on j18 makes
    // h16-k19; Blue's own ball moves end on his goal or leave j18-j20 to Red.
    let p = pos("h16", "h17 h18 i17 j19", 'b');
    assert!(game.threat(&p).is_some());
    assert!(game.winning_move(&p).is_none());
    assert!(game.threat_stoppers(&p).is_empty());
    assert_eq!(game.evaluate(&p), -super::WIN_NOW);
    let mut v = Vec::new();
    game.search_moves(&p, &mut v);
    assert_eq!(v.len(), 1);
    v.clear();
    game.root_moves(&p, &mut v);
    assert_eq!(v.len() as u64, game.perft(&p, 1));
    // Every Blue move indeed loses at once (brute force over Red's replies).
    for &m in &v {
        let c = game.make(&p, m);
        let lost_now = game.terminal(&c).is_some();
        let mut replies = Vec::new();
        game.legal_moves(&c, &mut replies);
        let red_scores = replies.iter().any(|&r| {
            game.terminal(&game.make(&c, r)).map(|t| t.outcome) == Some(Outcome::Win(Side::P1))
        });
        assert!(lost_now || red_scores, "{}", game.format_move(&p, m));
    }
}

#[test]
fn square_count_sanity() {
    assert_eq!(N, 315);
}

#[test]
#[ignore]
fn stats_jump_counts() {
    let mut rng = SmallRng::seed_from_u64(7);
    for &d in &[0.05, 0.1, 0.15, 0.2, 0.25, 0.3] {
        let mut mx = 0;
        let mut tot = 0u64;
        let t = std::time::Instant::now();
        for _ in 0..20 {
            let p = random_pos(&mut rng, d);
            let n = super::movegen::count_jumps(&p);
            mx = mx.max(n);
            tot += n;
        }
        let e = t.elapsed().as_secs_f64();
        eprintln!(
            "density {d}: max {mx} avg {} time {e:.4}s ({:.2} M distinct moves/s)",
            tot / 20,
            tot as f64 / e / 1e6
        );
    }
}

#[test]
fn shift_matches_steps_and_reach_bound_is_sound() {
    use super::board::{NONE, STEP};
    use super::movegen::{for_each_jump, reach_bound, shift};
    for (d, steps) in STEP.iter().enumerate() {
        for (p, &to) in steps.iter().enumerate() {
            let mut b = Bits::EMPTY;
            b.set(p);
            let s = shift(&b, d);
            match to {
                NONE => assert!(s.is_empty(), "{d} {p}"),
                q => assert_eq!(s.iter().collect::<Vec<_>>(), vec![q as usize], "{d} {p}"),
            }
        }
    }
    let mut rng = SmallRng::seed_from_u64(3);
    for i in 0..500 {
        let p = random_pos(&mut rng, [0.1, 0.2, 0.25][i % 3]);
        let bound = reach_bound(&p.men, p.ball);
        for_each_jump(&p.men, p.ball, |to, _| assert!(bound.get(to as usize)));
    }
}

/// Design aid: `PHUT_POS='h14|h15 i17|b;...' cargo test --release explore -- --ignored --nocapture`.
#[test]
#[ignore]
fn explore() {
    let game = g();
    let spec = std::env::var("PHUT_POS").unwrap_or_default();
    for item in spec.split(';').filter(|s| !s.trim().is_empty()) {
        let f: Vec<&str> = item.split('|').collect();
        let p = pos(f[0].trim(), f[1], f[2].trim().chars().next().unwrap());
        let fm = |m: Move| game.format_move(&p, m);
        let stoppers: Vec<String> = game.threat_stoppers(&p).into_iter().map(fm).collect();
        let own: Vec<String> = jump_strings(&p)
            .into_iter()
            .filter(|s| {
                let m = game.parse_move(&p, s).unwrap();
                super::tactics::is_own_goal(&p, m)
            })
            .collect();
        let (grid, _) = grid_of(&game.format_position(&p));
        let ball_row = find_ball(&grid).0;
        let _ = ball_row;
        let red = p.side == Side::P1;
        let min_win = brute_jumps(&grid)
            .iter()
            .filter(|((to, _), _)| if red { to.0 >= 19 } else { to.0 <= 1 })
            .flat_map(|(_, paths)| paths.iter().map(|s| s.matches('-').count()))
            .min();
        eprintln!("  min scoring jumps {min_win:?}");
        eprintln!(
            "{}\n  win {:?}\n  threat {:?}\n  stoppers {:?}\n  jumps {} own-goals {:?}",
            game.format_position(&p),
            game.winning_move(&p).map(fm),
            game.threat(&p).map(fm),
            stoppers,
            jump_strings(&p).len(),
            own
        );
    }
}

#[test]
fn score_in_one_suite() {
    let game = g();
    let suite = super::suites::SCORE_IN_ONE;
    assert!(suite.len() >= 30);
    assert!(suite.iter().filter(|s| s.min_jumps >= 4).count() >= 10);
    assert!(suite.iter().filter(|s| s.own_goal_trap).count() >= 4);
    for s in suite {
        super::suites::check_score_in_one(&game, s).unwrap();
        // Search gets exactly the winning move, and the evaluation knows.
        let p = game.parse_position(s.position).unwrap();
        let mut v = Vec::new();
        game.search_moves(&p, &mut v);
        assert_eq!(v.len(), 1, "{}", s.name);
        assert!(game.terminal(&game.make(&p, v[0])).is_some(), "{}", s.name);
        assert_eq!(game.evaluate(&p), super::WIN_NOW, "{}", s.name);
    }
    let sides: BTreeSet<_> = suite
        .iter()
        .map(|s| super::suites::side_of(&game, s.position) == Some(Side::P1))
        .collect();
    assert_eq!(sides.len(), 2, "both colours appear");
}

#[test]
fn stop_the_threat_suite() {
    let game = g();
    let suite = super::suites::STOP_THE_THREAT;
    assert!(suite.len() >= 30);
    for s in suite {
        super::suites::check_stop_the_threat(&game, s).unwrap();
        let p = game.parse_position(s.position).unwrap();
        // The stopper set is exact: a legal move is in it iff no reply scores.
        let stoppers = game.threat_stoppers(&p);
        let mut moves = Vec::new();
        game.legal_moves(&p, &mut moves);
        for &m in &moves {
            assert_eq!(
                stoppers.contains(&m),
                super::suites::stops_threat(&game, &p, m),
                "{}: {}",
                s.name,
                game.format_move(&p, m)
            );
        }
        // Search looks at the stoppers only, and the position is not scored as lost.
        let mut v = Vec::new();
        game.search_moves(&p, &mut v);
        let (a, b): (BTreeSet<_>, BTreeSet<_>) = (
            v.iter().map(|&m| game.format_move(&p, m)).collect(),
            stoppers.iter().map(|&m| game.format_move(&p, m)).collect(),
        );
        assert_eq!(a, b, "{}", s.name);
        assert!(game.evaluate(&p) > -super::WIN_NOW, "{}", s.name);
    }
}

/// Figures for the report: `cargo test --release phutball_figures -- --ignored --nocapture`.
#[test]
#[ignore]
fn phutball_figures() {
    use std::time::Instant;
    let game = g();
    let s = game.start();
    for d in 1..=4 {
        let t = Instant::now();
        let n = game.perft(&s, d);
        let e = t.elapsed().as_secs_f64();
        eprintln!(
            "perft({d}) = {n} in {e:.3}s ({:.1} M leaves/s)",
            n as f64 / e / 1e6
        );
    }
    let t = Instant::now();
    let mut n = 0u64;
    for p in middle_positions() {
        n += game.perft(&p, 3);
    }
    eprintln!(
        "middle perft(3) sum {n} in {:.3}s",
        t.elapsed().as_secs_f64()
    );
    let mut rng = SmallRng::seed_from_u64(1);
    let t = Instant::now();
    let mut res = [0u32; 3];
    let games = 2000;
    for _ in 0..games {
        match game.playout(&s, &mut rng, 1000) {
            Outcome::Win(Side::P1) => res[0] += 1,
            Outcome::Win(Side::P2) => res[1] += 1,
            Outcome::Draw => res[2] += 1,
        }
    }
    let e = t.elapsed().as_secs_f64();
    eprintln!(
        "{games} playouts in {e:.3}s ({:.0}/s): red {} blue {} draw {}",
        games as f64 / e,
        res[0],
        res[1],
        res[2]
    );
    // Search hooks on positions from random play.
    let mut positions = Vec::new();
    let mut p = s;
    let mut v = Vec::new();
    while positions.len() < 2000 {
        if game.terminal(&p).is_some() {
            p = s;
        }
        v.clear();
        super::movegen::push_placements(&p, &mut v);
        super::movegen::push_jumps_limited(&p, 2000, &mut v);
        p = game.make(&p, v[rng.gen_range(0..v.len())]);
        if game.terminal(&p).is_none() {
            positions.push(p);
        }
    }
    let t = Instant::now();
    let mut sum = 0i64;
    for p in &positions {
        sum += game.evaluate(p) as i64;
    }
    eprintln!(
        "evaluate: {:.1} us/pos (sum {sum})",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64
    );
    let t = Instant::now();
    let mut cnt = 0;
    for p in &positions {
        v.clear();
        game.search_moves(p, &mut v);
        cnt += v.len();
    }
    eprintln!(
        "search_moves: {:.1} us/pos, {:.1} moves avg",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64,
        cnt as f64 / positions.len() as f64
    );
    let t = Instant::now();
    for p in &positions {
        let _ = game.winning_move(p);
    }
    eprintln!(
        "winning_move: {:.2} us/pos",
        t.elapsed().as_secs_f64() * 1e6 / positions.len() as f64
    );
}

fn mini_negamax(
    game: &Phutball,
    p: &Pos,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(t) = game.terminal(p) {
        return match t.outcome {
            Outcome::Win(s) if s == p.side => 30_000,
            Outcome::Win(_) => -30_000,
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return game.evaluate(p);
    }
    let mut v = Vec::new();
    game.search_moves(p, &mut v);
    v.sort_by_key(|&m| -game.order_hint(p, m));
    let mut best = -40_000;
    for m in v {
        let s = -mini_negamax(game, &game.make(p, m), depth - 1, -beta, -alpha, nodes);
        if s > best {
            best = s;
        }
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn mini_best(game: &Phutball, p: &Pos, depth: u32, nodes: &mut u64) -> Move {
    let mut v = Vec::new();
    game.root_moves(p, &mut v);
    v.sort_by_key(|&m| -game.order_hint(p, m));
    let mut best = (v[0], -50_000);
    for m in v {
        let s = -mini_negamax(game, &game.make(p, m), depth - 1, -50_000, -best.1, nodes);
        if s > best.1 {
            best = (m, s);
        }
    }
    best.0
}

/// Sanity of the search hooks with a throwaway alpha-beta: `phutball_selfplay` (ignored).
#[test]
#[ignore]
fn phutball_selfplay() {
    use std::time::Instant;
    let game = g();
    let depth: u32 = std::env::var("PHUT_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let opp_depth: u32 = std::env::var("PHUT_OPP")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let games: usize = std::env::var("PHUT_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut wins = 0;
    let t = Instant::now();
    let mut nodes = 0u64;
    for i in 0..games {
        let engine_side = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut p = game.start();
        let mut plies = 0;
        let mut result = None;
        while plies < 300 {
            if let Some(t) = game.terminal(&p) {
                result = Some(t.outcome);
                break;
            }
            let m = if p.side == engine_side {
                mini_best(&game, &p, depth, &mut nodes)
            } else if opp_depth > 0 {
                mini_best(&game, &p, opp_depth, &mut nodes)
            } else {
                let mut v = Vec::new();
                super::movegen::push_placements(&p, &mut v);
                super::movegen::push_jumps_limited(&p, 2000, &mut v);
                v[rng.gen_range(0..v.len())]
            };
            p = game.make(&p, m);
            plies += 1;
        }
        if result == Some(Outcome::Win(engine_side)) {
            wins += 1;
        }
        eprintln!("game {i}: engine {engine_side:?} result {result:?} after {plies} plies");
    }
    eprintln!(
        "engine won {wins}/{games}; {nodes} nodes in {:.2}s",
        t.elapsed().as_secs_f64()
    );
}
