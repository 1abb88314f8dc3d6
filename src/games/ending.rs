//! Game over: the one order of the rules ([`ending`]) and the history draws ([`DrawTracker`]).

use super::{DrawRules, Moves, Outcome, Rules, Terminal};

/// Tracks the history-dependent draw rules along one line of play (game, playout or search).
#[derive(Clone, Debug, Default)]
pub struct DrawTracker {
    /// Hashes of the positions since the last progress move, the current one last.
    hashes: Vec<u64>,
    /// Index into `hashes` where the current reversible stretch starts, per ply (for undo).
    starts: Vec<usize>,
}

impl DrawTracker {
    pub fn new(first_hash: u64) -> DrawTracker {
        DrawTracker {
            hashes: vec![first_hash],
            starts: vec![0],
        }
    }
    /// Starts again from `first_hash`, keeping the allocations (batched play restarts
    /// thousands of games a second).
    pub fn restart(&mut self, first_hash: u64) {
        self.hashes.clear();
        self.starts.clear();
        self.hashes.push(first_hash);
        self.starts.push(0);
    }
    /// Record the position reached by a move; `progress` = the move was irreversible.
    pub fn push(&mut self, hash: u64, progress: bool) {
        let start = if progress {
            self.hashes.len()
        } else {
            *self.starts.last().unwrap_or(&0)
        };
        self.hashes.push(hash);
        self.starts.push(start);
    }
    pub fn pop(&mut self) {
        if self.hashes.len() > 1 {
            self.hashes.pop();
            self.starts.pop();
        }
    }
    /// Plies since the last progress move.
    pub fn quiet_plies(&self) -> usize {
        self.hashes.len() - 1 - self.starts.last().copied().unwrap_or(0)
    }
    /// How often the current position has occurred (counting itself).
    pub fn occurrences(&self) -> u32 {
        let start = self.starts.last().copied().unwrap_or(0);
        let cur = *self.hashes.last().unwrap_or(&0);
        // Same side to move only: step back two plies at a time.
        let mut n = 0;
        let mut i = self.hashes.len();
        while i > start {
            i -= 1;
            if self.hashes[i] == cur {
                n += 1;
            }
            if i < 2 {
                break;
            }
            i -= 1;
        }
        n
    }
    /// Whether some position since the last progress move occurred more than once (its next
    /// occurrence may be a threefold repetition).
    pub fn stretch_repeats(&self) -> bool {
        let start = self.starts.last().copied().unwrap_or(0);
        let stretch = &self.hashes[start..];
        stretch
            .iter()
            .enumerate()
            .any(|(i, h)| stretch[i + 1..].contains(h))
    }
    /// True when the current position already occurred at least once before (search's 2-fold).
    pub fn repeated(&self) -> bool {
        self.occurrences() >= 2
    }
    /// The draw the rules declare now, if any.
    pub fn draw(&self, rules: &DrawRules) -> Option<Terminal> {
        if let Some(n) = rules.no_progress_plies {
            if self.quiet_plies() >= n as usize {
                return Some(Terminal::new(Outcome::Draw, "no-progress"));
            }
        }
        if let Some(n) = rules.repetition {
            if self.occurrences() >= n {
                return Some(Terminal::new(Outcome::Draw, "repetition"));
            }
        }
        None
    }
}

/// The one place that orders the game-over rules: the position itself ([`Rules::terminal`]),
/// then no legal move ([`Rules::no_moves`]), then a history draw (see each rule file for why
/// this order is right). `has_move` and `draw` are asked only when the answer depends on them,
/// so callers pass what they already know (a move list in hand, a draw check of their own).
#[inline]
pub fn ending<G: Rules>(
    game: &G,
    pos: &G::Pos,
    has_move: impl FnOnce() -> bool,
    draw: impl FnOnce() -> Option<Terminal>,
) -> Option<Terminal> {
    if let Some(t) = game.terminal(pos) {
        return Some(t);
    }
    if !has_move() {
        return Some(game.no_moves(pos));
    }
    draw()
}

/// The game's result at `pos` given its history ([`ending`] with the game's draw rules).
pub fn outcome<G: Rules>(game: &G, pos: &G::Pos, tracker: &DrawTracker) -> Option<Terminal> {
    ending(
        game,
        pos,
        || game.has_legal_move(pos),
        || tracker.draw(&game.draw_rules()),
    )
}
