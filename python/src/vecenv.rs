//! `VecEnv`: many games of one kind stepped together in Rust, the GIL released.

use numpy::ndarray::IxDyn;
use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicUsize, Ordering};

use tetrad::batch::{EnvChunk, Opponent};
use tetrad::search::{Limits, Params};

use crate::workers::{run, Workers};
use crate::{make_game, value_error, Locked};

/// Parses `tetrad:nodes=N` or `tetrad:depth=N`.
fn parse_opponent(text: &str) -> PyResult<Opponent> {
    let bad = || {
        value_error(format!(
            "opponent '{text}': expected 'tetrad:nodes=N' or 'tetrad:depth=N'"
        ))
    };
    let spec = text.strip_prefix("tetrad:").ok_or_else(bad)?;
    let mut limits = Limits::default();
    for part in spec.split(',') {
        let (key, value) = part.split_once('=').ok_or_else(bad)?;
        match key.trim() {
            "nodes" => limits.nodes = Some(value.trim().parse().map_err(|_| bad())?),
            "depth" => limits.depth = Some(value.trim().parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        }
    }
    if limits.nodes.is_none() && limits.depth.is_none() {
        return Err(bad());
    }
    Ok(Opponent {
        params: Params {
            limits,
            threads: 1,
            ..Params::default()
        },
    })
}

/// `actions` as a 1-D int64 array of length `n`: ValueError for another shape or an integer
/// no int64 holds (no action has it), TypeError for anything but integers (floats are not
/// rounded into actions).
fn integer_actions<'py>(
    np: &Bound<'py, PyModule>,
    actions: &Bound<'py, PyAny>,
    n: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let array = np.call_method1("asarray", (actions,)).map_err(|_| {
        PyTypeError::new_err(format!("actions must be a 1-D integer array of length {n}"))
    })?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    match shape[..] {
        [len] if len == n => {}
        [len] => {
            return Err(value_error(format!(
                "actions has length {len}, expected {n}"
            )))
        }
        _ => {
            return Err(value_error(format!(
                "actions must be 1-D of length {n}, not of shape {shape:?}"
            )))
        }
    }
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, not {}",
            array.getattr("dtype")?.str()?
        )));
    }
    if kind == "u" && array.call_method0("max")?.gt(i64::MAX)? {
        return Err(value_error(
            "an action is not one of its game's legal actions",
        ));
    }
    np.call_method1("asarray", (array, "int64"))
}

/// `n` games stepped together; see python/README.md.
#[pyclass(module = "tetrad._native")]
pub struct VecEnv {
    chunks: Locked<Vec<Box<dyn EnvChunk>>>,
    /// With more than one thread: the workers, started once (a step is far too short to pay
    /// for starting threads); see [`run`].
    pool: Option<Workers>,
    n: usize,
    actions: usize,
    obs_size: usize,
    obs: Py<PyArrayDyn<f32>>,
    mask: Py<PyArray2<bool>>,
    rewards: Py<PyArray2<f32>>,
    done: Py<PyArray1<bool>>,
    ready: bool,
}

/// Chunks per thread (see [`VecEnv`]'s pool).
const CHUNKS_PER_THREAD: usize = 16;

/// Splits `slice` into pieces of `sizes[i] * unit` elements.
fn split<'a, T>(mut slice: &'a mut [T], sizes: &[usize], unit: usize) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(sizes.len());
    for &s in sizes {
        let (head, tail) = slice.split_at_mut(s * unit);
        out.push(head);
        slice = tail;
    }
    out
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (game, n, seed=None, opponent=None, threads=None, **options))]
    fn new(
        py: Python<'_>,
        game: &str,
        n: usize,
        seed: Option<u64>,
        opponent: Option<&str>,
        threads: Option<usize>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(value_error("n must be at least 1"));
        }
        let template = make_game(game, options)?;
        let opponent = opponent.map(parse_opponent).transpose()?;
        let seed = seed.unwrap_or_else(|| {
            use std::hash::{BuildHasher, Hasher};
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(n as u64);
            h.finish()
        });
        // One per core: the workers keep their own games in their cores' caches and stay
        // awake between steps (python/README.md, "Speed").
        let threads = threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
            .clamp(1, n);
        // One chunk per thread would make each step wait for the slowest thread; several per
        // thread let the others take up the end of its share. A game's seed is its index
        // either way.
        let count = if threads == 1 {
            1
        } else {
            (threads * CHUNKS_PER_THREAD).min(n)
        };
        let mut chunks = Vec::new();
        let mut first = 0;
        for t in 0..count {
            let len = n / count + usize::from(t < n % count);
            chunks.push(template.env_chunk(len, seed.wrapping_add(first as u64), opponent.clone()));
            first += len;
        }
        let pool = if threads == 1 {
            None
        } else {
            Some(
                Workers::new(threads - 1)
                    .map_err(|e| value_error(format!("cannot start {threads} threads: {e}")))?,
            )
        };
        let actions = template.action_space().actions();
        let shape = template.observation_shape();
        let obs_size = shape.iter().product();
        let full = [n, shape[0], shape[1], shape[2]];
        let env = VecEnv {
            chunks: Locked::new(chunks),
            pool,
            n,
            actions,
            obs_size,
            obs: PyArrayDyn::<f32>::zeros(py, IxDyn(&full), false).unbind(),
            mask: PyArray2::<bool>::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray2::<f32>::zeros(py, [n, 2], false).unbind(),
            done: PyArray1::<bool>::zeros(py, n, false).unbind(),
            ready: false,
        };
        Ok(env)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.n
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// Every game back to the start: `(obs, mask)`. The arrays are the environment's own,
    /// rewritten where they change by the next call (copy them to keep or modify them).
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<(PyObject, PyObject)> {
        self.reset_arrays(py)?;
        self.ready = true;
        Ok((
            self.obs.clone_ref(py).into_any(),
            self.mask.clone_ref(py).into_any(),
        ))
    }

    /// Plays one action per game (and the opponent's reply): `(obs, mask, rewards, done)`;
    /// finished games start again. An action that is not legal raises ValueError and
    /// changes nothing.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(PyObject, PyObject, PyObject, PyObject)> {
        if !self.ready {
            return Err(value_error("call reset() before step()"));
        }
        // The usual case, a 1-D int64 array (numpy's argmax gives one), skips the conversions.
        let array = match actions.downcast::<PyArray1<i64>>() {
            Ok(a) if PyUntypedArrayMethods::len(a) == self.n && a.is_contiguous() => {
                a.clone().into_any()
            }
            _ => integer_actions(&py.import("numpy")?, actions, self.n)?,
        };
        let array: PyReadonlyArray1<i64> = array.extract().map_err(|_| {
            value_error(format!(
                "actions must be a 1-D integer array of length {}",
                self.n
            ))
        })?;
        self.step_arrays(py, array.as_slice().map_err(value_error)?)?;
        Ok((
            self.obs.clone_ref(py).into_any(),
            self.mask.clone_ref(py).into_any(),
            self.rewards.clone_ref(py).into_any(),
            self.done.clone_ref(py).into_any(),
        ))
    }
}

impl VecEnv {
    fn reset_arrays(&mut self, py: Python<'_>) -> PyResult<()> {
        let mut obs = self.obs.bind(py).try_readwrite().map_err(borrowed)?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(borrowed)?;
        let obs = obs.as_slice_mut().map_err(value_error)?;
        let mask = mask.as_slice_mut().map_err(value_error)?;
        let mut chunks = self.chunks.get();
        let sizes: Vec<usize> = chunks.iter().map(|c| c.len()).collect();
        let (o, m) = (
            split(obs, &sizes, self.obs_size),
            split(mask, &sizes, self.actions),
        );
        let jobs = chunks.iter_mut().zip(o).zip(m);
        py.allow_threads(|| {
            run(
                self.pool.as_ref(),
                jobs,
                |_| true,
                |((c, o), m)| c.reset(o, m),
            )
        });
        Ok(())
    }

    /// Checks every action against its game's legal ones, then steps every game.
    fn step_arrays(&mut self, py: Python<'_>, actions: &[i64]) -> PyResult<()> {
        let mut chunks = self.chunks.get();
        let sizes: Vec<usize> = chunks.iter().map(|c| c.len()).collect();
        let mut obs = self.obs.bind(py).try_readwrite().map_err(borrowed)?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(borrowed)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(borrowed)?;
        let mut done = self.done.bind(py).try_readwrite().map_err(borrowed)?;
        let obs = split(
            obs.as_slice_mut().map_err(value_error)?,
            &sizes,
            self.obs_size,
        );
        let mask = split(
            mask.as_slice_mut().map_err(value_error)?,
            &sizes,
            self.actions,
        );
        let rewards = split(rewards.as_slice_mut().map_err(value_error)?, &sizes, 2);
        let done = split(done.as_slice_mut().map_err(value_error)?, &sizes, 1);
        let mut first = 0;
        let jobs = chunks.iter_mut().zip(obs).zip(mask).zip(rewards).zip(done);
        let jobs = jobs.map(|((((chunk, obs), mask), rewards), done)| {
            let job = Step {
                first,
                actions: &actions[first..first + chunk.len()],
                chunk,
                obs,
                mask,
                rewards,
                done,
            };
            first += job.actions.len();
            job
        });
        // Each thread checks the games it then steps (their lists are in its cache), and no
        // game moves unless every action is legal.
        let illegal = AtomicUsize::new(usize::MAX);
        let legal = |job: &Step| match job.chunk.first_illegal(job.actions) {
            Some(i) => {
                illegal.fetch_min(job.first + i, Ordering::Relaxed);
                false
            }
            None => true,
        };
        let step = |job: Step| {
            let Step {
                chunk,
                actions,
                obs,
                mask,
                rewards,
                done,
                ..
            } = job;
            chunk.step(actions, obs, mask, rewards, done)
        };
        if py.allow_threads(|| run(self.pool.as_ref(), jobs, legal, step)) {
            return Ok(());
        }
        let i = illegal.into_inner();
        Err(value_error(format!(
            "action {} of game {i} is not one of its legal actions",
            actions[i]
        )))
    }
}

/// The games of one chunk with their rows of the arrays; `first` is the first game's index.
struct Step<'a> {
    chunk: &'a mut Box<dyn EnvChunk>,
    first: usize,
    actions: &'a [i64],
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    rewards: &'a mut [f32],
    done: &'a mut [bool],
}

/// The caller made an array read-only or holds a writable view of it elsewhere in numpy.
fn borrowed(e: numpy::BorrowError) -> PyErr {
    value_error(format!(
        "cannot write the environment's arrays ({e}): leave them writeable, copy to modify"
    ))
}
