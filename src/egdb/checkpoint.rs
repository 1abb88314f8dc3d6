//! A slice's finished levels on disk while it is built (`poddavki-WMWKBMBK.egdb.partial`,
//! beside where its file will be), so that a killed build resumes from its last finished level
//! instead of from the slice's start: the largest 7-piece slice is an hour of CPU.
//!
//! The file: a header (magic, the slice, its size and block length), then one record per
//! finished level, appended and synced when the level is done: the level (u32), its byte count
//! (u64), its blocks' values in the level's order, and a CRC-32 of all three. A record cut short
//! or damaged (the kill came while it was written) ends what is taken: that level and any after
//! it are solved again.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::file::{self, io};
use super::index::Material;
use super::EgdbError;

const MAGIC: &[u8; 8] = b"TTDPART1";
const HEADER: u64 = 8 + 4 + 8 + 8;

pub(super) struct Checkpoint {
    path: PathBuf,
    file: File,
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
        let kept = Self::read(&mut file, m, take).map_err(io(&path))?;
        if kept < HEADER {
            file.set_len(0).map_err(io(&path))?;
            file.seek(SeekFrom::Start(0)).map_err(io(&path))?;
            file.write_all(&header(m)).map_err(io(&path))?;
        } else {
            file.set_len(kept).map_err(io(&path))?;
            file.seek(SeekFrom::Start(kept)).map_err(io(&path))?;
        }
        file.sync_data().map_err(io(&path))?;
        Ok(Checkpoint { path, file })
    }

    /// Hands over the sound records; the length of the file they and the header take (0 when
    /// the header is not this slice's).
    fn read(
        file: &mut File,
        m: Material,
        take: &mut dyn FnMut(u32, &[u8]) -> bool,
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
            kept += 12 + len + 4;
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
        self.file.sync_data().map_err(io(path))
    }

    /// The slice's file is written: the checkpoint goes.
    pub(super) fn remove(self) -> Result<(), EgdbError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(io(&self.path))
    }
}
