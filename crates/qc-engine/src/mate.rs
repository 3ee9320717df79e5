//! Mate distances: whether a move wins (or loses) the game for certain, and in how many moves.
//!
//! The search scores a won game `WIN - 0.01 x ply` and a move by the expectation over its
//! outcomes, so a score near `WIN` may be a certain win or a win in all but a sliver of the
//! outcomes (Quantum Chess captures are probabilistic: a capture of a king in superposition ends
//! the game in some outcomes only). A score cannot tell the two apart, so a mate is proved here
//! instead, by an AND-OR search over the game: a move wins within `p` plies when *every* outcome
//! of it ends the game for the side that played it, or leaves the opponent a position where every
//! move loses within `p - 1`. A certain king capture is mate in 1. The proof is bounded by a
//! count of moves played and by a stop check (the caller's deadline), and answers `None` when
//! either runs out first: no mate is claimed that was not proved.

use crate::eval::WIN;
use qc_rules::{MoveOutcome, QuantumGame, Status};
use rand::SeedableRng;

/// The least score (in pawns, either sign) a proof is tried for: a won game scores
/// [`WIN`] less a hundredth per ply, any position that goes on at most [`crate::eval::MAX_EVAL`],
/// so only wins (or losses) in all but a sliver of the outcomes come this close.
pub const MATE_SCORE: f64 = WIN - 1.0;

/// The deepest proof tried, in plies (mate in 5 moves).
pub const MAX_PROOF_PLIES: u32 = 9;

/// The most moves a proof plays (each played with an outcome written in and taken back).
pub const PROOF_PLAYS: u64 = 20_000;

/// The outcomes of one move of a game of type `G`.
type Outcomes<G> = Vec<MoveOutcome<<G as QuantumGame>::Move>>;

/// Why a proof gave up.
enum GaveUp<E> {
    /// Out of plays or stopped.
    Limit,
    /// Playing or taking back a move failed.
    Game(E),
}

/// What a proof may still spend: plays, and a check that says stop.
pub struct ProofLimit<'a> {
    plays: u64,
    stop: &'a dyn Fn() -> bool,
}

impl<'a> ProofLimit<'a> {
    /// At most [`PROOF_PLAYS`] plays, and none once `stop` says so.
    pub fn new(stop: &'a dyn Fn() -> bool) -> ProofLimit<'a> {
        ProofLimit {
            plays: PROOF_PLAYS,
            stop,
        }
    }

    fn spend<E>(&mut self) -> Result<(), GaveUp<E>> {
        if self.plays == 0 || (self.stop)() {
            return Err(GaveUp::Limit);
        }
        self.plays -= 1;
        Ok(())
    }
}

/// The mate distance of the move whose `outcomes` are given, in moves as UCI's `score mate N`
/// counts them: `Some(N)` with `N > 0` when the move wins for certain within `2N - 1` plies (this
/// move being the first), `Some(-N)` when the opponent then wins for certain within `2N` plies
/// whatever is played, `None` when neither was proved within `max_plies` (at most
/// [`MAX_PROOF_PLIES`]) and `limit`. `winning` says which to try (the search's score says which
/// can hold). The game is left as it was, or, when playing or taking back a move failed, the
/// error comes back (the game may then have moved on).
///
/// # Errors
/// Playing or taking back a move failed.
pub fn mate_distance<G: QuantumGame>(
    game: &mut G,
    outcomes: &[MoveOutcome<G::Move>],
    winning: bool,
    max_plies: u32,
    limit: &mut ProofLimit,
) -> Result<Option<i32>, G::Error> {
    let max_plies = max_plies.min(MAX_PROOF_PLIES);
    let (first, sign) = if winning { (1, 1) } else { (2, -1) };
    for plies in (first..=max_plies).step_by(2) {
        let proved = if winning {
            move_wins(game, outcomes, plies, limit)
        } else {
            move_loses(game, outcomes, plies, limit)
        };
        match proved {
            Ok(true) => return Ok(Some(sign * plies.div_ceil(2) as i32)),
            Ok(false) => {}
            Err(GaveUp::Limit) => return Ok(None),
            Err(GaveUp::Game(e)) => return Err(e),
        }
    }
    Ok(None)
}

/// Plays `mv` (its outcome written in; any other randomness from a fixed seed, as the search
/// does), asks `then` of the position after it (with the side that played it), and takes it back.
fn after<G: QuantumGame, T>(
    game: &mut G,
    mv: &G::Move,
    limit: &mut ProofLimit,
    then: impl FnOnce(&mut G, qc_rules::Color, &mut ProofLimit) -> Result<T, GaveUp<G::Error>>,
) -> Result<T, GaveUp<G::Error>> {
    limit.spend()?;
    let mover = game.side_to_move();
    let mut fixed = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    // A simulator without room for the move gives the proof up: the game is as it was, and
    // the search goes on with its score.
    game.play(mv, &mut fixed).map_err(|e| {
        if crate::game::out_of_memory(&e) {
            GaveUp::Limit
        } else {
            GaveUp::Game(e)
        }
    })?;
    let result = then(game, mover, limit);
    game.undo().map_err(GaveUp::Game)?;
    result
}

/// Whether every outcome ends the game within `plies` for its mover (`for_mover`), or for the
/// mover's opponent.
fn move_decides<G: QuantumGame>(
    game: &mut G,
    outcomes: &[MoveOutcome<G::Move>],
    plies: u32,
    for_mover: bool,
    limit: &mut ProofLimit,
) -> Result<bool, GaveUp<G::Error>> {
    for outcome in outcomes {
        let decided = after(game, &outcome.mv, limit, |game, mover, limit| {
            Ok(match game.status() {
                Status::Win(winner, _) => (winner == mover) == for_mover,
                Status::Draw(_) => false,
                // The opponent moves next: the mover wins if every reply loses (two plies at
                // least), and loses if the opponent has a winning reply (one at least).
                Status::Ongoing if for_mover => {
                    plies > 2 && position_loses(game, plies - 1, limit)?
                }
                Status::Ongoing => plies > 1 && position_wins(game, plies - 1, limit)?,
            })
        })?;
        if !decided {
            return Ok(false);
        }
    }
    Ok(!outcomes.is_empty())
}

/// Whether every outcome ends the game for its mover within `plies`.
fn move_wins<G: QuantumGame>(
    game: &mut G,
    outcomes: &[MoveOutcome<G::Move>],
    plies: u32,
    limit: &mut ProofLimit,
) -> Result<bool, GaveUp<G::Error>> {
    move_decides(game, outcomes, plies, true, limit)
}

/// Whether every outcome ends the game for the opponent of its mover within `plies`.
fn move_loses<G: QuantumGame>(
    game: &mut G,
    outcomes: &[MoveOutcome<G::Move>],
    plies: u32,
    limit: &mut ProofLimit,
) -> Result<bool, GaveUp<G::Error>> {
    move_decides(game, outcomes, plies, false, limit)
}

/// The outcomes of every legal move of `game` that can be played (the search skips a listed
/// move whose outcomes the game refuses, so does the proof; a simulator without room gives the
/// proof up).
fn playable<G: QuantumGame>(game: &mut G) -> Result<Vec<Outcomes<G>>, GaveUp<G::Error>> {
    let mut playable = Vec::new();
    for m in game.legal_moves() {
        match game.move_outcomes(&m.mv) {
            Ok(outcomes) if !outcomes.is_empty() => playable.push(outcomes),
            Err(e) if crate::game::out_of_memory(&e) => return Err(GaveUp::Limit),
            _ => {}
        }
    }
    Ok(playable)
}

/// Whether the side to move has a move that wins within `plies`.
fn position_wins<G: QuantumGame>(
    game: &mut G,
    plies: u32,
    limit: &mut ProofLimit,
) -> Result<bool, GaveUp<G::Error>> {
    for outcomes in playable(game)? {
        if move_wins(game, &outcomes, plies, limit)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether every move of the side to move loses within `plies` (and there is one: a position
/// with no playable move is no loss, the search scores it 0).
fn position_loses<G: QuantumGame>(
    game: &mut G,
    plies: u32,
    limit: &mut ProofLimit,
) -> Result<bool, GaveUp<G::Error>> {
    let moves = playable(game)?;
    for outcomes in &moves {
        if !move_loses(game, outcomes, plies, limit)? {
            return Ok(false);
        }
    }
    Ok(!moves.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::{Board, Game};

    fn game(fen: &str) -> Game<qc_sim::SparseSim> {
        let board = Board::from_fen(fen).expect("a FEN");
        Game::new(board, qc_sim::SparseSim::new()).expect("a game")
    }

    /// The mate distance of the legal move `mv` (as `moves` writes it) within `plies`.
    fn distance(
        game: &mut Game<qc_sim::SparseSim>,
        mv: &str,
        winning: bool,
        plies: u32,
    ) -> Option<i32> {
        let mv = game
            .legal_moves()
            .into_iter()
            .find(|m| m.mv.to_string() == mv)
            .expect("a legal move")
            .mv;
        let outcomes = game.move_outcomes(&mv).expect("outcomes");
        let never = || false;
        mate_distance(
            game,
            &outcomes,
            winning,
            plies,
            &mut ProofLimit::new(&never),
        )
        .expect("a proof")
    }

    #[test]
    fn a_certain_king_capture_is_mate_in_one() {
        let mut g = game("7k/8/8/8/8/8/8/K6R w - - 0 1");
        assert_eq!(distance(&mut g, "h1h8", true, 5), Some(1));
        // A king move wins nothing for certain within one ply.
        assert_eq!(distance(&mut g, "a1a2", true, 1), None);
    }

    #[test]
    fn a_capture_of_a_king_in_superposition_is_no_mate() {
        // The king split over g8 and g7: a rook takes it in half of the outcomes at most.
        let mut g = game("7k/8/8/8/8/8/8/K5RR b - - 0 1");
        let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let split = "h8^g8g7".parse().expect("a move");
        g.play(&split, &mut dice).expect("the split");
        let white: Vec<String> = g.legal_moves().iter().map(|m| m.mv.to_string()).collect();
        assert!(white
            .iter()
            .any(|m| m.starts_with("g1") && m.ends_with("g7")));
        for mv in &white {
            assert_eq!(distance(&mut g, mv, true, 1), None, "{mv}");
        }
    }

    #[test]
    fn a_king_stepping_where_it_is_taken_for_certain_is_mated_in_one() {
        // After a8b8 the rook on b1 takes the king for certain.
        let mut g = game("k7/8/8/8/8/8/R7/1R4K1 b - - 0 1");
        assert_eq!(distance(&mut g, "a8b8", false, 4), Some(-1));
        assert_eq!(distance(&mut g, "a8b8", true, 5), None);
    }
}
