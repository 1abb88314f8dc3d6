//! The shared test kit: the conformance checks every game must pass, one reference negamax, and
//! one toy game ([`nim::Nim`]). Built for the crate's unit tests (`cfg(test)`) and, through the
//! `testkit` feature (which the crate's dev-dependency on itself turns on), for its integration
//! tests; never part of the engine.
//!
//! [`conformance`] plays seeded random games to the end and checks, at every position:
//! - every legal move formats to a name that parses back to it, and no two share a name;
//! - the position string round-trips (format → parse → format) to an equal position with the
//!   same hash, and its move list is the same;
//! - `has_legal_move`, `is_legal` (also of the previous position's moves) and
//!   `count_moves_upto` agree with `legal_moves`;
//! - `make` leaves its source untouched; two move orders that reach equal positions give equal
//!   hashes (and equal strings), and unequal positions give unequal strings;
//! - the type-erased game (`AnyGame`, what the protocol drives) plays the same game through
//!   strings, agrees on the result, lists no move once it is over and undoes back to the start;
//! - a finished position's playout gives its result;
//! - near the start, the generic perft, the game's own `perft` and the protocol's stoppable
//!   perft count the same;
//! - near the end, the search agrees with [`negamax`] on every result decided within two plies.

use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::engine::{AnyGame, GameState};
use crate::games::{self, DrawTracker, Game, Outcome, PerftStop, RuleError, Terminal};
use crate::search::{self, Limits, Params, Root, Table, MATE, MATE_BOUND};

pub mod faulty;
/// The toy game, a row of the registry in test builds (`games/nim/`).
pub use crate::games::nim;

/// At most this many of the previous position's moves are asked about in the next one.
const STALE_SAMPLE: usize = 64;

/// How much random play [`conformance`] does.
#[derive(Clone, Copy, Debug)]
pub struct Soak {
    pub games: u32,
    pub seed: u64,
    /// Games still going after this many plies are cut short.
    pub max_plies: u32,
    /// The perft comparisons run at this many positions of the first game.
    pub perft_plies: u32,
    /// Perft depth of the generic/own perft comparison.
    pub perft_depth: u32,
    /// Plies above the game's fast-perft subtree depth for the stoppable-perft comparison.
    pub stoppable_above: u32,
    /// The search is compared with [`negamax`] at this many positions before each game's end.
    pub searched_at_end: u32,
}

impl Soak {
    pub fn new(games: u32, seed: u64) -> Soak {
        Soak {
            games,
            seed,
            max_plies: 200,
            perft_plies: 6,
            perft_depth: 2,
            stoppable_above: 1,
            searched_at_end: 3,
        }
    }
}

/// What [`conformance`] looked at, so that a caller can check the checks had work to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub positions: u64,
    pub finished_games: u64,
    /// Move orders found that reach the same position.
    pub transpositions: u64,
    /// Searches compared with [`negamax`], and how many of those were decided within two plies.
    pub searches: u64,
    pub decided_searches: u64,
}

/// [`conformance`] on a registry row's game.
pub fn conformance_kind(kind: games::GameKind, soak: Soak) -> Report {
    struct Kit(Soak);
    impl games::GameVisitor for Kit {
        type Output = Report;
        fn visit<G: Game>(self, game: G) -> Report {
            conformance(&game, self.0)
        }
    }
    kind.visit(Kit(soak))
}

/// Runs every check of the module text over `soak.games` seeded random games of `game`.
pub fn conformance<G: Game>(game: &G, soak: Soak) -> Report {
    let mut rng = SmallRng::seed_from_u64(soak.seed);
    let mut report = Report::default();
    for i in 0..soak.games {
        let perft_plies = if i == 0 { soak.perft_plies } else { 0 };
        random_game(game, &soak, perft_plies, &mut rng, &mut report);
    }
    report
}

fn random_game<G: Game>(
    game: &G,
    soak: &Soak,
    perft_plies: u32,
    rng: &mut SmallRng,
    report: &mut Report,
) {
    let mut any = GameState::new(game.clone());
    let mut pos = game.start();
    let mut tracker = DrawTracker::new(game.hash(&pos));
    let mut line: Vec<(G::Pos, G::Move)> = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..soak.max_plies {
        check_position(game, &pos, &mut moves);
        report.positions += 1;
        let result = games::outcome(game, &pos, &tracker);
        assert_eq!(any.result(), result, "{}: result", game.name());
        assert_eq!(any.position(), game.format_position(&pos));
        if ply < perft_plies {
            check_perft(game, &pos, soak.perft_depth, soak.stoppable_above);
        }
        if let Some(t) = result {
            check_finished(game, &pos, t, &mut any, &moves);
            report.finished_games += 1;
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let before = pos.clone();
        let next = game.make(&pos, m);
        assert_eq!(before, pos, "{}: make changed its source", game.name());
        let name = game.format_move(&pos, m);
        assert_eq!(any.play(&name).as_deref(), Ok(name.as_str()));
        tracker.push(game.hash(&next), game.is_progress(&pos, m));
        line.push((pos, m));
        pos = next;
        if line.len() >= 4 {
            report.transpositions += check_transpositions(game, &line[line.len() - 4..], &pos);
        }
    }
    // The search check on the last positions, where results are near.
    let from = line.len().saturating_sub(soak.searched_at_end as usize);
    for (p, _) in &line[from..] {
        report.searches += 1;
        report.decided_searches += u64::from(check_search(game, p, 2));
    }
    for _ in 0..line.len() {
        assert!(any.undo(), "{}: undo", game.name());
    }
    assert!(!any.undo());
    assert_eq!(any.position(), game.format_position(&game.start()));
}

/// The checks at one position. `moves` holds the previous position's moves on entry (some
/// still legal, some not) and this position's on return.
pub fn check_position<G: Game>(game: &G, pos: &G::Pos, moves: &mut Vec<G::Move>) {
    let name = game.name();
    // Asked before this position's moves are listed (a game may keep what its last listing
    // learnt, and must not need it).
    let step = moves.len().div_ceil(STALE_SAMPLE).max(1);
    let stale: Vec<(G::Move, bool)> = moves
        .iter()
        .step_by(step)
        .map(|&m| (m, game.is_legal(pos, m)))
        .collect();
    let again = round_trip(game, pos);
    let text = game.format_position(pos);
    moves.clear();
    game.legal_moves(pos, moves);
    for (m, legal) in stale {
        assert_eq!(
            legal,
            moves.contains(&m),
            "{name}: is_legal({m:?}) at {text}"
        );
    }
    assert_eq!(
        game.has_legal_move(pos),
        !moves.is_empty(),
        "{name}: has_legal_move at {text}"
    );
    let n = moves.len();
    assert_eq!(game.count_moves_upto(pos, n), Some(n), "{name} at {text}");
    assert_eq!(game.count_moves_upto(pos, n + 10), Some(n), "{name}");
    if n > 0 {
        assert_eq!(game.count_moves_upto(pos, n - 1), None, "{name} at {text}");
        assert!(moves.iter().all(|&m| game.is_legal(pos, m)), "{name}");
    }
    let mut from_string = Vec::new();
    game.legal_moves(&again, &mut from_string);
    assert_eq!(
        *moves, from_string,
        "{name}: move list differs after reparse"
    );
    let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(pos, m)).collect();
    for (&m, mv) in moves.iter().zip(&names) {
        let parsed = game
            .parse_move(pos, mv)
            .unwrap_or_else(|e| panic!("{name}: {mv} at {text}: {e}"));
        assert_eq!(parsed, m, "{name}: {mv} at {text}");
    }
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(
        before,
        names.len(),
        "{name}: two moves share a name at {text}"
    );
}

/// The position-string round trip: `pos` formats to a string that parses to the same position
/// and hash and formats the same again. Returns the reparsed position. The fuzz targets run it on every position they reach.
pub fn round_trip<G: Game>(game: &G, pos: &G::Pos) -> G::Pos {
    let text = game.format_position(pos);
    let back = game
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{}: formatted position '{text}' refused: {e}", game.name()));
    assert_eq!(
        &back,
        pos,
        "{}: '{text}' parses to another position",
        game.name()
    );
    assert_eq!(
        game.hash(&back),
        game.hash(pos),
        "{}: hash of '{text}'",
        game.name()
    );
    assert_eq!(game.format_position(&back), text);
    let _ = game.render(pos);
    back
}

/// `line` is four plies (position before, move) ending at `end`. Plays the same moves with each
/// side's two moves swapped; where that is legal, equal positions must have equal hashes and
/// equal strings, and unequal ones unequal strings. Returns how many orders reached `end`.
fn check_transpositions<G: Game>(game: &G, line: &[(G::Pos, G::Move)], end: &G::Pos) -> u64 {
    let m: Vec<G::Move> = line.iter().map(|(_, m)| *m).collect();
    let mut found = 0;
    for order in [[m[2], m[1], m[0], m[3]], [m[0], m[3], m[2], m[1]]] {
        let mut p = line[0].0.clone();
        let mut legal = true;
        for &mv in &order {
            if game.terminal(&p).is_some() || !game.is_legal(&p, mv) {
                legal = false;
                break;
            }
            p = game.make(&p, mv);
        }
        if !legal {
            continue;
        }
        let same_text = game.format_position(&p) == game.format_position(end);
        assert_eq!(
            same_text,
            p == *end,
            "{}: positions and their strings disagree",
            game.name()
        );
        if p == *end {
            assert_eq!(
                game.hash(&p),
                game.hash(end),
                "{}: hash of a transposition",
                game.name()
            );
            found += 1;
        }
    }
    found
}

/// The end of a game: the type-erased game says so too, lists no moves and refuses one; a
/// finished position (decided without history) plays out to its result.
fn check_finished<G: Game>(
    game: &G,
    pos: &G::Pos,
    t: Terminal,
    any: &mut GameState<G>,
    moves: &[G::Move],
) {
    let name = game.name();
    assert!(
        any.legal_moves().is_empty(),
        "{name}: moves listed after the end"
    );
    if let Some(&m) = moves.first() {
        let mv = game.format_move(pos, m);
        assert_eq!(any.play(&mv), Err(RuleError::GameOver), "{name}");
    }
    // Position rules first, then no moves, then the history's draws.
    let by_position = match game.terminal(pos) {
        Some(end) => Some(end),
        None if moves.is_empty() => Some(game.no_moves(pos)),
        None => None,
    };
    match by_position {
        Some(end) => {
            assert_eq!(t, end, "{name}: result at {}", game.format_position(pos));
            let mut rng = SmallRng::seed_from_u64(1);
            assert_eq!(
                game.playout(pos, &mut rng, 1_000),
                t.outcome,
                "{name}: playout"
            );
        }
        None => assert_eq!(
            t.outcome,
            Outcome::Draw,
            "{name}: only draws need a history"
        ),
    }
}

/// The generic perft and the game's own agree `depth` plies deep, and the protocol's stoppable
/// perft (walking `above` plies, then the game's) agrees with both and stops when told to.
pub fn check_perft<G: Game>(game: &G, pos: &G::Pos, depth: u32, above: u32) {
    let name = game.name();
    assert_eq!(
        games::generic_perft(game, pos, depth),
        game.perft(pos, depth),
        "{name}: perft {depth} at {}",
        game.format_position(pos)
    );
    let deep = G::PERFT_SUBTREE_DEPTH + above;
    let (go, stopped) = (AtomicBool::new(false), AtomicBool::new(true));
    assert_eq!(
        games::stoppable_perft(game, pos, deep, &go),
        Ok(game.perft(pos, deep)),
        "{name}: stoppable perft {deep}"
    );
    assert_eq!(
        games::stoppable_perft(game, pos, deep, &stopped),
        Err(PerftStop::Stopped)
    );
}

/// A fixed-depth search from `pos` (no history, fresh table).
pub fn search<G: Game>(game: &G, pos: &G::Pos, depth: u32) -> search::SearchResult<G::Move> {
    let mut tt = Table::new(1);
    let params = Params {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        ..Params::default()
    };
    search::run(game, Root::new(pos).table(&mut tt), &params)
}

/// The search at `depth` against [`negamax`]: its move is legal; a result [`negamax`] finds
/// within `depth` plies the search finds with the same score; and a result the search finds
/// within `depth` plies (it may look further, extending forced lines) [`negamax`] confirms one
/// ply deeper (its horizon evaluates without looking for moves), with the search's move
/// winning when it claims a win. Returns whether the position was decided within `depth`.
/// Positions with more than [`SEARCH_CHECK_MOVES`] moves are skipped (the reference is plain).
pub fn check_search<G: Game>(game: &G, pos: &G::Pos, depth: u32) -> bool {
    if game.count_moves_upto(pos, SEARCH_CHECK_MOVES).is_none() {
        return false;
    }
    let name = game.name();
    let text = game.format_position(pos);
    let r = search(game, pos, depth);
    if let Some(m) = r.best {
        assert!(game.is_legal(pos, m), "{name}: search move at {text}");
    }
    let (v, _) = negamax(game, pos, depth);
    let plies = |s: i32| (s.abs() > MATE_BOUND).then(|| (MATE - s.abs()) as u32);
    let decided = plies(v).is_some_and(|k| k <= depth);
    if decided {
        assert_eq!(
            r.score, v,
            "{name}: search and negamax at depth {depth} at {text}"
        );
    }
    if let Some(k) = plies(r.score).filter(|&k| k <= depth) {
        let (deeper, _) = negamax(game, pos, k + 1);
        assert_eq!(
            deeper,
            r.score,
            "{name}: negamax at depth {} at {text}",
            k + 1
        );
        if r.score > 0 {
            let m = r.best.expect("a won position has a move");
            let (child, _) = negamax(game, &game.make(pos, m), k);
            assert_eq!(
                -child,
                r.score + 1,
                "{name}: the search's move does not win at {text}"
            );
        }
    }
    decided
}

/// [`check_search`] looks at positions with at most this many moves.
pub const SEARCH_CHECK_MOVES: usize = 40;

/// The reference search: plain negamax to `depth` plies over all legal moves, no table, no
/// pruning, ignoring history draws. Results score `MATE - plies` (as the engine's search does),
/// depth 0 evaluates (without looking for moves, as the search does). Moves are tried in
/// [`Game::order_hint`] order, so among equal moves the best-hinted is returned.
pub fn negamax<G: Game>(game: &G, pos: &G::Pos, depth: u32) -> (i32, Option<G::Move>) {
    negamax_with(game, pos, depth, &|p| game.evaluate(p))
}

/// [`negamax`] with another evaluation at depth 0 (side to move's point of view).
pub fn negamax_with<G: Game>(
    game: &G,
    pos: &G::Pos,
    depth: u32,
    eval: &dyn Fn(&G::Pos) -> i32,
) -> (i32, Option<G::Move>) {
    plain(game, pos, depth, 0, eval)
}

fn plain<G: Game>(
    game: &G,
    pos: &G::Pos,
    depth: u32,
    ply: i32,
    eval: &dyn Fn(&G::Pos) -> i32,
) -> (i32, Option<G::Move>) {
    let result = |t: Terminal| match t.outcome {
        Outcome::Draw => 0,
        Outcome::Win(side) if side == game.side_to_move(pos) => MATE - ply,
        Outcome::Win(_) => -(MATE - ply),
    };
    if let Some(t) = game.terminal(pos) {
        return (result(t), None);
    }
    if depth == 0 {
        return (eval(pos).clamp(-games::EVAL_LIMIT, games::EVAL_LIMIT), None);
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if moves.is_empty() {
        return (result(game.no_moves(pos)), None);
    }
    moves.sort_by_key(|&m| -game.order_hint(pos, m));
    let mut best = (i32::MIN, None);
    for m in moves {
        let v = -plain(game, &game.make(pos, m), depth - 1, ply + 1, eval).0;
        if v > best.0 {
            best = (v, Some(m));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::nim::{Nim, NimPos};
    use super::*;
    use crate::games::Side;

    #[test]
    fn the_toy_game_passes_the_conformance_kit() {
        let r = conformance(&Nim, Soak::new(30, 7));
        assert_eq!(r.finished_games, 30);
        assert!(r.transpositions > 0 && r.decided_searches > 0, "{r:?}");
    }

    #[test]
    fn negamax_solves_the_toy_game() {
        for stones in 0..=12 {
            let pos = NimPos {
                stones,
                side: Side::P2,
            };
            let (v, best) = negamax(&Nim, &pos, 13);
            if stones % 4 == 0 {
                // Lost: every line ends in the mover's empty pile after `stones` plies or less.
                assert!(v < -MATE_BOUND, "{stones}: {v}");
                assert_eq!(v, -(MATE - (2 * stones.div_ceil(4)) as i32), "{stones}");
            } else {
                assert_eq!(best, Some(stones % 4), "{stones}");
                assert_eq!(v, MATE - (2 * stones.div_ceil(4) - 1) as i32, "{stones}");
            }
        }
    }
}
