//! Which simulator a front end runs on. Library code is generic over `qc_ir::Backend`; a front
//! end picks one by name with [`with_simulator!`](crate::with_simulator), an enum dispatch that
//! monomorphises each arm (no trait objects): the one registry of simulators, so that every
//! front end offers the same simulators under the same names.

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

qc_ir::choice!(BackendKind, "backend", [
    "sparse" => BackendKind::Sparse,
        "The fast sparse simulator: a superposition of bitboards",
    "dense" => BackendKind::Dense,
        "The dense state-vector simulator over the qubits in superposition",
    "reference" => BackendKind::Reference,
        "The simple reference sparse simulator (the oracle the others are tested against)",
]);

/// `--precision single` (or any precision but double) given with a simulator other than dense:
/// only the dense simulator has complex64 kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("precision `{precision}` needs the dense simulator (got `{backend}`)")]
pub struct PrecisionNeedsDense {
    /// The simulator chosen.
    pub backend: BackendKind,
    /// The precision asked for.
    pub precision: qc_sim::Precision,
}

/// Checks that `precision` is available on `backend` (double everywhere, single on dense only).
///
/// # Errors
/// [`PrecisionNeedsDense`] for single precision on the sparse or reference simulator.
pub fn check_precision(
    backend: BackendKind,
    precision: qc_sim::Precision,
) -> Result<(), PrecisionNeedsDense> {
    if precision == qc_sim::Precision::Double || backend == BackendKind::Dense {
        Ok(())
    } else {
        Err(PrecisionNeedsDense { backend, precision })
    }
}

/// Runs `$body` with `$new` bound to the constructor of the simulator `$kind` (a
/// [`BackendKind`]) names in `$precision` (a `qc_sim::Precision`): a `fn(MemoryLimit) -> B`
/// that gives a fresh simulator in |0...0> holding at most that much. The body is compiled once
/// per simulator (and for the dense one once per precision: `DenseSim<f32>` for single); the
/// other simulators ignore the precision, so check it first with [`check_precision`]. This is
/// the one place a simulator is registered: a new one is its module in qc-sim, a
/// [`BackendKind`] variant with its row of the name table, and an arm here.
#[macro_export]
macro_rules! with_simulator {
    ($kind:expr, $precision:expr, |$new:ident| $body:expr) => {
        match ($kind, $precision) {
            ($crate::BackendKind::Sparse, _) => {
                let $new: fn($crate::sim::MemoryLimit) -> $crate::sim::SparseSim =
                    $crate::sim::SparseSim::with_limit;
                $body
            }
            ($crate::BackendKind::Dense, $crate::sim::Precision::Double) => {
                let $new: fn($crate::sim::MemoryLimit) -> $crate::sim::DenseSim =
                    $crate::sim::DenseSim::with_limit;
                $body
            }
            ($crate::BackendKind::Dense, $crate::sim::Precision::Single) => {
                let $new: fn($crate::sim::MemoryLimit) -> $crate::sim::DenseSim<f32> =
                    $crate::sim::DenseSim::<f32>::zero_state;
                $body
            }
            ($crate::BackendKind::Reference, _) => {
                let $new: fn($crate::sim::MemoryLimit) -> $crate::sim::ReferenceSparse =
                    $crate::sim::ReferenceSparse::with_limit;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Choice;

    #[test]
    fn every_name_parses_back_to_its_kind_and_others_are_refused() {
        for kind in BackendKind::CHOICES.iter().map(|c| c.value) {
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
        let double = qc_sim::Precision::Double;
        let names: Vec<&str> = BackendKind::CHOICES
            .iter()
            .map(|c| c.value)
            .map(|kind| {
                crate::with_simulator!(kind, double, |new| type_name_of(&new(
                    qc_sim::MemoryLimit::default()
                )))
            })
            .collect();
        assert!(names[0].ends_with("SparseSim"), "{names:?}");
        assert!(names[1].ends_with("dense::DenseSim"), "{names:?}");
        assert!(names[2].ends_with("ReferenceSparse"), "{names:?}");
        let single = qc_sim::Precision::Single;
        let single = crate::with_simulator!(BackendKind::Dense, single, |new| {
            type_name_of(&new(qc_sim::MemoryLimit::default()))
        });
        assert!(single.ends_with("DenseSim<f32>"), "{single}");
    }

    #[test]
    fn single_precision_is_refused_off_the_dense_simulator() {
        use qc_sim::Precision;
        for kind in BackendKind::CHOICES.iter().map(|c| c.value) {
            assert_eq!(check_precision(kind, Precision::Double), Ok(()));
            let single = check_precision(kind, Precision::Single);
            assert_eq!(single.is_ok(), kind == BackendKind::Dense, "{kind}");
        }
        let err = check_precision(BackendKind::Sparse, Precision::Single).unwrap_err();
        assert_eq!(
            err.to_string(),
            "precision `single` needs the dense simulator (got `sparse`)"
        );
    }
}
