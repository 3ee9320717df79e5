//! Noisy simulation by Monte-Carlo trajectories: a device program run shot by shot with the
//! noise of a calibrated device, on the sparse or the dense simulator.
//!
//! * [`NoiseModel`] is the device's noise as plain data ([`model`]): per qubit T1, T2, readout
//!   errors P(1|0) and P(0|1), the error and duration of its single-qubit gates, the duration of a
//!   measurement and of a reset and the reset's error; per coupler its two-qubit gate's error
//!   and duration. Times in nanoseconds.
//! * [`NoisyProgram`] is a circuit, as written, with its as-late-as-possible schedule
//!   (`qc_ir::passes::schedule`, with the model's durations) and each instruction's noise.
//! * [`run_trajectory`] runs one trajectory: one shot. [`noisy_counts`] runs many in parallel.
//!
//! **The channels** (derived in [`channels`]), after Qiskit Aer's `NoiseModel.from_backend`, so
//! that the two simulate the same model:
//!
//! * *After a gate*: a depolarising error (each Pauli other than the identity with probability
//!   `lambda / 4^n`), with `lambda` from the calibrated gate error minus what relaxation over
//!   the gate's duration already explains ([`channels::depolarising_parameter`]); then the
//!   thermal relaxation of each of its qubits over the gate's duration. A single-qubit Z rotation
//!   (a diagonal gate other than `id`) is virtual: no time, no noise.
//! * *Idle*: before each instruction its qubits relax over the time they waited since their
//!   previous instruction (the schedule's idle windows; an instruction whose condition is false
//!   leaves its window idle). A qubit not yet touched is |0> and nothing happens to it.
//! * *Relaxation* (zero temperature: towards |0>) as [`channels::Relaxation`] samples it: for
//!   `T2 <= T1` a reset or a Z with fixed probabilities, else nothing; for `T2 > T1` an
//!   amplitude damping, with a fixed probability, by the quantum-jump method. Most trajectories
//!   therefore do nothing for most of their channels.
//! * *Measurement*: the outcome is drawn from the state (which collapses), then read wrong with
//!   P(1|0) or P(0|1); the bit holds what was read, and conditions later in the program see it.
//!   No relaxation during the measurement itself (the readout errors cover it, as in Aer).
//! * *Reset*: to |0>, left in |1> with the reset error, then relaxed over the reset's duration.
//!
//! **Shots and statistics.** Each shot is its own trajectory: its own draws of every error, of
//! every measurement and of every readout flip, from its own random stream (ChaCha8, stream `k`
//! of the seed for shot `k`). Shots are therefore independent, as on a device, and the counts
//! are a multinomial sample of the noisy distribution: the standard errors `qchess counts`
//! reports mean the same as for a device's counts. (Taking several shots from one trajectory's
//! final state would be cheaper but make the shots of one trajectory share their errors.)
//!
//! **Sparsity.** Pauli errors permute and rephase basis states, resets and measurements
//! collapse them, and the no-jump branch of damping reweights them, so a trajectory's state is
//! never larger than the noiseless one (besides, briefly, the spare qubit the no-jump branch
//! uses). A Quantum Chess game's state is small, so games too wide for a density matrix or a
//! state vector run in seconds.

pub mod board;
pub mod channels;
pub mod dd;
pub mod model;
pub mod program;
pub mod run;
pub mod trajectory;

pub use board::{board_error, first_order, BitsDistribution, FirstOrder};
pub use dd::{decouple, DdReport, DdSequence, Insertion, Pulses};
pub use model::{CouplerNoise, NoiseError, NoiseModel, QubitNoise};
pub use program::NoisyProgram;
pub use run::{noisy_counts, Counts, NoisyRunError, TrajectoryBackend, TRAJECTORY_CHUNK};
pub use trajectory::run_trajectory;
