//! The engine options: every option shared by the games declared once in [`ENGINE_OPTIONS`]
//! (setting, GTP `list_options` and the UGI `option` lines come from it), the games' own
//! options, and the caps they put on every search.

use std::time::Instant;

use super::egdb::MAX_EGDB_MIB;
use super::{Session, SessionError, SetOption};
use crate::engine;
use crate::options::{self, Kind, OptionError, Value};
use crate::search::Limits;

/// Engine options shared by every game (`set_option` / `setoption`), as the table
/// [`ENGINE_OPTIONS`] sets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    pub hash_mib: usize,
    pub seed: u64,
    pub move_overhead: u64,
    pub ponder: bool,
    pub multipv: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            movetime: None,
            depth: None,
            nodes: None,
            threads: 1,
            hash_mib: engine::DEFAULT_HASH_MIB,
            seed: 0,
            move_overhead: 50,
            ponder: false,
            multipv: 1,
        }
    }
}

pub const MAX_HASH_MIB: usize = 4096;
pub const MAX_THREADS: usize = crate::search::MAX_THREADS;
/// Lines a MultiPV search may be asked for (fewer when the root has fewer moves).
pub const MAX_MULTIPV: usize = 256;
/// Spin bounds are kept within 32-bit integers, which is how GUIs read them.
pub const MAX_SEED: u64 = 2_147_483_647;
pub const MAX_NODES: u64 = 2_147_483_647;
pub const MAX_DEPTH: u64 = 100;
/// A day, in milliseconds.
pub const MAX_MOVETIME: u64 = 86_400_000;
pub const MAX_MOVE_OVERHEAD: u64 = 60_000;

/// One engine option: its names, type, default and how it is read and applied. Every option is
/// declared here once; setting, GTP `list_options` and the UGI `option` lines come from this.
pub struct EngineOption {
    /// GTP name (lower case with `_`).
    pub gtp: &'static str,
    /// UGI name.
    pub ugi: &'static str,
    /// More names that select the option.
    pub aliases: &'static [&'static str],
    /// Values that stand for another (`pods` for `pods-standard`).
    pub value_aliases: &'static [(&'static str, &'static str)],
    pub kind: Kind,
    pub default: &'static str,
    pub help: &'static str,
    pub(super) get: fn(&Session) -> String,
    pub(super) set: fn(&mut Session, Value) -> Result<(), SessionError>,
}

fn limit_text(v: Option<u64>) -> String {
    v.unwrap_or(0).to_string()
}

fn limit(v: &Value) -> Option<u64> {
    Some(v.int()).filter(|&n| n > 0)
}

pub static ENGINE_OPTIONS: &[EngineOption] = &[
    EngineOption {
        gtp: "game",
        ugi: "UCI_Variant",
        aliases: &["variant"],
        // Choices, aliases and default (the first game): the registry's, from `kind_of`.
        value_aliases: &[],
        kind: Kind::Combo(&[]),
        default: "",
        help: "the game; selecting it starts a new game",
        get: |s| s.game.name().to_string(),
        set: |s, v| s.set_game(&v.text()),
    },
    EngineOption {
        gtp: "threads",
        ugi: "Threads",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_THREADS as u64,
        },
        default: "1",
        help: "search threads",
        get: |s| s.options.threads.to_string(),
        set: |s, v| {
            s.options.threads = v.int() as usize;
            Ok(())
        },
    },
    EngineOption {
        gtp: "hash",
        ugi: "Hash",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_HASH_MIB as u64,
        },
        default: "16",
        help: "transposition table size in MiB",
        get: |s| s.options.hash_mib.to_string(),
        set: |s, v| s.set_hash(v.int() as usize),
    },
    EngineOption {
        gtp: "multipv",
        ugi: "MultiPV",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_MULTIPV as u64,
        },
        default: "1",
        help: "best root moves searched and reported, each with its score and PV",
        get: |s| s.options.multipv.to_string(),
        set: |s, v| {
            s.options.multipv = v.int() as usize;
            Ok(())
        },
    },
    EngineOption {
        gtp: "seed",
        ugi: "Seed",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_SEED,
        },
        default: "0",
        help: "order of root moves of equal merit (0: the game's own order)",
        get: |s| s.options.seed.to_string(),
        set: |s, v| {
            s.options.seed = v.int();
            Ok(())
        },
    },
    EngineOption {
        gtp: "move_overhead",
        ugi: "MoveOverhead",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 0,
            max: MAX_MOVE_OVERHEAD,
        },
        default: "50",
        help: "milliseconds kept in hand on every clock",
        get: |s| s.options.move_overhead.to_string(),
        set: |s, v| {
            s.options.move_overhead = v.int();
            Ok(())
        },
    },
    EngineOption {
        gtp: "ponder",
        ugi: "Ponder",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Check,
        default: "false",
        help: "UGI: bestmove names the expected reply (bestmove M ponder P)",
        get: |s| s.options.ponder.to_string(),
        set: |s, v| {
            s.options.ponder = v.bool();
            Ok(())
        },
    },
    EngineOption {
        gtp: "movetime",
        ugi: "MoveTime",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_MOVETIME },
        default: "0",
        help: "cap on every search, milliseconds (0: off)",
        get: |s| limit_text(s.options.movetime),
        set: |s, v| {
            s.options.movetime = limit(&v);
            Ok(())
        },
    },
    EngineOption {
        gtp: "depth",
        ugi: "Depth",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_DEPTH },
        default: "0",
        help: "cap on every search, plies (0: off)",
        get: |s| limit_text(s.options.depth.map(u64::from)),
        set: |s, v| {
            s.options.depth = limit(&v).map(|d| d as u32);
            Ok(())
        },
    },
    EngineOption {
        gtp: "nodes",
        ugi: "Nodes",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Limit { max: MAX_NODES },
        default: "0",
        help: "cap on every search, nodes (0: off)",
        get: |s| limit_text(s.options.nodes),
        set: |s, v| {
            s.options.nodes = limit(&v);
            Ok(())
        },
    },
    EngineOption {
        gtp: "egdb_path",
        ugi: "EgdbPath",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Path,
        default: "",
        help: "endgame database directory (empty: none)",
        get: |s| s.endgames.path().to_string(),
        set: |s, v| s.set_egdb_path(&v.text()),
    },
    EngineOption {
        gtp: "egdb_memory",
        ugi: "EgdbMemory",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Spin {
            min: 1,
            max: MAX_EGDB_MIB,
        },
        default: "512",
        help: "MiB the endgame database may take: its slices in build order up to that",
        get: |s| s.endgames.memory_mib.to_string(),
        set: |s, v| s.set_egdb_memory(v.int()),
    },
    EngineOption {
        gtp: "clear_hash",
        ugi: "Clear Hash",
        aliases: &[],
        value_aliases: &[],
        kind: Kind::Button,
        default: "",
        help: "empties the transposition table",
        get: |_| String::new(),
        set: |s, _| {
            s.game.clear_hash();
            Ok(())
        },
    },
];

/// Ceilings on the work of any one command, which no command can lift, for a harness that feeds
/// arbitrary input (the fuzz targets): whatever depth, limit, clock, table size or thread count
/// an input asks for, it then ends quickly, after the same work on any machine. The binary sets
/// none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    /// Every search stops after this many nodes.
    pub nodes: Option<u64>,
    /// The session's searches together stop after this many nodes: each gets what the ones
    /// before it left (counted as searched, which needs [`Caps::sequential`]), but at least
    /// [`Caps::least_nodes`], so that the work of a whole input is bounded, not only of each
    /// command.
    pub session_nodes: Option<u64>,
    /// What a search gets once [`Caps::session_nodes`] is spent: enough to evaluate the
    /// position it was asked about, whose paths a search with no node at all never reaches.
    pub least_nodes: u64,
    /// Deeper perft is counted to this depth.
    pub perft_depth: Option<u32>,
    /// The table takes at most this many KiB, whatever `Hash` says (whose least is 1 MiB):
    /// allocating and zeroing a large one costs more than the work it is for.
    pub hash_kib: Option<usize>,
    /// Searches give at most this many lines (MultiPV): the first iteration of a MultiPV
    /// search runs to its end whatever the node limit, once per line over the root moves.
    pub multipv: Option<usize>,
    /// Searches run on at most this many threads (one: no helper whose timing changes the
    /// search).
    pub threads: Option<usize>,
    /// Searches ignore move times and clocks, so that what a search does depends on its input
    /// alone, not on how busy the machine is. The deadlines are still worked out (and dropped),
    /// so their arithmetic meets every input too.
    pub untimed: bool,
    /// Searches and perfts run on the caller's thread, to their end, before the next line is
    /// carried out (only a held answer waits for `stop` or `ponderhit`): no thread of their
    /// own, so what a run does depends on its input alone, not on how threads happen to be
    /// scheduled (`stop` always comes after the work, never in the middle of it).
    pub sequential: bool,
    /// Numeric game options held at or below a ceiling, from the start and whatever is set:
    /// work that no search limit counts (the Pods root solver's node budget).
    pub game_options: &'static [(&'static str, u64)],
}

/// Engine options that concern only the games with endgame databases: listed while such a game
/// is the game (set at any time, they serve it when it is selected).
const TABLEBASE_ONLY: &[&str] = &["egdb_path", "egdb_memory"];

/// An option as the front ends list it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    pub gtp: &'static str,
    pub ugi: &'static str,
    pub kind: Kind,
    pub value: String,
    pub help: &'static str,
}

fn min_limit<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Session {
    /// Sets an option by any of its names (see [`options::key`]): an engine option of
    /// [`ENGINE_OPTIONS`], else an option of any game. The value is checked against the
    /// option's type first.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), SessionError> {
        let k = options::key(name);
        let found = ENGINE_OPTIONS.iter().find(|o| {
            options::key(o.gtp) == k
                || options::key(o.ugi) == k
                || o.aliases.iter().any(|a| options::key(a) == k)
        });
        let Some(o) = found else {
            return self.set_game_option(name, value);
        };
        let value = value.trim();
        let (kind, value_aliases) = self.kind_of(o);
        let value = value_aliases
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(value))
            .map_or(value, |(_, canonical)| canonical);
        // Errors name the option as the user did: `UCI_Variant` in UGI, `game` in GTP.
        let v = kind.parse(name.trim(), value)?;
        (o.set)(self, v)
    }

    /// An option's type and value aliases; the `game` option's choices are this session's
    /// games (its declaration names the built-in ones).
    fn kind_of(&self, o: &EngineOption) -> (Kind, &'static [(&'static str, &'static str)]) {
        if o.gtp == "game" {
            (Kind::Combo(self.registry.names()), self.registry.aliases())
        } else {
            (o.kind, o.value_aliases)
        }
    }

    fn set_game_option(&mut self, name: &str, value: &str) -> Result<(), SessionError> {
        let k = options::key(name);
        let decl = self
            .registry
            .option_decls()
            .iter()
            .find(|d| options::key(d.name) == k)
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = decl.kind.parse(decl.name, value)?;
        let value = self.game_option_capped(decl.name, value).text();
        let here = self
            .game
            .options()
            .into_iter()
            .find(|o| o.name == decl.name);
        let own = here.as_ref().map_or(decl.own, |o| o.own);
        if here.is_some() {
            self.game.set_option(decl.name, &value)?;
        } else if own {
            // No game to give it to: which game's weights would a file be?
            return Err(OptionError::NotThisGame {
                name: decl.name.to_string(),
                game: self.game.name(),
            }
            .into());
        } else {
            // Another game's option: check the value now so the error comes at once.
            for kind in self.registry.kinds() {
                if kind.new_state().set_option(decl.name, &value)? {
                    break;
                }
            }
        }
        let game = own.then(|| self.game.name());
        self.game_options
            .retain(|o| o.name != decl.name || o.game != game);
        self.game_options.push(SetOption {
            game,
            name: decl.name.to_string(),
            value,
        });
        Ok(())
    }

    /// The names of the current game's own options (`list_options game`).
    pub fn game_option_names(&self) -> Vec<&'static str> {
        self.game.options().iter().map(|o| o.name).collect()
    }

    /// Every option with its current value: the engine's, then every game's (the current game's
    /// value, else the one set for that game, else its default).
    pub fn option_list(&self) -> Vec<OptionInfo> {
        let game = self.game.name();
        let mut out: Vec<OptionInfo> = ENGINE_OPTIONS
            .iter()
            .filter(|o| !TABLEBASE_ONLY.contains(&o.gtp) || super::egdb::concerns(game))
            .map(|o| OptionInfo {
                gtp: o.gtp,
                ugi: o.ugi,
                kind: self.kind_of(o).0,
                value: (o.get)(self),
                help: o.help,
            })
            .collect();
        let here = self.game.options();
        for d in self.registry.option_decls() {
            let value = here
                .iter()
                .find(|o| o.name == d.name)
                .map(|o| o.value.clone())
                .or_else(|| {
                    // Another game's own value is not this option's value here.
                    self.game_options
                        .iter()
                        .find(|o| o.name == d.name && o.game.is_none())
                        .map(|o| o.value.clone())
                })
                .unwrap_or_else(|| d.value.clone());
            out.push(OptionInfo {
                gtp: d.name,
                ugi: d.name,
                kind: d.kind,
                value,
                help: "game option",
            });
        }
        out
    }

    /// Whether an option caps every search (`movetime`, `depth`, `nodes`).
    pub fn has_search_caps(&self) -> bool {
        let o = &self.options;
        o.movetime.is_some() || o.depth.is_some() || o.nodes.is_some()
    }

    /// The limits of a search: those asked for, capped by the search-limit options and the
    /// session's [`Caps`] (the smallest of each wins). Under a node cap no search is infinite;
    /// untimed caps drop the move time and the clock.
    pub fn capped(&self, limits: Limits) -> Limits {
        let o = &self.options;
        let c = &self.caps;
        let limits = Limits {
            depth: min_limit(limits.depth, o.depth),
            nodes: min_limit(
                min_limit(min_limit(limits.nodes, o.nodes), c.nodes),
                c.session_nodes.map(|n| {
                    n.saturating_sub(self.worker.nodes_searched)
                        .max(c.least_nodes)
                }),
            ),
            movetime: if self.cut {
                Some(0)
            } else {
                min_limit(limits.movetime, o.movetime)
            },
            infinite: limits.infinite && c.nodes.is_none() && !self.cut,
            ..limits
        };
        if !c.untimed {
            return limits;
        }
        let _ = limits.deadlines(Instant::now(), o.move_overhead);
        Limits {
            movetime: None,
            clock: None,
            ..limits
        }
    }

    /// The size in KiB of the table to use for a `Hash` of `mib` MiB, under the cap.
    pub fn table_kib(&self, mib: usize) -> usize {
        let kib = mib.saturating_mul(1024);
        self.caps.hash_kib.map_or(kib, |cap| cap.min(kib))
    }

    /// The search threads to use: `Threads`, under the cap.
    pub fn search_threads(&self) -> usize {
        min_limit(Some(self.options.threads), self.caps.threads).unwrap_or(self.options.threads)
    }

    /// The lines a search gives: `asked`, else the `multipv` option, under the cap.
    pub fn search_lines(&self, asked: Option<usize>) -> usize {
        let lines = asked.unwrap_or(self.options.multipv);
        self.caps.multipv.map_or(lines, |cap| cap.min(lines))
    }

    /// `value` of game option `name`, under its cap.
    fn game_option_capped(&self, name: &str, value: Value) -> Value {
        match (value, self.caps.game_options.iter().find(|c| c.0 == name)) {
            (Value::Int(n), Some(&(_, max))) => Value::Int(n.min(max)),
            (value, _) => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_table_declares_each_option_once_with_its_real_default() {
        let session = Session::new();
        let mut keys = Vec::new();
        for o in ENGINE_OPTIONS {
            let (kind, _) = session.kind_of(o);
            let default = match kind {
                Kind::Combo(&[first, ..]) if o.default.is_empty() => first,
                _ => o.default,
            };
            assert_eq!((o.get)(&session), default, "{}", o.gtp);
            if kind != Kind::Button {
                assert_eq!(
                    kind.parse(o.gtp, default).map(|v| v.text()),
                    Ok(default.into())
                );
            }
            keys.extend([options::key(o.gtp), options::key(o.ugi)]);
            keys.extend(o.aliases.iter().map(|a| options::key(a)));
        }
        let decls = session.registry.option_decls();
        keys.extend(decls.iter().map(|d| options::key(d.name)));
        keys.sort();
        keys.dedup();
        // An option's GTP and UGI names may be one key; no two options may share a key.
        let per_option = ENGINE_OPTIONS
            .iter()
            .map(|o| {
                let mut k = vec![options::key(o.gtp), options::key(o.ugi)];
                k.dedup();
                k.len() + o.aliases.len()
            })
            .sum::<usize>()
            + decls.len();
        assert_eq!(keys.len(), per_option);
    }

    #[test]
    fn games_agree_whether_an_option_of_one_name_is_each_games_own() {
        // The session reads it from the first game that declares the name.
        let s = Session::new();
        let decls = s.registry.option_decls();
        for k in s.registry.kinds() {
            for o in k.new_state().options() {
                let decl = decls.iter().find(|d| d.name == o.name).map(|d| d.own);
                assert_eq!(decl, Some(o.own), "{} of {}", o.name, k.name());
            }
        }
        assert!(decls.iter().any(|d| d.name == "eval" && d.own));
    }

    #[test]
    fn search_limit_options_cap_the_limits_asked_for() {
        let mut s = Session::new();
        s.set_option("depth", "3").expect("depth");
        s.set_option("Nodes", "5000").expect("nodes");
        let asked = Limits {
            depth: Some(9),
            movetime: Some(200),
            ..Limits::default()
        };
        let capped = s.capped(asked);
        assert_eq!(
            (capped.depth, capped.nodes, capped.movetime),
            (Some(3), Some(5000), Some(200))
        );
        s.set_option("depth", "off").expect("depth off");
        assert_eq!(s.capped(asked).depth, Some(9));
        assert!(s.has_search_caps());
    }
}
