//! `qchess serve` as a user starts it: the address printed (a free port with `--port 0`), the
//! page and the API answering, the game given on the command line as the page's first game,
//! Ctrl-C (SIGINT) ending it with exit 0, and exit 2 with a reason for what cannot start.

mod common;

fn path() -> String {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_qchess"));
    let dir = bin.parent().expect("the binary's folder");
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn serves_the_page_and_the_given_game_and_stops_on_ctrl_c() {
    let served = common::serve(
        "qchess serve --port 0 circuits/interference.qcg",
        &common::root(),
        &path(),
    )
    .unwrap();
    assert!(
        served.url.starts_with("http://127.0.0.1:"),
        "{}",
        served.url
    );
    assert!(
        !served.url.ends_with(":0/"),
        "the real port is printed: {}",
        served.url
    );
    let (status, page) = served.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<label for=\"move\">Move</label>"), "{page}");
    let (status, info) = served.get("/api/info");
    assert_eq!(status, 200);
    let info: serde_json::Value = serde_json::from_str(&info).unwrap();
    let game = info["initial"]["game"].as_str().unwrap();
    assert!(game.contains("1. a1^a2b1 h8g8"), "{game}");
    let (status, body) = served.get("/api/games/nope");
    assert_eq!(status, 404, "{body}");
    let (code, stderr) = served.interrupt();
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn what_cannot_start_exits_2_with_a_reason() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = common::qchess(&["serve", "--port", &port]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{stderr}"
    );
    let out = common::qchess(&["serve", "--port", "0", "--moves", "e2e5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("e2e5"));
    let out = common::qchess(&["serve", "--port", "70000"]);
    assert_eq!(out.status.code(), Some(2));
    // The AI server plays the game the app sends: a game of its own is refused.
    for game in [
        &["--moves", "e2e4"][..],
        &["circuits/interference.qcg"],
        &["--rules", "niels"],
        &["--seed", "3"],
    ] {
        let mut args = vec!["serve", "--ai", "--port", "0"];
        args.extend_from_slice(game);
        let out = common::qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{game:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cannot be used with"), "{game:?}: {stderr}");
    }
    // An origin is written as a browser sends it, and only the AI server takes one.
    let out = common::qchess(&[
        "serve",
        "--ai",
        "--port",
        "0",
        "--allow-origin",
        "https://example.org/page",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("is not an origin"), "{stderr}");
    let out = common::qchess(&[
        "serve",
        "--port",
        "0",
        "--allow-origin",
        "https://example.org",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ctrl_c_right_after_the_address_is_printed_still_stops_cleanly() {
    for _ in 0..10 {
        let served = common::serve("qchess serve --port 0", &common::root(), &path()).unwrap();
        let (code, stderr) = served.interrupt();
        assert_eq!(code, Some(0), "{stderr}");
    }
}
