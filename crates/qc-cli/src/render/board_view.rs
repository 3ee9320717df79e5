//! What a board picture shows, independent of the rules engine: for each square the piece letter
//! that may be there and its probability, and optional lines between correlated squares.

use qc_ir::Square;

/// One square's content.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SquareView {
    /// FEN letter (uppercase white, lowercase black).
    pub piece: char,
    /// Probability that the piece is there (0..=1).
    pub probability: f64,
}

/// A board to draw.
#[derive(Clone, Debug, Default)]
pub struct BoardView {
    /// Content per square index (a1 = 0 .. h8 = 63).
    pub squares: Vec<Option<SquareView>>,
    /// Lines between squares with a strong correlation, with a strength in 0..=1.
    pub links: Vec<(Square, Square, f64)>,
}

impl BoardView {
    /// An empty board.
    pub fn new() -> BoardView {
        BoardView {
            squares: vec![None; 64],
            links: Vec::new(),
        }
    }

    /// The content of `square`.
    pub fn get(&self, square: Square) -> Option<SquareView> {
        self.squares.get(square.index()).copied().flatten()
    }
}
