//! Rule, notation and search-support tests. `brute.rs` holds a brute-force model that shares no
//! code with the engine's move generator; `tools.rs` holds ignored figures and design aids.

use std::collections::{BTreeMap, BTreeSet};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{point, Bits, PLACEABLE};
use super::movegen::Move;
use super::{Phutball, Pos};
use crate::games::prelude::*;
use crate::games::{outcome, DrawTracker, Outcome, RuleError, Side, EVAL_LIMIT};

mod brute;
mod legality;
mod notation;
mod rules;
mod search;
mod tools;

const START: &str = "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 r";

fn g() -> Phutball {
    Phutball::default()
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
