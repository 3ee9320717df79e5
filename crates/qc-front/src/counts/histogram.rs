//! Counts of a program without a board: one that has no `// qchess-export` header (a circuit
//! written elsewhere, or by hand). There is no board to estimate, so the counts are summed up as
//! they are: a histogram of the outcomes and each bit's marginal with its standard error, and,
//! on request, the program's exact distribution beside them with the total variation distance.
//! Bits are the program's in declaration order (`c0` is the first bit of the first register),
//! read from the counts as for a board ([`parse_counts`]).

use super::{parse_counts, total_variation, CountsError, CountsFormat};
use crate::BackendKind;
use qc_export::CircuitError;
use qc_ir::exec::qiskit_key;
use qc_ir::ExecError;
use std::collections::BTreeMap;

/// One outcome of the histogram.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Outcome {
    /// The bit string, Qiskit's order (`c0` rightmost).
    pub bits: String,
    /// Shots that gave it.
    pub count: u64,
    /// Its share of the shots.
    pub fraction: f64,
    /// Its exact probability, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<f64>,
}

/// One bit's marginal.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BitMarginal {
    /// The bit's index (`c[k]` of the flattened registers).
    pub bit: usize,
    /// The share of shots in which it read 1.
    pub probability: f64,
    /// The standard error of that share (binomial: `sqrt(p (1 - p) / shots)`).
    pub stderr: f64,
    /// Its exact probability of reading 1, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<f64>,
}

/// Counts summed up without a board.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Histogram {
    /// Shots read.
    pub shots: u64,
    /// The program's bits.
    pub clbits: usize,
    /// Every outcome seen (and, with the exact distribution, every possible one), most
    /// frequent first, ties in bit-string order.
    pub outcomes: Vec<Outcome>,
    /// One per bit, `c0` first.
    pub marginals: Vec<BitMarginal>,
    /// The total variation distance from the counts to the exact distribution, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tvd: Option<f64>,
}

/// Why counts of a program without a board could not be summed up.
#[derive(Debug, thiserror::Error)]
pub enum HistogramError {
    /// The program does not read as a circuit.
    #[error(transparent)]
    Program(CircuitError),
    /// The counts do not parse or do not fit the program.
    #[error(transparent)]
    Counts(CountsError),
    /// The program could not be simulated for the exact distribution.
    #[error("cannot simulate the program")]
    Simulate(#[source] ExecError),
}

/// The histogram of `counts` (a counts file's text) of `program` (any circuit qchess reads),
/// with the exact distribution beside it when `exact` is set.
///
/// # Errors
/// The program or the counts do not read, or the exact distribution cannot be computed.
pub fn histogram_from_counts(
    program: &str,
    counts: &str,
    format: Option<CountsFormat>,
    exact: bool,
) -> Result<Histogram, HistogramError> {
    let limit = qc_sim::MemoryLimit::default().limit_bytes();
    let circuit =
        qc_export::parse_circuit_within(program, limit).map_err(HistogramError::Program)?;
    let width = circuit.num_clbits();
    let counts = parse_counts(counts, format, width).map_err(HistogramError::Counts)?;
    let shots = counts.shots();
    let exact = if exact {
        let dist = crate::program::distribution(
            &circuit,
            BackendKind::Sparse,
            qc_sim::Precision::Double,
            true,
        )
        .map_err(HistogramError::Simulate)?;
        Some(dist)
    } else {
        None
    };
    let observed: BTreeMap<Vec<bool>, f64> = counts
        .outcomes
        .iter()
        .map(|(k, &n)| (k.clone(), n as f64 / shots as f64))
        .collect();
    let mut keys: Vec<&Vec<bool>> = counts.outcomes.keys().collect();
    if let Some(dist) = &exact {
        keys.extend(dist.keys().filter(|k| !counts.outcomes.contains_key(*k)));
    }
    let mut outcomes: Vec<Outcome> = keys
        .into_iter()
        .map(|k| {
            let count = counts.outcomes.get(k).copied().unwrap_or(0);
            Outcome {
                bits: qiskit_key(k),
                count,
                fraction: count as f64 / shots as f64,
                exact: exact.as_ref().map(|d| d.get(k).copied().unwrap_or(0.0)),
            }
        })
        .collect();
    outcomes.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.bits.cmp(&b.bits)));
    let marginals = (0..width)
        .map(|bit| {
            let ones: u64 = counts
                .outcomes
                .iter()
                .filter(|(k, _)| k.get(bit).copied().unwrap_or(false))
                .map(|(_, n)| n)
                .sum();
            let p = ones as f64 / shots as f64;
            BitMarginal {
                bit,
                probability: p,
                stderr: (p * (1.0 - p) / shots as f64).sqrt(),
                exact: exact.as_ref().map(|d| {
                    d.iter()
                        .filter(|(k, _)| k.get(bit).copied().unwrap_or(false))
                        .map(|(_, p)| p)
                        .sum()
                }),
            }
        })
        .collect();
    Ok(Histogram {
        shots,
        clbits: width,
        outcomes,
        marginals,
        tvd: exact.as_ref().map(|d| total_variation(&observed, d)),
    })
}
