//! # qc-sim: simulators for qc-ir circuits
//!
//! Every simulator implements [`qc_ir::Backend`].
//!
//! * [`ReferenceSparse`]: the reference sparse simulator, a map from basis bitstring to amplitude
//!   over the qubits that are in superposition. Simple and exact; the oracle the fast simulators
//!   are tested against, and the default engine for games until a faster one lands.

pub mod reference;
mod slots;

pub use reference::ReferenceSparse;
