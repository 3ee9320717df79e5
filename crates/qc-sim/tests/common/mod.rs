//! Helpers shared by the thread-count determinism tests.

use qc_ir::{Complex64, Qubit};

/// Basis states with their amplitudes as raw bits, for bit-for-bit comparison.
pub fn bits(states: Vec<(Vec<Qubit>, Complex64)>) -> Vec<(Vec<Qubit>, u64, u64)> {
    states
        .into_iter()
        .map(|(k, a)| (k, a.re.to_bits(), a.im.to_bits()))
        .collect()
}

/// Runs `f` in a fresh rayon pool of `threads` threads.
pub fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
