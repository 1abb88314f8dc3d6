//! A small network on top of a learned evaluation's linear sum: the interactions a sum of
//! independent terms cannot see (a man's square counts differently beside a jam than in the
//! open). The evaluation becomes
//!
//! ```text
//! linear + Σ_j out[j] × relu(bias[j] + Σ_i value_i × row[i][j])    (then clamped)
//! ```
//!
//! over the same sparse inputs as the linear model, with [`HIDDEN`] hidden units. Inference is
//! in integers, as in NNUE: the first layer's rows are `i16` in 1/2^[`ACC_SHIFT`] units (a
//! position adds only its active inputs' rows, some tens of them, into `i32` accumulators the
//! compiler vectorizes), the output weights `i32` in 1/2^[`OUT_SHIFT`] evaluation units. So what
//! the trainer (`tetrad train --network`, [`crate::learn::network`]) reports for the exported
//! network is what the engine computes, to the unit.
//!
//! In a weight file the network follows the linear weights: a line `network INPUTS HIDDEN`,
//! then the rows (HIDDEN numbers for each input in turn), the biases and the output weights.

use super::learned::WeightsError;

/// Hidden units: one accumulator of 32 `i32` is eight SSE additions a row.
pub const HIDDEN: usize = 32;
/// The first layer's fixed point: a row entry of 1024 adds 1.0 to a unit's pre-activation.
pub const ACC_SHIFT: u32 = 10;
/// The output layer's fixed point, in evaluation units.
pub const OUT_SHIFT: u32 = 6;

/// The network's weights: a row per input, a bias and an output weight per hidden unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    rows: Vec<[i16; HIDDEN]>,
    bias: [i32; HIDDEN],
    out: [i32; HIDDEN],
}

/// The hidden units' pre-activations at a position, as its inputs are added.
#[derive(Clone, Copy, Debug)]
pub struct Accumulator([i32; HIDDEN]);

impl Network {
    pub fn new(rows: Vec<[i16; HIDDEN]>, bias: [i32; HIDDEN], out: [i32; HIDDEN]) -> Network {
        Network { rows, bias, out }
    }

    /// The accumulator of a position with no inputs yet: the biases.
    #[inline]
    pub fn start(&self) -> Accumulator {
        Accumulator(self.bias)
    }

    /// Adds input `index` with value 1 (a piece on a square: no multiplication). An index past
    /// the rows adds nothing.
    #[inline]
    pub fn add_one(&self, acc: &mut Accumulator, index: usize) {
        if let Some(row) = self.rows.get(index) {
            for (a, &w) in acc.0.iter_mut().zip(row) {
                *a += i32::from(w);
            }
        }
    }

    /// Adds input `index` with `value`.
    #[inline]
    pub fn add(&self, acc: &mut Accumulator, index: usize, value: i32) {
        if let Some(row) = self.rows.get(index) {
            for (a, &w) in acc.0.iter_mut().zip(row) {
                *a = a.wrapping_add(i32::from(w).wrapping_mul(value));
            }
        }
    }

    /// The network's part of the evaluation, in evaluation units (rounded towards minus
    /// infinity), for the inputs added to `acc`.
    #[inline]
    pub fn output(&self, acc: &Accumulator) -> i32 {
        let sum: i64 = acc
            .0
            .iter()
            .zip(&self.out)
            .map(|(&a, &o)| i64::from(a.max(0)) * i64::from(o))
            .sum();
        (sum >> (ACC_SHIFT + OUT_SHIFT)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// The network's part of the evaluation for sparse `(index, value)` inputs.
    pub fn evaluate(&self, inputs: &[(u32, i32)]) -> i32 {
        let mut acc = self.start();
        for &(i, v) in inputs {
            self.add(&mut acc, i as usize, v);
        }
        self.output(&acc)
    }

    /// The network's section of a weight file.
    pub fn format(&self) -> String {
        let mut s = format!("network {} {HIDDEN}\n", self.rows.len());
        let mut line = |values: &mut dyn Iterator<Item = i32>| {
            let v: Vec<String> = values.map(|v| v.to_string()).collect();
            s.push_str(&v.join(" "));
            s.push('\n');
        };
        for row in &self.rows {
            line(&mut row.iter().map(|&w| i32::from(w)));
        }
        line(&mut self.bias.iter().copied());
        line(&mut self.out.iter().copied());
        s
    }

    /// The network after its `network INPUTS HIDDEN` line (`header`, split into words), from
    /// the numbers that follow, for a model of `inputs` inputs.
    pub fn parse<'a>(
        header: &[&str],
        numbers: impl Iterator<Item = &'a str>,
        inputs: usize,
    ) -> Result<Network, WeightsError> {
        let bad = |why: String| WeightsError::Network(why);
        let [_, n, h] = header else {
            return Err(bad("expected 'network INPUTS HIDDEN'".into()));
        };
        if n.parse::<usize>().ok() != Some(inputs) {
            return Err(bad(format!("{n} inputs where the model has {inputs}")));
        }
        if h.parse::<usize>().ok() != Some(HIDDEN) {
            return Err(bad(format!(
                "{h} hidden units where the engine has {HIDDEN}"
            )));
        }
        let values = numbers
            .map(|w| {
                w.parse::<i32>()
                    .map_err(|_| WeightsError::NotNumber(w.chars().take(40).collect()))
            })
            .collect::<Result<Vec<i32>, _>>()?;
        let expected = (inputs + 2) * HIDDEN;
        if values.len() != expected {
            return Err(bad(format!(
                "{} numbers where {expected} are needed",
                values.len()
            )));
        }
        let (rows, rest) = values.split_at(inputs * HIDDEN);
        let rows = rows
            .chunks(HIDDEN)
            .map(|c| {
                let mut row = [0i16; HIDDEN];
                for (r, &v) in row.iter_mut().zip(c) {
                    *r = i16::try_from(v)
                        .map_err(|_| bad(format!("row entry {v} is out of range")))?;
                }
                Ok(row)
            })
            .collect::<Result<Vec<_>, WeightsError>>()?;
        let mut bias = [0; HIDDEN];
        let mut out = [0; HIDDEN];
        bias.copy_from_slice(&rest[..HIDDEN]);
        out.copy_from_slice(&rest[HIDDEN..]);
        Ok(Network::new(rows, bias, out))
    }
}

/// A network of random weights over `inputs` inputs, for the games' tests: an evaluation
/// with a network must be the linear sum plus [`Network::evaluate`] over the same inputs.
#[cfg(test)]
pub fn random(inputs: usize, seed: u64) -> Network {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let rows = (0..inputs)
        .map(|_| std::array::from_fn(|_| rng.gen_range(-300..300)))
        .collect();
    let bias = std::array::from_fn(|_| rng.gen_range(-500..500));
    let out = std::array::from_fn(|_| rng.gen_range(-3000..3000));
    Network::new(rows, bias, out)
}

/// Checks a game's evaluation with a network of random weights over `size` inputs at each of
/// `positions`: where the game lists inputs (`inputs`), `evaluate` with the network
/// (`evaluate(p, Some(..))`) must be the linear sum plus [`Network::evaluate`], clamped; and it
/// must differ from the evaluation without the network at more than `min_differ` of them.
#[cfg(test)]
pub fn check_with_network<P: std::fmt::Debug>(
    positions: impl IntoIterator<Item = P>,
    size: usize,
    linear: &[i32],
    inputs: impl Fn(&P, &mut Vec<(u32, i32)>),
    evaluate: impl Fn(&P, Option<Network>) -> i32,
    min_differ: usize,
) {
    use crate::games::learned::sparse_dot;
    use crate::games::EVAL_LIMIT;
    let net = random(size, 9);
    let limit = i64::from(EVAL_LIMIT - 1);
    let mut differ = 0;
    for p in positions {
        let mut x = Vec::new();
        inputs(&p, &mut x);
        let with = evaluate(&p, Some(net.clone()));
        if x.is_empty() {
            assert_eq!(with, evaluate(&p, None), "a rule's score: {p:?}");
            continue;
        }
        let sum = i64::from(sparse_dot(linear, &x)) + i64::from(net.evaluate(&x));
        assert_eq!(i64::from(with), sum.clamp(-limit, limit), "{p:?}");
        differ += usize::from(with != evaluate(&p, None));
    }
    assert!(differ > min_differ, "the network counts: {differ}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> Network {
        let mut rows = vec![[0i16; HIDDEN]; 3];
        rows[0][0] = 1 << ACC_SHIFT; // input 0 drives unit 0 by 1.0
        rows[1][0] = -(2 << ACC_SHIFT); // input 1 drives it down by 2.0
        rows[2][1] = 1 << (ACC_SHIFT - 1); // input 2 drives unit 1 by 0.5
        let mut out = [0; HIDDEN];
        out[0] = 10 << OUT_SHIFT;
        out[1] = -(4 << OUT_SHIFT);
        Network::new(rows, [0; HIDDEN], out)
    }

    #[test]
    fn the_output_is_the_relu_of_the_sums_weighted() {
        let n = toy();
        assert_eq!(n.evaluate(&[]), 0);
        assert_eq!(n.evaluate(&[(0, 3)]), 30);
        // Unit 0 below zero counts nothing: the interaction a sum cannot express.
        assert_eq!(n.evaluate(&[(0, 1), (1, 1)]), 0);
        assert_eq!(n.evaluate(&[(0, 5), (1, 1), (2, 4)]), 30 - 8);
        let mut acc = n.start();
        n.add_one(&mut acc, 0);
        n.add_one(&mut acc, 2);
        n.add_one(&mut acc, 99); // past the rows: nothing
        assert_eq!(n.output(&acc), 10 - 2);
    }

    #[test]
    fn a_formatted_network_reads_back() {
        let n = toy();
        let text = n.format();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
        let numbers = lines.flat_map(str::split_whitespace);
        assert_eq!(Network::parse(&header, numbers.clone(), 3), Ok(n));
        assert!(Network::parse(&header, numbers.clone(), 4).is_err());
        assert!(Network::parse(&header, numbers.skip(1), 3).is_err());
        let wide = ["network", "3", "64"];
        assert!(Network::parse(&wide, std::iter::empty(), 3).is_err());
        let big = format!("{}\n", vec!["40000"; 5 * HIDDEN].join(" "));
        assert!(matches!(
            Network::parse(&header, big.split_whitespace(), 3),
            Err(WeightsError::Network(_))
        ));
    }
}
