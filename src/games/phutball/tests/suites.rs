//! Hand-built tactical suites for the search, as data plus checkers:
//!
//! - [`SCORE_IN_ONE`]: the side to move scores with one ball move (some chains need four or more
//!   jumps, some pass near or through the mover's own goal, where stopping early loses);
//! - [`STOP_THE_THREAT`]: the opponent would score next move and a placement stops every such
//!   chain (the named one; others may exist).
//!
//! Each pattern is given for Red and, mirrored top to bottom, for Blue, and where it is not
//! symmetric also mirrored left to right. The checkers verify every claim by brute force over
//! legal moves, so that they can be reused against `genmove`.

use super::movegen::Move;
use super::tactics::is_own_goal;
use super::{Phutball, Pos};
use crate::games::prelude::*;
use crate::games::{Outcome, Side};

/// A "score in one" position.
pub struct ScoreInOne {
    pub name: &'static str,
    pub position: &'static str,
    /// Fewest jumps of any scoring chain.
    pub min_jumps: u32,
    /// Some ball move available here ends on the mover's own goal (and loses).
    pub own_goal_trap: bool,
}

/// A "stop the threat" position.
pub struct StopTheThreat {
    pub name: &'static str,
    pub position: &'static str,
    /// A placement that stops every scoring chain of the opponent.
    pub stopper: &'static str,
}

pub const SCORE_IN_ONE: &[ScoreInOne] = &[
    // straight ladder up the h file, four jumps
    ScoreInOne {
        name: "ladder_h_red",
        position: "15/15/7X7/7X7/15/7X7/15/7X7/15/7X7/7O7/15/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 4,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "ladder_h_blue",
        position: "15/15/15/15/15/15/15/15/15/15/7O7/7X7/15/7X7/15/7X7/15/7X7/7X7/15/15 b",
        min_jumps: 4,
        own_goal_trap: false,
    },
    // straight ladder, five jumps
    ScoreInOne {
        name: "ladder_d_red",
        position: "15/15/3X11/3X11/15/3X11/15/3X11/15/3X11/15/3X11/3O11/15/15/15/15/15/15/15/15 r",
        min_jumps: 5,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "ladder_d_blue",
        position: "15/15/15/15/15/15/15/15/3O11/3X11/15/3X11/15/3X11/15/3X11/15/3X11/3X11/15/15 b",
        min_jumps: 5,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "ladder_d_mirror_red",
        position: "15/15/11X3/11X3/15/11X3/15/11X3/15/11X3/15/11X3/11O3/15/15/15/15/15/15/15/15 r",
        min_jumps: 5,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "ladder_d_mirror_blue",
        position: "15/15/15/15/15/15/15/15/11O3/11X3/15/11X3/15/11X3/15/11X3/15/11X3/11X3/15/15 b",
        min_jumps: 5,
        own_goal_trap: false,
    },
    // alternating diagonal and straight jumps
    ScoreInOne {
        name: "zigzag_red",
        position: "15/15/9X5/15/8X6/15/1X5X7/7X7/15/6X8/15/5X9/15/4X10/3O11/12X2/15/15/15/15/15 r",
        min_jumps: 6,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "zigzag_blue",
        position: "15/15/15/15/15/12X2/3O11/4X10/15/5X9/15/6X8/15/7X7/1X5X7/15/8X6/15/9X5/15/15 b",
        min_jumps: 6,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "zigzag_mirror_red",
        position: "15/15/5X9/15/6X8/15/7X5X1/7X7/15/8X6/15/9X5/15/10X4/11O3/2X12/15/15/15/15/15 r",
        min_jumps: 6,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "zigzag_mirror_blue",
        position: "15/15/15/15/15/2X12/11O3/10X4/15/9X5/15/8X6/15/7X7/7X5X1/15/6X8/15/5X9/15/15 b",
        min_jumps: 6,
        own_goal_trap: false,
    },
    // one jump over thirteen men
    ScoreInOne {
        name: "long_run_red",
        position: "15/15/2X12/2X12/2X12/2X12/2X12/2X12/2X9X2/2X12/2X12/2X7X4/2X12/2X12/2X12/2O12/15/15/15/15/15 r",
        min_jumps: 1,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "long_run_blue",
        position: "15/15/15/15/15/2O12/2X12/2X12/2X12/2X7X4/2X12/2X12/2X9X2/2X12/2X12/2X12/2X12/2X12/2X12/15/15 b",
        min_jumps: 1,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "long_run_mirror_red",
        position: "15/15/12X2/12X2/12X2/12X2/12X2/12X2/2X9X2/12X2/12X2/4X7X2/12X2/12X2/12X2/12O2/15/15/15/15/15 r",
        min_jumps: 1,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "long_run_mirror_blue",
        position: "15/15/15/15/15/12O2/12X2/12X2/12X2/4X7X2/12X2/12X2/2X9X2/12X2/12X2/12X2/12X2/12X2/12X2/15/15 b",
        min_jumps: 1,
        own_goal_trap: false,
    },
    // down onto the own goal line, along it, then the whole length of the board
    ScoreInOne {
        name: "through_own_goal_red",
        position: "15/15/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/7O1X5/7X1X5/8X6/15 r",
        min_jumps: 3,
        own_goal_trap: true,
    },
    ScoreInOne {
        name: "through_own_goal_blue",
        position: "15/8X6/7X1X5/7O1X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/15/15 b",
        min_jumps: 3,
        own_goal_trap: true,
    },
    ScoreInOne {
        name: "through_own_goal_mirror_red",
        position: "15/15/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X1O7/5X1X7/6X8/15 r",
        min_jumps: 3,
        own_goal_trap: true,
    },
    ScoreInOne {
        name: "through_own_goal_mirror_blue",
        position: "15/6X8/5X1X7/5X1O7/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/15/15 b",
        min_jumps: 3,
        own_goal_trap: true,
    },
    // a long run leads into the own goal; the ladder goes the other way
    ScoreInOne {
        name: "trap_downhill_red",
        position: "15/15/7X7/7X7/7X7/15/7X7/7X7/15/7X7/7O7/7X7/7X7/7X7/7X7/7X7/7X7/7X7/7X7/15/15 r",
        min_jumps: 3,
        own_goal_trap: true,
    },
    ScoreInOne {
        name: "trap_downhill_blue",
        position: "15/15/7X7/7X7/7X7/7X7/7X7/7X7/7X7/7X7/7O7/7X7/15/7X7/7X7/15/7X7/7X7/7X7/15/15 b",
        min_jumps: 3,
        own_goal_trap: true,
    },
    // the ball must first jump away from the goal
    ScoreInOne {
        name: "back_first_red",
        position: "15/15/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X1O7/5XX8/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "back_first_blue",
        position: "15/15/15/15/15/15/15/15/15/5XX8/5X1O7/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X9/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "back_first_mirror_red",
        position: "15/15/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/7O1X5/8XX5/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "back_first_mirror_blue",
        position: "15/15/15/15/15/15/15/15/15/8XX5/7O1X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    // a seven-jump diagonal staircase
    ScoreInOne {
        name: "diagonal7_red",
        position: "15/15/14X/14X/15/13X1/15/11X3/15/9X5/15/7X7/15/5X9/15/3X11/2O12/15/15/15/15 r",
        min_jumps: 7,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "diagonal7_blue",
        position: "15/15/15/15/2O12/3X11/15/5X9/15/7X7/15/9X5/15/11X3/15/13X1/15/14X/14X/15/15 b",
        min_jumps: 7,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "diagonal7_mirror_red",
        position: "15/15/X14/X14/15/1X13/15/3X11/15/5X9/15/7X7/15/9X5/15/11X3/12O2/15/15/15/15 r",
        min_jumps: 7,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "diagonal7_mirror_blue",
        position: "15/15/15/15/12O2/11X3/15/9X5/15/7X7/15/5X9/15/3X11/15/1X13/15/X14/X14/15/15 b",
        min_jumps: 7,
        own_goal_trap: false,
    },
    // the straight jump is a dead end; go sideways first
    ScoreInOne {
        name: "sideways_first_red",
        position: "15/15/9X5/9X5/9X5/9X5/9X5/9X5/9X5/7X1X5/7OX6/15/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "sideways_first_blue",
        position: "15/15/15/15/15/15/15/15/15/15/7OX6/7X1X5/9X5/9X5/9X5/9X5/9X5/9X5/9X5/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "sideways_first_mirror_red",
        position: "15/15/5X9/5X9/5X9/5X9/5X9/5X9/5X9/5X1X7/6XO7/15/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "sideways_first_mirror_blue",
        position: "15/15/15/15/15/15/15/15/15/15/6XO7/5X1X7/5X9/5X9/5X9/5X9/5X9/5X9/5X9/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    // nine jumps weaving up two files
    ScoreInOne {
        name: "spiral_red",
        position: "15/7X7/15/7X7/8X6/3X5X5/8X6/7X7/8X6/9X5/7OX6/15/15/15/15/15/15/2X12/15/15/15 r",
        min_jumps: 9,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "spiral_blue",
        position: "15/15/15/2X12/15/15/15/15/15/15/7OX6/9X5/8X6/7X7/8X6/3X5X5/8X6/7X7/15/7X7/15 b",
        min_jumps: 9,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "spiral_mirror_red",
        position: "15/7X7/15/7X7/6X8/5X5X3/6X8/7X7/6X8/5X9/6XO7/15/15/15/15/15/15/12X2/15/15/15 r",
        min_jumps: 9,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "spiral_mirror_blue",
        position: "15/15/15/12X2/15/15/15/15/15/15/6XO7/5X9/6X8/7X7/6X8/5X5X3/6X8/7X7/15/7X7/15 b",
        min_jumps: 9,
        own_goal_trap: false,
    },
    // onto the edge file, then up it
    ScoreInOne {
        name: "edge_column_red",
        position: "15/15/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/15/1X13/2O12/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "edge_column_blue",
        position: "15/15/15/2O12/1X13/15/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/X14/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "edge_column_mirror_red",
        position: "15/15/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/15/13X1/12O2/15/15/15 r",
        min_jumps: 2,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "edge_column_mirror_blue",
        position: "15/15/15/12O2/13X1/15/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/14X/15/15 b",
        min_jumps: 2,
        own_goal_trap: false,
    },
    // along the row, then up
    ScoreInOne {
        name: "row_then_up_red",
        position: "15/15/6X8/15/5X9/15/4X10/4X10/1OXX11/15/15/15/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 4,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "row_then_up_blue",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/1OXX11/4X10/4X10/15/5X9/15/6X8/15/15 b",
        min_jumps: 4,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "row_then_up_mirror_red",
        position: "15/15/8X6/15/9X5/15/10X4/10X4/11XXO1/15/15/15/15/15/15/15/15/15/15/15/15 r",
        min_jumps: 4,
        own_goal_trap: false,
    },
    ScoreInOne {
        name: "row_then_up_mirror_blue",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/11XXO1/10X4/10X4/15/9X5/15/8X6/15/15 b",
        min_jumps: 4,
        own_goal_trap: false,
    },
];

pub const STOP_THE_THREAT: &[StopTheThreat] = &[
    // the first jump lands next to the edge; a man there sends it off the board
    StopTheThreat {
        name: "edge_a18_blue",
        position: "15/X14/15/1X13/2O12/15/15/15/15/15/15/15/15/15/10X4/15/15/12X2/15/15/15 b",
        stopper: "a18",
    },
    StopTheThreat {
        name: "edge_a18_red",
        position: "15/15/15/12X2/15/15/10X4/15/15/15/15/15/15/15/15/15/2O12/1X13/15/X14/15 r",
        stopper: "a2",
    },
    StopTheThreat {
        name: "edge_a18_mirror_blue",
        position: "15/14X/15/13X1/12O2/15/15/15/15/15/15/15/15/15/4X10/15/15/2X12/15/15/15 b",
        stopper: "o18",
    },
    StopTheThreat {
        name: "edge_a18_mirror_red",
        position: "15/15/15/2X12/15/15/4X10/15/15/15/15/15/15/15/15/15/12O2/13X1/15/14X/15 r",
        stopper: "o2",
    },
    // same, one row lower
    StopTheThreat {
        name: "edge_a17_blue",
        position: "15/15/X14/15/1X13/2O12/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "a17",
    },
    StopTheThreat {
        name: "edge_a17_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/2O12/1X13/15/X14/15/15 r",
        stopper: "a3",
    },
    StopTheThreat {
        name: "edge_a17_mirror_blue",
        position: "15/15/14X/15/13X1/12O2/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "o17",
    },
    StopTheThreat {
        name: "edge_a17_mirror_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/12O2/13X1/15/14X/15/15 r",
        stopper: "o3",
    },
    // same, two men above the landing point
    StopTheThreat {
        name: "edge_a16_blue",
        position: "15/15/X14/X14/15/1X13/2O12/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "a16",
    },
    StopTheThreat {
        name: "edge_a16_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/2O12/1X13/15/X14/X14/15/15 r",
        stopper: "a4",
    },
    StopTheThreat {
        name: "edge_a16_mirror_blue",
        position: "15/15/14X/14X/15/13X1/12O2/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "o16",
    },
    StopTheThreat {
        name: "edge_a16_mirror_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/12O2/13X1/15/14X/14X/15/15 r",
        stopper: "o4",
    },
    // a man on the turning point sends the ball on to a dead end
    StopTheThreat {
        name: "turn_east_blue",
        position: "15/15/9X5/9X5/8X6/7X7/7O7/15/15/15/15/15/15/15/15/15/2XX11/15/15/15/15 b",
        stopper: "h16",
    },
    StopTheThreat {
        name: "turn_east_red",
        position: "15/15/15/15/2XX11/15/15/15/15/15/15/15/15/15/7O7/7X7/8X6/9X5/9X5/15/15 r",
        stopper: "h4",
    },
    StopTheThreat {
        name: "turn_east_mirror_blue",
        position: "15/15/5X9/5X9/6X8/7X7/7O7/15/15/15/15/15/15/15/15/15/11XX2/15/15/15/15 b",
        stopper: "f16",
    },
    StopTheThreat {
        name: "turn_east_mirror_red",
        position: "15/15/15/15/11XX2/15/15/15/15/15/15/15/15/15/7O7/7X7/6X8/5X9/5X9/15/15 r",
        stopper: "f4",
    },
    // a sideways jump to the edge file, then up
    StopTheThreat {
        name: "edge_row17_blue",
        position: "15/15/X14/1XO12/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "a17",
    },
    StopTheThreat {
        name: "edge_row17_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/1XO12/X14/15/15 r",
        stopper: "a3",
    },
    StopTheThreat {
        name: "edge_row17_mirror_blue",
        position: "15/15/14X/12OX1/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "o17",
    },
    StopTheThreat {
        name: "edge_row17_mirror_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/12OX1/14X/15/15 r",
        stopper: "o3",
    },
    // a sideways jump to the edge file, then up two men
    StopTheThreat {
        name: "edge_row16_blue",
        position: "15/15/X14/X14/1XO12/15/15/15/15/15/15/15/15/15/15/8X6/15/7X7/15/15/15 b",
        stopper: "a16",
    },
    StopTheThreat {
        name: "edge_row16_red",
        position: "15/15/15/7X7/15/8X6/15/15/15/15/15/15/15/15/15/15/1XO12/X14/X14/15/15 r",
        stopper: "a4",
    },
    StopTheThreat {
        name: "edge_row16_mirror_blue",
        position: "15/15/14X/14X/12OX1/15/15/15/15/15/15/15/15/15/15/6X8/15/7X7/15/15/15 b",
        stopper: "o16",
    },
    StopTheThreat {
        name: "edge_row16_mirror_red",
        position: "15/15/15/7X7/15/6X8/15/15/15/15/15/15/15/15/15/15/12OX1/14X/14X/15/15 r",
        stopper: "o4",
    },
    // a sideways jump to the edge file, then up three men
    StopTheThreat {
        name: "edge_row15_blue",
        position: "15/15/X14/X14/X14/1XO12/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "a15",
    },
    StopTheThreat {
        name: "edge_row15_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/1XO12/X14/X14/X14/15/15 r",
        stopper: "a5",
    },
    StopTheThreat {
        name: "edge_row15_mirror_blue",
        position: "15/15/14X/14X/14X/12OX1/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "o15",
    },
    StopTheThreat {
        name: "edge_row15_mirror_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/12OX1/14X/14X/14X/15/15 r",
        stopper: "o5",
    },
    // a diagonal jump to the edge file, then up three men
    StopTheThreat {
        name: "edge_a15_blue",
        position: "15/15/X14/X14/X14/15/1X13/2O12/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "a15",
    },
    StopTheThreat {
        name: "edge_a15_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/2O12/1X13/15/X14/X14/X14/15/15 r",
        stopper: "a5",
    },
    StopTheThreat {
        name: "edge_a15_mirror_blue",
        position: "15/15/14X/14X/14X/15/13X1/12O2/15/15/15/15/15/15/15/15/15/15/15/15/15 b",
        stopper: "o15",
    },
    StopTheThreat {
        name: "edge_a15_mirror_red",
        position: "15/15/15/15/15/15/15/15/15/15/15/15/15/12O2/13X1/15/14X/14X/14X/15/15 r",
        stopper: "o5",
    },
    // a ladder that turns; block the turning point
    StopTheThreat {
        name: "ladder_turn_blue",
        position: "15/15/9X5/9X5/9X5/9X5/9X5/9X5/8X6/7X7/15/7X7/7O7/15/15/15/15/1X13/12X2/15/15 b",
        stopper: "h12",
    },
    StopTheThreat {
        name: "ladder_turn_red",
        position: "15/15/12X2/1X13/15/15/15/15/7O7/7X7/15/7X7/8X6/9X5/9X5/9X5/9X5/9X5/9X5/15/15 r",
        stopper: "h8",
    },
    StopTheThreat {
        name: "ladder_turn_mirror_blue",
        position: "15/15/5X9/5X9/5X9/5X9/5X9/5X9/6X8/7X7/15/7X7/7O7/15/15/15/15/13X1/2X12/15/15 b",
        stopper: "f12",
    },
    StopTheThreat {
        name: "ladder_turn_mirror_red",
        position: "15/15/2X12/13X1/15/15/15/15/7O7/7X7/15/7X7/6X8/5X9/5X9/5X9/5X9/5X9/5X9/15/15 r",
        stopper: "f8",
    },
    // a diagonal then a turn up the file
    StopTheThreat {
        name: "turn_east_d_blue",
        position: "15/15/5X9/5X9/5X9/4X10/3X11/3O11/15/15/15/15/15/13X1/15/15/11X3/15/15/15/15 b",
        stopper: "d15",
    },
    StopTheThreat {
        name: "turn_east_d_red",
        position: "15/15/15/15/11X3/15/15/13X1/15/15/15/15/15/3O11/3X11/4X10/5X9/5X9/5X9/15/15 r",
        stopper: "d5",
    },
    StopTheThreat {
        name: "turn_east_d_mirror_blue",
        position: "15/15/9X5/9X5/9X5/10X4/11X3/11O3/15/15/15/15/15/1X13/15/15/3X11/15/15/15/15 b",
        stopper: "l15",
    },
    StopTheThreat {
        name: "turn_east_d_mirror_red",
        position: "15/15/15/15/3X11/15/15/1X13/15/15/15/15/15/11O3/11X3/10X4/9X5/9X5/9X5/15/15 r",
        stopper: "l5",
    },
];
/// True when after `mv` (by the side to move in `pos`) the opponent has no move that wins at
/// once: brute force over his legal replies.
pub fn stops_threat(game: &Phutball, pos: &Pos, mv: Move) -> bool {
    let child = game.make(pos, mv);
    if let Some(t) = game.terminal(&child) {
        return t.outcome == Outcome::Win(pos.side);
    }
    !wins_at_once(game, &child)
}

/// True when the side to move has a legal move after which it has won (brute force).
pub fn wins_at_once(game: &Phutball, pos: &Pos) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves.iter().any(|&m| {
        game.terminal(&game.make(pos, m)).map(|t| t.outcome) == Some(Outcome::Win(pos.side))
    })
}

fn other_to_move(pos: &Pos) -> Pos {
    Pos::new(pos.men, pos.ball, pos.side.other())
}

/// Fewest jumps in a scoring chain, by a breadth-first search over single jumps (independent of
/// the move generator's chain search).
pub fn min_scoring_jumps(pos: &Pos) -> Option<u32> {
    use super::board::{Bits, NONE, STEP};
    use std::collections::HashSet;
    let target = super::movegen::scoring_rows(pos.side);
    let mut layer: Vec<(u16, Bits)> = vec![(pos.ball, pos.men)];
    let mut seen: HashSet<(u16, Bits)> = layer.iter().copied().collect();
    for depth in 1..=super::board::N as u32 {
        let mut next = Vec::new();
        for &(ball, men) in &layer {
            for step in STEP.iter() {
                let mut q = step[ball as usize];
                let mut men2 = men;
                let mut over = 0;
                while q != NONE && men.get(q as usize) {
                    men2.clear(q as usize);
                    over += 1;
                    q = step[q as usize];
                }
                if over == 0 || q == NONE {
                    continue;
                }
                if target.get(q as usize) {
                    return Some(depth);
                }
                if seen.insert((q, men2)) {
                    next.push((q, men2));
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        layer = next;
    }
    None
}

/// Checks every claim of a "score in one" entry.
pub fn check_score_in_one(game: &Phutball, s: &ScoreInOne) -> Result<(), String> {
    let pos = game
        .parse_position(s.position)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if game.terminal(&pos).is_some() {
        return Err(format!("{}: already over", s.name));
    }
    let m = game
        .winning_move(&pos)
        .ok_or_else(|| format!("{}: winning_move found nothing", s.name))?;
    let after = game.make(&pos, m);
    if game.terminal(&after).map(|t| t.outcome) != Some(Outcome::Win(pos.side)) {
        return Err(format!(
            "{}: {} does not win",
            s.name,
            game.format_move(&pos, m)
        ));
    }
    let min = min_scoring_jumps(&pos);
    if min != Some(s.min_jumps) {
        return Err(format!(
            "{}: fewest jumps {min:?}, expected {}",
            s.name, s.min_jumps
        ));
    }
    let mut moves = Vec::new();
    game.legal_moves(&pos, &mut moves);
    let trap = moves.iter().any(|&mv| is_own_goal(&pos, mv));
    if trap != s.own_goal_trap {
        return Err(format!("{}: own-goal trap is {trap}", s.name));
    }
    Ok(())
}

/// Checks every claim of a "stop the threat" entry: the mover cannot score, the opponent could,
/// the named placement stops every chain (brute force over the replies), and so does every move
/// of [`Phutball::threat_stoppers`], which must contain it.
pub fn check_stop_the_threat(game: &Phutball, s: &StopTheThreat) -> Result<(), String> {
    let pos = game
        .parse_position(s.position)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if game.terminal(&pos).is_some() {
        return Err(format!("{}: already over", s.name));
    }
    if wins_at_once(game, &pos) {
        return Err(format!("{}: the side to move can score", s.name));
    }
    if !wins_at_once(game, &other_to_move(&pos)) {
        return Err(format!("{}: no threat", s.name));
    }
    if game.threat(&pos).is_none() {
        return Err(format!("{}: threat() missed the threat", s.name));
    }
    let stopper = game
        .parse_move(&pos, s.stopper)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if !matches!(stopper, Move::Place(_)) {
        return Err(format!("{}: {} is not a placement", s.name, s.stopper));
    }
    if !stops_threat(game, &pos, stopper) {
        return Err(format!(
            "{}: {} does not stop the threat",
            s.name, s.stopper
        ));
    }
    let all = game.threat_stoppers(&pos);
    if !all.contains(&stopper) {
        return Err(format!("{}: threat_stoppers misses {}", s.name, s.stopper));
    }
    for &m in &all {
        if !stops_threat(game, &pos, m) {
            return Err(format!(
                "{}: threat_stoppers offers {}, which fails",
                s.name,
                game.format_move(&pos, m)
            ));
        }
    }
    Ok(())
}

/// Which side a suite entry is for (the side to move).
pub fn side_of(game: &Phutball, position: &str) -> Option<Side> {
    game.parse_position(position).ok().map(|p| p.side)
}
