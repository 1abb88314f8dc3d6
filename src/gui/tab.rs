//! One browser tab's game: its engine process and what the page is shown. Every value that
//! goes into a command is checked here first (a move against the legal list, an option value
//! against its declared type, a position string for line breaks), so the page never reaches the
//! engine with text of its own.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::engine::{Control, Engine, EngineError};
use super::options::{OptionDecl, Policy};

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
    /// A value over a limit the command line sets, or a file outside the allowed directory.
    #[error("{0}")]
    NotAllowed(String),
    #[error("the engine did not answer in time: it was restarted at the game's current position")]
    Restarted,
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
    control: Arc<Control>,
    pub(super) policy: Arc<Policy>,
    /// The options the current game was started with, for starting it again.
    set: Vec<(String, String)>,
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
    pub fn start(
        command: &[String],
        control: Arc<Control>,
        policy: Arc<Policy>,
    ) -> Result<Tab, TabError> {
        let engine = Engine::start(command, Arc::clone(&control))?;
        let mut tab = Tab {
            engine,
            control,
            policy,
            set: Vec::new(),
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
        let answer = self.engine.ask(command, timeout);
        self.last_used = Instant::now();
        match answer {
            Ok(a) => a.map_err(TabError::Refused),
            Err(e) => Err(self.failed(e)),
        }
    }

    /// An engine that did not answer in time is started again at the game's position: a late
    /// answer can never be read as the next command's. One that cannot be is stopped, and the
    /// tab reaped.
    fn failed(&mut self, e: EngineError) -> TabError {
        if !matches!(e, EngineError::Timeout) {
            return TabError::Engine(e);
        }
        match self.recover() {
            Ok(()) => TabError::Restarted,
            Err(e) => e,
        }
    }

    /// A fresh engine process set to the tab's game, options and moves.
    fn recover(&mut self) -> Result<(), TabError> {
        let result = self.resync();
        if result.is_err() {
            self.control.stop();
        }
        result
    }

    fn resync(&mut self) -> Result<(), TabError> {
        self.engine.restart()?;
        // A fresh engine stands at the game's end, wherever a review had left the old one.
        self.engine_ply = None;
        let wait = self.policy.answer;
        let ask = |engine: &mut Engine, command: &str| -> Result<String, TabError> {
            engine.ask(command, wait)?.map_err(TabError::Refused)
        };
        ask(&mut self.engine, &format!("set_game {}", self.game))?;
        for (name, value) in &self.set {
            ask(&mut self.engine, &format!("set_option {name} {value}"))?;
        }
        if !self.set.is_empty() {
            ask(&mut self.engine, "clear_board")?;
        }
        let Some(first) = self.history.first() else {
            return Ok(());
        };
        let layout = json_body(&ask(&mut self.engine, "board_layout")?)?;
        if layout["position"].as_str() != Some(first.position.as_str()) {
            ask(
                &mut self.engine,
                &format!("set_position {}", first.position),
            )?;
        }
        let moves: Vec<String> = self.history.iter().filter_map(|s| s.mv.clone()).collect();
        for mv in moves {
            ask(&mut self.engine, &format!("play {mv}"))?;
        }
        Ok(())
    }

    pub(super) fn ask(&mut self, command: &str) -> Result<String, TabError> {
        self.ask_for(command, self.policy.answer)
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

    /// A new game of `game` with the game options given (each checked against its declaration
    /// and the server's policy). Refused anywhere, the tab is as it was: its engine is started
    /// again at the game before.
    pub fn new_game(&mut self, game: &str, options: &[(String, String)]) -> Result<(), TabError> {
        if !self.games.iter().any(|g| g == game) {
            return Err(TabError::UnknownGame(game.to_string()));
        }
        let mut checked = Vec::new();
        for (name, value) in options {
            if name == "game" {
                return Err(TabError::UnknownOption(name.clone()));
            }
            let decl = self.option(name)?;
            let value = decl.check(value)?;
            checked.push((name.clone(), self.policy.allow(decl, &value)?));
        }
        if self.history.is_empty() {
            // The first game of a tab: nothing to keep.
            return self.start_game(game, checked);
        }
        let before = (
            self.game.clone(),
            std::mem::take(&mut self.history),
            std::mem::take(&mut self.legal),
            self.set.clone(),
        );
        let result = self.start_game(game, checked);
        if result.is_err() {
            (self.game, self.history, self.legal, self.set) = before;
            if let Err(e) = self.recover() {
                log::warn!("gui: a tab's engine could not be restored: {e}");
            }
        }
        result
    }

    fn start_game(&mut self, game: &str, checked: Vec<(String, String)>) -> Result<(), TabError> {
        // The game first: an option may be each game's own (`eval`), set for the game selected.
        self.ask(&format!("set_game {game}"))?;
        self.game = game.to_string();
        self.history.clear();
        for (name, value) in &checked {
            self.ask(&format!("set_option {name} {value}"))?;
        }
        if !checked.is_empty() {
            // A start an option shapes (Pods' rotation) comes with a new game.
            self.ask("clear_board")?;
        }
        self.set = checked;
        self.refresh(None)
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
    /// time left to the side to move and the game's base time. Answers the search's score, from
    /// the mover's view, when the engine tells it (`last_search`).
    pub fn engine_move(
        &mut self,
        movetime: u64,
        clock: Option<(u64, u64)>,
    ) -> Result<Option<Value>, TabError> {
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
            let mv = self.ask_for("genmove", self.policy.answer + Duration::from_millis(left))?;
            // The next move is not on a clock unless it is asked for again.
            self.ask("time_settings 0 1 0")?;
            self.refresh(Some(mv))?;
            return self.last_search();
        }
        self.ask(&format!("set_option movetime {movetime}"))?;
        let mv = self.ask_for(
            "genmove",
            self.policy.answer + Duration::from_millis(movetime),
        )?;
        self.refresh(Some(mv))?;
        self.last_search()
    }

    /// The engine's last search as `{score, depth}`; `None` from an engine that has no
    /// `last_search` (any GTP engine can be the tab's) or nothing to tell.
    fn last_search(&mut self) -> Result<Option<Value>, TabError> {
        match self.ask("last_search") {
            Ok(answer) => Ok(search_line(&answer)),
            Err(TabError::Refused(_)) => Ok(None),
            Err(e) => Err(e),
        }
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
            self.policy.answer + Duration::from_millis(movetime),
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
        match self.engine.stream(
            &format!("analyze_stream multipv {multipv}"),
            self.policy.answer,
        ) {
            Ok(answer) => answer.map_err(TabError::Refused),
            Err(e) => Err(self.failed(e)),
        }
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
        self.engine
            .end_stream(self.policy.answer)
            .map_err(|e| self.failed(e))
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

/// `depth D score cp S|mate N pv ...` (`last_search`) as `{score, depth}`.
fn search_line(line: &str) -> Option<Value> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key);
    let s = at("score")?;
    let (kind, value) = (words.get(s + 1)?, words.get(s + 2)?.parse::<i64>().ok()?);
    let depth = words.get(at("depth")? + 1)?.parse::<u64>().ok()?;
    Some(json!({"score": {"kind": kind, "value": value}, "depth": depth}))
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
    use super::{analysis_line, search_line};

    #[test]
    fn analysis_lines_become_typed() {
        let v = analysis_line("move c3-d4 score cp 50 depth 4 pv c3-d4 f6-e5").expect("a line");
        assert_eq!(v["move"], "c3-d4");
        assert_eq!(v["score"]["kind"], "cp");
        assert_eq!(v["score"]["value"], 50);
        assert_eq!(v["pv"][1], "f6-e5");
        assert!(analysis_line("move x score cp").is_none());
    }

    #[test]
    fn last_search_lines_become_scores() {
        let v = search_line("depth 7 score mate -3 pv c3-d4").expect("a line");
        assert_eq!(v["score"]["kind"], "mate");
        assert_eq!(v["score"]["value"], -3);
        assert_eq!(v["depth"], 7);
        assert!(search_line("").is_none());
        assert!(search_line("depth 7 score cp").is_none());
    }
}
