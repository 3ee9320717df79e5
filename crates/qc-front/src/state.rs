//! The final state of a circuit file as amplitudes (`qchess run --state`), one state per branch
//! of its mid-circuit measurements.
//!
//! What it means: the state of the circuit's qubits at the end, before its final measurements
//! (a measurement that nothing after it reads or touches is not applied: the state is what it
//! would read). A measurement something later depends on (a condition reads its bit, or a gate
//! acts on its qubit afterwards) splits the run in two: each outcome with a nonzero
//! probability is a branch, with the bits measured on the way, its probability and its own
//! normalised final state, as a run of the circuit that gave those outcomes ends. A reset is
//! refused: it leaves a mixture no list of amplitudes describes.
//!
//! Amplitudes are exact up to one global phase per branch: the readers drop phases no
//! measurement can see (`gphase`, the global phase of a user gate's body), so a branch's state
//! differs from another tool's by a factor `e^{i phi}` for the whole state; the optimiser's
//! passes keep it (their phase is put back). Basis states are numbered as Qiskit numbers them: qubit `k` is bit `k` of the index.
//!
//! Bounds: at most [`MAX_BRANCHES`] branches, and at most [`MAX_AMPLITUDES`] amplitudes over all
//! branches (nonzero ones in the sparse listing; `2^n` per branch in the dense one), checked
//! before any is listed.

use crate::BackendKind;
use qc_ir::exec::{apply_instruction, ClassicalRecord};
use qc_ir::passes::terminal_measurements;
use qc_ir::{
    Backend, BackendError, Circuit, Clbit, Complex64, ExecError, Instruction, MeasureChoice, Op,
    Qubit, IMPOSSIBLE_PROBABILITY,
};
use qc_sim::{MemoryLimit, Precision};

/// The most branches `--state` lists.
pub const MAX_BRANCHES: usize = 64;

/// The most amplitudes `--state` lists, over all branches.
pub const MAX_AMPLITUDES: usize = 1 << 16;

/// How the amplitudes are listed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum StateForm {
    /// The nonzero amplitudes, by basis state.
    #[default]
    Sparse,
    /// Every amplitude, `2^n` of them in basis order.
    Dense,
}

qc_ir::choice!(StateForm, "state form", [
    "sparse" => StateForm::Sparse, "The nonzero amplitudes, by basis state",
    "dense" => StateForm::Dense, "Every amplitude, 2^n of them in basis order",
]);

/// One branch of the run: the outcomes that lead to it and the state it ends in.
#[derive(Clone, Debug, PartialEq)]
pub struct Branch {
    /// The bits the mid-circuit measurements wrote on the way, in the order they were written.
    pub measured: Vec<(Clbit, bool)>,
    /// The branch's probability.
    pub probability: f64,
    /// The final state's nonzero amplitudes: the basis state as its qubits that are 1
    /// (sorted), and the amplitude (the state is normalised).
    pub amplitudes: Vec<(Vec<Qubit>, Complex64)>,
}

/// The final states of a circuit.
#[derive(Clone, Debug, PartialEq)]
pub struct FinalStates {
    /// The circuit's qubits.
    pub num_qubits: usize,
    /// One branch per outcome of the mid-circuit measurements (one without any).
    pub branches: Vec<Branch>,
}

/// Why the final state cannot be listed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StateError {
    /// A reset leaves a mixed state.
    #[error("instruction {index} is a reset: it leaves a mixed state, which no list of amplitudes describes (--state takes circuits without reset)")]
    Reset {
        /// The reset.
        index: usize,
    },
    /// More branches than listed.
    #[error("the mid-circuit measurements give more than {max} branches, each with its own state: too many to list")]
    TooManyBranches {
        /// The limit.
        max: usize,
    },
    /// More amplitudes than listed.
    #[error(
        "the final state has {found} amplitudes to list, more than the {max} --state lists{hint}"
    )]
    TooManyAmplitudes {
        /// How many (or a lower bound, when counting stopped).
        found: u128,
        /// The limit.
        max: usize,
        /// What might help.
        hint: &'static str,
    },
    /// The simulator failed.
    #[error(transparent)]
    Simulate(#[from] ExecError),
}

/// The final states of `circuit` on the simulator `backend` in `precision` (checked first:
/// [`crate::check_precision`]), listed in `form` (see the module docs). `optimize` runs the
/// exact passes first (as `qchess run` does; their global phase is put back).
///
/// # Errors
/// A reset, too many branches or amplitudes, or the simulator's own limits.
pub fn final_states(
    circuit: &Circuit,
    backend: BackendKind,
    precision: Precision,
    optimize: bool,
    form: StateForm,
) -> Result<FinalStates, StateError> {
    let (circuit, phase) = if optimize {
        let (c, report) = qc_ir::passes::optimize(circuit);
        (c, report.global_phase)
    } else {
        (qc_ir::passes::simulation_form(circuit, false), 0.0)
    };
    if form == StateForm::Dense {
        let per_branch = 1u128
            .checked_shl(circuit.num_qubits() as u32)
            .unwrap_or(u128::MAX);
        if per_branch > MAX_AMPLITUDES as u128 {
            return Err(StateError::TooManyAmplitudes {
                found: per_branch,
                max: MAX_AMPLITUDES,
                hint: " (2^n for n qubits in the dense listing; the sparse one lists only the nonzero ones)",
            });
        }
    }
    let mut branches = crate::with_simulator!(backend, precision, |new_sim| {
        let mut sim = new_sim(MemoryLimit::default());
        let mut walk = BranchWalk {
            instructions: circuit.instructions(),
            terminal: terminal_measurements(circuit.instructions()),
            form,
            num_qubits: circuit.num_qubits(),
            listed: 0,
            waiting: 0,
            branches: Vec::new(),
        };
        let record = ClassicalRecord::new(circuit.num_clbits());
        walk.run(&mut sim, 0, record, Vec::new(), 1.0)?;
        Ok::<_, StateError>(walk.branches)
    })?;
    // The passes dropped `phase`: the circuit as written is e^{i phase} times the optimised one.
    // Adding 0.0 turns a -0.0 into 0.0 (no sign on a zero part in the listing).
    let turn = Complex64::from_polar(1.0, phase);
    for branch in &mut branches {
        for (_, a) in &mut branch.amplitudes {
            *a *= turn;
            *a = Complex64::new(a.re + 0.0, a.im + 0.0);
        }
    }
    // Outcome 0 before 1, bit by bit, whatever order the walk finished them in.
    branches.sort_by(|a, b| a.measured.cmp(&b.measured));
    Ok(FinalStates {
        num_qubits: circuit.num_qubits(),
        branches,
    })
}

/// A depth-first walk over the outcomes of the measurements that something later depends on.
struct BranchWalk<'a> {
    instructions: &'a [Instruction],
    /// Per instruction: a measurement nothing after it depends on (not applied).
    terminal: Vec<bool>,
    form: StateForm,
    num_qubits: usize,
    /// Amplitudes listed so far, over all branches.
    listed: usize,
    /// Branches begun and not yet finished (the outcome-0 sides of the levels above).
    waiting: usize,
    branches: Vec<Branch>,
}

impl BranchWalk<'_> {
    /// Runs from instruction `start` on `sim`, which holds the branch so far. Recursion goes one
    /// level per measurement with two possible outcomes, and every such level adds a waiting
    /// branch, so it is at most [`MAX_BRANCHES`] deep.
    fn run<B: Backend>(
        &mut self,
        sim: &mut B,
        start: usize,
        mut record: ClassicalRecord,
        mut measured: Vec<(Clbit, bool)>,
        mut probability: f64,
    ) -> Result<(), StateError> {
        let fail = |index: usize, source: BackendError| ExecError {
            index,
            origin: self.instructions[index].origin.clone(),
            source,
        };
        for index in start..self.instructions.len() {
            let instr = &self.instructions[index];
            if !record.allows(instr.condition.as_ref()) {
                continue;
            }
            match instr.op {
                Op::Measure { .. } if self.terminal[index] => continue,
                Op::Reset { .. } => return Err(StateError::Reset { index }),
                Op::Measure { qubit, clbit } => {
                    let p1 = sim.probability_one(qubit);
                    let can_be_0 = 1.0 - p1 > IMPOSSIBLE_PROBABILITY;
                    if can_be_0 && p1 > IMPOSSIBLE_PROBABILITY {
                        // Two branches: outcome 1 from a snapshot (one level deeper), then 0
                        // here. Branches finished and waiting count against the bound.
                        if self.branches.len() + self.waiting + 2 > MAX_BRANCHES {
                            return Err(StateError::TooManyBranches { max: MAX_BRANCHES });
                        }
                        self.check_size(sim.state_size())?;
                        let saved = sim.snapshot().map_err(|e| fail(index, e))?;
                        sim.measure(qubit, MeasureChoice::Forced(true))
                            .map_err(|e| fail(index, e))?;
                        let mut one = record.clone();
                        one.set(clbit, true);
                        let mut path = measured.clone();
                        path.push((clbit, true));
                        self.waiting += 1;
                        let ran = self.run(sim, index + 1, one, path, probability * p1);
                        self.waiting -= 1;
                        ran?;
                        sim.restore_owned(saved);
                    }
                    let outcome = !can_be_0;
                    sim.measure(qubit, MeasureChoice::Forced(outcome))
                        .map_err(|e| fail(index, e))?;
                    record.set(clbit, outcome);
                    measured.push((clbit, outcome));
                    probability *= if outcome { p1 } else { 1.0 - p1 };
                }
                _ => {
                    let mut never = |_: Option<Clbit>| MeasureChoice::Forced(false);
                    apply_instruction(sim, instr, &mut record, &mut never)
                        .map_err(|e| fail(index, e))?;
                }
            }
        }
        self.finish(sim, measured, probability)
    }

    /// Refuses listing `size` more amplitudes when that passes the bound.
    fn check_size(&self, size: usize) -> Result<(), StateError> {
        let total = self.listed.saturating_add(size);
        if total > MAX_AMPLITUDES {
            return Err(StateError::TooManyAmplitudes {
                found: total as u128,
                max: MAX_AMPLITUDES,
                hint: match self.form {
                    StateForm::Sparse => "",
                    StateForm::Dense => " (2^n per branch in the dense listing)",
                },
            });
        }
        Ok(())
    }

    /// Lists the state the branch ends in.
    fn finish<B: Backend>(
        &mut self,
        sim: &B,
        measured: Vec<(Clbit, bool)>,
        probability: f64,
    ) -> Result<(), StateError> {
        // The dense listing's width was checked before the run (at most 2^16).
        let size = match self.form {
            StateForm::Sparse => sim.state_size(),
            StateForm::Dense => 1usize << self.num_qubits,
        };
        self.check_size(size)?;
        self.listed += size;
        self.branches.push(Branch {
            measured,
            probability,
            amplitudes: sim.basis_states(),
        });
        Ok(())
    }
}

/// The basis state of `ones` as Qiskit writes it: `n` characters, qubit 0 rightmost.
pub fn basis_key(ones: &[Qubit], num_qubits: usize) -> String {
    let mut key = vec![b'0'; num_qubits];
    for q in ones {
        if let Some(c) = key.get_mut(num_qubits - 1 - q.index().min(num_qubits - 1)) {
            *c = b'1';
        }
    }
    String::from_utf8(key).unwrap_or_default()
}

/// The basis index of `ones` (qubit `k` is bit `k`); only for `num_qubits` that the dense
/// listing allows (at most 16).
pub fn basis_index(ones: &[Qubit]) -> usize {
    ones.iter().fold(0, |i, q| i | 1 << q.index())
}
