//! The learned evaluation (`set_option eval learned`): a linear model over the ball's place, the
//! men around it, the race distances and the hand-written terms, one weight set per phase,
//! trained by `tetrad train` on self-play games (docs/strength/phutball.md, "Learned evaluation"). The
//! weights ship in `learned.txt` beside this file, with their provenance in its header;
//! `eval_file` loads others.
//!
//! It replaces the race measure of a quiet position ([`eval::race_eval`]) only: a position where
//! the side to move scores, or is threatened with nothing to stop it, keeps its fixed score, and
//! has no inputs (the trainer skips it).
//!
//! Inputs, from the side to move's point of view (rows counted towards its goal, and the board
//! mirrored left-right when the ball is right of the middle column, so that one pattern means
//! the same to either side and on either wing), per phase bucket (by the men on the board):
//! the ball's row (21) and folded column (8); a man at each offset from the ball within
//! [`REACH`] points (48), the region a ball move starts from; each side's race distance, one
//! input per value (2 × 14), and the pair of them up to [`PAIR_MAX`] (8 × 8), since who leads the
//! race by how much matters more near the goal; how far each side carries the ball with jumps
//! over the men alone and with one placement more (4 × 21: a chain that cannot score yet may
//! still take the ball most of the way, which the distance does not tell); the hand-written
//! terms (both distances and the ball's progress, their values); and a constant (the move's
//! worth).

use super::board::{col, point, row, COLS, ROWS};
use super::eval::{self, MAX_DIST};
use super::position::Pos;
use crate::games::learned::WeightFile;
use crate::games::{Side, EVAL_LIMIT};

/// How far from the ball (in rows and columns) the men count as a pattern.
const REACH: i32 = 3;
const SPAN: usize = 2 * REACH as usize + 1;
/// Distances above this share the pair table's last row and column.
const PAIR_MAX: usize = 7;
const DISTS: usize = MAX_DIST + 2;
const FOLDED_COLS: usize = COLS / 2 + 1;

const BALL_ROW: usize = 0;
const BALL_COL: usize = BALL_ROW + ROWS;
const NEAR: usize = BALL_COL + FOLDED_COLS;
const MY_DIST: usize = NEAR + SPAN * SPAN;
const THEIR_DIST: usize = MY_DIST + DISTS;
const PAIR: usize = THEIR_DIST + DISTS;
/// How far each side carries the ball with jumps alone and with one placement more
/// ([`eval::Race`]), one input per progress (−10 to 10), mine then the opponent's.
const REACH_AT: usize = PAIR + (PAIR_MAX + 1) * (PAIR_MAX + 1);
const PROGRESSES: usize = ROWS;
/// The hand-written terms: my distance, the opponent's, the ball's progress.
const TERMS: usize = REACH_AT + 4 * PROGRESSES;
const CONSTANT: usize = TERMS + 3;
/// Inputs per phase bucket.
const PER_BUCKET: usize = CONSTANT + 1;
const BUCKETS: usize = 3;
/// The number of inputs and weights.
pub const SIZE: usize = BUCKETS * PER_BUCKET;

/// The game's weights, [`SIZE`] of them (so every index the evaluation computes is in range),
/// and its weight file, whose shipped weights are `learned.txt` beside this file.
pub type LearnedWeights = crate::games::learned::LearnedWeights<SIZE>;
pub static WEIGHT_FILE: WeightFile<SIZE> =
    WeightFile::new("phutball", include_str!("learned.txt"), start);

/// The phase: few men (the opening's placements), a middle game, a crowded board (self-play
/// games are mostly decided with 4 to 16 men on the board).
fn bucket(p: &Pos) -> usize {
    match p.men.count() {
        0..=7 => 0,
        8..=13 => 1,
        _ => 2,
    }
}

/// What a quiet position's evaluation is made of, from the side to move's point of view.
struct Facts {
    /// Placements the side to move and the opponent need (0: the opponent threatens).
    mine: usize,
    theirs: usize,
    progress: i32,
    /// My reach with jumps alone and with one placement, then the opponent's, as input offsets.
    reach: [usize; 4],
    /// The ball's row counted from the side to move's own goal, its column folded to the left.
    row: usize,
    col: usize,
    /// Offsets from the ball are read with the rows turned for Blue and the columns mirrored.
    row_sign: i32,
    col_sign: i32,
}

fn facts(p: &Pos, threatened: bool) -> Facts {
    let me = p.side;
    let race = eval::race(p);
    let d = race.dist;
    // As `race_eval`: the side to move does not score now, the opponent does only if threatened.
    let mine = d[me.index()].max(1) as usize;
    let theirs = if threatened {
        0
    } else {
        d[me.other().index()].max(1) as usize
    };
    let b = p.ball as usize;
    let (r, c) = (row(b), col(b));
    let (row, row_sign) = match me {
        Side::P1 => (r, 1),
        Side::P2 => (ROWS - 1 - r, -1),
    };
    let (col, col_sign) = if c > COLS / 2 {
        (COLS - 1 - c, -1)
    } else {
        (c, 1)
    };
    let at = |side: Side, k: usize| (race.reach[side.index()][k] + 10).clamp(0, 20) as usize;
    Facts {
        mine,
        theirs,
        progress: eval::progress(p, me),
        reach: [at(me, 0), at(me, 1), at(me.other(), 0), at(me.other(), 1)],
        row,
        col,
        row_sign,
        col_sign,
    }
}

/// Calls `f` with the pattern index of each man within [`REACH`] of the ball.
#[inline]
fn near_men(p: &Pos, x: &Facts, mut f: impl FnMut(usize)) {
    let b = p.ball as usize;
    let (r0, c0) = (row(b) as i32, col(b) as i32);
    for dr in -REACH..=REACH {
        let r = r0 + dr * x.row_sign;
        if !(0..ROWS as i32).contains(&r) {
            continue;
        }
        for dc in -REACH..=REACH {
            let c = c0 + dc * x.col_sign;
            if (dr, dc) == (0, 0) || !(0..COLS as i32).contains(&c) {
                continue;
            }
            if p.men.get(point(c as usize, r as usize)) {
                f(((dr + REACH) as usize) * SPAN + (dc + REACH) as usize);
            }
        }
    }
}

fn pair(x: &Facts) -> usize {
    x.mine.min(PAIR_MAX) * (PAIR_MAX + 1) + x.theirs.min(PAIR_MAX)
}

/// The active inputs of a quiet position as `(index, value)` pairs (what the trainer sees);
/// `threatened`: the opponent would score now, and some move stops it.
pub fn inputs(p: &Pos, threatened: bool, out: &mut Vec<(u32, i32)>) {
    let x = facts(p, threatened);
    let base = bucket(p) * PER_BUCKET;
    let mut push = |i: usize, v: i32| out.push(((base + i) as u32, v));
    push(BALL_ROW + x.row, 1);
    push(BALL_COL + x.col, 1);
    near_men(p, &x, |k| push(NEAR + k, 1));
    push(MY_DIST + x.mine, 1);
    push(THEIR_DIST + x.theirs, 1);
    push(PAIR + pair(&x), 1);
    for (k, r) in x.reach.iter().enumerate() {
        push(REACH_AT + k * PROGRESSES + r, 1);
    }
    for (i, v) in [x.mine as i32, x.theirs as i32, x.progress]
        .into_iter()
        .enumerate()
    {
        if v != 0 {
            push(TERMS + i, v);
        }
    }
    push(CONSTANT, 1);
}

/// The evaluation of a quiet position with weights `w`, from the side to move's point of view:
/// the sum over [`inputs`], computed without listing them.
pub fn evaluate(p: &Pos, threatened: bool, w: &LearnedWeights) -> i32 {
    let x = facts(p, threatened);
    let w = &w[bucket(p) * PER_BUCKET..][..PER_BUCKET];
    let mut sum = i64::from(w[BALL_ROW + x.row])
        + i64::from(w[BALL_COL + x.col])
        + i64::from(w[MY_DIST + x.mine])
        + i64::from(w[THEIR_DIST + x.theirs])
        + i64::from(w[PAIR + pair(&x)])
        + i64::from(w[CONSTANT]);
    for (k, r) in x.reach.iter().enumerate() {
        sum += i64::from(w[REACH_AT + k * PROGRESSES + r]);
    }
    near_men(p, &x, |k| sum += i64::from(w[NEAR + k]));
    for (i, v) in [x.mine as i32, x.theirs as i32, x.progress]
        .into_iter()
        .enumerate()
    {
        sum += i64::from(w[TERMS + i]) * i64::from(v);
    }
    sum.clamp(-i64::from(EVAL_LIMIT - 1), i64::from(EVAL_LIMIT - 1)) as i32
}

/// The hand-written evaluation in these inputs ([`eval::race_eval`]'s weights on its terms, its
/// tempo on the constant) in every bucket.
pub fn start() -> Vec<i32> {
    let mut w = vec![0; SIZE];
    for b in 0..BUCKETS {
        let w = &mut w[b * PER_BUCKET..][..PER_BUCKET];
        w[TERMS..=CONSTANT].copy_from_slice(&[
            -eval::RACE_STEP,
            eval::RACE_STEP,
            eval::PROGRESS,
            eval::TEMPO,
        ]);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::learned::sparse_dot;
    use crate::games::phutball::tactics;
    use crate::games::{phutball::Phutball, Notation, Rules};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Quiet positions of random playouts biased to placements (so that boards fill), with
    /// whether the side to move is threatened.
    fn quiet_positions(seed: u64, n: usize) -> Vec<(Pos, bool)> {
        let game = Phutball::default();
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = game.start();
            for _ in 0..80 {
                if game.terminal(&pos).is_some() || out.len() >= n {
                    break;
                }
                match tactics::eval_facts(&pos) {
                    (false, t, stoppable) if !t || stoppable => out.push((pos, t)),
                    _ => {}
                }
                let mut jumps = Vec::new();
                crate::games::phutball::movegen::push_jumps_limited(&pos, 50, &mut jumps);
                let free: Vec<usize> = pos.empty_placeable().iter().collect();
                let mv = if !jumps.is_empty() && rng.gen_range(0..4) == 0 {
                    jumps[rng.gen_range(0..jumps.len())]
                } else {
                    crate::games::phutball::Move::Place(free[rng.gen_range(0..free.len())] as u16)
                };
                pos = game.make(&pos, mv);
            }
        }
        out
    }

    #[test]
    fn the_shipped_weights_parse() {
        assert!(WEIGHT_FILE.parse(WEIGHT_FILE.shipped()).is_ok());
    }

    #[test]
    fn the_evaluation_is_the_sum_over_the_inputs() {
        let w = WEIGHT_FILE.built_in().clone();
        let mut buckets = [0; BUCKETS];
        let mut threatened = 0;
        for (p, t) in quiet_positions(5, 1500) {
            let mut x = Vec::new();
            inputs(&p, t, &mut x);
            assert!(x.iter().all(|&(i, _)| (i as usize) < SIZE));
            let sum = sparse_dot(&w[..], &x).clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1);
            assert_eq!(evaluate(&p, t, &w), sum, "{p:?}");
            buckets[bucket(&p)] += 1;
            threatened += usize::from(t);
        }
        assert!(buckets.iter().all(|&b| b > 50), "{buckets:?}");
        assert!(threatened > 5, "{threatened}");
    }

    #[test]
    fn the_start_weights_are_the_hand_written_evaluation() {
        assert_eq!(start().len(), SIZE);
        let w = LearnedWeights::new(&start());
        for (p, t) in quiet_positions(6, 800) {
            assert_eq!(evaluate(&p, t, &w), eval::race_eval(&p, false, t), "{p:?}");
        }
    }

    #[test]
    fn a_pattern_means_the_same_to_either_side_and_on_either_wing() {
        // The board turned half a turn with the other side to move is the same position to
        // the side to move.
        let game = Phutball::default();
        for (p, t) in quiet_positions(7, 300) {
            // The middle column has no mirror image to fold onto.
            if col(p.ball as usize) == COLS / 2 {
                continue;
            }
            let mut men = super::super::board::Bits::EMPTY;
            for m in p.men.iter() {
                men.set(point(COLS - 1 - col(m), ROWS - 1 - row(m)));
            }
            let b = p.ball as usize;
            let ball = point(COLS - 1 - col(b), ROWS - 1 - row(b)) as u16;
            let q = Pos::new(men, ball, p.side.other());
            let (mut a, mut z) = (Vec::new(), Vec::new());
            inputs(&p, t, &mut a);
            inputs(&q, t, &mut z);
            a.sort_unstable();
            z.sort_unstable();
            assert_eq!(a, z, "{}", game.format_position(&p));
        }
    }
}
