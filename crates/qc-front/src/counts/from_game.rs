//! The exact board of a program whose header names its game (`game`: ruleset, rule options,
//! start, moves with their outcomes): the game replayed by its rules on the sparse simulator,
//! which holds only the basis states of the pieces' squares, and the board read off its final
//! state. Simulating the program's gates instead gives the same board at a far higher cost once
//! the program is lowered to a device's gates: each native gate of a lowered X or CNOT puts its
//! qubit in superposition for a moment, so the state a sparse simulator holds swells to GBs
//! where the game's never does (docs/reliability.md, "The exact board of a compiled program").

use super::estimate::unit_probability;
use super::{CountsError, ExactBoard};
use crate::{Game, GameInput, RulesKind, Session, SessionError, SessionSpec};
use qc_export::{BoardMap, HeaderGame, Holds};
use qc_ir::{AncillaKind, Choice, Circuit, Qubit, QubitRole, UnknownChoice};
use qc_rules::Square;
use qc_sim::MemoryLimit;
use std::collections::BTreeMap;

/// The most bits a board's joint distribution is read over (the simulator's marginals take at
/// most 128 qubits; a game has 64 squares and at most 32 captured pieces).
const MAX_BOARD_BITS: usize = 128;

/// Why the game a header names could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The header names a ruleset this build does not know.
    #[error("the header's game names an unknown ruleset")]
    Rules(#[source] UnknownChoice),
    /// The ruleset refused the game (its start, a move), or the replay needed more memory
    /// than the limit.
    #[error(transparent)]
    Session(Box<SessionError>),
}

/// The game `game` names, replayed on the sparse simulator within `limit` (every outcome is
/// written in, so nothing is drawn).
///
/// # Errors
/// The ruleset is unknown, or it refuses the start or a move, or the state would need more
/// than `limit`.
pub fn replay_header_game(game: &HeaderGame, limit: MemoryLimit) -> Result<Session, ReplayError> {
    let rules = RulesKind::parse_choice(&game.rules).map_err(ReplayError::Rules)?;
    let spec = SessionSpec {
        rules,
        variant: game.variant.clone(),
        ..SessionSpec::default()
    };
    let input = GameInput::Position {
        name: "the header's game",
        fen: Some(&game.fen),
        moves: Some(&game.moves)
            .filter(|m| !m.trim().is_empty())
            .map(String::as_str),
    };
    Session::open_with_limit(&spec, input, 0, limit).map_err(|e| ReplayError::Session(Box::new(e)))
}

/// The qubit of `game`'s circuit that `holds` names: a square's qubit, or the k-th kept
/// ancilla in qubit order (the order the exporter numbers captured pieces in).
pub fn qubit_of(circuit: &Circuit, holds: Holds) -> Option<Qubit> {
    let roles = circuit.qubit_roles().iter().enumerate();
    let index = match holds {
        Holds::Site(site) => roles
            .filter(|(_, r)| **r == QubitRole::Site(site))
            .map(|(q, _)| q)
            .next(),
        Holds::Kept(k) => roles
            .filter(|(_, r)| **r == QubitRole::Ancilla(AncillaKind::Kept))
            .map(|(q, _)| q)
            .nth(k),
    }?;
    u32::try_from(index).ok().map(Qubit)
}

/// The exact board of the program `map` describes, read off `game`, the game it was compiled
/// from at its end: the joint distribution of the measured squares and captured pieces (the
/// recorded outcomes are the game's, so its state is already the one they select), and each
/// square's probability. The map is checked against the game: every square or captured piece
/// it names must be one of the game's, every square it fixes must hold its value in the game,
/// and every recorded outcome must be the game's.
///
/// # Errors
/// The map does not fit the game ([`CountsError::GameMismatch`]), or the distribution would
/// not fit in the simulator's memory limit beside the state ([`CountsError::BoardTooLarge`]).
pub fn exact_board_of_game(game: &dyn Game, map: &BoardMap) -> Result<ExactBoard, CountsError> {
    let circuit = game.circuit();
    let mismatch = |what: String| CountsError::GameMismatch { what };
    if map.measured.len() > MAX_BOARD_BITS {
        return Err(mismatch(format!(
            "the map measures {} squares and captured pieces, more than a game has",
            map.measured.len()
        )));
    }
    let qubits = map
        .measured
        .iter()
        .map(|m| {
            qubit_of(circuit, m.holds).ok_or_else(|| {
                mismatch(format!(
                    "the map measures {}, which the game does not have",
                    holds_name(m.holds)
                ))
            })
        })
        .collect::<Result<Vec<Qubit>, CountsError>>()?;
    let outcomes = game.outcomes();
    for r in &map.recorded {
        let recorded = outcomes.get(r.bit).copied().flatten();
        if recorded != Some(r.value == 1) {
            return Err(mismatch(format!(
                "the map records {} for bit {}, the game {}",
                r.value,
                r.bit,
                recorded.map_or("nothing".to_string(), |v| u8::from(v).to_string())
            )));
        }
    }
    let marginal = game
        .exact_marginal(&qubits)
        .map_err(CountsError::BoardTooLarge)?;
    let mut joint: BTreeMap<Vec<bool>, f64> = BTreeMap::new();
    let mut ones = vec![0.0; qubits.len()];
    for (pattern, p) in marginal {
        let bits: Vec<bool> = (0..qubits.len()).map(|k| pattern >> k & 1 == 1).collect();
        for (one, bit) in ones.iter_mut().zip(&bits) {
            if *bit {
                *one += p;
            }
        }
        *joint.entry(bits).or_default() += p;
    }
    let mut squares = BTreeMap::new();
    for (m, p) in map.measured.iter().zip(ones) {
        if let Holds::Site(site) = m.holds {
            squares.insert(Square::from(site), unit_probability(p));
        }
    }
    for f in &map.fixed {
        let value = f64::from(f.value);
        let in_game = qubit_of(circuit, f.holds)
            .map(|q| game.exact_marginal(&[q]))
            .transpose()
            .map_err(CountsError::BoardTooLarge)?
            .map(|m| {
                m.iter()
                    .filter(|(b, _)| *b == 1)
                    .map(|(_, p)| p)
                    .sum::<f64>()
            });
        if in_game.is_some_and(|p| (p - value).abs() > FIXED_TOLERANCE) {
            return Err(mismatch(format!(
                "the map fixes {} at {}, but it is not so in the game",
                holds_name(f.holds),
                f.value
            )));
        }
        if let Holds::Site(site) = f.holds {
            squares.insert(Square::from(site), value);
        }
    }
    Ok(ExactBoard { joint, squares })
}

/// How far a fixed square's probability in the game may be from its value (rounding).
const FIXED_TOLERANCE: f64 = 1e-9;

/// `square e4`, `captured piece 2`, for messages.
fn holds_name(holds: Holds) -> String {
    match holds {
        Holds::Site(site) => format!("square {}", Square::from(site)),
        Holds::Kept(k) => format!("captured piece {k}"),
    }
}
