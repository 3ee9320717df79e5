//! The board as SVG, for every ruleset and board size, for files, notebooks and the web page.
//!
//! Every square is one element a page can hook onto: `<g class="square" data-square="e4"
//! aria-label="e4: white knight, 50%">` (an empty square says `e4: empty`). Pieces are drawn in
//! their own colour whatever their probability (white with a dark outline, black with a light
//! one), as the solid chess symbols; a piece that is certainly there is drawn alone, one that is
//! not gets a ring whose arc is the probability (a full ring would be certain, as the official
//! game shows it) and the percentage on a small label under the ring, never on it. Niel's
//! indefinite pieces also get their mark (a dot in the mark's colour, filled when it faces the
//! opponent, hollow when it faces its owner) and their pair's number in the corners, and a dashed
//! line joins the two squares of each pair in its entangled group's colour; correlation links
//! are solid green (occupied together) or dashed red (one or the other), thicker for a stronger
//! correlation. Lines bend around the other pieces and stop at the rings of their own two.
//! Options add a title, the move list beside the board and a highlight of the last move's
//! squares, and turn the board to be seen from Black's side; under the board come the side to
//! move or the result, then a legend.
//!
//! Decorations (coordinates, lines, pieces) are `aria-hidden` and let pointer events through to
//! the squares, so that a click on a piece is a click on its square.

mod legend;
pub mod route;

use crate::svg::{xml_escape, Num};
use qc_rules::ruleset::SquareView;
use qc_rules::Square;
use qc_rules::{BoardView, Piece};
use route::Point;
use std::fmt::Write;

pub use legend::caption;

/// Side of a square, in pixels.
pub const CELL: f64 = 60.0;
/// Margin around the board (for the coordinates), in pixels.
pub const MARGIN: f64 = 24.0;
/// The narrowest picture, so that the caption and the legend fit under a small board.
pub const MIN_WIDTH: f64 = 340.0;
/// How far above its square's centre a piece and its ring are drawn, so that the percentage
/// label fits under the ring inside the square.
pub const LIFT: f64 = 5.0;
/// Radius of a probability ring (the middle of its stroke).
pub const RING_RADIUS: f64 = 20.5;
/// Width of a ring's stroke.
pub const RING_WIDTH: f64 = 3.0;
/// Font size of the piece symbols.
const GLYPH_SIZE: f64 = 34.0;
/// How far below the piece's centre the symbol's baseline goes, so that the glyph's ink (not its
/// baseline) is centred in its ring: chess glyphs of the usual fonts (DejaVu Sans, Noto) rise
/// about 0.75 em from the baseline, so their middle lies 0.37 em above it (measured in Chromium
/// screenshots).
const GLYPH_DROP: f64 = 0.37 * GLYPH_SIZE;
/// Font size of the labels (percentages, pair numbers).
const LABEL_FONT: f64 = 9.5;
/// Height of a label's box.
pub const LABEL_HEIGHT: f64 = 11.0;
/// Space between a label's box and the square's edge.
const LABEL_INSET: f64 = 1.0;
/// Height of the title line.
const TITLE: f64 = 30.0;
/// Height of the caption line under the board.
const CAPTION: f64 = 26.0;
/// Height of one legend line.
const LEGEND_LINE: f64 = 17.0;
/// Height of one line of the move list.
const MOVE_LINE: f64 = 17.0;
/// Width of one character of the move list's 12 px monospace font.
const MOVE_CHAR: f64 = 7.3;
/// How close (in pixels) a line may pass to the centre of another piece: just outside its ring.
pub const CLEARANCE: f64 = RING_RADIUS + RING_WIDTH / 2.0 + 3.0;
/// Where a line stops short of its own pieces' centres: just outside their rings.
pub const LINE_END: f64 = RING_RADIUS + RING_WIDTH / 2.0 + 2.0;

/// The colour of rings and lone pairs.
const LONE: &str = "#1f77b4";
/// Colour of a link between squares occupied together.
const CORRELATED: &str = "#2b8a3e";
/// Colour of a link between squares of which one or the other is occupied.
const ANTI_CORRELATED: &str = "#d62828";
/// The fill of white pieces (and the edge of black ones).
pub const WHITE_PIECE: &str = "#ffffff";
/// The fill of black pieces (and the lines of white ones).
pub const BLACK_PIECE: &str = "#1a1a1a";
/// Fill of a highlighted square (the last move's), over the square's own colour.
const HIGHLIGHT: &str = "#f5e663";

/// What a board picture shows besides the board (all off by default but the caption and the
/// legend).
#[derive(Clone, Debug, PartialEq)]
pub struct BoardOptions {
    /// A title above the board.
    pub title: Option<String>,
    /// Lines of the move list, drawn beside the board top to bottom (in columns when they do not
    /// fit its height); [`move_lines`] writes a game's moves this way.
    pub moves: Vec<String>,
    /// Squares to highlight, e.g. those of the last move.
    pub highlight: Vec<Square>,
    /// The side to move or the result under the board.
    pub caption: bool,
    /// The legend under the caption.
    pub legend: bool,
    /// The board seen from Black's side: the last rank at the bottom, the files from right to
    /// left (the coordinates follow).
    pub flipped: bool,
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions {
            title: None,
            moves: Vec::new(),
            highlight: Vec::new(),
            caption: true,
            legend: true,
            flipped: false,
        }
    }
}

/// The plies of a game as move-list lines, two plies a line: `1. e2e4 e7e5`; when Black moved
/// first, the first line is `1... e7e5`.
pub fn move_lines(plies: &[String], black_first: bool) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = plies;
    if black_first {
        if let Some((first, tail)) = rest.split_first() {
            lines.push(format!("1... {first}"));
            rest = tail;
        }
    }
    let offset = lines.len();
    for (k, pair) in rest.chunks(2).enumerate() {
        lines.push(format!("{}. {}", k + 1 + offset, pair.join(" ")));
    }
    lines
}

/// The squares a move's text names, in order, each once (`b1^a3c3` names b1, a3 and c3;
/// Niel's `f4f6[f6]` names f4 and f6): what [`BoardOptions::highlight`] shows for the last
/// move. Squares off `view`'s board are left out.
pub fn squares_named(text: &str, view: &BoardView) -> Vec<Square> {
    let chars: Vec<char> = text.chars().collect();
    let mut squares = Vec::new();
    for w in chars.windows(2) {
        let (file, rank) = (w[0], w[1]);
        if !(file.is_ascii_lowercase() && rank.is_ascii_digit()) {
            continue;
        }
        let on_board = (u32::from(file) - u32::from('a')) < u32::from(view.width)
            && rank != '0'
            && rank
                .to_digit(10)
                .is_some_and(|r| r <= u32::from(view.height));
        if let (true, Some(square)) = (on_board, Square::parse(&format!("{file}{rank}"))) {
            if !squares.contains(&square) {
                squares.push(square);
            }
        }
    }
    squares
}

/// The solid chess symbol of a FEN letter's kind (both colours use the solid form, filled in
/// the piece's colour), followed by U+FE0E so that no font draws it as an emoji.
pub fn symbol(piece: char) -> String {
    let glyph = match piece.to_ascii_uppercase() {
        'K' => '♚',
        'Q' => '♛',
        'R' => '♜',
        'B' => '♝',
        'N' => '♞',
        'P' => '♟',
        other => other,
    };
    format!("{glyph}\u{FE0E}")
}

/// The outline chess symbol of a FEN letter's kind (the font's white piece), drawn over the
/// solid one to give a white piece its lines; followed by U+FE0E as [`symbol`].
pub fn outline_symbol(piece: char) -> String {
    let glyph = match piece.to_ascii_uppercase() {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        other => other,
    };
    format!("{glyph}\u{FE0E}")
}

/// The geometry of a `width` x `height` board picture (the last rank at the top), its board's
/// top edge `top` pixels down (under the title).
#[derive(Copy, Clone)]
pub struct Frame {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// Top of the board area (the margin above the last rank included).
    pub top: f64,
    /// Seen from Black's side ([`BoardOptions::flipped`]).
    pub flipped: bool,
}

impl Frame {
    /// Width and height of the board with its margins.
    pub fn size(self) -> (f64, f64) {
        (
            2.0 * MARGIN + CELL * f64::from(self.width),
            2.0 * MARGIN + CELL * f64::from(self.height),
        )
    }

    /// Centre of a square in the picture.
    pub fn centre(self, square: Square) -> Point {
        let (column, row) = self.column_row(square.file(), square.rank());
        (
            MARGIN + CELL * (f64::from(column) + 0.5),
            self.top + MARGIN + CELL * (f64::from(row) + 0.5),
        )
    }

    /// Where file `file` and rank `rank` are drawn: the column from the left and the row from
    /// the top.
    pub fn column_row(self, file: i32, rank: i32) -> (i32, i32) {
        let last_file = i32::from(self.width) - 1;
        let last_rank = i32::from(self.height) - 1;
        if self.flipped {
            (last_file - file, rank)
        } else {
            (file, last_rank - rank)
        }
    }

    /// Centre of the piece (and of its ring) on a square.
    pub fn piece_centre(self, square: Square) -> Point {
        let (x, y) = self.centre(square);
        (x, y - LIFT)
    }
}

/// A square's description for screen readers and tooltips: `e4: white knight, 50%`,
/// `e1: white king` (certain), `e5: empty`; a Niel's indefinite piece adds its mark and pair.
pub fn square_label(view: &BoardView, square: Square) -> String {
    let Some(sv) = view.get(square) else {
        return format!("{square}: empty");
    };
    let name = Piece::from_fen_char(sv.piece).map_or_else(|| sv.piece.to_string(), Piece::name);
    let mut label = format!("{square}: {name}");
    if !is_certain(sv.probability) {
        let _ = write!(label, ", {}", percent(sv.probability));
    }
    if let Some(m) = sv.mark {
        let _ = write!(
            label,
            ", {} mark of pair {}",
            if m.red { "red" } else { "blue" },
            m.label
        );
    }
    label
}

/// Whether a probability is drawn as certain (no ring, no label).
fn is_certain(p: f64) -> bool {
    p >= 1.0 - 1e-9
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

/// The width of a label's box for `text` in the 10 px bold label font: DejaVu Sans Bold's
/// advances (digits 0.70 em, `%` 1.0 em, `<`/`>` 0.84 em; wider than most sans-serif fonts, so
/// that the text stays inside the box in any of them), plus 2 px each side.
pub fn label_width(text: &str) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            '%' => 1.0,
            '<' | '>' => 0.84,
            '.' => 0.38,
            _ => 0.7,
        })
        .sum();
    ems * LABEL_FONT + 4.0
}

/// Radius of a Niel's mark's dot (its stroke adds 1 px).
const MARK_RADIUS: f64 = 5.0;

/// Centre of the mark's dot on `square`: in the top right corner, clear of the ring.
fn mark_centre(frame: Frame, square: Square) -> Point {
    let (sx, sy) = frame.centre(square);
    (sx + CELL / 2.0 - 7.0, sy - CELL / 2.0 + 7.0)
}

/// A small label on a square: its class, its text and its box.
struct Label {
    class: &'static str,
    text: String,
    /// Left, top, width, height.
    rect: route::Rect,
}

/// The labels of the piece `sv` on `square`: its percentage under its ring when it is not
/// certain, its pair's number in the top left corner when it has a Niel's mark.
fn labels_on(frame: Frame, square: Square, sv: &SquareView) -> Vec<Label> {
    let (sx, sy) = frame.centre(square);
    let mut labels = Vec::new();
    if !is_certain(sv.probability) {
        let text = percent(sv.probability.clamp(0.0, 1.0));
        let w = label_width(&text);
        labels.push(Label {
            class: "percent",
            rect: (
                sx - w / 2.0,
                sy + CELL / 2.0 - LABEL_INSET - LABEL_HEIGHT,
                w,
                LABEL_HEIGHT,
            ),
            text,
        });
    }
    if let Some(m) = sv.mark {
        let text = m.label.to_string();
        labels.push(Label {
            class: "pair-label",
            rect: (
                sx - CELL / 2.0 + LABEL_INSET,
                sy - CELL / 2.0 + LABEL_INSET,
                label_width(&text),
                LABEL_HEIGHT,
            ),
            text,
        });
    }
    labels
}

/// Writes a label: a white box with the text.
fn write_label(svg: &mut String, label: &Label) {
    let (x, y, w, h) = label.rect;
    let _ = write!(
        svg,
        "<g class=\"{}\"><rect class=\"label-box\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"white\" fill-opacity=\"0.9\"/><text x=\"{}\" y=\"{}\" font-size=\"{LABEL_FONT}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111\">{}</text></g>",
        label.class,
        Num(x),
        Num(y),
        Num(w),
        Num(h),
        Num(x + w / 2.0),
        Num(y + h - 2.2),
        xml_escape(&label.text)
    );
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

/// Draws `view` with the default options (the caption and the legend under the board).
pub fn draw(view: &BoardView) -> String {
    draw_with(view, &BoardOptions::default())
}

/// Draws `view` as a standalone SVG document, with what `options` add (see the module docs).
pub fn draw_with(view: &BoardView, options: &BoardOptions) -> String {
    let title_height = if options.title.is_some() { TITLE } else { 0.0 };
    let frame = Frame {
        width: view.width,
        height: view.height,
        top: title_height,
        flipped: options.flipped,
    };
    let (board_w, board_h) = frame.size();
    let legend = if options.legend {
        legend::legend(view)
    } else {
        Vec::new()
    };
    let below = if options.caption { CAPTION } else { 0.0 }
        + LEGEND_LINE * legend.len() as f64
        + if options.caption || !legend.is_empty() {
            8.0
        } else {
            0.0
        };
    let (move_columns, per_column, column_width) = move_list_shape(options, board_h);
    let width = (board_w + column_width * move_columns as f64).max(MIN_WIDTH);
    let height = title_height + board_h + below;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" role=\"group\" aria-label=\"{}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        xml_escape(&format!("Board, {}", caption(view).to_lowercase())),
        w = Num(width),
        h = Num(height),
    );
    if let Some(title) = &options.title {
        let _ = writeln!(
            svg,
            "<text class=\"title\" x=\"{MARGIN}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            Num(TITLE - 6.0),
            xml_escape(title)
        );
    }
    squares(&mut svg, view, frame, options);
    coordinates(&mut svg, frame);
    lines(&mut svg, view, frame);
    pieces(&mut svg, view, frame);
    move_list(&mut svg, options, frame, per_column, column_width);
    let mut y = title_height + board_h;
    if options.caption {
        let _ = writeln!(
            svg,
            "<text class=\"status\" x=\"{MARGIN}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\">{}</text>",
            Num(y + CAPTION - 8.0),
            xml_escape(&caption(view))
        );
        y += CAPTION;
    }
    for (i, line) in legend.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<g class=\"legend\" transform=\"translate({MARGIN} {})\">{}<text x=\"32\" y=\"10\" font-size=\"12\">{}</text></g>",
            Num(y + LEGEND_LINE * i as f64),
            line.sample,
            xml_escape(line.words)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The squares, each a group with its description, its colour and its highlight.
fn squares(svg: &mut String, view: &BoardView, frame: Frame, options: &BoardOptions) {
    for square in view.board_squares() {
        let (cx, cy) = frame.centre(square);
        let dark = (square.file() + square.rank()) % 2 == 0;
        let label = xml_escape(&square_label(view, square));
        let _ = write!(
            svg,
            "<g class=\"square\" data-square=\"{square}\" role=\"img\" aria-label=\"{label}\"><title>{label}</title><rect x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
            Num(cx - CELL / 2.0),
            Num(cy - CELL / 2.0),
            if dark { "#b58863" } else { "#f0d9b5" }
        );
        if options.highlight.contains(&square) {
            let _ = write!(
                svg,
                "<rect class=\"highlight\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{HIGHLIGHT}\" fill-opacity=\"0.6\"/>",
                Num(cx - CELL / 2.0),
                Num(cy - CELL / 2.0),
            );
        }
        svg.push_str("</g>\n");
    }
}

/// The file letters and rank numbers in the margins.
fn coordinates(svg: &mut String, frame: Frame) {
    let (_, board_h) = frame.size();
    svg.push_str(
        "<g class=\"coordinates\" aria-hidden=\"true\" font-size=\"12\" text-anchor=\"middle\">\n",
    );
    for file in 0..frame.width {
        let (column, _) = frame.column_row(i32::from(file), 0);
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            Num(MARGIN + CELL * (f64::from(column) + 0.5)),
            Num(frame.top + board_h - 8.0),
            char::from(b'a' + file)
        );
    }
    for rank in 0..frame.height {
        let (_, row) = frame.column_row(0, i32::from(rank));
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            Num(MARGIN / 2.0),
            Num(frame.top + MARGIN + CELL * (f64::from(row) + 0.5) + 4.0),
            rank + 1
        );
    }
    svg.push_str("</g>\n");
}

/// The squares of `view` as [`route::Grid`] sees them.
fn grid(view: &BoardView, frame: Frame) -> route::Grid {
    let (files, ranks) = (usize::from(view.width), usize::from(view.height));
    let mut occupied = vec![false; files * ranks];
    let mut keep_out = Vec::new();
    for square in view.board_squares() {
        if let Some(sv) = view.get(square) {
            let (file, row) = cell(frame, square);
            occupied[row * files + file] = true;
            let cell = (file, row);
            keep_out.extend(
                labels_on(frame, square, &sv)
                    .into_iter()
                    .map(|l| route::KeepOut {
                        cell,
                        rect: l.rect,
                        own_lines_pass: l.class == "percent",
                    }),
            );
            if sv.mark.is_some() {
                let (x, y) = mark_centre(frame, square);
                let r = MARK_RADIUS + 1.0;
                keep_out.push(route::KeepOut {
                    cell,
                    rect: (x - r, y - r, 2.0 * r, 2.0 * r),
                    own_lines_pass: false,
                });
            }
        }
    }
    route::Grid {
        left: MARGIN,
        top: frame.top + MARGIN,
        cell: CELL,
        files,
        ranks,
        lift: LIFT,
        occupied,
        keep_out,
    }
}

/// A square as (column from the left, row from the top).
fn cell(frame: Frame, square: Square) -> route::Cell {
    // A square of the board is drawn in one of its columns and rows.
    let (column, row) = frame.column_row(square.file(), square.rank());
    (
        usize::try_from(column).unwrap_or(0),
        usize::try_from(row).unwrap_or(0),
    )
}

/// The line between the pieces on `a` and `b`, around every other piece on the board.
fn line_between(grid: &route::Grid, frame: Frame, a: Square, b: Square) -> route::Path {
    route::route(grid, cell(frame, a), cell(frame, b), CLEARANCE, LINE_END)
}

/// Correlation links and Niel's pairs.
fn lines(svg: &mut String, view: &BoardView, frame: Frame) {
    if view.links.is_empty() && view.pairs.is_empty() {
        return;
    }
    let grid = grid(view, frame);
    svg.push_str(
        "<g class=\"lines\" aria-hidden=\"true\" pointer-events=\"none\" fill=\"none\">\n",
    );
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
            "<path class=\"link {class}\" data-from=\"{a}\" data-to=\"{b}\" data-r=\"{r:.3}\" d=\"{}\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-opacity=\"0.85\" stroke-linecap=\"round\" stroke-linejoin=\"round\"{dash}/>",
            line_between(&grid, frame, *a, *b).data(),
            Num(1.5 + 2.5 * r.abs().min(1.0))
        );
    }
    for pair in &view.pairs {
        let _ = writeln!(
            svg,
            "<path class=\"pair\" data-pair=\"{}\" data-group=\"{}\" data-from=\"{}\" data-to=\"{}\" d=\"{}\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"6 4\" stroke-linejoin=\"round\"/>",
            pair.id,
            pair.group,
            pair.red,
            pair.blue,
            line_between(&grid, frame, pair.red, pair.blue).data(),
            group_colour(pair.diagonal)
        );
    }
    svg.push_str("</g>\n");
}

/// Every piece: its symbol in its colour, and when it is not certain its ring and percentage;
/// Niel's marks and pair numbers.
fn pieces(svg: &mut String, view: &BoardView, frame: Frame) {
    svg.push_str("<g class=\"pieces\" aria-hidden=\"true\" pointer-events=\"none\">\n");
    let circumference = 2.0 * std::f64::consts::PI * RING_RADIUS;
    for square in view.board_squares() {
        let Some(sv) = view.get(square) else { continue };
        let (cx, cy) = frame.piece_centre(square);
        let p = sv.probability.clamp(0.0, 1.0);
        let white = sv.piece.is_ascii_uppercase();
        let _ = write!(
            svg,
            "<g class=\"piece {}\" data-at=\"{square}\" data-piece=\"{}\">",
            if white { "white" } else { "black" },
            sv.piece
        );
        if !is_certain(p) {
            let colour = sv.mark.map_or(LONE, |m| group_colour(m.diagonal));
            let _ = write!(
                svg,
                "<circle class=\"ring-track\" cx=\"{x}\" cy=\"{y}\" r=\"{RING_RADIUS}\" fill=\"none\" stroke=\"#00000026\" stroke-width=\"{RING_WIDTH}\"/><circle class=\"ring\" cx=\"{x}\" cy=\"{y}\" r=\"{RING_RADIUS}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{RING_WIDTH}\" stroke-dasharray=\"{} {}\" transform=\"rotate(-90 {x} {y})\" data-p=\"{}\"/>",
                Num(circumference * p),
                Num(circumference),
                Num(p),
                x = Num(cx),
                y = Num(cy),
            );
        }
        // In the piece's colour at full strength whatever the probability (the ring says how
        // likely, the colour says whose): a white piece is the solid symbol filled white under
        // the outline symbol in black (the font's own drawing of a white piece, with its inside
        // white instead of the square's colour), a black piece the solid symbol in black with a
        // thin light edge that keeps it apart from a dark square.
        let (x, y) = (Num(cx), Num(cy + GLYPH_DROP));
        if white {
            let _ = write!(
                svg,
                "<text class=\"glyph\" x=\"{x}\" y=\"{y}\" font-size=\"{GLYPH_SIZE}\" text-anchor=\"middle\" fill=\"{WHITE_PIECE}\">{}</text><text class=\"glyph-outline\" x=\"{x}\" y=\"{y}\" font-size=\"{GLYPH_SIZE}\" text-anchor=\"middle\" fill=\"{BLACK_PIECE}\">{}</text>",
                symbol(sv.piece),
                outline_symbol(sv.piece)
            );
        } else {
            let _ = write!(
                svg,
                "<text class=\"glyph\" x=\"{x}\" y=\"{y}\" font-size=\"{GLYPH_SIZE}\" text-anchor=\"middle\" fill=\"{BLACK_PIECE}\" stroke=\"{WHITE_PIECE}\" stroke-width=\"0.8\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>",
                symbol(sv.piece)
            );
        }
        if let Some(m) = sv.mark {
            let mark = if m.red { "#d62828" } else { "#1d4ed8" };
            let _ = write!(
                svg,
                "<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"{MARK_RADIUS}\" fill=\"{}\" stroke=\"{mark}\" stroke-width=\"2\"/>",
                Num(mark_centre(frame, square).0),
                Num(mark_centre(frame, square).1),
                if m.faces_opponent { mark } else { "white" },
            );
        }
        for label in labels_on(frame, square, &sv) {
            write_label(svg, &label);
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</g>\n");
}

/// How the move list is laid out beside a board `board_h` high: its number of columns, lines
/// per column and the width of a column (0 columns when there is no list).
fn move_list_shape(options: &BoardOptions, board_h: f64) -> (usize, usize, f64) {
    if options.moves.is_empty() {
        return (0, 0, 0.0);
    }
    let per_column = (((board_h - 2.0 * MARGIN) / MOVE_LINE).floor() as usize).max(1);
    let columns = options.moves.len().div_ceil(per_column);
    let widest = options
        .moves
        .iter()
        .map(|m| m.chars().count())
        .max()
        .unwrap_or(0);
    (columns, per_column, MOVE_CHAR * widest as f64 + MARGIN)
}

/// The move list beside the board, top to bottom in columns.
fn move_list(
    svg: &mut String,
    options: &BoardOptions,
    frame: Frame,
    per_column: usize,
    column_width: f64,
) {
    if options.moves.is_empty() {
        return;
    }
    let (board_w, _) = frame.size();
    svg.push_str("<g class=\"moves\" font-family=\"monospace\" font-size=\"12\">\n");
    for (k, line) in options.moves.iter().enumerate() {
        let (column, row) = (k / per_column.max(1), k % per_column.max(1));
        let _ = writeln!(
            svg,
            "<text class=\"move\" x=\"{}\" y=\"{}\">{}</text>",
            Num(board_w + column_width * column as f64),
            Num(frame.top + MARGIN + 12.0 + MOVE_LINE * row as f64),
            xml_escape(line)
        );
    }
    svg.push_str("</g>\n");
}
