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
}

/// Moves we assume are left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl Limits {
    pub fn deadlines(&self, start: Instant, overhead_ms: u64) -> Deadlines {
        if self.infinite {
            return Deadlines {
                soft: None,
                hard: None,
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
                .unwrap_or(DEFAULT_MOVES_TO_GO);
            // With the increment arriving after the move, spending most of it is safe.
            let base = available / mtg + c.increment * 3 / 4;
            let hard_cap = if mtg == 1 {
                available * 9 / 10
            } else {
                available / 3
            };
            let hard = (base * 3).min(hard_cap).max(1);
            let soft = (base * 6 / 10).min(hard).max(1);
            soft_ms = Some(soft_ms.map_or(soft, |s| s.min(soft)));
            hard_ms = Some(hard_ms.map_or(hard, |h| h.min(hard)));
        }
        let at = |ms: u64| start + Duration::from_millis(ms);
        Deadlines {
            soft: soft_ms.map(at),
            hard: hard_ms.map(at),
        }
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
    fn infinite_has_no_deadline() {
        let limits = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert!(limits.deadlines(Instant::now(), 0).hard.is_none());
    }
}
