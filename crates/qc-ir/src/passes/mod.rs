//! Exact rewrites of circuits, run before simulation and export: the pass manager
//! ([`optimize()`]), recognising runs of gates as the table gate they amount to ([`blocks`]), and
//! recognising one small unitary ([`recognise()`]), the deferred-measurement form
//! ([`deferred`]) and folding classically known qubits away ([`fold`]).

pub mod blocks;
pub mod deferred;
pub mod fold;
pub mod optimize;
pub mod recognise;
pub mod single_qubit;

pub use blocks::{recognise_blocks, BlockReport};
pub use deferred::{defer_measurements, terminal_measurements};
pub use fold::{fold_classical, fold_classical_known, fold_gate, resolve_controls, GateFold};
pub use optimize::{optimize, OptimizeReport};
pub use recognise::{recognise, recognise_unitary, Recognised};
pub use single_qubit::{merge_single_qubit_runs, MergeReport};
