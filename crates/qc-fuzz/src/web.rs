//! The servers' surfaces, in process (the routers through tower's `oneshot`, no socket), each
//! under small limits so that a hostile request is refused quickly:
//!
//! - [`web_api`]: a session of requests to `qchess serve`'s JSON API, one a line
//!   (`METHOD PATH [BODY]`; `{id}` in a path stands for the game the session created last).
//! - [`ai_burst`]: one `{view, clock}` body posted to `qchess serve --ai` by many clients at
//!   once (how many is drawn from the body), then the start position once more.
//!
//! Properties beyond "no panic": every answer is a success, a 4xx with a reason in words, or a
//! 503 with a reason and `Retry-After`; never another 5xx, never an answer without a reason. A
//! burst is answered or refused in full, and the AI server answers a good request after it (a
//! burst once wedged it).

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use qc_web::{ai_router, router, AiState, AppState, Limits, NewGame};
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// The most requests of one web session.
pub const MAX_REQUESTS: usize = 32;
/// The most clients of one burst (the AI server computes 2 and queues 8 by default; the rest
/// are refused at once).
pub const MAX_BURST: usize = 24;
/// The memory the servers' games may hold together (a small budget refuses big games fast).
const MEMORY_BYTES: u128 = 64 << 20;
/// How long one request may take before the server answers 503 (bounds every search: the API's
/// engine and the AI server stop theirs at the request's end).
const REQUEST_TIME: Duration = Duration::from_secs(2);
/// The largest body accepted (a game file, a counts file).
const BODY_BYTES: usize = 64 << 10;

/// Small limits for the servers under fuzz.
fn limits() -> Limits {
    Limits {
        body_bytes: BODY_BYTES,
        games: 4,
        moves_per_game: 64,
        game_memory_bytes: MEMORY_BYTES / 4,
        memory_bytes: MEMORY_BYTES,
        request_time: REQUEST_TIME,
        ..Limits::default()
    }
}

/// An answer: its status, whether it says when to retry, and its body.
struct Answer {
    status: StatusCode,
    retry_after: bool,
    body: String,
}

/// Sends one request through `app`.
async fn send(
    app: &Router,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> Result<Answer, String> {
    let mut request = Request::builder().method(method.clone()).uri(path);
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .map_err(|e| format!("{method} {path}: the request cannot be built: {e}"))?;
    let response = app
        .clone()
        .oneshot(request)
        .await
        .map_err(|e| format!("{method} {path}: no answer: {e}"))?;
    let status = response.status();
    let retry_after = response.headers().contains_key("retry-after");
    let bytes = response
        .into_body()
        .collect()
        .await
        .map_err(|e| format!("{method} {path}: the body breaks off: {e}"))?
        .to_bytes();
    Ok(Answer {
        status,
        retry_after,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// The reason an error answer gives: its JSON `error` field, or its text.
fn reason(body: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(value) => value["error"].as_str().unwrap_or_default().to_string(),
        Err(_) => body.trim().to_string(),
    }
}

/// Every answer is a success, a 4xx with a reason, or a 503 with a reason and `Retry-After`.
fn check_answer(what: &str, answer: &Answer) -> Result<(), String> {
    let status = answer.status;
    if status.is_success() || status.is_redirection() {
        return Ok(());
    }
    let reason = reason(&answer.body);
    if reason.is_empty() {
        return Err(format!(
            "{what}: {status} without a reason: {:?}",
            answer.body
        ));
    }
    if status == StatusCode::SERVICE_UNAVAILABLE && !answer.retry_after {
        return Err(format!("{what}: 503 without Retry-After ({reason})"));
    }
    if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        return Err(format!("{what}: {status} ({reason})"));
    }
    Ok(())
}

/// A runtime for one input: two workers, as the servers' own.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("no runtime: {e}"))
}

/// One request line: method, path and body (the rest of the line).
fn request_line(line: &str) -> Option<(Method, &str, Option<&str>)> {
    let mut parts = line.trim().splitn(3, ' ');
    let method = Method::from_bytes(parts.next()?.as_bytes()).ok()?;
    let path = parts.next()?;
    let body = parts.next().map(str::trim).filter(|b| !b.is_empty());
    Some((method, path, body))
}

/// A session of requests to the web API (module documentation).
pub fn web_api(input: &str) -> Result<(), String> {
    web_session(input).map(drop)
}

/// [`web_api`], with each request sent and the status it was answered.
fn web_session(input: &str) -> Result<Vec<(String, StatusCode)>, String> {
    let runtime = runtime()?;
    runtime.block_on(async {
        let mut sent = Vec::new();
        let app = router(Arc::new(AppState::new(limits(), NewGame::default())));
        let mut game = String::from("none");
        for line in input.lines().take(MAX_REQUESTS) {
            let Some((method, path, body)) = request_line(line) else {
                continue;
            };
            let path = path.replace("{id}", &game);
            // A path the request builder refuses is no request a client can send.
            if path.parse::<axum::http::Uri>().is_err() {
                continue;
            }
            let answer = send(&app, method.clone(), &path, body).await?;
            let what = format!("{method} {path}");
            check_answer(&what, &answer)?;
            sent.push((what, answer.status));
            if answer.status == StatusCode::CREATED {
                if let Ok(state) = serde_json::from_str::<serde_json::Value>(&answer.body) {
                    if let Some(id) = state["id"].as_str() {
                        game = id.to_string();
                    }
                }
            }
        }
        Ok(sent)
    })
}

/// How many clients post the body at once: from the body, so that a mutation draws another.
fn burst_size(body: &str) -> usize {
    (crate::fnv1a(body.as_bytes()) % MAX_BURST as u64) as usize + 1
}

/// A burst of one body to the AI server, then the start position (module documentation).
pub fn ai_burst(input: &str) -> Result<(), String> {
    let runtime = runtime()?;
    runtime.block_on(async {
        let app = ai_router(Arc::new(AiState::new(limits(), Arc::new(|_: &str| {}))));
        let clients: Vec<_> = (0..burst_size(input))
            .map(|_| {
                let app = app.clone();
                let body = input.to_string();
                tokio::spawn(async move { send(&app, Method::POST, "/move", Some(&body)).await })
            })
            .collect();
        for client in clients {
            let answer = client
                .await
                .map_err(|e| format!("a client of the burst failed: {e}"))??;
            check_answer("POST /move in a burst", &answer)?;
        }
        let after = send(&app, Method::POST, "/move", Some(START_BODY)).await?;
        if after.status != StatusCode::OK {
            return Err(format!(
                "after the burst the start position is answered {} ({})",
                after.status,
                reason(&after.body)
            ));
        }
        Ok(())
    })
}

/// The start position as the official app sends it, with no time left (each search answers at
/// once with its first move).
pub const START_BODY: &str = include_str!("../corpus/ai_burst/start.json");

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, retry_after: bool, body: &str) -> Answer {
        Answer {
            status: StatusCode::from_u16(status).expect("a status"),
            retry_after,
            body: body.to_string(),
        }
    }

    #[test]
    fn an_error_without_a_reason_or_a_server_error_breaks_the_property() {
        let reason = r#"{"error": "no such game", "kind": "not_found"}"#;
        assert!(check_answer("x", &answer(200, false, "{}")).is_ok());
        assert!(check_answer("x", &answer(404, false, reason)).is_ok());
        assert!(check_answer("x", &answer(503, true, reason)).is_ok());
        assert!(check_answer("x", &answer(404, false, "{}")).is_err());
        assert!(check_answer("x", &answer(503, false, reason)).is_err());
        assert!(check_answer("x", &answer(500, false, reason)).is_err());
    }

    #[test]
    fn the_seed_session_creates_plays_and_closes_a_game() {
        let session = include_str!("../corpus/web_api/play_and_undo.txt");
        let sent = web_session(session).expect("the properties hold");
        let status = |end: &str| {
            sent.iter()
                .find(|(what, _)| what.ends_with(end))
                .map(|(_, status)| status.as_u16())
        };
        assert_eq!(status("POST /api/games"), Some(201), "{sent:?}");
        // `{id}` became the created game's id: its move is played, the game closed, then gone.
        assert!(
            sent.iter().all(|(what, _)| !what.contains("/none/")),
            "{sent:?}"
        );
        for (end, want) in [("/play", 200), ("/engine", 200), ("/resign", 200)] {
            assert_eq!(status(end), Some(want), "{end}: {sent:?}");
        }
        assert!(sent
            .iter()
            .any(|(what, s)| what.starts_with("DELETE") && s.as_u16() == 204));
        assert_eq!(sent.last().map(|(_, s)| s.as_u16()), Some(404), "{sent:?}");
    }

    #[test]
    fn a_burst_of_the_start_position_is_answered_or_refused_and_the_server_recovers() {
        assert!(burst_size(START_BODY) >= 1);
        ai_burst(START_BODY).expect("the properties hold");
    }
}
