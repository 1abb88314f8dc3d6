//! Poddavki's board for pictures and GUIs: the 8×8 board, pieces on the 32 dark squares.

use super::board::{file_of, rank_of, square_at, Position, BLACK, NE, NONE, NW, WHITE};
use super::notation::square_name;
use super::Poddavki;
use crate::games::Draw;
use crate::render::{self, Board, Cell, Group, Line, Picture, Piece, Point, SideStyle, Style};

fn board() -> Board {
    let mut cells: Vec<Cell> = Vec::new();
    for rank in 0..8 {
        for file in 0..8 {
            let sq = square_at(file, rank);
            cells.push(render::square_cell(
                if sq.is_some() { "dark" } else { "light" },
                f64::from(file),
                f64::from(rank),
                sq.map(square_name),
            ));
        }
    }
    let points: Vec<Point> = (0..32)
        .map(|s| Point {
            name: square_name(s),
            x: file_of(s) as f64,
            y: rank_of(s) as f64,
        })
        .collect();
    let mut lines = Vec::new();
    for s in 0..32 {
        for d in [NE, NW] {
            let t = super::board::step(s, d);
            if t != NONE {
                lines.push(Line {
                    from: square_name(s),
                    to: square_name(usize::from(t)),
                    kind: "diagonal",
                });
            }
        }
    }
    let rank = |r: usize| {
        (0..32)
            .filter(|&s| rank_of(s) == r)
            .map(square_name)
            .collect()
    };
    let (files, ranks) = render::grid_labels(8, 8, 1);
    Board {
        game: "poddavki",
        style: Style::Squares,
        extent: [-0.5, -0.5, 7.5, 7.5],
        sides: [
            SideStyle {
                name: "white",
                fill: "#f7f2e4",
                stroke: "#3b2f25",
            },
            SideStyle {
                name: "black",
                fill: "#262626",
                stroke: "#bfa98a",
            },
        ],
        points,
        lines,
        cells,
        groups: vec![
            Group {
                kind: "promotion_row",
                side: Some(WHITE),
                points: rank(7),
            },
            Group {
                kind: "promotion_row",
                side: Some(BLACK),
                points: rank(0),
            },
        ],
        pods: Vec::new(),
        files,
        ranks,
    }
}

impl Draw for Poddavki {
    fn picture(&self, pos: &Position) -> Picture {
        let mut pieces = Vec::new();
        for s in 0..32 {
            for side in [WHITE, BLACK] {
                if pos.pieces[side] >> s & 1 != 0 {
                    pieces.push(Piece {
                        point: square_name(s),
                        kind: if pos.kings >> s & 1 != 0 {
                            "king"
                        } else {
                            "man"
                        },
                        side: Some(side),
                        label: None,
                    });
                }
            }
        }
        Picture {
            board: board(),
            pieces,
            hands: None,
            to_move: pos.stm,
            position: super::position::format_position(pos),
            last_move: None,
            result: None,
        }
    }
}
