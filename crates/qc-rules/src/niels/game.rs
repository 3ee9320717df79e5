//! The Niel's Chess game engine: applies legal moves to a [`NielsPosition`] and keeps the whole
//! game as one `qc_ir` circuit run on a [`Backend`]. Every pair owns one "which square" qubit
//! (|0> = red square, |1> = blue square); every dice roll is a mid-circuit measurement whose
//! outcome is sampled with the caller's random source (`rand`) or forced from a recorded game.
//! Undo restores what was saved before the move (state, circuit mark, position), with the same
//! bounded history as the Quantum Chess engine ([`crate::undo`]). The encoding is documented in `docs/niels.md`.

use super::apply::QuantumOps;
use super::endings::{RepetitionKey, REPETITION_COUNT};
use super::error::NielsError;
use super::moves::{NielsMove, RolledMove};
use super::position::{NielsPosition, Pair, PairId};
use crate::chess::{Color, Square};
use crate::ruleset::{DrawReason, PlayedMove, QuantumGame, Roll, Status, WireLabel};
use crate::undo::{btree_map_bytes, UndoHistory};
use qc_ir::exec::apply_instruction;
use qc_ir::{
    AncillaKind, Backend, BuilderMark, CircuitBuilder, ClassicalRecord, Clbit, Gate, MeasureChoice,
    Origin, Qubit,
};
use rand::Rng;
use std::collections::{BTreeMap, VecDeque};

/// A move of Niel's Chess as played.
pub type PlayedNiels = PlayedMove<RolledMove>;

/// The quantum half of the game: circuit, backend, qubit of each pair.
pub(super) struct Quantum<B: Backend> {
    pub(super) builder: CircuitBuilder,
    pub(super) backend: B,
    pub(super) record: ClassicalRecord,
    executed: usize,
    qubits: BTreeMap<PairId, Qubit>,
    forced: VecDeque<Square>,
    forcing: bool,
    /// The rolls of the move being played, in order.
    rolls: Vec<Roll>,
    ply: usize,
    /// What each allocated qubit stands for (a pair, a tunnelling), for circuit drawings.
    pub(super) wire_labels: Vec<WireLabel>,
}

/// The quantum half of a move being played: the game's circuit and backend, and the uniform
/// numbers in [0, 1) its dice rolls are sampled from.
struct Dice<'a, B: Backend> {
    quantum: &'a mut Quantum<B>,
    uniform: &'a mut dyn FnMut() -> f64,
}

/// Everything a move changes, saved before it so that undo restores it exactly: the state's
/// snapshot, where the circuit and the classical record stood (a move only appends to them),
/// the pairs' qubits and the position (see [`crate::undo`]).
struct Saved<B: Backend> {
    backend: B::Snapshot,
    builder: BuilderMark,
    record_len: usize,
    executed: usize,
    qubits: BTreeMap<PairId, Qubit>,
    position: NielsPosition,
}

/// θ with Ry(θ)|0> having P(|1>) = p.
fn ry_angle(p_one: f64) -> f64 {
    2.0 * p_one.clamp(0.0, 1.0).sqrt().asin()
}

/// What a pair's qubit stands for in drawings: the piece's FEN letter, then its red and blue
/// squares (`R d4/e6`; |0> = red, |1> = blue).
fn pair_label(pair: &Pair) -> String {
    format!("{} {}/{}", pair.piece.fen_char(), pair.red, pair.blue)
}

/// The qubit value of a pair's event square (|1> = blue).
fn event_bit(pair: &Pair) -> bool {
    pair.event_square() == pair.blue
}

impl<B: Backend> Quantum<B> {
    fn backend_err(&self, source: qc_ir::BackendError) -> NielsError {
        NielsError::Backend {
            ply: self.ply,
            source,
        }
    }

    /// Runs the instructions emitted since the last sync; a measurement uses `choice`.
    fn sync(&mut self, choice: MeasureChoice) -> Result<Option<bool>, NielsError> {
        let mut last = None;
        let instructions = self.builder.circuit().instructions()[self.executed..].to_vec();
        for instr in &instructions {
            let mut policy = |_: Option<Clbit>| choice;
            let r = apply_instruction(&mut self.backend, instr, &mut self.record, &mut policy)
                .map_err(|e| self.backend_err(e))?;
            last = r.or(last);
            self.executed += 1;
        }
        Ok(last)
    }

    /// Allocates an ancilla and records what it stands for.
    fn alloc_labelled(&mut self, label: String) -> Qubit {
        let qubit = self.builder.alloc_ancilla(AncillaKind::Other);
        self.wire_labels.push(WireLabel {
            instruction: self.builder.len() - 1,
            qubit,
            label,
        });
        qubit
    }

    fn qubit(&self, pair: PairId) -> Result<Qubit, NielsError> {
        self.qubits
            .get(&pair)
            .copied()
            .ok_or_else(|| NielsError::Internal(format!("pair {pair} has no qubit")))
    }

    /// Measures a pair's qubit, returns it to |0> (conditioned X) and frees it; the outcome
    /// and the classical bit it was written to.
    fn measure_and_free(
        &mut self,
        pair: PairId,
        choice: MeasureChoice,
    ) -> Result<(bool, Clbit), NielsError> {
        let q = self.qubit(pair)?;
        let clbit = self.builder.measure(q);
        let bit = self
            .sync(choice)?
            .ok_or_else(|| NielsError::Internal("measurement gave no outcome".into()))?;
        self.builder.conditioned(clbit, true, |b| b.x(q));
        self.builder.free_ancilla(q);
        self.sync(choice)?;
        self.qubits.remove(&pair);
        Ok((bit, clbit))
    }

    fn prepare_lone(&mut self, pos: &NielsPosition, id: PairId) -> Result<(), NielsError> {
        let pair = pos
            .pairs
            .get(&id)
            .ok_or_else(|| NielsError::Internal(format!("no pair {id}")))?;
        let p_event = pair.event_probability(pos.rules);
        let p_blue = if event_bit(pair) {
            p_event
        } else {
            1.0 - p_event
        };
        let q = self.alloc_labelled(pair_label(pair));
        self.builder.gate(Gate::Ry(ry_angle(p_blue)), &[q], &[]);
        if pos.rules.hadamard && !pair.is_equal() {
            // Equal superposition with phase: (|red> - |blue>)/sqrt 2.
            self.builder.gate(Gate::Z, &[q], &[]);
        }
        self.qubits.insert(id, q);
        self.sync(MeasureChoice::Random(0.0)).map(|_| ())
    }

    fn prepare_joiner(
        &mut self,
        pos: &NielsPosition,
        id: PairId,
        target: PairId,
    ) -> Result<(), NielsError> {
        let (Some(pair), Some(t)) = (pos.pairs.get(&id), pos.pairs.get(&target)) else {
            return Err(NielsError::Internal("joined pair missing".into()));
        };
        let tq = self.qubit(target)?;
        let q = self.alloc_labelled(pair_label(pair));
        self.builder.cx(
            &[qc_ir::Control {
                qubit: tq,
                on: qc_ir::Polarity::One,
            }],
            q,
        );
        if event_bit(pair) != event_bit(t) {
            self.builder.x(q);
        }
        if pos.rules.hadamard_plus && !pair.is_equal() {
            // Hadamard+ Game: a joiner "with phase" flips the group's sign, so that the sign is
            // always the parity of the group's pairs with phase (what Hadamard moves on the
            // group read, `NielsPosition::group_phase_odd`).
            self.builder.gate(Gate::Z, &[q], &[]);
        }
        self.qubits.insert(id, q);
        self.sync(MeasureChoice::Random(0.0)).map(|_| ())
    }

    /// The measurement choice of a roll whose outcome |0> puts the piece on `zero` and |1> on
    /// `one`: a recorded square when replaying, else a fresh random number from `uniform`.
    fn choice(
        &mut self,
        zero: Square,
        one: Square,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<MeasureChoice, NielsError> {
        if !self.forcing {
            return Ok(MeasureChoice::Random(uniform()));
        }
        let square = self
            .forced
            .pop_front()
            .ok_or_else(|| NielsError::Internal("fewer recorded outcomes than rolls".into()))?;
        if square != zero && square != one {
            return Err(NielsError::BadOutcome {
                square,
                red: zero,
                blue: one,
            });
        }
        Ok(MeasureChoice::Forced(square == one))
    }
}

impl<B: Backend> QuantumOps for Dice<'_, B> {
    fn created(
        &mut self,
        pos: &NielsPosition,
        pair: PairId,
        joined: Option<PairId>,
    ) -> Result<(), NielsError> {
        match joined {
            None => self.quantum.prepare_lone(pos, pair),
            Some(t) => self.quantum.prepare_joiner(pos, pair, t),
        }
    }

    fn inverted(&mut self, _: &NielsPosition, pair: PairId) -> Result<(), NielsError> {
        let q = self.quantum.qubit(pair)?;
        self.quantum.builder.x(q);
        self.quantum.sync(MeasureChoice::Random(0.0)).map(|_| ())
    }

    fn z_move(&mut self, _: &NielsPosition, pair: PairId) -> Result<(), NielsError> {
        let q = self.quantum.qubit(pair)?;
        self.quantum.builder.gate(Gate::Z, &[q], &[]);
        self.quantum.sync(MeasureChoice::Random(0.0)).map(|_| ())
    }

    fn hadamard(&mut self, pos: &NielsPosition, pair: PairId) -> Result<Vec<bool>, NielsError> {
        let group =
            pos.pairs.get(&pair).map(|p| p.group).ok_or_else(|| {
                NielsError::Internal(format!("no pair {pair} for a Hadamard move"))
            })?;
        let members: Vec<Pair> = pos
            .groups
            .get(&group)
            .map(|g| {
                g.pairs
                    .iter()
                    .filter_map(|id| pos.pairs.get(id).cloned())
                    .collect()
            })
            .unwrap_or_default();
        let ids: Vec<PairId> = pos
            .groups
            .get(&group)
            .map(|g| g.pairs.clone())
            .unwrap_or_default();
        for id in &ids {
            let q = self.quantum.qubit(*id)?;
            self.quantum.builder.gate(Gate::H, &[q], &[]);
        }
        self.quantum.sync(MeasureChoice::Random(0.0))?;
        let mut on_blue = Vec::with_capacity(ids.len());
        for (i, (id, p)) in ids.iter().zip(&members).enumerate() {
            let last = i + 1 == ids.len();
            if last {
                // The interference makes the last outcome certain (Appendix D for a lone pair;
                // the group's parity for an entangled one), so no random number is drawn.
                let expect = super::apply::blue_parity(&on_blue) != pos.group_phase_odd(group);
                let (got, _) = self
                    .quantum
                    .measure_and_free(*id, MeasureChoice::Random(0.5))?;
                if got != expect {
                    return Err(NielsError::Internal(format!(
                        "Hadamard move: pair on {}/{} measured against the group's parity",
                        p.red, p.blue
                    )));
                }
                on_blue.push(got);
            } else {
                let choice = self.quantum.choice(p.red, p.blue, self.uniform)?;
                let quantum = &mut *self.quantum;
                let p_blue = quantum.backend.probability_one(quantum.qubit(*id)?);
                let (blue, clbit) = quantum.measure_and_free(*id, choice)?;
                let (on, off) = if blue {
                    (p.blue, p.red)
                } else {
                    (p.red, p.blue)
                };
                quantum.rolls.push(Roll {
                    clbit,
                    one: blue,
                    p_one: p_blue,
                    meaning: format!(
                        "the Hadamard moves put the {} on {on}, not on {off}",
                        p.piece.name()
                    ),
                });
                on_blue.push(blue);
            }
        }
        Ok(on_blue)
    }

    fn roll(&mut self, pos: &NielsPosition, pair: PairId) -> Result<bool, NielsError> {
        let p = pos
            .pairs
            .get(&pair)
            .cloned()
            .ok_or_else(|| NielsError::Internal(format!("no pair {pair} to roll")))?;
        let choice = self.quantum.choice(p.red, p.blue, self.uniform)?;
        let quantum = &mut *self.quantum;
        let p_blue = quantum.backend.probability_one(quantum.qubit(pair)?);
        let (on_blue, clbit) = quantum.measure_and_free(pair, choice)?;
        let (on, off) = if on_blue {
            (p.blue, p.red)
        } else {
            (p.red, p.blue)
        };
        quantum.rolls.push(Roll {
            clbit,
            one: on_blue,
            p_one: p_blue,
            meaning: format!("the {} was on {on}, not on {off}", p.piece.name()),
        });
        let event = on_blue == event_bit(&p);
        // Collapse in tandem (Art. 8.4): the other pairs' measurements are now determined.
        let others: Vec<PairId> = pos
            .groups
            .get(&p.group)
            .map(|g| g.pairs.iter().copied().filter(|o| *o != pair).collect())
            .unwrap_or_default();
        for o in others {
            let op = pos
                .pairs
                .get(&o)
                .cloned()
                .ok_or_else(|| NielsError::Internal("group member missing".into()))?;
            let expect = op.square_on(event) == op.blue;
            let (got, _) = quantum.measure_and_free(o, MeasureChoice::Random(0.5))?;
            if got != expect {
                return Err(NielsError::Internal(format!(
                    "pair on {}/{} measured against its group",
                    op.red, op.blue
                )));
            }
        }
        Ok(event)
    }

    fn tunnel(&mut self, _: &NielsPosition, from: Square, to: Square) -> Result<bool, NielsError> {
        let quantum = &mut *self.quantum;
        let choice = quantum.choice(from, to, self.uniform)?;
        let q = quantum.alloc_labelled(format!("tunnel {from}-{to}"));
        quantum.builder.gate(
            Gate::Ry(ry_angle(super::apply::TUNNEL_PROBABILITY)),
            &[q],
            &[],
        );
        quantum.sync(MeasureChoice::Random(0.0))?;
        let p_through = quantum.backend.probability_one(q);
        let clbit = quantum.builder.measure(q);
        let through = quantum
            .sync(choice)?
            .ok_or_else(|| NielsError::Internal("tunnel measurement gave no outcome".into()))?;
        quantum.rolls.push(Roll {
            clbit,
            one: through,
            p_one: p_through,
            meaning: if through {
                format!("the tunnelling from {from} to {to} succeeded")
            } else {
                format!("the tunnelling from {from} to {to} failed")
            },
        });
        quantum.builder.conditioned(clbit, true, |b| b.x(q));
        quantum.builder.free_ancilla(q);
        quantum.sync(choice)?;
        Ok(through)
    }
}

/// A Niel's Chess game on a backend.
pub struct NielsGame<B: Backend> {
    initial: NielsPosition,
    pub(super) position: NielsPosition,
    pub(super) quantum: Quantum<B>,
    pub(super) history: Vec<PlayedNiels>,
    /// The repetition key of the start and of the position after every move.
    keys: Vec<RepetitionKey>,
    /// What each move of `history` changed, saved before it (for [`QuantumGame::undo`]), within
    /// its memory budget.
    saved: UndoHistory<Saved<B>>,
}

impl<B: Backend> NielsGame<B> {
    /// A game from `position` on `backend`. Pairs already on the board are prepared on fresh
    /// qubits (origin move 0).
    pub fn new(position: NielsPosition, backend: B) -> Result<NielsGame<B>, NielsError> {
        let mut quantum = Quantum {
            builder: CircuitBuilder::new(),
            backend,
            record: ClassicalRecord::default(),
            executed: 0,
            qubits: BTreeMap::new(),
            forced: VecDeque::new(),
            forcing: false,
            rolls: Vec::new(),
            ply: 0,
            wire_labels: Vec::new(),
        };
        quantum
            .builder
            .set_origin(Some(Origin::new(0, "niels_setup")));
        for g in position.groups.values() {
            let mut first = None;
            for id in &g.pairs {
                match first {
                    None => {
                        quantum.prepare_lone(&position, *id)?;
                        first = Some(*id);
                    }
                    Some(f) => quantum.prepare_joiner(&position, *id, f)?,
                }
            }
        }
        let saved = UndoHistory::for_memory_limit(quantum.backend.memory_limit_bytes());
        Ok(NielsGame {
            saved,
            initial: position.clone(),
            keys: vec![position.repetition_key()],
            position,
            quantum,
            history: Vec::new(),
        })
    }

    /// The current position.
    pub fn position(&self) -> &NielsPosition {
        &self.position
    }

    /// The starting position.
    pub fn initial_position(&self) -> &NielsPosition {
        &self.initial
    }

    /// How often the current position has occurred in this game (FIDE 9.2.2 identity).
    pub fn repetitions(&self) -> usize {
        match self.keys.last() {
            Some(now) => self.keys.iter().filter(|k| *k == now).count(),
            None => 0,
        }
    }

    /// The draws that end the game whatever the legal moves: only kings left, the current
    /// position's third occurrence, or 100 plies without capture or pawn move (in that order).
    pub fn draw(&self) -> Option<DrawReason> {
        if self.position.is_dead_material() {
            Some(DrawReason::InsufficientMaterial)
        } else if self.repetitions() >= REPETITION_COUNT {
            Some(DrawReason::Repetition)
        } else if self.position.halfmove_clock >= 100 {
            Some(DrawReason::FiftyMoves)
        } else {
            None
        }
    }

    /// The game's state, with the repetition draw that [`NielsPosition::status`] cannot see.
    /// Checkmate and stalemate take precedence (the move that made them ended the game, FIDE
    /// 5.1.1, 5.2.1).
    pub(super) fn game_status(&self) -> Status {
        match self.position.status() {
            Status::Ongoing | Status::Draw(DrawReason::FiftyMoves) => {
                self.draw().map_or(Status::Ongoing, Status::Draw)
            }
            other => other,
        }
    }

    /// The backend (its state is the quantum part of the current position).
    pub fn backend(&self) -> &B {
        &self.quantum.backend
    }

    /// The recorded outcome of every classical bit of the circuit (index = clbit), as the
    /// exporters take them.
    pub(super) fn clbit_outcomes(&self) -> Vec<Option<bool>> {
        let mut bits = self.quantum.record.bits().to_vec();
        bits.resize(self.quantum.builder.circuit().num_clbits(), None);
        bits
    }

    /// The qubit of a live pair.
    pub fn pair_qubit(&self, pair: PairId) -> Option<Qubit> {
        self.quantum.qubits.get(&pair).copied()
    }

    /// The game record: move numbers and every move with its outcomes (`1. e2^e4e2 e7e5 2. ...`),
    /// which replays exactly (read back by [`super::NielsRecord::read_move_list`]).
    pub(super) fn move_record(&self) -> String {
        let mut out = Vec::new();
        let mut number = self.initial.fullmove_number;
        let mut side = self.initial.side_to_move;
        for (i, m) in self.history.iter().enumerate() {
            if side == Color::White {
                out.push(format!("{number}."));
            } else if i == 0 {
                out.push(format!("{number}..."));
            }
            out.push(m.text());
            if side == Color::Black {
                number += 1;
            }
            side = side.opponent();
        }
        out.join(" ")
    }

    /// Plays `mv`: its recorded rolls forced, or without them the dice rolled with `rng`.
    pub(super) fn play_rolled(
        &mut self,
        mv: &RolledMove,
        rng: &mut dyn rand::RngCore,
    ) -> Result<&PlayedNiels, NielsError> {
        if mv.rolls.is_empty() {
            self.play_inner(&mv.mv, None, &mut || rng.gen::<f64>())
        } else {
            // Every roll is forced, so no random number is drawn.
            self.play_inner(&mv.mv, Some(&mv.rolls), &mut || 0.5)
        }
    }

    fn play_inner(
        &mut self,
        mv: &NielsMove,
        rolls: Option<&[Square]>,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<&PlayedNiels, NielsError> {
        let mv = &self.position.canonical(mv);
        if let Some(reason) = self.position.illegal_reason(mv) {
            return Err(NielsError::Illegal {
                text: mv.to_string(),
                reason,
            });
        }
        if let Some(r) = rolls {
            // Validate the record against the rules before touching the circuit, so a bad
            // record leaves the game unchanged.
            let outcomes = self.position.outcomes(mv)?;
            if !outcomes.iter().any(|o| o.rolls == r) {
                let rolled = outcomes.iter().map(|o| o.rolls.len()).max().unwrap_or(0);
                let possible: Vec<String> = outcomes
                    .iter()
                    .map(|o| with_rolls(mv, &o.rolls).to_string())
                    .collect();
                return Err(if rolled != r.len() {
                    NielsError::OutcomeCount {
                        text: mv.to_string(),
                        rolled,
                        recorded: r.len(),
                    }
                } else {
                    NielsError::Illegal {
                        text: with_rolls(mv, r).to_string(),
                        reason: format!("not a possible outcome; possible: {}", possible.join(" ")),
                    }
                });
            }
        }
        let kind = self.position.move_kind(mv);
        let saved = self.snapshot();
        let start = self.quantum.builder.len();
        let (next, done) = match self.run_on_state(mv, rolls, uniform) {
            Ok(applied) => applied,
            Err(e) => {
                self.restore(saved);
                return Err(e);
            }
        };
        self.position = next;
        self.keys.push(self.position.repetition_key());
        let heap = B::snapshot_bytes(&saved.backend)
            + saved.builder.heap_bytes()
            + btree_map_bytes(&saved.qubits)
            + saved.position.heap_bytes();
        self.saved.push(saved, heap);
        self.history.push(PlayedMove {
            mv: with_rolls(mv, &done),
            kind,
            rolls: std::mem::take(&mut self.quantum.rolls),
            instructions: start..self.quantum.builder.len(),
        });
        self.history
            .last()
            .ok_or_else(|| NielsError::Internal("history empty after a move".into()))
    }

    /// Runs the legal move `mv` on the circuit and the backend (with `rolls` forced when given,
    /// otherwise sampled from `uniform`) and returns the position after it and the square each
    /// rolled pair collapsed to. The game's position and history are left to the caller, who
    /// restores a snapshot on error.
    fn run_on_state(
        &mut self,
        mv: &NielsMove,
        rolls: Option<&[Square]>,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<(NielsPosition, Vec<Square>), NielsError> {
        let ply = self.history.len();
        let q = &mut self.quantum;
        q.ply = ply;
        q.forcing = rolls.is_some();
        q.forced = rolls.unwrap_or(&[]).iter().copied().collect();
        q.rolls.clear();
        q.builder.set_origin(Some(Origin {
            move_index: ply as u32 + 1,
            rule: std::borrow::Cow::Owned(rule_name(mv).to_string()),
        }));
        let mut dice = Dice {
            quantum: q,
            uniform,
        };
        self.position.apply_move(mv, &mut dice)
    }

    /// Every outcome of the legal move `mv` with a chance (at least
    /// [`qc_ir::IMPOSSIBLE_PROBABILITY`]): the squares its rolls collapse to and the exact
    /// probability. The rules' dice model ([`NielsPosition::outcomes`]) lists which roll
    /// sequences there are; each one's probability is computed on the backend, by running the
    /// move with those rolls forced and multiplying the probability of each roll's outcome read
    /// from the state just before its measurement, then restoring the game exactly (undo history
    /// included: nothing is added to it).
    ///
    /// # Errors
    /// The move is not legal here, or the backend failed.
    pub fn outcome_probabilities(
        &mut self,
        mv: &NielsMove,
    ) -> Result<Vec<(Vec<Square>, f64)>, NielsError> {
        let mv = &self.position.canonical(mv);
        if let Some(reason) = self.position.illegal_reason(mv) {
            return Err(NielsError::Illegal {
                text: mv.to_string(),
                reason,
            });
        }
        let sequences = self.position.outcomes(mv)?;
        if let [only] = sequences.as_slice() {
            if only.rolls.is_empty() {
                return Ok(vec![(Vec::new(), 1.0)]);
            }
        }
        let mut out = Vec::with_capacity(sequences.len());
        for sequence in sequences {
            let saved = self.snapshot();
            // Every roll is forced, so no random number is drawn.
            let ran = self.run_on_state(mv, Some(&sequence.rolls), &mut || 0.5);
            let probability: f64 = self.quantum.rolls.iter().map(Roll::probability).product();
            self.restore(saved);
            ran?;
            if probability >= qc_ir::IMPOSSIBLE_PROBABILITY {
                out.push((sequence.rolls, probability));
            }
        }
        Ok(out)
    }

    /// What the next move may change.
    fn snapshot(&self) -> Saved<B> {
        let q = &self.quantum;
        Saved {
            backend: q.backend.snapshot(),
            builder: q.builder.mark(),
            record_len: q.record.len(),
            executed: q.executed,
            qubits: q.qubits.clone(),
            position: self.position.clone(),
        }
    }

    fn restore(&mut self, saved: Saved<B>) {
        let q = &mut self.quantum;
        q.backend.restore(&saved.backend);
        q.builder.roll_back(&saved.builder);
        q.record.truncate(saved.record_len);
        q.executed = saved.executed;
        q.qubits = saved.qubits;
        q.forced.clear();
        q.rolls.clear();
        let kept = q.builder.len();
        q.wire_labels.retain(|l| l.instruction < kept);
        self.position = saved.position;
    }

    /// Takes back the last move exactly (state, circuit, position, repetition history) from
    /// what was saved before it, and returns it.
    ///
    /// # Errors
    /// [`NielsError::NothingToUndo`] when no move was played;
    /// [`NielsError::UndoBeyondBudget`] when what this move needs was dropped to keep the undo
    /// history within its budget ([`NielsGame::set_undo_budget`]).
    pub(super) fn take_back(&mut self) -> Result<PlayedNiels, NielsError> {
        if self.history.is_empty() {
            return Err(NielsError::NothingToUndo);
        }
        let saved = self.saved.pop().ok_or(NielsError::UndoBeyondBudget {
            budget_bytes: self.saved.budget().unwrap_or(u128::MAX),
        })?;
        let played = self.history.pop().ok_or(NielsError::NothingToUndo)?;
        self.restore(saved);
        self.keys.pop();
        Ok(played)
    }

    /// How many of the last moves [`QuantumGame::undo`] can still take back.
    pub fn undo_depth(&self) -> usize {
        self.saved.len()
    }

    /// The bytes the undo history holds, as counted against its budget (see [`crate::undo`]).
    pub fn undo_bytes(&self) -> u128 {
        self.saved.bytes()
    }

    /// Sets the most bytes the undo history may hold (`None`: no limit) and drops the oldest
    /// entries beyond it; the default is a third of the backend's memory limit.
    pub fn set_undo_budget(&mut self, bytes: Option<u128>) {
        self.saved.set_budget(bytes);
    }

    /// The undo budget in bytes (`None`: no limit).
    pub fn undo_budget(&self) -> Option<u128> {
        self.saved.budget()
    }

    /// A legal move picked uniformly with `rng`, or `None` when the game is over (drawn, or no
    /// legal move).
    pub fn random_move(&self, rng: &mut dyn rand::RngCore) -> Option<NielsMove> {
        if self.draw().is_some() {
            return None;
        }
        let moves = self.position().legal_moves();
        if moves.is_empty() {
            return None;
        }
        Some(moves[rng.gen_range(0..moves.len())])
    }
}

/// A random legal game from `position`: each ply picks a legal move uniformly with `pick` and
/// rolls the dice with `dice` (two sources, so that picking a move does not shift the rolls),
/// until the game ends or `max_plies` moves were played.
pub fn simulate<B: Backend>(
    position: NielsPosition,
    backend: B,
    pick: &mut dyn rand::RngCore,
    dice: &mut dyn rand::RngCore,
    max_plies: usize,
) -> Result<NielsGame<B>, NielsError> {
    let mut game = NielsGame::new(position, backend)?;
    for _ in 0..max_plies {
        let Some(mv) = game.random_move(pick) else {
            break;
        };
        game.play(&RolledMove::from(mv), dice)?;
    }
    Ok(game)
}

/// `mv` with the squares its rolls collapsed to.
fn with_rolls(mv: &NielsMove, rolls: &[Square]) -> RolledMove {
    RolledMove {
        mv: *mv,
        rolls: rolls.to_vec(),
    }
}

fn rule_name(mv: &NielsMove) -> &'static str {
    match mv {
        NielsMove::Step { .. } => "niels_step",
        NielsMove::Superpose { .. } => "niels_superpose",
        NielsMove::Entangle { .. } => "niels_entangle",
        NielsMove::Invert { .. } => "niels_invert",
        NielsMove::ZMove { .. } => "niels_z",
        NielsMove::Hadamard { .. } => "niels_hadamard",
        NielsMove::Tunnel { .. } => "niels_tunnel",
    }
}
