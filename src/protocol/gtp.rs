//! GTP front end: `[id] command args` in, `=[id] result` / `?[id] message` out, each answer
//! ending with an empty line.

use std::sync::Arc;

use super::parse::{self, Gtp as Cmd, KgsTime, GTP_COMMANDS};
use super::reader::LineError;
use super::{Flow, Io};
use crate::engine::SearchReport;
use crate::render;
use crate::session::{SearchEvent, Session, MAX_LISTED_MOVES};

#[derive(Default)]
pub struct Gtp {
    /// The command waiting for the search thread, with its id.
    pending: Option<(Option<u64>, Pending)>,
}

enum Pending {
    /// `genmove` (true: play the move when done) or `reg_genmove`.
    Genmove(bool),
    Perft,
}

fn frame(ok: bool, id: Option<u64>, body: &str) -> String {
    let mark = if ok { '=' } else { '?' };
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    // A multi-line result must not contain an empty line (it would end the answer). A body
    // that starts with a line break (a diagram) starts on the line after the `=`.
    let block = body.starts_with('\n');
    let body: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    let body = body.join("\n");
    match (body.is_empty(), block) {
        (true, _) => format!("{mark}{id}\n\n"),
        (false, true) => format!("{mark}{id}\n{body}\n\n"),
        (false, false) => format!("{mark}{id} {body}\n\n"),
    }
}

type Answer = Result<String, String>;

/// The command part of a line: `#` starts a comment; what is left may be empty (no answer then).
fn command_text(line: &str) -> &str {
    line.split('#').next().unwrap_or_default().trim()
}

/// Deeper perft is refused outright: no game finishes it in a human lifetime.
const MAX_PERFT_DEPTH: u32 = 20;

impl Gtp {
    pub fn line(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Flow {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                io.send(&frame(false, None, &e.to_string()));
                return Flow::Continue;
            }
        };
        let line = command_text(&line);
        if line.is_empty() {
            return Flow::Continue;
        }
        let (id, name, args) = match parse::gtp_frame(line) {
            Ok(f) => f,
            Err(e) => {
                io.send(&frame(false, parse::gtp_id(line), &e));
                return Flow::Continue;
            }
        };
        let cmd = match parse::gtp_command(&name, args) {
            Ok(c) => c,
            Err(e) => {
                io.send(&frame(false, id, &e));
                return Flow::Continue;
            }
        };
        if let Cmd::Genmove { side, commit } = &cmd {
            if let Err(e) = self.genmove(session, side.as_deref(), *commit, id, sink) {
                io.send(&frame(false, id, &e));
            }
            return Flow::Continue;
        }
        if let Cmd::Perft(depth) = cmd {
            if let Err(e) = self.perft(session, depth, id, sink) {
                io.send(&frame(false, id, &e));
            }
            return Flow::Continue;
        }
        let quit = cmd == Cmd::Quit;
        match execute(session, cmd) {
            Ok(body) => io.send(&frame(true, id, &body)),
            Err(e) => io.send(&frame(false, id, &e)),
        }
        if quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    fn genmove(
        &mut self,
        session: &mut Session,
        side: Option<&str>,
        commit: bool,
        id: Option<u64>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), String> {
        if session.result().is_some() {
            return Err("game is over".into());
        }
        if let Some(s) = side {
            let s = session.side(s)?;
            let to_move = session.game().side_to_move();
            if s != to_move {
                return Err(format!(
                    "illegal move: it is {}'s turn",
                    session.side_name(to_move)
                ));
            }
        }
        let limits = session.genmove_limits();
        session
            .start_search(limits, sink)
            .map_err(|e| format!("cannot start search: {e}"))?;
        self.pending = Some((id, Pending::Genmove(commit)));
        Ok(())
    }

    fn perft(
        &mut self,
        session: &mut Session,
        depth: u32,
        id: Option<u64>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), String> {
        if depth > MAX_PERFT_DEPTH {
            return Err(format!("perft depth must be at most {MAX_PERFT_DEPTH}"));
        }
        session
            .start_perft(depth, sink)
            .map_err(|e| format!("cannot start perft: {e}"))?;
        self.pending = Some((id, Pending::Perft));
        Ok(())
    }

    /// The perft has ended (or was stopped: only a fuzzing work cap does that).
    pub fn perft_done(&mut self, io: &mut Io, count: &Result<u64, String>) {
        let Some((id, Pending::Perft)) = self.pending.take() else {
            return;
        };
        match count {
            Ok(n) => io.send(&frame(true, id, &n.to_string())),
            Err(e) => io.send(&frame(false, id, e)),
        }
    }

    /// The genmove's search has ended: play the move (genmove) and answer.
    pub fn done(&mut self, io: &mut Io, session: &mut Session, report: &SearchReport) {
        let Some((id, Pending::Genmove(commit))) = self.pending.take() else {
            return;
        };
        if let Some(e) = &report.error {
            io.send(&frame(false, id, e));
            return;
        }
        let Some(best) = &report.best else {
            io.send(&frame(false, id, "game is over"));
            return;
        };
        log::info!(
            "genmove {best} depth {} score {} nodes {}",
            report.depth,
            report.score,
            report.nodes
        );
        if commit {
            match session.play(None, best) {
                Ok(canonical) => io.send(&frame(true, id, &canonical)),
                Err(e) => io.send(&frame(false, id, &format!("internal error: {e}"))),
            }
        } else {
            io.send(&frame(true, id, best));
        }
    }
}

fn execute(session: &mut Session, cmd: Cmd) -> Answer {
    match cmd {
        Cmd::ProtocolVersion => Ok("2".into()),
        Cmd::Name => Ok("tetrad".into()),
        Cmd::Version => Ok(env!("CARGO_PKG_VERSION").into()),
        Cmd::KnownCommand(c) => Ok(GTP_COMMANDS
            .contains(&c.to_ascii_lowercase().as_str())
            .to_string()),
        Cmd::ListCommands => Ok(GTP_COMMANDS.join("\n")),
        Cmd::Quit => Ok(String::new()),
        Cmd::ListGames => Ok(Session::game_names().join("\n")),
        Cmd::SetGame(name) => session.set_game(&name).map(|_| String::new()),
        Cmd::ClearBoard => {
            session.new_game();
            Ok(String::new())
        }
        Cmd::SetPosition(text) => session
            .set_position(&text)
            .map(|_| String::new())
            .map_err(|e| e.to_string()),
        Cmd::GetPosition => Ok(session.game().position()),
        Cmd::Play { side, mv } => session
            .play(side.as_deref(), &mv)
            .map(|_| String::new())
            .map_err(|e| e.to_string()),
        Cmd::Genmove { .. } => Err("internal error: genmove is asynchronous".into()),
        Cmd::Undo => {
            if session.undo() {
                Ok(String::new())
            } else {
                Err("cannot undo".into())
            }
        }
        Cmd::LegalMoves => match session.game().legal_moves_upto(MAX_LISTED_MOVES) {
            Some(moves) => Ok(moves.join(" ")),
            None => Err(format!(
                "too many legal moves to list (more than {MAX_LISTED_MOVES})"
            )),
        },
        Cmd::Perft(_) => Err("internal error: perft is asynchronous".into()),
        Cmd::GameResult => Ok(match session.result() {
            Some(t) => format!("{} {}", session.result_word(), t.reason),
            None => "ongoing".into(),
        }),
        Cmd::SideToMove => Ok(session.side_name(session.game().side_to_move()).into()),
        Cmd::Showboard => Ok(format!("\n{}", session.game().render())),
        Cmd::ShowboardSvg => Ok(format!("\n{}", render::svg::svg(&session.game().picture()))),
        Cmd::BoardLayout => Ok(format!(
            "\n{}",
            render::json::layout(&session.game().picture())
        )),
        Cmd::SetOption { name, value } => session.set_option(&name, &value).map(|_| String::new()),
        Cmd::ListOptions => Ok(session
            .option_list()
            .into_iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join("\n")),
        Cmd::TimeSettings { main, byo, stones } => {
            session.time_settings(main, byo, stones);
            Ok(String::new())
        }
        Cmd::TimeLeft { side, time, stones } => session
            .time_left(&side, time, stones)
            .map(|_| String::new()),
        Cmd::KgsTimeSettings(k) => {
            match k {
                KgsTime::None => session.time_settings(0.0, 1.0, 0),
                KgsTime::Absolute(m) => session.time_settings(m, 0.0, 0),
                KgsTime::Byoyomi { main, period, .. } => session.time_settings(main, period, 1),
                KgsTime::Canadian { main, byo, stones } => session.time_settings(main, byo, stones),
            }
            Ok(String::new())
        }
        Cmd::Boardsize(_) => Err("unacceptable size".into()),
        Cmd::Komi(_) => Ok(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::frame;

    #[test]
    fn frames() {
        assert_eq!(frame(true, Some(3), "x"), "=3 x\n\n");
        assert_eq!(frame(false, None, "bad"), "? bad\n\n");
        assert_eq!(frame(true, None, ""), "=\n\n");
        assert_eq!(frame(true, None, "a\n\nb\n"), "= a\nb\n\n");
        assert_eq!(frame(true, Some(1), "\na\nb"), "=1\na\nb\n\n");
    }
}
