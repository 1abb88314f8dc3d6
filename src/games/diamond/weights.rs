//! Evaluation weights of `diamond`: written by `scripts/tune/tune.py write`.
//! The fit: docs/strength/engine.md ("Tuning"); its matches: docs/strength/diamond.md.

use super::eval::Weights;

pub const WEIGHTS: Weights = Weights {
    material: 109,
    square1: 26,
    square2: 68,
    square3: 262,
    mobility: 2,
    capture_now: 81,
    hanging: -13,
    opp_threat: 145,
    opp_fork_point: 228,
    tempo: 47,
};
