//! `qchess counts` end to end. The round trip: a game compiled with its board measured, sampled
//! by `qchess run --shots` (an exact simulation of the exported program, counts in Qiskit's bit
//! order), read back by `qchess counts`: every square lies within 5 standard errors of
//! `qchess simulate` (the game engine's own probabilities), and `--exact` gives simulate's
//! probabilities exactly. Bad files exit with code 2 and name the problem.

mod common;

use common::{ok_json, path_str, qchess, sampled_board, temp_dir};
use serde_json::Value;

const GAMES: &[&str] = &[
    "circuits/interference.qcg",
    "circuits/bell_psi_plus.qcg",
    "circuits/tour/29_en_passant_capture_measured.qcg",
    "circuits/tour/04_jump_capture_measured.qcg",
    "circuits/tour/07_slide_basic_path_ancilla.qcg",
];

#[test]
fn sampled_counts_of_exported_games_give_simulates_board_within_5_sigma() {
    let dir = temp_dir("counts-roundtrip");
    for game in GAMES {
        let sim = ok_json(&qchess(&["simulate", game, "--json"]));
        for form in ["dynamic", "deferred"] {
            let program = dir.join("program.qasm");
            let counts = dir.join("counts.json");
            ok_json_or_text(&qchess(&[
                "compile",
                game,
                "--form",
                form,
                "-o",
                path_str(&program),
            ]));
            let board = sampled_board(&program, &counts, 4000, 11);
            let context = format!("{game} ({form}): {board}");
            assert_eq!(board["shots"], 4000, "{context}");
            // A noiseless run breaks no symmetry: only other branches of the game are dropped.
            let discarded = board["discarded"].as_object().expect("discarded");
            assert!(discarded.keys().all(|k| k == "postselect"), "{context}");
            let squares = board["squares"].as_object().expect("squares");
            let want = sim["squares"].as_object().expect("simulate squares");
            for (sq, w) in want {
                let p_sim = w["probability"].as_f64().expect("p");
                let got = &squares
                    .get(sq)
                    .unwrap_or_else(|| panic!("{sq} missing: {context}"));
                assert_eq!(got["piece"], w["piece"], "{sq}: {context}");
                let p = got["probability"].as_f64().expect("p");
                let se = got["stderr"].as_f64().expect("stderr");
                assert!(
                    (p - p_sim).abs() <= 5.0 * se + 1e-9,
                    "{sq}: {p} ± {se} vs simulate {p_sim}: {context}"
                );
                let exact = board["exact"][sq].as_f64().expect("exact");
                assert!((exact - p_sim).abs() < 1e-9, "{sq}: {context}");
            }
            // Squares the counts call occupied are occupied in simulate too.
            for (sq, got) in squares {
                if got["probability"].as_f64().expect("p") > 0.0 {
                    assert!(want.contains_key(sq), "{sq}: {context}");
                }
            }
            let tvd = board["tvd"].as_f64().expect("tvd");
            assert!((0.0..0.1).contains(&tvd), "{context}");
        }
    }
}

fn ok_json_or_text(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A scratch folder `label` holding the interference game compiled to `interference.qasm`.
fn compiled_interference(label: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = temp_dir(label);
    let program = dir.join("interference.qasm");
    ok_json_or_text(&qchess(&[
        "compile",
        "circuits/interference.qcg",
        "-o",
        path_str(&program),
    ]));
    (dir, program)
}

#[test]
fn symmetry_drops_shots_that_break_the_piece_count() {
    let (dir, program) = compiled_interference("counts-symmetry");
    // 4 bits (a1 b1 a2 b2, c0 rightmost); one king: exactly one bit set in a good shot.
    let counts = dir.join("counts.csv");
    std::fs::write(&counts, "bits,count\n0001,30\n1000,10\n0011,5\n0000,1\n").expect("write");
    let board = ok_json(&qchess(&[
        "counts",
        path_str(&program),
        path_str(&counts),
        "--json",
    ]));
    assert_eq!(board["kept"], 40);
    assert_eq!(board["discarded"]["conserved_pieces"], 6);
    assert!((board["squares"]["a1"]["probability"].as_f64().expect("p") - 0.75).abs() < 1e-12);
    assert!((board["squares"]["b2"]["probability"].as_f64().expect("p") - 0.25).abs() < 1e-12);
    let keys: Vec<&str> = board
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["discarded", "kept", "shots", "squares"]);
    let a1 = board["squares"]["a1"].as_object().expect("a1");
    let mut fields: Vec<&str> = a1.keys().map(String::as_str).collect();
    fields.sort_unstable();
    assert_eq!(fields, ["piece", "probability", "stderr"]);
    // Without symmetry the two-king shots count.
    let raw = ok_json(&qchess(&[
        "counts",
        path_str(&program),
        path_str(&counts),
        "--mitigate",
        "postselect",
        "--json",
    ]));
    assert_eq!(raw["kept"], 46);
    // The text output draws the board and lists the squares.
    let text = String::from_utf8(qchess(&["counts", path_str(&program), path_str(&counts)]).stdout)
        .expect("UTF-8");
    assert!(text.contains("Shots: 46, kept: 40"), "{text}");
    assert!(text.contains("a1 K: 0.7500"), "{text}");
}

#[test]
fn bad_counts_files_exit_2_and_name_the_problem() {
    let (dir, program) = compiled_interference("counts-errors");
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "wide.json",
            "{\"0001\": 3,\n \"00001\": 1}",
            &["00001", "line 2", "5 bit(s)", "has 4"],
        ),
        (
            "chars.csv",
            "bits,count\n0001,3\n00x1,2\n",
            &["line 3", "'x'"],
        ),
        ("zero.csv", "0001,0\n", &["zero shots"]),
        ("ambiguous.json", "{\"0001\": 3}", &["--counts-format"]),
        ("broken.json", "{\"0001\": 3,", &["line 1", "JSON"]),
    ];
    for (name, text, needles) in cases {
        let file = dir.join(name);
        std::fs::write(&file, text).expect("write");
        let out = qchess(&["counts", path_str(&program), path_str(&file)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(name), "{name}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{name}: `{n}` not in {err}");
        }
    }
    // A program without a map is read as a histogram of its own bits: counts of another width
    // are refused with both widths.
    let bare = dir.join("bare.qasm");
    std::fs::write(&bare, "OPENQASM 3.0;\nqubit[1] q;\n").expect("write");
    let out = qchess(&["counts", path_str(&bare), path_str(&dir.join("zero.csv"))]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4 bit(s), but the program has 0"), "{err}");
    // Readout without a calibration.
    let good = dir.join("good.csv");
    std::fs::write(&good, "0001,3\n").expect("write");
    let out = qchess(&[
        "counts",
        path_str(&program),
        path_str(&good),
        "--mitigate",
        "readout",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--calibration"));
}

#[test]
fn compile_measure_and_map_options() {
    let dir = temp_dir("compile-measure");
    let map = dir.join("map.json");
    let program = String::from_utf8(
        qchess(&[
            "compile",
            "circuits/tour/04_jump_capture_measured.qcg",
            "--map",
            path_str(&map),
        ])
        .stdout,
    )
    .expect("UTF-8");
    let from_file: Value =
        serde_json::from_str(&std::fs::read_to_string(&map).expect("map written")).expect("JSON");
    let header_line = program
        .lines()
        .find_map(|l| l.strip_prefix("// qchess-export "))
        .expect("header");
    let header: Value = serde_json::from_str(header_line).expect("header JSON");
    assert_eq!(header["map"], from_file);
    // Every bit after the recorded outcomes is measured, and `c` is as wide as the map says.
    let clbits = from_file["clbits"].as_u64().expect("clbits");
    assert!(program.contains(&format!("bit[{clbits}] c;")));
    let measurements = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("c[") && l.contains("= measure q["))
            .count() as u64
    };
    let measures = measurements(&program);
    assert_eq!(measures, clbits);
    for scope in ["squares", "none"] {
        let text = String::from_utf8(
            qchess(&[
                "compile",
                "circuits/tour/04_jump_capture_measured.qcg",
                "--measure",
                scope,
            ])
            .stdout,
        )
        .expect("UTF-8");
        let n = measurements(&text);
        assert!(n < measures, "{scope}: {n} measurements");
    }
}

/// Issue 30, item 12: a calibration problem names the calibration file, and a missing
/// `--calibration` names no file (it is a missing option); item 4: an exact probability of 0 is
/// `0.0`/`0.0000`, never `-0.0`/`-0.0000` (an empty sum of floats is -0.0).
#[test]
fn calibration_errors_name_the_calibration_and_exact_zeros_have_no_sign() {
    let dir = temp_dir("counts-calibration");
    let program = "circuits/interference.qasm";
    let counts = "circuits/interference.counts.json";
    let qiskit = ["--counts-format", "qiskit"];
    let cases: &[(&str, &str, &[&str])] = &[
        // Qubit 0 is measured but not calibrated.
        (
            "partial.json",
            "{\"qubits\": [{\"qubit\": 1, \"p1_given_0\": 0.01, \"p0_given_1\": 0.02}]}",
            &["no entry for qubit 0"],
        ),
        ("broken.json", "{\"qubits\": ", &["not valid JSON"]),
    ];
    for (name, text, needles) in cases {
        let calibration = dir.join(name);
        std::fs::write(&calibration, text).expect("write");
        let out = qchess(&[
            "counts",
            program,
            counts,
            qiskit[0],
            qiskit[1],
            "--mitigate",
            "readout",
            "--calibration",
            path_str(&calibration),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains(path_str(&calibration)),
            "{name} is not named: {err}"
        );
        assert!(
            !err.contains(counts),
            "{name}: the counts file is named: {err}"
        );
        for n in *needles {
            assert!(err.contains(n), "{name}: `{n}` not in {err}");
        }
    }
    let out = qchess(&[
        "counts",
        program,
        counts,
        qiskit[0],
        qiskit[1],
        "--mitigate",
        "readout",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--calibration FILE") && !err.contains(counts),
        "{err}"
    );
    // a2 is empty in every outcome: its exact probability is an empty sum.
    for args in [&["--json"][..], &[][..]] {
        let mut all = vec!["counts", program, counts, qiskit[0], qiskit[1], "--exact"];
        all.extend_from_slice(args);
        let out = ok_stdout_text(&qchess(&all));
        assert!(!out.contains("-0.0"), "a signed zero in {out}");
        assert!(out.contains("0.0"), "{out}");
    }
}

fn ok_stdout_text(out: &std::process::Output) -> String {
    ok_json_or_text(out);
    String::from_utf8(out.stdout.clone()).expect("UTF-8")
}

/// Every bundled Cantwell game (`circuits/*.qcg`, `circuits/tour/*.qcg`) compiled `--form
/// deferred`: `qchess run`'s exact distribution of the program puts no probability on an outcome
/// where a `zero` bit of its map reads 1, so a noiseless run discards no shot for an ancilla
/// error (niels_cli checks Niel's games, where reused ancillas once broke this).
#[test]
fn deferred_programs_of_every_game_read_zero_on_every_ancilla_they_check() {
    let dir = temp_dir("counts-deferred-zero");
    let mut games = Vec::new();
    for folder in ["circuits", "circuits/tour"] {
        for entry in std::fs::read_dir(common::root().join(folder)).expect("circuits/") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "qcg") {
                games.push(path);
            }
        }
    }
    games.sort();
    assert!(games.len() >= 30, "{games:?}");
    let mut checked = 0;
    for game in &games {
        let program = dir.join("deferred.qasm");
        ok_json_or_text(&qchess(&[
            "compile",
            path_str(game),
            "--form",
            "deferred",
            "-o",
            path_str(&program),
        ]));
        let text = std::fs::read_to_string(&program).expect("the program");
        let zero = qc_export::parse_header(&text).expect("header").map.zero;
        let run = ok_json(&qchess(&["run", path_str(&program), "--json"]));
        let probabilities = run["probabilities"].as_object().expect("probabilities");
        for (key, p) in probabilities {
            for z in &zero {
                assert_eq!(
                    key.as_bytes()[key.len() - 1 - z.bit],
                    b'0',
                    "{}: {} (bit {}) reads 1 in outcome {key} with probability {p}",
                    game.display(),
                    z.ancilla,
                    z.bit
                );
            }
        }
        checked += zero.len();
    }
    assert!(checked >= 15, "only {checked} zero checks");
}

/// A Niel's Chess program measures its dice rolls, never where its pieces stand: its counts
/// once gave an empty board (no kings) and "TVD 0.0000". Every bundled Niel's game, in both
/// forms: no board is drawn and none is compared, the output says why, and the shots kept are
/// still counted (the rolls post-selection keeps); JSON says why in `no_board`.
#[test]
fn niels_programs_give_no_board_and_say_why() {
    let dir = temp_dir("counts-niels");
    let games = std::fs::read_dir(common::root().join("circuits/niels")).expect("circuits/niels");
    let mut seen = 0;
    for game in games {
        let game = game.expect("entry").path();
        let stem = game.file_stem().and_then(|s| s.to_str()).expect("name");
        for form in ["dynamic", "deferred"] {
            let program = dir.join(format!("{stem}-{form}.qasm"));
            ok_json_or_text(&qchess(&[
                "compile",
                "--rules",
                "niels",
                path_str(&game),
                "--form",
                form,
                "-o",
                path_str(&program),
            ]));
            let counts = dir.join(format!("{stem}-{form}.json"));
            let run = qchess(&["run", path_str(&program), "--shots", "4000", "--json"]);
            assert!(run.status.success(), "{stem} {form}: run failed");
            std::fs::write(&counts, &run.stdout).expect("write counts");
            let args = ["counts", path_str(&program), path_str(&counts), "--exact"];
            let text = common::ok_stdout(&qchess(&args));
            assert!(text.starts_with("No board: "), "{stem} {form}: {text}");
            for needle in ["Niel's Chess", "dice rolls", "Shots: 4000, kept: "] {
                assert!(
                    text.contains(needle),
                    "{stem} {form}: `{needle}` not in {text}"
                );
            }
            for absent in ["+-----+", "Total variation"] {
                assert!(
                    !text.contains(absent),
                    "{stem} {form}: `{absent}` in {text}"
                );
            }
            let json = ok_json(&qchess(&[args.as_slice(), &["--json"]].concat()));
            assert!(json["no_board"]
                .as_str()
                .unwrap_or("")
                .contains("Niel's Chess"));
            assert_eq!(json["squares"], serde_json::json!({}), "{stem} {form}");
            assert!(
                json["kept"].as_u64().unwrap_or(0) > 0,
                "{stem} {form}: {json}"
            );
            seen += 1;
        }
    }
    assert!(seen >= 16, "only {seen} Niel's programs found");
    // A Quantum Chess program has a board and no `no_board`.
    let (_, program) = compiled_interference("counts-has-board");
    let counts = common::root().join("circuits/interference.counts.json");
    let json = ok_json(&qchess(&[
        "counts",
        path_str(&program),
        path_str(&counts),
        "--counts-format",
        "qiskit",
        "--json",
    ]));
    assert!(json.get("no_board").is_none(), "{json}");
}

/// A random 40-ply game compiled for IBM (native gates: rz, sx, x, cz): its exact board comes
/// from the game its header names, replayed by the rules, under an address-space cap of 512 MB
/// that the gate-level simulation of the same program does not fit in (it needs 1.6 GB, and
/// stopped with "the state would need N bytes" before the header named the game); the board is
/// the one the portable program of the same game gives.
#[test]
fn the_exact_board_of_an_ibm_program_of_a_long_game_fits_under_a_memory_cap() {
    let dir = temp_dir("counts-ibm-exact");
    let ibm = dir.join("ibm.qasm");
    let portable = dir.join("portable.qasm");
    for (target, out) in [(Some("ibm"), &ibm), (None, &portable)] {
        let mut args = vec!["compile", "--random-plies", "40", "--seed", "1"];
        args.extend(target.map(|t| ["--target", t]).into_iter().flatten());
        args.extend(["-o", path_str(out)]);
        ok_json_or_text(&qchess(&args));
    }
    let text = std::fs::read_to_string(&ibm).expect("program");
    let width = qc_export::parse_header(&text).expect("header").map.clbits;
    let counts = dir.join("counts.json");
    std::fs::write(&counts, format!("{{\"{}\": 1}}", "0".repeat(width))).expect("counts");
    let counts_args = |program: &std::path::Path| -> Vec<String> {
        ["counts", path_str(program), path_str(&counts)]
            .into_iter()
            .chain(["--exact", "--mitigate", "none", "--json"])
            .map(String::from)
            .collect()
    };
    let capped = std::process::Command::new("prlimit")
        .arg(format!("--as={}", 512u64 << 20))
        .arg(env!("CARGO_BIN_EXE_qchess"))
        .args(counts_args(&ibm))
        .current_dir(common::root())
        .output()
        .expect("prlimit (util-linux) runs");
    let capped = ok_json(&capped);
    let args = counts_args(&portable);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let truth = ok_json(&qchess(&args));
    let (exact, truth) = (&capped["exact"], &truth["exact"]);
    let squares = truth.as_object().expect("exact squares");
    assert_eq!(exact.as_object().map(|o| o.len()), Some(squares.len()));
    for (sq, p) in squares {
        let (p, q) = (p.as_f64().expect("p"), exact[sq].as_f64().expect("q"));
        assert!(
            (p - q).abs() < 1e-9,
            "{sq}: {q} from the IBM program, {p} portable"
        );
    }
}
