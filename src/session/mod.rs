//! The session: the current game (position and history), the engine options, the clocks, and
//! the one running search. It decides what every command does; front ends only translate text.

mod egdb;
mod last_search;
mod load;
mod options;
mod record;
mod worker;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use egdb::{EgdbFailure, DEFAULT_EGDB_MIB, MAX_EGDB_MIB};
pub use last_search::LastSearch;
pub use options::{Caps, EngineOption, OptionInfo, Options, ENGINE_OPTIONS};
pub use options::{MAX_DEPTH, MAX_HASH_MIB, MAX_MOVETIME, MAX_MOVE_OVERHEAD, MAX_MULTIPV};
pub use options::{MAX_NODES, MAX_SEED, MAX_THREADS};
pub use record::Record;
pub use worker::{EventSink, PerftError, SearchEvent};

use crate::engine::{self, AnyGame};
use crate::games::UnknownGame;
use crate::games::{parse_side, MoveInput, RuleError, Side, Terminal};
use crate::options::OptionError;
use crate::registry::Registry;
use crate::render::Picture;
use crate::search::{AllocError, Limits, Params};
use worker::{Control, Worker};

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
    /// A tag `game_record` writes from the game itself.
    #[error("game_record: the tag {0} is written from the game, not given")]
    RecordTag(String),
    /// A `mark_N` or `comment_N` field of `game_record` that cannot be written.
    #[error("game_record: {0}")]
    RecordAnnotation(String),
    /// A record `load_record` cannot set up: malformed, or a move that is not legal.
    #[error("load_record: {0}")]
    LoadRecord(String),
    #[error("cannot start search: {0}")]
    Thread(#[from] std::io::Error),
    /// The hash table could not be had at the size asked; the engine has one of `kept` MiB.
    #[error("{failed}; the hash table is {kept} MiB")]
    Hash { failed: AllocError, kept: usize },
    #[error(transparent)]
    Egdb(#[from] EgdbFailure),
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

/// A game option the user set, as the session keeps it to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SetOption {
    /// The game it was set in, for a game's own option ([`crate::options::GameOption::own`]);
    /// `None`: it serves every game that has it.
    game: Option<&'static str>,
    name: String,
    value: String,
}

pub struct Session {
    /// The games there are to select.
    registry: Arc<Registry>,
    game: Box<dyn AnyGame>,
    pub options: Options,
    /// Ceilings on every command's work that no command lifts (none in the binary).
    pub caps: Caps,
    /// How long the work read before the end of input may still run after it (`None`: as long
    /// as it takes); then every search and perft is cut short ([`Session::cut_short`]).
    pub after_eof: Option<Duration>,
    /// The time after the end of input is up: every search and perft from now on stops at once.
    cut: bool,
    /// Game-specific options the user set, replayed when a game that has them is selected.
    game_options: Vec<SetOption>,
    /// Counts new games (`set_game`, `new_game`), so that a front end can tell that state it
    /// keeps about the game in progress (GTP's clocks) belongs to an earlier game.
    serial: u64,
    worker: Worker,
    /// The running search's or perft's flags; `None` when none runs.
    running: Option<Control>,
    /// Whether the running search has no limit of its own (`go infinite`): only such a search is
    /// stopped by the end of input.
    unbounded: bool,
    /// When the command being carried out began (its line was read, or the command before it
    /// ended): a move time runs from then.
    command_start: Option<Instant>,
    /// The endgame database options and what they opened.
    endgames: egdb::Endgames,
    /// The last finished search, while the position is the one it left ([`LastSearch`]).
    last_search: Option<LastSearch>,
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
            game: registry.kinds()[0].new_state(),
            registry,
            options: Options::default(),
            caps: Caps::default(),
            after_eof: None,
            cut: false,
            game_options: Vec::new(),
            serial: 0,
            worker: Worker::default(),
            running: None,
            unbounded: false,
            command_start: None,
            endgames: egdb::Endgames::default(),
            last_search: None,
        }
    }

    /// Stops the running search or perft (which answers what it has), and caps every later one
    /// at a millisecond: the time allowed after the end of input is up.
    pub fn cut_short(&mut self) {
        self.cut = true;
        self.stop_search();
    }

    /// The session with `caps` on every command's work.
    pub fn with_caps(mut self, caps: Caps) -> Session {
        self.caps = caps;
        self.worker.sequential = caps.sequential;
        self.game
            .set_hash_kib(self.table_kib(self.options.hash_mib));
        for &(name, max) in caps.game_options {
            let value = max.to_string();
            // Replayed on every game switch, like an option the user set.
            let _ = self.game.set_option(name, &value);
            self.game_options.push(SetOption {
                game: None,
                name: name.to_string(),
                value,
            });
        }
        self
    }

    /// Allocates (zeroed) the current game's hash table if it is not yet, so that no search
    /// pays for it on its clock. Called at start-up and by `isready`; from then on a new size
    /// (`hash`) is allocated as soon as it is set. When the memory cannot be had, the table is
    /// the largest size that fits (halving), and the error says which.
    pub fn prepare(&mut self) -> Result<(), SessionError> {
        let failed = match self.game.prepare_hash() {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let kept = self.fallback_hash(self.options.hash_mib / 2);
        Err(SessionError::Hash { failed, kept })
    }

    /// Allocates the largest table of at most `mib` MiB (halving) that fits, and makes it the
    /// `hash` option's value; 0 when not even 1 MiB does (searches then go without one).
    fn fallback_hash(&mut self, mut mib: usize) -> usize {
        while mib >= 1 {
            self.game.set_hash_kib(self.table_kib(mib));
            if self.game.prepare_hash().is_ok() {
                self.options.hash_mib = mib;
                return mib;
            }
            mib /= 2;
        }
        self.options.hash_mib = 1;
        0
    }

    /// Marks the moment the next command began, for the move time of a search it starts.
    pub fn begin_command(&mut self, at: Instant) {
        self.command_start = Some(at);
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
        let game = self.fresh_game(name)?;
        self.install(game);
        Ok(())
    }

    /// A game of `name` at its start, under the game options set: not yet the session's.
    fn fresh_game(&self, name: &str) -> Result<Box<dyn AnyGame>, SessionError> {
        let mut game = self.registry.find(name)?.new_state();
        let name = game.name();
        // Options of other games are kept for when those games come back; a game's own ones
        // (`eval`) only for the game they were set in.
        for o in self
            .game_options
            .iter()
            .filter(|o| o.game.is_none_or(|g| g == name))
        {
            let _ = game.set_option(&o.name, &o.value);
        }
        // From the start position under those options (Pods' rotation).
        game.new_game();
        Ok(game)
    }

    /// Makes `game` the session's game: a new game as far as the front ends can tell.
    fn install(&mut self, mut game: Box<dyn AnyGame>) {
        // The one table goes on to the new game, emptied: nothing is allocated, so a switch
        // neither doubles the memory nor fails for want of it.
        let mut table = self.game.take_table();
        table.clear();
        game.put_table(table);
        self.game = game;
        self.give_oracle();
        self.serial += 1;
    }

    pub fn new_game(&mut self) {
        self.game.new_game();
        self.game.clear_hash();
        self.serial += 1;
    }

    /// A new table size. The old table is freed first, so the two never overlap; if the new
    /// one cannot be had, the setting is refused and the engine has the old size back (emptied),
    /// or the largest size below it that fits.
    fn set_hash(&mut self, mib: usize) -> Result<(), SessionError> {
        let old = self.options.hash_mib;
        let ready = self.game.hash_ready();
        // The fuzz target's caps bound the table whatever the option says.
        self.game.set_hash_kib(self.table_kib(mib));
        if !ready {
            self.options.hash_mib = mib;
            return Ok(());
        }
        match self.game.prepare_hash() {
            Ok(()) => {
                self.options.hash_mib = mib;
                Ok(())
            }
            Err(failed) => {
                let kept = self.fallback_hash(old.min(mib / 2).max(1));
                Err(SessionError::Hash { failed, kept })
            }
        }
    }

    // ------------------------------------------------------------ the position

    /// The position string of the current position.
    pub fn position(&self) -> String {
        self.game.position()
    }

    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// The current game's name for each side, first player first.
    pub fn side_names(&self) -> [&'static str; 2] {
        self.game.side_names()
    }

    pub fn side(&self, text: &str) -> Result<Side, SessionError> {
        parse_side(self.game.side_names(), text)
            .ok_or_else(|| SessionError::InvalidSide(text.to_string()))
    }

    pub fn side_name(&self, side: Side) -> &'static str {
        self.game.side_names()[side.index()]
    }

    /// Whether `text` reads as a move in the current position (legal or not), as opposed to
    /// text that is no move at all.
    pub fn is_move_text(&self, text: &str) -> bool {
        !matches!(self.game.check_move(text), Err(RuleError::Syntax(..)))
    }

    /// Canonical notation of every legal move, sorted; `None` when there are more than
    /// [`MAX_LISTED_MOVES`].
    pub fn legal_moves(&self) -> Option<Vec<String>> {
        self.game.legal_moves_upto(MAX_LISTED_MOVES)
    }

    /// Every legal move with how a person enters it (`legal_moves_json`); `None` when there are
    /// more than [`MAX_LISTED_MOVES`].
    pub fn legal_move_inputs(&self) -> Option<Vec<(String, MoveInput)>> {
        self.game.legal_move_inputs_upto(MAX_LISTED_MOVES)
    }

    /// The text diagram of the position.
    pub fn render(&self) -> String {
        self.game.render()
    }

    /// The position as a picture (`showboard svg`, `board_layout`, `tetrad render`).
    pub fn picture(&self) -> Picture {
        self.game.picture()
    }

    /// The pieces in hand, as their buttons draw them (`hand_svg`).
    pub fn hand(&self) -> Vec<crate::render::HandPiece> {
        self.game.hand()
    }

    /// The static evaluation (side to move's view) and its terms, if the game lists them.
    pub fn evaluation(&self) -> (i32, Vec<(&'static str, i32)>) {
        self.game.evaluation()
    }

    /// How the game ended, `None` while it goes on.
    pub fn result(&self) -> Option<Terminal> {
        self.game.result()
    }

    /// The protocol word for the result: `ongoing`, `draw` or the winner's side name.
    pub fn result_word(&self) -> &'static str {
        engine::result_word(self.game.side_names(), self.game.result())
    }

    /// When the command names a side, it must be the side to move.
    fn check_side(&self, side: Option<Side>) -> Result<(), SessionError> {
        let to_move = self.game.side_to_move();
        match side {
            Some(s) if s != to_move => Err(SessionError::NotYourTurn(self.side_name(to_move))),
            _ => Ok(()),
        }
    }

    // ------------------------------------------------------------ search

    /// Starts a search for the side to move (`side`, if given, must be it), refused when the
    /// game is over; the limits are [`Session::capped`]. Events go to `sink`; the result of an
    /// `infinite` or pondering search is held back until [`Session::stop_search`] (UCI rule),
    /// or, pondering, until [`Session::ponder_hit`] (then at once if it has ended already).
    pub fn search(
        &mut self,
        side: Option<&str>,
        limits: Limits,
        mode: SearchMode,
        sink: EventSink,
    ) -> Result<(), SessionError> {
        if self.game.result().is_some() {
            return Err(RuleError::GameOver.into());
        }
        let side = side.map(|s| self.side(s)).transpose()?;
        self.check_side(side)?;
        let limits = self.capped(limits);
        // Once cut short nothing waits for `ponderhit`.
        let control = Control::new(mode.ponder && !self.cut);
        let params = Params {
            limits,
            move_overhead_ms: self.options.move_overhead,
            started: self.command_start.take(),
            seed: self.options.seed,
            threads: self.search_threads(),
            multipv: self.search_lines(mode.multipv),
            ponder: control.ponder.clone(),
        };
        let info_sink = Arc::clone(&sink);
        let job = self.game.search_job(
            params,
            Arc::clone(&control.stop),
            Box::new(move |i| info_sink(SearchEvent::Info(i))),
        );
        self.worker
            .search(job, control.clone(), limits.infinite, sink)?;
        self.running = Some(control);
        self.unbounded = limits.infinite;
        Ok(())
    }

    /// Starts a perft on the search worker, so that it can be stopped like a search (`quit`,
    /// end of input); the count goes to `sink`.
    pub fn start_perft(&mut self, depth: u32, sink: EventSink) -> Result<(), std::io::Error> {
        let (depth, control) = self.perft_setup(depth);
        let job = self.game.perft_job(depth, Arc::clone(&control.stop));
        self.worker.perft(job, SearchEvent::PerftDone, sink)?;
        self.perft_started(control);
        Ok(())
    }

    /// [`Session::start_perft`] split by root move (UGI `go perft`).
    pub fn start_divide(&mut self, depth: u32, sink: EventSink) -> Result<(), std::io::Error> {
        let (depth, control) = self.perft_setup(depth);
        let job = self.game.divide_job(depth, Arc::clone(&control.stop));
        self.worker.perft(job, SearchEvent::DivideDone, sink)?;
        self.perft_started(control);
        Ok(())
    }

    /// The depth a perft may go to and its flags, under the caps.
    fn perft_setup(&self, depth: u32) -> (u32, Control) {
        let depth = self.caps.perft_depth.map_or(depth, |cap| depth.min(cap));
        let control = Control::new(false);
        if self.cut {
            control.stop.store(true, Ordering::Relaxed);
        }
        (depth, control)
    }

    fn perft_started(&mut self, control: Control) {
        self.running = Some(control);
        self.unbounded = false;
    }

    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Whether a search runs that only `stop` (or the end of input) ends.
    pub fn searching_unbounded(&self) -> bool {
        self.searching() && (self.unbounded || self.pondering())
    }

    /// Whether the running search ponders (`go ponder` and no `ponderhit` yet).
    pub fn pondering(&self) -> bool {
        self.running.as_ref().is_some_and(Control::pondering)
    }

    /// `ponderhit`: the pondering search goes on as a normal one, its clock counted from its
    /// `go ponder`. Nothing happens when no search ponders.
    pub fn ponder_hit(&self) {
        if let Some(c) = &self.running {
            c.ponder_hit();
            self.worker.release();
        }
    }

    pub fn stop_search(&self) {
        if let Some(c) = &self.running {
            c.stop();
            self.worker.release();
        }
    }

    /// Called when the worker has reported the search's or perft's end.
    pub fn search_finished(&mut self) {
        self.running = None;
        self.unbounded = false;
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

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

    #[test]
    fn a_found_move_is_played_as_found_and_only_where_it_was_found() {
        let mut s = Session::new();
        let (tx, rx) = mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let sink: EventSink = Arc::new(move |e| {
            if let (SearchEvent::Done(r), Ok(tx)) = (e, tx.lock()) {
                let _ = tx.send(r);
            }
        });
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        s.search(None, limits, SearchMode::default(), sink)
            .expect("search starts");
        let report = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("search ends");
        s.search_finished();
        let found = report.found.expect("a move found");
        let best = report.best.expect("its notation");
        // Elsewhere (one move later) the move is refused, whatever its notation reads there.
        s.play(None, &best).expect("the found move is legal");
        assert!(s.play_found(&found).is_err());
        assert!(s.undo());
        assert_eq!(s.play_found(&found).expect("played"), best);
        assert_eq!(s.position(), {
            let mut t = Session::new();
            t.play(None, &best).expect("legal");
            t.position()
        });
    }
}
