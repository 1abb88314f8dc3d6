//! The replaceable part of the rules: which lines the base board lacks and the 14 pods' legs.
//!
//! The published drawings are unavailable, so the built-in set is a reconstruction; keeping it as
//! a data file lets the real set be dropped in without code changes (format: DATA_FORMAT.md).

use std::fmt;

use super::board::{self, DIR_NAMES};

/// The data the engine ships with.
pub const BUILTIN_TEXT: &str = include_str!("pods.dat");

/// Number of pods per side.
pub const POD_COUNT: usize = 14;

/// Files larger than this are not pods data; refusing them early keeps a wrong path harmless.
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Leg {
    None,
    Short,
    Long,
}

impl Leg {
    fn from_char(c: char) -> Option<Leg> {
        match c {
            '-' => Some(Leg::None),
            's' => Some(Leg::Short),
            'L' => Some(Leg::Long),
            _ => None,
        }
    }
    fn to_char(self) -> char {
        match self {
            Leg::None => '-',
            Leg::Short => 's',
            Leg::Long => 'L',
        }
    }
}

/// A parsed, validated data file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PodsData {
    /// Missing lines of the base pattern (rotation 0), each as (lower index, higher index).
    pub missing: Vec<(usize, usize)>,
    /// White's pods `A`..`N` in White's frame; legs in direction order N NE E SE S SW W NW.
    pub pods: [[Leg; 8]; POD_COUNT],
    /// Where the data came from (`builtin` or a file path), for `options`.
    pub source: String,
}

/// What is wrong with a data file; `line` is 1-based, 0 when the problem is the file as a whole.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DataError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for DataError {}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, DataError> {
    Err(DataError {
        line,
        message: message.into(),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Lines,
    Pods,
}

impl PodsData {
    pub fn builtin() -> PodsData {
        // The built-in file is checked by a unit test; should it ever be broken, an engine with
        // no lines missing and no pods would be useless, so fall back to the same data in code.
        PodsData::parse(BUILTIN_TEXT, "builtin").unwrap_or_else(|_| PodsData::fallback())
    }

    fn fallback() -> PodsData {
        PodsData {
            missing: Vec::new(),
            pods: [[Leg::Short; 8]; POD_COUNT],
            source: String::from("builtin (unreadable)"),
        }
    }

    /// Reads and validates a data file. Only regular files are read (a FIFO or a device such as
    /// `/dev/zero` would block or never end), and never more than the size limit.
    pub fn load(path: &str) -> Result<PodsData, DataError> {
        use std::io::Read;
        let meta =
            std::fs::metadata(path).or_else(|e| err(0, format!("cannot read '{path}': {e}")))?;
        if !meta.is_file() {
            return err(0, format!("'{path}' is not a regular file"));
        }
        if meta.len() > MAX_FILE_BYTES {
            return err(0, format!("'{path}' is too large for a pods data file"));
        }
        let file =
            std::fs::File::open(path).or_else(|e| err(0, format!("cannot read '{path}': {e}")))?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .or_else(|e| err(0, format!("cannot read '{path}': {e}")))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return err(0, format!("'{path}' is too large for a pods data file"));
        }
        let text =
            String::from_utf8(bytes).or_else(|_| err(0, format!("'{path}' is not UTF-8 text")))?;
        PodsData::parse(&text, path)
    }

    pub fn parse(text: &str, source: &str) -> Result<PodsData, DataError> {
        let mut section = Section::None;
        let mut seen_lines = false;
        let mut seen_pods = false;
        let mut missing: Vec<(usize, usize)> = Vec::new();
        let mut pods: [Option<[Leg; 8]>; POD_COUNT] = [None; POD_COUNT];
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            if content.starts_with('[') {
                section = match content {
                    "[missing-lines]" if !seen_lines => {
                        seen_lines = true;
                        Section::Lines
                    }
                    "[pods]" if !seen_pods => {
                        seen_pods = true;
                        Section::Pods
                    }
                    "[missing-lines]" | "[pods]" => {
                        return err(n, format!("section {content} appears twice"))
                    }
                    _ => {
                        return err(
                            n,
                            format!(
                                "unknown section '{content}' (expected [missing-lines] or [pods])"
                            ),
                        )
                    }
                };
                continue;
            }
            match section {
                Section::None => {
                    return err(
                        n,
                        "text before the first section ([missing-lines] or [pods])",
                    )
                }
                Section::Lines => parse_lines_row(n, content, &mut missing)?,
                Section::Pods => parse_pod_row(n, content, &mut pods)?,
            }
        }
        if !seen_lines {
            return err(0, "no [missing-lines] section");
        }
        if !seen_pods {
            return err(0, "no [pods] section");
        }
        let found = pods.iter().filter(|p| p.is_some()).count();
        let mut table = [[Leg::None; 8]; POD_COUNT];
        for (letter, pod) in pods.iter().enumerate() {
            match pod {
                Some(legs) => table[letter] = *legs,
                None => {
                    return err(
                        0,
                        format!(
                            "expected 14 pods A-N, found {found} (pod {} is missing)",
                            pod_letter(letter)
                        ),
                    )
                }
            }
        }
        Ok(PodsData {
            missing,
            pods: table,
            source: source.to_string(),
        })
    }

    /// The data as a file in canonical form (bare pairs, leg strings): parsing it gives the
    /// same data back.
    pub fn to_text(&self) -> String {
        let mut s = String::from("[missing-lines]\n");
        for &(p, q) in &self.missing {
            s.push_str(&format!(
                "{}-{}\n",
                board::point_name(p),
                board::point_name(q)
            ));
        }
        s.push_str("[pods]\n");
        for letter in 0..POD_COUNT {
            s.push_str(&format!(
                "{} {}\n",
                pod_letter(letter),
                self.leg_string(letter)
            ));
        }
        s
    }

    /// The pod table as the data file writes it, e.g. `--L---s-`.
    pub fn leg_string(&self, letter: usize) -> String {
        self.pods
            .get(letter)
            .map(|legs| legs.iter().map(|l| l.to_char()).collect())
            .unwrap_or_default()
    }
}

pub fn pod_letter(letter: usize) -> char {
    char::from(b'A' + (letter as u8 % 26))
}

/// `orthogonal: a2-b2 c1-c2`, `diagonal: b1-c2`, or bare pairs.
fn parse_lines_row(
    n: usize,
    content: &str,
    missing: &mut Vec<(usize, usize)>,
) -> Result<(), DataError> {
    let (kind, pairs) = match content.split_once(':') {
        Some((label, rest)) => {
            let label = label.trim();
            match label {
                "orthogonal" => (Some(false), rest),
                "diagonal" => (Some(true), rest),
                _ => {
                    return err(
                        n,
                        format!("unknown direction '{label}' (expected orthogonal or diagonal)"),
                    )
                }
            }
        }
        None => (None, content),
    };
    for token in pairs.split_whitespace() {
        let Some((a, b)) = token.split_once('-') else {
            return err(n, format!("'{token}' is not a line like a2-b2"));
        };
        let (Some(p), Some(q)) = (board::parse_point(a), board::parse_point(b)) else {
            return err(n, format!("'{token}' names a point off the board (a1-f6)"));
        };
        let Some(diagonal) = board::adjacency(p, q) else {
            return err(n, format!("'{token}' joins non-adjacent points"));
        };
        if let Some(want) = kind {
            if want != diagonal {
                let (is, said) = if diagonal {
                    ("diagonal", "orthogonal")
                } else {
                    ("orthogonal", "diagonal")
                };
                return err(n, format!("'{token}' is {is} but listed as {said}"));
            }
        }
        let pair = (p.min(q), p.max(q));
        if missing.contains(&pair) {
            return err(n, format!("line '{token}' is listed twice"));
        }
        missing.push(pair);
    }
    Ok(())
}

/// `A --L---s-` or, equivalently, `A E=L W=s`.
fn parse_pod_row(
    n: usize,
    content: &str,
    pods: &mut [Option<[Leg; 8]>; POD_COUNT],
) -> Result<(), DataError> {
    let mut tokens = content.split_whitespace();
    let name = tokens.next().unwrap_or("");
    let mut chars = name.chars();
    let letter = match (chars.next(), chars.next()) {
        (Some(c @ 'A'..='N'), None) => usize::from(c as u8 - b'A'),
        _ => return err(n, format!("'{name}' is not a pod letter A-N")),
    };
    let rest: Vec<&str> = tokens.collect();
    let legs = if rest.len() == 1 && !rest[0].contains('=') {
        leg_string(n, name, rest[0])?
    } else if !rest.is_empty() {
        leg_list(n, name, &rest)?
    } else {
        return err(n, format!("pod {name} has no leg string"));
    };
    if legs.iter().all(|&l| l == Leg::None) {
        return err(n, format!("pod {name} has no legs"));
    }
    match pods.get_mut(letter) {
        Some(slot @ None) => *slot = Some(legs),
        _ => return err(n, format!("duplicate pod letter {name}")),
    }
    Ok(())
}

fn leg_string(n: usize, name: &str, text: &str) -> Result<[Leg; 8], DataError> {
    let count = text.chars().count();
    if count != 8 {
        return err(
            n,
            format!("pod {name}: leg string '{text}' has {count} characters, not 8 (N NE E SE S SW W NW)"),
        );
    }
    let mut legs = [Leg::None; 8];
    for (slot, c) in legs.iter_mut().zip(text.chars()) {
        *slot = Leg::from_char(c).map_or_else(
            || {
                err(
                    n,
                    format!("pod {name}: unknown leg '{c}' in '{text}' (expected -, s or L)"),
                )
            },
            Ok,
        )?;
    }
    Ok(legs)
}

fn leg_list(n: usize, name: &str, items: &[&str]) -> Result<[Leg; 8], DataError> {
    let mut legs = [Leg::None; 8];
    for item in items {
        let Some((dir, kind)) = item.split_once('=') else {
            return err(
                n,
                format!("pod {name}: '{item}' is not DIRECTION=s or DIRECTION=L"),
            );
        };
        let Some(d) = DIR_NAMES.iter().position(|&x| x == dir) else {
            return err(
                n,
                format!("pod {name}: unknown direction '{dir}' (expected N NE E SE S SW W NW)"),
            );
        };
        let leg = match kind {
            "s" => Leg::Short,
            "L" => Leg::Long,
            _ => {
                return err(
                    n,
                    format!("pod {name}: unknown leg '{kind}' (expected s or L)"),
                )
            }
        };
        if legs[d] != Leg::None {
            return err(n, format!("pod {name}: direction {dir} given twice"));
        }
        legs[d] = leg;
    }
    Ok(legs)
}
