//! The games a session can play, as an open list. [`Registry::builtin`] holds the engine's own
//! games ([`GameKind::ALL`], in that order); [`Registry::with`] adds one more, so that a game
//! defined outside the crate (the tests' toy game) is selected, listed, searched and benched
//! exactly like the built-in ones. The binary always runs with the built-in registry.

use std::io::{self, Write};
use std::sync::{Arc, OnceLock};

use crate::bench::{self, Settings, Totals, Workloads};
use crate::engine::{AnyGame, GameState};
use crate::games::{Game, GameKind, GameVisitor, UnknownGame};
use crate::options::GameOption;
use crate::render::Draw;

type NewState = dyn Fn() -> Box<dyn AnyGame> + Send + Sync;
type BenchFn = dyn Fn(&Settings, &mut dyn Write) -> io::Result<Totals> + Send + Sync;

/// One game of a registry: its names, how to make one, and its part of `tetrad bench`.
#[derive(Clone)]
pub struct Entry {
    /// The canonical protocol name (the game's own [`Game::name`]).
    pub name: &'static str,
    /// Other names that select it (any case).
    pub aliases: Vec<&'static str>,
    new_state: Arc<NewState>,
    bench: Arc<BenchFn>,
    #[cfg(any(test, feature = "testkit"))]
    conformance: Arc<dyn Fn(crate::testkit::Soak) -> crate::testkit::Report + Send + Sync>,
}

impl Entry {
    /// The entry of `game` (its options as set in this value), with the bench workloads it runs.
    pub fn new<G: Game + Draw>(game: G, aliases: &[&'static str], workloads: Workloads) -> Entry {
        let name = game.name();
        let for_state = game.clone();
        #[cfg(any(test, feature = "testkit"))]
        let for_kit = game.clone();
        Entry {
            name,
            aliases: aliases.to_vec(),
            new_state: Arc::new(move || Box::new(GameState::new(for_state.clone()))),
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
    fn visit<G: Game + Draw>(self, game: G) -> Entry {
        let aliases: Vec<&'static str> = GameKind::ALIASES
            .iter()
            .filter(|(_, name)| *name == self.0.name())
            .map(|(alias, _)| *alias)
            .collect();
        Entry::new(game, &aliases, bench::workloads(self.0))
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

    /// The engine's games, [`GameKind::ALL`] in order.
    pub fn builtin() -> Arc<Registry> {
        static BUILTIN: OnceLock<Arc<Registry>> = OnceLock::new();
        Arc::clone(BUILTIN.get_or_init(|| {
            Arc::new(Registry::from_entries(
                GameKind::ALL
                    .iter()
                    .map(|&k| k.visit(BuiltinEntry(k)))
                    .collect(),
            ))
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
}
