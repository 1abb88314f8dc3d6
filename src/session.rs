//! The session: the current game (position and history), the engine options, the clocks, and
//! the one running search. It decides what every command does; front ends only translate text.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::thread;
use std::time::{Duration, Instant};

use crate::engine::{self, AnyGame, InfoReport, SearchReport};
use crate::games::poddavki::Poddavki;
use crate::games::{parse_side, PerftStop, RuleError, Side, Terminal, GAME_NAMES, PERFT_MOVE_CAP};
use crate::search::{Clock, Limits, Params};

/// Engine options shared by every game (`set_option` / `setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub hash_mib: usize,
    pub seed: u64,
    pub move_overhead: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            movetime: None,
            depth: None,
            nodes: None,
            threads: 1,
            hash_mib: engine::DEFAULT_HASH_MIB,
            seed: 0,
            move_overhead: 50,
        }
    }
}

pub const MAX_HASH_MIB: usize = 4096;
pub const MAX_THREADS: usize = 256;
/// `legal_moves` refuses to list more moves than this (dense Phutball positions have tens of
/// millions: gigabytes of text).
pub const MAX_LISTED_MOVES: usize = 1_000_000;
/// What `genmove` thinks when nothing limits it.
const DEFAULT_MOVETIME_MS: u64 = 1000;

/// GTP time control (`time_settings`, `time_left`), all in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct GtpTime {
    main: u64,
    byo: u64,
    stones: u32,
    active: bool,
    left: [Option<(u64, u32)>; 2],
}

/// Messages from the search thread to the session loop.
#[derive(Debug)]
pub enum SearchEvent {
    Info(InfoReport),
    Done(SearchReport),
    /// A perft has ended: its count, or why there is none (stopped, or it failed).
    PerftDone(Result<u64, String>),
}

/// Bounds on the work any one command may cause, for the fuzz targets: whatever depth, limit or
/// clock an input asks for, it then ends quickly. Users' commands are never bounded this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkCap {
    /// Deeper perft is counted to this depth.
    pub perft_depth: u32,
    /// Every search stops after this many nodes (an infinite one too).
    pub nodes: u64,
    /// Last resort for work a node count does not bound (dense Phutball, huge perft levels):
    /// every search and perft is stopped after this many milliseconds.
    pub millis: u64,
}

pub struct Session {
    game: Box<dyn AnyGame>,
    pub options: Options,
    /// Game-specific options the user set, replayed when another game is selected.
    game_options: Vec<(String, String)>,
    time: GtpTime,
    stop: Option<Arc<AtomicBool>>,
    /// Whether the running search has no limit of its own (`go infinite`): only such a search is
    /// stopped by the end of input.
    unbounded: bool,
    /// When the command being carried out began (its line was read, or the command before it
    /// ended): a move time runs from then.
    command_start: Option<Instant>,
    cap: Option<WorkCap>,
}

fn panic_text(panic: &Box<dyn Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

fn ms(seconds: f64) -> u64 {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * 1000.0).min(1e12) as u64
    } else {
        0
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session {
            game: Box::new(engine::GameState::new(Poddavki::default())),
            options: Options::default(),
            game_options: Vec::new(),
            time: GtpTime::default(),
            stop: None,
            unbounded: false,
            command_start: None,
            cap: None,
        }
    }

    /// A session whose every search and perft is bounded by `cap` (fuzzing).
    pub fn with_work_cap(cap: WorkCap) -> Session {
        Session {
            cap: Some(cap),
            ..Session::new()
        }
    }

    /// Allocates (zeroed) the current game's hash table if it is not yet, so that no search
    /// pays for it on its clock. Called at start-up and by `isready`; from then on a new table
    /// (`hash`, `set_game`) is allocated as soon as it is made.
    pub fn prepare(&mut self) {
        self.game.prepare_hash();
    }

    /// Marks the moment the next command began, for the move time of a search it starts.
    pub fn begin_command(&mut self, at: Instant) {
        self.command_start = Some(at);
    }

    pub fn game(&self) -> &dyn AnyGame {
        self.game.as_ref()
    }

    pub fn game_names() -> &'static [&'static str] {
        &GAME_NAMES
    }

    /// Selects a game and starts it from its start position. Unknown names change nothing.
    pub fn set_game(&mut self, name: &str) -> Result<(), String> {
        let mut game = engine::new_game(name).ok_or_else(|| format!("unknown game '{name}'"))?;
        for (n, v) in &self.game_options {
            // Options of other games are kept for when those games come back.
            let _ = game.set_option(n, v);
        }
        game.set_hash_mib(self.options.hash_mib);
        if self.game.hash_ready() {
            game.prepare_hash();
        }
        self.game = game;
        self.time.left = [None, None];
        Ok(())
    }

    pub fn new_game(&mut self) {
        self.game.new_game();
        self.game.clear_hash();
        self.time.left = [None, None];
    }

    pub fn set_position(&mut self, text: &str) -> Result<(), RuleError> {
        self.game.set_position(text)
    }

    /// `position [fen POS] moves ...`: all or nothing.
    pub fn setup(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), RuleError> {
        self.game.setup(fen, moves)
    }

    pub fn side(&self, text: &str) -> Result<Side, String> {
        parse_side(self.game.side_names(), text).ok_or_else(|| format!("invalid side '{text}'"))
    }

    pub fn side_name(&self, side: Side) -> &'static str {
        self.game.side_names()[side.index()]
    }

    pub fn play(&mut self, side: Option<&str>, mv: &str) -> Result<String, RuleError> {
        if let Some(s) = side {
            let s = self.side(s).map_err(RuleError::Illegal)?;
            if s != self.game.side_to_move() {
                if self.game.result().is_some() {
                    return Err(RuleError::GameOver);
                }
                return Err(RuleError::Illegal(format!(
                    "it is {}'s turn",
                    self.side_name(self.game.side_to_move())
                )));
            }
        }
        self.game.play(mv)
    }

    pub fn undo(&mut self) -> bool {
        self.game.undo()
    }

    pub fn result(&self) -> Option<Terminal> {
        self.game.result()
    }

    pub fn result_word(&self) -> &'static str {
        engine::result_word(self.game.side_names(), self.game.result())
    }

    /// Sets an option by its protocol name (case-insensitive; spaces and `_` ignored, so UGI's
    /// `Move Overhead`, `MoveOverhead` and GTP's `move_overhead` are one option).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key: String = name
            .chars()
            .filter(|c| *c != ' ' && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        let num = |what: &str| -> Result<u64, String> {
            value
                .trim()
                .parse::<u64>()
                .map_err(|_| format!("option {what} needs a non-negative integer, got '{value}'"))
        };
        // 0 (or `none`/`off`) switches a limit off.
        let limit = |what: &str| -> Result<Option<u64>, String> {
            if matches!(value.to_ascii_lowercase().as_str(), "none" | "off" | "") {
                return Ok(None);
            }
            Ok(Some(num(what)?).filter(|&v| v > 0))
        };
        match key.as_str() {
            "movetime" => self.options.movetime = limit("movetime")?,
            "depth" => {
                self.options.depth = limit("depth")?.map(|d| d.min(100) as u32);
            }
            "nodes" => self.options.nodes = limit("nodes")?,
            "threads" => {
                let n = num("threads")?;
                if n == 0 || n > MAX_THREADS as u64 {
                    return Err(format!("threads must be 1..{MAX_THREADS}"));
                }
                self.options.threads = n as usize;
            }
            "hash" => {
                let n = num("hash")?;
                if n == 0 || n > MAX_HASH_MIB as u64 {
                    return Err(format!("hash must be 1..{MAX_HASH_MIB} MiB"));
                }
                self.options.hash_mib = n as usize;
                let ready = self.game.hash_ready();
                self.game.set_hash_mib(n as usize);
                if ready {
                    self.game.prepare_hash();
                }
            }
            "seed" => self.options.seed = num("seed")?,
            "moveoverhead" => self.options.move_overhead = num("move_overhead")?.min(60_000),
            "ucivariant" | "variant" | "game" => return self.set_game(value.trim()),
            "clearhash" => self.game.clear_hash(),
            _ => return self.set_game_option(name, value),
        }
        Ok(())
    }

    fn set_game_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let lname = name.to_ascii_lowercase();
        let known_here = self
            .game
            .set_option(&lname, value)
            .map_err(|e| e.to_string())?;
        if !known_here && !Self::any_game_knows(&lname) {
            return Err(format!("unknown option '{name}'"));
        }
        if !known_here {
            // Another game's option: check the value now so the error comes at once.
            for g in GAME_NAMES {
                if let Some(mut other) = engine::new_game(g) {
                    if other.set_option(&lname, value).map_err(|e| e.to_string())? {
                        break;
                    }
                }
            }
        }
        self.game_options.retain(|(n, _)| *n != lname);
        self.game_options.push((lname, value.to_string()));
        Ok(())
    }

    fn any_game_knows(name: &str) -> bool {
        GAME_NAMES.iter().any(|g| {
            engine::new_game(g).is_some_and(|game| game.options().iter().any(|(n, _)| *n == name))
        })
    }

    /// Every option with its current value (engine options, then the current game's).
    pub fn option_list(&self) -> Vec<(String, String)> {
        let o = &self.options;
        let opt = |v: Option<u64>| v.map_or("0".to_string(), |v| v.to_string());
        let mut out = vec![
            ("movetime".to_string(), opt(o.movetime)),
            ("depth".to_string(), opt(o.depth.map(u64::from))),
            ("nodes".to_string(), opt(o.nodes)),
            ("threads".to_string(), o.threads.to_string()),
            ("hash".to_string(), o.hash_mib.to_string()),
            ("seed".to_string(), o.seed.to_string()),
            ("move_overhead".to_string(), o.move_overhead.to_string()),
        ];
        for (n, v) in self.game.options() {
            out.push((n.to_string(), v));
        }
        out
    }

    pub fn parse_bool(v: &str) -> Option<bool> {
        parse_bool(v)
    }

    // ------------------------------------------------------------ clocks

    pub fn time_settings(&mut self, main: f64, byo: f64, stones: u32) {
        let (main, byo) = (ms(main), ms(byo));
        // GTP: byo-yomi time with zero stones means no time limit.
        let active = !(byo > 0 && stones == 0) && (main > 0 || byo > 0);
        self.time = GtpTime {
            main,
            byo,
            stones,
            active,
            left: [None, None],
        };
    }

    pub fn time_left(&mut self, side: &str, time: f64, stones: u32) -> Result<(), String> {
        let s = self.side(side)?;
        self.time.left[s.index()] = Some((ms(time), stones));
        self.time.active = true;
        Ok(())
    }

    /// Limits for GTP `genmove`: options, then the GTP clock, else about a second.
    pub fn genmove_limits(&self) -> Limits {
        let side = self.game.side_to_move();
        let mut limits = Limits {
            depth: self.options.depth,
            nodes: self.options.nodes,
            movetime: self.options.movetime,
            ..Limits::default()
        };
        if self.time.active {
            let per_stone = if self.time.stones > 0 {
                self.time.byo / u64::from(self.time.stones)
            } else {
                0
            };
            limits.clock = Some(match self.time.left[side.index()] {
                Some((left, stones)) if stones > 0 => Clock {
                    remaining: left,
                    increment: 0,
                    movestogo: Some(stones),
                },
                Some((left, _)) => Clock {
                    remaining: left,
                    increment: per_stone,
                    movestogo: None,
                },
                None => Clock {
                    remaining: self.time.main,
                    increment: per_stone,
                    movestogo: None,
                },
            });
        }
        if limits == Limits::default() {
            limits.movetime = Some(DEFAULT_MOVETIME_MS);
        }
        limits
    }

    /// The white/black clock names of UGI map to the sides named so (Phutball: red = white).
    pub fn white_side(&self) -> Side {
        match self.game.side_names() {
            [_, "white"] => Side::P2,
            _ => Side::P1,
        }
    }

    // ------------------------------------------------------------ search

    pub fn searching(&self) -> bool {
        self.stop.is_some()
    }

    /// Whether a search runs that only `stop` (or the end of input) ends.
    pub fn searching_unbounded(&self) -> bool {
        self.searching() && self.unbounded
    }

    /// The stop flag of a new search or perft; under a work cap, also set when its time is up.
    fn new_stop_flag(&self) -> Result<Arc<AtomicBool>, std::io::Error> {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(cap) = self.cap {
            let flag = Arc::clone(&stop);
            thread::Builder::new()
                .name("work-cap".into())
                .spawn(move || {
                    thread::sleep(Duration::from_millis(cap.millis));
                    flag.store(true, Ordering::Relaxed);
                })?;
        }
        Ok(stop)
    }

    /// Starts a search on its own thread; events go to `sink`. With `infinite`, the result is
    /// held back until [`Session::stop_search`] (UCI rule).
    pub fn start_search(
        &mut self,
        limits: Limits,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        report_caught_panics_briefly();
        let mut limits = limits;
        if let Some(cap) = self.cap {
            limits.nodes = Some(limits.nodes.map_or(cap.nodes, |n| n.min(cap.nodes)));
            limits.infinite = false;
        }
        let stop = self.new_stop_flag()?;
        let params = Params {
            limits,
            move_overhead_ms: self.options.move_overhead,
            started: self.command_start.take(),
        };
        let info_sink = Arc::clone(&sink);
        let job = self.game.search_job(
            params,
            Arc::clone(&stop),
            Box::new(move |i| info_sink(SearchEvent::Info(i))),
        );
        let flag = Arc::clone(&stop);
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                // A bug in a search must cost that answer, never the engine: without this the
                // front end would wait for `Done` for ever.
                let report = catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|panic| {
                    let why = panic_text(&panic);
                    log::error!("search failed: {why}");
                    SearchReport {
                        error: Some(format!("internal error: search failed: {why}")),
                        best: None,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        pv: Vec::new(),
                    }
                });
                if limits.infinite {
                    while !flag.load(Ordering::Relaxed) {
                        thread::sleep(Duration::from_millis(1));
                    }
                }
                sink(SearchEvent::Done(report));
            })?;
        self.stop = Some(stop);
        self.unbounded = limits.infinite;
        Ok(())
    }

    /// Starts a perft on the search thread, so that it can be stopped like a search (`quit`,
    /// end of input); the count goes to `sink`.
    pub fn start_perft(
        &mut self,
        depth: u32,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        report_caught_panics_briefly();
        let depth = self.cap.map_or(depth, |cap| depth.min(cap.perft_depth));
        let stop = self.new_stop_flag()?;
        let job = self.game.perft_job(depth, Arc::clone(&stop));
        thread::Builder::new().name("perft".into()).spawn(move || {
            let count = match catch_unwind(AssertUnwindSafe(job)) {
                Ok(Ok(n)) => Ok(n),
                Ok(Err(PerftStop::Stopped)) => Err("perft interrupted".to_string()),
                Ok(Err(PerftStop::TooManyMoves)) => Err(format!(
                    "too many moves to count (a position has more than {PERFT_MOVE_CAP})"
                )),
                Err(panic) => {
                    let why = panic_text(&panic);
                    log::error!("perft failed: {why}");
                    Err(format!("internal error: perft failed: {why}"))
                }
            };
            sink(SearchEvent::PerftDone(count))
        })?;
        self.stop = Some(stop);
        self.unbounded = false;
        Ok(())
    }

    pub fn stop_search(&self) {
        if let Some(s) = &self.stop {
            s.store(true, Ordering::Relaxed);
        }
    }

    /// Called when the search thread has reported `Done`.
    pub fn search_finished(&mut self) {
        self.stop = None;
        self.unbounded = false;
    }
}

/// A panic in a search or perft thread is caught and answered as an error, so the default hook's
/// message (and, with `RUST_BACKTRACE` set, a slow backtrace) on stderr says nothing more: it is
/// logged in one line instead. Panics elsewhere still go to the previous hook.
fn report_caught_panics_briefly() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| match thread::current().name() {
            Some(name @ ("search" | "perft")) => log::error!("{name} thread: {info}"),
            _ => previous(info),
        }));
    });
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::mpsc;

    use super::*;
    use crate::games::{Game, Outcome};
    use crate::protocol::{self, Dialect};

    /// A one-pile Nim whose search and perft hooks panic, standing in for any bug there.
    #[derive(Clone)]
    struct Faulty;

    impl Game for Faulty {
        type Pos = u32;
        type Move = u32;
        fn name(&self) -> &'static str {
            "faulty"
        }
        fn side_names(&self) -> [&'static str; 2] {
            ["first", "second"]
        }
        fn start(&self) -> u32 {
            9
        }
        fn side_to_move(&self, pos: &u32) -> Side {
            if pos % 2 == 1 {
                Side::P1
            } else {
                Side::P2
            }
        }
        fn legal_moves(&self, pos: &u32, out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|&n| n <= *pos));
        }
        fn make(&self, pos: &u32, mv: u32) -> u32 {
            pos - mv
        }
        fn hash(&self, pos: &u32) -> u64 {
            u64::from(*pos)
        }
        fn terminal(&self, _pos: &u32) -> Option<Terminal> {
            None
        }
        fn no_moves(&self, _pos: &u32) -> Terminal {
            Terminal::new(Outcome::Draw, "no-moves")
        }
        fn format_move(&self, _pos: &u32, mv: u32) -> String {
            mv.to_string()
        }
        fn parse_move(&self, _pos: &u32, text: &str) -> Result<u32, RuleError> {
            text.parse()
                .map_err(|_| RuleError::Syntax(text.to_string()))
        }
        fn format_position(&self, pos: &u32) -> String {
            pos.to_string()
        }
        fn parse_position(&self, text: &str) -> Result<u32, RuleError> {
            text.parse()
                .map_err(|_| RuleError::InvalidPosition(text.to_string()))
        }
        fn render(&self, pos: &u32) -> String {
            pos.to_string()
        }
        fn evaluate(&self, _pos: &u32) -> i32 {
            0
        }
        fn root_moves(&self, _pos: &u32, _out: &mut Vec<u32>) {
            panic!("root_moves bug");
        }
        fn perft_moves_upto(&self, _pos: &u32, _cap: usize, _out: &mut Vec<u32>) -> bool {
            panic!("perft_moves_upto bug");
        }
    }

    impl crate::render::Draw for Faulty {}

    fn run(dialect: Dialect, input: &'static str) -> String {
        let session = Session {
            game: Box::new(engine::GameState::new(Faulty)),
            ..Session::new()
        };
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut out = Vec::new();
            protocol::run(session, Some(dialect), Cursor::new(input), &mut out);
            let _ = tx.send(String::from_utf8_lossy(&out).to_string());
        });
        rx.recv_timeout(Duration::from_secs(20))
            .expect("the engine must answer after a search panicked")
    }

    #[test]
    fn a_panicking_search_or_perft_answers_an_error_and_the_engine_goes_on() {
        // End of input right after the commands cuts nothing short: each is answered.
        let out = run(Dialect::Gtp, "1 genmove\n2 perft 3\n3 name\n");
        assert!(
            out.starts_with("?1 internal error: search failed: root_moves bug\n\n"),
            "{out}"
        );
        assert!(
            out.contains("?2 internal error: perft failed: perft_moves_upto bug\n\n"),
            "{out}"
        );
        assert!(out.ends_with("=3 tetrad\n\n"), "{out}");

        let out = run(Dialect::Ugi, "go depth 3\nisready\n");
        // `isready` is answered at once, also while the search runs.
        assert_eq!(
            out.replace("readyok\n", ""),
            "info string error: internal error: search failed: root_moves bug\n\
             bestmove (none)\n"
        );
        assert!(out.contains("readyok\n"));
    }
}
