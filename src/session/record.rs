//! Game records (`game_record`): the game so far as a PGN file, or in the format programs of
//! the game's family read (PDN for Poddavki), with the tags and move numbering of the arena's
//! records (scripts/ARENA.md, "Game records"), so that one reader takes both.

use super::{Session, SessionError};
use crate::games::{Outcome, Side};

/// A record: the file extension its format has, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub extension: &'static str,
    pub text: String,
}

/// Tags the engine computes from the game: a caller setting one would make the record lie.
const COMPUTED: &[&str] = &[
    "Result",
    "SetUp",
    "FEN",
    "Variant",
    "PlyCount",
    "Termination",
];

/// Movetext lines are wrapped before this width, as the arena wraps them.
const WIDTH: usize = 79;

fn capitalised(side: &str) -> String {
    let mut c = side.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl Session {
    /// The record of the game from its start (or the position set) to now. `fields` are
    /// `NAME=VALUE` pairs: a side's name (or `p1`/`p2`) names its player, as do `White` and
    /// `Black` for the sides the record calls so; any other name is a tag of that value,
    /// replacing the engine's default (`Event`, `Site`, `Date`, `Round`, `TimeControl`,
    /// `Opening`) or added after them.
    pub fn game_record(&self, fields: &[(String, String)]) -> Result<Record, SessionError> {
        let history = self.game.history();
        let sides = self.game.side_names();
        // White is the side called white where there is one (Diamond's moves second), else
        // the first mover: as PGN readers and the arena have it.
        let white = sides.iter().position(|s| *s == "white").unwrap_or(0);
        let format = history.format;
        let mut players: [Option<String>; 2] = [None, None];
        let opening = if history.from_start {
            "start"
        } else {
            "set-up"
        };
        let mut given: Vec<(String, String)> = [
            ("Event", "tetrad"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("TimeControl", "-"),
            ("Opening", opening),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let mut notes: Vec<Note> = vec![Note::default(); history.moves.len()];
        for (name, value) in fields {
            if let Some((mark, ply)) = annotation(name) {
                let note = ply
                    .checked_sub(1)
                    .and_then(|k| notes.get_mut(k))
                    .ok_or_else(|| {
                        SessionError::RecordAnnotation(format!("{name}: no such ply"))
                    })?;
                if mark {
                    if !MARKS.contains(&value.as_str()) {
                        return Err(SessionError::RecordAnnotation(format!(
                            "{name}: a mark is one of {}",
                            MARKS.join(" ")
                        )));
                    }
                    note.mark = value.clone();
                } else {
                    if value.contains(['{', '}']) {
                        return Err(SessionError::RecordAnnotation(format!(
                            "{name}: a comment has no braces"
                        )));
                    }
                    note.comment = value.clone();
                }
                continue;
            }
            let lower = name.to_ascii_lowercase();
            let side = match lower.as_str() {
                "p1" => Some(0),
                "p2" => Some(1),
                n => sides.iter().position(|s| *s == n).or(match n {
                    "white" => Some(white),
                    "black" => Some(1 - white),
                    _ => None,
                }),
            };
            if let Some(i) = side {
                players[i] = Some(value.clone());
                continue;
            }
            let side_tag = sides
                .iter()
                .any(|s| capitalised(s).eq_ignore_ascii_case(name));
            let fixed = COMPUTED.iter().chain(format.tags.iter().map(|(k, _)| k));
            if side_tag || fixed.into_iter().any(|k| k.eq_ignore_ascii_case(name)) {
                return Err(SessionError::RecordTag(name.clone()));
            }
            match given.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
                Some(slot) => slot.1 = value.clone(),
                None => given.push((name.clone(), value.clone())),
            }
        }
        let mut given = given.into_iter();
        let mut tags: Vec<(String, String)> = given.by_ref().take(4).collect();
        let player = |i: usize| players[i].clone().unwrap_or_else(|| "?".into());
        let result = self.game.result();
        let result_text = match result.map(|t| t.outcome) {
            None => "*",
            Some(Outcome::Draw) => "1/2-1/2",
            Some(Outcome::Win(s)) if s.index() == white => "1-0",
            Some(Outcome::Win(_)) => "0-1",
        };
        tags.push(("White".into(), player(white)));
        tags.push(("Black".into(), player(1 - white)));
        tags.push(("Result".into(), result_text.into()));
        for (i, side) in sides.iter().enumerate() {
            let name = capitalised(side);
            if name != "White" && name != "Black" {
                tags.push((name, player(i)));
            }
        }
        tags.extend(
            format
                .tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
        tags.push(("Variant".into(), self.game.name().into()));
        if !history.from_start {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), history.start.clone()));
        }
        let termination = match result {
            None => "unterminated".to_string(),
            Some(t) => match t.outcome {
                Outcome::Draw => format!("Draw ({})", t.reason),
                Outcome::Win(s) => {
                    let who = players[s.index()]
                        .clone()
                        .unwrap_or_else(|| sides[s.index()].to_string());
                    format!("{who} wins ({})", t.reason)
                }
            },
        };
        tags.extend(given.next());
        tags.push(("Termination".into(), termination));
        tags.push(("PlyCount".into(), history.moves.len().to_string()));
        // Opening, then the tags the caller added.
        tags.extend(given);

        let mut text: String = tags
            .iter()
            .map(|(k, v)| format!("[{k} \"{}\"]\n", quoted(v)))
            .collect();
        text.push('\n');
        text.push_str(&movetext(
            &history.moves,
            &notes,
            white,
            format.spelling,
            result_text,
        ));
        text.push('\n');
        Ok(Record {
            extension: format.extension,
            text,
        })
    }
}

/// What `game_record` writes after a move: a mark (`?!`) and a comment (`+0.35/12 0.512s`).
#[derive(Clone, Debug, Default)]
struct Note {
    mark: String,
    comment: String,
}

/// The marks a move may carry.
const MARKS: &[&str] = &["!", "?", "!!", "??", "!?", "?!"];

/// `mark_N` (true) or `comment_N` (false): an annotation of ply N (from 1), not a tag.
fn annotation(name: &str) -> Option<(bool, usize)> {
    let lower = name.to_ascii_lowercase();
    let (mark, ply) = match lower.split_once('_')? {
        ("mark", n) => (true, n),
        ("comment", n) => (false, n),
        _ => return None,
    };
    Some((mark, ply.parse().ok()?))
}

/// The moves with White's move numbers (`1...` first when the other side begins), spelled as
/// the format writes them, each with its mark and comment, then the result; wrapped as the
/// arena wraps them.
fn movetext(
    moves: &[(Side, String)],
    notes: &[Note],
    white: usize,
    spelling: &[(char, char)],
    result: &str,
) -> String {
    let mut tokens = Vec::with_capacity(moves.len() * 3 / 2 + 1);
    let mut number = 1;
    for (k, (side, mv)) in moves.iter().enumerate() {
        let whites = side.index() == white;
        if whites {
            tokens.push(format!("{number}."));
        } else if k == 0 {
            tokens.push(format!("{number}..."));
        }
        let spelled: String = mv
            .chars()
            .map(|c| spelling.iter().find(|p| p.0 == c).map_or(c, |p| p.1))
            .collect();
        let note = &notes[k];
        tokens.push(spelled + &note.mark);
        if !note.comment.is_empty() {
            tokens.push(format!("{{{}}}", note.comment));
        }
        if !whites {
            number += 1;
        }
    }
    tokens.push(result.to_string());
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    lines.push(line);
    lines.join("\n") + "\n"
}
