//! The readout calibration file: per program qubit, P(read 1 | prepared 0) and
//! P(read 0 | prepared 1).
//!
//! ```json
//! {"qubits": [{"qubit": 0, "p1_given_0": 0.012, "p0_given_1": 0.031}, ...]}
//! ```

use super::CountsError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The readout errors of one qubit.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadoutError {
    /// Index into the program's `q`.
    pub qubit: usize,
    /// P(read 1 | the qubit is 0).
    pub p1_given_0: f64,
    /// P(read 0 | the qubit is 1).
    pub p0_given_1: f64,
}

/// Why a calibration file cannot be used ([`CountsError::Calibration`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CalibrationProblem {
    /// An error rate outside [0, 1].
    #[error("qubit {qubit}: {field} = {value} is not a probability")]
    NotAProbability {
        /// The qubit of the entry.
        qubit: usize,
        /// `p1_given_0` or `p0_given_1`.
        field: &'static str,
        /// The value written.
        value: f64,
    },
    /// `p1_given_0 + p0_given_1 >= 1`: the correction cannot be inverted.
    #[error("qubit {qubit}: p1_given_0 + p0_given_1 >= 1, the read-out carries no information")]
    NoInformation {
        /// The qubit of the entry.
        qubit: usize,
    },
    /// Two entries for one qubit.
    #[error("qubit {qubit} is listed twice")]
    ListedTwice {
        /// The qubit.
        qubit: usize,
    },
}

/// A readout calibration (the `--calibration` file).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Calibration {
    /// One entry per qubit.
    pub qubits: Vec<ReadoutError>,
}

impl Calibration {
    /// Parses and checks a calibration file: probabilities in [0, 1], each qubit once, and
    /// `p1_given_0 + p0_given_1 < 1` (otherwise a read-out says nothing about the qubit and the
    /// correction cannot be inverted).
    pub fn parse(text: &str) -> Result<Calibration, CountsError> {
        let c: Calibration = serde_json::from_str(text).map_err(|e| CountsError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let mut seen = BTreeMap::new();
        for e in &c.qubits {
            for (name, p) in [("p1_given_0", e.p1_given_0), ("p0_given_1", e.p0_given_1)] {
                if !(0.0..=1.0).contains(&p) {
                    return Err(CountsError::Calibration(
                        CalibrationProblem::NotAProbability {
                            qubit: e.qubit,
                            field: name,
                            value: p,
                        },
                    ));
                }
            }
            if e.p1_given_0 + e.p0_given_1 >= 1.0 {
                return Err(CountsError::Calibration(
                    CalibrationProblem::NoInformation { qubit: e.qubit },
                ));
            }
            if seen.insert(e.qubit, ()).is_some() {
                return Err(CountsError::Calibration(CalibrationProblem::ListedTwice {
                    qubit: e.qubit,
                }));
            }
        }
        Ok(c)
    }

    /// The entry of `qubit`.
    pub fn get(&self, qubit: usize) -> Option<&ReadoutError> {
        self.qubits.iter().find(|e| e.qubit == qubit)
    }
}

impl ReadoutError {
    /// Inverts the readout channel on a marginal: the observed P(1) is
    /// `p (1 - e1) + (1 - p) e0`, so `p = (observed - e0) / (1 - e0 - e1)`, clamped to [0, 1];
    /// the standard error is divided by the same `1 - e0 - e1` (the estimate is a linear function
    /// of the observed frequency).
    pub fn correct(&self, observed: f64, stderr: f64) -> (f64, f64) {
        let scale = 1.0 - self.p1_given_0 - self.p0_given_1;
        let p = super::estimate::unit_probability((observed - self.p1_given_0) / scale);
        (p, stderr / scale)
    }
}
