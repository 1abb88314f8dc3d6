//! Diamond's board for pictures and GUIs: 62 points, the lines between them, the 24 squares
//! (which win) and the 48 triangles (which capture).

use super::board::{point_name, TABLES, VALID};
use super::position::{BLACK, WHITE};
use super::{Diamond, Pos};
use crate::games::Draw;
use crate::render::{
    self, Board, Cell, Group, Hand, Line, Picture, Piece, Point, SideStyle, Style,
};

fn xy(p: usize) -> (f64, f64) {
    ((p % 8) as f64, (p / 8) as f64)
}

fn board() -> Board {
    let exists = |p: usize| VALID >> p & 1 != 0;
    let points: Vec<Point> = (0..64)
        .filter(|&p| exists(p))
        .map(|p| {
            let (x, y) = xy(p);
            Point {
                name: point_name(p),
                x,
                y,
            }
        })
        .collect();
    let mut lines = Vec::new();
    for p in (0..64).filter(|&p| exists(p)) {
        for q in (p + 1..64).filter(|&q| TABLES.adj[p] >> q & 1 != 0) {
            let diagonal = p % 8 != q % 8 && p / 8 != q / 8;
            lines.push(Line {
                from: point_name(p),
                to: point_name(q),
                kind: if diagonal { "diagonal" } else { "orthogonal" },
            });
        }
    }
    let mut cells = Vec::new();
    let mut groups = Vec::new();
    for &sq in &TABLES.squares {
        let ll = sq.trailing_zeros() as usize;
        let corners = [ll, ll + 1, ll + 9, ll + 8];
        cells.push(Cell {
            kind: "square",
            corners: corners.iter().map(|&p| xy(p)).collect(),
            point: None,
        });
        groups.push(Group {
            kind: "square",
            side: None,
            points: corners.iter().map(|&p| point_name(p)).collect(),
        });
    }
    for tri in &TABLES.triangles {
        let mut t = tri.map(usize::from);
        t.sort_unstable();
        cells.push(Cell {
            kind: "triangle",
            corners: t.iter().map(|&p| xy(p)).collect(),
            point: None,
        });
        groups.push(Group {
            kind: "triangle",
            side: None,
            points: t.iter().map(|&p| point_name(p)).collect(),
        });
    }
    let (files, ranks) = render::grid_labels(8, 8, 1);
    Board {
        game: "diamond",
        style: Style::Points,
        extent: [-0.5, -0.5, 7.5, 7.5],
        sides: [
            SideStyle {
                name: "black",
                fill: "#262626",
                stroke: "#000000",
            },
            SideStyle {
                name: "white",
                fill: "#fbfbf7",
                stroke: "#3a3a3a",
            },
        ],
        points,
        lines,
        cells,
        groups,
        pods: Vec::new(),
        files,
        ranks,
    }
}

impl Draw for Diamond {
    fn picture(&self, pos: &Pos) -> Picture {
        let mut pieces = Vec::new();
        for p in 0..64 {
            let bit = 1u64 << p;
            let (kind, side) = if pos.pieces[BLACK] & bit != 0 {
                ("man", Some(BLACK))
            } else if pos.pieces[WHITE] & bit != 0 {
                ("man", Some(WHITE))
            } else if pos.neutral & bit != 0 {
                ("neutral", None)
            } else {
                continue;
            };
            pieces.push(Piece {
                point: point_name(p),
                kind,
                side,
                label: None,
            });
        }
        Picture {
            board: board(),
            pieces,
            hands: Some([
                Hand::Count(u32::from(pos.hand[BLACK])),
                Hand::Count(u32::from(pos.hand[WHITE])),
            ]),
            to_move: pos.stm,
            position: pos.to_fen(),
            last_move: None,
            result: None,
        }
    }
}
