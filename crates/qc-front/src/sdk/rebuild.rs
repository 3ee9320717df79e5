//! The exact game a view describes: its start, setup moves and history replayed with their
//! outcomes forced, then checked against the view's board and side to move.

use super::history::{history, read_move_string, with_outcome};
use super::{EngineView, MoveRequest, SdkError};
use qc_ir::Backend;
use qc_rules::{Cantwell, Color, QcanMove, QuantumGame, Ruleset, Square};

/// How far a rebuilt square probability may be from the view's (the app may send single
/// precision).
pub const PROBABILITY_TOLERANCE: f64 = 1e-4;

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
