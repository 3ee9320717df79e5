//! The JSON API under `/api/` (documented in `docs/web.md`) and the router that serves it with
//! the page. Every computation on a game runs off the async runtime (`spawn_blocking`), one
//! request per game at a time, at most [`Limits::workers`] at once, within
//! [`Limits::request_time`].

use crate::assets;
use crate::budget::MemoryPlan;
use crate::error::ApiError;
use crate::game::{NewGame, WebGame};
use crate::limits::Limits;
use crate::store::Store;
use crate::view::GameState;
use crate::work::{Load, Workers};
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use qc_engine::StopFlag;
use qc_export::{Dialect, ExportOptions, Form, MeasureScope, Target, Width, BUNDLED_TARGETS};
use qc_front::counts::{CountsFormat, Mitigation};
use qc_front::{CompileDefaults, CountsRequest, Format, RulesKind, COMPILE_DEFAULTS};
use qc_ir::Choice;
use qc_render::board_svg;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// What every request shares: the games, the bounds, the workers, the memory plan, and the
/// game the page starts with.
pub struct AppState {
    store: Store,
    limits: Limits,
    plan: MemoryPlan,
    workers: Workers,
    initial: NewGame,
}

impl AppState {
    /// A server state with `limits`; the page's first game is `initial`.
    pub fn new(limits: Limits, initial: NewGame) -> AppState {
        AppState::planned(limits, initial, true)
    }

    /// A server state with `limits` whose memory plan keeps games (`keeps_games`) or not.
    pub(crate) fn planned(limits: Limits, initial: NewGame, keeps_games: bool) -> AppState {
        let plan = MemoryPlan::new(&limits, keeps_games);
        AppState {
            store: Store::new(plan.games),
            workers: Workers::new(&limits),
            plan,
            limits,
            initial,
        }
    }

    /// The number of games kept.
    pub fn games(&self) -> usize {
        self.store.len()
    }

    /// The bounds.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// How the memory budget is shared.
    pub fn plan(&self) -> &MemoryPlan {
        &self.plan
    }

    /// What the workers are doing.
    pub fn load(&self) -> Load {
        self.workers.load()
    }

    fn busy(&self) -> ApiError {
        ApiError::Busy {
            seconds: self.limits.request_time.as_secs(),
        }
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.limits.request_time
    }

    /// Runs `work` on a worker thread within the request time (see [`Workers::run_until`]);
    /// its flag is raised once the request stops waiting for it.
    pub(crate) async fn compute<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&StopFlag) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        self.workers.run_until(self.deadline(), work).await
    }

    /// Runs `work` on the game `id` (after the requests on it before this one).
    pub(crate) async fn on_game<T, F>(&self, id: &str, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&mut WebGame, &StopFlag) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let game = self
            .store
            .get(id)
            .ok_or_else(|| ApiError::NoSuchGame(id.to_string()))?;
        let deadline = self.deadline();
        let mut guard = timeout_at(deadline, game.lock_owned())
            .await
            .map_err(|_| self.busy())?;
        let result = self
            .workers
            .run_until(deadline, move |stop| work(&mut guard, stop))
            .await;
        if let Err(ApiError::Internal(_)) = &result {
            // The game's state after a panic is unknown: close it.
            self.store.remove(id);
        }
        result
    }
}

/// A JSON body whose rejection (bad JSON, wrong content type, too large) is an [`ApiError`]
/// with axum's reason.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

/// A JSON body that may be left out altogether (no body, no content type): then
/// `T::default()`. `POST /undo` takes one, so that a request without a body still undoes.
pub struct OptionalJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned + Default> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if req.headers().contains_key(axum::http::header::CONTENT_TYPE) {
            let ApiJson(value) = ApiJson::<T>::from_request(req, state).await?;
            return Ok(OptionalJson(value));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|r| ApiError::Rejected {
                status: r.status(),
                reason: r.body_text(),
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        Err(ApiError::Rejected {
            status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
            reason: "Expected request with `Content-Type: application/json`".into(),
        })
    }
}

fn json_rejection(r: JsonRejection) -> ApiError {
    ApiError::Rejected {
        status: r.status(),
        reason: r.body_text(),
    }
}

pub(crate) fn query_rejection(r: QueryRejection) -> ApiError {
    ApiError::Rejected {
        status: r.status(),
        reason: r.body_text(),
    }
}

/// The router: the page at `/`, its assets, and the API under `/api/`.
pub fn router(state: Arc<AppState>) -> Router {
    let body_limit = state.limits.body_bytes;
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/info", get(info))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show_game).delete(close_game))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/moves", get(legal_moves))
        .route("/api/games/{id}/board.svg", get(board))
        .route("/api/games/{id}/circuit.svg", get(circuit))
        .route("/api/games/{id}/compile", get(compile))
        .route("/api/games/{id}/counts", post(counts))
        .route("/api/games/{id}/game", get(game_file))
        .route("/api/games/{id}/engine", post(engine))
        .route("/api/games/{id}/resign", post(crate::ending::resign))
        .route("/api/games/{id}/draw", post(crate::ending::draw))
        .route("/api/games/{id}/position", get(crate::browse::position))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(local_host_only))
        .with_state(state)
}

/// Answers only requests addressed to this machine: a `Host` of `127.0.0.1`, `localhost` or
/// `[::1]` (any port), or none. A page elsewhere cannot then reach the server through a DNS name
/// of its own that resolves to 127.0.0.1 (DNS rebinding): the browser sends that name as `Host`.
pub(crate) async fn local_host_only(request: Request, next: axum::middleware::Next) -> Response {
    let host = request
        .headers()
        .get(axum::http::header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
    if let Some(host) = host {
        let name = match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host.as_str(),
        };
        if !matches!(name, "127.0.0.1" | "localhost" | "[::1]") {
            return ApiError::ForeignHost(host).into_response();
        }
    }
    next.run(request).await
}

pub(crate) async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_string())
}

pub(crate) async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
    }
}

/// A named choice for the page's menus.
#[derive(Serialize)]
struct Named {
    name: &'static str,
    help: &'static str,
}

fn named<T: Choice>() -> Vec<Named> {
    T::CHOICES
        .iter()
        .map(|c| Named {
            name: c.name,
            help: c.help,
        })
        .collect()
}

/// A ruleset in the page's menu: its name, its title and its rule options.
#[derive(Serialize)]
struct RulesEntry {
    name: &'static str,
    title: &'static str,
    options: Vec<Named>,
}

/// Every registered ruleset, as the page's menu lists it.
fn rules_entries() -> Vec<RulesEntry> {
    RulesKind::CHOICES
        .iter()
        .map(|choice| RulesEntry {
            name: choice.name,
            title: choice.value.menu_title(),
            options: choice
                .value
                .rule_options()
                .iter()
                .map(|&(name, help)| Named { name, help })
                .collect(),
        })
        .collect()
}

async fn info(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    let limits = &state.limits;
    Json(serde_json::json!({
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules_entries(),
        "initial": {
            "rules": state.initial.rules,
            "variant": state.initial.variant,
            "fen": state.initial.fen,
            "moves": state.initial.moves,
            "game": state.initial.game,
            "seed": state.initial.seed,
        },
        "formats": named::<Format>(),
        "targets": BUNDLED_TARGETS.iter().map(|(name, _)| *name).collect::<Vec<_>>(),
        "forms": named::<Form>(),
        "dialects": named::<Dialect>(),
        "widths": named::<Width>(),
        "measures": named::<MeasureScope>(),
        "counts_formats": named::<CountsFormat>(),
        "engine": {
            "min_movetime_ms": ENGINE_MIN_MILLIS,
            "max_movetime_ms": engine_max_millis(limits),
        },
        "limits": {
            "body_bytes": limits.body_bytes,
            "games": state.plan.games,
            "moves_per_game": limits.moves_per_game,
            "game_memory_bytes": state.plan.game_limit_bytes,
            "memory_bytes": limits.memory_bytes,
            "workers": limits.workers,
            "queue": limits.queue,
            "request_seconds": limits.request_time.as_secs(),
        },
        "load": state.workers.load(),
    }))
}

/// The header of a `201` that closed an idle game to make room: the closed game's id.
pub const CLOSED_HEADER: &str = "x-qchess-closed";

async fn new_game(
    State(state): State<Arc<AppState>>,
    ApiJson(spec): ApiJson<NewGame>,
) -> Result<Response, ApiError> {
    let (memory, moves) = (state.plan.game_limit_bytes, state.limits.moves_per_game);
    let id = state.store.fresh_id();
    // The game is made and shown in one piece of work, and kept only once its request has its
    // answer: a creation that outlasts the request time is dropped when it ends, and neither
    // takes a place among the games kept nor closes one.
    let (game, view) = state
        .compute({
            let id = id.clone();
            move |_| {
                let game = WebGame::new(&spec, memory, moves)?;
                let view = GameState::of(&id, &game);
                Ok((game, view))
            }
        })
        .await?;
    let closed = state
        .store
        .insert(&id, game)
        .map_err(|_| ApiError::GamesInUse {
            games: state.store.capacity(),
            budget_mib: state.limits.memory_bytes >> 20,
        })?;
    let mut response = (StatusCode::CREATED, Json(view)).into_response();
    if let Some(closed) = closed.and_then(|c| axum::http::HeaderValue::from_str(&c).ok()) {
        response.headers_mut().insert(CLOSED_HEADER, closed);
    }
    Ok(response)
}

async fn show_game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    let key = id.clone();
    let view = state
        .on_game(&key, move |g, _| Ok(GameState::of(&id, g)))
        .await?;
    Ok(Json(view))
}

async fn close_game(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    if state.store.remove(&id) {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NoSuchGame(id))
    }
}

/// `{"move": "b1^a3c3", "ply": 4}`: the move, and the ply the page saw (optional; a game at
/// another ply refuses the move with 409).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    ply: Option<usize>,
}

/// `{"ply": 4}` (optional, and so is the body): the ply the page saw.
#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoRequest {
    #[serde(default)]
    ply: Option<usize>,
}

/// A state with the move just played or taken back.
#[derive(Serialize)]
struct AfterMove {
    /// The move played (with its outcomes written in) or taken back.
    done: String,
    /// What happened, in words.
    detail: String,
    #[serde(flatten)]
    state: GameState,
}

async fn play(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<PlayRequest>,
) -> Result<Json<AfterMove>, ApiError> {
    let key = id.clone();
    let after = state
        .on_game(&key, move |g, _| {
            g.check_ply(request.ply)?;
            let played = g.play(&request.text)?;
            Ok(AfterMove {
                done: played.text,
                detail: played.detail,
                state: GameState::of(&id, g),
            })
        })
        .await?;
    Ok(Json(after))
}

async fn undo(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    OptionalJson(request): OptionalJson<UndoRequest>,
) -> Result<Json<AfterMove>, ApiError> {
    let key = id.clone();
    let after = state
        .on_game(&key, move |g, _| {
            g.check_ply(request.ply)?;
            let undone = g.undo()?;
            Ok(AfterMove {
                done: undone.text,
                detail: undone.detail,
                state: GameState::of(&id, g),
            })
        })
        .await?;
    Ok(Json(after))
}

async fn legal_moves(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let key = id.clone();
    let json = state
        .on_game(&key, move |g, _| {
            Ok(serde_json::json!({
                "id": id,
                "ply": g.ply(),
                "side_to_move": crate::view::side_word(g.session().side_to_move()),
                "moves": g.legal_moves(),
            }))
        })
        .await?;
    Ok(Json(json))
}

/// An SVG answer, with the game and the ply it shows in headers (`x-qchess-game`,
/// `x-qchess-ply`), as every JSON answer has them in its body.
fn svg(text: String, id: &str, ply: usize) -> Response {
    let headers = [
        (
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("image/svg+xml"),
        ),
        (
            axum::http::HeaderName::from_static("x-qchess-game"),
            axum::http::HeaderValue::from_str(id)
                .unwrap_or_else(|_| axum::http::HeaderValue::from_static("")),
        ),
        (
            axum::http::HeaderName::from_static("x-qchess-ply"),
            axum::http::HeaderValue::from(ply),
        ),
    ];
    (headers, text).into_response()
}

async fn board(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (text, ply) = state
        .on_game(&id, |g, _| {
            let game = g.session();
            let last = game.moves().pop();
            let board = crate::view::board_picture(&game.board_view(true), last.as_ref(), false);
            Ok((board, g.ply()))
        })
        .await?;
    Ok(svg(text, &id, ply))
}

/// `?move=N`: one move (0 = the set-up) instead of the whole game; `?all_wires=true`: also the
/// set-up wires no move touches.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CircuitQuery {
    #[serde(rename = "move")]
    number: Option<usize>,
    #[serde(default)]
    all_wires: bool,
}

async fn circuit(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    query: Result<Query<CircuitQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(query_rejection)?;
    let (text, ply) = state
        .on_game(&id, move |g, _| {
            Ok((g.circuit_svg(query.number, query.all_wires)?, g.ply()))
        })
        .await?;
    Ok(svg(text, &id, ply))
}

/// How to compile, as `qchess compile` takes it (every field optional, with its defaults:
/// `qc_front::COMPILE_DEFAULTS`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CompileQuery {
    format: Option<String>,
    target: Option<String>,
    form: Option<String>,
    dialect: Option<String>,
    width: Option<String>,
    measure: Option<String>,
    optimize: Option<bool>,
}

/// The options read, or a 400 naming the word that is not one of the choices.
struct CompileChoice {
    format: Format,
    options: ExportOptions,
    target: Option<Target>,
}

fn choose<T: Choice>(word: Option<&str>, default: T) -> Result<T, ApiError> {
    match word {
        None | Some("") => Ok(default),
        Some(w) => T::parse_choice(w).map_err(|e| ApiError::BadRequest(e.to_string())),
    }
}

impl CompileQuery {
    fn read(&self) -> Result<CompileChoice, ApiError> {
        // `qchess compile`'s defaults, from their one declaration: among them the board
        // measured at the end (the library measures nothing by default), so that a device's
        // counts come back as a board.
        let CompileDefaults {
            format: default_format,
            options: defaults,
        } = COMPILE_DEFAULTS;
        let target = match self.target.as_deref() {
            None | Some("") | Some("none") => None,
            Some(name) => match Target::bundled(name) {
                Some(t) => Some(t.map_err(|e| ApiError::BadRequest(e.to_string()))?),
                None => {
                    let names: Vec<&str> = BUNDLED_TARGETS.iter().map(|(n, _)| *n).collect();
                    return Err(ApiError::BadRequest(format!(
                        "unknown target `{name}` (expected one of: {})",
                        names.join(", ")
                    )));
                }
            },
        };
        Ok(CompileChoice {
            format: choose(self.format.as_deref(), default_format)?,
            options: ExportOptions {
                form: choose(self.form.as_deref(), defaults.form)?,
                dialect: choose(self.dialect.as_deref(), defaults.dialect)?,
                width: choose(self.width.as_deref(), defaults.width)?,
                measure: choose(self.measure.as_deref(), defaults.measure)?,
                optimize: self.optimize.unwrap_or(defaults.optimize),
            },
            target,
        })
    }
}

/// A compiled program and what it costs.
#[derive(Serialize)]
struct Program {
    /// The game's id.
    id: String,
    /// The ply the game was at (the same as `moves`).
    ply: usize,
    /// The program text.
    text: String,
    /// Qubits, bits, gate counts, two-qubit depth, measurements.
    summary: qc_export::Summary,
    /// The moves played when it was compiled (the counts of this program must come back while
    /// the game has as many).
    moves: usize,
}

async fn compile(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    query: Result<Query<CompileQuery>, QueryRejection>,
) -> Result<Json<Program>, ApiError> {
    let Query(query) = query.map_err(query_rejection)?;
    let choice = query.read()?;
    let key = id.clone();
    let program = state
        .on_game(&key, move |g, _| {
            let compiled = g.compile(choice.format, &choice.options, choice.target.as_ref())?;
            Ok(Program {
                id,
                ply: g.ply(),
                text: compiled.text,
                summary: compiled.summary,
                moves: g.move_count(),
            })
        })
        .await?;
    Ok(Json(program))
}

/// A device's counts of the program `compile` gave with the same options.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CountsBody {
    /// The counts file's text.
    counts: String,
    /// How the counts are written (`qiskit`, `braket`, `csv`; default: detected).
    counts_format: Option<String>,
    /// Mitigations, comma-separated (`postselect,symmetry`, the default; `none`).
    mitigate: Option<String>,
    /// A readout calibration's text (for `readout`).
    calibration: Option<String>,
    /// The `moves` that `compile` answered with the program.
    moves: usize,
    /// The options the program was compiled with.
    #[serde(default)]
    compile: CompileQuery,
}

/// The board a device's counts give, beside the exact one.
#[derive(Serialize)]
struct CountsAnswer {
    /// The game's id.
    id: String,
    /// The ply the game is at (the program's).
    ply: usize,
    estimate: qc_front::counts::BoardEstimate,
    /// The estimated board drawn; `None` when the counts give no board (the estimate's
    /// `no_board` says why: a Niel's Chess program measures only its dice rolls).
    measured_svg: Option<String>,
    /// The exact board drawn; `None` with `no_board` too.
    exact_svg: Option<String>,
}

async fn counts(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<CountsBody>,
) -> Result<Json<CountsAnswer>, ApiError> {
    let choice = body.compile.read()?;
    if !matches!(choice.format, Format::Qasm3 | Format::Qasm2) {
        return Err(ApiError::BadRequest(format!(
            "counts are read against an OpenQASM program (format qasm3 or qasm2), not `{}`",
            choice.format.name()
        )));
    }
    let format = body
        .counts_format
        .as_deref()
        .filter(|f| !f.is_empty() && *f != "auto")
        .map(CountsFormat::parse_choice)
        .transpose()
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let mitigation: Mitigation = match body.mitigate.as_deref() {
        None | Some("") => Mitigation::default(),
        Some(list) => list
            .parse()
            .map_err(|e: qc_ir::UnknownChoice| ApiError::BadRequest(e.to_string()))?,
    };
    let key = id.clone();
    let answer = state
        .on_game(&key, move |g, _| {
            let now = g.move_count();
            if now != body.moves {
                return Err(ApiError::GameChanged {
                    then: body.moves,
                    now,
                });
            }
            let program = g.compile(choice.format, &choice.options, choice.target.as_ref())?;
            let request = CountsRequest {
                format,
                mitigation,
                calibration: body.calibration.as_deref(),
                exact: true,
                ..CountsRequest::default()
            };
            let estimate = g.estimate_counts(&program.text, &body.counts, &request)?;
            // A program whose map names no square has no board to draw (an empty board
            // without kings was drawn for a Niel's Chess program once).
            let has_board = estimate.no_board.is_none();
            // The counts are of the game's position now: its side to move and status, which
            // the board map does not record.
            let in_game = |mut view: qc_rules::BoardView| {
                view.side_to_move = g.session().side_to_move();
                view.status = g.session().status();
                board_svg::draw(&view)
            };
            Ok(CountsAnswer {
                id,
                ply: now,
                measured_svg: has_board.then(|| in_game(qc_front::estimate_view(&estimate))),
                exact_svg: qc_front::exact_view(&estimate)
                    .filter(|_| has_board)
                    .map(in_game),
                estimate,
            })
        })
        .await?;
    Ok(Json(answer))
}

async fn game_file(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (text, extension) = state
        .on_game(&id, |g, _| {
            let game = g.session();
            Ok((game.game_file(true), game.game_file_extension()))
        })
        .await?;
    Ok((
        [
            (
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                axum::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"game.{extension}\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// The engine's time per move, in milliseconds, at least this.
pub const ENGINE_MIN_MILLIS: u64 = 10;

/// `{"movetime_ms": 1000, "ply": 5}`: the engine's time for its move, and the ply the page saw
/// (optional; a game at another ply refuses with 409).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineRequest {
    movetime_ms: u64,
    #[serde(default)]
    ply: Option<usize>,
}

/// A state with the engine's move just played and what its search found.
#[derive(Serialize)]
struct AfterEngine {
    /// The move played (with its outcome written in).
    done: String,
    /// What happened, in words.
    detail: String,
    /// What the search found: depth, score, nodes, time.
    search: SearchSummary,
    #[serde(flatten)]
    state: GameState,
}

/// What the engine's search found for its move.
#[derive(Serialize)]
struct SearchSummary {
    depth: u32,
    score: f64,
    nodes: u64,
    time_ms: u64,
}

/// The longest time per move the engine may take: half a request's time, so that the move
/// itself (a big superposition can be slow) still fits in the request.
pub(crate) fn engine_max_millis(limits: &Limits) -> u64 {
    u64::try_from(limits.request_time.as_millis() / 2).unwrap_or(u64::MAX)
}

async fn engine(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    ApiJson(request): ApiJson<EngineRequest>,
) -> Result<Json<AfterEngine>, ApiError> {
    let most = engine_max_millis(&state.limits);
    if !(ENGINE_MIN_MILLIS..=most).contains(&request.movetime_ms) {
        return Err(ApiError::BadRequest(format!(
            "movetime_ms must be between {ENGINE_MIN_MILLIS} and {most} (got {})",
            request.movetime_ms
        )));
    }
    let time = Duration::from_millis(request.movetime_ms);
    let key = id.clone();
    let after = state
        .on_game(&key, move |g, stop| {
            g.check_ply(request.ply)?;
            // Stopped as soon as the request stops waiting: the best move found so far is played.
            let found = g.engine_move(time, stop.clone())?;
            Ok(AfterEngine {
                done: found.played.text,
                detail: found.played.detail,
                search: SearchSummary {
                    depth: found.depth,
                    score: found.score,
                    nodes: found.nodes,
                    time_ms: u64::try_from(found.time.as_millis()).unwrap_or(u64::MAX),
                },
                state: GameState::of(&id, g),
            })
        })
        .await?;
    Ok(Json(after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn state(workers: usize, request_time: Duration) -> AppState {
        let limits = Limits {
            workers,
            request_time,
            ..Limits::default()
        };
        AppState::new(limits, NewGame::default())
    }

    /// A compile query without fields (or with empty ones, as the page's form sends them)
    /// compiles as `qchess compile` and Python's `Game.compile()` do without options.
    #[test]
    fn an_empty_compile_query_takes_the_front_ends_defaults() {
        let empty = String::new();
        let blank = CompileQuery {
            format: Some(empty.clone()),
            target: Some(empty.clone()),
            form: Some(empty.clone()),
            dialect: Some(empty.clone()),
            width: Some(empty.clone()),
            measure: Some(empty),
            optimize: None,
        };
        for query in [CompileQuery::default(), blank] {
            match query.read() {
                Ok(choice) => {
                    assert_eq!(choice.format, COMPILE_DEFAULTS.format, "{query:?}");
                    assert_eq!(choice.options, COMPILE_DEFAULTS.options, "{query:?}");
                    assert!(choice.target.is_none(), "{query:?}");
                }
                Err(e) => panic!("{query:?}: {e}"),
            }
        }
    }

    #[tokio::test]
    async fn a_panic_in_the_work_is_a_500_and_closes_the_game() {
        let state = state(1, Duration::from_secs(5));
        let game = WebGame::new(&NewGame::default(), 1 << 24, 10).unwrap();
        let id = state.store.fresh_id();
        assert!(state.store.insert(&id, game).is_ok());
        let answer = state
            .on_game(&id, |_, _| -> Result<(), ApiError> { panic!("a bug") })
            .await;
        match answer {
            Err(e @ ApiError::Internal(_)) => {
                assert!(e.to_string().contains("a bug"), "{e}");
                assert_eq!(e.status(), StatusCode::INTERNAL_SERVER_ERROR);
            }
            other => panic!("{other:?}"),
        }
        assert!(state.store.get(&id).is_none());
    }

    /// Work that holds a worker until `release` is sent or dropped.
    fn hold(state: &Arc<AppState>) -> (std::sync::mpsc::Sender<()>, tokio::task::JoinHandle<()>) {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let state = state.clone();
        let held = tokio::spawn(async move {
            let _ = state.compute(move |_| Ok(wait.recv())).await;
        });
        (release, held)
    }

    async fn until(state: &AppState, load: Load) {
        while state.load() != load {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    #[tokio::test]
    async fn a_new_game_is_made_and_shown_in_one_piece_of_work_so_no_game_is_kept_unanswered() {
        use tower::ServiceExt;
        // One worker, taken in turn: the creation is queued first, then other work. A creation
        // that needed the worker twice (once to make the game, once more to show it) was kept
        // after the first and waited behind the other work for the second: 503, and a game
        // kept that no one had the id of.
        let state = Arc::new(state(1, Duration::from_secs(30)));
        let (first, held) = hold(&state);
        until(
            &state,
            Load {
                running: 1,
                waiting: 0,
            },
        )
        .await;
        let app = router(state.clone());
        let create = tokio::spawn(async move {
            let request = axum::http::Request::post("/api/games")
                .header("content-type", "application/json")
                .body(axum::body::Body::from("{}"))
                .expect("a request");
            app.oneshot(request).await.expect("an answer").status()
        });
        until(
            &state,
            Load {
                running: 1,
                waiting: 1,
            },
        )
        .await;
        let (second, held_too) = hold(&state);
        until(
            &state,
            Load {
                running: 1,
                waiting: 2,
            },
        )
        .await;
        drop(first);
        assert_eq!(create.await.expect("the creation"), StatusCode::CREATED);
        assert_eq!(state.games(), 1);
        drop(second);
        held.await.expect("held");
        held_too.await.expect("held too");
    }
}
