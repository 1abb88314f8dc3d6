//! Slices loaded from a directory: probing a position, recomputing every stored value from its
//! successors (`verify`), and a summary per slice (`info`).

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::index::{Block, Kings, Material};
use super::{file, EgdbError, Value, INVALID};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::{Moves, Notation, Rules};

/// Slices in memory, each checked against its checksum when it was read.
#[derive(Default)]
pub struct Tables {
    slices: HashMap<Material, Vec<u8>>,
}

/// One stored value that its successors' values contradict.
#[derive(Clone, Debug)]
pub struct Inconsistency {
    pub slice: Material,
    pub position: String,
    pub stored: Value,
    pub expected: Value,
}

/// A slice's summary for `egdb info`.
#[derive(Clone, Debug)]
pub struct SliceInfo {
    pub material: Material,
    /// Indices naming a position (the others are invalid: two men on one square).
    pub positions: u64,
    pub bytes: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub max_dtz: u8,
}

/// A position without the hash: the database never needs it.
pub(crate) fn bare(white: u32, black: u32, kings: u32, stm: usize) -> Position {
    Position {
        pieces: [white, black],
        kings,
        stm,
        hash: 0,
    }
}

impl Tables {
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Loads every slice file of a directory, checking each.
    pub fn open(dir: &Path) -> Result<Tables, EgdbError> {
        let mut tables = Tables::new();
        for m in file::slices_in(dir)? {
            tables.insert(m, file::read(&dir.join(file::file_name(m)), m)?);
        }
        Ok(tables)
    }

    pub(crate) fn insert(&mut self, m: Material, data: Vec<u8>) {
        self.slices.insert(m, data);
    }

    pub(crate) fn get(&self, m: Material) -> Option<&[u8]> {
        self.slices.get(&m).map(Vec::as_slice)
    }

    /// The slices held, in build order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.slices.keys().copied().collect();
        v.sort_by_key(|m| (m.pieces(), m.men(), *m));
        v
    }

    /// The value of a position for its side to move; `Missing` when its slice is not held.
    pub fn probe(&self, pos: &Position) -> Result<Value, EgdbError> {
        let m = Material::of(pos);
        if !m.is_stored() {
            return Ok(unstored(pos));
        }
        let data = self.get(m).ok_or(EgdbError::Missing(m))?;
        Value::decode(data[m.index(pos) as usize]).ok_or_else(|| {
            EgdbError::Corrupt(format!("slice {m}: a position indexes an invalid entry"))
        })
    }

    /// Recomputes every stored value from its successors' values (docs/egdb.md, Values) and
    /// returns those that disagree (at most `keep` per slice) and how many did.
    pub fn verify(
        &self,
        threads: usize,
        keep: usize,
        on_slice: &mut dyn FnMut(Material, u64),
    ) -> Result<(Vec<Inconsistency>, u64), EgdbError> {
        self.verify_only(&self.materials(), threads, keep, on_slice)
    }

    /// [`Tables::verify`] for some of the slices held (a job of a distributed build checks its
    /// own slice, the tables holding it and the slices it leads to: [`Tables::open_slice`]).
    pub fn verify_only(
        &self,
        slices: &[Material],
        threads: usize,
        keep: usize,
        on_slice: &mut dyn FnMut(Material, u64),
    ) -> Result<(Vec<Inconsistency>, u64), EgdbError> {
        let mut found = Vec::new();
        let mut total = 0;
        for &m in slices {
            let (mut bad, n) = self.verify_slice(m, threads.max(1), keep)?;
            found.append(&mut bad);
            total += n;
            on_slice(m, n);
        }
        Ok((found, total))
    }

    fn verify_slice(
        &self,
        m: Material,
        threads: usize,
        keep: usize,
    ) -> Result<(Vec<Inconsistency>, u64), EgdbError> {
        let data = self.get(m).ok_or(EgdbError::Missing(m))?;
        let next = AtomicU64::new(0);
        let count = AtomicU64::new(0);
        let found = Mutex::new(Vec::new());
        let game = Poddavki::default();
        let kings = Kings::of(m);
        let worker = || -> Result<(), EgdbError> {
            loop {
                let block = next.fetch_add(1, Ordering::Relaxed);
                if block >= m.blocks() {
                    return Ok(());
                }
                let base = block * m.block_len();
                let Some(men) = m.men_of(block) else {
                    if data[base as usize..(base + m.block_len()) as usize]
                        .iter()
                        .any(|&b| b != INVALID)
                    {
                        return Err(EgdbError::Corrupt(format!(
                            "slice {m}: an invalid index holds a value"
                        )));
                    }
                    continue;
                };
                let block_kings = Block::new(men, &kings);
                for off in 0..m.block_len() {
                    let pos = block_kings.position(off);
                    let stored = Value::decode(data[(base + off) as usize]);
                    let expected = self.expected(&pos)?;
                    if stored != Some(expected) {
                        count.fetch_add(1, Ordering::Relaxed);
                        let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                        if f.len() < keep {
                            f.push(Inconsistency {
                                slice: m,
                                position: game.format_position(&pos),
                                stored: stored.unwrap_or(Value::Draw),
                                expected,
                            });
                        }
                    }
                }
            }
        };
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect::<Result<Vec<()>, EgdbError>>()
        })?;
        let found = found.into_inner().unwrap_or_else(|e| e.into_inner());
        Ok((found, count.into_inner()))
    }

    /// The value the definition gives a position from its successors' stored values.
    fn expected(&self, pos: &Position) -> Result<Value, EgdbError> {
        let game = Poddavki::default();
        let mut err = None;
        let mut best_win: Option<u32> = None;
        let mut draw = false;
        let mut longest_loss = 0u32;
        let mut any = false;
        let _ = game.for_each_move(pos, |mv| {
            any = true;
            let zeroing = game.is_progress(pos, mv);
            let q = pos.make_with::<false>(mv);
            let v = match self.probe(&q) {
                Ok(v) => v,
                Err(e) => {
                    err = Some(e);
                    return ControlFlow::Break(());
                }
            };
            let d = |dtz: u8| if zeroing { 1 } else { 1 + u32::from(dtz) };
            match v {
                Value::Loss(t) => best_win = Some(best_win.map_or(d(t), |b| b.min(d(t)))),
                Value::Draw => draw = true,
                Value::Win(t) => longest_loss = longest_loss.max(d(t)),
            }
            ControlFlow::Continue(())
        });
        if let Some(e) = err {
            return Err(e);
        }
        let clip = |d: u32| d.min(255) as u8;
        Ok(match (any, best_win, draw) {
            (false, _, _) => Value::Win(0),
            (true, Some(d), _) => Value::Win(clip(d)),
            (true, None, true) => Value::Draw,
            (true, None, false) => Value::Loss(clip(longest_loss)),
        })
    }

    /// Per slice: positions, file bytes, wins, draws, losses, greatest distance to zeroing.
    pub fn info(&self) -> Vec<SliceInfo> {
        self.materials()
            .into_iter()
            .filter_map(|m| {
                let data = self.get(m)?;
                let mut s = SliceInfo {
                    material: m,
                    positions: 0,
                    bytes: data.len() as u64,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    max_dtz: 0,
                };
                for &b in data {
                    let d = match Value::decode(b) {
                        None => continue,
                        Some(Value::Draw) => {
                            s.draws += 1;
                            0
                        }
                        Some(Value::Win(d)) => {
                            s.wins += 1;
                            d
                        }
                        Some(Value::Loss(d)) => {
                            s.losses += 1;
                            d
                        }
                    };
                    s.positions += 1;
                    s.max_dtz = s.max_dtz.max(d);
                }
                Some(s)
            })
            .collect()
    }
}

/// A position where a side has no piece: the side to move without pieces has won; facing none,
/// it loses with its first move, or has won if it has none.
pub(crate) fn unstored(pos: &Position) -> Value {
    if Poddavki::default().has_legal_move(pos) {
        Value::Loss(1)
    } else {
        Value::Win(0)
    }
}
