//! # qc-export: OpenQASM for qchess circuits
//!
//! - [`export_qasm3`]: a circuit plus its recorded outcomes as a self-contained OpenQASM 3 program,
//!   in the dynamic or deferred [`Form`], the portable or extended [`Dialect`], compact or full
//!   [`Width`], with a [`Summary`] and a post-selection pattern ([`keep_probability`]).
//! - [`target`]: hardware targets read from `backends/*.toml` and the lowering to their gates.
//! - [`qasm2`]: OpenQASM 2 output and import (via the `qasm` crate).
//! - [`import3`]: an OpenQASM 3 importer for the subset qchess emits and stdgates programs.

pub mod decompose;
pub mod deferred;
pub mod env;
pub mod error;
pub mod export;
pub mod expr;
pub mod fold;
pub mod import3;
pub mod lex;
pub mod library;
pub mod lower;
pub mod program;
pub mod qasm2;
pub mod samples;
pub mod target;

pub use error::{ExportError, ImportError};
pub use export::{build_program, export_qasm3, keep_probability, transform, Export};
pub use import3::import_qasm3;
pub use program::{two_qubit_depth, Program, Summary};
pub use qasm2::{export_qasm2, import_qasm2};
pub use target::{export_for_target, Target};

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
    /// What every tested tool accepts (qasm3-interop.md sec. 5.1): no modifiers, no reset.
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ExportOptions {
    /// Dynamic or deferred.
    pub form: Form,
    /// Portable or extended.
    pub dialect: Dialect,
    /// Compact or full.
    pub width: Width,
}

macro_rules! from_str {
    ($ty:ty, $what:literal, $($text:literal => $value:expr),+) => {
        impl std::str::FromStr for $ty {
            type Err = String;
            /// Parses the command-line spelling.
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($value),)+
                    other => Err(format!(concat!("unknown ", $what, " `{}` (expected one of: {})"), other, [$($text),+].join(", "))),
                }
            }
        }
    };
}

from_str!(Form, "form", "dynamic" => Form::Dynamic, "deferred" => Form::Deferred);
from_str!(Dialect, "dialect", "portable" => Dialect::Portable, "extended" => Dialect::Extended);
from_str!(Width, "width", "compact" => Width::Compact, "full" => Width::Full);

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

/// Imports OpenQASM 2 or 3, chosen by the `OPENQASM` version line (3 when there is none).
pub fn import_qasm(src: &str) -> Result<qc_ir::Circuit, ImportError> {
    let version = src
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .and_then(|l| l.strip_prefix("OPENQASM"))
        .map(str::trim);
    match version {
        Some(v) if v.starts_with('2') => import_qasm2(src),
        _ => import_qasm3(src),
    }
}
