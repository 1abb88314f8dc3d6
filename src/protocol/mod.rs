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

use reader::LineError;

use crate::session::{SearchEvent, Session};

#[derive(Debug, PartialEq)]
pub enum Event {
    /// One input line, cleaned, or why it was refused.
    Line(Result<String, LineError>),
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
        tx,
        ugi: ugi::Ugi,
        gtp: gtp::Gtp::default(),
    };
    let mut io = Io { out, broken: false };
    loop {
        while !lp.session.searching() {
            let Some(line) = lp.queue.pop_front() else {
                break;
            };
            if lp.line(&mut io, line) == Flow::Quit {
                return lp.finish();
            }
            if lp.eof {
                // Input has ended: searches still queued behind it answer at once.
                lp.session.stop_search();
            }
        }
        if io.broken || (lp.eof && !lp.session.searching()) {
            return lp.finish();
        }
        let Ok(event) = rx.recv() else {
            return lp.finish();
        };
        match event {
            Event::Eof => {
                lp.eof = true;
                lp.session.stop_search();
            }
            Event::Line(line) if lp.session.searching() => lp.line_while_searching(&mut io, line),
            Event::Line(line) => {
                if lp.line(&mut io, line) == Flow::Quit {
                    return lp.finish();
                }
            }
            Event::Search(SearchEvent::Info(info)) => {
                if lp.dialect == Some(Dialect::Ugi) {
                    lp.ugi.info(&mut io, &info);
                }
            }
            Event::Search(SearchEvent::PerftDone(count)) => {
                lp.session.search_finished();
                lp.gtp.perft_done(&mut io, &count);
            }
            Event::Search(SearchEvent::DivideDone(split)) => {
                lp.session.search_finished();
                lp.ugi.divide_done(&mut io, &split);
            }
            Event::Search(SearchEvent::Done(report)) => {
                lp.session.search_finished();
                match lp.dialect {
                    Some(Dialect::Ugi) => lp.ugi.done(&mut io, &lp.session, &report),
                    _ => lp.gtp.done(&mut io, &mut lp.session, &report),
                }
            }
        }
    }
}

struct Loop {
    session: Session,
    dialect: Option<Dialect>,
    /// Lines held back while a search runs (processed in order once it ends).
    queue: VecDeque<Result<String, LineError>>,
    eof: bool,
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

    fn line_while_searching(&mut self, io: &mut Io, line: Result<String, LineError>) {
        match self.dialect {
            Some(Dialect::Ugi) => {
                if let Some(l) = ugi::Ugi::during_search(io, &self.session, line) {
                    self.queue.push_back(l);
                }
            }
            // GTP is strictly sequential: later commands wait for the genmove or perft answer.
            // Only `quit` cuts it short: the answer comes at once, then the engine exits.
            _ => {
                if line.as_ref().is_ok_and(|l| gtp::is_quit(l)) {
                    self.session.stop_search();
                }
                self.queue.push_back(line)
            }
        }
    }

    fn finish(&mut self) -> i32 {
        self.session.stop_search();
        0
    }
}
