//! A device's counts of a compiled program back into a board: read the program's board map,
//! the counts and the calibration, estimate the board with the mitigations asked for, and
//! optionally compare with the exact board. The steps are the other modules'; this is their
//! order, shared by `qchess counts` and the Python `qchess.counts`.

use super::{
    estimate_board, exact_board, parse_counts, BoardEstimate, Calibration, CountsError,
    CountsFormat, Mitigation,
};
use qc_export::{ImportError, MapError};

/// What to do with the counts.
#[derive(Clone, Debug, Default)]
pub struct CountsRequest<'a> {
    /// How the counts are written (`None`: detected).
    pub format: Option<CountsFormat>,
    /// The mitigations.
    pub mitigation: Mitigation,
    /// The readout calibration's text, needed by readout mitigation.
    pub calibration: Option<&'a str>,
    /// Also simulate the program exactly and report the exact board and the distance to it.
    pub exact: bool,
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
/// `qchess compile` wrote).
pub fn board_from_counts(
    program: &str,
    counts: &str,
    request: &CountsRequest<'_>,
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
        let circuit = qc_export::import_qasm(program).map_err(CountsStepError::Import)?;
        let dist = qc_ir::exec::exact_distribution(&mut qc_sim::SparseSim::new(), &circuit)
            .map_err(CountsStepError::Simulate)?;
        let exact = exact_board(map, &dist).map_err(CountsStepError::Exact)?;
        estimate.compare(map, &counts, &request.mitigation, &exact);
    }
    Ok(estimate)
}
