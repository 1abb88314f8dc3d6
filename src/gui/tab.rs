//! One browser tab's game: its engine process and what the page is shown. Every value that
//! goes into a command is checked here first (a move against the legal list, an option value
//! against its declared type, a position string for line breaks), so the page never reaches the
//! engine with text of its own.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::engine::{Engine, EngineError};

/// How long an ordinary command may take; searches get their own bound on top.
pub(super) const ANSWER: Duration = Duration::from_secs(20);
/// Longest move time or analysis the page may ask for (ms).
pub const MAX_MOVETIME: u64 = 60_000;
/// Longest position string accepted.
const MAX_POSITION: usize = 4096;
/// Most lines an analysis may ask for.
const MAX_MULTIPV: u64 = 8;
/// Longest game record accepted (bytes; the request body's cap is 64 KiB).
pub(super) const MAX_RECORD: usize = 60_000;
/// Longest clock (ms): a day.
const MAX_CLOCK: u64 = 86_400_000;

/// A request the tab refuses: the page is told why, nothing changes.
#[derive(Debug, thiserror::Error)]
pub enum TabError {
    #[error("{0}")]
    Engine(#[from] EngineError),
    /// The engine refused the command (`?` answer), in its words.
    #[error("{0}")]
    Refused(String),
    #[error("not a legal move here: '{0}'")]
    IllegalMove(String),
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    #[error("unknown option '{0}'")]
    UnknownOption(String),
    #[error("option {0}: {1}")]
    BadValue(String, String),
    #[error("{0}")]
    Invalid(&'static str),
}

/// One option as `list_options` declares it.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: String,
    pub value: String,
    /// `check`, `spin`, `combo`, `string` or `button`.
    pub kind: String,
    pub values: Vec<String>,
    pub range: Option<(i64, i64)>,
    /// The games whose own option it is (`list_options game`); none for the engine's.
    pub games: Vec<String>,
    /// Each of those games' value when the tab opened: its default, which the page shows when
    /// that game is chosen (one field serves every game that has the option).
    pub defaults: Vec<(String, String)>,
}

impl OptionDecl {
    /// `name value type [details]`, as `list_options` writes a line (a button has no value).
    fn parse(line: &str) -> Option<OptionDecl> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (name, value, kind, rest) = match words.as_slice() {
            [name, "button"] => (*name, "", "button", None),
            [name, value, kind] => (*name, *value, *kind, None),
            [name, value, kind, rest] => (*name, *value, *kind, Some(*rest)),
            _ => return None,
        };
        let mut decl = OptionDecl {
            name: name.to_string(),
            value: value.to_string(),
            kind: kind.to_string(),
            values: Vec::new(),
            range: None,
            games: Vec::new(),
            defaults: Vec::new(),
        };
        match (kind, rest) {
            ("combo", Some(r)) => decl.values = r.split('|').map(String::from).collect(),
            ("spin", Some(r)) => {
                let (lo, hi) = r.split_once("..")?;
                decl.range = Some((lo.parse().ok()?, hi.parse().ok()?));
            }
            _ => {}
        }
        Some(decl)
    }

    /// The value in the form the engine is sent, or why it is refused.
    pub fn check(&self, value: &str) -> Result<String, TabError> {
        let bad = |why: &str| TabError::BadValue(self.name.clone(), why.to_string());
        match self.kind.as_str() {
            "check" => match value {
                "true" | "false" => Ok(value.to_string()),
                _ => Err(bad("needs true or false")),
            },
            "spin" => {
                let v: i64 = value.parse().map_err(|_| bad("needs a whole number"))?;
                match self.range {
                    Some((lo, hi)) if v < lo || v > hi => Err(bad("out of range")),
                    _ => Ok(v.to_string()),
                }
            }
            "combo" if self.values.iter().any(|v| v == value) => Ok(value.to_string()),
            "combo" => Err(bad("not one of its values")),
            "string"
                if !value.is_empty()
                    && value.len() <= 256
                    && !value.chars().any(|c| c.is_control() || c.is_whitespace()) =>
            {
                Ok(value.to_string())
            }
            "string" => Err(bad("needs one word without control characters")),
            _ => Err(bad("cannot be set from the page")),
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "name": self.name,
            "value": self.value,
            "type": self.kind,
            "values": self.values,
            "min": self.range.map(|r| r.0),
            "max": self.range.map(|r| r.1),
            "games": self.games,
            "defaults": self
                .defaults
                .iter()
                .map(|(game, value)| (game.clone(), Value::from(value.as_str())))
                .collect::<serde_json::Map<String, Value>>(),
        })
    }
}

/// The position after each ply, for the move list's navigation.
pub(super) struct Snapshot {
    pub(super) mv: Option<String>,
    position: String,
    svg: String,
    pub(super) layout: Value,
}

pub struct Tab {
    pub(super) engine: Engine,
    pub games: Vec<String>,
    pub options: Vec<OptionDecl>,
    pub(super) game: String,
    pub(super) history: Vec<Snapshot>,
    legal: Vec<Value>,
    /// The streaming analysis's latest line per rank (best first).
    analysis: Vec<Value>,
    /// The pieces in hand as the engine draws them (`hand_svg`): `{side, piece, svg}`.
    hand: Vec<Value>,
    /// Where a review has left the engine: the ply it analysed, `None` at the game's end. Any
    /// other command first brings the engine back to the end ([`Tab::sync`]).
    pub(super) engine_ply: Option<usize>,
    pub last_used: Instant,
}

pub(super) fn json_body(text: &str) -> Result<Value, TabError> {
    serde_json::from_str(text)
        .map_err(|_| TabError::Refused("the engine's JSON is unreadable".into()))
}

impl Tab {
    pub fn start(command: &[String]) -> Result<Tab, TabError> {
        let engine = Engine::start(command)?;
        let mut tab = Tab {
            engine,
            games: Vec::new(),
            options: Vec::new(),
            game: String::new(),
            history: Vec::new(),
            legal: Vec::new(),
            analysis: Vec::new(),
            hand: Vec::new(),
            engine_ply: None,
            last_used: Instant::now(),
        };
        tab.games = tab
            .ask("list_games")?
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        tab.options = tab
            .ask("list_options")?
            .lines()
            .filter_map(OptionDecl::parse)
            .collect();
        // Which game owns which option: the page shows a game's own with it only.
        for game in tab.games.clone() {
            tab.ask(&format!("set_game {game}"))?;
            // An engine without `list_options game` (an older tetrad): no game options shown.
            let own = match tab.ask("list_options game") {
                Err(TabError::Refused(_)) => break,
                own => own?,
            };
            for line in own.lines() {
                let name = line.split_whitespace().next().unwrap_or_default();
                if let Some(o) = tab.options.iter_mut().find(|o| o.name == name) {
                    o.games.push(game.clone());
                    if let Some(decl) = OptionDecl::parse(line) {
                        o.defaults.push((game.clone(), decl.value));
                    }
                }
            }
        }
        let first = tab
            .games
            .first()
            .cloned()
            .ok_or(TabError::Invalid("the engine lists no games"))?;
        tab.new_game(&first, &[])?;
        Ok(tab)
    }

    fn ask_for(&mut self, command: &str, timeout: Duration) -> Result<String, TabError> {
        self.sync()?;
        self.raw_ask(command, timeout)
    }

    /// Asks without first bringing the engine back to the game's end.
    pub(super) fn raw_ask(&mut self, command: &str, timeout: Duration) -> Result<String, TabError> {
        self.last_used = Instant::now();
        let answer = self.engine.ask(command, timeout)?;
        self.last_used = Instant::now();
        answer.map_err(TabError::Refused)
    }

    pub(super) fn ask(&mut self, command: &str) -> Result<String, TabError> {
        self.ask_for(command, ANSWER)
    }

    /// The current position's picture, layout and legal moves, recorded as the latest ply.
    pub(super) fn refresh(&mut self, mv: Option<String>) -> Result<(), TabError> {
        let svg = self.ask("showboard svg")?;
        let layout = json_body(&self.ask("board_layout")?)?;
        let legal = match self.ask("legal_moves_json") {
            Ok(text) => json_body(&text)?["moves"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
            // Too many to list (a crowded board): the page can still ask the engine to move.
            Err(TabError::Refused(_)) => Vec::new(),
            Err(e) => return Err(e),
        };
        let position = layout["position"].as_str().unwrap_or_default().to_string();
        // An engine without `hand_svg` (another program): the hand's buttons have words only.
        self.hand = match self.ask("hand_svg") {
            Ok(text) => text.lines().filter_map(hand_line).collect(),
            Err(TabError::Refused(_)) => Vec::new(),
            Err(e) => return Err(e),
        };
        self.legal = legal;
        self.history.push(Snapshot {
            mv,
            position,
            svg,
            layout,
        });
        Ok(())
    }

    fn option(&self, name: &str) -> Result<&OptionDecl, TabError> {
        self.options
            .iter()
            .find(|o| o.name == name)
            .ok_or_else(|| TabError::UnknownOption(name.to_string()))
    }

    /// A new game of `game` with the game options given (each checked against its declaration).
    pub fn new_game(&mut self, game: &str, options: &[(String, String)]) -> Result<(), TabError> {
        if !self.games.iter().any(|g| g == game) {
            return Err(TabError::UnknownGame(game.to_string()));
        }
        let mut checked = Vec::new();
        for (name, value) in options {
            if name == "game" {
                return Err(TabError::UnknownOption(name.clone()));
            }
            checked.push((name.clone(), self.option(name)?.check(value)?));
        }
        // The game first: an option may be each game's own (`eval`), set for the game selected.
        self.ask(&format!("set_game {game}"))?;
        self.game = game.to_string();
        self.history.clear();
        let mut set = Ok(());
        for (name, value) in &checked {
            set = self.ask(&format!("set_option {name} {value}")).map(drop);
            if set.is_err() {
                break;
            }
        }
        if set.is_ok() && !checked.is_empty() {
            // A start an option shapes (Pods' rotation) comes with a new game.
            set = self.ask("clear_board").map(drop);
        }
        self.refresh(None)?;
        set
    }

    /// Plays a move the page entered, only if it is in the legal list.
    pub fn play(&mut self, mv: &str) -> Result<(), TabError> {
        let legal = self.legal.iter().any(|m| m["move"].as_str() == Some(mv));
        if !legal {
            return Err(TabError::IllegalMove(mv.chars().take(40).collect()));
        }
        self.ask(&format!("play {mv}"))?;
        self.refresh(Some(mv.to_string()))
    }

    /// The engine moves, searching `movetime` ms, or on its clock: `(left, base)` ms, the
    /// time left to the side to move and the game's base time.
    pub fn engine_move(
        &mut self,
        movetime: u64,
        clock: Option<(u64, u64)>,
    ) -> Result<String, TabError> {
        if !(1..=MAX_MOVETIME).contains(&movetime) {
            return Err(TabError::Invalid("movetime must be 1..60000 ms"));
        }
        if let Some((left, base)) = clock {
            if left > MAX_CLOCK || base > MAX_CLOCK || left == 0 {
                return Err(TabError::Invalid("clock times must be 1..86400000 ms"));
            }
            let side = self.history.last().map(|s| s.layout["to_move"].clone());
            let side = side.as_ref().and_then(Value::as_str).unwrap_or("p1");
            let side = side.to_string();
            self.ask("set_option movetime 0")?;
            let main = base.max(left).div_ceil(1000);
            self.ask(&format!("time_settings {main} 0 0"))?;
            self.ask(&format!("time_left {side} {:.3} 0", left as f64 / 1000.0))?;
            let mv = self.ask_for("genmove", ANSWER + Duration::from_millis(left))?;
            // The next move is not on a clock unless it is asked for again.
            self.ask("time_settings 0 1 0")?;
            self.refresh(Some(mv.clone()))?;
            return Ok(mv);
        }
        self.ask(&format!("set_option movetime {movetime}"))?;
        let mv = self.ask_for("genmove", ANSWER + Duration::from_millis(movetime))?;
        self.refresh(Some(mv.clone()))?;
        Ok(mv)
    }

    pub fn undo(&mut self) -> Result<(), TabError> {
        if self.history.len() < 2 {
            return Err(TabError::Invalid("nothing to take back"));
        }
        self.ask("undo")?;
        self.history.pop();
        // The position before is taken again, with its legal moves (not kept per ply).
        let mv = self.history.pop().and_then(|s| s.mv);
        self.refresh(mv)
    }

    pub fn set_position(&mut self, position: &str) -> Result<(), TabError> {
        let position = position.trim();
        if position.is_empty() || position.len() > MAX_POSITION {
            return Err(TabError::Invalid(
                "a position string is one line of 1..4096 characters",
            ));
        }
        if position.chars().any(|c| c.is_control() || c == '#') {
            return Err(TabError::Invalid(
                "a position string has no control characters or '#'",
            ));
        }
        self.ask(&format!("set_position {position}"))?;
        self.history.clear();
        self.refresh(None)
    }

    /// The engine's best lines, searched to `depth` plies (or `movetime` ms).
    pub fn analyse(&mut self, depth: u64, multipv: u64, movetime: u64) -> Result<Value, TabError> {
        if !(1..=64).contains(&depth) || !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(TabError::Invalid(
                "analysis depth must be 1..64 and lines 1..8",
            ));
        }
        if !(1..=MAX_MOVETIME).contains(&movetime) {
            return Err(TabError::Invalid("movetime must be 1..60000 ms"));
        }
        // The movetime option is a cap on every search: lift it for the analysis.
        self.ask("set_option movetime 0")?;
        let answer = self.ask_for(
            &format!("analyze depth {depth} multipv {multipv} movetime {movetime}"),
            ANSWER + Duration::from_millis(movetime),
        )?;
        Ok(Value::Array(
            answer.lines().filter_map(analysis_line).collect(),
        ))
    }

    /// Starts the streaming analysis of the current position (`analyze_stream`): its lines
    /// come until the next command to the engine ends it.
    pub fn stream_start(&mut self, multipv: u64) -> Result<(), TabError> {
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(TabError::Invalid("analysis lines must be 1..8"));
        }
        // The movetime option is a cap on every search: lift it for the analysis.
        self.ask("set_option movetime 0")?;
        self.analysis.clear();
        self.last_used = Instant::now();
        self.engine
            .stream(&format!("analyze_stream multipv {multipv}"), ANSWER)?
            .map_err(TabError::Refused)
    }

    /// The analysis so far: the latest line of each rank, and whether it still runs.
    pub fn stream_poll(&mut self) -> Value {
        self.last_used = Instant::now();
        for line in self.engine.stream_lines() {
            let Some(v) = analysis_line(&line) else {
                continue;
            };
            let rank = v["multipv"].as_u64().unwrap_or(1).max(1) as usize;
            if rank <= MAX_MULTIPV as usize {
                if self.analysis.len() < rank {
                    self.analysis.resize(rank, Value::Null);
                }
                self.analysis[rank - 1] = v;
            }
        }
        let lines: Vec<&Value> = self.analysis.iter().filter(|v| !v.is_null()).collect();
        json!({"lines": lines, "running": self.engine.streaming(), "ply": self.history.len().saturating_sub(1)})
    }

    pub fn stream_stop(&mut self) -> Result<(), TabError> {
        self.engine.end_stream(ANSWER)?;
        Ok(())
    }

    /// The game as a record file (`game_record`): `{extension, text}`. `players` name the
    /// first and second mover; `tags` (name, value) are passed on as the engine's tags.
    pub fn record(&mut self, players: [&str; 2], tags: &[(&str, &str)]) -> Result<Value, TabError> {
        let quote = |v: &str| -> Result<String, TabError> {
            if v.is_empty() || v.len() > 100 || v.chars().any(char::is_control) {
                return Err(TabError::Invalid(
                    "names and tags are 1..100 characters, no control characters",
                ));
            }
            Ok(format!(
                "\"{}\"",
                v.replace('\\', "\\\\").replace('"', "\\\"")
            ))
        };
        let mut command = format!(
            "game_record p1={} p2={}",
            quote(players[0])?,
            quote(players[1])?
        );
        for (name, value) in tags {
            command.push_str(&format!(" {name}={}", quote(value)?));
        }
        let answer = self.ask(&command)?;
        let (extension, text) = answer.split_once('\n').unwrap_or((answer.as_str(), ""));
        Ok(json!({"extension": extension.trim(), "text": format!("{text}\n")}))
    }

    /// What the page shows: the game, the moves, the current position and its legal moves.
    pub fn state(&self) -> Value {
        let last = self.history.last();
        json!({
            "game": self.game,
            "games": self.games,
            "options": self.options.iter().map(OptionDecl::json).collect::<Vec<_>>(),
            "moves": self.history.iter().filter_map(|s| s.mv.clone()).collect::<Vec<_>>(),
            "start": self.history.first().map(|s| s.position.clone()),
            "position": last.map(|s| s.position.clone()),
            "svg": last.map(|s| s.svg.clone()),
            "layout": last.map(|s| s.layout.clone()),
            "legal": self.legal,
            "hand": self.hand,
        })
    }

    /// The position after `ply` moves, for looking back.
    pub fn view(&self, ply: usize) -> Result<Value, TabError> {
        let s = self
            .history
            .get(ply)
            .ok_or(TabError::Invalid("no such ply"))?;
        Ok(json!({"ply": ply, "position": s.position, "svg": s.svg, "layout": s.layout}))
    }
}

/// `SIDE PIECE SVG`, a `hand_svg` line, as `{side, piece, svg}`.
fn hand_line(line: &str) -> Option<Value> {
    let mut words = line.splitn(3, ' ');
    let (side, piece, svg) = (words.next()?, words.next()?, words.next()?);
    svg.starts_with("<svg")
        .then(|| json!({"side": side, "piece": piece, "svg": svg}))
}

/// `move X score cp S|mate N depth D pv ...` as a typed line.
fn analysis_line(line: &str) -> Option<Value> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key);
    let mv = words.get(at("move")? + 1)?;
    let s = at("score")?;
    let (kind, value) = (words.get(s + 1)?, words.get(s + 2)?.parse::<i64>().ok()?);
    let depth = words.get(at("depth")? + 1)?.parse::<u64>().ok()?;
    let multipv = at("multipv").and_then(|k| words.get(k + 1)?.parse::<u64>().ok());
    let pv: Vec<&str> = words[at("pv")? + 1..].to_vec();
    Some(json!({
        "move": mv,
        "score": {"kind": kind, "value": value},
        "depth": depth,
        "multipv": multipv.unwrap_or(1),
        "pv": pv,
    }))
}

#[cfg(test)]
mod tests {
    use super::{analysis_line, OptionDecl};

    #[test]
    fn option_lines_and_their_checks() {
        let spin = OptionDecl::parse("hash 16 spin 1..4096").expect("a spin");
        assert_eq!(spin.check("32").ok().as_deref(), Some("32"));
        assert!(spin.check("0").is_err() && spin.check("1\nquit").is_err());
        let combo = OptionDecl::parse("pods_rotation 0 combo 0|90|180|270").expect("a combo");
        assert!(combo.check("90").is_ok() && combo.check("45").is_err());
        let check = OptionDecl::parse("ponder false check").expect("a check");
        assert!(check.check("true").is_ok() && check.check("yes please").is_err());
        let string = OptionDecl::parse("pods_data builtin string").expect("a string");
        assert!(string.check("x y").is_err() && string.check("a\u{7}").is_err());
        let button = OptionDecl::parse("clear_hash button").expect("a button");
        assert!(button.check("").is_err());
    }

    #[test]
    fn analysis_lines_become_typed() {
        let v = analysis_line("move c3-d4 score cp 50 depth 4 pv c3-d4 f6-e5").expect("a line");
        assert_eq!(v["move"], "c3-d4");
        assert_eq!(v["score"]["kind"], "cp");
        assert_eq!(v["score"]["value"], 50);
        assert_eq!(v["pv"][1], "f6-e5");
        assert!(analysis_line("move x score cp").is_none());
    }
}
