//! Marginal distributions of a dense state vector: the probability of each pattern of a few
//! bit positions, summed over the others.
//!
//! An amplitude's pattern is its index's bits at the chosen positions, packed (a software
//! `pext`): one table lookup per byte of the index instead of a loop over the positions. The sums
//! go to a flat array indexed by the packed pattern (a map insert per amplitude cost more than
//! the simulation itself at 2^20 amplitudes). Chunks have a fixed length, and partial sums are
//! added in chunk order, so the result is the same bit for bit on any number of threads.

use crate::precision::Real;
use num_complex::Complex;
use rayon::prelude::*;

/// Amplitudes per chunk of the parallel sum.
const CHUNK: usize = 1 << 16;

/// Patterns of at most this many bits are summed in parallel (one array of `2^bits` per chunk);
/// longer ones in one sequential pass over a single array.
const PARALLEL_MAX_BITS: usize = 10;

/// The pattern a packed marginal index stands for: `constant` (the pattern's known 1 bits) with
/// pattern bit `targets[j].0` set from bit `j` of `packed` (the inverse of the packing below,
/// for the bits a marginal sums over).
pub fn unpack<T>(packed: usize, constant: u128, targets: &[(usize, T)]) -> u128 {
    targets
        .iter()
        .enumerate()
        .fold(constant, |pattern, (j, &(k, _))| {
            pattern | ((((packed >> j) & 1) as u128) << k)
        })
}

/// Packs the bits of an index at chosen positions: bit `j` of the result is bit `positions[j]`
/// of the index.
struct BitGather {
    /// For byte `b` of the index and its value `v`: the packed bits it contributes.
    tables: Vec<[usize; 256]>,
}

impl BitGather {
    fn new(positions: &[u8]) -> BitGather {
        let bytes = positions
            .iter()
            .map(|&p| usize::from(p) / 8 + 1)
            .max()
            .unwrap_or(0);
        let mut tables = vec![[0usize; 256]; bytes];
        for (j, &p) in positions.iter().enumerate() {
            let (byte, bit) = (usize::from(p) / 8, p % 8);
            for (value, entry) in tables[byte].iter_mut().enumerate() {
                if (value >> bit) & 1 == 1 {
                    *entry |= 1 << j;
                }
            }
        }
        BitGather { tables }
    }

    #[inline]
    fn gather(&self, index: usize) -> usize {
        self.tables
            .iter()
            .enumerate()
            .fold(0, |acc, (b, table)| acc | table[(index >> (8 * b)) & 0xff])
    }
}

/// `out[pattern]` = the sum of `|a|^2` over the amplitudes whose index has `pattern` at
/// `positions` (bit `j` of `pattern` is position `positions[j]`). At most 31 positions. Sums are
/// kept in `f64` whatever the amplitudes' precision.
pub fn dense_marginal<F: Real>(amps: &[Complex<F>], positions: &[u8], parallel: bool) -> Vec<f64> {
    assert!(
        positions.len() < 32,
        "a marginal over more than 31 positions"
    );
    let gather = BitGather::new(positions);
    let len = 1usize << positions.len();
    let sum_into = |out: &mut [f64], chunk: &[Complex<F>], first: usize| {
        for (offset, a) in chunk.iter().enumerate() {
            out[gather.gather(first + offset)] += F::norm_sqr_f64(*a);
        }
    };
    if !parallel || positions.len() > PARALLEL_MAX_BITS || amps.len() <= CHUNK {
        let mut out = vec![0.0; len];
        for (c, chunk) in amps.chunks(CHUNK).enumerate() {
            sum_into(&mut out, chunk, c * CHUNK);
        }
        return out;
    }
    let partials: Vec<Vec<f64>> = amps
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut out = vec![0.0; len];
            sum_into(&mut out, chunk, c * CHUNK);
            out
        })
        .collect();
    let mut out = vec![0.0; len];
    for partial in partials {
        for (o, p) in out.iter_mut().zip(partial) {
            *o += p;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Complex64;

    /// The definition, one bit at a time.
    fn by_definition(amps: &[Complex64], positions: &[u8]) -> Vec<f64> {
        let mut out = vec![0.0; 1 << positions.len()];
        for (index, a) in amps.iter().enumerate() {
            let pattern = positions
                .iter()
                .enumerate()
                .map(|(j, &p)| ((index >> p) & 1) << j)
                .sum::<usize>();
            out[pattern] += a.norm_sqr();
        }
        out
    }

    #[test]
    fn agrees_with_the_definition_in_any_position_order() {
        // 2^18 amplitudes, all different, so a wrong bit moves weight somewhere else.
        let amps: Vec<Complex64> = (0..1usize << 18)
            .map(|i| Complex64::new((i % 7) as f64 * 0.01, (i % 11) as f64 * 0.003))
            .collect();
        for positions in [
            vec![],
            vec![0],
            vec![17, 3],
            vec![9, 0, 12, 8, 1],
            (0..18).rev().collect(),
        ] {
            for parallel in [false, true] {
                let got = dense_marginal(&amps, &positions, parallel);
                let want = by_definition(&amps, &positions);
                assert_eq!(got.len(), want.len());
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                        "{positions:?}: {g} vs {w}"
                    );
                }
            }
        }
    }
}
