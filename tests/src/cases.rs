//! The move-case table: one small position per move type and variant, each with the preparatory
//! moves that set it up and the featured move, plus the code that plays a case on the reference
//! simulator and checks that the featured move classifies as intended.
//!
//! Every measured move in a case carries its outcome (`.m0`/`.m1`), so a case replays exactly and
//! its circuit is deterministic; playing a case that would need a random outcome is an error.

use qc_ir::Backend;
use qc_rules::{
    Game, GameRecord, MoveError, MoveType, NotationError, PlayedQcan, QuantumGame, Variant,
};
use qc_sim::ReferenceSparse;
use std::fmt;

/// One position that exercises one move type and variant.
#[derive(Copy, Clone, Debug)]
pub struct MoveCase {
    /// Unique snake_case name (`jump_capture_measured`), used for snapshot and doc anchors.
    pub name: &'static str,
    /// The type the featured move must classify as.
    pub move_type: MoveType,
    /// The variant it must classify as.
    pub variant: Variant,
    /// Whether the featured move must emit a measurement.
    pub measured: bool,
    /// The start position (both kings present).
    pub fen: &'static str,
    /// Preparatory moves in QCAN, both sides alternating (may be empty).
    pub prep: &'static str,
    /// The featured move, with its outcome when measured.
    pub featured: &'static str,
    /// One sentence on what the case shows.
    pub about: &'static str,
}

impl MoveCase {
    /// Every move of the case (preparation, then the featured move), space-separated QCAN.
    pub fn all_moves(&self) -> String {
        if self.prep.is_empty() {
            self.featured.to_string()
        } else {
            format!("{} {}", self.prep, self.featured)
        }
    }

    /// The 1-based number of the featured move in the case's game.
    pub fn featured_number(&self) -> usize {
        self.prep.split_whitespace().count() + 1
    }

    /// The case as a game file (game-file format of `docs/notation.md`).
    pub fn game_file(&self) -> String {
        format!(
            "[Event \"{}\"]\n[FEN \"{}\"]\n{{ {} }}\n{}\n",
            self.name,
            self.fen,
            self.about,
            self.all_moves()
        )
    }
}

/// Why a case could not be played as written.
#[derive(Debug)]
pub enum CaseError {
    /// The case's text is not a valid game.
    Notation(NotationError),
    /// The engine rejected move `number` (1-based).
    Move {
        /// 1-based move number.
        number: usize,
        /// The move as written.
        qcan: String,
        /// What the engine said (boxed: `MoveError` is large).
        error: Box<MoveError>,
    },
    /// Move `number` needed a random outcome: the case must write `.m0`/`.m1`.
    Unforced {
        /// 1-based move number.
        number: usize,
        /// The move as written.
        qcan: String,
    },
    /// The featured move did not classify as the case says.
    Mismatch {
        /// What the table says, `type/variant/measured`.
        expected: String,
        /// What the engine did.
        actual: String,
    },
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::Notation(e) => write!(f, "bad case text: {e}"),
            CaseError::Move {
                number,
                qcan,
                error,
            } => write!(f, "move {number} `{qcan}` rejected: {error}"),
            CaseError::Unforced { number, qcan } => write!(
                f,
                "move {number} `{qcan}` was measured without a written outcome (.m0/.m1)"
            ),
            CaseError::Mismatch { expected, actual } => {
                write!(f, "featured move is {actual}, expected {expected}")
            }
        }
    }
}

impl std::error::Error for CaseError {}

/// A case played through the engine (on the reference simulator unless said otherwise).
pub struct PlayedCase<B: Backend = ReferenceSparse> {
    /// The game after the featured move.
    pub game: Game<B>,
    /// The featured move's record.
    pub featured: PlayedQcan,
}

impl<B: Backend> PlayedCase<B> {
    /// The featured move's instructions, on the game circuit's qubit table.
    pub fn featured_circuit(&self) -> qc_ir::Circuit {
        let circuit = self.game.circuit();
        qc_ir::Circuit::from_parts(
            circuit.qubit_roles().to_vec(),
            circuit.num_clbits() as u32,
            circuit.instructions()[self.featured.instructions.clone()].to_vec(),
        )
    }
}

fn describe(t: MoveType, v: Variant, measured: bool) -> String {
    let m = if measured { "measured" } else { "unmeasured" };
    format!("{t}/{v}/{m}")
}

/// Plays `game` (a parsed record) on a fresh reference simulator, refusing random outcomes.
pub fn play_record(record: &GameRecord) -> Result<Game<ReferenceSparse>, CaseError> {
    play_record_on(ReferenceSparse::new(), record)
}

/// [`play_record`] on `backend`.
pub fn play_record_on<B: Backend>(backend: B, record: &GameRecord) -> Result<Game<B>, CaseError> {
    let mut game = Game::new(record.start.clone(), backend).map_err(|error| CaseError::Move {
        number: 0,
        qcan: "set-up".into(),
        error: Box::new(error),
    })?;
    for (i, recorded) in record.moves.iter().enumerate() {
        let mut sampled = false;
        let mut uniform = || {
            sampled = true;
            0.5
        };
        let result = game.play_with(&recorded.mv, &mut uniform).map(|_| ());
        let qcan = recorded.mv.to_string();
        result.map_err(|error| CaseError::Move {
            number: i + 1,
            qcan: qcan.clone(),
            error: Box::new(error),
        })?;
        if sampled {
            return Err(CaseError::Unforced {
                number: i + 1,
                qcan,
            });
        }
    }
    Ok(game)
}

/// Plays `case` on the reference simulator and checks its featured move's type, variant and
/// measurement.
pub fn play(case: &MoveCase) -> Result<PlayedCase, CaseError> {
    play_on(ReferenceSparse::new(), case)
}

/// [`play`] on `backend`.
pub fn play_on<B: Backend>(backend: B, case: &MoveCase) -> Result<PlayedCase<B>, CaseError> {
    let record = GameRecord::parse(&case.game_file()).map_err(CaseError::Notation)?;
    let game = play_record_on(backend, &record)?;
    let featured = game.moves().last().cloned().ok_or(CaseError::Mismatch {
        expected: case.featured.into(),
        actual: "no move".into(),
    })?;
    let expected = describe(case.move_type, case.variant, case.measured);
    let actual = describe(
        featured.move_type(),
        featured.variant(),
        featured.measured(),
    );
    if expected != actual {
        return Err(CaseError::Mismatch { expected, actual });
    }
    Ok(PlayedCase { game, featured })
}

/// The case named `name`.
pub fn case(name: &str) -> Option<&'static MoveCase> {
    CASES.iter().find(|c| c.name == name)
}

use MoveType as T;
use Variant as V;

macro_rules! case {
    ($name:literal, $t:expr, $v:expr, $measured:literal, $fen:literal, $prep:literal, $featured:literal, $about:literal) => {
        MoveCase {
            name: $name,
            move_type: $t,
            variant: $v,
            measured: $measured,
            fen: $fen,
            prep: $prep,
            featured: $featured,
            about: $about,
        }
    };
}

/// Every case, grouped by move type in the order of [`MoveType`].
pub const CASES: &[MoveCase] = &[
    case!("jump_basic", T::Jump, V::Basic, false,
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "", "b1c3",
        "A knight jumps to an empty square: one iSWAP."),
    case!("jump_excluded", T::Jump, V::Excluded, true,
        "4k3/8/8/8/8/8/3K4/1N6 w - - 0 1", "d2^c3d3 e8d8", "b1wc3.m1",
        "The knight's target holds its own king in superposition: measure the target empty, then jump."),
    case!("jump_capture", T::Jump, V::Capture, false,
        "4k3/8/8/8/8/2p5/8/1N2K3 w - - 0 1", "", "b1xc3",
        "A knight certainly on b1 captures a pawn: the victim goes to a captured-piece ancilla, no measurement."),
    case!("jump_capture_measured", T::Jump, V::Capture, true,
        "4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1", "g1^f3h3 e8d8", "f3xe5.m1",
        "A knight in superposition captures: measure the attacker present, then capture."),
    case!("slide_basic", T::Slide, V::Basic, false,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "", "a1a5",
        "A rook slides along an empty file: one iSWAP."),
    case!("slide_basic_path", T::Slide, V::Basic, false,
        "4k3/8/8/8/8/8/1K6/R7 w - - 0 1", "b2^a3c3 e8d8", "a1a5",
        "One path square is in superposition: the iSWAP is 0-controlled on it (no measurement)."),
    case!("slide_basic_path_ancilla", T::Slide, V::Basic, false,
        "4k3/8/8/8/8/8/1K6/RN6 w - - 0 1", "b2^a2c2 e8d8 b1^a3d2 d8e8", "a1a5",
        "Two path squares in superposition: their OR goes into a path ancilla, computed and uncomputed."),
    case!("slide_excluded", T::Slide, V::Excluded, true,
        "4k3/8/8/8/1K6/8/8/R7 w - - 0 1", "b4^a5c5 e8d8", "a1wa5.m1",
        "The rook's target holds its own king in superposition: measure it empty, then slide."),
    case!("slide_capture", T::Slide, V::Capture, false,
        "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1", "", "a1xa5",
        "A rook captures along a clear file: nothing to measure."),
    case!("slide_capture_measured", T::Slide, V::Capture, true,
        "4k3/8/8/p7/8/8/1K6/R7 w - - 0 1", "b2^a3c3 e8d8", "a1xa5.m1",
        "A capture through a superposed path square: measure the attacker present and the path clear."),
    case!("split_jump", T::SplitJump, V::Basic, false,
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "", "b1^a3c3",
        "A knight splits: sqrt-iSWAP to the first target, iSWAP to the second."),
    case!("split_slide", T::SplitSlide, V::Basic, false,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "", "a1^a5c1",
        "A rook splits along two clear lines."),
    case!("split_slide_path", T::SplitSlide, V::Basic, false,
        "4k3/8/8/8/8/8/1K6/R7 w - - 0 1", "b2^a3c3 e8d8", "a1^a5c1",
        "A rook splits while one arm's path holds a superposed king: the three path cases are controlled."),
    case!("merge_jump", T::MergeJump, V::Basic, false,
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "b1^a3c3 e8d8", "a3c3^b5",
        "The two halves of a knight merge onto b5."),
    case!("merge_slide", T::MergeSlide, V::Basic, false,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1^a5c1 e8d8", "a5c1^c5",
        "The two halves of a rook merge onto c5."),
    case!("pawn_step", T::PawnStep, V::Basic, false,
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", "e2e3",
        "A pawn steps forward: one iSWAP."),
    case!("pawn_step_excluded", T::PawnStep, V::Excluded, true,
        "4k3/8/8/8/8/8/3KP3/8 w - - 0 1", "d2^e3c3 e8d8", "e2we3.m1",
        "The square ahead holds the king in superposition: measure it empty, then step."),
    case!("pawn_step_promotion", T::PawnStep, V::Basic, false,
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "", "a7a8Q",
        "A pawn steps onto the last rank and becomes a queen: the circuit is a plain step."),
    case!("pawn_two_step", T::PawnTwoStep, V::Basic, false,
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "", "e2e4",
        "A pawn's double step over an empty square."),
    case!("pawn_two_step_path", T::PawnTwoStep, V::Basic, false,
        "4k3/8/8/8/8/8/3KP3/8 w - - 0 1", "d2^e3c3 e8d8", "e2e4",
        "The skipped square holds the king in superposition: the step is 0-controlled on it."),
    case!("pawn_two_step_excluded", T::PawnTwoStep, V::Excluded, true,
        "4k3/8/8/8/8/3K4/4P3/8 w - - 0 1", "d3^e4c4 e8d8", "e2we4.m1",
        "The target holds the king in superposition: measure it empty, then step."),
    case!("pawn_capture", T::PawnCapture, V::Capture, false,
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "", "e4xd5",
        "A pawn certainly on e4 captures a pawn certainly on d5: no measurement."),
    case!("pawn_capture_superposed_target", T::PawnCapture, V::Capture, false,
        "4k3/8/1n6/8/4P3/8/8/4K3 w - - 0 1", "e1d1 b6^d5a4", "e4xd5",
        "The victim is in superposition: the capture is controlled on it, nothing is measured."),
    case!("pawn_capture_measured", T::PawnCapture, V::Capture, true,
        "4k3/8/8/3p4/8/8/3KP3/8 w - - 0 1", "d2^e3c3 e8d8 e2e4 d8e8", "e4xd5.m1",
        "The pawn is in superposition (its double step was path-controlled): measure it present, then capture."),
    case!("pawn_capture_promotion", T::PawnCapture, V::Capture, false,
        "n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "", "b7xa8N",
        "A pawn captures onto the last rank and becomes a knight."),
    case!("en_passant", T::EnPassant, V::Basic, false,
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5", "e5d6",
        "En passant with every square known: three X gates."),
    case!("en_passant_excluded", T::EnPassant, V::Excluded, true,
        "4k3/3p4/8/2K1P3/8/8/8/8 w - - 0 1", "c5^d6c6 d7d5", "e5wd6.m1",
        "The en passant square holds White's king in superposition: measure it empty, then capture."),
    case!("en_passant_capture", T::EnPassant, V::Capture, false,
        "4k3/1n1p4/8/4P3/8/8/8/4K3 b - - 0 1", "b7^d6c5 e1d1 d7d5", "e5xd6",
        "The en passant square holds a black knight in superposition: both victims are handled, no measurement."),
    case!("en_passant_capture_measured", T::EnPassant, V::Capture, true,
        "4k3/1n1p4/8/8/8/8/3KP3/8 w - - 0 1", "d2^e3c3 e8f8 e2e4 f8e8 e4e5 b7^d6c5 e3f3 d7d5", "e5xd6.m1",
        "The capturing pawn is in superposition: measure it present, then the en passant capture."),
    case!("kingside_castle", T::KingsideCastle, V::Basic, false,
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "", "e1g1",
        "O-O with f1 and g1 empty: two iSWAPs."),
    case!("kingside_castle_excluded", T::KingsideCastle, V::Excluded, true,
        "4k3/8/8/8/8/4N3/8/4K2R w K - 0 1", "e3^f1g2 e8d8", "e1g1.m1",
        "f1 holds a knight in superposition: measure f1 and g1 empty, then castle."),
    case!("queenside_castle", T::QueensideCastle, V::Basic, false,
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "", "e1c1",
        "O-O-O with b1, c1 and d1 empty: two iSWAPs."),
    case!("queenside_castle_path", T::QueensideCastle, V::Basic, false,
        "4k3/8/8/8/8/2N5/8/R3K3 w Q - 0 1", "c3^b1d5 e8d8", "e1c1",
        "b1 holds a knight in superposition: both iSWAPs are 0-controlled on b1."),
    case!("queenside_castle_excluded", T::QueensideCastle, V::Excluded, true,
        "4k3/8/8/8/8/2N5/8/R3K3 w Q - 0 1", "c3^d1b5 e8d8", "e1c1.m1",
        "d1 holds a knight in superposition: measure c1 and d1 empty, then castle."),
];
