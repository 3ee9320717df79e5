//! The `Backend` trait: what a simulator (or a device adapter) must do so that games and circuits
//! can run on it one instruction at a time.
//!
//! Qubits are the circuit's [`Qubit`]s; a backend grows as new qubits are touched (every qubit
//! starts in |0>). Measurement takes a [`MeasureChoice`]: either a forced outcome (post-selection,
//! as `.m0`/`.m1` do) or a uniform random number drawn by the caller's seeded RNG, so a backend
//! never owns randomness and results are reproducible whatever the thread count.
//!
//! Thresholds: amplitudes below [`AMPLITUDE_EPSILON`] in magnitude are treated as zero (pruned by
//! sparse backends); an outcome whose probability is below [`IMPOSSIBLE_PROBABILITY`] is
//! impossible, and forcing it is an error, never a renormalisation of zero.

use crate::gate::Gate;
use crate::ids::Qubit;
use crate::instruction::Control;
use crate::matrix::Matrix;
use num_complex::Complex64;
use std::collections::BTreeMap;
use thiserror::Error;

/// Amplitudes with a smaller magnitude are zero.
pub const AMPLITUDE_EPSILON: f64 = 1e-12;
/// Outcomes with a smaller probability are impossible (= `AMPLITUDE_EPSILON^2`).
pub const IMPOSSIBLE_PROBABILITY: f64 = AMPLITUDE_EPSILON * AMPLITUDE_EPSILON;

/// How to pick a measurement outcome.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum MeasureChoice {
    /// Post-select this outcome; an impossible outcome is an error.
    Forced(bool),
    /// Sample with this uniform number in [0, 1): the outcome is 1 iff `u < P(1)`.
    Random(f64),
}

impl MeasureChoice {
    /// Resolves the outcome from the weights of the two outcomes (`p_zero`, `p_one`: sums of
    /// `|a|^2` over the basis states with the qubit 0 and 1; they need not add up to exactly 1).
    /// Each weight is summed on its own, so an outcome that no basis state has is impossible
    /// exactly, never a rounding residue of `1 - p`. Returns the outcome or says it was impossible.
    pub fn resolve(self, qubit: Qubit, p_zero: f64, p_one: f64) -> Result<bool, BackendError> {
        let total = p_zero + p_one;
        let (q0, q1) = if total > 0.0 {
            (p_zero / total, p_one / total)
        } else {
            (0.0, 0.0)
        };
        let outcome = match self {
            MeasureChoice::Forced(v) => v,
            MeasureChoice::Random(u) => {
                if q1 < IMPOSSIBLE_PROBABILITY {
                    false
                } else if q0 < IMPOSSIBLE_PROBABILITY {
                    true
                } else {
                    u < q1
                }
            }
        };
        let p = if outcome { q1 } else { q0 };
        if p < IMPOSSIBLE_PROBABILITY {
            return Err(BackendError::ImpossibleOutcome {
                qubit,
                outcome,
                probability: p,
            });
        }
        Ok(outcome)
    }

    /// Resolves the outcome of a qubit with a definite classical value.
    pub fn resolve_classical(self, qubit: Qubit, value: bool) -> Result<bool, BackendError> {
        let one = f64::from(u8::from(value));
        self.resolve(qubit, 1.0 - one, one)
    }
}

/// Errors a backend reports.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum BackendError {
    /// A forced measurement outcome has probability zero.
    #[error("measuring {qubit} cannot give {} (its probability is {probability:e})", u8::from(*outcome))]
    ImpossibleOutcome {
        /// The measured qubit.
        qubit: Qubit,
        /// The outcome asked for.
        outcome: bool,
        /// Its probability.
        probability: f64,
    },
    /// An ancilla was freed while not in |0>: the circuit forgot to uncompute it.
    #[error(
        "ancilla {qubit} is freed but is |1> with probability {probability_one:e} (not uncomputed)"
    )]
    DirtyAncilla {
        /// The ancilla.
        qubit: Qubit,
        /// P(|1>) at the free.
        probability_one: f64,
    },
    /// The state would need more memory than the configured limit.
    #[error(
        "the state would need {needed_bytes} bytes, over the limit of {limit_bytes} bytes ({what})"
    )]
    CapacityExceeded {
        /// What was being allocated.
        what: String,
        /// Bytes needed.
        needed_bytes: u128,
        /// The limit.
        limit_bytes: u128,
    },
    /// More qubits are in superposition at once than the backend can represent.
    #[error(
        "{needed} qubits would be in superposition at once; this backend handles at most {limit}"
    )]
    TooManyQubits {
        /// Qubits needed.
        needed: usize,
        /// The backend's limit.
        limit: usize,
    },
    /// An exact distribution needs more measurement branches than the limit (each branch is a
    /// full simulation of the rest of the circuit).
    #[error("the exact distribution needs more than {limit} measurement branches (mid-circuit measurements of superposed qubits); use fewer or defer them to the end")]
    TooManyBranches {
        /// The most branches explored.
        limit: usize,
    },
    /// An exact distribution needs more work than its limit allows
    /// ([`crate::exec::ExactLimits::max_amplitude_updates`]).
    #[error("the exact distribution needs more than {limit} amplitude updates (the state's size summed over every instruction run, in every measurement branch); sample shots instead, or simplify the circuit")]
    TooMuchWork {
        /// The most amplitude updates allowed.
        limit: u64,
    },
    /// An exact distribution has more distinct outcomes than the memory limit leaves room for
    /// beside the state ([`crate::exec::ExactLimits::max_outcomes`]).
    #[error("the exact distribution may have more outcomes than the memory limit leaves room for beside the state ({limit} at {bytes_each} bytes each); measure fewer bits")]
    TooManyOutcomes {
        /// The most outcomes allowed.
        limit: usize,
        /// The bytes each outcome takes ([`crate::exec::outcome_bytes`]).
        bytes_each: u128,
    },
    /// A matrix that is not `2^k x 2^k` for its `k` targets (`k` at most 3) was applied.
    #[error("a {dim} x {dim} matrix cannot act on {targets} target(s): it must be 2^k x 2^k for k <= 3 targets")]
    MatrixSize {
        /// The matrix's dimension.
        dim: usize,
        /// The number of targets.
        targets: usize,
    },
    /// A snapshot from another backend or state was restored or compared.
    #[error("invalid snapshot: {0}")]
    InvalidSnapshot(&'static str),
    /// The step was stopped by this thread's [`crate::interrupt::Interrupt`] (a search's stop
    /// flag or deadline) before it finished. The state is then undefined: restore the snapshot
    /// taken before the step (a game's ledger does so with every failed move).
    #[error("{during} was interrupted (stop or deadline) after {visited} basis states were visited; the state must be restored")]
    Interrupted {
        /// The step that was stopped.
        during: &'static str,
        /// Basis states visited under the interrupt when it was seen.
        visited: u64,
    },
}

/// The check every [`Backend::free`] makes: an ancilla may end its life only in |0>, that is
/// with `P(1)` no more than [`IMPOSSIBLE_PROBABILITY`].
///
/// # Errors
/// [`BackendError::DirtyAncilla`] when `probability_one` is larger.
pub fn check_clean(qubit: Qubit, probability_one: f64) -> Result<(), BackendError> {
    if probability_one > IMPOSSIBLE_PROBABILITY {
        return Err(BackendError::DirtyAncilla {
            qubit,
            probability_one,
        });
    }
    Ok(())
}

/// One gate of a run handed to [`Backend::apply_gates`]: what [`Backend::apply_gate`] takes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GateCall<'a> {
    /// The gate.
    pub gate: Gate,
    /// Its targets.
    pub targets: &'a [Qubit],
    /// Its quantum controls.
    pub controls: &'a [Control],
}

/// A gate of a run given to [`Backend::apply_gates`] failed.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("gate {index} of the run: {source}")]
pub struct GateRunError {
    /// The failing gate's index in the run.
    pub index: usize,
    /// What the backend reported.
    #[source]
    pub source: BackendError,
}

/// The check every [`Backend::apply_matrix`] makes before it touches the state: the matrix is
/// `2^k x 2^k` for its `k` targets, `k` at most [`crate::user_gate::MAX_USER_GATE_QUBITS`].
///
/// # Errors
/// [`BackendError::MatrixSize`] otherwise.
pub fn check_matrix_size(matrix: &Matrix, targets: usize) -> Result<(), BackendError> {
    if targets > crate::user_gate::MAX_USER_GATE_QUBITS || !matrix.is_square_of(1 << targets) {
        return Err(BackendError::MatrixSize {
            dim: matrix.dim(),
            targets,
        });
    }
    Ok(())
}

/// A simulator the IR can run on. See the module docs for conventions.
pub trait Backend {
    /// A saved state for undo; restoring it must be exact.
    type Snapshot: Clone;

    /// A short name (`sparse`, `dense`, ...).
    fn name(&self) -> &'static str;

    /// Applies `gate` to `targets` on the basis states where every control has its value.
    fn apply_gate(
        &mut self,
        gate: Gate,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError>;

    /// Applies a run of gates in order, with the same result as [`Backend::apply_gate`] on each
    /// in turn (which is what this default does). A backend that can do better with the whole
    /// run in hand (the dense simulator fuses gates on a few qubits into one pass) overrides it;
    /// [`crate::exec`] hands every run of consecutive gates here.
    ///
    /// # Errors
    /// The first gate that fails, with its index in `gates`; the gates before it were applied.
    fn apply_gates(&mut self, gates: &[GateCall<'_>]) -> Result<(), GateRunError> {
        for (index, call) in gates.iter().enumerate() {
            self.apply_gate(call.gate, call.targets, call.controls)
                .map_err(|source| GateRunError { index, source })?;
        }
        Ok(())
    }

    /// Applies the unitary `matrix` (`2^k x 2^k` for the `k = targets.len()` targets, `k` at most
    /// [`crate::user_gate::MAX_USER_GATE_QUBITS`]; the first target is the most significant bit,
    /// as for gates) on the basis states where every control has its value. This is how a user
    /// gate ([`crate::Op::UserGate`]) runs; the caller has checked the matrix (the verifier).
    fn apply_matrix(
        &mut self,
        matrix: &Matrix,
        targets: &[Qubit],
        controls: &[Control],
    ) -> Result<(), BackendError>;

    /// Measures `qubit` in the computational basis, collapsing the state.
    fn measure(&mut self, qubit: Qubit, choice: MeasureChoice) -> Result<bool, BackendError>;

    /// Returns `qubit` to |0>: a measurement whose outcome is then flipped back. Returns the
    /// outcome that was seen.
    fn reset(&mut self, qubit: Qubit, choice: MeasureChoice) -> Result<bool, BackendError> {
        let outcome = self.measure(qubit, choice)?;
        if outcome {
            self.apply_gate(Gate::X, &[qubit], &[])?;
        }
        Ok(outcome)
    }

    /// Starts an ancilla's life. The qubit is |0> (fresh, or freed earlier in |0>).
    fn alloc(&mut self, qubit: Qubit) -> Result<(), BackendError> {
        let _ = qubit;
        Ok(())
    }

    /// Ends an ancilla's life; errors if it is not |0>.
    fn free(&mut self, qubit: Qubit) -> Result<(), BackendError> {
        check_clean(qubit, self.probability_one(qubit))
    }

    /// Every basis state with a nonzero amplitude: the qubits that are 1 (sorted), and the
    /// amplitude. Sorted by the list of qubits. Qubits never touched are 0.
    fn basis_states(&self) -> Vec<(Vec<Qubit>, Complex64)>;

    /// Number of basis states with a nonzero amplitude.
    fn state_size(&self) -> usize;

    /// Number of amplitudes the backend stores, which one gate may have to update; cheap to call
    /// (the work bound of [`crate::exec::exact_distribution_within`] sums it per instruction).
    /// By default [`Backend::state_size`].
    fn amplitudes_held(&self) -> usize {
        self.state_size()
    }

    /// Saves the state. The copy counts against the memory limit with the state (as long as
    /// it lives, for the backends that keep such an account), so that a game's undo history
    /// cannot take the process past the limit.
    ///
    /// # Errors
    /// [`BackendError::CapacityExceeded`]: the copy would go over the memory limit, or the
    /// allocator refused it.
    fn snapshot(&self) -> Result<Self::Snapshot, BackendError>;

    /// Restores a saved state exactly, copying it (the snapshot stays usable).
    ///
    /// # Errors
    /// [`BackendError::CapacityExceeded`]: the copy would go over the memory limit, or the
    /// allocator refused it; the state is then unchanged.
    fn restore(&mut self, snapshot: &Self::Snapshot) -> Result<(), BackendError>;

    /// Restores a saved state exactly, taking the snapshot: nothing is copied, so this cannot
    /// fail (the way back after a move that failed or was only tried).
    fn restore_owned(&mut self, snapshot: Self::Snapshot);

    /// Bytes a snapshot holds, so that a game can keep its undo history within a budget; 0 when
    /// the backend does not say.
    fn snapshot_bytes(snapshot: &Self::Snapshot) -> usize {
        let _ = snapshot;
        0
    }

    /// The most bytes this backend lets its state use, if it has such a limit.
    fn memory_limit_bytes(&self) -> Option<u128> {
        None
    }

    /// The bytes counted against [`Backend::memory_limit_bytes`] now (the state, and for the
    /// backends that count them its live snapshots), so that what is computed from the state
    /// beside it (an exact distribution, the distribution of boards) can count against the same
    /// limit; 0 when the backend does not say.
    fn state_bytes(&self) -> usize {
        0
    }

    /// `|<saved|current>|^2`: 1 when the state is unchanged up to a global phase.
    ///
    /// # Errors
    /// [`BackendError::CapacityExceeded`]: comparing needs a sorted copy of a state that would
    /// go over the memory limit, or the allocator refused it.
    fn fidelity(&self, snapshot: &Self::Snapshot) -> Result<f64, BackendError>;

    /// `P(qubit = 1)`.
    fn probability_one(&self, qubit: Qubit) -> f64 {
        self.basis_states()
            .iter()
            .filter(|(ones, _)| ones.contains(&qubit))
            .map(|(_, a)| a.norm_sqr())
            .sum()
    }

    /// `P(qubit = 1)` of each of `qubits`, in order: what [`Backend::probability_one`] gives
    /// for each, in one pass over the state where the backend can (the sparse simulator does).
    fn probabilities_one(&self, qubits: &[Qubit]) -> Vec<f64> {
        qubits.iter().map(|&q| self.probability_one(q)).collect()
    }

    /// For each of `qubits`, in order: its value when every basis state of the support agrees on
    /// it, `None` when some basis states have it 0 and others 1. One pass over the state where
    /// the backend can (the sparse simulator reads the OR and AND of its keys).
    fn constant_values(&self, qubits: &[Qubit]) -> Vec<Option<bool>> {
        let states = self.basis_states();
        qubits
            .iter()
            .map(|q| {
                let ones = states
                    .iter()
                    .filter(|(o, _)| o.binary_search(q).is_ok())
                    .count();
                if ones == 0 {
                    Some(false)
                } else if ones == states.len() {
                    Some(true)
                } else {
                    None
                }
            })
            .collect()
    }

    /// A hash of the state ([`state_hash_term`] summed over the basis states): the same for the
    /// same basis states with the same amplitudes (to 2^-32), whatever backend holds them and in
    /// whatever order it stores them. For transposition tables: two states with the same hash
    /// are taken as the same.
    fn state_hash(&self) -> u64 {
        self.basis_states()
            .iter()
            .map(|(ones, amplitude)| {
                let qubits = ones.iter().fold(0u64, |h, &q| h ^ qubit_hash(q));
                state_hash_term(qubits, *amplitude)
            })
            .fold(0u64, u64::wrapping_add)
    }

    /// The exact joint distribution of `qubits` (bit k of the pattern = `qubits[k]`), other qubits
    /// summed out; only patterns with nonzero probability, in increasing pattern order.
    ///
    /// # Panics
    /// If more than 128 qubits are asked for.
    fn marginal(&self, qubits: &[Qubit]) -> Vec<(u128, f64)> {
        assert!(qubits.len() <= 128, "marginal over more than 128 qubits");
        let mut dist = BTreeMap::<u128, f64>::new();
        for (ones, amp) in self.basis_states() {
            *dist.entry(pattern_of(&ones, qubits)).or_default() += amp.norm_sqr();
        }
        dist.into_iter()
            .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
            .collect()
    }

    /// The reduced density matrix of `qubits` (basis index bit k = `qubits[k]`), the rest traced out.
    fn reduced_density_matrix(&self, qubits: &[Qubit]) -> Matrix {
        let dim = 1usize << qubits.len();
        // Group amplitudes by the configuration of the other qubits.
        let mut groups: BTreeMap<Vec<Qubit>, Vec<(usize, Complex64)>> = BTreeMap::new();
        for (ones, amp) in self.basis_states() {
            let rest: Vec<Qubit> = ones
                .iter()
                .copied()
                .filter(|q| !qubits.contains(q))
                .collect();
            groups
                .entry(rest)
                .or_default()
                .push((pattern_of(&ones, qubits) as usize, amp));
        }
        let mut rho = Matrix::zeros(dim);
        for entries in groups.values() {
            for &(i, a) in entries {
                for &(j, b) in entries {
                    rho.set(i, j, rho.get(i, j) + a * b.conj());
                }
            }
        }
        rho
    }

    /// The amplitude of the basis state in which exactly `ones` are 1.
    fn amplitude(&self, ones: &[Qubit]) -> Complex64 {
        let mut wanted = ones.to_vec();
        wanted.sort();
        wanted.dedup();
        self.basis_states()
            .into_iter()
            .find(|(o, _)| *o == wanted)
            .map(|(_, a)| a)
            .unwrap_or(Complex64::new(0.0, 0.0))
    }
}

/// Mixes 64 bits (SplitMix64's finaliser): nearby inputs give unrelated outputs.
pub const fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A qubit's share of a basis state's hash in [`Backend::state_hash`]: the XOR of these over
/// the qubits that are 1 names the basis state.
pub const fn qubit_hash(qubit: Qubit) -> u64 {
    mix64(qubit.0 as u64 ^ 0x5151_5151)
}

/// Amplitudes closer than `1 / AMPLITUDE_HASH_GRID` hash alike in [`Backend::state_hash`]
/// (rounding differences between two ways of reaching one state stay far below it).
pub const AMPLITUDE_HASH_GRID: f64 = 4_294_967_296.0;

/// One basis state's term of [`Backend::state_hash`]: `qubits` is the XOR of [`qubit_hash`]
/// over its qubits that are 1; the amplitude is rounded to the grid.
pub fn state_hash_term(qubits: u64, amplitude: Complex64) -> u64 {
    let re = (amplitude.re * AMPLITUDE_HASH_GRID).round() as i64 as u64;
    let im = (amplitude.im * AMPLITUDE_HASH_GRID).round() as i64 as u64;
    mix64(qubits ^ mix64(re ^ mix64(im)))
}

/// Bit k of the result is 1 when `qubits[k]` is among `ones`.
pub fn pattern_of(ones: &[Qubit], qubits: &[Qubit]) -> u128 {
    let mut pattern = 0u128;
    for (k, q) in qubits.iter().enumerate() {
        if ones.contains(q) {
            pattern |= 1 << k;
        }
    }
    pattern
}
