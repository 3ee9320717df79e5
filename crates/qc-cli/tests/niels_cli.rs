//! End-to-end tests of `qchess COMMAND --rules niels`: simulate (text and JSON against hand-computed
//! dice probabilities), moves, play with a piped script, compile to OpenQASM 3 that imports back
//! with the same exact distribution as the game circuit, board SVG that parses, and the example
//! games in `circuits/niels/` replaying exactly.

use qc_ir::exec::{exact_distribution, qiskit_key};
use qc_ir::Circuit;
use qc_rules::{Niels, QuantumGame, Ruleset};
use qc_sim::ReferenceSparse;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use common::{ok_json, ok_stdout, qchess, qchess_with_input, root, temp_dir};

fn ok(args: &[&str]) -> String {
    ok_stdout(&qchess(args))
}

fn json(args: &[&str]) -> Value {
    ok_json(&qchess(args))
}

fn examples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("circuits/niels"))
        .expect("circuits/niels exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "qng"))
        .map(|p| {
            format!(
                "circuits/niels/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    names.sort();
    names
}

fn temp(name: &str) -> PathBuf {
    temp_dir("niels").join(name)
}

const ROOK_FEN: &str = "7k/8/8/8/8/8/8/K3R3 w - - 0 1";

#[test]
fn simulate_text_shows_the_roll_its_probability_and_the_board() {
    let text = ok(&[
        "simulate",
        "--rules",
        "niels",
        "circuits/niels/equal_capture.qng",
    ]);
    // Equal superposition: the rook is on e6 with chance 1/2; the recorded roll is e6, so the
    // pawn captures and stands on e6.
    assert!(text.contains("f5e6[e6]"), "{text}");
    assert!(
        text.contains("rolled e6 (P 0.5000): the black rook was on e6, not on d4"),
        "{text}"
    );
    let rank6 = text
        .lines()
        .find(|l| l.starts_with("  6 |"))
        .expect("rank 6 drawn");
    // Cells between bars: a, b, c, d, e.
    assert_eq!(rank6.split('|').nth(5).map(str::trim), Some("P"), "{rank6}");
    assert!(!text.contains("P(red)"), "no pair is left: {text}");
}

#[test]
fn simulate_json_gives_pairs_with_dice_probabilities() {
    // An unequal split in the Simplified Game: red (facing the opponent) 4/6, blue 2/6.
    let d = json(&[
        "simulate",
        "--rules",
        "niels",
        "--fen",
        ROOK_FEN,
        "--moves",
        "e1^e4e2:op",
        "--json",
    ]);
    assert_eq!(d["rules"], "niels");
    assert_eq!(d["moves"][0]["kind"], "superposition");
    let fin = &d["final"];
    assert_eq!(fin["side_to_move"], "b");
    let pair = &fin["pairs"][0];
    assert_eq!(
        (pair["red"].as_str(), pair["blue"].as_str()),
        (Some("e4"), Some("e2"))
    );
    assert!((pair["p_red"].as_f64().unwrap() - 4.0 / 6.0).abs() < 1e-12);
    assert_eq!(fin["groups"][0]["diagonal"], Value::Null);
    assert_eq!(fin["pieces"]["a1"], "K");
    assert!(
        fin["pieces"].get("e4").is_none(),
        "indefinite pieces are listed as pairs"
    );
    // An entangled group: the knight joins the rook pair; both pairs share one group on a
    // diagonal, and each is 1/2.
    let d = json(&[
        "simulate",
        "--rules",
        "niels",
        "--fen",
        "7k/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4",
        "--moves",
        "f6&f6d5@e4",
        "--json",
    ]);
    let groups = d["final"]["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["pairs"].as_array().unwrap().len(), 2);
    assert!(groups[0]["diagonal"].is_u64());
    for p in d["final"]["pairs"].as_array().unwrap() {
        assert!((p["p_red"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    }
}

#[test]
fn moves_are_grouped_by_kind_and_variants_add_moves() {
    let fen = "7k/8/8/8/4p3/8/8/K3R3 w - - 0 1";
    let plain = json(&["moves", "--rules", "niels", "--fen", fen, "--json"]);
    assert!(plain["moves"].get("tunnelling").is_none());
    let capture: Vec<&str> = plain["moves"]["capture"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(capture, ["e1e4"]);
    let superposition = plain["moves"]["superposition"].as_array().unwrap();
    assert!(superposition.iter().any(|m| m == "e1^e2e3"));
    let tunnel = json(&[
        "moves",
        "--rules",
        "niels",
        "--variant",
        "tunnelling",
        "--fen",
        fen,
        "--json",
    ]);
    assert_eq!(tunnel["moves"]["tunnelling"], serde_json::json!(["e1*e5"]));
    // Niel's options with the Cantwell rules are refused.
    let out = qchess_with_input(&["moves", "--variant", "full"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn play_runs_a_piped_script_with_undo_and_errors() {
    let out = qchess_with_input(
        &["play", "--rules", "niels", "--fen", ROOK_FEN],
        "e1^e4e2\nfen\nundo\nfen\nbogus\nmoves\nquit\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("played e1^e4e2"), "{text}");
    assert!(text.contains("7k/8/8/8/8/8/8/K7 b - - 1 1 Re4e2"), "{text}");
    assert!(text.contains("took back e1^e4e2"), "{text}");
    assert!(text.contains("7k/8/8/8/8/8/8/K3R3 w - - 0 1"), "{text}");
    assert!(
        text.contains("error: `bogus` is neither a move nor a command"),
        "{text}"
    );
    assert!(text.contains("superposition: "), "{text}");
}

fn distribution(circuit: &Circuit) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for (bits, p) in exact_distribution(&mut ReferenceSparse::new(), circuit).expect("runs") {
        if p > 1e-12 {
            *out.entry(qiskit_key(&bits)).or_insert(0.0) += p;
        }
    }
    out
}

/// `got` and `want` have the same outcomes, each with the same probability (to 1e-9).
fn assert_same_distribution(got: &BTreeMap<String, f64>, want: &BTreeMap<String, f64>, path: &str) {
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{path}"
    );
    for (k, p) in got {
        assert!(
            (p - want[k]).abs() < 1e-9,
            "{path}: {k}: {p} vs {}",
            want[k]
        );
    }
}

fn game_circuit(path: &str) -> Circuit {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let record = Niels::read_game(&text, None).expect("example parses");
    let game = Niels::replay(
        &record,
        ReferenceSparse::new(),
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0),
    )
    .expect("example replays");
    game.circuit().clone()
}

#[test]
fn compiled_qasm_imports_back_with_the_game_circuits_distribution() {
    for path in examples() {
        let qasm = ok(&["compile", "--rules", "niels", &path, "--format", "qasm3"]);
        let imported = qc_export::import_qasm3(&qasm).expect("the export imports");
        let game = game_circuit(&path);
        // The program's bits start with the game's; the zero checks of `--measure board` follow
        // (Qiskit order: the game's bits are the rightmost characters).
        let mut a: BTreeMap<String, f64> = BTreeMap::new();
        for (k, p) in distribution(&imported) {
            let own = k[k.len() - game.num_clbits()..].to_string();
            *a.entry(own).or_insert(0.0) += p;
        }
        assert_same_distribution(&a, &distribution(&game), &path);
        // The IR JSON output is the same circuit.
        let ir: Circuit = serde_json::from_str(&ok(&[
            "compile", "--rules", "niels", &path, "--format", "json",
        ]))
        .expect("IR JSON");
        assert_eq!(ir, game, "{path}");
    }
    // The recorded rolls become the post-selection pattern: |1> = blue square (e6 in the equal
    // game), |0> = red (d4 in the unequal one).
    for (path, bits) in [
        ("circuits/niels/equal_capture.qng", "1"),
        ("circuits/niels/unequal_capture.qng", "0"),
    ] {
        let qasm = ok(&["compile", "--rules", "niels", path, "--format", "qasm3"]);
        // The roll is c[0] (rightmost); the zero checks after it are not post-selected.
        let pattern = qasm
            .split("\"postselect\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("{path}: no postselect in {qasm}"));
        assert!(
            pattern.ends_with(bits) && pattern[..pattern.len() - 1].chars().all(|c| c == 'x'),
            "{path}: {pattern}"
        );
    }
    // The dice: the unequal capture's roll is 1 (blue) with 2/6, the tunnel's with 1/6.
    let unequal = distribution(&game_circuit("circuits/niels/unequal_capture.qng"));
    assert!((unequal["1"] - 1.0 / 3.0).abs() < 1e-12, "{unequal:?}");
    let tunnel = distribution(&game_circuit("circuits/niels/tunnelling.qng"));
    assert!((tunnel["1"] - 1.0 / 6.0).abs() < 1e-12, "{tunnel:?}");
}

/// Every bundled game compiled `--form deferred`: the exact distribution of the program puts no
/// probability on an outcome where a `zero` bit of its map reads 1 (a noiseless run discards no
/// shot for an ancilla error), and its own bits keep the game circuit's distribution (that of the
/// dynamic form). A freed ancilla a later move takes again (a pair's qubit never rolled, live at
/// the end) is not read there: reading it was the bug that cost small_5x6 92 % of its kept shots.
#[test]
fn deferred_programs_read_zero_on_every_ancilla_they_check() {
    let mut checked = 0;
    for path in examples() {
        let qasm = ok(&["compile", "--rules", "niels", &path, "--form", "deferred"]);
        let header = qc_export::parse_header(&qasm).expect("the header parses");
        let imported = qc_export::import_qasm3(&qasm).expect("the export imports");
        let game = game_circuit(&path);
        let own = game.num_clbits();
        let mut marginal: BTreeMap<String, f64> = BTreeMap::new();
        for (key, p) in distribution(&imported) {
            let bit = |b: usize| key.as_bytes()[key.len() - 1 - b];
            for zero in &header.map.zero {
                assert_eq!(
                    bit(zero.bit),
                    b'0',
                    "{path}: {} (bit {}) reads 1 in outcome {key} with probability {p}",
                    zero.ancilla,
                    zero.bit
                );
            }
            *marginal
                .entry(key[key.len() - own..].to_string())
                .or_insert(0.0) += p;
        }
        assert_same_distribution(&marginal, &distribution(&game), &path);
        checked += header.map.zero.len();
    }
    // Ancillas freed for good are still read (small_5x6's anc4 among them): the fix drops only
    // the reads of ancillas live at the end.
    assert!(
        checked >= 16,
        "only {checked} zero checks in the deferred programs"
    );
    let small = ok(&[
        "compile",
        "--rules",
        "niels",
        "circuits/niels/small_5x6.qng",
        "--form",
        "deferred",
    ]);
    let zero = qc_export::parse_header(&small).expect("header").map.zero;
    assert!(zero.iter().any(|z| z.ancilla == "anc4"), "{zero:?}");
}

#[test]
fn board_svg_parses_and_draws_every_pair() {
    let path = "circuits/niels/standard_8x8.qng";
    let d = json(&["simulate", "--rules", "niels", path, "--json"]);
    let pairs = d["final"]["pairs"].as_array().unwrap().len();
    assert!(pairs > 0);
    let svg = temp("board.svg");
    ok(&[
        "board",
        "--rules",
        "niels",
        path,
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("SVG is XML");
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(count("pair"), pairs);
    // A ring on both halves of each pair; none on the conventional pieces, which are certain.
    let conventional = d["final"]["pieces"].as_object().unwrap().len();
    assert_eq!(count("ring"), 2 * pairs);
    let pieces = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("piece "))
        })
        .count();
    assert_eq!(pieces, conventional + 2 * pairs);
    assert_eq!(count("mark"), 2 * pairs);
}

#[test]
fn example_games_replay_exactly_and_their_records_round_trip() {
    for path in examples() {
        // Every roll is written in: two seeds give the same game.
        let a = json(&[
            "simulate", "--rules", "niels", &path, "--json", "--seed", "1",
        ]);
        let b = json(&[
            "simulate", "--rules", "niels", &path, "--json", "--seed", "2",
        ]);
        assert_eq!(a["final"], b["final"], "{path}");
        // The record simulate writes replays to the same position.
        let file = temp("replayed.qng");
        std::fs::write(&file, a["game"].as_str().unwrap()).unwrap();
        let c = json(&[
            "simulate",
            "--rules",
            "niels",
            file.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(a["final"], c["final"], "{path}");
        assert_eq!(a["moves"], c["moves"], "{path}");
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        assert!(text.starts_with(';'), "{path} needs a comment header");
    }
    let sizes: Vec<(u64, u64)> = examples()
        .iter()
        .map(|p| {
            let d = json(&["simulate", "--rules", "niels", p, "--json"]);
            (
                d["final"]["width"].as_u64().unwrap(),
                d["final"]["height"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(
        sizes.contains(&(5, 6)) && sizes.contains(&(8, 8)),
        "{sizes:?}"
    );
}

#[test]
fn bad_niels_input_names_the_move_and_place() {
    let file = temp("bad.qng");
    std::fs::write(&file, "[Variant \"simplified\"]\n\n1. e2e4 e7e5\n2. e1e3\n").unwrap();
    let out = qchess_with_input(
        &["simulate", "--rules", "niels", file.to_str().unwrap()],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("move 3 `e1e3`, line 4, column 4"), "{err}");
    let out = qchess_with_input(
        &["simulate", "--rules", "niels", "--variant", "quantum"],
        "",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown Niel's option"));
}

#[test]
fn simulate_json_names_each_ending() {
    let status = |fen: &str, moves: &str| {
        let mut args = vec!["simulate", "--rules", "niels", "--fen", fen, "--json"];
        if !moves.is_empty() {
            args.extend(["--moves", moves]);
        }
        json(&args)["final"]["status"].clone()
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let shuffle = "g1f3 g8f6 f3g1 f6g8";
    assert_eq!(status(start, shuffle), "ongoing", "second occurrence");
    assert_eq!(
        status(start, &format!("{shuffle} {shuffle}")),
        "draw_repetition",
        "third occurrence"
    );
    assert_eq!(
        status("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""),
        "draw_insufficient_material"
    );
    assert_eq!(status("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ""), "ongoing");
    assert_eq!(
        status("4k3/8/8/8/8/8/8/R3K3 w - - 100 80", ""),
        "draw_fifty_moves"
    );
}

#[test]
fn the_deterministic_variant_is_saved_with_the_game_and_replays_under_it() {
    // Black's lone equal king pair (red e8, blue d8): in the Deterministic Game a Hadamard move
    // would put it on e8, so the rook on d1 may attempt d1d8 (zero chance, Art. 8.9) and the
    // attempt leaves the king on e8; with dice (hadamard-plus) d1d8 could capture it: illegal.
    let fen = "8/8/8/8/8/8/8/K2R4 w - - 0 1 ke8d8";
    let file = temp("deterministic_saved.qng");
    let script = format!("d1d8\nsave {}\nquit\n", file.display());
    let out = qchess_with_input(
        &[
            "play",
            "--rules",
            "niels",
            "--variant",
            "deterministic",
            "--fen",
            fen,
        ],
        &script,
    );
    assert!(out.status.success(), "{out:?}");
    let saved = std::fs::read_to_string(&file).expect("saved game");
    assert!(saved.contains("[Variant \"deterministic\"]"), "{saved}");
    // Replayed without --variant: the file's tag brings the rules back, so d1d8 is legal.
    let replayed = json(&[
        "simulate",
        "--rules",
        "niels",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(replayed["variant"], "deterministic", "{replayed}");
    assert_eq!(replayed["final"]["pieces"]["e8"], "k", "{replayed}");
    assert_eq!(replayed["final"]["pieces"]["d8"], "R", "{replayed}");
    // Under the dice the same move is not among the legal ones.
    let refused = qchess(&[
        "moves",
        "--rules",
        "niels",
        "--variant",
        "hadamard-plus",
        "--fen",
        fen,
        "--json",
    ]);
    let moves = ok_json(&refused);
    assert!(!moves["moves"]["capture"]
        .as_array()
        .is_some_and(|m| m.iter().any(|x| x == "d1d8")));
}

#[test]
fn a_game_file_names_its_ruleset_unless_rules_is_given() {
    // By extension, by tags from standard input, and `--rules` wins over both.
    let by_extension = json(&["simulate", "circuits/niels/hadamard.qng", "--json"]);
    let explicit = json(&[
        "simulate",
        "--rules",
        "niels",
        "circuits/niels/hadamard.qng",
        "--json",
    ]);
    assert_eq!(by_extension, explicit);
    let text = std::fs::read_to_string(root().join("circuits/niels/hadamard.qng")).expect("game");
    let piped = qchess_with_input(&["simulate", "-", "--json"], &text);
    assert_eq!(ok_json(&piped), explicit);
    let forced = qchess(&[
        "simulate",
        "--rules",
        "cantwell",
        "circuits/niels/hadamard.qng",
    ]);
    assert_eq!(forced.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&forced.stderr).contains("use `--rules niels`"));
    // A Quantum Chess file is still read as one.
    let qc = json(&["simulate", "circuits/bell_psi_minus.qcg", "--json"]);
    assert_eq!(qc["rules"], "cantwell", "{qc}");
}
