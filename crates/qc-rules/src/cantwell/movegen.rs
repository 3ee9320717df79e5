//! Move generation: every standard, split and merge move of the side to move that passes
//! classification (the possibility equations) in the current position, as [`QcanMove`]s with
//! their classification.

use crate::cantwell::board::Board;
use crate::cantwell::classify::{classify, Classified};
use crate::cantwell::occupancy::Occupancy;
use crate::cantwell::qcan::{MoveShape, QcanMove};
use crate::chess::movement as geometry;
use crate::chess::Square;
use crate::chess::{Piece, PieceKind};

const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

fn plain(shape: MoveShape, promotion: Option<PieceKind>) -> QcanMove {
    QcanMove {
        piece: None,
        shape,
        mark: None,
        promotion,
        outcome: None,
    }
}

/// Every possible move of `board.side_to_move` with its classification; see the module docs.
pub fn possible_moves(board: &Board, occ: &Occupancy) -> Vec<(QcanMove, Classified)> {
    let mut candidates = Vec::new();
    let own: Vec<(Square, Piece)> = Square::ALL
        .into_iter()
        .filter_map(|s| board.piece(s).map(|p| (s, p)))
        .filter(|(_, p)| p.color == board.side_to_move)
        .collect();
    for &(source, piece) in &own {
        let standard = |target| MoveShape::Standard { source, target };
        if piece.kind == PieceKind::Pawn {
            let c = piece.color;
            let targets = geometry::pawn_step(c, source)
                .into_iter()
                .chain(geometry::pawn_two_step(c, source))
                .chain(geometry::pawn_diagonals(c, source));
            for target in targets {
                if target.rank() == geometry::promotion_rank(c) {
                    for k in PROMOTIONS {
                        candidates.push(plain(standard(target), Some(k)));
                    }
                } else {
                    candidates.push(plain(standard(target), None));
                }
            }
            continue;
        }
        let targets = geometry::targets(piece.kind, source);
        for &target in &targets {
            candidates.push(plain(standard(target), None));
        }
        if piece.kind == PieceKind::King {
            // Castling candidates: two files to either side. Where the king stands next to the
            // c or g file that square is already a king step, and listing it again would show
            // the same move twice.
            for file in [2, 6] {
                if let Some(target) = Square::from_coords(file, source.rank()) {
                    if !targets.contains(&target) {
                        candidates.push(plain(standard(target), None));
                    }
                }
            }
        }
        let free: Vec<Square> = targets
            .iter()
            .copied()
            .filter(|&t| board.piece(t).is_none() || board.piece(t) == Some(piece))
            .collect();
        for &target1 in &free {
            for &target2 in &free {
                if target1 != target2 {
                    candidates.push(plain(
                        MoveShape::Split {
                            source,
                            target1,
                            target2,
                        },
                        None,
                    ));
                }
            }
        }
        for &(source2, other) in &own {
            if other != piece || source2 == source {
                continue;
            }
            for &target in &targets {
                if geometry::reaches(piece.kind, source2, target) {
                    candidates.push(plain(
                        MoveShape::Merge {
                            source1: source,
                            source2,
                            target,
                        },
                        None,
                    ));
                }
            }
        }
    }
    candidates
        .into_iter()
        .filter_map(|mv| classify(board, occ, &mv).ok().map(|c| (mv, c)))
        .collect()
}
