//! The one list of games. Every row of the `registry!` table below is a game: its kind, its
//! game value, the other names it answers to, and its part of `tetrad bench`. Everything that
//! iterates games (the `game` option, `list_games`, the bench, `tetrad features`, the fuzz
//! targets, the tests, the Python tools through `list_games`) iterates [`GameKind::all`];
//! generic code runs per game through [`GameKind::visit`]. Adding a game is its folder under
//! `src/games/` (with its `pub mod` line in `games/mod.rs`), one row here, and its rules page.
//!
//! A game's protocol name is the game's own ([`super::Rules::name`]), asked of its value: no row
//! spells it again.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::Game;

/// Generic code run for one game, monomorphised per game (the bench, the fuzz targets, the
/// learning commands): `kind.visit(MyVisitor)` calls `MyVisitor::visit` with that kind's game
/// value.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// A name that is not a game; the message lists the games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}' (valid: {list})", list = valid.join(", "))]
pub struct UnknownGame {
    pub name: String,
    /// The games there are (all of them, or a session's).
    pub valid: &'static [&'static str],
}

/// How much work one game's part of `tetrad bench` does: a registry row's numbers, plain data
/// here so that the row holds them and the bench needs no list of games.
#[derive(Clone, Copy, Debug)]
pub struct Workload {
    pub perft_start: u32,
    pub perft_mid: u32,
    pub search_depth: u32,
    pub playouts: u32,
    /// Random plies from the start to the second middle-game position.
    pub mid_b_plies: u32,
}

/// A game's workloads: full, and `--quick` (for tests and CI smoke runs).
#[derive(Clone, Copy, Debug)]
pub struct Workloads {
    pub full: Workload,
    pub quick: Workload,
}

impl Workloads {
    /// For a game without workloads of its own.
    pub const DEFAULT: Workloads = Workloads::of((3, 3, 5, 20_000), (3, 4, 3, 500), 24);

    /// From (perft at the start, perft in the middle game, search depth, playouts), full and
    /// quick.
    pub const fn of(full: (u32, u32, u32, u32), quick: (u32, u32, u32, u32), mid_b: u32) -> Self {
        const fn one(w: (u32, u32, u32, u32), mid_b_plies: u32) -> Workload {
            Workload {
                perft_start: w.0,
                perft_mid: w.1,
                search_depth: w.2,
                playouts: w.3,
                mid_b_plies,
            }
        }
        Workloads {
            full: one(full, mid_b),
            quick: one(quick, mid_b),
        }
    }

    pub fn pick(self, quick: bool) -> Workload {
        if quick {
            self.quick
        } else {
            self.full
        }
    }
}

macro_rules! registry {
    ($($(#[$attr:meta])* $kind:ident => $make:expr, aliases $aliases:expr, $workloads:expr;)*) => {
        /// A game the engine plays: one row of the registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($(#[$attr])* $kind,)*
        }

        impl GameKind {
            /// Every row compiled in, in table order (with the toy row in test builds, whether
            /// or not this process lists it: [`GameKind::all`] is the list).
            pub const ROWS: &'static [GameKind] = &[$($(#[$attr])* GameKind::$kind,)*];

            /// Other names that select this game (any case).
            pub fn aliases(self) -> &'static [&'static str] {
                match self {
                    $($(#[$attr])* GameKind::$kind => &$aliases,)*
                }
            }

            /// This game's part of `tetrad bench`.
            pub fn workloads(self) -> Workloads {
                match self {
                    $($(#[$attr])* GameKind::$kind => $workloads,)*
                }
            }

            /// Runs `visitor` with a fresh game value of this kind.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $($(#[$attr])* GameKind::$kind => visitor.visit($make),)*
                }
            }
        }
    };
}

// One row per game: kind, game value, aliases, bench workloads (full and `--quick` (perft at
// the start, perft in the middle game, search depth, playouts), then the random plies to the
// second middle-game position). The order is `list_games`' and the bench's; the first row is
// the game a session starts with.
registry! {
    Poddavki => super::poddavki::Poddavki::default(), aliases [],
        Workloads::of((11, 6, 10, 200_000), (8, 7, 7, 2_000), 24);
    // Phutball and Diamond count the last two plies without making moves, so their perft goes
    // deeper to measure anything.
    Phutball => super::phutball::Phutball::default(), aliases [],
        Workloads::of((4, 3, 4, 2_000), (3, 3, 2, 50), 24);
    Diamond => super::diamond::Diamond, aliases [],
        Workloads::of((5, 4, 6, 50_000), (4, 4, 4, 500), 24);
    // A standard Pods game is over after at most 28 placements: 24 random plies leave nothing
    // to search.
    PodsStandard => super::pods::Pods::new(super::pods::PodsRules::Standard), aliases ["pods"],
        Workloads::of((3, 3, 5, 20_000), (3, 4, 3, 500), 14);
    PodsAdvanced => super::pods::Pods::new(super::pods::PodsRules::Advanced), aliases [],
        Workloads::DEFAULT;
    // The test kit's toy game: compiled into test builds only, and listed only where
    // `TOY_GAME_VAR` asks for it (see `GameKind::all`).
    #[cfg(any(test, feature = "testkit"))]
    Toy => super::nim::Nim, aliases ["toy"], Workloads::DEFAULT;
}

/// Test builds only (the `testkit` feature, which the crate's tests turn on; release builds
/// have no such row): with this variable set, the test kit's toy game is the last row of
/// [`GameKind::all`], so that the tests that loop over the games are run on a game none of
/// them names. CI does that (`.ci/run`); documented in docs/architecture.md.
#[cfg(any(test, feature = "testkit"))]
pub const TOY_GAME_VAR: &str = "TETRAD_TOY_GAME";

impl GameKind {
    /// The games this process plays, in order: every row, but the toy row only in a test build
    /// with [`TOY_GAME_VAR`] set.
    pub fn all() -> &'static [GameKind] {
        static ALL: OnceLock<Vec<GameKind>> = OnceLock::new();
        ALL.get_or_init(|| {
            GameKind::ROWS
                .iter()
                .copied()
                .filter(|k| k.listed())
                .collect()
        })
    }

    /// Whether [`GameKind::all`] has this row.
    fn listed(self) -> bool {
        #[cfg(any(test, feature = "testkit"))]
        if self == GameKind::Toy {
            return std::env::var_os(TOY_GAME_VAR).is_some();
        }
        true
    }

    /// [`GameKind::all`]'s names, in order (what `list_games` prints).
    pub fn names() -> &'static [&'static str] {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| GameKind::all().iter().map(|k| k.name()).collect())
    }

    /// The canonical protocol name: the game's own ([`super::Rules::name`]).
    pub fn name(self) -> &'static str {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| GameKind::ROWS.iter().map(|k| k.visit(NameOf)).collect())
            [self as usize]
    }

    /// The game among `kinds` that `name` (a canonical name or an alias, any case) stands for;
    /// the error lists `valid`, `kinds`' names.
    pub fn find_in(
        kinds: &[GameKind],
        valid: &'static [&'static str],
        name: &str,
    ) -> Result<GameKind, UnknownGame> {
        let lower = name.to_ascii_lowercase();
        kinds
            .iter()
            .copied()
            .find(|k| k.name() == lower || k.aliases().contains(&lower.as_str()))
            .ok_or(UnknownGame {
                name: name.to_string(),
                valid,
            })
    }
}

struct NameOf;

impl GameVisitor for NameOf {
    type Output = &'static str;
    fn visit<G: Game>(self, game: G) -> &'static str {
        game.name()
    }
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    /// A game of [`GameKind::all`] by canonical name or alias, case-insensitive.
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::find_in(GameKind::all(), GameKind::names(), s)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_discriminant_order_with_distinct_names() {
        for (i, &k) in GameKind::ROWS.iter().enumerate() {
            assert_eq!(k as usize, i);
        }
        let mut all: Vec<&str> = GameKind::ROWS
            .iter()
            .flat_map(|k| std::iter::once(k.name()).chain(k.aliases().iter().copied()))
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "two rows share a name: {all:?}");
        for a in all {
            assert_eq!(a, a.to_ascii_lowercase(), "names are lower case");
        }
    }

    #[test]
    fn names_and_aliases_parse_in_any_case() {
        assert_eq!(GameKind::names().len(), GameKind::all().len());
        for (&k, &n) in GameKind::all().iter().zip(GameKind::names()) {
            assert_eq!(k.name(), n);
            assert_eq!(n.parse::<GameKind>(), Ok(k));
            assert_eq!(n.to_uppercase().parse::<GameKind>(), Ok(k));
            for alias in k.aliases() {
                assert_eq!(alias.to_uppercase().parse::<GameKind>(), Ok(k));
            }
        }
        assert_eq!("Pods".parse::<GameKind>(), Ok(GameKind::PodsStandard));
        let err = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "unknown game 'chess' (valid: {})",
                GameKind::names().join(", ")
            )
        );
    }
}
