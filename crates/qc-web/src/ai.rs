//! `qchess serve --ai`: qchess's engine as a custom AI of the official Quantum Chess app, over
//! the two transports of the app's public SDK (documented in `docs/ai.md`):
//!
//! - HTTP: `POST /move` with `{view, clock}` answers a `QCMoveChoice` (`{type: "standard", from,
//!   to}`, `{type: "split", from, targetA, targetB}` or `{type: "merge", sourceA, sourceB, to}`);
//! - WebSocket at `/` (and `/ws`): `{type: "chooseMove", requestId, view, clock}` answers
//!   `{requestId, choice, ...choice}` (the choice both nested, as the SDK's adapter reads it,
//!   and flat, as its README writes it); `opponentMove` and `gameOver` need no answer.
//!
//! The game is rebuilt exactly from `view.moveHistory` and searched by qc-engine within the
//! clock's share of the time, never longer than half a request's time ([`qc_front::sdk`] does
//! both); the work runs on the server's bounded workers. A view that cannot be answered is a 400
//! (WebSocket: `{requestId, status, error}`) with the reason. The answer is chosen among the
//! moves both the view and qchess list as legal; where the two lists differ (the app's rules
//! configuration is not qchess's) the server warns, and answers anyway: a 400 would forfeit a
//! game the engine can still play legally.
//!
//! The app calls the server from its own page, so the AI routes answer cross-origin requests
//! from the official app's origins (CORS, with Private Network Access; more with
//! [`AiConfig::origins`]). A request whose `Origin` is another page's is refused (403), and
//! `POST /move` takes JSON bodies only (415), which a page may send only after a CORS
//! preflight: a page the user happens to visit can neither make the server search nor open its
//! WebSocket. The game API of `qchess serve` is not served in this mode.

use crate::api::{engine_max_millis, local_host_only, method_not_allowed, not_found, AppState};
use crate::error::ApiError;
use crate::game::ENGINE_TABLE_BYTES;
use crate::limits::Limits;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use qc_engine::{Answer, SearchConfig, Searcher, StopFlag};
use qc_front::sdk::{self, LegalDifferences, MoveChoice, MoveRequest};
use qc_rules::QcanMove;
use qc_sim::{MemoryLimit, SparseSim};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Where the AI server reports what its caller should know but that does not stop an answer
/// (the view's legal moves differ from qchess's): `qchess serve --ai` writes it to stderr.
pub type Warn = Arc<dyn Fn(&str) + Send + Sync>;

/// The header an answer carries when the view's legal moves and qchess's differ, with the
/// differences in words.
pub const WARNING_HEADER: &str = "x-qchess-warning";

/// The time per move when the view comes without a clock.
pub const UNTIMED_MOVE_TIME: Duration = sdk::UNTIMED_MOVE_TIME;

/// The origins of the official app's pages, which may call the server from a browser.
pub const OFFICIAL_ORIGINS: &[&str] = &[
    "https://quantumchess.net",
    "https://www.quantumchess.net",
    "https://chess.quantumnative.io",
];

/// How an AI server is set up beside its [`Limits`]: where warnings go, and which pages may
/// call it.
#[derive(Clone)]
pub struct AiConfig {
    /// Where warnings go.
    pub warn: Warn,
    /// The origins (`https://host[:port]`) whose pages may call the server: CORS answers them,
    /// and a request with another `Origin` is refused (403). A request without `Origin` (not
    /// sent by a browser's page) is answered.
    pub origins: Vec<String>,
}

impl AiConfig {
    /// The official app's origins ([`OFFICIAL_ORIGINS`]), warnings to `warn`.
    pub fn new(warn: Warn) -> AiConfig {
        AiConfig {
            warn,
            origins: OFFICIAL_ORIGINS.iter().map(|o| o.to_string()).collect(),
        }
    }
}

/// What the AI routes share: the server's bounded workers and limits, where warnings go, and
/// the origins allowed.
pub struct AiState {
    app: AppState,
    warn: Warn,
    origins: Vec<String>,
}

impl AiState {
    /// An AI server's state with `limits`, reporting warnings to `warn`, called by the official
    /// app's pages.
    pub fn new(limits: Limits, warn: Warn) -> AiState {
        AiState::with_config(limits, AiConfig::new(warn))
    }

    /// An AI server's state with `limits` and `config`.
    pub fn with_config(limits: Limits, config: AiConfig) -> AiState {
        AiState {
            app: AppState::planned(limits, crate::NewGame::default(), false),
            warn: config.warn,
            origins: config.origins,
        }
    }

    /// The longest a search may take: half a request's time, as for the page's engine.
    fn most(&self) -> Duration {
        Duration::from_millis(engine_max_millis(self.app.limits()))
    }
}

/// The move chosen for a view, and the differences between the legal-move lists, in words
/// (`None` when they agree).
struct Chosen {
    choice: MoveChoice,
    warning: Option<String>,
}

/// The router of `qchess serve --ai`: `POST /move`, the WebSocket at `/` and `/ws` (a plain
/// `GET /` describes the server), behind the same Host check and body limit as the page's, and
/// answering pages of the allowed origins only.
pub fn ai_router(state: Arc<AiState>) -> Router {
    let body_limit = state.app.limits().body_bytes;
    let origins: Vec<HeaderValue> = state
        .origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([header::CONTENT_TYPE])
        .expose_headers([header::HeaderName::from_static(WARNING_HEADER)])
        .allow_private_network(true);
    Router::new()
        .route("/", get(socket_or_info))
        .route("/ws", get(socket_or_info))
        .route("/move", post(choose_over_http))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(cors)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            allowed_origin_only,
        ))
        .layer(axum::middleware::from_fn(local_host_only))
        .with_state(state)
}

/// Refuses a request a page of another origin sent (a browser always names the page's origin
/// in `Origin` on a cross-origin request and on a WebSocket's handshake, to which CORS does not
/// apply): a page the user visits cannot then make the server search.
async fn allowed_origin_only(
    State(state): State<Arc<AiState>>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
        if !state
            .origins
            .iter()
            .any(|o| o.eq_ignore_ascii_case(&origin))
        {
            return ApiError::ForeignOrigin {
                origin: origin.chars().take(100).collect(),
                allowed: state.origins.join(", "),
            }
            .into_response();
        }
    }
    next.run(request).await
}

/// Refuses a body not sent as JSON: a page may send a plain-text body to any address without
/// asking first (no CORS preflight), a JSON one only after the preflight the origins allowed pass.
fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|mime| mime.trim().to_ascii_lowercase())
        .is_some_and(|mime| mime == "application/json" || mime.ends_with("+json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::Rejected {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            reason: "Expected request with `Content-Type: application/json`".into(),
        })
    }
}

/// Reads a `{view, clock}` body and checks its size before any work.
fn read_request(state: &AiState, body: &[u8]) -> Result<MoveRequest, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|e| ApiError::BadRequest(format!("the body is not UTF-8 text: {e}")))?;
    let request = sdk::parse_request(text)?;
    check_size(state, &request)?;
    Ok(request)
}

/// Refuses a history longer than the server replays, setup moves included.
fn check_size(state: &AiState, request: &MoveRequest) -> Result<(), ApiError> {
    let limit = state.app.limits().moves_per_game;
    let history = request.view.move_history.len();
    let setup = request
        .view
        .game_data
        .position
        .as_ref()
        .and_then(|p| p.setup_moves.as_ref())
        .map_or(0, Vec::len);
    match (history + setup > limit, setup) {
        (false, _) => Ok(()),
        (true, 0) => Err(ApiError::HistoryTooLong {
            limit,
            moves: history,
        }),
        (true, setup) => Err(ApiError::SetupTooLong {
            limit,
            history,
            setup,
        }),
    }
}

/// Rebuilds the game and searches it on a worker, within the clock's share of time. When the
/// search is still inside a move at its deadline (a single move on a state of a million basis
/// states outlasts a short share), the answer is the best move it has published so far
/// (qc-engine's `ontime`, as `qchess uqci` answers), and the search is stopped. The search is
/// stopped too when the request goes away (its worker is free as soon as the search sees it).
async fn choose(state: &AiState, request: MoveRequest) -> Result<Chosen, ApiError> {
    let memory = MemoryLimit::bytes(state.app.plan().game_limit_bytes);
    let most = state.most();
    let answer_by =
        sdk::move_limits(&request, UNTIMED_MOVE_TIME, most).answer_by(std::time::Instant::now());
    let (on_time, early) = tokio::sync::oneshot::channel();
    let work = state
        .app
        .compute(move |stop| search_on_time(&request, memory, most, answer_by, stop, on_time));
    let (choice, differences) = tokio::select! {
        answer = work => {
            let answer = answer?;
            (answer.choice, answer.differences)
        }
        // A search still running at its deadline: the move it published (dropping `work`
        // raises its flag, so the search ends).
        Ok(taken) = early => taken,
    };
    Ok(Chosen {
        choice,
        warning: warning_of(state, &differences),
    })
}

/// Ends a published answer however the search ends (a panic too), so that whoever waits on it
/// returns.
struct EndOnDrop<'a>(&'a Answer);

impl Drop for EndOnDrop<'_> {
    fn drop(&mut self) {
        self.0.end(None);
    }
}

/// What a search answered on time: the move it had published and the legal-move differences.
type OnTime = (MoveChoice, LegalDifferences);

/// The search of `request` on this worker thread, and beside it a thread that waits for
/// `answer_by`: if the search is still running then, that thread sends the best move the
/// search has published on `on_time` and raises `stop`. Both threads end before this returns,
/// so the worker is held until the search has stopped.
fn search_on_time(
    request: &MoveRequest,
    memory: MemoryLimit,
    most: Duration,
    answer_by: Option<std::time::Instant>,
    stop: &StopFlag,
    on_time: tokio::sync::oneshot::Sender<OnTime>,
) -> Result<sdk::Answer, ApiError> {
    let published = Answer::new();
    // Known before the search starts, so before it publishes anything.
    let differences = std::sync::Mutex::new(LegalDifferences::default());
    std::thread::scope(|scope| {
        let _ended = EndOnDrop(&published);
        if let Some(due) = answer_by {
            let (published, differences) = (&published, &differences);
            scope.spawn(move || {
                let taken = published.wait(Some(due), false, stop);
                let choice = taken.and_then(|text| early_choice(published, &text));
                if let Some(choice) = choice {
                    stop.stop();
                    let differences = differences
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .clone();
                    let _ = on_time.send((choice, differences));
                }
            });
        }
        let mut searcher = Searcher::new(SearchConfig {
            table_bytes: ENGINE_TABLE_BYTES,
            ..SearchConfig::default()
        });
        searcher.publish_to(Some(published.clone()));
        let answer = sdk::answer_telling(
            request,
            SparseSim::with_limit(memory),
            &mut searcher,
            UNTIMED_MOVE_TIME,
            most,
            stop.clone(),
            |found| {
                *differences
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = found.clone();
            },
        );
        published.end(answer.as_ref().ok().map(|a| a.qcan.to_string()));
        Ok(answer?)
    })
}

/// The move a search still running published (`text`), in the SDK's shape; `None` once the
/// search has ended (its own answer is then given).
fn early_choice(published: &Answer, text: &str) -> Option<MoveChoice> {
    if published.has_ended() {
        return None;
    }
    sdk::choice_of(&text.parse::<QcanMove>().ok()?)
}

/// The warning when the view's legal moves and qchess's differ, reported to the server's
/// `warn` too.
fn warning_of(state: &AiState, differences: &LegalDifferences) -> Option<String> {
    (!differences.is_empty()).then(|| {
        let text = format!(
            "view.legalMoves and qchess's legal moves differ: {differences}; answered among the moves both list"
        );
        (state.warn)(&text);
        text
    })
}

async fn choose_over_http(
    State(state): State<Arc<AiState>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    require_json(&headers)?;
    let body = body.map_err(|r| ApiError::Rejected {
        status: r.status(),
        reason: r.body_text(),
    })?;
    let request = read_request(&state, &body)?;
    let chosen = choose(&state, request).await?;
    let mut response = Json(chosen.choice).into_response();
    if let Some(warning) = chosen.warning {
        // A header value is visible ASCII: the differences are written so.
        let ascii: String = warning
            .chars()
            .filter(|c| c.is_ascii_graphic() || *c == ' ')
            .collect();
        if let Ok(value) = HeaderValue::from_str(&ascii) {
            response.headers_mut().insert(WARNING_HEADER, value);
        }
    }
    Ok(response)
}

/// What a plain `GET /` answers: what this server is and how to reach it.
fn info(state: &AiState) -> Value {
    let limits = state.app.limits();
    json!({
        "name": "qchess",
        "version": env!("CARGO_PKG_VERSION"),
        "protocol": "Quantum Chess SDK custom AI: POST /move with {view, clock}; WebSocket at / with {type: \"chooseMove\", requestId, view, clock}",
        "untimed_move_ms": UNTIMED_MOVE_TIME.as_millis() as u64,
        "max_move_ms": engine_max_millis(limits),
        "origins": state.origins,
        "limits": {
            "body_bytes": limits.body_bytes,
            "history_moves": limits.moves_per_game,
            "request_seconds": limits.request_time.as_secs(),
            "workers": limits.workers,
            "queue": limits.queue,
            "search_memory_bytes": state.app.plan().game_limit_bytes,
        },
        "load": state.app.load(),
    })
}

async fn socket_or_info(
    State(state): State<Arc<AiState>>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Response {
    match upgrade {
        Ok(upgrade) => {
            let bytes = state.app.limits().body_bytes;
            upgrade
                .max_message_size(bytes)
                .max_frame_size(bytes)
                .on_upgrade(move |socket| talk(socket, state))
        }
        // A WebSocket handshake that is wrong says why; a plain GET is told what this is.
        Err(rejection) if headers.contains_key(header::UPGRADE) => rejection.into_response(),
        Err(_) => Json(info(&state)).into_response(),
    }
}

/// Answers one connection's messages in order until it closes, or stays silent longer than
/// [`Limits::socket_idle_time`].
async fn talk(mut socket: WebSocket, state: Arc<AiState>) {
    let idle = state.app.limits().socket_idle_time;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(idle, socket.recv()).await {
        let text = match message {
            Message::Text(text) => text.as_str().to_owned(),
            Message::Binary(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Message::Close(_) => break,
            // Pings are answered by the WebSocket layer itself.
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if let Some(reply) = reply_to(&state, &text).await {
            if socket
                .send(Message::Text(reply.to_string().into()))
                .await
                .is_err()
            {
                break;
            }
        }
    }
}

/// The answer to one WebSocket message: a choice or an error for `chooseMove` (with its
/// `requestId`), nothing for the notices `opponentMove` and `gameOver`.
async fn reply_to(state: &AiState, text: &str) -> Option<Value> {
    let error = |id: &Value, e: ApiError| {
        Some(json!({"requestId": id, "status": e.status().as_u16(), "error": e.to_string()}))
    };
    let message: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return error(&Value::Null, sdk::SdkError::Json(e.to_string()).into()),
    };
    let id = message.get("requestId").cloned().unwrap_or(Value::Null);
    match message.get("type").and_then(Value::as_str) {
        Some("chooseMove") => {}
        Some("opponentMove" | "gameOver") => return None,
        Some(other) => {
            return error(
                &id,
                ApiError::BadRequest(format!(
                    "unknown message type `{}` (expected chooseMove, opponentMove or gameOver)",
                    other.chars().take(40).collect::<String>()
                )),
            )
        }
        None => {
            return error(
                &id,
                ApiError::BadRequest("a message needs a string field `type` (chooseMove)".into()),
            )
        }
    }
    if id.is_null() {
        return error(
            &id,
            ApiError::BadRequest("chooseMove needs a `requestId` to answer with".into()),
        );
    }
    let request = match serde_json::from_value::<MoveRequest>(message) {
        Ok(r) => r,
        Err(e) => return error(&id, sdk::SdkError::Json(e.to_string()).into()),
    };
    if let Err(e) = check_size(state, &request) {
        return error(&id, e);
    }
    match choose(state, request).await {
        Ok(chosen) => {
            let choice = serde_json::to_value(&chosen.choice).unwrap_or(Value::Null);
            let mut reply = json!({"requestId": id, "choice": choice.clone()});
            if let (Some(flat), Value::Object(fields)) = (reply.as_object_mut(), choice) {
                flat.extend(fields);
            }
            if let (Some(flat), Some(warning)) = (reply.as_object_mut(), chosen.warning) {
                flat.insert("warning".into(), Value::String(warning));
            }
            Some(reply)
        }
        Err(e) => error(&id, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_search_answers_its_published_move_in_the_sdk_shape() {
        let published = Answer::new();
        published.publish("b1^a3c3".into());
        let choice = early_choice(&published, "b1^a3c3").expect("a split");
        assert_eq!(
            serde_json::to_value(&choice).expect("json"),
            json!({"type": "split", "from": 1, "targetA": 16, "targetB": 18})
        );
        assert!(early_choice(&published, "not a move").is_none());
        published.end(Some("e2e4".into()));
        assert!(early_choice(&published, "b1^a3c3").is_none());
    }
}
