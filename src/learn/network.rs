//! `tetrad train --network`: fits a small network ([`crate::games::network`]) on top of trained
//! linear weights, on the CPU, in `f32`, then exports it in the engine's integers.
//!
//! The network learns the residual: the evaluation is the linear sum (fixed, already trained)
//! plus `100 × Σ_j w2[j] × relu(b1[j] + Σ_i (x_i / scale_i) × w1[i][j])`, each input divided by
//! the largest absolute value it takes in the data (so piece-square inputs and counts start on
//! one footing), by Adam on the log loss of `sigmoid(evaluation / K)` against the blended
//! target, the linear trainer's loss. One thread and a seeded generator: the same data and
//! settings give the same network, bit for bit, on the same build.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::games::network::{Network, ACC_SHIFT, HIDDEN, OUT_SHIFT};

/// The network's output per unit of `w2 · relu(…)`, in evaluation units: the scale the
/// probe that chose the design trained at (docs/strength/poddavki.md).
const OUT: f32 = 100.0;

/// One training position: its active inputs, the linear evaluation, the target.
pub struct Example<'a> {
    pub inputs: &'a [(u32, i32)],
    pub linear: f32,
    pub target: f32,
}

/// How to fit the network (the `--network-*` flags of `tetrad train`).
pub struct Fit {
    pub epochs: u32,
    pub learning_rate: f32,
    pub batch: usize,
    pub seed: u64,
}

/// Adam's state and step for one block of parameters.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `params` with gradient `grad` (then zeroed).
    fn step(&mut self, params: &mut [f32], grad: &mut [f32], rate: f32, step: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad.iter_mut())
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = b1 * *m + (1.0 - b1) * *g;
            *v = b2 * *v + (1.0 - b2) * *g * *g;
            *p -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *g = 0.0;
        }
    }
}

/// The network in training: `f32` weights over scaled inputs.
struct Model {
    inv_scale: Vec<f32>,
    w1: Vec<f32>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
}

impl Model {
    /// The hidden units' pre-activations for `inputs`.
    fn hidden(&self, inputs: &[(u32, i32)]) -> [f32; HIDDEN] {
        let mut z = self.b1;
        for &(i, v) in inputs {
            let i = i as usize;
            let x = v as f32 * self.inv_scale[i];
            for (z, &w) in z.iter_mut().zip(&self.w1[i * HIDDEN..][..HIDDEN]) {
                *z += x * w;
            }
        }
        z
    }

    /// The exported network: rows with the input scale folded in, in the engine's fixed point.
    fn export(&self) -> Network {
        let acc = (1u32 << ACC_SHIFT) as f32;
        let rows = (0..self.inv_scale.len())
            .map(|i| {
                let mut row = [0i16; HIDDEN];
                for (r, &w) in row.iter_mut().zip(&self.w1[i * HIDDEN..][..HIDDEN]) {
                    let q = (w * self.inv_scale[i] * acc).round();
                    *r = q.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
                }
                row
            })
            .collect();
        let bias = self.b1.map(|b| (b * acc).round() as i32);
        let out = self
            .w2
            .map(|w| (w * OUT * (1u32 << OUT_SHIFT) as f32).round() as i32);
        Network::new(rows, bias, out)
    }
}

/// Fits a network over `size` inputs to `examples` with scale `k`; `after_epoch` sees the
/// exported network after each epoch (the trainer reports held-out losses with it). Returns
/// the last epoch's network.
pub fn fit(
    examples: &[Example],
    size: usize,
    k: f64,
    fit: &Fit,
    after_epoch: &mut dyn FnMut(u32, &Network),
) -> Network {
    let mut scale = vec![1i32; size];
    for e in examples {
        for &(i, v) in e.inputs {
            if let Some(s) = scale.get_mut(i as usize) {
                *s = (*s).max(v.saturating_abs());
            }
        }
    }
    let mut rng = SmallRng::seed_from_u64(fit.seed);
    // Uniform on ±0.17: a standard deviation of 0.1, as the probe started.
    let mut init = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.gen_range(-0.17..0.17)).collect() };
    let w1 = init(size * HIDDEN);
    let mut w2 = [0.0; HIDDEN];
    w2.copy_from_slice(&init(HIDDEN));
    let mut model = Model {
        inv_scale: scale.iter().map(|&s| 1.0 / s as f32).collect(),
        w1,
        b1: [0.0; HIDDEN],
        w2,
    };
    let (mut g1, mut gb, mut g2) = (vec![0.0; size * HIDDEN], [0.0; HIDDEN], [0.0; HIDDEN]);
    let (mut a1, mut ab, mut a2) = (
        Adam::new(size * HIDDEN),
        Adam::new(HIDDEN),
        Adam::new(HIDDEN),
    );
    let k = k as f32;
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut step = 0;
    for epoch in 1..=fit.epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(fit.batch.max(1)) {
            let per = OUT / k / batch.len() as f32;
            for &n in batch {
                let e = &examples[n];
                let z = model.hidden(e.inputs);
                let r: f32 = z.iter().zip(&model.w2).map(|(&z, &w)| z.max(0.0) * w).sum();
                let p = 1.0 / (1.0 + (-(e.linear + OUT * r) / k).exp());
                let g = (p - e.target) * per;
                let mut gz = [0.0; HIDDEN];
                for j in 0..HIDDEN {
                    if z[j] > 0.0 {
                        g2[j] += g * z[j];
                        gz[j] = g * model.w2[j];
                        gb[j] += gz[j];
                    }
                }
                for &(i, v) in e.inputs {
                    let i = i as usize;
                    let x = v as f32 * model.inv_scale[i];
                    for (g, &d) in g1[i * HIDDEN..][..HIDDEN].iter_mut().zip(&gz) {
                        *g += x * d;
                    }
                }
            }
            step += 1;
            let rate = fit.learning_rate;
            a1.step(&mut model.w1, &mut g1, rate, step);
            ab.step(&mut model.b1, &mut gb, rate, step);
            a2.step(&mut model.w2, &mut g2, rate, step);
        }
        after_epoch(epoch, &model.export());
    }
    model.export()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An exclusive or the linear sum cannot fit: two inputs each worth nothing alone, a win
    /// together. The network learns it, and its integer export says so.
    #[test]
    fn the_network_learns_an_interaction() {
        let sets: [&[(u32, i32)]; 4] = [&[], &[(0, 1)], &[(1, 1)], &[(0, 1), (1, 1)]];
        let targets = [0.5, 0.5, 0.5, 0.95];
        let examples: Vec<Example> = (0..400)
            .map(|n| Example {
                inputs: sets[n % 4],
                linear: 0.0,
                target: targets[n % 4],
            })
            .collect();
        let settings = Fit {
            epochs: 200,
            learning_rate: 0.01,
            batch: 16,
            seed: 3,
        };
        let mut epochs = 0;
        let net = fit(&examples, 2, 100.0, &settings, &mut |_, _| epochs += 1);
        assert_eq!(epochs, 200);
        let both = net.evaluate(sets[3]);
        // sigmoid(e / 100) = 0.95 at e = 294; alone each stays near even.
        assert!(both > 200, "{both}");
        for alone in &sets[..3] {
            assert!(net.evaluate(alone).abs() < 60, "{}", net.evaluate(alone));
        }
        let again = fit(&examples, 2, 100.0, &settings, &mut |_, _| {});
        assert_eq!(again, net, "the same seed gives the same network");
    }
}
