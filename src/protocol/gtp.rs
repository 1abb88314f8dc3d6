//! GTP front end: `[id] command args` in, `=[id] result` / `?[id] message` out, each answer
//! ending with an empty line.

use std::sync::Arc;
use std::time::Instant;

use super::parse::{self, Analyze, Gtp as Cmd, KgsTime, ParseError, GTP_COMMANDS};
use super::reader::LineError;
use super::{Flow, Io};
use crate::engine::SearchReport;
use crate::games::{RuleError, Side};
use crate::options::Kind;
use crate::render;
use crate::search::{uci_score, Clock, Limits};
use crate::session::{
    PerftError, SearchEvent, SearchMode, Session, SessionError, MAX_LISTED_MOVES,
};
use crate::session::{MAX_DEPTH, MAX_MOVETIME, MAX_MULTIPV, MAX_NODES};

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

/// The GTP clock (`time_settings`, `time_left`, `kgs-time_settings`), all in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GtpTime {
    main: u64,
    byo: u64,
    stones: u32,
    active: bool,
    /// `time_left` of each side (time, stones), for the game whose [`Session::serial`] is
    /// `serial`: a new game forgets them.
    left: [Option<(u64, u32)>; 2],
    serial: u64,
}

fn ms(seconds: f64) -> u64 {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * 1000.0).min(1e12) as u64
    } else {
        0
    }
}

impl GtpTime {
    /// `time_settings`: main time, then byo-yomi time per `stones` stones (in seconds).
    pub fn settings(main: f64, byo: f64, stones: u32) -> GtpTime {
        let (main, byo) = (ms(main), ms(byo));
        // GTP: byo-yomi time with zero stones means no time limit.
        let active = !(byo > 0 && stones == 0) && (main > 0 || byo > 0);
        GtpTime {
            main,
            byo,
            stones,
            active,
            ..GtpTime::default()
        }
    }

    /// `time_left SIDE TIME STONES` in game `serial`: STONES 0 = still in main time.
    pub fn set_left(&mut self, side: Side, time: f64, stones: u32, serial: u64) {
        if self.serial != serial {
            self.left = [None, None];
            self.serial = serial;
        }
        self.left[side.index()] = Some((ms(time), stones));
        self.active = true;
    }

    /// The search limits of a `genmove` for `side` in game `serial`; `None` when no clock
    /// runs. `overhead` is the option `move_overhead`.
    pub fn limits(&self, side: Side, serial: u64, overhead: u64) -> Option<Limits> {
        if !self.active {
            return None;
        }
        // A byo-yomi period: the time for `stones` moves, which comes back after them. With
        // one stone, time not used is lost, so the move may use it all but the overhead.
        let period = |time: u64, stones: u32| {
            if stones == 1 {
                Limits {
                    movetime: Some(time.saturating_sub(overhead).max(1)),
                    ..Limits::default()
                }
            } else {
                Limits {
                    clock: Some(Clock {
                        remaining: time,
                        increment: 0,
                        movestogo: Some(stones),
                    }),
                    ..Limits::default()
                }
            }
        };
        let byo = (self.byo > 0 && self.stones > 0).then(|| period(self.byo, self.stones));
        let left = if self.serial == serial {
            self.left[side.index()]
        } else {
            None
        };
        // Without `time_left`: at the start of the game, in main time if there is any.
        let (time, stones) = match (left, byo) {
            (Some(left), _) => left,
            (None, Some(_)) if self.main == 0 => (self.byo, self.stones),
            // Only a `time_left` of another game or of the other side: no clock known.
            (None, _) if self.main == 0 => return None,
            (None, _) => (self.main, 0),
        };
        if stones > 0 {
            return Some(period(time, stones));
        }
        let main = Limits {
            clock: Some(Clock {
                remaining: time,
                increment: 0,
                movestogo: None,
            }),
            ..Limits::default()
        };
        Some(match byo {
            None => main,
            Some(b) if time == 0 => b,
            // Main time running out during the move only starts the byo-yomi: the move may
            // take whichever of the two allows more.
            Some(b) => {
                let now = Instant::now();
                let soft = |l: &Limits| l.deadlines(now, overhead).soft;
                if soft(&b) > soft(&main) {
                    b
                } else {
                    main
                }
            }
        })
    }
}

enum Pending {
    /// `genmove` (true: play the move when done) or `reg_genmove`.
    Genmove(bool),
    Analyze,
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

type Answer = Result<String, GtpError>;

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
                io.send(&frame(false, parse::gtp_id(line), &e.to_string()));
                return Flow::Continue;
            }
        };
        let cmd = match parse::gtp_command(&name, args) {
            Ok(c) => c,
            Err(e) => {
                io.send(&frame(false, id, &GtpError::Syntax(e).to_string()));
                return Flow::Continue;
            }
        };
        if let Cmd::Genmove { side, commit } = &cmd {
            if let Err(e) = self.genmove(session, side.as_deref(), *commit, id, sink) {
                io.send(&frame(false, id, &e.to_string()));
            }
            return Flow::Continue;
        }
        if let Cmd::Analyze(a) = cmd {
            if let Err(e) = self.analyze(session, a, id, sink) {
                io.send(&frame(false, id, &e.to_string()));
            }
            return Flow::Continue;
        }
        if let Cmd::Perft(depth) = cmd {
            if let Err(e) = self.perft(session, depth, id, sink) {
                io.send(&frame(false, id, &e.to_string()));
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

    fn genmove(
        &mut self,
        session: &mut Session,
        side: Option<&str>,
        commit: bool,
        id: Option<u64>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), GtpError> {
        let to_move = session.game().side_to_move();
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
        session.begin_search(side, limits, sink)?;
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
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
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
        if limits == Limits::default() && !session.has_search_caps() {
            limits.movetime = Some(DEFAULT_MOVETIME_MS);
        }
        let mode = SearchMode {
            multipv: multipv.map(|k| k as usize),
            ponder: false,
        };
        session.begin_search_as(None, limits, mode, sink)?;
        self.pending = Some((id, Pending::Analyze));
        Ok(())
    }

    fn perft(
        &mut self,
        session: &mut Session,
        depth: u32,
        id: Option<u64>,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), GtpError> {
        if depth > MAX_PERFT_DEPTH {
            return Err(GtpError::PerftTooDeep);
        }
        session.start_perft(depth, sink)?;
        self.pending = Some((id, Pending::Perft));
        Ok(())
    }

    /// The perft has ended (or was stopped: only a fuzzing work cap does that).
    pub fn perft_done(&mut self, io: &mut Io, count: &Result<u64, PerftError>) {
        let Some((id, Pending::Perft)) = self.pending.take() else {
            return;
        };
        match count {
            Ok(n) => io.send(&frame(true, id, &n.to_string())),
            Err(e) => io.send(&frame(false, id, &e.to_string())),
        }
    }

    /// The genmove's search has ended: play the move (genmove) and answer.
    pub fn done(&mut self, io: &mut Io, session: &mut Session, report: &SearchReport) {
        let (id, commit) = match self.pending.take() {
            Some((id, Pending::Genmove(commit))) => (id, commit),
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
            match session.play(None, best) {
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
    if session.side(&side).is_err() {
        let a_move = !matches!(session.game().check_move(&side), Err(RuleError::Syntax(_)));
        if a_move {
            let after = [Some(mv), extra].into_iter().flatten();
            return Err(GtpError::TextAfterMove(after.collect::<Vec<_>>().join(" ")));
        }
    }
    if let Some(extra) = extra {
        return Err(GtpError::TextAfterMove(extra));
    }
    session.play(Some(&side), &mv)?;
    Ok(())
}

fn option_lines(session: &Session) -> String {
    session
        .option_list()
        .into_iter()
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
            Cmd::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Cmd::KnownCommand(c) => Ok(parse::is_gtp_command(&c.to_ascii_lowercase()).to_string()),
            Cmd::ListCommands => Ok(GTP_COMMANDS
                .iter()
                .map(|(c, _)| *c)
                .collect::<Vec<_>>()
                .join("\n")),
            Cmd::Help => Ok(GTP_COMMANDS
                .iter()
                .map(|(c, what)| format!("{c} - {what}"))
                .collect::<Vec<_>>()
                .join("\n")),
            Cmd::Quit => Ok(String::new()),
            Cmd::ListGames => Ok(session.game_names().join("\n")),
            Cmd::SetGame(name) => done(session.set_game(&name).map_err(GtpError::from)),
            Cmd::ClearBoard => {
                session.new_game();
                Ok(String::new())
            }
            Cmd::SetPosition(text) => done(session.set_position(&text).map_err(GtpError::from)),
            Cmd::GetPosition => Ok(session.game().position()),
            Cmd::Play { side, mv, extra } => done(play(session, side, mv, extra)),
            // Started by `Gtp::line`, answered when the search thread is done.
            Cmd::Genmove { .. } | Cmd::Analyze(_) | Cmd::Perft(_) => Err(GtpError::Internal(
                "genmove, analyze and perft are asynchronous",
            )),
            Cmd::Undo => {
                if session.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            Cmd::LegalMoves => match session.game().legal_moves_upto(MAX_LISTED_MOVES) {
                Some(moves) => Ok(moves.join(" ")),
                None => Err(GtpError::TooManyMoves),
            },
            Cmd::LegalMovesJson => match session.game().legal_move_inputs_upto(MAX_LISTED_MOVES) {
                Some(moves) => Ok(format!("\n{}", render::json::legal_moves(&moves))),
                None => Err(GtpError::TooManyMoves),
            },
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
            Cmd::SetOption { name, value } => {
                done(session.set_option(&name, &value).map_err(GtpError::from))
            }
            Cmd::ListOptions => Ok(option_lines(session)),
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
    use super::{frame, GtpTime};
    use crate::games::Side;
    use crate::search::{Clock, Limits};

    fn clock(remaining: u64, movestogo: Option<u32>) -> Option<Limits> {
        Some(Limits {
            clock: Some(Clock {
                remaining,
                increment: 0,
                movestogo,
            }),
            ..Limits::default()
        })
    }

    fn movetime(ms: u64) -> Option<Limits> {
        Some(Limits {
            movetime: Some(ms),
            ..Limits::default()
        })
    }

    #[test]
    fn every_time_system_with_and_without_time_left() {
        let at = |t: &GtpTime| t.limits(Side::P1, 0, 50);
        // No clock: `time_settings` never sent, `kgs-time_settings none`, B > 0 with S = 0.
        assert_eq!(at(&GtpTime::default()), None);
        assert_eq!(at(&GtpTime::settings(0.0, 1.0, 0)), None);
        assert_eq!(at(&GtpTime::settings(300.0, 5.0, 0)), None);
        // Absolute.
        let mut t = GtpTime::settings(60.0, 0.0, 0);
        assert_eq!(at(&t), clock(60_000, None));
        t.set_left(Side::P1, 30.0, 0, 0);
        assert_eq!(at(&t), clock(30_000, None));
        // Byo-yomi without main time: each move may use its whole period but the overhead.
        let mut t = GtpTime::settings(0.0, 30.0, 1);
        assert_eq!(at(&t), movetime(29_950));
        t.set_left(Side::P1, 20.0, 1, 0);
        assert_eq!(at(&t), movetime(19_950));
        // Main time before byo-yomi: the more generous of the two budgets.
        let mut t = GtpTime::settings(600.0, 30.0, 1);
        assert_eq!(at(&t), movetime(29_950));
        t.set_left(Side::P1, 0.0, 0, 0);
        assert_eq!(at(&t), movetime(29_950));
        let t = GtpTime::settings(3600.0, 1.0, 1);
        assert_eq!(at(&t), clock(3_600_000, None));
        // Canadian: main time, then B seconds for S stones.
        let mut t = GtpTime::settings(0.0, 300.0, 25);
        assert_eq!(at(&t), clock(300_000, Some(25)));
        t.set_left(Side::P1, 250.0, 20, 0);
        assert_eq!(at(&t), clock(250_000, Some(20)));
        let mut t = GtpTime::settings(600.0, 300.0, 25);
        t.set_left(Side::P1, 0.0, 0, 0);
        assert_eq!(at(&t), clock(300_000, Some(25)));
        // `time_left` alone is a clock; a new game forgets it.
        let mut t = GtpTime::default();
        t.set_left(Side::P1, 5.0, 0, 0);
        assert_eq!(at(&t), clock(5_000, None));
        assert_eq!(t.limits(Side::P1, 1, 50), None);
        assert_eq!(t.limits(Side::P2, 0, 50), None);
    }

    #[test]
    fn frames() {
        assert_eq!(frame(true, Some(3), "x"), "=3 x\n\n");
        assert_eq!(frame(false, None, "bad"), "? bad\n\n");
        assert_eq!(frame(true, None, ""), "=\n\n");
        assert_eq!(frame(true, None, "a\n\nb\n"), "= a\nb\n\n");
        assert_eq!(frame(true, Some(1), "\na\nb"), "=1\na\nb\n\n");
    }
}
