//! How long one search may run: soft deadline (no new iteration after it) and hard deadline
//! (abort mid-iteration). The hard deadline always leaves `move_overhead` on the clock; a fixed
//! move time keeps only a small margin, the smaller of `move_overhead` and a tenth of it.

use std::time::{Duration, Instant};

/// What the front end was asked for; any combination may be set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    pub clock: Option<Clock>,
    pub infinite: bool,
}

/// The mover's clock, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub remaining: u64,
    pub increment: u64,
    pub movestogo: Option<u32>,
}

#[derive(Clone, Copy, Debug)]
pub struct Deadlines {
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
    /// The soft deadline comes from a clock alone, so the search may move it (see [`TimeUse`]);
    /// a fixed move time is used as given.
    pub flexible: bool,
}

/// Moves we assume are left in the game when neither the clock nor the game says.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// The fewest moves a game's own estimate may claim are left: late in a game the estimate is a
/// guess, and the clock must last whatever the game does next.
const MIN_MOVES_LEFT: u32 = 10;

impl Limits {
    pub fn deadlines(&self, start: Instant, overhead_ms: u64) -> Deadlines {
        self.deadlines_for(start, overhead_ms, None)
    }

    /// [`Limits::deadlines`] with the game's estimate of the mover's moves left
    /// ([`crate::games::SearchHooks::moves_left`]), used when the clock gives no moves to go.
    pub fn deadlines_for(
        &self,
        start: Instant,
        overhead_ms: u64,
        moves_left: Option<u32>,
    ) -> Deadlines {
        if self.infinite {
            return Deadlines {
                soft: None,
                hard: None,
                flexible: false,
            };
        }
        let mut soft_ms: Option<u64> = None;
        let mut hard_ms: Option<u64> = None;
        if let Some(mt) = self.movetime {
            // The overhead guards a clock against the whole game's lag; a fixed move time only
            // needs room to send the move, and is mostly thinking time.
            let t = mt.saturating_sub(overhead_ms.min(mt / 10)).max(1);
            soft_ms = Some(t);
            hard_ms = Some(t);
        }
        if let Some(c) = self.clock {
            let available = c.remaining.saturating_sub(overhead_ms);
            let mtg = c
                .movestogo
                .map(|m| u64::from(m.clamp(1, 50)))
                .or(moves_left.map(|m| u64::from(m.clamp(MIN_MOVES_LEFT, 50))))
                .unwrap_or(DEFAULT_MOVES_TO_GO);
            // With the increment arriving after the move, spending most of it is safe.
            // In u128 or saturating: a clock or increment near u64::MAX is input, not a bug.
            let part = |ms: u64, num: u128, den: u128| (u128::from(ms) * num / den) as u64;
            let base = (available / mtg).saturating_add(part(c.increment, 3, 4));
            let hard_cap = if mtg == 1 {
                part(available, 9, 10)
            } else {
                available / 3
            };
            let hard = base.saturating_mul(3).min(hard_cap).max(1);
            let soft = part(base, 6, 10).min(hard).max(1);
            soft_ms = Some(soft_ms.map_or(soft, |s| s.min(soft)));
            hard_ms = Some(hard_ms.map_or(hard, |h| h.min(hard)));
        }
        // A deadline past what an `Instant` can hold is no deadline.
        let at = |ms: u64| start.checked_add(Duration::from_millis(ms));
        Deadlines {
            soft: soft_ms.and_then(at),
            hard: hard_ms.and_then(at),
            flexible: self.clock.is_some() && self.movetime.is_none(),
        }
    }
}

/// A score at least this much below the previous iteration's is a drop worth more time.
const SCORE_DROP: i32 = 30;

/// The soft deadline as the search goes, when the game asks for it
/// ([`crate::games::SearchTuning::time_scaling`]): while the best move keeps changing between
/// iterations, or its score falls, the position is worth more time; once the move has held for
/// several iterations another iteration rarely changes it. Never past the hard deadline.
#[derive(Clone, Copy, Debug)]
pub struct TimeUse {
    start: Instant,
    deadlines: Deadlines,
    enabled: bool,
    /// Iterations since the best move last changed (0: it changed in the last one).
    stable: u32,
    iterations: u32,
    score: Option<i32>,
    dropped: bool,
}

impl TimeUse {
    pub fn new(start: Instant, deadlines: Deadlines, enabled: bool) -> TimeUse {
        TimeUse {
            start,
            deadlines,
            enabled: enabled && deadlines.flexible,
            stable: 0,
            iterations: 0,
            score: None,
            dropped: false,
        }
    }

    /// An iteration is complete with `score`; `best_changed`: its best move differs from the
    /// previous iteration's.
    pub fn iteration_done(&mut self, best_changed: bool, score: i32) {
        self.iterations += 1;
        self.stable = if best_changed { 0 } else { self.stable + 1 };
        self.dropped = self
            .score
            .is_some_and(|last| score.saturating_add(SCORE_DROP) <= last);
        self.score = Some(score);
    }

    /// Percent of the clock's soft deadline to use now.
    fn scale_percent(&self) -> u32 {
        if self.iterations < 2 {
            return 100;
        }
        let stability = match self.stable {
            0 => 180,
            1 => 120,
            2 => 100,
            3 => 80,
            _ => 60,
        };
        if self.dropped {
            stability * 3 / 2
        } else {
            stability
        }
    }

    /// No new iteration is started after this.
    pub fn soft(&self) -> Option<Instant> {
        let soft = self.deadlines.soft?;
        if !self.enabled {
            return Some(soft);
        }
        let scaled = self.start + (soft - self.start) * self.scale_percent() / 100;
        Some(self.deadlines.hard.map_or(scaled, |hard| scaled.min(hard)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_stays_inside_the_clock() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock {
                remaining: 1000,
                increment: 10,
                movestogo: None,
            }),
            ..Limits::default()
        };
        let d = limits.deadlines(start, 50);
        let hard = d.hard.expect("hard deadline") - start;
        let soft = d.soft.expect("soft deadline") - start;
        assert!(hard <= Duration::from_millis(950 / 3));
        assert!(soft <= hard);
        assert!(soft >= Duration::from_millis(1));
    }

    /// A clock of u64::MAX milliseconds (any client may send one) multiplied out of range and
    /// made a deadline past what an `Instant` holds: a panic on the search thread.
    #[test]
    fn a_clock_at_the_top_of_its_range_gives_deadlines_in_range() {
        let start = Instant::now();
        for movestogo in [None, Some(1), Some(40)] {
            let limits = Limits {
                clock: Some(Clock {
                    remaining: u64::MAX,
                    increment: u64::MAX,
                    movestogo,
                }),
                ..Limits::default()
            };
            let d = limits.deadlines(start, 50);
            assert!(d.soft.is_none_or(|s| s >= start), "{movestogo:?}");
            assert!(d.hard.is_none_or(|h| h >= start), "{movestogo:?}");
        }
    }

    #[test]
    fn movetime_keeps_a_small_margin() {
        let start = Instant::now();
        let hard = |movetime, overhead| {
            Limits {
                movetime: Some(movetime),
                ..Limits::default()
            }
            .deadlines(start, overhead)
            .hard
            .map(|h| h - start)
        };
        let ms = |n| Some(Duration::from_millis(n));
        // A tenth of the move time when the overhead is larger...
        assert_eq!(hard(100, 50), ms(90));
        assert_eq!(hard(50, 50), ms(45));
        // ...else the overhead.
        assert_eq!(hard(1000, 30), ms(970));
        assert_eq!(hard(5, 50), ms(5));
        assert_eq!(hard(1, 0), ms(1));
    }

    #[test]
    fn almost_empty_clock_still_moves() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock {
                remaining: 10,
                increment: 0,
                movestogo: Some(1),
            }),
            ..Limits::default()
        };
        let d = limits.deadlines(start, 50);
        assert_eq!(d.hard.map(|h| h - start), Some(Duration::from_millis(1)));
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_gets_more_time_a_stable_one_less() {
        let start = Instant::now();
        let clock = |movetime| Limits {
            clock: Some(Clock {
                remaining: 10_000,
                increment: 100,
                movestogo: None,
            }),
            movetime,
            ..Limits::default()
        };
        let d = clock(None).deadlines(start, 50);
        let soft = d.soft.expect("soft deadline");
        let hard = d.hard.expect("hard deadline");
        let mut t = TimeUse::new(start, d, true);
        t.iteration_done(true, 0);
        assert_eq!(t.soft(), Some(soft));
        t.iteration_done(true, 0);
        let changing = t.soft().expect("soft");
        assert!(changing > soft && changing <= hard);
        for _ in 0..5 {
            t.iteration_done(false, 0);
        }
        let stable = t.soft().expect("soft");
        assert!(stable < soft);
        t.iteration_done(false, -SCORE_DROP);
        assert!(t.soft().expect("soft") > stable);
        // Off, or with a fixed move time, the deadline is used as given.
        let mut off = TimeUse::new(start, d, false);
        off.iteration_done(true, 0);
        off.iteration_done(true, 0);
        assert_eq!(off.soft(), d.soft);
        let d = clock(Some(300)).deadlines(start, 50);
        let mut t = TimeUse::new(start, d, true);
        t.iteration_done(true, 0);
        t.iteration_done(true, 0);
        assert_eq!(t.soft(), d.soft);
    }

    /// A game's estimate of the moves left shares the clock out when the clock does not say how
    /// many moves it must last; the clock's own `movestogo` wins, and no estimate spends more
    /// than a tenth of what is left.
    #[test]
    fn the_games_estimate_of_moves_left_shares_out_the_clock() {
        let start = Instant::now();
        let soft = |movestogo, moves_left| {
            Limits {
                clock: Some(Clock {
                    remaining: 10_050,
                    increment: 0,
                    movestogo,
                }),
                ..Limits::default()
            }
            .deadlines_for(start, 50, moves_left)
            .soft
            .map(|s| s - start)
        };
        let ms = |n| Some(Duration::from_millis(n));
        // 10,000 ms after the overhead, six tenths of the share as the soft deadline.
        assert_eq!(soft(None, None), ms(10_000 / 30 * 6 / 10));
        assert_eq!(soft(None, Some(20)), ms(10_000 / 20 * 6 / 10));
        assert_eq!(soft(None, Some(3)), ms(10_000 / 10 * 6 / 10));
        assert_eq!(soft(None, Some(500)), ms(10_000 / 50 * 6 / 10));
        assert_eq!(soft(Some(40), Some(20)), ms(10_000 / 40 * 6 / 10));
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert!(limits.deadlines(Instant::now(), 0).hard.is_none());
    }
}
