//! The learned evaluation (`set_option eval learned`): a linear model over point inputs, square
//! patterns and the hand-written terms, one weight set per phase, trained by `tetrad train` on
//! self-play games (docs/strength/diamond.md, "Learned evaluation"). The weights ship in `learned.txt`
//! beside this file, with their provenance in its header; `eval_file` loads others.
//!
//! Inputs, from the side to move's point of view, per phase bucket (13 or more pieces in the
//! hands, 1–12, none: the race to build in the placement phase, its end, the steps):
//! own pieces and the opponent's on each point (1 each); for each of the 24 squares that is
//! not empty, how many of its corners are the side's, the opponent's and neutral (34 patterns a
//! square, 1 each: a square's worth depends on who spoils it, not only on who builds it); the
//! hand-written terms ([`eval::terms`], their counts); and a constant. A position the
//! hand-written evaluation scores by a rule (a threat, a fork: [`eval::Terms::Fixed`]) keeps that
//! score and has no inputs: the trainer skips it.

use super::board::{Bits, TABLES};
use super::eval::{self, Terms, Weights};
use super::position::Pos;
use crate::games::learned::WeightFile;
use crate::games::EVAL_LIMIT;

const POINT_INPUTS: usize = 2 * 64;
const SQUARES: usize = 24;
/// Corner patterns of a square that is not empty: (own, theirs, neutral) counts summing to 1–4.
const PATTERNS: usize = 34;
const SQUARE_INPUTS: usize = SQUARES * PATTERNS;
/// Inputs per phase bucket: points, squares, hand-written terms, the constant.
const PER_BUCKET: usize = POINT_INPUTS + SQUARE_INPUTS + Weights::LEN + 1;
const BUCKETS: usize = 3;
/// The number of inputs and weights.
pub const SIZE: usize = BUCKETS * PER_BUCKET;

/// The game's weights, [`SIZE`] of them (so every index the evaluation computes is in range),
/// and its weight file, whose shipped weights are `learned.txt` beside this file.
pub type LearnedWeights = crate::games::learned::LearnedWeights<SIZE>;
pub static WEIGHT_FILE: WeightFile<SIZE> =
    WeightFile::with_network("diamond", include_str!("learned.txt"), start);

/// The pattern number of (own, theirs, neutral) corner counts; `u8::MAX` where they do not add
/// up to 1–4.
const PATTERN: [[[u8; 5]; 5]; 5] = {
    let mut t = [[[u8::MAX; 5]; 5]; 5];
    let mut next = 0;
    let mut o = 0;
    while o < 5 {
        let mut x = 0;
        while x < 5 {
            let mut n = 0;
            while n < 5 {
                let sum = o + x + n;
                if sum >= 1 && sum <= 4 {
                    t[o][x][n] = next;
                    next += 1;
                }
                n += 1;
            }
            x += 1;
        }
        o += 1;
    }
    t
};

fn bucket(p: &Pos) -> usize {
    match p.hand[0] + p.hand[1] {
        13.. => 0,
        1..=12 => 1,
        0 => 2,
    }
}

/// The pattern number of a square's corners given as a 12-bit code: the side's, the opponent's
/// and the neutral corners, four bits each ([`corner_bits`]); `u8::MAX` where two of them
/// claim one corner. One lookup instead of three counts a square.
const PATTERN_OF: [u8; 4096] = {
    let mut t = [u8::MAX; 4096];
    let mut code = 0;
    while code < 4096 {
        let (o, x, n) = (code & 15, (code >> 4) & 15, code >> 8);
        if o & x == 0 && o & n == 0 && x & n == 0 {
            let (co, cx, cn) = (
                (o as u32).count_ones() as usize,
                (x as u32).count_ones() as usize,
                (n as u32).count_ones() as usize,
            );
            if co + cx + cn > 0 {
                t[code] = PATTERN[co][cx][cn];
            }
        }
        code += 1;
    }
    t
};

/// The corners of the square with lower-left point `ll` that are in `bb`, as four bits.
#[inline]
fn corner_bits(bb: u64, ll: usize) -> usize {
    let x = (bb >> ll) as usize;
    (x & 3) | ((x >> 6) & 12)
}

/// Calls `f(index within the bucket)` for every active point and square input (value 1).
#[inline]
fn for_each_board_input(p: &Pos, mut f: impl FnMut(usize)) {
    let (own, theirs) = (p.pieces[p.stm], p.pieces[p.stm ^ 1]);
    for s in Bits(own) {
        f(s);
    }
    for s in Bits(theirs) {
        f(64 + s);
    }
    let occ = own | theirs | p.neutral;
    let touched = TABLES.square_ll & (occ | occ >> 1 | occ >> 8 | occ >> 9);
    for ll in Bits(touched) {
        let square = (TABLES.square_ll & ((1u64 << ll) - 1)).count_ones() as usize;
        let code =
            corner_bits(own, ll) | corner_bits(theirs, ll) << 4 | corner_bits(p.neutral, ll) << 8;
        let pattern = PATTERN_OF[code];
        f(POINT_INPUTS + square * PATTERNS + pattern as usize);
    }
}

/// The active inputs as `(index, value)` pairs (what the trainer sees); none where the
/// hand-written evaluation scores the position by a rule.
pub fn inputs(p: &Pos, out: &mut Vec<(u32, i32)>) {
    let Terms::Weighted(terms) = eval::terms(p) else {
        return;
    };
    let base = bucket(p) * PER_BUCKET;
    for_each_board_input(p, |i| out.push(((base + i) as u32, 1)));
    for (i, f) in terms.into_iter().enumerate() {
        if f != 0 {
            out.push(((base + POINT_INPUTS + SQUARE_INPUTS + i) as u32, f));
        }
    }
    out.push(((base + PER_BUCKET - 1) as u32, 1));
}

/// The evaluation with weights `w`, from the side to move's point of view: the sum over
/// [`inputs`] and, where the weights have one, the network's output over them, computed
/// without listing them; or the hand-written rule's score.
pub fn evaluate(p: &Pos, w: &LearnedWeights) -> i32 {
    let terms = match eval::terms(p) {
        Terms::Fixed(v) => return v,
        Terms::Weighted(t) => t,
    };
    let base = bucket(p) * PER_BUCKET;
    let net = w.network();
    let w = &w[base..][..PER_BUCKET];
    let mut sum = i64::from(w[PER_BUCKET - 1]);
    let term_weights = &w[POINT_INPUTS + SQUARE_INPUTS..];
    match net {
        None => {
            for_each_board_input(p, |i| sum += i64::from(w[i]));
            for (f, &wt) in terms.into_iter().zip(term_weights) {
                sum += i64::from(f) * i64::from(wt);
            }
        }
        Some(net) => {
            let mut acc = net.start();
            net.add_one(&mut acc, base + PER_BUCKET - 1);
            for_each_board_input(p, |i| {
                sum += i64::from(w[i]);
                net.add_one(&mut acc, base + i);
            });
            for (i, (f, &wt)) in terms.into_iter().zip(term_weights).enumerate() {
                if f != 0 {
                    sum += i64::from(f) * i64::from(wt);
                    net.add(&mut acc, base + POINT_INPUTS + SQUARE_INPUTS + i, f);
                }
            }
            sum += i64::from(net.output(&acc));
        }
    }
    sum.clamp(-i64::from(EVAL_LIMIT - 1), i64::from(EVAL_LIMIT - 1)) as i32
}

/// The hand-written evaluation in these inputs: its weights on the terms in every bucket.
pub fn start() -> Vec<i32> {
    let mut w = vec![0; SIZE];
    for b in 0..BUCKETS {
        w[b * PER_BUCKET + POINT_INPUTS + SQUARE_INPUTS..][..Weights::LEN]
            .copy_from_slice(&eval::WEIGHTS.to_array());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::learned::sparse_dot;
    use crate::games::prelude::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Positions of random games, every phase (placement, its end, steps).
    fn random_positions(seed: u64, games: usize) -> Vec<Pos> {
        let g = super::super::Diamond;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..games {
            let mut pos = g.start();
            for _ in 0..80 {
                if g.terminal(&pos).is_some() {
                    break;
                }
                out.push(pos);
                moves.clear();
                g.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = g.make(&pos, moves[rng.gen_range(0..moves.len())]);
            }
        }
        out
    }

    #[test]
    fn with_a_network_the_evaluation_adds_its_output_over_the_inputs() {
        let linear = &WEIGHT_FILE.built_in()[..];
        crate::games::network::check_with_network(
            random_positions(5, 300),
            SIZE,
            linear,
            inputs,
            |p, net| evaluate(p, &LearnedWeights::with_network(linear, net)),
            100,
        );
    }

    #[test]
    fn the_shipped_weights_parse() {
        assert!(WEIGHT_FILE.parse(WEIGHT_FILE.shipped()).is_ok());
    }

    #[test]
    fn the_patterns_are_numbered_once() {
        let mut seen = [false; PATTERNS];
        for (o, row) in PATTERN.iter().enumerate() {
            for (x, col) in row.iter().enumerate() {
                for (n, &k) in col.iter().enumerate() {
                    let sum = o + x + n;
                    if (1..=4).contains(&sum) {
                        assert!(!seen[k as usize]);
                        seen[k as usize] = true;
                    } else {
                        assert_eq!(k, u8::MAX);
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    /// Each non-empty square's pattern, from its corners counted one point at a time.
    #[test]
    fn the_square_patterns_count_the_corners() {
        for p in random_positions(7, 20) {
            let (own, theirs) = (p.pieces[p.stm], p.pieces[p.stm ^ 1]);
            let mut seen = 0;
            for_each_board_input(&p, |i| {
                if i < POINT_INPUTS {
                    return;
                }
                let (square, pattern) =
                    ((i - POINT_INPUTS) / PATTERNS, (i - POINT_INPUTS) % PATTERNS);
                let q = TABLES.squares[square];
                let count = |bb: u64| (q & bb).count_ones() as usize;
                let expected = PATTERN[count(own)][count(theirs)][count(p.neutral)];
                assert_eq!(pattern, expected as usize, "{}", p.to_fen());
                seen += 1;
            });
            let occ = own | theirs | p.neutral;
            let touched = TABLES.squares.iter().filter(|&&q| q & occ != 0).count();
            assert_eq!(seen, touched, "{}", p.to_fen());
        }
    }

    #[test]
    fn the_evaluation_is_the_sum_over_the_inputs() {
        let w = &LearnedWeights::new(&WEIGHT_FILE.built_in()[..]);
        let (mut weighted, mut fixed) = (0, 0);
        let mut buckets = [0; BUCKETS];
        for p in random_positions(5, 60) {
            let mut x = Vec::new();
            inputs(&p, &mut x);
            assert!(x.iter().all(|&(i, _)| (i as usize) < SIZE));
            if x.is_empty() {
                assert_eq!(evaluate(&p, w), eval::evaluate(&p), "{}", p.to_fen());
                fixed += 1;
                continue;
            }
            let sum = sparse_dot(&w[..], &x).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1);
            assert_eq!(evaluate(&p, w), sum, "{}", p.to_fen());
            weighted += 1;
            buckets[bucket(&p)] += 1;
        }
        assert!(weighted > 2000 && fixed > 20, "{weighted} {fixed}");
        assert!(buckets.iter().all(|&b| b > 200), "{buckets:?}");
    }

    #[test]
    fn the_start_weights_are_the_hand_written_evaluation() {
        assert_eq!(start().len(), SIZE);
        let w = LearnedWeights::new(&start());
        for p in random_positions(6, 30) {
            assert_eq!(evaluate(&p, &w), eval::evaluate(&p), "{}", p.to_fen());
        }
    }
}
