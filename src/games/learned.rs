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

use super::RuleError;

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

/// A weight file is some tens of kilobytes; anything much larger is not one.
const MAX_WEIGHT_FILE: u64 = 1 << 20;

/// `eval_file PATH`: the weights in the file at `path`, read by `parse`; `builtin` (as
/// `pods_data` says it) gives `built_in()`. The error names the option and the path.
pub fn load_weight_file<W>(
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
}

/// Reads a weight file for `game` with `size` weights.
pub fn parse_weights(
    text: &str,
    game: &'static str,
    size: usize,
) -> Result<Vec<i32>, WeightsError> {
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
    let weights = lines
        .flat_map(str::split_whitespace)
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
    Ok(weights)
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
        assert_eq!(parse_weights(&text, "poddavki", 40), Ok(w));
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
