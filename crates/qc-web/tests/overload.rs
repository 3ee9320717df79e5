//! The servers under load and abuse, over real sockets on 127.0.0.1, each on the runtime
//! `qchess serve` itself runs on ([`qc_web::server::runtime`]): a burst of moves, requests
//! that go away, half requests, too many connections, memory, foreign origins and stopping.
//! Every wait is bounded by the test itself; small limits keep each test fast.

mod common;

use common::{exchange, http, start_body};
use qc_web::{AiConfig, Limits, Server, Service, Warn};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Long enough for any answer on a loaded machine, short enough to fail a wedged server.
const BOUND: Duration = Duration::from_secs(60);

fn quiet() -> Warn {
    Arc::new(|_: &str| {})
}

/// Runs `test` against a server of `service` under `limits` on the server's own runtime, then
/// stops the server and checks that it stopped.
fn with_server<F, Fut>(limits: Limits, service: Service, test: F)
where
    F: FnOnce(SocketAddr) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let runtime = qc_web::server::runtime(&limits).expect("a runtime");
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        runtime.block_on(serve_and_test(limits, service, test))
    }));
    // A server that failed its test may still hold threads: they are not waited for.
    runtime.shutdown_timeout(Duration::from_secs(1));
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

async fn serve_and_test<F, Fut>(limits: Limits, service: Service, test: F)
where
    F: FnOnce(SocketAddr) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    {
        let server = Server::bind(0, limits, service).await.expect("a port");
        let address = server.address();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(server.run(async {
            let _ = stopped.await;
        }));
        test(address).await;
        let _ = stop.send(());
        tokio::time::timeout(BOUND, running)
            .await
            .expect("the server stops")
            .expect("its task")
            .expect("no error");
    }
}

fn post_move(body: &str) -> String {
    http("POST", "/move", "", body)
}

#[test]
fn a_burst_of_moves_is_answered_or_refused_and_the_ai_server_recovers() {
    with_server(
        Limits::default(),
        Service::Ai(AiConfig::new(quiet())),
        |address| async move {
            // No time left: each search answers at once with its first move.
            let body = start_body(json!({"remainingMs": 0}));
            let burst: Vec<_> = (0..32)
                .map(|_| tokio::spawn(exchange(address, post_move(&body), BOUND)))
                .collect();
            let mut answered = 0;
            for request in burst {
                let answer = request.await.expect("the client task").expect("an answer");
                match answer.status {
                    200 => answered += 1,
                    503 => assert!(answer.header("retry-after").is_some(), "{answer:?}"),
                    _ => panic!("{answer:?}"),
                }
            }
            assert!(answered > 0, "every request of the burst was refused");
            // After the burst the server answers as before.
            let after = exchange(address, post_move(&body), BOUND)
                .await
                .expect("an answer after the burst");
            assert_eq!(after.status, 200, "{after:?}");
        },
    );
}

/// Polls `path` (a JSON answer with a `load` field) until `done` holds for its load; `Err`
/// after [`BOUND`].
async fn wait_for_load(
    address: SocketAddr,
    path: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> Result<(), String> {
    let started = tokio::time::Instant::now();
    loop {
        let answer = exchange(address, http("GET", path, "", ""), BOUND).await?;
        let info: serde_json::Value =
            serde_json::from_str(&answer.body).map_err(|e| format!("{e}: {answer:?}"))?;
        if done(&info["load"]) {
            return Ok(());
        }
        if started.elapsed() > BOUND {
            return Err(format!("the load stayed {}", info["load"]));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Opens a connection and sends `raw`, leaving it open.
async fn open_with(address: SocketAddr, raw: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connect");
    stream.write_all(raw.as_bytes()).await.expect("write");
    stream
}

/// Reads until the server closes `stream`; `Err` when it has not within `bound`.
async fn closed_within(mut stream: tokio::net::TcpStream, bound: Duration) -> Result<(), String> {
    use tokio::io::AsyncReadExt;
    let mut sink = Vec::new();
    match tokio::time::timeout(bound, stream.read_to_end(&mut sink)).await {
        Ok(_) => Ok(()),
        Err(_) => Err(format!("still open after {bound:?}")),
    }
}

/// The request time of the tests whose searches must outlast [`BOUND`]: a search may take half
/// of it, 150 s.
const LONG_REQUEST: Duration = Duration::from_secs(300);

/// A long search for the AI server: a clock of a day gets the longest search a request allows.
fn long_search() -> String {
    post_move(&start_body(
        json!({"remainingMs": 86_400_000, "incrementMs": 0, "opponentRemainingMs": 86_400_000}),
    ))
}

#[test]
fn a_search_whose_client_went_away_stops_and_frees_its_worker() {
    // A search may take 150 s here; the client leaves once it has started.
    let limits = Limits {
        workers: 1,
        request_time: LONG_REQUEST,
        ..Limits::default()
    };
    with_server(
        limits,
        Service::Ai(AiConfig::new(quiet())),
        |address| async move {
            let client = open_with(address, &long_search()).await;
            wait_for_load(address, "/", |load| load["running"] == 1)
                .await
                .expect("the search starts");
            drop(client);
            // Well before the 150 s the search had.
            wait_for_load(address, "/", |load| load["running"] == 0)
                .await
                .expect("the search stopped");
        },
    );
}

#[test]
fn an_engine_move_whose_client_went_away_stops_and_frees_its_worker() {
    let limits = Limits {
        workers: 1,
        request_time: LONG_REQUEST,
        ..Limits::default()
    };
    with_server(
        limits,
        Service::Page(Default::default()),
        |address| async move {
            let created = exchange(address, http("POST", "/api/games", "", "{}"), BOUND)
                .await
                .expect("a game");
            assert_eq!(created.status, 201, "{created:?}");
            let game: serde_json::Value = serde_json::from_str(&created.body).expect("json");
            let id = game["id"].as_str().expect("an id");
            let path = format!("/api/games/{id}/engine");
            let client = open_with(
                address,
                &http("POST", &path, "", r#"{"movetime_ms":150000}"#),
            )
            .await;
            wait_for_load(address, "/api/info", |load| load["running"] == 1)
                .await
                .expect("the search starts");
            drop(client);
            wait_for_load(address, "/api/info", |load| load["running"] == 0)
                .await
                .expect("the search stopped");
        },
    );
}

#[test]
fn a_stop_signal_ends_the_server_promptly_even_mid_burst() {
    let limits = Limits {
        workers: 2,
        queue: 4,
        request_time: LONG_REQUEST,
        shutdown_time: Duration::from_millis(500),
        ..Limits::default()
    };
    let runtime = qc_web::server::runtime(&limits).expect("a runtime");
    runtime.block_on(async move {
        let server = Server::bind(0, limits, Service::Ai(AiConfig::new(quiet())))
            .await
            .expect("a port");
        let address = server.address();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(server.run(async {
            let _ = stopped.await;
        }));
        // Searches of 150 s each on both workers, and more waiting.
        let burst: Vec<_> = (0..6)
            .map(|_| tokio::spawn(exchange(address, long_search(), BOUND)))
            .collect();
        wait_for_load(address, "/", |load| {
            load["running"] == 2 && load["waiting"] == 4
        })
        .await
        .expect("the burst is in");
        let _ = stop.send(());
        // Far sooner than the 150 s the searches had.
        tokio::time::timeout(Duration::from_secs(15), running)
            .await
            .expect("the server stops")
            .expect("its task")
            .expect("no error");
        drop(burst);
    });
    runtime.shutdown_timeout(Duration::from_secs(1));
}

#[test]
fn half_requests_are_closed_after_the_header_time_and_connections_are_capped() {
    let limits = Limits {
        connections: 3,
        header_time: Duration::from_millis(300),
        ..Limits::default()
    };
    let half = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for service in [
        Service::Page(Default::default()),
        Service::Ai(AiConfig::new(quiet())),
    ] {
        with_server(limits.clone(), service, |address| async move {
            // More half requests than connections: the ones past the cap wait to be accepted.
            let mut held = Vec::new();
            for _ in 0..5 {
                held.push(open_with(address, half).await);
            }
            // Each is closed once it has taken the header time (those past the cap once they
            // are accepted), and the server answers a whole request after them.
            for stream in held {
                closed_within(stream, Duration::from_secs(20))
                    .await
                    .expect("a half request is closed");
            }
            let answer = exchange(address, http("GET", "/", "", ""), BOUND)
                .await
                .expect("an answer after the half requests");
            assert_eq!(answer.status, 200, "{answer:?}");
            // A kept-alive connection left idle is closed too.
            let idle = open_with(address, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").await;
            closed_within(idle, Duration::from_secs(20))
                .await
                .expect("an idle connection is closed");
        });
    }
}

#[test]
fn a_connection_past_the_cap_waits_until_one_closes() {
    let limits = Limits {
        connections: 2,
        header_time: Duration::from_secs(120),
        ..Limits::default()
    };
    with_server(
        limits,
        Service::Page(Default::default()),
        |address| async move {
            let half = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
            let first = open_with(address, half).await;
            let _second = open_with(address, half).await;
            let waiting = tokio::spawn(exchange(address, http("GET", "/api/info", "", ""), BOUND));
            // It is not served while both places are taken (never, with a cap that holds)...
            tokio::time::sleep(Duration::from_millis(500)).await;
            assert!(
                !waiting.is_finished(),
                "served past the cap of 2 connections"
            );
            // ...and is once one closes.
            drop(first);
            let answer = waiting.await.expect("task").expect("an answer");
            assert_eq!(answer.status, 200, "{answer:?}");
        },
    );
}

#[test]
fn malformed_and_hostile_requests_get_an_answer_or_a_close_and_the_servers_go_on() {
    let limits = Limits {
        header_time: Duration::from_millis(500),
        body_bytes: 4096,
        ..Limits::default()
    };
    let body = start_body(json!(null));
    let hostile: Vec<String> = vec![
        "\x00\x01\x02garbage\r\n\r\n".into(),
        "GET\r\n\r\n".into(),
        "GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n".into(),
        format!("GET /{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "a".repeat(100_000)),
        format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: {}\r\n\r\n", "b".repeat(100_000)),
        format!("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\n", "X-A: 1\r\n".repeat(500)),
        "POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999\r\n\r\n".into(),
        "POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\nContent-Length: 20\r\n\r\n".into(),
        "POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"view\"".into(),
        "POST /move HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n".into(),
        format!("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}", body.len(), body),
        "POST /api/games HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 2\r\n\r\n{}".into(),
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n".into(),
    ];
    for service in [
        Service::Page(Default::default()),
        Service::Ai(AiConfig::new(quiet())),
    ] {
        let hostile = hostile.clone();
        with_server(limits.clone(), service, |address| async move {
            for raw in &hostile {
                let answer = exchange(address, raw.clone(), BOUND)
                    .await
                    .unwrap_or_else(|e| panic!("{e}: {}", &raw[..raw.len().min(80)]));
                // A status of the client's side, or a close without one; never a 5xx.
                assert!(
                    answer.status == 0 || (200..500).contains(&answer.status),
                    "{}: {answer:?}",
                    &raw[..raw.len().min(80)]
                );
            }
            let after = exchange(address, http("GET", "/", "", ""), BOUND)
                .await
                .expect("an answer after the hostile requests");
            assert_eq!(after.status, 200, "{after:?}");
        });
    }
}
