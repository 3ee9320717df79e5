//! The timing and relaxation side of a device calibration (IBM's BackendProperties JSON, read by
//! the same parser as [`crate::Calibration`]): per qubit T1, T2, the readout's two error
//! probabilities and its length; per listed gate its error and length. Times are converted to
//! nanoseconds. This is what a noisy simulation and a schedule need; routing needs only the
//! error rates ([`crate::Calibration`]).

use crate::calibration::{parse_properties, rate, CalibrationError, Nduv};

/// One qubit's calibrated properties; `None` for what the calibration does not list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QubitProperties {
    /// Energy relaxation time T1 (ns).
    pub t1: Option<f64>,
    /// Dephasing time T2 (ns).
    pub t2: Option<f64>,
    /// P(read wrong), both ways averaged (`readout_error`).
    pub readout_error: Option<f64>,
    /// P(read 1 | prepared 0) (`prob_meas1_prep0`).
    pub prob_meas1_prep0: Option<f64>,
    /// P(read 0 | prepared 1) (`prob_meas0_prep1`).
    pub prob_meas0_prep1: Option<f64>,
    /// The measurement's duration (ns, `readout_length`).
    pub readout_length: Option<f64>,
}

/// One listed gate's calibrated properties.
#[derive(Clone, Debug, PartialEq)]
pub struct GateProperties {
    /// Its OpenQASM name (`sx`, `cz`, `reset`, ...).
    pub gate: String,
    /// The physical qubits it acts on, in order.
    pub qubits: Vec<usize>,
    /// Its error (`gate_error`, an average gate infidelity).
    pub error: Option<f64>,
    /// Its duration (ns, `gate_length`).
    pub length: Option<f64>,
}

/// A device's calibrated properties (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceProperties {
    /// `backend_name`, if given.
    pub backend: Option<String>,
    /// Per physical qubit.
    pub qubits: Vec<QubitProperties>,
    /// Every gate entry, in the calibration's order.
    pub gates: Vec<GateProperties>,
}

/// `value` in `unit` as nanoseconds, `None` when it is not a finite time >= 0 in a known unit.
fn nanoseconds(value: f64, unit: &str) -> Option<f64> {
    let scale = match unit {
        "s" => 1e9,
        "ms" => 1e6,
        "us" | "µs" => 1e3,
        "ns" => 1.0,
        _ => return None,
    };
    let ns = value * scale;
    (ns.is_finite() && ns >= 0.0).then_some(ns)
}

/// Reads one parameter: an error rate in [0, 1], or a time (when `time`) in nanoseconds.
fn parameter(entry: &Nduv, place: &str, time: bool) -> Result<f64, CalibrationError> {
    let value = rate(&entry.value);
    if time {
        return value
            .and_then(|v| nanoseconds(v, &entry.unit))
            .ok_or_else(|| CalibrationError::BadTime {
                what: entry.name.clone(),
                place: place.to_string(),
                value: entry.value.to_string(),
                unit: entry.unit.clone(),
            });
    }
    match value {
        Some(v) if v.is_finite() && (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(CalibrationError::BadValue {
            what: "an error rate",
            place: format!("{place} ({})", entry.name),
            value: value.unwrap_or(f64::NAN),
        }),
    }
}

impl DeviceProperties {
    /// Reads IBM BackendProperties JSON: every qubit's and gate's properties, times in
    /// nanoseconds. A parameter whose value is `null` counts as not listed.
    ///
    /// # Errors
    /// Not BackendProperties JSON; an error rate outside [0, 1]; a time that is negative, not
    /// finite or in an unknown unit; a gate on a qubit the calibration does not have.
    pub fn from_backend_properties(text: &str) -> Result<DeviceProperties, CalibrationError> {
        let props = parse_properties(text)?;
        let n = props.qubits.len();
        let mut qubits = Vec::with_capacity(n);
        for (q, entries) in props.qubits.iter().enumerate() {
            let place = format!("qubit {q}");
            let mut qubit = QubitProperties::default();
            for entry in entries.iter().filter(|e| !e.value.is_null()) {
                let (slot, time) = match entry.name.as_str() {
                    "T1" => (&mut qubit.t1, true),
                    "T2" => (&mut qubit.t2, true),
                    "readout_error" => (&mut qubit.readout_error, false),
                    "prob_meas1_prep0" => (&mut qubit.prob_meas1_prep0, false),
                    "prob_meas0_prep1" => (&mut qubit.prob_meas0_prep1, false),
                    "readout_length" => (&mut qubit.readout_length, true),
                    _ => continue,
                };
                *slot = Some(parameter(entry, &place, time)?);
            }
            qubits.push(qubit);
        }
        let mut gates = Vec::with_capacity(props.gates.len());
        for (index, g) in props.gates.iter().enumerate() {
            if let Some(&qubit) = g.qubits.iter().find(|q| **q >= n) {
                return Err(CalibrationError::QubitOutOfRange {
                    index,
                    gate: g.gate.clone(),
                    qubit,
                    qubits: n,
                });
            }
            let place = g.place();
            let mut gate = GateProperties {
                gate: g.gate.clone(),
                qubits: g.qubits.clone(),
                error: None,
                length: None,
            };
            for entry in g.parameters.iter().filter(|e| !e.value.is_null()) {
                match entry.name.as_str() {
                    "gate_error" => gate.error = Some(parameter(entry, &place, false)?),
                    "gate_length" => gate.length = Some(parameter(entry, &place, true)?),
                    _ => {}
                }
            }
            gates.push(gate);
        }
        Ok(DeviceProperties {
            backend: props.backend_name,
            qubits,
            gates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_QUBITS: &str = r#"{"backend_name": "toy", "qubits": [
        [{"name": "T1", "unit": "us", "value": 100.5}, {"name": "T2", "unit": "ms", "value": 0.08},
         {"name": "prob_meas1_prep0", "unit": "", "value": 0.01},
         {"name": "readout_error", "unit": "", "value": 0.02},
         {"name": "readout_length", "unit": "ns", "value": 1560}, {"name": "frequency", "unit": "GHz", "value": 5}],
        [{"name": "T1", "unit": "s", "value": 1e-4}, {"name": "T2", "unit": "us", "value": null}]],
      "gates": [{"gate": "sx", "qubits": [0], "parameters": [
          {"name": "gate_error", "unit": "", "value": 3e-4}, {"name": "gate_length", "unit": "ns", "value": 24}]},
        {"gate": "reset", "qubits": [1], "parameters": [{"name": "gate_length", "unit": "us", "value": 1.584}]}]}"#;

    #[test]
    fn times_are_read_in_nanoseconds_and_missing_values_are_none() {
        let p = DeviceProperties::from_backend_properties(TWO_QUBITS).expect("reads");
        assert_eq!(p.backend.as_deref(), Some("toy"));
        let q0 = &p.qubits[0];
        assert_eq!((q0.t1, q0.t2), (Some(100_500.0), Some(80_000.0)));
        assert_eq!(
            (q0.prob_meas1_prep0, q0.prob_meas0_prep1),
            (Some(0.01), None)
        );
        assert_eq!(
            (q0.readout_error, q0.readout_length),
            (Some(0.02), Some(1560.0))
        );
        assert_eq!((p.qubits[1].t1, p.qubits[1].t2), (Some(100_000.0), None));
        assert_eq!(p.gates[0].error, Some(3e-4));
        assert_eq!(p.gates[0].length, Some(24.0));
        assert_eq!((p.gates[1].error, p.gates[1].length), (None, Some(1584.0)));
    }

    #[test]
    fn bad_times_and_rates_are_named() {
        let text = TWO_QUBITS.replace(r#""unit": "ms""#, r#""unit": "fortnights""#);
        let err = DeviceProperties::from_backend_properties(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "T2 of qubit 0 is 0.08 `fortnights`, not a time >= 0 in s, ms, us or ns"
        );
        let text = TWO_QUBITS.replace("0.01}", "1.5}");
        let err = DeviceProperties::from_backend_properties(&text).unwrap_err();
        assert!(matches!(err, CalibrationError::BadValue { value, .. } if value == 1.5));
        let text = TWO_QUBITS.replace(r#""qubits": [1]"#, r#""qubits": [7]"#);
        assert!(matches!(
            DeviceProperties::from_backend_properties(&text),
            Err(CalibrationError::QubitOutOfRange { qubit: 7, .. })
        ));
    }
}
