//! `qchess match`: a tiny match reports every game and the totals, the same seed plays the same
//! games, and bad players or options exit 2 with a reason.

mod common;

use common::{ok_json, ok_stdout, qchess};

#[test]
fn a_tiny_match_reports_games_and_totals_repeatably() {
    let args = [
        "match",
        "random",
        "sampler:samples=2",
        "--openings",
        "2",
        "--movetime",
        "200",
        "--max-plies",
        "12",
        "--seed",
        "3",
        "--json",
    ];
    let report = ok_json(&qchess(&args));
    let games = report["games"].as_array().expect("games");
    assert_eq!(games.len(), 4);
    let wins = report["wins"].as_u64().expect("wins");
    let draws = report["draws"].as_u64().expect("draws");
    let losses = report["losses"].as_u64().expect("losses");
    assert_eq!(wins + draws + losses, 4);
    let points: f64 = games
        .iter()
        .map(|g| g["first_points"].as_f64().expect("points"))
        .sum();
    let score = report["score"].as_f64().expect("score");
    assert!((points / 4.0 - score).abs() < 1e-12);
    assert_eq!(games[0]["first_is_white"], true);
    assert_eq!(games[1]["first_is_white"], false);
    assert_eq!(
        report,
        ok_json(&qchess(&args)),
        "the same seed plays the same games"
    );

    let text = ok_stdout(&qchess(&args[..args.len() - 1]));
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(
        text.contains("random (White) vs sampler:samples=2 (Black)"),
        "{text}"
    );
    assert!(text.contains("in 4 games, score"), "{text}");
}

#[test]
fn bad_players_and_options_exit_2() {
    for (args, says) in [
        (
            vec!["match", "stockfish", "random"],
            "unknown player `stockfish`",
        ),
        (vec!["match", "engine:depth=0", "random"], "depth=N"),
        (
            vec!["match", "engine", "random", "--openings", "0"],
            "--openings",
        ),
        (vec!["match", "engine", "random", "--fen", "8/8 w"], "--fen"),
        (
            vec![
                "match",
                "engine",
                "random",
                "--rules",
                "niels",
                "--variant",
                "bogus",
            ],
            "--variant",
        ),
    ] {
        let out = qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
