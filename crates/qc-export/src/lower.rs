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
use crate::error::{ExportError, Unsupported};
use crate::program::{GateCall, Modifier, Stmt};
use crate::Dialect;
use qc_ir::gate_data::{Controlled, CU};
use qc_ir::{Gate, Instruction, Op, Polarity};

/// The condition of `instr` when it tests at most one bit: the portable dialect writes only
/// `if (c[k])`, so a condition on several bits (an imported register comparison) has no
/// dynamic form; the deferred form turns it into controls.
pub(crate) fn one_bit(
    index: usize,
    instr: &Instruction,
) -> Result<Option<qc_ir::Condition>, ExportError> {
    match &instr.condition {
        None => Ok(None),
        Some(guard) => guard.single().map(Some).ok_or(ExportError::Unsupported {
            index,
            reason: Unsupported::ConditionOnSeveralBits {
                bits: guard.conditions().len(),
            },
        }),
    }
}

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
            .ok_or(ExportError::Unsupported {
                index,
                reason: Unsupported::NoRegisterSlot(qubit),
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
                match one_bit(index, instr)? {
                    None => out.extend(calls.into_iter().map(Stmt::Gate)),
                    Some(cond) if cond.value => push_if(out, cond.clbit.index(), calls),
                    Some(cond) => {
                        out.extend(calls.into_iter().map(Stmt::Gate));
                        let undo = self.gate(gate.inverse(), &t, &c);
                        push_if(out, cond.clbit.index(), undo);
                    }
                }
            }
            Op::UserGate {
                gate,
                targets,
                controls,
            } => {
                // Written as its body: gate by gate, each with the call's controls and condition
                // (exact, and every target can run it).
                for inner in gate.inlined(targets, controls, instr.condition.as_ref()) {
                    self.instruction(index, &inner, out)?;
                }
            }
            Op::Measure { qubit, clbit } => {
                if instr.condition.is_some() {
                    return Err(ExportError::Unsupported {
                        index,
                        reason: Unsupported::ConditionedMeasure,
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
                        reason: Unsupported::ConditionedReset,
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
                        push_if(out, bit, vec![GateCall::new(X, vec![], vec![q])]);
                    }
                }
            }
            Op::Delay { qubit, duration } => {
                if instr.condition.is_some() {
                    return Err(ExportError::Unsupported {
                        index,
                        reason: Unsupported::ConditionedDelay,
                    });
                }
                out.push(Stmt::Delay {
                    qubit: self.q(index, *qubit)?,
                    duration: *duration,
                });
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
            .map(|&q| GateCall::new(X, vec![], vec![q]))
            .collect();
        self.positive(gate, targets, &ones, &mut out);
        out.extend(zeros.iter().map(|&q| GateCall::new(X, vec![], vec![q])));
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
            // A controlled RZZ has no OpenQASM name: `cx a, b; rz(t) b; cx a, b` is RZZ exactly
            // (phase included), and the two CNOTs cancel where the controls are off, so only the
            // rotation carries them.
            (Gate::Rzz(theta), _) => {
                let (a, b) = (targets[0], targets[1]);
                out.push(GateCall::new(X_CTL, vec![], vec![a, b]));
                self.positive(Gate::Rz(theta), &[b], controls, out);
                out.push(GateCall::new(X_CTL, vec![], vec![a, b]));
            }
            // A controlled ECR has no OpenQASM name: ECR is X on `a`, then `cx a, b; rz(-pi/2)
            // b; cx a, b` between Hadamards on `b` (exactly, phase included); without the
            // controls the rest is the identity, so only X and the rotation carry them.
            (Gate::Ecr, _) => {
                let (a, b) = (targets[0], targets[1]);
                self.positive(Gate::X, &[a], controls, out);
                out.push(GateCall::new(H, vec![], vec![b]));
                out.push(GateCall::new(X_CTL, vec![], vec![a, b]));
                let rotation = Gate::Rz(-std::f64::consts::FRAC_PI_2);
                self.positive(rotation, &[b], controls, out);
                out.push(GateCall::new(X_CTL, vec![], vec![a, b]));
                out.push(GateCall::new(H, vec![], vec![b]));
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

    /// Multi-controlled X: the table's name for that many controls (`x`, `cx`, `ccx`, `c3x`), or
    /// a `ccx` V-chain over clean scratch qubits.
    fn mcx(&mut self, controls: &[usize], target: usize, out: &mut Vec<GateCall>) {
        if let Some((name, _)) = named_call(Gate::X, controls.len()) {
            let mut qubits = controls.to_vec();
            qubits.push(target);
            out.push(GateCall::new(name, vec![], qubits));
            return;
        }
        let k = controls.len();
        let ccx = |a: usize, b: usize, t: usize| GateCall::new(CCX, vec![], vec![a, b, t]);
        let anc: Vec<usize> = (0..k - 2).map(|_| self.alloc_scratch()).collect();
        let mut chain = vec![ccx(controls[0], controls[1], anc[0])];
        for i in 1..k - 2 {
            chain.push(ccx(controls[i + 1], anc[i - 1], anc[i]));
        }
        out.extend(chain.iter().cloned());
        out.push(ccx(controls[k - 1], anc[k - 3], target));
        out.extend(chain.into_iter().rev());
        self.scratch_in_use -= k - 2;
    }
}

/// The V-chain's Toffoli (X with two controls; `stdgates.inc` has it).
const CCX: &str = "ccx";
/// X, for the x-wrapping of 0-controls and the portable reset.
const X: &str = "x";
/// The OpenQASM name of CNOT.
const X_CTL: &str = "cx";
/// The OpenQASM name of the Hadamard.
const H: &str = "h";

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

/// The OpenQASM name and parameters of `gate` with `controls` leading 1-controls, from the gate
/// table: the gate's own name, its controlled form (`cx`, `cry`, `ciswap`, `cp(pi/2)` for `s`,
/// `cu` from the exact matrix otherwise) or a multi-controlled name (`ccx`, `c3x`); `None` when
/// there is no single call for that many controls.
pub fn named_call(gate: Gate, controls: usize) -> Option<(&'static str, Vec<f64>)> {
    let info = gate.info();
    match (controls, info.controlled) {
        (0, _) => Some(base_name(gate)),
        (1, Controlled::As(equal)) => named_call(equal, 1),
        (1, Controlled::Cu) => {
            let (t, p, l, gamma) = u_params(&gate.matrix());
            Some((CU, vec![t, p, l, gamma]))
        }
        (n, _) => info
            .written_with_controls(n)
            .map(|form| (form.name, gate.params())),
    }
}

fn zero_controlled_name(gate: Gate) -> Option<&'static str> {
    gate.info().written_with_zero_control().map(|f| f.name)
}

/// The exact singly-controlled form of `gate` (control first).
fn single_controlled(gate: Gate, c: usize, targets: &[usize]) -> GateCall {
    let mut qubits = vec![c];
    qubits.extend_from_slice(targets);
    let (name, params) = named_call(gate, 1).unwrap_or_else(|| {
        // A gate whose record names no controlled form is written with `cu`.
        let (t, p, l, gamma) = u_params(&gate.matrix());
        (CU, vec![t, p, l, gamma])
    });
    GateCall::new(name, params, qubits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name a target's native list and a calibration's gates are resolved by
    /// ([`qc_ir::gate_data::GateInfo::written_name`]) is the one the exporter writes, for every
    /// gate kind with any number of controls (and whatever the angles).
    #[test]
    fn the_written_name_is_the_named_calls() {
        let most = qc_ir::gate_data::qasm_forms()
            .map(|f| f.controls)
            .max()
            .unwrap_or(0);
        for gate in Gate::examples() {
            for controls in 0..=most + 1 {
                assert_eq!(
                    gate.info().written_name(controls),
                    named_call(gate, controls).map(|(name, _)| name),
                    "{gate} with {controls} controls"
                );
            }
        }
    }
}
