//! Noisy simulation of a device program from the device's calibration, as `qchess run PROGRAM
//! --noise CALIBRATION --shots N` does it: the calibration (IBM's BackendProperties JSON, read
//! by `qc_route::DeviceProperties`) becomes qc-sim's plain-data [`NoiseModel`], the way Qiskit
//! Aer's `NoiseModel.from_backend` reads the same file, and the program runs shot by shot as
//! Monte-Carlo trajectories (`qc_sim::noise`).

use crate::BackendKind;
use qc_ir::Circuit;
use qc_route::{CalibrationError, DeviceProperties, GateProperties};
use qc_sim::noise::{
    noisy_counts, Counts, CouplerNoise, NoiseError, NoiseModel, NoisyProgram, NoisyRunError,
    QubitNoise,
};
use qc_sim::{MemoryLimit, Precision};

/// Why a noisy run failed.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum NoisyError {
    /// The calibration cannot be read.
    #[error("the calibration: {0}")]
    Calibration(#[from] CalibrationError),
    /// The program does not fit the calibration's device.
    #[error("the program against the calibration: {0}")]
    Program(#[from] NoiseError),
    /// A trajectory failed, or the counts outgrew their memory (boxed: it carries the failed
    /// instruction's origin).
    #[error("{0}")]
    Run(Box<NoisyRunError>),
}

/// The single-qubit gate whose calibration stands for every non-virtual single-qubit gate of a
/// qubit (on IBM's devices `x` is two `sx` pulses' worth of error in one pulse's time, and the
/// two are calibrated alike).
const REFERENCE_SINGLE_QUBIT_GATE: &str = "sx";

/// The noise model of the device `props` describes, whose two-qubit gate is `entangler` (`cz`
/// on IBM's Heron devices): per qubit T1, T2 (missing: none), the readout errors
/// `prob_meas1_prep0` and `prob_meas0_prep1` (missing: `readout_error` both ways), the error and
/// length of `sx` (missing: the largest of its other non-virtual single-qubit gates), the
/// readout length, the reset's length and error; per coupler the larger of its two directions'
/// error and length.
pub fn noise_model(props: &DeviceProperties, entangler: &str) -> NoiseModel {
    let mut model = NoiseModel::ideal(props.qubits.len());
    for (noise, q) in model.qubits.iter_mut().zip(&props.qubits) {
        *noise = QubitNoise {
            t1: q.t1.unwrap_or(f64::INFINITY),
            t2: q.t2.unwrap_or(f64::INFINITY),
            p1_given_0: q.prob_meas1_prep0.or(q.readout_error).unwrap_or(0.0),
            p0_given_1: q.prob_meas0_prep1.or(q.readout_error).unwrap_or(0.0),
            measure_duration: q.readout_length.unwrap_or(0.0),
            ..QubitNoise::default()
        };
    }
    let single = |g: &GateProperties| g.qubits.len() == 1 && !matches!(&*g.gate, "rz" | "id");
    // Other single-qubit gates first, so that `sx`'s entry, where listed, has the last word.
    let mut ordered: Vec<&GateProperties> = props.gates.iter().filter(|g| single(g)).collect();
    ordered.sort_by_key(|g| g.gate == REFERENCE_SINGLE_QUBIT_GATE);
    let mut from_reference = vec![false; props.qubits.len()];
    for g in ordered {
        let q = g.qubits[0];
        let noise = &mut model.qubits[q];
        let error = g.error.unwrap_or(0.0);
        let length = g.length.unwrap_or(0.0);
        if g.gate == "reset" {
            noise.reset_error = error;
            noise.reset_duration = length;
        } else if g.gate == REFERENCE_SINGLE_QUBIT_GATE && !from_reference[q] {
            from_reference[q] = true;
            noise.gate_error = error;
            noise.gate_duration = length;
        } else if !from_reference[q] {
            noise.gate_error = noise.gate_error.max(error);
            noise.gate_duration = noise.gate_duration.max(length);
        }
    }
    for g in props.gates.iter().filter(|g| g.gate == entangler) {
        if let [a, b] = g.qubits[..] {
            let coupler = model.couplers.entry((a.min(b), a.max(b))).or_default();
            *coupler = CouplerNoise {
                error: coupler.error.max(g.error.unwrap_or(0.0)),
                duration: coupler.duration.max(g.length.unwrap_or(0.0)),
            };
        }
    }
    model
}

/// The two-qubit gate a calibration's coupler errors are for: `cz` where it lists CZ (IBM's
/// Heron devices, Google's Willow), else the first other two-qubit gate it lists (`siswap` on
/// Google's Sycamore-class processors, `ecr` on IBM's Eagles).
fn calibrated_entangler(props: &DeviceProperties) -> &str {
    let mut two = props.gates.iter().filter(|g| g.qubits.len() == 2);
    if two.clone().any(|g| g.gate == "cz") {
        return "cz";
    }
    two.next().map_or("cz", |g| g.gate.as_str())
}

/// `shots` noisy shots of `circuit` (a program on the device's physical qubits, as written) with
/// the noise of the calibration `properties` (BackendProperties JSON text), on the simulator
/// `backend` in `precision`, seeded with `seed`: outcome -> count.
///
/// # Errors
/// The calibration cannot be read; the program uses a qubit it lacks, a two-qubit gate off its
/// couplers or a gate on three qubits; a trajectory outgrew the memory limit.
pub fn noisy_run(
    circuit: &Circuit,
    properties: &str,
    backend: BackendKind,
    precision: Precision,
    shots: u64,
    seed: u64,
) -> Result<Counts, NoisyError> {
    let props = DeviceProperties::read(properties)?;
    let model = noise_model(&props, calibrated_entangler(&props));
    let program = NoisyProgram::new(circuit, &model)?;
    let counts = crate::with_simulator!(backend, precision, |new_sim| {
        noisy_counts(&program, new_sim, MemoryLimit::default(), shots, seed)
    })
    .map_err(|e| NoisyError::Run(Box::new(e)))?;
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(name: &str, qubits: &[usize], error: f64, length: f64) -> GateProperties {
        GateProperties {
            gate: name.to_string(),
            qubits: qubits.to_vec(),
            error: Some(error),
            length: Some(length),
        }
    }

    /// sx stands for the qubit's gates even when x is listed after it and worse; readout falls
    /// back to readout_error; a coupler takes its worse direction; rz is virtual.
    #[test]
    fn the_model_takes_each_value_from_its_entry() {
        let props = DeviceProperties {
            backend: None,
            qubits: vec![
                qc_route::QubitProperties {
                    t1: Some(1e5),
                    t2: Some(5e4),
                    readout_error: Some(0.02),
                    prob_meas0_prep1: Some(0.03),
                    readout_length: Some(1560.0),
                    ..Default::default()
                },
                qc_route::QubitProperties::default(),
            ],
            gates: vec![
                gate("rz", &[0], 0.5, 0.0),
                gate("sx", &[0], 3e-4, 24.0),
                gate("x", &[0], 9e-4, 30.0),
                gate("x", &[1], 7e-4, 24.0),
                gate("reset", &[1], 0.01, 1584.0),
                gate("cz", &[0, 1], 0.004, 84.0),
                gate("cz", &[1, 0], 0.006, 68.0),
                gate("rzz", &[0, 1], 0.5, 500.0),
            ],
        };
        let m = noise_model(&props, "cz");
        let q0 = m.qubits[0];
        assert_eq!((q0.t1, q0.t2), (1e5, 5e4));
        assert_eq!((q0.p1_given_0, q0.p0_given_1), (0.02, 0.03));
        assert_eq!((q0.gate_error, q0.gate_duration), (3e-4, 24.0));
        assert_eq!(q0.measure_duration, 1560.0);
        let q1 = m.qubits[1];
        assert_eq!((q1.gate_error, q1.t1), (7e-4, f64::INFINITY));
        assert_eq!((q1.reset_error, q1.reset_duration), (0.01, 1584.0));
        assert_eq!(
            m.coupler(1, 0),
            Some(&CouplerNoise {
                error: 0.006,
                duration: 84.0
            })
        );
        assert_eq!(m.couplers.len(), 1);
    }
}
