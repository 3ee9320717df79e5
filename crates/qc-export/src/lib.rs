//! # qc-export: OpenQASM for qchess circuits
//!
//! - [`export_qasm3`]: a circuit plus its recorded outcomes as a self-contained OpenQASM 3 program,
//!   in the dynamic or deferred [`Form`], the portable or extended [`Dialect`], compact or full
//!   [`Width`], with a [`Summary`] and a post-selection pattern ([`keep_probability`]).
//! - [`target`]: hardware targets read from `backends/*.toml` and the lowering to their gates.
//! - [`qasm2`]: OpenQASM 2 output; [`import2`]: OpenQASM 2 import (a small reader of its own).
//! - [`circuit_format`]: which format a circuit text is in ([`detect_format`]) and one reader for
//!   them all ([`parse_circuit`]).
//! - [`import3`]: OpenQASM 3 import, a walk over `oq3_semantics`' checked syntax graph (after
//!   [`guard3`] has kept every panicking path of it out of reach).
//! - [`header`]: the program's JSON header, with the map of what every bit measures.

mod angle3;
pub mod cases;
pub mod circuit_format;
mod contain;
pub mod decompose;
pub mod device;
pub mod env;
pub mod error;
pub mod export;
mod flow3;
pub mod gate_docs;
pub mod guard3;
pub mod header;
pub mod import2;
pub mod import3;
mod import_error;
pub mod lex;
pub mod library;
pub mod lower;
pub mod measure;
mod operand3;
mod peephole;
pub mod program;
pub mod qasm2;
mod relative_phase;
mod rewrite3;
pub mod target;
pub mod user_call;

pub use circuit_format::{
    detect_format, import_qasm, parse_circuit, parse_circuit_as, parse_circuit_within,
    CircuitError, CircuitFormat,
};
pub use contain::inside_contained_call;
pub use device::{device_program, program_circuit, DeviceFormat};
pub use error::{
    ExpandProblem, ExportError, ImportError, ImportErrorKind, SemanticProblem, TargetProblem,
    UnknownChoice, Unsupported,
};
pub use export::{build_program, export_qasm3, keep_probability, transform, Export};
pub use header::{parse_header, BoardMap, HeaderGame, Holds, MapError, MeasuredBit, ProgramHeader};
pub use import2::import_qasm2;
pub use import3::import_qasm3;
pub use measure::MeasureScope;
pub use program::{two_qubit_depth, Program, Summary};
pub use qasm2::export_qasm2;
pub use target::{export_for_target, export_qasm2_for_target, Coupler, Target, BUNDLED_TARGETS};

/// Mid-circuit measurement with feed-forward, or everything deferred to the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Form {
    /// `c[k] = measure` mid-circuit and `if (c[k]) { ... }`.
    #[default]
    Dynamic,
    /// No mid-circuit measurement: predicates stay in ancillas that control the conditioned gates.
    Deferred,
}

/// Which OpenQASM 3 constructs may be used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// What every tested tool accepts (docs/backends.md, "What real tools accept"): no modifiers, no reset.
    #[default]
    Portable,
    /// Qiskit-only: `ctrl @`/`negctrl @` modifiers and `reset`.
    Extended,
}

/// Which qubits get a register slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Width {
    /// Only qubits that ever take part in a non-classical operation.
    #[default]
    Compact,
    /// Every qubit of the circuit.
    Full,
}

/// Export options.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Dynamic or deferred.
    pub form: Form,
    /// Portable or extended.
    pub dialect: Dialect,
    /// Compact or full.
    pub width: Width,
    /// What the program measures at the end (`qchess compile` defaults to the board; the
    /// library to nothing, so the program's distribution is the circuit's).
    pub measure: MeasureScope,
    /// Run the exact passes of `qc_ir::passes::optimize` (recognised runs, merged single-qubit
    /// runs, identities, X-wrapped controls, inverse pairs) on the circuit before it is lowered:
    /// fewer gates, the same distribution. On by default; `qchess compile --no-optimize` turns
    /// it off.
    pub optimize: bool,
}

impl Default for ExportOptions {
    /// Dynamic, portable, compact, measuring nothing, optimised.
    fn default() -> ExportOptions {
        ExportOptions {
            form: Form::default(),
            dialect: Dialect::default(),
            width: Width::default(),
            measure: MeasureScope::default(),
            optimize: true,
        }
    }
}

// The option types' words, each in one table (parsing, printing and `--help` read it).
qc_ir::choice!(Form, "form", [
    "dynamic" => Form::Dynamic, "Mid-circuit measurement and if",
    "deferred" => Form::Deferred, "Every measurement at the end",
]);
qc_ir::choice!(Dialect, "dialect", [
    "portable" => Dialect::Portable, "What every tested tool accepts",
    "extended" => Dialect::Extended, "Qiskit: ctrl @ modifiers, reset",
]);
qc_ir::choice!(Width, "width", [
    "compact" => Width::Compact, "Only the squares that take part in a quantum operation",
    "full" => Width::Full, "All 64 squares",
]);
qc_ir::choice!(MeasureScope, "measurement", [
    "board" => MeasureScope::Board,
        "Every square, every captured-piece ancilla, and every ancilla returned to |0> as an error check",
    "squares" => MeasureScope::Squares, "The squares only",
    "none" => MeasureScope::None, "Nothing beyond the circuit's own measurements",
]);

/// The probability that a shot is kept under post-selection, computed exactly by running
/// `circuit` on `backend` (which must start in |0...0>).
pub fn keep_probability_exact<B: qc_ir::Backend>(
    backend: &mut B,
    circuit: &qc_ir::Circuit,
    outcomes: &[Option<bool>],
) -> Result<f64, qc_ir::ExecError> {
    let dist = qc_ir::exec::exact_distribution(backend, circuit)?;
    Ok(keep_probability(&dist, outcomes))
}

/// The same probability as [`keep_probability_exact`], in one pass instead of one branch per
/// outcome: when every measurement writes a bit with a recorded outcome and there is no reset, a
/// kept shot follows exactly one branch, so the probability is the product of each recorded
/// outcome's probability at its measurement (the run forces the recorded outcome). Otherwise it
/// falls back to [`keep_probability_exact`]. Returns 0 when a recorded outcome is impossible.
pub fn keep_probability_forced<B: qc_ir::Backend>(
    backend: &mut B,
    circuit: &qc_ir::Circuit,
    outcomes: &[Option<bool>],
) -> Result<f64, qc_ir::ExecError> {
    use qc_ir::exec::{apply_instruction, ClassicalRecord};
    use qc_ir::{MeasureChoice, Op};
    let recorded = |k: usize| outcomes.get(k).copied().flatten();
    let single_branch = circuit.instructions().iter().all(|i| match i.op {
        Op::Measure { clbit, .. } => recorded(clbit.index()).is_some(),
        Op::Reset { .. } => false,
        _ => true,
    });
    if !single_branch {
        return keep_probability_exact(backend, circuit, outcomes);
    }
    let mut record = ClassicalRecord::new(circuit.num_clbits());
    let mut keep = 1.0;
    for (index, instr) in circuit.instructions().iter().enumerate() {
        let mut forced = MeasureChoice::Forced(false);
        if let Op::Measure { qubit, clbit } = instr.op {
            if record.allows(instr.condition.as_ref()) {
                let value = recorded(clbit.index()).unwrap_or(false);
                let p1 = backend.probability_one(qubit);
                let p = if value { p1 } else { 1.0 - p1 };
                if p <= qc_ir::IMPOSSIBLE_PROBABILITY {
                    return Ok(0.0);
                }
                keep *= p;
                forced = MeasureChoice::Forced(value);
            }
        }
        let mut policy = |_: Option<qc_ir::Clbit>| forced;
        apply_instruction(backend, instr, &mut record, &mut policy).map_err(|source| {
            qc_ir::ExecError {
                index,
                origin: instr.origin.clone(),
                source,
            }
        })?;
    }
    Ok(keep)
}
