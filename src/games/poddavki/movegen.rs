//! Legal move generation: compulsory captures with the Turkish strike, flying kings, promotion
//! during a capture; quiet moves only when no capture exists.

use std::ops::ControlFlow;

use super::board::{
    king_reach, opposite, shift, slide, step, Bits, Move, Position, Squares, NE, NONE, NW,
    PROMO_RANK, SE, SW,
};

/// Directions a man of each side moves (quietly) in.
pub const FORWARD: [[usize; 2]; 2] = [[NE, NW], [SE, SW]];

/// True when the side to move has a capture.
pub fn has_capture(p: &Position) -> bool {
    let us = p.stm;
    let opp = p.pieces[us ^ 1];
    let occ = p.occupied();
    let empty = !occ;
    let men = p.pieces[us] & !p.kings;
    for d in 0..4 {
        if shift(shift(men, d) & opp, d) & empty != 0 {
            return true;
        }
    }
    for k in Squares(p.pieces[us] & p.kings) {
        for d in 0..4 {
            if let (_, Some(b)) = slide(k, d, occ) {
                let land = step(b, d);
                if opp >> b & 1 != 0 && land != NONE && empty >> land & 1 != 0 {
                    return true;
                }
            }
        }
    }
    false
}

/// Men of the side to move that have a first jump available.
fn capturing_men(p: &Position) -> Bits {
    let us = p.stm;
    let opp = p.pieces[us ^ 1];
    let empty = !p.occupied();
    let men = p.pieces[us] & !p.kings;
    let mut r = 0;
    for d in 0..4 {
        let back = opposite(d);
        r |= shift(shift(empty, back) & opp, back);
    }
    r & men
}

/// Where the capture search puts what it finds: the move list (de-duplicated, see
/// [`gen_captures`]) or the notation's paths (every path, duplicates and all). One search
/// serves both, so the moves the engine plays and the paths it writes cannot disagree.
pub trait CaptureSink {
    /// The piece lands on `sq` and the search goes on from there.
    #[inline(always)]
    fn enter(&mut self, _sq: usize) {}
    /// Back from the last [`CaptureSink::enter`].
    #[inline(always)]
    fn leave(&mut self) {}
    /// A complete capture: the piece can go no further.
    fn emit(&mut self, m: Move);
}

/// Moves of one piece into a list, skipping those it already holds.
struct Dedup<'a> {
    out: &'a mut Vec<Move>,
    /// First entry of `out` belonging to this piece: only those can be duplicates.
    base: usize,
}

impl CaptureSink for Dedup<'_> {
    #[inline(always)]
    fn emit(&mut self, m: Move) {
        if !self.out[self.base..].contains(&m) {
            self.out.push(m);
        }
    }
}

/// Depth-first search of the capture sequences of one piece. `empty` counts the piece's start
/// square as empty and every captured piece as present (Turkish strike), so it never changes
/// during the move.
struct CapGen<'s, S> {
    from: u8,
    empty: Bits,
    opp: Bits,
    promo_rank: Bits,
    sink: &'s mut S,
}

impl<S: CaptureSink> CapGen<'_, S> {
    #[inline(always)]
    fn emit(&mut self, to: usize, captured: Bits, promo: bool) {
        self.sink.emit(Move {
            captured,
            from: self.from,
            to: to as u8,
            promo,
        });
    }

    /// Jumps of a man at `cur`; returns whether there was any.
    fn man(&mut self, cur: usize, captured: Bits) -> bool {
        let avail = self.opp & !captured;
        let mut any = false;
        for d in 0..4 {
            let mid = step(cur, d);
            if mid == NONE || avail >> mid & 1 == 0 {
                continue;
            }
            let land = step(mid as usize, d);
            if land == NONE || self.empty >> land & 1 == 0 {
                continue;
            }
            any = true;
            let land = land as usize;
            let cap = captured | 1 << mid;
            // Crowned mid-capture: it goes on as a king in the same move.
            let crowned = self.promo_rank >> land & 1 != 0;
            self.sink.enter(land);
            let goes_on = if crowned {
                self.king(land, cap, true)
            } else {
                self.man(land, cap)
            };
            self.sink.leave();
            if !goes_on {
                self.emit(land, cap, crowned);
            }
        }
        any
    }

    /// Jumps of a king at `cur`; returns whether there was any.
    fn king(&mut self, cur: usize, captured: Bits, promo: bool) -> bool {
        let avail = self.opp & !captured;
        let occ = !self.empty;
        let mut any = false;
        for d in 0..4 {
            let b = match slide(cur, d, occ) {
                (_, Some(b)) if avail >> b & 1 != 0 => b,
                _ => continue,
            };
            let lands = slide(b, d, occ).0;
            if lands == 0 {
                continue;
            }
            any = true;
            let cap = captured | 1 << b;
            // Landing rule: only squares the capture goes on from, if there are any.
            let mut goes_on = false;
            for l in Squares(lands) {
                self.sink.enter(l);
                goes_on |= self.king(l, cap, promo);
                self.sink.leave();
            }
            if !goes_on {
                for l in Squares(lands) {
                    self.emit(l, cap, promo);
                }
            }
        }
        any
    }
}

/// Hands every capture sequence of the piece on `from` (the side to move's) to `sink`.
#[inline(always)]
pub fn piece_captures<S: CaptureSink>(p: &Position, from: usize, sink: &mut S) {
    let mut g = CapGen {
        from: from as u8,
        empty: !p.occupied() | 1 << from,
        opp: p.pieces[p.stm ^ 1],
        promo_rank: PROMO_RANK[p.stm],
        sink,
    };
    if p.kings >> from & 1 != 0 {
        g.king(from, 0, false);
    } else {
        g.man(from, 0);
    }
}

/// Appends every distinct capture of the side to move.
pub fn gen_captures(p: &Position, out: &mut Vec<Move>) {
    let kings = p.pieces[p.stm] & p.kings;
    for s in Squares(capturing_men(p)).chain(Squares(kings)) {
        let base = out.len();
        piece_captures(p, s, &mut Dedup { out, base });
    }
}

/// Appends every quiet move of the side to move (legal only when no capture exists).
#[inline]
pub fn gen_quiet(p: &Position, out: &mut Vec<Move>) {
    let _ = for_each_quiet(p, |m| {
        out.push(m);
        ControlFlow::Continue(())
    });
}

/// Calls `f` with every quiet move of the side to move until it breaks.
#[inline(always)]
pub fn for_each_quiet(p: &Position, mut f: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
    let us = p.stm;
    let occ = p.occupied();
    let empty = !occ;
    let men = p.pieces[us] & !p.kings;
    for d in FORWARD[us] {
        let back = opposite(d);
        for t in Squares(shift(men, d) & empty) {
            f(Move {
                captured: 0,
                from: step(t, back),
                to: t as u8,
                promo: PROMO_RANK[us] >> t & 1 != 0,
            })?;
        }
    }
    for k in Squares(p.pieces[us] & p.kings) {
        for t in Squares(king_reach(k, occ)) {
            f(Move {
                captured: 0,
                from: k as u8,
                to: t as u8,
                promo: false,
            })?;
        }
    }
    ControlFlow::Continue(())
}

std::thread_local! {
    /// Captures of one call, reused: they are de-duplicated in a list before they are handed
    /// out. Taken out while in use, so a visitor that lists moves itself gets a fresh one.
    static CAPTURES: std::cell::Cell<Vec<Move>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Calls `f` with every legal move of the side to move, in [`legal_moves`]' order, until it
/// breaks.
#[inline]
pub fn for_each_move(p: &Position, mut f: impl FnMut(Move) -> ControlFlow<()>) -> ControlFlow<()> {
    if has_capture(p) {
        let mut caps = CAPTURES.take();
        caps.clear();
        gen_captures(p, &mut caps);
        let r = caps.iter().try_for_each(|&m| f(m));
        CAPTURES.set(caps);
        return r;
    }
    for_each_quiet(p, f)
}

/// Every legal move of the side to move.
pub fn legal_moves(p: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    gen_captures(p, out);
    if out.len() == start {
        gen_quiet(p, out);
    }
}

/// Every legal move of the side to move, ascending by from square and then to square: the
/// order of batched play's action lists, whose sort then finds them sorted. Two captures between the
/// same squares lie side by side, in no set order. The search keeps [`legal_moves`]' order.
pub fn legal_moves_by_square(p: &Position, out: &mut Vec<Move>) {
    let us = p.stm;
    let kings = p.pieces[us] & p.kings;
    if has_capture(p) {
        for s in Squares(capturing_men(p) | kings) {
            let base = out.len();
            piece_captures(p, s, &mut Dedup { out, base });
            out[base..].sort_unstable_by_key(|m| m.to);
        }
        return;
    }
    let empty = !p.occupied();
    // A man's west step lands on a lower square than its east one (squares count along ranks).
    let [east, west] = FORWARD[us];
    let men = p.pieces[us] & !p.kings;
    let goes_west = shift(shift(men, west) & empty, opposite(west));
    let goes_east = shift(shift(men, east) & empty, opposite(east));
    let promo = u64::from(PROMO_RANK[us]);
    for s in Squares(goes_west | goes_east | kings) {
        if kings >> s & 1 != 0 {
            for t in Squares(king_reach(s, !empty)) {
                out.push(Move {
                    captured: 0,
                    from: s as u8,
                    to: t as u8,
                    promo: false,
                });
            }
            continue;
        }
        // Both steps written, the ones the man cannot take then dropped: no branch on the
        // board, which random play makes unpredictable. A step off the board is `NONE` (32).
        let quiet = |to: u8| Move {
            captured: 0,
            from: s as u8,
            to,
            promo: promo >> to & 1 != 0,
        };
        let (w, e) = (goes_west >> s & 1, goes_east >> s & 1);
        let n = out.len();
        out.extend([quiet(step(s, west)), quiet(step(s, east))]);
        out[n + w as usize] = quiet(step(s, east));
        out.truncate(n + (w + e) as usize);
    }
}
