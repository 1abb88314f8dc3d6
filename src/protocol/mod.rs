//! The protocol loop: one channel carries input lines (from the reader thread) and search
//! events (from the search thread); the loop hands each to the dialect's front end and writes
//! the answers, flushed, to the output.

pub mod gtp;
pub mod parse;
pub mod reader;
pub mod ugi;

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use reader::LineError;

use crate::session::{SearchEvent, Session};

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
/// only a search without limits (`go infinite`) is stopped then.
pub fn run(
    session: Session,
    forced: Option<Dialect>,
    input: impl Read + Send + 'static,
    out: &mut dyn Write,
) -> i32 {
    let (tx, rx) = channel::<Event>();
    reader::spawn(input, tx.clone());
    let mut lp = Loop {
        session,
        dialect: forced,
        queue: VecDeque::new(),
        eof: false,
        idle_since: Instant::now(),
        tx,
        ugi: ugi::Ugi::default(),
        gtp: gtp::Gtp::default(),
    };
    let mut io = Io { out, broken: false };
    loop {
        if lp.pump(&mut io) == Flow::Quit {
            return lp.finish();
        }
        if io.broken || (lp.eof && lp.queue.is_empty() && !lp.session.searching()) {
            return lp.finish();
        }
        let Ok(event) = rx.recv() else {
            return lp.finish();
        };
        match event {
            Event::Eof => lp.eof = true,
            Event::Line(at, line) => lp.queue.push_back((at, line)),
            Event::Search(SearchEvent::Info(info)) => {
                if lp.dialect == Some(Dialect::Ugi) {
                    lp.ugi.info(&mut io, &info);
                }
            }
            Event::Search(SearchEvent::PerftDone(count)) => {
                lp.search_finished();
                lp.gtp.perft_done(&mut io, &count);
            }
            Event::Search(SearchEvent::DivideDone(split)) => {
                lp.search_finished();
                lp.ugi.divide_done(&mut io, &split);
            }
            Event::Search(SearchEvent::Done(report)) => {
                lp.search_finished();
                match lp.dialect {
                    Some(Dialect::Ugi) => lp.ugi.done(&mut io, &lp.session, &report),
                    _ => lp.gtp.done(&mut io, &mut lp.session, &report),
                }
            }
        }
    }
}

type Input = (Instant, Result<String, LineError>);

struct Loop {
    session: Session,
    dialect: Option<Dialect>,
    /// Lines read and not yet carried out, with the moment each was read.
    queue: VecDeque<Input>,
    eof: bool,
    /// When the last search or perft ended: a line read while it ran starts then.
    idle_since: Instant,
    tx: Sender<Event>,
    ugi: ugi::Ugi,
    gtp: gtp::Gtp,
}

impl Loop {
    fn sink(&self) -> Arc<dyn Fn(SearchEvent) + Send + Sync> {
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
            // A move time runs from when its line was read, or from when the line before it
            // let it start (a line read ahead waits its turn, it does not lose its time).
            self.session.begin_command(read_at.max(self.idle_since));
            if self.line(io, line) == Flow::Quit {
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
            if self.dialect != Some(Dialect::Ugi) {
                // GTP is strictly sequential, `quit` included.
                return;
            }
            match ugi::Ugi::during_search(io, &self.session, line) {
                ugi::Turn::Done => {
                    self.queue.pop_front();
                }
                ugi::Turn::Quit => {
                    // The search's `bestmove` comes first; `quit` stays queued and ends the
                    // engine once it has.
                    self.session.stop_search();
                    return;
                }
                ugi::Turn::Wait { command } => {
                    if command {
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
        let dialect = match self.dialect {
            Some(d) => d,
            None => {
                let first = line
                    .as_ref()
                    .ok()
                    .map(|l| l.split(' ').next().unwrap_or_default().to_ascii_lowercase());
                match first.as_deref() {
                    None | Some("") => {
                        // Nothing decided yet; empty lines and garbage are GTP's business.
                        let sink = self.sink();
                        return gtp::Gtp::default().line(io, &mut self.session, line, sink);
                    }
                    // A comment says nothing about the dialect of the commands after it.
                    Some(w) if w.starts_with('#') => return Flow::Continue,
                    // A UCI controller may ask before its handshake whether the engine is up:
                    // it gets `readyok`, and its `uci` still chooses.
                    Some("isready") => {
                        let sink = self.sink();
                        return self.ugi.line(io, &mut self.session, line, sink);
                    }
                    Some("ugi" | "uci" | "uai") => Dialect::Ugi,
                    Some(_) => Dialect::Gtp,
                }
            }
        };
        self.dialect = Some(dialect);
        let sink = self.sink();
        match dialect {
            Dialect::Gtp => self.gtp.line(io, &mut self.session, line, sink),
            Dialect::Ugi => self.ugi.line(io, &mut self.session, line, sink),
        }
    }

    fn finish(&mut self) -> i32 {
        self.session.stop_search();
        0
    }
}
