//! Errors of the Niel's Chess engine: bad position text, bad move text, bad game files, unknown
//! rule options, illegal moves, and backend failures while collapsing. Every variant carries
//! what was wrong in fields (an enum of problems, the squares and pairs involved), so callers
//! match on it; the `Display` text says the same in words.

use crate::chess::{Castling, Piece, Square};
use crate::ruleset::{RightLost, Status};
use qc_ir::BackendError;
use thiserror::Error;

/// Everything that can go wrong in the Niel's Chess module.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum NielsError {
    /// The FEN-like position text is malformed.
    #[error("bad Niel's FEN `{}`: {problem}", crate::ruleset::visible(.text))]
    Fen {
        /// The offending field or token.
        text: String,
        /// What is wrong with it.
        problem: FenProblem,
    },
    /// The move text does not parse.
    #[error("bad Niel's move `{}`: {problem} (at column {column})", crate::ruleset::visible(.text))]
    Notation {
        /// The move text.
        text: String,
        /// The 1-based column (in bytes of the move text) where reading stopped.
        column: usize,
        /// What was expected there.
        problem: MoveProblem,
    },
    /// A move written with recorded outcomes where only a bare move is read.
    #[error("bad Niel's move `{}`: outcomes are not part of a bare move", crate::ruleset::visible(.text))]
    RollsInBareMove {
        /// The move text.
        text: String,
    },
    /// A game file is malformed (outside its moves).
    #[error("Niel's game file line {line}, column {column}: {problem}")]
    GameFile {
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What is wrong.
        problem: GameFileProblem,
    },
    /// A rule option name that is not one of Niel's.
    #[error(
        "unknown Niel's option `{option}` in `{text}` (simplified, full, hadamard, \
         hadamard-plus, deterministic, tunnelling, no-box)"
    )]
    UnknownOption {
        /// The options as written.
        text: String,
        /// The unknown name.
        option: String,
    },
    /// A move of a game file or move list does not parse.
    #[error("move {number} `{}`{}: {source}", crate::ruleset::visible(.text), place(*.line, *.column))]
    BadMove {
        /// The move's 1-based number in the file or list.
        number: usize,
        /// The move as written.
        text: String,
        /// Its line (0 for a move list).
        line: usize,
        /// Its column.
        column: usize,
        /// Why it does not parse.
        source: Box<NielsError>,
    },
    /// The move is not legal in the position.
    #[error("illegal Niel's move `{text}`: {reason}")]
    Illegal {
        /// The move in canonical notation.
        text: String,
        /// Why it is illegal.
        reason: IllegalReason,
    },
    /// A recorded collapse outcome names a square the rolled pair does not occupy.
    #[error("recorded outcome {square} is not a square of the pair rolled ({red} or {blue})")]
    BadOutcome {
        /// The recorded square.
        square: Square,
        /// The pair's red square.
        red: Square,
        /// The pair's blue square.
        blue: Square,
    },
    /// The move needs more (or fewer) recorded outcomes than were given.
    #[error("move `{text}` rolled {rolled} time(s) but {recorded} outcome(s) were recorded")]
    OutcomeCount {
        /// The move in canonical notation.
        text: String,
        /// Rolls the move made.
        rolled: usize,
        /// Outcomes recorded.
        recorded: usize,
    },
    /// The backend failed (an impossible forced outcome, a dirty ancilla, ...).
    #[error("backend error during move {ply}: {source}")]
    Backend {
        /// Ply index (0-based) of the move.
        ply: usize,
        /// The backend's error.
        source: BackendError,
    },
    /// The simulator could not keep what a move needs beside its state (the snapshot to take
    /// the move back): its memory limit, or the allocator refused.
    #[error("the simulator has no room for this move: {0}")]
    Memory(#[from] BackendError),
    /// The game has ended (checkmate, stalemate or a draw), so no move has outcomes.
    #[error("the game is over: {0}")]
    GameOver(Status),
    /// A game file's result token contradicts how its replayed game ended.
    #[error(transparent)]
    ResultContradicts(#[from] crate::ruleset::ResultContradicts),
    /// `undo` with no move played.
    #[error("no move to take back")]
    NothingToUndo,
    /// What undoing this move needs was dropped to keep the undo history within its memory
    /// budget.
    #[error(
        "cannot take back further: older moves were dropped to keep the undo history within \
         {budget_bytes} bytes"
    )]
    UndoBeyondBudget {
        /// The undo budget in bytes.
        budget_bytes: u128,
    },
    /// The circuit and the classical model disagree (an engine bug, reported instead of a panic).
    #[error("internal inconsistency: {0}")]
    Internal(#[from] Inconsistency),
}

/// `, line L, column C` for a move read from a file, nothing for one of a move list (line 0).
fn place(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(", line {line}, column {column}")
    }
}

/// What is wrong with a Niel's FEN.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FenProblem {
    /// Not 4 to 7 space-separated fields.
    #[error("expected 4 to 7 space-separated fields, found {found}")]
    FieldCount {
        /// The fields found.
        found: usize,
    },
    /// Fewer than 4 or more than 8 ranks.
    #[error("{found} ranks; need 4 to 8")]
    RankCount {
        /// The ranks found.
        found: usize,
    },
    /// A rank describes more than 8 squares.
    #[error("rank wider than 8 files")]
    RankTooWide,
    /// A character that is neither a piece letter nor a digit.
    #[error("unexpected character `{found}`")]
    BadPlacementCharacter {
        /// The character.
        found: char,
    },
    /// The first rank's width is not 4 to 8.
    #[error("{files} files; need 4 to 8")]
    Width {
        /// The files the rank describes.
        files: i32,
    },
    /// A rank of another width than the first.
    #[error("{files} files, first rank had {first}")]
    UnevenRank {
        /// The files this rank describes.
        files: i32,
        /// The first rank's.
        first: i32,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move must be `w` or `b`")]
    BadSide,
    /// The en passant field is not `-` or a square of the board.
    #[error("en passant square is not on the board")]
    EnPassantOffBoard,
    /// A move counter that is not decimal digits.
    #[error("{counter} is not a number")]
    CounterNotANumber {
        /// `halfmove clock` or `fullmove number`.
        counter: &'static str,
    },
    /// A move counter above the largest allowed.
    #[error("{counter} is larger than {max}")]
    CounterTooLarge {
        /// `halfmove clock` or `fullmove number`.
        counter: &'static str,
        /// The largest allowed ([`crate::chess::MAX_FEN_COUNTER`]).
        max: u32,
    },
    /// A castling letter other than `KQkq`.
    #[error("unexpected castling letter `{letter}`")]
    BadCastlingLetter {
        /// The letter.
        letter: char,
    },
    /// A castling letter given twice.
    #[error("castling letter `{letter}` given twice")]
    DuplicateCastlingLetter {
        /// The letter.
        letter: char,
    },
    /// A pair token's diagonal is not 1 or 2.
    #[error("diagonal must be 1 or 2")]
    BadDiagonal,
    /// A pair token of the wrong shape.
    #[error("pair token is <piece><red><blue>[<o|p><o|p>]")]
    BadPairToken,
    /// A pair token's piece letter is not one.
    #[error("unknown piece letter")]
    BadPieceLetter,
    /// A pair token's square is not on the board.
    #[error("square not on the board")]
    SquareOffBoard,
    /// A pair token's mark facing is not `o` or `p`.
    #[error("mark facing must be `o` or `p`")]
    BadFacing,
    /// A pair's squares are equal or not empty.
    #[error("pair squares must be two distinct empty squares")]
    PairSquaresTaken,
    /// The position breaks one of the structural rules.
    #[error("{0}")]
    Invariant(#[from] InvariantViolation),
}

/// Which structural rule of a Niel's position is broken ([`crate::niels::NielsPosition::check_invariants`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum InvariantViolation {
    /// A pair with both pieces on one square.
    #[error("pair {pair} has both pieces on {square}")]
    SameSquares {
        /// The pair.
        pair: u32,
        /// The square.
        square: Square,
    },
    /// A pair's square holds something else (or is off the board).
    #[error("pair {pair} square {square} does not hold it")]
    SquareElsewhere {
        /// The pair.
        pair: u32,
        /// The square.
        square: Square,
    },
    /// A pair missing from its group.
    #[error("pair {pair} not in its group")]
    NotInGroup {
        /// The pair.
        pair: u32,
    },
    /// A red mark facing its owner in the Simplified Game.
    #[error("pair {pair}: red mark must face the opponent (Art. 9)")]
    RedFacesOwner {
        /// The pair.
        pair: u32,
    },
    /// A pawn pair whose red piece is not on the farther rank.
    #[error("pawn pair {pair}: red must be on the farther rank")]
    PawnOrder {
        /// The pair.
        pair: u32,
    },
    /// Two pairs of the same piece with the same label.
    #[error("pairs of {piece} share label {label}")]
    SharedLabel {
        /// The piece.
        piece: Piece,
        /// The label.
        label: u8,
    },
    /// A square holding a piece of a pair that no longer exists.
    #[error("square {square} holds a piece of a dead pair {pair}")]
    DeadPair {
        /// The square.
        square: Square,
        /// The pair.
        pair: u32,
    },
    /// A group with no pair.
    #[error("group {group} is empty")]
    EmptyGroup {
        /// The group.
        group: u32,
    },
    /// A group with a diagonal and one pair, or several pairs and none.
    #[error("group {group}: diagonal iff entangled")]
    DiagonalMismatch {
        /// The group.
        group: u32,
    },
    /// A group mixing equal and unequal pairs.
    #[error("group {group} mixes equal and unequal pairs")]
    MixedGroup {
        /// The group.
        group: u32,
    },
    /// Three or more entangled groups.
    #[error("more than two entangled groups")]
    TooManyGroups,
}

/// What the move reader expected where it stopped.
#[derive(Debug, Error, Copy, Clone, PartialEq, Eq)]
pub enum MoveProblem {
    /// A square.
    #[error("expected a square like e4")]
    ExpectedSquare,
    /// A mark facing letter.
    #[error("facing is `o` or `p`")]
    BadFacing,
    /// A promotion piece after `=`.
    #[error("expected a promotion piece")]
    ExpectedPromotion,
    /// A promotion letter other than `q r b n`.
    #[error("promotion piece must be q, r, b or n")]
    BadPromotion,
    /// An entanglement move without `@` and the joined piece's square.
    #[error("expected `@` and the square of the joined piece")]
    ExpectedTarget,
    /// A list of outcomes not separated by `,` or closed by `]`.
    #[error("expected `,` or `]`")]
    ExpectedSeparator,
    /// Text after a complete move.
    #[error("unexpected trailing text")]
    TrailingText,
}

/// What is wrong with a Niel's game file outside its moves.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameFileProblem {
    /// Parts in an order no reader accepts (a tag after the moves, a second `FEN` tag,
    /// anything after the result), as the check every ruleset shares finds them.
    #[error("{0}")]
    Order(#[from] crate::ruleset::OrderProblem),
    /// A malformed `[Name "value"]` tag line, as the reader every ruleset shares finds it (its
    /// column is the error's).
    #[error("bad tag: {0}")]
    Tag(crate::ruleset::TagProblem),
    /// A `{` comment never closed.
    #[error("comment `{{` is never closed")]
    UnclosedComment,
}

/// Why a Niel's move is illegal.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum IllegalReason {
    /// Not one of the side to move's moves here.
    #[error("not a move of the side to move in this position")]
    NotAMove,
    /// The king's castling step without the right to castle on that side.
    #[error("{} has no right to castle {}{lost}", .castling.color.name(), .castling.side_name())]
    NoCastlingRight {
        /// The castling tried.
        castling: Castling,
        /// How the right was lost: the game fills in the move that took it away.
        lost: RightLost,
    },
    /// It could capture the opponent's king.
    #[error("it could capture the king (Art. 6.2.1)")]
    CapturesKing,
    /// One of its collapse outcomes leaves the mover's king in check.
    #[error("it could leave the king in check (collapse to [{}], Art. 7.6)", squares(.rolls))]
    LeavesKingInCheck {
        /// The outcome: the square each roll collapsed to.
        rolls: Vec<Square>,
    },
    /// Recorded rolls that are not one of the move's outcomes.
    #[error("not a possible outcome; possible: {}", .possible.join(" "))]
    ImpossibleRolls {
        /// The move's outcomes, each written with its rolls.
        possible: Vec<String>,
    },
    /// Its outcomes could not be worked out (an inconsistency of the position).
    #[error("{0}")]
    Unplayable(Box<NielsError>),
}

/// Squares joined by commas.
fn squares(list: &[Square]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Where the circuit and the classical model of a Niel's game disagree (an engine bug, reported
/// instead of a panic).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Inconsistency {
    /// A live pair without a qubit.
    #[error("pair {pair} has no qubit")]
    NoQubit {
        /// The pair.
        pair: u32,
    },
    /// A pair the move names that the position does not have.
    #[error("no pair {pair}")]
    NoPair {
        /// The pair.
        pair: u32,
    },
    /// A square the move needs a piece on that holds none (or the wrong kind).
    #[error("no {what} on {square}")]
    Missing {
        /// What was expected (`piece`, `conventional piece`, `pair`).
        what: &'static str,
        /// The square.
        square: Square,
    },
    /// A measurement that wrote no outcome.
    #[error("measurement gave no outcome")]
    NoOutcome,
    /// A forced replay ran out of recorded outcomes.
    #[error("fewer recorded outcomes than rolls")]
    FewerRecordedOutcomes,
    /// A pair measured against its group's collapse or a Hadamard move's parity.
    #[error("pair on {red}/{blue} measured against its group")]
    AgainstGroup {
        /// The pair's red square.
        red: Square,
        /// Its blue square.
        blue: Square,
    },
    /// A Hadamard move's last pair measured against the parity the others and the group's
    /// phase decide.
    #[error("Hadamard move: pair on {red}/{blue} measured against the group's parity")]
    AgainstParity {
        /// The pair's red square.
        red: Square,
        /// Its blue square.
        blue: Square,
    },
    /// A Hadamard move's outcomes that break the parity rule.
    #[error(
        "Hadamard move on a group of {pairs} pairs measured {on_blue:?}, against the parity rule"
    )]
    HadamardParity {
        /// The group's size.
        pairs: usize,
        /// The outcomes (blue or not) per pair.
        on_blue: Vec<bool>,
    },
    /// A step onto a piece of the mover's own side.
    #[error("{from}{to} lands on own piece")]
    OwnPiece {
        /// Departure.
        from: Square,
        /// Arrival.
        to: Square,
    },
}
