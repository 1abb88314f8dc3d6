//! The slice file (format 2, docs/egdb.md "File format"): a header, an index of compressed
//! blocks with a CRC-32 each, a CRC-32 of the header and index, then the blocks. Written to a
//! temporary file and renamed, so a file in place is complete. Read either whole (the builder,
//! `verify`, `info`) or a block at a time by positional reads (play: [`SliceFile`]).

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::{EgdbError, Material};

const MAGIC: &[u8; 8] = b"TETRADEG";
const VERSION: u32 = 2;
const GAME: &[u8; 8] = b"poddavki";
/// Values a block holds (the last one of a slice may hold fewer): a probe reads and
/// decompresses one block (docs/egdb.md, "Compression", for the measured choice).
pub(crate) const BLOCK_VALUES: u64 = 16 * 1024;
/// zstd level of the blocks (docs/egdb.md, "Compression").
const LEVEL: i32 = 5;
/// The fixed part of the header: magic, version, game, material, values, values per block,
/// blocks, longest distance to zeroing (and 3 spare bytes, zero).
const FIXED: usize = 8 + 4 + 8 + 4 + 8 + 4 + 8 + 4;

pub(crate) fn file_name(m: Material) -> String {
    format!("poddavki-{m}.egdb")
}

/// The material a file name names, if it is a slice file's.
pub(crate) fn material_of(name: &str) -> Option<Material> {
    Material::parse(name.strip_prefix("poddavki-")?.strip_suffix(".egdb")?)
}

/// The slices whose files a directory holds (other files are ignored), in directory order.
pub(crate) fn slices_in(dir: &Path) -> Result<Vec<Material>, EgdbError> {
    let io = |source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        if let Some(m) = material_of(&entry.map_err(io)?.file_name().to_string_lossy()) {
            found.push(m);
        }
    }
    Ok(found)
}

/// CRC-32 (IEEE 802.3, as zip and PNG use).
pub(crate) fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// An I/O error of `path`, named.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> EgdbError + '_ {
    move |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn blocks_of(values: u64) -> u64 {
    values.div_ceil(BLOCK_VALUES)
}

/// File blocks compressed at once per thread: what a streamed write holds is this many blocks
/// of values and their compressed bytes, a few MB whatever the slice. (Fewer in the tests, so
/// that their small slices are written in several batches.)
pub(crate) const BATCH_PER_THREAD: usize = if cfg!(test) { 4 } else { 64 };

/// Writes a slice's `count` stored values atomically, `fill` handing them over in order a
/// batch at a time (so the slice need never be in memory whole): each batch compressed block
/// by block on `threads` threads and appended to a temporary file beside the final one after
/// room for the header, which is written last (the index is known only then); synced, then
/// renamed.
pub(crate) fn write_stream(
    dir: &Path,
    m: Material,
    count: u64,
    threads: usize,
    fill: &mut dyn FnMut(&mut [u8]) -> Result<(), EgdbError>,
) -> Result<PathBuf, EgdbError> {
    let path = dir.join(file_name(m));
    let tmp = dir.join(format!("{}.tmp{}", file_name(m), std::process::id()));
    if let Err(e) = stream_into(&tmp, m, count, threads, fill) {
        // Never read (its header comes last), but not left behind either.
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, &path).map_err(io(&path))?;
    Ok(path)
}

/// [`write_stream`]'s file, written and synced at `tmp`.
fn stream_into(
    tmp: &Path,
    m: Material,
    count: u64,
    threads: usize,
    fill: &mut dyn FnMut(&mut [u8]) -> Result<(), EgdbError>,
) -> Result<(), EgdbError> {
    let n = blocks_of(count) as usize;
    let header_len = FIXED + (n + 1) * 8 + n * 4 + 4;
    let threads = threads.max(1);
    let batch_values = BATCH_PER_THREAD * threads * BLOCK_VALUES as usize;
    let mut f = std::io::BufWriter::new(File::create(tmp).map_err(io(tmp))?);
    f.write_all(&vec![0; header_len]).map_err(io(tmp))?;
    let (mut offsets, mut crcs) = (vec![0u64], Vec::with_capacity(n));
    let mut longest = 0;
    let mut values = Vec::new();
    let mut done = 0u64;
    while done < count {
        values.resize(batch_values.min((count - done) as usize), 0);
        fill(&mut values)?;
        done += values.len() as u64;
        let chunks: Vec<&[u8]> = values.chunks(BLOCK_VALUES as usize).collect();
        let mut packed: Vec<Vec<u8>> = vec![Vec::new(); chunks.len()];
        let per = chunks.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            for (out, inp) in packed.chunks_mut(per).zip(chunks.chunks(per)) {
                s.spawn(move || {
                    for (o, i) in out.iter_mut().zip(inp) {
                        *o = zstd::bulk::compress(i, LEVEL).unwrap_or_default();
                    }
                });
            }
        });
        if packed
            .iter()
            .zip(&chunks)
            .any(|(p, c)| p.is_empty() && !c.is_empty())
        {
            return Err(EgdbError::Corrupt(format!(
                "slice {m}: a block failed to compress"
            )));
        }
        longest = values
            .iter()
            .filter_map(|&b| match super::Value::decode(b) {
                Some(super::Value::Win(d) | super::Value::Loss(d)) => Some(d),
                _ => None,
            })
            .fold(longest, u8::max);
        for p in &packed {
            f.write_all(p).map_err(io(tmp))?;
            offsets.push(offsets[offsets.len() - 1] + p.len() as u64);
            crcs.push(crc32(p));
        }
    }
    let mut header = Vec::with_capacity(header_len);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(GAME);
    header.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    header.extend_from_slice(&count.to_le_bytes());
    header.extend_from_slice(&(BLOCK_VALUES as u32).to_le_bytes());
    header.extend_from_slice(&(n as u64).to_le_bytes());
    header.extend_from_slice(&[longest, 0, 0, 0]);
    for at in &offsets {
        header.extend_from_slice(&at.to_le_bytes());
    }
    for crc in &crcs {
        header.extend_from_slice(&crc.to_le_bytes());
    }
    let crc = crc32(&header);
    header.extend_from_slice(&crc.to_le_bytes());
    let written = (|| {
        let mut f = f.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header)?;
        f.sync_all()
    })();
    written.map_err(io(tmp))
}

/// An open slice file whose header and index passed their checks: blocks are read on demand,
/// each checked against its CRC-32 before it is decompressed.
pub(crate) struct SliceFile {
    path: PathBuf,
    file: File,
    pub(crate) material: Material,
    /// Values stored.
    pub(crate) values: u64,
    pub(crate) longest: u8,
    /// Where the blocks start in the file.
    data_start: u64,
    /// Block i is bytes `offsets[i]..offsets[i + 1]` after `data_start`.
    offsets: Vec<u64>,
    crcs: Vec<u32>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

#[cfg(unix)]
pub(crate) fn read_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

#[cfg(windows)]
pub(crate) fn read_at(f: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(f, buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

impl SliceFile {
    /// Opens a slice file and checks its header and index (magic, version, game, material,
    /// sizes, the CRC-32 over them, the file's length), not yet its blocks.
    pub(crate) fn open(path: &Path, m: Material) -> Result<SliceFile, EgdbError> {
        let bad = |why: String| EgdbError::BadFile {
            path: path.to_path_buf(),
            why,
        };
        let file = File::open(path).map_err(io(path))?;
        let len = file.metadata().map_err(io(path))?.len();
        let mut fixed = [0u8; FIXED];
        if len < FIXED as u64 {
            return Err(bad(format!(
                "{len} bytes of data: truncated, or not a tetrad endgame database file"
            )));
        }
        read_at(&file, &mut fixed, 0).map_err(io(path))?;
        if &fixed[..8] != MAGIC {
            return Err(bad("not a tetrad endgame database file".into()));
        }
        let version = u32_at(&fixed, 8);
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, expected {VERSION} (rebuild it with this tetrad)"
            )));
        }
        if &fixed[12..20] != GAME {
            return Err(bad("not a database of this game".into()));
        }
        let got = Material::new(fixed[20], fixed[21], fixed[22], fixed[23]);
        if got != m {
            return Err(bad(format!("holds slice {got}, expected {m}")));
        }
        let values = u64_at(&fixed, 24);
        let per = u64::from(u32_at(&fixed, 32));
        let blocks = u64_at(&fixed, 36);
        if values != m.stored_len() || per != BLOCK_VALUES || blocks != blocks_of(values) {
            return Err(bad(format!(
                "{values} values in blocks of {per}, {blocks} blocks: slice {m} has {} values in \
                 blocks of {BLOCK_VALUES}",
                m.stored_len()
            )));
        }
        let index_len = (blocks + 1) * 8 + blocks * 4 + 4;
        let data_start = FIXED as u64 + index_len;
        if len < data_start {
            return Err(bad(format!(
                "{len} bytes of data, the header says at least {data_start}: truncated"
            )));
        }
        let mut header = vec![0u8; data_start as usize];
        read_at(&file, &mut header, 0).map_err(io(path))?;
        let crc_at = header.len() - 4;
        if crc32(&header[..crc_at]) != u32_at(&header, crc_at) {
            return Err(bad("header checksum mismatch: the file is corrupt".into()));
        }
        let offsets: Vec<u64> = (0..=blocks as usize)
            .map(|i| u64_at(&header, FIXED + 8 * i))
            .collect();
        let crcs_at = FIXED + 8 * (blocks as usize + 1);
        let crcs = (0..blocks as usize)
            .map(|i| u32_at(&header, crcs_at + 4 * i))
            .collect();
        let end = data_start + offsets[blocks as usize];
        if len != end {
            return Err(bad(format!(
                "{len} bytes of data, the index says {end}: truncated or overwritten"
            )));
        }
        Ok(SliceFile {
            path: path.to_path_buf(),
            file,
            material: m,
            values,
            longest: fixed[44],
            data_start,
            offsets,
            crcs,
        })
    }

    pub(crate) fn blocks(&self) -> u64 {
        self.crcs.len() as u64
    }

    /// Compressed bytes of the blocks.
    pub(crate) fn packed_bytes(&self) -> u64 {
        self.offsets.last().copied().unwrap_or(0)
    }

    /// Block `i`'s values, read and checked against its CRC-32.
    pub(crate) fn block(&self, i: u64) -> Result<Vec<u8>, EgdbError> {
        let bad = |why: String| EgdbError::BadFile {
            path: self.path.clone(),
            why,
        };
        let i = i as usize;
        let (from, to) = (self.offsets[i], self.offsets[i + 1]);
        if to < from || to - from > 1 << 24 {
            return Err(bad(format!("block {i}: a bad offset: the file is corrupt")));
        }
        let mut packed = vec![0u8; (to - from) as usize];
        read_at(&self.file, &mut packed, self.data_start + from).map_err(io(&self.path))?;
        if crc32(&packed) != self.crcs[i] {
            return Err(bad(format!(
                "block {i}: checksum mismatch: the file is corrupt"
            )));
        }
        let want = (self.values - i as u64 * BLOCK_VALUES).min(BLOCK_VALUES) as usize;
        let out = zstd::bulk::decompress(&packed, want)
            .map_err(|e| bad(format!("block {i}: {e}: the file is corrupt")))?;
        if out.len() != want {
            return Err(bad(format!(
                "block {i}: {} values, expected {want}: the file is corrupt",
                out.len()
            )));
        }
        Ok(out)
    }

    /// Every value, each block checked.
    pub(crate) fn read_all(&self) -> Result<Vec<u8>, EgdbError> {
        let mut out = Vec::with_capacity(self.values as usize);
        for i in 0..self.blocks() {
            out.extend_from_slice(&self.block(i)?);
        }
        Ok(out)
    }
}

/// Reads and checks a whole slice file: header, index and every block.
pub(crate) fn read(path: &Path, m: Material) -> Result<Vec<u8>, EgdbError> {
    SliceFile::open(path, m)?.read_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn names_round_trip() {
        let m = Material::new(1, 0, 2, 1);
        assert_eq!(material_of(&file_name(m)), Some(m));
        assert_eq!(material_of("poddavki-10x1.egdb"), None);
    }
}
