//! A tab's game records and reviews: a record loaded (`load_record`) and taken position by
//! position, and the positions of the game analysed one by one, the engine stepped back and
//! forth along the game by `undo` and `play` (and brought back to its end before anything else).

use serde_json::{json, Value};

use super::tab::{json_body, Tab, TabError, MAX_RECORD};

impl Tab {
    /// Loads a game record (`load_record`): the engine reads it, sets up its game and moves,
    /// and the tab takes the positions after each move as if they had been played here.
    pub fn load_record(&mut self, record: &str) -> Result<(), TabError> {
        if record.trim().is_empty() || record.len() > MAX_RECORD {
            return Err(TabError::Invalid("a record is 1..60000 bytes"));
        }
        // One protocol line: line breaks are spaces to a record (its `;` comments aside).
        let line: String = record
            .chars()
            .map(|c| {
                if matches!(c, '\n' | '\r' | '\t') {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        if line.chars().any(char::is_control) {
            return Err(TabError::Invalid("a record has no control characters"));
        }
        let answer = self.ask(&format!("load_record {}", line.trim()))?;
        let mut lines = answer.lines();
        let game = lines.next().unwrap_or_default().trim().to_string();
        let moves: Vec<String> = lines
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        // Back to the record's start, then forward, taking each position.
        for _ in &moves {
            self.ask("undo")?;
        }
        self.game = game;
        self.history.clear();
        self.refresh(None)?;
        for mv in moves {
            self.ask(&format!("play {mv}"))?;
            self.refresh(Some(mv))?;
        }
        Ok(())
    }

    /// Brings the engine back to the game's end after a review left it at an earlier ply.
    pub(super) fn sync(&mut self) -> Result<(), TabError> {
        let Some(at) = self.engine_ply.take() else {
            return Ok(());
        };
        let moves: Vec<String> = self.history[at + 1..]
            .iter()
            .filter_map(|s| s.mv.clone())
            .collect();
        for mv in moves {
            self.raw_ask(&format!("play {mv}"), self.policy.answer)?;
        }
        Ok(())
    }

    /// The engine's best lines in the position after `ply` moves (a review), searched as
    /// [`Tab::analyse`] searches; with them, how each line's first move is entered (`legal`),
    /// so that the page can show it on the board. The engine stays at that ply until another
    /// request needs the game's end.
    pub fn analyse_at(
        &mut self,
        ply: usize,
        depth: u64,
        multipv: u64,
        movetime: u64,
    ) -> Result<Value, TabError> {
        let last = self.history.len().saturating_sub(1);
        if ply > last {
            return Err(TabError::Invalid("no such ply"));
        }
        self.engine.end_stream(self.policy.answer)?;
        let at = self.engine_ply.unwrap_or(last);
        // Stepping there by undo and play keeps the game's history (repetitions) as played.
        if ply < at {
            for _ in ply..at {
                self.raw_ask("undo", self.policy.answer)?;
            }
        } else {
            let moves: Vec<String> = self.history[at + 1..=ply]
                .iter()
                .filter_map(|s| s.mv.clone())
                .collect();
            for mv in moves {
                self.raw_ask(&format!("play {mv}"), self.policy.answer)?;
            }
        }
        self.engine_ply = (ply != last).then_some(ply);
        let over = !self.history[ply].layout["result"].is_null();
        let lines = if over {
            Value::Array(Vec::new())
        } else {
            self.engine_ply_analyse(depth, multipv, movetime)?
        };
        let firsts: Vec<&str> = lines
            .as_array()
            .map(|l| l.iter().filter_map(|v| v["move"].as_str()).collect())
            .unwrap_or_default();
        let legal: Vec<Value> = if firsts.is_empty() {
            Vec::new()
        } else {
            match self.raw_ask("legal_moves_json", self.policy.answer) {
                Ok(text) => json_body(&text)?["moves"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter(|m| m["move"].as_str().is_some_and(|m| firsts.contains(&m)))
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default(),
                Err(TabError::Refused(_)) => Vec::new(),
                Err(e) => return Err(e),
            }
        };
        let to_move = self.history[ply].layout["to_move"].clone();
        Ok(json!({"ply": ply, "to_move": to_move, "lines": lines, "legal": legal}))
    }

    /// [`Tab::analyse`] where the engine stands, not at the game's end.
    fn engine_ply_analyse(
        &mut self,
        depth: u64,
        multipv: u64,
        movetime: u64,
    ) -> Result<Value, TabError> {
        let at = self.engine_ply.take();
        // `analyse` asks through `ask`, which would bring the engine back first.
        let result = self.analyse(depth, multipv, movetime);
        self.engine_ply = at;
        result
    }
}
