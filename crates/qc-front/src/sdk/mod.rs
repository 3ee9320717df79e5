//! The official Quantum Chess app's AI protocol, as pure functions: the JSON a custom AI
//! receives (`{view, clock}`, the shapes of the app's public SDK, `QCEngineView` and `QCClock`),
//! the exact game rebuilt from it, and the answer in the SDK's `QCMoveChoice` shape.
//!
//! The types here are written from the SDK's published TypeScript types (MIT-licensed). Only the
//! fields qchess reads are required: `view.gameData.board`, `view.sideToMove`,
//! `view.legalMoves.{standard,splits,merges}` and `view.moveHistory[*].{moveString,
//! wasMeasurement}`; the others are read when present. Squares are numbered 0-63 from a1
//! (a1 = 0, b1 = 1, ..., h8 = 63), as in qchess.
//!
//! The state is rebuilt from `view.moveHistory`, from `view.gameData.position.startingFen` (the
//! standard start when absent): each record's `moveString` (`e2-e4`, `e5-d6ep`, `e7-e8Q`,
//! `b1^a3c3`, `a3c3^b5`, with or without `.m0`/`.m1`) is read into QCAN, and its outcome is
//! written in from `measurementPassed` (`.m1` when it passed or nothing was measured: the move
//! was applied; `.m0` when it failed or `wasBlocked`). Replaying forces those outcomes, so the
//! state is exactly the app's. A history qchess cannot replay (an outcome impossible here, a move
//! qchess's rules refuse) is an error with the move's number, and so is a rebuilt state whose
//! square probabilities differ from `gameData.board.probabilities` by more than
//! [`PROBABILITY_TOLERANCE`] (the app's board and qchess's would not be the same game).

use qc_engine::limits::{Limits, StopFlag};
use qc_engine::search::{Found, Searcher};
use qc_ir::Backend;
use qc_rules::Square;
use qc_rules::{Cantwell, Color, MoveShape, PieceKind, QcanMove, QuantumGame, Ruleset};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use thiserror::Error;

/// The body of `POST /move`: the view of the game and the clock (`null` when untimed).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveRequest {
    /// The game as the app shows it to the AI.
    pub view: EngineView,
    /// The clock, when the game is timed.
    #[serde(default)]
    pub clock: Option<Clock>,
}

/// `QCEngineView`: a read-only snapshot of the game.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct EngineView {
    /// The board and the position's identity.
    pub game_data: GameData,
    /// `white` or `black`.
    pub side_to_move: Side,
    /// Every legal move for the side to move.
    pub legal_moves: LegalMoveSet,
    /// The moves played so far.
    pub move_history: Vec<MoveRecord>,
    /// Whether quantum moves are on.
    #[serde(default)]
    pub quantum_enabled: Option<bool>,
    /// The rules configuration (kept as given; qchess plays Quantum Chess's rules).
    #[serde(default)]
    pub rules: Option<serde_json::Value>,
}

/// A side, as the SDK spells it.
#[derive(Copy, Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// `white`.
    White,
    /// `black`.
    Black,
}

impl Side {
    /// The colour.
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// `QChessGameData`: the position's identity and the board.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GameData {
    /// Where the game started and the moves played (`QChessPosition`).
    #[serde(default)]
    pub position: Option<PositionData>,
    /// The board as displayed (`QChessBoardState`).
    pub board: BoardState,
}

/// `QChessPosition`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PositionData {
    /// The classical start position (FEN).
    #[serde(default)]
    pub starting_fen: Option<String>,
    /// Moves that set up a quantum start before the game, played from `startingFen` before the
    /// history (a measured one needs its `.m0`/`.m1`: a setup move has no record of it).
    #[serde(default)]
    pub setup_moves: Option<Vec<String>>,
    /// The game's move strings.
    #[serde(default)]
    pub history: Option<Vec<String>>,
}

/// `QChessBoardState`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct BoardState {
    /// 64 FEN letters (`.` for an empty square).
    pub pieces: Vec<String>,
    /// 64 probabilities of occupation.
    pub probabilities: Vec<f64>,
    /// Plies played.
    pub ply: u32,
    /// The fifty-move counter.
    #[serde(default)]
    pub fifty_count: Option<u32>,
    /// The piece count at the counter's last reset.
    #[serde(default)]
    pub fifty_piece_count: Option<f64>,
    /// Castling flags (bit 0 white O-O, 1 black O-O, 2 white O-O-O, 3 black O-O-O).
    #[serde(default)]
    pub castle_flags: Option<u32>,
    /// The en passant square (-1 for none).
    #[serde(default)]
    pub en_passant_square: Option<i32>,
}

/// `QCLegalMoveSet`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LegalMoveSet {
    /// Standard moves.
    pub standard: Vec<StandardOption>,
    /// Splits.
    pub splits: Vec<SplitOption>,
    /// Merges.
    pub merges: Vec<MergeOption>,
    /// Their number.
    #[serde(default)]
    pub count: Option<u32>,
}

/// `QCMoveOption` (the fields qchess reads; others are ignored).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StandardOption {
    /// Source square.
    pub from: u8,
    /// Target square.
    pub to: u8,
    /// The promotion pieces, for a promotion.
    #[serde(default)]
    pub promotion_choices: Option<Vec<String>>,
}

/// `QCSplitOption`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SplitOption {
    /// Source square.
    pub from: u8,
    /// First target (the one the split names first).
    pub target_a: u8,
    /// Second target.
    pub target_b: u8,
}

/// `QCMergeOption`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MergeOption {
    /// First source.
    pub source_a: u8,
    /// Second source.
    pub source_b: u8,
    /// Target.
    pub to: u8,
}

/// `QCMoveRecord`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MoveRecord {
    /// The move (`e2-e4`, `b1^a3c3`, `e7-e8Q.m1`).
    pub move_string: String,
    /// Whether a measurement happened.
    pub was_measurement: bool,
    /// If measured, whether it passed (the move was applied).
    #[serde(default)]
    pub measurement_passed: Option<bool>,
    /// Whether a failed measurement blocked the move.
    #[serde(default)]
    pub was_blocked: Option<bool>,
}

/// `QCClock`, in milliseconds.
#[derive(Copy, Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    /// Time left for the side to move.
    pub remaining_ms: f64,
    /// Increment per move.
    #[serde(default)]
    pub increment_ms: f64,
    /// The opponent's time left.
    #[serde(default)]
    pub opponent_remaining_ms: f64,
}

/// `QCMoveChoice`: the answer.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum MoveChoice {
    /// A standard move (also castling, as the king's move).
    Standard {
        /// Source square.
        from: u8,
        /// Target square.
        to: u8,
        /// The promotion piece's letter, lowercase.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        promotion: Option<String>,
    },
    /// A split.
    Split {
        /// Source square.
        from: u8,
        /// First target.
        #[serde(rename = "targetA")]
        target_a: u8,
        /// Second target.
        #[serde(rename = "targetB")]
        target_b: u8,
    },
    /// A merge.
    Merge {
        /// First source.
        #[serde(rename = "sourceA")]
        source_a: u8,
        /// Second source.
        #[serde(rename = "sourceB")]
        source_b: u8,
        /// Target.
        to: u8,
    },
}

/// Why a view could not be answered (an HTTP server answers 400 with this message).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SdkError {
    /// The body is not the SDK's JSON (bad JSON, a missing field, a wrong type).
    #[error("the request is not {{view, clock}} in the SDK's shape: {0}")]
    Json(String),
    /// A move string of the history does not read as a move.
    #[error("moveHistory[{index}]: `{text}` is not a move ({reason})")]
    BadMoveString {
        /// Its index in `moveHistory`.
        index: usize,
        /// The move string (at most 40 characters).
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A measured move without `measurementPassed`, or whose string's `.m0`/`.m1` contradicts it.
    #[error("moveHistory[{index}]: {reason}")]
    BadOutcome {
        /// Its index in `moveHistory`.
        index: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// A move of `gameData.position.setupMoves` (the moves that set up a quantum start) does
    /// not read or cannot be played.
    #[error("gameData.position.setupMoves[{index}] `{text}`: {reason}")]
    SetupMove {
        /// Its index in `setupMoves`.
        index: usize,
        /// The move string as given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The start position does not read.
    #[error("gameData.position.startingFen: {0}")]
    StartingFen(String),
    /// A move of the history cannot be replayed under qchess's rules.
    #[error("moveHistory[{index}] `{text}` cannot be replayed: {reason}")]
    Replay {
        /// Its index in `moveHistory`.
        index: usize,
        /// The move as qchess read it.
        text: String,
        /// Why the game refused it.
        reason: String,
    },
    /// `sideToMove` is not the side the history leaves to move.
    #[error("sideToMove is {given}, but the history leaves {actual} to move")]
    SideToMove {
        /// What the view says.
        given: &'static str,
        /// What the replay says.
        actual: &'static str,
    },
    /// `gameData.board.probabilities` does not have 64 entries.
    #[error("gameData.board.probabilities has {0} entries, expected 64 (a1 = 0 ... h8 = 63)")]
    ProbabilityCount(usize),
    /// The state rebuilt from the history is not the one the view shows.
    #[error("the state rebuilt from moveHistory gives {square} a probability of {rebuilt:.6}, but gameData.board.probabilities says {view:.6}: the history does not describe this board")]
    Disagrees {
        /// The first square that differs.
        square: String,
        /// What the view says.
        view: f64,
        /// What the rebuilt state says.
        rebuilt: f64,
    },
    /// The game is already over after the history.
    #[error("the game is over after the history ({0})")]
    GameOver(String),
    /// No legal move both qchess and the view list.
    #[error("no move is legal both in qchess and in view.legalMoves ({view} listed by the view)")]
    NoLegalMove {
        /// The number of moves the view lists.
        view: usize,
    },
}

/// Reads a request body.
///
/// # Errors
/// [`SdkError::Json`] with serde's message (which names a missing field and where).
pub fn parse_request(body: &str) -> Result<MoveRequest, SdkError> {
    serde_json::from_str(body).map_err(|e| SdkError::Json(e.to_string()))
}

/// A square's number (0-63 from a1).
fn number(square: Square) -> u8 {
    square.index() as u8
}

/// Reads one of the SDK's move strings into QCAN without outcome and without variant marks
/// (qchess classifies the move itself), and the outcome written in it, if any.
///
/// # Errors
/// [`SdkError::BadMoveString`] when the string has no move's shape.
pub fn read_move_string(index: usize, text: &str) -> Result<(String, Option<bool>), SdkError> {
    let bad = |reason| SdkError::BadMoveString {
        index,
        text: text.chars().take(40).collect(),
        reason,
    };
    let mut rest = text.trim();
    let mut outcome = None;
    for (suffix, value) in [(".m0", false), (".m1", true)] {
        if let Some(stripped) = rest.strip_suffix(suffix) {
            rest = stripped;
            outcome = Some(value);
        }
    }
    let square_at = |s: &str| s.get(..2).and_then(Square::parse);
    // An optional piece letter before the first square.
    if let Some(first) = rest.chars().next() {
        if "pnbrqkPNBRQK".contains(first) && square_at(&rest[1..]).is_some() {
            rest = &rest[1..];
        }
    }
    let mut squares = Vec::new();
    let mut caret = None;
    let mut promotion = None;
    while !rest.is_empty() {
        if let Some(square) = square_at(rest) {
            if promotion.is_some() {
                return Err(bad("a square after the promotion piece"));
            }
            squares.push(square);
            rest = &rest[2..];
        } else if let Some(stripped) = rest.strip_prefix("ep") {
            rest = stripped;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            match c {
                '^' if caret.is_none() => caret = Some(squares.len()),
                '-' | 'x' | 'w' => {}
                'n' | 'b' | 'r' | 'q' | 'N' | 'B' | 'R' | 'Q' if promotion.is_none() => {
                    promotion = PieceKind::from_letter(c);
                }
                _ => return Err(bad("unexpected character")),
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    let promo = promotion.map_or(String::new(), |k| {
        k.letter().to_ascii_lowercase().to_string()
    });
    let qcan = match (caret, squares.as_slice()) {
        (None, [s, t]) => format!("{s}{t}{promo}"),
        (Some(1), [s, a, b]) if promotion.is_none() => format!("{s}^{a}{b}"),
        (Some(2), [a, b, t]) if promotion.is_none() => format!("{a}{b}^{t}"),
        _ => return Err(bad("expected two squares, a split s^ab or a merge ab^t")),
    };
    Ok((qcan, outcome))
}

/// The moves of the view's history in QCAN, each with its outcome written in (see the module
/// docs), and the start FEN (`None`: the standard start).
///
/// # Errors
/// A move string that does not read, a measured move without its outcome, or an outcome that
/// contradicts the move string.
pub fn history(view: &EngineView) -> Result<(Option<String>, Vec<String>), SdkError> {
    let position = view.game_data.position.as_ref();
    let start = position.and_then(|p| p.starting_fen.clone());
    let mut moves = Vec::with_capacity(view.move_history.len());
    for (index, record) in view.move_history.iter().enumerate() {
        let (qcan, written) = read_move_string(index, &record.move_string)?;
        let applied = if record.was_measurement {
            record.measurement_passed.ok_or(SdkError::BadOutcome {
                index,
                reason: "wasMeasurement is true but measurementPassed is missing",
            })?
        } else {
            record.was_blocked != Some(true)
        };
        if record.was_blocked == Some(true) && applied {
            return Err(SdkError::BadOutcome {
                index,
                reason: "wasBlocked is true but measurementPassed is true",
            });
        }
        if written.is_some_and(|w| w != applied) {
            return Err(SdkError::BadOutcome {
                index,
                reason: "the move string's .m0/.m1 contradicts measurementPassed",
            });
        }
        moves.push(with_outcome(&qcan, applied));
    }
    Ok((start, moves))
}

/// A QCAN move with its outcome written in: `.m1` applied, `.m0` not.
fn with_outcome(qcan: &str, applied: bool) -> String {
    format!("{qcan}{}", if applied { ".m1" } else { ".m0" })
}

/// Plays the view's `setupMoves` on `game`. A setup move has no record of a measurement, so
/// one that measures must say its outcome in its string (`.m0`/`.m1`); one that cannot measure
/// is played as it is.
///
/// # Errors
/// [`SdkError::SetupMove`]: a move that does not read, measures without its outcome, or that
/// the rules refuse.
fn play_setup<B: Backend>(
    game: &mut <Cantwell as Ruleset>::Game<B>,
    view: &EngineView,
    rng: &mut dyn rand::RngCore,
) -> Result<(), SdkError> {
    let setup = view
        .game_data
        .position
        .as_ref()
        .and_then(|p| p.setup_moves.as_deref())
        .unwrap_or_default();
    for (index, given) in setup.iter().enumerate() {
        let refuse = |reason: String| SdkError::SetupMove {
            index,
            text: given.chars().take(40).collect(),
            reason,
        };
        let (qcan, written) = read_move_string(index, given).map_err(|e| match e {
            SdkError::BadMoveString { reason, .. } => refuse(format!("not a move ({reason})")),
            other => refuse(other.to_string()),
        })?;
        let text = match written {
            Some(applied) => with_outcome(&qcan, applied),
            None => only_outcome(game, &qcan).map_err(refuse)?,
        };
        game.play_text(&text, rng)
            .map_err(|e| refuse(e.to_string()))?;
    }
    Ok(())
}

/// `qcan` with its outcome written in, when it has a single one here; a setup move that
/// measures has no record of its outcome, so the reason it cannot be played otherwise.
fn only_outcome<B: Backend>(
    game: &mut <Cantwell as Ruleset>::Game<B>,
    qcan: &str,
) -> Result<String, String> {
    let mv: QcanMove = qcan.parse().map_err(|e| format!("not a move ({e})"))?;
    match game
        .move_outcomes(&mv)
        .map_err(|e| e.to_string())?
        .as_slice()
    {
        [only] => Ok(only.mv.to_string()),
        _ => Err(
            "the move measures, and a setup move has no record of the outcome: \
                  write it as .m0 or .m1"
                .into(),
        ),
    }
}

/// The SDK's answer for a QCAN move; `None` for the null move (no answer has that shape).
pub fn choice_of(mv: &QcanMove) -> Option<MoveChoice> {
    Some(match mv.shape {
        MoveShape::Standard { source, target } => MoveChoice::Standard {
            from: number(source),
            to: number(target),
            promotion: mv
                .promotion
                .map(|k| k.letter().to_ascii_lowercase().to_string()),
        },
        MoveShape::Split {
            source,
            target1,
            target2,
        } => MoveChoice::Split {
            from: number(source),
            target_a: number(target1),
            target_b: number(target2),
        },
        MoveShape::Merge {
            source1,
            source2,
            target,
        } => MoveChoice::Merge {
            source_a: number(source1),
            source_b: number(source2),
            to: number(target),
        },
        MoveShape::Null => return None,
    })
}

/// Whether the view lists `choice` as legal (a promotion must be one of its choices when the
/// view lists them).
pub fn listed(choice: &MoveChoice, legal: &LegalMoveSet) -> bool {
    match choice {
        MoveChoice::Standard {
            from,
            to,
            promotion,
        } => legal.standard.iter().any(|o| {
            o.from == *from
                && o.to == *to
                && match (&o.promotion_choices, promotion) {
                    (Some(choices), Some(p)) => choices.iter().any(|c| c.eq_ignore_ascii_case(p)),
                    (Some(choices), None) => choices.is_empty(),
                    (None, _) => true,
                }
        }),
        MoveChoice::Split {
            from,
            target_a,
            target_b,
        } => legal.splits.iter().any(|o| {
            o.from == *from
                && ((o.target_a == *target_a && o.target_b == *target_b)
                    || (o.target_a == *target_b && o.target_b == *target_a))
        }),
        MoveChoice::Merge {
            source_a,
            source_b,
            to,
        } => legal.merges.iter().any(|o| {
            o.to == *to
                && ((o.source_a == *source_a && o.source_b == *source_b)
                    || (o.source_a == *source_b && o.source_b == *source_a))
        }),
    }
}

/// The most an answer may take when the game is untimed.
pub const UNTIMED_MOVE_TIME: Duration = Duration::from_secs(1);

/// The search limits a clock gives: its share of the time left (see [`Limits::budget`]), or
/// `untimed` when there is no clock.
pub fn limits_for(clock: Option<&Clock>, untimed: Duration) -> Limits {
    let ms = |x: f64| Duration::from_secs_f64((x.max(0.0) / 1000.0).min(86_400.0));
    match clock {
        Some(c) if c.remaining_ms.is_finite() => Limits {
            clock: Some(ms(c.remaining_ms)),
            increment: if c.increment_ms.is_finite() {
                ms(c.increment_ms)
            } else {
                Duration::ZERO
            },
            ..Limits::default()
        },
        _ => Limits::move_time(untimed),
    }
}

/// The time [`answer`] searches `request`: the clock's share (or `untimed` without a clock),
/// never longer than `most`.
pub fn move_limits(request: &MoveRequest, untimed: Duration, most: Duration) -> Limits {
    let share = limits_for(request.clock.as_ref(), untimed)
        .budget()
        .unwrap_or(most);
    Limits::move_time(share.min(most))
}

/// How far a rebuilt square probability may be from the view's (the app may send single
/// precision).
pub const PROBABILITY_TOLERANCE: f64 = 1e-4;

/// An answer and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move in the SDK's shape.
    pub choice: MoveChoice,
    /// The same move in QCAN.
    pub qcan: QcanMove,
    /// The search behind it.
    pub found: Found<QcanMove>,
    /// Where the view's legal moves and qchess's differ (empty when they agree).
    pub differences: LegalDifferences,
}

/// Where `view.legalMoves` and qchess's own legal moves differ. The answer is chosen among the
/// moves both list, so it is legal in the app and replays here; a difference means the app's
/// rules configuration and qchess's differ, which a server reports as a warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalDifferences {
    /// Moves qchess finds legal that the view does not list (QCAN).
    pub only_here: Vec<String>,
    /// Moves the view lists that qchess does not find legal.
    pub only_in_view: Vec<MoveChoice>,
}

impl LegalDifferences {
    /// Whether the two lists agree.
    pub fn is_empty(&self) -> bool {
        self.only_here.is_empty() && self.only_in_view.is_empty()
    }
}

impl std::fmt::Display for LegalDifferences {
    /// `N move(s) only qchess finds legal (e2e4, ...); M only the view lists (...)`, at most
    /// [`DIFFERENCES_SHOWN`] of each named.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |list: Vec<String>| {
            let more = list.len().saturating_sub(DIFFERENCES_SHOWN);
            let mut shown: Vec<String> = list.into_iter().take(DIFFERENCES_SHOWN).collect();
            if more > 0 {
                shown.push(format!("{more} more"));
            }
            shown.join(", ")
        };
        let in_view: Vec<String> = self
            .only_in_view
            .iter()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
            .collect();
        write!(
            f,
            "{} move(s) only qchess finds legal ({}); {} only view.legalMoves lists ({})",
            self.only_here.len(),
            names(self.only_here.clone()),
            self.only_in_view.len(),
            names(in_view)
        )
    }
}

/// How many moves of each side of a [`LegalDifferences`] its text names.
pub const DIFFERENCES_SHOWN: usize = 5;

/// The moves of `view` in the SDK's shape (a standard move without its promotion piece).
fn view_choices(legal: &LegalMoveSet) -> Vec<MoveChoice> {
    let standard = legal.standard.iter().map(|o| MoveChoice::Standard {
        from: o.from,
        to: o.to,
        promotion: None,
    });
    let splits = legal.splits.iter().map(|o| MoveChoice::Split {
        from: o.from,
        target_a: o.target_a,
        target_b: o.target_b,
    });
    let merges = legal.merges.iter().map(|o| MoveChoice::Merge {
        source_a: o.source_a,
        source_b: o.source_b,
        to: o.to,
    });
    standard.chain(splits).chain(merges).collect()
}

/// Compares the view's legal moves with `here`, qchess's legal moves of the same position.
pub fn legal_differences(here: &[QcanMove], view: &LegalMoveSet) -> LegalDifferences {
    let mut mine = LegalMoveSet {
        standard: Vec::new(),
        splits: Vec::new(),
        merges: Vec::new(),
        count: None,
    };
    let mut only_here = Vec::new();
    for mv in here {
        let Some(choice) = choice_of(mv) else {
            continue;
        };
        if !listed(&choice, view) {
            only_here.push(mv.to_string());
        }
        match choice {
            MoveChoice::Standard { from, to, .. } => mine.standard.push(StandardOption {
                from,
                to,
                promotion_choices: None,
            }),
            MoveChoice::Split {
                from,
                target_a,
                target_b,
            } => mine.splits.push(SplitOption {
                from,
                target_a,
                target_b,
            }),
            MoveChoice::Merge {
                source_a,
                source_b,
                to,
            } => mine.merges.push(MergeOption {
                source_a,
                source_b,
                to,
            }),
        }
    }
    let only_in_view = view_choices(view)
        .into_iter()
        .filter(|c| !listed(c, &mine))
        .collect();
    LegalDifferences {
        only_here,
        only_in_view,
    }
}

/// The game `request` describes, rebuilt exactly on `backend` (see the module docs).
///
/// # Errors
/// See [`SdkError`]: the start, a move of the history, the side to move, or a game already over.
pub fn rebuild<B: Backend>(
    request: &MoveRequest,
    backend: B,
) -> Result<<Cantwell as Ruleset>::Game<B>, SdkError> {
    let (fen, moves) = history(&request.view)?;
    let start =
        Cantwell::start(fen.as_deref(), None).map_err(|e| SdkError::StartingFen(e.to_string()))?;
    let mut game =
        Cantwell::new_game(&start, backend).map_err(|e| SdkError::StartingFen(e.to_string()))?;
    // Every outcome is written in; only a fifty-move measurement of every square would draw.
    let mut fixed = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
    play_setup(&mut game, &request.view, &mut fixed)?;
    for (index, text) in moves.iter().enumerate() {
        game.play_text(text, &mut fixed)
            .map_err(|e| SdkError::Replay {
                index,
                text: text.clone(),
                reason: e.to_string(),
            })?;
    }
    let shown = &request.view.game_data.board.probabilities;
    if shown.len() != 64 {
        return Err(SdkError::ProbabilityCount(shown.len()));
    }
    let view = game.board_view(false);
    for square in Square::ALL {
        let rebuilt = view.get(square).map_or(0.0, |s| s.probability);
        let given = shown[square.index()];
        if !(given - rebuilt).abs().le(&PROBABILITY_TOLERANCE) {
            return Err(SdkError::Disagrees {
                square: square.to_string(),
                view: given,
                rebuilt,
            });
        }
    }
    let status = QuantumGame::status(&game);
    if status.is_over() {
        return Err(SdkError::GameOver(status.to_string()));
    }
    let side = QuantumGame::side_to_move(&game);
    if side != request.view.side_to_move.color() {
        let name = |c: Color| match c {
            Color::White => "white",
            Color::Black => "black",
        };
        return Err(SdkError::SideToMove {
            given: name(request.view.side_to_move.color()),
            actual: name(side),
        });
    }
    Ok(game)
}

/// Answers `request`: rebuilds the game on `backend`, searches it with `searcher` within the
/// clock's share (or `untimed` without a clock), never longer than `most` (`stop` ends it
/// early), among the moves both the view and qchess list as legal, and gives the best in the
/// SDK's shape with the differences between the two lists.
///
/// # Errors
/// See [`SdkError`]; a failed trial move of the search is [`SdkError::Replay`].
pub fn answer<B: Backend>(
    request: &MoveRequest,
    backend: B,
    searcher: &mut Searcher,
    untimed: Duration,
    most: Duration,
    stop: StopFlag,
) -> Result<Answer, SdkError> {
    answer_telling(request, backend, searcher, untimed, most, stop, |_| {})
}

/// [`answer`], handing `found` the differences between the two lists as soon as they are known,
/// before the search starts: a server that answers on time with the move a search still
/// running published (`qc_engine::ontime`) can still say where the lists differ.
///
/// # Errors
/// See [`answer`].
pub fn answer_telling<B: Backend>(
    request: &MoveRequest,
    backend: B,
    searcher: &mut Searcher,
    untimed: Duration,
    most: Duration,
    stop: StopFlag,
    found: impl FnOnce(&LegalDifferences),
) -> Result<Answer, SdkError> {
    let mut game = rebuild(request, backend)?;
    let legal = &request.view.legal_moves;
    let here: Vec<QcanMove> = QuantumGame::legal_moves(&game)
        .into_iter()
        .map(|m| m.mv)
        .collect();
    let differences = legal_differences(&here, legal);
    found(&differences);
    let allowed = |mv: &QcanMove| choice_of(mv).is_some_and(|c| listed(&c, legal));
    let limits = move_limits(request, untimed, most);
    let found = searcher
        .search_among(&mut game, &limits, stop, &allowed, &mut |_| {})
        .map_err(|e| SdkError::Replay {
            index: request.view.move_history.len(),
            text: "(search)".into(),
            reason: e.to_string(),
        })?;
    let view_count = legal.standard.len() + legal.splits.len() + legal.merges.len();
    let qcan = found
        .best
        .ok_or(SdkError::NoLegalMove { view: view_count })?;
    let choice = choice_of(&qcan).ok_or(SdkError::NoLegalMove { view: view_count })?;
    Ok(Answer {
        choice,
        qcan,
        found,
        differences,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_strings_read_into_qcan() {
        let read = |t: &str| read_move_string(0, t);
        assert_eq!(read("e2-e4"), Ok(("e2e4".into(), None)));
        assert_eq!(read("e5-d6ep"), Ok(("e5d6".into(), None)));
        assert_eq!(read("e7-e8Q.m1"), Ok(("e7e8q".into(), Some(true))));
        assert_eq!(read("b1^a3c3"), Ok(("b1^a3c3".into(), None)));
        assert_eq!(read("a3c3^b5.m0"), Ok(("a3c3^b5".into(), Some(false))));
        assert_eq!(read("Nb1xc3"), Ok(("b1c3".into(), None)));
        assert_eq!(read("b1^wa3c3"), Ok(("b1^a3c3".into(), None)));
        for bad in [
            "", "e2", "e2-e4-e5", "z9z9", "b1^a3", "e2é4", "a7a8qq", "b1^^a3c3",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn choices_have_the_sdk_shape() {
        let json = |t: &str| {
            let mv: QcanMove = t.parse().expect(t);
            serde_json::to_string(&choice_of(&mv).expect(t)).expect("json")
        };
        assert_eq!(json("e2e4"), r#"{"type":"standard","from":12,"to":28}"#);
        assert_eq!(
            json("e7e8q"),
            r#"{"type":"standard","from":52,"to":60,"promotion":"q"}"#
        );
        assert_eq!(
            json("b1^a3c3"),
            r#"{"type":"split","from":1,"targetA":16,"targetB":18}"#
        );
        assert_eq!(
            json("a3c3^b5"),
            r#"{"type":"merge","sourceA":16,"sourceB":18,"to":33}"#
        );
        assert_eq!(choice_of(&"0000".parse().expect("null")), None);
    }
}
