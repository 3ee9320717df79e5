//! The ledger every ruleset keeps its game in, written once: the game's circuit and the
//! simulator state it ran to ([`CircuitRun`]), the ruleset's classical position (any
//! [`ClassicalState`]), the moves played ([`PlayedMove`]) and what undoing each needs.
//!
//! A move is made with [`Ledger::make`]: the ledger saves where it stands (the state's snapshot,
//! marks of the circuit, the record and the wire labels, and the classical state's own mark),
//! lets the ruleset emit and run the move's instructions and update its position, then keeps the
//! saved entry for [`Ledger::unmake`] (within the undo budget, see [`crate::undo`]) or, when the
//! ruleset refuses the move, restores it, so that a failed move changes nothing.
//! [`Ledger::probe`] runs a move and always restores (a move's outcomes are enumerated that
//! way), [`Ledger::amend`] keeps a change that is not a move (a claim) or restores on error.
//!
//! Saving costs one snapshot of the simulator state and the classical state's mark; the circuit
//! and the record are only cut back to their lengths (a move appends to them). A search that
//! makes and unmakes moves pays exactly that per move.

use crate::ruleset::{GameMove, PlayedMove, WireLabel};
use crate::undo::UndoHistory;
use qc_ir::exec::{run_instructions, OutcomePolicy};
use qc_ir::{
    AncillaKind, Backend, BackendError, BuilderMark, Circuit, CircuitBuilder, ClassicalRecord,
    ExecError, Qubit,
};

/// The classical half of a ruleset's position as the ledger keeps it: what a move may change
/// besides the quantum state, saved before the move ([`ClassicalState::mark`]) and restored from
/// that when the move is taken back.
pub trait ClassicalState {
    /// What is saved before a move.
    type Mark;

    /// Saves what a move may change.
    fn mark(&self) -> Self::Mark;

    /// Returns to what `mark` saved.
    fn restore(&mut self, mark: Self::Mark);

    /// A bound on the heap bytes `mark` holds beyond its own size, counted against the undo
    /// budget.
    fn mark_heap_bytes(mark: &Self::Mark) -> usize;
}

/// The game's circuit so far and the simulator state it has run to: the circuit builder, the
/// backend, the outcome of every measurement, how many instructions have run, and what the
/// ancilla wires stand for.
pub struct CircuitRun<B: Backend> {
    builder: CircuitBuilder,
    backend: B,
    record: ClassicalRecord,
    /// Instructions of the circuit already run on the backend.
    executed: usize,
    wire_labels: Vec<WireLabel>,
}

impl<B: Backend> CircuitRun<B> {
    /// The builder (to emit a move's instructions; [`CircuitRun::run_pending`] runs them).
    pub fn builder(&mut self) -> &mut CircuitBuilder {
        &mut self.builder
    }

    /// The whole circuit so far.
    pub fn circuit(&self) -> &Circuit {
        self.builder.circuit()
    }

    /// The simulator.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The outcome of every measurement run so far, by classical bit.
    pub fn record(&self) -> &ClassicalRecord {
        &self.record
    }

    /// The recorded outcome of every classical bit of the circuit (index = clbit; `None` for a
    /// bit not written yet).
    pub fn outcomes(&self) -> Vec<Option<bool>> {
        let mut bits = self.record.bits().to_vec();
        bits.resize(self.builder.circuit().num_clbits(), None);
        bits
    }

    /// What the ancilla wires stand for, in allocation order.
    pub fn wire_labels(&self) -> &[WireLabel] {
        &self.wire_labels
    }

    /// The number of instructions emitted so far.
    pub fn len(&self) -> usize {
        self.builder.len()
    }

    /// True when no instruction was emitted yet.
    pub fn is_empty(&self) -> bool {
        self.builder.len() == 0
    }

    /// Runs the instructions emitted but not run yet, up to (not including) `end`; a
    /// measurement's outcome comes from `policy`. An error's index counts from the first
    /// instruction this call ran.
    ///
    /// # Errors
    /// The backend refused an instruction (a forced outcome that cannot happen, the memory
    /// limit); the instructions before it have run.
    pub fn run_to(&mut self, end: usize, policy: &mut dyn OutcomePolicy) -> Result<(), ExecError> {
        let end = end.clamp(self.executed, self.builder.len());
        let start = self.executed;
        let instructions = &self.builder.circuit().instructions()[start..end];
        let ran = run_instructions(&mut self.backend, instructions, &mut self.record, policy);
        self.executed = match &ran {
            Ok(()) => end,
            Err(e) => start + e.index,
        };
        ran
    }

    /// Runs every instruction emitted but not run yet ([`CircuitRun::run_to`] the end).
    ///
    /// # Errors
    /// As [`CircuitRun::run_to`].
    pub fn run_pending(&mut self, policy: &mut dyn OutcomePolicy) -> Result<(), ExecError> {
        self.run_to(self.builder.len(), policy)
    }

    /// Allocates an ancilla that stands for `label` in circuit drawings (a Niel's pair:
    /// `R d4/e6`).
    pub fn alloc_labelled(&mut self, label: String) -> Qubit {
        let qubit = self.builder.alloc_ancilla(AncillaKind::Other);
        self.wire_labels.push(WireLabel {
            instruction: self.builder.len() - 1,
            qubit,
            label,
        });
        qubit
    }

    /// Where the run stands (see [`Saved`]).
    ///
    /// # Errors
    /// The state's snapshot does not fit in the backend's memory limit.
    fn save(&self) -> Result<RunMark<B::Snapshot>, BackendError> {
        Ok(RunMark {
            backend: self.backend.snapshot()?,
            builder: self.builder.mark(),
            record_len: self.record.len(),
            executed: self.executed,
            wire_labels: self.wire_labels.len(),
        })
    }

    /// Goes back to `mark`; its snapshot becomes the state (nothing is copied, so this cannot
    /// run out of memory).
    fn restore(&mut self, mark: RunMark<B::Snapshot>) {
        self.backend.restore_owned(mark.backend);
        self.builder.roll_back(&mark.builder);
        self.record.truncate(mark.record_len);
        self.executed = mark.executed;
        self.wire_labels.truncate(mark.wire_labels);
    }
}

/// Where a [`CircuitRun`] stood: the state's snapshot and the lengths of what grows.
struct RunMark<S> {
    backend: S,
    builder: BuilderMark,
    record_len: usize,
    executed: usize,
    wire_labels: usize,
}

/// What a move may change, saved before it: the run's mark and the classical state's.
struct Saved<S, M> {
    run: RunMark<S>,
    state: M,
}

/// [`Saved`] for a ledger on backend `B` with classical state `S`.
type SavedFor<B, S> = Saved<<B as Backend>::Snapshot, <S as ClassicalState>::Mark>;

/// What a ruleset sees while it makes a move: the run to emit and run the move on, its
/// classical state to update, and how things stood before the move.
pub struct Turn<'a, B: Backend, S: ClassicalState> {
    /// The circuit and the simulator.
    pub run: &'a mut CircuitRun<B>,
    /// The classical state.
    pub state: &'a mut S,
    /// The classical state before the move.
    pub before: &'a S::Mark,
    /// The simulator state before the move.
    pub snapshot: &'a B::Snapshot,
    /// How many moves were played before this one.
    pub ply: usize,
}

/// Why a move could not be taken back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoError {
    /// No move was played.
    #[error("there is no move to undo")]
    NothingToUndo,
    /// What undoing the move needs was dropped to keep the undo history within its budget.
    #[error("older moves were dropped to keep the undo history within {budget_bytes} bytes")]
    BeyondBudget {
        /// The undo budget in bytes.
        budget_bytes: u128,
    },
}

/// A game's ledger on backend `B`, with moves `M` and classical state `S` (module docs).
pub struct Ledger<B: Backend, M: GameMove, S: ClassicalState> {
    run: CircuitRun<B>,
    state: S,
    moves: Vec<PlayedMove<M>>,
    /// What to restore to unmake the last `undo.len()` moves, within its memory budget.
    undo: UndoHistory<Saved<B::Snapshot, S::Mark>>,
}

impl<B: Backend, M: GameMove, S: ClassicalState> Ledger<B, M, S> {
    /// A ledger with an empty circuit on `backend` (which must be in |0...0>) and `state`; the
    /// undo budget is a third of the backend's memory limit ([`crate::undo`]).
    pub fn new(backend: B, state: S) -> Ledger<B, M, S> {
        let undo = UndoHistory::for_memory_limit(backend.memory_limit_bytes());
        Ledger {
            run: CircuitRun {
                builder: CircuitBuilder::new(),
                backend,
                record: ClassicalRecord::default(),
                executed: 0,
                wire_labels: Vec::new(),
            },
            state,
            moves: Vec::new(),
            undo,
        }
    }

    /// The circuit and the simulator.
    pub fn run(&self) -> &CircuitRun<B> {
        &self.run
    }

    /// The classical state.
    pub fn state(&self) -> &S {
        &self.state
    }

    /// The run and the classical state, to change outside a move (setting up the start, which
    /// no undo goes back beyond, or a setting that is not part of the position).
    pub fn parts_mut(&mut self) -> (&mut CircuitRun<B>, &mut S) {
        (&mut self.run, &mut self.state)
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[PlayedMove<M>] {
        &self.moves
    }

    fn save(&self) -> Result<Saved<B::Snapshot, S::Mark>, BackendError> {
        Ok(Saved {
            run: self.run.save()?,
            state: self.state.mark(),
        })
    }

    fn restore(&mut self, saved: Saved<B::Snapshot, S::Mark>) {
        self.run.restore(saved.run);
        self.state.restore(saved.state);
    }

    /// Runs `f` on a [`Turn`] with what was saved before it, and returns the saved entry.
    ///
    /// # Errors
    /// The state could not be saved (its snapshot does not fit in the memory limit): `f` is
    /// not run and nothing changed.
    fn turn<T, E: From<BackendError>>(
        &mut self,
        f: impl FnOnce(Turn<'_, B, S>) -> T,
    ) -> Result<(T, SavedFor<B, S>), E> {
        let saved = self.save()?;
        let out = f(Turn {
            run: &mut self.run,
            state: &mut self.state,
            before: &saved.state,
            snapshot: &saved.run.backend,
            ply: self.moves.len(),
        });
        Ok((out, saved))
    }

    /// Makes a move: `f` emits and runs it on the [`Turn`] and says what was played. On `Ok`
    /// the move is recorded and can be unmade; on `Err` everything is restored as it was.
    ///
    /// # Errors
    /// `f`'s error, or the state's snapshot did not fit in the memory limit (nothing changed).
    pub fn make<E: From<BackendError>>(
        &mut self,
        f: impl FnOnce(Turn<'_, B, S>) -> Result<PlayedMove<M>, E>,
    ) -> Result<&PlayedMove<M>, E> {
        let (made, saved) = self.turn::<_, E>(f)?;
        match made {
            Ok(played) => {
                let heap = B::snapshot_bytes(&saved.run.backend)
                    + saved.run.builder.heap_bytes()
                    + S::mark_heap_bytes(&saved.state);
                self.undo.push(saved, heap);
                self.moves.push(played);
                Ok(&self.moves[self.moves.len() - 1])
            }
            Err(e) => {
                self.restore(saved);
                Err(e)
            }
        }
    }

    /// Runs `f` on a [`Turn`] and restores everything afterwards, whatever it did (to try a
    /// move and read what it would do).
    ///
    /// # Errors
    /// `f`'s error, or the state's snapshot did not fit in the memory limit (nothing changed).
    pub fn probe<T, E: From<BackendError>>(
        &mut self,
        f: impl FnOnce(Turn<'_, B, S>) -> Result<T, E>,
    ) -> Result<T, E> {
        let (out, saved) = self.turn::<_, E>(f)?;
        self.restore(saved);
        out
    }

    /// Runs `f` on a [`Turn`] for a change that is not a move (no entry is added to the moves or
    /// the undo history): kept on `Ok`, everything restored on `Err`.
    ///
    /// # Errors
    /// `f`'s error, or the state's snapshot did not fit in the memory limit (nothing changed).
    pub fn amend<T, E: From<BackendError>>(
        &mut self,
        f: impl FnOnce(Turn<'_, B, S>) -> Result<T, E>,
    ) -> Result<T, E> {
        let (out, saved) = self.turn::<_, E>(f)?;
        if out.is_err() {
            self.restore(saved);
        }
        out
    }

    /// Unmakes the last move exactly (state, circuit, record, classical state) and returns it.
    ///
    /// # Errors
    /// No move was played, or what unmaking it needs was dropped to keep the undo history
    /// within its budget (nothing changes then).
    pub fn unmake(&mut self) -> Result<PlayedMove<M>, UndoError> {
        if self.moves.is_empty() {
            return Err(UndoError::NothingToUndo);
        }
        let saved = self.undo.pop().ok_or(UndoError::BeyondBudget {
            budget_bytes: self.undo.budget().unwrap_or(u128::MAX),
        })?;
        let played = self.moves.pop().ok_or(UndoError::NothingToUndo)?;
        self.restore(saved);
        Ok(played)
    }

    /// How many of the last moves [`Ledger::unmake`] can still take back.
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// The bytes the undo history holds, as counted against its budget: every entry whole (the
    /// state's snapshot, the circuit's mark, the classical state's mark), see [`crate::undo`].
    pub fn undo_bytes(&self) -> u128 {
        self.undo.bytes()
    }

    /// Sets the most bytes the undo history may hold (`None`: no limit) and drops the oldest
    /// entries beyond it. The default is a third of the backend's memory limit (a quarter of
    /// physical memory with the simulators' defaults), so that the state and its undo history
    /// together stay within physical memory; a backend without a limit gets none.
    pub fn set_undo_budget(&mut self, bytes: Option<u128>) {
        self.undo.set_budget(bytes);
    }

    /// The undo budget in bytes (`None`: no limit).
    pub fn undo_budget(&self) -> Option<u128> {
        self.undo.budget()
    }
}

/// The undo history's controls of a game kept in a [`Ledger`], written once over the ledger: a
/// ruleset's game gives its ledger (a sealed trait, crate-internal) and gets these methods.
pub trait UndoControls: sealed::HasLedger {
    /// How many of the last moves [`crate::QuantumGame::undo`] can still take back.
    fn undo_depth(&self) -> usize {
        self.undo_log().depth()
    }

    /// The bytes the undo history holds, as counted against its budget (see
    /// [`Ledger::undo_bytes`]).
    fn undo_bytes(&self) -> u128 {
        self.undo_log().bytes()
    }

    /// Sets the most bytes the undo history may hold (`None`: no limit); see
    /// [`Ledger::set_undo_budget`].
    fn set_undo_budget(&mut self, bytes: Option<u128>) {
        self.undo_log_mut().set_budget(bytes);
    }

    /// The undo budget in bytes (`None`: no limit).
    fn undo_budget(&self) -> Option<u128> {
        self.undo_log().budget()
    }
}

impl<G: sealed::HasLedger> UndoControls for G {}

/// What [`UndoControls`] reaches of a game: its ledger's undo history, whatever the ledger's
/// move and state types (which stay private to each ruleset).
pub(crate) mod sealed {
    /// A game kept in a ledger.
    pub trait HasLedger {
        /// The ledger's undo history.
        fn undo_log(&self) -> &dyn UndoLog;
        /// The same, to change its budget.
        fn undo_log_mut(&mut self) -> &mut dyn UndoLog;
    }

    /// A ledger's undo history, its types erased.
    pub trait UndoLog {
        /// See [`super::Ledger::undo_depth`].
        fn depth(&self) -> usize;
        /// See [`super::Ledger::undo_bytes`].
        fn bytes(&self) -> u128;
        /// See [`super::Ledger::set_undo_budget`].
        fn set_budget(&mut self, bytes: Option<u128>);
        /// See [`super::Ledger::undo_budget`].
        fn budget(&self) -> Option<u128>;
    }

    impl<B: qc_ir::Backend, M: crate::ruleset::GameMove, S: super::ClassicalState> UndoLog
        for super::Ledger<B, M, S>
    {
        fn depth(&self) -> usize {
            self.undo_depth()
        }
        fn bytes(&self) -> u128 {
            self.undo_bytes()
        }
        fn set_budget(&mut self, bytes: Option<u128>) {
            self.set_undo_budget(bytes);
        }
        fn budget(&self) -> Option<u128> {
            self.undo_budget()
        }
    }
}
