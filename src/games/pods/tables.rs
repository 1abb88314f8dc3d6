//! The tables move generation reads, derived once from a [`PodsData`]: the board's lines in
//! each rotation and every pod's legs for each colour. Apart from the board (pure geometry) so
//! that the board does not depend on the data file's format.

use super::board::Geometry;
use super::data::{Leg, PodsData, POD_COUNT};

/// Leg masks of one pod for one colour (bit d = direction d).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LegMask {
    pub all: u8,
    pub short: u8,
    pub long: u8,
}

/// Everything move generation needs, derived once from a [`PodsData`].
#[derive(Clone, Debug)]
pub struct Tables {
    pub geo: [Geometry; 4],
    /// `[colour][letter]`; Black's pods are White's turned 180°.
    pub legs: [[LegMask; POD_COUNT]; 2],
}

impl Tables {
    pub fn new(data: &PodsData) -> Tables {
        let geo = [0u8, 1, 2, 3].map(|r| Geometry::new(&data.missing, r));
        let mut legs = [[LegMask::default(); POD_COUNT]; 2];
        for (letter, pod) in data.pods.iter().enumerate() {
            for (d, leg) in pod.iter().enumerate() {
                for (colour, side) in legs.iter_mut().enumerate() {
                    let dir = (d + 4 * colour) % 8;
                    let m = &mut side[letter];
                    match leg {
                        Leg::None => {}
                        Leg::Short => {
                            m.all |= 1 << dir;
                            m.short |= 1 << dir;
                        }
                        Leg::Long => {
                            m.all |= 1 << dir;
                            m.long |= 1 << dir;
                        }
                    }
                }
            }
        }
        Tables { geo, legs }
    }
}
