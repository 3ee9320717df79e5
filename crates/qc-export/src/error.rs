//! Typed errors of export and import.

pub use crate::import_error::{ImportError, ImportErrorKind, SemanticProblem};
/// The `FromStr` error of every option type (shared with the other crates through `qc_ir`).
pub use qc_ir::choice::UnknownChoice;
use thiserror::Error;

/// Why a circuit could not be exported.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExportError {
    /// The circuit does not pass `qc_ir::verify`: every finding, each with its instruction and
    /// the move it came from.
    #[error("cannot export: {0}")]
    Invalid(#[from] qc_ir::VerifyErrors),
    /// An instruction cannot be written in the chosen form/dialect.
    #[error("instruction {index} cannot be exported: {reason}")]
    Unsupported {
        /// Index of the instruction in the circuit.
        index: usize,
        /// What is not expressible.
        reason: Unsupported,
    },
    /// The program needs more qubits than the target has.
    #[error("target `{target}` has {available} qubits but this program needs {needed}")]
    TooManyQubits {
        /// Target name.
        target: String,
        /// Qubits needed.
        needed: usize,
        /// Qubits the target has.
        available: usize,
    },
    /// A target file is malformed, or a call cannot be lowered to the target's gates.
    #[error("target `{target}`: {problem}")]
    Target {
        /// Target name or file.
        target: String,
        /// What is wrong.
        problem: TargetProblem,
    },
    /// OpenQASM 2 was asked for a target that renames gates for its own OpenQASM 3 dialect.
    #[error("target `{target}` has no OpenQASM 2 form: it renames gates ({}) for its own OpenQASM 3 dialect; use --format qasm3", .renamed.join(", "))]
    NoQasm2 {
        /// Target name.
        target: String,
        /// The gates it renames.
        renamed: Vec<String>,
    },
    /// `--target NAME` names neither a bundled target nor a file in the backends directory.
    #[error("unknown target `{name}`: {}the bundled targets are {}", .dir.as_ref().map(|d| format!("no {name}.toml in {}, and ", d.display())).unwrap_or_default(), .bundled.join(", "))]
    UnknownTarget {
        /// The name asked for.
        name: String,
        /// The backends directory searched (`--backends-dir`), if any.
        dir: Option<std::path::PathBuf>,
        /// The names of the bundled targets.
        bundled: Vec<&'static str>,
    },
}

/// Why one instruction has no OpenQASM form ([`ExportError::Unsupported`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unsupported {
    /// The qubit was left out of the register (a compact width that missed it).
    #[error("qubit {0} has no register slot")]
    NoRegisterSlot(qc_ir::Qubit),
    /// `if (c) measure` is not written in the dynamic form.
    #[error("a conditioned measurement has no OpenQASM form here; use the deferred form")]
    ConditionedMeasure,
    /// `if (c) delay` has no OpenQASM form here (an `if` body holds gates only).
    #[error("a conditioned delay has no OpenQASM form here")]
    ConditionedDelay,
    /// `if (c) reset` is not written in the dynamic form.
    #[error("a conditioned reset has no OpenQASM form here; use the deferred form")]
    ConditionedReset,
    /// A condition on several bits (a register comparison such as `if (c == 3)`): the
    /// portable dynamic form has only `if (c[k])`.
    #[error("a condition on {bits} bits (a register comparison) has no OpenQASM form here, which tests one bit per `if`; use the deferred form (--form deferred)")]
    ConditionOnSeveralBits {
        /// How many bits the condition tests.
        bits: usize,
    },
}

/// What is wrong with a target file or with lowering a program to it ([`ExportError::Target`]).
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum TargetProblem {
    /// The file is not valid TOML or does not have a target's fields (the error names the line
    /// and column and shows the line).
    #[error("{error}")]
    Toml {
        /// The TOML reader's error, with its span.
        error: toml::de::Error,
    },
    /// The file could not be read.
    #[error("cannot read {}: {message}", .path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// The kind of I/O failure.
        kind: std::io::ErrorKind,
        /// The operating system's message.
        message: String,
    },
    /// The target's own lowering would write a gate it does not list as native.
    #[error("the lowering writes `{gate}` but it is not in `native`")]
    NotNative {
        /// The OpenQASM name of the gate.
        gate: &'static str,
    },
    /// A call with `ctrl @`/`inv @`/`pow @` modifiers (the extended dialect) reached the lowering.
    #[error("gate modifiers cannot be lowered; export in the portable dialect")]
    Modifiers,
    /// The device's `edges` are not a usable coupling map.
    #[error("edges: {0}")]
    Coupling(qc_ir::CouplingError),
    /// A device target (one with `edges`) that turns lowering off: programs on a device must
    /// be written in its native gates.
    #[error(
        "a device target (with `edges`) must lower to its native gates: remove `lower = false`"
    )]
    DeviceNotLowered,
    /// The target's `two_qubit` is a gate the exporter cannot write a CNOT in (a logical
    /// target's lowering needs one; a device target's compiler synthesises every gate itself).
    #[error("two_qubit = \"{entangler}\": the lowering cannot write a CNOT in it (use cx, cz, siswap or rzz, or make it a device target with `edges`)")]
    NoCnotIn {
        /// The target's entangler.
        entangler: qc_ir::Entangler,
    },
    /// The target's `two_qubit` has no gate in the circuit IR, so no program can be written in
    /// it (ECR, RXX).
    #[error("two_qubit = \"{entangler}\": the circuit IR has no such gate yet, so no program can be written in it")]
    EntanglerNotInIr {
        /// The target's entangler.
        entangler: qc_ir::Entangler,
    },
    /// `all_to_all = true` beside an `edges` list: the file says two things about its couplers.
    #[error("`all_to_all = true` couples every pair of qubits: remove `edges`, or set `all_to_all = false`")]
    AllToAllWithEdges,
    /// `all_to_all = true` with more qubits than an all-to-all coupling map is built for.
    #[error("`all_to_all = true` with {qubits} qubits: at most {max} (every pair is a coupler)")]
    AllToAllTooLarge {
        /// The target's `qubits`.
        qubits: usize,
        /// [`crate::target::MAX_ALL_TO_ALL_QUBITS`].
        max: usize,
    },
    /// `directed = true` on a target without `edges` (a logical target, or `all_to_all`).
    #[error("`directed = true` orients the couplers of `edges`, and this target lists none")]
    DirectedWithoutEdges,
    /// `directed = true` with an entangler whose two qubits play the same part: it runs either
    /// way round on every coupler.
    #[error("`directed = true` with `two_qubit = \"{entangler}\"`, which is symmetric: only `cx` and `ecr` have a direction")]
    DirectedSymmetric {
        /// The target's `two_qubit`.
        entangler: qc_ir::Entangler,
    },
    /// A call could not be expanded into the target's gates.
    #[error("cannot expand `{gate}`: {why}")]
    Expand {
        /// The called gate's name.
        gate: String,
        /// Why not.
        why: ExpandProblem,
    },
}

/// Why a call could not be expanded into a target's gates ([`TargetProblem::Expand`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpandProblem {
    /// No record in the gate table has this OpenQASM name.
    #[error("not in the gate table")]
    UnknownGate,
    /// The call has the wrong number of angles.
    #[error("it takes {0} angle(s)")]
    Angles(usize),
    /// The call has the wrong number of qubits.
    #[error("it takes {0} qubit(s)")]
    Qubits(usize),
    /// The lowering has no decomposition for this shape of gate.
    #[error("no decomposition for a {targets}-qubit gate `{gate}` with {controls} controls")]
    NoDecomposition {
        /// The gate's IR name.
        gate: &'static str,
        /// Its number of targets.
        targets: usize,
        /// Its number of controls.
        controls: usize,
    },
}

impl ExportError {
    /// A target error from parsing TOML text, renamed to the target `name` it was read for.
    pub(crate) fn for_target(self, name: &str) -> ExportError {
        match self {
            ExportError::Target { problem, .. } => ExportError::Target {
                target: name.into(),
                problem,
            },
            other => other,
        }
    }
}
