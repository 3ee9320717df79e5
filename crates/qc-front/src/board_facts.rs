//! What a game knows beyond its circuit, added to the board map of its exported program: the
//! piece on each square, the colour of each captured piece and the final probabilities (from
//! which the totals of conserved quantities follow). Gathered once over the ruleset interface
//! ([`board_facts`]) and written into the map by [`annotate`].

use qc_export::header::{BoardMap, Conserved, HeaderGame, Holds, MeasuredBit};
use qc_export::Export;
use qc_ir::{AncillaKind, Backend, Op, QubitRole};
use qc_rules::Square;
use qc_rules::{Color, QuantumGame};
use std::collections::BTreeMap;

/// What the caller knows about the game beyond the circuit: which piece stands on each square,
/// the colour of each captured piece, and the probability of each square and captured ancilla
/// reading 1 (from the game's simulation, used to find the totals of conserved quantities).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BoardFacts {
    /// FEN letter of the piece on each square (in every branch where the square is occupied).
    pub pieces: BTreeMap<Square, char>,
    /// `true` for white: the colour of the piece the k-th captured ancilla holds.
    pub captured_white: BTreeMap<usize, bool>,
    /// P(1) of every square and captured ancilla at the end of the game.
    pub probability: BTreeMap<Holds, f64>,
    /// The game itself (ruleset, start, moves with their outcomes), for the program's header.
    pub game: Option<HeaderGame>,
}

/// How far a conserved quantity's expectation may lie from an integer (rounding of the
/// simulator's probabilities); farther means it is not conserved and is not used.
const INTEGER_TOLERANCE: f64 = 1e-6;

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
        facts.probability.insert(
            Holds::Site(sq.site()),
            content.map_or(0.0, |s| s.probability),
        );
    }
    let circuit = game.circuit();
    let captured = circuit
        .qubit_roles()
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == QubitRole::Ancilla(AncillaKind::Kept))
        .map(|(q, _)| qc_ir::Qubit(q as u32));
    let moves = game.moves().len();
    for (k, qubit) in captured.enumerate() {
        facts
            .probability
            .insert(Holds::Kept(k), backend.probability_one(qubit));
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

/// Writes `facts` into `export`: its map annotated ([`annotate`]) and the game named in its
/// header when `facts` has it.
pub fn annotate_export(export: &mut Export, facts: &BoardFacts) {
    let mut map = export.map().clone();
    annotate(&mut map, facts);
    export.set_map(map);
    if let Some(game) = &facts.game {
        export.set_game(game.clone());
    }
}

/// Fills in the pieces of `map` and its conserved quantities from `facts`: `pieces` (every measured bit),
/// per colour (`white`, `black`) when every measured captured ancilla has a known colour, and
/// `empty` (the squares with no piece). A quantity is kept only when its expectation
/// under `facts.probability` is an integer: each shot of an error-free run then has that
/// integer as its sum, because every Quantum Chess move maps a basis state to basis states
/// with the same number of pieces of each colour (see docs/hardware.md).
pub fn annotate(map: &mut BoardMap, facts: &BoardFacts) {
    let piece_of = |holds: Holds| -> Option<String> {
        match holds {
            Holds::Site(site) => facts.pieces.get(&Square::from(site)).map(char::to_string),
            Holds::Kept(k) => facts
                .captured_white
                .get(&k)
                .map(|w| if *w { "w" } else { "b" }.to_string()),
        }
    };
    for m in &mut map.measured {
        m.piece = piece_of(m.holds);
    }
    for f in &mut map.fixed {
        f.piece = piece_of(f.holds);
    }
    map.conserved.clear();
    // Colour of a measured bit: a square's piece letter (upper case = white), a captured
    // ancilla's recorded colour; `None` for a square with no piece (it must read 0).
    let white_of = |m: &MeasuredBit| -> Option<bool> {
        let piece = m.piece.as_deref()?;
        match m.holds {
            Holds::Site(_) => piece.chars().next().map(|c| c.is_ascii_uppercase()),
            Holds::Kept(_) => Some(piece == "w"),
        }
    };
    let mut groups: Vec<(&str, Vec<&MeasuredBit>)> =
        vec![("pieces", map.measured.iter().collect())];
    let colours_known = map
        .measured
        .iter()
        .all(|m| matches!(m.holds, Holds::Site(_)) || m.piece.is_some());
    if colours_known {
        for (name, white) in [("white", true), ("black", false)] {
            let bits = map
                .measured
                .iter()
                .filter(|m| white_of(m) == Some(white))
                .collect();
            groups.push((name, bits));
        }
    }
    let empty = map
        .measured
        .iter()
        .filter(|m| matches!(m.holds, Holds::Site(_)) && m.piece.is_none())
        .collect();
    groups.push(("empty", empty));
    for (name, bits) in groups {
        if bits.is_empty() {
            continue;
        }
        let Some(sum) = bits
            .iter()
            .map(|m| facts.probability.get(&m.holds).copied())
            .sum::<Option<f64>>()
        else {
            continue;
        };
        let total = sum.round();
        if (sum - total).abs() <= INTEGER_TOLERANCE && total >= 0.0 {
            map.conserved.push(Conserved {
                name: name.to_string(),
                bits: bits.iter().map(|m| m.bit).collect(),
                total: total as usize,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    fn site(s: &str) -> qc_ir::Site {
        sq(s).site()
    }

    #[test]
    fn annotate_finds_conserved_totals_and_skips_non_integers() {
        let mut map = BoardMap {
            clbits: 3,
            measured: vec![
                MeasuredBit {
                    bit: 0,
                    qubit: 0,
                    holds: Holds::Site(site("a3")),
                    piece: None,
                },
                MeasuredBit {
                    bit: 1,
                    qubit: 1,
                    holds: Holds::Site(site("c3")),
                    piece: None,
                },
                MeasuredBit {
                    bit: 2,
                    qubit: 2,
                    holds: Holds::Site(site("f6")),
                    piece: None,
                },
            ],
            ..BoardMap::default()
        };
        let facts = BoardFacts {
            pieces: [(sq("a3"), 'N'), (sq("c3"), 'N'), (sq("f6"), 'n')].into(),
            captured_white: BTreeMap::new(),
            // A split knight (1/2 + 1/2) and a black knight at 0.7 (not conserved on its own:
            // such a board cannot come from a game, so the black group is dropped).
            probability: [
                (Holds::Site(site("a3")), 0.5),
                (Holds::Site(site("c3")), 0.5),
                (Holds::Site(site("f6")), 0.7),
            ]
            .into(),
            game: None,
        };
        annotate(&mut map, &facts);
        let names: Vec<(&str, usize, &[usize])> = map
            .conserved
            .iter()
            .map(|c| (c.name.as_str(), c.total, c.bits.as_slice()))
            .collect();
        assert_eq!(names, vec![("white", 1, &[0usize, 1][..])]);
        assert_eq!(map.measured[2].piece.as_deref(), Some("n"));
    }
}
