//! The threads a `VecEnv` steps its games on: started once, and kept awake between steps.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest a worker waits awake for the next call before it sleeps: a caller whose
/// steps come further apart than this pays the wake-up, small beside its own time.
const MAX_SPIN: Duration = Duration::from_millis(10);

/// Worker threads (rayon) that take jobs beside the calling thread.
pub struct Workers {
    pool: rayon::ThreadPool,
    /// Bumped by each [`run`]: a worker kept awake by an earlier one stops waiting.
    generation: Arc<AtomicU64>,
    /// When the last [`run`] ended, and the caller's time between the two before.
    rhythm: Mutex<(Option<Instant>, Duration)>,
    /// The process that started the threads: a child forked from it has none of them.
    pid: u32,
}

impl Workers {
    pub fn new(threads: usize) -> Result<Workers, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("tetrad-vecenv-{i}"))
            .build()?;
        Ok(Workers {
            pool,
            generation: Arc::new(AtomicU64::new(0)),
            rhythm: Mutex::new((None, Duration::ZERO)),
            pid: std::process::id(),
        })
    }

    /// Notes that a call starts now.
    fn start(&self) {
        let mut rhythm = self.rhythm.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(end) = rhythm.0 {
            rhythm.1 = end.elapsed();
        }
    }

    /// Keeps each worker spinning until the next [`run`]: waking a sleeping thread on a
    /// virtual machine costs tens of microseconds or more, a good share of a step of a
    /// thousand games. The wait follows the caller's rhythm: twice its last pause between
    /// calls, none when that was longer than [`MAX_SPIN`] (a slow policy keeps its cores).
    fn stay_awake(&self, generation: u64) {
        let spin = {
            let mut rhythm = self.rhythm.lock().unwrap_or_else(|e| e.into_inner());
            rhythm.0 = Some(Instant::now());
            match rhythm.1 {
                pause if pause > MAX_SPIN => return,
                pause => (pause * 2).clamp(Duration::from_micros(100), MAX_SPIN),
            }
        };
        for _ in 0..self.pool.current_num_threads() {
            let now = self.generation.clone();
            self.pool.spawn(move || {
                let start = Instant::now();
                while now.load(Ordering::Acquire) == generation && start.elapsed() < spin {
                    std::hint::spin_loop();
                }
            });
        }
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }
}

/// Asks `check` of every job and, when it passed them all, runs `work` on each: on this thread
/// without workers, else on this thread and the workers together, in one round (a second
/// would cost a step a fifth of its time). Each thread first takes its own share of the jobs,
/// the same at every call, so the games it steps stay in its core's cache, and then what the
/// others have not taken, from the far end of their shares: once to check them, and again,
/// after every job is checked, to work on them. So a thread the machine holds back, or whose
/// games take longer, costs only the jobs it has not reached. Returns whether all passed; with
/// workers every job is checked even after one fails, alone the jobs are checked in order up
/// to the first that fails.
pub fn run<J: Send>(
    workers: Option<&Workers>,
    jobs: impl Iterator<Item = J> + Send,
    check: impl Fn(&J) -> bool + Sync,
    work: impl Fn(J) + Sync,
) -> bool {
    // In a forked child (Python's multiprocessing) the workers are not there to take jobs.
    let workers = workers.filter(|w| w.pid == std::process::id());
    let Some(workers) = workers else {
        let jobs: Vec<J> = jobs.collect();
        let passed = jobs.iter().all(&check);
        if passed {
            jobs.into_iter().for_each(work);
        }
        return passed;
    };
    workers.start();
    let generation = workers.generation.fetch_add(1, Ordering::AcqRel) + 1;
    let slots: Vec<Mutex<Option<J>>> = jobs.map(|j| Mutex::new(Some(j))).collect();
    let checked_slots: Vec<Mutex<Option<J>>> = slots.iter().map(|_| Mutex::new(None)).collect();
    let (checked, passed) = (AtomicUsize::new(0), AtomicBool::new(true));
    let (finished, failed) = (AtomicUsize::new(0), AtomicBool::new(false));
    let pool = &workers.pool;
    let threads = pool.current_num_threads() + 1;
    let take = |slot: &Mutex<Option<J>>| slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    let round = |me: usize| {
        let _exit = Exit {
            finished: &finished,
            failed: &failed,
        };
        let n = slots.len();
        let (from, to) = (me * n / threads, (me + 1) * n / threads);
        let order = || (from..to).chain((to..n).rev()).chain((0..from).rev());
        for k in order() {
            if let Some(job) = take(&slots[k]) {
                if !check(&job) {
                    passed.store(false, Ordering::Release);
                }
                *checked_slots[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(job);
                checked.fetch_add(1, Ordering::AcqRel);
            }
        }
        // The jobs the others took are being checked now: a short wait.
        let gone = || failed.load(Ordering::Acquire);
        spin_until(|| checked.load(Ordering::Acquire) == n || gone());
        if passed.load(Ordering::Acquire) && !gone() {
            order()
                .filter_map(|k| take(&checked_slots[k]))
                .for_each(&work);
        }
    };
    pool.in_place_scope(|s| {
        for _ in 1..threads {
            s.spawn(|_| round(rayon::current_thread_index().map_or(0, |i| i + 1)));
        }
        round(0);
        // Waiting here, awake, rather than in the scope, which puts this thread to sleep
        // (being woken costs tens of microseconds on a virtual machine).
        spin_until(|| {
            finished.load(Ordering::Acquire) == threads || failed.load(Ordering::Acquire)
        });
    });
    workers.stay_awake(generation);
    passed.into_inner()
}

/// Counts a thread's round as finished however it ends; a panic (a bug: the scope passes it
/// on) releases the others from their waits instead of leaving them spinning.
struct Exit<'a> {
    finished: &'a AtomicUsize,
    failed: &'a AtomicBool,
}

impl Drop for Exit<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.failed.store(true, Ordering::Release);
        }
        self.finished.fetch_add(1, Ordering::AcqRel);
    }
}

/// Spins until `done`, yielding now and then (the thread it waits for may need this core).
fn spin_until(done: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !done() {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}
