//! Slices held for probing: in memory whole (the builder, `verify`, `info`) or as open files
//! read a block at a time through a bounded cache (play); probing a position, recomputing every
//! stored value from its successors (`verify`), and a summary per slice (`info`).

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::file::{SliceFile, BLOCK_VALUES};
use super::index::{locate, Block, Kings, Material};
use super::{file, EgdbError, Value, INVALID};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::{Moves, Notation, Rules};

/// How a slice is held.
enum Held {
    /// Every stored value, checked when it was read.
    Whole(Vec<u8>),
    /// An open file whose header and index passed their checks; blocks are read on demand.
    File(SliceFile),
}

/// The stored slices (canonical: of a slice and its colour mirror, the one stored), each
/// checked against its checksums as it is read.
#[derive(Default)]
pub struct Tables {
    slices: HashMap<Material, Held>,
    cache: Cache,
    /// Bytes on disk of the files read ([`Tables::open`]), for `info`.
    disk: HashMap<Material, u64>,
}

/// Decompressed blocks of the open files, up to a bound in bytes: shards, each a map under
/// its own lock, that drop arbitrary entries when full (the blocks a search touches are few
/// and reused).
#[derive(Default)]
struct Cache {
    shards: Vec<Mutex<Shard>>,
    /// Blocks a shard keeps.
    per_shard: usize,
}

const SHARDS: usize = 16;

/// Blocks by slice and number.
type Shard = HashMap<(Material, u64), Arc<[u8]>>;

impl Cache {
    fn new(bytes: u64) -> Cache {
        let blocks = (bytes / BLOCK_VALUES).max(SHARDS as u64) as usize;
        Cache {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            per_shard: blocks / SHARDS,
        }
    }

    fn get(&self, f: &SliceFile, block: u64) -> Result<Arc<[u8]>, EgdbError> {
        let key = (f.material, block);
        let m = f.material;
        let code = u32::from_le_bytes([m.white_men, m.white_kings, m.black_men, m.black_kings]);
        let shard = &self.shards[(block as usize ^ code as usize) % SHARDS];
        if let Some(b) = shard.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(Arc::clone(b));
        }
        let b: Arc<[u8]> = f.block(block)?.into();
        let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
        while map.len() >= self.per_shard.max(1) {
            let Some(&k) = map.keys().next() else { break };
            map.remove(&k);
        }
        map.insert(key, Arc::clone(&b));
        Ok(b)
    }
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
    /// Values stored that name a position (the others are invalid: two men on one square).
    pub positions: u64,
    /// Bytes on disk.
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

    /// Reads every slice file of a directory whole, checking each.
    pub fn open(dir: &Path) -> Result<Tables, EgdbError> {
        let mut tables = Tables::new();
        for m in file::slices_in(dir)? {
            let path = dir.join(file::file_name(m));
            tables.insert(m, file::read(&path, m)?);
            let bytes = std::fs::metadata(&path).map_or(0, |md| md.len());
            tables.disk.insert(m, bytes);
        }
        Ok(tables)
    }

    /// Opens every slice file of a directory for probing a block at a time, its header and
    /// index checked (not yet its blocks: each is checked when first read), with a cache of
    /// `cache_bytes` of decompressed blocks.
    pub(crate) fn open_files(
        dir: &Path,
        found: &[Material],
        cache_bytes: u64,
    ) -> Result<Tables, EgdbError> {
        let mut tables = Tables {
            cache: Cache::new(cache_bytes),
            ..Tables::default()
        };
        for &m in found {
            let f = SliceFile::open(&dir.join(file::file_name(m)), m)?;
            tables.slices.insert(m, Held::File(f));
        }
        Ok(tables)
    }

    pub(crate) fn insert(&mut self, m: Material, data: Vec<u8>) {
        self.slices.insert(m, Held::Whole(data));
    }

    /// A slice held whole.
    pub(crate) fn get(&self, m: Material) -> Option<&[u8]> {
        match self.slices.get(&m)? {
            Held::Whole(d) => Some(d),
            Held::File(_) => None,
        }
    }

    /// The longest distance to zeroing of an open file's slice, from its header.
    pub(crate) fn longest(&self, m: Material) -> Option<u8> {
        match self.slices.get(&m)? {
            Held::File(f) => Some(f.longest),
            Held::Whole(_) => None,
        }
    }

    /// Compressed bytes of an open file's blocks.
    pub(crate) fn packed_bytes(&self, m: Material) -> u64 {
        match self.slices.get(&m) {
            Some(Held::File(f)) => f.packed_bytes(),
            _ => 0,
        }
    }

    /// Lets go of every slice but these.
    pub(crate) fn keep_only(&mut self, keep: &[Material]) {
        self.slices.retain(|m, _| keep.contains(m));
    }

    /// The slices held, in build order.
    pub fn materials(&self) -> Vec<Material> {
        let mut v: Vec<Material> = self.slices.keys().copied().collect();
        v.sort_by_key(|m| (m.pieces(), m.men(), *m));
        v
    }

    /// The value of a position for its side to move; `Missing` when its slice is not held, a
    /// file error when the block that holds it fails its checks.
    pub fn probe(&self, pos: &Position) -> Result<Value, EgdbError> {
        let m = Material::of(pos);
        if !m.is_stored() {
            return Ok(unstored(pos));
        }
        let (c, i) = locate(pos);
        let byte = match self.slices.get(&c).ok_or(EgdbError::Missing(m))? {
            Held::Whole(d) => d[i as usize],
            Held::File(f) => {
                let block = self.cache.get(f, i / BLOCK_VALUES)?;
                block[(i % BLOCK_VALUES) as usize]
            }
        };
        Value::decode(byte).ok_or_else(|| {
            EgdbError::Corrupt(format!("slice {c}: a position indexes an invalid entry"))
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
        // A slice that is its own mirror stores white to move only (even offsets).
        let half = m.is_symmetric();
        let worker = || -> Result<(), EgdbError> {
            loop {
                let block = next.fetch_add(1, Ordering::Relaxed);
                if block >= m.blocks() {
                    return Ok(());
                }
                let base = block * m.block_len();
                let stored = |full: u64| if half { full / 2 } else { full };
                let Some(men) = m.men_of(block) else {
                    if data[stored(base) as usize..stored(base + m.block_len()) as usize]
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
                for off in (0..m.block_len()).step_by(if half { 2 } else { 1 }) {
                    let pos = block_kings.position(off);
                    let stored = Value::decode(data[stored(base + off) as usize]);
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

    /// Per slice: positions stored, bytes on disk, wins, draws, losses, greatest distance to zeroing.
    pub fn info(&self) -> Vec<SliceInfo> {
        self.materials()
            .into_iter()
            .filter_map(|m| {
                let data = self.get(m)?;
                let mut s = SliceInfo {
                    material: m,
                    positions: 0,
                    bytes: self.disk.get(&m).copied().unwrap_or(0),
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
