//! Pods advanced's learned evaluation (`set_option eval learned`): a linear model over pod-square
//! inputs, the pods in hand and the hand-written terms, one weight set per phase, trained by
//! `tetrad train` on self-play games (docs/strength/pods.md, "Pods advanced: learned evaluation"). The weights ship
//! in `learned.txt` beside this file, with their provenance in its header; `eval_file` loads
//! others. They are fitted to the built-in pod table (`pods_data` may replace it, the weights
//! stay).
//!
//! Inputs, from the side to move's point of view (the board turned half a turn for Black, whose
//! pods are White's turned so, so that a letter on a point means the same to either side), per
//! phase bucket (15 or more pods in both hands, 8–14, 7 or fewer: from the opening's placements
//! to the race to empty the hand): each own and each enemy pod letter on each of the 36 points
//! (1 each); each own and each enemy pod letter in hand (1 each); the hand-written terms
//! ([`eval::advanced_terms`], their counts; `tempo` is always 1 and is the constant). A position
//! the hand-written evaluation scores by a rule (a last pod placed for good now or next move)
//! keeps that fixed score: it has no inputs, and training skips it.

use super::board::POINTS;
use super::data::POD_COUNT;
use super::eval::{self, Terms, Weights};
use super::position::{decode, Pos};
use super::tables::Tables;
use super::PodsRules;
use crate::games::learned::WeightFile;
use crate::games::EVAL_LIMIT;

/// Own pods on points, then the enemy's.
const BOARD_INPUTS: usize = 2 * POD_COUNT * POINTS;
/// Then own pods in hand, then the enemy's.
const HAND_BASE: usize = BOARD_INPUTS;
const TERM_BASE: usize = HAND_BASE + 2 * POD_COUNT;
/// Inputs per phase bucket: pods on points, pods in hand, hand-written terms.
const PER_BUCKET: usize = TERM_BASE + Weights::LEN;
const BUCKETS: usize = 3;
/// The number of inputs and weights.
pub const SIZE: usize = BUCKETS * PER_BUCKET;

/// The game's weights, [`SIZE`] of them (so every index the evaluation computes is in range),
/// and its weight file, whose shipped weights are `learned.txt` beside this file.
pub type LearnedWeights = crate::games::learned::LearnedWeights<SIZE>;
pub static WEIGHT_FILE: WeightFile<SIZE> = WeightFile::with_network(
    PodsRules::Advanced.name(),
    include_str!("learned.txt"),
    start,
);

fn bucket(p: &Pos) -> usize {
    match p.hand[0].count_ones() + p.hand[1].count_ones() {
        15.. => 0,
        8..=14 => 1,
        _ => 2,
    }
}

/// The point as the side to move sees it: Black's board is White's turned half a turn.
fn relative(stm: usize, q: usize) -> usize {
    if stm == 0 {
        q
    } else {
        POINTS - 1 - q
    }
}

/// Calls `f` with the weight index (within a bucket) of every pod on the board and in hand.
#[inline]
fn for_each_pod(p: &Pos, mut f: impl FnMut(usize)) {
    let me = usize::from(p.side);
    let mut bits = p.all();
    while bits != 0 {
        let q = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if let Some((colour, letter)) = decode(p.cell[q]) {
            let enemy = usize::from(colour != me);
            f((enemy * POD_COUNT + letter) * POINTS + relative(me, q));
        }
    }
    for (enemy, colour) in [me, me ^ 1].into_iter().enumerate() {
        let mut hand = p.hand[colour];
        while hand != 0 {
            let letter = hand.trailing_zeros() as usize;
            hand &= hand - 1;
            f(HAND_BASE + enemy * POD_COUNT + letter);
        }
    }
}

/// Whether the hand-written evaluation's fixed score stands at `p` (no learned sum there).
pub fn is_fixed(t: &Tables, p: &Pos) -> bool {
    matches!(eval::advanced_terms(t, p), Terms::Fixed(_))
}

/// The active inputs as `(index, value)` pairs (what the trainer sees); none where the score is
/// fixed by a rule.
pub fn inputs(t: &Tables, p: &Pos, out: &mut Vec<(u32, i32)>) {
    let Terms::Weighted(f) = eval::advanced_terms(t, p) else {
        return;
    };
    let base = bucket(p) * PER_BUCKET;
    for_each_pod(p, |i| out.push(((base + i) as u32, 1)));
    for (i, &x) in f.iter().enumerate() {
        if x != 0 {
            out.push(((base + TERM_BASE + i) as u32, x));
        }
    }
}

/// The evaluation with weights `w`, from the side to move's point of view: the sum over
/// [`inputs`] and, where the weights have one, the network's output over them, computed
/// without listing them; or the rule's fixed score.
pub fn evaluate(t: &Tables, p: &Pos, w: &LearnedWeights) -> i32 {
    let f = match eval::advanced_terms(t, p) {
        Terms::Weighted(f) => f,
        Terms::Fixed(v) => return v,
    };
    let base = bucket(p) * PER_BUCKET;
    let net = w.network();
    let w = &w[base..][..PER_BUCKET];
    let mut sum = 0i64;
    match net {
        None => {
            for_each_pod(p, |i| sum += i64::from(w[i]));
            for (&x, &wt) in f.iter().zip(&w[TERM_BASE..]) {
                sum += i64::from(x) * i64::from(wt);
            }
        }
        Some(net) => {
            let mut acc = net.start();
            for_each_pod(p, |i| {
                sum += i64::from(w[i]);
                net.add_one(&mut acc, base + i);
            });
            for (i, (&x, &wt)) in f.iter().zip(&w[TERM_BASE..]).enumerate() {
                if x != 0 {
                    sum += i64::from(x) * i64::from(wt);
                    net.add(&mut acc, base + TERM_BASE + i, x);
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
        w[b * PER_BUCKET + TERM_BASE..][..Weights::LEN].copy_from_slice(&eval::WEIGHTS.to_array());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::learned::sparse_dot;
    use crate::games::pods::tests::{game, random_positions};
    use crate::games::prelude::*;

    fn positions(seed: u64) -> Vec<Pos> {
        let g = game(true);
        random_positions(&g, seed, 40, 80)
            .into_iter()
            .filter(|p| g.terminal(p).is_none())
            .collect()
    }

    #[test]
    fn the_shipped_weights_parse() {
        assert!(WEIGHT_FILE.parse(WEIGHT_FILE.shipped()).is_ok());
    }

    #[test]
    fn the_evaluation_is_the_sum_over_the_inputs() {
        let t = &game(true).tables;
        let w = LearnedWeights::new(&WEIGHT_FILE.built_in()[..]);
        let (mut summed, mut fixed) = (0, 0);
        for p in positions(5) {
            let mut x = Vec::new();
            inputs(t, &p, &mut x);
            assert!(x.iter().all(|&(i, _)| (i as usize) < SIZE));
            if is_fixed(t, &p) {
                assert!(x.is_empty());
                assert_eq!(evaluate(t, &p, &w), eval::advanced(t, &p));
                fixed += 1;
                continue;
            }
            let sum = sparse_dot(&w[..], &x).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1);
            assert_eq!(evaluate(t, &p, &w), sum, "{p:?}");
            summed += 1;
        }
        assert!(summed > 1000 && fixed > 0, "{summed} summed, {fixed} fixed");
    }

    #[test]
    fn with_a_network_the_evaluation_adds_its_output_over_the_inputs() {
        let t = &game(true).tables;
        let linear = &WEIGHT_FILE.built_in()[..];
        crate::games::network::check_with_network(
            positions(5),
            SIZE,
            linear,
            |p, x| inputs(t, p, x),
            |p, net| evaluate(t, p, &LearnedWeights::with_network(linear, net)),
            1000,
        );
    }

    #[test]
    fn the_start_weights_are_the_hand_written_evaluation() {
        let t = &game(true).tables;
        assert_eq!(start().len(), SIZE);
        let w = LearnedWeights::new(&start());
        let mut seen = 0;
        for p in positions(6) {
            assert_eq!(evaluate(t, &p, &w), eval::advanced(t, &p), "{p:?}");
            seen += 1;
        }
        assert!(seen > 1000, "{seen}");
    }

    #[test]
    fn either_side_sees_its_own_pods_alike() {
        // The same pod standing on the same point of its owner's view, with the same hands:
        // one input for White to move and for Black to move on the board turned half a turn.
        let g = game(true);
        let white = g.parse_position("6/6/6/6/6/A5 w BCDEFGHIJKLMN abcdefghijklmn 0");
        let black = g.parse_position("5a/6/6/6/6/6 b ABCDEFGHIJKLMN bcdefghijklmn 180");
        let (Ok(white), Ok(black)) = (white, black) else {
            panic!("positions parse");
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for_each_pod(&white, |i| a.push(i));
        for_each_pod(&black, |i| b.push(i));
        assert_eq!(a, b);
        assert!(a.contains(&0), "own A on a1 is the first input: {a:?}");
    }
}
