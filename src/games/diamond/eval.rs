//! Static evaluation and move-ordering hints.
//!
//! Scale: about 100 per piece of material. Squares are the goal, so most terms look at the 24
//! squares: how many corners each side holds in squares the other side cannot spoil (no enemy or
//! neutral corner), which empty corners would complete one next move (threats), and forks.

use super::board::{adj, capture_of, square_through, Bits, PointSet, TABLES};
use super::movegen::{placing, Move};
use super::position::Pos;

/// The side to move completes a square next move.
pub const WIN_NEXT: i32 = 9_000;
/// The opponent has two threats and the side to move places (it can stop only one).
const LOSS_NEXT: i32 = 8_000;
/// The side to move places on a point making two threats at once, the opponent having none.
const FORK_WIN: i32 = 6_000;
/// One opponent threat in the movement phase that nothing of ours can reach or capture.
const UNSTOPPABLE: i32 = 7_000;
/// Two opponent threats in the movement phase: usually lost, but a capture may break both.
const DOUBLE_THREAT: i32 = 2_500;

crate::weight_table! {
    /// Weights of the evaluation's terms (outside the fixed scores above), per unit from the side
    /// to move's view. The values the engine plays with are [`WEIGHTS`] (`weights.rs`, written
    /// by `scripts/tune`).
    pub struct Weights {
        /// Per piece on the board or in hand.
        pub material,
        /// Per square the side holds one corner of and the opponent cannot spoil.
        pub square1,
        /// Per such square with two corners held.
        pub square2,
        /// Per such square with three corners held.
        pub square3,
        /// Per step available (movement phase).
        pub mobility,
        /// The side to move can capture (0 or 1).
        pub capture_now,
        /// Per own piece the opponent could capture with one step.
        pub hanging,
        /// The opponent has a threat (0 or 1).
        pub opp_threat,
        /// Per opponent fork point (at most 3).
        pub opp_fork_point,
        /// The side to move still places (0 or 1).
        pub tempo,
    }
}

pub use super::weights::WEIGHTS;

/// What one side could do on its next move.
#[derive(Default, Clone, Copy)]
pub struct SideView {
    /// Empty points that would complete one of its squares next move.
    pub threats: u64,
    /// Steps available (movement phase only).
    pub steps: u32,
    /// Enemy pieces it could capture with one step.
    pub capturable: u64,
    /// Squares it can still win, by corners held: one, two, three.
    pub squares: [i32; 3],
    /// Points where a placement would create two threats (placement phase only).
    pub forks: u64,
}

/// Corner counts of every square at once: bit k of the result's `k`-th word is set at each
/// square's lower-left point when the count has bit k (a 4-input bitwise adder).
#[inline]
fn corner_counts(bb: u64) -> [u64; 3] {
    let (a, b, c, d) = (bb, bb >> 1, bb >> 8, bb >> 9);
    let (s1, c1, s2, c2) = (a ^ b, a & b, c ^ d, c & d);
    let carry = s1 & s2;
    [s1 ^ s2, c1 ^ c2 ^ carry, (c1 & c2) | (carry & (c1 ^ c2))]
}

/// The square whose lower-left corner is `ll`.
#[inline]
fn square_at(ll: usize) -> u64 {
    0x303u64 << (ll & 63)
}

/// Squares `side` can still win (no enemy or neutral corner), by corners held: one, two,
/// three; each a set of lower-left points.
fn open_squares(pos: &Pos, side: usize) -> [u64; 3] {
    let own = pos.pieces[side];
    let spoil = pos.pieces[side ^ 1] | pos.neutral;
    let free = TABLES.square_ll & !(spoil | spoil >> 1 | spoil >> 8 | spoil >> 9);
    let [b0, b1, b2] = corner_counts(own);
    [free & b0 & !b1 & !b2, free & !b0 & b1 & !b2, free & b0 & b1]
}

/// The empty corners of `side`'s three-corner squares (`three`) it could fill next move: any
/// while it places, else those one of its pieces outside the square can step to.
fn threats_in(pos: &Pos, side: usize, three: u64) -> u64 {
    let own = pos.pieces[side];
    let places = pos.hand[side] > 0;
    let mut threats = 0;
    for ll in Bits(three) {
        let q = square_at(ll);
        let e = q & !own;
        if places || adj(e.trailing_zeros() as usize) & own & !q != 0 {
            threats |= e;
        }
    }
    threats
}

pub fn side_view(pos: &Pos, side: usize) -> SideView {
    let own = pos.pieces[side];
    let empty = pos.empty();
    let places = pos.hand[side] > 0;
    let mut v = SideView::default();
    let [one, two, three] = open_squares(pos, side);
    v.squares = [one, two, three].map(|b| b.count_ones() as i32);
    v.threats = threats_in(pos, side, three);
    if places {
        // Empty points that turn two 2-corner squares into 3-corner ones at once.
        let mut once = 0u64;
        for ll in Bits(two) {
            let open = square_at(ll) & !own;
            v.forks |= once & open;
            once |= open;
        }
    } else {
        let reach = capture_reach(pos.pieces[side ^ 1]);
        for from in Bits(own) {
            v.steps += (adj(from) & empty).count_ones();
            for to in Bits(adj(from) & empty & reach) {
                let after = (own & !(1u64 << from)) | (1u64 << to);
                if let Some(c) = capture_of(after, pos.pieces[side ^ 1], to) {
                    v.capturable |= 1u64 << c;
                }
            }
        }
    }
    v
}

/// Points next to (in a triangle with) some enemy piece: the only steps that can capture.
fn capture_reach(enemy: u64) -> u64 {
    let mut m = 0;
    for e in Bits(enemy) {
        m |= TABLES.tri_mates[e];
    }
    m
}

/// Whether a position must be searched on when depth runs out: the side to move completes a
/// square next move. Scoring it statically ([`WIN_NEXT`]) would give a win with no distance, so
/// the search could neither tell a loss in 3 plies from one in 11 nor prefer the longest
/// defence; searching the completing move gives it a true mate score.
pub fn is_forcing(pos: &Pos) -> bool {
    // Only the threats: the full side view's steps and captures cost most of an evaluation.
    threats_in(pos, pos.stm, open_squares(pos, pos.stm)[2]) != 0
}

pub fn evaluate(pos: &Pos) -> i32 {
    match terms(pos) {
        Terms::Fixed(v) => v,
        Terms::Weighted(f) => crate::games::tune::dot(&WEIGHTS.to_array(), &f),
    }
}

/// What the evaluation of a position is made of.
pub enum Terms {
    /// A decided or nearly decided position: a fixed score.
    Fixed(i32),
    /// The raw terms, in [`Weights::NAMES`] order; the score is their weighted sum.
    Weighted([i32; Weights::LEN]),
}

pub fn terms(pos: &Pos) -> Terms {
    let s = pos.stm;
    let me = side_view(pos, s);
    if me.threats != 0 {
        return Terms::Fixed(WIN_NEXT);
    }
    let them = side_view(pos, s ^ 1);
    let i_place = placing(pos);
    if them.threats.count_ones() >= 2 {
        return Terms::Fixed(if i_place { -LOSS_NEXT } else { -DOUBLE_THREAT });
    }
    if them.threats != 0 && !i_place && !can_stop(pos, them.threats, me.capturable) {
        return Terms::Fixed(-UNSTOPPABLE);
    }
    if pos.hand[s] == 1 && pos.hand[s ^ 1] == 0 && last_placement_wins(pos, them.capturable) {
        return Terms::Fixed(FORK_WIN);
    }
    // The fork needs a second placement to cash in, and an opponent that cannot capture.
    if pos.hand[s] >= 2 && pos.hand[s ^ 1] > 0 && them.threats == 0 && me.forks != 0 {
        return Terms::Fixed(FORK_WIN);
    }
    let material = |side: usize| pos.pieces[side].count_ones() as i32 + pos.hand[side] as i32;
    Terms::Weighted([
        material(s) - material(s ^ 1),
        me.squares[0] - them.squares[0],
        me.squares[1] - them.squares[1],
        me.squares[2] - them.squares[2],
        me.steps as i32 - them.steps as i32,
        i32::from(me.capturable != 0),
        them.capturable.count_ones() as i32,
        i32::from(them.threats != 0),
        // Every opponent fork point needs an answer; two seldom can be answered with one placement.
        them.forks.count_ones().min(3) as i32,
        i32::from(i_place),
    ])
}

/// The side to move places its last piece while the opponent already steps: is there a
/// placement that makes a three-corner square, with a piece ready to step into the fourth
/// corner, that the opponent can neither reach nor break by a capture?
fn last_placement_wins(pos: &Pos, their_captures: u64) -> bool {
    let s = pos.stm;
    let own = pos.pieces[s];
    let spoil = pos.pieces[s ^ 1] | pos.neutral;
    let free = TABLES.square_ll & !(spoil | spoil >> 1 | spoil >> 8 | spoil >> 9);
    let [b0, b1, b2] = corner_counts(own);
    for ll in Bits(free & !b0 & b1 & !b2) {
        let q = square_at(ll);
        let open = q & !own;
        for p in Bits(open) {
            let e = open & !(1u64 << p);
            let ei = e.trailing_zeros() as usize;
            if adj(ei) & own & !q == 0 {
                continue;
            }
            let mut after = *pos;
            after.pieces[s] |= 1u64 << p;
            after.hand[s] = 0;
            after.stm ^= 1;
            if !can_stop(&after, e, their_captures) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move (stepping) can stop the opponent's single threat on `point`: step
/// onto it, or capture a corner of the square or its only feeder.
pub(crate) fn can_stop(pos: &Pos, point: u64, capturable: u64) -> bool {
    let s = pos.stm;
    let opp = pos.pieces[s ^ 1];
    let e = point.trailing_zeros() as usize;
    if adj(e) & pos.pieces[s] != 0 {
        return true;
    }
    let mut corners = 0u64;
    let n = TABLES.squares_of_len[e & 63] as usize;
    for &q in TABLES.squares_of[e & 63].iter().take(n) {
        if q & opp == q & !point {
            corners |= q & opp;
        }
    }
    let feeders = adj(e) & opp & !corners;
    capturable & corners != 0 || (feeders.count_ones() == 1 && capturable & feeders != 0)
}

/// Whether taking Black's first piece (the pie rule) is worth it: a piece in two squares is
/// worth more than moving first; a piece on the rim or in a corner is not.
pub fn swap_worth(pos: &Pos) -> bool {
    let p = pos.pieces[0].trailing_zeros() as usize;
    p < 64 && TABLES.squares_of_len[p] >= 2
}

/// What a move to a corner of square `q` that leaves `mine` of the mover's pieces in it is worth
/// for ordering: blocking the opponent's three corners, spoiling their two, building its own.
#[inline]
fn square_hint(pos: &Pos, q: u64, opp: u64, mine: usize) -> i32 {
    let theirs = (q & opp).count_ones();
    let mut v = 0;
    if theirs == 3 {
        v += 200_000;
    } else if theirs == 2 && q & pos.neutral == 0 && mine == 1 {
        v += 300;
    }
    if q & (opp | pos.neutral) == 0 {
        v += [0, 10, 100, 20_000][mine.min(3)];
    }
    v
}

/// The ordering hint of a move that completes one of the mover's squares (it wins at once).
pub const COMPLETES_HINT: i32 = 1_000_000;

/// Threat-aware ordering: complete a square, block a three-corner square, capture, build.
pub fn order_hint(pos: &Pos, mv: Move) -> i32 {
    let s = pos.stm;
    let own = pos.pieces[s];
    let opp = pos.pieces[s ^ 1];
    let (from, to) = match mv {
        Move::Swap => return if swap_worth(pos) { 50_000 } else { -50_000 },
        Move::Remove(n) => return removal_hint(pos, n as usize),
        Move::Place(to) => (None, to as usize & 63),
        Move::Step(from, to) => (Some(from as usize & 63), to as usize & 63),
    };
    let after = match from {
        Some(f) => (own & !(1u64 << f)) | (1u64 << to),
        None => own | (1u64 << to),
    };
    if square_through(after, to) {
        return COMPLETES_HINT;
    }
    let mut score = 0;
    let n = TABLES.squares_of_len[to] as usize;
    for &q in TABLES.squares_of[to].iter().take(n) {
        score += square_hint(pos, q, opp, (q & after).count_ones() as usize);
    }
    if let Some(f) = from {
        let n = TABLES.squares_of_len[f] as usize;
        for &q in TABLES.squares_of[f].iter().take(n) {
            if q.has(to) {
                continue;
            }
            let theirs = (q & opp).count_ones();
            if theirs == 3 {
                // Stepping out of the square lets the opponent fill it.
                score -= 150_000;
            } else if q & (opp | pos.neutral) == 0 && (q & own).count_ones() >= 2 {
                score -= 50;
            }
        }
        if let Some(c) = capture_of(after, opp, to) {
            score += 100_000;
            let n = TABLES.squares_of_len[c] as usize;
            if TABLES.squares_of[c]
                .iter()
                .take(n)
                .any(|&q| (q & opp).count_ones() >= 3)
            {
                score += 150_000;
            }
        }
    }
    score
}

/// [`order_hint`] of each of `moves`: a placement's hint depends only on the squares through
/// its point, so while the side places, each square's share is worked out once for the node
/// instead of once for each of the forty-odd placements through it.
pub fn order_hints(pos: &Pos, moves: &[Move], hints: &mut Vec<i32>) {
    if pos.hand[pos.stm] == 0 {
        hints.extend(moves.iter().map(|&m| order_hint(pos, m)));
        return;
    }
    let s = pos.stm;
    let (own, opp) = (pos.pieces[s], pos.pieces[s ^ 1]);
    let empty = pos.empty();
    let mut share = [0i32; 64];
    let mut wins = 0u64;
    for &q in &TABLES.squares {
        let open = q & empty;
        if open == 0 {
            continue;
        }
        // The placement's own piece is one of the square's, besides those already there.
        let mine = (q & own).count_ones() as usize + 1;
        if mine == 4 {
            wins |= open;
            continue;
        }
        let v = square_hint(pos, q, opp, mine);
        for p in Bits(open) {
            share[p] += v;
        }
    }
    hints.extend(moves.iter().map(|&m| match m {
        Move::Place(to) if wins.has(to as usize) => COMPLETES_HINT,
        Move::Place(to) => share[to as usize & 63],
        _ => order_hint(pos, m),
    }));
}

fn removal_hint(pos: &Pos, n: usize) -> i32 {
    // Worth it when the neutral piece spoils one of our squares rather than theirs.
    let s = pos.stm;
    let mut score = 0;
    let k = TABLES.squares_of_len[n] as usize;
    for &q in TABLES.squares_of[n].iter().take(k) {
        let rest = q & !(1u64 << n);
        if rest & (pos.neutral | pos.pieces[s ^ 1]) == 0 {
            score += 40 * (rest & pos.pieces[s]).count_ones() as i32;
        }
        if rest & (pos.neutral | pos.pieces[s]) == 0 {
            score -= 40 * (rest & pos.pieces[s ^ 1]).count_ones() as i32;
        }
    }
    score
}
