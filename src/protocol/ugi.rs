//! UGI front end (the UCI family: `ugi`, `uci`, `uai`). Errors are reported as
//! `info string error: <why>` and the command is ignored.

use std::sync::Arc;

use super::parse::{self, Go, Ugi as Cmd};
use super::reader::LineError;
use super::{Flow, Io};
use crate::engine::{InfoReport, SearchReport};
use crate::games::{Outcome, Side, GAME_NAMES};
use crate::search::{Clock, Limits};
use crate::session::{SearchEvent, Session, MAX_HASH_MIB, MAX_THREADS};

#[derive(Default)]
pub struct Ugi {
    /// Set when a `position` was refused (why): until a valid one arrives there is no position
    /// to search or query, rather than the previous one silently kept in play.
    no_position: Option<String>,
}

/// What becomes of a line read while a search runs.
#[derive(Debug, PartialEq, Eq)]
pub enum Turn {
    /// Carried out at once (`isready`, `stop`, ...).
    Done,
    /// `quit`: the search is stopped, its `bestmove` printed, then the engine exits.
    Quit,
    /// Waits for the search to end; `command` is false for a line that will only get an error.
    Wait { command: bool },
}

fn error(io: &mut Io, why: &str) {
    io.send(&format!("info string error: {why}\n"));
}

impl Ugi {
    pub fn line(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Flow {
        let line = match line {
            Ok(l) if l.is_empty() => return Flow::Continue,
            Ok(l) => l,
            Err(e) => {
                error(io, &e.to_string());
                return Flow::Continue;
            }
        };
        let cmd = match parse::ugi_line(&line) {
            Ok(c) => c,
            Err(e) => {
                error(io, &e);
                return Flow::Continue;
            }
        };
        match cmd {
            Cmd::Hello(word) => hello(io, session, &word),
            Cmd::IsReady => {
                // The GUI's cue for slow set-up, so that no search pays for it.
                session.prepare();
                io.send("readyok\n");
            }
            Cmd::SetOption { name, value } => {
                if let Err(e) = session.set_option(&name, &value) {
                    error(io, &e);
                }
            }
            Cmd::NewGame => session.new_game(),
            Cmd::Position { fen, moves } => match session.setup(fen.as_deref(), &moves) {
                Ok(()) => self.no_position = None,
                Err(e) => {
                    error(io, &e.to_string());
                    self.no_position = Some(e.to_string());
                }
            },
            Cmd::Go(go) => {
                if let Some(why) = &self.no_position {
                    error(io, &format!("no position ({why})"));
                    io.send("bestmove (none)\n");
                } else if session.result().is_some() {
                    io.send("bestmove (none)\n");
                } else if let Err(e) = session.start_search(limits(session, &go), sink) {
                    error(io, &format!("cannot start search: {e}"));
                    io.send("bestmove (none)\n");
                }
            }
            Cmd::Stop | Cmd::PonderHit | Cmd::Debug => {}
            Cmd::Query(q) => query(io, session, self.no_position.as_deref(), &q),
            Cmd::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// The next line, read while a search runs and every line before it has started:
    /// answered at once (`isready`), acted on (`stop`, `quit`), or left to wait for the search.
    pub fn during_search(io: &mut Io, session: &Session, line: &Result<String, LineError>) -> Turn {
        let cmd = line.as_ref().ok().map(|l| parse::ugi_line(l));
        match cmd {
            Some(Ok(Cmd::IsReady)) => {
                io.send("readyok\n");
                Turn::Done
            }
            Some(Ok(Cmd::Stop)) => {
                session.stop_search();
                Turn::Done
            }
            Some(Ok(Cmd::Quit)) => Turn::Quit,
            Some(Ok(Cmd::PonderHit)) | Some(Ok(Cmd::Debug)) => Turn::Done,
            Some(Err(_)) if line.as_ref().is_ok_and(|l| l.is_empty()) => Turn::Done,
            Some(Ok(_)) => Turn::Wait { command: true },
            _ => Turn::Wait { command: false },
        }
    }

    pub fn info(&mut self, io: &mut Io, i: &InfoReport) {
        let nps = i.nodes * 1000 / i.elapsed_ms.max(1);
        let mut s = format!(
            "info depth {} score cp {} nodes {} nps {} time {}",
            i.depth, i.score, i.nodes, nps, i.elapsed_ms
        );
        if !i.pv.is_empty() {
            s.push_str(" pv ");
            s.push_str(&i.pv.join(" "));
        }
        s.push('\n');
        io.send(&s);
    }

    pub fn done(&mut self, io: &mut Io, report: &SearchReport) {
        if let Some(e) = &report.error {
            io.send(&format!("info string error: {e}\n"));
        }
        let best = report.best.as_deref().unwrap_or("(none)");
        io.send(&format!("bestmove {best}\n"));
    }
}

fn hello(io: &mut Io, session: &Session, word: &str) {
    let mut s = String::new();
    s.push_str("id name tetrad\n");
    s.push_str("id author the tetrad developers\n");
    let o = &session.options;
    s.push_str(&format!(
        "option name Threads type spin default {} min 1 max {MAX_THREADS}\n",
        o.threads
    ));
    s.push_str(&format!(
        "option name Hash type spin default {} min 1 max {MAX_HASH_MIB}\n",
        o.hash_mib
    ));
    s.push_str(&format!(
        "option name Seed type spin default {} min 0 max 2147483647\n",
        o.seed
    ));
    s.push_str(&format!(
        "option name MoveOverhead type spin default {} min 0 max 60000\n",
        o.move_overhead
    ));
    s.push_str(&format!(
        "option name UCI_Variant type combo default {} var {}\n",
        session.game().name(),
        GAME_NAMES.join(" var ")
    ));
    s.push_str("option name Clear Hash type button\n");
    for (name, value) in session.game().options() {
        s.push_str(&format!("option name {name} type string default {value}\n"));
    }
    s.push_str(&format!("{word}ok\n"));
    io.send(&s);
}

/// The mover's clock from `go`: `p1time`/`p2time` first, else the white/black names.
fn limits(session: &Session, go: &Go) -> Limits {
    let side = session.game().side_to_move();
    let white = session.white_side();
    let by_colour = |w: Option<u64>, b: Option<u64>| if side == white { w } else { b };
    let (time, inc) = match side {
        Side::P1 => (go.p1time, go.p1inc),
        Side::P2 => (go.p2time, go.p2inc),
    };
    let time = time.or_else(|| by_colour(go.wtime, go.btime));
    let inc = inc.or_else(|| by_colour(go.winc, go.binc));
    let mut limits = Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime,
        clock: time.map(|remaining| Clock {
            remaining,
            increment: inc.unwrap_or(0),
            movestogo: go.movestogo,
        }),
        infinite: go.infinite,
    };
    // `go` alone searches until `stop`, as in UCI.
    if limits == Limits::default() {
        limits.infinite = true;
    }
    limits
}

fn query(io: &mut Io, session: &Session, no_position: Option<&str>, q: &str) {
    let answer = match (q, no_position) {
        // Without a position there is no game to go on with, and no result.
        ("gameover", Some(_)) => "true".into(),
        ("result", Some(_)) => "none".into(),
        ("p1turn", Some(why)) => {
            error(io, &format!("no position ({why})"));
            return;
        }
        ("gameover", None) => session.result().is_some().to_string(),
        ("p1turn", None) => (session.game().side_to_move() == Side::P1).to_string(),
        ("result", None) => match session.result().map(|t| t.outcome) {
            None => "none".into(),
            Some(Outcome::Draw) => "draw".into(),
            Some(Outcome::Win(Side::P1)) => "p1win".into(),
            Some(Outcome::Win(Side::P2)) => "p2win".into(),
        },
        _ => {
            error(io, &format!("unknown query '{q}'"));
            return;
        }
    };
    io.send(&format!("response {answer}\n"));
}
