//! A [`Picture`] as a self-contained SVG document: no scripts, no external fonts or images,
//! one line per element, no empty lines (it is also a GTP multi-line answer), and the same
//! bytes for the same picture.
//!
//! Every piece is one `<g class="piece ...">` element, so a reader can count and find them.

use std::fmt::Write as _;

use super::{Board, Hand, Leg, Picture, Piece, Style};

const LAST_MOVE: &str = "#1f8a70";
const LINE: &str = "#5a4a3a";
const TEXT: &str = "#222222";
/// Pod legs, dark on the light board whichever side owns the pod.
const LINE_DARK: &str = "#1a1a1a";
const BACKGROUND: &str = "#f6efdc";

/// Numbers with at most one decimal, the same on every machine.
fn n(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn cell_fill(kind: &str) -> &'static str {
    match kind {
        "dark" => "#9c6b43",
        "light" => "#f0dcb4",
        "square" => "#e7c873",
        "triangle" => "#f8efd6",
        "behind_goal" => "#dcd6c8",
        _ => "#eeeeee",
    }
}

/// Maps board units to pixels.
struct Frame {
    unit: f64,
    left: f64,
    top: f64,
    x_min: f64,
    y_max: f64,
}

impl Frame {
    fn x(&self, x: f64) -> f64 {
        self.left + (x - self.x_min) * self.unit
    }
    fn y(&self, y: f64) -> f64 {
        self.top + (self.y_max - y) * self.unit
    }
    fn pt(&self, x: f64, y: f64) -> String {
        format!("{},{}", n(self.x(x)), n(self.y(y)))
    }
}

fn point_xy(board: &Board, name: &str) -> Option<(f64, f64)> {
    board
        .points
        .iter()
        .find(|p| p.name == name)
        .map(|p| (p.x, p.y))
}

/// The picture as an SVG document.
pub fn svg(pic: &Picture) -> String {
    let b = &pic.board;
    let [x_min, y_min, x_max, y_max] = b.extent;
    let (w_units, h_units) = (x_max - x_min, y_max - y_min);
    let unit = (480.0 / w_units).min(64.0).floor();
    let (left, top, right) = (30.0, 14.0, 14.0);
    let board_w = w_units * unit;
    let board_h = h_units * unit;
    let status = status_lines(pic);
    let width = (left + board_w + right).ceil();
    let height = (top + board_h + 26.0 + 20.0 * status.len() as f64 + 6.0).ceil();
    let f = Frame {
        unit,
        left,
        top,
        x_min,
        y_max,
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="tetrad-board {}" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif">"#,
        b.game,
        n(width),
        n(height),
        n(width),
        n(height)
    );
    let _ = writeln!(s, "<title>{}: {}</title>", b.game, escape(&pic.position));
    let _ = writeln!(
        s,
        r#"<rect class="background" x="0" y="0" width="{}" height="{}" fill="{BACKGROUND}"/>"#,
        n(width),
        n(height)
    );
    for c in &b.cells {
        let pts: Vec<String> = c.corners.iter().map(|&(x, y)| f.pt(x, y)).collect();
        let _ = writeln!(
            s,
            r#"<polygon class="cell {}" points="{}" fill="{}"/>"#,
            c.kind,
            pts.join(" "),
            cell_fill(c.kind)
        );
    }
    if b.style == Style::Squares {
        let _ = writeln!(
            s,
            r#"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{LINE}" stroke-width="2"/>"#,
            n(f.x(x_min)),
            n(f.y(y_max)),
            n(board_w),
            n(board_h)
        );
    } else {
        let lw = (unit * 0.04).max(1.0);
        for l in &b.lines {
            if let (Some(p), Some(q)) = (point_xy(b, &l.from), point_xy(b, &l.to)) {
                let _ = writeln!(
                    s,
                    r#"<line class="line {}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{LINE}" stroke-width="{}"/>"#,
                    l.kind,
                    n(f.x(p.0)),
                    n(f.y(p.1)),
                    n(f.x(q.0)),
                    n(f.y(q.1)),
                    n(lw)
                );
            }
        }
    }
    for g in &b.groups {
        if g.kind != "goal_line" {
            continue;
        }
        let ends = (g.points.first(), g.points.last());
        let (Some(a), Some(z)) = ends else { continue };
        if let (Some(p), Some(q)) = (point_xy(b, a), point_xy(b, z)) {
            let colour = g.side.map_or(LINE, |i| b.sides[i].fill);
            let _ = writeln!(
                s,
                r#"<line class="goal-line" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="{}" stroke-linecap="round"/>"#,
                n(f.x(p.0)),
                n(f.y(p.1)),
                n(f.x(q.0)),
                n(f.y(q.1)),
                n(unit * 0.14)
            );
        }
    }
    if b.style == Style::Points {
        for p in &b.points {
            let _ = writeln!(
                s,
                r#"<circle class="point" cx="{}" cy="{}" r="{}" fill="{LINE}"/>"#,
                n(f.x(p.x)),
                n(f.y(p.y)),
                n((unit * 0.07).max(1.5))
            );
        }
    }
    labels(&mut s, b, &f);
    last_move(&mut s, pic, &f);
    for piece in &pic.pieces {
        draw_piece(&mut s, pic, piece, &f);
    }
    let mut y = top + board_h + 26.0 + 16.0;
    for (i, line) in status.iter().enumerate() {
        let mut x = left;
        if i == 0 {
            let side = &b.sides[pic.to_move];
            let _ = writeln!(
                s,
                r#"<circle class="to-move" cx="{}" cy="{}" r="7" fill="{}" stroke="{}" stroke-width="1.5"/>"#,
                n(x + 7.0),
                n(y - 5.0),
                side.fill,
                side.stroke
            );
            x += 20.0;
        }
        let _ = writeln!(
            s,
            r#"<text class="status" x="{}" y="{}" font-size="14" fill="{TEXT}">{}</text>"#,
            n(x),
            n(y),
            escape(line)
        );
        y += 20.0;
    }
    s.push_str("</svg>\n");
    s
}

fn status_lines(pic: &Picture) -> Vec<String> {
    let b = &pic.board;
    let mut out = Vec::new();
    match &pic.result {
        Some((word, reason)) if word == "draw" => out.push(format!("game over: draw ({reason})")),
        Some((word, reason)) => out.push(format!("game over: {word} wins ({reason})")),
        None => out.push(format!("{} to move", b.sides[pic.to_move].name)),
    }
    if let Some((mv, _)) = &pic.last_move {
        out.push(format!("last move: {mv}"));
    }
    let goals: Vec<String> = b
        .groups
        .iter()
        .filter(|g| g.kind == "scoring_rows")
        .filter_map(|g| {
            let mut rows: Vec<f64> = g
                .points
                .iter()
                .filter_map(|name| point_xy(b, name).map(|p| p.1))
                .collect();
            rows.dedup();
            let rows: Vec<String> = rows.iter().map(|r| n(*r)).collect();
            Some(format!("{} {}", b.sides[g.side?].name, rows.join("-")))
        })
        .collect();
    if !goals.is_empty() {
        out.push(format!(
            "the ball ending a move on these rows wins: {}",
            goals.join(", ")
        ));
    }
    if let Some(hands) = &pic.hands {
        let text: Vec<String> = hands
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let what = match h {
                    Hand::Count(c) => c.to_string(),
                    Hand::Pods(p) if p.is_empty() => "-".to_string(),
                    Hand::Pods(p) => p.clone(),
                };
                format!("{} {what}", b.sides[i].name)
            })
            .collect();
        out.push(format!("in hand: {}", text.join(", ")));
    }
    out
}

fn labels(s: &mut String, b: &Board, f: &Frame) {
    let [x_min, y_min, _, _] = b.extent;
    let size = (f.unit * 0.3).clamp(10.0, 14.0);
    for (text, x) in &b.files {
        let _ = writeln!(
            s,
            r#"<text class="coord" x="{}" y="{}" font-size="{}" text-anchor="middle" fill="{TEXT}">{}</text>"#,
            n(f.x(*x)),
            n(f.y(y_min) + size + 4.0),
            n(size),
            escape(text)
        );
    }
    for (text, y) in &b.ranks {
        let _ = writeln!(
            s,
            r#"<text class="coord" x="{}" y="{}" font-size="{}" text-anchor="end" fill="{TEXT}">{}</text>"#,
            n(f.x(x_min) - 5.0),
            n(f.y(*y) + size * 0.35),
            n(size),
            escape(text)
        );
    }
}

fn last_move(s: &mut String, pic: &Picture, f: &Frame) {
    let Some((_, names)) = &pic.last_move else {
        return;
    };
    let pts: Vec<(f64, f64)> = names
        .iter()
        .filter_map(|name| point_xy(&pic.board, name))
        .collect();
    if pts.len() >= 2 {
        let path: Vec<String> = pts.iter().map(|&(x, y)| f.pt(x, y)).collect();
        let _ = writeln!(
            s,
            r#"<polyline class="last-move" points="{}" fill="none" stroke="{LAST_MOVE}" stroke-width="{}" stroke-opacity="0.75" stroke-linejoin="round"/>"#,
            path.join(" "),
            n((f.unit * 0.1).max(2.0))
        );
    }
    for (i, &(x, y)) in pts.iter().enumerate() {
        let end = i + 1 == pts.len();
        let _ = writeln!(
            s,
            r#"<circle class="last-move" cx="{}" cy="{}" r="{}" fill="{}" fill-opacity="0.3" stroke="{LAST_MOVE}" stroke-width="{}"/>"#,
            n(f.x(x)),
            n(f.y(y)),
            n(f.unit * 0.46),
            if end { LAST_MOVE } else { "none" },
            n((f.unit * 0.06).max(2.0))
        );
    }
}

/// One piece alone, as a hand's button shows it: a one-line SVG document of `size` pixels.
pub fn piece(board: &Board, piece: &Piece, size: f64) -> String {
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="tetrad-piece {}" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        piece.kind,
        n(size),
        n(size),
        n(size),
        n(size)
    );
    // A pod's long legs reach 0.6 of a unit from its centre.
    draw_piece_at(&mut s, board, piece, size / 1.25, size / 2.0, size / 2.0);
    s.push_str("</svg>");
    s.replace('\n', "")
}

fn leg_path(unit: f64, cx: f64, cy: f64, leg: &Leg) -> String {
    let len = ((leg.dx * leg.dx + leg.dy * leg.dy) as f64).sqrt();
    // Screen direction (y down).
    let (ux, uy) = (leg.dx as f64 / len, -(leg.dy as f64) / len);
    let r0 = unit * 0.27;
    let r1 = if leg.long { unit * 0.56 } else { unit * 0.42 };
    let (x0, y0) = (cx + ux * r0, cy + uy * r0);
    let (x1, y1) = (cx + ux * r1, cy + uy * r1);
    if leg.long {
        // A long leg ends in an arrowhead: it reaches along the whole line.
        let h = unit * 0.1;
        let (bx, by) = (x1 - ux * h, y1 - uy * h);
        let (px, py) = (-uy * h * 0.8, ux * h * 0.8);
        format!(
            "M{},{} L{},{} M{},{} L{},{} L{},{}",
            n(x0),
            n(y0),
            n(x1),
            n(y1),
            n(bx + px),
            n(by + py),
            n(x1),
            n(y1),
            n(bx - px),
            n(by - py)
        )
    } else {
        format!("M{},{} L{},{}", n(x0), n(y0), n(x1), n(y1))
    }
}

fn draw_piece(s: &mut String, pic: &Picture, piece: &Piece, f: &Frame) {
    let b = &pic.board;
    let Some((x, y)) = point_xy(b, &piece.point) else {
        return;
    };
    draw_piece_at(s, b, piece, f.unit, f.x(x), f.y(y));
}

fn draw_piece_at(s: &mut String, b: &Board, piece: &Piece, u: f64, cx: f64, cy: f64) {
    let side_word = piece.side.map_or("none", |i| b.sides[i].name);
    let _ = write!(s, r#"<g class="piece {} {side_word}""#, piece.kind);
    if !piece.point.is_empty() {
        let _ = write!(s, r#" data-point="{}""#, piece.point);
    }
    s.push('>');
    let (fill, stroke) = match piece.side {
        Some(i) => (b.sides[i].fill, b.sides[i].stroke),
        None => ("#222222", "#000000"),
    };
    match piece.kind {
        "man" | "king" => {
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2"/><circle cx="{}" cy="{}" r="{}" fill="none" stroke="{stroke}" stroke-width="1"/>"#,
                n(cx),
                n(cy),
                n(u * 0.38),
                n(cx),
                n(cy),
                n(u * 0.27)
            );
            if piece.kind == "king" {
                let k = u * 0.16;
                let _ = write!(
                    s,
                    r##"<path d="M{},{} L{},{} L{},{} L{},{} L{},{} L{},{} L{},{} Z" fill="#d4a017" stroke="{stroke}" stroke-width="1"/>"##,
                    n(cx - k),
                    n(cy + k * 0.7),
                    n(cx - k),
                    n(cy - k * 0.6),
                    n(cx - k * 0.5),
                    n(cy),
                    n(cx),
                    n(cy - k * 0.9),
                    n(cx + k * 0.5),
                    n(cy),
                    n(cx + k),
                    n(cy - k * 0.6),
                    n(cx + k),
                    n(cy + k * 0.7)
                );
            }
        }
        "ball" => {
            let _ = write!(
                s,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#ffffff" stroke="#111111" stroke-width="2"/><circle cx="{}" cy="{}" r="{}" fill="none" stroke="#999999" stroke-width="1"/>"##,
                n(cx),
                n(cy),
                n(u * 0.42),
                n(cx),
                n(cy),
                n(u * 0.22)
            );
        }
        "stone" => {
            let _ = write!(
                s,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#1e1e1e" stroke="#000000" stroke-width="1"/>"##,
                n(cx),
                n(cy),
                n(u * 0.4)
            );
        }
        "neutral" => {
            let _ = write!(
                s,
                r##"<circle cx="{}" cy="{}" r="{}" fill="#c0392b" stroke="#6e1f17" stroke-width="2"/>"##,
                n(cx),
                n(cy),
                n(u * 0.36)
            );
        }
        "pod" => {
            let owner = piece.side.unwrap_or(0);
            let letter = piece.label.unwrap_or('?');
            let legs = b
                .pods
                .iter()
                .find(|t| t.letter == letter.to_ascii_uppercase())
                .map(|t| t.legs[owner].as_slice())
                .unwrap_or(&[]);
            for leg in legs {
                let _ = write!(
                    s,
                    r#"<path class="leg {}" d="{}" fill="none" stroke="{LINE_DARK}" stroke-width="{}" stroke-linecap="round"/>"#,
                    if leg.long { "long" } else { "short" },
                    leg_path(u, cx, cy, leg),
                    n(if leg.long { u * 0.07 } else { u * 0.05 })
                );
            }
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
                n(cx),
                n(cy),
                n(u * 0.27)
            );
            // The face: a pod looks towards its owner (White at the bottom, Black at the top).
            let dir = if owner == 0 { 1.0 } else { -1.0 };
            let _ = write!(
                s,
                r#"<path class="face" d="M{},{} Q{},{} {},{}" fill="none" stroke="{stroke}" stroke-width="{}" stroke-linecap="round"/>"#,
                n(cx - u * 0.12),
                n(cy + dir * u * 0.16),
                n(cx),
                n(cy + dir * u * 0.26),
                n(cx + u * 0.12),
                n(cy + dir * u * 0.16),
                n((u * 0.04).max(1.5))
            );
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" font-size="{}" font-weight="bold" text-anchor="middle" fill="{stroke}">{}</text>"#,
                n(cx),
                n(cy - dir * u * 0.02 + u * 0.06),
                n(u * 0.22),
                letter.to_ascii_uppercase()
            );
        }
        _ => {
            let _ = write!(
                s,
                r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="{stroke}"/>"#,
                n(cx),
                n(cy),
                n(u * 0.35)
            );
        }
    }
    s.push_str("</g>\n");
}
