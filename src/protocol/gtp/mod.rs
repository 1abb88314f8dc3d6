//! GTP front end: `[id] command args` in, `=[id] result` / `?[id] message` out, each answer
//! ending with an empty line.

mod frame;
mod time;

use super::parse::{self, Analyze, Gtp as Cmd, KgsTime, ParseError, GTP_COMMANDS};
use super::reader::LineError;
use super::score::uci_score;
use super::Flow;
use super::{FrontEnd, Io, Turn};
use crate::engine::{InfoReport, SearchReport};
use crate::games::RuleError;
use crate::options::Kind;
use crate::render;
use crate::search::Limits;
use crate::session::{
    EventSink, PerftError, SearchEvent, SearchMode, Session, SessionError, MAX_LISTED_MOVES,
};
use crate::session::{MAX_DEPTH, MAX_MOVETIME, MAX_MULTIPV, MAX_NODES};
use frame::{command_text, frame, unlogged_frame};
pub use time::GtpTime;

#[derive(Default)]
pub struct Gtp {
    /// The command waiting for the search thread, with its id.
    pending: Option<(Option<u64>, Pending)>,
    time: GtpTime,
}

/// What `genmove` and `analyze` think when nothing limits them.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// A GTP command's failure, in the words of its `?` answer.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The text the command parser refused, with its reason.
    #[error(transparent)]
    Syntax(#[from] ParseError),
    /// A command reached a place it should not (a bug).
    #[error("internal error: {0}")]
    Internal(&'static str),
    #[error("unexpected text after the move: '{0}'")]
    TextAfterMove(String),
    #[error("{0}: the time must not be negative")]
    NegativeTime(&'static str),
    #[error("cannot undo")]
    CannotUndo,
    #[error("unacceptable size")]
    UnacceptableSize,
    #[error("too many legal moves to list (more than {MAX_LISTED_MOVES})")]
    TooManyMoves,
    #[error("analyze {0} must be 1..{1}, got {2}")]
    AnalyzeRange(&'static str, u64, u64),
    #[error("perft depth must be at most {MAX_PERFT_DEPTH}")]
    PerftTooDeep,
    #[error("cannot start perft: {0}")]
    Thread(#[from] std::io::Error),
}

enum Pending {
    /// `genmove` (true: play the move when done) or `reg_genmove`.
    Genmove(bool),
    Analyze,
    /// `analyze_stream`: its `=` line is out; each depth's lines follow as they come.
    Stream,
    Perft,
}

type Answer = Result<String, GtpError>;

/// Deeper perft is refused outright: no game finishes it in a human lifetime.
const MAX_PERFT_DEPTH: u32 = 20;

/// A line before any dialect is chosen that chooses none: an empty line (no answer) or one
/// that could not be read (GTP's error answer).
pub fn refuse(io: &mut Io, line: Result<String, LineError>) {
    if let Err(e) = line {
        io.send(&frame(false, None, &e.to_string()));
    }
}

impl FrontEnd for Gtp {
    fn line(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: EventSink,
    ) -> Flow {
        self.command(io, session, line, sink)
    }

    /// GTP is strictly sequential, `quit` included; but any line, even an empty one, ends an
    /// `analyze_stream` without limits (the loop stops unbounded searches for commands).
    fn during_search(&mut self, _: &mut Io, _: &Session, _: &Result<String, LineError>) -> Turn {
        Turn::Wait {
            command: matches!(self.pending, Some((_, Pending::Stream))),
        }
    }

    fn event(&mut self, io: &mut Io, session: &mut Session, event: SearchEvent) {
        match event {
            SearchEvent::Done(report) => self.done(io, session, &report),
            SearchEvent::PerftDone(count) => self.perft_done(io, &count),
            SearchEvent::Info(info) => {
                if let Some((_, Pending::Stream)) = self.pending {
                    if let Some(line) = stream_line(&info) {
                        io.send(&format!("{line}\n"));
                    }
                }
            }
            SearchEvent::DivideDone(_) => {}
        }
    }
}

impl Gtp {
    fn command(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: EventSink,
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
                io.send(&frame(false, parse::gtp_id(line), &e.to_string()));
                return Flow::Continue;
            }
        };
        let parsed = parse::gtp_find(&name).and_then(|c| Ok(((c.parse)(args)?, c.asynchronous)));
        let (cmd, asynchronous) = match parsed {
            Ok(c) => c,
            Err(ParseError::UnknownGtp) => {
                // GTP's standard answer does not name the command; the log does.
                log::warn!("unknown command '{name}'");
                let why = GtpError::Syntax(ParseError::UnknownGtp).to_string();
                io.send(&unlogged_frame(false, id, &why));
                return Flow::Continue;
            }
            Err(e) => {
                io.send(&frame(false, id, &GtpError::Syntax(e).to_string()));
                return Flow::Continue;
            }
        };
        if asynchronous {
            match self.start(session, cmd, id, sink) {
                Err(e) => io.send(&frame(false, id, &e.to_string())),
                // A stream's answer opens now: its lines come while the search deepens.
                Ok(()) if matches!(self.pending, Some((_, Pending::Stream))) => {
                    io.send(&format!(
                        "={}\n",
                        id.map(|i| i.to_string()).unwrap_or_default()
                    ));
                }
                Ok(()) => {}
            }
            return Flow::Continue;
        }
        let quit = cmd == Cmd::Quit;
        match self.execute(session, cmd) {
            Ok(body) => io.send(&frame(true, id, &body)),
            Err(e) => io.send(&frame(false, id, &e.to_string())),
        }
        if quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// Starts an asynchronous command: its answer comes when the worker is done.
    fn start(
        &mut self,
        session: &mut Session,
        cmd: Cmd,
        id: Option<u64>,
        sink: EventSink,
    ) -> Result<(), GtpError> {
        match cmd {
            Cmd::Genmove { side, commit } => {
                self.genmove(session, side.as_deref(), commit, id, sink)
            }
            Cmd::Analyze(a) => self.analyze(session, a, id, sink, false),
            Cmd::AnalyzeStream(a) => self.analyze(session, a, id, sink, true),
            Cmd::Perft(depth) => self.perft(session, depth, id, sink),
            _ => Err(GtpError::Internal(
                "a command declared asynchronous that is not",
            )),
        }
    }

    fn genmove(
        &mut self,
        session: &mut Session,
        side: Option<&str>,
        commit: bool,
        id: Option<u64>,
        sink: EventSink,
    ) -> Result<(), GtpError> {
        let to_move = session.side_to_move();
        let clock = self
            .time
            .limits(to_move, session.serial(), session.options.move_overhead);
        let limits = match clock {
            Some(l) => l,
            None if session.has_search_caps() => Limits::default(),
            None => Limits {
                movetime: Some(DEFAULT_MOVETIME_MS),
                ..Limits::default()
            },
        };
        session.search(side, limits, SearchMode::default(), sink)?;
        self.pending = Some((id, Pending::Genmove(commit)));
        Ok(())
    }

    /// `analyze`: a search like `genmove`'s (the search-limit options cap it too) that plays
    /// nothing and answers its best lines; never unbounded, and no GTP clock applies.
    fn analyze(
        &mut self,
        session: &mut Session,
        a: Analyze,
        id: Option<u64>,
        sink: EventSink,
        stream: bool,
    ) -> Result<(), GtpError> {
        let check = |name: &'static str, v: Option<u64>, max: u64| match v {
            Some(n) if n == 0 || n > max => Err(GtpError::AnalyzeRange(name, max, n)),
            v => Ok(v),
        };
        let movetime = check("movetime", a.movetime, MAX_MOVETIME)?;
        let depth = check("depth", a.depth, MAX_DEPTH)?;
        let nodes = check("nodes", a.nodes, MAX_NODES)?;
        let multipv = check("multipv", a.multipv, MAX_MULTIPV as u64)?;
        let mut limits = Limits {
            movetime,
            depth: depth.map(|d| d as u32),
            nodes,
            ..Limits::default()
        };
        if limits == Limits::default() {
            if stream {
                limits.infinite = true;
            } else if !session.has_search_caps() {
                limits.movetime = Some(DEFAULT_MOVETIME_MS);
            }
        }
        let mode = SearchMode {
            multipv: multipv.map(|k| k as usize),
            ponder: false,
        };
        session.search(None, limits, mode, sink)?;
        let pending = if stream {
            Pending::Stream
        } else {
            Pending::Analyze
        };
        self.pending = Some((id, pending));
        Ok(())
    }

    fn perft(
        &mut self,
        session: &mut Session,
        depth: u32,
        id: Option<u64>,
        sink: EventSink,
    ) -> Result<(), GtpError> {
        if depth > MAX_PERFT_DEPTH {
            return Err(GtpError::PerftTooDeep);
        }
        session.start_perft(depth, sink)?;
        self.pending = Some((id, Pending::Perft));
        Ok(())
    }

    /// The perft has ended (or was stopped: only a fuzzing work cap does that).
    fn perft_done(&mut self, io: &mut Io, count: &Result<u64, PerftError>) {
        let Some((id, Pending::Perft)) = self.pending.take() else {
            return;
        };
        match count {
            Ok(n) => io.send(&frame(true, id, &n.to_string())),
            Err(e) => io.send(&frame(false, id, &e.to_string())),
        }
    }

    /// The genmove's search has ended: play the move (genmove) and answer.
    fn done(&mut self, io: &mut Io, session: &mut Session, report: &SearchReport) {
        let (id, commit) = match self.pending.take() {
            Some((id, Pending::Genmove(commit))) => (id, commit),
            Some((_, Pending::Stream)) => {
                // The lines are out already; an error can only be logged, after the `=`.
                if let Some(e) = &report.error {
                    log::error!("analyze_stream: {e}");
                }
                io.send("\n");
                return;
            }
            Some((id, Pending::Analyze)) => {
                match &report.error {
                    Some(e) => io.send(&frame(false, id, &e.to_string())),
                    None => io.send(&frame(true, id, &analysis(report))),
                }
                return;
            }
            _ => return,
        };
        if let Some(e) = &report.error {
            io.send(&frame(false, id, &e.to_string()));
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
            let played = match &report.found {
                Some(found) => session.play_found(found),
                None => Err(RuleError::Illegal("no move found".into()).into()),
            };
            match played {
                Ok(canonical) => io.send(&frame(true, id, &canonical)),
                Err(e) => io.send(&frame(false, id, &format!("internal error: {e}"))),
            }
        } else {
            io.send(&frame(true, id, best));
        }
    }
}

/// `analyze`'s answer: `move X score cp S|mate N depth D pv X ...` per line, best first.
fn analysis(report: &SearchReport) -> String {
    report
        .lines
        .iter()
        .filter_map(|l| {
            let mv = l.pv.first()?;
            Some(format!(
                "move {mv} score {} depth {} pv {}",
                uci_score(l.score),
                l.depth,
                l.pv.join(" ")
            ))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line of `analyze_stream`: an `analyze` line with its rank among the best moves.
fn stream_line(i: &InfoReport) -> Option<String> {
    let mv = i.pv.first()?;
    Some(format!(
        "move {mv} score {} depth {} multipv {} pv {}",
        uci_score(i.score),
        i.depth,
        i.multipv.unwrap_or(1),
        i.pv.join(" ")
    ))
}

/// `play [SIDE] MOVE [...]`: the first of two words may be a side or a move, which only the
/// game can tell; text after the move is refused as such.
fn play(
    session: &mut Session,
    side: Option<String>,
    mv: String,
    extra: Option<String>,
) -> Result<(), GtpError> {
    let Some(side) = side else {
        session.play(None, &mv)?;
        return Ok(());
    };
    let side = match session.side(&side) {
        Ok(s) => s,
        Err(_) if session.is_move_text(&side) => {
            let after = [Some(mv), extra].into_iter().flatten();
            return Err(GtpError::TextAfterMove(after.collect::<Vec<_>>().join(" ")));
        }
        Err(_) if extra.is_some() => {
            return Err(GtpError::TextAfterMove(extra.unwrap_or_default()));
        }
        // A game that is over says so before the side is looked at.
        Err(_) if session.result().is_some() => return Err(RuleError::GameOver.into()),
        Err(e) => return Err(e.into()),
    };
    if let Some(extra) = extra {
        return Err(GtpError::TextAfterMove(extra));
    }
    session.play(Some(side), &mv)?;
    Ok(())
}

fn option_lines(session: &Session, game_only: bool) -> String {
    let own = session.game_option_names();
    session
        .option_list()
        .into_iter()
        .filter(|o| !game_only || own.contains(&o.gtp))
        .map(|o| match o.kind {
            Kind::Button => format!("{} {}", o.gtp, o.kind.gtp_type()),
            _ => format!("{} {} {}", o.gtp, o.value, o.kind.gtp_type()),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Gtp {
    fn execute(&mut self, session: &mut Session, cmd: Cmd) -> Answer {
        let done = |r: Result<(), GtpError>| r.map(|_| String::new());
        match cmd {
            Cmd::ProtocolVersion => Ok("2".into()),
            Cmd::Name => Ok("tetrad".into()),
            Cmd::Version => Ok(crate::VERSION.into()),
            Cmd::KnownCommand(c) => Ok(parse::is_gtp_command(&c.to_ascii_lowercase()).to_string()),
            Cmd::ListCommands => Ok(GTP_COMMANDS
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Cmd::Help => Ok(GTP_COMMANDS
                .iter()
                .map(|c| format!("{} - {}", c.name, c.help))
                .collect::<Vec<_>>()
                .join("\n")),
            Cmd::Quit => Ok(String::new()),
            Cmd::ListGames => Ok(session.game_names().join("\n")),
            Cmd::SetGame(name) => done(session.set_game(&name).map_err(GtpError::from)),
            Cmd::ClearBoard => {
                session.new_game();
                Ok(String::new())
            }
            Cmd::SetPosition(text) => done(session.setup(Some(&text), &[]).map_err(GtpError::from)),
            Cmd::GetPosition => Ok(session.position()),
            Cmd::Play { side, mv, extra } => done(play(session, side, mv, extra)),
            // Started by `Gtp::start`, answered when the worker is done.
            Cmd::Genmove { .. } | Cmd::Analyze(_) | Cmd::AnalyzeStream(_) | Cmd::Perft(_) => Err(
                GtpError::Internal("genmove, analyze and perft are asynchronous"),
            ),
            Cmd::LastSearch => Ok(session.last_search().map_or(String::new(), |l| {
                let pv = l.pv.join(" ");
                format!("depth {} score {} pv {pv}", l.depth, uci_score(l.score))
            })),
            Cmd::Undo => {
                if session.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            Cmd::LegalMoves => match session.legal_moves() {
                Some(moves) => Ok(moves.join(" ")),
                None => Err(GtpError::TooManyMoves),
            },
            Cmd::LegalMovesJson => match session.legal_move_inputs() {
                Some(moves) => Ok(format!("\n{}", render::json::legal_moves(&moves))),
                None => Err(GtpError::TooManyMoves),
            },
            Cmd::GameRecord(fields) => {
                let record = session.game_record(&fields)?;
                Ok(format!("{}\n{}", record.extension, record.text))
            }
            Cmd::LoadRecord(text) => {
                let (game, moves) = session.load_record(&text)?;
                Ok(if moves.is_empty() {
                    game.to_string()
                } else {
                    format!("{game}\n{}", moves.join(" "))
                })
            }
            Cmd::HandSvg => {
                let board = session.picture().board;
                let sides = session.side_names();
                let lines: String = session
                    .hand()
                    .iter()
                    .map(|h| {
                        let svg = render::svg::piece(&board, &h.piece, 48.0);
                        format!("\n{} {} {svg}", sides[h.side], h.id)
                    })
                    .collect();
                Ok(lines)
            }
            Cmd::GameResult => Ok(match session.result() {
                Some(t) => format!("{} {}", session.result_word(), t.reason),
                None => "ongoing".into(),
            }),
            Cmd::SideToMove => Ok(session.side_name(session.side_to_move()).into()),
            Cmd::Showboard => Ok(format!("\n{}", session.render())),
            Cmd::ShowboardSvg => Ok(format!("\n{}", render::svg::svg(&session.picture()))),
            Cmd::BoardLayout => Ok(format!("\n{}", render::json::layout(&session.picture()))),
            Cmd::EgdbProbe => Ok(session.egdb_probe()?),
            Cmd::SetOption { name, value } => {
                done(session.set_option(&name, &value).map_err(GtpError::from))
            }
            Cmd::ListOptions { game_only } => Ok(option_lines(session, game_only)),
            Cmd::TimeSettings { main, byo, stones } => {
                if main < 0.0 || byo < 0.0 {
                    return Err(GtpError::NegativeTime("time_settings"));
                }
                self.time = GtpTime::settings(main, byo, stones);
                Ok(String::new())
            }
            Cmd::TimeLeft { side, time, stones } => {
                let side = session.side(&side)?;
                if time < 0.0 {
                    return Err(GtpError::NegativeTime("time_left"));
                }
                self.time.set_left(side, time, stones, session.serial());
                Ok(String::new())
            }
            Cmd::KgsTimeSettings(k) => {
                let (main, byo, stones) = match k {
                    KgsTime::None => (0.0, 1.0, 0),
                    KgsTime::Absolute(m) => (m, 0.0, 0),
                    KgsTime::Byoyomi { main, period, .. } => (main, period, 1),
                    KgsTime::Canadian { main, byo, stones } => (main, byo, stones),
                };
                if main < 0.0 || byo < 0.0 {
                    return Err(GtpError::NegativeTime("kgs-time_settings"));
                }
                self.time = GtpTime::settings(main, byo, stones);
                Ok(String::new())
            }
            Cmd::Boardsize(_) => Err(GtpError::UnacceptableSize),
            Cmd::Komi(_) => Ok(String::new()),
        }
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
