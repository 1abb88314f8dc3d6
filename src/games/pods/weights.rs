//! Evaluation weights of `pods-advanced`: written by `scripts/tune/tune.py write`.
//! The fit: docs/strength/engine.md ("Tuning"); its matches: docs/strength/pods.md.

use super::eval::Weights;

pub const WEIGHTS: Weights = Weights {
    hand: 83,
    at_risk: -8,
    mobility: 7,
    stuck: -60,
    opp_stuck: 82,
    tempo: 30,
    idle_pods: -20,
    short: -30,
    exclusive: 10,
    threat: -150,
    threats: -300,
};
