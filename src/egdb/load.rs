//! Loading for play: the slices of a directory in build order, as many as a memory bound
//! allows, each checked against its checksum (docs/egdb.md, "In play").

use std::path::Path;

use super::index::Material;
use super::{file, EgdbError, Tables, Value};

/// What [`Tables::open_within`] loaded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// The slices loaded, in build order.
    pub slices: Vec<Material>,
    pub bytes: u64,
    /// The slices of the directory left out: over the bound, or after one that was.
    pub left_out: Vec<Material>,
    /// The greatest distance to zeroing among the slices loaded.
    pub max_dtz: u8,
}

impl Tables {
    /// Loads the slices of `dir` in build order (fewer pieces first) while they fit in
    /// `max_bytes` and their distances to zeroing stay within `max_dtz`, and leaves out the
    /// first that does not and every later one: a slice's captures, promotions and man moves
    /// lead only to itself and to slices before it, so what is loaded is closed under play.
    /// A file that fails its checks is an error, as is a directory without slices.
    pub fn open_within(
        dir: &Path,
        max_bytes: u64,
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
        let mut tables = Tables::new();
        let mut cov = Coverage::default();
        for (i, &m) in found.iter().enumerate() {
            if cov.bytes + m.size() > max_bytes {
                cov.left_out = found[i..].to_vec();
                break;
            }
            let data = file::read(&dir.join(file::file_name(m)), m)?;
            let longest = data
                .iter()
                .filter_map(|&b| match Value::decode(b) {
                    Some(Value::Win(d) | Value::Loss(d)) => Some(d),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            if u32::from(longest) > max_dtz {
                cov.left_out = found[i..].to_vec();
                break;
            }
            cov.max_dtz = cov.max_dtz.max(longest);
            cov.bytes += m.size();
            cov.slices.push(m);
            tables.insert(m, data);
        }
        Ok((tables, cov))
    }
}
