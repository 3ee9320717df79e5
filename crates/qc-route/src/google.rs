//! Google's device calibrations, as cirq-google ships them for its processors
//! (`cirq_google/devices/calibrations/*_calibration.json`: a `Calibration` whose `metrics` each
//! name a metric, its targets and its values), read into the same [`DeviceProperties`] as IBM's
//! BackendProperties, so routing, the success probability and the noisy simulator take either.
//!
//! **Qubits.** A target is a grid qubit `ROW_COL`; physical qubit `k` is the `k`-th grid qubit of
//! the calibration in (row, column) order, as the device targets number them
//! (`backends/sycamore.toml`, `backends/weber.toml`).
//!
//! **What is read** (everything else is left out):
//!
//! | metric | becomes |
//! | --- | --- |
//! | `single_qubit_p00_error`, `single_qubit_p11_error` | P(read 1 \| prepared 0), P(read 0 \| prepared 1); their mean is the readout error |
//! | `single_qubit_idle_t1_micros` | T1 (no T2: Google's calibrations carry none) |
//! | `single_qubit_rb_average_error_per_gate` (else 2/3 of `single_qubit_rb_pauli_error_per_gate`) | the error of `rx` and `ry` (`rz` is virtual) |
//! | `two_qubit_sqrt_iswap_gate_xeb_average_error_per_cycle` (else the parallel one, else 4/5 of a Pauli error) | the error of `siswap` and `siswapdg` on the pair |
//! | `two_qubit_cz_gate_xeb_average_error_per_cycle` (same fall-backs) | the error of `cz` on the pair |
//!
//! A Pauli error `p` on `d`-dimensional gates is an average gate infidelity of `p d / (d + 1)`
//! (2/3 for one qubit, 4/5 for two), the quantity IBM's `gate_error` is. An XEB error per
//! cycle counts the cycle's single-qubit gates too, so it is an upper bound on the two-qubit
//! gate's own. The calibrations give no durations: a schedule of such a program has none.

use crate::calibration::CalibrationError;
use crate::properties::{DeviceProperties, GateProperties, QubitProperties};
use qc_ir::MAX_DEVICE_QUBITS;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct File {
    cirq_type: String,
    metrics: Metrics,
}

#[derive(Deserialize)]
struct Metrics {
    metrics: Vec<Metric>,
}

#[derive(Deserialize)]
struct Metric {
    name: String,
    #[serde(default)]
    targets: Vec<String>,
    #[serde(default)]
    values: Vec<serde_json::Value>,
}

/// True when a parsed calibration is Google's (a JSON object with `cirq_type`), not IBM's
/// BackendProperties: what [`DeviceProperties::read`] dispatches on.
fn is_google_calibration(value: &serde_json::Value) -> bool {
    value.get("cirq_type").is_some()
}

/// The two-qubit gates a metric stem's errors are for, and the stem (`sqrt_iswap`, `cz`).
const TWO_QUBIT_FAMILIES: [(&str, &[&str]); 2] =
    [("sqrt_iswap", &["siswap", "siswapdg"]), ("cz", &["cz"])];

/// The single-qubit gates a qubit's randomized-benchmarking error stands for.
const SINGLE_QUBIT_GATES: [&str; 2] = ["rx", "ry"];

impl DeviceProperties {
    /// Reads a Google device calibration as cirq-google ships it (see the module docs): per
    /// qubit the readout errors and T1, the single-qubit gates' error, and per coupler the
    /// √iSWAP's or CZ's error.
    ///
    /// # Errors
    /// Not such a calibration; a target that is not `ROW_COL`; a metric with the wrong number of
    /// targets or without a number; an error rate outside [0, 1] or a negative T1; more qubits
    /// than a device may have.
    pub fn from_google_calibration(text: &str) -> Result<DeviceProperties, CalibrationError> {
        let file: File = serde_json::from_str(text).map_err(|e| CalibrationError::Json {
            line: e.line(),
            column: e.column(),
            message: format!("not a Google calibration: {e}"),
        })?;
        if file.cirq_type != "Calibration" {
            return Err(CalibrationError::Google {
                metric: "cirq_type".into(),
                why: format!("is `{}`, not `Calibration`", file.cirq_type),
            });
        }
        let metrics = file.metrics.metrics;
        // Physical qubit k: the k-th grid qubit named anywhere, in (row, column) order.
        let mut grid = std::collections::BTreeSet::new();
        for m in &metrics {
            for t in &m.targets {
                grid.insert(grid_qubit(t, &m.name)?);
                if grid.len() > MAX_DEVICE_QUBITS {
                    return Err(CalibrationError::Google {
                        metric: m.name.clone(),
                        why: format!("names more than {MAX_DEVICE_QUBITS} qubits"),
                    });
                }
            }
        }
        let index: BTreeMap<(i64, i64), usize> =
            grid.iter().enumerate().map(|(k, &rc)| (rc, k)).collect();
        let n = index.len();
        let mut single: BTreeMap<&str, Vec<Option<f64>>> = BTreeMap::new();
        let mut pairs: BTreeMap<&str, PairValues> = BTreeMap::new();
        for m in &metrics {
            let qubits: Vec<usize> = m
                .targets
                .iter()
                .map(|t| grid_qubit(t, &m.name).map(|rc| index[&rc]))
                .collect::<Result<_, _>>()?;
            let two = m.name.starts_with("two_qubit_");
            match (qubits.as_slice(), two) {
                ([q], false) => {
                    let value = number(m)?;
                    single
                        .entry(m.name.as_str())
                        .or_insert_with(|| vec![None; n])[*q] = Some(value);
                }
                ([a, b], true) => {
                    let value = number(m)?;
                    pairs
                        .entry(m.name.as_str())
                        .or_default()
                        .insert((*a, *b), value);
                }
                // A per-qubit or per-pair metric on the wrong number of qubits is a broken
                // file; any other metric (device-wide ones) is not read.
                _ if two || m.name.starts_with("single_qubit_") => {
                    return Err(CalibrationError::Google {
                        metric: m.name.clone(),
                        why: format!("has {} targets", m.targets.len()),
                    })
                }
                _ => {}
            }
        }
        let per_qubit = |name: &str, q: usize| single.get(name).and_then(|v| v[q]);
        let mut qubits = Vec::with_capacity(n);
        let mut gates = Vec::new();
        for q in 0..n {
            let place = format!("qubit {q}");
            let p00 = per_qubit("single_qubit_p00_error", q)
                .map(|v| checked_rate(v, "single_qubit_p00_error", &place))
                .transpose()?;
            let p11 = per_qubit("single_qubit_p11_error", q)
                .map(|v| checked_rate(v, "single_qubit_p11_error", &place))
                .transpose()?;
            let t1 = match per_qubit("single_qubit_idle_t1_micros", q) {
                Some(us) if us.is_finite() && us > 0.0 => Some(us * 1e3),
                Some(us) => {
                    return Err(CalibrationError::BadTime {
                        what: "single_qubit_idle_t1_micros".into(),
                        place,
                        value: us.to_string(),
                        unit: "us".into(),
                    })
                }
                None => None,
            };
            qubits.push(QubitProperties {
                t1,
                t2: None,
                readout_error: match (p00, p11) {
                    (Some(a), Some(b)) => Some((a + b) / 2.0),
                    (a, b) => a.or(b),
                },
                prob_meas1_prep0: p00,
                prob_meas0_prep1: p11,
                readout_length: None,
            });
            let error = match (
                per_qubit("single_qubit_rb_average_error_per_gate", q),
                per_qubit("single_qubit_rb_pauli_error_per_gate", q),
            ) {
                (Some(average), _) => Some(checked_rate(
                    average,
                    "single_qubit_rb_average_error_per_gate",
                    &place,
                )?),
                (None, Some(pauli)) => Some(
                    checked_rate(pauli, "single_qubit_rb_pauli_error_per_gate", &place)? * 2.0
                        / 3.0,
                ),
                (None, None) => None,
            };
            if let Some(error) = error {
                for gate in SINGLE_QUBIT_GATES {
                    gates.push(GateProperties {
                        gate: gate.into(),
                        qubits: vec![q],
                        error: Some(error),
                        length: None,
                    });
                }
            }
        }
        for (stem, names) in TWO_QUBIT_FAMILIES {
            let Some((metric, errors, scale)) = two_qubit_errors(&pairs, stem) else {
                continue;
            };
            for (&(a, b), &value) in errors {
                let place = format!("qubits {a}-{b}");
                let error = checked_rate(value, metric, &place)? * scale;
                for gate in names {
                    gates.push(GateProperties {
                        gate: (*gate).into(),
                        qubits: vec![a, b],
                        error: Some(error),
                        length: None,
                    });
                }
            }
        }
        Ok(DeviceProperties {
            backend: None,
            qubits,
            gates,
        })
    }

    /// Reads a calibration in either format: Google's (a JSON object with `cirq_type`, see
    /// [`DeviceProperties::from_google_calibration`]) or IBM's BackendProperties
    /// ([`DeviceProperties::from_backend_properties`]).
    ///
    /// # Errors
    /// Those of the reader of its format.
    pub fn read(text: &str) -> Result<DeviceProperties, CalibrationError> {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) if is_google_calibration(&value) => {
                DeviceProperties::from_google_calibration(text)
            }
            _ => DeviceProperties::from_backend_properties(text),
        }
    }
}

/// A two-qubit metric's values by pair of physical qubits.
type PairValues = BTreeMap<(usize, usize), f64>;

/// The errors of a two-qubit family's best metric: the average error of isolated cycles, else of
/// parallel ones, else a Pauli error (scaled by 4/5 to an average infidelity), with its name and
/// the scale.
fn two_qubit_errors<'a>(
    pairs: &'a BTreeMap<&'a str, PairValues>,
    stem: &str,
) -> Option<(&'a str, &'a PairValues, f64)> {
    let candidates = [
        (
            format!("two_qubit_{stem}_gate_xeb_average_error_per_cycle"),
            1.0,
        ),
        (
            format!("two_qubit_parallel_{stem}_gate_xeb_average_error_per_cycle"),
            1.0,
        ),
        (
            format!("two_qubit_{stem}_gate_xeb_pauli_error_per_cycle"),
            0.8,
        ),
        (
            format!("two_qubit_parallel_{stem}_gate_xeb_pauli_error_per_cycle"),
            0.8,
        ),
    ];
    candidates.iter().find_map(|(name, scale)| {
        pairs
            .get_key_value(name.as_str())
            .map(|(k, v)| (*k, v, *scale))
    })
}

/// A grid qubit `ROW_COL` as (row, column).
fn grid_qubit(target: &str, metric: &str) -> Result<(i64, i64), CalibrationError> {
    let bad = || CalibrationError::Google {
        metric: metric.to_string(),
        why: format!("names `{target}`, not a grid qubit ROW_COL"),
    };
    let (row, col) = target.split_once('_').ok_or_else(bad)?;
    let row = row.parse::<i64>().map_err(|_| bad())?;
    let col = col.parse::<i64>().map_err(|_| bad())?;
    Ok((row, col))
}

/// A metric's one value: `{"doubleVal": x}` (or an integer's `int64Val`).
fn number(m: &Metric) -> Result<f64, CalibrationError> {
    let value = m.values.first().and_then(|v| {
        v.get("doubleVal")
            .and_then(serde_json::Value::as_f64)
            .or_else(|| {
                // Protobuf JSON writes 64-bit integers as strings.
                let int = v.get("int64Val")?;
                int.as_f64().or_else(|| int.as_str()?.parse().ok())
            })
    });
    value
        .filter(|v| v.is_finite())
        .ok_or_else(|| CalibrationError::Google {
            metric: m.name.clone(),
            why: format!("on {} has no number", m.targets.join(", ")),
        })
}

fn checked_rate(value: f64, what: &str, place: &str) -> Result<f64, CalibrationError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(CalibrationError::GoogleRate {
            metric: what.to_string(),
            place: place.to_string(),
            value,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three grid qubits in a line, 1_0 - 1_1 - 2_1 (physical 0, 1, 2), metrics as cirq-google
    /// writes them, in no particular order.
    fn calibration(extra: &str) -> String {
        format!(
            r#"{{"cirq_type": "Calibration", "metrics": {{"metrics": [
            {{"name": "single_qubit_p00_error", "targets": ["2_1"], "values": [{{"doubleVal": 0.03}}]}},
            {{"name": "single_qubit_p00_error", "targets": ["1_0"], "values": [{{"doubleVal": 0.01}}]}},
            {{"name": "single_qubit_p11_error", "targets": ["1_0"], "values": [{{"doubleVal": 0.05}}]}},
            {{"name": "single_qubit_p00_error", "targets": ["1_1"], "values": [{{"doubleVal": 0.02}}]}},
            {{"name": "single_qubit_idle_t1_micros", "targets": ["1_1"], "values": [{{"doubleVal": 15.5}}]}},
            {{"name": "single_qubit_rb_pauli_error_per_gate", "targets": ["1_0"], "values": [{{"doubleVal": 0.003}}]}},
            {{"name": "single_qubit_rb_average_error_per_gate", "targets": ["1_1"], "values": [{{"doubleVal": 0.001}}]}},
            {{"name": "single_qubit_rb_pauli_error_per_gate", "targets": ["1_1"], "values": [{{"doubleVal": 0.9}}]}},
            {{"name": "two_qubit_sqrt_iswap_gate_xeb_pauli_error_per_cycle", "targets": ["1_0", "1_1"], "values": [{{"doubleVal": 0.02}}]}},
            {{"name": "two_qubit_sqrt_iswap_gate_xeb_pauli_error_per_cycle", "targets": ["1_1", "2_1"], "values": [{{"doubleVal": 0.01}}]}},
            {{"name": "two_qubit_parallel_sqrt_iswap_gate_xeb_average_error_per_cycle", "targets": ["1_0", "1_1"], "values": [{{"doubleVal": 0.012}}]}},
            {{"name": "two_qubit_parallel_sqrt_iswap_gate_xeb_average_error_per_cycle", "targets": ["1_1", "2_1"], "values": [{{"doubleVal": 0.007}}]}}{extra}
            ]}}}}"#
        )
    }

    fn error_of(p: &DeviceProperties, gate: &str, qubits: &[usize]) -> Option<f64> {
        p.gates
            .iter()
            .find(|g| g.gate == gate && g.qubits == qubits)
            .and_then(|g| g.error)
    }

    #[test]
    fn metrics_become_the_properties_of_grid_qubits_in_row_column_order() {
        let p = DeviceProperties::read(&calibration("")).expect("reads");
        assert_eq!(p.qubits.len(), 3);
        // 1_0 is physical 0: readout the mean of its p00 and p11.
        let q0 = &p.qubits[0];
        assert_eq!(
            (q0.prob_meas1_prep0, q0.prob_meas0_prep1),
            (Some(0.01), Some(0.05))
        );
        assert!((q0.readout_error.expect("readout") - 0.03).abs() < 1e-15);
        // 1_1 is physical 1: one of the two listed; T1 in nanoseconds.
        assert_eq!(p.qubits[1].readout_error, Some(0.02));
        assert_eq!((p.qubits[1].t1, p.qubits[1].t2), (Some(15_500.0), None));
        assert_eq!(p.qubits[2].readout_error, Some(0.03));
        // Single-qubit gates: the average error where listed (1_1), else 2/3 of the Pauli one.
        assert!((error_of(&p, "rx", &[0]).expect("rx") - 0.002).abs() < 1e-15);
        assert_eq!(error_of(&p, "ry", &[1]), Some(0.001));
        assert_eq!(error_of(&p, "rx", &[2]), None);
        // Two-qubit: the average error (here of parallel cycles) before a Pauli one.
        assert_eq!(error_of(&p, "siswap", &[0, 1]), Some(0.012));
        assert_eq!(error_of(&p, "siswapdg", &[1, 2]), Some(0.007));
        assert_eq!(error_of(&p, "cz", &[0, 1]), None);
        // Without the average metrics, 4/5 of the Pauli error.
        let text =
            calibration("").replace("parallel_sqrt_iswap_gate_xeb_average", "ignored_metric");
        let p = DeviceProperties::read(&text).expect("reads");
        assert!((error_of(&p, "siswap", &[0, 1]).expect("siswap") - 0.016).abs() < 1e-15);
    }

    #[test]
    fn bad_calibrations_are_refused_with_the_metric_named() {
        let refused = |extra: &str, expected: &str| {
            let err = DeviceProperties::read(&calibration(extra)).expect_err(extra);
            assert_eq!(err.to_string(), expected, "{extra}");
        };
        refused(
            r#", {"name": "single_qubit_p11_error", "targets": ["q7"], "values": [{"doubleVal": 0.1}]}"#,
            "Google calibration: single_qubit_p11_error names `q7`, not a grid qubit ROW_COL",
        );
        refused(
            r#", {"name": "single_qubit_p11_error", "targets": ["1_1"], "values": [{"doubleVal": 1.5}]}"#,
            "Google calibration: single_qubit_p11_error of qubit 1 is 1.5, not an error rate in [0, 1]",
        );
        refused(
            r#", {"name": "single_qubit_p11_error", "targets": ["1_1"], "values": []}"#,
            "Google calibration: single_qubit_p11_error on 1_1 has no number",
        );
        refused(
            r#", {"name": "two_qubit_cz_gate_xeb_pauli_error_per_cycle", "targets": ["1_1"], "values": [{"doubleVal": 0.1}]}"#,
            "Google calibration: two_qubit_cz_gate_xeb_pauli_error_per_cycle has 1 targets",
        );
        refused(
            r#", {"name": "single_qubit_idle_t1_micros", "targets": ["1_0"], "values": [{"doubleVal": -3}]}"#,
            "single_qubit_idle_t1_micros of qubit 0 is -3 `us`, not a time >= 0 in s, ms, us or ns",
        );
        let err = DeviceProperties::read(r#"{"cirq_type": "Device", "metrics": {"metrics": []}}"#)
            .expect_err("not a calibration");
        assert_eq!(
            err.to_string(),
            "Google calibration: cirq_type is `Device`, not `Calibration`"
        );
        // IBM's format still goes to IBM's reader.
        let ibm = r#"{"backend_name": "toy", "qubits": [[{"name": "readout_error", "unit": "", "value": 0.02}]], "gates": []}"#;
        assert_eq!(
            DeviceProperties::read(ibm).expect("ibm").backend.as_deref(),
            Some("toy")
        );
    }
}
