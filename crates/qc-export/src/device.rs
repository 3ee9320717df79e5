//! Device programs: the bridge between an exported program and the device compiler (qc-route,
//! which knows nothing of OpenQASM). [`program_circuit`] turns a program (native gates on the
//! program's own qubits) into an IR circuit for routing; [`device_program`] writes the routed
//! circuit (on physical qubits) as a program again: lowered to the target's gates, printed on
//! physical qubits `$k` (OpenQASM 3, as Qiskit writes a transpiled circuit) or on `q[k]` of a
//! device-wide register (OpenQASM 2), with the unrouted program's bits, labels and map (each
//! measured bit's `qubit` now the physical qubit that reads it) and the layout in the header.

use crate::error::{ExpandProblem, ExportError, TargetProblem};
use crate::export::{header_lines, Export};
use crate::header::{Holds, LayoutEntry};
use crate::lower::named_call;
use crate::program::{GateCall, Program, Stmt};
use crate::qasm2::to_qasm2;
use crate::target::{lower_program, Target};
use crate::ExportOptions;
use qc_ir::gate_data::qasm_gate;
use qc_ir::{Circuit, Clbit, Condition, Control, Instruction, Op, Qubit, QubitRole};

/// The IR circuit of a program written without modifiers (what a target's lowering produces):
/// one plain qubit per register qubit (a square's qubit gets the square's role, from the map),
/// the program's bits, `if (c[k])` bodies as gates conditioned on `c[k] = 1`.
pub fn program_circuit(program: &Program) -> Result<Circuit, ExportError> {
    let mut roles = vec![QubitRole::Plain; program.num_qubits];
    for m in &program.map.measured {
        if let (Holds::Site(sq), Some(role)) = (m.holds, roles.get_mut(m.qubit)) {
            *role = QubitRole::Site(sq);
        }
    }
    let mut c = Circuit::from_parts(roles, program.num_clbits as u32, Vec::new());
    let q = |k: usize| Qubit(k as u32);
    for stmt in &program.body {
        match stmt {
            Stmt::Gate(g) => c.push(call_instruction(g)?),
            Stmt::If { clbit, body } => {
                for g in body {
                    c.push(call_instruction(g)?.with_condition(Condition {
                        clbit: Clbit(*clbit as u32),
                        value: true,
                    }));
                }
            }
            Stmt::Measure { qubit, clbit } => c.push(Instruction::new(Op::Measure {
                qubit: q(*qubit),
                clbit: Clbit(*clbit as u32),
            })),
            Stmt::Reset { qubit } => c.push(Instruction::new(Op::Reset { qubit: q(*qubit) })),
            Stmt::Delay { qubit, duration } => c.push(Instruction::new(Op::Delay {
                qubit: q(*qubit),
                duration: *duration,
            })),
        }
    }
    Ok(c)
}

/// One modifier-free call as an IR gate, from the gate table.
fn call_instruction(call: &GateCall) -> Result<Instruction, ExportError> {
    let err = |why: ExpandProblem| ExportError::Target {
        target: "device".into(),
        problem: TargetProblem::Expand {
            gate: call.name.clone(),
            why,
        },
    };
    if !call.modifiers.is_empty() {
        return Err(ExportError::Target {
            target: "device".into(),
            problem: TargetProblem::Modifiers,
        });
    }
    let form = qasm_gate(&call.name).ok_or_else(|| err(ExpandProblem::UnknownGate))?;
    if call.qubits.len() != form.num_qubits() {
        return Err(err(ExpandProblem::Qubits(form.num_qubits())));
    }
    let resolved = form
        .resolve(&call.params)
        .ok_or_else(|| err(ExpandProblem::Angles(form.num_params())))?;
    let (controls, targets) = call.qubits.split_at(resolved.controls);
    let targets: Vec<Qubit> = targets.iter().map(|&k| Qubit(k as u32)).collect();
    let controls: Vec<Control> = controls
        .iter()
        .map(|&k| Control::one(Qubit(k as u32)))
        .collect();
    if resolved.control_phase != 0.0 {
        // A controlled form with a phase on its control (`cs` as `cp`): the IR has no such
        // gate; routing reads lowered programs, which never call one.
        return Err(err(ExpandProblem::NoDecomposition {
            gate: resolved.gate.name(),
            targets: targets.len(),
            controls: controls.len(),
        }));
    }
    Ok(Instruction::gate(resolved.gate, &targets, &controls))
}

/// The text format of a device program.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeviceFormat {
    /// OpenQASM 3 on physical qubits `$k`.
    Qasm3,
    /// OpenQASM 2 on a register `q` as wide as the device (`q[k]` is physical qubit `k`).
    Qasm2,
}

/// Writes `routed` (qc-route's output: qubit `k` is physical qubit `k` of `target`, the bits
/// those of `logical`) as a device program: lowered to `target`'s gates, with `logical`'s bit
/// labels, post-selection and map (measured bits read on their physical qubits) and `layout`
/// in the header.
pub fn device_program(
    routed: &Circuit,
    logical: &Export,
    layout: Vec<LayoutEntry>,
    options: &ExportOptions,
    target: &Target,
    format: DeviceFormat,
) -> Result<Export, ExportError> {
    if format == DeviceFormat::Qasm2 && !target.rename.is_empty() {
        return Err(ExportError::NoQasm2 {
            target: target.name.clone(),
            renamed: target.rename.keys().cloned().collect(),
        });
    }
    let mut options = *options;
    if !target.feed_forward {
        options.form = crate::Form::Deferred;
    }
    let mut body: Vec<Stmt> = Vec::new();
    let mut physical_of_bit = std::collections::BTreeMap::new();
    for (index, instr) in routed.instructions().iter().enumerate() {
        match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                let (name, params) =
                    named_call(*gate, controls.len()).ok_or_else(|| ExportError::Target {
                        target: target.name.clone(),
                        problem: TargetProblem::Expand {
                            gate: gate.name().to_string(),
                            why: ExpandProblem::NoDecomposition {
                                gate: gate.name(),
                                targets: targets.len(),
                                controls: controls.len(),
                            },
                        },
                    })?;
                let qubits: Vec<usize> = controls
                    .iter()
                    .map(|c| c.qubit.index())
                    .chain(targets.iter().map(|t| t.index()))
                    .collect();
                let call = GateCall::new(name, params, qubits);
                match crate::lower::one_bit(index, instr)? {
                    None => body.push(Stmt::Gate(call)),
                    Some(cond) => {
                        let clbit = cond.clbit.index();
                        let inverse = (!cond.value).then(|| {
                            let (n, p) = named_call(gate.inverse(), controls.len())
                                .unwrap_or((name, Vec::new()));
                            GateCall::new(n, p, call.qubits.clone())
                        });
                        match inverse {
                            // On bit value 0: the gate, undone when the bit is 1.
                            Some(undo) => {
                                body.push(Stmt::Gate(call));
                                body.push(Stmt::If {
                                    clbit,
                                    body: vec![undo],
                                });
                            }
                            None => match body.last_mut() {
                                Some(Stmt::If { clbit: c, body: b }) if *c == clbit => b.push(call),
                                _ => body.push(Stmt::If {
                                    clbit,
                                    body: vec![call],
                                }),
                            },
                        }
                    }
                }
            }
            Op::Measure { qubit, clbit } => {
                physical_of_bit.insert(clbit.index(), qubit.index());
                body.push(Stmt::Measure {
                    qubit: qubit.index(),
                    clbit: clbit.index(),
                });
            }
            Op::Reset { qubit } => body.push(Stmt::Reset {
                qubit: qubit.index(),
            }),
            Op::Delay { qubit, duration } => body.push(Stmt::Delay {
                qubit: qubit.index(),
                duration: *duration,
            }),
            Op::UserGate { .. } | Op::Alloc { .. } | Op::Free { .. } => {}
        }
    }
    let mut map = logical.program.map.clone();
    for m in &mut map.measured {
        if let Some(&p) = physical_of_bit.get(&m.bit) {
            m.qubit = p;
        }
    }
    for z in &mut map.zero {
        if let Some(&p) = physical_of_bit.get(&z.bit) {
            z.qubit = p;
        }
    }
    let labels = physical_labels(&layout, target.qubits);
    let program = Program {
        num_qubits: target.qubits,
        num_clbits: logical.program.num_clbits,
        qubit_labels: labels,
        clbit_labels: logical.program.clbit_labels.clone(),
        header: Vec::new(),
        body,
        map,
        physical: true,
        layout: Some(layout),
    };
    let mut program = lower_program(&program, target)?;
    let (kind, text) = match format {
        DeviceFormat::Qasm3 => ("qasm3", None),
        DeviceFormat::Qasm2 => ("qasm2", Some(())),
    };
    program.header = header_lines(&program, &logical.postselect, &options, &target.name, kind);
    let text = match text {
        None => program.to_qasm3(target.include_stdgates, target.definitions),
        Some(()) => to_qasm2(&program),
    };
    Ok(Export {
        summary: program.summary(),
        text,
        program,
        postselect: logical.postselect.clone(),
    })
}

/// Each physical qubit's comment, from the layout alone (so it says what the header's JSON
/// says): every program qubit that starts a life there (`start`) or is measured there
/// (`measure c[k]`), in program-qubit order: `a2 (start), b1 (measure c[1])`, `meas0 (start;
/// measure c[0], c[7])`. A qubit routing exchanged onto another is named where it is measured,
/// not only where it started. A qubit no program qubit starts or is measured on gets none.
fn physical_labels(layout: &[LayoutEntry], qubits: usize) -> Vec<String> {
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); qubits];
    for entry in layout {
        let name = entry.name.split(" (").next().unwrap_or(&entry.name);
        let mut here: std::collections::BTreeMap<usize, (bool, Vec<usize>)> =
            std::collections::BTreeMap::new();
        for &p in &entry.lives {
            here.entry(p).or_default().0 = true;
        }
        for m in &entry.measured {
            here.entry(m.physical).or_default().1.push(m.bit);
        }
        for (p, (starts, bits)) in here {
            let Some(part) = parts.get_mut(p) else {
                continue;
            };
            let mut what: Vec<String> = Vec::new();
            if starts {
                what.push("start".into());
            }
            if !bits.is_empty() {
                let bits: Vec<String> = bits.iter().map(|b| format!("c[{b}]")).collect();
                what.push(format!("measure {}", bits.join(", ")));
            }
            part.push(format!("{name} ({})", what.join("; ")));
        }
    }
    parts.into_iter().map(|p| p.join(", ")).collect()
}
