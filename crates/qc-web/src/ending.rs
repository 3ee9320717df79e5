//! A game ended by its players rather than by the rules: a side resigned, or both agreed to a
//! draw. The server records it on the game; the game is then over (no move, no engine move, no
//! undo), its status and headline say how it ended. A saved game file leaves it out: the rules
//! would not end the replayed game there, and a file's result token must agree with the rules.

use crate::api::{ApiJson, AppState};
use crate::error::ApiError;
use crate::view::GameState;
use axum::extract::{Path, State};
use axum::Json;
use qc_rules::Color;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How the players ended the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This side resigned.
    Resigned(Color),
    /// The players agreed to a draw.
    DrawAgreed,
}

/// The ending as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndingView {
    /// `resignation` or `agreement`.
    pub by: &'static str,
    /// The side that resigned (`white`, `black`); `None` for a draw.
    pub resigned: Option<&'static str>,
    /// The winner (`white`, `black`); `None` for a draw.
    pub winner: Option<&'static str>,
}

impl Ending {
    /// The status as the API spells it, beside the rules' own (`white_wins`, `black_wins`,
    /// `draw_agreed`).
    pub fn status_name(self) -> &'static str {
        match self {
            Ending::Resigned(Color::White) => "black_wins",
            Ending::Resigned(Color::Black) => "white_wins",
            Ending::DrawAgreed => "draw_agreed",
        }
    }

    /// The result in words: `Black wins (White resigned)`, `Draw (agreed)`.
    pub fn words(self) -> String {
        match self {
            Ending::Resigned(side) => {
                format!("{} wins ({} resigned)", side.opponent().name(), side.name())
            }
            Ending::DrawAgreed => "Draw (agreed)".to_string(),
        }
    }

    /// What the API shows of it.
    pub fn view(self) -> EndingView {
        match self {
            Ending::Resigned(side) => EndingView {
                by: "resignation",
                resigned: Some(crate::view::side_word(side)),
                winner: Some(crate::view::side_word(side.opponent())),
            },
            Ending::DrawAgreed => EndingView {
                by: "agreement",
                resigned: None,
                winner: None,
            },
        }
    }
}

/// `{"side": "white", "ply": 12}`: the side that resigns, and the ply the page saw.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    side: Side,
    #[serde(default)]
    ply: Option<usize>,
}

/// `white` or `black`, as the API spells a side.
#[derive(Copy, Clone, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Side {
    White,
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// `{"ply": 12}`: the ply the page saw (optional).
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    #[serde(default)]
    ply: Option<usize>,
}

/// `POST /api/games/{id}/resign`: `side` resigns; the state after it.
pub async fn resign(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<ResignRequest>,
) -> Result<Json<GameState>, ApiError> {
    end(
        state,
        id,
        request.ply,
        Ending::Resigned(request.side.into()),
    )
    .await
}

/// `POST /api/games/{id}/draw`: the players agree to a draw; the state after it.
pub async fn draw(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<DrawRequest>,
) -> Result<Json<GameState>, ApiError> {
    end(state, id, request.ply, Ending::DrawAgreed).await
}

async fn end(
    state: Arc<AppState>,
    id: String,
    ply: Option<usize>,
    ending: Ending,
) -> Result<Json<GameState>, ApiError> {
    let key = id.clone();
    let after = state
        .on_game(&key, move |g, _| {
            g.check_ply(ply)?;
            g.end(ending)?;
            Ok(GameState::of(&id, g))
        })
        .await?;
    Ok(Json(after))
}
