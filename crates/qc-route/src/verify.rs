//! The verifier every routed program passes: gates on at most two qubits, every operation on a
//! usable qubit and every two-qubit gate on a usable coupler (a broken one never), a directed
//! gate (ECR, CX) the way its coupler drives it, only native gates (as the caller defines
//! them), nothing after a measurement on a device that measures only at the end, every bit
//! measured as often as in the original program and on the physical qubit the layout records.

use crate::calibration::Calibration;
use crate::device::Device;
use crate::error::VerifyError;
use crate::router::QubitTrack;
use qc_ir::{Circuit, Instruction, Op};
use std::collections::BTreeMap;

/// Checks `routed` (on the device's physical qubits) against the device, the calibration, the
/// layout `tracks` and `measured_in_original` (how often the original program measures each
/// bit). `native` says whether an instruction is one of the device's gates.
pub fn verify(
    routed: &Circuit,
    device: &Device,
    calibration: &Calibration,
    tracks: &[QubitTrack],
    measured_in_original: &BTreeMap<usize, usize>,
    native: &dyn Fn(&Instruction) -> bool,
) -> Result<(), VerifyError> {
    let n = device.num_qubits();
    let mut measured = vec![false; n];
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    let recorded: BTreeMap<usize, usize> = tracks
        .iter()
        .flat_map(|t| t.measurements.iter().copied())
        .collect();
    for (index, instr) in routed.instructions().iter().enumerate() {
        let qubits: Vec<usize> = instr.op.qubits().iter().map(|q| q.index()).collect();
        for &q in &qubits {
            if q >= n || !calibration.qubit_usable(q) {
                return Err(VerifyError::BadQubit { index, qubit: q });
            }
            if measured[q] && !device.mid_circuit {
                return Err(VerifyError::AfterMeasurement { index, qubit: q });
            }
        }
        match &instr.op {
            Op::Gate { .. } | Op::UserGate { .. } => {
                let name = gate_name(instr);
                match qubits[..] {
                    [_] => {}
                    [a, b] => {
                        if !device.coupling.has_edge(a, b) || !calibration.coupler_usable(a, b) {
                            return Err(VerifyError::NotACoupler {
                                index,
                                gate: name,
                                a,
                                b,
                            });
                        }
                        if let Some((first, second)) = drive_order(instr) {
                            if device.entangler.directed() && !device.coupling.runs(first, second) {
                                return Err(VerifyError::AgainstCoupler {
                                    index,
                                    gate: name,
                                    first,
                                    second,
                                });
                            }
                        }
                    }
                    _ => {
                        return Err(VerifyError::TooWide {
                            index,
                            qubits: qubits.len(),
                        })
                    }
                }
                if !native(instr) {
                    return Err(VerifyError::NotNative { index, gate: name });
                }
            }
            Op::Measure { qubit, clbit } => {
                let (q, c) = (qubit.index(), clbit.index());
                measured[q] = true;
                *counts.entry(c).or_default() += 1;
                if let Some(&r) = recorded.get(&c) {
                    if r != q {
                        return Err(VerifyError::Layout {
                            clbit: c,
                            found: q,
                            recorded: r,
                        });
                    }
                }
            }
            Op::Reset { qubit } => {
                if !device.mid_circuit {
                    return Err(VerifyError::AfterMeasurement {
                        index,
                        qubit: qubit.index(),
                    });
                }
            }
            // A delay (dynamical decoupling's spacing) is no device gate: any qubit may wait.
            Op::Alloc { .. } | Op::Free { .. } | Op::Delay { .. } => {}
        }
    }
    for (&clbit, &times) in measured_in_original {
        if counts.get(&clbit).copied().unwrap_or(0) != times {
            return Err(VerifyError::Measurements {
                clbit,
                times: counts.get(&clbit).copied().unwrap_or(0),
            });
        }
    }
    if let Some((&clbit, &times)) = counts
        .iter()
        .find(|(c, _)| !measured_in_original.contains_key(c))
    {
        return Err(VerifyError::Measurements { clbit, times });
    }
    Ok(())
}

/// How many times `circuit` measures each bit.
pub fn measurement_counts(circuit: &Circuit) -> BTreeMap<usize, usize> {
    let mut counts = BTreeMap::new();
    for instr in circuit.instructions() {
        if let Op::Measure { clbit, .. } = instr.op {
            *counts.entry(clbit.index()).or_default() += 1;
        }
    }
    counts
}

fn gate_name(instr: &Instruction) -> String {
    match &instr.op {
        Op::Gate { gate, controls, .. } => {
            format!("{}{}", "c".repeat(controls.len()), gate.name())
        }
        Op::UserGate { gate, .. } => gate.name().to_string(),
        _ => String::new(),
    }
}

/// A two-qubit gate's qubits in the order a directed coupler drives them: a controlled gate's
/// control first, else its first target (ECR's driven side). `None` for anything else.
fn drive_order(instr: &Instruction) -> Option<(usize, usize)> {
    match &instr.op {
        Op::Gate {
            targets, controls, ..
        } => match (&controls[..], &targets[..]) {
            ([c], [t]) => Some((c.qubit.index(), t.index())),
            ([], [a, b]) => Some((a.index(), b.index())),
            _ => None,
        },
        _ => None,
    }
}
