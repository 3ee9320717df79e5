//! qchess in the browser: the server behind `qchess serve`.
//!
//! An HTTP server on 127.0.0.1 (axum on tokio) that serves one page, embedded in the binary,
//! and a small JSON API under `/api/` (new game, play, undo, legal moves, board and circuit
//! pictures, compile, a device's counts back into a board), documented in `docs/web.md`. The
//! games are played by the same code as the command line and the Python package
//! (each game a `qc_front::Session`, the one dispatch of every front end; `qc_render`'s
//! pictures). Everything is bounded ([`Limits`]): bodies, games kept, moves per game, memory per game,
//! concurrent work and the time of a request.
//!
//! `qchess serve --ai` serves instead the official Quantum Chess app's AI protocol ([`ai`],
//! `docs/ai.md`): qchess's engine answering the app's `POST /move` and WebSocket requests.

pub mod ai;
pub mod api;
pub mod assets;
pub mod browse;
pub mod budget;
pub mod clock;
pub mod ending;
pub mod error;
pub mod game;
pub mod limits;
pub mod server;
pub mod store;
pub mod view;
pub mod work;

pub use ai::{ai_router, AiConfig, AiState, Warn, OFFICIAL_ORIGINS};
pub use api::{router, AppState};
pub use error::ApiError;
pub use game::{GameError, NewGame, WebGame};
pub use limits::Limits;
pub use server::{serve_until_signal, ServeError, Server, Service};
