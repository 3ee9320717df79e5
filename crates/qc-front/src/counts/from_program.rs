//! A device's counts of a compiled program back into a board: read the program's board map,
//! the counts and the calibration, estimate the board with the mitigations asked for, and
//! optionally compare with the exact board. The steps are the other modules'; this is their
//! order, shared by `qchess counts`, the Python `qchess.counts` and the page's counts.
//!
//! The exact board comes from the game the program's header names, replayed by its rules
//! ([`super::from_game`]), or from the game itself when the caller holds it (a server's game:
//! [`board_from_counts_of`]); only a program whose header names no game is simulated gate by
//! gate, within the request's memory limit.

use super::{
    estimate_board, exact_board, exact_board_of_game, parse_counts, replay_header_game,
    BoardEstimate, Calibration, CountsError, CountsFormat, ExactBoard, Mitigation, ReplayError,
};
use crate::Game;
use qc_export::{ImportError, MapError, ProgramHeader};
use qc_sim::MemoryLimit;

/// What to do with the counts.
#[derive(Clone, Debug, Default)]
pub struct CountsRequest<'a> {
    /// How the counts are written (`None`: detected).
    pub format: Option<CountsFormat>,
    /// The mitigations.
    pub mitigation: Mitigation,
    /// The readout calibration's text, needed by readout mitigation.
    pub calibration: Option<&'a str>,
    /// Also compute the exact board and report it and the distance to it.
    pub exact: bool,
    /// The memory the exact board may take: the replayed game's simulator, or the simulator of
    /// a program whose header names no game.
    pub memory: MemoryLimit,
}

/// Which input was wrong, and how.
#[derive(Debug, thiserror::Error)]
pub enum CountsStepError {
    /// The program has no readable board map (it was not written by `qchess compile`).
    #[error("cannot read the board map")]
    Map(#[source] MapError),
    /// The counts do not parse or do not fit the program.
    #[error(transparent)]
    Counts(CountsError),
    /// The calibration does not parse, or does not cover a measured qubit.
    #[error(transparent)]
    Calibration(CountsError),
    /// Readout mitigation was asked for without a calibration (a problem of the request, not
    /// of a file).
    #[error("--mitigate readout needs --calibration FILE")]
    MissingCalibration,
    /// The game the program's header names cannot be replayed for the exact board.
    #[error("cannot replay the game the header names")]
    Replay(#[source] ReplayError),
    /// The program cannot be imported for the exact board.
    #[error("cannot import")]
    Import(#[source] ImportError),
    /// The program cannot be simulated for the exact board.
    #[error("cannot simulate")]
    Simulate(#[source] qc_ir::ExecError),
    /// The exact board cannot be formed (the recorded outcomes are impossible).
    #[error(transparent)]
    Exact(CountsError),
}

/// The board estimated from `counts` (the text of a counts file) of `program` (the text
/// `qchess compile` wrote); the exact board, when asked for, from the game the header names
/// (replayed within `request.memory`), else from the program's gates.
pub fn board_from_counts(
    program: &str,
    counts: &str,
    request: &CountsRequest<'_>,
) -> Result<BoardEstimate, CountsStepError> {
    estimate(program, counts, request, |header| match &header.game {
        Some(game) => {
            let session =
                replay_header_game(game, request.memory).map_err(CountsStepError::Replay)?;
            exact_board_of_game(&*session, &header.map).map_err(CountsStepError::Exact)
        }
        None => simulated_board(program, header, request.memory),
    })
}

/// [`board_from_counts`] for a caller that holds `game`, the game `program` was compiled from,
/// at the end the program ends at (a server's game): the exact board is read off its state,
/// with neither a replay nor a simulation.
pub fn board_from_counts_of(
    game: &dyn Game,
    program: &str,
    counts: &str,
    request: &CountsRequest<'_>,
) -> Result<BoardEstimate, CountsStepError> {
    estimate(program, counts, request, |header| {
        exact_board_of_game(game, &header.map).map_err(CountsStepError::Exact)
    })
}

/// The exact board of `program` simulated gate by gate on the sparse simulator within
/// `memory`: for a program whose header names no game.
fn simulated_board(
    program: &str,
    header: &ProgramHeader,
    memory: MemoryLimit,
) -> Result<ExactBoard, CountsStepError> {
    let circuit = qc_export::import_qasm(program).map_err(CountsStepError::Import)?;
    let dist =
        qc_ir::exec::exact_distribution(&mut qc_sim::SparseSim::with_limit(memory), &circuit)
            .map_err(CountsStepError::Simulate)?;
    exact_board(&header.map, &dist).map_err(CountsStepError::Exact)
}

/// The steps in their order, the exact board (when asked for) from `exact`.
fn estimate(
    program: &str,
    counts: &str,
    request: &CountsRequest<'_>,
    exact: impl FnOnce(&ProgramHeader) -> Result<ExactBoard, CountsStepError>,
) -> Result<BoardEstimate, CountsStepError> {
    let header = qc_export::parse_header(program).map_err(CountsStepError::Map)?;
    let map = &header.map;
    let counts =
        parse_counts(counts, request.format, map.clbits).map_err(CountsStepError::Counts)?;
    if request.mitigation.readout && request.calibration.is_none() {
        return Err(CountsStepError::MissingCalibration);
    }
    let calibration = request
        .calibration
        .map(Calibration::parse)
        .transpose()
        .map_err(CountsStepError::Calibration)?;
    let mut estimate = estimate_board(map, &counts, &request.mitigation, calibration.as_ref())
        .map_err(|e| match e {
            // The counts are fine; the calibration misses a qubit they measure.
            CountsError::QubitNotCalibrated { .. } => CountsStepError::Calibration(e),
            CountsError::MissingCalibration => CountsStepError::MissingCalibration,
            e => CountsStepError::Counts(e),
        })?;
    if request.exact {
        let exact = exact(&header)?;
        estimate.compare(map, &counts, &request.mitigation, &exact);
    }
    Ok(estimate)
}
