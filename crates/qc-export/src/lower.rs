//! Lowering IR instructions to OpenQASM gate calls: controls of any polarity and number,
//! conditions on either bit value, resets, in the portable or the extended dialect.
//!
//! Portable: 0-controls are x-wrapped (or use the library's `n*` forms for one 0-control on the
//! iSWAP family); one control uses the stdgates/library controlled form (`cx`, `cry`, `cu`, `ciswap`,
//! ...); more controls on X use `ccx`/`c3x`/a `ccx` V-chain over clean scratch qubits, and on
//! other gates first compute the AND of the controls into a scratch qubit. Everything is
//! uncomputed, so scratch qubits are always |0> between instructions. A condition on bit value 0
//! is written as the gate followed by `if (c[k]) { inverse }`, which is the gate exactly when the
//! bit is 0 and the identity when it is 1. A reset is a measurement into a scratch bit followed by a
//! conditioned `x`.

use crate::decompose::u_params;
use crate::error::ExportError;
use crate::program::{GateCall, Modifier, Stmt};
use crate::Dialect;
use qc_ir::{Gate, Instruction, Op, Polarity};

/// Turns instructions into statements; owns the scratch qubit and scratch bit allocation.
pub struct Lowerer {
    /// Register index of each IR qubit (`None` when the qubit is not in the program).
    pub map: Vec<Option<usize>>,
    /// First scratch qubit index.
    pub scratch_base: usize,
    scratch_in_use: usize,
    /// Scratch qubits ever needed.
    pub scratch_max: usize,
    /// Next scratch bit index (scratch bits follow the circuit's bits).
    pub next_clbit: usize,
    dialect: Dialect,
}

impl Lowerer {
    /// A lowerer for a program whose circuit bits are `0..num_clbits`.
    pub fn new(
        map: Vec<Option<usize>>,
        scratch_base: usize,
        num_clbits: usize,
        dialect: Dialect,
    ) -> Lowerer {
        Lowerer {
            map,
            scratch_base,
            scratch_in_use: 0,
            scratch_max: 0,
            next_clbit: num_clbits,
            dialect,
        }
    }

    fn q(&self, index: usize, qubit: qc_ir::Qubit) -> Result<usize, ExportError> {
        self.map
            .get(qubit.index())
            .copied()
            .flatten()
            .ok_or_else(|| ExportError::Unsupported {
                index,
                reason: format!("qubit {qubit} has no register slot"),
            })
    }

    /// Lowers one instruction, appending statements.
    pub fn instruction(
        &mut self,
        index: usize,
        instr: &Instruction,
        out: &mut Vec<Stmt>,
    ) -> Result<(), ExportError> {
        match &instr.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => {
                let t: Vec<usize> = targets
                    .iter()
                    .map(|q| self.q(index, *q))
                    .collect::<Result<_, _>>()?;
                let c: Vec<(usize, bool)> = controls
                    .iter()
                    .map(|c| Ok((self.q(index, c.qubit)?, c.on == Polarity::One)))
                    .collect::<Result<_, ExportError>>()?;
                let calls = self.gate(*gate, &t, &c);
                match instr.condition {
                    None => out.extend(calls.into_iter().map(Stmt::Gate)),
                    Some(cond) if cond.value => push_if(out, cond.clbit.index(), calls),
                    Some(cond) => {
                        out.extend(calls.into_iter().map(Stmt::Gate));
                        let undo = self.gate(gate.inverse(), &t, &c);
                        push_if(out, cond.clbit.index(), undo);
                    }
                }
            }
            Op::Measure { qubit, clbit } => {
                if instr.condition.is_some() {
                    return Err(ExportError::Unsupported {
                        index,
                        reason: "a conditioned measurement has no OpenQASM form here; use the deferred form".into(),
                    });
                }
                out.push(Stmt::Measure {
                    qubit: self.q(index, *qubit)?,
                    clbit: clbit.index(),
                });
            }
            Op::Reset { qubit } => {
                if instr.condition.is_some() {
                    return Err(ExportError::Unsupported {
                        index,
                        reason:
                            "a conditioned reset has no OpenQASM form here; use the deferred form"
                                .into(),
                    });
                }
                let q = self.q(index, *qubit)?;
                match self.dialect {
                    Dialect::Extended => out.push(Stmt::Reset { qubit: q }),
                    Dialect::Portable => {
                        let bit = self.next_clbit;
                        self.next_clbit += 1;
                        out.push(Stmt::Measure {
                            qubit: q,
                            clbit: bit,
                        });
                        push_if(out, bit, vec![GateCall::new("x", vec![], vec![q])]);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Gate calls for `gate` on `targets` with `(qubit, polarity)` controls.
    pub fn gate(
        &mut self,
        gate: Gate,
        targets: &[usize],
        controls: &[(usize, bool)],
    ) -> Vec<GateCall> {
        if gate == Gate::I {
            return Vec::new();
        }
        if self.dialect == Dialect::Extended {
            let (name, params) = base_name(gate);
            let mut call = GateCall::new(name, params, Vec::new());
            for &(q, on) in controls {
                call.modifiers.push(if on {
                    Modifier::Ctrl
                } else {
                    Modifier::NegCtrl
                });
                call.qubits.push(q);
            }
            call.qubits.extend_from_slice(targets);
            return vec![call];
        }
        if let [(c, false)] = controls {
            if let Some(name) = zero_controlled_name(gate) {
                return vec![GateCall::new(
                    name,
                    vec![],
                    vec![*c, targets[0], targets[1]],
                )];
            }
        }
        let zeros: Vec<usize> = controls
            .iter()
            .filter(|(_, on)| !on)
            .map(|(q, _)| *q)
            .collect();
        let ones: Vec<usize> = controls.iter().map(|(q, _)| *q).collect();
        let mut out: Vec<GateCall> = zeros
            .iter()
            .map(|&q| GateCall::new("x", vec![], vec![q]))
            .collect();
        self.positive(gate, targets, &ones, &mut out);
        out.extend(zeros.iter().map(|&q| GateCall::new("x", vec![], vec![q])));
        out
    }

    fn positive(
        &mut self,
        gate: Gate,
        targets: &[usize],
        controls: &[usize],
        out: &mut Vec<GateCall>,
    ) {
        match (gate, controls.len()) {
            (_, 0) => {
                let (name, params) = base_name(gate);
                out.push(GateCall::new(name, params, targets.to_vec()));
            }
            (_, 1) => out.push(single_controlled(gate, controls[0], targets)),
            (Gate::X, _) => self.mcx(controls, targets[0], out),
            _ => {
                let a = self.alloc_scratch();
                self.mcx(controls, a, out);
                out.push(single_controlled(gate, a, targets));
                self.mcx(controls, a, out);
                self.scratch_in_use -= 1;
            }
        }
    }

    fn alloc_scratch(&mut self) -> usize {
        let q = self.scratch_base + self.scratch_in_use;
        self.scratch_in_use += 1;
        self.scratch_max = self.scratch_max.max(self.scratch_in_use);
        q
    }

    /// Multi-controlled X: `cx`, `ccx`, `c3x`, or a `ccx` V-chain over clean scratch qubits.
    fn mcx(&mut self, controls: &[usize], target: usize, out: &mut Vec<GateCall>) {
        match controls.len() {
            0 => out.push(GateCall::new("x", vec![], vec![target])),
            1 => out.push(GateCall::new("cx", vec![], vec![controls[0], target])),
            2 => out.push(GateCall::new(
                "ccx",
                vec![],
                vec![controls[0], controls[1], target],
            )),
            3 => out.push(GateCall::new(
                "c3x",
                vec![],
                vec![controls[0], controls[1], controls[2], target],
            )),
            k => {
                let anc: Vec<usize> = (0..k - 2).map(|_| self.alloc_scratch()).collect();
                let mut chain = vec![GateCall::new(
                    "ccx",
                    vec![],
                    vec![controls[0], controls[1], anc[0]],
                )];
                for i in 1..k - 2 {
                    chain.push(GateCall::new(
                        "ccx",
                        vec![],
                        vec![controls[i + 1], anc[i - 1], anc[i]],
                    ));
                }
                out.extend(chain.iter().cloned());
                out.push(GateCall::new(
                    "ccx",
                    vec![],
                    vec![controls[k - 1], anc[k - 3], target],
                ));
                out.extend(chain.into_iter().rev());
                self.scratch_in_use -= k - 2;
            }
        }
    }
}

fn push_if(out: &mut Vec<Stmt>, clbit: usize, calls: Vec<GateCall>) {
    if calls.is_empty() {
        return;
    }
    if let Some(Stmt::If { clbit: c, body }) = out.last_mut() {
        if *c == clbit {
            body.extend(calls);
            return;
        }
    }
    out.push(Stmt::If { clbit, body: calls });
}

/// The OpenQASM name and parameters of an uncontrolled gate (stdgates or library).
pub fn base_name(gate: Gate) -> (&'static str, Vec<f64>) {
    (gate.info().qasm_name(), gate.params())
}

fn zero_controlled_name(gate: Gate) -> Option<&'static str> {
    Some(match gate {
        Gate::ISwap => "nciswap",
        Gate::ISwapDg => "nciswapdg",
        Gate::SqrtISwap => "ncsiswap",
        Gate::SqrtISwapDg => "ncsiswapdg",
        _ => return None,
    })
}

/// The exact singly-controlled form of `gate` (control first).
fn single_controlled(gate: Gate, c: usize, targets: &[usize]) -> GateCall {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
    let mut qubits = vec![c];
    qubits.extend_from_slice(targets);
    let (name, params) = match gate {
        Gate::X => ("cx", vec![]),
        Gate::Y => ("cy", vec![]),
        Gate::Z => ("cz", vec![]),
        Gate::H => ("ch", vec![]),
        Gate::S => ("cp", vec![FRAC_PI_2]),
        Gate::Sdg => ("cp", vec![-FRAC_PI_2]),
        Gate::T => ("cp", vec![FRAC_PI_4]),
        Gate::Tdg => ("cp", vec![-FRAC_PI_4]),
        Gate::Phase(a) => ("cp", vec![a]),
        Gate::Rx(a) => ("crx", vec![a]),
        Gate::Ry(a) => ("cry", vec![a]),
        Gate::Rz(a) => ("crz", vec![a]),
        Gate::Swap => ("cswap", vec![]),
        Gate::ISwap => ("ciswap", vec![]),
        Gate::ISwapDg => ("ciswapdg", vec![]),
        Gate::SqrtISwap => ("csiswap", vec![]),
        Gate::SqrtISwapDg => ("csiswapdg", vec![]),
        g => {
            let (t, p, l, gamma) = u_params(&g.matrix());
            ("cu", vec![t, p, l, gamma])
        }
    };
    GateCall::new(name, params, qubits)
}
