//! What a board picture shows, the same for every ruleset: the board's size, for each square the
//! piece that may be there with its probability (and, for a Niel's indefinite piece, its mark),
//! the pairs of squares one piece is split between, and lines between correlated squares. The
//! renderers (text and SVG, in the command line) draw this and nothing else.

use super::Status;
use crate::chess::Color;
use crate::chess::Square;
use serde::Serialize;

/// A Niel's mark on an indefinite piece's square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarkView {
    /// True for the red mark, false for the blue one.
    pub red: bool,
    /// True when the mark faces the opponent, false when it faces its owner.
    pub faces_opponent: bool,
    /// The diagonal of the entangled group (1 or 2), `None` for a lone pair.
    pub diagonal: Option<u8>,
    /// The pair's label (told apart from other pairs of the same piece).
    pub label: u8,
}

/// One square's content.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct SquareView {
    /// FEN letter (uppercase white, lowercase black).
    pub piece: char,
    /// Probability that the piece is there (0..=1).
    pub probability: f64,
    /// The mark, for an indefinite piece of Niel's Chess.
    pub mark: Option<MarkView>,
}

/// One piece split between two squares (a Niel's pair).
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct PairView {
    /// The pair's id.
    pub id: u32,
    /// FEN letter of the piece.
    pub piece: char,
    /// The pair's label.
    pub label: u8,
    /// The red square.
    pub red: Square,
    /// The blue square.
    pub blue: Square,
    /// The probability that the piece is on the red square.
    pub p_red: f64,
    /// The entangled group's id.
    pub group: u32,
    /// The group's diagonal (1 or 2), `None` for a lone pair.
    pub diagonal: Option<u8>,
}

/// A board to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    /// Files (4 to 8).
    pub width: u8,
    /// Ranks (4 to 8).
    pub height: u8,
    /// Content per square index (a1 = 0, b1 = 1, ..., h8 = 63).
    pub squares: Vec<Option<SquareView>>,
    /// Pieces split between two squares (drawn joined by a line).
    pub pairs: Vec<PairView>,
    /// Lines between squares with a strong correlation: the Pearson correlation of their
    /// occupancies, in -1..=1 (positive: occupied together; negative: anti-correlated, one or the
    /// other, as the two halves of a split piece).
    pub links: Vec<(Square, Square, f64)>,
    /// The side to move.
    pub side_to_move: Color,
    /// Whether the game goes on, and how it ended.
    pub status: Status,
}

impl BoardView {
    /// An empty `width` x `height` board, the game going on.
    pub fn new(width: u8, height: u8, side_to_move: Color) -> BoardView {
        BoardView {
            width,
            height,
            squares: vec![None; 64],
            pairs: Vec::new(),
            links: Vec::new(),
            side_to_move,
            status: Status::Ongoing,
        }
    }

    /// The content of `square`.
    pub fn get(&self, square: Square) -> Option<SquareView> {
        self.squares.get(square.index()).copied().flatten()
    }

    /// The squares of the board, a1 first, file by file within a rank.
    pub fn board_squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..i32::from(self.height)).flat_map(move |rank| {
            (0..i32::from(self.width)).filter_map(move |file| Square::from_coords(file, rank))
        })
    }
}

/// What an ancilla wire of a game's circuit stands for, from its `alloc` on (a Niel's pair's
/// "which square" qubit: `R d4/e6`), so that circuit drawings name the wire by its meaning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WireLabel {
    /// Index of the `alloc` instruction in the game circuit's instruction list.
    pub instruction: usize,
    /// The qubit allocated there.
    pub qubit: qc_ir::Qubit,
    /// What it stands for, e.g. `R d4/e6` (the piece's FEN letter, then its red and blue
    /// squares) or `tunnel e2-e4`.
    pub label: String,
}
