//! Classification: what a [`QcanMove`] is in the current position (paper sec. 8, decisions 3, 4,
//! 10, 13, 15, 16 of `circuits.md`, and `engine-api.md` "Rules details").
//!
//! It reads the classical register ([`Board`]) for piece types and the state's support
//! ([`Occupancy`]) for which squares are certainly empty, certainly occupied or in superposition,
//! and returns the move type, the variant and the squares the circuit needs. An impossible move
//! is a typed [`MoveError`] naming the rule; classification never changes anything.

use crate::cantwell::board::Board;
use crate::cantwell::error::MoveError;
pub use crate::cantwell::kinds::{MoveType, Variant};
use crate::cantwell::occupancy::{Occupancy, SquareStatus};
use crate::cantwell::qcan::{MoveShape, QcanMove, VariantMark};
use crate::chess::movement as geometry;
use crate::chess::Square;
use crate::chess::{Castling, Color, Piece, PieceKind};
use crate::ruleset::RightLost;

/// A classified move: everything lowering and the register update need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    /// Its type.
    pub move_type: MoveType,
    /// Its variant.
    pub variant: Variant,
    /// The moving piece (the king for castling).
    pub piece: Piece,
    /// Sources in QCAN order (two for a merge; the king's square for castling).
    pub sources: Vec<Square>,
    /// Targets in QCAN order (two for a split; the king's target for castling).
    pub targets: Vec<Square>,
    /// Per arm (split: to t1, to t2; merge: from s1, from s2; slide and two-step: one arm;
    /// queenside castle: the rook's b square), the path squares in superposition. Squares known
    /// empty are left out (decision 4); the other target or source is left out (decision 13).
    pub paths: Vec<Vec<Square>>,
    /// En passant: the square of the pawn captured.
    pub ep_victim: Option<Square>,
    /// Castling: the rook's source and target.
    pub rook: Option<(Square, Square)>,
    /// Register entries written on the squares the move lands on, if its unitary is applied.
    pub placements: Vec<(Square, Piece)>,
}

/// Classifies `mv` in the position (`board`, `occupancy`); see the module docs.
pub fn classify(board: &Board, occ: &Occupancy, mv: &QcanMove) -> Result<Classified, MoveError> {
    let classified = match mv.shape {
        MoveShape::Null => return Err(MoveError::NullMove),
        MoveShape::Standard { source, target } => {
            let piece = own_piece(board, source, mv.piece)?;
            standard(board, occ, piece, source, target, mv)?
        }
        MoveShape::Split {
            source,
            target1,
            target2,
        } => {
            let piece = own_piece(board, source, mv.piece)?;
            split(board, occ, piece, source, target1, target2)?
        }
        MoveShape::Merge {
            source1,
            source2,
            target,
        } => {
            let piece = own_piece(board, source1, mv.piece)?;
            merge(board, occ, piece, source1, source2, target)?
        }
    };
    if !matches!(
        classified.move_type,
        MoveType::PawnStep | MoveType::PawnCapture | MoveType::PawnTwoStep | MoveType::EnPassant
    ) && mv.promotion.is_some()
    {
        return Err(MoveError::PromotionNotAllowed);
    }
    if let Some(mark) = mv.mark {
        let written = match mark {
            VariantMark::Capture => Variant::Capture,
            VariantMark::Excluded => Variant::Excluded,
        };
        // Chess players write every capture with `x`: on a pawn capture or an en passant the
        // mark only says "this move captures", whatever variant the position gives it.
        let pawn_capture = matches!(
            classified.move_type,
            MoveType::PawnCapture | MoveType::EnPassant
        );
        if written != classified.variant && !(mark == VariantMark::Capture && pawn_capture) {
            return Err(MoveError::MarkMismatch {
                written,
                classified: classified.variant,
                move_type: classified.move_type,
            });
        }
    }
    Ok(classified)
}

fn own_piece(board: &Board, square: Square, prefix: Option<PieceKind>) -> Result<Piece, MoveError> {
    let piece = board
        .piece(square)
        .ok_or(MoveError::EmptySource { square })?;
    if piece.color != board.side_to_move {
        return Err(MoveError::NotYourPiece {
            square,
            piece,
            owner: piece.color,
            to_move: board.side_to_move,
        });
    }
    if let Some(written) = prefix {
        if written != piece.kind {
            return Err(MoveError::PrefixMismatch {
                square,
                written,
                actual: piece,
            });
        }
    }
    Ok(piece)
}

/// The path squares in superposition; a certainly occupied one blocks the move.
fn quantum_path(
    occ: &Occupancy,
    from: Square,
    to: Square,
    skip: Option<Square>,
) -> Result<Vec<Square>, MoveError> {
    let mut out = Vec::new();
    for square in geometry::path_between(from, to) {
        if Some(square) == skip {
            continue;
        }
        match occ.get(square) {
            SquareStatus::Empty => {}
            SquareStatus::Superposed => out.push(square),
            SquareStatus::Occupied => return Err(MoveError::PathBlocked { from, to, square }),
        }
    }
    Ok(out)
}

/// Variant of a move of `mover` onto `target` that may capture when `can_capture`.
fn target_variant(
    board: &Board,
    occ: &Occupancy,
    mover: Piece,
    target: Square,
    same_kind_ok: bool,
    can_capture: bool,
) -> Result<Variant, MoveError> {
    let Some(occupant) = board.piece(target) else {
        return Ok(Variant::Basic);
    };
    if occupant == mover && same_kind_ok {
        return Ok(Variant::Basic);
    }
    if occupant.color != mover.color && can_capture {
        return Ok(Variant::Capture);
    }
    if occ.get(target) == SquareStatus::Occupied {
        return Err(MoveError::TargetOccupied {
            square: target,
            occupant,
        });
    }
    Ok(Variant::Excluded)
}

fn single(
    move_type: MoveType,
    variant: Variant,
    piece: Piece,
    source: Square,
    target: Square,
    paths: Vec<Vec<Square>>,
    landing: Piece,
) -> Classified {
    Classified {
        move_type,
        variant,
        piece,
        sources: vec![source],
        targets: vec![target],
        paths,
        ep_victim: None,
        rook: None,
        placements: vec![(target, landing)],
    }
}

fn standard(
    board: &Board,
    occ: &Occupancy,
    piece: Piece,
    source: Square,
    target: Square,
    mv: &QcanMove,
) -> Result<Classified, MoveError> {
    let bad = MoveError::BadPattern {
        piece,
        from: source,
        to: target,
    };
    match piece.kind {
        PieceKind::Pawn => pawn(board, occ, piece, source, target, mv.promotion),
        PieceKind::King
            if source.rank() == target.rank()
                && (target.file() - source.file()).abs() == 2
                && source.file() == 4
                && source.rank() == geometry::back_rank(piece.color) =>
        {
            castle(board, occ, piece, source, target)
        }
        kind => {
            if !geometry::reaches(kind, source, target) {
                return Err(bad);
            }
            let variant = target_variant(board, occ, piece, target, true, true)?;
            if kind.slides() {
                let path = quantum_path(occ, source, target, None)?;
                Ok(single(
                    MoveType::Slide,
                    variant,
                    piece,
                    source,
                    target,
                    vec![path],
                    piece,
                ))
            } else {
                Ok(single(
                    MoveType::Jump,
                    variant,
                    piece,
                    source,
                    target,
                    Vec::new(),
                    piece,
                ))
            }
        }
    }
}

fn promotion_piece(
    color: Color,
    target: Square,
    written: Option<PieceKind>,
) -> Result<Piece, MoveError> {
    if target.rank() != geometry::promotion_rank(color) {
        return match written {
            Some(_) => Err(MoveError::PromotionNotAllowed),
            None => Ok(Piece::new(color, PieceKind::Pawn)),
        };
    }
    match written {
        None => Err(MoveError::PromotionMissing { square: target }),
        Some(k @ (PieceKind::Pawn | PieceKind::King)) => Err(MoveError::BadPromotionPiece(k)),
        Some(k) => Ok(Piece::new(color, k)),
    }
}

fn pawn(
    board: &Board,
    occ: &Occupancy,
    piece: Piece,
    source: Square,
    target: Square,
    promotion: Option<PieceKind>,
) -> Result<Classified, MoveError> {
    let color = piece.color;
    if geometry::pawn_step(color, source) == Some(target) {
        let landing = promotion_piece(color, target, promotion)?;
        let variant = target_variant(board, occ, piece, target, true, false)?;
        return Ok(single(
            MoveType::PawnStep,
            variant,
            piece,
            source,
            target,
            Vec::new(),
            landing,
        ));
    }
    if geometry::pawn_two_step(color, source) == Some(target) {
        let landing = promotion_piece(color, target, promotion)?;
        let variant = target_variant(board, occ, piece, target, true, false)?;
        let path = quantum_path(occ, source, target, None)?;
        return Ok(single(
            MoveType::PawnTwoStep,
            variant,
            piece,
            source,
            target,
            vec![path],
            landing,
        ));
    }
    if !geometry::pawn_diagonal(color, source, target) {
        return Err(MoveError::BadPattern {
            piece,
            from: source,
            to: target,
        });
    }
    let ep_victim = Square::from_coords(target.file(), source.rank())
        .filter(|&v| board.piece(v) == Some(Piece::new(color.opponent(), PieceKind::Pawn)));
    if board.en_passant == Some(target) {
        let landing = promotion_piece(color, target, promotion)?;
        let Some(victim) = ep_victim else {
            if board.piece(target).is_some_and(|p| p.color != color) {
                return Ok(single(
                    MoveType::PawnCapture,
                    Variant::Capture,
                    piece,
                    source,
                    target,
                    Vec::new(),
                    landing,
                ));
            }
            let square = Square::from_coords(target.file(), source.rank()).unwrap_or(target);
            return Err(MoveError::NoEnPassantVictim { square });
        };
        let variant = target_variant(board, occ, piece, target, true, true)?;
        let mut c = single(
            MoveType::EnPassant,
            variant,
            piece,
            source,
            target,
            Vec::new(),
            landing,
        );
        c.ep_victim = Some(victim);
        return Ok(c);
    }
    match board.piece(target) {
        Some(victim) if victim.color != color => {
            let landing = promotion_piece(color, target, promotion)?;
            Ok(single(
                MoveType::PawnCapture,
                Variant::Capture,
                piece,
                source,
                target,
                Vec::new(),
                landing,
            ))
        }
        _ => Err(MoveError::PawnCaptureWithoutVictim { square: target }),
    }
}

fn castle(
    board: &Board,
    occ: &Occupancy,
    king: Piece,
    source: Square,
    target: Square,
) -> Result<Classified, MoveError> {
    let color = king.color;
    let rank = source.rank();
    let kingside = target.file() == 6;
    let castling = Castling { color, kingside };
    let without_rights = || MoveError::CastlingWithoutRights {
        castling,
        // The game names the move that lost it; the position alone does not know.
        lost: RightLost::Unknown,
    };
    if !castling.allowed_by(board.castling) {
        return Err(without_rights());
    }
    let at = |file: i32| Square::from_coords(file, rank).ok_or_else(without_rights);
    let (rook_from, rook_to) = if kingside {
        (at(7)?, at(5)?)
    } else {
        (at(0)?, at(3)?)
    };
    let rook = Piece::new(color, PieceKind::Rook);
    for (square, want) in [(source, king), (rook_from, rook)] {
        if board.piece(square) != Some(want) || occ.get(square) != SquareStatus::Occupied {
            return Err(MoveError::CastlingPiecesMissing { square });
        }
    }
    let mut variant = Variant::Basic;
    for (square, lander) in [(target, king), (rook_to, rook)] {
        match board.piece(square) {
            None => {}
            Some(p) if p == lander && occ.get(square) == SquareStatus::Superposed => {}
            Some(_) if occ.get(square) == SquareStatus::Occupied => {
                return Err(MoveError::CastlingBlocked { square })
            }
            // Decision 15: even an opponent piece makes it the excluded variant.
            Some(_) => variant = Variant::Excluded,
        }
    }
    let mut paths = Vec::new();
    if !kingside {
        let b = at(1)?;
        match occ.get(b) {
            SquareStatus::Empty => paths.push(Vec::new()),
            SquareStatus::Superposed => paths.push(vec![b]),
            SquareStatus::Occupied => return Err(MoveError::CastlingBlocked { square: b }),
        }
    }
    Ok(Classified {
        move_type: if kingside {
            MoveType::KingsideCastle
        } else {
            MoveType::QueensideCastle
        },
        variant,
        piece: king,
        sources: vec![source],
        targets: vec![target],
        paths,
        ep_victim: None,
        rook: Some((rook_from, rook_to)),
        placements: vec![(target, king), (rook_to, rook)],
    })
}

fn split_merge_target(board: &Board, piece: Piece, square: Square) -> Result<(), MoveError> {
    match board.piece(square) {
        None => Ok(()),
        Some(p) if p == piece => Ok(()),
        Some(occupant) => Err(MoveError::SplitMergeOntoOtherPiece {
            square,
            occupant,
            mover: piece,
        }),
    }
}

fn reach_or_bad(piece: Piece, from: Square, to: Square) -> Result<(), MoveError> {
    if geometry::reaches(piece.kind, from, to) {
        Ok(())
    } else {
        Err(MoveError::BadPattern { piece, from, to })
    }
}

fn split(
    board: &Board,
    occ: &Occupancy,
    piece: Piece,
    source: Square,
    t1: Square,
    t2: Square,
) -> Result<Classified, MoveError> {
    if piece.kind == PieceKind::Pawn {
        return Err(MoveError::PawnSplitMerge { square: source });
    }
    if t1 == t2 {
        return Err(MoveError::RepeatedSquare { square: t1 });
    }
    for t in [t1, t2] {
        reach_or_bad(piece, source, t)?;
        split_merge_target(board, piece, t)?;
    }
    two_leg_move(
        occ,
        piece,
        (MoveType::SplitSlide, MoveType::SplitJump),
        [(source, t1, t2), (source, t2, t1)],
        vec![source],
        vec![t1, t2],
    )
}

/// The common end of a split and a merge: a jump has no paths; a slide has one per leg
/// `(from, to, other)`, on which the leg's `other` square (the other target of a split, the
/// other source of a merge) does not count as blocking. The piece lands on every target.
fn two_leg_move(
    occ: &Occupancy,
    piece: Piece,
    (slide, jump): (MoveType, MoveType),
    legs: [(Square, Square, Square); 2],
    sources: Vec<Square>,
    targets: Vec<Square>,
) -> Result<Classified, MoveError> {
    let (move_type, paths) = if piece.kind.slides() {
        let paths = legs
            .iter()
            .map(|&(from, to, other)| quantum_path(occ, from, to, Some(other)))
            .collect::<Result<Vec<_>, _>>()?;
        (slide, paths)
    } else {
        (jump, Vec::new())
    };
    let placements = targets.iter().map(|&t| (t, piece)).collect();
    Ok(Classified {
        move_type,
        variant: Variant::Basic,
        piece,
        sources,
        targets,
        paths,
        ep_victim: None,
        rook: None,
        placements,
    })
}

fn merge(
    board: &Board,
    occ: &Occupancy,
    piece: Piece,
    s1: Square,
    s2: Square,
    target: Square,
) -> Result<Classified, MoveError> {
    if piece.kind == PieceKind::Pawn {
        return Err(MoveError::PawnSplitMerge { square: s1 });
    }
    if s1 == s2 {
        return Err(MoveError::RepeatedSquare { square: s1 });
    }
    let second = board
        .piece(s2)
        .ok_or(MoveError::EmptySource { square: s2 })?;
    if second != piece {
        return Err(MoveError::MergeSourcesDiffer {
            s1,
            first: piece,
            s2,
            second,
        });
    }
    for s in [s1, s2] {
        reach_or_bad(piece, s, target)?;
    }
    split_merge_target(board, piece, target)?;
    two_leg_move(
        occ,
        piece,
        (MoveType::MergeSlide, MoveType::MergeJump),
        [(s1, target, s2), (s2, target, s1)],
        vec![s1, s2],
        vec![target],
    )
}
