//! From counts to a board: the shots kept by post-selection and the symmetry checks, the
//! per-square probability with its standard error, the readout correction, and the comparison
//! with the exact board.

use super::{Calibration, Counts, CountsError, Mitigation};
use qc_export::{BoardMap, Holds};
use qc_rules::Square;
use serde::Serialize;
use std::collections::BTreeMap;

/// One square of the estimated board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SquareEstimate {
    /// The FEN letter of the piece that stands there when occupied (`null` when unknown).
    pub piece: Option<String>,
    /// Estimated probability that the square is occupied.
    pub probability: f64,
    /// Its standard error (0 for a square known at compile time).
    pub stderr: f64,
}

/// The board estimated from counts (`qchess counts --json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardEstimate {
    /// Shots read.
    pub shots: u64,
    /// Shots used.
    pub kept: u64,
    /// Shots discarded, by reason: `postselect` (a recorded outcome differs), `ancilla` (an
    /// ancilla returned to |0> read 1), `conserved_NAME` (a conserved quantity of the map broken).
    pub discarded: BTreeMap<String, u64>,
    /// Every square the map names (measured, or known occupied).
    pub squares: BTreeMap<Square, SquareEstimate>,
    /// The exact probabilities, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<BTreeMap<Square, f64>>,
    /// Total variation distance between the kept shots' distribution of the measured board bits
    /// and the exact one (0 when the program measures no square: see `no_board`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tvd: Option<f64>,
    /// Why there is no board, when the program's map names no square ([`NO_BOARD`]): its
    /// counts then give the shots kept and discarded, and nothing about where pieces stand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_board: Option<&'static str>,
}

/// What the counts of a program whose map names no square (measured or known) can tell. A
/// Niel's Chess program is one: it measures its dice rolls and the ancillas it returns to |0>,
/// never its pairs' which-square qubits. Its board is not empty (an empty board without kings
/// was once drawn for it): it is not in the counts.
pub const NO_BOARD: &str = "No board: the program's header names no square, so its counts say nothing about where pieces stand (a Niel's Chess program, `qchess compile --rules niels`, measures only its dice rolls and its ancillas; `qchess simulate --rules niels` gives its board); the kept shots are those that rolled the recorded outcomes";

/// The exact board of a program: the distribution of its measured board bits (in the order of
/// `map.measured`) given the recorded outcomes, and each square's probability.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactBoard {
    /// P(board bits) given the recorded outcomes.
    pub joint: BTreeMap<Vec<bool>, f64>,
    /// P(occupied) per square named by the map.
    pub squares: BTreeMap<Square, f64>,
}

/// `p` as a probability to show: within [0, 1] (rounding can leave -1e-17 where the answer is 0)
/// and never -0.0 (an empty `f64` sum is -0.0, which prints as `-0.0000`).
pub(super) fn unit_probability(p: f64) -> f64 {
    // Adding +0.0 turns -0.0 into +0.0 and leaves every other value as it is.
    p.clamp(0.0, 1.0) + 0.0
}

/// Why a shot is discarded, or `None` when it is kept.
fn discard_reason(map: &BoardMap, bits: &[bool], mitigation: &Mitigation) -> Option<String> {
    let bit = |k: usize| bits.get(k).copied().unwrap_or(false);
    if mitigation.postselect && map.recorded.iter().any(|r| bit(r.bit) != (r.value == 1)) {
        return Some("postselect".to_string());
    }
    if mitigation.symmetry {
        if map.zero.iter().any(|z| bit(z.bit)) {
            return Some("ancilla".to_string());
        }
        for c in &map.conserved {
            let sum = c.bits.iter().filter(|&&k| bit(k)).count();
            if sum != c.total {
                return Some(format!("conserved_{}", c.name));
            }
        }
    }
    None
}

/// Estimates the board from `counts` of the program described by `map`, with `mitigation`
/// (readout needs `calibration`). Each square's probability is the fraction of kept shots that
/// read 1 there, its standard error the binomial `sqrt(p (1 - p) / kept)`.
pub fn estimate_board(
    map: &BoardMap,
    counts: &Counts,
    mitigation: &Mitigation,
    calibration: Option<&Calibration>,
) -> Result<BoardEstimate, CountsError> {
    if counts.width != map.clbits {
        return Err(CountsError::WidthMismatch {
            found: counts.width,
            expected: map.clbits,
        });
    }
    let calibration = match (mitigation.readout, calibration) {
        (true, None) => return Err(CountsError::MissingCalibration),
        (true, Some(c)) => Some(c),
        (false, _) => None,
    };
    let mut discarded: BTreeMap<String, u64> = BTreeMap::new();
    let mut kept = 0u64;
    let mut ones = vec![0u64; map.measured.len()];
    for (bits, &n) in &counts.outcomes {
        if let Some(reason) = discard_reason(map, bits, mitigation) {
            *discarded.entry(reason).or_default() += n;
            continue;
        }
        kept += n;
        for (k, m) in map.measured.iter().enumerate() {
            if bits.get(m.bit).copied().unwrap_or(false) {
                ones[k] += n;
            }
        }
    }
    if kept == 0 {
        let reasons: Vec<String> = discarded.iter().map(|(r, n)| format!("{r}: {n}")).collect();
        return Err(CountsError::NothingKept {
            shots: counts.shots(),
            reasons: reasons.join(", "),
        });
    }
    let mut squares = BTreeMap::new();
    for (m, one) in map.measured.iter().zip(ones) {
        let Holds::Site(site) = m.holds else {
            continue;
        };
        let sq = Square::from(site);
        let p = one as f64 / kept as f64;
        let mut estimate = (p, (p * (1.0 - p) / kept as f64).sqrt());
        if let Some(cal) = calibration {
            let e = cal.get(m.qubit).ok_or(CountsError::QubitNotCalibrated {
                qubit: m.qubit,
                bit: m.bit,
            })?;
            estimate = e.correct(estimate.0, estimate.1);
        }
        squares.insert(
            sq,
            SquareEstimate {
                piece: m.piece.clone(),
                probability: estimate.0,
                stderr: estimate.1,
            },
        );
    }
    for f in &map.fixed {
        if let Holds::Site(site) = f.holds {
            squares.insert(
                Square::from(site),
                SquareEstimate {
                    piece: f.piece.clone(),
                    probability: f64::from(f.value),
                    stderr: 0.0,
                },
            );
        }
    }
    // Every Quantum Chess map names a square (its kings at least).
    let no_board = squares.is_empty().then_some(NO_BOARD);
    Ok(BoardEstimate {
        shots: counts.shots(),
        kept,
        discarded,
        squares,
        exact: None,
        tvd: None,
        no_board,
    })
}

/// The exact board of the program described by `map`, from the exact distribution of its bits
/// (`dist`, indexed by bit, as [`qc_ir::exec::exact_distribution`] gives it): conditioned on the
/// recorded outcomes, then marginalised onto the measured board bits.
pub fn exact_board(map: &BoardMap, dist: &qc_ir::Distribution) -> Result<ExactBoard, CountsError> {
    let mut joint: BTreeMap<Vec<bool>, f64> = BTreeMap::new();
    let mut keep = 0.0;
    for (bits, &p) in dist {
        let bit = |k: usize| bits.get(k).copied().unwrap_or(false);
        if map.recorded.iter().any(|r| bit(r.bit) != (r.value == 1)) {
            continue;
        }
        keep += p;
        let board: Vec<bool> = map.measured.iter().map(|m| bit(m.bit)).collect();
        *joint.entry(board).or_default() += p;
    }
    if keep <= qc_ir::IMPOSSIBLE_PROBABILITY {
        return Err(CountsError::ImpossibleOutcomes);
    }
    for p in joint.values_mut() {
        *p /= keep;
    }
    let mut squares = BTreeMap::new();
    for (k, m) in map.measured.iter().enumerate() {
        if let Holds::Site(site) = m.holds {
            let p: f64 = joint.iter().filter(|(b, _)| b[k]).map(|(_, p)| p).sum();
            squares.insert(Square::from(site), unit_probability(p));
        }
    }
    for f in &map.fixed {
        if let Holds::Site(site) = f.holds {
            squares.insert(Square::from(site), f64::from(f.value));
        }
    }
    Ok(ExactBoard { joint, squares })
}

impl BoardEstimate {
    /// Adds the exact board and the total variation distance between the kept shots of
    /// `counts` (under the same `mitigation`) and `exact.joint`.
    pub fn compare(
        &mut self,
        map: &BoardMap,
        counts: &Counts,
        mitigation: &Mitigation,
        exact: &ExactBoard,
    ) {
        let mut empirical: BTreeMap<Vec<bool>, f64> = BTreeMap::new();
        for (bits, &n) in &counts.outcomes {
            if discard_reason(map, bits, mitigation).is_none() {
                let board: Vec<bool> = map
                    .measured
                    .iter()
                    .map(|m| bits.get(m.bit).copied().unwrap_or(false))
                    .collect();
                *empirical.entry(board).or_default() += n as f64 / self.kept as f64;
            }
        }
        self.tvd = Some(total_variation(&empirical, &exact.joint));
        self.exact = Some(exact.squares.clone());
    }
}

/// Half the L1 distance between two distributions over the same keys.
pub fn total_variation(a: &BTreeMap<Vec<bool>, f64>, b: &BTreeMap<Vec<bool>, f64>) -> f64 {
    let only_b: f64 = b
        .iter()
        .filter(|(k, _)| !a.contains_key(*k))
        .map(|(_, p)| p.abs())
        .sum();
    let rest: f64 = a
        .iter()
        .map(|(k, p)| (p - b.get(k).copied().unwrap_or(0.0)).abs())
        .sum();
    (rest + only_b) / 2.0
}
