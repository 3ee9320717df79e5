//! What to draw of a game's circuit: the whole game or one move, each move a labelled section
//! (`2. a3c3^b1`, `1... g8f6`, the set-up `set-up`), the wires of Niel's pairs named, and in a whole game the
//! set-up wires of squares no move touches left out (unless asked for). Shared by `qchess draw`,
//! the REPL's `draw` and the web page's circuit panel, so that they show the same picture.

use crate::layout::{Annotations, Section};
use qc_ir::{Circuit, Instruction, Qubit};
use qc_rules::{QuantumGame, WireLabel};
use std::collections::BTreeSet;
use std::ops::Range;

/// A move number that the game does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game has {moves} move(s); there is no move {asked}")]
pub struct NoSuchMove {
    /// The moves played.
    pub moves: usize,
    /// The move asked for.
    pub asked: usize,
}

/// The label of move `n` of `game` (1 = the first move) in chess numbering, as the game's
/// record numbers it: `2. a3c3^b1` for White's second move, `1... g8f6` for Black's first;
/// move 0 is the set-up.
fn move_label<G: QuantumGame>(game: &G, n: usize, text: &str) -> String {
    match n.checked_sub(1) {
        None => "set-up".into(),
        Some(index) => format!("{} {text}", game.move_number(index)),
    }
}

/// The circuit of move `n` of `game` (0 = the set-up), or of the whole game (`None`), with its
/// drawing annotations: every move labelled, the pairs' wires of Niel's Chess named, and for a
/// whole game without `all_wires` the set-up wires no move touches left out.
///
/// # Errors
/// [`NoSuchMove`] when `n` is past the last move.
pub fn game_drawing<G: QuantumGame>(
    game: &G,
    n: Option<usize>,
    all_wires: bool,
) -> Result<(Circuit, Annotations), NoSuchMove> {
    let moves = game.moves();
    let setup = game.move_instructions(0).unwrap_or(0..0);
    let mut sections: Vec<(Range<usize>, String)> = Vec::new();
    match n {
        None => {
            if !setup.is_empty() {
                sections.push((setup.clone(), move_label(game, 0, "")));
            }
            for (k, m) in moves.iter().enumerate() {
                sections.push((m.instructions.clone(), move_label(game, k + 1, &m.text())));
            }
        }
        Some(n) => match game.move_instructions(n) {
            Some(range) => {
                let text = n
                    .checked_sub(1)
                    .and_then(|k| moves.get(k))
                    .map(|m| m.text());
                sections.push((range, move_label(game, n, text.as_deref().unwrap_or(""))));
            }
            None => {
                return Err(NoSuchMove {
                    moves: moves.len(),
                    asked: n,
                })
            }
        },
    }
    let range = match (sections.first(), sections.last()) {
        (Some(first), Some(last)) => first.0.start..last.0.end,
        _ => 0..0,
    };
    let circuit = used_only(
        game.circuit(),
        &game.circuit().instructions()[range.clone()],
    );
    let mut notes = Annotations {
        sections: sections
            .iter()
            .map(|(r, label)| Section {
                start: r.start - range.start,
                label: label.clone(),
            })
            .collect(),
        wire_labels: game
            .wire_labels()
            .iter()
            .filter(|l| range.contains(&l.instruction))
            .map(|l| WireLabel {
                instruction: l.instruction - range.start,
                ..l.clone()
            })
            .collect(),
        ..Annotations::default()
    };
    if n.is_none() && !all_wires {
        let instructions = game.circuit().instructions();
        let moved: BTreeSet<Qubit> = instructions[setup.end..]
            .iter()
            .flat_map(|i| i.op.qubits())
            .collect();
        notes.hidden = instructions[setup]
            .iter()
            .flat_map(|i| i.op.qubits())
            .filter(|q| !moved.contains(q))
            .collect();
        if !notes.hidden.is_empty() {
            notes.note = Some(format!(
                "({} set-up wire(s) that no move touches are not drawn; --all-wires draws them)",
                notes.hidden.len()
            ));
        }
    }
    Ok((circuit, notes))
}

/// The game circuit's qubit table with only `instructions` (the drawing shows the used wires).
pub fn used_only(circuit: &Circuit, instructions: &[Instruction]) -> Circuit {
    Circuit::from_parts(
        circuit.qubit_roles().to_vec(),
        circuit.num_clbits() as u32,
        instructions.to_vec(),
    )
}
