//! Piece movement per FIDE Articles 3.1-3.8 on a board of any size: where a piece may go and
//! what it attacks. Indefinite pieces block like any piece (Art. 6.2.2).

use super::position::{Cell, NielsPosition};
use crate::chess::movement::{
    forward, BISHOP_DIRECTIONS as BISHOP_DIRS, KNIGHT_STEPS, ROOK_DIRECTIONS as ROOK_DIRS,
};
use crate::chess::{Color, Piece, PieceKind, Square};

impl NielsPosition {
    fn occupied(&self, s: Square) -> bool {
        self.cell(s) != Cell::Empty
    }

    /// Squares `piece` standing on `from` attacks (could capture on if an opponent stood
    /// there), per Art. 6.2.3. Sliding stops at the first occupied square, which is included.
    pub fn attacks(&self, piece: Piece, from: Square) -> Vec<Square> {
        let (f, r) = (from.file(), from.rank());
        let mut out = Vec::new();
        let step = |df: i32, dr: i32| self.square(f + df, r + dr);
        match piece.kind {
            PieceKind::Pawn => {
                let dr = forward(piece.color);
                out.extend([-1, 1].into_iter().filter_map(|df| step(df, dr)));
            }
            PieceKind::Knight => out.extend(KNIGHT_STEPS.iter().filter_map(|(a, b)| step(*a, *b))),
            PieceKind::King => out.extend(
                ROOK_DIRS
                    .iter()
                    .chain(BISHOP_DIRS.iter())
                    .filter_map(|(a, b)| step(*a, *b)),
            ),
            PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen => {
                let dirs: Vec<(i32, i32)> = match piece.kind {
                    PieceKind::Bishop => BISHOP_DIRS.to_vec(),
                    PieceKind::Rook => ROOK_DIRS.to_vec(),
                    _ => ROOK_DIRS
                        .iter()
                        .chain(BISHOP_DIRS.iter())
                        .copied()
                        .collect(),
                };
                for (df, dr) in dirs {
                    let mut k = 1;
                    while let Some(s) = step(df * k, dr * k) {
                        out.push(s);
                        if self.occupied(s) {
                            break;
                        }
                        k += 1;
                    }
                }
            }
        }
        out
    }

    /// Unoccupied squares `piece` on `from` may move to without capturing (no castling, no en
    /// passant). Pawns step forward one, or two from their second rank on boards of 6+ ranks.
    pub fn quiet_targets(&self, piece: Piece, from: Square) -> Vec<Square> {
        if piece.kind != PieceKind::Pawn {
            return self
                .attacks(piece, from)
                .into_iter()
                .filter(|s| !self.occupied(*s))
                .collect();
        }
        let dr = forward(piece.color);
        let mut out = Vec::new();
        let one = self.square(from.file(), from.rank() + dr);
        if let Some(one) = one.filter(|s| !self.occupied(*s)) {
            out.push(one);
            let start_rank = match piece.color {
                Color::White => 1,
                Color::Black => self.height as i32 - 2,
            };
            if self.height >= 6 && from.rank() == start_rank {
                if let Some(two) = self
                    .square(from.file(), from.rank() + 2 * dr)
                    .filter(|s| !self.occupied(*s))
                {
                    out.push(two);
                }
            }
        }
        out
    }

    /// Squares a conventional rook, bishop, queen or king on `from` may tunnel to: along one of
    /// its lines the first piece met is an opponent's conventional piece and the square right
    /// behind it is on the board and empty (the king's line is one step long).
    pub fn tunnel_targets(&self, piece: Piece, from: Square) -> Vec<Square> {
        let dirs: Vec<(i32, i32)> = match piece.kind {
            PieceKind::Bishop => BISHOP_DIRS.to_vec(),
            PieceKind::Rook => ROOK_DIRS.to_vec(),
            PieceKind::Queen | PieceKind::King => ROOK_DIRS
                .iter()
                .chain(BISHOP_DIRS.iter())
                .copied()
                .collect(),
            PieceKind::Pawn | PieceKind::Knight => return vec![],
        };
        let reach = if piece.kind == PieceKind::King { 1 } else { 8 };
        let mut out = Vec::new();
        for (df, dr) in dirs {
            for k in 1..=reach {
                let Some(s) = self.square(from.file() + df * k, from.rank() + dr * k) else {
                    break;
                };
                match self.cell(s) {
                    Cell::Empty => continue,
                    Cell::Conventional(p) if p.color != piece.color => {
                        let behind = self.square(s.file() + df, s.rank() + dr);
                        if let Some(b) = behind.filter(|b| self.cell(*b) == Cell::Empty) {
                            out.push(b);
                        }
                    }
                    _ => {}
                }
                break;
            }
        }
        out
    }

    /// True if `piece` on `from` could move to `to` were `to` empty (Art. 7.7 "one move away").
    pub fn one_move_away(&self, piece: Piece, from: Square, to: Square) -> bool {
        let mut probe = self.clone();
        probe.cells[to.index()] = Cell::Empty;
        probe.quiet_targets(piece, from).contains(&to)
    }

    /// True if any piece of `by` attacks `square` (used for castling, Art. 6.2.5).
    pub fn is_attacked_by(&self, square: Square, by: Color) -> bool {
        self.squares().any(|s| {
            self.piece_at(s)
                .is_some_and(|p| p.color == by && self.attacks(p, s).contains(&square))
        })
    }
}
