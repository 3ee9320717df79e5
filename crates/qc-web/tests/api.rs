//! The JSON API through the router in-process (tower's `oneshot`, no socket): what a page or a
//! script gets for good requests, and a 4xx with a reason in words for every kind of bad one.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use qc_web::{router, AppState, Limits, NewGame};
use serde_json::{json, Value};
use std::sync::Arc;
use tower::ServiceExt;

fn app_with(limits: Limits) -> Router {
    router(Arc::new(AppState::new(limits, NewGame::default())))
}

fn app() -> Router {
    app_with(Limits::default())
}

/// The answer's status and body (JSON when it reads as JSON, else a string).
async fn send(app: &Router, method: Method, path: &str, body: Option<&str>) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

async fn new_game(app: &Router, spec: Value) -> Value {
    let (status, state) = send(app, Method::POST, "/api/games", Some(&spec.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    state
}

async fn play(app: &Router, id: &str, text: &str) -> (StatusCode, Value) {
    let body = json!({ "move": text }).to_string();
    send(
        app,
        Method::POST,
        &format!("/api/games/{id}/play"),
        Some(&body),
    )
    .await
}

/// A state without its clocks (the running one counts on between two requests).
fn stopped(mut answer: (StatusCode, Value)) -> (StatusCode, Value) {
    if let Some(state) = answer.1.as_object_mut() {
        state.remove("clocks");
    }
    answer
}

fn probability(state: &Value, square: &str) -> f64 {
    state["squares"][square]["probability"]
        .as_f64()
        .unwrap_or(0.0)
}

/// The error's reason, after checking the status.
fn reason(answer: &(StatusCode, Value), status: StatusCode) -> String {
    assert_eq!(
        answer.0,
        status,
        "{}",
        &answer.1.to_string()[..answer.1.to_string().len().min(300)]
    );
    answer.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no reason in {}", answer.1))
        .to_string()
}

#[tokio::test]
async fn a_split_puts_the_knight_half_on_each_target() {
    let app = app();
    let state = new_game(&app, json!({})).await;
    assert_eq!(state["headline"], "White to move");
    assert_eq!(state["squares"].as_object().unwrap().len(), 32);
    assert!(state["board_svg"].as_str().unwrap().starts_with("<svg"));
    let id = state["id"].as_str().unwrap();
    let (status, after) = play(&app, id, "b1^a3c3").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["done"], "b1^a3c3");
    assert_eq!(after["headline"], "Black to move");
    assert_eq!(probability(&after, "a3"), 0.5);
    assert_eq!(probability(&after, "c3"), 0.5);
    assert_eq!(after["squares"]["a3"]["name"], "white knight");
    assert!(after["squares"].get("b1").is_none(), "{after}");
    assert_eq!(after["moves"][0]["mover"], "white");
    assert_eq!(after["state_size"], 2);
}

#[tokio::test]
async fn an_illegal_move_is_refused_with_its_reason_and_changes_nothing() {
    let app = app();
    let state = new_game(&app, json!({})).await;
    let id = state["id"].as_str().unwrap();
    let before = stopped(send(&app, Method::GET, &format!("/api/games/{id}"), None).await);
    let answer = play(&app, id, "b1b3").await;
    let why = reason(&answer, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(why.contains("b1"), "{why}");
    let after = stopped(send(&app, Method::GET, &format!("/api/games/{id}"), None).await);
    assert_eq!(before, after);
}

#[tokio::test]
async fn undo_takes_the_move_back_and_refuses_at_the_start() {
    let app = app();
    let start = new_game(&app, json!({})).await;
    let id = start["id"].as_str().unwrap();
    play(&app, id, "b1^a3c3").await;
    let path = format!("/api/games/{id}/undo");
    let (status, back) = send(&app, Method::POST, &path, None).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["done"], "b1^a3c3");
    assert_eq!(back["squares"], start["squares"]);
    assert_eq!(back["fen"], start["fen"]);
    let why = reason(
        &send(&app, Method::POST, &path, None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(why.contains("undo") || why.contains("no move"), "{why}");
}

#[tokio::test]
async fn legal_moves_come_with_the_squares_to_click() {
    let app = app();
    let state = new_game(&app, json!({})).await;
    let id = state["id"].as_str().unwrap();
    let (status, moves) = send(&app, Method::GET, &format!("/api/games/{id}/moves"), None).await;
    assert_eq!(status, StatusCode::OK);
    let list = moves["moves"].as_array().unwrap();
    let split = list.iter().find(|m| m["text"] == "b1^a3c3").unwrap();
    assert_eq!(split["clicks"], json!(["b1", "a3", "c3"]));
    assert_eq!(split["kind"], "split_jump");
    let pawn = list.iter().find(|m| m["text"] == "e2e4").unwrap();
    assert_eq!(
        (split["quantum"].as_bool(), pawn["quantum"].as_bool()),
        (Some(true), Some(false))
    );
    assert!(list
        .iter()
        .all(|m| m["clicks"].as_array().unwrap().len() >= 2));
}

#[tokio::test]
async fn niels_chess_with_a_variant() {
    let app = app();
    let state = new_game(&app, json!({"rules": "niels", "variant": "hadamard"})).await;
    assert_eq!(state["rules"], "niels");
    assert_eq!(state["variant"], "hadamard");
    let id = state["id"].as_str().unwrap();
    let (status, after) = play(&app, id, "e2^e4e3").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(probability(&after, "e4"), 0.5);
    assert_eq!(probability(&after, "e3"), 0.5);
    let (_, file) = send(&app, Method::GET, &format!("/api/games/{id}/game"), None).await;
    let file = file.as_str().unwrap();
    assert!(
        file.contains("e2^e4e3") && file.contains("hadamard"),
        "{file}"
    );
}

#[tokio::test]
async fn a_saved_game_loads_back_to_the_same_board() {
    let app = app();
    let state = new_game(
        &app,
        json!({"moves": "b1^a3c3 g8f6 a3c3^b1 f6g4 b1c3 g4xf2"}),
    )
    .await;
    let id = state["id"].as_str().unwrap();
    let (status, file) = send(&app, Method::GET, &format!("/api/games/{id}/game"), None).await;
    assert_eq!(status, StatusCode::OK);
    let loaded = new_game(&app, json!({"game": file, "seed": 99})).await;
    assert_eq!(loaded["squares"], state["squares"]);
    assert_eq!(loaded["moves"], state["moves"]);
}

#[tokio::test]
async fn a_device_s_counts_come_back_as_a_board_beside_the_exact_one() {
    let app = app();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let game = std::fs::read_to_string(root.join("circuits/interference.qcg")).unwrap();
    let counts = std::fs::read_to_string(root.join("circuits/interference.counts.json")).unwrap();
    let state = new_game(&app, json!({ "game": game })).await;
    let id = state["id"].as_str().unwrap();
    let (status, program) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/compile?target=generic"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{program}");
    let bundled = std::fs::read_to_string(root.join("circuits/interference.qasm")).unwrap();
    assert_eq!(
        program["text"], bundled,
        "the same program as `qchess compile`"
    );
    assert_eq!(program["moves"], 5);
    let body = json!({
        "counts": counts,
        "counts_format": "qiskit",
        "moves": 5,
        "compile": {"target": "generic"},
    });
    let path = format!("/api/games/{id}/counts");
    let (status, answer) = send(&app, Method::POST, &path, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let estimate = &answer["estimate"];
    assert_eq!(estimate["shots"], 1000);
    // 737 shots on a1, 248 on b1, 15 on b2 (qchess counts gives the same).
    assert_eq!(estimate["squares"]["a1"]["probability"], 0.737);
    let exact_a1 = estimate["exact"]["a1"].as_f64().unwrap();
    assert!((exact_a1 - 0.7286).abs() < 1e-4, "{exact_a1}");
    assert!(answer["measured_svg"].as_str().unwrap().starts_with("<svg"));
    assert!(answer["exact_svg"].as_str().unwrap().starts_with("<svg"));
    // The game has 5 moves: Black is to move on both boards the counts give, as in the game.
    for board in ["measured_svg", "exact_svg"] {
        let svg = answer[board].as_str().unwrap();
        assert!(svg.contains(">Black to move</text>"), "{board}");
        assert!(!svg.contains("White to move"), "{board}");
    }
    assert_eq!(
        (answer["id"].as_str(), answer["ply"].as_u64()),
        (Some(id), Some(5))
    );
    // Without a counts format, Qiskit's and Braket's orders cannot be told apart here: the
    // answer says so with the API's field and a kind a page can put in its own words; it names
    // no command-line flag.
    let detect = json!({"counts": counts, "moves": 5, "compile": {"target": "generic"}});
    let answer = send(&app, Method::POST, &path, Some(&detect.to_string())).await;
    let why = reason(&answer, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer.1["kind"], "counts_order_ambiguous", "{why}");
    assert!(why.contains("counts_format"), "{why}");
    assert!(!why.contains("--"), "{why}");
    // After one more move the program has changed: the counts are refused, not misread.
    play(&app, id, "h8g8").await;
    let why = reason(
        &send(&app, Method::POST, &path, Some(&body.to_string())).await,
        StatusCode::CONFLICT,
    );
    assert!(why.contains("download the program again"), "{why}");
}

/// A Niel's Chess program measures only its dice rolls: its counts give no board, and none is
/// drawn (an empty board without kings was, once); the estimate says why in `no_board`.
#[tokio::test]
async fn counts_of_a_niels_program_draw_no_board_and_say_why() {
    let app = app();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let game = std::fs::read_to_string(root.join("circuits/niels/equal_capture.qng")).unwrap();
    let state = new_game(&app, json!({ "game": game, "rules": "niels" })).await;
    let id = state["id"].as_str().unwrap();
    let (status, program) =
        send(&app, Method::GET, &format!("/api/games/{id}/compile"), None).await;
    assert_eq!(status, StatusCode::OK, "{program}");
    let text = program["text"].as_str().unwrap();
    // One roll and the ancilla measured again after its reset: two bits (Qiskit's order).
    assert!(text.contains("bit[2] c;"), "{text}");
    let body = json!({
        "counts": r#"{"00": 250, "01": 250, "10": 250, "11": 250}"#,
        "counts_format": "qiskit",
        "moves": program["moves"],
    });
    let path = format!("/api/games/{id}/counts");
    let (status, answer) = send(&app, Method::POST, &path, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let estimate = &answer["estimate"];
    assert!(
        estimate["no_board"]
            .as_str()
            .unwrap()
            .contains("Niel's Chess"),
        "{answer}"
    );
    assert_eq!(estimate["squares"], json!({}));
    assert_eq!(estimate["shots"], 1000);
    // The shots that rolled the recorded outcome (one key in four) are kept.
    assert_eq!(estimate["kept"], 250, "{answer}");
    assert_eq!(answer["measured_svg"], Value::Null, "no board drawn");
    assert_eq!(answer["exact_svg"], Value::Null, "no board drawn");
}

#[tokio::test]
async fn bad_requests_get_a_4xx_with_a_reason() {
    let app = app_with(Limits {
        body_bytes: 4096,
        ..Limits::default()
    });
    let state = new_game(&app, json!({})).await;
    let id = state["id"].as_str().unwrap().to_string();
    let g = |rest: &str| format!("/api/games/{id}{rest}");
    let big = json!({ "game": "x".repeat(5000) }).to_string();
    let long_move = json!({ "move": "b1".repeat(100) }).to_string();
    let cases: Vec<(Method, String, Option<&str>, StatusCode, &str)> = vec![
        (
            Method::POST,
            "/api/games".into(),
            Some("{"),
            StatusCode::BAD_REQUEST,
            "JSON",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some("42"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "expected struct",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"rules":"chess"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "chess",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"colour":"white"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown field `colour`",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"seed":-1}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "seed",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(&big),
            StatusCode::PAYLOAD_TOO_LARGE,
            "length limit",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"fen":"8/8/8"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "fen",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"variant":"full"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no rule options",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"rules":"niels","variant":"fancy"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "fancy",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"moves":"e2e4 e7e5 e4e5"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "move 3 `e4e5`",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"game":"1. e2e4\n2. e7e5 e4e5"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "line 2",
        ),
        (
            Method::POST,
            "/api/games".into(),
            Some(r#"{"game":"1. e2e4","moves":"e2e4"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not both",
        ),
        (
            Method::GET,
            "/api/games/nope".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game `nope`",
        ),
        (
            Method::GET,
            "/api/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
            "/api/nothing",
        ),
        (
            Method::PUT,
            "/api/games".into(),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "PUT",
        ),
        (
            Method::GET,
            g("/play"),
            None,
            StatusCode::METHOD_NOT_ALLOWED,
            "GET",
        ),
        (
            Method::POST,
            g("/play"),
            Some(r#"{"move":""}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no move given",
        ),
        (
            Method::POST,
            g("/play"),
            Some(&long_move),
            StatusCode::UNPROCESSABLE_ENTITY,
            "at most 64 characters",
        ),
        (
            Method::POST,
            g("/play"),
            Some(r#"{"move":"e2e5"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "e2",
        ),
        (
            Method::POST,
            g("/play"),
            Some(r#"{"move":"zz9"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "zz9",
        ),
        (
            Method::POST,
            g("/play"),
            Some(r#"{"move":7}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid type",
        ),
        (
            Method::GET,
            g("/compile?format=pdf"),
            None,
            StatusCode::BAD_REQUEST,
            "unknown format `pdf`",
        ),
        (
            Method::GET,
            g("/compile?target=quantinuum"),
            None,
            StatusCode::BAD_REQUEST,
            "unknown target `quantinuum`",
        ),
        (
            Method::GET,
            g("/compile?form=later"),
            None,
            StatusCode::BAD_REQUEST,
            "unknown form `later`",
        ),
        (
            Method::GET,
            g("/compile?colour=1"),
            None,
            StatusCode::BAD_REQUEST,
            "unknown field `colour`",
        ),
        (
            Method::GET,
            g("/compile?optimize=maybe"),
            None,
            StatusCode::BAD_REQUEST,
            "optimize",
        ),
        (
            Method::GET,
            g("/circuit.svg?move=99"),
            None,
            StatusCode::NOT_FOUND,
            "there is no move 99",
        ),
        (
            Method::GET,
            g("/circuit.svg?move=-1"),
            None,
            StatusCode::BAD_REQUEST,
            "move",
        ),
        (
            Method::POST,
            g("/counts"),
            Some(r#"{"counts":"{}","moves":3}"#),
            StatusCode::CONFLICT,
            "0 now",
        ),
        (
            Method::POST,
            g("/counts"),
            Some(r#"{"counts":"not counts","moves":0}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "counts",
        ),
        (
            Method::POST,
            g("/counts"),
            Some(r#"{"counts":"{}","moves":0,"counts_format":"xml"}"#),
            StatusCode::BAD_REQUEST,
            "xml",
        ),
        (
            Method::POST,
            g("/counts"),
            Some(r#"{"counts":"{}","moves":0,"mitigate":"magic"}"#),
            StatusCode::BAD_REQUEST,
            "magic",
        ),
        (
            Method::POST,
            g("/counts"),
            Some(r#"{"counts":"{}","moves":0,"compile":{"format":"ir"}}"#),
            StatusCode::BAD_REQUEST,
            "OpenQASM",
        ),
        (
            Method::POST,
            g("/engine"),
            Some(r#"{"movetime_ms":0}"#),
            StatusCode::BAD_REQUEST,
            "movetime_ms must be between 10 and 10000 (got 0)",
        ),
        (
            Method::POST,
            g("/engine"),
            Some(r#"{"movetime_ms":3600000}"#),
            StatusCode::BAD_REQUEST,
            "between 10 and 10000",
        ),
        (
            Method::POST,
            g("/engine"),
            Some(r#"{"movetime_ms":-5}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "movetime_ms",
        ),
        (
            Method::POST,
            g("/engine"),
            Some(r#"{"movetime_ms":100,"depth":3}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "depth",
        ),
        (
            Method::POST,
            "/api/games/nope/engine".into(),
            Some(r#"{"movetime_ms":100}"#),
            StatusCode::NOT_FOUND,
            "no game",
        ),
    ];
    for (method, path, body, status, words) in cases {
        let answer = send(&app, method.clone(), &path, body).await;
        assert_eq!(answer.0, status, "{method} {path} {body:?}: {}", answer.1);
        let why = reason(&answer, status);
        assert!(
            why.contains(words),
            "{method} {path} {body:?}: the reason `{why}` does not say `{words}`"
        );
    }
    // A body without a JSON content type.
    let request = Request::post("/api/games").body(Body::from("{}")).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // None of them changed the game.
    let after = send(&app, Method::GET, &g(""), None).await;
    assert_eq!(after.1["moves"], json!([]));
}

#[tokio::test]
async fn a_game_stops_at_its_move_limit() {
    let app = app_with(Limits {
        moves_per_game: 2,
        ..Limits::default()
    });
    let state = new_game(&app, json!({"moves": "b1c3 g8f6"})).await;
    let id = state["id"].as_str().unwrap();
    let why = reason(
        &play(&app, id, "c3d5").await,
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert!(why.contains("at most 2 moves"), "{why}");
    let answer = send(
        &app,
        Method::POST,
        "/api/games",
        Some(r#"{"moves":"b1c3 g8f6 c3d5"}"#),
    )
    .await;
    assert!(reason(&answer, StatusCode::UNPROCESSABLE_ENTITY).contains("at most 2 moves"));
}

#[tokio::test]
async fn the_store_keeps_the_games_used_most_recently() {
    let app = app_with(Limits {
        games: 2,
        ..Limits::default()
    });
    let a = new_game(&app, json!({})).await["id"].clone();
    let b = new_game(&app, json!({})).await["id"].clone();
    let c = new_game(&app, json!({})).await["id"].clone();
    let get = |id: &Value| format!("/api/games/{}", id.as_str().unwrap());
    let gone = send(&app, Method::GET, &get(&a), None).await;
    assert!(reason(&gone, StatusCode::NOT_FOUND).contains("make room"));
    assert_eq!(
        send(&app, Method::GET, &get(&b), None).await.0,
        StatusCode::OK
    );
    assert_eq!(
        send(&app, Method::GET, &get(&c), None).await.0,
        StatusCode::OK
    );
    let (status, _) = send(&app, Method::DELETE, &get(&c), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        send(&app, Method::GET, &get(&c), None).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_from_the_binary() {
    let app = app();
    for (path, words) in [
        ("/", "<label for=\"move\">Move</label>"),
        ("/app.js", "data-square"),
        ("/style.css", ".square"),
    ] {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap();
        assert!(csp.contains("default-src 'self'"), "{csp}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&bytes).contains(words), "{path}");
    }
    let (status, info) = send(&app, Method::GET, "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["engine"]["min_movetime_ms"], 10);
    assert_eq!(info["engine"]["max_movetime_ms"], 10_000);
    assert_eq!(info["rules"][1]["name"], "niels");
    // The menu of rulesets, as the page has always read it (each ruleset now says its own).
    let option = |name: &str, help: &str| json!({"name": name, "help": help});
    assert_eq!(
        info["rules"],
        json!([
            {"name": "cantwell", "title": "Quantum Chess (Cantwell)", "options": []},
            {"name": "niels", "title": "Niel's Chess", "options": [
                option("full", "the full game: marks can be inverted"),
                option("hadamard", "the Hadamard Game: Z and Hadamard moves"),
                option("hadamard-plus", "the Hadamard Game with more moves (implies hadamard)"),
                option("deterministic", "the Deterministic Game (implies hadamard-plus)"),
                option("tunnelling", "the Tunnelling Game: pieces may tunnel through"),
                option("no-box", "no piece in a box"),
            ]},
        ])
    );
    assert!(info["targets"].as_array().unwrap().contains(&json!("ibm")));
}

#[tokio::test]
async fn only_requests_addressed_to_this_machine_are_answered() {
    let app = app();
    for (host, status) in [
        ("127.0.0.1:8765", StatusCode::OK),
        ("localhost:40000", StatusCode::OK),
        ("localhost", StatusCode::OK),
        ("[::1]:8765", StatusCode::OK),
        ("evil.example:8765", StatusCode::FORBIDDEN),
        ("127.0.0.1.evil.example", StatusCode::FORBIDDEN),
        ("localhost:80:80", StatusCode::FORBIDDEN),
    ] {
        let request = Request::get("/api/info")
            .header("host", host)
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), status, "{host}");
        if status == StatusCode::FORBIDDEN {
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                text.contains("only requests addressed to 127.0.0.1"),
                "{text}"
            );
        }
    }
}

async fn engine(app: &Router, id: &str, millis: u64) -> (StatusCode, Value) {
    let body = json!({ "movetime_ms": millis }).to_string();
    send(
        app,
        Method::POST,
        &format!("/api/games/{id}/engine"),
        Some(&body),
    )
    .await
}

#[tokio::test]
async fn the_engine_plays_a_legal_move_for_the_side_to_move() {
    let app = app();
    for rules in ["cantwell", "niels"] {
        let state = new_game(&app, json!({ "rules": rules, "moves": "e2e4" })).await;
        let id = state["id"].as_str().unwrap();
        let (status, legal) =
            send(&app, Method::GET, &format!("/api/games/{id}/moves"), None).await;
        assert_eq!(status, StatusCode::OK);
        let (status, after) = engine(&app, id, 200).await;
        assert_eq!(status, StatusCode::OK, "{}", after["error"]);
        assert_eq!(after["side_to_move"], "white", "{rules}: black moved");
        assert_eq!(after["moves"].as_array().unwrap().len(), 2);
        // What the search found (depth 0 on a loaded machine: the first move in its order).
        for field in ["depth", "nodes", "time_ms"] {
            assert!(
                after["search"][field].is_u64(),
                "{field}: {}",
                after["search"]
            );
        }
        // The move played is one of black's legal moves (its text may add the outcome drawn)...
        let done = after["done"].as_str().unwrap();
        let listed: Vec<&str> = legal["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["text"].as_str().unwrap())
            .collect();
        assert!(
            listed.iter().any(|m| done.starts_with(m)),
            "{rules}: {done} not among {listed:?}"
        );
        // ...and typed into another game it gives the same board.
        let other = new_game(&app, json!({ "rules": rules, "moves": "e2e4" })).await;
        let (status, typed) = play(&app, other["id"].as_str().unwrap(), done).await;
        assert_eq!(status, StatusCode::OK, "{}", typed["error"]);
        assert_eq!(typed["squares"], after["squares"], "{rules}: {done}");
    }
}

#[tokio::test]
async fn the_engine_has_no_move_in_a_finished_game() {
    let app = app();
    let state = new_game(
        &app,
        json!({ "fen": "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "moves": "e1e8" }),
    )
    .await;
    assert_eq!(state["status"], "white_wins", "{state}");
    let id = state["id"].as_str().unwrap();
    let answer = engine(&app, id, 20).await;
    assert!(reason(&answer, StatusCode::UNPROCESSABLE_ENTITY).contains("the game is over"));
    let (_, after) = send(&app, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(after["moves"].as_array().unwrap().len(), 1);
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    send(app, Method::POST, path, Some(&body.to_string())).await
}

/// Every answer about a game names it and its ply; a move, an undo or an engine move for
/// another ply than the game's is refused with 409 and changes nothing (two tabs on one game, a
/// stale page); one that says no ply is played as before.
#[tokio::test]
async fn requests_for_another_ply_are_refused_and_answers_name_their_game_and_ply() {
    let app = app();
    let state = new_game(&app, json!({})).await;
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["ply"], 0);
    let g = |rest: &str| format!("/api/games/{id}{rest}");
    let (status, after) = post(&app, &g("/play"), json!({"move": "e2e4", "ply": 0})).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(
        (after["id"].as_str(), after["ply"].as_u64()),
        (Some(id.as_str()), Some(1))
    );
    let before = stopped(send(&app, Method::GET, &g(""), None).await);
    for (path, body) in [
        ("/play", json!({"move": "e7e5", "ply": 0})),
        ("/undo", json!({"ply": 2})),
        ("/engine", json!({"movetime_ms": 20, "ply": 0})),
        ("/resign", json!({"side": "black", "ply": 0})),
        ("/draw", json!({"ply": 5})),
    ] {
        let answer = post(&app, &g(path), body).await;
        let why = reason(&answer, StatusCode::CONFLICT);
        assert_eq!(answer.1["kind"], "stale_ply", "{path}: {why}");
        assert!(why.contains("ply 1"), "{path}: {why}");
    }
    assert_eq!(stopped(send(&app, Method::GET, &g(""), None).await), before);
    // The other answers name the game and its ply too (SVG ones in headers).
    let (_, moves) = send(&app, Method::GET, &g("/moves"), None).await;
    assert_eq!(
        (moves["id"].as_str(), moves["ply"].as_u64()),
        (Some(id.as_str()), Some(1))
    );
    let (_, program) = send(&app, Method::GET, &g("/compile"), None).await;
    assert_eq!(
        (program["id"].as_str(), program["ply"].as_u64()),
        (Some(id.as_str()), Some(1))
    );
    for picture in ["/board.svg", "/circuit.svg"] {
        let request = Request::builder()
            .uri(g(picture))
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        assert_eq!(
            response.headers()["x-qchess-game"],
            id.as_str(),
            "{picture}"
        );
        assert_eq!(response.headers()["x-qchess-ply"], "1", "{picture}");
    }
    // An undo at the right ply, and one with no body at all, as before.
    let (status, back) = post(&app, &g("/undo"), json!({"ply": 1})).await;
    assert_eq!((status, back["ply"].as_u64()), (StatusCode::OK, Some(0)));
    play(&app, &id, "d2d4").await;
    let (status, back) = send(&app, Method::POST, &g("/undo"), None).await;
    assert_eq!(
        (status, back["ply"].as_u64()),
        (StatusCode::OK, Some(0)),
        "{back}"
    );
}

/// A move's entry says who played it, its ply, its move number as a game record writes it
/// (continuing a FEN's fullmove number), its kind, outcome and squares.
#[tokio::test]
async fn move_entries_carry_mover_ply_number_kind_outcome_and_squares() {
    let app = app();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5";
    let state = new_game(&app, json!({"fen": fen, "moves": "b8^a6c6 g1f3 a6c6^b8"})).await;
    let moves = state["moves"].as_array().unwrap();
    let summary: Vec<(u64, u64, &str, &str)> = moves
        .iter()
        .map(|m| {
            (
                m["ply"].as_u64().unwrap(),
                m["number"].as_u64().unwrap(),
                m["mover"].as_str().unwrap(),
                m["kind"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, 5, "black", "split_jump"),
            (2, 6, "white", "jump"),
            (3, 6, "black", "merge_jump"),
        ]
    );
    assert_eq!(moves[0]["squares"], json!(["b8", "a6", "c6"]));
    assert_eq!(moves[2]["squares"], json!(["a6", "c6", "b8"]));
    assert_eq!(state["side_to_move"], "white");
    // The record the game file writes numbers them the same way.
    let id = state["id"].as_str().unwrap();
    let (_, file) = send(&app, Method::GET, &format!("/api/games/{id}/game"), None).await;
    assert!(
        file.as_str()
            .unwrap()
            .contains("5... b8^a6c6 6. g1f3 a6c6^b8"),
        "{file}"
    );
    // A measured move (the capture from a split knight) has its outcome; the others none.
    let state = new_game(&app, json!({"moves": "b1^a3c3 d7d5"})).await;
    let id = state["id"].as_str().unwrap();
    let (status, after) = play(&app, id, "c3xd5").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let moves = after["moves"].as_array().unwrap();
    assert_eq!(moves[0]["outcome"], Value::Null);
    let last = &moves[2];
    assert_eq!(
        (last["number"].as_u64(), last["mover"].as_str()),
        (Some(2), Some("white"))
    );
    let outcome = last["outcome"].as_str().expect("an outcome");
    assert!(last["text"].as_str().unwrap().ends_with(outcome), "{last}");
    // The written outcome is given apart from the move, so the page parses no notation.
    let notation = format!(".m{outcome}");
    assert_eq!(last["outcome_notation"].as_str(), Some(notation.as_str()));
    assert_eq!(last["text"], format!("c3xd5{notation}"));
    assert_eq!(moves[0]["outcome_notation"], Value::Null);
    let quantum: Vec<bool> = moves.iter().map(|m| m["quantum"] == true).collect();
    assert_eq!(
        quantum,
        [true, false, false],
        "a split, a pawn step, a capture"
    );
    // The board highlights the last move's squares, and only those.
    let board = after["board_svg"].as_str().unwrap();
    assert_eq!(board.matches("class=\"highlight\"").count(), 2, "c3 and d5");
}

/// `position?ply=K` is the board after the game's first K moves: the same picture as a game set
/// up with those moves alone; the game itself is unchanged. Past the last move: 404.
#[tokio::test]
async fn earlier_positions_are_shown_without_changing_the_game() {
    let app = app();
    let moves = ["b1^a3c3", "g8f6", "a3c3^b1", "e7e5"];
    let state = new_game(&app, json!({"moves": moves.join(" ")})).await;
    let id = state["id"].as_str().unwrap();
    for k in 0..=moves.len() {
        let path = format!("/api/games/{id}/position?ply={k}");
        let (status, shown) = send(&app, Method::GET, &path, None).await;
        assert_eq!(status, StatusCode::OK, "{shown}");
        let alone = new_game(&app, json!({"moves": moves[..k].join(" ")})).await;
        assert_eq!(shown["board_svg"], alone["board_svg"], "ply {k}");
        assert_eq!(shown["headline"], alone["headline"], "ply {k}");
        assert_eq!(
            (shown["at"].as_u64(), shown["ply"].as_u64()),
            (Some(k as u64), Some(4))
        );
    }
    let (_, now) = send(&app, Method::GET, &format!("/api/games/{id}"), None).await;
    assert_eq!(now["ply"], 4);
    // Flipped, the same squares are drawn elsewhere.
    let path = format!("/api/games/{id}/position?ply=2&flip=true");
    let (_, flipped) = send(&app, Method::GET, &path, None).await;
    let (_, plain) = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/position?ply=2"),
        None,
    )
    .await;
    assert_ne!(flipped["board_svg"], plain["board_svg"]);
    let answer = send(
        &app,
        Method::GET,
        &format!("/api/games/{id}/position?ply=5"),
        None,
    )
    .await;
    let why = reason(&answer, StatusCode::NOT_FOUND);
    assert!(
        why.contains("no ply 5") && why.contains("4 move(s)"),
        "{why}"
    );
}

/// A resignation and an agreed draw are recorded on the game: its status and headline say so,
/// and moves, engine moves, undo and a second ending are refused.
#[tokio::test]
async fn resign_and_draw_end_the_game() {
    let app = app();
    let state = new_game(&app, json!({"moves": "e2e4"})).await;
    let id = state["id"].as_str().unwrap();
    let g = |rest: &str| format!("/api/games/{id}{rest}");
    let (status, ended) = post(&app, &g("/resign"), json!({"side": "black", "ply": 1})).await;
    assert_eq!(status, StatusCode::OK, "{ended}");
    assert_eq!(ended["status"], "white_wins");
    assert_eq!(ended["headline"], "Game over: White wins (Black resigned)");
    assert_eq!(
        ended["ending"],
        json!({"by": "resignation", "resigned": "black", "winner": "white"})
    );
    assert_eq!(ended["clocks"]["running"], Value::Null);
    for (path, body) in [
        ("/play", json!({"move": "e7e5"})),
        ("/undo", json!({})),
        ("/engine", json!({"movetime_ms": 20})),
        ("/draw", json!({})),
    ] {
        let answer = post(&app, &g(path), body).await;
        let why = reason(&answer, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(answer.1["kind"], "game_over", "{path}: {why}");
        assert!(why.contains("Black resigned"), "{path}: {why}");
    }
    let (_, legal) = send(&app, Method::GET, &g("/moves"), None).await;
    assert_eq!(legal["moves"], json!([]));
    let state = new_game(&app, json!({})).await;
    let id = state["id"].as_str().unwrap();
    let (status, drawn) = post(&app, &format!("/api/games/{id}/draw"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{drawn}");
    assert_eq!(
        (drawn["status"].as_str(), drawn["headline"].as_str()),
        (Some("draw_agreed"), Some("Game over: Draw (agreed)"))
    );
    let answer = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"side": "purple"}),
    )
    .await;
    reason(&answer, StatusCode::UNPROCESSABLE_ENTITY);
}

/// Each side's clock holds its own moves' time: the engine's clock at least its search's time.
#[tokio::test]
async fn the_clocks_count_each_sides_time() {
    let app = app();
    let state = new_game(&app, json!({"moves": "e2e4 e7e5"})).await;
    // Moves replayed when the game was set up took no time here.
    assert_eq!(state["clocks"]["running"], "white");
    let id = state["id"].as_str().unwrap();
    let (status, after) = engine(&app, id, 60).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    let clocks = &after["clocks"];
    assert_eq!(clocks["running"], "black");
    let searched = after["search"]["time_ms"].as_u64().unwrap();
    assert!(
        clocks["white_ms"].as_u64().unwrap() >= searched,
        "{clocks} {searched}"
    );
    // Taken back, the move's time goes with it (`qc_web::clock`'s tests count it) and White's
    // clock runs again.
    let (_, back) = send(&app, Method::POST, &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(back["clocks"]["running"], "white");
}

/// docs/web.md lists the bundled targets the page offers: exactly the code's list.
#[test]
fn the_docs_list_the_bundled_targets() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/web.md")).unwrap();
    let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let marker = "for no target or a bundled one (";
    let at = doc
        .find(marker)
        .expect("docs/web.md names the bundled targets")
        + marker.len();
    let listed: Vec<&str> = doc[at..]
        .split(')')
        .next()
        .unwrap()
        .split(',')
        .map(str::trim)
        .collect();
    let code: Vec<&str> = qc_export::BUNDLED_TARGETS.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, code);
}

#[tokio::test]
async fn the_games_kept_fit_in_the_memory_budget_and_the_one_closed_is_named() {
    // Room for the workers' work and four games at their shares (GAMES_BESIDE_WORK), not 16.
    let limits = Limits {
        memory_bytes: 600 << 20,
        ..Limits::default()
    };
    let plan = qc_web::budget::MemoryPlan::new(&limits, true);
    assert_eq!(plan.games, 4, "{plan:?}");
    let app = app_with(limits.clone());
    let (_, info) = send(&app, Method::GET, "/api/info", None).await;
    assert_eq!(info["limits"]["games"], 4, "{info}");
    assert_eq!(
        info["limits"]["game_memory_bytes"].as_u64(),
        u64::try_from(plan.game_limit_bytes).ok()
    );
    assert!(plan.game_limit_bytes < limits.game_memory_bytes);
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(
            new_game(&app, json!({})).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    // A fifth closes the idle game used least recently, and says which.
    let request = Request::builder()
        .method(Method::POST)
        .uri("/api/games")
        .header("content-type", "application/json")
        .body(Body::from("{}"))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let closed = response
        .headers()
        .get("x-qchess-closed")
        .map(|v| v.to_str().unwrap().to_string());
    assert_eq!(closed.as_deref(), Some(ids[0].as_str()));
    let gone = send(&app, Method::GET, &format!("/api/games/{}", ids[0]), None).await;
    assert!(reason(&gone, StatusCode::NOT_FOUND).contains("closed to make room"));
    for id in &ids[1..] {
        let (status, _) = send(&app, Method::GET, &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
    }
}

/// The page's Upload counts of a long game's program compiled for IBM: the exact board is read
/// off the game the server holds, not simulated from the program's native gates (which needed
/// GBs for this game: docs/reliability.md), so it fits in a small server budget, and it is the
/// board the portable program of the same game gives.
#[tokio::test]
async fn counts_of_an_ibm_program_of_a_long_game_take_the_exact_board_from_the_game() {
    let app = app_with(Limits {
        memory_bytes: 256 << 20,
        ..Limits::default()
    });
    // A random 40-ply game (`qchess compile --random-plies 40 --seed 1`), its moves as played.
    let spec = qc_front::SessionSpec {
        seed: 1,
        ..qc_front::SessionSpec::default()
    };
    let game = qc_front::Session::open(&spec, qc_front::GameInput::START, 40).unwrap();
    let moves: Vec<String> = game.moves().into_iter().map(|m| m.text).collect();
    let state = new_game(&app, json!({ "moves": moves.join(" ") })).await;
    let id = state["id"].as_str().unwrap();
    let compile = |target: &'static str| {
        let app = app.clone();
        let path = format!("/api/games/{id}/compile?target={target}");
        async move {
            let (status, program) = send(&app, Method::GET, &path, None).await;
            assert_eq!(status, StatusCode::OK, "{program}");
            program["text"].as_str().unwrap().to_string()
        }
    };
    let ibm = compile("ibm").await;
    let width = qc_export::parse_header(&ibm).unwrap().map.clbits;
    let body = json!({
        "counts": format!("{{\"{}\": 1}}", "0".repeat(width)),
        "counts_format": "qiskit",
        "mitigate": "none",
        "moves": 40,
        "compile": {"target": "ibm"},
    });
    let path = format!("/api/games/{id}/counts");
    let (status, answer) = send(&app, Method::POST, &path, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // The truth: the portable program simulated gate by gate.
    let portable = compile("generic").await;
    let header = qc_export::parse_header(&portable).unwrap();
    let circuit = qc_export::import_qasm(&portable).unwrap();
    let dist = qc_ir::exec::exact_distribution(&mut qc_sim::SparseSim::new(), &circuit).unwrap();
    let truth = qc_front::counts::exact_board(&header.map, &dist).unwrap();
    let exact = answer["estimate"]["exact"].as_object().unwrap();
    assert_eq!(exact.len(), truth.squares.len());
    for (sq, p) in &truth.squares {
        let q = exact[&sq.to_string()].as_f64().unwrap();
        assert!(
            (p - q).abs() < 1e-9,
            "{sq}: {q} from the IBM program, {p} portable"
        );
    }
}

/// A new game without a seed draws a fresh one (as `qchess play` and `serve` do) and its state
/// says which; a new game with one uses it.
#[tokio::test]
async fn a_new_game_without_a_seed_draws_a_fresh_one_and_names_it() {
    let app = app();
    let split = json!({ "moves": "b1^a3c3 g8f6 a3b5" });
    let first = new_game(&app, split.clone()).await;
    let second = new_game(&app, split.clone()).await;
    let (a, b) = (first["seed"].as_u64(), second["seed"].as_u64());
    assert!(a.is_some() && b.is_some(), "{first} {second}");
    // Two draws below 2^53 are equal with probability 2^-53.
    assert_ne!(a, b, "two games without a seed share their dice");
    let mut given = split.clone();
    given["seed"] = json!(a);
    let again = new_game(&app, given).await;
    assert_eq!(again["seed"].as_u64(), a);
}
