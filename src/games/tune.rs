//! The evaluation as data for Texel tuning (`scripts/tune/`): a tunable game's static evaluation
//! is a weighted sum of raw term counts, `evaluate = Σ weight × feature` (then clamped), with the
//! weights in one table per game (`weights.rs` in the game's folder, written by the tuner). The
//! `tetrad features` command prints the feature vectors the fit regresses on, so a fitted table
//! changes the evaluation and nothing else. Tunability is a hook of the game seam ([`Tunable`]):
//! the registry asks each game, so no list of tunable games is kept anywhere.

use std::io::{BufRead, Write};

use super::{Game, Rules, Side};

/// The tuning hook: a game whose evaluation is linear in a weight table says so here. The
/// defaults say "not tunable".
pub trait Tunable: Rules {
    /// The weight names (the table's field names), in feature order; empty when the game's
    /// evaluation is not a weighted sum.
    fn weight_names(&self) -> &'static [&'static str] {
        &[]
    }
    /// The weights the engine plays with, in feature order.
    fn weights(&self) -> Vec<i32> {
        Vec::new()
    }
    /// The raw terms at `pos`, such that `evaluate` is their dot product with
    /// [`Tunable::weights`] (clamped to the evaluation bound). `None` where the evaluation is
    /// not that sum: a fixed score for a decided position (a threat, a proof).
    fn features(&self, _pos: &Self::Pos) -> Option<Vec<i32>> {
        None
    }
    /// Whether `tetrad features` serves this game.
    fn is_tunable(&self) -> bool {
        !self.weight_names().is_empty()
    }
    /// The number of inputs (and weights) of the game's learned evaluation
    /// ([`crate::games::learned`]); 0: it has none.
    fn learned_size(&self) -> usize {
        0
    }
    /// Appends the learned evaluation's active inputs at `pos` as `(index, value)` pairs, each
    /// index below [`Tunable::learned_size`]; none where the evaluation is a fixed score rather
    /// than the model's (training skips such positions).
    fn learned_inputs(&self, _pos: &Self::Pos, _out: &mut Vec<(u32, i32)>) {}
    /// The weights training starts from: the hand-written evaluation expressed in the learned
    /// model's inputs where it can be, so that training refines it; empty: all zero.
    fn learned_start(&self) -> Vec<i32> {
        Vec::new()
    }
    /// Whether the learned evaluation reads a network on top of its linear weights
    /// ([`crate::games::network`]), so that `tetrad train --network` fits one.
    fn learned_network(&self) -> bool {
        false
    }
    /// Whether the evaluation at `pos` is a score fixed by a rule (a win within two plies, say)
    /// rather than the learned sum: training skips such a position.
    fn learned_fixed(&self, _pos: &Self::Pos) -> bool {
        false
    }
}

/// Defines a weight table: a struct of `i32` fields, its field names and the values in order.
#[macro_export]
macro_rules! weight_table {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[doc = $doc:literal])* pub $field:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name {
            $($(#[doc = $doc])* pub $field: i32,)*
        }

        impl $name {
            /// The field names, in feature order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
            /// The number of weights.
            pub const LEN: usize = Self::NAMES.len();

            /// The values, in the order of [`Self::NAMES`].
            pub fn to_array(self) -> [i32; Self::LEN] {
                [$(self.$field),*]
            }
        }
    };
}

/// Σ weight × feature, saturating into `i32`.
pub fn dot(weights: &[i32], features: &[i32]) -> i32 {
    let sum: i64 = weights
        .iter()
        .zip(features)
        .map(|(&w, &f)| i64::from(w) * i64::from(f))
        .sum();
    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Why `features` has no vector for a game.
#[derive(Debug, thiserror::Error)]
pub enum FeaturesError {
    #[error("{game} has no tunable evaluation (tunable: {list})", list = tunable.join(", "))]
    NotTunable {
        game: &'static str,
        /// The games that are (a registry's).
        tunable: Vec<&'static str>,
    },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// `tetrad features` for `game`: one position string a line in; out, a header
/// (`# game NAME`, `# names N1 N2 …`, `# weights W1 W2 …`), then per input line either
/// `SIDE F1 F2 …` (SIDE the side to move, 1 = first mover) or `- REASON` for a position the fit
/// must skip: `invalid` (does not parse), `over` (the game has ended), `forcing` (not quiet:
/// search would look further), `fixed` (scored by a rule, not the weighted sum). A game that
/// is not tunable gets `NotTunable` with an empty list (the registry names the tunable ones).
pub fn features<G: Game>(
    game: &G,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), FeaturesError> {
    if !game.is_tunable() {
        return Err(FeaturesError::NotTunable {
            game: game.name(),
            tunable: Vec::new(),
        });
    }
    run(game, input, out)
}

fn run<G: Game>(
    game: &G,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), FeaturesError> {
    writeln!(out, "# game {}", game.name())?;
    writeln!(out, "# names {}", game.weight_names().join(" "))?;
    let w: Vec<String> = game.weights().iter().map(i32::to_string).collect();
    writeln!(out, "# weights {}", w.join(" "))?;
    for line in input.lines() {
        let line = line?;
        match vector(game, line.trim()) {
            Ok((side, f)) => {
                let f: Vec<String> = f.iter().map(i32::to_string).collect();
                writeln!(out, "{side} {}", f.join(" "))?;
            }
            Err(reason) => writeln!(out, "- {reason}")?,
        }
    }
    out.flush()?;
    Ok(())
}

fn vector<G: Game>(game: &G, text: &str) -> Result<(u8, Vec<i32>), &'static str> {
    let pos = game.parse_position(text).map_err(|_| "invalid")?;
    if game.terminal(&pos).is_some() || !game.has_legal_move(&pos) {
        return Err("over");
    }
    if game.is_forcing(&pos) {
        return Err("forcing");
    }
    let f = game.features(&pos).ok_or("fixed")?;
    let side = match game.side_to_move(&pos) {
        Side::P1 => 1,
        Side::P2 => 2,
    };
    Ok((side, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{diamond, phutball, poddavki, pods, GameOptions};
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Random playouts' positions of a tunable game: wherever it gives features, the
    /// evaluation is their dot product with the weights.
    fn linear<G: Game>(game: &G, seed: u64) -> usize {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut checked = 0;
        for _ in 0..30 {
            let mut pos = game.start();
            for _ in 0..120 {
                if game.terminal(&pos).is_some() {
                    break;
                }
                if let Some(f) = game.features(&pos) {
                    assert_eq!(f.len(), game.weight_names().len());
                    let v = dot(&game.weights(), &f).clamp(
                        -(crate::games::EVAL_LIMIT - 1),
                        crate::games::EVAL_LIMIT - 1,
                    );
                    let e = game.evaluate(&pos);
                    assert!(
                        v == e || e.abs() >= 15_000,
                        "{}: {} features {f:?} give {v}, evaluate {e}",
                        game.name(),
                        game.format_position(&pos)
                    );
                    checked += 1;
                }
                let mut moves = Vec::new();
                game.legal_moves(&pos, &mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
            }
        }
        checked
    }

    #[test]
    fn evaluations_are_the_weighted_features() {
        // The weight table is the hand-written evaluation's (`eval classic`).
        let mut classic = poddavki::Poddavki::default();
        classic.set_option("eval", "classic").expect("an option");
        assert!(linear(&classic, 1) > 500);
        let mut dia = diamond::Diamond::default();
        dia.set_option("eval", "classic").expect("an option");
        assert!(linear(&dia, 2) > 500);
        let mut pods = pods::Pods::new(pods::PodsRules::Advanced);
        pods.set_option("eval", "classic").expect("an option");
        assert!(linear(&pods, 3) > 500);
    }

    #[test]
    fn the_command_marks_what_the_fit_must_skip() {
        let input = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\n\
                     not a position\n\
                     W:Wc3:Bd4\n\
                     W:W:Bd4\n";
        let mut out = Vec::new();
        features(
            &poddavki::Poddavki::default(),
            &mut input.as_bytes(),
            &mut out,
        )
        .expect("runs");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "# game poddavki");
        assert!(lines[1].starts_with("# names man king"), "{}", lines[1]);
        let n = lines[1].split(' ').count() - 2;
        assert_eq!(lines[2].split(' ').count() - 2, n);
        assert_eq!(lines[3].split(' ').count(), n + 1);
        assert!(lines[3].starts_with("1 0 0 "), "{}", lines[3]);
        assert_eq!(&lines[4..], ["- invalid", "- forcing", "- over"]);
        let err = features(
            &phutball::Phutball::default(),
            &mut "".as_bytes(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("phutball has no tunable"),
            "{err}"
        );
    }
}
