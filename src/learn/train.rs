//! `tetrad train`: fits a game's learned evaluation ([`crate::games::learned`]) to self-play
//! data (`tetrad selfplay`'s lines) by logistic regression with Adam, on the CPU.
//!
//! The model's output is the evaluation in the game's units; `sigmoid(eval / K)` is the side to
//! move's expected result, with K fitted first to the search scores of the data (so the learned
//! evaluation speaks the scale the search's margins were tuned for). The target blends the
//! game's result and the search's opinion (`lambda` × result + (1 − `lambda`) ×
//! sigmoid(score / K)), as Scan's and Texel's tuners do. Positions whose side to move must
//! capture (`is_forcing`), or where the game is over, are skipped: the search never takes their
//! static evaluation as a score; so are positions the game scores by a rule rather than by the
//! learned sum (`Tunable::learned_fixed`). Every `holdout_every`-th game is held out. Training
//! starts from the game's [`Tunable::learned_start`] (its hand-written evaluation). The weights
//! are rounded to integers, and the losses and the held-out predictions are those of the
//! rounded weights, exactly what the engine computes. Deterministic for its inputs and seed.
//! With `--network`, a network is then fitted on top of the rounded weights
//! ([`super::network`]) and written after them.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::network;
use crate::games::learned::{format_weights, sparse_dot};
use crate::games::network::Network;
use crate::games::prelude::*;
use crate::games::EVAL_LIMIT;

/// How to train (the command-line flags of `tetrad train`).
#[derive(Clone, Debug, clap::Args)]
pub struct Settings {
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weight of the game's result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Every this-many-th game (by its number) is held out; 0: none.
    #[arg(long, default_value_t = 10)]
    pub holdout_every: u32,
    #[arg(long, default_value_t = 0.002)]
    pub learning_rate: f64,
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// L2 penalty on the distance from the start weights, per position.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Also fit a network on top of the trained linear weights (games whose evaluation reads
    /// one: [`crate::games::network`]), written after them in the file.
    #[arg(long)]
    pub network: bool,
    #[arg(long, default_value_t = 40)]
    pub network_epochs: u32,
    #[arg(long, default_value_t = 0.001)]
    pub network_learning_rate: f64,
    #[arg(long, default_value_t = 1024)]
    pub network_batch: usize,
    /// Also list each quiet position's inputs and target ([`Trained::inputs`]).
    #[arg(skip)]
    pub list_inputs: bool,
}

/// Why training could not run.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("{0} has no learned evaluation")]
    NotLearnable(&'static str),
    #[error("{0}'s evaluation reads no network")]
    NoNetwork(&'static str),
    #[error("data line {line}: {why}")]
    Data { line: usize, why: String },
    #[error("no training positions in the data")]
    NoData,
}

/// What training made.
#[derive(Debug, Clone)]
pub struct Trained {
    /// The weight file (the provenance in its header, then the weights).
    pub file: String,
    /// The held-out positions with the rounded model's evaluation: `POSITION<TAB>EVAL` lines.
    pub predictions: String,
    /// A summary for the user (also in the file's header).
    pub report: Vec<String>,
    /// With [`Settings::list_inputs`], every quiet position's inputs and blended target, the
    /// data a trainer outside the engine reads (a network's): a header with lambda and K, then
    /// `GAME<TAB>POSITION<TAB>TARGET<TAB>INDEX:VALUE...` lines, the active inputs only.
    pub inputs: String,
}

/// One quiet position of the data: its inputs, result and search score (side to move).
struct Sample {
    inputs: Vec<(u32, i32)>,
    result: f64,
    score: i32,
    position: String,
    game: u32,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn cross_entropy(target: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(target * p.ln() + (1.0 - target) * (1.0 - p).ln())
}

/// What the data holds.
struct Data {
    samples: Vec<Sample>,
    /// Lines skipped: forcing or finished positions, or scored by a rule (no inputs).
    skipped: usize,
    /// Lines skipped: positions the game scores by a rule (`Tunable::learned_fixed`).
    fixed: usize,
    /// Games (a new one wherever the game number changes from one line to the next).
    games: usize,
    /// The comment lines (each file's provenance, `selfplay`'s command).
    comments: Vec<String>,
}

fn parse_data<G: Game>(game: &G, text: &str) -> Result<Data, TrainError> {
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut fixed = 0;
    let mut comments = Vec::new();
    let (mut games, mut last) = (0, None);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if let Some(c) = line.strip_prefix('#') {
            comments.push(c.trim().to_string());
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let bad = |why: &str| TrainError::Data {
            line: n + 1,
            why: why.to_string(),
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let [g, _ply, position, score, result] = fields[..] else {
            return Err(bad(
                "expected GAME, PLY, POSITION, SCORE, RESULT separated by tabs",
            ));
        };
        let game_no: u32 = g.parse().map_err(|_| bad("the game number"))?;
        if last != Some(game_no) {
            games += 1;
            last = Some(game_no);
        }
        let score: i32 = score.parse().map_err(|_| bad("the score"))?;
        let result = match result {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(bad("the result (1, 0.5 or 0)")),
        };
        let pos = game
            .parse_position(position)
            .map_err(|e| bad(&e.to_string()))?;
        if game.terminal(&pos).is_some() || !game.has_legal_move(&pos) || game.is_forcing(&pos) {
            skipped += 1;
            continue;
        }
        if game.learned_fixed(&pos) {
            fixed += 1;
            continue;
        }
        let mut inputs = Vec::new();
        game.learned_inputs(&pos, &mut inputs);
        // No inputs: the game scores this position by a rule (a threat, a proof), not the model.
        if inputs.is_empty() {
            skipped += 1;
            continue;
        }
        out.push(Sample {
            inputs,
            result,
            score,
            position: position.to_string(),
            game: game_no,
        });
    }
    Ok(Data {
        samples: out,
        skipped,
        fixed,
        games,
        comments,
    })
}

/// Whether a score is a proven result rather than an evaluation.
fn proven(score: i32) -> bool {
    score.abs() >= EVAL_LIMIT
}

/// The scale K (evaluation units per unit of logit) that best predicts the results from the
/// search scores: a golden-section search over log K.
fn fit_scale(samples: &[&Sample]) -> f64 {
    let loss = |log_k: f64| {
        let k = log_k.exp();
        samples
            .iter()
            .filter(|s| !proven(s.score))
            .map(|s| cross_entropy(s.result, sigmoid(f64::from(s.score) / k)))
            .sum::<f64>()
    };
    let (mut a, mut b) = (10f64.ln(), 10_000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c) < loss(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    let search = if proven(s.score) {
        if s.score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        sigmoid(f64::from(s.score) / k)
    };
    lambda * s.result + (1.0 - lambda) * search
}

/// The evaluation of integer weights and a network, clamped as the engine clamps it.
fn eval_of((w, net): Model, s: &Sample) -> i32 {
    let sum =
        i64::from(sparse_dot(w, &s.inputs)) + net.map_or(0, |n| i64::from(n.evaluate(&s.inputs)));
    sum.clamp(-i64::from(EVAL_LIMIT - 1), i64::from(EVAL_LIMIT - 1)) as i32
}

/// Linear weights and, if any, a network: what the engine evaluates with.
type Model<'a> = (&'a [i32], Option<&'a Network>);

/// Mean loss of a model against the blended targets.
fn loss_of(model: Model, set: &[&Sample], k: f64, lambda: f64) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|s| {
            cross_entropy(
                target(s, k, lambda),
                sigmoid(f64::from(eval_of(model, s)) / k),
            )
        })
        .sum();
    sum / set.len().max(1) as f64
}

/// Adam over mini-batches; weights in logit units, started from `start` / K.
fn fit(start: &[i32], train: &[&Sample], k: f64, s: &Settings) -> Vec<i32> {
    let n = start.len();
    let w0: Vec<f64> = start.iter().map(|&v| f64::from(v) / k).collect();
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut grad = vec![0.0; n];
    let mut touched: Vec<usize> = Vec::new();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut rng = SmallRng::seed_from_u64(s.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut step = 0i32;
    let targets: Vec<f64> = train.iter().map(|t| target(t, k, s.lambda)).collect();
    for _ in 0..s.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(s.batch.max(1)) {
            for &i in batch {
                let z: f64 = train[i]
                    .inputs
                    .iter()
                    .map(|&(j, x)| w[j as usize] * f64::from(x))
                    .sum();
                let g = sigmoid(z) - targets[i];
                for &(j, x) in &train[i].inputs {
                    let j = j as usize;
                    if grad[j] == 0.0 {
                        touched.push(j);
                    }
                    grad[j] += g * f64::from(x);
                }
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let scale = 1.0 / batch.len() as f64;
            touched.sort_unstable();
            touched.dedup();
            for &j in &touched {
                let g = grad[j] * scale + s.l2 * (w[j] - w0[j]);
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                w[j] -= s.learning_rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                grad[j] = 0.0;
            }
            touched.clear();
        }
    }
    w.iter()
        .map(|x| (x * k).round().clamp(-1e6, 1e6) as i32)
        .collect()
}

/// Trains `game`'s learned evaluation on `data` (selfplay lines). `command` is written into the
/// file's header as its provenance.
pub fn train<G: Game>(
    game: &G,
    data: &str,
    s: &Settings,
    command: &str,
) -> Result<Trained, TrainError> {
    let size = game.learned_size();
    if size == 0 {
        return Err(TrainError::NotLearnable(game.name()));
    }
    if s.network && !game.learned_network() {
        return Err(TrainError::NoNetwork(game.name()));
    }
    let Data {
        samples,
        skipped,
        fixed,
        games,
        comments,
    } = parse_data(game, data)?;
    let held_out = |sm: &Sample| s.holdout_every > 0 && sm.game.is_multiple_of(s.holdout_every);
    let train: Vec<&Sample> = samples.iter().filter(|x| !held_out(x)).collect();
    let held: Vec<&Sample> = samples.iter().filter(|x| held_out(x)).collect();
    if train.is_empty() {
        return Err(TrainError::NoData);
    }
    let mut start = game.learned_start();
    start.resize(size, 0);
    let k = fit_scale(&train);
    let w = fit(&start, &train, k, s);
    let linear: Model = (&w, None);
    let mut report = vec![
        format!("command: {command}"),
        format!(
            "data: {} quiet positions of {games} games ({} training, {} held out: every {}th game), {skipped} positions skipped (forcing or over)",
            samples.len(),
            train.len(),
            held.len(),
            s.holdout_every
        ) + &if fixed > 0 {
            format!(", {fixed} scored by a rule")
        } else {
            String::new()
        },
        format!(
            "training: {} epochs, batch {}, learning rate {}, lambda {}, l2 {}, seed {}; scale K = {k:.1}",
            s.epochs, s.batch, s.learning_rate, s.lambda, s.l2, s.seed
        ),
        format!(
            "loss, training positions: {:.5} at the start weights, {:.5} trained",
            loss_of((&start, None), &train, k, s.lambda),
            loss_of(linear, &train, k, s.lambda)
        ),
        format!(
            "loss, held-out positions: {:.5} at the start weights, {:.5} trained",
            loss_of((&start, None), &held, k, s.lambda),
            loss_of(linear, &held, k, s.lambda)
        ),
    ];
    let net = s
        .network
        .then(|| train_network(&w, &train, &held, size, k, s, &mut report));
    let mut header = vec![format!("tetrad learned evaluation of {}", game.name())];
    header.extend(comments.iter().map(|c| format!("data {c}")));
    header.extend(report.iter().cloned());
    let model: Model = (&w, net.as_ref());
    let predictions = held
        .iter()
        .map(|x| format!("{}\t{}\n", x.position, eval_of(model, x)))
        .collect();
    let inputs = if s.list_inputs {
        inputs_text(game.name(), size, &samples, k, s.lambda)
    } else {
        String::new()
    };
    Ok(Trained {
        file: format_weights(game.name(), &header, &w)
            + &net.as_ref().map_or(String::new(), Network::format),
        predictions,
        report,
        inputs,
    })
}

/// Fits the network on top of linear weights `w` and reports its losses: on the training and
/// held-out positions, after each epoch on the held-out ones, and on the held-out positions
/// no training game reached (a network can learn the others by heart).
fn train_network(
    w: &[i32],
    train: &[&Sample],
    held: &[&Sample],
    size: usize,
    k: f64,
    s: &Settings,
    report: &mut Vec<String>,
) -> Network {
    let examples: Vec<network::Example> = train
        .iter()
        .map(|x| network::Example {
            inputs: &x.inputs,
            linear: sparse_dot(w, &x.inputs) as f32,
            target: target(x, k, s.lambda) as f32,
        })
        .collect();
    let settings = network::Fit {
        epochs: s.network_epochs,
        learning_rate: s.network_learning_rate as f32,
        batch: s.network_batch,
        seed: s.seed,
    };
    let mut by_epoch = Vec::new();
    let net = network::fit(&examples, size, k, &settings, &mut |_, net| {
        by_epoch.push(format!("{:.5}", loss_of((w, Some(net)), held, k, s.lambda)));
    });
    let seen: std::collections::HashSet<&str> = train.iter().map(|x| &x.position[..]).collect();
    let unseen: Vec<&Sample> = held
        .iter()
        .copied()
        .filter(|x| !seen.contains(&x.position[..]))
        .collect();
    let with: Model = (w, Some(&net));
    report.extend([
        format!(
            "network: {} hidden units, {} epochs, batch {}, learning rate {}, seed {}",
            crate::games::network::HIDDEN,
            s.network_epochs,
            s.network_batch,
            s.network_learning_rate,
            s.seed
        ),
        format!(
            "loss with the network: training {:.5}, held out {:.5}",
            loss_of(with, train, k, s.lambda),
            loss_of(with, held, k, s.lambda)
        ),
        format!(
            "loss, the {} held-out positions no training game reached: {:.5} linear, {:.5} with the network",
            unseen.len(),
            loss_of((w, None), &unseen, k, s.lambda),
            loss_of(with, &unseen, k, s.lambda)
        ),
        format!("loss with the network, held out, by epoch: {}", by_epoch.join(" ")),
    ]);
    net
}

/// [`Trained::inputs`].
fn inputs_text(name: &str, size: usize, samples: &[Sample], k: f64, lambda: f64) -> String {
    use std::fmt::Write as _;
    let mut text = format!(
        "# tetrad learned inputs of {name}, {size} of them: game, position, target (lambda x \
         result + (1 - lambda) x sigmoid(score / K), the side to move's), then index:value of \
         each active input\n# lambda {lambda}\n# K {k}\n"
    );
    for s in samples {
        let _ = write!(
            text,
            "{}\t{}\t{:.6}",
            s.game,
            s.position,
            target(s, k, lambda)
        );
        for (i, v) in &s.inputs {
            let _ = write!(text, "\t{i}:{v}");
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_fits_scores_that_predict_results() {
        // Results drawn to follow sigmoid(score / 200) exactly, in expectation.
        let mut samples = Vec::new();
        for score in (-600..=600).step_by(50) {
            let p = sigmoid(f64::from(score) / 200.0);
            let wins = (p * 1000.0).round() as usize;
            for i in 0..1000 {
                samples.push(Sample {
                    inputs: Vec::new(),
                    result: if i < wins { 1.0 } else { 0.0 },
                    score,
                    position: String::new(),
                    game: 0,
                });
            }
        }
        let refs: Vec<&Sample> = samples.iter().collect();
        let k = fit_scale(&refs);
        assert!((k - 200.0).abs() < 5.0, "{k}");
    }
}
