//! The games a session can play, as an open list. [`Registry::builtin`] holds the engine's own
//! games ([`GameKind::ALL`], in that order); [`Registry::with`] adds one more, so that a game
//! defined outside the crate (the tests' toy game) is selected, listed, searched and benched
//! exactly like the built-in ones. The binary always runs with the built-in registry.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, OnceLock};

use crate::bench::{self, Settings, Totals, Workloads};
use crate::engine::{AnyGame, GameState};
use crate::games::tune::{self, FeaturesError};
use crate::games::{Game, GameKind, GameVisitor, UnknownGame};
use crate::options::GameOption;

type NewState = dyn Fn() -> Box<dyn AnyGame> + Send + Sync;
type BenchFn = dyn Fn(&Settings, &mut dyn Write) -> io::Result<Totals> + Send + Sync;
type FeaturesFn =
    dyn Fn(&mut dyn BufRead, &mut dyn Write) -> Result<(), FeaturesError> + Send + Sync;

/// One game of a registry: its names, how to make one, and its part of `tetrad bench`.
#[derive(Clone)]
pub struct Entry {
    /// The canonical protocol name (the game's own [`Game::name`]).
    pub name: &'static str,
    /// Other names that select it (any case).
    pub aliases: Vec<&'static str>,
    /// Whether `tetrad features` serves it (the game's tuning hook says so).
    pub tunable: bool,
    new_state: Arc<NewState>,
    bench: Arc<BenchFn>,
    features: Arc<FeaturesFn>,
    #[cfg(any(test, feature = "testkit"))]
    conformance: Arc<dyn Fn(crate::testkit::Soak) -> crate::testkit::Report + Send + Sync>,
}

impl Entry {
    /// The entry of `game` (its options as set in this value), with the bench workloads it runs.
    pub fn new<G: Game>(game: G, aliases: &[&'static str], workloads: Workloads) -> Entry {
        let name = game.name();
        let tunable = game.is_tunable();
        let for_state = game.clone();
        let for_features = game.clone();
        #[cfg(any(test, feature = "testkit"))]
        let for_kit = game.clone();
        Entry {
            name,
            aliases: aliases.to_vec(),
            tunable,
            new_state: Arc::new(move || Box::new(GameState::new(for_state.clone()))),
            features: Arc::new(move |input, out| tune::features(&for_features, input, out)),
            bench: Arc::new(move |settings, out| {
                bench::bench_game(&game, workloads, settings, out)
            }),
            #[cfg(any(test, feature = "testkit"))]
            conformance: Arc::new(move |soak| crate::testkit::conformance(&for_kit, soak)),
        }
    }

    /// A game of this kind at its start position, type-erased for the session.
    pub fn new_state(&self) -> Box<dyn AnyGame> {
        (self.new_state)()
    }

    /// The test kit's conformance checks on this game.
    #[cfg(any(test, feature = "testkit"))]
    pub fn conformance(&self, soak: crate::testkit::Soak) -> crate::testkit::Report {
        (self.conformance)(soak)
    }

    /// This game's part of `tetrad bench`.
    pub fn bench(&self, settings: &Settings, out: &mut dyn Write) -> io::Result<Totals> {
        (self.bench)(settings, out)
    }
}

/// `tetrad bench` over `games` (a registry's entries, or some of them): each game's part, then
/// the totals.
pub fn bench<'a>(
    games: impl IntoIterator<Item = &'a Entry>,
    settings: Settings,
    out: &mut dyn Write,
) -> io::Result<Totals> {
    let mut total = Totals::default();
    for game in games {
        total.add(game.bench(&settings, &mut *out)?);
    }
    bench::report(&total, &settings, out)?;
    Ok(total)
}

/// Test builds only (the `testkit` feature, which the crate's tests turn on; release builds
/// have no such row): with this variable set, the test kit's toy game is the last built-in row,
/// so that the tests that loop over the games can be run once on a game none of them names.
/// CI does that (`.ci/run`); documented in docs/architecture.md.
#[cfg(any(test, feature = "testkit"))]
pub const TOY_GAME_VAR: &str = "TETRAD_TOY_GAME";

/// The toy game's built-in row, where `TOY_GAME_VAR` asks for it in a test build.
fn toy_row() -> Option<Entry> {
    #[cfg(any(test, feature = "testkit"))]
    if std::env::var_os(TOY_GAME_VAR).is_some() {
        return Some(Entry::new(
            crate::testkit::nim::Nim,
            &["toy"],
            Workloads::DEFAULT,
        ));
    }
    None
}

/// Why `tetrad features` gave no vectors.
#[derive(Debug, thiserror::Error)]
pub enum RegistryFeaturesError {
    #[error(transparent)]
    Unknown(#[from] UnknownGame),
    #[error(transparent)]
    Features(#[from] FeaturesError),
}

/// The list of games; see the module text.
pub struct Registry {
    entries: Vec<Entry>,
    /// The canonical names, in order, and (alias, canonical name) pairs: `'static` because the
    /// `game` option's declaration and [`UnknownGame`] hold them. A registry is made once per
    /// process (the built-in one) or per test, so the few bytes each leaks do not add up.
    names: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
    /// Every game's option declarations, made on first use (it builds one state per game).
    option_decls: OnceLock<Vec<GameOption>>,
}

struct BuiltinEntry(GameKind);

impl GameVisitor for BuiltinEntry {
    type Output = Entry;
    fn visit<G: Game>(self, game: G) -> Entry {
        let aliases: Vec<&'static str> = GameKind::ALIASES
            .iter()
            .filter(|(_, name)| *name == self.0.name())
            .map(|(alias, _)| *alias)
            .collect();
        Entry::new(game, &aliases, self.0.workloads())
    }
}

impl Registry {
    fn from_entries(entries: Vec<Entry>) -> Registry {
        let names: Vec<&'static str> = entries.iter().map(|e| e.name).collect();
        let aliases: Vec<(&'static str, &'static str)> = entries
            .iter()
            .flat_map(|e| e.aliases.iter().map(move |a| (*a, e.name)))
            .collect();
        Registry {
            entries,
            names: Box::leak(names.into_boxed_slice()),
            aliases: Box::leak(aliases.into_boxed_slice()),
            option_decls: OnceLock::new(),
        }
    }

    /// The engine's games, [`GameKind::ALL`] in order (and, in test builds asked for it, the
    /// toy game: see `TOY_GAME_VAR`).
    pub fn builtin() -> Arc<Registry> {
        static BUILTIN: OnceLock<Arc<Registry>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| {
            let entries = GameKind::ALL
                .iter()
                .map(|&k| k.visit(BuiltinEntry(k)))
                .chain(toy_row())
                .collect();
            Arc::new(Registry::from_entries(entries))
        }))
    }

    /// These games and `entry` after them. Panics when one of its names is taken: two games
    /// under one name are a mistake in the code that builds the registry, not in any input.
    pub fn with(&self, entry: Entry) -> Registry {
        for name in std::iter::once(&entry.name).chain(&entry.aliases) {
            assert!(
                self.find(name).is_err(),
                "the game name '{name}' is taken already"
            );
        }
        let mut entries = self.entries.clone();
        entries.push(entry);
        Registry::from_entries(entries)
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
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
    pub fn find(&self, name: &str) -> Result<&Entry, UnknownGame> {
        let lower = name.to_ascii_lowercase();
        let canonical = self
            .aliases
            .iter()
            .find(|(alias, _)| *alias == lower)
            .map_or(lower.as_str(), |&(_, name)| name);
        self.entries
            .iter()
            .find(|e| e.name == canonical)
            .ok_or(UnknownGame {
                name: name.to_string(),
                valid: self.names,
            })
    }

    /// `tetrad features` for the game `name` (see `games::tune::features`).
    pub fn features(
        &self,
        name: &str,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> Result<(), RegistryFeaturesError> {
        let entry = self.find(name)?;
        if !entry.tunable {
            return Err(FeaturesError::NotTunable {
                game: entry.name,
                tunable: self
                    .entries
                    .iter()
                    .filter(|e| e.tunable)
                    .map(|e| e.name)
                    .collect(),
            }
            .into());
        }
        Ok((entry.features)(input, out)?)
    }

    /// Every game's options as declared with their defaults (the first game declaring a name
    /// wins).
    pub fn option_decls(&self) -> &[GameOption] {
        self.option_decls.get_or_init(|| {
            let mut all: Vec<GameOption> = Vec::new();
            for e in &self.entries {
                for o in e.new_state().options() {
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
    fn the_builtin_registry_is_the_game_kinds() {
        let r = Registry::builtin();
        assert_eq!(r.names(), GameKind::NAMES);
        assert_eq!(r.aliases(), GameKind::ALIASES);
        for (&kind, e) in GameKind::ALL.iter().zip(r.entries()) {
            assert_eq!(e.name, kind.name());
            assert_eq!(e.new_state().name(), kind.name());
            assert_eq!(
                r.find(&kind.name().to_uppercase()).map(|e| e.name),
                Ok(e.name)
            );
        }
        assert_eq!(r.find("Pods").map(|e| e.name), Ok("pods-standard"));
        let err = r.find("chess").map(|e| e.name).unwrap_err();
        assert_eq!(err, "chess".parse::<GameKind>().unwrap_err());
    }

    /// Tunability comes from each game's hook; the error lists what the registry found.
    #[test]
    fn features_serves_the_games_whose_hook_says_tunable() {
        let r = Registry::builtin();
        let tunable: Vec<&str> = r
            .entries()
            .iter()
            .filter(|e| e.tunable)
            .map(|e| e.name)
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
