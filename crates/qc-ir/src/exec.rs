//! Running circuits on a [`Backend`]: one instruction at a time with a classical record, exact
//! outcome distributions by branching on mid-circuit measurements, and sampling.
//!
//! Exact distributions: a measurement that nothing later depends on (no later instruction touches
//! its qubit, no condition reads its bit) is *deferred* and read off the final state's marginal
//! distribution; only the others branch (snapshot, force 0, restore, force 1). A measurement or
//! reset with a certain outcome does not branch, nor does a reset whose two outcomes leave the same
//! state (a reset writes no bit, so its branches differ only when the reset qubit was entangled).
//! At most [`MAX_BRANCHES`] branches are explored. Bits never written on a branch are 0, as in
//! Qiskit.

use crate::backend::{Backend, BackendError, GateCall, MeasureChoice, IMPOSSIBLE_PROBABILITY};
use crate::circuit::Circuit;
use crate::guard::Guard;
use crate::ids::{Clbit, Qubit};
use crate::instruction::{Instruction, Op, Origin};
use std::collections::BTreeMap;
use thiserror::Error;

/// An error while running an instruction.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("instruction {index}{}: {source}", origin.as_ref().map(|o| format!(" (move {} {})", o.move_index, o.rule)).unwrap_or_default())]
pub struct ExecError {
    /// Index of the instruction in the list that was run.
    pub index: usize,
    /// Its origin.
    pub origin: Option<Origin>,
    /// What the backend reported.
    #[source]
    pub source: BackendError,
}

/// Classical bit values, indexed by clbit; `None` until written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassicalRecord {
    bits: Vec<Option<bool>>,
}

impl ClassicalRecord {
    /// A record of `n` unwritten bits.
    pub fn new(n: usize) -> ClassicalRecord {
        ClassicalRecord {
            bits: vec![None; n],
        }
    }

    /// The value of a bit, if written.
    pub fn get(&self, clbit: Clbit) -> Option<bool> {
        self.bits.get(clbit.index()).copied().flatten()
    }

    /// Writes a bit (growing the record as needed).
    pub fn set(&mut self, clbit: Clbit, value: bool) {
        if self.bits.len() <= clbit.index() {
            self.bits.resize(clbit.index() + 1, None);
        }
        self.bits[clbit.index()] = Some(value);
    }

    /// How many bits the record spans (the highest written bit plus one, or the size given to
    /// [`ClassicalRecord::new`]).
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// True when the record spans no bit.
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Forgets every bit from index `len` on. Undo uses it: each measurement of a game writes a
    /// fresh bit, so the bits a move wrote all lie beyond the record's length before it.
    pub fn truncate(&mut self, len: usize) {
        self.bits.truncate(len);
    }

    /// Whether an instruction with the condition `guard` runs now: no condition, or every bit it
    /// tests holds its value (an unwritten bit reads as 0; the verifier rejects reading before
    /// writing).
    pub fn allows(&self, guard: Option<&Guard>) -> bool {
        guard.is_none_or(|g| g.holds(|b| self.get(b).unwrap_or(false)))
    }

    /// All bits; unwritten ones are `None`.
    pub fn bits(&self) -> &[Option<bool>] {
        &self.bits
    }

    /// All bits with unwritten ones read as 0, padded to `n`.
    pub fn values(&self, n: usize) -> Vec<bool> {
        (0..n.max(self.bits.len()))
            .map(|i| self.bits.get(i).copied().flatten().unwrap_or(false))
            .collect()
    }
}

/// Chooses measurement outcomes: `clbit` is the bit being written, or `None` for a reset.
pub trait OutcomePolicy {
    /// The choice for the next measurement or reset.
    fn choose(&mut self, clbit: Option<Clbit>) -> MeasureChoice;
}

impl<F: FnMut(Option<Clbit>) -> MeasureChoice> OutcomePolicy for F {
    fn choose(&mut self, clbit: Option<Clbit>) -> MeasureChoice {
        self(clbit)
    }
}

/// Runs one instruction: skips it if its condition is false, else applies it. Returns the outcome
/// of a measurement.
pub fn apply_instruction<B: Backend + ?Sized>(
    backend: &mut B,
    instr: &Instruction,
    record: &mut ClassicalRecord,
    policy: &mut dyn OutcomePolicy,
) -> Result<Option<bool>, BackendError> {
    if !record.allows(instr.condition.as_ref()) {
        return Ok(None);
    }
    match &instr.op {
        Op::Gate {
            gate,
            targets,
            controls,
        } => backend.apply_gate(*gate, targets, controls).map(|_| None),
        Op::UserGate {
            gate,
            targets,
            controls,
        } => backend
            .apply_matrix(gate.matrix(), targets, controls)
            .map(|_| None),
        Op::Measure { qubit, clbit } => {
            let outcome = backend.measure(*qubit, policy.choose(Some(*clbit)))?;
            record.set(*clbit, outcome);
            Ok(Some(outcome))
        }
        Op::Reset { qubit } => backend.reset(*qubit, policy.choose(None)).map(|_| None),
        Op::Alloc { qubit } => backend.alloc(*qubit).map(|_| None),
        Op::Free { qubit } => backend.free(*qubit).map(|_| None),
        // A wait is the identity on the state; only a noisy simulator gives it an effect.
        Op::Delay { .. } => Ok(None),
    }
}

/// Runs a list of instructions in order. Each run of consecutive gates goes to the backend in
/// one [`Backend::apply_gates`] call (the dense simulator fuses it).
pub fn run_instructions<B: Backend + ?Sized>(
    backend: &mut B,
    instructions: &[Instruction],
    record: &mut ClassicalRecord,
    policy: &mut dyn OutcomePolicy,
) -> Result<(), ExecError> {
    let mut index = 0;
    while index < instructions.len() {
        let instr = &instructions[index];
        if matches!(instr.op, Op::Gate { .. }) {
            index = apply_gate_run(backend, instructions, index, record)?;
            continue;
        }
        apply_instruction(backend, instr, record, policy).map_err(|source| ExecError {
            index,
            origin: instr.origin.clone(),
            source,
        })?;
        index += 1;
    }
    Ok(())
}

/// Applies the run of consecutive gate instructions that starts at `start` with one
/// [`Backend::apply_gates`] call, skipping those whose condition is false (gates write no bit,
/// so every condition of the run reads the record as it is now). Returns the index after the
/// run.
///
/// # Errors
/// The gate that failed, with its index in `instructions`.
pub fn apply_gate_run<B: Backend + ?Sized>(
    backend: &mut B,
    instructions: &[Instruction],
    start: usize,
    record: &ClassicalRecord,
) -> Result<usize, ExecError> {
    let mut calls = Vec::new();
    let mut indices = Vec::new();
    let mut end = start;
    for instr in &instructions[start..] {
        let Op::Gate {
            gate,
            targets,
            controls,
        } = &instr.op
        else {
            break;
        };
        if record.allows(instr.condition.as_ref()) {
            calls.push(GateCall {
                gate: *gate,
                targets,
                controls,
            });
            indices.push(end);
        }
        end += 1;
    }
    backend.apply_gates(&calls).map_err(|e| {
        // A backend names the failing gate by its place in `calls`.
        let index = indices.get(e.index).copied().unwrap_or(start);
        ExecError {
            index,
            origin: instructions[index].origin.clone(),
            source: e.source,
        }
    })?;
    Ok(end)
}

/// The most measurement branches [`exact_distribution`] explores before it gives up with
/// [`BackendError::TooManyBranches`]: each branch is a full simulation of the rest of the circuit,
/// so a circuit that measures many superposed qubits mid-circuit would otherwise run for ever.
pub const MAX_BRANCHES: usize = 1 << 16;

/// Two states whose fidelity is within this of 1 are the same state (a reset that leaves the
/// same state whatever its outcome does not branch).
const SAME_STATE_TOLERANCE: f64 = 1e-12;

/// A distribution over the whole classical register: key = bit values indexed by clbit.
pub type Distribution = BTreeMap<Vec<bool>, f64>;

/// Formats bit values in Qiskit's order: the rightmost character is clbit 0.
pub fn qiskit_key(bits: &[bool]) -> String {
    bits.iter()
        .rev()
        .map(|b| if *b { '1' } else { '0' })
        .collect()
}

/// The outcomes of `map` (a [`Distribution`] or counts) in the order of their [`qiskit_key`]s,
/// borrowing the keys: for output in Qiskit's order without a copy of every key. Keys of one
/// length compare from their last bit (the leftmost character).
pub fn in_qiskit_order<V: Copy>(map: &BTreeMap<Vec<bool>, V>) -> Vec<(&[bool], V)> {
    let mut rows: Vec<(&[bool], V)> = map.iter().map(|(k, v)| (k.as_slice(), *v)).collect();
    rows.sort_unstable_by(|a, b| a.0.iter().rev().cmp(b.0.iter().rev()));
    rows
}

/// Bounds on the work of [`exact_distribution_within`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ExactLimits {
    /// The most measurement branches explored ([`MAX_BRANCHES`] by default).
    pub max_branches: usize,
    /// The most amplitude updates: [`Backend::amplitudes_held`] summed over every instruction
    /// run, in every branch. It bounds the time (a few nanoseconds to a microsecond per update,
    /// by backend); `None` (the default): no bound besides the branches and the backend's
    /// memory limit.
    pub max_amplitude_updates: Option<u64>,
    /// The most distinct outcomes the distribution may hold; `None` (the default): as many as
    /// fit, at [`outcome_bytes`] each, in what the backend's memory limit leaves beside its
    /// state when the distribution is read off it ([`default_max_outcomes`]). A distribution is
    /// as large as the state's support, and each outcome takes several times the bytes of an
    /// amplitude, so a state that fits can have a distribution that does not.
    pub max_outcomes: Option<usize>,
}

impl Default for ExactLimits {
    fn default() -> ExactLimits {
        ExactLimits {
            max_branches: MAX_BRANCHES,
            max_amplitude_updates: None,
            max_outcomes: None,
        }
    }
}

/// The bytes one outcome of a [`Distribution`] over `num_clbits` bits costs while it is
/// computed and handed on: the map's entry (key vector, its heap buffer rounded up to the
/// allocator's 16-byte steps plus its 16-byte header, the value, the tree's share with nodes
/// about two thirds full), the backend's marginal entry it is made from (32 bytes), and a front
/// end's sorted view (16 bytes). Measured in docs/reliability.md ("Exact distributions").
pub fn outcome_bytes(num_clbits: usize) -> u128 {
    let key_buffer = (num_clbits as u128).div_ceil(16) * 16 + 16;
    let entry = (24 + 8) * 3 / 2;
    key_buffer + entry + 32 + 16
}

/// The default for [`ExactLimits::max_outcomes`] on `backend` for `num_clbits` bits: what its
/// memory limit leaves beside the state it holds now, at [`outcome_bytes`] each (no bound when
/// the backend has no limit). The limit leaves a quarter of the process's memory for the rest.
pub fn default_max_outcomes<B: Backend>(backend: &B, num_clbits: usize) -> Option<usize> {
    let limit = backend.memory_limit_bytes()?;
    let free = limit.saturating_sub(backend.state_bytes() as u128);
    Some(usize::try_from(free / outcome_bytes(num_clbits)).unwrap_or(usize::MAX))
}

/// The exact distribution of the classical register after running `circuit` on `backend`
/// (which should start in |0...0>), with the default [`ExactLimits`]. See the module docs for
/// how measurements are handled.
pub fn exact_distribution<B: Backend>(
    backend: &mut B,
    circuit: &Circuit,
) -> Result<Distribution, ExecError> {
    exact_distribution_within(backend, circuit, ExactLimits::default())
}

/// [`exact_distribution`] within `limits`: more branches or amplitude updates than they allow
/// stop the computation with [`BackendError::TooManyBranches`] or [`BackendError::TooMuchWork`].
pub fn exact_distribution_within<B: Backend>(
    backend: &mut B,
    circuit: &Circuit,
    limits: ExactLimits,
) -> Result<Distribution, ExecError> {
    let instructions = circuit.instructions();
    let deferrable = deferrable_measurements(instructions);
    let mut out = Distribution::new();
    let mut explorer = Explorer {
        instructions,
        deferrable: &deferrable,
        num_clbits: circuit.num_clbits(),
        out: &mut out,
        branches: 0,
        work: 0,
        limits,
    };
    explorer.explore(
        backend,
        0,
        ClassicalRecord::new(circuit.num_clbits()),
        1.0,
        Vec::new(),
    )?;
    Ok(out)
}

/// For each instruction index: true when it is a measurement nothing later depends on.
fn deferrable_measurements(instructions: &[Instruction]) -> Vec<bool> {
    let mut touched_later = std::collections::BTreeSet::<Qubit>::new();
    let mut read_later = std::collections::BTreeSet::<Clbit>::new();
    let mut result = vec![false; instructions.len()];
    for (index, instr) in instructions.iter().enumerate().rev() {
        if let Op::Measure { qubit, clbit } = instr.op {
            result[index] = instr.condition.is_none()
                && !touched_later.contains(&qubit)
                && !read_later.contains(&clbit);
        }
        touched_later.extend(instr.op.qubits());
        if let Some(g) = &instr.condition {
            read_later.extend(g.clbits());
        }
    }
    result
}

struct Explorer<'a> {
    instructions: &'a [Instruction],
    deferrable: &'a [bool],
    num_clbits: usize,
    out: &'a mut Distribution,
    /// Branches taken so far (each two-outcome measurement or reset adds one).
    branches: usize,
    /// Amplitude updates so far (see [`ExactLimits::max_amplitude_updates`]).
    work: u64,
    limits: ExactLimits,
}

impl Explorer<'_> {
    fn explore<B: Backend>(
        &mut self,
        backend: &mut B,
        start: usize,
        mut record: ClassicalRecord,
        weight: f64,
        mut deferred: Vec<(Qubit, Clbit)>,
    ) -> Result<(), ExecError> {
        let fail = |index: usize, source| ExecError {
            index,
            origin: self.instructions[index].origin.clone(),
            source,
        };
        // Where the next instruction not yet run by a run of gates is.
        let mut next = start;
        for index in start..self.instructions.len() {
            if index < next {
                continue;
            }
            let instr = &self.instructions[index];
            if !record.allows(instr.condition.as_ref()) {
                continue;
            }
            if self.limits.max_amplitude_updates.is_none() && matches!(instr.op, Op::Gate { .. }) {
                // The whole run of gates at once, so the backend can fuse it. With a bound on
                // the work, gates go one at a time so that the bound is checked before each.
                next = apply_gate_run(backend, self.instructions, index, &record)?;
                continue;
            }
            self.work = self.work.saturating_add(backend.amplitudes_held() as u64);
            if let Some(limit) = self.limits.max_amplitude_updates {
                if self.work > limit {
                    return Err(fail(index, BackendError::TooMuchWork { limit }));
                }
            }
            let branch_qubit = match instr.op {
                Op::Measure { qubit, clbit } if self.deferrable[index] => {
                    deferred.push((qubit, clbit));
                    continue;
                }
                Op::Measure { qubit, .. } | Op::Reset { qubit } => qubit,
                _ => {
                    let mut never = |_: Option<Clbit>| MeasureChoice::Forced(false);
                    apply_instruction(backend, instr, &mut record, &mut never)
                        .map_err(|e| fail(index, e))?;
                    continue;
                }
            };
            let p_one = backend.probability_one(branch_qubit).clamp(0.0, 1.0);
            let outcomes: Vec<(bool, f64)> = [(false, 1.0 - p_one), (true, p_one)]
                .into_iter()
                .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
                .collect();
            if let [(outcome, _)] = outcomes[..] {
                // A certain outcome: no branch, and no recursion (a long circuit of certain
                // measurements must not grow the stack).
                let mut forced = |_: Option<Clbit>| MeasureChoice::Forced(outcome);
                apply_instruction(backend, instr, &mut record, &mut forced)
                    .map_err(|e| fail(index, e))?;
                continue;
            }
            if matches!(instr.op, Op::Reset { .. })
                && self
                    .reset_outcomes_agree(backend, instr)
                    .map_err(|e| fail(index, e))?
            {
                // The reset wrote no bit and both outcomes left the same state: one path.
                continue;
            }
            self.branches += outcomes.len() - 1;
            if self.branches > self.limits.max_branches {
                return Err(fail(
                    index,
                    BackendError::TooManyBranches {
                        limit: self.limits.max_branches,
                    },
                ));
            }
            let saved = backend.snapshot().map_err(|e| fail(index, e))?;
            for (k, &(outcome, p)) in outcomes.iter().enumerate() {
                if k > 0 {
                    backend.restore(&saved).map_err(|e| fail(index, e))?;
                }
                let mut branch_record = record.clone();
                let mut forced = |_: Option<Clbit>| MeasureChoice::Forced(outcome);
                apply_instruction(backend, instr, &mut branch_record, &mut forced)
                    .map_err(|e| fail(index, e))?;
                self.explore(
                    backend,
                    index + 1,
                    branch_record,
                    weight * p,
                    deferred.clone(),
                )?;
            }
            return Ok(());
        }
        let qubits: Vec<Qubit> = deferred.iter().map(|(q, _)| *q).collect();
        // The outcomes count against the memory limit beside the final state.
        let max = self
            .limits
            .max_outcomes
            .or_else(|| default_max_outcomes(backend, self.num_clbits))
            .unwrap_or(usize::MAX);
        // The distribution is read off the final state: its errors name the last instruction.
        let end = self.instructions.len().saturating_sub(1);
        let at_end = |source| ExecError {
            index: end,
            origin: self.instructions.get(end).and_then(|i| i.origin.clone()),
            source,
        };
        // The marginal has at most one pattern per basis state and per value of the measured
        // qubits; its computation holds about that many too. More than the bound is refused
        // before it is computed (144 bytes an outcome cover the marginal's own maps).
        let possible = backend.state_size().min(
            1usize
                .checked_shl(qubits.len() as u32)
                .unwrap_or(usize::MAX),
        );
        if possible > max {
            return Err(at_end(too_many_outcomes(max, self.num_clbits)));
        }
        if qubits.len() > 128 {
            // Patterns of more than 128 bits do not fit the backends' `u128` keys.
            let patterns = wide_marginal(backend, &qubits, max).map_err(at_end)?;
            for (pattern, p) in patterns {
                let mut bits = record.values(self.num_clbits);
                for ((_, clbit), bit) in deferred.iter().zip(pattern) {
                    bits[clbit.index()] = bit;
                }
                self.add(bits, weight * p, max).map_err(at_end)?;
            }
            return Ok(());
        }
        let patterns = backend.marginal(&qubits);
        // Each pattern is a distinct outcome (a bit is written once), so a marginal larger than
        // the bound is refused before any outcome is made.
        if patterns.len() > max {
            return Err(at_end(too_many_outcomes(max, self.num_clbits)));
        }
        let num_clbits = self.num_clbits;
        let outcomes = patterns.into_iter().map(|(pattern, p)| {
            let mut bits = record.values(num_clbits);
            for (k, (_, clbit)) in deferred.iter().enumerate() {
                bits[clbit.index()] = (pattern >> k) & 1 == 1;
            }
            (bits, weight * p)
        });
        if self.out.is_empty() {
            // One sort and a bulk build instead of an insertion per outcome (the patterns come in
            // an order far from the keys'): the common case of one branch.
            *self.out = outcomes.collect();
        } else {
            for (bits, p) in outcomes {
                self.add(bits, p, max).map_err(at_end)?;
            }
        }
        Ok(())
    }

    /// Adds `p` to outcome `bits`; a new outcome past `max` is refused before the map grows.
    fn add(&mut self, bits: Vec<bool>, p: f64, max: usize) -> Result<(), BackendError> {
        use std::collections::btree_map::Entry;
        let outcomes = self.out.len();
        match self.out.entry(bits) {
            Entry::Occupied(mut entry) => *entry.get_mut() += p,
            Entry::Vacant(_) if outcomes >= max => {
                return Err(too_many_outcomes(max, self.num_clbits));
            }
            Entry::Vacant(entry) => {
                entry.insert(p);
            }
        }
        Ok(())
    }
}

/// The error for a distribution of more than `max` outcomes of `num_clbits` bits.
fn too_many_outcomes(max: usize, num_clbits: usize) -> BackendError {
    BackendError::TooManyOutcomes {
        limit: max,
        bytes_each: outcome_bytes(num_clbits),
    }
}

impl Explorer<'_> {
    /// Whether forcing the reset `instr` to 0 and to 1 leaves the same state (up to a global
    /// phase): then the mixture is that one state and no branch is needed. Leaves the backend in
    /// the state after the reset (outcome 1) when they agree, and unchanged otherwise.
    fn reset_outcomes_agree<B: Backend>(
        &self,
        backend: &mut B,
        instr: &Instruction,
    ) -> Result<bool, BackendError> {
        let before = backend.snapshot()?;
        let mut unused = ClassicalRecord::default();
        apply_instruction(backend, instr, &mut unused, &mut |_: Option<Clbit>| {
            MeasureChoice::Forced(false)
        })?;
        let after_zero = backend.snapshot()?;
        backend.restore(&before)?;
        apply_instruction(backend, instr, &mut unused, &mut |_: Option<Clbit>| {
            MeasureChoice::Forced(true)
        })?;
        if backend.fidelity(&after_zero)? >= 1.0 - SAME_STATE_TOLERANCE {
            return Ok(true);
        }
        backend.restore_owned(before);
        Ok(false)
    }
}

/// The joint distribution of any number of qubits (bit k = `qubits[k]`), other qubits summed
/// out; only patterns with nonzero probability; more than `max` patterns are refused.
fn wide_marginal<B: Backend>(
    backend: &B,
    qubits: &[Qubit],
    max: usize,
) -> Result<Vec<(Vec<bool>, f64)>, BackendError> {
    let mut dist = BTreeMap::<Vec<bool>, f64>::new();
    for (ones, amp) in backend.basis_states() {
        let pattern: Vec<bool> = qubits
            .iter()
            .map(|q| ones.binary_search(q).is_ok())
            .collect();
        if dist.len() >= max && !dist.contains_key(&pattern) {
            return Err(too_many_outcomes(max, qubits.len()));
        }
        *dist.entry(pattern).or_default() += amp.norm_sqr();
    }
    Ok(dist
        .into_iter()
        .filter(|(_, p)| *p >= IMPOSSIBLE_PROBABILITY)
        .collect())
}

/// The most shots a command samples (`--shots`): enough for any statistics, and few enough that
/// sampling ends in seconds (each shot is a binary search over the distribution).
pub const MAX_SHOTS: u64 = 100_000_000;

/// Draws `shots` samples from `dist` using uniform numbers from `uniform`; returns counts.
/// Each shot is a binary search over the cumulative probabilities, so the cost is
/// `shots * log(outcomes)`, not `shots * outcomes`.
pub fn sample_counts(
    dist: &Distribution,
    shots: u64,
    mut uniform: impl FnMut() -> f64,
) -> BTreeMap<Vec<bool>, u64> {
    let keys: Vec<&Vec<bool>> = dist.keys().collect();
    let cumulative: Vec<f64> = dist
        .values()
        .scan(0.0, |sum, p| {
            *sum += p;
            Some(*sum)
        })
        .collect();
    let total = cumulative.last().copied().unwrap_or(0.0);
    let mut hits = vec![0u64; keys.len()];
    if keys.is_empty() {
        return BTreeMap::new();
    }
    for _ in 0..shots {
        let u = uniform() * total;
        // The first outcome whose cumulative probability is above `u` (the last one if rounding
        // leaves `u` at the very end).
        let k = cumulative.partition_point(|c| *c <= u).min(keys.len() - 1);
        hits[k] += 1;
    }
    keys.into_iter()
        .zip(hits)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (k.clone(), n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_fall_in_their_cumulative_intervals() {
        // P(a) = 1/4, P(b) = 0, P(c) = 3/4: u in [0, 1/4) picks a, [1/4, 1) picks c, b never.
        let (a, b, c) = (vec![false, false], vec![true, false], vec![false, true]);
        let dist: Distribution = [(a.clone(), 0.25), (b, 0.0), (c.clone(), 0.75)]
            .into_iter()
            .collect();
        let mut us = [0.0, 0.2499, 0.25, 0.9999, 0.5].into_iter();
        let counts = sample_counts(&dist, 5, || us.next().unwrap_or(0.0));
        assert_eq!(counts, [(a, 2), (c, 3)].into_iter().collect());
    }
}
