//! `go`: a small expectimax search on expected material (docs/uqci.md, "go"), the same for every
//! ruleset: it sees a game only through `QuantumGame`.
//!
//! The evaluation of a position, from the side to move's view, is its expected material: the sum
//! over squares of P(a piece there) x its value (pawn 1, knight 3, bishop 3, rook 5, queen 9,
//! king 100), counted positive for the side to move and negative for the other; an ended game
//! scores +-[`WIN_SCORE`] or 0. A move is worth the expectation over its outcomes
//! ([`QuantumGame::move_outcomes`]: each played with its outcome written in, weighted by its
//! exact probability, then taken back). Depth 1 looks one ply ahead; depth 2 also lets the
//! opponent answer each outcome with its best reply, as long as the positions it visits stay
//! within the ruleset's budget (`qc_rules::Ruleset::SEARCH_BUDGET`).

use qc_rules::{BoardView, Color, MoveOutcome, Piece, PieceKind, QuantumGame, Status};
use rand::SeedableRng;

/// The score of a won game, in pawns.
pub const WIN_SCORE: f64 = 1000.0;

/// The deepest search `go depth N` runs (deeper requests are searched at this depth).
pub const MAX_DEPTH: u32 = 2;

/// The most positions a one-ply search may visit (one per outcome of each legal move: far more
/// than any position has).
pub const DEPTH_ONE_BUDGET: usize = 1_000_000;

/// Scores closer than this are equal (the first move keeps the tie).
const TIE: f64 = 1e-12;

/// A piece's value in pawns.
fn value(kind: PieceKind) -> f64 {
    match kind {
        PieceKind::Pawn => 1.0,
        PieceKind::Knight | PieceKind::Bishop => 3.0,
        PieceKind::Rook => 5.0,
        PieceKind::Queen => 9.0,
        PieceKind::King => 100.0,
    }
}

/// The expected material of `view` for `side`.
fn material(view: &BoardView, side: Color) -> f64 {
    view.squares
        .iter()
        .flatten()
        .filter_map(|s| {
            let piece = Piece::from_fen_char(s.piece)?;
            let sign = if piece.color == side { 1.0 } else { -1.0 };
            Some(sign * value(piece.kind) * s.probability)
        })
        .sum()
}

/// The expected material of `game` for `side`, or the score of an ended game.
pub fn evaluate<G: QuantumGame>(game: &G, side: Color) -> f64 {
    match game.status() {
        Status::Ongoing => material(&game.board_view(false), side),
        Status::Win(winner, _) if winner == side => WIN_SCORE,
        Status::Win(..) => -WIN_SCORE,
        Status::Draw(_) => 0.0,
    }
}

/// Why a search ended early.
pub enum Stopped<E> {
    /// It would visit more positions than its budget.
    Budget,
    /// Playing or taking back a trial move failed (the game may then have moved on).
    Failed(E),
}

/// The best move of a search, its score in pawns and the depth searched.
pub struct Found<M> {
    /// The move, as `moves` lists it.
    pub mv: M,
    /// Its score in pawns, for the side to move.
    pub score: f64,
    /// The depth the score comes from.
    pub depth: u32,
}

/// The best move for the side to move, searched at `depth` (1..=[`MAX_DEPTH`]) if it visits at
/// most `budget` positions (moves played with one outcome; a count, not a time, so that a search
/// gives the same answer on any machine), at depth 1 otherwise ([`Found::depth`] says which);
/// `None` when there is no legal move. Ties go to the first move in `legal_moves` order.
///
/// # Errors
/// [`Stopped::Failed`]: playing or taking back a trial move failed (the game may then have moved
/// on); [`Stopped::Budget`]: even depth 1 would visit more than [`DEPTH_ONE_BUDGET`] positions.
pub fn best_move<G: QuantumGame>(
    game: &mut G,
    depth: u32,
    budget: usize,
) -> Result<Option<Found<G::Move>>, Stopped<G::Error>> {
    let mut left = DEPTH_ONE_BUDGET;
    let Some(shallow) = search(game, 1, &mut left)? else {
        return Ok(None);
    };
    let depth = depth.clamp(1, MAX_DEPTH);
    // Depth 2 visits, for each of the positions depth 1 visited, about as many as the opponent
    // has moves; when that estimate is over the budget, depth 2 is not started at all.
    let visited = DEPTH_ONE_BUDGET - left;
    if depth == 1 || visited.saturating_mul(replies(game, &shallow.mv)?) > budget {
        return Ok(Some(shallow));
    }
    let mut left = budget;
    match search(game, depth, &mut left) {
        Err(Stopped::Budget) => Ok(Some(shallow)),
        deep => deep,
    }
}

/// The number of legal replies after `mv`'s first outcome.
fn replies<G: QuantumGame>(game: &mut G, mv: &G::Move) -> Result<usize, Stopped<G::Error>> {
    let outcomes = game.move_outcomes(mv).map_err(Stopped::Failed)?;
    let Some(first) = outcomes.first() else {
        return Ok(0);
    };
    let mut fixed = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    game.play(&first.mv, &mut fixed).map_err(Stopped::Failed)?;
    let count = game.legal_moves().len();
    game.undo().map_err(Stopped::Failed)?;
    Ok(count)
}

/// [`best_move`] at exactly `depth`, spending one unit of `budget` per position visited.
fn search<G: QuantumGame>(
    game: &mut G,
    depth: u32,
    budget: &mut usize,
) -> Result<Option<Found<G::Move>>, Stopped<G::Error>> {
    let mut best: Option<Found<G::Move>> = None;
    for mv in game.legal_moves() {
        // A listed move whose outcomes the engine refuses cannot be played, so it is no
        // candidate (Quantum Chess lists a few that only change the state's global phase).
        let Ok(outcomes) = game.move_outcomes(&mv.mv) else {
            continue;
        };
        let score = expected_score(game, outcomes, depth, budget)?;
        if best.as_ref().is_none_or(|b| score > b.score + TIE) {
            best = Some(Found {
                mv: mv.mv,
                score,
                depth,
            });
        }
    }
    Ok(best)
}

/// The expected score, for the side to move, of the move whose `outcomes` are given,
/// searching `depth` plies.
fn expected_score<G: QuantumGame>(
    game: &mut G,
    outcomes: Vec<MoveOutcome<G::Move>>,
    depth: u32,
    budget: &mut usize,
) -> Result<f64, Stopped<G::Error>> {
    let side = game.side_to_move();
    let mut total = 0.0;
    for outcome in outcomes {
        *budget = budget.checked_sub(1).ok_or(Stopped::Budget)?;
        // The move's own outcome is written in; randomness beyond it (the measurement of every
        // square at the fifty-move limit) is sampled with a fixed seed, so that a search is
        // repeatable.
        let mut fixed = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        game.play(&outcome.mv, &mut fixed)
            .map_err(Stopped::Failed)?;
        let score = if depth > 1 && !game.status().is_over() {
            search(game, depth - 1, budget).map(|reply| match reply {
                Some(reply) => -reply.score,
                None => evaluate(game, side),
            })
        } else {
            Ok(evaluate(game, side))
        };
        game.undo().map_err(Stopped::Failed)?;
        total += outcome.probability * score?;
    }
    Ok(total)
}
