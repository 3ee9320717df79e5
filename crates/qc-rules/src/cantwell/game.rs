//! The game engine: a [`Board`] (classical register) plus a quantum state on any
//! [`qc_ir::Backend`], one growing circuit for the whole game, and a per-move record.
//!
//! `play` classifies, lowers, runs the move's new instructions, then updates the register from the
//! state's exact support (decision 11), castling rights, the en passant right (decision 14),
//! counters and the side to move. A failed move changes nothing: the backend is restored from a
//! snapshot, the circuit builder is rolled back to its mark (the same mechanism serves undo, see
//! [`crate::undo`]). Definition 2: a move that measures nothing and
//! leaves the state unchanged is illegal and the same side moves again.

mod endings;

pub use endings::{
    Ending, FiftyMoveCounter, FullMeasurement, FIFTY_MOVE_PLIES, REPETITION_EARLIER,
    REPETITION_STATE_LIMIT,
};

use crate::cantwell::board::Board;
use crate::cantwell::classify::{classify, Classified, MoveType, Variant};
use crate::cantwell::definition2;
use crate::cantwell::error::MoveError;
use crate::cantwell::kinds::MoveClass;
use crate::cantwell::lower::lower;
use crate::cantwell::measured;
use crate::cantwell::movegen::possible_moves;
use crate::cantwell::observe::{bell_expectations, same_opposite};
use crate::cantwell::occupancy::{Occupancy, SquareStatus};
use crate::cantwell::qcan::{MoveShape, QcanMove};
use crate::chess::{Color, Piece, PieceKind, Square};
use crate::ruleset::{DrawReason, LegalMove, MoveOutcome, PlayedMove, Roll, Status, WinReason};
use crate::undo::UndoHistory;
pub use crate::undo::UNDO_BUDGET_DIVISOR;
use qc_ir::exec::run_instructions;
use qc_ir::{
    Backend, BackendError, BuilderMark, CircuitBuilder, ClassicalRecord, Clbit, MeasureChoice, Op,
    Origin, Qubit,
};

/// Fidelity above which a move counts as leaving the state unchanged (Definition 2).
pub const UNCHANGED_FIDELITY: f64 = 1.0 - 1e-9;

/// A move of Quantum Chess as played.
pub type PlayedQcan = PlayedMove<QcanMove>;

/// The error a move gets once the game is over (`None` while it goes on).
fn game_over_error(status: Status) -> Option<MoveError> {
    status.is_over().then_some(MoveError::GameOver { status })
}

/// What a move may change, saved before it (see [`crate::undo`]): the state's snapshot, the
/// register, and where the circuit and the classical record stood.
struct Saved<S> {
    backend: S,
    board: Board,
    builder: BuilderMark,
    record_len: usize,
    status: Status,
    endings: endings::EndingsMark,
}

/// A game of Quantum Chess on backend `B`.
pub struct Game<B: Backend> {
    /// The start position (for the record's move numbers).
    start: Board,
    pub(super) backend: B,
    pub(super) builder: CircuitBuilder,
    board: Board,
    record: ClassicalRecord,
    pub(super) history: Vec<PlayedQcan>,
    /// What to restore to undo the last `saved.len()` moves, within its memory budget.
    saved: UndoHistory<Saved<B::Snapshot>>,
    pub(super) status: Status,
    force_turn: bool,
    force_win: bool,
    /// Fifty-move counter, positions for repetition, the full measurement that ended the game.
    endings: endings::Endings,
}

impl<B: Backend> Game<B> {
    /// Starts a game from `board` on `backend` (which must be in |0...0>): square qubit k is
    /// square k, and the set-up puts an `X` on every occupied square (origin move 0, `setup`).
    pub fn new(board: Board, mut backend: B) -> Result<Game<B>, MoveError> {
        let mut builder = CircuitBuilder::new();
        for sq in Square::ALL {
            builder.square(sq);
        }
        builder.set_origin(Some(Origin::new(0, "setup")));
        for sq in Square::ALL {
            if board.piece(sq).is_some() {
                let q = builder.square(sq);
                builder.x(q);
            }
        }
        builder.set_origin(None);
        let mut record = ClassicalRecord::default();
        let mut never = |_: Option<Clbit>| MeasureChoice::Forced(false);
        run_instructions(
            &mut backend,
            builder.circuit().instructions(),
            &mut record,
            &mut never,
        )?;
        let saved = UndoHistory::for_memory_limit(backend.memory_limit_bytes());
        let endings = endings::Endings::start(
            &board,
            &backend,
            board.pieces.iter().flatten().count() as f64,
        );
        let mut game = Game {
            start: board.clone(),
            backend,
            builder,
            board,
            record,
            history: Vec::new(),
            saved,
            status: Status::Ongoing,
            force_turn: false,
            force_win: false,
            endings,
        };
        game.status = game.compute_status();
        Ok(game)
    }

    /// UQCI `forceturn`: when on, the side to move becomes the owner of the moved piece before
    /// each move (turn order is not enforced).
    pub fn set_force_turn(&mut self, on: bool) {
        self.force_turn = on;
    }

    /// UQCI `forcewin`: when on, a missing king does not end the game.
    pub fn set_force_win(&mut self, on: bool) {
        self.force_win = on;
        self.status = self.compute_status();
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The classical register and flags.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The backend (the quantum state).
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The outcomes of every measurement so far, by classical bit.
    pub fn classical_record(&self) -> &ClassicalRecord {
        &self.record
    }

    /// The qubit of `square` (square k is qubit k).
    pub fn square_qubit(&self, square: Square) -> Qubit {
        Qubit(square.index() as u32)
    }

    fn square_qubits(&self) -> Vec<Qubit> {
        Square::ALL.iter().map(|&s| self.square_qubit(s)).collect()
    }

    /// Which squares are certainly empty, certainly occupied, or in superposition.
    pub fn occupancy(&self) -> Occupancy {
        Occupancy::from_backend(&self.backend, |s| Some(Qubit(s.index() as u32)))
    }

    /// Classifies `mv` in the current position without playing it.
    pub fn classify(&self, mv: &QcanMove) -> Result<Classified, MoveError> {
        classify(&self.board, &self.occupancy(), mv)
    }

    /// Every standard, split and merge move legal now for the side to move, with its kind:
    /// possible by the possibility equations and able to change the state in some branch
    /// (Definition 2, see [`crate::cantwell::definition2`]).
    pub(crate) fn legal(&self) -> Vec<LegalMove<QcanMove>> {
        if self.status.is_over() {
            return Vec::new();
        }
        let occ = self.occupancy();
        possible_moves(&self.board, &occ)
            .into_iter()
            .filter(|(_, c)| {
                definition2::classified_can_act(&self.backend, &occ, c).unwrap_or(false)
            })
            .map(|(mv, c)| LegalMove {
                mv,
                kind: MoveClass {
                    move_type: c.move_type,
                    variant: c.variant,
                },
            })
            .collect()
    }

    /// Plays `mv` with uniform numbers in [0, 1) from `uniform` for its measurements (those
    /// `mv.outcome` does not force). On error nothing changes.
    pub fn play_with(
        &mut self,
        mv: &QcanMove,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<&PlayedQcan, MoveError> {
        if let Some(over) = game_over_error(self.status) {
            return Err(over);
        }
        let occ = self.occupancy();
        let turn = self.board.side_to_move;
        if self.force_turn {
            let source = match mv.shape {
                MoveShape::Standard { source, .. } | MoveShape::Split { source, .. } => {
                    Some(source)
                }
                MoveShape::Merge { source1, .. } => Some(source1),
                MoveShape::Null => None,
            };
            if let Some(p) = source.and_then(|s| self.board.piece(s)) {
                self.board.side_to_move = p.color;
            }
        }
        let classified = match classify(&self.board, &occ, mv) {
            Ok(c) => c,
            Err(e) => {
                self.board.side_to_move = turn;
                return Err(e);
            }
        };
        let saved = Saved {
            board: Board {
                side_to_move: turn,
                ..self.board.clone()
            },
            ..self.save()
        };
        match self.run_move(mv, &classified, &occ, &saved, uniform) {
            Ok(record) => {
                self.keep_for_undo(saved);
                self.history.push(record);
                self.history.last().ok_or(MoveError::NothingToUndo)
            }
            Err(e) => {
                self.restore(saved);
                Err(e)
            }
        }
    }

    /// Every outcome of `mv` that has a chance, with its exact probability
    /// ([`definition2::move_outcomes`]: the move's measurement read off the state). Each outcome
    /// is also run on the state and the game restored (nothing is added to the history or the
    /// undo history), so an outcome is listed only if playing it succeeds; `mv`'s own outcome is
    /// ignored. The fifty-move rule's measurement of every square, should the move reach the
    /// limit, is not enumerated.
    ///
    /// # Errors
    /// The game is over, or the move is not legal here (by the possibility equations or by
    /// Definition 2, including a move that would change the state only by a global phase).
    pub(crate) fn outcomes_of(
        &mut self,
        mv: &QcanMove,
    ) -> Result<Vec<MoveOutcome<QcanMove>>, MoveError> {
        if let Some(over) = game_over_error(self.status) {
            return Err(over);
        }
        let occ = self.occupancy();
        let classified = classify(&self.board, &occ, mv)?;
        let listed = definition2::move_outcomes(&self.backend, &occ, &classified)?;
        let mut out = Vec::with_capacity(listed.len());
        for (outcome, probability) in listed {
            let forced = QcanMove { outcome, ..*mv };
            let saved = self.save();
            // The outcome is forced, so no random number is drawn for it.
            let ran = self.run_move(&forced, &classified, &occ, &saved, &mut || 0.5);
            self.restore(saved);
            ran?;
            out.push(MoveOutcome {
                mv: forced,
                probability,
            });
        }
        Ok(out)
    }

    fn run_move(
        &mut self,
        mv: &QcanMove,
        c: &Classified,
        occ: &Occupancy,
        saved: &Saved<B::Snapshot>,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<PlayedQcan, MoveError> {
        let start = self.builder.len();
        let move_index = self.history.len() as u32 + 1;
        let lowered = lower(c, occ, &mut self.builder, move_index)?;
        let end = self.builder.len();
        let instructions = self.builder.circuit().instructions()[start..end].to_vec();
        definition2::check(&self.backend, &instructions)?;
        let forced = mv.outcome;
        let mut policy = |_: Option<Clbit>| match forced {
            Some(v) => MeasureChoice::Forced(v),
            None => MeasureChoice::Random(uniform()),
        };
        // Run up to the measurement, read the probability of outcome 1 there, then run the rest.
        let measure_at = instructions
            .iter()
            .position(|i| matches!(i.op, Op::Measure { .. }))
            .unwrap_or(instructions.len());
        let mut p_one = None;
        for (offset, part) in [
            (0, &instructions[..measure_at]),
            (measure_at, &instructions[measure_at..]),
        ] {
            if let Some(Op::Measure { qubit, .. }) = part.first().map(|i| &i.op) {
                p_one = Some(self.backend.probability_one(*qubit));
            }
            run_instructions(&mut self.backend, part, &mut self.record, &mut policy).map_err(
                |mut e| {
                    e.index += offset;
                    match e.source {
                        BackendError::ImpossibleOutcome { outcome, .. } => {
                            MoveError::ImpossibleOutcome { outcome }
                        }
                        _ => MoveError::Backend(e),
                    }
                },
            )?;
        }
        let outcome = lowered
            .measurement
            .map(|m| self.record.get(m).unwrap_or(false));
        if outcome.is_none() && self.backend.fidelity(&saved.backend) > UNCHANGED_FIDELITY {
            return Err(MoveError::Unchanged);
        }
        let applied = outcome.unwrap_or(true);
        // A written outcome on a move whose outcome is certain (nothing measured) must agree with
        // what happens: `.m1` (applied) is accepted, `.m0` is impossible. The record stays
        // canonical, without the suffix, since no measurement took place.
        if let (None, Some(written)) = (outcome, mv.outcome) {
            if written != applied {
                return Err(MoveError::ImpossibleOutcome { outcome: written });
            }
        }
        self.update_board(c, applied);
        self.status = self.compute_status();
        self.after_ply(uniform)?;
        let mut qcan = *mv;
        qcan.outcome = outcome;
        let rolls = match (lowered.measurement, outcome, p_one) {
            (Some(clbit), Some(one), Some(p_one)) => vec![Roll {
                clbit,
                one,
                p_one,
                meaning: measured::meaning(&lowered.measured, one, &saved.board),
            }],
            _ => Vec::new(),
        };
        Ok(PlayedMove {
            mv: qcan,
            kind: MoveClass {
                move_type: c.move_type,
                variant: c.variant,
            },
            rolls,
            instructions: start..end,
        })
    }

    fn update_board(&mut self, c: &Classified, applied: bool) {
        if applied {
            for &(sq, piece) in &c.placements {
                self.board.set_piece(sq, Some(piece));
            }
        }
        // Decision 11: clear every register entry whose square no basis state occupies.
        let occ = self.occupancy();
        for sq in Square::ALL {
            if occ.get(sq) == SquareStatus::Empty {
                self.board.set_piece(sq, None);
            }
        }
        let mut named: Vec<Square> = c.sources.iter().chain(&c.targets).copied().collect();
        if let Some((a, b)) = c.rook {
            named.extend([a, b]);
        }
        for sq in named {
            self.board.castling = self.board.castling.without(sq);
        }
        self.board.en_passant = match (c.move_type, applied) {
            (MoveType::PawnTwoStep, true) => Square::from_coords(
                c.sources[0].file(),
                (c.sources[0].rank() + c.targets[0].rank()) / 2,
            ),
            _ => None,
        };
        let resets = c.piece.kind == PieceKind::Pawn || c.variant == Variant::Capture;
        self.board.halfmove_clock = if resets {
            0
        } else {
            self.board.halfmove_clock.saturating_add(1)
        };
        if self.board.side_to_move == Color::Black {
            self.board.fullmove_number = self.board.fullmove_number.saturating_add(1);
        }
        self.board.side_to_move = self.board.side_to_move.opponent();
    }

    /// The status the register gives: a side whose king has probability zero has lost, both
    /// without theirs is a draw (named by the full measurement that ended the game, if one
    /// did); with `forcewin` the game goes on.
    fn compute_status(&self) -> Status {
        if self.force_win {
            return Status::Ongoing;
        }
        let has = |color| {
            self.board
                .pieces
                .iter()
                .any(|p| *p == Some(Piece::new(color, PieceKind::King)))
        };
        match (has(Color::White), has(Color::Black)) {
            (true, true) => Status::Ongoing,
            (true, false) => Status::Win(Color::White, WinReason::KingCaptured),
            (false, true) => Status::Win(Color::Black, WinReason::KingCaptured),
            (false, false) => Status::Draw(self.measured_draw()),
        }
    }

    /// Why the game is drawn once both kings are gone or a full measurement ended it: the
    /// measurement's ending, or both kings captured at once.
    fn measured_draw(&self) -> DrawReason {
        match self.full_measurement().map(|m| m.ending) {
            Some(Ending::FiftyMoves) => DrawReason::FiftyMoves,
            Some(Ending::Repetition) => DrawReason::Repetition,
            None => DrawReason::BothKingsGone,
        }
    }

    /// What the next move (or claim) may change.
    fn save(&self) -> Saved<B::Snapshot> {
        Saved {
            backend: self.backend.snapshot(),
            board: self.board.clone(),
            builder: self.builder.mark(),
            record_len: self.record.len(),
            status: self.status,
            endings: self.endings.mark(),
        }
    }

    fn restore(&mut self, saved: Saved<B::Snapshot>) {
        self.backend.restore(&saved.backend);
        self.board = saved.board;
        self.builder.roll_back(&saved.builder);
        self.record.truncate(saved.record_len);
        self.status = saved.status;
        self.endings.restore(saved.endings);
    }

    /// Undoes the last move exactly (state, register, circuit, history).
    ///
    /// # Errors
    /// No move was played, or the snapshot for this move was dropped to keep the undo history
    /// within its budget ([`Game::set_undo_budget`]).
    pub(crate) fn take_back(&mut self) -> Result<PlayedQcan, MoveError> {
        if self.history.is_empty() {
            return Err(MoveError::NothingToUndo);
        }
        let saved = self.saved.pop().ok_or(MoveError::UndoBeyondBudget {
            budget_bytes: self.saved.budget().unwrap_or(u128::MAX),
        })?;
        let record = self.history.pop().ok_or(MoveError::NothingToUndo)?;
        self.restore(saved);
        Ok(record)
    }

    /// How many of the last moves [`crate::QuantumGame::undo`] can still take back.
    pub fn undo_depth(&self) -> usize {
        self.saved.len()
    }

    /// The bytes the undo history holds, as counted against its budget: every entry whole
    /// (state snapshot, register, circuit mark), see [`crate::undo`].
    pub fn undo_bytes(&self) -> u128 {
        self.saved.bytes()
    }

    /// Sets the most bytes the undo history may hold (`None`: no limit) and drops the oldest
    /// entries beyond it. The default is a third of the backend's memory limit (a quarter of
    /// physical memory with the simulators' defaults), so that the state and its undo history
    /// together stay within physical memory; a backend without a limit gets none.
    pub fn set_undo_budget(&mut self, bytes: Option<u128>) {
        self.saved.set_budget(bytes);
    }

    /// The undo budget in bytes (`None`: no limit).
    pub fn undo_budget(&self) -> Option<u128> {
        self.saved.budget()
    }

    /// Keeps what was saved before the move just played (counting the snapshot's bytes and the
    /// circuit mark's heap), within the budget.
    fn keep_for_undo(&mut self, saved: Saved<B::Snapshot>) {
        let heap = B::snapshot_bytes(&saved.backend) + saved.builder.heap_bytes();
        self.saved.push(saved, heap);
    }

    /// `P(square occupied)`.
    pub fn probability(&self, square: Square) -> f64 {
        self.backend.probability_one(self.square_qubit(square))
    }

    /// `P(occupied)` of all 64 squares, indexed by square.
    pub fn probabilities(&self) -> [f64; 64] {
        let mut out = [0.0; 64];
        for sq in Square::ALL {
            out[sq.index()] = self.probability(sq);
        }
        out
    }

    /// The exact probability of each distinct occupancy bitboard (bit k = square k), ancillas
    /// summed out, in increasing bitboard order.
    pub fn board_probabilities(&self) -> Vec<(u64, f64)> {
        self.backend
            .marginal(&self.square_qubits())
            .into_iter()
            .map(|(pattern, p)| (pattern as u64, p))
            .collect()
    }

    /// `<O1>..<O8>` for the pair (`square1`, `square2`) (`circuits.md` sec. 4).
    pub fn bell_expectations(&self, square1: Square, square2: Square) -> [f64; 8] {
        let rho = self
            .backend
            .reduced_density_matrix(&[self.square_qubit(square1), self.square_qubit(square2)]);
        bell_expectations(&rho)
    }

    /// `(same, opposite)` correlation of the pair.
    pub fn same_opposite(&self, square1: Square, square2: Square) -> (f64, f64) {
        same_opposite(&self.bell_expectations(square1, square2))
    }
}
