//! The API's errors: each a status code, a reason in words and a kind, sent as
//! `{"error": "reason", "kind": "stale_ply"}`, so a script can show what was wrong and a page
//! can say it in its own words.

use crate::game::GameError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request does not read: bad JSON, a missing or unknown field, a bad parameter.
    #[error("{0}")]
    BadRequest(String),
    /// No game with this id (never made, closed, or closed to make room for newer games).
    #[error(
        "no game `{0}` (it was closed, or closed to make room for newer games): start a new one"
    )]
    NoSuchGame(String),
    /// A request addressed to another host name than this machine's.
    #[error(
        "this server answers only requests addressed to 127.0.0.1 or localhost (got Host `{0}`)"
    )]
    ForeignHost(String),
    /// No such address.
    #[error("no such address: {0}")]
    NotFound(String),
    /// The address exists, but not for this method.
    #[error("{method} is not allowed here")]
    MethodNotAllowed {
        /// The method used.
        method: String,
    },
    /// axum refused the body or the query (bad JSON, a wrong content type, a missing or unknown
    /// field, a body over the limit), with its status and reason.
    #[error("{reason}")]
    Rejected {
        /// The status axum gives (400, 413, 415, 422).
        status: StatusCode,
        /// Its reason.
        reason: String,
    },
    /// The rules (or the exporter) refused: an illegal move, a game file that does not replay.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The game changed since the program the counts are for was downloaded.
    #[error("the game has changed since the program was downloaded ({then} move(s) then, {now} now): download the program again and run it")]
    GameChanged {
        /// Moves when the program was downloaded.
        then: usize,
        /// Moves now.
        now: usize,
    },
    /// Every worker is busy, or the game is busy with an earlier request, for longer than a
    /// request may wait.
    #[error("the server is busy with earlier requests (waited {seconds} s): try again")]
    Busy {
        /// How long the request waited.
        seconds: u64,
    },
    /// Every worker is busy and every place in their queue taken: refused at once.
    #[error("the server is busy: {workers} request(s) computing and {queue} waiting, the most it takes: try again")]
    QueueFull {
        /// Requests computing at once ([`crate::Limits::workers`]).
        workers: usize,
        /// Requests waiting at most ([`crate::Limits::queue`]).
        queue: usize,
    },
    /// A new game would not fit beside the games kept, and every one of them is in use.
    #[error("the server keeps at most {games} games in its memory budget of {budget_mib} MiB, and each is in use: try again once a request has finished, or close a game")]
    GamesInUse {
        /// The games kept at most.
        games: usize,
        /// The budget of the games and the work, in MiB.
        budget_mib: u128,
    },
    /// A request sent by a page of another origin than those allowed (`qchess serve --ai`).
    #[error("this server answers pages of {allowed} only (got Origin `{origin}`): start it with --allow-origin {origin} to allow that page")]
    ForeignOrigin {
        /// The request's `Origin`.
        origin: String,
        /// The origins allowed, in words.
        allowed: String,
    },
    /// The work took longer than a request may take.
    #[error("this took longer than {seconds} s and was given up waiting for; a move still running finishes on its game")]
    TooSlow {
        /// The limit in seconds.
        seconds: u64,
    },
    /// A view of the official app's AI protocol that cannot be answered: bad JSON, a missing
    /// field, a history that does not replay or does not give the board shown, a finished game.
    #[error(transparent)]
    Sdk(#[from] qc_front::sdk::SdkError),
    /// A view whose history is longer than the server replays.
    #[error("view.moveHistory has {moves} moves; this server replays at most {limit}")]
    HistoryTooLong {
        /// The limit ([`crate::Limits::moves_per_game`]).
        limit: usize,
        /// The moves sent.
        moves: usize,
    },
    /// A view whose setup moves and history together are longer than the server replays.
    #[error("view.moveHistory has {history} moves and gameData.position.setupMoves {setup}; this server replays at most {limit} in all")]
    SetupTooLong {
        /// The limit ([`crate::Limits::moves_per_game`]).
        limit: usize,
        /// The history's moves.
        history: usize,
        /// The setup moves.
        setup: usize,
    },
    /// A bug: the work panicked. The game is closed, since its state is unknown.
    #[error("internal error while computing ({0}); the game was closed: start a new one")]
    Internal(String),
}

impl ApiError {
    /// The status code: 4xx for what the client can fix, 5xx for the server's side.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_)
            | ApiError::Sdk(_)
            | ApiError::HistoryTooLong { .. }
            | ApiError::SetupTooLong { .. } => StatusCode::BAD_REQUEST,
            ApiError::NoSuchGame(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::ForeignHost(_) | ApiError::ForeignOrigin { .. } => StatusCode::FORBIDDEN,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Rejected { status, .. } => *status,
            ApiError::Game(GameError::NoSuchMove(_) | GameError::NoSuchPly { .. }) => {
                StatusCode::NOT_FOUND
            }
            ApiError::Game(GameError::StalePly { .. }) => StatusCode::CONFLICT,
            ApiError::Game(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::GameChanged { .. } => StatusCode::CONFLICT,
            ApiError::Busy { .. }
            | ApiError::TooSlow { .. }
            | ApiError::QueueFull { .. }
            | ApiError::GamesInUse { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// What kind of error it is, one word per kind (`stale_ply`, `game_over`, `illegal`,
    /// `counts_order_ambiguous`, ...), for a page to choose its own words by.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::NoSuchGame(_) => "no_such_game",
            ApiError::ForeignHost(_) => "foreign_host",
            ApiError::ForeignOrigin { .. } => "foreign_origin",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::Rejected { .. } => "bad_body",
            ApiError::Game(game) => match game {
                GameError::StalePly { .. } => "stale_ply",
                GameError::Ended { .. } | GameError::EngineNoMove => "game_over",
                GameError::Counts(step) => crate::game::counts_kind(step),
                GameError::NoSuchMove(_) | GameError::NoSuchPly { .. } => "no_such_ply",
                GameError::TooLong { .. } => "too_long",
                GameError::Compile(_) | GameError::DrawingTooLarge(_) => "cannot_compile",
                GameError::GameAndMoves
                | GameError::Session(_)
                | GameError::EmptyMove
                | GameError::MoveTooLong { .. }
                | GameError::Engine(_) => "refused",
            },
            ApiError::GameChanged { .. } => "game_changed",
            ApiError::Busy { .. } | ApiError::QueueFull { .. } | ApiError::GamesInUse { .. } => {
                "busy"
            }
            ApiError::TooSlow { .. } => "too_slow",
            ApiError::Sdk(_) | ApiError::HistoryTooLong { .. } | ApiError::SetupTooLong { .. } => {
                "bad_view"
            }
            ApiError::Internal(_) => "internal",
        }
    }
}

/// Seconds a client is told to wait before trying a 503 again (`Retry-After`).
pub const RETRY_AFTER_SECONDS: u64 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = Json(serde_json::json!({ "error": self.to_string(), "kind": self.kind() }));
        if status == StatusCode::SERVICE_UNAVAILABLE {
            let retry = [(
                axum::http::header::RETRY_AFTER,
                RETRY_AFTER_SECONDS.to_string(),
            )];
            return (status, retry, body).into_response();
        }
        (status, body).into_response()
    }
}
