//! Evaluation weights of `diamond`: written by `scripts/tune/tune.py write`.
//! The fit and its match results are in docs/strength.md ("Tuning").

use super::eval::Weights;

pub const WEIGHTS: Weights = Weights {
    material: 120,
    square1: 6,
    square2: 24,
    square3: 70,
    mobility: 3,
    capture_now: 70,
    hanging: -30,
    opp_threat: -40,
    opp_fork_point: -60,
    tempo: 8,
};
