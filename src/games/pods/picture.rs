//! Pods' board for pictures and GUIs: 36 points, the lines of the position's rotation, and the
//! pods with their legs as each side's pods stand (Black's turned 180°).

use super::board::{point_name, xy, DIR_NAMES, DIR_VEC, POINTS};
use super::data::POD_COUNT;
use super::position::{self, pod_char, Pos, BLACK, WHITE};
use super::Pods;
use crate::games::Draw;
use crate::render::{
    self, Board, Hand, Leg, Line, Picture, Piece, PodType, Point, SideStyle, Style,
};

impl Pods {
    fn board(&self, pos: &Pos) -> Board {
        let geo = self.tables.geo(pos);
        let points: Vec<Point> = (0..POINTS)
            .map(|p| {
                let (x, y) = xy(p);
                Point {
                    name: point_name(p),
                    x: f64::from(x),
                    y: f64::from(y),
                }
            })
            .collect();
        let mut lines = Vec::new();
        for p in 0..POINTS {
            // N, NE, E and NW: every line once, from its lower end (or its left end).
            for d in [0usize, 1, 2, 7] {
                if geo.conn[p] & (1 << d) != 0 {
                    lines.push(Line {
                        from: point_name(p),
                        to: point_name(usize::from(geo.nbr[p][d])),
                        kind: if d % 2 == 1 { "diagonal" } else { "orthogonal" },
                    });
                }
            }
        }
        let pods = (0..POD_COUNT)
            .map(|letter| PodType {
                letter: pod_char(WHITE, letter),
                legs: [WHITE, BLACK].map(|colour| {
                    let m = self.tables.legs[colour][letter];
                    (0..8)
                        .filter(|d| m.all & (1 << d) != 0)
                        .map(|d| Leg {
                            dir: DIR_NAMES[d],
                            dx: DIR_VEC[d].0,
                            dy: DIR_VEC[d].1,
                            long: m.long & (1 << d) != 0,
                        })
                        .collect()
                }),
            })
            .collect();
        let (files, ranks) = render::grid_labels(6, 6, 1);
        Board {
            game: self.rules.name(),
            style: Style::Points,
            extent: [-0.6, -0.6, 5.6, 5.6],
            sides: [
                SideStyle {
                    name: "white",
                    fill: "#fbfbf7",
                    stroke: "#2b2b2b",
                },
                SideStyle {
                    name: "black",
                    fill: "#2b2b2b",
                    stroke: "#f0f0f0",
                },
            ],
            points,
            lines,
            cells: Vec::new(),
            groups: Vec::new(),
            pods,
            files,
            ranks,
        }
    }
}

impl Draw for Pods {
    fn picture(&self, pos: &Pos) -> Picture {
        let pieces = (0..POINTS)
            .filter_map(|p| {
                let (colour, letter) = pos.pod_at(p)?;
                Some(Piece {
                    point: point_name(p),
                    kind: "pod",
                    side: Some(colour),
                    label: Some(pod_char(colour, letter)),
                })
            })
            .collect();
        let hand = |colour: usize| {
            Hand::Pods(
                (0..POD_COUNT)
                    .filter(|l| pos.hand[colour] & (1 << l) != 0)
                    .map(|l| pod_char(colour, l))
                    .collect(),
            )
        };
        Picture {
            board: self.board(pos),
            pieces,
            hands: Some([hand(WHITE), hand(BLACK)]),
            to_move: usize::from(pos.side),
            position: position::format(pos),
            last_move: None,
            result: None,
        }
    }
}
