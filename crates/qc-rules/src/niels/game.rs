//! The Niel's Chess game engine: applies legal moves to a [`NielsPosition`] and keeps the whole
//! game in the [`Ledger`] both rulesets share (one `qc_ir` circuit run on a [`Backend`], the
//! moves played, what undoing each needs). Every pair owns one "which square" qubit (|0> = red
//! square, |1> = blue square); every dice roll is a mid-circuit measurement whose outcome is
//! sampled with the caller's random source (`rand`) or forced from a recorded game. The encoding
//! is documented in `docs/niels.md`.

use super::apply::QuantumOps;
use super::endings::{RepetitionKey, REPETITION_COUNT};
use super::error::{IllegalReason, Inconsistency, NielsError};
use super::moves::{NielsMove, RolledMove};
use super::position::{NielsPosition, Pair, PairId};
use crate::chess::Square;
use crate::ledger::{CircuitRun, ClassicalState, Ledger, Turn, UndoError};
use crate::ruleset::{right_lost, DrawReason, PlayedMove, QuantumGame, Roll, Status};
use crate::undo::btree_map_bytes;
use qc_ir::{Backend, Clbit, Gate, MeasureChoice, Origin, Qubit};
use rand::Rng;
use std::collections::{BTreeMap, VecDeque};

/// A move of Niel's Chess as played.
pub type PlayedNiels = PlayedMove<RolledMove>;

/// The classical part of a Niel's game, as its ledger keeps it: the position, the qubit of each
/// live pair, and the repetition key of the start and of the position after every move.
pub(crate) struct NielsState {
    position: NielsPosition,
    qubits: BTreeMap<PairId, Qubit>,
    keys: Vec<RepetitionKey>,
}

/// What a move may change of a [`NielsState`] (the keys only grow: their length).
pub(crate) struct NielsMark {
    position: NielsPosition,
    qubits: BTreeMap<PairId, Qubit>,
    keys: usize,
}

impl ClassicalState for NielsState {
    type Mark = NielsMark;

    fn mark(&self) -> NielsMark {
        NielsMark {
            position: self.position.clone(),
            qubits: self.qubits.clone(),
            keys: self.keys.len(),
        }
    }

    fn restore(&mut self, mark: NielsMark) {
        self.position = mark.position;
        self.qubits = mark.qubits;
        self.keys.truncate(mark.keys);
    }

    fn mark_heap_bytes(mark: &NielsMark) -> usize {
        btree_map_bytes(&mark.qubits) + mark.position.heap_bytes()
    }
}

/// The quantum half of a move being played: the game's circuit and backend, the pairs' qubits,
/// the rolls recorded for it (when replaying), the uniform numbers in [0, 1) its dice rolls are
/// sampled from otherwise, and the rolls made so far.
struct Dice<'a, B: Backend> {
    run: &'a mut CircuitRun<B>,
    qubits: &'a mut BTreeMap<PairId, Qubit>,
    /// The recorded squares still to come, when the rolls are forced.
    forced: Option<VecDeque<Square>>,
    uniform: &'a mut dyn FnMut() -> f64,
    /// The move's 0-based ply, for errors.
    ply: usize,
    /// The rolls of the move, in order.
    rolls: Vec<Roll>,
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

impl<B: Backend> Dice<'_, B> {
    /// Runs the instructions emitted since the last sync; a measurement uses `choice`.
    fn sync(&mut self, choice: MeasureChoice) -> Result<(), NielsError> {
        self.run
            .run_pending(&mut |_: Option<Clbit>| choice)
            .map_err(|e| NielsError::Backend {
                ply: self.ply,
                source: e.source,
            })
    }

    fn qubit(&self, pair: PairId) -> Result<Qubit, NielsError> {
        self.qubits
            .get(&pair)
            .copied()
            .ok_or(NielsError::Internal(Inconsistency::NoQubit { pair }))
    }

    /// Measures `q`, returns it to |0> (an X conditioned on the outcome) and frees it; the
    /// outcome and the classical bit it was written to.
    fn measure_and_release(
        &mut self,
        q: Qubit,
        choice: MeasureChoice,
    ) -> Result<(bool, Clbit), NielsError> {
        let clbit = self.run.builder().measure(q);
        self.sync(choice)?;
        let bit = self
            .run
            .record()
            .get(clbit)
            .ok_or(NielsError::Internal(Inconsistency::NoOutcome))?;
        let builder = self.run.builder();
        builder.conditioned(clbit, true, |b| b.x(q));
        builder.free_ancilla(q);
        self.sync(choice)?;
        Ok((bit, clbit))
    }

    /// Measures a pair's qubit and releases it ([`Dice::measure_and_release`]).
    fn measure_and_free(
        &mut self,
        pair: PairId,
        choice: MeasureChoice,
    ) -> Result<(bool, Clbit), NielsError> {
        let measured = self.measure_and_release(self.qubit(pair)?, choice)?;
        self.qubits.remove(&pair);
        Ok(measured)
    }

    /// Rolls the pair `id` (`p`): measures its qubit with a recorded or fresh choice, frees it,
    /// and records the roll with its probability and what it meant, written by `meaning` from
    /// the piece's name, the square it is on and the one it is not on. Returns whether it is on
    /// the blue square.
    fn roll_pair(
        &mut self,
        id: PairId,
        p: &Pair,
        meaning: impl FnOnce(&str, Square, Square) -> String,
    ) -> Result<bool, NielsError> {
        let choice = self.choice(p.red, p.blue)?;
        let p_blue = self.run.backend().probability_one(self.qubit(id)?);
        let (on_blue, clbit) = self.measure_and_free(id, choice)?;
        let (on, off) = if on_blue {
            (p.blue, p.red)
        } else {
            (p.red, p.blue)
        };
        self.rolls.push(Roll {
            clbit,
            one: on_blue,
            p_one: p_blue,
            meaning: meaning(&p.piece.name(), on, off),
        });
        Ok(on_blue)
    }

    fn prepare_lone(&mut self, pos: &NielsPosition, id: PairId) -> Result<(), NielsError> {
        let pair = pos
            .pairs
            .get(&id)
            .ok_or(NielsError::Internal(Inconsistency::NoPair { pair: id }))?;
        let p_event = pair.event_probability(pos.rules);
        let p_blue = if event_bit(pair) {
            p_event
        } else {
            1.0 - p_event
        };
        let q = self.run.alloc_labelled(pair_label(pair));
        let builder = self.run.builder();
        builder.gate(Gate::Ry(ry_angle(p_blue)), &[q], &[]);
        if pos.rules.hadamard && !pair.is_equal() {
            // Equal superposition with phase: (|red> - |blue>)/sqrt 2.
            builder.gate(Gate::Z, &[q], &[]);
        }
        self.qubits.insert(id, q);
        self.sync(MeasureChoice::Random(0.0))
    }

    fn prepare_joiner(
        &mut self,
        pos: &NielsPosition,
        id: PairId,
        target: PairId,
    ) -> Result<(), NielsError> {
        let (Some(pair), Some(t)) = (pos.pairs.get(&id), pos.pairs.get(&target)) else {
            return Err(Inconsistency::NoPair { pair: id }.into());
        };
        let tq = self.qubit(target)?;
        let q = self.run.alloc_labelled(pair_label(pair));
        let builder = self.run.builder();
        builder.cx(
            &[qc_ir::Control {
                qubit: tq,
                on: qc_ir::Polarity::One,
            }],
            q,
        );
        if event_bit(pair) != event_bit(t) {
            builder.x(q);
        }
        if pos.rules.hadamard_plus && !pair.is_equal() {
            // Hadamard+ Game: a joiner "with phase" flips the group's sign, so that the sign is
            // always the parity of the group's pairs with phase (what Hadamard moves on the
            // group read, `NielsPosition::group_phase_odd`).
            builder.gate(Gate::Z, &[q], &[]);
        }
        self.qubits.insert(id, q);
        self.sync(MeasureChoice::Random(0.0))
    }

    /// The measurement choice of a roll whose outcome |0> puts the piece on `zero` and |1> on
    /// `one`: a recorded square when replaying, else a fresh random number.
    fn choice(&mut self, zero: Square, one: Square) -> Result<MeasureChoice, NielsError> {
        let Some(forced) = &mut self.forced else {
            return Ok(MeasureChoice::Random((self.uniform)()));
        };
        let square = forced
            .pop_front()
            .ok_or(NielsError::Internal(Inconsistency::FewerRecordedOutcomes))?;
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
            None => self.prepare_lone(pos, pair),
            Some(t) => self.prepare_joiner(pos, pair, t),
        }
    }

    fn inverted(&mut self, _: &NielsPosition, pair: PairId) -> Result<(), NielsError> {
        let q = self.qubit(pair)?;
        self.run.builder().x(q);
        self.sync(MeasureChoice::Random(0.0))
    }

    fn z_move(&mut self, _: &NielsPosition, pair: PairId) -> Result<(), NielsError> {
        let q = self.qubit(pair)?;
        self.run.builder().gate(Gate::Z, &[q], &[]);
        self.sync(MeasureChoice::Random(0.0))
    }

    fn hadamard(&mut self, pos: &NielsPosition, pair: PairId) -> Result<Vec<bool>, NielsError> {
        let group = pos
            .pairs
            .get(&pair)
            .map(|p| p.group)
            .ok_or(NielsError::Internal(Inconsistency::NoPair { pair }))?;
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
            let q = self.qubit(*id)?;
            self.run.builder().gate(Gate::H, &[q], &[]);
        }
        self.sync(MeasureChoice::Random(0.0))?;
        let mut on_blue = Vec::with_capacity(ids.len());
        for (i, (id, p)) in ids.iter().zip(&members).enumerate() {
            let last = i + 1 == ids.len();
            if last {
                // The interference makes the last outcome certain (Appendix D for a lone pair;
                // the group's parity for an entangled one), so no random number is drawn.
                let expect = super::apply::blue_parity(&on_blue) != pos.group_phase_odd(group);
                let (got, _) = self.measure_and_free(*id, MeasureChoice::Random(0.5))?;
                if got != expect {
                    return Err(Inconsistency::AgainstParity {
                        red: p.red,
                        blue: p.blue,
                    }
                    .into());
                }
                on_blue.push(got);
            } else {
                let blue = self.roll_pair(*id, p, |piece, on, off| {
                    format!("the Hadamard moves put the {piece} on {on}, not on {off}")
                })?;
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
            .ok_or(NielsError::Internal(Inconsistency::NoPair { pair }))?;
        let on_blue = self.roll_pair(pair, &p, |piece, on, off| {
            format!("the {piece} was on {on}, not on {off}")
        })?;
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
                .ok_or(NielsError::Internal(Inconsistency::NoPair { pair: o }))?;
            let expect = op.square_on(event) == op.blue;
            let (got, _) = self.measure_and_free(o, MeasureChoice::Random(0.5))?;
            if got != expect {
                return Err(Inconsistency::AgainstGroup {
                    red: op.red,
                    blue: op.blue,
                }
                .into());
            }
        }
        Ok(event)
    }

    fn tunnel(&mut self, _: &NielsPosition, from: Square, to: Square) -> Result<bool, NielsError> {
        let choice = self.choice(from, to)?;
        let q = self.run.alloc_labelled(format!("tunnel {from}-{to}"));
        self.run.builder().gate(
            Gate::Ry(ry_angle(super::apply::TUNNEL_PROBABILITY)),
            &[q],
            &[],
        );
        self.sync(MeasureChoice::Random(0.0))?;
        let p_through = self.run.backend().probability_one(q);
        let (through, clbit) = self.measure_and_release(q, choice)?;
        self.rolls.push(Roll {
            clbit,
            one: through,
            p_one: p_through,
            meaning: if through {
                format!("the tunnelling from {from} to {to} succeeded")
            } else {
                format!("the tunnelling from {from} to {to} failed")
            },
        });
        Ok(through)
    }
}

/// A Niel's Chess game on a backend.
pub struct NielsGame<B: Backend> {
    initial: NielsPosition,
    pub(super) ledger: Ledger<B, RolledMove, NielsState>,
}

impl<B: Backend> crate::ledger::sealed::HasLedger for NielsGame<B> {
    fn undo_log(&self) -> &dyn crate::ledger::sealed::UndoLog {
        &self.ledger
    }

    fn undo_log_mut(&mut self) -> &mut dyn crate::ledger::sealed::UndoLog {
        &mut self.ledger
    }
}

/// Why the ledger could not take a move back, as this ruleset says it.
impl From<UndoError> for NielsError {
    fn from(e: UndoError) -> NielsError {
        match e {
            UndoError::NothingToUndo => NielsError::NothingToUndo,
            UndoError::BeyondBudget { budget_bytes } => {
                NielsError::UndoBeyondBudget { budget_bytes }
            }
        }
    }
}

impl<B: Backend> NielsGame<B> {
    /// A game from `position` on `backend`. Pairs already on the board are prepared on fresh
    /// qubits (origin move 0).
    pub fn new(position: NielsPosition, backend: B) -> Result<NielsGame<B>, NielsError> {
        let initial = position.clone();
        let state = NielsState {
            keys: vec![position.repetition_key()],
            position,
            qubits: BTreeMap::new(),
        };
        let mut ledger = Ledger::new(backend, state);
        let (run, state) = ledger.parts_mut();
        run.builder()
            .set_origin(Some(Origin::new(0, "niels_setup")));
        let mut dice = Dice {
            run,
            qubits: &mut state.qubits,
            forced: None,
            uniform: &mut || 0.5,
            ply: 0,
            rolls: Vec::new(),
        };
        for g in state.position.groups.values() {
            let mut first = None;
            for id in &g.pairs {
                match first {
                    None => {
                        dice.prepare_lone(&state.position, *id)?;
                        first = Some(*id);
                    }
                    Some(f) => dice.prepare_joiner(&state.position, *id, f)?,
                }
            }
        }
        Ok(NielsGame { initial, ledger })
    }

    /// The current position.
    pub fn position(&self) -> &NielsPosition {
        &self.ledger.state().position
    }

    /// The starting position.
    pub fn initial_position(&self) -> &NielsPosition {
        &self.initial
    }

    /// How often the current position has occurred in this game (FIDE 9.2.2 identity).
    pub fn repetitions(&self) -> usize {
        let keys = &self.ledger.state().keys;
        match keys.last() {
            Some(now) => keys.iter().filter(|k| *k == now).count(),
            None => 0,
        }
    }

    /// The draws that end the game whatever the legal moves: only kings left, the current
    /// position's third occurrence, or 100 plies without capture or pawn move (in that order).
    pub fn draw(&self) -> Option<DrawReason> {
        let position = self.position();
        if position.is_dead_material() {
            Some(DrawReason::InsufficientMaterial)
        } else if self.repetitions() >= REPETITION_COUNT {
            Some(DrawReason::Repetition)
        } else if position.halfmove_clock >= 100 {
            Some(DrawReason::FiftyMoves)
        } else {
            None
        }
    }

    /// The game's state, with the repetition draw that [`NielsPosition::status`] cannot see.
    /// Checkmate and stalemate take precedence (the move that made them ended the game, FIDE
    /// 5.1.1, 5.2.1).
    pub(super) fn game_status(&self) -> Status {
        match self.position().status() {
            Status::Ongoing | Status::Draw(DrawReason::FiftyMoves) => {
                self.draw().map_or(Status::Ongoing, Status::Draw)
            }
            other => other,
        }
    }

    /// The qubit of a live pair.
    pub fn pair_qubit(&self, pair: PairId) -> Option<Qubit> {
        self.ledger.state().qubits.get(&pair).copied()
    }

    /// The game record: move numbers and every move with its outcomes (`1. e2^e4e2 e7e5 2. ...`),
    /// which replays exactly (read back by [`super::NielsRecord::read_move_list`]).
    pub(super) fn move_record(&self) -> String {
        let moves = self.ledger.moves().iter().map(PlayedMove::text);
        crate::ruleset::numbered_line(self.first_ply(), moves)
    }

    /// `reason` with what only the game's history tells: for a castling without the right, the
    /// move that took it away.
    fn with_history(&self, reason: IllegalReason) -> IllegalReason {
        match reason {
            IllegalReason::NoCastlingRight { castling, .. } => {
                let moves = self
                    .ledger
                    .moves()
                    .iter()
                    .map(|m| (m.text(), m.mv.mv.castling_squares()));
                IllegalReason::NoCastlingRight {
                    castling,
                    lost: right_lost(castling, self.initial.castling, self.first_ply(), moves),
                }
            }
            other => other,
        }
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
        let position = self.position();
        let mv = &position.canonical(mv);
        if let Some(reason) = position.illegal_reason(mv) {
            return Err(NielsError::Illegal {
                text: mv.to_string(),
                reason: self.with_history(reason),
            });
        }
        if let Some(r) = rolls {
            // Validate the record against the rules before touching the circuit, so a bad
            // record leaves the game unchanged.
            let outcomes = position.outcomes(mv)?;
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
                        reason: IllegalReason::ImpossibleRolls { possible },
                    }
                });
            }
        }
        let kind = position.move_kind(mv);
        self.ledger.make(|mut turn| {
            let start = turn.run.len();
            let (done, made) = run_on_state(&mut turn, mv, rolls, uniform)?;
            turn.state.keys.push(turn.state.position.repetition_key());
            Ok(PlayedMove {
                mv: with_rolls(mv, &done),
                kind,
                rolls: made,
                instructions: start..turn.run.len(),
            })
        })
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
        let position = self.position();
        let mv = &position.canonical(mv);
        if let Some(reason) = position.illegal_reason(mv) {
            return Err(NielsError::Illegal {
                text: mv.to_string(),
                reason,
            });
        }
        let sequences = position.outcomes(mv)?;
        if let [only] = sequences.as_slice() {
            if only.rolls.is_empty() {
                return Ok(vec![(Vec::new(), 1.0)]);
            }
        }
        let mut out = Vec::with_capacity(sequences.len());
        for sequence in sequences {
            // Every roll is forced, so no random number is drawn.
            let (_, made) = self.ledger.probe(|mut turn| {
                run_on_state(&mut turn, mv, Some(&sequence.rolls), &mut || 0.5)
            })?;
            let probability: f64 = made.iter().map(Roll::probability).product();
            if probability >= qc_ir::IMPOSSIBLE_PROBABILITY {
                out.push((sequence.rolls, probability));
            }
        }
        Ok(out)
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

/// Runs the legal move `mv` on `turn` (with `rolls` forced when given, otherwise sampled from
/// `uniform`), moves its position on, and returns the square each rolled pair collapsed to and
/// the rolls made. The ledger restores everything on error.
fn run_on_state<B: Backend>(
    turn: &mut Turn<'_, B, NielsState>,
    mv: &NielsMove,
    rolls: Option<&[Square]>,
    uniform: &mut dyn FnMut() -> f64,
) -> Result<(Vec<Square>, Vec<Roll>), NielsError> {
    turn.run.builder().set_origin(Some(Origin {
        move_index: turn.ply as u32 + 1,
        rule: std::borrow::Cow::Owned(rule_name(mv).to_string()),
    }));
    let NielsState {
        position, qubits, ..
    } = &mut *turn.state;
    let mut dice = Dice {
        run: &mut *turn.run,
        qubits,
        forced: rolls.map(|r| r.iter().copied().collect()),
        uniform,
        ply: turn.ply,
        rolls: Vec::new(),
    };
    let (next, done) = position.apply_move(mv, &mut dice)?;
    let made = dice.rolls;
    *position = next;
    Ok((done, made))
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
