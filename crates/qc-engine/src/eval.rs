//! The evaluation: what a position is worth to the side to move, in pawns, read from the
//! probabilities of the board (a [`BoardView`], so the same for both rulesets and any board
//! size).
//!
//! Each square holds a piece with some probability `p`. The terms:
//! - **material**: `p` times the piece's value, the king counted as [`Weights::king`] (in Quantum
//!   Chess a king with probability below 1 has been captured in some branches of the state);
//! - **attacks**: a piece on `s` (probability `p`) attacks `t` when its move pattern reaches `t`
//!   and every square between is empty, which happens with probability `p` times the product of
//!   `1 - P(occupied)` over the path. The chance that a side attacks `t` at all is
//!   `1 - prod(1 - each attack)`;
//! - **king safety under superposition**: the side to move gains `p(enemy king on t)` times the
//!   chance it attacks `t`, summed over the enemy king's squares (it may capture next); it loses
//!   the same measure for its own king attacked by the opponent, with a smaller weight (it moves
//!   first and can step away or split);
//! - **hanging pieces**: the best capture the side to move has now (the victim's expected value
//!   minus the attacker's when the square is defended), and a smaller penalty for the best the
//!   opponent has;
//! - **mobility**: the expected number of squares each side's pieces reach;
//! - **placement**: small bonuses for central knights and bishops and advanced pawns.
//!
//! The score is clamped inside `(-WIN, WIN)`, so that a won or lost game (worth `+-WIN`) is always
//! beyond any evaluation.

use qc_rules::chess::movement as geometry;
use qc_rules::{BoardView, Color, Piece, PieceKind, Square};
use std::sync::OnceLock;

/// The score of a won game, in pawns (a lost one is `-WIN`, a draw 0).
pub const WIN: f64 = 1000.0;

/// The largest evaluation of a position that goes on.
pub const MAX_EVAL: f64 = WIN / 2.0;

/// The weights of the terms (see the module docs), in pawns.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// The king's material value.
    pub king: f64,
    /// Per unit of "the enemy king may be captured next": a share of [`Weights::king`].
    pub king_threat: f64,
    /// Per unit of "our king may be captured next", a share of [`Weights::king`].
    pub king_danger: f64,
    /// Share of the best capture the side to move has now.
    pub hanging: f64,
    /// Share of the best capture the opponent has.
    pub threatened: f64,
    /// Per expected square reached.
    pub mobility: f64,
    /// Scale of the placement bonuses.
    pub placement: f64,
}

impl Weights {
    /// The engine's weights.
    pub const FULL: Weights = Weights {
        king: 200.0,
        king_threat: 0.4,
        king_danger: 0.15,
        hanging: 0.5,
        threatened: 0.15,
        mobility: 0.04,
        placement: 1.0,
    };

    /// Material alone (the greedy baseline's evaluation).
    pub const MATERIAL: Weights = Weights {
        king: 200.0,
        king_threat: 0.0,
        king_danger: 0.0,
        hanging: 0.0,
        threatened: 0.0,
        mobility: 0.0,
        placement: 0.0,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::FULL
    }
}

/// A piece's value in pawns (the king's is [`Weights::king`]).
pub fn piece_value(kind: PieceKind, weights: &Weights) -> f64 {
    match kind {
        PieceKind::Pawn => 1.0,
        PieceKind::Knight => 3.0,
        PieceKind::Bishop => 3.25,
        PieceKind::Rook => 5.0,
        PieceKind::Queen => 9.0,
        PieceKind::King => weights.king,
    }
}

/// For each kind but the pawn and each square: the squares its pattern reaches, each with the
/// squares in between (a bitboard), on the 8x8 grid ([`qc_rules::geometry`]).
type Reach = Vec<Vec<(Square, u64)>>;

fn reach_table() -> &'static [Reach; 5] {
    static TABLE: OnceLock<[Reach; 5]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let kinds = [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
            PieceKind::King,
        ];
        kinds.map(|kind| {
            Square::ALL
                .iter()
                .map(|&from| {
                    geometry::targets(kind, from)
                        .into_iter()
                        .map(|to| {
                            let path = if kind.slides() {
                                geometry::path_between(from, to)
                                    .iter()
                                    .fold(0u64, |m, s| m | 1 << s.index())
                            } else {
                                0
                            };
                            (to, path)
                        })
                        .collect()
                })
                .collect()
        })
    })
}

/// The squares `piece` on `from` attacks with their paths (pawns: the two forward diagonals).
fn attacks(piece: Piece, from: Square) -> Vec<(Square, u64)> {
    let index = match piece.kind {
        PieceKind::Pawn => {
            return geometry::pawn_diagonals(piece.color, from)
                .into_iter()
                .map(|s| (s, 0))
                .collect()
        }
        PieceKind::Knight => 0,
        PieceKind::Bishop => 1,
        PieceKind::Rook => 2,
        PieceKind::Queen => 3,
        PieceKind::King => 4,
    };
    reach_table()[index][from.index()].clone()
}

const fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The board as the evaluation reads it.
struct Board {
    /// The piece that may be on each square, with its probability.
    pieces: [Option<(Piece, f64)>; 64],
    /// The squares of the board.
    inside: u64,
    width: i32,
    height: i32,
}

impl Board {
    fn from_view(view: &BoardView) -> Board {
        let mut pieces = [None; 64];
        let mut inside = 0u64;
        for sq in view.board_squares() {
            inside |= 1 << sq.index();
            if let Some(s) = view.get(sq) {
                if let Some(piece) = Piece::from_fen_char(s.piece) {
                    pieces[sq.index()] = Some((piece, s.probability.clamp(0.0, 1.0)));
                }
            }
        }
        Board {
            pieces,
            inside,
            width: i32::from(view.width),
            height: i32::from(view.height),
        }
    }

    fn occupied(&self, sq: usize) -> f64 {
        self.pieces[sq].map_or(0.0, |(_, p)| p)
    }

    /// The probability that every square of `path` is empty.
    fn clear(&self, mut path: u64) -> f64 {
        let mut p = 1.0;
        while path != 0 {
            let sq = path.trailing_zeros() as usize;
            path &= path - 1;
            p *= 1.0 - self.occupied(sq);
        }
        p
    }

    /// A bonus in `0..=1` for standing near the centre of the board.
    fn centrality(&self, sq: Square) -> f64 {
        let df = (2.0 * f64::from(sq.file()) - f64::from(self.width - 1)).abs();
        let dr = (2.0 * f64::from(sq.rank()) - f64::from(self.height - 1)).abs();
        let most = f64::from(self.width + self.height - 2);
        1.0 - (df + dr) / most.max(1.0)
    }

    /// How far a pawn has come, in `0..=1` of the board's height.
    fn advance(&self, color: Color, sq: Square) -> f64 {
        let rank = match color {
            Color::White => sq.rank(),
            Color::Black => self.height - 1 - sq.rank(),
        };
        f64::from(rank - 1).max(0.0) / f64::from(self.height - 2).max(1.0)
    }
}

/// Per side: the chance it attacks each square, the value of its cheapest attacker there, and
/// its expected mobility.
struct AttackMap {
    miss: [[f64; 64]; 2],
    cheapest: [[f64; 64]; 2],
    mobility: [f64; 2],
}

impl AttackMap {
    fn build(board: &Board, weights: &Weights) -> AttackMap {
        let mut map = AttackMap {
            miss: [[1.0; 64]; 2],
            cheapest: [[f64::INFINITY; 64]; 2],
            mobility: [0.0; 2],
        };
        for (from, entry) in board.pieces.iter().enumerate() {
            let Some((piece, p)) = *entry else { continue };
            let Some(from_sq) = Square::from_index(from) else {
                continue;
            };
            let c = side(piece.color);
            let value = piece_value(piece.kind, weights);
            for (to, path) in attacks(piece, from_sq) {
                let t = to.index();
                if board.inside & (1 << t) == 0 {
                    continue;
                }
                let reach = p * board.clear(path);
                if reach <= 0.0 {
                    continue;
                }
                map.miss[c][t] *= 1.0 - reach;
                if reach > 0.05 {
                    map.cheapest[c][t] = map.cheapest[c][t].min(value);
                }
                if piece.kind != PieceKind::Pawn {
                    let own = match board.pieces[t] {
                        Some((other, q)) if other.color == piece.color => q,
                        _ => 0.0,
                    };
                    map.mobility[c] += reach * (1.0 - own);
                }
            }
        }
        map
    }

    fn attacked(&self, color: Color, sq: usize) -> f64 {
        1.0 - self.miss[side(color)][sq]
    }
}

/// The best expected gain of a capture `by` has on the board (0 if none): for each square of
/// the other side's pieces (kings aside: the king terms count them), the victim's expected value
/// times the chance `by` attacks it, less the cheapest attacker's value times the chance the
/// square is defended.
fn best_capture(board: &Board, map: &AttackMap, by: Color, weights: &Weights) -> f64 {
    let mut best = 0.0f64;
    for (sq, entry) in board.pieces.iter().enumerate() {
        let Some((piece, p)) = *entry else { continue };
        if piece.color == by || piece.kind == PieceKind::King {
            continue;
        }
        let attack = map.attacked(by, sq);
        if attack <= 0.0 {
            continue;
        }
        let cheapest = map.cheapest[side(by)][sq];
        let attacker = if cheapest.is_finite() { cheapest } else { 0.0 };
        let defended = map.attacked(piece.color, sq);
        let gain = p * attack * (piece_value(piece.kind, weights) - defended * attacker);
        best = best.max(gain);
    }
    best
}

/// The chance-weighted measure of `by` attacking the other side's king: the sum over the king's
/// squares of P(king there) x P(`by` attacks it).
fn king_attacked(board: &Board, map: &AttackMap, by: Color) -> f64 {
    board
        .pieces
        .iter()
        .enumerate()
        .filter_map(|(sq, entry)| match *entry {
            Some((piece, p)) if piece.kind == PieceKind::King && piece.color != by => {
                Some(p * map.attacked(by, sq))
            }
            _ => None,
        })
        .sum()
}

/// The value of `view` for the side to move, in pawns (see the module docs); within
/// `[-MAX_EVAL, MAX_EVAL]`.
pub fn evaluate(view: &BoardView, weights: &Weights) -> f64 {
    let board = Board::from_view(view);
    let us = view.side_to_move;
    let them = us.opponent();
    let mut score = 0.0;
    for (sq, entry) in board.pieces.iter().enumerate() {
        let Some((piece, p)) = *entry else { continue };
        let Some(square) = Square::from_index(sq) else {
            continue;
        };
        let placement = match piece.kind {
            PieceKind::Knight | PieceKind::Bishop => 0.3 * board.centrality(square),
            PieceKind::Pawn => 0.5 * board.advance(piece.color, square),
            _ => 0.0,
        };
        let worth = piece_value(piece.kind, weights) + weights.placement * placement;
        score += if piece.color == us {
            p * worth
        } else {
            -p * worth
        };
    }
    let needs_attacks = weights.king_threat != 0.0
        || weights.king_danger != 0.0
        || weights.hanging != 0.0
        || weights.threatened != 0.0
        || weights.mobility != 0.0;
    if needs_attacks {
        let map = AttackMap::build(&board, weights);
        score += weights.king * weights.king_threat * king_attacked(&board, &map, us);
        score -= weights.king * weights.king_danger * king_attacked(&board, &map, them);
        score += weights.hanging * best_capture(&board, &map, us, weights);
        score -= weights.threatened * best_capture(&board, &map, them, weights);
        score += weights.mobility * (map.mobility[side(us)] - map.mobility[side(them)]);
    }
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::ruleset::SquareView;

    fn view(pieces: &[(&str, char, f64)], side_to_move: Color) -> BoardView {
        let mut v = BoardView::new(8, 8, side_to_move);
        for &(sq, piece, probability) in pieces {
            let sq = Square::parse(sq).expect("square");
            v.squares[sq.index()] = Some(SquareView {
                piece,
                probability,
                mark: None,
            });
        }
        v
    }

    #[test]
    fn material_counts_probabilities_for_the_side_to_move() {
        let v = view(
            &[("e1", 'K', 1.0), ("e8", 'k', 1.0), ("a3", 'N', 0.5)],
            Color::White,
        );
        assert!((evaluate(&v, &Weights::MATERIAL) - 1.5).abs() < 1e-12);
        let v = view(
            &[("e1", 'K', 1.0), ("e8", 'k', 1.0), ("a3", 'N', 0.5)],
            Color::Black,
        );
        assert!((evaluate(&v, &Weights::MATERIAL) + 1.5).abs() < 1e-12);
    }

    #[test]
    fn a_half_blocked_rook_attacks_the_king_half_the_time() {
        let board = Board::from_view(&view(
            &[("a1", 'R', 1.0), ("a4", 'N', 0.5), ("a8", 'k', 1.0)],
            Color::White,
        ));
        let map = AttackMap::build(&board, &Weights::FULL);
        assert!((king_attacked(&board, &map, Color::White) - 0.5).abs() < 1e-12);
        // A split king: half of it on a8 (attacked half the time), half on h8 (not attacked).
        let board = Board::from_view(&view(
            &[("a1", 'R', 1.0), ("a8", 'k', 0.5), ("h8", 'k', 0.5)],
            Color::White,
        ));
        let map = AttackMap::build(&board, &Weights::FULL);
        assert!((king_attacked(&board, &map, Color::White) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn an_attacked_king_is_worth_more_to_the_attacker_on_move() {
        let pieces = [("a1", 'R', 1.0), ("a8", 'k', 1.0), ("h1", 'K', 1.0)];
        let white = evaluate(&view(&pieces, Color::White), &Weights::FULL);
        let black = evaluate(&view(&pieces, Color::Black), &Weights::FULL);
        assert!(
            white > 5.0 + 10.0,
            "white to move attacks the king: {white}"
        );
        assert!(-black < white, "black to move can step away: {black}");
    }

    #[test]
    fn small_boards_keep_attacks_inside() {
        let mut v = view(&[("a1", 'R', 1.0), ("a4", 'k', 1.0)], Color::White);
        v.width = 4;
        v.height = 4;
        let board = Board::from_view(&v);
        let map = AttackMap::build(&board, &Weights::FULL);
        // a1 rook reaches a2 a3 a4 b1 c1 d1 on a 4x4 board: 6 squares, the king's a4 among them.
        assert!((map.mobility[0] - 6.0).abs() < 1e-12);
    }
}
