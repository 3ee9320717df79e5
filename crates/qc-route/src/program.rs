//! The router's view of a circuit: single- and two-qubit unitaries (as matrices), measurements
//! and resets, each possibly conditioned on a classical bit; read from and written back to the
//! IR.

use crate::error::RouteError;
use crate::linalg::{Mat2, Mat4};
use crate::native::{Entangler, Native, Prim, Synthesis};
use qc_ir::{Circuit, Clbit, Condition, Gate, Instruction, Op, Qubit};

/// A classical condition: the step runs when bit `clbit` holds `value`.
pub type Cond = Option<(usize, bool)>;

/// What a step does, on qubit indices of whatever register it lives in (program or device).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum StepOp {
    /// A single-qubit unitary.
    One {
        /// The qubit.
        q: usize,
        /// Its matrix.
        m: Mat2,
    },
    /// A two-qubit unitary on `(hi, lo)` (`hi` the most significant bit of `m`).
    Two {
        /// The high qubit.
        hi: usize,
        /// The low qubit.
        lo: usize,
        /// Its matrix.
        m: Mat4,
    },
    /// A measurement into a bit.
    Measure {
        /// The qubit.
        q: usize,
        /// The bit.
        clbit: usize,
    },
    /// A reset to |0>.
    Reset {
        /// The qubit.
        q: usize,
    },
}

impl StepOp {
    /// The qubits the step touches (one or two).
    pub fn qubits(&self) -> ([usize; 2], usize) {
        match *self {
            StepOp::One { q, .. } | StepOp::Measure { q, .. } | StepOp::Reset { q } => ([q, q], 1),
            StepOp::Two { hi, lo, .. } => ([hi, lo], 2),
        }
    }
}

/// One step with its condition.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Step {
    /// What it does.
    pub op: StepOp,
    /// When it runs.
    pub cond: Cond,
}

/// A circuit as steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Qubits `0..num_qubits`.
    pub num_qubits: usize,
    /// Bits `0..num_clbits`.
    pub num_clbits: usize,
    /// The steps in order.
    pub steps: Vec<Step>,
}

impl Program {
    /// Reads an IR circuit whose gates act on at most two qubits (targets and controls
    /// together). Allocation and freeing of ancillas and delays carry no operation here.
    pub fn from_circuit(circuit: &Circuit) -> Result<Program, RouteError> {
        let mut steps = Vec::with_capacity(circuit.instructions().len());
        for (index, instr) in circuit.instructions().iter().enumerate() {
            let cond = match &instr.condition {
                None => None,
                Some(guard) => {
                    let c = guard
                        .single()
                        .ok_or(RouteError::ConditionOnSeveralBits { index })?;
                    Some((c.clbit.index(), c.value))
                }
            };
            let op = match &instr.op {
                Op::Gate { .. } | Op::UserGate { .. } => {
                    let qubits = instr.op.qubits();
                    match qubits[..] {
                        [q] => {
                            let m = instr
                                .op
                                .matrix()
                                .and_then(|m| Mat2::from_matrix(&m))
                                .ok_or(RouteError::GateTooWide { index, qubits: 1 })?;
                            StepOp::One { q: q.index(), m }
                        }
                        [a, b] if a != b => {
                            // The instruction's unitary on (a, b), a as qubit 0 (the low bit).
                            let mut two = Circuit::with_plain_qubits(2, 0);
                            let local = |q: Qubit| if q == a { Qubit(0) } else { Qubit(1) };
                            two.push(Instruction::new(instr.op.map_qubits(local)));
                            let m = two
                                .unitary()
                                .ok()
                                .and_then(|m| Mat4::from_matrix(&m))
                                .ok_or(RouteError::GateTooWide { index, qubits: 2 })?;
                            StepOp::Two {
                                hi: b.index(),
                                lo: a.index(),
                                m,
                            }
                        }
                        _ => {
                            return Err(RouteError::GateTooWide {
                                index,
                                qubits: qubits.len(),
                            })
                        }
                    }
                }
                Op::Measure { qubit, clbit } => {
                    if cond.is_some() {
                        return Err(RouteError::ConditionedMeasurement { index });
                    }
                    StepOp::Measure {
                        q: qubit.index(),
                        clbit: clbit.index(),
                    }
                }
                Op::Reset { qubit } => {
                    if cond.is_some() {
                        return Err(RouteError::ConditionedMeasurement { index });
                    }
                    StepOp::Reset { q: qubit.index() }
                }
                // A delay is the identity; the routed program is scheduled afresh (and
                // dynamical decoupling, which writes delays, runs after routing), so a delay of
                // the logical program has no time left to keep.
                Op::Alloc { .. } | Op::Free { .. } | Op::Delay { .. } => continue,
            };
            steps.push(Step { op, cond });
        }
        Ok(Program {
            num_qubits: circuit.num_qubits(),
            num_clbits: circuit.num_clbits(),
            steps: merge_single_qubit_runs(steps, circuit.num_qubits()),
        })
    }

    /// Writes the steps as an IR circuit on `num_qubits` plain qubits: `entangler`'s gate as
    /// its IR gate (CZ as `z` with one control, √iSWAP as `siswap`), any other two-qubit unitary
    /// synthesised in `entangler`'s gates ([`crate::native`]), single-qubit unitaries as the
    /// table gate they are (`u` at worst).
    pub fn to_circuit(&self, entangler: Entangler) -> Result<Circuit, RouteError> {
        let unwritable = RouteError::NotInIr { entangler };
        // A fixed entangler's own matrix is written as its gate without synthesis; a
        // continuous one (RZZ(θ)) has no one matrix, and each block is synthesised with its
        // own angles.
        let native_matrix = match entangler.fixed_gate() {
            Some(native) => {
                let mut two = Circuit::with_plain_qubits(2, 0);
                two.push(native.instruction(1, 0).ok_or(unwritable.clone())?);
                Some(
                    two.unitary()
                        .ok()
                        .and_then(|m| Mat4::from_matrix(&m))
                        .ok_or(unwritable.clone())?,
                )
            }
            None => None,
        };
        let mut c = Circuit::with_plain_qubits(self.num_qubits as u32, self.num_clbits as u32);
        for step in &self.steps {
            let cond = step.cond.map(|(clbit, value)| Condition {
                clbit: Clbit(clbit as u32),
                value,
            });
            let push = |c: &mut Circuit, i: Instruction| {
                c.push(match cond {
                    Some(cd) => i.with_condition(cd),
                    None => i,
                });
            };
            match step.op {
                StepOp::One { q, m } => {
                    if let Some(i) = single_qubit_instruction(q, &m)? {
                        push(&mut c, i);
                    }
                }
                StepOp::Two { hi, lo, m } => {
                    let gate = |native: Native, hi: usize, lo: usize| {
                        native.instruction(hi, lo).ok_or(unwritable.clone())
                    };
                    if let (Some(native), Some(matrix)) = (entangler.fixed_gate(), &native_matrix) {
                        if m.eq_up_to_phase(matrix, 1e-12) {
                            push(&mut c, gate(native, hi, lo)?);
                            continue;
                        }
                    }
                    let prims = entangler
                        .synthesize(&m)
                        .ok_or(RouteError::Synthesis { entangler })?;
                    for p in prims {
                        match p {
                            Prim::Two(native) => push(&mut c, gate(native, hi, lo)?),
                            Prim::One(on_hi, m) => {
                                let q = if on_hi { hi } else { lo };
                                if let Some(i) = single_qubit_instruction(q, &m)? {
                                    push(&mut c, i);
                                }
                            }
                        }
                    }
                }
                StepOp::Measure { q, clbit } => c.push(Instruction::new(Op::Measure {
                    qubit: Qubit(q as u32),
                    clbit: Clbit(clbit as u32),
                })),
                StepOp::Reset { q } => c.push(Instruction::new(Op::Reset {
                    qubit: Qubit(q as u32),
                })),
            }
        }
        Ok(c)
    }
}

/// Single-qubit gates moved as early as they can go (right after the qubit's previous
/// operation) and each qubit's run between two other operations merged into one gate. Lowering
/// writes a qubit's pending gates only when the qubit is next used, which can leave it half
/// turned (after the Hadamard closing a Toffoli, say) for a long stretch of the program: the
/// known-value analysis would carry that superposition, and its state grow with every such
/// qubit. A conditioned gate stays where it is (its bit is written just before it) and ends the
/// runs of its qubit.
pub(crate) fn merge_single_qubit_runs(steps: Vec<Step>, num_qubits: usize) -> Vec<Step> {
    // Runs waiting after each kept step (`None`: at the start), per qubit, in order.
    let mut kept: Vec<Step> = Vec::with_capacity(steps.len());
    let mut after: Vec<Vec<(usize, Mat2)>> = vec![Vec::new(); steps.len() + 1];
    // Where each qubit's open run sits: the slot (kept index + 1, 0 = start) and its position.
    let mut open: Vec<Option<(usize, usize)>> = vec![None; num_qubits];
    let mut anchor: Vec<usize> = vec![0; num_qubits];
    for step in steps {
        if let (StepOp::One { q, m }, None) = (step.op, step.cond) {
            if q < num_qubits {
                match open[q] {
                    Some((slot, i)) => after[slot][i].1 = m.mul(&after[slot][i].1),
                    None => {
                        let slot = anchor[q];
                        after[slot].push((q, m));
                        open[q] = Some((slot, after[slot].len() - 1));
                    }
                }
                continue;
            }
        }
        let (qs, k) = step.op.qubits();
        kept.push(step);
        for &q in &qs[..k] {
            if q < num_qubits {
                open[q] = None;
                anchor[q] = kept.len();
            }
        }
    }
    let mut out = Vec::with_capacity(kept.len() * 2);
    let runs = |slot: usize, out: &mut Vec<Step>| {
        for &(q, m) in &after[slot] {
            out.push(Step {
                op: StepOp::One { q, m },
                cond: None,
            });
        }
    };
    runs(0, &mut out);
    for (i, step) in kept.into_iter().enumerate() {
        out.push(step);
        runs(i + 1, &mut out);
    }
    out
}

/// `m` on qubit `q` as one gate of the table (`None` for the identity up to phase).
pub fn single_qubit_instruction(q: usize, m: &Mat2) -> Result<Option<Instruction>, RouteError> {
    if m.is_identity(1e-12) {
        return Ok(None);
    }
    let found = qc_ir::passes::recognise_unitary(&m.unitarized().to_matrix())
        .ok_or(RouteError::SingleQubit { qubit: q })?;
    if found.gate == Gate::I {
        return Ok(None);
    }
    Ok(Some(Instruction::gate(found.gate, &[Qubit(q as u32)], &[])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Control;

    fn native_entanglers() -> [Entangler; 6] {
        [
            Entangler::Cz,
            Entangler::Cx,
            Entangler::Ecr,
            Entangler::ISwap,
            Entangler::SqrtISwap,
            Entangler::Rzz,
        ]
    }

    #[test]
    fn a_circuit_reads_and_writes_back_with_its_unitary() {
        let mut c = Circuit::with_plain_qubits(3, 1);
        c.push(Instruction::gate(Gate::H, &[Qubit(0)], &[]));
        c.push(Instruction::gate(
            Gate::X,
            &[Qubit(2)],
            &[Control::one(Qubit(0))],
        ));
        c.push(Instruction::gate(Gate::ISwap, &[Qubit(1), Qubit(2)], &[]));
        c.push(Instruction::gate(
            Gate::Ry(0.3),
            &[Qubit(1)],
            &[Control::zero(Qubit(0))],
        ));
        let p = Program::from_circuit(&c).expect("reads");
        assert_eq!(p.steps.len(), 4);
        let back = p.to_circuit(Entangler::Cz).expect("writes");
        let (u, v) = (c.unitary().expect("u"), back.unitary().expect("v"));
        assert!(u.approx_eq_up_to_phase(&v, 1e-9));
        // The same program in every entangler the IR can write, RZZ's continuous angles among
        // them (each block its own angles), with the unitary kept; RXX has no IR gate.
        for entangler in native_entanglers() {
            let back = p
                .to_circuit(entangler)
                .unwrap_or_else(|e| panic!("{entangler}: {e}"));
            let v = back.unitary().expect("v");
            assert!(u.approx_eq_up_to_phase(&v, 1e-9), "{entangler}");
            let two: Vec<&Instruction> = back
                .instructions()
                .iter()
                .filter(|i| i.op.qubits().len() == 2)
                .collect();
            assert!(!two.is_empty(), "{entangler}");
            for i in two {
                let Op::Gate { gate, controls, .. } = &i.op else {
                    panic!("{entangler}: {i:?}");
                };
                assert!(
                    entangler.is_gate(*gate, controls.len()),
                    "{entangler}: {i:?}"
                );
            }
        }
        assert!(matches!(
            p.to_circuit(Entangler::Rxx),
            Err(RouteError::NotInIr {
                entangler: Entangler::Rxx
            })
        ));
        let mut wide = Circuit::with_plain_qubits(3, 0);
        wide.push(Instruction::gate(
            Gate::X,
            &[Qubit(2)],
            &[Control::one(Qubit(0)), Control::one(Qubit(1))],
        ));
        assert!(matches!(
            Program::from_circuit(&wide),
            Err(RouteError::GateTooWide {
                index: 0,
                qubits: 3
            })
        ));
    }
}
