//! Evaluation weights of `pods-advanced`: written by `scripts/tune/tune.py write`.
//! The fit and its match results are in docs/strength.md ("Tuning").

use super::eval::Weights;

pub const WEIGHTS: Weights = Weights {
    hand: 100,
    at_risk: -30,
    mobility: 3,
    stuck: -40,
    opp_stuck: 40,
};
