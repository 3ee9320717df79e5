//! Which simulator a front end runs on. Library code is generic over `qc_ir::Backend`; a front
//! end picks one by name with [`with_backend!`](crate::with_backend), an enum dispatch that
//! monomorphises each arm (no trait objects). Written once so that the command line and the Python
//! package offer the same simulators under the same names.

use std::fmt;
use std::str::FromStr;

/// The simulators a front end offers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// The fast sparse simulator (`qc_sim::SparseSim`): a superposition of bitboards, the
    /// default for games.
    #[default]
    Sparse,
    /// The dense state-vector simulator over the qubits in superposition (`qc_sim::DenseSim`).
    Dense,
    /// The simple reference sparse simulator (`qc_sim::ReferenceSparse`), the oracle the others
    /// are tested against.
    Reference,
}

impl BackendKind {
    /// Every simulator, in the order front ends list them.
    pub const ALL: [BackendKind; 3] = [
        BackendKind::Sparse,
        BackendKind::Dense,
        BackendKind::Reference,
    ];

    /// The name a user writes (`sparse`, `dense`, `reference`).
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Sparse => "sparse",
            BackendKind::Dense => "dense",
            BackendKind::Reference => "reference",
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A simulator name that is none of [`BackendKind::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend `{name}` (expected one of: sparse, dense, reference)")]
pub struct UnknownBackend {
    /// The name given.
    pub name: String,
}

impl FromStr for BackendKind {
    type Err = UnknownBackend;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        BackendKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownBackend {
                name: name.to_string(),
            })
    }
}

/// Runs `$body` with `$backend` bound to a fresh simulator of the kind `$kind` (a
/// [`BackendKind`]); the body is compiled once per simulator.
#[macro_export]
macro_rules! with_backend {
    ($kind:expr, |$backend:ident| $body:expr) => {
        match $kind {
            $crate::BackendKind::Sparse => {
                let $backend = $crate::sim::SparseSim::new();
                $body
            }
            $crate::BackendKind::Dense => {
                let $backend = $crate::sim::DenseSim::new();
                $body
            }
            $crate::BackendKind::Reference => {
                let $backend = $crate::sim::ReferenceSparse::new();
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_kind_and_others_are_refused() {
        for kind in BackendKind::ALL {
            assert_eq!(kind.name().parse::<BackendKind>(), Ok(kind));
        }
        let err = "qulacs".parse::<BackendKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown backend `qulacs` (expected one of: sparse, dense, reference)"
        );
    }

    #[test]
    fn the_macro_binds_the_simulator_named() {
        fn type_name_of<T>(_: &T) -> &'static str {
            std::any::type_name::<T>()
        }
        let names: Vec<&str> = BackendKind::ALL
            .into_iter()
            .map(|kind| crate::with_backend!(kind, |backend| type_name_of(&backend)))
            .collect();
        assert!(names[0].ends_with("SparseSim"), "{names:?}");
        assert!(names[1].ends_with("DenseSim"), "{names:?}");
        assert!(names[2].ends_with("ReferenceSparse"), "{names:?}");
    }
}
