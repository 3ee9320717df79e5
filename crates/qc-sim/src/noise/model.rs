//! The noise model as plain data: per physical qubit its relaxation times, readout errors, the
//! error and duration of its single-qubit gates, measurement and reset; per coupler the error and
//! duration of its two-qubit gate. Times are in nanoseconds. A front end fills it from a device
//! calibration (`qc_front::noise` reads IBM's BackendProperties); [`QubitNoise::default`] and
//! [`CouplerNoise::default`] are noiseless, which is what a field the calibration lacks becomes.

use std::collections::BTreeMap;
use thiserror::Error;

/// The noise of one physical qubit. Times in nanoseconds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QubitNoise {
    /// Energy relaxation time T1; `f64::INFINITY` for none.
    pub t1: f64,
    /// Dephasing time T2; `f64::INFINITY` for none. A value above `2 T1` is unphysical and is
    /// read as `2 T1` (as Qiskit Aer does).
    pub t2: f64,
    /// P(read 1 | the qubit is 0).
    pub p1_given_0: f64,
    /// P(read 0 | the qubit is 1).
    pub p0_given_1: f64,
    /// The error of a single-qubit gate other than a Z rotation: its average gate infidelity
    /// `1 - F_avg`, as IBM reports `gate_error`.
    pub gate_error: f64,
    /// The duration of a single-qubit gate other than a Z rotation.
    pub gate_duration: f64,
    /// The duration of a measurement (the qubit is not relaxed during it: the readout errors
    /// include what happens then).
    pub measure_duration: f64,
    /// The duration of a reset (the qubit is relaxed over it, after the reset).
    pub reset_duration: f64,
    /// P(a reset leaves the qubit in |1>).
    pub reset_error: f64,
}

impl Default for QubitNoise {
    /// A noiseless qubit whose operations take no time.
    fn default() -> QubitNoise {
        QubitNoise {
            t1: f64::INFINITY,
            t2: f64::INFINITY,
            p1_given_0: 0.0,
            p0_given_1: 0.0,
            gate_error: 0.0,
            gate_duration: 0.0,
            measure_duration: 0.0,
            reset_duration: 0.0,
            reset_error: 0.0,
        }
    }
}

/// The noise of a coupler's two-qubit gate.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CouplerNoise {
    /// Its average gate infidelity, as IBM reports `gate_error`.
    pub error: f64,
    /// Its duration in nanoseconds.
    pub duration: f64,
}

/// A device's noise: one [`QubitNoise`] per physical qubit (the program's qubit `k` is physical
/// qubit `k`) and one [`CouplerNoise`] per coupler, keyed by its two qubits, lower first. A
/// two-qubit gate on a pair that is not a coupler is refused: compile the program for the device
/// first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NoiseModel {
    /// Per physical qubit.
    pub qubits: Vec<QubitNoise>,
    /// Per coupler `(low, high)`.
    pub couplers: BTreeMap<(usize, usize), CouplerNoise>,
}

/// Why a noise model or a program cannot be simulated with noise.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum NoiseError {
    /// A value of the model out of its range.
    #[error("{field} of {place} is {value}, not {expected}")]
    BadValue {
        /// The field (`t1`, `p1_given_0`, `error`, ...).
        field: &'static str,
        /// `qubit 3` or `coupler 4-5`.
        place: String,
        /// The value.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// The program uses a qubit the model does not describe.
    #[error("instruction {index} acts on qubit {qubit}, but the noise model has qubits 0..{qubits}: it is for another device")]
    QubitOutOfRange {
        /// The instruction.
        index: usize,
        /// The qubit.
        qubit: usize,
        /// The model's qubit count.
        qubits: usize,
    },
    /// A two-qubit gate on two qubits that are not a coupler.
    #[error("instruction {index} is a two-qubit gate on qubits {a} and {b}, which the noise model does not couple: compile the program for the device first")]
    NotCoupled {
        /// The instruction.
        index: usize,
        /// One qubit.
        a: usize,
        /// The other.
        b: usize,
    },
    /// A gate on more than two qubits (targets and controls).
    #[error("instruction {index} is a gate on {qubits} qubits; noise is modelled for gates on one or two: compile the program for the device first")]
    TooWide {
        /// The instruction.
        index: usize,
        /// The qubits it acts on.
        qubits: usize,
    },
}

impl NoiseModel {
    /// A model of `n` noiseless qubits and no coupler.
    pub fn ideal(n: usize) -> NoiseModel {
        NoiseModel {
            qubits: vec![QubitNoise::default(); n],
            couplers: BTreeMap::new(),
        }
    }

    /// The coupler of qubits `a` and `b` (in either order).
    pub fn coupler(&self, a: usize, b: usize) -> Option<&CouplerNoise> {
        self.couplers.get(&(a.min(b), a.max(b)))
    }

    /// Checks every value: probabilities and errors in [0, 1], durations finite and not negative,
    /// relaxation times positive (infinite for none).
    ///
    /// # Errors
    /// [`NoiseError::BadValue`] for the first value out of range.
    pub fn check(&self) -> Result<(), NoiseError> {
        for (k, q) in self.qubits.iter().enumerate() {
            let place = || format!("qubit {k}");
            for (field, value) in [("t1", q.t1), ("t2", q.t2)] {
                if value.is_nan() || value <= 0.0 {
                    return Err(bad(field, place(), value, "a positive time (ns)"));
                }
            }
            for (field, value) in [
                ("p1_given_0", q.p1_given_0),
                ("p0_given_1", q.p0_given_1),
                ("gate_error", q.gate_error),
                ("reset_error", q.reset_error),
            ] {
                check_probability(field, value, place)?;
            }
            for (field, value) in [
                ("gate_duration", q.gate_duration),
                ("measure_duration", q.measure_duration),
                ("reset_duration", q.reset_duration),
            ] {
                check_duration(field, value, place)?;
            }
        }
        for (&(a, b), c) in &self.couplers {
            let place = || format!("coupler {a}-{b}");
            check_probability("error", c.error, place)?;
            check_duration("duration", c.duration, place)?;
        }
        Ok(())
    }
}

fn bad(field: &'static str, place: String, value: f64, expected: &'static str) -> NoiseError {
    NoiseError::BadValue {
        field,
        place,
        value,
        expected,
    }
}

fn check_probability(
    field: &'static str,
    value: f64,
    place: impl Fn() -> String,
) -> Result<(), NoiseError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(bad(field, place(), value, "a probability in [0, 1]"))
    }
}

fn check_duration(
    field: &'static str,
    value: f64,
    place: impl Fn() -> String,
) -> Result<(), NoiseError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(bad(field, place(), value, "a finite duration >= 0 (ns)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_the_first_bad_value() {
        let mut model = NoiseModel::ideal(2);
        assert_eq!(model.check(), Ok(()));
        model.qubits[1].p0_given_1 = 1.5;
        let err = model.check().unwrap_err();
        assert_eq!(
            err.to_string(),
            "p0_given_1 of qubit 1 is 1.5, not a probability in [0, 1]"
        );
        model.qubits[1].p0_given_1 = 0.0;
        model.qubits[0].t2 = 0.0;
        assert!(matches!(
            model.check(),
            Err(NoiseError::BadValue { field: "t2", .. })
        ));
        model.qubits[0].t2 = f64::INFINITY;
        model.couplers.insert(
            (0, 1),
            CouplerNoise {
                error: 0.01,
                duration: f64::NAN,
            },
        );
        assert!(matches!(
            model.check(),
            Err(NoiseError::BadValue {
                field: "duration",
                ..
            })
        ));
        assert!(model.coupler(1, 0).is_some() && model.coupler(0, 2).is_none());
    }
}
