//! The error model: a device calibration in IBM's BackendProperties JSON (`props_fez.json`:
//! `qubits` with `readout_error`, `gates` with `gate`, `qubits` and `parameters` holding
//! `gate_error`), or uniform errors when there is none. A qubit or coupler whose error is 0.5 or
//! more is broken and never used. The estimated success probability (ESP) of a program is the
//! product of `1 - error` over its gates and measurements.

use crate::device::Device;
use crate::properties::DeviceProperties;
use qc_ir::gate_data::qasm_gate;
use qc_ir::{Circuit, Gate, GateKind, Op, Polarity};
use serde::Deserialize;
use std::collections::BTreeMap;

/// An error rate at or above this marks a qubit or coupler broken.
pub const BROKEN: f64 = 0.5;

/// Uniform errors, used without a calibration: a two-qubit gate, a single-qubit gate other than
/// a Z rotation (which is virtual on the devices qchess targets), a measurement.
pub const UNIFORM_TWO_QUBIT: f64 = 5e-3;
/// See [`UNIFORM_TWO_QUBIT`].
pub const UNIFORM_SINGLE_QUBIT: f64 = 3e-4;
/// See [`UNIFORM_TWO_QUBIT`].
pub const UNIFORM_READOUT: f64 = 1.5e-2;

/// The least error routing charges for a two-qubit gate, whatever the calibration says: a CZ
/// takes as long as several single-qubit gates, and its two qubits (and every idle one) decohere
/// meanwhile (84 ns against T1 and T2 of 50-300 us on a Heron r2 is 1e-3 to 4e-3 on the pair;
/// ibm_fez's best calibrated CZ, 2.1e-3, is above it, so real calibrations route as before).
/// A calibration with zero or tiny two-qubit errors would otherwise price a SWAP at nothing and
/// a readout at thousands of CZ gates, and turn routing's distances off.
pub const TWO_QUBIT_FLOOR: f64 = 2e-3;

/// Why a calibration cannot be used for a device.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum CalibrationError {
    /// Not JSON, or not BackendProperties.
    #[error("line {line}, column {column}: not BackendProperties JSON: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The reader's message.
        message: String,
    },
    /// The calibration describes a device with another number of qubits.
    #[error("the calibration{} has {found} qubits, but device `{device}` has {expected}: it is for another device", backend_suffix(.backend))]
    QubitCount {
        /// The calibration's `backend_name`, if any.
        backend: Option<String>,
        /// Its qubit count.
        found: usize,
        /// The device's.
        expected: usize,
        /// The device.
        device: String,
    },
    /// A two-qubit gate on a pair the device does not couple.
    #[error("the calibration{} has `{gate}` on qubits {a}-{b}, which device `{device}` does not couple: it is for another device", backend_suffix(.backend))]
    NotACoupler {
        /// The calibration's `backend_name`, if any.
        backend: Option<String>,
        /// The gate.
        gate: String,
        /// First qubit.
        a: usize,
        /// Second qubit.
        b: usize,
        /// The device.
        device: String,
    },
    /// A coupler of the device the calibration does not list.
    #[error("the calibration{} has no `{gate}` error for coupler {a}-{b} of device `{device}`: it is for another device", backend_suffix(.backend))]
    MissingCoupler {
        /// The calibration's `backend_name`, if any.
        backend: Option<String>,
        /// The two-qubit gate looked for.
        gate: String,
        /// First qubit.
        a: usize,
        /// Second qubit.
        b: usize,
        /// The device.
        device: String,
    },
    /// A gate on a qubit the device does not have.
    #[error(
        "gate entry {index} (`{gate}`) names qubit {qubit}, but the device has qubits 0..{qubits}"
    )]
    QubitOutOfRange {
        /// Position in `gates`.
        index: usize,
        /// The gate.
        gate: String,
        /// The qubit.
        qubit: usize,
        /// The device's qubit count.
        qubits: usize,
    },
    /// A qubit without `readout_error`.
    #[error("qubit {qubit} has no readout_error")]
    MissingReadout {
        /// The qubit.
        qubit: usize,
    },
    /// The calibration names another device (`backend_name`) than the target: IBM's Heron r2
    /// devices share one coupling map, so only the name tells them apart.
    #[error("the calibration is of `{backend}`, not of device `{device}`: give the calibration of `{device}`, or --allow-other-device to use it anyway")]
    OtherDevice {
        /// The calibration's `backend_name`.
        backend: String,
        /// The device (the target's name).
        device: String,
    },
    /// A time (T1, T2, a gate's or a readout's length) that is not a positive finite number in
    /// a known unit.
    #[error("{what} of {place} is {value} `{unit}`, not a time >= 0 in s, ms, us or ns")]
    BadTime {
        /// `T1`, `gate_length`, ...
        what: String,
        /// `qubit 3`, `cz 4-5`, ...
        place: String,
        /// The value as written.
        value: String,
        /// The unit as written.
        unit: String,
    },
    /// A Google calibration's metric that cannot be read (a target that is not a grid qubit,
    /// no number, the wrong number of targets).
    #[error("Google calibration: {metric} {why}")]
    Google {
        /// The metric's name (or `cirq_type`).
        metric: String,
        /// What is wrong with it.
        why: String,
    },
    /// A Google calibration's error rate that is not in [0, 1].
    #[error("Google calibration: {metric} of {place} is {value}, not an error rate in [0, 1]")]
    GoogleRate {
        /// The metric's name.
        metric: String,
        /// `qubit 3`, `qubits 4-5`.
        place: String,
        /// The value.
        value: f64,
    },
    /// An error rate that is not a number in [0, 1].
    #[error("{what} of {place} is {value}, not an error rate in [0, 1]")]
    BadValue {
        /// `readout_error` or `gate_error`.
        what: &'static str,
        /// `qubit 3`, `cz 4-5`, ...
        place: String,
        /// The value.
        value: f64,
    },
}

fn backend_suffix(backend: &Option<String>) -> String {
    backend
        .as_ref()
        .map(|b| format!(" (of `{b}`)"))
        .unwrap_or_default()
}

#[derive(Deserialize)]
pub(crate) struct Properties {
    #[serde(default)]
    pub(crate) backend_name: Option<String>,
    pub(crate) qubits: Vec<Vec<Nduv>>,
    #[serde(default)]
    pub(crate) gates: Vec<GateEntry>,
}

/// One `{name, value, unit}` entry of BackendProperties.
#[derive(Deserialize)]
pub(crate) struct Nduv {
    pub(crate) name: String,
    pub(crate) value: serde_json::Value,
    #[serde(default)]
    pub(crate) unit: String,
}

#[derive(Deserialize)]
pub(crate) struct GateEntry {
    pub(crate) gate: String,
    pub(crate) qubits: Vec<usize>,
    #[serde(default)]
    pub(crate) parameters: Vec<Nduv>,
}

impl GateEntry {
    /// Where the entry is, for error messages: `cz 3-4`.
    pub(crate) fn place(&self) -> String {
        let qubits: Vec<String> = self.qubits.iter().map(usize::to_string).collect();
        format!("{} {}", self.gate, qubits.join("-"))
    }
}

/// Parses BackendProperties JSON, a syntax or shape error as [`CalibrationError::Json`].
pub(crate) fn parse_properties(text: &str) -> Result<Properties, CalibrationError> {
    serde_json::from_str(text).map_err(|e| CalibrationError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// Error rates of a device: per qubit (readout, single-qubit gates), per coupler (its
/// two-qubit gate) and per listed gate (for the ESP of a program's own gates).
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// `backend_name` of the properties, if read from them.
    pub backend: Option<String>,
    /// P(read wrong) per qubit.
    readout: Vec<f64>,
    /// The error of a non-virtual single-qubit gate per qubit.
    single: Vec<f64>,
    /// The two-qubit gate error per coupler `(low, high)`.
    two: BTreeMap<(usize, usize), f64>,
    /// Every listed gate error by the gate's kind, its number of 1-controls and its qubits
    /// (controls first, as OpenQASM lists them): resolved from the calibration's names when it
    /// is read, for those the exporter writes ([`qc_ir::gate_data::GateInfo::written_name`]).
    gates: BTreeMap<(GateKind, usize, Vec<usize>), f64>,
    /// The median two-qubit error (the unit of routing costs).
    median_two: f64,
}

pub(crate) fn rate(value: &serde_json::Value) -> Option<f64> {
    value.as_f64()
}

impl Calibration {
    /// Uniform errors on every qubit and coupler of `device` ([`UNIFORM_TWO_QUBIT`], ...).
    pub fn uniform(device: &Device) -> Calibration {
        let n = device.num_qubits();
        Calibration {
            backend: None,
            readout: vec![UNIFORM_READOUT; n],
            single: vec![UNIFORM_SINGLE_QUBIT; n],
            two: device
                .coupling
                .edges()
                .iter()
                .map(|&e| (e, UNIFORM_TWO_QUBIT))
                .collect(),
            gates: BTreeMap::new(),
            median_two: UNIFORM_TWO_QUBIT,
        }
    }

    /// Reads IBM BackendProperties JSON for `device`, whose two-qubit gate is called `entangler`
    /// (`cz`): the qubit count and the couplers carrying that gate must be the device's. The text
    /// is read by [`DeviceProperties::from_backend_properties`], the one reader of calibrations;
    /// a caller that needs its times as well reads it once and calls [`Calibration::from_properties`].
    pub fn from_backend_properties(
        text: &str,
        device: &Device,
        entangler: &str,
    ) -> Result<Calibration, CalibrationError> {
        Calibration::from_properties(
            &DeviceProperties::from_backend_properties(text)?,
            device,
            entangler,
        )
    }

    /// The error rates of read properties for `device`, whose two-qubit gate is called
    /// `entangler` (`cz`): the qubit count and the couplers carrying that gate must be the
    /// device's, and every qubit needs its readout error.
    pub fn from_properties(
        props: &DeviceProperties,
        device: &Device,
        entangler: &str,
    ) -> Result<Calibration, CalibrationError> {
        let n = device.num_qubits();
        let name = || device.name.clone();
        if props.qubits.len() != n {
            return Err(CalibrationError::QubitCount {
                backend: props.backend.clone(),
                found: props.qubits.len(),
                expected: n,
                device: name(),
            });
        }
        let readout = props
            .qubits
            .iter()
            .enumerate()
            .map(|(qubit, q)| {
                q.readout_error
                    .ok_or(CalibrationError::MissingReadout { qubit })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let mut gates = BTreeMap::new();
        let mut two = BTreeMap::new();
        let mut single = vec![0.0f64; n];
        for g in &props.gates {
            let Some(err) = g.error else {
                continue;
            };
            if let Some((kind, controls)) = gate_key(&g.gate) {
                gates.insert((kind, controls, g.qubits.clone()), err);
            }
            match g.qubits[..] {
                [q] if g.gate != "rz" && g.gate != "id" => single[q] = single[q].max(err),
                [a, b] if g.gate == entangler => {
                    if !device.coupling.has_edge(a, b) {
                        return Err(CalibrationError::NotACoupler {
                            backend: props.backend.clone(),
                            gate: g.gate.clone(),
                            a,
                            b,
                            device: name(),
                        });
                    }
                    let e = two.entry((a.min(b), a.max(b))).or_insert(err);
                    *e = e.max(err);
                }
                _ => {}
            }
        }
        if let Some(&(a, b)) = device
            .coupling
            .edges()
            .iter()
            .find(|e| !two.contains_key(*e))
        {
            return Err(CalibrationError::MissingCoupler {
                backend: props.backend.clone(),
                gate: entangler.to_string(),
                a,
                b,
                device: name(),
            });
        }
        let mut calibration = Calibration {
            backend: props.backend.clone(),
            readout,
            single,
            two,
            gates,
            median_two: UNIFORM_TWO_QUBIT,
        };
        // The unit of routing costs: the median coupler's routing error (never below the floor,
        // so a calibration of near-perfect couplers does not blow readout costs up).
        let mut errors: Vec<f64> = calibration
            .two
            .iter()
            .filter(|(_, e)| **e < BROKEN)
            .map(|(&(a, b), _)| calibration.routing_error(a, b))
            .collect();
        errors.sort_by(f64::total_cmp);
        if let Some(&median) = errors.get(errors.len() / 2) {
            calibration.median_two = median;
        }
        Ok(calibration)
    }

    /// Refuses a calibration whose `backend_name` is not `device`'s name (one without a name
    /// passes: nothing says it is of another device).
    pub fn check_device_name(&self, device: &Device) -> Result<(), CalibrationError> {
        match &self.backend {
            Some(backend) if *backend != device.name => Err(CalibrationError::OtherDevice {
                backend: backend.clone(),
                device: device.name.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// True when the qubit's readout and single-qubit errors are below [`BROKEN`].
    pub fn qubit_usable(&self, q: usize) -> bool {
        self.readout.get(q).is_some_and(|r| *r < BROKEN)
            && self.single.get(q).is_some_and(|s| *s < BROKEN)
    }

    /// True when the coupler `(a, b)` exists and its two-qubit error is below [`BROKEN`].
    pub fn coupler_usable(&self, a: usize, b: usize) -> bool {
        self.two_qubit_error(a, b).is_some_and(|e| e < BROKEN)
    }

    /// The two-qubit gate error of the coupler `(a, b)`.
    pub fn two_qubit_error(&self, a: usize, b: usize) -> Option<f64> {
        self.two.get(&(a.min(b), a.max(b))).copied()
    }

    /// The readout error of qubit `q`.
    pub fn readout_error(&self, q: usize) -> f64 {
        self.readout.get(q).copied().unwrap_or(UNIFORM_READOUT)
    }

    /// The couplers whose error marks them broken.
    pub fn broken_couplers(&self) -> Vec<(usize, usize)> {
        self.two
            .iter()
            .filter(|(_, e)| **e >= BROKEN)
            .map(|(k, _)| *k)
            .collect()
    }

    /// The error routing charges for one two-qubit gate on `(a, b)`: the calibrated one, but at
    /// least that of the single-qubit layer every CZ of a synthesis comes with (one gate on each
    /// qubit) and at least [`TWO_QUBIT_FLOOR`], so that a very good (or zero) calibrated error
    /// still costs the gate's time.
    pub fn routing_error(&self, a: usize, b: usize) -> f64 {
        let e = self.two_qubit_error(a, b).unwrap_or(BROKEN);
        let single = |q: usize| self.single.get(q).copied().unwrap_or(UNIFORM_SINGLE_QUBIT);
        let layer = 1.0 - (1.0 - single(a)) * (1.0 - single(b));
        e.max(layer).max(TWO_QUBIT_FLOOR)
    }

    /// The cost of one two-qubit gate on `(a, b)` in units of a median coupler's
    /// (`-ln(1 - e) / -ln(1 - median)`, `e` the [`Calibration::routing_error`]): what routing
    /// adds up and minimises.
    pub fn two_qubit_cost(&self, a: usize, b: usize) -> f64 {
        fidelity_cost(self.routing_error(a, b)) / fidelity_cost(self.median_two)
    }

    /// The cost of measuring qubit `q`, in the same unit as [`Calibration::two_qubit_cost`].
    pub fn readout_cost(&self, q: usize) -> f64 {
        fidelity_cost(self.readout_error(q)) / fidelity_cost(self.median_two)
    }

    /// The error of `gate` with `controls` leading 1-controls on `qubits` (controls first): the
    /// listed one, else by arity (the coupler's two-qubit error; a single-qubit gate's error on
    /// that qubit; 0 for a Z rotation, which is virtual).
    pub fn gate_error(&self, gate: Gate, controls: usize, qubits: &[usize]) -> f64 {
        if let Some(e) = self.gates.get(&(gate.kind(), controls, qubits.to_vec())) {
            return *e;
        }
        match qubits {
            [_] if gate.kind() == GateKind::Rz && controls == 0 => 0.0,
            _ => self.arity_error(qubits),
        }
    }

    /// The error of an unlisted gate on `qubits`, by its arity: a single-qubit gate's error on
    /// that qubit, the coupler's two-qubit error, else the uniform two-qubit error.
    fn arity_error(&self, qubits: &[usize]) -> f64 {
        match qubits {
            [q] => self.single.get(*q).copied().unwrap_or(UNIFORM_SINGLE_QUBIT),
            [a, b] => self.two_qubit_error(*a, *b).unwrap_or(UNIFORM_TWO_QUBIT),
            _ => UNIFORM_TWO_QUBIT,
        }
    }

    /// The estimated success probability of a program on physical qubits: the product of
    /// `1 - error` over its gates (conditioned ones too: the ESP assumes each runs) and
    /// measurements. Resets, delays and allocations cost nothing.
    pub fn esp(&self, circuit: &Circuit) -> f64 {
        let log: f64 = circuit
            .instructions()
            .iter()
            .filter_map(|i| match &i.op {
                Op::Gate {
                    gate,
                    targets,
                    controls,
                } => {
                    let qubits: Vec<usize> = controls
                        .iter()
                        .map(|c| c.qubit)
                        .chain(targets.iter().copied())
                        .map(|q| q.index())
                        .collect();
                    // Listed gates are resolved for 1-controls: one with a 0-control is
                    // priced by its arity.
                    Some(if controls.iter().all(|c| c.on == Polarity::One) {
                        self.gate_error(*gate, controls.len(), &qubits)
                    } else {
                        self.arity_error(&qubits)
                    })
                }
                Op::UserGate { .. } => {
                    let qubits: Vec<usize> = i.op.qubits().iter().map(|q| q.index()).collect();
                    Some(self.arity_error(&qubits))
                }
                Op::Measure { qubit, .. } => Some(self.readout_error(qubit.index())),
                Op::Reset { .. } | Op::Delay { .. } | Op::Alloc { .. } | Op::Free { .. } => None,
            })
            .map(|e| (1.0 - e).max(0.0).ln())
            .sum();
        log.exp()
    }
}

/// The key a calibration's gate `name` is listed under: the gate kind and number of 1-controls
/// it names, when it is the name the exporter writes for them (`cz`, `sx`, `ecr`, ...). Other
/// spellings of the same gate (`u` beside `u3`, `cphase` beside `cp`) are left out, so that two
/// entries never share a key, as are names the gate table does not know (`measure`, `reset`).
fn gate_key(name: &str) -> Option<(GateKind, usize)> {
    let form = qasm_gate(name)?;
    (!form.zero_control && form.kind.info().written_name(form.controls) == Some(name))
        .then_some((form.kind, form.controls))
}

/// `-ln(1 - e)`, the additive cost of an error rate.
fn fidelity_cost(e: f64) -> f64 {
    -(1.0 - e.clamp(0.0, 0.999_999)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::CouplingMap;

    fn line() -> Device {
        Device::new(
            "line",
            CouplingMap::new(3, &[[0, 1], [1, 2]]).expect("line"),
            true,
        )
    }

    fn props(qubits: usize, cz: &[(usize, usize, f64)]) -> String {
        let q: Vec<String> = (0..qubits)
            .map(|k| format!("[{{\"name\": \"readout_error\", \"value\": 0.0{}}}]", k + 1))
            .collect();
        let g: Vec<String> = cz
            .iter()
            .map(|(a, b, e)| format!("{{\"gate\": \"cz\", \"qubits\": [{a}, {b}], \"parameters\": [{{\"name\": \"gate_error\", \"value\": {e}}}]}}"))
            .chain((0..qubits).map(|k| format!("{{\"gate\": \"sx\", \"qubits\": [{k}], \"parameters\": [{{\"name\": \"gate_error\", \"value\": 0.001}}]}}")))
            .collect();
        format!(
            "{{\"backend_name\": \"fake\", \"qubits\": [{}], \"gates\": [{}]}}",
            q.join(", "),
            g.join(", ")
        )
    }

    #[test]
    fn properties_give_errors_broken_couplers_and_esp() {
        let c = Calibration::from_backend_properties(
            &props(3, &[(0, 1, 0.01), (1, 0, 0.01), (2, 1, 1.0)]),
            &line(),
            "cz",
        )
        .expect("calibration");
        assert_eq!(c.two_qubit_error(1, 0), Some(0.01));
        assert!(!c.coupler_usable(1, 2) && c.coupler_usable(0, 1));
        assert_eq!(c.broken_couplers(), vec![(1, 2)]);
        assert_eq!(c.readout_error(2), 0.03);
        let mut program = qc_ir::Circuit::with_plain_qubits(3, 1);
        let q = qc_ir::Qubit;
        program.push(qc_ir::Instruction::gate(
            Gate::Z,
            &[q(1)],
            &[qc_ir::Control::one(q(0))],
        ));
        program.push(qc_ir::Instruction::gate(Gate::SX, &[q(2)], &[]));
        program.push(qc_ir::Instruction::gate(Gate::Rz(0.3), &[q(2)], &[]));
        program.push(qc_ir::Instruction::new(Op::Measure {
            qubit: q(1),
            clbit: qc_ir::Clbit(0),
        }));
        let esp = c.esp(&program);
        assert!((esp - 0.99 * 0.999 * 0.98).abs() < 1e-12);
    }

    /// A calibration's gate names are keyed by the gate they name, when it is the name the
    /// exporter writes for it; other spellings and non-gates are left out.
    #[test]
    fn calibration_names_resolve_to_the_gates_exporters_write_with_them() {
        assert_eq!(gate_key("cz"), Some((GateKind::Z, 1)));
        assert_eq!(gate_key("ecr"), Some((GateKind::Ecr, 0)));
        assert_eq!(gate_key("rz"), Some((GateKind::Rz, 0)));
        assert_eq!(gate_key("u3"), Some((GateKind::U, 0)));
        for other in ["u", "u2", "cphase", "cnot", "measure", "reset"] {
            assert_eq!(gate_key(other), None, "{other}");
        }
    }

    /// A calibration whose couplers are perfect (error 0) or nearly (1e-6) still prices a CZ:
    /// at the single-qubit layer it comes with (0.002 on each qubit here), or at the floor when
    /// that is smaller; a coupler costs one unit, and a readout what its error is worth against
    /// that (0.03 -> about 8 CZ), not thousands of CZ or infinity.
    #[test]
    fn tiny_or_zero_coupler_errors_keep_a_cost() {
        for tiny in [0.0, 1e-6] {
            let text = props(3, &[(0, 1, tiny), (1, 2, tiny)]).replace("0.001}", "0.002}");
            let c = Calibration::from_backend_properties(&text, &line(), "cz").expect("props");
            let layer = 1.0 - 0.998 * 0.998;
            assert!((c.routing_error(0, 1) - layer).abs() < 1e-15, "{tiny}");
            assert!((c.two_qubit_cost(0, 1) - 1.0).abs() < 1e-12, "{tiny}");
            let want = fidelity_cost(0.03) / fidelity_cost(layer);
            assert!((c.readout_cost(2) - want).abs() < 1e-9, "{tiny}");
            assert!(c.readout_cost(2) < 20.0, "{tiny}: {}", c.readout_cost(2));
            // Single-qubit errors whose layer is below the floor: the floor.
            let c = Calibration::from_backend_properties(
                &text.replace("0.002}", "0.0001}"),
                &line(),
                "cz",
            )
            .expect("props");
            assert_eq!(c.routing_error(1, 2), TWO_QUBIT_FLOOR, "{tiny}");
            assert!(c.readout_cost(2) < 40.0, "{tiny}: {}", c.readout_cost(2));
        }
        // A calibrated error above both is the price.
        let text = props(3, &[(0, 1, 0.0), (1, 2, 0.01)]);
        let c = Calibration::from_backend_properties(&text, &line(), "cz").expect("props");
        assert_eq!(c.routing_error(1, 2), 0.01);
    }

    /// The one reader: error rates from read properties are those from the text, and a qubit
    /// without a readout error is named.
    #[test]
    fn rates_come_from_the_one_reader_of_calibrations() {
        let text = props(3, &[(0, 1, 0.01), (1, 2, 0.02)]);
        let read = DeviceProperties::from_backend_properties(&text).expect("reads");
        let from_read = Calibration::from_properties(&read, &line(), "cz").expect("rates");
        let from_text = Calibration::from_backend_properties(&text, &line(), "cz").expect("rates");
        assert_eq!(from_read, from_text);
        assert_eq!(from_read.two_qubit_error(2, 1), Some(0.02));
        let mut missing = read.clone();
        missing.qubits[1].readout_error = None;
        assert_eq!(
            Calibration::from_properties(&missing, &line(), "cz"),
            Err(CalibrationError::MissingReadout { qubit: 1 })
        );
    }

    #[test]
    fn a_calibration_for_another_device_is_refused() {
        let err = |text: String| Calibration::from_backend_properties(&text, &line(), "cz");
        assert!(matches!(
            err(props(4, &[(0, 1, 0.01), (1, 2, 0.01)])),
            Err(CalibrationError::QubitCount {
                found: 4,
                expected: 3,
                ..
            })
        ));
        assert!(matches!(
            err(props(3, &[(0, 1, 0.01), (1, 2, 0.01), (0, 2, 0.01)])),
            Err(CalibrationError::NotACoupler { a: 0, b: 2, .. })
        ));
        assert!(matches!(
            err(props(3, &[(0, 1, 0.01)])),
            Err(CalibrationError::MissingCoupler { a: 1, b: 2, .. })
        ));
        assert!(matches!(
            err(props(3, &[(0, 1, 1.5), (1, 2, 0.01)])),
            Err(CalibrationError::BadValue { .. })
        ));
        assert!(matches!(
            err("{\"qubits\": 3}".into()),
            Err(CalibrationError::Json { line: 1, .. })
        ));
        // The same map, another device's name (`fake` is not `line`).
        let other = err(props(3, &[(0, 1, 0.01), (1, 2, 0.01)])).expect("same map");
        let refused = other.check_device_name(&line());
        assert_eq!(
            refused,
            Err(CalibrationError::OtherDevice {
                backend: "fake".into(),
                device: "line".into()
            })
        );
        let named = Device::new("fake", line().coupling, true);
        assert_eq!(other.check_device_name(&named), Ok(()));
        let message = err(props(4, &[])).map(|_| ()).unwrap_err().to_string();
        assert!(
            message.contains("(of `fake`) has 4 qubits, but device `line` has 3"),
            "{message}"
        );
    }
}
