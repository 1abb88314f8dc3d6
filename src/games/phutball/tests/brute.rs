//! An independent brute-force model on a char grid: every jump path by plain recursion.

use super::*;

pub(super) type Grid = [[u8; 15]; 21];

pub(super) fn grid_of(text: &str) -> (Grid, bool) {
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

pub(super) fn find_ball(g: &Grid) -> (usize, usize) {
    for (r, row) in g.iter().enumerate() {
        if let Some(c) = row.iter().position(|&ch| ch == b'O') {
            return (r, c);
        }
    }
    panic!("no ball")
}

/// (end point, removed men sorted) → every path string that makes that ball move.
pub(super) type BruteMoves = BTreeMap<((usize, usize), Vec<(usize, usize)>), Vec<String>>;

pub(super) fn brute_jumps(g: &Grid) -> BruteMoves {
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
pub(super) fn middle_positions() -> Vec<Pos> {
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
