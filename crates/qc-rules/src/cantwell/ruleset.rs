//! Quantum Chess (Cantwell) behind the ruleset interface: [`Game`] plays QCAN moves
//! ([`QcanMove`], the [`GameMove`] of this ruleset), [`GameRecord`] reads and writes its game
//! files.

use crate::cantwell::board::Board;
use crate::cantwell::error::MoveError;
use crate::cantwell::game::{Ending, Game, PlayedQcan};
use crate::cantwell::gamefile::GameRecord;
use crate::cantwell::kinds::{MoveClass, MoveType, Variant};
use crate::cantwell::notation_error::NotationError;
use crate::cantwell::qcan::{parse_move_list, MoveShape, QcanMove};
use crate::chess::{Color, Square};
use crate::ruleset::{
    BoardView, Claimed, Comment, Endings, GameMove, GivenOutcome, LegalMove, MoveOutcome,
    MoveSquares, OutcomeShapeError, PlayedMove, QuantumGame, Ruleset, SquarePair, SquareView,
    Status, Switch, Tag, WrittenMove,
};
use qc_ir::{Backend, Circuit, Clbit, IMPOSSIBLE_PROBABILITY};
use serde_json::{json, Map, Value};
use thiserror::Error;

/// Pearson correlation of two squares' occupancy above which a board view links them.
pub const LINK_THRESHOLD: f64 = 0.5;

/// Quantum Chess, Cantwell's rules (`docs/rules.md`).
pub struct Cantwell;

/// Bytes one distinct board costs while the distribution of boards is summed (the simulator's
/// maps of patterns, every chunk's alive at once, then the merged one) and handed on (the sorted
/// list, the bitboards): about 150 bytes, rounded up.
const BOARD_BYTES: u128 = 160;

/// Bytes one board's description adds to [`BOARD_BYTES`] in the distribution of boards (its
/// text, about 70 characters, with the string's header and the list's entry).
const DESCRIBED_BOARD_BYTES: u128 = 128;

/// Why a Quantum Chess position, game file or move was refused.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum CantwellError {
    /// Bad notation: FEN, QCAN or game file.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move the rules refuse (or one the backend could not run).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A game file records a threefold-repetition claim after its last move that the replayed
    /// game cannot make (the position did not occur twice before, or the recorded board is
    /// impossible).
    #[error("the game file records a threefold-repetition claim after move {after_move}, but the replay cannot claim it: {source}")]
    RecordedClaim {
        /// How many moves the file has (the claim follows the last).
        after_move: usize,
        /// Why the claim failed.
        source: MoveError,
    },
    /// A game file's result token contradicts how its replayed game ended.
    #[error(transparent)]
    ResultContradicts(#[from] crate::ruleset::ResultContradicts),
    /// Rule options were given, but Quantum Chess has none.
    #[error("Quantum Chess has no rule options (got `{0}`)")]
    NoOptions(String),
    /// A game file's tag whose value the replay needs is malformed.
    #[error("the game file's tag [{name} \"{value}\"] is not {expected}")]
    BadTag {
        /// The tag's name.
        name: &'static str,
        /// Its value as written.
        value: String,
        /// What the value should be.
        expected: &'static str,
    },
}

/// The game-file tag that records the board a fifty-move ending measured (`0x` and the bitboard
/// in hexadecimal, bit k = square k), so that a replay measures the same board.
pub const FIFTY_MOVE_BOARD_TAG: &str = "FiftyMoveBoard";

/// The game-file tag that records a threefold-repetition claim after the last move and the
/// board it measured (written as [`FIFTY_MOVE_BOARD_TAG`]), so that a replay claims again and
/// measures the same board.
pub const REPETITION_BOARD_TAG: &str = "RepetitionClaimBoard";

/// The tag that records the full measurement ending `ending` (one per ending).
fn ending_tag(ending: Ending) -> &'static str {
    match ending {
        Ending::FiftyMoves => FIFTY_MOVE_BOARD_TAG,
        Ending::Repetition => REPETITION_BOARD_TAG,
    }
}

/// The bitboard tag `name` of a game file holds, if it has one.
fn tagged_board(text: &GameRecord, name: &'static str) -> Result<Option<u64>, CantwellError> {
    let Some(value) = text.tag(name) else {
        return Ok(None);
    };
    parse_bitboard(value)
        .map(Some)
        .ok_or_else(|| CantwellError::BadTag {
            name,
            value: value.to_string(),
            expected: "a bitboard in hexadecimal, 0x then 1 to 16 digits (bit k = square k)",
        })
}

/// `0x` and 1 to 16 hexadecimal digits.
fn parse_bitboard(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("0x")?;
    if digits.is_empty() || digits.len() > 16 {
        return None;
    }
    u64::from_str_radix(digits, 16).ok()
}

impl GameMove for QcanMove {
    type Kind = MoveClass;

    fn kind_name(kind: MoveClass) -> &'static str {
        kind.move_type.as_str()
    }

    fn is_quantum(kind: MoveClass) -> bool {
        matches!(
            kind.move_type,
            MoveType::SplitJump | MoveType::SplitSlide | MoveType::MergeJump | MoveType::MergeSlide
        )
    }

    fn outcome_notation(&self) -> Option<String> {
        self.outcome.map(|one| format!(".m{}", u8::from(one)))
    }

    fn with_outcome(&self, outcome: &GivenOutcome) -> Result<QcanMove, OutcomeShapeError> {
        match outcome {
            GivenOutcome::Bit(one) => Ok(QcanMove {
                outcome: Some(*one),
                ..*self
            }),
            GivenOutcome::Squares(_) => Err(OutcomeShapeError {
                rules: "Quantum Chess",
                expected: "0 or 1",
                given: outcome.shape(),
            }),
        }
    }

    fn without_outcomes(&self) -> QcanMove {
        QcanMove {
            outcome: None,
            ..*self
        }
    }

    fn squares(&self) -> MoveSquares {
        match self.shape {
            MoveShape::Standard { source, target } => MoveSquares {
                sources: vec![source],
                targets: vec![target],
            },
            MoveShape::Split {
                source,
                target1,
                target2,
            } => MoveSquares {
                sources: vec![source],
                targets: vec![target1, target2],
            },
            MoveShape::Merge {
                source1,
                source2,
                target,
            } => MoveSquares {
                sources: vec![source1, source2],
                targets: vec![target],
            },
            MoveShape::Null => MoveSquares::default(),
        }
    }

    fn detail(played: &PlayedQcan) -> String {
        let what = match played.rolls.first() {
            Some(roll) => format!(
                "measured, outcome {} (P {:.4}): {}",
                u8::from(roll.one),
                roll.probability(),
                roll.meaning
            ),
            None => "no measurement".into(),
        };
        format!("{}, {what}", played.kind.variant.as_str())
    }

    fn outcome_summary(played: &PlayedQcan) -> Option<String> {
        played.outcome().map(|o| u8::from(o).to_string())
    }

    fn extras(played: &PlayedQcan) -> Map<String, Value> {
        let roll = played.rolls.first();
        let mut extras = Map::new();
        extras.insert("type".into(), json!(played.kind.move_type.as_str()));
        extras.insert("variant".into(), json!(played.kind.variant.as_str()));
        extras.insert("measured".into(), json!(played.measured()));
        extras.insert("outcome".into(), json!(played.outcome().map(u8::from)));
        extras.insert(
            "outcome_probability".into(),
            json!(roll.map(|r| r.probability())),
        );
        extras.insert("meaning".into(), json!(roll.map(|r| &r.meaning)));
        extras.insert("applied".into(), json!(played.applied()));
        extras
    }
}

/// What a played Quantum Chess move did, read off its record.
impl PlayedMove<QcanMove> {
    /// Its type.
    pub fn move_type(&self) -> MoveType {
        self.kind.move_type
    }

    /// Its variant.
    pub fn variant(&self) -> Variant {
        self.kind.variant
    }

    /// True when a measurement was emitted (a certain outcome is not measured).
    pub fn measured(&self) -> bool {
        !self.rolls.is_empty()
    }

    /// The outcome, when measured.
    pub fn outcome(&self) -> Option<bool> {
        self.rolls.first().map(|r| r.one)
    }

    /// The classical bit the measurement wrote, when measured.
    pub fn clbit(&self) -> Option<Clbit> {
        self.rolls.first().map(|r| r.clbit)
    }

    /// True when the move's unitary was applied (no measurement, or outcome 1).
    pub fn applied(&self) -> bool {
        self.outcome().unwrap_or(true)
    }

    /// The probability of the outcome that happened (read from the state just before the
    /// measurement), when measured.
    pub fn outcome_probability(&self) -> Option<f64> {
        self.rolls.first().map(|r| r.probability())
    }

    /// What the outcome meant, when measured.
    pub fn meaning(&self) -> Option<&str> {
        self.rolls.first().map(|r| r.meaning.as_str())
    }
}

impl<B: Backend> Game<B> {
    /// Pearson correlation of the occupancies of two squares (0 when either is certain).
    pub fn correlation(&self, a: Square, b: Square) -> f64 {
        let joint = self
            .backend()
            .marginal(&[self.square_qubit(a), self.square_qubit(b)]);
        let p11: f64 = joint
            .iter()
            .filter(|(k, _)| *k == 0b11)
            .map(|(_, p)| p)
            .sum();
        let pa = self.probability(a);
        let pb = self.probability(b);
        let var = (pa * (1.0 - pa) * pb * (1.0 - pb)).sqrt();
        if var < 1e-12 {
            0.0
        } else {
            (p11 - pa * pb) / var
        }
    }
}

impl<B: Backend> QuantumGame for Game<B> {
    type Move = QcanMove;
    type Error = CantwellError;
    type Backend = B;

    fn backend(&self) -> &B {
        self.ledger.run().backend()
    }

    fn play(
        &mut self,
        mv: &QcanMove,
        rng: &mut dyn rand::RngCore,
    ) -> Result<&PlayedQcan, CantwellError> {
        let mut uniform = || rand::Rng::gen::<f64>(rng);
        Ok(self.play_with(mv, &mut uniform)?)
    }

    fn undo(&mut self) -> Result<PlayedQcan, CantwellError> {
        Ok(self.ledger.unmake().map_err(MoveError::from)?)
    }

    fn move_outcomes(
        &mut self,
        mv: &QcanMove,
    ) -> Result<Vec<MoveOutcome<QcanMove>>, CantwellError> {
        Ok(self.outcomes_of(mv)?)
    }

    fn legal_moves(&self) -> Vec<LegalMove<QcanMove>> {
        self.legal()
    }

    fn legal_moves_while(
        &self,
        go_on: &mut crate::ruleset::GoOnListing<'_, QcanMove>,
    ) -> Option<Vec<LegalMove<QcanMove>>> {
        self.legal_while(go_on)
    }

    fn status(&self) -> Status {
        self.status_now()
    }

    fn side_to_move(&self) -> Color {
        self.board().side_to_move
    }

    fn circuit(&self) -> &Circuit {
        self.ledger.run().circuit()
    }

    fn outcomes(&self) -> Vec<Option<bool>> {
        self.ledger.run().outcomes()
    }

    fn moves(&self) -> &[PlayedQcan] {
        self.ledger.moves()
    }

    fn first_ply(&self) -> u32 {
        crate::cantwell::gamefile::first_ply(self.start())
    }

    fn record(&self) -> String {
        let mut record = GameRecord {
            start: self.start().clone(),
            ..GameRecord::default()
        };
        for r in self.ledger.moves() {
            record.push_move(r.mv);
        }
        // The printout without its tags (only a FEN tag, for a non-standard start).
        let text = record.to_string();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('[') && !l.is_empty())
            .collect();
        lines.join(" ")
    }

    fn fen(&self) -> String {
        self.board().to_fen()
    }

    fn board_view(&self, links: bool) -> BoardView {
        let mut view = BoardView::new(8, 8, self.board().side_to_move);
        view.status = self.status_now();
        let probs = self.probabilities();
        for sq in Square::ALL {
            if let Some(piece) = self.board().piece(sq) {
                let p = probs[sq.index()];
                if p >= IMPOSSIBLE_PROBABILITY {
                    view.squares[sq.index()] = Some(SquareView {
                        piece: piece.fen_char(),
                        probability: p,
                        mark: None,
                    });
                }
            }
        }
        if links {
            let quantum: Vec<Square> = Square::ALL
                .into_iter()
                .filter(|s| (1e-9..1.0 - 1e-9).contains(&probs[s.index()]))
                .collect();
            for (i, &a) in quantum.iter().enumerate() {
                for &b in &quantum[i + 1..] {
                    let r = self.correlation(a, b);
                    if r.abs() >= LINK_THRESHOLD {
                        view.links.push((a, b, r.clamp(-1.0, 1.0)));
                    }
                }
            }
        }
        view
    }

    fn state_size(&self) -> usize {
        self.backend().state_size()
    }

    fn bell(&self, pair: SquarePair) -> Option<([f64; 8], (f64, f64))> {
        Some((self.bell_expectations(pair), self.same_opposite(pair)))
    }

    fn extras(&self) -> Map<String, Value> {
        // The fifty-move counter, what could be claimed now, and the full measurement that
        // ended the game (docs/rules.md, rule 14).
        let ended = self.full_measurement();
        let mut extras = Map::new();
        extras.insert(
            "endings".into(),
            json!({
                "fifty_move_counter": self.fifty_move_counter().plies,
                "claimable": self.claimable().map(|e| e.as_str()),
                "ended_by": ended.map(|m| m.ending.as_str()),
                "measured_bitboard": ended.map(|m| m.bitboard),
            }),
        );
        extras
    }

    fn claim(&mut self, rng: &mut dyn rand::RngCore) -> Option<Result<Claimed, CantwellError>> {
        let mut uniform = || rand::Rng::gen::<f64>(rng);
        Some(
            self.claim_with(&mut uniform)
                .map(|m| Claimed {
                    ending: m.ending.as_str(),
                    bitboard: m.bitboard,
                })
                .map_err(CantwellError::from),
        )
    }

    fn endings(&self) -> Endings {
        Endings {
            fifty: self.fifty_move_counter().plies,
            claimable: self.claimable().map(|e| e.as_str()),
            measured: self.full_measurement().map(|m| m.ending.as_str()),
        }
    }

    fn set_switch(&mut self, switch: Switch, on: bool) {
        match switch {
            Switch::ForceTurn => self.set_force_turn(on),
            Switch::ForceWin => self.set_force_win(on),
        }
    }

    fn endings_note(&self) -> Option<String> {
        // Two counters (docs/rules.md, rule 14): the FEN's halfmove clock (reset by pawn moves
        // and captures, as in chess) and the official engine's fifty-move counter (reset only
        // when the expected piece count changes), which is the one that ends the game at 100.
        Some(format!(
            "Halfmove clock (FEN): {}   Official fifty-move counter: {}/{}   Can claim: {}{}",
            self.board().halfmove_clock,
            self.fifty_move_counter().plies,
            crate::FIFTY_MOVE_PLIES,
            self.claimable().map_or("nothing", |e| e.as_str()),
            self.full_measurement()
                .map(|m| format!("   Ended by: {} (every square measured)", m.ending.as_str()))
                .unwrap_or_default()
        ))
    }

    fn most_likely_board(&self) -> Option<(String, f64)> {
        if !self.boards_fit(BOARD_BYTES) {
            return None;
        }
        // The first of equally likely boards (in increasing bitboard order) wins.
        let (bitboard, p) = self
            .board_probabilities()
            .into_iter()
            .fold(None, |best, (b, p)| match best {
                Some((_, best_p)) if best_p >= p => best,
                _ => Some((b, p)),
            })?;
        let mut board = self.board().clone();
        for sq in Square::ALL {
            if bitboard >> sq.index() & 1 == 0 {
                board.set_piece(sq, None);
            }
        }
        Some((board.to_fen(), p))
    }

    fn board_distribution(&self) -> Option<Vec<(String, f64)>> {
        if !self.boards_fit(BOARD_BYTES + DESCRIBED_BOARD_BYTES) {
            return None;
        }
        Some(
            self.board_probabilities()
                .into_iter()
                .map(|(bitboard, p)| (describe_board(self.board(), bitboard), p))
                .collect(),
        )
    }
}

/// `Ke1 Nc3 ...` for the occupied squares of a bitboard, with the register's pieces.
fn describe_board(board: &Board, bitboard: u64) -> String {
    let names: Vec<String> = Square::ALL
        .into_iter()
        .filter(|s| bitboard >> s.index() & 1 == 1)
        .map(|s| match board.piece(s) {
            Some(p) => format!("{}{s}", p.fen_char()),
            None => format!("?{s}"),
        })
        .collect();
    if names.is_empty() {
        "(empty board)".into()
    } else {
        names.join(" ")
    }
}

impl Ruleset for Cantwell {
    const NAME: &'static str = "cantwell";
    const GAME_FILE_EXTENSION: &'static str = "qcg";
    const TITLE: &'static str = "Quantum Chess";
    const MENU_TITLE: &'static str = "Quantum Chess (Cantwell)";
    const NOTATION_EXAMPLES: &'static [(&'static str, &'static str)] = &[
        (
            "e2e4  E2E4",
            "a move: the square it leaves, then the square it reaches (any case)",
        ),
        (
            "Ng1f3  nb8c6",
            "the same with the piece's letter first (checked against the board)",
        ),
        ("e1g1", "castling, written as the king's move"),
        (
            "b1xc3  b1wc3",
            "x: a capture; w: a move blocked by a piece in superposition",
        ),
        ("a7a8q", "promotion: the piece's letter after the move"),
        (
            "g1^f3h3",
            "split: the piece goes to both squares at once (a superposition), each half likely",
        ),
        (
            "f3h3^g1",
            "merge: the two halves of a split piece come back together on one square",
        ),
        (
            "b1xc3.m1",
            "a move with its measurement's outcome written in (.m0: it did not happen)",
        ),
    ];
    type Start = Board;
    type Move = QcanMove;
    type Error = CantwellError;
    type Game<B: Backend> = Game<B>;

    fn start(fen: Option<&str>, options: Option<&str>) -> Result<Board, CantwellError> {
        if let Some(o) = options {
            return Err(CantwellError::NoOptions(o.to_string()));
        }
        Ok(match fen {
            Some(f) => Board::from_fen(f)?,
            None => Board::start(),
        })
    }

    fn read_game(text: &str, options: Option<&str>) -> Result<GameRecord, CantwellError> {
        if let Some(o) = options {
            return Err(CantwellError::NoOptions(o.to_string()));
        }
        Ok(GameRecord::parse(text)?)
    }

    fn read_moves(text: &str) -> Result<Vec<WrittenMove<QcanMove>>, CantwellError> {
        Ok(parse_move_list(text)?
            .into_iter()
            .map(WrittenMove::unplaced)
            .collect())
    }

    fn new_game<B: Backend>(start: &Board, backend: B) -> Result<Game<B>, CantwellError> {
        Ok(Game::new(start.clone(), backend)?)
    }

    fn game_for<B: Backend>(text: &GameRecord, backend: B) -> Result<Game<B>, CantwellError> {
        let mut game = Game::new(text.start.clone(), backend)?;
        // Checked before any move is played, so a malformed claim tag is refused up front too.
        tagged_board(text, REPETITION_BOARD_TAG)?;
        game.set_forced_board(tagged_board(text, FIFTY_MOVE_BOARD_TAG)?);
        Ok(game)
    }

    fn finish_replay<B: Backend>(
        text: &GameRecord,
        game: &mut Game<B>,
    ) -> Result<(), CantwellError> {
        let Some(bitboard) = tagged_board(text, REPETITION_BOARD_TAG)? else {
            return Ok(());
        };
        game.set_forced_board(Some(bitboard));
        // The board is forced, so the claim draws no random numbers.
        let result = game.claim_with(&mut || 0.5).map(|_| ());
        game.set_forced_board(None);
        result.map_err(|source| CantwellError::RecordedClaim {
            after_move: text.moves.len(),
            source,
        })
    }

    fn write_game<B: Backend>(
        tags: &[Tag],
        comments: &[Comment],
        start: &Board,
        game: &Game<B>,
    ) -> String {
        let ended = game
            .full_measurement()
            .map(|m| Tag::new(ending_tag(m.ending), format!("{:#018x}", m.bitboard)));
        let mut record = GameRecord {
            tags: tags
                .iter()
                .filter(|t| t.name != FIFTY_MOVE_BOARD_TAG && t.name != REPETITION_BOARD_TAG)
                .cloned()
                .chain(ended)
                .collect(),
            comments: comments.to_vec(),
            ..GameRecord::new(start.clone())
        };
        for r in game.moves() {
            record.push_move(r.mv);
        }
        // A finished game says how it ended, as a PGN result token.
        record.result = game.status().result();
        record.to_string()
    }

    fn start_fen(start: &Board) -> String {
        start.to_fen()
    }

    fn first_ply(start: &Board) -> u32 {
        super::gamefile::first_ply(start)
    }

    fn switch_unsupported(_: Switch) -> Option<&'static str> {
        None
    }

    fn options_name(_: &Board) -> Option<String> {
        None
    }
}
