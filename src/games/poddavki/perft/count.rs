//! The last ply, counted at a leaf's parent without making its moves: quiet moves and men's
//! single jumps from square sets, men's chains of up to three pieces by a walk that keeps no
//! list, and only the rest (kings, a fourth piece, a king going on after crowning) with a list.

use super::layout::{sh, Board, Side, B, DIRS};
use super::{king_reach, kings_capture, walk_captures, Capture, Jumps};

/// Number of legal moves.
#[inline(always)]
pub(super) fn count<S: Side>(b: &Board, scratch: &mut Vec<Capture>) -> u64 {
    let empty = b.empty();
    let mine = b.mine::<S>();
    let men = mine & !b.kings;
    let from = DIRS.map(|d| sh(sh(empty, -d) & b.theirs::<S>(), -d));
    if men & (from[0] | from[1] | from[2] | from[3]) == 0 && mine & b.kings == 0 {
        let [f1, f2] = S::FORWARD;
        return ((sh(men, f1) & empty).count_ones() + (sh(men, f2) & empty).count_ones()) as u64;
    }
    count_slow::<S>(b, &from, scratch)
}

/// [`count`] with captures or kings; `from` as in [`jumps`]. Kept small: most calls are men's
/// single jumps, and the rarer cases' registers would be saved and restored on every call.
#[inline(never)]
fn count_slow<S: Side>(b: &Board, from: &[B; 4], scratch: &mut Vec<Capture>) -> u64 {
    let men = b.mine::<S>() & !b.kings;
    let can = from[0] | from[1] | from[2] | from[3];
    if men & can == 0 {
        return count_kings::<S>(b, scratch);
    }
    let goes = can | S::PROMO;
    let mut n = 0;
    let mut complex = [0; 4];
    for (i, &d) in DIRS.iter().enumerate() {
        let land = sh(sh(men & from[i], d), d);
        n += (land & !goes).count_ones();
        complex[i] = land & goes;
    }
    let kings = b.mine::<S>() & b.kings;
    if complex[0] | complex[1] | complex[2] | complex[3] | kings == 0 {
        return n as u64;
    }
    if kings == 0 {
        if let Some(chains) = man_chains::<S>(b, &complex, b.empty()) {
            return n as u64 + chains;
        }
    }
    n as u64 + count_complex::<S>(b, &complex, scratch)
}

/// The men's captures that begin with the first jumps of `complex` (see [`Jumps`]) and every
/// king's, where the men capture and there are kings or [`man_chains`] gave up.
#[inline(never)]
fn count_complex<S: Side>(b: &Board, complex: &[B; 4], scratch: &mut Vec<Capture>) -> u64 {
    let empty = b.empty();
    let kings = b.mine::<S>() & b.kings;
    let mut j = Jumps {
        simple: [0; 4],
        complex: *complex,
        any: true,
    };
    let mut n = 0;
    if let Some(chains) = man_chains::<S>(b, complex, empty) {
        if kings == 0 {
            return chains;
        }
        // Only the kings' captures are left to walk.
        n = chains;
        j.complex = [0; 4];
    }
    let base = scratch.len();
    walk_captures::<S>(b, &j, scratch);
    n += (scratch.len() - base) as u64;
    scratch.truncate(base);
    n
}

/// [`count`] where the men cannot capture and there are kings.
#[cold]
#[inline(never)]
fn count_kings<S: Side>(b: &Board, scratch: &mut Vec<Capture>) -> u64 {
    let empty = b.empty();
    let kings = b.mine::<S>() & b.kings;
    if kings_capture::<S>(b, empty, b.theirs::<S>()) {
        let j = Jumps {
            simple: [0; 4],
            complex: [0; 4],
            any: true,
        };
        let base = scratch.len();
        walk_captures::<S>(b, &j, scratch);
        let n = (scratch.len() - base) as u64;
        scratch.truncate(base);
        return n;
    }
    let men = b.mine::<S>() & !b.kings;
    let [f1, f2] = S::FORWARD;
    let mut n = (sh(men, f1) & empty).count_ones() + (sh(men, f2) & empty).count_ones();
    let mut kings = kings;
    while kings != 0 {
        let k = kings & kings.wrapping_neg();
        kings ^= k;
        n += king_reach(k, empty).count_ones();
    }
    n as u64
}

/// Number of men's captures that begin with the first jumps of `complex` (landing squares per
/// direction, see [`Jumps`]), counted without a move list; `None` where a man crowns on its
/// first jump, or on a later one and goes on as a king, or takes a fourth piece. Below four
/// pieces taken no two paths can be one move: two paths taking the same pieces from the same
/// square to the same square need a cycle of jumps, four at least.
#[inline(never)]
fn man_chains<S: Side>(b: &Board, complex: &[B; 4], empty: B) -> Option<u64> {
    let opp = b.theirs::<S>();
    if (complex[0] | complex[1] | complex[2] | complex[3]) & S::PROMO != 0 {
        return None;
    }
    // One direction at a time, so that its shifts are constants.
    Some(
        man_chains_along::<S, { DIRS[0] }>(complex[0], opp, empty)?
            + man_chains_along::<S, { DIRS[1] }>(complex[1], opp, empty)?
            + man_chains_along::<S, { DIRS[2] }>(complex[2], opp, empty)?
            + man_chains_along::<S, { DIRS[3] }>(complex[3], opp, empty)?,
    )
}

/// [`man_chains`] for the first jumps along `D`, landing on `lands`.
#[inline(always)]
fn man_chains_along<S: Side, const D: i32>(lands: B, opp: B, empty: B) -> Option<u64> {
    let mut n = 0;
    let mut rest = lands;
    while rest != 0 {
        let land = rest & rest.wrapping_neg();
        rest ^= land;
        let mid = sh(land, -D);
        n += man_chain::<S>(land, opp & !mid, empty | sh(mid, -D))?;
    }
    Some(n)
}

/// Number of ways a man on `cur`, having taken one piece, ends its capture (1 if it cannot go
/// on); `avail` are the pieces it can still take, `empty` counts its start square as empty.
/// The walk's three levels are three functions, inlined into one: no recursion, no depth count.
#[inline(never)]
fn man_chain<S: Side>(cur: B, avail: B, empty: B) -> Option<u64> {
    man_chain_on::<S>(
        cur,
        avail,
        empty,
        #[inline(always)]
        |c, a, e| man_chain2::<S>(c, a, e),
    )
}

/// [`man_chain`] with two pieces taken.
#[inline(always)]
fn man_chain2<S: Side>(cur: B, avail: B, empty: B) -> Option<u64> {
    man_chain_on::<S>(
        cur,
        avail,
        empty,
        #[inline(always)]
        |c, a, e| man_chain3::<S>(c, a, e),
    )
}

/// [`man_chain`] with three pieces taken: 1, or `None` if it can take a fourth.
#[inline(always)]
fn man_chain3<S: Side>(cur: B, avail: B, empty: B) -> Option<u64> {
    (landings(cur, avail, empty).iter().fold(0, |a, &l| a | l) == 0).then_some(1)
}

/// A level of [`man_chain`]: `next` counts the ways on from each landing square.
#[inline(always)]
fn man_chain_on<S: Side>(
    cur: B,
    avail: B,
    empty: B,
    next: impl Fn(B, B, B) -> Option<u64> + Copy,
) -> Option<u64> {
    let lands = landings(cur, avail, empty);
    // One branch for "none", the usual end.
    if lands[0] | lands[1] | lands[2] | lands[3] == 0 {
        return Some(1);
    }
    // One direction at a time, so that its shifts are constants.
    Some(
        man_chain_along::<S, { DIRS[0] }>(lands[0], avail, empty, next)?
            + man_chain_along::<S, { DIRS[1] }>(lands[1], avail, empty, next)?
            + man_chain_along::<S, { DIRS[2] }>(lands[2], avail, empty, next)?
            + man_chain_along::<S, { DIRS[3] }>(lands[3], avail, empty, next)?,
    )
}

/// The ways on after a jump along `D` to `land` (none if it is 0).
#[inline(always)]
fn man_chain_along<S: Side, const D: i32>(
    land: B,
    avail: B,
    empty: B,
    next: impl Fn(B, B, B) -> Option<u64>,
) -> Option<u64> {
    if land == 0 {
        return Some(0);
    }
    let avail = avail & !sh(land, -D);
    if land & S::PROMO != 0 {
        crowned(land, avail, empty)
    } else {
        next(land, avail, empty)
    }
}

/// A man's landing squares from `cur` in every direction at once.
#[inline(always)]
fn landings(cur: B, avail: B, empty: B) -> [B; 4] {
    DIRS.map(|d| sh(sh(cur, d) & avail, d) & empty)
}

/// A man crowned mid-capture on `cur` goes on as a king if it can: 1 if it cannot (the move
/// ends there), `None` if it can, for the listing walk to follow. `avail` and `empty` as in
/// [`man_chain`].
#[inline(always)]
fn crowned(cur: B, avail: B, empty: B) -> Option<u64> {
    let goes_on = DIRS.iter().any(|&d| {
        let mut hit = sh(cur, d);
        while hit & empty != 0 {
            hit = sh(hit, d);
        }
        hit & avail != 0 && sh(hit, d) & empty != 0
    });
    (!goes_on).then_some(1)
}
