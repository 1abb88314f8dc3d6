//! Opening for play: every slice file of a directory, its header and index checked, its blocks
//! read on demand through a cache of bounded size (docs/egdb.md, "In play").

use std::path::Path;

use super::index::Material;
use super::{file, EgdbError, Tables};

/// What [`Tables::open_within`] opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// The slices opened, in build order.
    pub slices: Vec<Material>,
    /// Their compressed blocks' bytes.
    pub bytes: u64,
    /// The slices of the directory left out: with wins longer than the bound, or after one.
    pub left_out: Vec<Material>,
    /// The greatest distance to zeroing among the slices opened.
    pub max_dtz: u8,
}

impl Tables {
    /// Opens the slices of `dir` in build order (fewer pieces first) while their distances to
    /// zeroing (from each file's header) stay within `max_dtz`, and leaves out the first that
    /// does not and every later one: a slice's captures, promotions and man moves lead only to
    /// itself and to slices before it, so what is open is closed under play. Decompressed
    /// blocks are kept up to `cache_bytes`. A file whose header or index fails its checks is an
    /// error, as is a directory without slices; a block is checked when it is first read.
    pub fn open_within(
        dir: &Path,
        cache_bytes: u64,
        max_dtz: u32,
    ) -> Result<(Tables, Coverage), EgdbError> {
        let mut found = file::slices_in(dir)?;
        if found.is_empty() {
            return Err(EgdbError::BadFile {
                path: dir.to_path_buf(),
                why: "no endgame database slice files (poddavki-*.egdb) here".into(),
            });
        }
        found.sort_by_key(|m| (m.pieces(), m.men(), *m));
        let mut tables = Tables::open_files(dir, &found, cache_bytes)?;
        let mut cov = Coverage::default();
        for (i, &m) in found.iter().enumerate() {
            let longest = tables.longest(m).unwrap_or(0);
            if u32::from(longest) > max_dtz {
                cov.left_out = found[i..].to_vec();
                break;
            }
            cov.max_dtz = cov.max_dtz.max(longest);
            cov.bytes += tables.packed_bytes(m);
            cov.slices.push(m);
        }
        tables.keep_only(&cov.slices);
        Ok((tables, cov))
    }
}
