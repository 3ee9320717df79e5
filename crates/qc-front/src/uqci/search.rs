//! `go`: a small expectimax search on expected material (docs/uqci.md, "go"), the same for every
//! ruleset: it sees a game only through `QuantumGame`.
//!
//! The evaluation of a position, from the side to move's view, is its expected material: the sum
//! over squares of P(a piece there) x its value (the engine's values: pawn 1, knight 3,
//! bishop 3.25, rook 5, queen 9, king 200), counted positive for the side to move and negative
//! for the other; an ended game scores +-[`WIN_SCORE`] or 0. A move is worth the expectation over its outcomes
//! ([`QuantumGame::move_outcomes`]: each played with its outcome written in, weighted by its
//! exact probability, then taken back). Depth 1 looks one ply ahead; depth 2 also lets the
//! opponent answer each outcome with its best reply, as long as the positions it visits stay
//! within the ruleset's budget (`qc_rules::Ruleset::SEARCH_BUDGET`). Both depths also stop when
//! the basis states of the positions they played from add up to [`BARE_GO_WORK`]: a count of
//! positions alone let a one-ply search of a big superposition run for minutes, each position
//! costing as much as its state is large. A count of work, not a clock, so that the answer does
//! not depend on the machine's speed or load (a 10-second clock made the same session answer
//! differently on a busy machine).

use qc_rules::{BoardView, Color, MoveOutcome, Piece, PieceKind, QuantumGame, Status};
use rand::SeedableRng;

/// The most work a bare `go` or `go depth N` may do: the basis states of the positions it plays
/// moves from, summed (one move costs about as much as its state is large). Depth 2 with a rook
/// against a queen (131 moves, about 180 replies each, on states of a few basis states) spends
/// about 60,000, the start position's depth 1 a few dozen; a big superposition (80 plies, 7,128
/// basis states, 265 legal moves: 45 s for depth 1 uncut) stops after about 280 positions.
pub const BARE_GO_WORK: u64 = 2_000_000;

/// The score of a won game, in pawns.
pub const WIN_SCORE: f64 = 1000.0;

/// The deepest search `go depth N` runs (deeper requests are searched at this depth).
pub const MAX_DEPTH: u32 = 2;

/// The most positions a one-ply search may visit (one per outcome of each legal move: far more
/// than any position has).
pub const DEPTH_ONE_BUDGET: usize = 1_000_000;

/// Scores closer than this are equal (the first move keeps the tie).
const TIE: f64 = 1e-12;

/// A piece's value in pawns: the engine's own (`qc_engine::eval::piece_value` with its full
/// weights), so that the bare search and the timed one weigh material alike.
fn value(kind: PieceKind) -> f64 {
    qc_engine::eval::piece_value(kind, &qc_engine::eval::Weights::FULL)
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
    /// Its work budget ran out.
    Work,
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
    /// How many of the legal moves were searched at [`Found::depth`], when the work budget
    /// cut that depth short (`None`: all of them).
    pub cut_after: Option<usize>,
    /// Whether the work budget ([`BARE_GO_WORK`]) kept a deeper search from finishing.
    pub out_of_work: bool,
}

/// What a search may still spend: positions, and work (basis states of the positions moves are
/// played from).
struct Allowance {
    positions: usize,
    work: u64,
}

impl Allowance {
    /// Spends one position, played from a state of `states` basis states.
    fn visit<E>(&mut self, states: usize) -> Result<(), Stopped<E>> {
        self.positions = self.positions.checked_sub(1).ok_or(Stopped::Budget)?;
        self.work = self.work.saturating_sub(states as u64);
        Ok(())
    }

    fn out_of_work(&self) -> bool {
        self.work == 0
    }
}

/// The best move for the side to move, searched at `depth` (1..=[`MAX_DEPTH`]) if it visits at
/// most `budget` positions (moves played with one outcome) and `work` (see [`BARE_GO_WORK`]), at depth
/// 1 otherwise ([`Found::depth`] says which); counts, so that a search gives the same answer on
/// any machine under any load. `None` when there is no legal move. Ties go to the first move in
/// `legal_moves` order. When the work runs out during depth 1, the best of the moves searched so
/// far answers (at least the first is searched; [`Found::cut_after`] says how many).
///
/// # Errors
/// [`Stopped::Failed`]: playing or taking back a trial move failed (the game may then have moved
/// on); [`Stopped::Budget`]: even depth 1 would visit more than [`DEPTH_ONE_BUDGET`] positions.
pub fn best_move<G: QuantumGame>(
    game: &mut G,
    depth: u32,
    budget: usize,
    work: u64,
) -> Result<Option<Found<G::Move>>, Stopped<G::Error>> {
    let mut allowance = Allowance {
        positions: DEPTH_ONE_BUDGET,
        work,
    };
    let Some(shallow) = search(game, 1, &mut allowance, true)? else {
        return Ok(None);
    };
    let depth = depth.clamp(1, MAX_DEPTH);
    // Depth 2 visits, for each of the positions depth 1 visited, about as many as the opponent
    // has moves; when that estimate is over the budget, depth 2 is not started at all.
    let visited = DEPTH_ONE_BUDGET - allowance.positions;
    if depth == 1
        || shallow.cut_after.is_some()
        || visited.saturating_mul(replies(game, &shallow.mv)?) > budget
    {
        return Ok(Some(shallow));
    }
    let out_of_work = allowance.out_of_work();
    if out_of_work {
        return Ok(Some(Found {
            out_of_work,
            ..shallow
        }));
    }
    // Depth 2 has its own count of positions, and what is left of the work.
    allowance.positions = budget;
    match search(game, depth, &mut allowance, false) {
        Err(Stopped::Budget) => Ok(Some(shallow)),
        Err(Stopped::Work) => Ok(Some(Found {
            out_of_work: true,
            ..shallow
        })),
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

/// [`best_move`] at exactly `depth`, spending one position of `allowance` per position
/// visited. Out of work, `keep_partial` answers the best of the moves searched so far (after
/// the first), else the search stops with [`Stopped::Work`].
fn search<G: QuantumGame>(
    game: &mut G,
    depth: u32,
    allowance: &mut Allowance,
    keep_partial: bool,
) -> Result<Option<Found<G::Move>>, Stopped<G::Error>> {
    let mut best: Option<Found<G::Move>> = None;
    for (searched, mv) in game.legal_moves().into_iter().enumerate() {
        if allowance.out_of_work() {
            match best.as_mut() {
                Some(found) if keep_partial => {
                    found.cut_after = Some(searched);
                    break;
                }
                None if keep_partial => {}
                _ => return Err(Stopped::Work),
            }
        }
        // A listed move whose outcomes the engine refuses cannot be played, so it is no
        // candidate (Quantum Chess lists a few that only change the state's global phase); one
        // the simulator has no room for ends the search.
        let outcomes = match game.move_outcomes(&mv.mv) {
            Ok(outcomes) => outcomes,
            Err(e) if qc_engine::game::out_of_memory(&e) => return Err(Stopped::Failed(e)),
            Err(_) => continue,
        };
        let score = expected_score(game, outcomes, depth, allowance)?;
        if best.as_ref().is_none_or(|b| score > b.score + TIE) {
            best = Some(Found {
                mv: mv.mv,
                score,
                depth,
                cut_after: None,
                out_of_work: false,
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
    allowance: &mut Allowance,
) -> Result<f64, Stopped<G::Error>> {
    let side = game.side_to_move();
    let mut total = 0.0;
    for outcome in outcomes {
        allowance.visit(game.state_size())?;
        // The move's own outcome is written in; randomness beyond it (the measurement of every
        // square at the fifty-move limit) is sampled with a fixed seed, so that a search is
        // repeatable.
        let mut fixed = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        game.play(&outcome.mv, &mut fixed)
            .map_err(Stopped::Failed)?;
        let score = if depth > 1 && !game.status().is_over() {
            search(game, depth - 1, allowance, false).map(|reply| match reply {
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

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::{Board, Game};

    fn rook_takes_queen() -> Game<qc_sim::SparseSim> {
        let board = Board::from_fen("q6k/1p6/8/8/8/8/8/1R5K w - - 0 1").expect("a FEN");
        Game::new(board, qc_sim::SparseSim::new()).expect("a game")
    }

    fn found(game: &mut Game<qc_sim::SparseSim>, depth: u32, work: u64) -> Found<String> {
        let Ok(Some(found)) = best_move(game, depth, 250_000, work) else {
            panic!("no move found");
        };
        Found {
            mv: found.mv.to_string(),
            score: found.score,
            depth: found.depth,
            cut_after: found.cut_after,
            out_of_work: found.out_of_work,
        }
    }

    #[test]
    fn a_search_with_work_to_spare_searches_every_move() {
        let best = found(&mut rook_takes_queen(), 1, BARE_GO_WORK);
        assert_eq!(
            (
                best.mv.as_str(),
                best.depth,
                best.cut_after,
                best.out_of_work
            ),
            ("b1b7", 1, None, false)
        );
    }

    #[test]
    fn out_of_work_depth_one_answers_the_first_move_searched() {
        // No work at all: the first legal move is searched, nothing after it.
        let mut game = rook_takes_queen();
        let first = game.legal_moves()[0].mv.to_string();
        let best = found(&mut game, 1, 0);
        assert_eq!(best.mv, first);
        assert_eq!(best.cut_after, Some(1));
        let best = found(&mut game, 2, 0);
        assert_eq!((best.depth, best.cut_after), (1, Some(1)));
        // Work for depth 1 (one position per outcome of each move, each position a state of a
        // basis state or two) and a little more: depth 2 starts, runs out, and depth 1's move
        // answers, said so. The count decides, not the machine: the same answer under any load.
        let moves = game.legal_moves().len() as u64;
        let best = found(&mut game, 2, 2 * moves + 10);
        assert_eq!(
            (
                best.mv.as_str(),
                best.depth,
                best.cut_after,
                best.out_of_work
            ),
            ("b1b7", 1, None, true)
        );
    }
}
