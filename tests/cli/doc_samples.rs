//! Every sample exchange in the project's documents, replayed through the binary and compared
//! with the text, so that the documents show what the engine really answers.
//!
//! A sample is a fenced block (```` ``` ````) whose first line starts with `> `. Lines starting
//! with `> ` are typed; the lines after each, up to the next typed line, are its answers (GTP
//! answers end with their empty line). Each sample is replayed twice: piped in at once, and
//! typed line by line (which also checks that every answer sits under its own command). `info`
//! lines are compared without their `time` and `nps` figures; everything else must match
//! exactly, so samples search by `depth` or `nodes`, never by time.
//!
//! A line `<!-- sample: no-replay -->` just before a block exempts it (keep that rare: only for
//! output no fixed limit makes reproducible); `<!-- sample: args --game diamond -->` starts the
//! engine with those arguments.
//!
//! After a deliberate change of output,
//! `TETRAD_UPDATE_SAMPLES=1 cargo test --release --test cli doc_samples` rewrites every sample's
//! answers from the engine's output; review the diff.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::Engine;

/// The documents whose samples are replayed.
const DOCUMENTS: &[&str] = &["README.md", "protocol.md"];

struct Sample {
    file: PathBuf,
    /// Line index (0-based) of the block's first and one past its last content line.
    start: usize,
    end: usize,
    args: Vec<String>,
    /// Each typed line with the answer lines shown under it.
    steps: Vec<(String, Vec<String>)>,
}

impl Sample {
    fn name(&self) -> String {
        format!("{}:{}", self.file.display(), self.start + 1)
    }

    fn ugi(&self) -> bool {
        let forced = self.args.windows(2).any(|w| w[0] == "--protocol");
        if forced {
            return self.args.iter().any(|a| a.eq_ignore_ascii_case("ugi"));
        }
        self.steps.first().is_some_and(|(first, _)| {
            let word = first.split(' ').next().unwrap_or_default();
            ["ugi", "uci", "uai"].contains(&word.to_ascii_lowercase().as_str())
        })
    }
}

fn samples(file: &Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(file).expect("document readable");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with("```") {
            i += 1;
            continue;
        }
        let start = i + 1;
        let end = (start..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or_else(|| panic!("{}:{}: unclosed block", file.display(), i + 1));
        let directive = lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(|l| l.trim().strip_prefix("<!-- sample:"))
            .and_then(|l| l.strip_suffix("-->"))
            .map(str::trim)
            .unwrap_or_default();
        i = end + 1;
        if !lines.get(start).is_some_and(|l| l.starts_with("> ")) || directive == "no-replay" {
            continue;
        }
        let args = directive
            .strip_prefix("args")
            .map(|a| a.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        let mut steps: Vec<(String, Vec<String>)> = Vec::new();
        for l in &lines[start..end] {
            match l.strip_prefix("> ") {
                Some(typed) => steps.push((typed.to_string(), Vec::new())),
                None => steps
                    .last_mut()
                    .expect("starts typed")
                    .1
                    .push(l.to_string()),
            }
        }
        out.push(Sample {
            file: file.to_path_buf(),
            start,
            end,
            args,
            steps,
        });
    }
    out
}

/// A line as compared: `info` lines lose their timing figures.
fn masked(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 0..words.len().saturating_sub(1) {
        if matches!(words[i], "time" | "nps") {
            words[i + 1] = "*";
        }
    }
    words.join(" ")
}

fn masked_all<'a>(lines: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    lines.into_iter().map(|l| masked(l)).collect()
}

/// The engine a sample ran on: the documents show the engine's games, never the test kit's
/// toy row, which a test run may ask for (`TETRAD_TOY_GAME`).
fn engine(sample: &Sample) -> Engine {
    let mut cmd = std::process::Command::new(common::binary());
    cmd.args(&sample.args)
        .env_remove(tetrad::games::registry::TOY_GAME_VAR);
    Engine::spawn(cmd)
}

fn finish(e: &mut Engine, name: &str) {
    e.close_stdin();
    let extra = e.rest();
    assert!(
        extra.is_empty(),
        "{name}: output after the sample: {extra:?}"
    );
    let exit = e.wait_exit(Duration::from_secs(10));
    assert_eq!(exit.map(|x| x.0), Some(0), "{name}: exit status");
}

fn replay_piped(sample: &Sample) -> Vec<String> {
    let mut e = engine(sample);
    let input: String = sample.steps.iter().map(|(t, _)| format!("{t}\n")).collect();
    e.send_bytes(input.as_bytes());
    e.close_stdin();
    let out = e.rest();
    let exit = e.wait_exit(Duration::from_secs(10));
    assert_eq!(exit.map(|x| x.0), Some(0), "{}: exit status", sample.name());
    out
}

/// Typed, reading as many lines after each command as the document shows.
fn replay_typed(sample: &Sample) {
    let name = sample.name();
    let mut e = engine(sample);
    for (typed, shown) in &sample.steps {
        e.send(typed);
        let got: Vec<String> = shown.iter().map(|_| e.line()).collect();
        assert_eq!(
            masked_all(&got),
            masked_all(shown),
            "{name}: answer to {typed:?}"
        );
    }
    finish(&mut e, &name);
}

/// Typed, reading each command's whole answer by the dialect's rules: the answers to write.
fn record(sample: &Sample) -> Vec<Vec<String>> {
    let ugi = sample.ugi();
    let mut e = engine(sample);
    let mut answers = Vec::new();
    for (typed, _) in &sample.steps {
        e.send(typed);
        let word = typed
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let answer = if !ugi {
            let command = typed.split('#').next().unwrap_or_default().trim();
            if command.is_empty() {
                Vec::new()
            } else {
                let mut a = e.answer();
                a.push(String::new());
                a
            }
        } else if word == "quit" {
            e.rest()
        } else if word == "isready" {
            e.until("readyok")
        } else if word == "go" && typed.contains(" ponder") {
            // The `bestmove` waits for `ponderhit`: the answer ends with the last depth asked.
            let depth = typed
                .split(" depth ")
                .nth(1)
                .and_then(|d| d.split(' ').next())
                .expect("a ponder sample searches to a depth");
            e.until(&format!("info depth {depth} "))
        } else if word == "go" && !typed.contains(" perft") || word == "ponderhit" {
            e.until("bestmove")
        } else {
            // Nothing marks the end of most UGI answers: `isready` does.
            e.send("isready");
            let mut a = e.until("readyok");
            a.pop();
            a
        };
        answers.push(answer);
    }
    finish(&mut e, &sample.name());
    answers
}

fn update(file: &Path, found: &[Sample]) {
    let text = std::fs::read_to_string(file).expect("document readable");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for sample in found.iter().rev() {
        let answers = record(sample);
        let mut block = Vec::new();
        for ((typed, _), answer) in sample.steps.iter().zip(answers) {
            block.push(format!("> {typed}"));
            block.extend(answer);
        }
        lines.splice(sample.start..sample.end, block);
    }
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(file, text).expect("document writable");
}

#[test]
fn documented_samples_are_the_engines_real_answers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for doc in DOCUMENTS {
        let file = root.join(doc);
        if std::env::var_os("TETRAD_UPDATE_SAMPLES").is_some() {
            update(&file, &samples(&file));
        }
        for sample in samples(&file) {
            let name = sample.name();
            let shown: Vec<&String> = sample.steps.iter().flat_map(|(_, a)| a).collect();
            assert_eq!(
                masked_all(replay_piped(&sample).iter()),
                masked_all(shown),
                "{name}: piped replay"
            );
            replay_typed(&sample);
            count += 1;
        }
    }
    // README's GTP sample, protocol.md's GTP and UGI samples at least.
    assert!(count >= 3, "only {count} samples found");
}

#[test]
fn samples_are_found_and_split_as_documented() {
    let dir = std::env::temp_dir().join(format!("tetrad-samples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("doc.md");
    let text = "text\n```\ncargo run\n```\n\n```\n> name\n= tetrad\n\n> quit\n=\n\n```\n\
                <!-- sample: no-replay -->\n```\n> go movetime 10\n```\n\
                <!-- sample: args --game diamond -->\n\n```\n> uci\nuciok\n> isready\nreadyok\n```\n";
    std::fs::write(&file, text).expect("temp file");
    let found = samples(&file);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0].steps,
        vec![
            (
                "name".to_string(),
                vec!["= tetrad".to_string(), String::new()]
            ),
            ("quit".to_string(), vec!["=".to_string(), String::new()]),
        ]
    );
    assert!(!found[0].ugi() && found[1].ugi());
    assert_eq!(found[1].args, ["--game", "diamond"]);
    assert_eq!(
        masked("info depth 2 score cp 8 nodes 248 nps 248000 time 0 pv swap b2"),
        "info depth 2 score cp 8 nodes 248 nps * time * pv swap b2"
    );
}
