//! Board pictures and board geometry for GUIs: each game describes its board and pieces as a
//! [`Picture`] (through its drawing hook, `games::Draw`), and this module writes it as SVG
//! ([`svg`]) or as the `board_layout` JSON document ([`json`]). A leaf: it knows no game, only
//! pictures.
//!
//! Coordinates are board units with y growing upwards (rank 1 / row 0 at the bottom), so that
//! a point's x, y are the file and rank indices of its name.

pub mod json;
pub mod svg;

/// How pieces sit on the board: in the cells (draughts) or on the points where lines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Squares,
    Points,
}

impl Style {
    pub fn word(self) -> &'static str {
        match self {
            Style::Squares => "squares",
            Style::Points => "points",
        }
    }
}

/// A side's name and the colours its pieces (or, in Phutball, its goal line) are drawn in.
#[derive(Clone, Debug, PartialEq)]
pub struct SideStyle {
    pub name: &'static str,
    pub fill: &'static str,
    pub stroke: &'static str,
}

/// A place a piece can stand on, named as the notation names it.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub name: String,
    pub x: f64,
    pub y: f64,
}

/// A line between two points along which things move (`kind`: `orthogonal`, `diagonal`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub from: String,
    pub to: String,
    pub kind: &'static str,
}

/// A filled area of the board drawing: a draughts square, a Diamond square or triangle, the
/// strip behind a Phutball goal. `point` names the point the area belongs to, if one.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub kind: &'static str,
    pub corners: Vec<(f64, f64)>,
    pub point: Option<String>,
}

/// A named set of points with a meaning in the rules (`square`, `triangle`, `goal_line`,
/// `scoring_rows`, `promotion_row`); `side` is the side it belongs to, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub kind: &'static str,
    pub side: Option<usize>,
    pub points: Vec<String>,
}

/// One leg of a Pods pod as it stands on the board for one side.
#[derive(Clone, Debug, PartialEq)]
pub struct Leg {
    pub dir: &'static str,
    pub dx: i32,
    pub dy: i32,
    pub long: bool,
}

/// A Pods pod type: its letter (White's, upper case) and its legs for each side.
#[derive(Clone, Debug, PartialEq)]
pub struct PodType {
    pub letter: char,
    pub legs: [Vec<Leg>; 2],
}

/// The board itself, independent of the pieces on it (for Pods it depends on the position's
/// rotation of the line pattern).
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub game: &'static str,
    pub style: Style,
    /// The drawn area: `[x_min, y_min, x_max, y_max]`.
    pub extent: [f64; 4],
    pub sides: [SideStyle; 2],
    pub points: Vec<Point>,
    pub lines: Vec<Line>,
    pub cells: Vec<Cell>,
    pub groups: Vec<Group>,
    pub pods: Vec<PodType>,
    /// Coordinate labels: file letters along x, rank numbers along y.
    pub files: Labels,
    pub ranks: Labels,
}

/// A piece on a point. `side` is `None` for pieces nobody owns (Phutball's men and ball,
/// Diamond's neutral pieces).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub point: String,
    pub kind: &'static str,
    pub side: Option<usize>,
    /// Pods: the pod's letter (upper case for White, lower case for Black).
    pub label: Option<char>,
}

/// What a side holds off the board: a count (Diamond) or pod letters (Pods).
#[derive(Clone, Debug, PartialEq)]
pub enum Hand {
    Count(u32),
    Pods(String),
}

/// A piece a side holds off the board, as the side's hand buttons show it: `id` is the piece as
/// the notation writes it (`legal_moves_json`'s `piece`), `piece` how it is drawn (its point
/// unused).
#[derive(Clone, Debug, PartialEq)]
pub struct HandPiece {
    pub side: usize,
    pub id: String,
    pub piece: Piece,
}

/// A position as a picture: the board, the pieces, the hands, whose turn, the last move.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub board: Board,
    pub pieces: Vec<Piece>,
    /// Per side, when the game has hands.
    pub hands: Option<[Hand; 2]>,
    pub to_move: usize,
    /// The position string.
    pub position: String,
    /// The last move in notation and the points it touched, in order.
    pub last_move: Option<(String, Vec<String>)>,
    /// `ongoing`, `draw` or the winner's name, and the reason.
    pub result: Option<(String, String)>,
}

/// How a move is entered by clicking: the piece taken from the hand first, if any, then the
/// board points (the `board_layout` names) in order. No points: a move without a place (a swap).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInput {
    pub piece: Option<String>,
    pub points: Vec<String>,
}

/// The point names in a move's notation, in order: every `<file letter><digits>` token.
/// This covers all four notations (`c3:e5`, `h10-h12`, `e3-e4*`, `(b3)`, `A@c3`); `swap` has
/// no points.
pub fn move_points(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_lowercase()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if starts {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push(text[i..j].to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// `a`, `b`, ... for file index `i`.
pub fn file_letter(i: usize) -> String {
    char::from(b'a' + (i % 26) as u8).to_string()
}

/// The file letters and rank numbers of a `files` × `ranks` grid whose first rank is `first`.
pub fn grid_labels(files: usize, ranks: usize, first: usize) -> (Labels, Labels) {
    let f = (0..files).map(|i| (file_letter(i), i as f64)).collect();
    let r = (0..ranks)
        .map(|i| ((i + first).to_string(), i as f64))
        .collect();
    (f, r)
}

/// Coordinate labels: text and position along the axis.
pub type Labels = Vec<(String, f64)>;

/// A unit square centred on `(x, y)`.
pub fn square_cell(kind: &'static str, x: f64, y: f64, point: Option<String>) -> Cell {
    Cell {
        kind,
        corners: vec![
            (x - 0.5, y - 0.5),
            (x + 0.5, y - 0.5),
            (x + 0.5, y + 0.5),
            (x - 0.5, y + 0.5),
        ],
        point,
    }
}

#[cfg(test)]
mod tests {
    use super::move_points;

    #[test]
    fn move_points_of_every_notation() {
        assert_eq!(move_points("c3:e5:g3"), ["c3", "e5", "g3"]);
        assert_eq!(move_points("h10-h12-j14"), ["h10", "h12", "j14"]);
        assert_eq!(move_points("e3-e4*"), ["e3", "e4"]);
        assert_eq!(move_points("(b3)"), ["b3"]);
        assert_eq!(move_points("A@c3"), ["c3"]);
        assert_eq!(move_points("swap"), Vec::<String>::new());
        assert_eq!(move_points("o20"), ["o20"]);
    }
}
