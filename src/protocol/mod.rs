//! The protocol loop: one channel carries input lines (from the reader thread) and search
//! events (from the search thread); the loop hands each to the dialect's front end and writes
//! the answers, flushed, to the output.

pub mod gtp;
pub mod parse;
pub mod reader;
pub mod score;
pub mod ugi;
pub mod watchdog;

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use reader::LineError;

use crate::session::{EventSink, SearchEvent, Session};

#[derive(Debug, PartialEq)]
pub enum Event {
    /// One input line, cleaned, or why it was refused, with the moment it was read.
    Line(Instant, Result<String, LineError>),
    Eof,
    Search(SearchEvent),
}

impl PartialEq for SearchEvent {
    fn eq(&self, other: &SearchEvent) -> bool {
        match (self, other) {
            (SearchEvent::Info(a), SearchEvent::Info(b)) => a == b,
            (SearchEvent::Done(a), SearchEvent::Done(b)) => a == b,
            _ => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Gtp,
    Ugi,
}

/// A dialect's front end: it turns lines into session calls and session results into text.
/// The loop holds one, chosen once (by `--protocol` or the first line).
pub trait FrontEnd {
    /// Carries out one line (the loop calls it only when no search runs).
    fn line(
        &mut self,
        io: &mut Io,
        session: &mut Session,
        line: Result<String, LineError>,
        sink: EventSink,
    ) -> Flow;

    /// The next line, read while a search runs and every line before it has started.
    fn during_search(
        &mut self,
        io: &mut Io,
        session: &Session,
        line: &Result<String, LineError>,
    ) -> Turn;

    /// An event of the running search or perft (after [`Session::search_finished`] for the
    /// ones that end it).
    fn event(&mut self, io: &mut Io, session: &mut Session, event: SearchEvent);
}

/// What becomes of a line read while a search runs.
#[derive(Debug, PartialEq, Eq)]
pub enum Turn {
    /// Carried out at once (`isready`, `stop`, ...).
    Done,
    /// `quit`: the search is stopped, its result printed, then the engine exits.
    Quit,
    /// Waits for the search to end; `command` is false for a line that will only get an error
    /// (and for any line in GTP, which is strictly sequential).
    Wait { command: bool },
}

fn front_end(dialect: Dialect) -> Box<dyn FrontEnd> {
    match dialect {
        Dialect::Gtp => Box::new(gtp::Gtp::default()),
        Dialect::Ugi => Box::new(ugi::Ugi::default()),
    }
}

/// What a line read before the dialect is chosen does to the choice.
enum Choice {
    Dialect(Dialect),
    /// Empty, or not text: GTP's business, and nothing is chosen.
    Nothing,
    /// A `#` comment: ignored, nothing chosen.
    Comment,
    /// `isready`: answered, nothing chosen.
    Ready,
}

fn chosen_by(line: &Result<String, LineError>) -> Choice {
    let Some(first) = line.as_ref().ok().and_then(|l| l.split(' ').next()) else {
        return Choice::Nothing;
    };
    match first.to_ascii_lowercase().as_str() {
        "" => Choice::Nothing,
        w if w.starts_with('#') => Choice::Comment,
        "isready" => Choice::Ready,
        "ugi" | "uci" | "uai" => Choice::Dialect(Dialect::Ugi),
        _ => Choice::Dialect(Dialect::Gtp),
    }
}

/// What a front end tells the loop after a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Front-end state for the lines that arrive while a search runs.
pub struct Io<'a> {
    out: &'a mut dyn Write,
    /// Set when stdout is gone: nothing more can be said, so the engine exits.
    pub broken: bool,
}

impl Io<'_> {
    pub fn send(&mut self, text: &str) {
        if self.broken {
            return;
        }
        let ok = self.out.write_all(text.as_bytes()).is_ok() && self.out.flush().is_ok();
        if !ok {
            self.broken = true;
        }
    }
}

/// Runs the protocol until `quit` or end of input. Returns the process exit code.
///
/// Lines are carried out in order, each as if typed after the answer to the one before: lines
/// read during a search wait in a queue. UGI's immediate commands (`isready`, `stop`, `quit`)
/// act as soon as every line before them has started, without waiting for the search. End of
/// input only means that no more lines come: what was read still runs to its own limits, and
/// only a search without limits (`go infinite`) is stopped then; once the session's
/// `after_eof` has passed, the rest is cut short.
pub fn run(
    session: Session,
    forced: Option<Dialect>,
    input: impl Read + Send + 'static,
    out: &mut dyn Write,
) -> i32 {
    let (tx, rx) = channel::<Event>();
    reader::spawn(input, tx.clone());
    serve(session, forced, tx, rx, out)
}

/// [`run`] over input read whole before the first line is carried out, on the caller's
/// thread: no reader thread, so nothing of the run is left running when it returns, and every
/// line and the end of input are waiting before any command starts (the fuzz target, whose
/// runs must depend on the input alone, not on how threads are scheduled).
pub fn run_read_first(
    session: Session,
    forced: Option<Dialect>,
    input: impl Read,
    out: &mut dyn Write,
) -> i32 {
    let (tx, rx) = channel::<Event>();
    reader::read_all(input, &tx);
    serve(session, forced, tx, rx, out)
}

fn serve(
    session: Session,
    forced: Option<Dialect>,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    out: &mut dyn Write,
) -> i32 {
    let mut lp = Loop {
        session,
        front: forced.map(front_end),
        queue: VecDeque::new(),
        eof: false,
        cut_at: None,
        idle_since: Instant::now(),
        tx,
    };
    let mut io = Io { out, broken: false };
    loop {
        if lp.pump(&mut io) == Flow::Quit {
            return lp.finish();
        }
        if io.broken || (lp.eof && lp.queue.is_empty() && !lp.session.searching()) {
            return lp.finish();
        }
        let event = match lp.cut_at {
            Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    lp.cut_at = None;
                    lp.session.cut_short();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return lp.finish(),
            },
            None => match rx.recv() {
                Ok(event) => event,
                Err(_) => return lp.finish(),
            },
        };
        match event {
            Event::Eof => {
                lp.eof = true;
                lp.cut_at = lp.session.after_eof.map(|d| Instant::now() + d);
            }
            Event::Line(at, line) => lp.queue.push_back((at, line)),
            Event::Search(event) => {
                if !matches!(event, SearchEvent::Info(_)) {
                    lp.search_finished();
                }
                if let SearchEvent::Done(report) = &event {
                    lp.session.keep_search(report);
                }
                if let Some(front) = &mut lp.front {
                    front.event(&mut io, &mut lp.session, event);
                }
            }
        }
    }
}

type Input = (Instant, Result<String, LineError>);

struct Loop {
    session: Session,
    /// The dialect's front end, once chosen.
    front: Option<Box<dyn FrontEnd>>,
    /// Lines read and not yet carried out, with the moment each was read.
    queue: VecDeque<Input>,
    eof: bool,
    /// When the work left at the end of input is cut short, until it is.
    cut_at: Option<Instant>,
    /// When the last command (a search or perft included) ended: a line read before then starts
    /// then, however long the command took (a table allocated, a game loaded).
    idle_since: Instant,
    tx: Sender<Event>,
}

impl Loop {
    fn sink(&self) -> EventSink {
        let tx = Mutex::new(self.tx.clone());
        Arc::new(move |e| {
            if let Ok(tx) = tx.lock() {
                let _ = tx.send(Event::Search(e));
            }
        })
    }

    fn search_finished(&mut self) {
        self.session.search_finished();
        self.idle_since = Instant::now();
    }

    /// Carries out queued lines until one has to wait for the running search (or none is left).
    fn pump(&mut self, io: &mut Io) -> Flow {
        loop {
            if self.session.searching() {
                self.while_searching(io);
                return Flow::Continue;
            }
            let Some((read_at, line)) = self.queue.pop_front() else {
                return Flow::Continue;
            };
            // A move time runs from when its line was read, or from when the command before it
            // ended (a line read ahead waits its turn, it does not lose its time).
            self.session.begin_command(read_at.max(self.idle_since));
            let flow = self.line(io, line);
            // A search or perft it started moves this on again when it ends.
            self.idle_since = Instant::now();
            if flow == Flow::Quit {
                return Flow::Quit;
            }
        }
    }

    /// The queue's front while a search runs: UGI's immediate commands act now; anything else
    /// waits for the search to end. A search without limits gives way to a command waiting
    /// behind it, and to the end of input.
    fn while_searching(&mut self, io: &mut Io) {
        loop {
            let Some((_, line)) = self.queue.front() else {
                if self.eof {
                    self.stop_unbounded();
                }
                return;
            };
            let Some(front) = &mut self.front else {
                return;
            };
            match front.during_search(io, &self.session, line) {
                Turn::Done => {
                    self.queue.pop_front();
                }
                Turn::Quit => {
                    // The search's `bestmove` comes first; `quit` stays queued and ends the
                    // engine once it has.
                    self.session.stop_search();
                    return;
                }
                Turn::Wait { command } => {
                    // After the end of input no `stop` can come: a line waiting behind a
                    // search without limits, even one that will only get an error, would wait
                    // for ever.
                    if command || self.eof {
                        self.stop_unbounded();
                    }
                    return;
                }
            }
        }
    }

    fn stop_unbounded(&self) {
        if self.session.searching_unbounded() {
            self.session.stop_search();
        }
    }

    fn line(&mut self, io: &mut Io, line: Result<String, LineError>) -> Flow {
        if self.front.is_none() {
            match chosen_by(&line) {
                Choice::Dialect(dialect) => self.front = Some(front_end(dialect)),
                Choice::Nothing => {
                    // Nothing decided yet; an empty line needs no answer, a refused one gets
                    // GTP's.
                    gtp::refuse(io, line);
                    return Flow::Continue;
                }
                // A comment says nothing about the dialect of the commands after it.
                Choice::Comment => return Flow::Continue,
                // A UCI controller may ask before its handshake whether the engine is up: it
                // gets `readyok`, and its `uci` still chooses.
                Choice::Ready => {
                    let sink = self.sink();
                    return ugi::Ugi::default().line(io, &mut self.session, line, sink);
                }
            }
        }
        let sink = self.sink();
        match &mut self.front {
            Some(front) => front.line(io, &mut self.session, line, sink),
            None => Flow::Continue,
        }
    }

    fn finish(&mut self) -> i32 {
        self.session.stop_search();
        0
    }
}
