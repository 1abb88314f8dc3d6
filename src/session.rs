//! The session: the current game (position and history), the engine options, the clocks, and
//! the one running search. It decides what every command does; front ends only translate text.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::thread;
use std::time::{Duration, Instant};

use crate::engine::{self, AnyGame, InfoReport, SearchFailed, SearchReport};
use crate::games::{parse_side, PerftStop, RuleError, Side, Terminal, PERFT_MOVE_CAP};
use crate::games::{GameKind, UnknownGame};
use crate::options::{self, Kind, OptionError, Value};
use crate::registry::Registry;
use crate::search::{Limits, Params};

/// Engine options shared by every game (`set_option` / `setoption`), as the table
/// [`ENGINE_OPTIONS`] sets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub hash_mib: usize,
    pub seed: u64,
    pub move_overhead: u64,
    pub ponder: bool,
    pub multipv: usize,
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
            ponder: false,
            multipv: 1,
        }
    }
}

pub const MAX_HASH_MIB: usize = 4096;
pub const MAX_THREADS: usize = crate::search::alphabeta::MAX_THREADS;
/// Lines a MultiPV search may be asked for (fewer when the root has fewer moves).
pub const MAX_MULTIPV: usize = 256;
/// Spin bounds are kept within 32-bit integers, which is how GUIs read them.
pub const MAX_SEED: u64 = 2_147_483_647;
pub const MAX_NODES: u64 = 2_147_483_647;
pub const MAX_DEPTH: u64 = 100;
/// A day, in milliseconds.
pub const MAX_MOVETIME: u64 = 86_400_000;
pub const MAX_MOVE_OVERHEAD: u64 = 60_000;
/// `legal_moves` refuses to list more moves than this (dense Phutball positions have tens of
/// millions: gigabytes of text).
pub const MAX_LISTED_MOVES: usize = 1_000_000;

/// What went wrong with a command, for the front ends to put in their dialect's words.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error(transparent)]
    UnknownGame(#[from] UnknownGame),
    #[error("invalid side '{0}'")]
    InvalidSide(String),
    #[error("illegal move: it is {0}'s turn")]
    NotYourTurn(&'static str),
    #[error("cannot start search: {0}")]
    Thread(#[from] std::io::Error),
}

/// One engine option: its names, type, default and how it is read and applied. Every option is
/// declared here once; setting, GTP `list_options` and the UGI `option` lines come from this.
pub struct EngineOption {
    /// GTP name (lower case with `_`).
    pub gtp: &'static str,
    /// UGI name.
    pub ugi: &'static str,
    /// More names that select the option.
    pub aliases: &'static [&'static str],
    /// Values that stand for another (`pods` for `pods-standard`).
    pub value_aliases: &'static [(&'static str, &'static str)],
    pub kind: Kind,
    pub default: &'static str,
    pub help: &'static str,
    get: fn(&Session) -> String,
    set: fn(&mut Session, Value) -> Result<(), SessionError>,
}

fn limit_text(v: Option<u64>) -> String {
    v.unwrap_or(0).to_string()
}

fn limit(v: &Value) -> Option<u64> {
    Some(v.int()).filter(|&n| n > 0)
}

pub static ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        gtp: "game",
        ugi: "UCI_Variant",
        aliases: &["variant"],
        value_aliases: GameKind::ALIASES,
        kind: Kind::Combo(GameKind::NAMES),
        default: "poddavki",
        help: "the game; selecting it starts a new game",
        get: |s| s.game.name().to_string(),
        set: |s, v| s.set_game(&v.text()),
    },
    EngineOption {
        gtp: "threads",
        ugi: "Threads",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        default: "1",
        help: "search threads",
        get: |s| s.options.threads.to_string(),
        set: |s, v| {
            s.options.threads = v.int() as usize;
            Ok(())
        },
    },
    EngineOption {
        gtp: "hash",
        ugi: "Hash",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MIB as u64,
        },
        default: "16",
        help: "transposition table size in MiB",
        get: |s| s.options.hash_mib.to_string(),
        set: |s, v| {
            s.set_hash(v.int() as usize);
            Ok(())
        },
    },
    EngineOption {
        gtp: "multipv",
        ugi: "MultiPV",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV as u64,
        },
        default: "1",
        help: "best root moves searched and reported, each with its score and PV",
        get: |s| s.options.multipv.to_string(),
        set: |s, v| {
            s.options.multipv = v.int() as usize;
            Ok(())
        },
    },
    EngineOption {
        gtp: "seed",
        ugi: "Seed",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_SEED,
        },
        default: "0",
        help: "order of root moves of equal merit (0: the game's own order)",
        get: |s| s.options.seed.to_string(),
        set: |s, v| {
            s.options.seed = v.int();
            Ok(())
        },
    },
    EngineOption {
        gtp: "move_overhead",
        ugi: "MoveOverhead",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD,
        },
        default: "50",
        help: "milliseconds kept in hand on every clock",
        get: |s| s.options.move_overhead.to_string(),
        set: |s, v| {
            s.options.move_overhead = v.int();
            Ok(())
        },
    },
    EngineOption {
        gtp: "ponder",
        ugi: "Ponder",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Check,
        default: "false",
        help: "UGI: bestmove names the expected reply (bestmove M ponder P)",
        get: |s| s.options.ponder.to_string(),
        set: |s, v| {
            s.options.ponder = v.bool();
            Ok(())
        },
    },
    EngineOption {
        gtp: "movetime",
        ugi: "MoveTime",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_MOVETIME },
        default: "0",
        help: "cap on every search, milliseconds (0: off)",
        get: |s| limit_text(s.options.movetime),
        set: |s, v| {
            s.options.movetime = limit(&v);
            Ok(())
        },
    },
    EngineOption {
        gtp: "depth",
        ugi: "Depth",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_DEPTH },
        default: "0",
        help: "cap on every search, plies (0: off)",
        get: |s| limit_text(s.options.depth.map(u64::from)),
        set: |s, v| {
            s.options.depth = limit(&v).map(|d| d as u32);
            Ok(())
        },
    },
    EngineOption {
        gtp: "nodes",
        ugi: "Nodes",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_NODES },
        default: "0",
        help: "cap on every search, nodes (0: off)",
        get: |s| limit_text(s.options.nodes),
        set: |s, v| {
            s.options.nodes = limit(&v);
            Ok(())
        },
    },
    EngineOption {
        gtp: "clear_hash",
        ugi: "Clear Hash",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Button,
        default: "",
        help: "empties the transposition table",
        get: |_| String::new(),
        set: |s, _| {
            s.game.clear_hash();
            Ok(())
        },
    },
];

/// An option as the front ends list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub gtp: &'static str,
    pub ugi: &'static str,
    pub kind: Kind,
    pub value: String,
    pub help: &'static str,
}

/// Messages from the search thread to the session loop.
#[derive(Debug)]
pub enum SearchEvent {
    Info(InfoReport),
    Done(SearchReport),
    /// A perft has ended: its count, or why there is none (stopped, or it failed).
    PerftDone(Result<u64, PerftError>),
    /// A perft split by root move (UGI `go perft`) has ended.
    DivideDone(Result<Vec<(String, u64)>, PerftError>),
}

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

/// How a search is to be carried out, beyond its limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchMode {
    /// Best root moves to search (MultiPV); `None`: the `multipv` option.
    pub multipv: Option<usize>,
    /// `go ponder`: no time limit until [`Session::ponder_hit`]; the limits' clock counts from
    /// the start of the command all the same.
    pub ponder: bool,
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
    /// The games there are to select.
    registry: Arc<Registry>,
    game: Box<dyn AnyGame>,
    pub options: Options,
    /// Game-specific options the user set, replayed when another game is selected.
    game_options: Vec<(String, String)>,
    /// Counts new games (`set_game`, `new_game`), so that a front end can tell that state it
    /// keeps about the game in progress (GTP's clocks) belongs to an earlier game.
    serial: u64,
    stop: Option<Arc<AtomicBool>>,
    /// Whether the running search has no limit of its own (`go infinite`): only such a search is
    /// stopped by the end of input.
    unbounded: bool,
    /// Set while the running search ponders (`go ponder` until `ponderhit`): it is unbounded
    /// until then.
    ponder: Option<Arc<AtomicBool>>,
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

fn min_limit<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session over the built-in games, at the start of the first (Poddavki).
    pub fn new() -> Session {
        Session::with_registry(Registry::builtin())
    }

    /// A session over `registry`'s games, at the start of its first.
    pub fn with_registry(registry: Arc<Registry>) -> Session {
        Session {
            game: registry.entries()[0].new_state(),
            registry,
            options: Options::default(),
            game_options: Vec::new(),
            serial: 0,
            stop: None,
            unbounded: false,
            ponder: None,
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

    /// The games there are, by canonical name (`list_games`).
    pub fn game_names(&self) -> &'static [&'static str] {
        self.registry.names()
    }

    /// Which game is in progress: changes with every `set_game` and `new_game`.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Selects a game (case-insensitive) and starts it from its start position. Unknown names
    /// change nothing.
    pub fn set_game(&mut self, name: &str) -> Result<(), SessionError> {
        let mut game = self.registry.find(name)?.new_state();
        for (n, v) in &self.game_options {
            // Options of other games are kept for when those games come back.
            let _ = game.set_option(n, v);
        }
        // From the start position under those options (Pods' rotation).
        game.new_game();
        game.set_hash_mib(self.options.hash_mib);
        if self.game.hash_ready() {
            game.prepare_hash();
        }
        self.game = game;
        self.serial += 1;
        Ok(())
    }

    pub fn new_game(&mut self) {
        self.game.new_game();
        self.game.clear_hash();
        self.serial += 1;
    }

    fn set_hash(&mut self, mib: usize) {
        self.options.hash_mib = mib;
        let ready = self.game.hash_ready();
        self.game.set_hash_mib(mib);
        if ready {
            self.game.prepare_hash();
        }
    }

    pub fn set_position(&mut self, text: &str) -> Result<(), RuleError> {
        self.game.set_position(text)
    }

    /// `position [fen POS] moves ...`: all or nothing.
    pub fn setup(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), RuleError> {
        self.game.setup(fen, moves)
    }

    pub fn side(&self, text: &str) -> Result<Side, SessionError> {
        parse_side(self.game.side_names(), text)
            .ok_or_else(|| SessionError::InvalidSide(text.to_string()))
    }

    pub fn side_name(&self, side: Side) -> &'static str {
        self.game.side_names()[side.index()]
    }

    /// The one check before a move is played or searched for: the game must still be on and,
    /// when the command names a side, it must be the side to move.
    pub fn check_turn(&self, side: Option<&str>) -> Result<(), SessionError> {
        if self.game.result().is_some() {
            return Err(RuleError::GameOver.into());
        }
        if let Some(s) = side {
            let s = self.side(s)?;
            let to_move = self.game.side_to_move();
            if s != to_move {
                return Err(SessionError::NotYourTurn(self.side_name(to_move)));
            }
        }
        Ok(())
    }

    pub fn play(&mut self, side: Option<&str>, mv: &str) -> Result<String, SessionError> {
        self.check_turn(side)?;
        Ok(self.game.play(mv)?)
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

    /// Sets an option by any of its names (see [`options::key`]): an engine option of
    /// [`ENGINE_OPTIONS`], else an option of any game. The value is checked against the
    /// option's type first.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), SessionError> {
        let k = options::key(name);
        let found = ENGINE_OPTIONS.iter().find(|o| {
            options::key(o.gtp) == k
                || options::key(o.ugi) == k
                || o.aliases.iter().any(|a| options::key(a) == k)
        });
        let Some(o) = found else {
            return self.set_game_option(name, value);
        };
        let value = value.trim();
        let (kind, value_aliases) = self.kind_of(o);
        let value = value_aliases
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(value))
            .map_or(value, |(_, canonical)| canonical);
        // Errors name the option as the user did: `UCI_Variant` in UGI, `game` in GTP.
        let v = kind.parse(name.trim(), value)?;
        (o.set)(self, v)
    }

    /// An option's type and value aliases; the `game` option's choices are this session's
    /// games (its declaration names the built-in ones).
    fn kind_of(&self, o: &EngineOption) -> (Kind, &'static [(&'static str, &'static str)]) {
        if o.gtp == "game" {
            (Kind::Combo(self.registry.names()), self.registry.aliases())
        } else {
            (o.kind, o.value_aliases)
        }
    }

    fn set_game_option(&mut self, name: &str, value: &str) -> Result<(), SessionError> {
        let k = options::key(name);
        let decl = self
            .registry
            .option_decls()
            .iter()
            .find(|d| options::key(d.name) == k)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = decl.kind.parse(decl.name, value)?.text();
        let known_here = self.game.options().iter().any(|o| o.name == decl.name);
        if known_here {
            self.game.set_option(decl.name, &value)?;
        } else {
            // Another game's option: check the value now so the error comes at once.
            for entry in self.registry.entries() {
                if entry.new_state().set_option(decl.name, &value)? {
                    break;
                }
            }
        }
        self.game_options.retain(|(n, _)| *n != decl.name);
        self.game_options.push((decl.name.to_string(), value));
        Ok(())
    }

    /// Every option with its current value: the engine's, then every game's (the current game's
    /// value, else the one set for that game, else its default).
    pub fn option_list(&self) -> Vec<OptionInfo> {
        let mut out: Vec<OptionInfo> = ENGINE_OPTIONS
            .iter()
            .map(|o| OptionInfo {
                gtp: o.gtp,
                ugi: o.ugi,
                kind: self.kind_of(o).0,
                value: (o.get)(self),
                help: o.help,
            })
            .collect();
        let here = self.game.options();
        for d in self.registry.option_decls() {
            let value = here
                .iter()
                .find(|o| o.name == d.name)
                .map(|o| o.value.clone())
                .or_else(|| {
                    self.game_options
                        .iter()
                        .find(|(n, _)| n == d.name)
                        .map(|(_, v)| v.clone())
                })
                .unwrap_or_else(|| d.value.clone());
            out.push(OptionInfo {
                gtp: d.name,
                ugi: d.name,
                kind: d.kind,
                value,
                help: "game option",
            });
        }
        out
    }

    /// Whether an option caps every search (`movetime`, `depth`, `nodes`).
    pub fn has_search_caps(&self) -> bool {
        let o = &self.options;
        o.movetime.is_some() || o.depth.is_some() || o.nodes.is_some()
    }

    /// The limits of a search: those asked for, capped by the search-limit options (the smaller
    /// of each wins).
    pub fn capped(&self, limits: Limits) -> Limits {
        let o = &self.options;
        Limits {
            depth: min_limit(limits.depth, o.depth),
            nodes: min_limit(limits.nodes, o.nodes),
            movetime: min_limit(limits.movetime, o.movetime),
            ..limits
        }
    }

    /// Starts a search for the side to move (`side`, if given, must be it), refused when the
    /// game is over; the limits are [`Session::capped`].
    pub fn begin_search(
        &mut self,
        side: Option<&str>,
        limits: Limits,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), SessionError> {
        self.begin_search_as(side, limits, SearchMode::default(), sink)
    }

    /// [`Session::begin_search`] in another mode (MultiPV, pondering).
    pub fn begin_search_as(
        &mut self,
        side: Option<&str>,
        limits: Limits,
        mode: SearchMode,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), SessionError> {
        self.check_turn(side)?;
        let limits = self.capped(limits);
        Ok(self.start_search_as(limits, mode, sink)?)
    }

    // ------------------------------------------------------------ search

    pub fn searching(&self) -> bool {
        self.stop.is_some()
    }

    /// Whether a search runs that only `stop` (or the end of input) ends.
    pub fn searching_unbounded(&self) -> bool {
        self.searching() && (self.unbounded || self.pondering())
    }

    /// Whether the running search ponders (`go ponder` and no `ponderhit` yet).
    pub fn pondering(&self) -> bool {
        self.ponder
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// `ponderhit`: the pondering search goes on as a normal one, its clock counted from its
    /// `go ponder`. Nothing happens when no search ponders.
    pub fn ponder_hit(&self) {
        if let Some(p) = &self.ponder {
            p.store(false, Ordering::Relaxed);
        }
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
        self.start_search_as(limits, SearchMode::default(), sink)
    }

    /// [`Session::start_search`] in another mode. A pondering search, like an infinite one,
    /// holds its result back until it is stopped, or until `ponderhit` (then at once if it has
    /// ended already).
    pub fn start_search_as(
        &mut self,
        limits: Limits,
        mode: SearchMode,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        report_caught_panics_briefly();
        let mut limits = limits;
        if let Some(cap) = self.cap {
            limits.nodes = Some(limits.nodes.map_or(cap.nodes, |n| n.min(cap.nodes)));
            limits.infinite = false;
        }
        let stop = self.new_stop_flag()?;
        let ponder = mode.ponder.then(|| Arc::new(AtomicBool::new(true)));
        let params = Params {
            limits,
            move_overhead_ms: self.options.move_overhead,
            started: self.command_start.take(),
            seed: self.options.seed,
            threads: self.options.threads,
            multipv: mode.multipv.unwrap_or(self.options.multipv),
            ponder: ponder.clone(),
        };
        let info_sink = Arc::clone(&sink);
        let job = self.game.search_job(
            params,
            Arc::clone(&stop),
            Box::new(move |i| info_sink(SearchEvent::Info(i))),
        );
        let flag = Arc::clone(&stop);
        let pondering = ponder.clone();
        thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                // A bug in a search must cost that answer, never the engine: without this the
                // front end would wait for `Done` for ever.
                let report = catch_unwind(AssertUnwindSafe(job)).unwrap_or_else(|panic| {
                    let why = panic_text(&panic);
                    log::error!("search failed: {why}");
                    SearchReport {
                        error: Some(SearchFailed(why)),
                        best: None,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        pv: Vec::new(),
                        lines: Vec::new(),
                    }
                });
                let held = || {
                    limits.infinite
                        || pondering
                            .as_ref()
                            .is_some_and(|p| p.load(Ordering::Relaxed))
                };
                while held() && !flag.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(1));
                }
                sink(SearchEvent::Done(report));
            })?;
        self.stop = Some(stop);
        self.unbounded = limits.infinite;
        self.ponder = ponder;
        Ok(())
    }

    /// Starts a perft on the search thread, so that it can be stopped like a search (`quit`,
    /// end of input); the count goes to `sink`.
    pub fn start_perft(
        &mut self,
        depth: u32,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        let (depth, stop) = self.perft_setup(depth)?;
        let job = self.game.perft_job(depth, Arc::clone(&stop));
        self.spawn_perft(stop, job, SearchEvent::PerftDone, sink)
    }

    /// [`Session::start_perft`] split by root move (UGI `go perft`).
    pub fn start_divide(
        &mut self,
        depth: u32,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        let (depth, stop) = self.perft_setup(depth)?;
        let job = self.game.divide_job(depth, Arc::clone(&stop));
        self.spawn_perft(stop, job, SearchEvent::DivideDone, sink)
    }

    /// The depth a perft may go to (a work cap bounds it) and its stop flag.
    fn perft_setup(&self, depth: u32) -> Result<(u32, Arc<AtomicBool>), std::io::Error> {
        report_caught_panics_briefly();
        let depth = self.cap.map_or(depth, |cap| depth.min(cap.perft_depth));
        Ok((depth, self.new_stop_flag()?))
    }

    /// Runs a perft job on the search thread; its count (or why there is none) goes to `sink`.
    fn spawn_perft<T: 'static>(
        &mut self,
        stop: Arc<AtomicBool>,
        job: Box<dyn FnOnce() -> Result<T, PerftStop> + Send>,
        event: fn(Result<T, PerftError>) -> SearchEvent,
        sink: Arc<dyn Fn(SearchEvent) + Send + Sync>,
    ) -> Result<(), std::io::Error> {
        thread::Builder::new()
            .name("perft".into())
            .spawn(move || sink(event(perft_outcome(catch_unwind(AssertUnwindSafe(job))))))?;
        self.stop = Some(stop);
        self.unbounded = false;
        self.ponder = None;
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
        self.ponder = None;
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
    use crate::protocol::{self, Dialect};
    use crate::testkit::faulty::{Fault, Faulty};

    fn run(dialect: Dialect, input: &'static str) -> String {
        let session = Session {
            game: Box::new(engine::GameState::new(Faulty::new(
                Fault::RootMovesAndPerft,
            ))),
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
    fn the_option_table_declares_each_option_once_with_its_real_default() {
        let session = Session::new();
        let mut keys = Vec::new();
        for o in ENGINE_OPTIONS {
            assert_eq!((o.get)(&session), o.default, "{}", o.gtp);
            if o.kind != Kind::Button {
                assert_eq!(
                    o.kind.parse(o.gtp, o.default).map(|v| v.text()),
                    Ok(o.default.into())
                );
            }
            keys.extend([options::key(o.gtp), options::key(o.ugi)]);
            keys.extend(o.aliases.iter().map(|a| options::key(a)));
        }
        let decls = session.registry.option_decls();
        keys.extend(decls.iter().map(|d| options::key(d.name)));
        keys.sort();
        keys.dedup();
        // An option's GTP and UGI names may be one key; no two options may share a key.
        let per_option = ENGINE_OPTIONS
            .iter()
            .map(|o| {
                let mut k = vec![options::key(o.gtp), options::key(o.ugi)];
                k.dedup();
                k.len() + o.aliases.len()
            })
            .sum::<usize>()
            + decls.len();
        assert_eq!(keys.len(), per_option);
    }

    #[test]
    fn search_limit_options_cap_the_limits_asked_for() {
        let mut s = Session::new();
        s.set_option("depth", "3").expect("depth");
        s.set_option("Nodes", "5000").expect("nodes");
        let asked = Limits {
            depth: Some(9),
            movetime: Some(200),
            ..Limits::default()
        };
        let capped = s.capped(asked);
        assert_eq!(
            (capped.depth, capped.nodes, capped.movetime),
            (Some(3), Some(5000), Some(200))
        );
        s.set_option("depth", "off").expect("depth off");
        assert_eq!(s.capped(asked).depth, Some(9));
        assert!(s.has_search_caps());
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
            out.contains("?2 internal error: perft failed: perft bug\n\n"),
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
