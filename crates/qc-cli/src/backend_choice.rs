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

/// Runs `$body` with `$backend` bound to a fresh simulator of the chosen kind (the front ends'
/// shared `qc_front::with_backend!`, taking the CLI's `BackendChoice`).
macro_rules! with_backend {
    ($choice:expr, |$backend:ident| $body:expr) => {
        qc_front::with_backend!(qc_front::BackendKind::from($choice), |$backend| $body)
    };
}

pub(crate) use with_backend;
