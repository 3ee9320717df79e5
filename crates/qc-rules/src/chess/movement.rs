//! How pieces move (FIDE Article 3, no check rules): the steps and directions of every piece
//! kind, the movement patterns on an empty 8x8 board and the path squares strictly between a
//! source and a target. Niel's Chess walks the same steps on boards of other sizes.
//!
//! Everything here is pure chess geometry: it never looks at what occupies a square.

use super::{Color, PieceKind, Square};

/// The eight (file, rank) offsets of a knight's move.
pub const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// The four (file, rank) directions a rook slides in.
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four (file, rank) directions a bishop slides in.
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The eight (file, rank) steps of a king (a queen slides in the same directions).
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The rank direction a pawn of `color` moves in (+1 for White, -1 for Black).
pub const fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The rank (0-based) a pawn of `color` starts on (rank 2 / rank 7).
pub const fn pawn_start_rank(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => 6,
    }
}

/// The rank (0-based) a pawn of `color` promotes on (rank 8 / rank 1).
pub const fn promotion_rank(color: Color) -> i32 {
    match color {
        Color::White => 7,
        Color::Black => 0,
    }
}

/// The rank (0-based) of `color`'s back rank (rank 1 / rank 8).
pub const fn back_rank(color: Color) -> i32 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

fn offset(s: Square, df: i32, dr: i32) -> Option<Square> {
    Square::from_coords(s.file() + df, s.rank() + dr)
}

/// True when `kind` (a non-pawn) can go from `from` to `to` on an empty board.
/// Pawns have their own patterns ([`pawn_step`], [`pawn_two_step`], [`pawn_diagonal`]).
pub fn reaches(kind: PieceKind, from: Square, to: Square) -> bool {
    if from == to {
        return false;
    }
    let df = to.file() - from.file();
    let dr = to.rank() - from.rank();
    match kind {
        PieceKind::Knight => KNIGHT_STEPS.contains(&(df, dr)),
        PieceKind::King => df.abs() <= 1 && dr.abs() <= 1,
        PieceKind::Bishop => df.abs() == dr.abs(),
        PieceKind::Rook => df == 0 || dr == 0,
        PieceKind::Queen => df.abs() == dr.abs() || df == 0 || dr == 0,
        PieceKind::Pawn => false,
    }
}

/// Every square a non-pawn `kind` reaches from `from` on an empty board.
pub fn targets(kind: PieceKind, from: Square) -> Vec<Square> {
    match kind {
        PieceKind::Knight => KNIGHT_STEPS
            .iter()
            .filter_map(|&(df, dr)| offset(from, df, dr))
            .collect(),
        PieceKind::King => KING_STEPS
            .iter()
            .filter_map(|&(df, dr)| offset(from, df, dr))
            .collect(),
        PieceKind::Pawn => Vec::new(),
        _ => Square::ALL
            .into_iter()
            .filter(|&t| reaches(kind, from, t))
            .collect(),
    }
}

/// The squares strictly between `from` and `to` on a straight or diagonal line, in order from
/// `from`; empty for adjacent squares and for squares not on a line (knight moves).
pub fn path_between(from: Square, to: Square) -> Vec<Square> {
    let df = to.file() - from.file();
    let dr = to.rank() - from.rank();
    let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
    if !aligned || from == to {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let steps = df.abs().max(dr.abs());
    (1..steps)
        .filter_map(|k| offset(from, sf * k, sr * k))
        .collect()
}

/// The square one step forward of `from` for a pawn of `color`.
pub fn pawn_step(color: Color, from: Square) -> Option<Square> {
    offset(from, 0, forward(color))
}

/// The square two steps forward of `from`, only from the pawn's starting rank.
pub fn pawn_two_step(color: Color, from: Square) -> Option<Square> {
    if from.rank() != pawn_start_rank(color) {
        return None;
    }
    offset(from, 0, 2 * forward(color))
}

/// The (up to two) squares diagonally forward of `from` for a pawn of `color`.
pub fn pawn_diagonals(color: Color, from: Square) -> Vec<Square> {
    [-1, 1]
        .into_iter()
        .filter_map(|df| offset(from, df, forward(color)))
        .collect()
}

/// True when `to` is diagonally forward of `from` for a pawn of `color`.
pub fn pawn_diagonal(color: Color, from: Square, to: Square) -> bool {
    pawn_diagonals(color, from).contains(&to)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("test square")
    }

    #[test]
    fn knight_and_king_counts_match_chess() {
        assert_eq!(targets(PieceKind::Knight, sq("a1")).len(), 2);
        assert_eq!(targets(PieceKind::Knight, sq("d4")).len(), 8);
        assert_eq!(targets(PieceKind::King, sq("h8")).len(), 3);
        assert_eq!(targets(PieceKind::Queen, sq("d4")).len(), 27);
        assert_eq!(targets(PieceKind::Rook, sq("a1")).len(), 14);
        assert_eq!(targets(PieceKind::Bishop, sq("c1")).len(), 7);
    }

    #[test]
    fn paths_are_strictly_between() {
        assert_eq!(path_between(sq("a1"), sq("a4")), vec![sq("a2"), sq("a3")]);
        assert_eq!(path_between(sq("c1"), sq("a3")), vec![sq("b2")]);
        assert_eq!(path_between(sq("h8"), sq("e5")), vec![sq("g7"), sq("f6")]);
        assert!(path_between(sq("b1"), sq("c3")).is_empty());
        assert!(path_between(sq("a1"), sq("a2")).is_empty());
    }

    #[test]
    fn pawn_patterns_depend_on_colour() {
        assert_eq!(pawn_step(Color::White, sq("e2")), Some(sq("e3")));
        assert_eq!(pawn_step(Color::Black, sq("e7")), Some(sq("e6")));
        assert_eq!(pawn_two_step(Color::White, sq("e2")), Some(sq("e4")));
        assert_eq!(pawn_two_step(Color::White, sq("e3")), None);
        assert_eq!(pawn_two_step(Color::Black, sq("d7")), Some(sq("d5")));
        assert_eq!(pawn_diagonals(Color::White, sq("a2")), vec![sq("b3")]);
        assert!(pawn_diagonal(Color::Black, sq("e5"), sq("d4")));
        assert!(!pawn_diagonal(Color::Black, sq("e5"), sq("d6")));
    }
}
