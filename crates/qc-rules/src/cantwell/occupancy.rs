//! What the quantum state says about each square: certainly empty, certainly occupied, or in
//! superposition, read from the exact support of the state (decision 11: amplitudes below
//! `AMPLITUDE_EPSILON` are already pruned by the backend, so "no basis state has it" is exact).

use crate::chess::Square;
use qc_ir::{Backend, Qubit};

/// The occupancy of one square over the support of the state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SquareStatus {
    /// No basis state has the square occupied.
    Empty,
    /// Every basis state has the square occupied.
    Occupied,
    /// Some basis states have it occupied, some do not.
    Superposed,
}

impl SquareStatus {
    /// The value of the square's qubit when it is the same in every basis state.
    pub const fn known(self) -> Option<bool> {
        match self {
            SquareStatus::Empty => Some(false),
            SquareStatus::Occupied => Some(true),
            SquareStatus::Superposed => None,
        }
    }
}

/// The status of all 64 squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Occupancy {
    squares: [SquareStatus; 64],
}

impl Occupancy {
    /// Every square empty.
    pub fn empty() -> Occupancy {
        Occupancy {
            squares: [SquareStatus::Empty; 64],
        }
    }

    /// From explicit statuses (for tests and callers that know them).
    pub fn from_statuses(squares: [SquareStatus; 64]) -> Occupancy {
        Occupancy { squares }
    }

    /// Reads the support of `backend`, where square `s` is qubit `square_qubit(s)` (`None`: the
    /// square has no qubit and is empty). One [`Backend::constant_values`] call answers every
    /// square: the sparse simulator reads it off the OR and AND of its keys in one pass, where
    /// listing the basis states would build and sort a list of qubits per state.
    pub fn from_backend<B: Backend + ?Sized>(
        backend: &B,
        square_qubit: impl Fn(Square) -> Option<Qubit>,
    ) -> Occupancy {
        let named: Vec<(Square, Qubit)> = Square::ALL
            .iter()
            .filter_map(|&sq| square_qubit(sq).map(|q| (sq, q)))
            .collect();
        let qubits: Vec<Qubit> = named.iter().map(|&(_, q)| q).collect();
        let mut squares = [SquareStatus::Empty; 64];
        for (&(sq, _), value) in named.iter().zip(backend.constant_values(&qubits)) {
            squares[sq.index()] = match value {
                Some(false) => SquareStatus::Empty,
                Some(true) => SquareStatus::Occupied,
                None => SquareStatus::Superposed,
            };
        }
        Occupancy { squares }
    }

    /// The status of `square`.
    pub fn get(&self, square: Square) -> SquareStatus {
        self.squares[square.index()]
    }

    /// Sets the status of `square`.
    pub fn set(&mut self, square: Square, status: SquareStatus) {
        self.squares[square.index()] = status;
    }
}
