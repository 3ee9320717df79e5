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

/// Runs `$body` with `$backend` bound to a fresh simulator of the chosen kind.
macro_rules! with_backend {
    ($choice:expr, |$backend:ident| $body:expr) => {
        match $choice {
            $crate::backend_choice::BackendChoice::Sparse => {
                let $backend = qc_sim::SparseSim::new();
                $body
            }
            $crate::backend_choice::BackendChoice::Dense => {
                let $backend = qc_sim::DenseSim::new();
                $body
            }
            $crate::backend_choice::BackendChoice::Reference => {
                let $backend = qc_sim::ReferenceSparse::new();
                $body
            }
        }
    };
}

pub(crate) use with_backend;
