//! Evaluation weights of `poddavki`: written by `scripts/tune/tune.py write`.
//! The fit: docs/strength/engine.md ("Tuning"); its matches: docs/strength/poddavki.md.

use super::eval::Weights;

pub const WEIGHTS: Weights = Weights {
    man: -60,
    king: -20,
    man_mobility: 25,
    king_mobility: 12,
    jammed: 20,
    advance: -10,
    crown_risk: -25,
    en_prise: 18,
    safe_move: 15,
};
