//! The one list of games. Everything that iterates games (the `game` option, `list_games`,
//! the bench, the fuzz targets, the tests) iterates [`GameKind::ALL`] (through the session
//! registry, `crate::registry`); adding a game is a folder under `src/games/` plus one row in
//! the `registry!` table below.

use std::fmt;
use std::str::FromStr;

use super::Game;

/// Generic code run for one game, monomorphised per game (the bench, the fuzz targets):
/// `kind.visit(MyVisitor)` calls `MyVisitor::visit` with that kind's game value.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

/// A name that is not a game; the message lists the games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}' (valid: {list})", list = valid.join(", "))]
pub struct UnknownGame {
    pub name: String,
    /// The games there are (the built-in ones, or a registry's).
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

/// The built-in games' workloads.
pub fn workloads(kind: GameKind) -> Workloads {
    match kind {
        GameKind::Poddavki => Workloads::of((11, 6, 10, 200_000), (8, 7, 7, 2_000), 24),
        // Phutball and Diamond count the last two plies without making moves, so their perft
        // goes deeper to measure anything.
        GameKind::Phutball => Workloads::of((4, 3, 4, 2_000), (3, 3, 2, 50), 24),
        GameKind::Diamond => Workloads::of((5, 4, 6, 50_000), (4, 4, 4, 500), 24),
        // A standard Pods game is over after at most 28 placements: 24 random plies leave
        // nothing to search.
        GameKind::PodsStandard => Workloads::of((3, 3, 5, 20_000), (3, 4, 3, 500), 14),
        GameKind::PodsAdvanced => Workloads::DEFAULT,
    }
}

macro_rules! registry {
    ($($kind:ident => $name:literal, $make:expr, $workloads:expr;)*) => {
        /// A game the engine plays, by its protocol name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($kind,)*
        }

        impl GameKind {
            /// Every game, in the order `list_games` and the bench give them.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$kind,)*];
            /// Their canonical protocol names, in the same order.
            pub const NAMES: &'static [&'static str] = &[$($name,)*];

            /// The canonical protocol name (what `Rules::name` returns).
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$kind => $name,)*
                }
            }

            /// This game's part of `tetrad bench`.
            pub fn workloads(self) -> Workloads {
                match self {
                    $(GameKind::$kind => $workloads,)*
                }
            }

            /// Runs `visitor` with a fresh game value of this kind.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(GameKind::$kind => visitor.visit($make),)*
                }
            }
        }
    };
}

// One row per game: kind, protocol name, game value, bench workloads (full and `--quick`
// (perft at the start, perft in the middle game, search depth, playouts), then the random
// plies to the second middle-game position).
registry! {
    Poddavki => "poddavki", super::poddavki::Poddavki::default(),
        Workloads::of((11, 6, 10, 200_000), (8, 7, 7, 2_000), 24);
    // Phutball and Diamond count the last two plies without making moves, so their perft goes
    // deeper to measure anything.
    Phutball => "phutball", super::phutball::Phutball::default(),
        Workloads::of((4, 3, 4, 2_000), (3, 3, 2, 50), 24);
    Diamond => "diamond", super::diamond::Diamond,
        Workloads::of((5, 4, 6, 50_000), (4, 4, 4, 500), 24);
    // A standard Pods game is over after at most 28 placements: 24 random plies leave nothing
    // to search.
    PodsStandard => "pods-standard", super::pods::Pods::new(super::pods::PodsRules::Standard),
        Workloads::of((3, 3, 5, 20_000), (3, 4, 3, 500), 14);
    PodsAdvanced => "pods-advanced", super::pods::Pods::new(super::pods::PodsRules::Advanced),
        Workloads::DEFAULT;
}

impl GameKind {
    /// Other names the protocol accepts for a game: (alias, canonical name).
    pub const ALIASES: &'static [(&'static str, &'static str)] = &[("pods", "pods-standard")];
}

impl FromStr for GameKind {
    type Err = UnknownGame;

    /// Canonical names and aliases, case-insensitive.
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        let lower = s.to_ascii_lowercase();
        let canonical = GameKind::ALIASES
            .iter()
            .find(|(alias, _)| *alias == lower)
            .map_or(lower.as_str(), |&(_, name)| name);
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == canonical)
            .ok_or(UnknownGame {
                name: s.to_string(),
                valid: GameKind::NAMES,
            })
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

    struct NameOf;
    impl GameVisitor for NameOf {
        type Output = &'static str;
        fn visit<G: Game>(self, game: G) -> &'static str {
            game.name()
        }
    }

    #[test]
    fn registry_names_are_the_games_own_names() {
        assert_eq!(GameKind::ALL.len(), GameKind::NAMES.len());
        for (&k, &n) in GameKind::ALL.iter().zip(GameKind::NAMES) {
            assert_eq!(k.name(), n);
            assert_eq!(k.visit(NameOf), n);
            assert_eq!(n.parse::<GameKind>(), Ok(k));
            assert_eq!(n.to_uppercase().parse::<GameKind>(), Ok(k));
        }
    }

    #[test]
    fn aliases_and_unknown_names() {
        for (alias, name) in GameKind::ALIASES {
            assert_eq!(alias.parse::<GameKind>(), name.parse::<GameKind>());
            assert!(GameKind::NAMES.contains(name), "{alias} stands for a game");
        }
        assert_eq!("Pods".parse::<GameKind>(), Ok(GameKind::PodsStandard));
        let err = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "unknown game 'chess' (valid: {})",
                GameKind::NAMES.join(", ")
            )
        );
    }
}
