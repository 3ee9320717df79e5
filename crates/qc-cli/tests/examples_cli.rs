//! End-to-end tests of the `qchess` binary on the example games in `circuits/`: simulate (text
//! and JSON shape), compile, moves, play with a piped script, board and draw writing SVG that
//! parses as XML, and bad input giving exit code 2 with a location in the message.

mod common;

use common::{ok_json as json, ok_stdout, qchess, qchess_with_input, temp_dir};
use serde_json::Value;
use std::process::Output;

const EXAMPLES: &[&str] = &[
    "circuits/interference.qcg",
    "circuits/bell_psi_plus.qcg",
    "circuits/bell_psi_minus.qcg",
    "circuits/full_game.qcg",
    "circuits/tour.qcg",
    "circuits/tour/29_en_passant_capture_measured.qcg",
];

#[test]
fn simulate_text_shows_moves_board_and_status() {
    let text = ok_stdout(&qchess(&["simulate", "circuits/full_game.qcg"]));
    assert!(text.contains("10. e5d6"), "{text}");
    assert!(text.contains("en_passant"), "{text}");
    assert!(
        text.contains("29.   c1xe3.m0")
            && text.contains("the black knight was on d2: the move did not take place"),
        "{text}"
    );
    assert!(
        text.contains("Game over: White wins (king captured)"),
        "{text}"
    );
    assert!(text.contains("Legend:"), "{text}");
    for example in EXAMPLES {
        ok_stdout(&qchess(&["simulate", example]));
    }
}

#[test]
fn simulate_json_has_the_documented_shape() {
    let v = json(&qchess(&[
        "simulate",
        "circuits/bell_psi_plus.qcg",
        "--json",
    ]));
    assert_eq!(v["fen"], "7k/8/8/8/8/8/8/K7 w - - 0 1");
    let moves = v["moves"].as_array().expect("moves is an array");
    assert_eq!(moves.len(), 5);
    let first = &moves[0];
    assert_eq!(first["move"], "a1^a2b1");
    assert_eq!(first["type"], "split_jump");
    assert_eq!(first["variant"], "basic");
    assert_eq!(first["measured"], false);
    assert_eq!(first["outcome"], Value::Null);
    assert_eq!(first["applied"], true);
    let squares = v["squares"].as_object().expect("squares is an object");
    let keys: Vec<&str> = squares.keys().map(String::as_str).collect();
    assert_eq!(keys, ["a1", "b1", "h8"]);
    assert_eq!(squares["a1"]["piece"], "K");
    assert!((squares["a1"]["probability"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!((squares["b1"]["probability"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert_eq!(squares["h8"]["piece"], "k");
    assert_eq!(v["state_size"], 2);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["side_to_move"], "b");
}

#[test]
fn simulate_json_of_a_measured_move_and_a_finished_game() {
    let v = json(&qchess(&["simulate", "circuits/full_game.qcg", "--json"]));
    assert_eq!(v["status"], "white_wins");
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 63);
    let m = &moves[43];
    assert_eq!(m["move"], "d3xf2.m1");
    assert_eq!(
        (&m["type"], &m["variant"], &m["measured"]),
        (
            &Value::from("jump"),
            &Value::from("capture"),
            &Value::from(true)
        )
    );
    assert_eq!(
        (&m["outcome"], &m["applied"]),
        (&Value::from(1), &Value::from(true))
    );
    assert_eq!(moves[56]["outcome"], 0);
    assert_eq!(moves[56]["applied"], false);
}

#[test]
fn simulate_writes_sampled_outcomes_so_the_game_replays() {
    // A knight split, then a capture by one half: measured, outcome sampled from the seed.
    let fen = "4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1";
    let first = json(&qchess(&[
        "simulate",
        "--fen",
        fen,
        "--moves",
        "g1^f3h3 e8d8 f3xe5",
        "--seed",
        "3",
        "--json",
    ]));
    let written = first["moves"][2]["move"].as_str().expect("move text");
    assert!(written == "f3xe5.m0" || written == "f3xe5.m1", "{written}");
    let game = first["game"].as_str().expect("the replayable game");
    let again = json(&qchess_with_input(&["simulate", "-", "--json"], game));
    assert_eq!(again["squares"], first["squares"]);
    assert_eq!(again["moves"], first["moves"]);
}

#[test]
fn compile_prints_ir_that_parses_and_a_summary() {
    let out = qchess(&["compile", "circuits/bell_psi_minus.qcg", "--format", "ir"]);
    let text = ok_stdout(&out);
    let circuit = qc_ir::text::parse(&text).expect("compile output is valid IR");
    // set-up (2 kings) + split (2 gates) + 9 jumps.
    assert_eq!(circuit.num_gates(), 2 + 2 + 8);
    let summary = String::from_utf8_lossy(&out.stderr);
    // The summary describes the OpenQASM 3 export: only the 3 squares the game touches.
    assert!(summary.contains("qubits: 3,"), "{summary}");
    assert!(summary.contains("two-qubit depth"), "{summary}");

    let dir = temp_dir("compile");
    let path = dir.join("game.json");
    let out = qchess(&[
        "compile",
        "circuits/full_game.qcg",
        "--format",
        "json",
        "-o",
        path.to_str().expect("UTF-8 path"),
    ]);
    ok_stdout(&out);
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("recorded outcomes: "), "{summary}");
    assert!(summary.contains("move 44 d3xf2.m1: 1"), "{summary}");
    let circuit: qc_ir::Circuit =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("IR JSON");
    // d3xf2, h2wh3, h8xh3 and c1xe3 (c5xf2 was certain and is not measured).
    assert_eq!(circuit.num_measurements(), 4);
}

#[test]
fn moves_json_lists_the_start_position_by_kind() {
    let v = json(&qchess(&["moves", "--json"]));
    assert_eq!(v["side_to_move"], "w");
    let moves = v["moves"].as_object().expect("moves by kind");
    let list = |kind: &str| -> Vec<String> {
        moves[kind]
            .as_array()
            .expect("a list")
            .iter()
            .map(|m| m.as_str().expect("a move").to_string())
            .collect()
    };
    assert_eq!(list("pawn_step").len(), 8);
    assert_eq!(list("pawn_two_step").len(), 8);
    assert_eq!(list("jump"), ["b1a3", "b1c3", "g1f3", "g1h3"]);
    assert_eq!(
        list("split_jump"),
        ["b1^a3c3", "b1^c3a3", "g1^f3h3", "g1^h3f3"]
    );
    assert!(!moves.contains_key("slide"));

    let v = json(&qchess(&["moves", "circuits/bell_psi_plus.qcg", "--json"]));
    assert_eq!(v["side_to_move"], "b");
    assert!(list_contains(&v, "jump", "h8g8"));
}

fn list_contains(v: &Value, kind: &str, mv: &str) -> bool {
    v["moves"][kind]
        .as_array()
        .is_some_and(|l| l.iter().any(|m| m == mv))
}

#[test]
fn play_follows_a_piped_script() {
    let dir = temp_dir("play");
    let saved = dir.join("saved.qcg");
    let script = format!(
        "a1^a2b1\nh8g8\nb1a1\ng8h8\na2b1\nbell b1 a1\nh8g8\nundo\nfen\nprobs\nnonsense words\n0000\nb1b3\nsave {}\nquit\n",
        saved.display()
    );
    let out = qchess_with_input(&["play", "--fen", "7k/8/8/8/8/8/8/K7 w - - 0 1"], &script);
    let text = ok_stdout(&out);
    assert!(
        text.contains("played a1^a2b1 (split_jump basic, no measurement)"),
        "{text}"
    );
    assert!(
        text.contains("O1=1.0000 O2=0.0000 O3=0.5000 O4=0.5000"),
        "{text}"
    );
    assert!(text.contains("same=0.0000 opposite=1.0000"), "{text}");
    assert!(text.contains("took back h8g8"), "{text}");
    assert!(text.contains("7k/8/8/8/8/8/8/KK6 b - - 5 3"), "{text}");
    assert!(
        text.contains("a1 K 0.5000") && text.contains("b1 K 0.5000"),
        "{text}"
    );
    assert!(
        text.contains("error: `nonsense words` is neither a move nor a command"),
        "{text}"
    );
    // docs/notation.md: play reads the null move as a move and refuses it with the rules' reason.
    assert!(
        text.contains("error: 0000: the null move 0000 cannot be played"),
        "{text}"
    );
    assert!(text.contains("error: b1b3:"), "{text}");
    assert!(text.contains("saved to"), "{text}");
    let saved_text = std::fs::read_to_string(&saved).expect("play saved the game");
    let record = qc_rules::GameRecord::parse(&saved_text).expect("a valid game file");
    assert_eq!(record.moves.len(), 5);
    let replay = json(&qchess(&[
        "simulate",
        saved.to_str().expect("UTF-8 path"),
        "--json",
    ]));
    let p = replay["squares"]["a1"]["probability"]
        .as_f64()
        .expect("a number");
    assert!((p - 0.5).abs() < 1e-12, "{p}");
}

fn assert_svg(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("the SVG was written");
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    text
}

#[test]
fn board_and_draw_write_svg_that_parses() {
    let dir = temp_dir("svg");
    for (i, example) in EXAMPLES.iter().enumerate() {
        let board = dir.join(format!("board{i}.svg"));
        let draw = dir.join(format!("draw{i}.svg"));
        let b = board.to_str().expect("UTF-8 path");
        let d = draw.to_str().expect("UTF-8 path");
        ok_stdout(&qchess(&["board", example, "--svg", b, "--links"]));
        ok_stdout(&qchess(&["draw", example, "--svg", d]));
        assert_svg(&board);
        let text = assert_svg(&draw);
        assert!(text.contains("a1") || text.contains("e2"), "{example}");
    }
    let one = dir.join("move.svg");
    ok_stdout(&qchess(&[
        "draw",
        "circuits/full_game.qcg",
        "--move",
        "22...",
        "--svg",
        one.to_str().expect("UTF-8 path"),
    ]));
    let text = assert_svg(&one);
    assert!(text.contains("d3") && text.contains("f2"), "{text}");
}

fn assert_exit_2(out: &Output, needles: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "{:?}", out);
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in needles {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_exits_2_with_a_location() {
    let dir = temp_dir("bad");
    let bad_move = dir.join("bad_move.qcg");
    std::fs::write(&bad_move, "[Event \"x\"]\n1. e2e4 e7e5\n2. e4e6 *\n").expect("write");
    let p = bad_move.to_str().expect("UTF-8 path");
    for cmd in ["simulate", "compile", "board", "draw"] {
        assert_exit_2(
            &qchess(&[cmd, p]),
            &["move 3 `e4e6`", "line 3, column 4", "movement pattern"],
        );
    }
    let bad_qcan = dir.join("bad_qcan.qcg");
    std::fs::write(&bad_qcan, "1. e2e4 e7e9\n").expect("write");
    assert_exit_2(
        &qchess(&["simulate", bad_qcan.to_str().expect("UTF-8 path")]),
        &["line 1, column", "e9"],
    );
    let bad_fen = dir.join("bad_fen.qcg");
    std::fs::write(&bad_fen, "[FEN \"8/8 w - - 0 1\"]\n").expect("write");
    assert_exit_2(
        &qchess(&["simulate", bad_fen.to_str().expect("UTF-8 path")]),
        &["line 1, column 7", "placement"],
    );
    assert_exit_2(
        &qchess(&["simulate", "--moves", "e2e4 e7e9"]),
        &["move 2", "column"],
    );
    assert_exit_2(
        &qchess(&["simulate", "--moves", "e2e4 e7e5 e1e3"]),
        &["move 3 `e1e3`"],
    );
    assert_exit_2(&qchess(&["simulate", "--moves", "e2e4.m0"]), &["move 1"]);
    assert_exit_2(
        &qchess(&["simulate", "circuits/no-such-game.qcg"]),
        &["no-such-game"],
    );
    assert_exit_2(
        &qchess(&["draw", "circuits/full_game.qcg", "--move", "99"]),
        &["no move 99"],
    );
    assert_exit_2(&qchess(&["compile"]), &["no game given"]);
}

/// The default output is OpenQASM 3 that `qchess run` reads back; the probability of the
/// recorded outcomes in that program's distribution equals the keep probability the summary
/// reports (computed on the game circuit directly).
#[test]
fn compile_writes_openqasm_3_whose_postselection_matches_the_summary() {
    let dir = temp_dir("compile-qasm");
    let path = dir.join("full_game.qasm");
    let p = path.to_str().expect("UTF-8 path");
    let out = qchess(&["compile", "circuits/full_game.qcg", "-o", p]);
    ok_stdout(&out);
    let summary = String::from_utf8_lossy(&out.stderr).to_string();
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.starts_with("OPENQASM 3.0;"), "{text}");
    let keep: f64 = summary
        .split("with probability ")
        .nth(1)
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no keep probability in: {summary}"));
    // 4 measured moves, recorded 1, 1, 1, 0 (c[0] first); Qiskit order puts c[0] rightmost.
    // The board's bits follow (c[4] onwards), so the recorded outcomes are the last 4 characters.
    assert!(summary.contains("recorded outcomes: move 44"), "{summary}");
    let probs = json(&qchess(&["run", p, "--json"]));
    let recorded: f64 = probs["probabilities"]
        .as_object()
        .expect("probabilities")
        .iter()
        .filter(|(bits, _)| bits.ends_with("0111"))
        .map(|(_, p)| p.as_f64().expect("a probability"))
        .sum();
    assert!(recorded > 0.0, "the recorded outcomes are possible");
    assert!((recorded - keep).abs() < 1e-6, "{recorded} vs {keep}");

    let q2 = ok_stdout(&qchess(&[
        "compile",
        "circuits/full_game.qcg",
        "--format",
        "qasm2",
    ]));
    assert!(q2.starts_with("OPENQASM 2.0;"), "{q2}");
    let ibm = ok_stdout(&qchess(&[
        "compile",
        "circuits/full_game.qcg",
        "--target",
        "ibm",
        "--form",
        "deferred",
        "--width",
        "full",
    ]));
    assert!(ibm.contains("\"target\":\"ibm\""), "{ibm}");
    assert!(ibm.contains("\"form\":\"deferred\""), "{ibm}");
    assert!(
        !ibm.contains("if ("),
        "the deferred form has no feed-forward: {ibm}"
    );
}

#[test]
fn compile_refuses_a_target_that_is_too_small() {
    let dir = temp_dir("tiny-target");
    std::fs::write(
        dir.join("tiny.toml"),
        "name = \"tiny\"\ndescription = \"4 qubits\"\nqubits = 4\nfeed_forward = true\nlower = false\n",
    )
    .expect("write");
    let d = dir.to_str().expect("UTF-8 path");
    for format in ["qasm3", "qasm2", "ir"] {
        assert_exit_2(
            &qchess(&[
                "compile",
                "circuits/full_game.qcg",
                "--target",
                "tiny",
                "--backends-dir",
                d,
                "--format",
                format,
            ]),
            &["target `tiny` has 4 qubits but this program needs 58"],
        );
    }
    assert_exit_2(
        &qchess(&["compile", "circuits/full_game.qcg", "--form", "sideways"]),
        &["'sideways'", "--form", "dynamic, deferred"],
    );
}

#[test]
fn a_finished_game_is_announced_in_words() {
    // The queen takes the king: Black's king has probability zero, White has won.
    let fen = "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1";
    let over = "White wins (king captured)";
    let moves = ok_stdout(&qchess(&["moves", "--fen", fen, "--moves", "e7e8"]));
    assert_eq!(
        moves,
        format!("The game is over: {over}. There are no moves to play.\n")
    );
    let played = ok_stdout(&qchess_with_input(
        &["play", "--fen", fen],
        "e7e8\nmoves\nquit\n",
    ));
    assert!(played.contains(&format!("Game over: {over}")), "{played}");
    assert!(played.contains("The game is over"), "{played}");
    assert!(!played.contains("white_wins"), "{played}");
    let v = json(&qchess(&[
        "simulate", "--fen", fen, "--moves", "e7e8", "--json",
    ]));
    assert_eq!(v["status"], "white_wins");
    assert_eq!(v["status_text"], over);
    // Niel's: bishop d4 checks a1 and the king pair b3/c2 guards its flight squares.
    let mate = ok_stdout(&qchess(&[
        "moves",
        "--rules",
        "niels",
        "--fen",
        "8/8/8/8/3B4/8/8/k7 b - - 0 1 Kb3c2",
    ]));
    assert!(mate.contains("White wins by checkmate"), "{mate}");
}

#[test]
fn the_fen_of_a_split_says_what_it_means_and_gives_the_likeliest_board() {
    let text = ok_stdout(&qchess(&["simulate", "--moves", "g1^f3h3"]));
    // The register holds a knight on f3 and one on h3; a measurement finds one of them, each
    // with probability 1/2 (the first in square order is shown).
    assert!(
        text.contains("FEN: rnbqkbnr/pppppppp/8/8/8/5N1N/PPPPPPPP/RNBQKB1R b"),
        "{text}"
    );
    assert!(text.contains("every square a piece may be on"), "{text}");
    assert!(
        text.contains(
            "Most likely board (P 0.5000): rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b"
        ),
        "{text}"
    );
}
