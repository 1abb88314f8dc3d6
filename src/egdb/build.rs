//! The retrograde builder. Slices in dependency order; within a slice, men configurations from
//! the most advanced down, so every capture or man move (a zeroing move) leads to a value already
//! final. Inside one men configuration only king moves link positions: a forward pass scores
//! each position's zeroing moves and counts its king moves, then a breadth-first pass over king
//! un-moves spreads wins and losses in order of distance, so the first distance found is the
//! winner's shortest and a loss is settled by its last, longest successor.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::checkpoint::Checkpoint;
use super::index::{advancement, Bits, Block, Kings, Material, NEIGHBOUR, NO_SQUARE};
use super::probe::{bare, Tables};
use super::{file, EgdbError, Value, INVALID, MAX_DTZ};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::Rules;

/// Where a build stands, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub slice: Material,
    /// 1-based number of the slice and how many the build has.
    pub slice_no: usize,
    pub slices: usize,
    /// Indices done and in all, over the whole build (skipped slices count as done).
    pub done: u64,
    pub total: u64,
    pub elapsed: Duration,
    /// The slice's file was already there and sound.
    pub skipped: bool,
}

/// How a build reads the slices a slice's moves lead to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Each read whole into memory, decompressed: the fastest lookups.
    Whole,
    /// A block at a time through a cache of this many bytes: the memory for them is bounded
    /// whatever they are (each lookup goes through the cache; a block missing from it is read
    /// and decompressed).
    Blocks(u64),
}

/// Settled (value final).
const DECIDED: u16 = 0x8000;
/// A zeroing move draws: the position can be won or drawn, never lost.
const DRAW_EXIT: u16 = 0x4000;
/// King moves not yet known to lose (those from a position still open).
const COUNT: u16 = 0x3FFF;

/// Builds the slices (in the order given: dependencies first, as `slices_upto` lists them)
/// into `dir`, skipping those whose file is already there and sound (a killed build goes on
/// from its last finished slice). Of a slice and its colour mirror only the stored one is built
/// (both sides to move of it are its mirror's two sides). Only two advancement levels of the
/// slice being built and the slices its moves reach are held, read from `dir` as needed: the
/// whole build needs no more memory than its largest single-slice job (`build_slice`).
pub fn build(
    dir: &Path,
    slices: &[Material],
    threads: usize,
    reads: Reads,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), EgdbError> {
    std::fs::create_dir_all(dir).map_err(|source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let start = Instant::now();
    let mut stored: Vec<Material> = Vec::new();
    for m in slices.iter().map(Material::canonical) {
        if !stored.contains(&m) {
            stored.push(m);
        }
    }
    let slices = &stored[..];
    let total = slices.iter().map(Material::size).sum();
    let mut done = 0;
    let mut tables = Tables::new();
    for (i, &m) in slices.iter().enumerate() {
        let mut report = |done: u64, skipped: bool| {
            progress(&Progress {
                slice: m,
                slice_no: i + 1,
                slices: slices.len(),
                done,
                total,
                elapsed: start.elapsed(),
                skipped,
            })
        };
        if file::read(&dir.join(file::file_name(m)), m).is_ok() {
            done += m.size();
            report(done, true);
            continue;
        }
        // A slice just built is not kept for the next one, which reads it from its file
        // if it needs it: the builder never holds a slice whole.
        tables.hold_dependencies(dir, m, reads)?;
        solve_into(dir, m, &tables, threads, usize::MAX, &mut |n| {
            done += n;
            report(done, false);
        })?;
    }
    Ok(())
}

/// Builds one slice into `dir` from the slices it depends on, read from `dir` (an error names
/// the first one missing), as one job of a distributed build; skips a slice already there and
/// sound. A slice not stored builds its mirror, which is.
pub fn build_slice(
    dir: &Path,
    m: Material,
    threads: usize,
    reads: Reads,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(), EgdbError> {
    build_slice_levels(dir, m, threads, reads, usize::MAX, progress).map(|_| ())
}

/// [`build_slice`], stopping after solving `max_levels` levels as a killed build would (its
/// checkpoint left for the next run): whether the slice is there.
pub(crate) fn build_slice_levels(
    dir: &Path,
    m: Material,
    threads: usize,
    reads: Reads,
    max_levels: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Result<bool, EgdbError> {
    if !m.is_stored() {
        return Err(EgdbError::Unstored(m));
    }
    let m = m.canonical();
    std::fs::create_dir_all(dir).map_err(|source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let start = Instant::now();
    let mut report = |done: u64, skipped: bool| {
        progress(&Progress {
            slice: m,
            slice_no: 1,
            slices: 1,
            done,
            total: m.size(),
            elapsed: start.elapsed(),
            skipped,
        })
    };
    if file::read(&dir.join(file::file_name(m)), m).is_ok() {
        report(m.size(), true);
        return Ok(true);
    }
    let mut tables = Tables::new();
    tables.hold_dependencies(dir, m, reads)?;
    let mut done = 0;
    solve_into(dir, m, &tables, threads, max_levels, &mut |n| {
        done += n;
        report(done, false);
    })
}

/// Solves slice `m` ([`Slice::solve`]) and writes its file from its checkpoint, a batch at a
/// time, then drops the checkpoint: whether it did (not when stopped after `max_levels`
/// levels).
fn solve_into(
    dir: &Path,
    m: Material,
    tables: &Tables,
    threads: usize,
    max_levels: usize,
    done: &mut dyn FnMut(u64),
) -> Result<bool, EgdbError> {
    let threads = threads.max(1);
    let Some(checkpoint) = Slice::solve(m, tables, threads, dir, max_levels, done)? else {
        return Ok(false);
    };
    let mut values = checkpoint.values(m);
    let mut both = Vec::new();
    file::write_stream(dir, m, m.stored_len(), threads, &mut |out| {
        if !m.is_symmetric() {
            return values.fill(out);
        }
        // A slice that is its own mirror stores white to move only: the side to move is the
        // index's last digit, white's the even indices.
        both.resize(out.len() * 2, 0);
        values.fill(&mut both)?;
        for (o, pair) in out.iter_mut().zip(both.chunks(2)) {
            *o = pair[0];
        }
        Ok(())
    })?;
    checkpoint.remove()?;
    Ok(true)
}

struct Slice<'a> {
    m: Material,
    tables: &'a Tables,
    /// Each level's men configurations, in ascending order (a configuration's values sit at
    /// its place in its level's list).
    levels: Vec<Vec<u64>>,
    /// By level, the values of those held, empty for the others: the level being solved,
    /// written by the workers, each to its own men configurations, and the one above it, which
    /// its man moves read (a man walks one rank: `advancement` goes up by one).
    held: Vec<Vec<AtomicU8>>,
}

/// Lets go of every level held but `a` and the one above it, which level `a`'s man moves read.
fn keep_for(held: &mut [Vec<AtomicU8>], a: usize) {
    for (b, values) in held.iter_mut().enumerate() {
        if b != a && b != a + 1 {
            *values = Vec::new();
        }
    }
}

/// A worker's buffers for one men configuration, reused from block to block.
#[derive(Default)]
struct Scratch {
    values: Vec<u8>,
    work: Vec<u16>,
    queue: Vec<u32>,
    preds: Vec<u32>,
}

impl Slice<'_> {
    /// Solves slice `m`, level by level from the most advanced, each finished level recorded
    /// in its checkpoint in `dir` and the levels an earlier, killed build recorded taken from
    /// it. Holds only the level being solved and the one above it (a man move's). Stops after
    /// solving `max_levels` levels (`None`: the checkpoint is left for the next run); else the
    /// checkpoint, which holds every level, to write the slice's file from and then remove.
    fn solve(
        m: Material,
        tables: &Tables,
        threads: usize,
        dir: &Path,
        max_levels: usize,
        done: &mut dyn FnMut(u64),
    ) -> Result<Option<Checkpoint>, EgdbError> {
        let levels = m.levels();
        let len = m.block_len() as usize;
        let mut held: Vec<Vec<AtomicU8>> = levels.iter().map(|_| Vec::new()).collect();
        // The levels in the order they are solved; a record is taken only as the next of them.
        let order: Vec<usize> = (0..levels.len())
            .rev()
            .filter(|&a| !levels[a].is_empty())
            .collect();
        let mut taken = 0;
        let mut checkpoint = Checkpoint::open(dir, m, &mut |level, data| {
            let Some(&a) = order.get(taken).filter(|&&a| a == level as usize) else {
                return false;
            };
            if data.len() != levels[a].len() * len {
                return false;
            }
            keep_for(&mut held, a);
            held[a] = data.iter().map(|&v| AtomicU8::new(v)).collect();
            taken += 1;
            true
        })?;
        done((m.blocks() - levels.iter().map(Vec::len).sum::<usize>() as u64) * m.block_len());
        let mut s = Slice {
            m,
            tables,
            levels,
            held,
        };
        for (k, &a) in order.iter().enumerate() {
            let blocks = s.levels[a].len();
            if k >= taken {
                if k - taken == max_levels {
                    return Ok(None);
                }
                keep_for(&mut s.held, a);
                s.held[a] = (0..blocks * len).map(|_| AtomicU8::new(INVALID)).collect();
                s.solve_level(a, threads)?;
                let values = &s.held[a];
                checkpoint.record(a as u32, blocks, len, |i, buf| {
                    for (out, v) in buf.iter_mut().zip(&values[i * len..]) {
                        *out = v.load(Ordering::Relaxed);
                    }
                })?;
            }
            done(blocks as u64 * m.block_len());
        }
        Ok(Some(checkpoint))
    }

    /// Solves the men configurations of level `a`, shared out among threads: king moves never
    /// leave a men configuration, so each is solved on its own, from final values only.
    fn solve_level(&self, a: usize, threads: usize) -> Result<(), EgdbError> {
        let level = &self.levels[a];
        let len = self.m.block_len() as usize;
        let next = AtomicUsize::new(0);
        let kings = Kings::of(self.m);
        let worker = || -> Result<(), EgdbError> {
            let mut scratch = Scratch::default();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&block) = level.get(i) else {
                    return Ok(());
                };
                let Some(men) = self.m.men_of(block) else {
                    continue;
                };
                let block_kings = Block::new(men, &kings);
                self.forward(&block_kings, &mut scratch)?;
                self.spread(&block_kings, &mut scratch)?;
                for (slot, &v) in self.held[a][i * len..].iter().zip(&scratch.values) {
                    slot.store(v, Ordering::Relaxed);
                }
            }
        };
        std::thread::scope(|sc| {
            let handles: Vec<_> = (0..threads.min(level.len()))
                .map(|_| sc.spawn(worker))
                .collect();
            handles
                .into_iter()
                .try_for_each(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        })
    }

    /// Scores every position of a men configuration by its zeroing moves and counts its king
    /// moves.
    fn forward(&self, block: &Block, sc: &mut Scratch) -> Result<(), EgdbError> {
        let game = Poddavki::default();
        let len = self.m.block_len() as usize;
        sc.values.clear();
        sc.values.resize(len, INVALID);
        sc.work.clear();
        sc.work.resize(len, 0);
        for off in 0..len {
            let pos = block.position(off as u64);
            let (mut any, mut wins, mut draw_exit, mut kings) = (false, false, false, 0u16);
            let mut err = None;
            let _ = game.for_each_move(&pos, |mv| {
                any = true;
                if !game.is_progress(&pos, mv) {
                    kings += 1;
                    return ControlFlow::Continue(());
                }
                match self.value(&pos.make_with::<false>(mv)) {
                    Ok(Value::Loss(_)) => {
                        wins = true;
                        return ControlFlow::Break(());
                    }
                    Ok(Value::Draw) => draw_exit = true,
                    Ok(Value::Win(_)) => {}
                    Err(e) => {
                        err = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
            if let Some(e) = err {
                return Err(e);
            }
            let settled = match (any, wins, kings, draw_exit) {
                (false, _, _, _) => Some(Value::Win(0)),
                (true, true, _, _) => Some(Value::Win(1)),
                (true, false, 0, true) => Some(Value::Draw),
                (true, false, 0, false) => Some(Value::Loss(1)),
                _ => None,
            };
            match settled {
                Some(v) => {
                    sc.values[off] = v.encode();
                    sc.work[off] = DECIDED;
                }
                None if kings > COUNT => {
                    return Err(EgdbError::TooLarge(format!(
                        "slice {}: {kings} king moves in one position",
                        self.m
                    )))
                }
                None => sc.work[off] = kings | if draw_exit { DRAW_EXIT } else { 0 },
            }
        }
        Ok(())
    }

    /// A successor's value: this slice's own (a man move, whose level is already final) or
    /// another slice's.
    fn value(&self, q: &Position) -> Result<Value, EgdbError> {
        if Material::of(q) != self.m {
            return self.tables.probe(q);
        }
        let len = self.m.block_len();
        let at = self.m.index(q);
        let a = advancement((q.pieces[0] & !q.kings, q.pieces[1] & !q.kings)) as usize;
        let byte = self.levels.get(a).and_then(|blocks| {
            let i = blocks.binary_search(&(at / len)).ok()?;
            let v = self.held[a].get((i as u64 * len + at % len) as usize)?;
            Some(v.load(Ordering::Relaxed))
        });
        byte.and_then(Value::decode).ok_or_else(|| {
            EgdbError::Corrupt(format!(
                "slice {}: a man move reached a level not held or still open",
                self.m
            ))
        })
    }

    /// Spreads the men configuration's settled wins and losses back along king moves, shortest
    /// first; what stays open is a draw.
    fn spread(&self, block: &Block, sc: &mut Scratch) -> Result<(), EgdbError> {
        let Scratch {
            values,
            work,
            queue,
            preds,
        } = sc;
        queue.clear();
        for dtz in [0, 1] {
            queue.extend((0..values.len() as u32).filter(|&i| {
                work[i as usize] & DECIDED != 0
                    && matches!(Value::decode(values[i as usize]),
                        Some(Value::Win(d) | Value::Loss(d)) if d == dtz)
            }));
        }
        let mut head = 0;
        while head < queue.len() {
            let qi = queue[head];
            head += 1;
            let (won, d) = match Value::decode(values[qi as usize]) {
                Some(Value::Win(d)) => (true, d),
                Some(Value::Loss(d)) => (false, d),
                _ => continue,
            };
            if u32::from(d) >= MAX_DTZ {
                return Err(EgdbError::TooLarge(format!(
                    "slice {}: a distance to zeroing above {MAX_DTZ}",
                    self.m
                )));
            }
            self.predecessors(block, qi, preds);
            for &p in preds.iter() {
                let w = &mut work[p as usize];
                if *w & DECIDED != 0 {
                    continue;
                }
                let settled = if !won {
                    Some(Value::Win(d + 1))
                } else {
                    *w -= 1;
                    (*w & (COUNT | DRAW_EXIT) == 0).then_some(Value::Loss(d + 1))
                };
                if let Some(v) = settled {
                    *w = DECIDED;
                    values[p as usize] = v.encode();
                    queue.push(p);
                }
            }
        }
        for (v, w) in values.iter_mut().zip(work.iter()) {
            if w & DECIDED == 0 {
                *v = Value::Draw.encode();
            }
        }
        Ok(())
    }

    /// Offsets (within the men configuration) of the positions one king move before the one at
    /// `qi`: the side that just moved slides a king back along an empty diagonal. (Those with a
    /// capture, where no king move is legal, are settled by the forward pass and skipped by the
    /// caller.)
    fn predecessors(&self, block: &Block, qi: u32, out: &mut Vec<u32>) {
        out.clear();
        let q = block.position(u64::from(qi));
        let mover = q.stm ^ 1;
        let occupied = q.pieces[0] | q.pieces[1];
        for k in Bits(q.pieces[mover] & q.kings) {
            for (dir, &first) in NEIGHBOUR[k].iter().enumerate() {
                let mut s = first;
                while s != NO_SQUARE && occupied >> s & 1 == 0 {
                    let moved = |b: u32| b & !(1 << k) | 1 << s;
                    let mut pieces = q.pieces;
                    pieces[mover] = moved(pieces[mover]);
                    let p = bare(pieces[0], pieces[1], moved(q.kings), mover);
                    out.push(self.m.offset_in(block.men(), &p) as u32);
                    s = NEIGHBOUR[s as usize][dir];
                }
            }
        }
    }
}
