//! What a Quantum Chess game knows beyond its circuit, handed to the exporter for the board map:
//! the piece on each square, the colour of each captured piece and the final probabilities (from
//! which the totals of conserved quantities follow).

use qc_export::{BoardFacts, Holds};
use qc_ir::{AncillaKind, Backend, Op, QubitRole, Square};
use qc_rules::{Color, Game};

/// The facts of `game` at its end.
pub fn board_facts<B: Backend>(game: &Game<B>) -> BoardFacts {
    let mut facts = BoardFacts::default();
    for sq in Square::ALL {
        if let Some(piece) = game.board().piece(sq) {
            facts.pieces.insert(sq, piece.fen_char());
        }
        facts
            .probability
            .insert(Holds::Square(sq), game.probability(sq));
    }
    let circuit = game.circuit();
    let captured = circuit
        .qubit_roles()
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == QubitRole::Ancilla(AncillaKind::Captured))
        .map(|(q, _)| qc_ir::Qubit(q as u32));
    for (k, qubit) in captured.enumerate() {
        facts
            .probability
            .insert(Holds::Captured(k), game.backend().probability_one(qubit));
        let move_index = circuit.instructions().iter().find_map(|i| match i.op {
            Op::Alloc { qubit: q } if q == qubit => i.origin.as_ref().map(|o| o.move_index),
            _ => None,
        });
        if let Some(white) = move_index.and_then(|m| captured_is_white(game, m as usize)) {
            facts.captured_white.insert(k, white);
        }
    }
    facts
}

/// The colour of the piece captured by move `move_index` (1-based): the opposite of its mover.
/// Sides alternate, and after the last move the side to move is the opposite of the last mover,
/// so move `i` of `n` was made by the side to move at the end when `n - i` is odd.
fn captured_is_white<B: Backend>(game: &Game<B>, move_index: usize) -> Option<bool> {
    let n = game.history().len();
    let after = n.checked_sub(move_index)?;
    let mover_is_side_to_move = after % 2 == 1;
    let side_to_move_white = game.board().side_to_move == Color::White;
    let mover_white = side_to_move_white == mover_is_side_to_move;
    Some(!mover_white)
}
