//! A device's counts back into a board: parsing ([`parse_counts`]), error mitigation and the
//! board estimate ([`estimate_board`]), the exact board of a program ([`exact_board`]), the
//! readout calibration format ([`Calibration`]), and the steps in their order from a program's
//! text ([`board_from_counts`]). The CLI (`qchess counts`) and the Python package call this
//! module; they only read files and print. docs/hardware.md describes the formats and the
//! argument behind each mitigation.

mod calibration;
mod estimate;
mod from_game;
mod from_program;
mod histogram;
mod json;
mod parse;

pub use calibration::{Calibration, CalibrationProblem, ReadoutError};
pub use estimate::{
    estimate_board, exact_board, total_variation, BoardEstimate, ExactBoard, SquareEstimate,
    NO_BOARD,
};
pub use from_game::{exact_board_of_game, qubit_of, replay_header_game, ReplayError};
pub use from_program::{board_from_counts, board_from_counts_of, CountsRequest, CountsStepError};
pub use histogram::{histogram_from_counts, BitMarginal, Histogram, HistogramError, Outcome};
pub use parse::{parse_counts, KeyProblem};

use qc_ir::UnknownChoice;
use std::collections::BTreeMap;

/// The counts files read, for error messages.
const COUNTS_FORMATS: &str = "Qiskit get_counts() JSON ({\"0101\": 12, ...}), Braket measurement_counts JSON (plain or as {\"measurement_counts\": {...}}), `qchess run --shots N --json` output ({\"counts\": {...}}) or CSV lines bits,count";

/// Shots per outcome of a program's bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Width of the program's `c`.
    pub width: usize,
    /// Shots per bit string, indexed by bit (`c[i]` at index `i`).
    pub outcomes: BTreeMap<Vec<bool>, u64>,
    total: u64,
}

/// How a counts file writes its bit strings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CountsFormat {
    /// Qiskit `get_counts()` JSON: `c[0]` rightmost, registers separated by spaces.
    Qiskit,
    /// Braket `measurement_counts` JSON: bit 0 leftmost.
    Braket,
    /// CSV lines `bits,count` (optional header `bits,count`), bits in Qiskit order.
    Csv,
}

// The format's words, in one table (parsing, printing and `--help` read it).
qc_ir::choice!(CountsFormat, "counts format", [
    "qiskit" => CountsFormat::Qiskit, "Qiskit get_counts() JSON",
    "braket" => CountsFormat::Braket, "Braket measurement_counts JSON",
    "csv" => CountsFormat::Csv, "CSV lines bits,count",
]);

/// Which mitigations to apply (`--mitigate postselect,symmetry,readout`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mitigation {
    /// Drop shots whose recorded-outcome bits differ from the game's.
    pub postselect: bool,
    /// Drop shots that break a conserved quantity or read 1 on an ancilla returned to |0>.
    pub symmetry: bool,
    /// Correct the square marginals for per-qubit readout errors (needs a [`Calibration`]).
    pub readout: bool,
}

impl Default for Mitigation {
    /// `postselect,symmetry`.
    fn default() -> Self {
        Mitigation {
            postselect: true,
            symmetry: true,
            readout: false,
        }
    }
}

impl std::str::FromStr for Mitigation {
    type Err = UnknownChoice;
    /// A comma-separated list of `postselect`, `symmetry`, `readout`; `none` for no mitigation.
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        let mut m = Mitigation {
            postselect: false,
            symmetry: false,
            readout: false,
        };
        for item in s.split(',').map(str::trim) {
            match item {
                "postselect" => m.postselect = true,
                "symmetry" => m.symmetry = true,
                "readout" => m.readout = true,
                "none" => {}
                other => {
                    return Err(UnknownChoice {
                        what: "mitigation",
                        given: other.to_string(),
                        expected: vec!["postselect", "symmetry", "readout", "none"],
                        list: true,
                    })
                }
            }
        }
        Ok(m)
    }
}

/// Why counts could not be read or turned into a board.
#[derive(Debug, thiserror::Error)]
pub enum CountsError {
    /// Malformed JSON.
    #[error("line {line}, column {column}: not valid JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// JSON that is not an object of bit strings.
    #[error("expected a JSON object of bit strings and counts: {COUNTS_FORMATS}")]
    NotAnObject,
    /// A member whose value is an object where a count was expected: not a counts file.
    #[error("{}member {member:?} holds an object, not a count: expected {COUNTS_FORMATS}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    NotCounts {
        /// The member's name.
        member: String,
        /// 1-based line, when known.
        line: Option<usize>,
    },
    /// `qchess run --json` output without `--shots`: probabilities, not shots.
    #[error("this is `qchess run --json` output without --shots (probabilities, not counts): run with --shots N for counts, or use --exact for the exact board")]
    Probabilities,
    /// A bit string that does not fit the program.
    #[error("{}bit string {key:?}: {reason}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    BadKey {
        /// The bit string.
        key: String,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong.
        reason: KeyProblem,
    },
    /// A count that is not a whole non-negative number.
    #[error("{}bit string {key:?}: count {value} is not a whole non-negative number", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    BadCount {
        /// The bit string.
        key: String,
        /// 1-based line, when known.
        line: Option<usize>,
        /// The count as written.
        value: String,
    },
    /// A CSV line that is not `bits,count`.
    #[error("line {line}: expected `bits,count`")]
    CsvLine {
        /// 1-based line.
        line: usize,
    },
    /// The counts add up to zero shots.
    #[error("the counts hold zero shots")]
    ZeroShots,
    /// The shot total does not fit in 64 bits.
    #[error("the counts add up to more than 2^64 shots")]
    TooManyShots,
    /// Qiskit and Braket order cannot be told apart.
    #[error("cannot tell Qiskit order (c[0] rightmost) from Braket order (c[0] leftmost): pass --counts-format qiskit or --counts-format braket")]
    Ambiguous,
    /// A member beside Braket's `measurement_counts` that is not one of Braket's result
    /// members (the file may not be what it seems).
    #[error("member {name:?} does not belong beside Braket's `measurement_counts` (expected only Braket's result members)")]
    StrayMember {
        /// The member's name.
        name: String,
    },
    /// `measurement_counts` written twice.
    #[error("member {name:?} is written twice")]
    RepeatedMember {
        /// The member's name.
        name: String,
    },
    /// `--counts-format qiskit` for a file that wraps its counts in Braket's
    /// `measurement_counts`.
    #[error("--counts-format qiskit: the file has Braket's `measurement_counts`")]
    BraketFileAsQiskit,
    /// The counts' width differs from the program's.
    #[error("the counts have {found} bit(s) per shot, but the program has {expected}")]
    WidthMismatch {
        /// Width of the counts.
        found: usize,
        /// Width of the program's `c`.
        expected: usize,
    },
    /// Every shot was discarded.
    #[error("every one of the {shots} shot(s) was discarded ({reasons}): no board to estimate")]
    NothingKept {
        /// Shots read.
        shots: u64,
        /// Discards by reason, as text.
        reasons: String,
    },
    /// Readout mitigation without a calibration.
    #[error("--mitigate readout needs --calibration FILE")]
    MissingCalibration,
    /// The calibration has no entry for a measured qubit.
    #[error("the calibration has no entry for qubit {qubit} (it reads bit {bit})")]
    QubitNotCalibrated {
        /// Index into the program's `q`.
        qubit: usize,
        /// The bit it writes.
        bit: usize,
    },
    /// A calibration that cannot be used.
    #[error("calibration: {0}")]
    Calibration(CalibrationProblem),
    /// The exact distribution gives the recorded outcomes probability 0.
    #[error("the exact distribution of the program never produces the recorded outcomes")]
    ImpossibleOutcomes,
    /// The game the program's header names does not fit the header's map (the header was
    /// edited, or joined to another program's).
    #[error("the header's game does not fit its map: {what}")]
    GameMismatch {
        /// What does not fit.
        what: String,
    },
    /// The exact board of the header's game would not fit in the memory limit beside its state.
    #[error("cannot read the exact board off the header's game")]
    BoardTooLarge(#[source] qc_ir::BackendError),
}
