//! # qc-sim: simulators for qc-ir circuits
//!
//! Every simulator implements [`qc_ir::Backend`].
//!
//! * [`SparseSim`]: the fast sparse simulator and the default engine for games: a vector of
//!   (bitstring, amplitude) entries over the qubits in superposition; monomial gates in one
//!   in-place pass, parallel and deterministic, with a memory limit.
//! * [`DenseSim`]: a state vector over the qubits in superposition, complex128 (`DenseSim`) or
//!   complex64 (`DenseSim<f32>`, [`Precision::Single`]), with kernels for controlled gates of
//!   either polarity, and gate fusion for whole circuits.
//! * [`ReferenceSparse`]: the reference sparse simulator, a map from basis bitstring to amplitude
//!   over the qubits that are in superposition. Simple and exact; the oracle the fast simulators
//!   are tested against.
//! * [`MemoryLimit`]: the byte budget the fast simulators check before they grow.
//! * [`noise`]: noisy simulation by Monte-Carlo trajectories on any of them, from a device's
//!   calibrated noise.
//! * [`for_each_backend!`]: one test body run as one `#[test]` per simulator.

pub mod dense;
mod for_each_backend;
pub mod fused_kernel;
pub mod fusion;
pub mod kernels;
pub mod marginal;
pub mod memory;
pub mod noise;
pub mod par;
pub mod precision;
pub mod reference;
pub mod slots;
pub mod sparse;
mod table;

pub use dense::{DenseSim, DenseSnapshot, DEFAULT_DENSE_PARALLEL_THRESHOLD, MAX_DENSE_QUBITS};
pub use fusion::{DEFAULT_FUSE_MAX, DEFAULT_FUSE_MIN_AMPLITUDES, FUSE_LIMIT};
pub use memory::{physical_memory_bytes, MemoryLimit, DEFAULT_MEMORY_FRACTION};
pub use precision::{Precision, Real};
pub use reference::ReferenceSparse;
pub use sparse::{BranchPaths, SparseSim, DEFAULT_PARALLEL_THRESHOLD};
