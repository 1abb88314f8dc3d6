//! The drawing hook of the game seam: a position as a [`Picture`] (the data `render/` writes as
//! SVG or JSON). Here rather than in `render/` so that the renderers know no game.

use super::Notation;
use crate::render::{Board, HandPiece, Picture, SideStyle, Style};

/// A game's drawing hook, separate from the rules.
pub trait Draw: Notation {
    /// The board, pieces and hands of `pos`; the caller fills in the history-dependent parts
    /// (last move, result). The default is a board without points, for games that have no
    /// drawing (test games).
    fn picture(&self, pos: &Self::Pos) -> Picture {
        let [first, second] = self.side_names();
        let side = |name| SideStyle {
            name,
            fill: "#ffffff",
            stroke: "#000000",
        };
        Picture {
            board: Board {
                game: self.name(),
                style: Style::Points,
                extent: [0.0, 0.0, 1.0, 1.0],
                sides: [side(first), side(second)],
                points: Vec::new(),
                lines: Vec::new(),
                cells: Vec::new(),
                groups: Vec::new(),
                pods: Vec::new(),
                files: Vec::new(),
                ranks: Vec::new(),
            },
            pieces: Vec::new(),
            hands: None,
            to_move: self.side_to_move(pos).index(),
            position: self.format_position(pos),
            last_move: None,
            result: None,
        }
    }

    /// The pieces each side holds off the board, one entry each, as its hand's buttons draw
    /// them (`hand_svg`): none by default, for games without a hand of pieces to choose from.
    fn hand(&self, _pos: &Self::Pos) -> Vec<HandPiece> {
        Vec::new()
    }
}
