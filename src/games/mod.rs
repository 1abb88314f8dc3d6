//! The game seam: five small traits every game implements ([`Rules`], [`Notation`],
//! [`SearchHooks`], [`FastPaths`], [`GameOptions`]) and three hooks ([`Draw`], [`Tunable`],
//! [`Actions`]), summed up as [`Game`]; the list of games is [`registry`].
//!
//! Games know nothing of protocols. Search is generic (monomorphised) over [`Game`]; the session
//! talks to games through the object-safe [`crate::engine::AnyGame`] wrapper, which works on strings.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::ControlFlow;

use rand::rngs::SmallRng;

use crate::options::GameOption;

pub mod actions;
pub mod diamond;
pub mod draw;
mod ending;
pub mod learned;
pub mod network;
/// The test kit's toy game: a registry row of test builds only (see `registry`).
#[cfg(any(test, feature = "testkit"))]
pub mod nim;
pub mod phutball;
pub mod poddavki;
pub mod pods;
pub mod registry;
pub mod tune;
mod walk;
pub mod zobrist;

pub use crate::render::MoveInput;
pub use actions::{ActionSpace, Actions};
pub use draw::Draw;
pub use ending::{ending, outcome, DrawTracker};
pub use registry::{GameKind, GameVisitor, UnknownGame, Workload, Workloads};
pub use tune::Tunable;
pub use walk::{generic_perft, generic_playout, stoppable_perft, PerftStop, PERFT_MOVE_CAP};

/// First mover (`P1`) or second mover (`P2`). Each game names them (see [`Rules::side_names`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    P1,
    P2,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::P1 => Side::P2,
            Side::P2 => Side::P1,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Side),
    Draw,
}

/// A finished game: who won (or draw) and a short reason such as `no-moves` or `repetition`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Terminal {
    pub outcome: Outcome,
    pub reason: &'static str,
}

impl Terminal {
    pub fn new(outcome: Outcome, reason: &'static str) -> Terminal {
        Terminal { outcome, reason }
    }
}

/// Errors a game reports on input. Callers branch on the variant; `Display` is the user message.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RuleError {
    /// The text is not a move in this game's notation at all, with the forms the game takes
    /// (`c3-d4 or c3:e5`): a move typed for another game is the usual cause.
    #[error("illegal move: cannot parse '{0}': expected a move like {1}")]
    Syntax(String, &'static str),
    /// Well-formed, but not a legal move here; the string says why.
    #[error("illegal move: {0}")]
    Illegal(String),
    /// A short form that matches more than one legal move.
    #[error("illegal move: ambiguous '{0}'")]
    Ambiguous(String),
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    #[error("game is over")]
    GameOver,
    #[error("{0}")]
    Option(String),
}

/// History-dependent draw rules the generic layers (session, search, playouts) apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DrawRules {
    /// The same position for the n-th time is a draw (3 = threefold). `None`: no such rule.
    pub repetition: Option<u32>,
    /// This many consecutive plies without a "progress" move (see [`Rules::is_progress`]) draw.
    pub no_progress_plies: Option<u32>,
    /// Treat a repeated position as a draw inside search even when the game has no such rule
    /// (Pods advanced); search always scores a repetition as a draw when `repetition` is set.
    pub search_repetition: bool,
}

/// Scores returned by [`SearchHooks::evaluate`] must stay strictly inside this bound, so that
/// search can keep win/loss scores (distance to mate) above it.
pub const EVAL_LIMIT: i32 = 20_000;

/// How far the generic search may cut this game's tree, and how its threads work together
/// ([`SearchHooks::search_tuning`]). The default is plain: fixed late-move reductions and
/// nothing else; each game turns on what its fixed-work matches measured as a gain
/// (docs/strength/engine.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchTuning {
    /// Which late-move reductions quiet moves get.
    pub reductions: Reductions,
    /// The quiet moves tried before a quiet cutoff lose the history the cutting move gains.
    pub history_malus: bool,
    /// A node at least 4 plies deep without a table move is searched a ply shallower.
    pub iir: bool,
    /// Reverse futility: a non-PV node at depth ≤ 3 whose static evaluation is this much per
    /// ply above beta returns it. `None`: never.
    pub futility_margin: Option<i32>,
    /// Late-move pruning: a non-PV node at depth ≤ 3 skips the quiet moves after the first
    /// `(3 + depth²)·late_move_percent/100`. `None`: never.
    pub late_move_percent: Option<u32>,
    /// A move whose [`SearchHooks::order_hint`] is at least this makes a threat (Diamond: a
    /// square with three corners): it is neither reduced nor pruned, and neither is the node it
    /// leads to. `None`: no move is known as a threat.
    pub threat_hint: Option<i32>,
    /// On a clock, the soft deadline follows the search: longer while the best move changes or
    /// its score falls, shorter once it has held (`TimeUse` in the search's time code).
    pub time_scaling: bool,
    /// How several search threads share the work.
    pub threads: ThreadTuning,
}

/// The late-move reductions of quiet moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reductions {
    /// 1 ply from the fourth quiet move, 2 from the eleventh, none at PV nodes.
    Fixed,
    /// `ln(depth)·ln(index)·percent/200` plies (one less at PV nodes) from the third quiet
    /// move on; moves that make a threat, and the moves of a node under threat, are exempt.
    Log { percent: u32 },
}

/// How the threads of one search share the work (more than one thread only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadTuning {
    /// Each thread deepens on its own, one depth after another, instead of all working on the
    /// depth after the deepest one completed and leaving it when another completes it (the
    /// race, the default).
    pub independent: bool,
    /// A thread puts off the moves (after the first) that another thread is searching at the
    /// same node, at nodes 4 plies or more from the horizon, and comes back to them after the
    /// node's other moves (simplified ABDADA; at the root only the helpers do).
    pub share_moves: bool,
}

impl SearchTuning {
    pub const DEFAULT: SearchTuning = SearchTuning {
        reductions: Reductions::Fixed,
        history_malus: false,
        iir: false,
        futility_margin: None,
        late_move_percent: None,
        threat_hint: None,
        time_scaling: false,
        threads: ThreadTuning {
            independent: false,
            share_moves: false,
        },
    };
}

impl Default for SearchTuning {
    fn default() -> Self {
        SearchTuning::DEFAULT
    }
}

/// A game's rules: positions, who moves, the moves and how a game ends. Positions are
/// copy-made (all positions are small value types), so there is no unmake; the caller keeps the
/// old position.
pub trait Rules: Clone + Send + Sync + 'static {
    type Pos: Clone + PartialEq + Debug + Send + Sync + 'static;
    type Move: Copy + PartialEq + Eq + Hash + Debug + Send + Sync + 'static;

    /// Protocol name, e.g. `poddavki`.
    fn name(&self) -> &'static str;
    /// Lower-case names of the first and second mover, e.g. `["white", "black"]`.
    fn side_names(&self) -> [&'static str; 2];
    fn start(&self) -> Self::Pos;
    fn side_to_move(&self, pos: &Self::Pos) -> Side;

    /// The one move-enumeration primitive: calls `f` once per legal move (one call per distinct
    /// move, see each rule file's "move identity"), in a fixed order, until `f` breaks; returns
    /// `Break` when it did. Ignores whether the game is already over by [`Rules::terminal`];
    /// callers check. Everything else that lists, counts or tests moves ([`Moves`]) derives from
    /// this, so a game whose move lists can be huge (Phutball) must yield its moves as it finds
    /// them: "is there a move" then stops at the first.
    fn for_each_move<F: FnMut(Self::Move) -> ControlFlow<()>>(
        &self,
        pos: &Self::Pos,
        f: F,
    ) -> ControlFlow<()>;
    /// The position after `mv`, which must be legal in `pos`.
    fn make(&self, pos: &Self::Pos, mv: Self::Move) -> Self::Pos;
    /// Zobrist hash of the position (including side to move and anything else in the position string).
    fn hash(&self, pos: &Self::Pos) -> u64;

    /// Game end decided by the position alone, *before* looking at the moves: a goal, a full
    /// square, a counter in the position string, an emptied hand. `None` when play goes on
    /// (or when only the absence of legal moves would end it).
    fn terminal(&self, pos: &Self::Pos) -> Option<Terminal>;
    /// The result when the side to move has no legal move (and `terminal` said nothing).
    fn no_moves(&self, pos: &Self::Pos) -> Terminal;
    /// House/official draws that depend on the history.
    fn draw_rules(&self) -> DrawRules {
        DrawRules::default()
    }
    /// True when `mv` is irreversible: no earlier position can recur after it, and the
    /// no-progress count restarts (Poddavki: capture or man move; Diamond: placement, capture,...).
    fn is_progress(&self, _pos: &Self::Pos, _mv: Self::Move) -> bool {
        false
    }
}

/// The move lists generic code asks for, derived from [`Rules::for_each_move`] (implemented
/// for every game; a game cannot override them, so no two of them can disagree). The two
/// questions a game may answer faster than by visiting its moves, [`FastPaths::count_moves_upto`]
/// and [`FastPaths::is_legal`], default to the same primitive.
pub trait Moves: Rules {
    /// Appends every legal move, in [`Rules::for_each_move`]'s order.
    fn legal_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>) {
        let _ = self.for_each_move(pos, |m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }
    /// True when the side to move has a legal move; stops at the first one.
    fn has_legal_move(&self, pos: &Self::Pos) -> bool {
        self.for_each_move(pos, |_| ControlFlow::Break(()))
            .is_break()
    }
    /// [`Moves::legal_moves`] that gives up after `cap` moves: false when there are more (`out`
    /// is then of no use).
    fn legal_moves_upto(&self, pos: &Self::Pos, cap: usize, out: &mut Vec<Self::Move>) -> bool {
        let start = out.len();
        self.for_each_move(pos, |m| {
            if out.len() - start >= cap {
                return ControlFlow::Break(());
            }
            out.push(m);
            ControlFlow::Continue(())
        })
        .is_continue()
    }
}

impl<G: Rules> Moves for G {}

/// Move notation, position strings and the text diagram.
pub trait Notation: Rules {
    /// Canonical notation of a legal move.
    fn format_move(&self, pos: &Self::Pos, mv: Self::Move) -> String;
    /// Lenient parse of a move; returns a legal move or says why not.
    fn parse_move(&self, pos: &Self::Pos, text: &str) -> Result<Self::Move, RuleError>;
    /// Canonical position string.
    fn format_position(&self, pos: &Self::Pos) -> String;
    fn parse_position(&self, text: &str) -> Result<Self::Pos, RuleError>;
    /// Multi-line text diagram (no empty lines).
    fn render(&self, pos: &Self::Pos) -> String;
    /// How a person enters a legal move on the board (`legal_moves_json`). The default: the
    /// points its notation names, in order, and no piece from a hand; a game whose notation
    /// names a piece or points not clicked overrides it.
    fn move_input(&self, pos: &Self::Pos, mv: Self::Move) -> MoveInput {
        MoveInput {
            piece: None,
            points: crate::render::move_points(&self.format_move(pos, mv)),
        }
    }
    /// The file format of the game's records (`game_record`): PGN unless the game is one that
    /// programs of its family read in a format of their own.
    fn record_format(&self) -> RecordFormat {
        RecordFormat::PGN
    }
}

/// How a game's record is written: the file's extension, the tags the format adds, and the
/// characters its movetext spells otherwise than tetrad's notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordFormat {
    pub extension: &'static str,
    /// Written after the players' tags, before `Variant`.
    pub tags: &'static [(&'static str, &'static str)],
    /// `(in the notation, in the file)` pairs: PDN writes a capture's `:` as `x`.
    pub spelling: &'static [(char, char)],
}

impl RecordFormat {
    pub const PGN: RecordFormat = RecordFormat {
        extension: "pgn",
        tags: &[],
        spelling: &[],
    };
}

/// A root move whose outcome the game has proven: with best play (the winner ending the game as
/// soon as it can, the loser as late as it can) the side to move at the root wins, or loses,
/// `plies` plies after the root, along `pv` (which starts with the move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenMove<M> {
    pub win: bool,
    pub plies: u32,
    pub pv: Vec<M>,
    /// The work the proof took (the game's own nodes), reported as the search's.
    pub nodes: u64,
}

/// The root as the search takes it: the moves to search and, when the game has proven which
/// move is best, that move (not among `search`), which then needs no search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMoves<M> {
    pub search: Vec<M>,
    pub proven: Option<ProvenMove<M>>,
}

/// What search asks of a game beyond the rules: evaluation, ordering, and which moves to try.
pub trait SearchHooks: Rules {
    /// Static evaluation from the side to move's point of view, `|v| < EVAL_LIMIT`.
    fn evaluate(&self, pos: &Self::Pos) -> i32;
    /// The terms of [`SearchHooks::evaluate`] with their values (side to move's point of view),
    /// for the UGI `eval` command. Empty (the default) when the game does not break its
    /// evaluation down.
    fn eval_terms(&self, _pos: &Self::Pos) -> Vec<(&'static str, i32)> {
        Vec::new()
    }
    /// Higher = search earlier. Called once per move at interior nodes; keep it cheap.
    fn order_hint(&self, _pos: &Self::Pos, _mv: Self::Move) -> i32 {
        0
    }
    /// [`SearchHooks::order_hint`] of each of `moves`, appended to `hints` in their order: what
    /// the search asks at a node. A game whose hints share work across a node's moves computes
    /// them at once here; the values must be `order_hint`'s.
    fn order_hints(&self, pos: &Self::Pos, moves: &[Self::Move], hints: &mut Vec<i32>) {
        hints.extend(moves.iter().map(|&m| self.order_hint(pos, m)));
    }
    /// Moves quiescence search must still look at when depth runs out (Poddavki: captures are
    /// forced, so a position with a capture to make is not quiet). Return `false` for games
    /// without a tactical notion.
    fn is_forcing(&self, _pos: &Self::Pos) -> bool {
        false
    }
    /// The side to move's moves left in the game, as the clock should expect them when it is
    /// not told (UGI `movestogo`); the search spends about the clock's remaining time over
    /// these (never fewer than 10). `None` (the default): 30, whatever the position.
    fn moves_left(&self, _pos: &Self::Pos) -> Option<u32> {
        None
    }
    /// Reductions and pruning the search applies to this game. Whatever it says, a node whose
    /// position or whose parent's position [`SearchHooks::is_forcing`] is neither reduced nor
    /// pruned: a threat there may decide the game at once.
    fn search_tuning(&self) -> SearchTuning {
        SearchTuning::DEFAULT
    }
    /// Candidate moves for search at a non-root node. Default: all legal moves. A game with a huge
    /// branching factor (Phutball) may return a safe subset; the root always searches
    /// [`SearchHooks::root_moves_until`].
    fn search_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>) {
        self.legal_moves(pos, out)
    }
    /// Moves searched at the root. Default: all legal moves. A game whose root work can be long
    /// (the Pods solver) stops it once `interrupt` returns true and gives a plain move list.
    fn root_moves_until(
        &self,
        pos: &Self::Pos,
        out: &mut Vec<Self::Move>,
        _interrupt: &dyn Fn() -> bool,
    ) {
        self.legal_moves(pos, out)
    }
    /// The root for the search: [`SearchHooks::root_moves_until`]'s moves and nothing proven,
    /// unless the game proves its best move exactly (the Pods solver), as a mate at the
    /// distance it proved; the other moves are then left to search (for MultiPV's lines).
    fn root_until(&self, pos: &Self::Pos, interrupt: &dyn Fn() -> bool) -> RootMoves<Self::Move> {
        let mut search = Vec::new();
        self.root_moves_until(pos, &mut search, interrupt);
        RootMoves {
            search,
            proven: None,
        }
    }
}

/// Optional speed-ups: each has a generic default a game replaces by a faster equivalent.
pub trait FastPaths: Rules {
    /// Subtrees this many plies deep or less are counted by [`FastPaths::perft`] in one go inside
    /// [`stoppable_perft`], so the protocol's perft runs at the game's own speed and still stops
    /// between subtrees. Chosen so that one such subtree takes about a millisecond; 0 (the
    /// default) walks every ply through the stoppable, move-capped path.
    const PERFT_SUBTREE_DEPTH: u32 = 0;

    /// Leaf count `depth` plies ahead; finished positions (by [`Rules::terminal`]) count 0 beyond
    /// themselves; history-dependent draws are ignored.
    fn perft(&self, pos: &Self::Pos, depth: u32) -> u64 {
        generic_perft(self, pos, depth)
    }
    /// One game of uniformly random legal moves from `pos` to the end, applying the draw rules
    /// over the playout's own history.
    fn playout(&self, pos: &Self::Pos, rng: &mut SmallRng, max_plies: u32) -> Outcome {
        generic_playout(self, pos, rng, max_plies)
    }
    /// The number of legal moves when it is at most `cap`, else `None`, at a cost bounded by
    /// `cap` (the protocol's listing refuses what it could not afford). The default counts
    /// [`Rules::for_each_move`]'s moves; a game that can count without visiting each move
    /// (Phutball: its placements are a bitboard) counts faster.
    fn count_moves_upto(&self, pos: &Self::Pos, cap: usize) -> Option<usize> {
        let mut n = 0usize;
        let over = self.for_each_move(pos, |_| {
            n += 1;
            if n > cap {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        over.is_continue().then_some(n)
    }
    /// True when `mv` is one of `pos`'s legal moves. Any value of the move type may come in
    /// (a stale table move, a move of another position): the answer is then false, never a panic.
    /// The default looks for it among [`Rules::for_each_move`]'s moves; a game with huge move
    /// lists (Phutball) checks the one move directly instead.
    fn is_legal(&self, pos: &Self::Pos, mv: Self::Move) -> bool {
        self.for_each_move(pos, |m| {
            if m == mv {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .is_break()
    }
}

/// Game-specific options (`set_option NAME VALUE`); the default is none.
pub trait GameOptions {
    /// `Ok(false)`: not this game's option.
    fn set_option(&mut self, _name: &str, _value: &str) -> Result<bool, RuleError> {
        Ok(false)
    }
    /// The game-specific options: name, type and current value. The session checks a value
    /// against the declared type before [`GameOptions::set_option`] sees it (in canonical form),
    /// and generates `list_options` and the UGI `option` lines from this.
    fn options(&self) -> Vec<GameOption> {
        Vec::new()
    }
}

/// A whole game: what generic code (search, session, bench, fuzz) asks for as `G: Game`.
/// Implemented for every type with the eight parts; a new game implements those, not this.
pub trait Game:
    Rules + Moves + Notation + SearchHooks + FastPaths + GameOptions + Draw + Tunable + Actions
{
    /// [`SearchHooks::root_moves_until`] that is never interrupted.
    fn root_moves(&self, pos: &Self::Pos, out: &mut Vec<Self::Move>) {
        self.root_moves_until(pos, out, &|| false)
    }
}

impl<G: Rules + Notation + SearchHooks + FastPaths + GameOptions + Draw + Tunable + Actions> Game
    for G
{
}

/// Everything needed to call game methods on a concrete game type.
pub mod prelude {
    pub use super::{
        Actions, Draw, FastPaths, Game, GameOptions, Moves, Notation, Rules, SearchHooks, Tunable,
    };
}

/// Parses a side name as the protocol accepts it: full name, its first letter, `p1`/`p2`,
/// case-insensitive.
pub fn parse_side(names: [&str; 2], text: &str) -> Option<Side> {
    let t = text.to_ascii_lowercase();
    match t.as_str() {
        "p1" => return Some(Side::P1),
        "p2" => return Some(Side::P2),
        _ => {}
    }
    for (i, name) in names.iter().enumerate() {
        let side = if i == 0 { Side::P1 } else { Side::P2 };
        if t == *name || (t.len() == 1 && name.starts_with(t.as_str())) {
            return Some(side);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_names_parse_leniently() {
        let names = ["white", "black"];
        assert_eq!(parse_side(names, "White"), Some(Side::P1));
        assert_eq!(parse_side(names, "b"), Some(Side::P2));
        assert_eq!(parse_side(names, "P2"), Some(Side::P2));
        assert_eq!(parse_side(names, "red"), None);
        assert_eq!(parse_side(names, "wh"), None);
    }

    #[test]
    fn draw_tracker_counts_same_side_repetitions() {
        let mut t = DrawTracker::new(1);
        for h in [2, 1, 2, 1] {
            t.push(h, false);
        }
        assert_eq!(t.occurrences(), 3);
        assert_eq!(t.quiet_plies(), 4);
        t.push(7, true);
        assert_eq!(t.occurrences(), 1);
        assert_eq!(t.quiet_plies(), 0);
        t.pop();
        assert_eq!(t.occurrences(), 3);
        let rules = DrawRules {
            repetition: Some(3),
            no_progress_plies: Some(30),
            search_repetition: false,
        };
        assert_eq!(t.draw(&rules).map(|d| d.reason), Some("repetition"));
    }
}
