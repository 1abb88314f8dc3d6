//! The learned evaluation (`set_option eval learned`): a linear model over piece-square inputs
//! and the hand-written terms, one weight set per phase, trained by `tetrad train` on self-play
//! games (docs/strength/poddavki.md, "Learned evaluation"). The weights ship in `learned.txt` beside this
//! file, with their provenance in its header; `eval_file` loads others.
//!
//! Inputs, from the side to move's point of view (the board turned for Black, so that a square
//! means the same to either side), per phase bucket (24–17, 16–9, 8–1 pieces on the board, as
//! the game moves from the opening's jams to the endgame's races):
//! own men, own kings, opponent's men, opponent's kings on each of the 32 squares (1 each); the
//! hand-written terms ([`eval::features`], their counts); and a constant (the move's worth).

use super::board::{Position, Squares};
use super::eval::{self, Weights};
use crate::games::learned::WeightFile;
use crate::games::network::Network;
use crate::games::EVAL_LIMIT;

const SQUARE_INPUTS: usize = 4 * 32;
/// Inputs per phase bucket: squares, hand-written terms, the constant.
const PER_BUCKET: usize = SQUARE_INPUTS + Weights::LEN + 1;
const BUCKETS: usize = 3;
/// The number of inputs and weights.
pub const SIZE: usize = BUCKETS * PER_BUCKET;

/// The game's weights, [`SIZE`] of them (so every index the evaluation computes is in range),
/// and its weight file, whose shipped weights are `learned.txt` beside this file.
pub type LearnedWeights = crate::games::learned::LearnedWeights<SIZE>;
pub static WEIGHT_FILE: WeightFile<SIZE> =
    WeightFile::with_network("poddavki", include_str!("learned.txt"), start);

fn bucket(p: &Position) -> usize {
    match p.occupied().count_ones() {
        17.. => 0,
        9..=16 => 1,
        _ => 2,
    }
}

/// The square as the side to move sees it: Black's board is White's turned half a turn.
fn relative(stm: usize, s: usize) -> usize {
    if stm == 0 {
        s
    } else {
        31 - s
    }
}

/// The four piece sets in input order: own men, own kings, the opponent's men and kings.
fn piece_sets(p: &Position) -> [u32; 4] {
    let (us, them) = (p.pieces[p.stm], p.pieces[p.stm ^ 1]);
    [us & !p.kings, us & p.kings, them & !p.kings, them & p.kings]
}

/// The active inputs as `(index, value)` pairs (what the trainer sees).
pub fn inputs(p: &Position, out: &mut Vec<(u32, i32)>) {
    let base = bucket(p) * PER_BUCKET;
    for (k, set) in piece_sets(p).into_iter().enumerate() {
        for s in Squares(set) {
            out.push(((base + k * 32 + relative(p.stm, s)) as u32, 1));
        }
    }
    for (i, f) in eval::features(p).into_iter().enumerate() {
        if f != 0 {
            out.push(((base + SQUARE_INPUTS + i) as u32, f));
        }
    }
    out.push(((base + PER_BUCKET - 1) as u32, 1));
}

/// The evaluation with weights `w`, from the side to move's point of view: the sum over
/// [`inputs`] and, where the weights have one, the network's output over them, computed
/// without listing them.
pub fn evaluate(p: &Position, w: &LearnedWeights) -> i32 {
    let sum = match w.network() {
        None => linear(p, w),
        Some(net) => with_network(p, w, net),
    };
    sum.clamp(-i64::from(EVAL_LIMIT - 1), i64::from(EVAL_LIMIT - 1)) as i32
}

fn linear(p: &Position, w: &LearnedWeights) -> i64 {
    let w = &w[bucket(p) * PER_BUCKET..][..PER_BUCKET];
    let mut sum = i64::from(w[PER_BUCKET - 1]);
    for (k, set) in piece_sets(p).into_iter().enumerate() {
        for s in Squares(set) {
            sum += i64::from(w[k * 32 + relative(p.stm, s)]);
        }
    }
    let terms = &w[SQUARE_INPUTS..];
    for (f, &wt) in eval::features(p).into_iter().zip(terms) {
        sum += i64::from(f) * i64::from(wt);
    }
    sum
}

/// The linear sum and the network's output in one walk over the inputs.
fn with_network(p: &Position, w: &LearnedWeights, net: &Network) -> i64 {
    let base = bucket(p) * PER_BUCKET;
    let w = &w[base..][..PER_BUCKET];
    let mut acc = net.start();
    let mut sum = i64::from(w[PER_BUCKET - 1]);
    net.add_one(&mut acc, base + PER_BUCKET - 1);
    for (k, set) in piece_sets(p).into_iter().enumerate() {
        for s in Squares(set) {
            let i = k * 32 + relative(p.stm, s);
            sum += i64::from(w[i]);
            net.add_one(&mut acc, base + i);
        }
    }
    for (i, f) in eval::features(p).into_iter().enumerate() {
        if f != 0 {
            sum += i64::from(f) * i64::from(w[SQUARE_INPUTS + i]);
            net.add(&mut acc, base + SQUARE_INPUTS + i, f);
        }
    }
    sum + i64::from(net.output(&acc))
}

/// The evaluation with weights `w` broken down for `eval`: the pieces on their squares, each
/// hand-written term with its learned weight (in this phase), the constant, the network's
/// output if the weights have one. They add up to
/// [`evaluate`] before its clamp.
pub fn terms(p: &Position, weights: &LearnedWeights) -> Vec<(&'static str, i32)> {
    let w = &weights[bucket(p) * PER_BUCKET..][..PER_BUCKET];
    let mut squares = 0;
    for (k, set) in piece_sets(p).into_iter().enumerate() {
        for s in Squares(set) {
            squares += w[k * 32 + relative(p.stm, s)];
        }
    }
    let mut out = vec![("piece squares", squares)];
    let terms = eval::features(p).into_iter().zip(&w[SQUARE_INPUTS..]);
    out.extend(
        eval::LABELS
            .iter()
            .zip(terms)
            .map(|(&l, (f, &wt))| (l, f * wt)),
    );
    out.push(("to move", w[PER_BUCKET - 1]));
    if let Some(net) = weights.network() {
        let mut x = Vec::new();
        inputs(p, &mut x);
        out.push(("network", net.evaluate(&x)));
    }
    out
}

/// The hand-written evaluation in these inputs: its weights on the terms in every bucket.
pub fn start() -> Vec<i32> {
    let mut w = vec![0; SIZE];
    for b in 0..BUCKETS {
        w[b * PER_BUCKET + SQUARE_INPUTS..][..Weights::LEN]
            .copy_from_slice(&eval::WEIGHTS.to_array());
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::learned::sparse_dot;

    #[test]
    fn with_a_network_the_evaluation_adds_its_output_over_the_inputs() {
        let linear = &WEIGHT_FILE.built_in()[..];
        crate::games::network::check_with_network(
            crate::games::poddavki::tests::random_positions(5, 2000),
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
    fn the_evaluation_is_the_sum_over_the_inputs() {
        let w = LearnedWeights::new(&WEIGHT_FILE.built_in()[..]);
        let mut seen = 0;
        for p in crate::games::poddavki::tests::random_positions(5, 2000) {
            let mut x = Vec::new();
            inputs(&p, &mut x);
            assert!(x.iter().all(|&(i, _)| (i as usize) < SIZE));
            let sum = sparse_dot(&w[..], &x).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1);
            assert_eq!(evaluate(&p, &w), sum, "{p:?}");
            seen += 1;
        }
        assert_eq!(seen, 2000);
    }

    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        let w = WEIGHT_FILE.built_in().clone();
        for p in crate::games::poddavki::tests::random_positions(7, 500) {
            let sum: i32 = terms(&p, &w).iter().map(|t| t.1).sum();
            assert_eq!(
                sum.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1),
                evaluate(&p, &w)
            );
        }
    }

    #[test]
    fn the_start_weights_are_the_hand_written_evaluation() {
        assert_eq!(start().len(), SIZE);
        let w = LearnedWeights::new(&start());
        for p in crate::games::poddavki::tests::random_positions(6, 500) {
            assert_eq!(evaluate(&p, &w), eval::evaluate(&p), "{p:?}");
        }
    }
}
