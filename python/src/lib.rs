//! `tetrad._native`: the engine library seen from Python. Each method is one call into the
//! library's game seam (`tetrad::engine::AnyGame`); searches and batched steps run with the GIL
//! released. The pure-Python package (`python/tetrad`) re-exports these names.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use numpy::ndarray::IxDyn;
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use tetrad::engine::{result_word, AnyGame};
use tetrad::games::{Outcome, RuleError};
use tetrad::protocol::score::uci_score;
use tetrad::registry::Registry;
use tetrad::render;
use tetrad::search::{Limits, Params};

mod vecenv;
mod workers;
use vecenv::VecEnv;

create_exception!(
    _native,
    IllegalMove,
    PyValueError,
    "An illegal or malformed move, with the engine's reason; the state is unchanged."
);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn rule_error(e: RuleError) -> PyErr {
    match e {
        RuleError::InvalidPosition(_) | RuleError::Option(_) => value_error(e),
        _ => IllegalMove::new_err(e.to_string()),
    }
}

/// The game names `list_games` gives, in the registry's order.
#[pyfunction]
fn games() -> Vec<&'static str> {
    Registry::builtin().names().to_vec()
}

/// A Python value as the protocol's option text.
fn option_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.downcast::<pyo3::types::PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    Ok(value.str()?.to_string())
}

/// A new game of `name` with `options` set.
fn make_game(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Box<dyn AnyGame>> {
    let registry = Registry::builtin();
    let kind = registry.find(name).map_err(value_error)?;
    let mut state = kind.new_state();
    if let Some(options) = options {
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            let text = option_text(&value)?;
            let known = state.set_option(&key, &text).map_err(value_error)?;
            if !known {
                let names: Vec<String> =
                    state.options().iter().map(|o| o.name.to_string()).collect();
                return Err(value_error(format!(
                    "unknown option '{key}' for {} (options: {})",
                    kind.name(),
                    names.join(", ")
                )));
            }
        }
    }
    Ok(state)
}

/// A game with its options: makes states and batched environments.
#[pyclass(module = "tetrad._native")]
struct Game {
    template: Locked<Box<dyn AnyGame>>,
}

/// A pyclass must be `Sync`; the engine's games are `Send` only, so each sits behind a lock
/// (never contended: the GIL is held whenever one is taken).
struct Locked<T>(Mutex<T>);

impl<T> Locked<T> {
    fn new(value: T) -> Locked<T> {
        Locked(Mutex::new(value))
    }
    fn get(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (name, **options))]
    fn new(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
        Ok(Game {
            template: Locked::new(make_game(name, options)?),
        })
    }
    #[getter]
    fn name(&self) -> &'static str {
        self.template.get().name()
    }
    /// The side names, first mover first.
    #[getter]
    fn players(&self) -> [&'static str; 2] {
        self.template.get().side_names()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.template.get().action_space().actions()
    }
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [a, b, c] = self.template.get().observation_shape();
        (a, b, c)
    }
    /// The game's options and their current values, as the protocol lists them.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for o in self.template.get().options() {
            d.set_item(o.name, o.value.to_string())?;
        }
        Ok(d)
    }
    fn new_state(&self) -> State {
        let mut inner = self.template.get().fork();
        inner.new_game();
        State {
            inner: Locked::new(inner),
        }
    }
    /// A state at the position `text` (the protocol's position string).
    #[allow(clippy::wrong_self_convention)] // Python's name for it, on a game value
    fn from_position(&self, text: &str) -> PyResult<State> {
        let mut inner = self.template.get().fork();
        inner.set_position(text).map_err(value_error)?;
        Ok(State {
            inner: Locked::new(inner),
        })
    }
    fn __repr__(&self) -> String {
        format!("tetrad.Game('{}')", self.template.get().name())
    }
}

/// `None` or the value, as Python writes them.
fn py_repr<T: std::fmt::Display>(value: &Option<T>) -> String {
    value.as_ref().map_or("None".to_string(), |v| v.to_string())
}

/// A line of a search: score (centipawns) or mate (moves, negative when losing), depth, PV.
#[pyclass(module = "tetrad._native", get_all)]
#[derive(Clone)]
struct Line {
    score: Option<i32>,
    mate: Option<i32>,
    depth: u32,
    pv: Vec<String>,
}

fn line(score: i32, depth: u32, pv: Vec<String>) -> Line {
    let text = uci_score(score);
    let (kind, n) = text.split_once(' ').unwrap_or(("cp", "0"));
    let n: i32 = n.parse().unwrap_or(0);
    let (score, mate) = if kind == "mate" {
        (None, Some(n))
    } else {
        (Some(n), None)
    };
    Line {
        score,
        mate,
        depth,
        pv,
    }
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        format!(
            "Line(score={}, mate={}, depth={}, pv={:?})",
            py_repr(&self.score),
            py_repr(&self.mate),
            self.depth,
            self.pv
        )
    }
}

/// What `State.search` found.
#[pyclass(module = "tetrad._native", get_all)]
struct SearchResult {
    #[pyo3(name = "move")]
    best: Option<String>,
    score: Option<i32>,
    mate: Option<i32>,
    depth: u32,
    nodes: u64,
    pv: Vec<String>,
    lines: Vec<Line>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={}, score={}, mate={}, depth={}, pv={:?})",
            py_repr(&self.best.as_ref().map(|m| format!("'{m}'"))),
            py_repr(&self.score),
            py_repr(&self.mate),
            self.depth,
            self.pv
        )
    }
}

/// An action argument: an integer (`None` when it is no action at all: negative or too big);
/// anything else is a TypeError.
fn action_arg(value: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    match value.extract::<i64>() {
        Ok(a) => Ok(usize::try_from(a).ok()),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

fn not_legal(action: &Bound<'_, PyAny>) -> PyErr {
    IllegalMove::new_err(format!("action {action} is not legal here"))
}

/// A position with its history (and, mid-move, the move under way).
#[pyclass(module = "tetrad._native")]
struct State {
    inner: Locked<Box<dyn AnyGame>>,
}

impl State {
    fn action_count(&self) -> usize {
        self.inner.get().action_space().actions()
    }
}

#[pymethods]
impl State {
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.get().name()
    }
    /// The legal moves in the protocol's notation, sorted; none once the game is over; mid-move,
    /// the moves that finish the move under way.
    /// With `limit`, None when there are more than `limit` (counted at a cost bounded by it);
    /// without, every move, however many (a crowded Phutball board has millions of ball moves).
    #[pyo3(signature = (limit=None))]
    fn legal_moves(&self, limit: Option<usize>) -> Option<Vec<String>> {
        match limit {
            Some(cap) => self.inner.get().legal_moves_upto(cap),
            None => Some(self.inner.get().legal_moves()),
        }
    }
    /// Plays a move (lenient notation); returns its canonical notation.
    fn play(&mut self, mv: &str) -> PyResult<String> {
        self.inner.get().play(mv).map_err(rule_error)
    }
    /// Takes back the last action: the last step of a move under way, else the last move
    /// (back to where it was made from); False when there is none.
    fn undo(&mut self) -> bool {
        self.inner.get().undo()
    }
    fn copy(&self) -> State {
        State {
            inner: Locked::new(self.inner.get().fork()),
        }
    }
    fn __copy__(&self) -> State {
        self.copy()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.copy()
    }
    /// 0 when the first mover is to move, 1 otherwise.
    fn to_move(&self) -> usize {
        self.inner.get().side_to_move().index()
    }
    fn is_over(&self) -> bool {
        self.inner.get().result().is_some()
    }
    /// 0 or 1 for the winner; None for a draw or a game still going on.
    fn winner(&self) -> Option<usize> {
        match self.inner.get().result()?.outcome {
            Outcome::Win(side) => Some(side.index()),
            Outcome::Draw => None,
        }
    }
    /// Why the game ended (`no-moves`, `repetition`, ...); None while it goes on.
    fn reason(&self) -> Option<&'static str> {
        self.inner.get().result().map(|t| t.reason)
    }
    /// The result word of the protocol: `ongoing`, `draw` or the winner's side name.
    fn result(&self) -> &'static str {
        let g = self.inner.get();
        result_word(g.side_names(), g.result())
    }
    fn position(&self) -> String {
        self.inner.get().position()
    }
    /// The moves played since the start (or the position the state was made from).
    fn moves(&self) -> Vec<String> {
        self.inner
            .get()
            .history()
            .moves
            .into_iter()
            .map(|(_, m)| m)
            .collect()
    }
    fn svg(&self) -> String {
        render::svg::svg(&self.inner.get().picture())
    }
    fn _repr_svg_(&self) -> String {
        self.svg()
    }
    /// `board_layout` as a dict.
    fn layout<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = render::json::layout(&self.inner.get().picture());
        py.import("json")?.call_method1("loads", (text,))
    }
    fn __str__(&self) -> String {
        self.inner.get().render()
    }
    fn __repr__(&self) -> String {
        // One guard: two in one statement would wait on each other.
        let g = self.inner.get();
        match g.pending_move() {
            None => format!("tetrad.State('{}', '{}')", g.name(), g.position()),
            Some(so_far) => format!(
                "tetrad.State('{}', '{}', pending='{so_far}')",
                g.name(),
                g.position()
            ),
        }
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.downcast::<State>() {
            Ok(o) => {
                let o = o.borrow();
                // One lock at a time: `s == s` is the same lock twice.
                let theirs = {
                    let g = o.inner.get();
                    (g.name(), g.position(), g.pending_move())
                };
                let g = self.inner.get();
                theirs == (g.name(), g.position(), g.pending_move())
            }
            Err(_) => false,
        }
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.get().name().hash(&mut h);
        self.inner.get().position().hash(&mut h);
        self.inner.get().pending_move().hash(&mut h);
        h.finish()
    }
    /// One bool per action, set for the legal moves' actions.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let (actions, _) = self.inner.get().legal_actions();
        let mut mask = vec![false; self.action_count()];
        for a in actions {
            mask[a] = true;
        }
        PyArray1::from_vec(py, mask)
    }
    /// The legal moves' actions, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.get().legal_actions().0
    }
    /// The first action of a move (notation): see `actions`.
    fn action(&self, mv: &str) -> PyResult<usize> {
        self.inner.get().action_of(mv).map_err(rule_error)
    }
    /// The actions that play a move (notation) from here, the last one completing it: one for
    /// most moves, a Phutball ball move's jumps and its stop.
    fn actions(&self, mv: &str) -> PyResult<Vec<usize>> {
        self.inner.get().actions_of(mv).map_err(rule_error)
    }
    /// What a legal action plays: the move it completes (canonical notation) or, for a step of
    /// a move under way, that move so far with the step.
    #[pyo3(name = "move")]
    fn move_of(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        action_arg(action)?
            .and_then(|a| self.inner.get().move_of(a))
            .ok_or_else(|| not_legal(action))
    }
    /// Plays a legal action: the notation of the move it completed, or None when the move goes
    /// on (the same player decides again).
    fn play_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let a = action_arg(action)?.ok_or_else(|| not_legal(action))?;
        self.inner.get().play_action(a).map_err(rule_error)
    }
    /// The actions of the move under way (empty between moves).
    fn pending(&self) -> Vec<usize> {
        self.inner.get().pending()
    }
    /// The move under way so far in notation (None between moves).
    fn pending_move(&self) -> Option<String> {
        self.inner.get().pending_move()
    }
    /// The observation planes, float32 of the game's observation shape.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let shape = self.inner.get().observation_shape();
        let mut out = vec![0f32; shape.iter().product()];
        self.inner.get().observe(&mut out);
        PyArray1::from_vec(py, out).reshape(IxDyn(&shape))
    }
    /// The engine's search of this position, in this process, with the GIL released.
    #[pyo3(signature = (depth=None, nodes=None, movetime=None, multipv=1, threads=1, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        multipv: usize,
        threads: usize,
        seed: u64,
    ) -> PyResult<SearchResult> {
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(value_error(
                "give a limit: depth=, nodes= or movetime= (seconds)",
            ));
        }
        if self.inner.get().result().is_some() {
            return Err(IllegalMove::new_err("game is over"));
        }
        if let Some(so_far) = self.inner.get().pending_move() {
            return Err(IllegalMove::new_err(format!(
                "a move is under way ({so_far}): the search answers whole moves"
            )));
        }
        let params = Params {
            limits: Limits {
                depth,
                nodes,
                movetime: movetime.map(|s| (s.max(0.0) * 1000.0) as u64),
                ..Limits::default()
            },
            threads: threads.max(1),
            multipv,
            seed,
            ..Params::default()
        };
        let job =
            self.inner
                .get()
                .search_job(params, Arc::new(AtomicBool::new(false)), Box::new(|_| {}));
        let report = py.allow_threads(job);
        if let Some(e) = report.error {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(e.to_string()));
        }
        let best = line(report.score, report.depth, report.pv);
        Ok(SearchResult {
            best: report.best,
            score: best.score,
            mate: best.mate,
            depth: best.depth,
            nodes: report.nodes,
            pv: best.pv,
            lines: report
                .lines
                .into_iter()
                .map(|l| line(l.score, l.depth, l.pv))
                .collect(),
        })
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Line>()?;
    m.add_class::<VecEnv>()?;
    m.add("IllegalMove", m.py().get_type::<IllegalMove>())?;
    Ok(())
}
