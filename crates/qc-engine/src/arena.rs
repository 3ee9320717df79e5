//! Matches between two players: varied openings from a fixed seed, each played twice with the
//! colours swapped, the measurement outcomes of both games drawn from the same seeded stream,
//! and the score with its Elo difference ([`crate::elo`]).
//!
//! An opening is `opening_plies` random legal moves (picked and measured with generators seeded
//! by the match seed and the opening's number), written with their outcomes, so both games of a
//! pair start from the same position and state. A game ends when the rules end it, when the side
//! to move has no move, or after `max_plies` plies (the opening's included): it is then
//! adjudicated on expected material (kings aside), a win for the side ahead by at least
//! [`ADJUDICATION_PAWNS`], else a draw. A player that answers a move the game refuses loses.

use crate::elo::Tally;
use crate::eval::{evaluate, Weights};
use crate::game::{mix, EngineGame};
use crate::limits::{Limits, StopFlag};
use crate::players::PlayerSpec;
use qc_ir::Backend;
use qc_rules::{Color, QuantumGame, Ruleset, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use thiserror::Error;

/// The material lead (in pawns, kings aside) that wins a game adjudicated at the ply limit.
pub const ADJUDICATION_PAWNS: f64 = 3.0;

/// How a match is played.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Openings; each is played twice, once with each player as White.
    pub openings: usize,
    /// What each player may spend per move.
    pub limits: Limits,
    /// The seed of the openings, the outcomes and the players' random choices.
    pub seed: u64,
    /// Plies after which a game is adjudicated.
    pub max_plies: usize,
    /// Random plies of each opening.
    pub opening_plies: usize,
}

/// How one game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedGame {
    /// The opening's number (from 0).
    pub opening: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// The result.
    pub outcome: Outcome,
    /// Why it ended (`king captured`, `adjudicated at 200 plies`, ...).
    pub reason: String,
    /// Plies played, the opening's included.
    pub plies: usize,
    /// The first player's points (1, 0.5 or 0).
    pub first_points: f64,
    /// The moves with their outcomes, as a game file writes them.
    pub record: String,
}

/// Why a match could not be played.
#[derive(Debug, Error)]
pub enum MatchError {
    /// The start position could not be set up.
    #[error("cannot set up the start position: {0}")]
    Start(Box<dyn std::error::Error + Send + Sync>),
    /// A player's trial move could not be played or taken back (a bug: the game refused a move
    /// it listed, or could not undo).
    #[error("game {game}: {player} failed while searching: {source}")]
    Player {
        /// The game's number (from 0).
        game: usize,
        /// The player.
        player: String,
        /// What went wrong.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// The moves of opening `index`: random legal moves with their outcomes written in.
fn opening<G: EngineGame>(game: &mut G, seed: u64, index: usize, plies: usize) -> Vec<G::Move> {
    let mut pick = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(index as u64)));
    let mut dice = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(index as u64 ^ 0xD1CE)));
    let mut moves = Vec::new();
    while moves.len() < plies && !game.status().is_over() {
        let mut legal = game.legal_moves();
        let mut any = false;
        while !legal.is_empty() {
            let m = legal.swap_remove(pick.gen_range(0..legal.len()));
            if let Ok(played) = game.play(&m.mv, &mut dice) {
                moves.push(played.mv.clone());
                any = true;
                break;
            }
        }
        if !any {
            break;
        }
    }
    moves
}

/// The result of a game stopped at the ply limit.
fn adjudicate<G: QuantumGame>(game: &G) -> Outcome {
    let weights = Weights {
        king: 0.0,
        ..Weights::MATERIAL
    };
    let mut view = game.board_view(false);
    view.side_to_move = Color::White;
    let white = evaluate(&view, &weights);
    if white >= ADJUDICATION_PAWNS {
        Outcome::WhiteWins
    } else if white <= -ADJUDICATION_PAWNS {
        Outcome::BlackWins
    } else {
        Outcome::Draw
    }
}

/// Plays one game of `first` against `second` from `start` after the `opening` moves.
#[allow(
    clippy::too_many_arguments,
    reason = "one game of a match: its players, its opening and its seeds"
)]
fn play_game<R: Ruleset, B: Backend>(
    start: &R::Start,
    backend: B,
    first: &PlayerSpec,
    second: &PlayerSpec,
    first_is_white: bool,
    opening_moves: &[R::Move],
    index: usize,
    config: &MatchConfig,
) -> Result<PlayedGame, MatchError> {
    let number = 2 * index + usize::from(!first_is_white);
    let mut game = R::new_game(start, backend).map_err(|e| MatchError::Start(Box::new(e)))?;
    let mut dice = ChaCha8Rng::seed_from_u64(mix(config.seed ^ mix(index as u64 ^ 0x0D1CE)));
    for m in opening_moves {
        game.play(m, &mut dice)
            .map_err(|e| MatchError::Start(Box::new(e)))?;
    }
    let player_seed = mix(config.seed ^ mix(number as u64 ^ 0x91A4));
    let mut players = [
        first.build::<R::Game<B>>(player_seed),
        second.build::<R::Game<B>>(player_seed ^ 1),
    ];
    let mut plies = opening_moves.len();
    let (outcome, reason) = loop {
        let status = game.status();
        match status {
            Status::Ongoing => {}
            Status::Win(Color::White, _) => break (Outcome::WhiteWins, status.to_string()),
            Status::Win(Color::Black, _) => break (Outcome::BlackWins, status.to_string()),
            Status::Draw(_) => break (Outcome::Draw, status.to_string()),
        }
        if plies >= config.max_plies {
            break (adjudicate(&game), format!("adjudicated at {plies} plies"));
        }
        let white_to_move = game.side_to_move() == Color::White;
        let mover = usize::from(white_to_move != first_is_white);
        let player = &mut players[mover];
        let choice = player
            .choose(&mut game, &config.limits, StopFlag::new())
            .map_err(|e| MatchError::Player {
                game: number,
                player: player.name(),
                source: Box::new(e),
            })?;
        let Some(choice) = choice else {
            break (Outcome::Draw, "no legal move".into());
        };
        if game.play(&choice, &mut dice).is_err() {
            let winner = if white_to_move {
                Outcome::BlackWins
            } else {
                Outcome::WhiteWins
            };
            break (winner, format!("illegal move {choice}"));
        }
        plies += 1;
    };
    let first_points = match (outcome, first_is_white) {
        (Outcome::Draw, _) => 0.5,
        (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => 1.0,
        _ => 0.0,
    };
    Ok(PlayedGame {
        opening: index,
        first_is_white,
        outcome,
        reason,
        plies,
        first_points,
        record: game.record(),
    })
}

/// Plays `first` against `second`: every opening twice, colours swapped, calling `on_game` after
/// each game; returns the games and the first player's tally.
///
/// # Errors
/// The start position cannot be set up, or a player failed (see [`MatchError`]).
pub fn play_match<R: Ruleset, B: Backend>(
    start: &R::Start,
    backend: impl Fn() -> B,
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&PlayedGame),
) -> Result<(Vec<PlayedGame>, Tally), MatchError> {
    let mut games = Vec::new();
    let mut tally = Tally::default();
    for index in 0..config.openings {
        let mut setup =
            R::new_game(start, backend()).map_err(|e| MatchError::Start(Box::new(e)))?;
        let moves = opening(&mut setup, config.seed, index, config.opening_plies);
        for first_is_white in [true, false] {
            let played = play_game::<R, B>(
                start,
                backend(),
                first,
                second,
                first_is_white,
                &moves,
                index,
                config,
            )?;
            tally.add(played.first_points);
            on_game(&played);
            games.push(played);
        }
    }
    Ok((games, tally))
}
