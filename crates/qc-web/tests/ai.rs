//! `qchess serve --ai`, the official Quantum Chess app's AI protocol, as the app calls it.
//!
//! The views are written by hand from the SDK's published types (`QCEngineView`, `QCClock`,
//! `QCMoveRecord`), with boards (pieces and probabilities) worked out by hand, so that the
//! server's rebuilt game is checked against an independent board: the server refuses a view
//! whose history does not give the board shown. HTTP goes through the router in-process; the
//! WebSocket form through a bound server and a real client (tokio-tungstenite).

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use qc_web::{ai_router, AiConfig, AiState, Limits, Server, Service, Warn};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

mod common;
use common::{body, classical, record, sq, start_body, start_legal};

/// The history of a split knight capturing from one of its halves, measured: 1. g1^f3h3 e7-e5
/// 2. f3xe5 (passed: the knight was on f3 and took; failed: it is on h3 and the pawn stays).
fn capture_history(passed: bool) -> Vec<Value> {
    vec![
        record("g1^f3h3", None),
        record("e7-e5", None),
        record("f3xe5", Some(passed)),
    ]
}

/// The board after [`capture_history`], by hand.
fn capture_board(passed: bool) -> (Vec<char>, Vec<f64>) {
    if passed {
        classical(&[("e7", "e5"), ("g1", "e5")])
    } else {
        classical(&[("e7", "e5"), ("g1", "h3")])
    }
}

/// A few of black's legal moves after [`capture_history`] (the app lists them all; the answer
/// must be one of those listed).
fn few_black_moves() -> Value {
    json!({
        "standard": [{"from": sq("d7"), "to": sq("d6")}, {"from": sq("b8"), "to": sq("c6")}],
        "splits": [{"from": sq("g8"), "targetA": sq("f6"), "targetB": sq("h6")}],
        "merges": []
    })
}

/// Whether `choice` is one of the moves `legal` lists.
fn listed(choice: &Value, legal: &Value) -> bool {
    let n = |v: &Value, k: &str| v[k].as_u64();
    match choice["type"].as_str() {
        Some("standard") => legal["standard"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| n(o, "from") == n(choice, "from") && n(o, "to") == n(choice, "to")),
        Some("split") => legal["splits"].as_array().unwrap().iter().any(|o| {
            n(o, "from") == n(choice, "from")
                && [n(o, "targetA"), n(o, "targetB")].contains(&n(choice, "targetA"))
                && [n(o, "targetA"), n(o, "targetB")].contains(&n(choice, "targetB"))
        }),
        Some("merge") => legal["merges"].as_array().unwrap().iter().any(|o| {
            n(o, "to") == n(choice, "to")
                && [n(o, "sourceA"), n(o, "sourceB")].contains(&n(choice, "sourceA"))
        }),
        _ => false,
    }
}

type Warnings = Arc<Mutex<Vec<String>>>;

fn app_with(limits: Limits) -> (Router, Warnings) {
    let warnings: Warnings = Arc::default();
    let kept = warnings.clone();
    let warn: Warn = Arc::new(move |text: &str| kept.lock().unwrap().push(text.to_string()));
    (ai_router(Arc::new(AiState::new(limits, warn))), warnings)
}

fn app() -> (Router, Warnings) {
    app_with(Limits::default())
}

/// Sends a request: the status, the warning header and the body (JSON when it reads).
async fn send(
    app: &Router,
    method: Method,
    path: &str,
    body: Option<&str>,
) -> (StatusCode, Option<String>, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let warning = response
        .headers()
        .get("x-qchess-warning")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, warning, value)
}

async fn post_move(app: &Router, body: &str) -> (StatusCode, Option<String>, Value) {
    send(app, Method::POST, "/move", Some(body)).await
}

#[tokio::test]
async fn the_start_view_is_answered_with_a_listed_move_and_no_warning() {
    let (app, warnings) = app();
    let clock = json!({"remainingMs": 60000, "incrementMs": 0, "opponentRemainingMs": 60000});
    let (status, warning, choice) = post_move(&app, &start_body(clock)).await;
    assert_eq!(status, StatusCode::OK, "{choice}");
    assert!(listed(&choice, &start_legal()), "{choice}");
    // The view's list (by hand) and qchess's agree: nothing to warn about.
    assert_eq!(warning, None);
    assert!(warnings.lock().unwrap().is_empty());
    // Untimed, and with no time left at all: still a listed move.
    for clock in [Value::Null, json!({"remainingMs": 0})] {
        let (status, _, choice) = post_move(&app, &start_body(clock)).await;
        assert_eq!(status, StatusCode::OK, "{choice}");
        assert!(listed(&choice, &start_legal()), "{choice}");
    }
}

#[tokio::test]
async fn a_measured_capture_from_a_split_is_rebuilt_both_ways_and_answered_legally() {
    let (app, warnings) = app();
    for passed in [true, false] {
        let body = body(
            capture_board(passed),
            "black",
            capture_history(passed),
            few_black_moves(),
            Value::Null,
        );
        let (status, warning, choice) = post_move(&app, &body).await;
        assert_eq!(status, StatusCode::OK, "passed {passed}: {choice}");
        assert!(listed(&choice, &few_black_moves()), "{choice}");
        // The view lists 3 of black's moves: the others are qchess's alone, and said so.
        let warning = warning.expect("a warning header");
        assert!(
            warning.contains("only qchess finds legal")
                && warning.contains("0 only view.legalMoves lists"),
            "{warning}"
        );
        // The other outcome's board does not match this history.
        let wrong = body_for_other_board(passed);
        let (status, _, error) = post_move(&app, &wrong).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert!(
            error["error"]
                .as_str()
                .unwrap()
                .contains("the history does not describe this board"),
            "{error}"
        );
    }
    assert_eq!(warnings.lock().unwrap().len(), 2);
}

fn body_for_other_board(passed: bool) -> String {
    body(
        capture_board(!passed),
        "black",
        capture_history(passed),
        few_black_moves(),
        Value::Null,
    )
}

#[tokio::test]
async fn bad_views_get_400_with_the_reason() {
    let (app, _) = app();
    let start = start_body(Value::Null);
    let mut missing: Value = serde_json::from_str(&start).unwrap();
    missing["view"]
        .as_object_mut()
        .unwrap()
        .remove("sideToMove");
    let mut no_outcome: Value = serde_json::from_str(&body(
        capture_board(true),
        "black",
        capture_history(true),
        few_black_moves(),
        Value::Null,
    ))
    .unwrap();
    no_outcome["view"]["moveHistory"][2]
        .as_object_mut()
        .unwrap()
        .remove("measurementPassed");
    // 1. e2-e4 f7-f6 2. Qd1-h5 g7-g5 3. Qh5xe8: the black king is taken, the game is over.
    let king_taken = [
        ("e2", "e4"),
        ("f7", "f6"),
        ("d1", "h5"),
        ("g7", "g5"),
        ("h5", "e8"),
    ];
    let over = body(
        classical(&king_taken),
        "black",
        king_taken
            .iter()
            .map(|(f, t)| record(&format!("{f}-{t}"), None))
            .collect(),
        json!({"standard": [{"from": sq("a7"), "to": sq("a6")}], "splits": [], "merges": []}),
        Value::Null,
    );
    let illegal = body(
        classical(&[("e2", "e5")]),
        "black",
        vec![record("e2-e5", None)],
        few_black_moves(),
        Value::Null,
    );
    let wrong_side = body(classical(&[]), "black", vec![], start_legal(), Value::Null);
    let nothing_in_common = body(
        classical(&[]),
        "white",
        vec![],
        json!({"standard": [{"from": sq("e2"), "to": sq("e5")}], "splits": [], "merges": []}),
        Value::Null,
    );
    let cases: Vec<(String, &str)> = vec![
        ("{".into(), "is not {view, clock} in the SDK's shape"),
        ("[]".into(), "is not {view, clock} in the SDK's shape"),
        (missing.to_string(), "missing field `sideToMove`"),
        (
            no_outcome.to_string(),
            "moveHistory[2]: wasMeasurement is true but measurementPassed is missing",
        ),
        (over, "the game is over after the history"),
        (illegal, "moveHistory[0] `e2e5.m1` cannot be replayed"),
        (
            wrong_side,
            "sideToMove is black, but the history leaves white to move",
        ),
        (
            nothing_in_common,
            "no move is legal both in qchess and in view.legalMoves",
        ),
    ];
    for (body, words) in cases {
        let (status, _, error) = post_move(&app, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{words}: {error}");
        let reason = error["error"].as_str().unwrap_or_default();
        assert!(reason.contains(words), "expected `{words}` in: {reason}");
    }
}

#[tokio::test]
async fn sizes_hosts_and_methods_are_bounded_and_refused_with_a_reason() {
    let small = Limits {
        body_bytes: 4000,
        moves_per_game: 2,
        ..Limits::default()
    };
    let (app, _) = app_with(small);
    // A history longer than the server replays: refused before any replay.
    let long = body(
        capture_board(true),
        "black",
        capture_history(true),
        few_black_moves(),
        Value::Null,
    );
    assert!(long.len() < 4000, "{}", long.len());
    let (status, _, error) = post_move(&app, &long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .contains("view.moveHistory has 3 moves; this server replays at most 2"),
        "{error}"
    );
    // Setup moves count too: one setup move and two history moves are three to replay.
    let mut setup: Value = serde_json::from_str(&long).expect("json");
    setup["view"]["gameData"]["position"]["setupMoves"] = json!(["e2-e4"]);
    setup["view"]["moveHistory"] = json!(capture_history(true)[..2]);
    let (status, _, error) = post_move(&app, &setup.to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(
        error["error"].as_str().unwrap().contains(
            "view.moveHistory has 2 moves and gameData.position.setupMoves 1; \
             this server replays at most 2 in all"
        ),
        "{error}"
    );
    // A body over the limit.
    let huge = format!("{{\"pad\": \"{}\"}}", "x".repeat(5000));
    let (status, _, error) = post_move(&app, &huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{error}");
    // Not this machine's name.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/move")
        .header("host", "evil.example:8080")
        .body(Body::from(start_body(Value::Null)))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    // GET /move, and an address that does not exist.
    let (status, _, error) = send(&app, Method::GET, "/move", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{error}");
    let (status, _, error) = send(&app, Method::GET, "/api/info", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{error}");
    // A plain GET / says what the server is.
    let (status, _, info) = send(&app, Method::GET, "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        info["protocol"].as_str().unwrap().contains("POST /move"),
        "{info}"
    );
}

#[tokio::test]
async fn the_app_page_may_call_it_cross_origin() {
    let (app, _) = app();
    // A browser's preflight for the app's fetch (JSON body, from its own origin, to a private
    // address).
    let request = Request::builder()
        .method(Method::OPTIONS)
        .uri("/move")
        .header("origin", "https://quantumchess.net")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .header("access-control-request-private-network", "true")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    assert_eq!(
        header("access-control-allow-origin").as_deref(),
        Some("https://quantumchess.net")
    );
    assert_eq!(
        header("access-control-allow-private-network").as_deref(),
        Some("true")
    );
    assert!(header("access-control-allow-methods").is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_form_answers_each_request_with_its_id() {
    let warn: Warn = Arc::new(|_: &str| {});
    let server = Server::bind(0, Limits::default(), Service::Ai(AiConfig::new(warn)))
        .await
        .unwrap();
    let address = server.address();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{address}/"))
        .await
        .unwrap();
    let mut request: Value = serde_json::from_str(&start_body(Value::Null)).unwrap();
    request["type"] = json!("chooseMove");
    request["requestId"] = json!(7);
    socket
        .send(Message::text(request.to_string()))
        .await
        .unwrap();
    // A notice needs no answer: the next answer is the next request's.
    socket
        .send(Message::text(
            json!({"type": "opponentMove", "move": record("e7-e5", None)}).to_string(),
        ))
        .await
        .unwrap();
    let mut illegal = request.clone();
    illegal["requestId"] = json!("second");
    illegal["view"]["moveHistory"] = json!([record("e2-e5", None)]);
    socket
        .send(Message::text(illegal.to_string()))
        .await
        .unwrap();
    socket
        .send(Message::text("not json".to_string()))
        .await
        .unwrap();
    socket
        .send(Message::text(
            json!({"type": "chooseMove", "view": {}}).to_string(),
        ))
        .await
        .unwrap();
    let mut replies = Vec::new();
    while replies.len() < 4 {
        match socket.next().await.unwrap().unwrap() {
            Message::Text(text) => replies.push(serde_json::from_str::<Value>(&text).unwrap()),
            other => panic!("{other:?}"),
        }
    }
    // The choice, nested (as the SDK's adapter reads it) and flat (as its README writes it).
    let first = &replies[0];
    assert_eq!(first["requestId"], json!(7), "{first}");
    assert!(listed(&first["choice"], &start_legal()), "{first}");
    assert_eq!(first["type"], first["choice"]["type"], "{first}");
    assert_eq!(first["from"], first["choice"]["from"], "{first}");
    // Errors carry the request's id, the status an HTTP answer would have, and the reason.
    let second = &replies[1];
    assert_eq!(second["requestId"], json!("second"), "{second}");
    assert_eq!(second["status"], json!(400), "{second}");
    assert!(
        second["error"]
            .as_str()
            .unwrap()
            .contains("cannot be replayed"),
        "{second}"
    );
    assert_eq!(replies[2]["requestId"], Value::Null);
    assert!(
        replies[2]["error"]
            .as_str()
            .unwrap()
            .contains("SDK's shape"),
        "{}",
        replies[2]
    );
    assert!(
        replies[3]["error"].as_str().unwrap().contains("requestId"),
        "{}",
        replies[3]
    );
    socket.close(None).await.unwrap();
    stop.send(()).unwrap();
    running.await.unwrap().unwrap();
}

/// Sends `request` and gives the status and the response's `access-control-allow-origin`.
async fn status_and_cors(app: &Router, request: Request<Body>) -> (StatusCode, Option<String>) {
    let response = app.clone().oneshot(request).await.unwrap();
    let allowed = response
        .headers()
        .get("access-control-allow-origin")
        .map(|v| v.to_str().unwrap().to_string());
    (response.status(), allowed)
}

#[tokio::test]
async fn pages_of_other_origins_and_bodies_not_sent_as_json_are_refused() {
    let (app, _) = app();
    let move_from = |origin: Option<&str>, content_type: &str| {
        let mut request = Request::builder()
            .method(Method::POST)
            .uri("/move")
            .header("content-type", content_type);
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request
            .body(Body::from(start_body(json!({"remainingMs": 0}))))
            .unwrap()
    };
    // The app's page, and a client that is no page (no Origin): answered.
    for origin in [Some("https://quantumchess.net"), None] {
        let (status, _) = status_and_cors(&app, move_from(origin, "application/json")).await;
        assert_eq!(status, StatusCode::OK, "{origin:?}");
    }
    // Another page, also with a body a page may send without a preflight.
    for content_type in ["application/json", "text/plain"] {
        let (status, allowed) =
            status_and_cors(&app, move_from(Some("https://evil.example"), content_type)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{content_type}");
        assert_eq!(allowed, None);
    }
    // A plain-text body from no page: refused too (a page's no-preflight request).
    let (status, _) = status_and_cors(&app, move_from(None, "text/plain")).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Another page's preflight is not allowed, and neither is its WebSocket (CORS does not
    // cover WebSockets: the server checks their Origin itself).
    let preflight = Request::builder()
        .method(Method::OPTIONS)
        .uri("/move")
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .body(Body::empty())
        .unwrap();
    let (_, allowed) = status_and_cors(&app, preflight).await;
    assert_eq!(allowed, None);
    let handshake = Request::builder()
        .method(Method::GET)
        .uri("/")
        .header("origin", "https://evil.example")
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .body(Body::empty())
        .unwrap();
    let (status, _) = status_and_cors(&app, handshake).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // An origin added to the list is answered.
    let mut config = AiConfig::new(Arc::new(|_: &str| {}));
    config.origins.push("http://localhost:5173".into());
    let added = ai_router(Arc::new(AiState::with_config(Limits::default(), config)));
    let (status, allowed) = status_and_cors(
        &added,
        move_from(Some("http://localhost:5173"), "application/json"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(allowed.as_deref(), Some("http://localhost:5173"));
}
