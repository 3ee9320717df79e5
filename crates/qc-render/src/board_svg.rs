//! The board as SVG, for every ruleset and board size: pieces drawn as chess symbols, a ring on
//! each square whose arc shows the probability (a full ring = certain, as the official game
//! shows it) and the percentage written beside it, Niel's marks and pairs, optional lines between
//! correlated squares (solid: occupied together; dashed: one or the other) bent around the other
//! pieces, and under the board the side to move or the result, and a legend of what is drawn.

use super::svg_circuit::xml_escape;
use qc_ir::Square;
use qc_rules::{BoardView, Status};
use std::fmt::Write;

/// Side of a square, in pixels.
pub const CELL: f64 = 60.0;
/// Margin around the board (for the coordinates), in pixels.
pub const MARGIN: f64 = 24.0;
/// The narrowest picture, so that the caption and the legend fit under a small board.
pub const MIN_WIDTH: f64 = 340.0;
/// How far below a square's centre a piece's baseline goes, so that the glyph's ink (not its
/// baseline) is centred on the square, in its ring and on the ends of the lines drawn to it:
/// chess glyphs of the usual fonts (DejaVu Sans, Noto) rise about 0.75 em from the baseline, so
/// their middle lies 0.37 em (12.5 px at 34 px) above it (measured in Chromium screenshots).
const GLYPH_DROP: f64 = 12.5;
/// Height of the caption line under the board.
const CAPTION: f64 = 26.0;
/// Height of one legend line.
const LEGEND_LINE: f64 = 17.0;
/// How close (in pixels) a line may pass to the centre of a square holding another piece: just
/// outside its probability ring.
pub const CLEARANCE: f64 = CELL * 0.45;

/// The chess symbol of a FEN letter.
pub fn symbol(piece: char) -> char {
    match piece {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        other => other,
    }
}

/// The geometry of a `width` x `height` board picture (the last rank at the top).
#[derive(Copy, Clone)]
pub struct Frame {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
}

impl Frame {
    /// Width and height of the picture.
    pub fn size(self) -> (f64, f64) {
        (
            2.0 * MARGIN + CELL * f64::from(self.width),
            2.0 * MARGIN + CELL * f64::from(self.height),
        )
    }

    /// Centre of a square in the picture.
    pub fn centre(self, square: Square) -> (f64, f64) {
        (
            MARGIN + CELL * (f64::from(square.file()) + 0.5),
            MARGIN + CELL * (f64::from(self.height) - 1.0 - f64::from(square.rank()) + 0.5),
        )
    }

    /// Opens the SVG document, `extra` pixels taller than the board (for what goes under it) and
    /// at least [`MIN_WIDTH`] wide: white background, the light and dark `squares`, and the file
    /// letters and rank numbers in the margins.
    pub fn open(self, squares: impl Iterator<Item = Square>, extra: f64) -> String {
        let (board_w, board_h) = self.size();
        let (w, h) = (board_w.max(MIN_WIDTH), board_h + extra);
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        for square in squares {
            let (cx, cy) = self.centre(square);
            let dark = (square.file() + square.rank()) % 2 == 0;
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
                cx - CELL / 2.0,
                cy - CELL / 2.0,
                if dark { "#b58863" } else { "#f0d9b5" }
            );
        }
        for i in 0..self.width {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                MARGIN + CELL * (f64::from(i) + 0.5),
                board_h - 8.0,
                char::from(b'a' + i)
            );
        }
        for i in 0..self.height {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
                MARGIN / 2.0,
                MARGIN + CELL * (f64::from(self.height) - 1.0 - f64::from(i) + 0.5) + 4.0,
                i + 1
            );
        }
        svg
    }
}

/// The colour of a pair's line and rings: entangled group on diagonal 1 purple, diagonal 2
/// green, a lone pair (and every other ring) blue.
fn group_colour(diagonal: Option<u8>) -> &'static str {
    match diagonal {
        Some(1) => "#7b2cbf",
        Some(_) => "#2a9d8f",
        None => LONE,
    }
}

/// The colour of rings and lone pairs.
const LONE: &str = "#1f77b4";

/// Colour of a link between squares occupied together.
const CORRELATED: &str = "#2b8a3e";
/// Colour of a link between squares of which one or the other is occupied.
const ANTI_CORRELATED: &str = "#d62828";

/// A line from `a` to `b` that keeps [`CLEARANCE`] from the centre of every square of
/// `obstacles` but its own two: straight when it can, else a quadratic curve bent to one side,
/// the least bend that clears them (or, if none does, the one that passes farthest from them).
/// Returns the path data (`M x y Q cx cy x y`).
pub fn route(frame: Frame, a: Square, b: Square, obstacles: &[Square]) -> String {
    let (x0, y0) = frame.centre(a);
    let (x1, y1) = frame.centre(b);
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length = dx.hypot(dy).max(1e-9);
    // The unit normal of the segment: bends go along it, either way.
    let (nx, ny) = (-dy / length, dx / length);
    let centres: Vec<(f64, f64)> = obstacles
        .iter()
        .filter(|s| **s != a && **s != b)
        .map(|s| frame.centre(*s))
        .collect();
    let control = |bend: f64| ((x0 + x1) / 2.0 + nx * bend, (y0 + y1) / 2.0 + ny * bend);
    // The smallest distance from the curve (sampled) to an obstacle's centre.
    let clearance = |bend: f64| {
        let (cx, cy) = control(bend);
        (1..40)
            .map(|i| {
                let t = f64::from(i) / 40.0;
                let u = 1.0 - t;
                let px = u * u * x0 + 2.0 * u * t * cx + t * t * x1;
                let py = u * u * y0 + 2.0 * u * t * cy + t * t * y1;
                centres
                    .iter()
                    .map(|(ox, oy)| (px - ox).hypot(py - oy))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min)
    };
    // A curve's middle lies half way to its control point: a bend of k/2 cells moves the middle
    // k/4 of a cell aside.
    let bends = std::iter::once(0.0).chain((1..=8).flat_map(|k| {
        let bend = f64::from(k) * CELL / 2.0;
        [bend, -bend]
    }));
    let mut best = (0.0, f64::NEG_INFINITY);
    for bend in bends {
        let clear = clearance(bend);
        if clear >= CLEARANCE {
            best = (bend, clear);
            break;
        }
        if clear > best.1 {
            best = (bend, clear);
        }
    }
    let (cx, cy) = control(best.0);
    format!("M {x0:.1} {y0:.1} Q {cx:.1} {cy:.1} {x1:.1} {y1:.1}")
}

/// The percentage written on a square: whole percents, `<1%` under 0.5%, `>99%` from 99.5% on
/// (so that a piece that is not certain never reads 100%).
pub fn percent(p: f64) -> String {
    let whole = (100.0 * p).round();
    if whole < 1.0 {
        "<1%".into()
    } else if whole >= 100.0 {
        ">99%".into()
    } else {
        format!("{whole:.0}%")
    }
}

/// The line under the board: whose move it is, or how the game ended.
fn caption(view: &BoardView) -> String {
    match view.status {
        Status::Ongoing => format!("{} to move", view.side_to_move.name()),
        over => format!("Game over: {over}"),
    }
}

/// One legend line: a sample of what it explains (an SVG fragment in a 24 x 12 box at the
/// origin) and the words.
struct LegendLine {
    sample: String,
    words: &'static str,
}

/// The legend lines of what `view` draws.
fn legend(view: &BoardView) -> Vec<LegendLine> {
    let line = |colour: &str, dash: &str| {
        format!("<line x1=\"0\" y1=\"6\" x2=\"24\" y2=\"6\" stroke=\"{colour}\" stroke-width=\"3\"{dash}/>")
    };
    let mut lines = vec![LegendLine {
        sample: format!(
            "<circle cx=\"12\" cy=\"6\" r=\"6\" fill=\"none\" stroke=\"#00000022\" stroke-width=\"2\"/><path d=\"M 12 0 A 6 6 0 0 1 18 6\" fill=\"none\" stroke=\"{LONE}\" stroke-width=\"2\"/>"
        ),
        words: "ring and number: the chance the piece is there",
    }];
    if view.links.iter().any(|l| l.2 >= 0.0) {
        lines.push(LegendLine {
            sample: line(CORRELATED, ""),
            words: "occupied together (correlated)",
        });
    }
    if view.links.iter().any(|l| l.2 < 0.0) {
        lines.push(LegendLine {
            sample: line(ANTI_CORRELATED, " stroke-dasharray=\"5 3\""),
            words: "one or the other (anti-correlated)",
        });
    }
    if !view.pairs.is_empty() {
        lines.push(LegendLine {
            sample: line(LONE, " stroke-dasharray=\"6 4\""),
            words: "one piece in a box: its two squares",
        });
    }
    if view.squares.iter().flatten().any(|s| s.mark.is_some()) {
        lines.push(LegendLine {
            sample: "<circle cx=\"6\" cy=\"6\" r=\"5\" fill=\"#d62828\" stroke=\"#d62828\" stroke-width=\"2\"/><circle cx=\"19\" cy=\"6\" r=\"5\" fill=\"white\" stroke=\"#1d4ed8\" stroke-width=\"2\"/>".into(),
            words: "mark: filled faces the opponent, hollow its owner",
        });
    }
    lines
}

/// Draws `view` as a standalone SVG document: pieces as chess symbols with a probability ring and
/// the percentage (when not certain); a Niel's indefinite piece also gets a dot in its mark's
/// colour (filled when the mark faces the opponent, hollow when it faces its owner) and its
/// pair's label, and a dashed line joins the two squares of each pair in its entangled group's
/// colour; `links` are solid green (correlated) or dashed red (anti-correlated) lines, thicker
/// for a stronger correlation. Lines bend around other pieces. Under the board: the side to move
/// or the result, then the legend.
pub fn draw(view: &BoardView) -> String {
    let frame = Frame {
        width: view.width,
        height: view.height,
    };
    let legend = legend(view);
    let (_, board_h) = frame.size();
    let mut svg = frame.open(
        view.board_squares(),
        CAPTION + LEGEND_LINE * legend.len() as f64 + 8.0,
    );
    let occupied: Vec<Square> = view
        .board_squares()
        .filter(|s| view.get(*s).is_some())
        .collect();
    for (a, b, r) in &view.links {
        let (class, colour, dash) = if *r >= 0.0 {
            ("correlated", CORRELATED, "")
        } else {
            (
                "anti-correlated",
                ANTI_CORRELATED,
                " stroke-dasharray=\"8 5\"",
            )
        };
        let _ = writeln!(
            svg,
            "<path class=\"link {class}\" data-from=\"{a}\" data-to=\"{b}\" data-r=\"{r:.3}\" d=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{:.1}\" stroke-opacity=\"0.85\"{dash}/>",
            route(frame, *a, *b, &occupied),
            1.5 + 2.5 * r.abs().min(1.0)
        );
    }
    for pair in &view.pairs {
        let _ = writeln!(
            svg,
            "<path class=\"pair\" data-pair=\"{}\" data-group=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>",
            pair.id,
            pair.group,
            route(frame, pair.red, pair.blue, &occupied),
            group_colour(pair.diagonal)
        );
    }
    let radius = CELL * 0.42;
    let circumference = 2.0 * std::f64::consts::PI * radius;
    for square in view.board_squares() {
        let Some(sv) = view.get(square) else { continue };
        let (cx, cy) = frame.centre(square);
        let p = sv.probability.clamp(0.0, 1.0);
        let (colour, what) = match sv.mark {
            Some(m) => (
                group_colour(m.diagonal),
                if m.red { " red mark" } else { " blue mark" },
            ),
            None => (LONE, ""),
        };
        let _ = writeln!(
            svg,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"#00000022\" stroke-width=\"4\"/><circle class=\"ring\" cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\" stroke-dasharray=\"{:.2} {:.2}\" transform=\"rotate(-90 {cx} {cy})\"><title>{}{what} {:.1}%</title></circle>",
            circumference * p,
            circumference,
            xml_escape(&square.to_string()),
            100.0 * p
        );
        let _ = writeln!(
            svg,
            "<text class=\"piece\" x=\"{cx}\" y=\"{}\" font-size=\"34\" text-anchor=\"middle\" fill-opacity=\"{:.2}\">{}</text>",
            cy + GLYPH_DROP,
            0.35 + 0.65 * p,
            symbol(sv.piece)
        );
        if p < 1.0 {
            // Haloed in white so that it reads on light and dark squares and over lines.
            let _ = writeln!(
                svg,
                "<text class=\"percent\" data-square=\"{square}\" x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#111\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">{}</text>",
                cx + CELL * 0.48,
                cy + CELL * 0.46,
                xml_escape(&percent(p))
            );
        }
        if let Some(m) = sv.mark {
            let mark = if m.red { "#d62828" } else { "#1d4ed8" };
            let _ = writeln!(
                svg,
                "<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\" stroke=\"{mark}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>",
                cx + CELL * 0.32,
                cy - CELL * 0.32,
                if m.faces_opponent { mark } else { "white" },
                cx - CELL * 0.45,
                cy - CELL * 0.3,
                m.label
            );
        }
    }
    let _ = writeln!(
        svg,
        "<text class=\"status\" x=\"{MARGIN}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
        board_h + CAPTION - 8.0,
        xml_escape(&caption(view))
    );
    for (i, line) in legend.iter().enumerate() {
        let y = board_h + CAPTION + LEGEND_LINE * i as f64;
        let _ = writeln!(
            svg,
            "<g class=\"legend\" transform=\"translate({MARGIN} {y})\">{}<text x=\"32\" y=\"10\" font-size=\"12\">{}</text></g>",
            line.sample,
            xml_escape(line.words)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::ruleset::{MarkView, PairView, SquareView};
    use qc_rules::Color;

    #[test]
    fn ring_length_is_proportional_to_probability() {
        let mut view = BoardView::new(8, 8, Color::White);
        let a3 = Square::parse("a3").unwrap();
        view.squares[a3.index()] = Some(SquareView {
            piece: 'N',
            probability: 0.25,
            mark: None,
        });
        let svg = draw(&view);
        let radius = CELL * 0.42;
        let c = 2.0 * std::f64::consts::PI * radius;
        assert!(
            svg.contains(&format!("stroke-dasharray=\"{:.2} {:.2}\"", c * 0.25, c)),
            "{svg}"
        );
        assert!(svg.contains('♘') && svg.contains("<title>a3 25.0%</title>"));
    }

    #[test]
    fn pairs_and_marks_on_a_small_board() {
        // A 5 x 6 board; an entangled pair (diagonal 1) with its red mark facing the opponent.
        let mut view = BoardView::new(5, 6, Color::White);
        let (c3, e5) = (Square::parse("c3").unwrap(), Square::parse("e5").unwrap());
        for (sq, red, p) in [(c3, true, 2.0 / 3.0), (e5, false, 1.0 / 3.0)] {
            view.squares[sq.index()] = Some(SquareView {
                piece: 'R',
                probability: p,
                mark: Some(MarkView {
                    red,
                    faces_opponent: red,
                    diagonal: Some(1),
                    label: 1,
                }),
            });
        }
        view.pairs.push(PairView {
            id: 0,
            piece: 'R',
            label: 1,
            red: c3,
            blue: e5,
            p_red: 2.0 / 3.0,
            group: 0,
            diagonal: Some(1),
        });
        let svg = draw(&view);
        let c = 2.0 * std::f64::consts::PI * CELL * 0.42;
        assert!(
            svg.contains(&format!(
                "stroke-dasharray=\"{:.2} {:.2}\"",
                c * 2.0 / 3.0,
                c
            )),
            "{svg}"
        );
        assert!(svg.contains("<title>c3 red mark 66.7%</title>"), "{svg}");
        assert!(svg.contains("<title>e5 blue mark 33.3%</title>"), "{svg}");
        assert_eq!(svg.matches("class=\"pair\"").count(), 1);
        assert_eq!(svg.matches("class=\"mark\"").count(), 2);
        assert!(svg.contains(group_colour(Some(1))));
        // 5 files x 6 ranks (348 x 408), then the caption (26) and three legend lines (ring,
        // pair, mark: 3 x 17) and 8 below.
        assert!(svg.contains("width=\"348\" height=\"493\""), "{svg}");
    }

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("a square")
    }

    fn piece(view: &mut BoardView, square: &str, piece: char, probability: f64) {
        view.squares[sq(square).index()] = Some(SquareView {
            piece,
            probability,
            mark: None,
        });
    }

    /// The point at `t` of the quadratic curve `M x0 y0 Q cx cy x1 y1`.
    fn bezier(d: &str, t: f64) -> (f64, f64) {
        let v: Vec<f64> = d
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        let u = 1.0 - t;
        (
            u * u * v[0] + 2.0 * u * t * v[2] + t * t * v[4],
            u * u * v[1] + 2.0 * u * t * v[3] + t * t * v[5],
        )
    }

    fn closest_approach(d: &str, point: (f64, f64)) -> f64 {
        (0..=200)
            .map(|i| {
                let (x, y) = bezier(d, f64::from(i) / 200.0);
                (x - point.0).hypot(y - point.1)
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    fn percentages_are_written_on_uncertain_squares_only() {
        assert_eq!(percent(0.004), "<1%");
        assert_eq!(percent(0.02), "2%");
        assert_eq!(percent(0.5), "50%");
        assert_eq!(percent(0.996), ">99%");
        let mut view = BoardView::new(8, 8, Color::White);
        piece(&mut view, "a3", 'N', 0.25);
        piece(&mut view, "c3", 'N', 0.75);
        piece(&mut view, "b2", 'P', 0.02);
        piece(&mut view, "e1", 'K', 1.0);
        let svg = draw(&view);
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let labels: Vec<(String, String)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("percent"))
            .map(|n| {
                (
                    n.attribute("data-square").unwrap_or("").to_string(),
                    n.text().unwrap_or("").to_string(),
                )
            })
            .collect();
        let expected = [("b2", "2%"), ("a3", "25%"), ("c3", "75%")];
        assert_eq!(
            labels,
            expected.map(|(s, t)| (s.to_string(), t.to_string())),
            "{svg}"
        );
    }

    #[test]
    fn the_caption_gives_the_side_to_move_or_the_result() {
        let text = |view: &BoardView| {
            let svg = draw(view);
            let doc = roxmltree::Document::parse(&svg).expect("XML");
            let status = doc
                .descendants()
                .find(|n| n.attribute("class") == Some("status"))
                .and_then(|n| n.text().map(str::to_string));
            status.expect("a status line")
        };
        let mut view = BoardView::new(8, 8, Color::Black);
        assert_eq!(text(&view), "Black to move");
        view.status = Status::Win(Color::White, qc_rules::WinReason::KingCaptured);
        assert_eq!(text(&view), "Game over: White wins (king captured)");
    }

    #[test]
    fn links_tell_correlation_from_anticorrelation_and_the_legend_says_which() {
        let mut view = BoardView::new(8, 8, Color::White);
        for s in ["a3", "c3", "f6", "h6"] {
            piece(&mut view, s, 'N', 0.5);
        }
        view.links.push((sq("a3"), sq("c3"), -1.0));
        view.links.push((sq("f6"), sq("h6"), 0.8));
        let svg = draw(&view);
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let link = |class: &str| {
            doc.descendants()
                .find(|n| n.attribute("class") == Some(class))
                .unwrap_or_else(|| panic!("no {class}: {svg}"))
        };
        let anti = link("link anti-correlated");
        let together = link("link correlated");
        assert_eq!(anti.attribute("data-from"), Some("a3"));
        assert_eq!(together.attribute("data-from"), Some("f6"));
        assert!(anti.attribute("stroke-dasharray").is_some());
        assert!(together.attribute("stroke-dasharray").is_none());
        assert_ne!(anti.attribute("stroke"), together.attribute("stroke"));
        let legend: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("legend"))
            .filter_map(|n| n.descendants().find(|t| t.has_tag_name("text")))
            .filter_map(|t| t.text())
            .collect();
        assert!(
            legend.contains(&"occupied together (correlated)"),
            "{legend:?}"
        );
        assert!(
            legend.contains(&"one or the other (anti-correlated)"),
            "{legend:?}"
        );
    }

    #[test]
    fn links_start_and_end_at_the_centres_of_the_pieces_rings() {
        let mut view = BoardView::new(8, 8, Color::White);
        for s in ["a3", "c3", "b3", "f6", "h6"] {
            piece(&mut view, s, 'N', 0.5);
        }
        // One straight link and one that must bend around the piece on b3.
        view.links.push((sq("f6"), sq("h6"), 0.8));
        view.links.push((sq("a3"), sq("c3"), -1.0));
        let svg = draw(&view);
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let number =
            |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
        let ring_centre = |square: &str| -> (f64, f64) {
            let ring = doc
                .descendants()
                .filter(|n| n.attribute("class") == Some("ring"))
                .find(|n| {
                    n.descendants()
                        .filter_map(|t| t.text())
                        .any(|t| t.starts_with(&format!("{square} ")))
                })
                .unwrap_or_else(|| panic!("no ring on {square}"));
            (number(ring, "cx"), number(ring, "cy"))
        };
        let links: Vec<roxmltree::Node> = doc
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("link")))
            .collect();
        assert_eq!(links.len(), 2);
        for link in links {
            let d = link.attribute("d").unwrap();
            let v: Vec<f64> = d
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            let (from, to) = (
                ring_centre(link.attribute("data-from").unwrap()),
                ring_centre(link.attribute("data-to").unwrap()),
            );
            let close = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).hypot(p.1 - q.1) < 0.11;
            assert!(close((v[0], v[1]), from), "{d} starts off {from:?}");
            assert!(close((v[4], v[5]), to), "{d} ends off {to:?}");
        }
        // Each glyph is centred horizontally on its ring.
        for piece in doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
        {
            let x = number(piece, "x");
            assert!(
                ["a3", "b3", "c3", "f6", "h6"]
                    .iter()
                    .any(|s| (ring_centre(s).0 - x).abs() < 0.01),
                "glyph at x = {x}"
            );
        }
    }

    #[test]
    fn lines_bend_around_pieces_and_stay_straight_when_nothing_is_in_the_way() {
        let frame = Frame {
            width: 8,
            height: 8,
        };
        // Nothing between a3 and c3: the control point lies on the segment (a straight line).
        let straight = route(frame, sq("a3"), sq("c3"), &[sq("a3"), sq("c3")]);
        assert_eq!(bezier(&straight, 0.5), frame.centre(sq("b3")), "{straight}");
        // A pawn on b3, and the king on b2 too: the line keeps clear of both centres.
        let obstacles = [sq("a3"), sq("b3"), sq("c3"), sq("b2")];
        let bent = route(frame, sq("a3"), sq("c3"), &obstacles);
        for o in ["b3", "b2"] {
            let gap = closest_approach(&bent, frame.centre(sq(o)));
            assert!(gap >= CLEARANCE - 0.5, "{o}: {gap} in {bent}");
        }
        // A rook's line along the first rank past three pieces.
        let obstacles = [sq("b1"), sq("c1"), sq("d1")];
        let long = route(frame, sq("a1"), sq("e1"), &obstacles);
        for o in obstacles {
            let gap = closest_approach(&long, frame.centre(o));
            assert!(gap >= CLEARANCE - 0.5, "{o}: {gap} in {long}");
        }
    }
}
