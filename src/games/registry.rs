//! The one list of games. Everything that iterates games (the `game` option, `list_games`,
//! the bench, the fuzz targets, the tests) iterates [`GameKind::ALL`]; adding a game is a
//! folder under `src/games/` plus one line in the `registry!` table below.

use std::fmt;
use std::str::FromStr;

use super::Game;
use crate::render::Draw;

/// Generic code run for one game, monomorphised per game (the bench, the fuzz targets):
/// `kind.visit(MyVisitor)` calls `MyVisitor::visit` with that kind's game value.
pub trait GameVisitor {
    type Output;
    fn visit<G: Game + Draw>(self, game: G) -> Self::Output;
}

/// A name that is not a game; the message lists the games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game '{name}' (valid: {list})", list = valid.join(", "))]
pub struct UnknownGame {
    pub name: String,
    /// The games there are (the built-in ones, or a registry's).
    pub valid: &'static [&'static str],
}

macro_rules! registry {
    ($($kind:ident => $name:literal, $make:expr;)*) => {
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

            /// Runs `visitor` with a fresh game value of this kind.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(GameKind::$kind => visitor.visit($make),)*
                }
            }
        }
    };
}

registry! {
    Poddavki => "poddavki", super::poddavki::Poddavki::default();
    Phutball => "phutball", super::phutball::Phutball;
    Diamond => "diamond", super::diamond::Diamond;
    PodsStandard => "pods-standard", super::pods::Pods::new(super::pods::PodsRules::Standard);
    PodsAdvanced => "pods-advanced", super::pods::Pods::new(super::pods::PodsRules::Advanced);
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
        fn visit<G: Game + Draw>(self, game: G) -> &'static str {
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
