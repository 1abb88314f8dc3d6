//! What a slice needs before it can be built, and the slices grouped by dependency level, so
//! that the slices of one level can be built at once as separate jobs (docs/egdb.md).

use std::path::Path;

use super::index::{slices_upto, Material};
use super::{file, EgdbError, Reads, Tables};

impl Material {
    /// The stored slices a move from this one can lead to (other than itself): the mover may
    /// promote a man, and a capture takes any of the opponent's pieces but not all (a side left
    /// without pieces is not stored). A superset where a capture sequence is impossible on the
    /// board: a dependency listed too many only orders the build more strictly.
    pub fn dependencies(&self) -> Vec<Material> {
        let mut out = Vec::new();
        let sides = [
            (
                (self.white_men, self.white_kings),
                (self.black_men, self.black_kings),
            ),
            (
                (self.black_men, self.black_kings),
                (self.white_men, self.white_kings),
            ),
        ];
        for (white_moves, ((men, kings), (their_men, their_kings))) in
            [true, false].into_iter().zip(sides)
        {
            let mut movers = vec![(men, kings)];
            if men > 0 {
                movers.push((men - 1, kings + 1));
            }
            for &(m, k) in &movers {
                for tm in 0..=their_men {
                    for tk in 0..=their_kings {
                        let d = if white_moves {
                            Material::new(m, k, tm, tk)
                        } else {
                            Material::new(tm, tk, m, k)
                        };
                        if d != *self && d.is_stored() && !out.contains(&d) {
                            out.push(d);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// The stored slices a stored (canonical) slice's build reads: its dependencies or their
    /// mirrors, whichever is stored.
    pub fn stored_dependencies(&self) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        for d in self.dependencies() {
            let c = d.canonical();
            if c != *self && !out.contains(&c) {
                out.push(c);
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }
}

/// Every stored slice with up to `pieces` pieces by level (of a slice and its colour mirror,
/// the one stored): a slice depends only on slices of lower levels, so those of one level can
/// be built in any order or at once.
pub fn plan(pieces: u32) -> Vec<Vec<Material>> {
    let order: Vec<Material> = slices_upto(pieces)
        .into_iter()
        .filter(|m| *m == m.canonical())
        .collect();
    let mut level_of: Vec<(Material, usize)> = Vec::new();
    let mut levels: Vec<Vec<Material>> = Vec::new();
    for m in order {
        let level = m
            .stored_dependencies()
            .iter()
            .map(|d| {
                level_of
                    .iter()
                    .find(|(x, _)| x == d)
                    .map_or(0, |&(_, l)| l + 1)
            })
            .max()
            .unwrap_or(0);
        level_of.push((m, level));
        if levels.len() <= level {
            levels.resize(level + 1, Vec::new());
        }
        levels[level].push(m);
    }
    levels
}

/// The first dependency of `m` with no file in `dir`, as an error that says what to do.
fn check_dependencies(dir: &Path, m: Material) -> Result<(), EgdbError> {
    for d in m.stored_dependencies() {
        let path = dir.join(file::file_name(d));
        if !path.exists() {
            return Err(EgdbError::Needs {
                slice: m,
                missing: d,
                dir: dir.to_path_buf(),
            });
        }
    }
    Ok(())
}

impl Tables {
    /// Loads one slice of a directory and the slices it depends on (an error names the first
    /// one missing), each checked.
    pub fn open_slice(dir: &Path, m: Material) -> Result<Tables, EgdbError> {
        let m = m.canonical();
        let mut tables = Tables::new();
        tables.hold_dependencies(dir, m, Reads::Whole)?;
        tables.insert(m, file::read(&dir.join(file::file_name(m)), m)?);
        Ok(tables)
    }

    /// Holds the slices `m` depends on, read from `dir` (an error names the first one
    /// missing), and no others: whole, keeping those already held, or opened to be read a
    /// block at a time.
    pub(crate) fn hold_dependencies(
        &mut self,
        dir: &Path,
        m: Material,
        reads: Reads,
    ) -> Result<(), EgdbError> {
        check_dependencies(dir, m)?;
        let deps = m.stored_dependencies();
        match reads {
            Reads::Whole => {
                self.keep_only(&deps);
                for &d in &deps {
                    if self.get(d).is_none() {
                        self.insert(d, file::read(&dir.join(file::file_name(d)), d)?);
                    }
                }
            }
            Reads::Blocks(bytes) => *self = Tables::open_files(dir, &deps, bytes)?,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dependency_comes_at_a_lower_level() {
        let levels = plan(5);
        let level = |m: &Material| levels.iter().position(|l| l.contains(m));
        let mut n = 0;
        for (i, l) in levels.iter().enumerate() {
            for m in l {
                n += 1;
                assert_eq!(*m, m.canonical());
                for d in m.dependencies() {
                    let d = d.canonical();
                    assert!(level(&d).is_some_and(|j| j < i), "{m} needs {d}");
                }
            }
        }
        // 85 slices, of which 5 are their own mirrors: (85 + 5) / 2 stored.
        assert_eq!(n, 45);
        // Two kings against one: captures lead to one king each, which lead nowhere stored.
        assert_eq!(
            Material::new(0, 2, 0, 1).dependencies(),
            [Material::new(0, 1, 0, 1)]
        );
        // Man against man and king: a promotion of either man, and White's captures of one
        // black piece (of both, Black has none left; Black's of the white man leave White none).
        assert_eq!(
            Material::new(1, 0, 1, 1).dependencies(),
            [
                Material::new(0, 1, 0, 1),
                Material::new(0, 1, 1, 0),
                Material::new(1, 0, 0, 1),
                Material::new(1, 0, 1, 0),
                Material::new(0, 1, 1, 1),
                Material::new(1, 0, 0, 2),
            ]
        );
    }
}
