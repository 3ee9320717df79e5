//! [`for_each_backend!`](crate::for_each_backend): one test body, one `#[test]` per simulator.

/// Expands one test body into one `#[test]` per simulator of this crate (ripgrep's `rgtest!`
/// pattern), so a gate, move or game test checks the reference, the sparse and the dense
/// simulator alike and a new simulator is one more line here, not one more copy of every test.
///
/// `for_each_backend!(NAME, |backend| { BODY })` makes a module `NAME` with the tests
/// `reference`, `sparse` and `dense`; in each, `backend` is the constructor of that simulator
/// (`ReferenceSparse::new`, `SparseSim::new`, `DenseSim::new`: `backend()` is a fresh one, as
/// often as the body needs) and `BODY` runs with the items of the enclosing module in scope
/// (`use super::*`). Use it in test files:
///
/// ```ignore
/// qc_sim::for_each_backend!(hadamard_gives_one_half, |backend| {
///     let mut sim = backend();
///     sim.apply_gate(Gate::H, &[Qubit(0)], &[]).unwrap();
///     assert!((sim.probability_one(Qubit(0)) - 0.5).abs() < 1e-12);
/// });
/// ```
#[macro_export]
macro_rules! for_each_backend {
    ($name:ident, |$backend:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[test]
            fn reference() {
                let $backend = $crate::ReferenceSparse::new;
                $body
            }

            #[test]
            fn sparse() {
                let $backend = $crate::SparseSim::new;
                $body
            }

            #[test]
            fn dense() {
                let $backend = $crate::DenseSim::new;
                $body
            }
        }
    };
}
