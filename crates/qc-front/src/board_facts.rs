//! What a game knows beyond its circuit, handed to the exporter for the board map: the piece on
//! each square, the colour of each captured piece and the final probabilities (from which the
//! totals of conserved quantities follow). Written once over the ruleset interface.

use qc_export::{BoardFacts, Holds};
use qc_ir::{AncillaKind, Backend, Op, QubitRole, Square};
use qc_rules::{Color, QuantumGame};

/// The facts of `game` at its end. The pieces and square probabilities come from the game's
/// board view; the interface has no probability for a captured-piece ancilla, so those are read
/// from `backend`, the simulator the game was played on (its state is the game's final state).
pub fn board_facts<G: QuantumGame, B: Backend>(game: &G, backend: &B) -> BoardFacts {
    let mut facts = BoardFacts::default();
    let view = game.board_view(false);
    for sq in Square::ALL {
        let content = view.get(sq);
        if let Some(s) = content {
            facts.pieces.insert(sq, s.piece);
        }
        facts
            .probability
            .insert(Holds::Square(sq), content.map_or(0.0, |s| s.probability));
    }
    let circuit = game.circuit();
    let captured = circuit
        .qubit_roles()
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == QubitRole::Ancilla(AncillaKind::Captured))
        .map(|(q, _)| qc_ir::Qubit(q as u32));
    let moves = game.moves().len();
    for (k, qubit) in captured.enumerate() {
        facts
            .probability
            .insert(Holds::Captured(k), backend.probability_one(qubit));
        let move_index = circuit.instructions().iter().find_map(|i| match i.op {
            Op::Alloc { qubit: q } if q == qubit => i.origin.as_ref().map(|o| o.move_index),
            _ => None,
        });
        if let Some(white) =
            move_index.and_then(|m| captured_is_white(moves, game.side_to_move(), m as usize))
        {
            facts.captured_white.insert(k, white);
        }
    }
    facts
}

/// The colour of the piece captured by move `move_index` (1-based) of `moves`: the opposite of
/// its mover. Sides alternate, and after the last move the side to move is the opposite of the
/// last mover, so move `i` of `n` was made by the side to move at the end when `n - i` is odd.
fn captured_is_white(moves: usize, side_to_move: Color, move_index: usize) -> Option<bool> {
    let after = moves.checked_sub(move_index)?;
    let mover_is_side_to_move = after % 2 == 1;
    let side_to_move_white = side_to_move == Color::White;
    let mover_white = side_to_move_white == mover_is_side_to_move;
    Some(!mover_white)
}
