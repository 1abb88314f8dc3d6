//! The GTP clock policy: `time_settings`, `time_left` and `kgs-time_settings` turned into the
//! limits of a `genmove`.

use std::time::Instant;

use crate::games::Side;
use crate::search::{Clock, Limits};

/// The GTP clock (`time_settings`, `time_left`, `kgs-time_settings`), all in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GtpTime {
    main: u64,
    byo: u64,
    stones: u32,
    active: bool,
    /// `time_left` of each side (time, stones), for the game whose `Session::serial` is
    /// `serial`: a new game forgets them.
    left: [Option<(u64, u32)>; 2],
    serial: u64,
}

fn ms(seconds: f64) -> u64 {
    if seconds.is_finite() && seconds > 0.0 {
        (seconds * 1000.0).min(1e12) as u64
    } else {
        0
    }
}

impl GtpTime {
    /// `time_settings`: main time, then byo-yomi time per `stones` stones (in seconds).
    pub fn settings(main: f64, byo: f64, stones: u32) -> GtpTime {
        let (main, byo) = (ms(main), ms(byo));
        // GTP: byo-yomi time with zero stones means no time limit.
        let active = !(byo > 0 && stones == 0) && (main > 0 || byo > 0);
        GtpTime {
            main,
            byo,
            stones,
            active,
            ..GtpTime::default()
        }
    }

    /// `time_left SIDE TIME STONES` in game `serial`: STONES 0 = still in main time.
    pub fn set_left(&mut self, side: Side, time: f64, stones: u32, serial: u64) {
        if self.serial != serial {
            self.left = [None, None];
            self.serial = serial;
        }
        self.left[side.index()] = Some((ms(time), stones));
        self.active = true;
    }

    /// The search limits of a `genmove` for `side` in game `serial`; `None` when no clock
    /// runs. `overhead` is the option `move_overhead`.
    pub fn limits(&self, side: Side, serial: u64, overhead: u64) -> Option<Limits> {
        if !self.active {
            return None;
        }
        // A byo-yomi period: the time for `stones` moves, which comes back after them. With
        // one stone, time not used is lost, so the move may use it all but the overhead.
        let period = |time: u64, stones: u32| {
            if stones == 1 {
                Limits {
                    movetime: Some(time.saturating_sub(overhead).max(1)),
                    ..Limits::default()
                }
            } else {
                Limits {
                    clock: Some(Clock {
                        remaining: time,
                        increment: 0,
                        movestogo: Some(stones),
                    }),
                    ..Limits::default()
                }
            }
        };
        let byo = (self.byo > 0 && self.stones > 0).then(|| period(self.byo, self.stones));
        let left = if self.serial == serial {
            self.left[side.index()]
        } else {
            None
        };
        // Without `time_left`: at the start of the game, in main time if there is any.
        let (time, stones) = match (left, byo) {
            (Some(left), _) => left,
            (None, Some(_)) if self.main == 0 => (self.byo, self.stones),
            // Only a `time_left` of another game or of the other side: no clock known.
            (None, _) if self.main == 0 => return None,
            (None, _) => (self.main, 0),
        };
        if stones > 0 {
            return Some(period(time, stones));
        }
        let main = Limits {
            clock: Some(Clock {
                remaining: time,
                increment: 0,
                movestogo: None,
            }),
            ..Limits::default()
        };
        Some(match byo {
            None => main,
            Some(b) if time == 0 => b,
            // Main time running out during the move only starts the byo-yomi: the move may
            // take whichever of the two allows more.
            Some(b) => {
                let now = Instant::now();
                let soft = |l: &Limits| l.deadlines(now, overhead).soft;
                if soft(&b) > soft(&main) {
                    b
                } else {
                    main
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GtpTime;
    use crate::games::Side;
    use crate::search::{Clock, Limits};

    fn clock(remaining: u64, movestogo: Option<u32>) -> Option<Limits> {
        Some(Limits {
            clock: Some(Clock {
                remaining,
                increment: 0,
                movestogo,
            }),
            ..Limits::default()
        })
    }

    fn movetime(ms: u64) -> Option<Limits> {
        Some(Limits {
            movetime: Some(ms),
            ..Limits::default()
        })
    }

    #[test]
    fn every_time_system_with_and_without_time_left() {
        let at = |t: &GtpTime| t.limits(Side::P1, 0, 50);
        // No clock: `time_settings` never sent, `kgs-time_settings none`, B > 0 with S = 0.
        assert_eq!(at(&GtpTime::default()), None);
        assert_eq!(at(&GtpTime::settings(0.0, 1.0, 0)), None);
        assert_eq!(at(&GtpTime::settings(300.0, 5.0, 0)), None);
        // Absolute.
        let mut t = GtpTime::settings(60.0, 0.0, 0);
        assert_eq!(at(&t), clock(60_000, None));
        t.set_left(Side::P1, 30.0, 0, 0);
        assert_eq!(at(&t), clock(30_000, None));
        // Byo-yomi without main time: each move may use its whole period but the overhead.
        let mut t = GtpTime::settings(0.0, 30.0, 1);
        assert_eq!(at(&t), movetime(29_950));
        t.set_left(Side::P1, 20.0, 1, 0);
        assert_eq!(at(&t), movetime(19_950));
        // Main time before byo-yomi: the more generous of the two budgets.
        let mut t = GtpTime::settings(600.0, 30.0, 1);
        assert_eq!(at(&t), movetime(29_950));
        t.set_left(Side::P1, 0.0, 0, 0);
        assert_eq!(at(&t), movetime(29_950));
        let t = GtpTime::settings(3600.0, 1.0, 1);
        assert_eq!(at(&t), clock(3_600_000, None));
        // Canadian: main time, then B seconds for S stones.
        let mut t = GtpTime::settings(0.0, 300.0, 25);
        assert_eq!(at(&t), clock(300_000, Some(25)));
        t.set_left(Side::P1, 250.0, 20, 0);
        assert_eq!(at(&t), clock(250_000, Some(20)));
        let mut t = GtpTime::settings(600.0, 300.0, 25);
        t.set_left(Side::P1, 0.0, 0, 0);
        assert_eq!(at(&t), clock(300_000, Some(25)));
        // `time_left` alone is a clock; a new game forgets it.
        let mut t = GtpTime::default();
        t.set_left(Side::P1, 5.0, 0, 0);
        assert_eq!(at(&t), clock(5_000, None));
        assert_eq!(t.limits(Side::P1, 1, 50), None);
        assert_eq!(t.limits(Side::P2, 0, 50), None);
    }
}
