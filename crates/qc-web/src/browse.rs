//! Earlier positions of a game, for stepping through it without taking moves back:
//! `GET /api/games/{id}/position?ply=K&flip=true` draws the board after the game's first K
//! moves (0 = the start), seen from Black's side with `flip`. The game itself does not change:
//! an earlier position is the game's start with its first K moves replayed on a fresh simulator,
//! every outcome written in as played, so it is the position the game went through.

use crate::api::{query_rejection, AppState};
use crate::error::ApiError;
use crate::game::{GameError, WebGame};
use crate::view::{board_picture, side_word};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use qc_front::{BackendKind, GameInput, Session, SessionSpec};
use qc_sim::{MemoryLimit, Precision};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `?ply=K` (default: the game's ply) and `?flip=true`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionQuery {
    ply: Option<usize>,
    #[serde(default)]
    flip: bool,
}

/// The board after the game's first `at` moves.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// The game's id.
    pub id: String,
    /// The ply the game is at now (its moves played).
    pub ply: usize,
    /// The ply shown: the board after this many moves.
    pub at: usize,
    /// The side to move in the position shown.
    pub side_to_move: &'static str,
    /// The position's status (for the game's last position, the players' ending included).
    pub status: &'static str,
    /// What the page says above that board (`Black to move`, `Game over: ...`).
    pub headline: String,
    /// The board drawn, the squares of the move that led to it highlighted.
    pub board_svg: String,
}

/// `GET /api/games/{id}/position`.
pub async fn position(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let Query(query) = query.map_err(query_rejection)?;
    let memory = state.limits().game_memory_bytes;
    let key = id.clone();
    let view = state
        .on_game(&key, move |g, _| Ok(position_of(&id, g, &query, memory)?))
        .await?;
    Ok(Json(view))
}

fn position_of(
    id: &str,
    web: &WebGame,
    query: &PositionQuery,
    memory_bytes: u128,
) -> Result<PositionView, GameError> {
    let game = web.session();
    let moves = game.moves();
    let now = moves.len();
    let at = query.ply.unwrap_or(now);
    if at > now {
        return Err(GameError::NoSuchPly {
            ply: at,
            plies: now,
        });
    }
    let last = at.checked_sub(1).and_then(|k| moves.get(k));
    if at == now {
        return Ok(PositionView {
            id: id.to_string(),
            ply: now,
            at,
            side_to_move: side_word(game.side_to_move()),
            status: web.status_name(),
            headline: web.headline(),
            board_svg: board_picture(&game.board_view(true), last, query.flip),
        });
    }
    let texts: Vec<&str> = moves[..at].iter().map(|m| m.text.as_str()).collect();
    let (fen, moves_text) = (game.start_fen(), texts.join(" "));
    let spec = SessionSpec {
        rules: game.rules(),
        variant: game.options_name(),
        backend: BackendKind::Sparse,
        precision: Precision::Double,
        seed: game.seed(),
    };
    let input = GameInput::Position {
        name: "the game's moves",
        fen: Some(&fen),
        moves: Some(&moves_text),
    };
    let earlier = Session::open_with_limit(&spec, input, 0, MemoryLimit::bytes(memory_bytes))
        .map_err(|e| GameError::Session(Box::new(e)))?;
    let status = earlier.status();
    Ok(PositionView {
        id: id.to_string(),
        ply: now,
        at,
        side_to_move: side_word(earlier.side_to_move()),
        status: status.name(),
        headline: crate::view::headline(status, earlier.side_to_move()),
        board_svg: board_picture(&earlier.board_view(true), last, query.flip),
    })
}
