//! The game engine: a [`Board`] (classical register) plus a quantum state on any
//! [`qc_ir::Backend`], kept in the [`Ledger`] both rulesets share (one growing circuit for the
//! whole game, the moves played, what undoing each needs).
//!
//! A move classifies, lowers, runs the move's new instructions, then updates the register from
//! the state's exact support (decision 11), castling rights, the en passant right (decision 14),
//! counters and the side to move. A failed move changes nothing: the ledger restores what it
//! saved before the move (the same mechanism serves undo). Definition 2: a move that measures
//! nothing and leaves the state unchanged is illegal and the same side moves again.

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
use crate::chess::{Castling, Color, Piece, PieceKind, Square};
use crate::ledger::{ClassicalState, Ledger, Turn, UndoError};
use crate::ruleset::{
    right_lost, DrawReason, GameMove, LegalMove, MoveOutcome, PlayedMove, QuantumGame, RightLost,
    Roll, SquarePair, Status, WinReason,
};
pub use crate::undo::UNDO_BUDGET_DIVISOR;
use qc_ir::{
    Backend, BackendError, ClassicalRecord, Clbit, ExecError, MeasureChoice, Op, Origin, Qubit,
};

/// Fidelity above which a move counts as leaving the state unchanged (Definition 2).
pub const UNCHANGED_FIDELITY: f64 = 1.0 - 1e-9;

/// A move of Quantum Chess as played.
pub type PlayedQcan = PlayedMove<QcanMove>;

/// The error a move gets once the game is over (`None` while it goes on).
fn game_over_error(status: Status) -> Option<MoveError> {
    status.is_over().then_some(MoveError::GameOver { status })
}

/// The qubit of `square`: square k is qubit k.
fn square_qubit(square: Square) -> Qubit {
    Qubit(square.index() as u32)
}

/// The qubits of the 64 squares, in square order.
fn square_qubits() -> Vec<Qubit> {
    Square::ALL.iter().map(|&s| square_qubit(s)).collect()
}

/// Which squares the state of `backend` has certainly empty, certainly occupied, or in
/// superposition.
fn occupancy_of<B: Backend + ?Sized>(backend: &B) -> Occupancy {
    Occupancy::from_backend(backend, |s| Some(square_qubit(s)))
}

/// The classical part of a Quantum Chess game, as its ledger keeps it: the register and flags,
/// the status, the endings' bookkeeping, and the session's switches.
pub(crate) struct Position {
    /// The start position (for the record's move numbers).
    start: Board,
    board: Board,
    status: Status,
    /// Fifty-move counter, positions for repetition, the full measurement that ended the game.
    endings: endings::Endings,
    /// UQCI `forceturn` (not part of the position: not restored by undo).
    force_turn: bool,
    /// UQCI `forcewin` (likewise).
    force_win: bool,
}

/// What a move may change of a [`Position`].
pub(crate) struct PositionMark {
    board: Board,
    status: Status,
    endings: endings::EndingsMark,
}

impl ClassicalState for Position {
    type Mark = PositionMark;

    fn mark(&self) -> PositionMark {
        PositionMark {
            board: self.board.clone(),
            status: self.status,
            endings: self.endings.mark(),
        }
    }

    fn restore(&mut self, mark: PositionMark) {
        self.board = mark.board;
        self.status = mark.status;
        self.endings.restore(mark.endings);
    }

    fn mark_heap_bytes(_: &PositionMark) -> usize {
        // The register is an array and the endings' mark holds lengths only.
        0
    }
}

impl Position {
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
        match self.endings.ended.as_ref().map(|m| m.ending) {
            Some(Ending::FiftyMoves) => DrawReason::FiftyMoves,
            Some(Ending::Repetition) => DrawReason::Repetition,
            None => DrawReason::BothKingsGone,
        }
    }

    /// Clears every register entry whose square no basis state occupies (decision 11).
    fn clear_empty(&mut self, occ: &Occupancy) {
        for sq in Square::ALL {
            if occ.get(sq) == SquareStatus::Empty {
                self.board.set_piece(sq, None);
            }
        }
    }

    /// The register after the classified move `c` (`applied`: its unitary took place; `occ`:
    /// the state's support after it): placements, cleared squares, castling and en passant
    /// rights, counters, the side to move.
    fn update_board(&mut self, c: &Classified, applied: bool, occ: &Occupancy) {
        if applied {
            for &(sq, piece) in &c.placements {
                self.board.set_piece(sq, Some(piece));
            }
        }
        self.clear_empty(occ);
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

    /// With `forceturn`, the side to move becomes the owner of the piece `mv` moves.
    fn force_side(&mut self, mv: &QcanMove) {
        if !self.force_turn {
            return;
        }
        let source = match mv.shape {
            MoveShape::Standard { source, .. } | MoveShape::Split { source, .. } => Some(source),
            MoveShape::Merge { source1, .. } => Some(source1),
            MoveShape::Null => None,
        };
        if let Some(p) = source.and_then(|s| self.board.piece(s)) {
            self.board.side_to_move = p.color;
        }
    }
}

/// A game of Quantum Chess on backend `B`.
pub struct Game<B: Backend> {
    pub(super) ledger: Ledger<B, QcanMove, Position>,
}

impl<B: Backend> crate::ledger::sealed::HasLedger for Game<B> {
    fn undo_log(&self) -> &dyn crate::ledger::sealed::UndoLog {
        &self.ledger
    }

    fn undo_log_mut(&mut self) -> &mut dyn crate::ledger::sealed::UndoLog {
        &mut self.ledger
    }
}

/// Why the ledger could not take a move back, as this ruleset says it.
impl From<UndoError> for MoveError {
    fn from(e: UndoError) -> MoveError {
        match e {
            UndoError::NothingToUndo => MoveError::NothingToUndo,
            UndoError::BeyondBudget { budget_bytes } => {
                MoveError::UndoBeyondBudget { budget_bytes }
            }
        }
    }
}

impl<B: Backend> Game<B> {
    /// Starts a game from `board` on `backend` (which must be in |0...0>): square qubit k is
    /// square k, and the set-up puts an `X` on every occupied square (origin move 0, `setup`).
    pub fn new(board: Board, backend: B) -> Result<Game<B>, MoveError> {
        let pieces = board.pieces.iter().flatten().count() as f64;
        let endings = endings::Endings::start(&board, &backend, pieces);
        let position = Position {
            start: board.clone(),
            board,
            status: Status::Ongoing,
            endings,
            force_turn: false,
            force_win: false,
        };
        let mut ledger = Ledger::new(backend, position);
        let (run, position) = ledger.parts_mut();
        let builder = run.builder();
        for sq in Square::ALL {
            builder.site(sq.site());
        }
        builder.set_origin(Some(Origin::new(0, "setup")));
        for sq in Square::ALL {
            if position.board.piece(sq).is_some() {
                let q = builder.site(sq.site());
                builder.x(q);
            }
        }
        builder.set_origin(None);
        run.run_pending(&mut |_: Option<Clbit>| MeasureChoice::Forced(false))?;
        position.endings = endings::Endings::start(&position.board, run.backend(), pieces);
        position.status = position.compute_status();
        Ok(Game { ledger })
    }

    fn position(&self) -> &Position {
        self.ledger.state()
    }

    /// UQCI `forceturn`: when on, the side to move becomes the owner of the moved piece before
    /// each move (turn order is not enforced).
    pub fn set_force_turn(&mut self, on: bool) {
        self.ledger.parts_mut().1.force_turn = on;
    }

    /// UQCI `forcewin`: when on, a missing king does not end the game.
    pub fn set_force_win(&mut self, on: bool) {
        let position = self.ledger.parts_mut().1;
        position.force_win = on;
        position.status = position.compute_status();
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.position().start
    }

    /// The classical register and flags.
    pub fn board(&self) -> &Board {
        &self.position().board
    }

    /// The outcomes of every measurement so far, by classical bit.
    pub fn classical_record(&self) -> &ClassicalRecord {
        self.ledger.run().record()
    }

    /// The qubit of `square` (square k is qubit k).
    pub fn square_qubit(&self, square: Square) -> Qubit {
        square_qubit(square)
    }

    /// Which squares are certainly empty, certainly occupied, or in superposition.
    pub fn occupancy(&self) -> Occupancy {
        occupancy_of(self.backend())
    }

    /// Classifies `mv` in the current position without playing it.
    pub fn classify(&self, mv: &QcanMove) -> Result<Classified, MoveError> {
        classify(self.board(), &self.occupancy(), mv)
    }

    /// The status (the trait's [`crate::QuantumGame::status`]).
    pub(super) fn status_now(&self) -> Status {
        self.position().status
    }

    /// Every standard, split and merge move legal now for the side to move, with its kind:
    /// possible by the possibility equations and able to change the state in some branch
    /// (Definition 2, see [`crate::cantwell::definition2`]).
    pub(crate) fn legal(&self) -> Vec<LegalMove<QcanMove>> {
        self.legal_while(&mut |_| true).unwrap_or_default()
    }

    /// The legal moves, `go_on` shown those found so far after each candidate (Definition 2's
    /// test of a candidate reads the state); `None` when it said stop.
    pub(crate) fn legal_while(
        &self,
        go_on: &mut crate::ruleset::GoOnListing<'_, QcanMove>,
    ) -> Option<Vec<LegalMove<QcanMove>>> {
        if self.position().status.is_over() {
            return Some(Vec::new());
        }
        let occ = self.occupancy();
        let mut legal = Vec::new();
        for (mv, c) in possible_moves(self.board(), &occ) {
            if definition2::classified_can_act(self.backend(), &occ, &c).unwrap_or(false) {
                legal.push(LegalMove {
                    mv,
                    kind: MoveClass {
                        move_type: c.move_type,
                        variant: c.variant,
                    },
                });
            }
            if !go_on(&legal) {
                return None;
            }
        }
        Some(legal)
    }

    /// Classifies `mv` for the side that plays it (with `forceturn`, the owner of its piece).
    fn classify_for_mover(&mut self, mv: &QcanMove) -> Result<(Classified, Occupancy), MoveError> {
        let occ = self.occupancy();
        let position = self.ledger.parts_mut().1;
        let turn = position.board.side_to_move;
        position.force_side(mv);
        let classified = classify(&position.board, &occ, mv);
        position.board.side_to_move = turn;
        match classified {
            Ok(c) => Ok((c, occ)),
            Err(MoveError::CastlingWithoutRights { castling, .. }) => {
                Err(MoveError::CastlingWithoutRights {
                    castling,
                    lost: self.castling_right_lost(castling),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Which move of the game took `castling`'s right away (the squares each move names take
    /// the rights of the home squares among them, as [`Position`]'s register update does).
    fn castling_right_lost(&self, castling: Castling) -> RightLost {
        let moves = self.ledger.moves().iter().map(|m| {
            let squares = m.mv.squares();
            (m.text(), squares.in_click_order())
        });
        right_lost(
            castling,
            self.start().castling,
            crate::cantwell::gamefile::first_ply(self.start()),
            moves,
        )
    }

    /// Plays `mv` with uniform numbers in [0, 1) from `uniform` for its measurements (those
    /// `mv.outcome` does not force). On error nothing changes.
    pub fn play_with(
        &mut self,
        mv: &QcanMove,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Result<&PlayedQcan, MoveError> {
        if let Some(over) = game_over_error(self.position().status) {
            return Err(over);
        }
        let (classified, occ) = self.classify_for_mover(mv)?;
        self.ledger.make(|mut turn| {
            turn.state.force_side(mv);
            run_move(&mut turn, mv, &classified, &occ, uniform)
        })
    }

    /// Every outcome of `mv` that has a chance, with its exact probability
    /// ([`definition2::move_outcomes`]: the move's measurement read off the state). Each outcome
    /// is also run on the state and the game restored (nothing is added to the moves or the
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
        if let Some(over) = game_over_error(self.position().status) {
            return Err(over);
        }
        let occ = self.occupancy();
        let classified = classify(self.board(), &occ, mv)?;
        let listed = definition2::move_outcomes(self.backend(), &occ, &classified)?;
        let mut out = Vec::with_capacity(listed.len());
        for (outcome, probability) in listed {
            let forced = QcanMove { outcome, ..*mv };
            // The outcome is forced, so no random number is drawn for it.
            self.ledger
                .probe(|mut turn| run_move(&mut turn, &forced, &classified, &occ, &mut || 0.5))?;
            out.push(MoveOutcome {
                mv: forced,
                probability,
            });
        }
        Ok(out)
    }

    /// `P(square occupied)`.
    pub fn probability(&self, square: Square) -> f64 {
        self.backend().probability_one(square_qubit(square))
    }

    /// `P(occupied)` of all 64 squares, indexed by square.
    pub fn probabilities(&self) -> [f64; 64] {
        probabilities(self.backend())
    }

    /// Whether the distinct boards (at most one per basis state), at `bytes_each` bytes each
    /// while they are summed and handed on, fit in what the simulator's memory limit leaves
    /// beside its state (always, for a simulator without a limit): on a state of a million
    /// basis states the boards take several times the state.
    pub(crate) fn boards_fit(&self, bytes_each: u128) -> bool {
        let backend = self.backend();
        backend.memory_limit_bytes().is_none_or(|limit| {
            let free = limit.saturating_sub(backend.state_bytes() as u128);
            (backend.state_size() as u128).saturating_mul(bytes_each) <= free
        })
    }

    /// The exact probability of each distinct occupancy bitboard (bit k = square k), ancillas
    /// summed out, in increasing bitboard order.
    pub fn board_probabilities(&self) -> Vec<(u64, f64)> {
        self.backend()
            .marginal(&square_qubits())
            .into_iter()
            .map(|(pattern, p)| (pattern as u64, p))
            .collect()
    }

    /// `<O1>..<O8>` for the pair (`circuits.md` sec. 4).
    pub fn bell_expectations(&self, pair: SquarePair) -> [f64; 8] {
        let rho = self
            .backend()
            .reduced_density_matrix(&[square_qubit(pair.first()), square_qubit(pair.second())]);
        bell_expectations(&rho)
    }

    /// `(same, opposite)` correlation of the pair.
    pub fn same_opposite(&self, pair: SquarePair) -> (f64, f64) {
        same_opposite(&self.bell_expectations(pair))
    }
}

/// `P(occupied)` of all 64 squares of the state of `backend`, indexed by square. One
/// [`Backend::probabilities_one`] call: the sparse simulator sums all 64 in one pass over the
/// state (bit for bit what 64 calls of `probability_one` give), where each ply used to make 64.
fn probabilities<B: Backend + ?Sized>(backend: &B) -> [f64; 64] {
    let mut out = [0.0; 64];
    for (sq, p) in Square::ALL
        .iter()
        .zip(backend.probabilities_one(&square_qubits()))
    {
        out[sq.index()] = p;
    }
    out
}

/// Plays the classified move `c` (`occ`: the state's support before it) on `turn`: lowers it,
/// runs it (its measurement forced by `mv.outcome` or sampled with `uniform`), updates the
/// register and the status, counts the ply for the endings, and says what was played.
fn run_move<B: Backend>(
    turn: &mut Turn<'_, B, Position>,
    mv: &QcanMove,
    c: &Classified,
    occ: &Occupancy,
    uniform: &mut dyn FnMut() -> f64,
) -> Result<PlayedQcan, MoveError> {
    let run = &mut *turn.run;
    let start = run.len();
    let move_index = turn.ply as u32 + 1;
    let lowered = lower(c, occ, run.builder(), move_index)?;
    let end = run.len();
    let instructions = &run.circuit().instructions()[start..end];
    definition2::check(run.backend(), instructions)?;
    // Run up to the measurement, read the probability of outcome 1 there, then run the rest.
    let measure_at = instructions
        .iter()
        .position(|i| matches!(i.op, Op::Measure { .. }))
        .unwrap_or(instructions.len());
    let measured_qubit = match instructions.get(measure_at).map(|i| &i.op) {
        Some(Op::Measure { qubit, .. }) => Some(*qubit),
        _ => None,
    };
    let forced = mv.outcome;
    let mut policy = |_: Option<Clbit>| match forced {
        Some(v) => MeasureChoice::Forced(v),
        None => MeasureChoice::Random(uniform()),
    };
    let move_error = |offset: usize| {
        move |mut e: ExecError| {
            e.index += offset;
            match e.source {
                BackendError::ImpossibleOutcome { outcome, .. } => {
                    MoveError::ImpossibleOutcome { outcome }
                }
                _ => MoveError::Backend(e),
            }
        }
    };
    run.run_to(start + measure_at, &mut policy)
        .map_err(move_error(0))?;
    let p_one = measured_qubit.map(|q| run.backend().probability_one(q));
    run.run_to(end, &mut policy)
        .map_err(move_error(measure_at))?;
    let outcome = lowered
        .measurement
        .map(|m| run.record().get(m).unwrap_or(false));
    if outcome.is_none() && run.backend().fidelity(turn.snapshot)? > UNCHANGED_FIDELITY {
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
    let position = &mut *turn.state;
    position.update_board(c, applied, &occupancy_of(run.backend()));
    position.status = position.compute_status();
    endings::after_ply(run, position, turn.ply, uniform)?;
    let rolls = match (lowered.measurement, outcome, p_one) {
        (Some(clbit), Some(one), Some(p_one)) => vec![Roll {
            clbit,
            one,
            p_one,
            meaning: measured::meaning(&lowered.measured, one, &turn.before.board),
        }],
        _ => Vec::new(),
    };
    Ok(PlayedMove {
        mv: QcanMove { outcome, ..*mv },
        kind: MoveClass {
            move_type: c.move_type,
            variant: c.variant,
        },
        rolls,
        instructions: start..end,
    })
}
