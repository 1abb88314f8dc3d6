//! The games a session offers: a selection of the registry's rows ([`GameKind`], the one list
//! of games, `games/registry.rs`), and what is done over several games at once (`tetrad
//! bench`, `tetrad features`, every game's option declarations). [`Registry::builtin`] is
//! [`GameKind::all`], what the binary offers; [`Registry::with`] adds a row this process does
//! not list (the tests' toy game, in-process, without `TOY_GAME_VAR`).

use std::io::{self, BufRead, Write};
use std::sync::{Arc, OnceLock};

use crate::bench::{self, Settings, Totals};
use crate::games::tune::{self, FeaturesError};
use crate::games::{Game, GameKind, GameVisitor, UnknownGame};
use crate::options::GameOption;

/// The part of `tetrad bench` of each of `kinds`, then the totals.
pub fn bench(
    kinds: impl IntoIterator<Item = GameKind>,
    settings: Settings,
    out: &mut dyn Write,
) -> io::Result<Totals> {
    let mut total = Totals::default();
    for kind in kinds {
        total.add(bench_kind(kind, &settings, &mut *out)?);
    }
    bench::report(&total, &settings, out)?;
    Ok(total)
}

/// One game's part of `tetrad bench`, with its row's workloads.
pub fn bench_kind(kind: GameKind, settings: &Settings, out: &mut dyn Write) -> io::Result<Totals> {
    struct Bench<'a>(GameKind, &'a Settings, &'a mut dyn Write);
    impl GameVisitor for Bench<'_> {
        type Output = io::Result<Totals>;
        fn visit<G: Game>(self, game: G) -> io::Result<Totals> {
            bench::bench_game(&game, self.0.workloads(), self.1, self.2)
        }
    }
    kind.visit(Bench(kind, settings, out))
}

/// Whether `tetrad features` serves the game (its tuning hook says so).
pub fn is_tunable(kind: GameKind) -> bool {
    struct Tunable;
    impl GameVisitor for Tunable {
        type Output = bool;
        fn visit<G: Game>(self, game: G) -> bool {
            game.is_tunable()
        }
    }
    kind.visit(Tunable)
}

/// Why `tetrad features` gave no vectors.
#[derive(Debug, thiserror::Error)]
pub enum RegistryFeaturesError {
    #[error(transparent)]
    Unknown(#[from] UnknownGame),
    #[error(transparent)]
    Features(#[from] FeaturesError),
}

/// The games a session offers; see the module text.
pub struct Registry {
    kinds: Vec<GameKind>,
    /// The canonical names, in order, and (alias, canonical name) pairs: `'static` because the
    /// `game` option's choices and [`UnknownGame`] hold them. A registry is made once per
    /// process (the built-in one) or per test, so the few bytes each leaks do not add up.
    names: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
    /// Every game's option declarations, made on first use (it builds one state per game).
    option_decls: OnceLock<Vec<GameOption>>,
}

impl Registry {
    fn of(kinds: Vec<GameKind>) -> Registry {
        let names: Vec<&'static str> = kinds.iter().map(|k| k.name()).collect();
        let aliases: Vec<(&'static str, &'static str)> = kinds
            .iter()
            .flat_map(|k| k.aliases().iter().map(move |a| (*a, k.name())))
            .collect();
        Registry {
            kinds,
            names: Box::leak(names.into_boxed_slice()),
            aliases: Box::leak(aliases.into_boxed_slice()),
            option_decls: OnceLock::new(),
        }
    }

    /// The games this process plays, [`GameKind::all`] in order.
    pub fn builtin() -> Arc<Registry> {
        static BUILTIN: OnceLock<Arc<Registry>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| Arc::new(Registry::of(GameKind::all().to_vec()))))
    }

    /// These games and `kind` after them. Panics when it is among them already: that is a
    /// mistake in the code that builds the registry, not in any input.
    pub fn with(&self, kind: GameKind) -> Registry {
        assert!(!self.kinds.contains(&kind), "{kind} is offered already");
        let mut kinds = self.kinds.clone();
        kinds.push(kind);
        Registry::of(kinds)
    }

    /// The games, in order.
    pub fn kinds(&self) -> &[GameKind] {
        &self.kinds
    }

    /// The canonical names, in order (what `list_games` prints).
    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    /// (alias, canonical name) pairs.
    pub fn aliases(&self) -> &'static [(&'static str, &'static str)] {
        self.aliases
    }

    /// The game a name or alias stands for, in any case.
    pub fn find(&self, name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::find_in(&self.kinds, self.names, name)
    }

    /// `tetrad features` for the game `name` (see `games::tune::features`).
    pub fn features(
        &self,
        name: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<(), RegistryFeaturesError> {
        struct Features<'a>(&'a mut dyn BufRead, &'a mut dyn Write);
        impl GameVisitor for Features<'_> {
            type Output = Result<(), FeaturesError>;
            fn visit<G: Game>(self, game: G) -> Result<(), FeaturesError> {
                tune::features(&game, self.0, self.1)
            }
        }
        let kind = self.find(name)?;
        if !is_tunable(kind) {
            return Err(FeaturesError::NotTunable {
                game: kind.name(),
                tunable: self
                    .kinds
                    .iter()
                    .filter(|&&k| is_tunable(k))
                    .map(|k| k.name())
                    .collect(),
            }
            .into());
        }
        Ok(kind.visit(Features(input, out))?)
    }

    /// Every game's options as declared with their defaults (the first game declaring a name
    /// wins).
    pub fn option_decls(&self) -> &[GameOption] {
        self.option_decls.get_or_init(|| {
            let mut all: Vec<GameOption> = Vec::new();
            for k in &self.kinds {
                for o in k.new_state().options() {
                    if all.iter().all(|a| a.name != o.name) {
                        all.push(o);
                    }
                }
            }
            all
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_registry_is_the_listed_rows() {
        let r = Registry::builtin();
        assert_eq!(r.kinds(), GameKind::all());
        assert_eq!(r.names(), GameKind::names());
        for &kind in r.kinds() {
            assert_eq!(kind.new_state().name(), kind.name());
            assert_eq!(r.find(&kind.name().to_uppercase()), Ok(kind));
            for alias in kind.aliases() {
                assert!(r.aliases().contains(&(alias, kind.name())));
                assert_eq!(r.find(alias), Ok(kind));
            }
        }
        let err = r.find("chess").unwrap_err();
        assert_eq!(err, "chess".parse::<GameKind>().unwrap_err());
    }

    /// Tunability comes from each game's hook; the error lists what the registry found.
    #[test]
    fn features_serves_the_games_whose_hook_says_tunable() {
        let r = Registry::builtin();
        let tunable: Vec<&str> = r
            .kinds()
            .iter()
            .filter(|&&k| is_tunable(k))
            .map(|k| k.name())
            .collect();
        assert_eq!(tunable, ["poddavki", "diamond", "pods-advanced"]);
        let mut out = Vec::new();
        r.features("Diamond", &mut "".as_bytes(), &mut out)
            .expect("diamond is tunable");
        assert!(String::from_utf8_lossy(&out).starts_with("# game diamond\n"));
        let err = r
            .features("pods", &mut "".as_bytes(), &mut Vec::new())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "pods-standard has no tunable evaluation (tunable: poddavki, diamond, pods-advanced)"
        );
        assert!(matches!(
            r.features("chess", &mut "".as_bytes(), &mut Vec::new()),
            Err(RegistryFeaturesError::Unknown(_))
        ));
    }
}
