//! Deterministic parallel helpers: work is cut into chunks whose boundaries depend only on the
//! data length (never on the thread count), and partial results are combined in chunk order, so
//! a sum is the same bit for bit on 1 thread or 64.

use rayon::prelude::*;

/// Chunk length for reductions (fixed, so that partial sums do not depend on the thread count).
pub const REDUCE_CHUNK: usize = 1 << 12;

/// `per_chunk` of each fixed chunk of `items` ([`REDUCE_CHUNK`] long), in chunk order; runs the
/// chunks on rayon when `parallel`. Combining the results in this order gives the same answer
/// on any number of threads.
pub fn det_chunks<T: Sync, R: Send>(
    items: &[T],
    parallel: bool,
    per_chunk: impl Fn(&[T]) -> R + Sync + Send,
) -> Vec<R> {
    if parallel {
        items.par_chunks(REDUCE_CHUNK).map(per_chunk).collect()
    } else {
        items.chunks(REDUCE_CHUNK).map(per_chunk).collect()
    }
}

/// Sums `f` over `items` in fixed chunks; runs the chunks on rayon when `parallel`.
pub fn det_sum<T: Sync>(items: &[T], parallel: bool, f: impl Fn(&T) -> f64 + Sync) -> f64 {
    det_chunks(items, parallel, |chunk| chunk.iter().map(&f).sum::<f64>())
        .into_iter()
        .sum()
}

/// Like [`det_sum`], in one pass, but `f` also says which of two sums a value goes to; returns
/// `(sum of values for false, sum of values for true)`.
pub fn det_sum_split<T: Sync>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&T) -> (bool, f64) + Sync,
) -> (f64, f64) {
    let partial = |chunk: &[T]| {
        chunk.iter().fold((0.0f64, 0.0f64), |(a, b), x| match f(x) {
            (false, v) => (a + v, b),
            (true, v) => (a, b + v),
        })
    };
    det_chunks(items, parallel, partial)
        .into_iter()
        .fold((0.0, 0.0), |(a, b), (c, d)| (a + c, b + d))
}

/// `p1 / (p0 + p1)`: the probability of 1 given the two unnormalised weights; exactly 0 or 1
/// when one weight is exactly 0.
pub fn normalised_one(p0: f64, p1: f64) -> f64 {
    let total = p0 + p1;
    if total > 0.0 {
        p1 / total
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_and_sequential_sums_are_bit_identical() {
        // Values of wildly different magnitudes make the sum order-sensitive.
        let values: Vec<f64> = (0..50_000)
            .map(|i| ((i * 7919) % 1000) as f64 * 10f64.powi((i % 17) - 8))
            .collect();
        let a = det_sum(&values, false, |v| *v);
        let b = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| det_sum(&values, true, |v| *v));
        assert_eq!(a.to_bits(), b.to_bits());
        let naive: f64 = values.iter().sum();
        assert!((a - naive).abs() <= 1e-9 * naive.abs());
    }
}
