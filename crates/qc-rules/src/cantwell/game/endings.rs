//! The official engine's game endings beyond the paper (engine-api "Rules details"): the
//! probability-based fifty-move rule and threefold repetition, both decided by a measurement of
//! every square.
//!
//! - **Fifty moves.** A counter goes up by one per ply and returns to 0 whenever the expected
//!   piece count (the sum of the 64 occupation probabilities) differs by at least 1 from its value
//!   at the last reset. When it reaches [`FIFTY_MOVE_PLIES`], every square is measured for real
//!   (the measurements are appended to the game's circuit and run on its state).
//! - **Repetition.** A position is its register (pieces, side to move, castling rights, en passant
//!   square) and its quantum state (every basis state with its amplitude, ancillas included, up to
//!   a global phase). When the current position occurred at least twice before, the game may be
//!   claimed ([`Game::claim_with`]); the claim measures every square.
//!
//! After the measurement the game is a draw if both kings survive, otherwise the usual result
//! (a side without its king has lost, both without theirs is a draw).

use super::{occupancy_of, probabilities, Game, Position};
use crate::cantwell::board::Board;
use crate::cantwell::error::MoveError;
use crate::chess::Square;
use crate::ledger::CircuitRun;
use crate::ruleset::Status;
use qc_ir::{Backend, BackendError, Clbit, Complex64, MeasureChoice, Origin, Qubit};
use serde::{Deserialize, Serialize};

/// The fifty-move counter's limit, in plies.
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// The expected piece count must move by at least this much to reset the counter (1, less a
/// rounding margin).
const PIECE_COUNT_STEP: f64 = 1.0 - 1e-9;

/// States with more basis states than this are not kept for repetition (a position with a larger
/// state is never found repeated): the history stays within bounded memory.
pub const REPETITION_STATE_LIMIT: usize = 4096;

/// How many earlier occurrences make a position claimable.
pub const REPETITION_EARLIER: usize = 2;

/// Two amplitudes (after aligning the global phase) closer than this are equal.
const AMPLITUDE_TOLERANCE: f64 = 1e-9;

/// Why a game ended by a full measurement.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// The fifty-move counter reached [`FIFTY_MOVE_PLIES`].
    FiftyMoves,
    /// Threefold repetition was claimed.
    Repetition,
}

impl Ending {
    /// The name used in outputs (`fifty_moves`, `repetition`).
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::FiftyMoves => "fifty_moves",
            Ending::Repetition => "repetition",
        }
    }
}

/// The fifty-move counter (engine-api `fifty_count`) and the expected piece count at its last
/// reset.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FiftyMoveCounter {
    /// Plies since the last reset.
    pub plies: u32,
    /// The expected piece count at the last reset.
    pub reference: f64,
}

impl FiftyMoveCounter {
    /// Counts one ply that left `expected_pieces` pieces on the board (in expectation).
    fn count_ply(&mut self, expected_pieces: f64) {
        if (expected_pieces - self.reference).abs() >= PIECE_COUNT_STEP {
            self.plies = 0;
            self.reference = expected_pieces;
        } else {
            self.plies += 1;
        }
    }
}

/// What a full measurement found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FullMeasurement {
    /// Why every square was measured.
    pub ending: Ending,
    /// The measured occupancy (bit k = square k).
    pub bitboard: u64,
}

/// A position for repetition: the register without counters, and the state when small enough.
#[derive(Clone, Debug)]
pub(super) struct PositionKey {
    board: Board,
    state: Option<Vec<(Vec<Qubit>, Complex64)>>,
}

impl PositionKey {
    fn of<B: Backend>(board: &Board, backend: &B) -> PositionKey {
        let board = Board {
            halfmove_clock: 0,
            fullmove_number: 0,
            ..board.clone()
        };
        let state =
            (backend.state_size() <= REPETITION_STATE_LIMIT).then(|| backend.basis_states());
        PositionKey { board, state }
    }

    /// Same register, and the same basis states with the same amplitudes up to a global phase.
    fn same(&self, other: &PositionKey) -> bool {
        let (Some(a), Some(b)) = (&self.state, &other.state) else {
            return false;
        };
        if self.board != other.board || a.len() != b.len() {
            return false;
        }
        let Some(((_, a0), (_, b0))) = a.first().zip(b.first()) else {
            return true;
        };
        let phase = b0 / a0;
        let phase = phase / phase.norm();
        a.iter()
            .zip(b)
            .all(|((qa, xa), (qb, xb))| qa == qb && (xa * phase - xb).norm() < AMPLITUDE_TOLERANCE)
    }
}

/// The endings' bookkeeping of a game.
#[derive(Clone, Debug)]
pub(super) struct Endings {
    pub(super) fifty: FiftyMoveCounter,
    /// Every position so far, the start first.
    pub(super) positions: Vec<PositionKey>,
    /// The full measurement that ended the game, if any.
    pub(super) ended: Option<FullMeasurement>,
    /// Post-selects the next full measurement (a bitboard), else it is sampled.
    pub(super) forced_board: Option<u64>,
}

/// What undo must restore of [`Endings`].
#[derive(Clone, Debug)]
pub(super) struct EndingsMark {
    fifty: FiftyMoveCounter,
    positions: usize,
    ended: Option<FullMeasurement>,
}

impl Endings {
    /// The bookkeeping at the start: the counter starts at the FEN halfmove clock.
    pub(super) fn start<B: Backend>(board: &Board, backend: &B, expected_pieces: f64) -> Endings {
        Endings {
            fifty: FiftyMoveCounter {
                plies: board.halfmove_clock,
                reference: expected_pieces,
            },
            positions: vec![PositionKey::of(board, backend)],
            ended: None,
            forced_board: None,
        }
    }

    pub(super) fn mark(&self) -> EndingsMark {
        EndingsMark {
            fifty: self.fifty,
            positions: self.positions.len(),
            ended: self.ended.clone(),
        }
    }

    pub(super) fn restore(&mut self, mark: EndingsMark) {
        self.fifty = mark.fifty;
        self.positions.truncate(mark.positions);
        self.ended = mark.ended;
    }
}

impl<B: Backend> Game<B> {
    /// The sum of the 64 occupation probabilities.
    pub fn expected_piece_count(&self) -> f64 {
        self.probabilities().iter().sum()
    }

    /// The fifty-move counter (engine-api `fifty_count`).
    pub fn fifty_move_counter(&self) -> FiftyMoveCounter {
        self.position().endings.fifty
    }

    /// How many times the current position occurred before (see the module docs).
    pub fn repetitions(&self) -> usize {
        self.position().endings.repetitions()
    }

    /// What could be claimed now: [`Ending::Repetition`] when the current position occurred
    /// twice before and the game goes on.
    pub fn claimable(&self) -> Option<Ending> {
        (!self.position().status.is_over() && self.repetitions() >= REPETITION_EARLIER)
            .then_some(Ending::Repetition)
    }

    /// The full measurement that ended the game, if the game ended by one.
    pub fn full_measurement(&self) -> Option<&FullMeasurement> {
        self.position().endings.ended.as_ref()
    }

    /// Post-selects the next full measurement (fifty moves or a claim) to `bitboard` (bit k =
    /// square k); `None`: sample it. An impossible bitboard makes that move or claim fail.
    pub fn set_forced_board(&mut self, bitboard: Option<u64>) {
        self.ledger.parts_mut().1.endings.forced_board = bitboard;
    }

    /// Claims the threefold repetition: measures every square (sampled with `uniform`, or the
    /// forced bitboard) and ends the game (see the module docs). Not a move: the moves do not
    /// grow. On error nothing changes.
    ///
    /// # Errors
    /// [`MoveError::NothingToClaim`] when the position has not occurred twice before or the game
    /// is over; an impossible forced bitboard; a backend failure.
    pub fn claim_with(
        &mut self,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<&FullMeasurement, MoveError> {
        if self.claimable().is_none() {
            return Err(MoveError::NothingToClaim {
                repetitions: self.repetitions(),
            });
        }
        self.ledger.amend(|turn| {
            measure_every_square(turn.run, turn.state, turn.ply, Ending::Repetition, uniform)
        })?;
        self.full_measurement().ok_or(MoveError::NothingToUndo)
    }
}

impl Endings {
    /// How many times the last position occurred before it.
    fn repetitions(&self) -> usize {
        let Some((now, earlier)) = self.positions.split_last() else {
            return 0;
        };
        earlier.iter().filter(|p| p.same(now)).count()
    }
}

/// Counts the ply just played on `run` (the `ply`-th before it); at [`FIFTY_MOVE_PLIES`]
/// measures every square. Then records the position for repetition.
pub(super) fn after_ply<B: Backend>(
    run: &mut CircuitRun<B>,
    position: &mut Position,
    ply: usize,
    uniform: &mut dyn FnMut() -> f64,
) -> Result<(), MoveError> {
    let expected = probabilities(run.backend()).iter().sum();
    position.endings.fifty.count_ply(expected);
    if !position.status.is_over() && position.endings.fifty.plies >= FIFTY_MOVE_PLIES {
        measure_every_square(run, position, ply, Ending::FiftyMoves, uniform)?;
    }
    let key = PositionKey::of(&position.board, run.backend());
    position.endings.positions.push(key);
    Ok(())
}

/// Appends a measurement of all 64 squares to the circuit (as part of move `ply + 1`), runs
/// it, clears the squares found empty and decides the result.
fn measure_every_square<B: Backend>(
    run: &mut CircuitRun<B>,
    position: &mut Position,
    ply: usize,
    ending: Ending,
    uniform: &mut dyn FnMut() -> f64,
) -> Result<(), MoveError> {
    let builder = run.builder();
    builder.set_origin(Some(Origin::new(ply as u32 + 1, ending.as_str())));
    let clbits: Vec<Clbit> = Square::ALL
        .iter()
        .map(|&sq| {
            let q = builder.site(sq.site());
            builder.measure(q)
        })
        .collect();
    builder.set_origin(None);
    let forced = position.endings.forced_board.take();
    let mut next = 0usize;
    let mut policy = |_: Option<Clbit>| {
        let square = next;
        next += 1;
        match forced {
            Some(board) => MeasureChoice::Forced(board >> square & 1 == 1),
            None => MeasureChoice::Random(uniform()),
        }
    };
    run.run_pending(&mut policy)
        .map_err(|e| match (&e.source, forced) {
            (BackendError::ImpossibleOutcome { .. }, Some(bitboard)) => {
                MoveError::ImpossibleBoard { bitboard }
            }
            _ => MoveError::Backend(e),
        })?;
    let mut bitboard = 0u64;
    for (k, clbit) in clbits.iter().enumerate() {
        if run.record().get(*clbit).unwrap_or(false) {
            bitboard |= 1 << k;
        }
    }
    position.clear_empty(&occupancy_of(run.backend()));
    position.endings.ended = Some(FullMeasurement { ending, bitboard });
    position.status = position.compute_status();
    if !position.status.is_over() && !position.force_win {
        position.status = Status::Draw(position.measured_draw());
    }
    Ok(())
}
