//! Learned evaluations: the weight file a game's learned evaluation reads (written by `tetrad
//! train`, `src/learn/`); the inputs come from the tuning hook (`Tunable::learned_inputs`).
//!
//! A learned evaluation is a sparse linear model: at a position the game lists its active inputs
//! as `(index, value)` pairs, and the evaluation is `Σ weight[index] × value`, clamped to the
//! evaluation bound. The weights are integers in the game's evaluation units, so what the
//! trainer predicts with the exported weights is what the engine computes, to the unit.
//!
//! The file: comment lines (`#`, the provenance: command, seed, data size, losses), then a line
//! `GAME N`, then the N weights as integers separated by white space.
//!
//! Every game reads its weights through the one type here ([`LearnedWeights`], its size a
//! parameter) and declares its file as a [`WeightFile`] `static` (its name, its shipped
//! `learned.txt`, its start weights); what stays in a game's `learned.rs` is its own: the
//! inputs, the evaluation over them and their number.

use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use super::network::Network;
use super::RuleError;
use crate::options::{GameOption, Kind};

/// The choices of a game's `eval` option, in the order of [`parse_eval_choice`]'s answer.
pub const EVALS: &[&str] = &["classic", "learned"];

/// `eval VALUE`: whether it chooses the learned evaluation.
pub fn parse_eval_choice(value: &str) -> Result<bool, RuleError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "classic" => Ok(false),
        "learned" => Ok(true),
        other => Err(RuleError::Option(format!(
            "eval takes classic or learned, not '{other}'"
        ))),
    }
}

/// The options `eval` and `eval_file` of a game with a learned evaluation, as it lists them:
/// each game's own, since its weights and its default evaluation are.
pub fn eval_options(learned: bool, eval_file: &str) -> [GameOption; 2] {
    [
        GameOption::new("eval", Kind::Combo(EVALS), EVALS[usize::from(learned)]).own(),
        GameOption::new("eval_file", Kind::Path, eval_file).own(),
    ]
}

/// A weight file is some tens of kilobytes; anything much larger is not one.
const MAX_WEIGHT_FILE: u64 = 1 << 20;

/// `eval_file PATH`: the weights in the file at `path`, read by `parse`; `builtin` (as
/// `pods_data` says it) gives `built_in()`. The error names the option and the path.
fn load_weight_file<W>(
    path: &str,
    built_in: impl FnOnce() -> W,
    parse: impl FnOnce(&str) -> Result<W, WeightsError>,
) -> Result<W, RuleError> {
    use std::io::Read;
    if path == "builtin" {
        return Ok(built_in());
    }
    let fail = |why: String| RuleError::Option(format!("eval_file {path}: {why}"));
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    // Only a regular file: a device or a pipe could give endless or no input.
    if !file.metadata().map(|m| m.is_file()).unwrap_or(false) {
        return Err(fail("not a regular file".into()));
    }
    let mut text = String::new();
    file.take(MAX_WEIGHT_FILE)
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    parse(&text).map_err(|e| fail(e.to_string()))
}

/// A game's learned weights, `N` of them: the length is the type's, so the game's evaluation
/// indexes an array it knows the size of, and no other game's weights can be handed to it.
/// With them, where the file has one, a network over the same inputs ([`Network`]).
/// Shared, since a game state is cloned for every search thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights<const N: usize>(Arc<([i32; N], Option<Network>)>);

impl<const N: usize> LearnedWeights<N> {
    /// The first `N` of `values`, zeros past their end (a parsed file has exactly `N`; a game's
    /// start weights are `N` long, which its tests check).
    pub fn new(values: &[i32]) -> LearnedWeights<N> {
        Self::with_network(values, None)
    }

    /// [`LearnedWeights::new`] with a network.
    pub fn with_network(values: &[i32], network: Option<Network>) -> LearnedWeights<N> {
        let mut w = [0; N];
        for (w, &v) in w.iter_mut().zip(values) {
            *w = v;
        }
        LearnedWeights(Arc::new((w, network)))
    }

    /// The network, if the weights have one.
    pub fn network(&self) -> Option<&Network> {
        self.0 .1.as_ref()
    }
}

impl<const N: usize> Deref for LearnedWeights<N> {
    type Target = [i32; N];
    fn deref(&self) -> &[i32; N] {
        &self.0 .0
    }
}

/// A game's weight file: the name its header gives the game, the shipped file's text (the
/// game's `learned.txt`), and the start weights (the hand-written evaluation in the learned
/// one's inputs). A game declares one as a `static`, whose shipped weights are read once.
pub struct WeightFile<const N: usize> {
    game: &'static str,
    shipped: &'static str,
    start: fn() -> Vec<i32>,
    /// Whether the game's evaluation reads a network: a file with one is refused otherwise.
    network: bool,
    built_in: OnceLock<LearnedWeights<N>>,
}

impl<const N: usize> WeightFile<N> {
    pub const fn new(
        game: &'static str,
        shipped: &'static str,
        start: fn() -> Vec<i32>,
    ) -> WeightFile<N> {
        Self::make(game, shipped, start, false)
    }

    /// [`WeightFile::new`] for a game whose evaluation also reads a network.
    pub const fn with_network(
        game: &'static str,
        shipped: &'static str,
        start: fn() -> Vec<i32>,
    ) -> WeightFile<N> {
        Self::make(game, shipped, start, true)
    }

    const fn make(
        game: &'static str,
        shipped: &'static str,
        start: fn() -> Vec<i32>,
        network: bool,
    ) -> WeightFile<N> {
        WeightFile {
            game,
            shipped,
            start,
            network,
            built_in: OnceLock::new(),
        }
    }

    /// The weights in a file's `text`, refused when they are another game's or not `N`.
    pub fn parse(&self, text: &str) -> Result<LearnedWeights<N>, WeightsError> {
        let (linear, network) = parse_weights(text, self.game, N)?;
        if network.is_some() && !self.network {
            return Err(WeightsError::Network(format!(
                "{}'s evaluation reads no network",
                self.game
            )));
        }
        Ok(LearnedWeights::with_network(&linear, network))
    }

    /// The shipped weights (a unit test per game reads them, so they parse; else the start
    /// weights, the hand-written evaluation).
    pub fn built_in(&self) -> &LearnedWeights<N> {
        self.built_in.get_or_init(|| {
            self.parse(self.shipped)
                .unwrap_or_else(|_| LearnedWeights::new(&(self.start)()))
        })
    }

    /// `eval_file PATH`: the weights of the file at `path`, or the shipped ones for `builtin`.
    /// The error names the option and the path.
    pub fn load(&self, path: &str) -> Result<LearnedWeights<N>, RuleError> {
        load_weight_file(path, || self.built_in().clone(), |text| self.parse(text))
    }

    /// The shipped file's text, for the games' tests.
    #[cfg(test)]
    pub fn shipped(&self) -> &'static str {
        self.shipped
    }
}

/// Why a weight file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    #[error("no 'GAME N' line")]
    NoHeader,
    #[error("the weights are for {found}, not {expected}")]
    OtherGame {
        expected: &'static str,
        found: String,
    },
    #[error("{found} weights where {expected} are needed")]
    Size { expected: usize, found: usize },
    #[error("'{0}' is not a weight")]
    NotNumber(String),
    #[error("network: {0}")]
    Network(String),
}

/// The linear weights and the network (if any) of a weight file.
type Parsed = (Vec<i32>, Option<Network>);

/// Reads a weight file for `game` with `size` weights.
fn parse_weights(text: &str, game: &'static str, size: usize) -> Result<Parsed, WeightsError> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let header = lines.next().ok_or(WeightsError::NoHeader)?;
    let mut words = header.split_whitespace();
    let (Some(name), Some(n), None) = (words.next(), words.next(), words.next()) else {
        return Err(WeightsError::NoHeader);
    };
    if name != game {
        return Err(WeightsError::OtherGame {
            expected: game,
            found: name.chars().take(40).collect(),
        });
    }
    let declared: usize = n.parse().map_err(|_| WeightsError::NoHeader)?;
    // The linear weights run up to the network's header line, if there is one.
    let body: Vec<&str> = lines.collect();
    let split = body
        .iter()
        .position(|l| l.starts_with("network"))
        .unwrap_or(body.len());
    let (linear, network) = body.split_at(split);
    let weights = linear
        .iter()
        .flat_map(|l| l.split_whitespace())
        .map(|w| {
            w.parse::<i32>()
                .map_err(|_| WeightsError::NotNumber(w.chars().take(40).collect()))
        })
        .collect::<Result<Vec<i32>, _>>()?;
    for found in [declared, weights.len()] {
        if found != size {
            return Err(WeightsError::Size {
                expected: size,
                found,
            });
        }
    }
    let network = match network.split_first() {
        Some((header, numbers)) => {
            let header: Vec<&str> = header.split_whitespace().collect();
            let numbers = numbers.iter().flat_map(|l| l.split_whitespace());
            Some(Network::parse(&header, numbers, size)?)
        }
        None => None,
    };
    Ok((weights, network))
}

/// Writes a weight file: `comments` as `#` lines, the header, the weights 16 a line.
pub fn format_weights(game: &str, comments: &[String], weights: &[i32]) -> String {
    let mut s = String::new();
    for c in comments {
        for line in c.lines() {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
    }
    s.push_str(&format!("{game} {}\n", weights.len()));
    for row in weights.chunks(16) {
        let row: Vec<String> = row.iter().map(i32::to_string).collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s
}

/// `Σ weight × value` over sparse inputs, saturating into `i32`; an index past the weights
/// counts nothing.
pub fn sparse_dot(weights: &[i32], inputs: &[(u32, i32)]) -> i32 {
    let sum: i64 = inputs
        .iter()
        .map(|&(i, v)| i64::from(weights.get(i as usize).copied().unwrap_or(0)) * i64::from(v))
        .sum();
    sum.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back() {
        let w: Vec<i32> = (-20..20).collect();
        let text = format_weights("poddavki", &["made by a test\nseed 1".to_string()], &w);
        assert!(text.starts_with("# made by a test\n# seed 1\npoddavki 40\n"));
        assert_eq!(parse_weights(&text, "poddavki", 40), Ok((w, None)));
    }

    fn toy_start() -> Vec<i32> {
        vec![7, 8, 9]
    }

    #[test]
    fn a_weight_file_reads_its_games_weights_and_ships_its_own() {
        static TOY: WeightFile<3> = WeightFile::new("toy", "# shipped\ntoy 3\n1 2 3\n", toy_start);
        assert_eq!(TOY.built_in()[..], [1, 2, 3]);
        assert_eq!(
            TOY.parse("toy 3\n4 5 6").map(|w| w[..].to_vec()),
            Ok(vec![4, 5, 6])
        );
        assert_eq!(
            TOY.parse("toy 4\n1 2 3 4"),
            Err(WeightsError::Size {
                expected: 3,
                found: 4
            })
        );
        assert!(matches!(TOY.load("builtin"), Ok(w) if w == *TOY.built_in()));
        // Shipped weights that do not parse leave the hand-written evaluation's.
        static BROKEN: WeightFile<3> = WeightFile::new("toy", "toy 2\n1 2\n", toy_start);
        assert_eq!(BROKEN.built_in()[..], [7, 8, 9]);
        assert_eq!(LearnedWeights::<4>::new(&[1, 2])[..], [1, 2, 0, 0]);
    }

    #[test]
    fn a_network_reads_back_where_the_game_reads_one() {
        use crate::games::network::HIDDEN;
        let mut rows = vec![[0i16; HIDDEN]; 3];
        rows[1][2] = -7;
        let net = Network::new(rows, [3; HIDDEN], [-2; HIDDEN]);
        let text = format_weights("toy", &["with a network".into()], &[1, 2, 3]) + &net.format();
        static PLAIN: WeightFile<3> = WeightFile::new("toy", "toy 3\n1 2 3\n", toy_start);
        static NET: WeightFile<3> = WeightFile::with_network("toy", "toy 3\n1 2 3\n", toy_start);
        let w = NET.parse(&text).expect("parses");
        assert_eq!((w[..].to_vec(), w.network()), (vec![1, 2, 3], Some(&net)));
        assert_eq!(NET.built_in().network(), None);
        assert!(matches!(PLAIN.parse(&text), Err(WeightsError::Network(_))));
        let short = text.replace("network 3", "network 4");
        assert!(matches!(NET.parse(&short), Err(WeightsError::Network(_))));
    }

    #[test]
    fn wrong_files_are_refused() {
        let w = format_weights("diamond", &[], &[1, 2, 3]);
        assert!(matches!(
            parse_weights(&w, "poddavki", 3),
            Err(WeightsError::OtherGame { .. })
        ));
        assert!(matches!(
            parse_weights(&w, "diamond", 4),
            Err(WeightsError::Size { .. })
        ));
        assert_eq!(
            parse_weights("diamond 2\n1 x", "diamond", 2),
            Err(WeightsError::NotNumber("x".into()))
        );
        assert_eq!(
            parse_weights("# only comments", "diamond", 2),
            Err(WeightsError::NoHeader)
        );
    }
}
