//! An independent, deliberately plain implementation of the rules, straight from the rules text
//! (coordinates, step-by-step walks, no bitboards or precomputed tables), used by the tests to
//! cross-check move generation, removal, perft and the solver.

use std::collections::HashSet;

use super::data::{Leg, PodsData};

type Pt = (i32, i32);

/// Directions in the data file's order N NE E SE S SW W NW, in White's frame.
const VEC: [Pt; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NPos {
    /// `board[x][y]`: (colour 0 = White, letter index).
    pub board: [[Option<(usize, usize)>; 6]; 6],
    pub hand: [Vec<usize>; 2],
    pub side: usize,
    pub degrees: u32,
}

pub struct Naive {
    pub advanced: bool,
    missing: HashSet<(Pt, Pt)>,
    legs: Vec<Vec<(Pt, bool)>>,
}

fn on_board(p: Pt) -> bool {
    (0..6).contains(&p.0) && (0..6).contains(&p.1)
}

fn name(p: Pt) -> String {
    format!("{}{}", (b'a' + p.0 as u8) as char, p.1 + 1)
}

fn letter_char(colour: usize, letter: usize) -> char {
    let c = (b'A' + letter as u8) as char;
    if colour == 0 {
        c
    } else {
        c.to_ascii_lowercase()
    }
}

impl Naive {
    pub fn new(data: &PodsData, advanced: bool, degrees: u32) -> Naive {
        let turn = |p: Pt| (5 - p.1, p.0);
        let mut missing = HashSet::new();
        for &(a, b) in &data.missing {
            let mut p = ((a % 6) as i32, (a / 6) as i32);
            let mut q = ((b % 6) as i32, (b / 6) as i32);
            for _ in 0..degrees / 90 {
                p = turn(p);
                q = turn(q);
            }
            missing.insert((p, q));
            missing.insert((q, p));
        }
        let legs = data
            .pods
            .iter()
            .map(|pod| {
                pod.iter()
                    .zip(VEC)
                    .filter(|(l, _)| **l != Leg::None)
                    .map(|(l, v)| (v, *l == Leg::Long))
                    .collect()
            })
            .collect();
        Naive {
            advanced,
            missing,
            legs,
        }
    }

    fn connected(&self, p: Pt, q: Pt) -> bool {
        on_board(p)
            && on_board(q)
            && (p.0 - q.0).abs() <= 1
            && (p.1 - q.1).abs() <= 1
            && p != q
            && !self.missing.contains(&(p, q))
    }

    /// Legs of a pod in board directions: Black's pods are White's turned 180 degrees.
    fn legs_of(&self, colour: usize, letter: usize) -> Vec<(Pt, bool)> {
        self.legs[letter]
            .iter()
            .map(|&(v, long)| {
                if colour == 0 {
                    (v, long)
                } else {
                    ((-v.0, -v.1), long)
                }
            })
            .collect()
    }

    fn at(pos: &NPos, p: Pt) -> Option<(usize, usize)> {
        if on_board(p) {
            pos.board[p.0 as usize][p.1 as usize]
        } else {
            None
        }
    }

    fn all_legs_blocked(&self, pos: &NPos, p: Pt, colour: usize, letter: usize) -> bool {
        self.legs_of(colour, letter).iter().all(|&(v, _)| {
            let q = (p.0 + v.0, p.1 + v.1);
            !self.connected(p, q) || Naive::at(pos, q).is_some()
        })
    }

    /// Points a pod of `colour`/`letter` on `p` attacks.
    pub fn attacked_from(&self, pos: &NPos, p: Pt, colour: usize, letter: usize) -> Vec<Pt> {
        let mut out = Vec::new();
        for (v, long) in self.legs_of(colour, letter) {
            let mut cur = p;
            loop {
                let next = (cur.0 + v.0, cur.1 + v.1);
                if !self.connected(cur, next) {
                    break;
                }
                out.push(next);
                if !long || Naive::at(pos, next).is_some() {
                    break;
                }
                cur = next;
            }
        }
        out
    }

    fn pods(pos: &NPos, colour: usize) -> Vec<(Pt, usize)> {
        let mut v = Vec::new();
        for x in 0..6 {
            for y in 0..6 {
                if let Some((c, l)) = pos.board[x as usize][y as usize] {
                    if c == colour {
                        v.push(((x, y), l));
                    }
                }
            }
        }
        v
    }

    pub fn moves(&self, pos: &NPos) -> Vec<String> {
        let me = pos.side;
        let enemy = 1 - me;
        let mut out = Vec::new();
        let first = pos.side == 0
            && (0..6).all(|x| (0..6).all(|y| pos.board[x][y].is_none()))
            && pos.hand[0].len() == 14
            && pos.hand[1].len() == 14;
        let mut enemy_attacks = HashSet::new();
        for (p, l) in Naive::pods(pos, enemy) {
            enemy_attacks.extend(self.attacked_from(pos, p, enemy, l));
        }
        let enemy_points: HashSet<Pt> = Naive::pods(pos, enemy).into_iter().map(|e| e.0).collect();
        for x in 0..6 {
            for y in 0..6 {
                let q = (x, y);
                if Naive::at(pos, q).is_some() || enemy_attacks.contains(&q) {
                    continue;
                }
                for &letter in &pos.hand[me] {
                    if first && letter > 1 {
                        continue;
                    }
                    if !self.advanced && self.all_legs_blocked(pos, q, me, letter) {
                        continue;
                    }
                    let hits = self.attacked_from(pos, q, me, letter);
                    if hits.iter().any(|h| enemy_points.contains(h)) {
                        continue;
                    }
                    out.push(format!("{}@{}", letter_char(0, letter), name(q)));
                }
            }
        }
        if self.advanced {
            for (p, l) in Naive::pods(pos, me) {
                for q in self.attacked_from(pos, p, me, l) {
                    if Naive::at(pos, q).is_none() {
                        out.push(format!("{}-{}", name(p), name(q)));
                    }
                }
            }
        }
        out.sort();
        out
    }

    pub fn play(&self, pos: &NPos, mv: &str) -> NPos {
        let mut next = pos.clone();
        let me = pos.side;
        let pt = |s: &str| {
            let b = s.as_bytes();
            (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
        };
        if let Some((pod, to)) = mv.split_once('@') {
            let letter = usize::from(pod.as_bytes()[0] - b'A');
            let q = pt(to);
            next.hand[me].retain(|&l| l != letter);
            next.board[q.0 as usize][q.1 as usize] = Some((me, letter));
        } else if let Some((from, to)) = mv.split_once('-') {
            let (p, q) = (pt(from), pt(to));
            let pod = next.board[p.0 as usize][p.1 as usize].take();
            next.board[q.0 as usize][q.1 as usize] = pod;
        }
        if self.advanced {
            let mut blocked = Vec::new();
            for x in 0..6 {
                for y in 0..6 {
                    if let Some((c, l)) = next.board[x as usize][y as usize] {
                        if self.all_legs_blocked(&next, (x, y), c, l) {
                            blocked.push((x as usize, y as usize, c, l));
                        }
                    }
                }
            }
            for (x, y, c, l) in blocked {
                next.board[x][y] = None;
                if c == me {
                    next.hand[me].push(l);
                    next.hand[me].sort();
                }
            }
        }
        next.side = 1 - me;
        next
    }

    /// Advanced: the player who just moved has emptied the hand.
    pub fn over(&self, pos: &NPos) -> bool {
        self.advanced && pos.hand[1 - pos.side].is_empty()
    }

    pub fn perft(&self, pos: &NPos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over(pos) {
            return 0;
        }
        self.moves(pos)
            .iter()
            .map(|m| self.perft(&self.play(pos, m), depth - 1))
            .sum()
    }

    /// Plain minimax for standard Pods: does the side to move win? `nodes` counts positions.
    pub fn wins(&self, pos: &NPos, nodes: &mut u64) -> bool {
        *nodes += 1;
        self.moves(pos)
            .iter()
            .any(|m| !self.wins(&self.play(pos, m), nodes))
    }
}

pub fn parse(text: &str) -> NPos {
    let f: Vec<&str> = text.split_whitespace().collect();
    let mut pos = NPos {
        board: [[None; 6]; 6],
        hand: [Vec::new(), Vec::new()],
        side: usize::from(f[1] == "b"),
        degrees: f[4].parse().unwrap_or(0),
    };
    for (i, row) in f[0].split('/').enumerate() {
        let y = 5 - i;
        let mut x = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                x += d as usize;
            } else {
                let colour = usize::from(c.is_ascii_lowercase());
                let letter = usize::from(c.to_ascii_uppercase() as u8 - b'A');
                pos.board[x][y] = Some((colour, letter));
                x += 1;
            }
        }
    }
    for colour in 0..2 {
        if f[2 + colour] != "-" {
            pos.hand[colour] = f[2 + colour]
                .chars()
                .map(|c| usize::from(c.to_ascii_uppercase() as u8 - b'A'))
                .collect();
        }
    }
    pos
}

pub fn format(pos: &NPos) -> String {
    let mut rows = Vec::new();
    for y in (0..6).rev() {
        let mut row = String::new();
        let mut gap = 0;
        for x in 0..6 {
            match pos.board[x][y] {
                None => gap += 1,
                Some((c, l)) => {
                    if gap > 0 {
                        row.push_str(&gap.to_string());
                        gap = 0;
                    }
                    row.push(letter_char(c, l));
                }
            }
        }
        if gap > 0 {
            row.push_str(&gap.to_string());
        }
        rows.push(row);
    }
    let hand = |c: usize| {
        if pos.hand[c].is_empty() {
            "-".to_string()
        } else {
            let mut h = pos.hand[c].clone();
            h.sort();
            h.iter().map(|&l| letter_char(c, l)).collect()
        }
    };
    format!(
        "{} {} {} {} {}",
        rows.join("/"),
        if pos.side == 0 { "w" } else { "b" },
        hand(0),
        hand(1),
        pos.degrees
    )
}
