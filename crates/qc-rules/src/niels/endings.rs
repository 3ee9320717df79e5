//! The FIDE endings other than checkmate and stalemate (Art. 5.2.2, 9.2, 9.3, 9.6 of the FIDE
//! Laws) as they apply with indefinite pieces: the identity of positions for repetition
//! ([`RepetitionKey`]) and the dead position of kings alone ([`NielsPosition::is_dead_material`]).
//! The engine has no claims, so every draw it detects ends the game at once; see
//! `docs/niels.md` ("Endings") for the choices.

use super::moves::NielsMove;
use super::position::{Cell, NielsPosition};
use crate::chess::CastlingRights;
use crate::chess::Square;
use crate::chess::{Color, Piece, PieceKind};

/// How often the same position must occur for the repetition draw (FIDE 9.2, made automatic).
pub const REPETITION_COUNT: usize = 3;

/// What one square holds, as far as the identity of positions is concerned.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum KeyCell {
    Empty,
    Conventional(Piece),
    Indefinite {
        piece: Piece,
        /// Whether this is the red piece of its pair.
        red: bool,
        partner: Square,
        red_faces_opponent: bool,
        blue_faces_opponent: bool,
        /// The red squares of every pair of its group, sorted (pair ids are not stable across
        /// equal positions, squares are), and the group's diagonal.
        group: (Vec<Square>, Option<u8>),
    },
}

/// The identity of a position for the repetition rule (FIDE 9.2.2): every square's content
/// (indefinite pieces with their partner square, mark facing and entangled group), the side to
/// move, the castling rights and an en passant capture only if one is legal (FIDE 9.2.3).
/// Not part of it: pair ids and mark fill patterns (labels), which tell pairs apart but do
/// not change what can happen, and the move counters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RepetitionKey {
    cells: Vec<KeyCell>,
    side_to_move: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
}

impl NielsPosition {
    /// This position's [`RepetitionKey`].
    pub fn repetition_key(&self) -> RepetitionKey {
        let cells = self
            .squares()
            .map(|s| match self.cell(s) {
                Cell::Empty => KeyCell::Empty,
                Cell::Conventional(p) => KeyCell::Conventional(p),
                Cell::Indefinite(_) => match self.pair_at(s) {
                    // A dangling pair id cannot occur in a position that passes its checks.
                    None => KeyCell::Empty,
                    Some((_, pair)) => {
                        let mut members: Vec<Square> = self
                            .groups
                            .get(&pair.group)
                            .map(|g| {
                                g.pairs
                                    .iter()
                                    .filter_map(|id| self.pairs.get(id).map(|p| p.red))
                                    .collect()
                            })
                            .unwrap_or_default();
                        members.sort();
                        let diagonal = self.groups.get(&pair.group).and_then(|g| g.diagonal);
                        KeyCell::Indefinite {
                            piece: pair.piece,
                            red: s == pair.red,
                            partner: pair.partner(s),
                            red_faces_opponent: pair.red_faces_opponent,
                            blue_faces_opponent: pair.blue_faces_opponent,
                            group: (members, diagonal),
                        }
                    }
                },
            })
            .collect();
        RepetitionKey {
            cells,
            side_to_move: self.side_to_move,
            castling: self.castling,
            en_passant: self.legal_en_passant(),
        }
    }

    /// The en passant square if an en passant capture onto it is legal now.
    fn legal_en_passant(&self) -> Option<Square> {
        let ep = self.en_passant?;
        let me = self.side_to_move;
        // Only the pawn steps onto the square need their legality played out.
        self.pseudo_moves()
            .iter()
            .filter(|m| match **m {
                NielsMove::Step { from, to, .. } => {
                    to == ep && self.piece_at(from) == Some(Piece::new(me, PieceKind::Pawn))
                }
                _ => false,
            })
            .any(|m| self.pseudo_move_is_legal(m))
            .then_some(ep)
    }

    /// Whether only kings (conventional or indefinite) are left: no sequence of moves can give
    /// check, so no checkmate (FIDE 5.2.2). With any other piece the position is not dead in
    /// Niel's Chess, unlike FIDE's K+B v K, K+N v K and same-coloured bishops: a king may
    /// superpose, and a king pair covers the flight squares of both its squares, so e.g. a
    /// king pair and a bishop mate a lone king (see `docs/niels.md`).
    pub fn is_dead_material(&self) -> bool {
        self.squares()
            .filter_map(|s| self.piece_at(s))
            .all(|p| p.kind == PieceKind::King)
    }
}
