//! Which simulator a command runs on. Library code is generic over `Backend`; the CLI picks one
//! with `with_backend!`, an enum dispatch that monomorphises each arm (no trait objects). The
//! options are the front ends' shared `qc_front::BackendKind` and `qc_sim::Precision`, parsed by
//! [`choice`](crate::choice_arg::choice).

use qc_front::BackendKind;
use qc_sim::Precision;

/// Checks `--precision` against `--backend` (single precision is the dense simulator's only).
///
/// # Errors
/// Single precision with the sparse or reference simulator.
pub fn check_precision(backend: BackendKind, precision: Precision) -> anyhow::Result<()> {
    qc_front::check_precision(backend, precision)?;
    Ok(())
}

/// Runs `$body` with `$backend` bound to a fresh simulator of the chosen `BackendKind` (the front
/// ends' shared `qc_front::with_backend!`, optionally with a `Precision` between the two).
macro_rules! with_backend {
    ($choice:expr, $precision:expr, |$backend:ident| $body:expr) => {
        qc_front::with_backend!($choice, $precision, |$backend| $body)
    };
    ($choice:expr, |$backend:ident| $body:expr) => {
        qc_front::with_backend!($choice, |$backend| $body)
    };
}

pub(crate) use with_backend;
