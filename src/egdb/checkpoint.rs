//! A slice's finished levels on disk while it is built (`poddavki-WMWKBMBK.egdb.partial`,
//! beside where its file will be), so that a killed build resumes from its last finished level
//! instead of from the slice's start: the largest 7-piece slice is an hour of CPU.
//!
//! The file: a header (magic, the slice, its size and block length), then one record per
//! finished level, appended and synced when the level is done: the level (u32), its byte count
//! (u64), its blocks' values in the level's order, and a CRC-32 of all three. A record cut short
//! or damaged (the kill came while it was written) ends what is taken: that level and any after
//! it are solved again.
//!
//! The records are also where the slice's file is written from ([`Checkpoint::values`]): the
//! builder holds only the levels it is solving and reading, never the whole slice.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::file::{self, io, read_at};
use super::index::{advancement, Material};
use super::{EgdbError, INVALID};

const MAGIC: &[u8; 8] = b"TTDPART1";
const HEADER: u64 = 8 + 4 + 8 + 8;

pub(super) struct Checkpoint {
    path: PathBuf,
    file: File,
    /// Where the next record goes.
    end: u64,
    /// The records: their level and where their values start and end in the file.
    records: Vec<Record>,
}

#[derive(Clone, Copy)]
struct Record {
    level: u32,
    start: u64,
    end: u64,
}

impl Record {
    /// The record of `len` values of `level` written at `at`: its head (level, length), the
    /// values, then its CRC.
    fn at(at: u64, level: u32, len: u64) -> Record {
        Record {
            level,
            start: at + 12,
            end: at + 12 + len,
        }
    }

    /// Where the next record goes.
    fn next(&self) -> u64 {
        self.end + 4
    }
}

fn header(m: Material) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend([m.white_men, m.white_kings, m.black_men, m.black_kings]);
    h.extend(m.size().to_le_bytes());
    h.extend(m.block_len().to_le_bytes());
    h
}

impl Checkpoint {
    /// The checkpoint of slice `m` in `dir`: each sound record of an earlier, unfinished build
    /// is handed to `take(level, values)` (which says whether it fits: a record it refuses ends
    /// what is taken), and the file is kept up to the last record taken. Without a file, or with
    /// one of another slice or format, a new one is started.
    pub(super) fn open(
        dir: &Path,
        m: Material,
        take: &mut dyn FnMut(u32, &[u8]) -> bool,
    ) -> Result<Checkpoint, EgdbError> {
        let path = dir.join(format!("{}.partial", file::file_name(m)));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io(&path))?;
        let mut records = Vec::new();
        let mut kept = Self::read(&mut file, m, take, &mut records).map_err(io(&path))?;
        if kept < HEADER {
            records.clear();
            file.set_len(0).map_err(io(&path))?;
            file.seek(SeekFrom::Start(0)).map_err(io(&path))?;
            file.write_all(&header(m)).map_err(io(&path))?;
            kept = HEADER;
        } else {
            file.set_len(kept).map_err(io(&path))?;
            file.seek(SeekFrom::Start(kept)).map_err(io(&path))?;
        }
        file.sync_data().map_err(io(&path))?;
        Ok(Checkpoint {
            path,
            file,
            end: kept,
            records,
        })
    }

    /// Hands over the sound records; the length of the file they and the header take (0 when
    /// the header is not this slice's).
    fn read(
        file: &mut File,
        m: Material,
        take: &mut dyn FnMut(u32, &[u8]) -> bool,
        records: &mut Vec<Record>,
    ) -> std::io::Result<u64> {
        let mut r = BufReader::new(file);
        let mut h = vec![0; HEADER as usize];
        if r.read_exact(&mut h).is_err() || h != header(m) {
            return Ok(0);
        }
        let mut kept = HEADER;
        let mut values = Vec::new();
        loop {
            let mut head = [0u8; 12];
            if r.read_exact(&mut head).is_err() {
                return Ok(kept);
            }
            let level = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
            let len = u64::from_le_bytes(head[4..12].try_into().unwrap_or_default());
            if len > m.size() {
                return Ok(kept);
            }
            values.resize(len as usize, 0);
            let mut crc = [0u8; 4];
            if r.read_exact(&mut values).is_err() || r.read_exact(&mut crc).is_err() {
                return Ok(kept);
            }
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(&head);
            hasher.update(&values);
            if hasher.finalize() != u32::from_le_bytes(crc) || !take(level, &values) {
                return Ok(kept);
            }
            let record = Record::at(kept, level, len);
            kept = record.next();
            records.push(record);
        }
    }

    /// Appends a finished level of `blocks` blocks of `block_len` values, `fill(i, buf)`
    /// writing block `i`'s into `buf`, and syncs it.
    pub(super) fn record(
        &mut self,
        level: u32,
        blocks: usize,
        block_len: usize,
        fill: impl Fn(usize, &mut [u8]),
    ) -> Result<(), EgdbError> {
        let mut head = level.to_le_bytes().to_vec();
        head.extend(((blocks * block_len) as u64).to_le_bytes());
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        let path = &self.path;
        // Positional reads may have moved the cursor (they do on Windows).
        self.file
            .seek(SeekFrom::Start(self.end))
            .map_err(io(path))?;
        let len = (blocks * block_len) as u64;
        let mut w = BufWriter::new(&mut self.file);
        w.write_all(&head).map_err(io(path))?;
        let mut buf = vec![0; block_len];
        for i in 0..blocks {
            fill(i, &mut buf);
            hasher.update(&buf);
            w.write_all(&buf).map_err(io(path))?;
        }
        w.write_all(&hasher.finalize().to_le_bytes())
            .map_err(io(path))?;
        w.flush().map_err(io(path))?;
        drop(w);
        self.file.sync_data().map_err(io(path))?;
        let record = Record::at(self.end, level, len);
        self.end = record.next();
        self.records.push(record);
        Ok(())
    }

    /// The slice's values (both sides to move) in index order, read back from the records: a
    /// men configuration's values sit in its level's record in the order of the configurations'
    /// numbers, so each record is read front to back while the index goes up, through a buffer
    /// of its own.
    pub(super) fn values(&self, m: Material) -> Values<'_> {
        Values {
            checkpoint: self,
            m,
            block: 0,
            offset: 0,
            readers: Vec::new(),
        }
    }

    /// The slice's file is written: the checkpoint goes.
    pub(super) fn remove(self) -> Result<(), EgdbError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(io(&self.path))
    }
}

/// Bytes a level's reader fetches at once.
const READ_AHEAD: usize = 128 * 1024;

/// A slice's values in index order from its checkpoint ([`Checkpoint::values`]).
pub(super) struct Values<'a> {
    checkpoint: &'a Checkpoint,
    m: Material,
    /// The men configuration next read and the offset in it.
    block: u64,
    offset: u64,
    /// By level, its record's reader, once the level is reached.
    readers: Vec<Option<Reader>>,
}

/// A record read front to back, its CRC checked again once read (the file is written from
/// these bytes: a record damaged on disk since it was written must not become a sound-looking
/// file; the file's header, written last, is then never written).
#[derive(Clone)]
struct Reader {
    /// The next byte of the record to fetch, and where it ends (its CRC follows).
    next: u64,
    end: u64,
    /// The CRC of the record's head and of what was fetched so far.
    crc: crc32fast::Hasher,
    /// What was fetched, and how much of it is used.
    buf: Vec<u8>,
    used: usize,
}

impl Values<'_> {
    /// The next `out.len()` values.
    pub(super) fn fill(&mut self, mut out: &mut [u8]) -> Result<(), EgdbError> {
        let len = self.m.block_len();
        let path = &self.checkpoint.path;
        let corrupt = |why: &str| {
            EgdbError::Corrupt(format!(
                "slice {}: its checkpoint {}: {why}",
                self.m,
                path.display()
            ))
        };
        while !out.is_empty() {
            if self.block >= self.m.blocks() {
                return Err(corrupt("asked for values past the slice's end"));
            }
            let n = ((len - self.offset) as usize).min(out.len());
            let (here, rest) = out.split_at_mut(n);
            match self.m.men_of(self.block) {
                None => here.fill(INVALID),
                Some(men) => {
                    let a = advancement(men) as usize;
                    if self.readers.len() <= a {
                        self.readers.resize(a + 1, None);
                    }
                    let reader = match &mut self.readers[a] {
                        Some(reader) => reader,
                        empty => {
                            let r = self
                                .checkpoint
                                .records
                                .iter()
                                .find(|r| r.level as usize == a)
                                .ok_or_else(|| corrupt("a level is missing"))?;
                            let mut crc = crc32fast::Hasher::new();
                            crc.update(&r.level.to_le_bytes());
                            crc.update(&(r.end - r.start).to_le_bytes());
                            empty.insert(Reader {
                                next: r.start,
                                end: r.end,
                                crc,
                                buf: Vec::new(),
                                used: 0,
                            })
                        }
                    };
                    let Reader {
                        next,
                        end,
                        crc,
                        buf,
                        used,
                    } = reader;
                    let mut at = 0;
                    while at < n {
                        if *used == buf.len() {
                            let want = (READ_AHEAD as u64).min(*end - *next) as usize;
                            if want == 0 {
                                return Err(corrupt("a level's record is too short"));
                            }
                            buf.resize(want, 0);
                            read_at(&self.checkpoint.file, buf, *next).map_err(io(path))?;
                            crc.update(buf);
                            *next += want as u64;
                            *used = 0;
                            if *next == *end {
                                let mut stored = [0u8; 4];
                                read_at(&self.checkpoint.file, &mut stored, *end)
                                    .map_err(io(path))?;
                                if crc.clone().finalize() != u32::from_le_bytes(stored) {
                                    return Err(corrupt("a level's record changed on disk"));
                                }
                            }
                        }
                        let k = (n - at).min(buf.len() - *used);
                        here[at..at + k].copy_from_slice(&buf[*used..*used + k]);
                        at += k;
                        *used += k;
                    }
                }
            }
            self.offset += n as u64;
            if self.offset == len {
                self.block += 1;
                self.offset = 0;
            }
            out = rest;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values written back into a slice's file come from records read once more: a record
    /// changed on disk since it was written is an error naming the checkpoint, not a file.
    #[test]
    fn a_record_changed_on_disk_is_refused_when_read_back() {
        let m = Material::parse("1011").expect("a slice");
        let dir = std::env::temp_dir().join(format!("tetrad-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("made");
        let levels = m.levels();
        let len = m.block_len() as usize;
        let mut checkpoint = Checkpoint::open(&dir, m, &mut |_, _| false).expect("opened");
        for (a, blocks) in levels
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, b)| !b.is_empty())
        {
            let fill = |i: usize, buf: &mut [u8]| buf.fill((blocks[i] % 200) as u8);
            checkpoint
                .record(a as u32, blocks.len(), len, fill)
                .expect("recorded");
        }
        let mut sound = vec![0; m.size() as usize];
        checkpoint.values(m).fill(&mut sound).expect("read back");
        for block in 0..m.blocks() {
            let want = m.men_of(block).map_or(INVALID, |_| (block % 200) as u8);
            let at = (block * m.block_len()) as usize;
            assert!(
                sound[at..at + len].iter().all(|&v| v == want),
                "block {block}"
            );
        }
        assert!(checkpoint.records.len() > 2, "levels");
        let at = checkpoint.records[1].start + 3;
        let mut bytes = std::fs::read(&checkpoint.path).expect("read");
        bytes[at as usize] ^= 0x40;
        std::fs::write(&checkpoint.path, bytes).expect("written");
        let mut again = vec![0; m.size() as usize];
        match checkpoint.values(m).fill(&mut again) {
            Err(EgdbError::Corrupt(why)) => assert!(why.contains(".partial"), "{why}"),
            other => panic!("a changed record read back: {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
