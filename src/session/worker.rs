//! The search worker: one long-lived thread that runs the session's searches and perfts, one
//! at a time, and hands each result to the front end's [`EventSink`]. A search whose result
//! must wait (`go infinite`, `go ponder`) waits on a condition variable that `stop` and
//! `ponderhit` signal.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, Once};
use std::thread;

use crate::engine::{InfoReport, SearchFailed, SearchJob, SearchReport};
use crate::games::{PerftStop, PERFT_MOVE_CAP};

/// Messages from the search worker to the session loop.
#[derive(Debug)]
pub enum SearchEvent {
    Info(InfoReport),
    Done(SearchReport),
    /// A perft has ended: its count, or why there is none (stopped, or it failed).
    PerftDone(Result<u64, PerftError>),
    /// A perft split by root move (UGI `go perft`) has ended.
    DivideDone(Result<Vec<(String, u64)>, PerftError>),
}

/// Where the worker sends a search's events: called from the worker thread.
pub type EventSink = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Why a perft has no count; `Display` is the reason both dialects give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    #[error("perft interrupted")]
    Stopped,
    #[error("too many moves to count (a position has more than {PERFT_MOVE_CAP})")]
    TooManyMoves,
    /// The perft panicked (a bug), with the panic's text.
    #[error("internal error: perft failed: {0}")]
    Failed(String),
}

/// The flags of one running search or perft: `stop`, and `ponder` while it ponders. Changing
/// either wakes a result held back for them.
#[derive(Clone)]
pub struct Control {
    pub stop: Arc<AtomicBool>,
    pub ponder: Option<Arc<AtomicBool>>,
    wake: Arc<(Mutex<()>, Condvar)>,
}

impl Control {
    pub fn new(ponder: bool) -> Control {
        Control {
            stop: Arc::new(AtomicBool::new(false)),
            ponder: ponder.then(|| Arc::new(AtomicBool::new(true))),
            wake: Arc::new((Mutex::new(()), Condvar::new())),
        }
    }

    /// Sets `flag` under the lock the waiter checks it under, so that no wake-up is lost.
    fn signal(&self, flag: &AtomicBool, value: bool) {
        let (lock, ready) = &*self.wake;
        let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
        flag.store(value, Ordering::Relaxed);
        ready.notify_all();
    }

    pub fn stop(&self) {
        self.signal(&self.stop, true);
    }

    pub fn ponder_hit(&self) {
        if let Some(p) = &self.ponder {
            self.signal(p, false);
        }
    }

    pub fn pondering(&self) -> bool {
        self.ponder
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed))
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search's answer must still wait: it is `infinite` or ponders, and neither
    /// `stop` nor (for a pondering one) `ponderhit` has come.
    fn holds(&self, infinite: bool) -> bool {
        (infinite || self.pondering()) && !self.stopped()
    }

    /// Returns once the search may answer: at once unless it [`Control::holds`], else at `stop`
    /// (or at `ponderhit`, for a pondering one).
    fn hold(&self, infinite: bool) {
        let (lock, ready) = &*self.wake;
        let mut held = lock.lock().unwrap_or_else(|e| e.into_inner());
        while self.holds(infinite) {
            held = ready.wait(held).unwrap_or_else(|e| e.into_inner());
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// The worker thread, started with the first job; it ends when the session is dropped.
#[derive(Default)]
pub struct Worker {
    jobs: Option<Sender<Job>>,
    /// Jobs run on the caller's thread, to their end, before [`Worker::search`] or
    /// [`Worker::perft`] returns; only the answer of a search that waits for `stop` or
    /// `ponderhit` is kept until [`Worker::release`]. No thread, so nothing depends on how
    /// threads are scheduled and nothing outlives the session (the fuzz target).
    pub sequential: bool,
    /// Nodes the sequential searches have searched so far (for [`super::Caps::session_nodes`]).
    pub nodes_searched: u64,
    held: Mutex<Option<Held>>,
}

/// A sequential search's answer, kept until its search no longer [`Control::holds`].
struct Held {
    control: Control,
    infinite: bool,
    answer: Box<dyn FnOnce() + Send>,
}

impl Worker {
    fn run(&mut self, job: Job) -> Result<(), std::io::Error> {
        report_caught_panics_briefly();
        let job = match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => return Ok(()),
                // The thread is gone (it cannot panic: every job catches its own): start anew.
                Err(e) => e.0,
            },
            None => job,
        };
        let (tx, rx) = channel::<Job>();
        thread::Builder::new()
            .name("search".into())
            .spawn(move || rx.into_iter().for_each(|job| job()))?;
        let sent = tx.send(job);
        self.jobs = Some(tx);
        sent.map_err(|_| std::io::Error::other("the search thread has ended"))
    }

    /// Runs `job` (a search); its infos and then its report go to `sink`. The report of an
    /// `infinite` or pondering search is held back until [`Control::stop`] (or
    /// [`Control::ponder_hit`]), as UCI wants.
    pub fn search(
        &mut self,
        job: SearchJob,
        control: Control,
        infinite: bool,
        sink: EventSink,
    ) -> Result<(), std::io::Error> {
        if self.sequential {
            let report = search_report(job);
            self.nodes_searched = self.nodes_searched.saturating_add(report.nodes);
            let answer = Box::new(move || sink(SearchEvent::Done(report)));
            *self.held.lock().unwrap_or_else(|e| e.into_inner()) = Some(Held {
                control,
                infinite,
                answer,
            });
            self.release();
            return Ok(());
        }
        self.run(Box::new(move || {
            let report = search_report(job);
            control.hold(infinite);
            sink(SearchEvent::Done(report));
        }))
    }

    /// A sequential search's answer, once nothing holds it back any more (called after `stop`
    /// and `ponderhit`); nothing otherwise.
    pub fn release(&self) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.as_ref().is_some_and(|h| !h.control.holds(h.infinite)) {
            let answer = held.take().map(|h| h.answer);
            drop(held);
            if let Some(answer) = answer {
                answer();
            }
        }
    }

    /// Runs a perft job; its count (or why there is none) goes to `sink` as `event`.
    pub fn perft<T: 'static>(
        &mut self,
        job: Box<dyn FnOnce() -> Result<T, PerftStop> + Send>,
        event: fn(Result<T, PerftError>) -> SearchEvent,
        sink: EventSink,
    ) -> Result<(), std::io::Error> {
        let work = move || sink(event(perft_outcome(catch_unwind(AssertUnwindSafe(job)))));
        if self.sequential {
            work();
            return Ok(());
        }
        self.run(Box::new(work))
    }
}

/// The search's report; a bug in a search must cost that answer, never the engine: without
/// this the front end would wait for `Done` for ever.
fn search_report(job: SearchJob) -> SearchReport {
    catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|panic| {
        let why = panic_text(&panic);
        log::error!("search failed: {why}");
        SearchReport {
            error: Some(SearchFailed(why)),
            best: None,
            found: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        }
    })
}

fn panic_text(panic: &Box<dyn Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

/// A perft's count, or why there is none, in words.
fn perft_outcome<T>(r: std::thread::Result<Result<T, PerftStop>>) -> Result<T, PerftError> {
    match r {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(PerftStop::Stopped)) => Err(PerftError::Stopped),
        Ok(Err(PerftStop::TooManyMoves)) => Err(PerftError::TooManyMoves),
        Err(panic) => {
            let why = panic_text(&panic);
            log::error!("perft failed: {why}");
            Err(PerftError::Failed(why))
        }
    }
}

/// A panic in a search or perft is caught and answered as an error, so the default hook's
/// message (and, with `RUST_BACKTRACE` set, a slow backtrace) on stderr says nothing more: it is
/// logged in one line instead. Panics elsewhere still go to the previous hook.
fn report_caught_panics_briefly() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| match thread::current().name() {
            Some("search") => log::error!("search thread: {info}"),
            _ => previous(info),
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a sink was sent, each with the thread it was sent from.
    type Seen = Arc<Mutex<Vec<(String, thread::ThreadId)>>>;

    /// A sink that keeps what it is sent.
    fn recording() -> (EventSink, Seen) {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&seen);
        let sink: EventSink = Arc::new(move |e| {
            let what = match e {
                SearchEvent::Done(r) => format!("done {:?}", r.best),
                SearchEvent::PerftDone(n) => format!("perft {n:?}"),
                e => format!("{e:?}"),
            };
            let mut seen = kept.lock().unwrap_or_else(|e| e.into_inner());
            seen.push((what, thread::current().id()));
        });
        (sink, seen)
    }

    fn answered(seen: &Mutex<Vec<(String, thread::ThreadId)>>) -> Vec<String> {
        let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter().map(|(what, _)| what.clone()).collect()
    }

    #[test]
    fn a_sequential_worker_works_on_the_callers_thread_and_holds_only_a_waiting_answer() {
        let mut worker = Worker {
            sequential: true,
            ..Worker::default()
        };
        let (sink, seen) = recording();
        worker
            .perft(
                Box::new(|| Ok(7u64)),
                SearchEvent::PerftDone,
                Arc::clone(&sink),
            )
            .expect("runs");
        assert_eq!(answered(&seen), ["perft Ok(7)"]);
        let report = |best: &str| {
            let best = Some(best.to_string());
            let job: SearchJob = Box::new(move || SearchReport {
                error: None,
                best,
                found: None,
                score: 0,
                depth: 1,
                nodes: 1,
                pv: Vec::new(),
                lines: Vec::new(),
            });
            job
        };
        worker
            .search(report("a1"), Control::new(false), false, Arc::clone(&sink))
            .expect("runs");
        assert_eq!(answered(&seen)[1..], ["done Some(\"a1\")"]);
        // A pondering search has done its work, but answers at `ponderhit`, not before.
        let pondering = Control::new(true);
        worker
            .search(report("b2"), pondering.clone(), false, Arc::clone(&sink))
            .expect("runs");
        worker.release();
        assert_eq!(answered(&seen).len(), 2);
        pondering.ponder_hit();
        worker.release();
        assert_eq!(answered(&seen)[2..], ["done Some(\"b2\")"]);
        let here = thread::current().id();
        let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        assert!(seen.iter().all(|&(_, id)| id == here), "{seen:?}");
    }
}
