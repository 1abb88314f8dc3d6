//! UGI front end (the UCI family: `ugi`, `uci`, `uai`). Errors are reported as
//! `info string error: <why>` and the command is ignored.

use super::parse::{self, Go, Ugi as Cmd};
use super::reader::LineError;
use super::score::uci_score;
use super::{Flow, FrontEnd, Io, Turn};
use crate::engine::{InfoReport, SearchReport};
use crate::games::{Outcome, RuleError, Side};
use crate::render;
use crate::search::{Clock, Limits};
use crate::session::MAX_LISTED_MOVES;
use crate::session::{EventSink, PerftError, SearchEvent, SearchMode, Session, SessionError};

#[derive(Default)]
pub struct Ugi {
    /// Set when a `position` was refused (why): until a valid one arrives there is no position
    /// to search or query, rather than the previous one silently kept in play.
    no_position: Option<String>,
}

fn error(io: &mut Io, why: &str) {
    // Also on stderr: a runner that hides the protocol shows its engine's stderr.
    log::warn!("{why}");
    io.send(&format!("info string error: {why}\n"));
}

impl FrontEnd for Ugi {
    fn line(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: EventSink,
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
                error(io, &e.to_string());
                return Flow::Continue;
            }
        };
        match cmd {
            Cmd::Hello(word) => hello(io, session, &word),
            Cmd::IsReady => {
                // The GUI's cue for slow set-up, so that no search pays for it.
                if let Err(e) = session.prepare() {
                    error(io, &e.to_string());
                }
                io.send("readyok\n");
            }
            Cmd::SetOption { name, value } => {
                if let Err(e) = session.set_option(&name, &value) {
                    error(io, &e.to_string());
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
            Cmd::Go(_) if self.no_position.is_some() => {
                let why = self.no_position.as_deref().unwrap_or_default();
                error(io, &format!("no position ({why})"));
                io.send("bestmove (none)\n");
            }
            // Every command that reads the position agrees that there is none.
            Cmd::Perft(_) | Cmd::Display | Cmd::Eval | Cmd::LegalMovesJson
                if self.no_position.is_some() =>
            {
                let why = self.no_position.as_deref().unwrap_or_default();
                let why = format!("no position ({why})");
                error(io, &why);
                if cmd == Cmd::LegalMovesJson {
                    json_error(io, &why);
                }
            }
            Cmd::Go(go) => {
                for (key, value) in &go.overdrawn {
                    error(
                        io,
                        &format!("go {key} {value}: a clock below zero counts as 0"),
                    );
                }
                match session.search(None, limits(session, &go), mode(&go), sink) {
                    Ok(()) => {}
                    // A finished game has no move to search: the GUI asks `query gameover`.
                    Err(SessionError::Rule(RuleError::GameOver)) => io.send("bestmove (none)\n"),
                    Err(e) => {
                        error(io, &e.to_string());
                        io.send("bestmove (none)\n");
                    }
                }
            }
            Cmd::Perft(depth) => {
                if depth > MAX_PERFT_DEPTH {
                    error(
                        io,
                        &format!("perft depth must be at most {MAX_PERFT_DEPTH}"),
                    );
                } else if let Err(e) = session.start_divide(depth, sink) {
                    error(io, &format!("cannot start perft: {e}"));
                }
            }
            Cmd::Display => display(io, session),
            Cmd::Eval => eval(io, session),
            Cmd::LegalMovesJson => legal_moves_json(io, session),
            Cmd::Stop | Cmd::PonderHit | Cmd::Debug => {}
            Cmd::Query(q) => query(io, session, self.no_position.as_deref(), &q),
            Cmd::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// Answered at once (`isready`), acted on (`stop`, `quit`), or left to wait for the search.
    fn during_search(
        &mut self,
        io: &mut Io,
        session: &Session,
        line: &Result<String, LineError>,
    ) -> Turn {
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
            Some(Ok(Cmd::PonderHit)) => {
                session.ponder_hit();
                Turn::Done
            }
            Some(Ok(Cmd::Debug)) => Turn::Done,
            Some(Err(_)) if line.as_ref().is_ok_and(|l| l.is_empty()) => Turn::Done,
            Some(Ok(_)) => Turn::Wait { command: true },
            _ => Turn::Wait { command: false },
        }
    }

    fn event(&mut self, io: &mut Io, session: &mut Session, event: SearchEvent) {
        match event {
            SearchEvent::Info(info) => self.info(io, &info),
            SearchEvent::Done(report) => self.done(io, session, &report),
            SearchEvent::DivideDone(split) => self.divide_done(io, &split),
            SearchEvent::PerftDone(_) => {}
        }
    }
}

impl Ugi {
    fn info(&mut self, io: &mut Io, i: &InfoReport) {
        let nps = i.nodes * 1000 / i.elapsed_ms.max(1);
        let multipv = i
            .multipv
            .map(|k| format!(" multipv {k}"))
            .unwrap_or_default();
        let mut s = format!(
            "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {} hashfull {}",
            i.depth,
            i.seldepth.max(i.depth),
            uci_score(i.score),
            i.nodes,
            nps,
            i.elapsed_ms,
            i.hashfull
        );
        if let Some(n) = i.tbhits {
            s.push_str(&format!(" tbhits {n}"));
        }
        if !i.pv.is_empty() {
            s.push_str(" pv ");
            s.push_str(&i.pv.join(" "));
        }
        s.push('\n');
        io.send(&s);
    }

    fn done(&mut self, io: &mut Io, session: &Session, report: &SearchReport) {
        if let Some(e) = &report.error {
            error(io, &e.to_string());
        }
        let best = report.best.as_deref().unwrap_or("(none)");
        // `ponder P` only when the GUI asked for it: strict arbiters accept two tokens only.
        match report.pv.get(1) {
            Some(reply)
                if session.options.ponder
                    && report.pv.first().map(String::as_str) == Some(best) =>
            {
                io.send(&format!("bestmove {best} ponder {reply}\n"))
            }
            _ => io.send(&format!("bestmove {best}\n")),
        }
    }

    /// `go perft N` has ended: each root move with its count, as Stockfish prints them.
    fn divide_done(&mut self, io: &mut Io, split: &Result<Vec<(String, u64)>, PerftError>) {
        match split {
            Ok(split) => {
                let mut s = String::new();
                for (mv, n) in split {
                    s.push_str(&format!("{mv}: {n}\n"));
                }
                let total: u64 = split.iter().map(|(_, n)| n).sum();
                s.push_str(&format!("\nNodes searched: {total}\n\n"));
                io.send(&s);
            }
            Err(e) => error(io, &e.to_string()),
        }
    }
}

/// Deeper perft is refused outright: no game finishes it in a human lifetime.
const MAX_PERFT_DEPTH: u32 = 20;

/// `d`: the board, its position string and the side to move; with an endgame database open
/// for the game, its value of the position.
fn display(io: &mut Io, session: &Session) {
    let egdb = session
        .egdb_status()
        .map_or(String::new(), |v| format!("Endgame database: {v}\n"));
    io.send(&format!(
        "{}\n\nPosition: {}\nSide to move: {}\n{egdb}",
        session.render().trim_end(),
        session.position(),
        session.side_name(session.side_to_move())
    ));
}

/// `eval`: the static evaluation from the side to move's point of view, term by term when the
/// game lists its terms.
fn eval(io: &mut Io, session: &Session) {
    let (total, terms) = session.evaluation();
    let mut s = String::new();
    for (name, value) in &terms {
        s.push_str(&format!("{name:<16} {value:>7}\n"));
    }
    if !terms.is_empty() {
        s.push('\n');
    }
    let side = session.side_name(session.side_to_move());
    s.push_str(&format!(
        "Total evaluation: {total} (for {side}, the side to move)\n"
    ));
    io.send(&s);
}

/// `legalmovesjson`: the document of GTP `legal_moves_json` on one line, so that a GUI reads
/// exactly one line; a refusal is a one-line document too, after the usual error line.
fn legal_moves_json(io: &mut Io, session: &Session) {
    match session.legal_move_inputs() {
        Some(moves) => {
            let doc = render::json::legal_moves(&moves);
            // Only indentation starts a line: no move text holds a line break.
            let line: String = doc.lines().map(str::trim).collect();
            io.send(&format!("{line}\n"));
        }
        None => {
            let why = format!("too many legal moves to list (more than {MAX_LISTED_MOVES})");
            error(io, &why);
            json_error(io, &why);
        }
    }
}

fn json_error(io: &mut Io, why: &str) {
    io.send(&format!("{}\n", serde_json::json!({ "error": why })));
}

fn hello(io: &mut Io, session: &Session, word: &str) {
    let mut s = String::new();
    s.push_str("id name tetrad\n");
    s.push_str("id author the tetrad developers\n");
    // The name stays `tetrad` (GUIs and arbiters match it); the release goes on a line of its own.
    s.push_str(&format!("id version {}\n", crate::VERSION));
    for o in session.option_list() {
        s.push_str(&o.kind.ugi_line(o.ugi, &o.value));
        s.push('\n');
    }
    s.push_str(&format!("{word}ok\n"));
    io.send(&s);
}

/// The side the UGI clock names `wtime`/`winc` belong to: the side named white (Phutball,
/// which has none, counts red as white).
fn white_side(session: &Session) -> Side {
    match session.side_names() {
        [_, "white"] => Side::P2,
        _ => Side::P1,
    }
}

/// `go ponder` ponders; MultiPV comes from the option.
fn mode(go: &Go) -> SearchMode {
    SearchMode {
        multipv: None,
        ponder: go.ponder,
    }
}

/// The mover's clock from `go`: `p1time`/`p2time` first, else the white/black names.
fn limits(session: &Session, go: &Go) -> Limits {
    let side = session.side_to_move();
    let white = white_side(session);
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
        // An arbiter waits for its `response`: it gets one, and it is nobody's turn.
        ("p1turn", Some(why)) => {
            error(io, &format!("no position ({why})"));
            "false".into()
        }
        ("gameover", None) => session.result().is_some().to_string(),
        ("p1turn", None) => (session.side_to_move() == Side::P1).to_string(),
        ("result", None) => match session.result().map(|t| t.outcome) {
            None => "none".into(),
            Some(Outcome::Draw) => "draw".into(),
            Some(Outcome::Win(Side::P1)) => "p1win".into(),
            Some(Outcome::Win(Side::P2)) => "p2win".into(),
        },
        ("", _) => {
            error(io, "query needs one of gameover, p1turn, result");
            "none".into()
        }
        _ => {
            error(io, &format!("unknown query '{q}'"));
            "none".into()
        }
    };
    io.send(&format!("response {answer}\n"));
}
