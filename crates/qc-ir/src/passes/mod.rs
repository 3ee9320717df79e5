//! Exact rewrites of circuits, run before simulation and export: the pass manager
//! ([`optimize()`]), recognising runs of gates as the table gate they amount to ([`blocks`]), and
//! recognising one small unitary ([`recognise()`]), the deferred-measurement form
//! ([`deferred`]), folding classically known qubits away ([`fold`]) and writing user gates as
//! their bodies ([`inline`]); and one analysis, the as-late-as-possible time schedule
//! ([`schedule`]).

pub mod blocks;
pub mod deferred;
pub mod fold;
pub mod inline;
pub mod optimize;
pub mod recognise;
pub mod schedule;
pub mod single_qubit;

pub use blocks::{recognise_blocks, recognise_gate_bodies, BlockReport};
pub use deferred::{defer_measurements, terminal_measurements};
pub use fold::{
    fold_classical, fold_classical_known, fold_gate, fold_matrix, resolve_controls, GateFold,
};
pub use inline::inline_user_gates;
pub use optimize::{optimize, OptimizeReport};
pub use recognise::{recognise, recognise_unitary, Recognised};
pub use schedule::{conditioned_block, schedule_alap, IdleWindow, Schedule};
pub use single_qubit::{merge_single_qubit_runs, MergeReport};

use crate::Circuit;

/// The circuit `qchess run` simulates: with `optimize`, the result of [`optimize()`] (small user
/// gates stay one matrix each); without, the circuit exactly as written, every user gate as its
/// body ([`inline_user_gates`]), so that nothing is rewritten.
pub fn simulation_form(circuit: &Circuit, optimize: bool) -> Circuit {
    if optimize {
        self::optimize(circuit).0
    } else {
        inline_user_gates(circuit)
    }
}
