//! Phutball's board for pictures and GUIs: the 15×21 grid of points, the two goal lines and the
//! rows behind them.

use super::board::{point, COLS, ROWS};
use super::notation::{format_position, point_name};
use super::{Phutball, Pos};
use crate::games::Draw;
use crate::games::Side;
use crate::render::{self, Board, Cell, Group, Line, Picture, Piece, Point, SideStyle, Style};

const RED: usize = 0;
const BLUE: usize = 1;

fn row(r: usize) -> Vec<String> {
    (0..COLS).map(|c| point_name(point(c, r))).collect()
}

fn board() -> Board {
    let mut points = Vec::with_capacity(COLS * ROWS);
    let mut lines = Vec::new();
    for r in 0..ROWS {
        for c in 0..COLS {
            points.push(Point {
                name: point_name(point(c, r)),
                x: c as f64,
                y: r as f64,
            });
            let here = point_name(point(c, r));
            if c + 1 < COLS {
                lines.push(Line {
                    from: here.clone(),
                    to: point_name(point(c + 1, r)),
                    kind: "orthogonal",
                });
            }
            if r + 1 < ROWS {
                lines.push(Line {
                    from: here,
                    to: point_name(point(c, r + 1)),
                    kind: "orthogonal",
                });
            }
        }
    }
    let strip = |y: f64| Cell {
        kind: "behind_goal",
        corners: vec![
            (-0.5, y - 0.5),
            (COLS as f64 - 0.5, y - 0.5),
            (COLS as f64 - 0.5, y + 0.5),
            (-0.5, y + 0.5),
        ],
        point: None,
    };
    let (files, ranks) = render::grid_labels(COLS, ROWS, 0);
    let rows = |a: usize, b: usize| [row(a), row(b)].concat();
    Board {
        game: "phutball",
        style: Style::Points,
        extent: [-0.5, -0.5, COLS as f64 - 0.5, ROWS as f64 - 0.5],
        sides: [
            SideStyle {
                name: "red",
                fill: "#c8372d",
                stroke: "#5e1510",
            },
            SideStyle {
                name: "blue",
                fill: "#2d62c8",
                stroke: "#10245e",
            },
        ],
        points,
        lines,
        cells: vec![strip(0.0), strip((ROWS - 1) as f64)],
        groups: vec![
            Group {
                kind: "goal_line",
                side: Some(RED),
                points: row(1),
            },
            Group {
                kind: "goal_line",
                side: Some(BLUE),
                points: row(ROWS - 2),
            },
            Group {
                kind: "scoring_rows",
                side: Some(RED),
                points: rows(ROWS - 2, ROWS - 1),
            },
            Group {
                kind: "scoring_rows",
                side: Some(BLUE),
                points: rows(0, 1),
            },
            Group {
                kind: "no_men",
                side: None,
                points: rows(0, ROWS - 1),
            },
        ],
        pods: Vec::new(),
        files,
        ranks,
    }
}

impl Draw for Phutball {
    fn picture(&self, pos: &Pos) -> Picture {
        let mut pieces = Vec::new();
        for p in 0..COLS * ROWS {
            let kind = if p == usize::from(pos.ball) {
                "ball"
            } else if pos.men.get(p) {
                "stone"
            } else {
                continue;
            };
            pieces.push(Piece {
                point: point_name(p),
                kind,
                side: None,
                label: None,
            });
        }
        Picture {
            board: board(),
            pieces,
            hands: None,
            to_move: if pos.side == Side::P1 { RED } else { BLUE },
            position: format_position(pos),
            last_move: None,
            result: None,
        }
    }
}
