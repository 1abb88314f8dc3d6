//! Pods test helpers that use only the `Game` trait and position strings (so they survive
//! changes inside the pods module): an exhaustive solver for standard Pods, the greedy
//! baselines of both rule sets, and a match runner that alternates colours and rotations.
#![allow(dead_code)]

use std::collections::HashMap;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::engine::AnyGame;
use tetrad::games::pods::{Pods, PodsRules};
use tetrad::games::prelude::*;
use tetrad::games::{Outcome, Side};
use tetrad::search::Limits;

use crate::baselines::{engine_move, play_out, random_move, Score};

pub type PPos = <Pods as Rules>::Pos;
pub type PMove = <Pods as Rules>::Move;

pub const ROTATIONS: [u32; 4] = [0, 90, 180, 270];

/// The start position string with the line pattern turned by `rotation` degrees.
pub fn start_string(rotation: u32) -> String {
    format!("6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn {rotation}")
}

/// The side that wins when `side` is to move and the game is over at `pos`, if it is over:
/// a terminal position, or no legal move (the trait's `no_moves` says who wins).
fn finished(game: &Pods, pos: &PPos, moves: &[PMove]) -> Option<Outcome> {
    tetrad::games::ending(game, pos, || !moves.is_empty(), || None).map(|t| t.outcome)
}

/// Exhaustive solver for standard Pods, independent of the engine's: plain negamax over the
/// trait with a memo keyed by the position string. Standard Pods has no draws and every move
/// takes a pod out of a hand for good, so the game tree is finite and this always terminates.
pub struct Solver {
    game: Pods,
    /// Position string -> the side to move wins with best play.
    wins: HashMap<String, bool>,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            game: Pods::new(PodsRules::Standard),
            wins: HashMap::new(),
        }
    }

    pub fn game(&self) -> &Pods {
        &self.game
    }

    /// Positions solved so far.
    pub fn solved(&self) -> usize {
        self.wins.len()
    }

    pub fn moves(&self, pos: &PPos) -> Vec<PMove> {
        let mut moves = Vec::new();
        self.game.legal_moves(pos, &mut moves);
        moves
    }

    /// True when the side to move wins `pos` with best play.
    pub fn wins(&mut self, pos: &PPos) -> bool {
        let key = self.game.format_position(pos);
        if let Some(&w) = self.wins.get(&key) {
            return w;
        }
        let me = self.game.side_to_move(pos);
        let moves = self.moves(pos);
        let w = match finished(&self.game, pos, &moves) {
            Some(outcome) => outcome == Outcome::Win(me),
            None => {
                // Replies that leave the opponent few placements first: wins are found sooner
                // (only the order changes, never the result).
                let mut children: Vec<(usize, PPos)> = moves
                    .iter()
                    .map(|&m| {
                        let next = self.game.make(pos, m);
                        (self.moves(&next).len(), next)
                    })
                    .collect();
                children.sort_by_key(|c| c.0);
                children.iter().any(|(_, next)| !self.wins(next))
            }
        };
        self.wins.insert(key, w);
        w
    }

    /// True when `mv` keeps the win for the side to move (the opponent then loses).
    pub fn move_wins(&mut self, pos: &PPos, mv: PMove) -> bool {
        let next = self.game.make(pos, mv);
        !self.wins(&next)
    }
}

/// Pods in both hands: every standard move places one, so no continuation of a standard game
/// is longer than this many plies.
pub fn plies_left_bound(fen: &str) -> usize {
    in_hand(fen, Side::P1) + in_hand(fen, Side::P2)
}

/// The fields of a position string: board rows, side, White's hand, Black's hand, rotation.
fn fields(fen: &str) -> Vec<&str> {
    fen.split_whitespace().collect()
}

fn hand_size(hand: &str) -> usize {
    if hand == "-" {
        0
    } else {
        hand.len()
    }
}

/// Pods of `side` still in play (on the board or in hand), read from the position string.
pub fn in_play(fen: &str, side: Side) -> usize {
    let f = fields(fen);
    let (Some(rows), Some(white), Some(black)) = (f.first(), f.get(2), f.get(3)) else {
        panic!("malformed position string {fen}");
    };
    match side {
        Side::P1 => rows.chars().filter(char::is_ascii_uppercase).count() + hand_size(white),
        Side::P2 => rows.chars().filter(char::is_ascii_lowercase).count() + hand_size(black),
    }
}

/// Pods in `side`'s hand, read from the position string.
pub fn in_hand(fen: &str, side: Side) -> usize {
    let f = fields(fen);
    let hand = match side {
        Side::P1 => f.get(2),
        Side::P2 => f.get(3),
    };
    hand_size(hand.unwrap_or_else(|| panic!("malformed position string {fen}")))
}

/// The rotation field of a position string.
pub fn rotation_of(fen: &str) -> Option<u32> {
    fields(fen).get(4).and_then(|r| r.parse().ok())
}

fn pick_best<K: Ord + Copy>(
    moves: &[PMove],
    mut key: impl FnMut(PMove) -> K,
    rng: &mut SmallRng,
) -> PMove {
    let keys: Vec<K> = moves.iter().map(|&m| key(m)).collect();
    let best = *keys.iter().min().expect("a running game has a move");
    let ties: Vec<PMove> = moves
        .iter()
        .zip(&keys)
        .filter(|(_, &k)| k == best)
        .map(|(&m, _)| m)
        .collect();
    ties[rng.gen_range(0..ties.len())]
}

/// Standard greedy baseline: the placement that leaves the opponent the fewest legal
/// placements (none = a win at once); ties broken at random.
pub fn standard_greedy_move(game: &Pods, pos: &PPos, rng: &mut SmallRng) -> PMove {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let mut replies = Vec::new();
    pick_best(
        &moves,
        |m| {
            replies.clear();
            game.legal_moves(&game.make(pos, m), &mut replies);
            replies.len()
        },
        rng,
    )
}

/// Advanced greedy baseline: the move that empties the mover's hand fastest (an immediate win
/// first, then the fewest pods left in the mover's hand after the move and its removals), and
/// among those the move that removes the most enemy pods from the game; ties at random.
pub fn advanced_greedy_move(game: &Pods, pos: &PPos, rng: &mut SmallRng) -> PMove {
    let me = game.side_to_move(pos);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    pick_best(
        &moves,
        |m| {
            let after = game.make(pos, m);
            let won = game.terminal(&after).map(|t| t.outcome) == Some(Outcome::Win(me));
            let fen = game.format_position(&after);
            (!won, in_hand(&fen, me), in_play(&fen, me.other()))
        },
        rng,
    )
}

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Engine(Limits),
    Random,
    Greedy,
}

fn move_of(g: &dyn AnyGame, advanced: bool, player: Player, rng: &mut SmallRng) -> String {
    match player {
        Player::Engine(limits) => engine_move(g, limits),
        Player::Random => random_move(g, rng),
        Player::Greedy => {
            let game = Pods::new(if advanced {
                PodsRules::Advanced
            } else {
                PodsRules::Standard
            });
            let pos = game
                .parse_position(&g.position())
                .expect("engine positions parse");
            let m = if advanced {
                advanced_greedy_move(&game, &pos, rng)
            } else {
                standard_greedy_move(&game, &pos, rng)
            };
            game.format_move(&pos, m)
        }
    }
}

/// Game name of a rule set.
pub fn game_name(advanced: bool) -> &'static str {
    if advanced {
        "pods-advanced"
    } else {
        "pods-standard"
    }
}

/// Colour and rotation of game `i` of a match: `a` is White in even games, and each
/// (colour, rotation) pair comes round once every eight games.
pub fn schedule(i: u32) -> (Side, u32) {
    let side = if i.is_multiple_of(2) {
        Side::P1
    } else {
        Side::P2
    };
    (side, ROTATIONS[(i / 2 % 4) as usize])
}

/// Plays `games` games between `a` and `b` with colours and rotations by [`schedule`]; a
/// game still running after `max_plies` plies counts as a draw. The score is `a`'s.
pub fn play_between(
    advanced: bool,
    a: Player,
    b: Player,
    games: u32,
    seed: u64,
    max_plies: u32,
) -> Score {
    play_seated(advanced, a, b, games, seed, max_plies, None)
}

/// [`play_between`] with `a` always on `seat` when one is given (the rotation then turns every
/// game), so a match can measure one colour alone.
pub fn play_seated(
    advanced: bool,
    a: Player,
    b: Player,
    games: u32,
    seed: u64,
    max_plies: u32,
    seat: Option<Side>,
) -> Score {
    let name = game_name(advanced);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut score = Score::default();
    for i in 0..games {
        let (a_side, rotation) = match seat {
            Some(side) => (side, ROTATIONS[(i % 4) as usize]),
            None => schedule(i),
        };
        let mut g = name
            .parse::<tetrad::games::GameKind>()
            .expect("game exists")
            .new_state();
        g.set_position(&start_string(rotation))
            .expect("start position parses");
        let (result, plies) = play_out(g.as_mut(), a_side, max_plies, |g, a_to_move| {
            move_of(g, advanced, if a_to_move { a } else { b }, &mut rng)
        });
        score.add(result, a_side);
        if std::env::var_os("TETRAD_MATCH_LOG").is_some() {
            eprintln!(
                "{name} {a:?} vs {b:?} game {i}: {a_side:?} rotation {rotation}, {result:?} after {plies} plies; running {score}"
            );
        }
    }
    score
}
