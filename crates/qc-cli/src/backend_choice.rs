//! Which simulator a command runs on. Library code is generic over `Backend`; the CLI picks one
//! with `with_backend!`, an enum dispatch that monomorphises each arm (no trait objects).

use clap::ValueEnum;

/// The simulators the CLI offers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    /// The fast sparse simulator: a superposition of bitboards (the default for games).
    #[default]
    Sparse,
    /// The dense state-vector simulator over the qubits in superposition.
    Dense,
    /// The simple reference sparse simulator (the oracle the others are tested against).
    Reference,
}

impl From<BackendChoice> for qc_front::BackendKind {
    fn from(choice: BackendChoice) -> Self {
        match choice {
            BackendChoice::Sparse => qc_front::BackendKind::Sparse,
            BackendChoice::Dense => qc_front::BackendKind::Dense,
            BackendChoice::Reference => qc_front::BackendKind::Reference,
        }
    }
}

/// The precision of the dense simulator's amplitudes (`--precision`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PrecisionChoice {
    /// complex128: about 16 significant digits (the default).
    #[default]
    Double,
    /// complex64 (dense only): half the memory and faster, about 7 significant digits;
    /// probabilities within about 1e-6 of double, and below 1e-10 read as 0.
    Single,
}

impl From<PrecisionChoice> for qc_sim::Precision {
    fn from(choice: PrecisionChoice) -> Self {
        match choice {
            PrecisionChoice::Double => qc_sim::Precision::Double,
            PrecisionChoice::Single => qc_sim::Precision::Single,
        }
    }
}

/// Checks `--precision` against `--backend` (single precision is the dense simulator's only).
///
/// # Errors
/// Single precision with the sparse or reference simulator.
pub fn check_precision(backend: BackendChoice, precision: PrecisionChoice) -> anyhow::Result<()> {
    qc_front::check_precision(backend.into(), precision.into())?;
    Ok(())
}

/// Runs `$body` with `$backend` bound to a fresh simulator of the chosen kind (the front ends'
/// shared `qc_front::with_backend!`, taking the CLI's `BackendChoice`, and optionally a
/// `PrecisionChoice` between the two, checked first with [`check_precision`]).
macro_rules! with_backend {
    ($choice:expr, $precision:expr, |$backend:ident| $body:expr) => {
        qc_front::with_backend!(
            qc_front::BackendKind::from($choice),
            qc_sim::Precision::from($precision),
            |$backend| $body
        )
    };
    ($choice:expr, |$backend:ident| $body:expr) => {
        qc_front::with_backend!(qc_front::BackendKind::from($choice), |$backend| $body)
    };
}

pub(crate) use with_backend;
