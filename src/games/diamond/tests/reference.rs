//! A slow, independent model of the rules, written straight from the rule file with coordinates
//! and maps (no bitboards, no shared tables), to cross-check the engine in tests.
//! Triangles are found as 3-cycles of the line graph and squares as line-bounded cells without a
//! diagonal, so they do not reuse the engine's cell formulas.

use std::collections::{BTreeMap, BTreeSet};

pub type Pt = (i32, i32);

pub fn exists(p: Pt) -> bool {
    (0..8).contains(&p.0) && (0..8).contains(&p.1) && p != (0, 7) && p != (7, 0)
}

pub struct RefBoard {
    pub points: Vec<Pt>,
    pub lines: BTreeSet<(Pt, Pt)>,
    pub squares: Vec<[Pt; 4]>,
    pub triangles: Vec<[Pt; 3]>,
}

impl RefBoard {
    pub fn new() -> RefBoard {
        let mut points = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                if exists((f, r)) {
                    points.push((f, r));
                }
            }
        }
        let mut lines = BTreeSet::new();
        let mut add = |a: Pt, b: Pt| {
            if exists(a) && exists(b) {
                lines.insert((a.min(b), a.max(b)));
            }
        };
        for &(f, r) in &points {
            add((f, r), (f + 1, r));
            add((f, r), (f, r + 1));
        }
        for f in 0..7 {
            for r in 0..7 {
                if f % 2 == 0 && r % 2 == 0 {
                    add((f, r), (f + 1, r + 1));
                } else if f % 2 == 1 && r % 2 == 1 {
                    add((f, r + 1), (f + 1, r));
                }
            }
        }
        let joined = |a: Pt, b: Pt| lines.contains(&(a.min(b), a.max(b)));
        let mut triangles = Vec::new();
        for (i, &a) in points.iter().enumerate() {
            for (j, &b) in points.iter().enumerate().skip(i + 1) {
                for &c in points.iter().skip(j + 1) {
                    if joined(a, b) && joined(b, c) && joined(a, c) {
                        triangles.push([a, b, c]);
                    }
                }
            }
        }
        let mut squares = Vec::new();
        for f in 0..7 {
            for r in 0..7 {
                let c = [(f, r), (f + 1, r), (f + 1, r + 1), (f, r + 1)];
                if c.iter().all(|&p| exists(p))
                    && !joined(c[0], c[2])
                    && !joined(c[1], c[3])
                    && (0..4).all(|k| joined(c[k], c[(k + 1) % 4]))
                {
                    squares.push(c);
                }
            }
        }
        RefBoard {
            points,
            lines,
            squares,
            triangles,
        }
    }

    pub fn joined(&self, a: Pt, b: Pt) -> bool {
        self.lines.contains(&(a.min(b), a.max(b)))
    }
}

pub fn name(p: Pt) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

#[derive(Clone, Debug)]
pub struct RefPos {
    pub cells: BTreeMap<Pt, char>,
    pub side: char,
    pub hands: [u32; 2],
    pub counter: u32,
}

impl RefPos {
    pub fn parse(text: &str) -> RefPos {
        let f: Vec<&str> = text.split_whitespace().collect();
        let mut cells = BTreeMap::new();
        for (i, rank) in f[0].split('/').enumerate() {
            let r = 7 - i as i32;
            let pts: Vec<i32> = (0..8).filter(|&x| exists((x, r))).collect();
            let mut k = 0;
            for c in rank.chars() {
                if let Some(d) = c.to_digit(10) {
                    k += d as usize;
                } else {
                    cells.insert((pts[k], r), c);
                    k += 1;
                }
            }
        }
        RefPos {
            cells,
            side: f[1].chars().next().unwrap(),
            hands: [f[2].parse().unwrap(), f[3].parse().unwrap()],
            counter: f.get(4).map_or(0, |c| c.parse().unwrap()),
        }
    }

    pub fn format(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..8).rev() {
            let mut s = String::new();
            let mut run = 0;
            for f in 0..8 {
                if !exists((f, r)) {
                    continue;
                }
                match self.cells.get(&(f, r)) {
                    Some(&c) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(c);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            ranks.push(s);
        }
        format!(
            "{} {} {} {} {}",
            ranks.join("/"),
            self.side,
            self.hands[0],
            self.hands[1],
            self.counter
        )
    }

    fn me(&self) -> char {
        if self.side == 'b' {
            'B'
        } else {
            'W'
        }
    }
    fn idx(&self) -> usize {
        (self.side == 'w') as usize
    }

    fn swap_turn(&self) -> bool {
        self.side == 'w'
            && self.hands == [11, 12]
            && self.cells.len() == 1
            && self.cells.values().all(|&c| c == 'B')
    }

    /// The enemy pieces cornered by a step a→b (board judged after the step).
    fn cornered(&self, board: &RefBoard, a: Pt, b: Pt) -> BTreeSet<Pt> {
        let me = self.me();
        let mut after = self.cells.clone();
        after.remove(&a);
        after.insert(b, me);
        let enemy = if me == 'B' { 'W' } else { 'B' };
        let mut out = BTreeSet::new();
        for t in &board.triangles {
            if !t.contains(&b) {
                continue;
            }
            let others: Vec<Pt> = t.iter().copied().filter(|&p| p != b).collect();
            let (x, y) = (others[0], others[1]);
            let (cx, cy) = (after.get(&x).copied(), after.get(&y).copied());
            if cx == Some(me) && cy == Some(enemy) {
                out.insert(y);
            }
            if cy == Some(me) && cx == Some(enemy) {
                out.insert(x);
            }
        }
        out
    }

    /// Legal moves in canonical notation.
    pub fn moves(&self, board: &RefBoard) -> Vec<String> {
        let mut out = Vec::new();
        let empty: Vec<Pt> = board
            .points
            .iter()
            .copied()
            .filter(|p| !self.cells.contains_key(p))
            .collect();
        if self.hands[self.idx()] > 0 {
            out.extend(empty.iter().map(|&p| name(p)));
            if self.swap_turn() {
                out.push("swap".into());
            }
            out.sort();
            return out;
        }
        let me = self.me();
        for (&a, &c) in &self.cells {
            if c != me {
                continue;
            }
            for &b in &empty {
                if board.joined(a, b) {
                    let star = if self.cornered(board, a, b).len() == 1 {
                        "*"
                    } else {
                        ""
                    };
                    out.push(format!("{}-{}{}", name(a), name(b), star));
                }
            }
        }
        for (&n, &c) in &self.cells {
            if c == 'N'
                && !self
                    .cells
                    .iter()
                    .any(|(&q, &d)| (d == 'B' || d == 'W') && board.joined(n, q))
            {
                out.push(format!("({})", name(n)));
            }
        }
        out.sort();
        out
    }

    pub fn make(&self, board: &RefBoard, mv: &str) -> RefPos {
        let mut p = self.clone();
        let pt = |s: &str| -> Pt {
            let b = s.as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        };
        let idx = self.idx();
        if mv == "swap" {
            for c in p.cells.values_mut() {
                *c = 'W';
            }
            p.hands = [12, 11];
            p.counter = 0;
            p.side = 'b';
            return p;
        }
        if let Some(n) = mv.strip_prefix('(') {
            p.cells.remove(&pt(&n[..2]));
            p.counter = 0;
        } else if mv.len() == 2 {
            p.cells.insert(pt(mv), self.me());
            p.hands[idx] -= 1;
            p.counter = 0;
        } else {
            let (a, b) = (pt(&mv[..2]), pt(&mv[3..5]));
            let c = self.cornered(board, a, b);
            p.cells.remove(&a);
            p.cells.insert(b, self.me());
            if c.len() == 1 {
                p.cells.insert(*c.iter().next().unwrap(), 'N');
                p.counter = 0;
            } else {
                p.counter += 1;
            }
        }
        p.side = if self.side == 'b' { 'w' } else { 'b' };
        p
    }

    /// The winner's colour by a full square (the side that just moved first), or a draw by the
    /// counter.
    pub fn over(&self, board: &RefBoard) -> bool {
        let full = |c: char| {
            board
                .squares
                .iter()
                .any(|q| q.iter().all(|p| self.cells.get(p) == Some(&c)))
        };
        full('B') || full('W') || self.counter >= 50
    }

    pub fn perft(&self, board: &RefBoard, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over(board) {
            return 0;
        }
        let moves = self.moves(board);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| self.make(board, m).perft(board, depth - 1))
            .sum()
    }
}
