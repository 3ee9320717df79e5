//! Many trajectories in parallel: one shot each, counted, seeded and reproducible whatever the
//! number of threads, within the memory limit.

use super::program::NoisyProgram;
use super::trajectory::run_trajectory;
use crate::memory::MemoryLimit;
use crate::{DenseSim, Real, ReferenceSparse, SparseSim};
use qc_ir::exec::{outcome_bytes, ExecError};
use qc_ir::Backend;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use thiserror::Error;

/// Trajectories per unit of parallel work (fixed, so the work does not depend on the thread
/// count; results do not anyway, since each trajectory has its own random stream).
pub const TRAJECTORY_CHUNK: u64 = 64;

/// Counts of shots by outcome (bit values indexed by clbit), as `qc_ir::exec::sample_counts`
/// gives them.
pub type Counts = BTreeMap<Vec<bool>, u64>;

/// A simulator trajectories can run on: it is told to keep each of its passes on the calling
/// thread, since the trajectories are what runs in parallel (a simulator that split its passes
/// over rayon's threads would let a waiting thread start another trajectory, and hold two
/// states at once).
pub trait TrajectoryBackend: Backend + Send {
    /// Keeps every pass on the calling thread.
    fn on_one_thread(&mut self);
}

impl TrajectoryBackend for SparseSim {
    fn on_one_thread(&mut self) {
        self.set_parallel_threshold(usize::MAX);
    }
}

impl<F: Real> TrajectoryBackend for DenseSim<F> {
    fn on_one_thread(&mut self) {
        self.set_parallel_threshold(usize::MAX);
    }
}

impl TrajectoryBackend for ReferenceSparse {
    /// The reference simulator never uses threads.
    fn on_one_thread(&mut self) {}
}

/// Why a noisy run failed.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum NoisyRunError {
    /// A trajectory failed (the lowest-numbered one that did, so the error is the same on any
    /// number of threads).
    #[error("trajectory {trajectory}: {source}")]
    Trajectory {
        /// Its number (0-based; its random stream).
        trajectory: u64,
        /// What the simulator reported, at which instruction.
        #[source]
        source: ExecError,
    },
    /// More distinct outcomes than the share of the memory limit the counts may use.
    #[error("the shots have more than {limit} distinct outcomes, more than a quarter of the memory limit holds at {bytes_each} bytes each; use fewer shots or a larger limit")]
    TooManyOutcomes {
        /// The most distinct outcomes allowed.
        limit: u64,
        /// Bytes each takes.
        bytes_each: u128,
    },
}

/// How the memory limit is shared: the states in flight (one per worker thread) three quarters,
/// the counts one quarter.
fn shares(limit: MemoryLimit, workers: usize, num_clbits: usize) -> (MemoryLimit, u64) {
    let total = limit.limit_bytes();
    let states = total - total / 4;
    let per_state = MemoryLimit::bytes(states / workers.max(1) as u128);
    let outcomes = (total / 4) / outcome_bytes(num_clbits);
    (per_state, u64::try_from(outcomes).unwrap_or(u64::MAX))
}

/// Errors when `counts` has more than `max` distinct outcomes.
fn check_outcomes(counts: &Counts, max: u64, num_clbits: usize) -> Result<(), NoisyRunError> {
    if counts.len() as u64 > max {
        return Err(NoisyRunError::TooManyOutcomes {
            limit: max,
            bytes_each: outcome_bytes(num_clbits),
        });
    }
    Ok(())
}

/// `shots` noisy shots of `program`, each from its own trajectory on a simulator `new_backend`
/// makes, counted by outcome. Trajectory `k` draws from the ChaCha8 stream `k` of `seed`, so the
/// counts depend on the seed alone, not on the number of threads. Trajectories run in parallel
/// on rayon's threads, in chunks of [`TRAJECTORY_CHUNK`], a round of a few chunks per thread at a
/// time whose counts are then added in order; each thread holds one state at a time, and the
/// states in flight share three quarters of `limit` (each gets `3/4 limit / threads`), the counts
/// the last quarter.
///
/// # Errors
/// The lowest-numbered trajectory that failed (a state over its share of the memory limit), or
/// more distinct outcomes than the counts' share holds.
pub fn noisy_counts<B: TrajectoryBackend>(
    program: &NoisyProgram,
    new_backend: impl Fn(MemoryLimit) -> B + Sync,
    limit: MemoryLimit,
    shots: u64,
    seed: u64,
) -> Result<Counts, NoisyRunError> {
    let chunks = shots.div_ceil(TRAJECTORY_CHUNK);
    let workers = rayon::current_num_threads()
        .min(usize::try_from(chunks).unwrap_or(usize::MAX))
        .max(1);
    let num_clbits = program.num_clbits();
    let (state_limit, max_outcomes) = shares(limit, workers, num_clbits);
    let run_chunk = |chunk: u64| -> Result<Counts, NoisyRunError> {
        let mut counts = Counts::new();
        let first = chunk * TRAJECTORY_CHUNK;
        for trajectory in first..(first + TRAJECTORY_CHUNK).min(shots) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(trajectory);
            let mut backend = new_backend(state_limit);
            backend.on_one_thread();
            let bits = run_trajectory(program, &mut backend, &mut rng)
                .map_err(|source| NoisyRunError::Trajectory { trajectory, source })?;
            *counts.entry(bits).or_insert(0) += 1;
        }
        Ok(counts)
    };
    let round = 4 * workers as u64;
    let mut counts = Counts::new();
    let mut next = 0;
    while next < chunks {
        let end = (next + round).min(chunks);
        let parts: Vec<Result<Counts, NoisyRunError>> =
            (next..end).into_par_iter().map(run_chunk).collect();
        // In chunk order: the first error is the lowest-numbered trajectory's.
        for part in parts {
            for (bits, n) in part? {
                *counts.entry(bits).or_insert(0) += n;
            }
            check_outcomes(&counts, max_outcomes, num_clbits)?;
        }
        next = end;
    }
    Ok(counts)
}
