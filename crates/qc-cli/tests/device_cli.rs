//! Device programs end to end (`qchess compile --target ibm_fez|sycamore`, `qchess route`):
//! every bundled game routed onto both bundled devices passes the compiler's verifier and, where
//! small enough to simulate, keeps the unrouted program's exact outcome distribution (the same
//! bits, read on the physical qubits the header names) and gives `qchess simulate`'s board
//! through `qchess counts`; OpenQASM 2 and the dynamic form (routing inside `if` blocks) too;
//! bad input (an unknown device, a disconnected coupling map, a program wider than the device,
//! a calibration for another device) exits 2 with a message naming the problem; a broken coupler
//! is never used; the output is a function of the input and `--seed`.

mod common;

use common::{ok_json, ok_stdout, path_str, qchess, sampled_board, temp_dir};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Every bundled Quantum Chess game.
fn bundled_games() -> Vec<String> {
    let mut games = Vec::new();
    for dir in ["circuits", "circuits/tour"] {
        let mut here: Vec<String> = std::fs::read_dir(common::root().join(dir))
            .expect("circuits folder")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".qcg"))
            .map(|n| format!("{dir}/{n}"))
            .collect();
        here.sort();
        games.extend(here);
    }
    assert!(games.len() >= 30, "{games:?}");
    games
}

/// The exact outcome distribution `qchess run --json` prints for a program.
fn distribution(program: &Path) -> BTreeMap<String, f64> {
    let out = ok_json(&qchess(&["run", path_str(program), "--json"]));
    out["probabilities"]
        .as_object()
        .expect("probabilities")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().expect("p")))
        .filter(|(_, p)| *p > 1e-12)
        .collect()
}

fn assert_same_distribution(want: &BTreeMap<String, f64>, got: &BTreeMap<String, f64>, ctx: &str) {
    for (k, p) in want.iter().chain(got.iter()) {
        let (a, b) = (
            want.get(k).copied().unwrap_or(0.0),
            got.get(k).copied().unwrap_or(0.0),
        );
        assert!(
            (a - b).abs() < 1e-9,
            "{ctx}: outcome {k}: {a} unrouted, {b} routed ({p})"
        );
    }
}

/// Compiles `game` for `target` in `form` (`extra` flags too) into `dir`, returning the program
/// and the `--json` summary.
fn compile_device(
    dir: &Path,
    game: &str,
    target: &str,
    form: &str,
    extra: &[&str],
) -> (PathBuf, Value) {
    let program = dir.join(format!("{target}-{form}.qasm"));
    let mut args = vec![
        "compile",
        game,
        "--target",
        target,
        "--form",
        form,
        "--json",
        "-o",
        path_str(&program),
    ];
    args.extend_from_slice(extra);
    let out = qchess(&args);
    assert!(
        out.status.success(),
        "{game} on {target} ({form}): exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stderr).expect("JSON summary");
    (program, summary)
}

/// Two-qubit gates of a device program as (gate, a, b), read from `$a, $b` operands.
fn two_qubit_gates(text: &str) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let line = line.rsplit_once('{').map_or(line, |(_, body)| body).trim();
        let Some((name, rest)) = line.split_once(' ') else {
            continue;
        };
        let qubits: Vec<usize> = rest
            .trim_end_matches(['}', ';', ' '])
            .split(',')
            .filter_map(|q| q.trim().strip_prefix('$')?.parse().ok())
            .collect();
        if let [a, b] = qubits[..] {
            found.push((name.to_string(), a, b));
        }
    }
    found
}

/// The couplers of a bundled device, low qubit first.
fn device_edges(target: &str) -> Vec<(usize, usize)> {
    listed_edges(target)
        .into_iter()
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect()
}

/// The couplers of a bundled device as its TOML's `edges` lists them (every number after
/// `edges =`, comments left out, taken in pairs): `[first, second]`, the drive direction on a
/// directed device.
fn listed_edges(target: &str) -> Vec<(usize, usize)> {
    let text = std::fs::read_to_string(common::root().join(format!("backends/{target}.toml")))
        .expect("device toml");
    let (_, edges) = text.split_once("\nedges = [").expect("edges");
    let edges = edges.split("\n]").next().unwrap_or("");
    let numbers: Vec<usize> = edges
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !c.is_ascii_digit()))
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        numbers.len() > 40 && numbers.len().is_multiple_of(2),
        "{target}: {numbers:?}"
    );
    numbers.chunks(2).map(|e| (e[0], e[1])).collect()
}

#[test]
fn every_bundled_game_routes_onto_both_devices_and_keeps_its_distribution() {
    let dir = temp_dir("device-games");
    for (target, form) in [
        ("ibm_fez", "dynamic"),
        ("ibm_fez", "deferred"),
        ("sycamore", "deferred"),
    ] {
        let edges = device_edges(target);
        for game in bundled_games() {
            let ctx = format!("{game} on {target} ({form})");
            let (program, summary) = compile_device(&dir, &game, target, form, &[]);
            let device = &summary["device"];
            assert_eq!(device["device"], target, "{ctx}");
            let text = std::fs::read_to_string(&program).expect("program");
            // Every two-qubit gate on a coupler (the verifier's check, repeated outside it).
            let gates = two_qubit_gates(&text);
            assert_eq!(
                gates.len() as u64,
                device["two_qubit_gates"].as_u64().expect("count"),
                "{ctx}"
            );
            for (name, a, b) in &gates {
                assert!(
                    edges.contains(&(*a.min(b), *a.max(b))),
                    "{ctx}: {name} on {a}-{b} is not a coupler"
                );
            }
            // Small enough to simulate: the same bits, the same exact distribution.
            let qubits = summary["device"]["peak_live_qubits"]
                .as_u64()
                .expect("peak");
            if qubits <= 14 {
                let logical = dir.join(format!("logical-{form}.qasm"));
                ok_stdout(&qchess(&[
                    "compile",
                    &game,
                    "--form",
                    form,
                    "-o",
                    path_str(&logical),
                ]));
                assert_same_distribution(&distribution(&logical), &distribution(&program), &ctx);
            }
        }
    }
}

/// IBM's Eagle (ibm_brisbane) drives each ECR coupler one way: every bundled game comes out
/// in `ecr` as its only two-qubit gate, each with the coupler's first qubit first, exactly as
/// many as the summary counts, and, where small enough to simulate, with the unrouted
/// program's exact distribution (`if` blocks included).
#[test]
fn every_bundled_game_runs_each_ecr_the_way_ibm_brisbane_drives_it() {
    let dir = temp_dir("device-ecr");
    let drive = listed_edges("ibm_brisbane");
    assert_eq!(drive.len(), 144);
    let mut ecrs = 0;
    for game in bundled_games() {
        let ctx = format!("{game} on ibm_brisbane");
        let (program, summary) = compile_device(&dir, &game, "ibm_brisbane", "dynamic", &[]);
        let text = std::fs::read_to_string(&program).expect("program");
        let gates = two_qubit_gates(&text);
        ecrs += gates.len();
        assert_eq!(
            gates.len() as u64,
            summary["device"]["two_qubit_gates"]
                .as_u64()
                .expect("count"),
            "{ctx}"
        );
        for (name, a, b) in &gates {
            assert!(
                name == "ecr" && drive.contains(&(*a, *b)),
                "{ctx}: {name} ${a}, ${b} is not an ECR the way a coupler drives it"
            );
        }
        let qubits = summary["device"]["peak_live_qubits"]
            .as_u64()
            .expect("peak");
        if qubits <= 14 {
            let logical = dir.join("logical-ecr.qasm");
            ok_stdout(&qchess(&[
                "compile",
                &game,
                "--form",
                "dynamic",
                "-o",
                path_str(&logical),
            ]));
            assert_same_distribution(&distribution(&logical), &distribution(&program), &ctx);
        }
    }
    assert!(ecrs > 300, "{ecrs} ECR in all the games");
}

/// The trapped-ion target couples every pair of its 56 qubits (`all_to_all = true`): every
/// bundled game is placed with no exchange, written with `rzz` as its only two-qubit gate and
/// never more of them than the CNOTs of its unrouted program (one `rzz` per controlled phase,
/// runs on a pair merged), and, where small enough to simulate, keeps the unrouted program's
/// exact distribution, `if` blocks included.
#[test]
fn every_bundled_game_is_placed_on_the_ion_trap_without_exchanges() {
    let dir = temp_dir("device-ions");
    for game in bundled_games() {
        let ctx = format!("{game} on quantinuum_h2");
        let (program, summary) = compile_device(&dir, &game, "quantinuum_h2", "dynamic", &[]);
        let device = &summary["device"];
        assert_eq!(device["exchanges"], 0, "{ctx}: {device}");
        let text = std::fs::read_to_string(&program).expect("program");
        let gates = two_qubit_gates(&text);
        let count = device["two_qubit_gates"].as_u64().expect("count");
        assert_eq!(gates.len() as u64, count, "{ctx}");
        for (name, a, b) in &gates {
            assert!(
                name.starts_with("rzz(") && a != b && *a.max(b) < 56,
                "{ctx}: {name} on {a}-{b}"
            );
        }
        let unrouted = device["unrouted_two_qubit_gates"].as_u64().expect("count");
        assert!(
            count <= unrouted,
            "{ctx}: {count} rzz, {unrouted} CNOT unrouted"
        );
        if device["peak_live_qubits"].as_u64().expect("peak") <= 14 {
            let logical = dir.join("logical-ions.qasm");
            ok_stdout(&qchess(&["compile", &game, "-o", path_str(&logical)]));
            assert_same_distribution(&distribution(&logical), &distribution(&program), &ctx);
        }
    }
}

/// A device family is a TOML file: a ring of 12 qubits whose two-qubit gate is iSWAP (an
/// entangler no bundled target has, and one the logical lowering has no CNOT for) compiles
/// every game given, writes `iswap` as its only two-qubit gate, each on a coupler of the ring,
/// and keeps the unrouted program's exact distribution.
#[test]
fn a_device_with_a_new_entangler_is_one_toml_file() {
    let dir = temp_dir("device-iswap");
    let backends = dir.join("backends");
    std::fs::create_dir_all(&backends).expect("backends dir");
    let ring: Vec<String> = (0..12)
        .map(|a| format!("[{a}, {}]", (a + 1) % 12))
        .collect();
    std::fs::write(
        backends.join("iswap_ring.toml"),
        format!(
            "name = \"iswap_ring\"\nqubits = 12\nfeed_forward = false\nmeasure_reset = true\n\
             native = [\"iswap\", \"rx\", \"ry\", \"rz\"]\nsingle_qubit = \"zyz\"\n\
             two_qubit = \"iswap\"\ndefinitions = true\nedges = [{}]\n",
            ring.join(", ")
        ),
    )
    .expect("target file");
    let on_ring = |a: usize, b: usize| (a + 1) % 12 == b || (b + 1) % 12 == a;
    for game in [
        "circuits/interference.qcg",
        "circuits/notation_example.qcg",
        "circuits/tour/13_split_slide_path.qcg",
        "circuits/tour/29_en_passant_capture_measured.qcg",
    ] {
        let (program, summary) = compile_device(
            &dir,
            game,
            "iswap_ring",
            "deferred",
            &["--backends-dir", path_str(&backends)],
        );
        let text = std::fs::read_to_string(&program).expect("program");
        let gates = two_qubit_gates(&text);
        assert!(!gates.is_empty(), "{game}");
        assert_eq!(
            gates.len() as u64,
            summary["device"]["two_qubit_gates"]
                .as_u64()
                .expect("count"),
            "{game}"
        );
        for (name, a, b) in &gates {
            assert!(
                name == "iswap" && on_ring(*a, *b),
                "{game}: {name} on {a}-{b}"
            );
        }
        let logical = dir.join("logical-iswap.qasm");
        ok_stdout(&qchess(&[
            "compile",
            game,
            "--form",
            "deferred",
            "-o",
            path_str(&logical),
        ]));
        assert_same_distribution(&distribution(&logical), &distribution(&program), game);
    }
}

/// The comment lines of a device program say where each program qubit is measured, as the
/// program's own statements do: for every `c[k] = measure $p;` the comment of `$p` names, with
/// `c[k]` (`b1 (measure c[1])`), the program qubit the header's layout measures into `c[k]`, and
/// every physical qubit a layout entry starts a life on names it (`a2 (start)`). Routing
/// exchanges qubits, so a program qubit is often measured away from where it started
/// (bell_psi_minus's b1 on ibm_fez), which the comments once missed.
#[test]
fn comment_lines_name_the_program_qubit_each_physical_qubit_measures() {
    let dir = temp_dir("device-comments");
    let mut games: Vec<(String, Vec<&str>)> =
        bundled_games().into_iter().map(|g| (g, vec![])).collect();
    games.push((
        "circuits/niels/small_5x6.qng".into(),
        vec!["--rules", "niels"],
    ));
    let mut moved = 0;
    for (target, form) in [
        ("ibm_fez", "dynamic"),
        ("ibm_fez", "deferred"),
        ("sycamore", "deferred"),
    ] {
        for (game, extra) in &games {
            let ctx = format!("{game} on {target} ({form})");
            let (program, _) = compile_device(&dir, game, target, form, extra);
            let text = std::fs::read_to_string(&program).expect("program");
            // `// $p = NAME (WHAT), NAME (WHAT), ...` as (name, what) pairs per physical qubit.
            let mut said: BTreeMap<usize, Vec<(String, String)>> = BTreeMap::new();
            for line in text.lines() {
                let Some((p, label)) = line
                    .strip_prefix("// $")
                    .and_then(|rest| rest.split_once(" = "))
                else {
                    continue;
                };
                let p: usize = p.parse().expect("physical qubit");
                for part in label.split("), ").map(|x| x.trim_end_matches(')')) {
                    let (name, what) = part.split_once(" (").expect("NAME (WHAT)");
                    said.entry(p)
                        .or_default()
                        .push((name.to_string(), what.to_string()));
                }
            }
            let header = qc_export::parse_header(&text).expect("header");
            let layout = header.layout.expect("a device program has a layout");
            let name_of_bit: BTreeMap<usize, &str> = layout
                .iter()
                .flat_map(|e| {
                    let name = e.name.split(" (").next().expect("name");
                    e.measured.iter().map(move |m| (m.bit, name))
                })
                .collect();
            for line in text.lines() {
                let Some((bit, qubit)) = line.trim().split_once(" = measure $") else {
                    continue;
                };
                let k: usize = bit
                    .trim_start_matches("c[")
                    .trim_end_matches(']')
                    .parse()
                    .expect("bit");
                let p: usize = qubit.trim_end_matches(';').parse().expect("qubit");
                let name = name_of_bit
                    .get(&k)
                    .unwrap_or_else(|| panic!("{ctx}: the layout measures nothing into c[{k}]"));
                let entries = said.get(&p).cloned().unwrap_or_default();
                let what = entries
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, w)| w.as_str())
                    .unwrap_or_else(|| {
                        panic!(
                            "{ctx}: c[{k}] measures {name} on ${p}, whose comment says {entries:?}"
                        )
                    });
                assert!(
                    what.split([';', ',', ' ']).any(|w| w == format!("c[{k}]")),
                    "{ctx}: c[{k}] measures {name} on ${p}, whose comment says {entries:?}"
                );
                if !what.contains("start") {
                    moved += 1;
                }
            }
            for entry in &layout {
                let name = entry.name.split(" (").next().expect("name");
                for p in &entry.lives {
                    let entries = said.get(p).cloned().unwrap_or_default();
                    assert!(
                        entries
                            .iter()
                            .any(|(n, w)| n == name && w.starts_with("start")),
                        "{ctx}: {name} starts a life on ${p}, whose comment says {entries:?}"
                    );
                }
            }
        }
    }
    // Routing did move qubits before their measurement: the case the old comments got wrong.
    assert!(moved > 10, "only {moved} measurements away from a start");
}

#[test]
fn counts_of_a_routed_program_give_simulates_board() {
    let dir = temp_dir("device-counts");
    for game in [
        "circuits/tour/04_jump_capture_measured.qcg",
        "circuits/tour/11_split_jump.qcg",
    ] {
        let sim = ok_json(&qchess(&["simulate", game, "--json"]));
        for (target, form) in [
            ("ibm_fez", "dynamic"),
            ("sycamore", "deferred"),
            ("quantinuum_h2", "dynamic"),
        ] {
            let ctx = format!("{game} on {target} ({form})");
            let (program, _) = compile_device(&dir, game, target, form, &[]);
            let counts = dir.join("counts.json");
            let board = sampled_board(&program, &counts, 2000, 5);
            let want = sim["squares"].as_object().expect("simulate squares");
            for (sq, w) in want {
                let p_sim = w["probability"].as_f64().expect("p");
                let exact = board["exact"][sq].as_f64().expect("exact");
                assert!((exact - p_sim).abs() < 1e-9, "{sq}: {ctx}: {board}");
                assert_eq!(board["squares"][sq]["piece"], w["piece"], "{sq}: {ctx}");
            }
        }
    }
}

#[test]
fn the_dynamic_form_routes_inside_if_blocks_and_openqasm_2_reads_back() {
    let dir = temp_dir("device-dynamic");
    // A measured capture: its later moves are conditioned on the measurement.
    let game = "circuits/tour/10_slide_capture_measured.qcg";
    let logical = dir.join("logical.qasm");
    ok_stdout(&qchess(&["compile", game, "-o", path_str(&logical)]));
    let want = distribution(&logical);
    let (program, summary) = compile_device(&dir, game, "ibm_fez", "dynamic", &[]);
    let text = std::fs::read_to_string(&program).expect("program");
    let mut inside = false;
    let mut routed_in_if = 0;
    for line in text.lines() {
        if line.starts_with("if (") {
            inside = true;
        } else if line.starts_with('}') {
            inside = false;
        } else if inside && line.trim_start().starts_with("cz $") {
            routed_in_if += 1;
        }
    }
    assert!(
        routed_in_if > 0,
        "no two-qubit gate inside an if block: {text}"
    );
    assert!(summary["device"]["two_qubit_gates"].as_u64().expect("cz") > 0);
    assert_same_distribution(&want, &distribution(&program), "dynamic, OpenQASM 3");
    // OpenQASM 2: one register as wide as the device, the same distribution.
    let (program2, _) = compile_device(&dir, game, "ibm_fez", "dynamic", &["--format", "qasm2"]);
    let text2 = std::fs::read_to_string(&program2).expect("program");
    assert!(text2.starts_with("OPENQASM 2.0;"), "{text2}");
    assert!(text2.contains("qreg q[156];"), "{text2}");
    assert!(
        text2
            .lines()
            .any(|l| l.starts_with("if (") && l.contains(") cz q[")),
        "{text2}"
    );
    assert_same_distribution(&want, &distribution(&program2), "dynamic, OpenQASM 2");
}

#[test]
fn the_same_seed_gives_the_same_program() {
    let dir = temp_dir("device-seed");
    let game = "circuits/full_game.qcg";
    let run = |seed: &str, name: &str| {
        let path = dir.join(name);
        let out = qchess(&[
            "compile",
            game,
            "--target",
            "ibm_fez",
            "--seed",
            seed,
            "-o",
            path_str(&path),
        ]);
        ok_stdout(&out);
        std::fs::read_to_string(path).expect("program")
    };
    let a = run("7", "a.qasm");
    let b = run("7", "b.qasm");
    assert_eq!(a, b, "the same seed gave two programs");
}

/// Standard error of a run that must fail with exit code 2.
fn refused(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "{err}");
    err
}

fn assert_mentions(err: &str, needles: &[&str]) {
    for n in needles {
        assert!(err.contains(n), "`{n}` not in: {err}");
    }
}

/// A folder of device targets for the bad-input tests: `line3` (3 qubits on a line),
/// `ring4` (4 on a ring) and `split` (two pairs, not connected), in a directory of the
/// calling test's own (`tag`): the tests run in parallel, and one rewriting a shared
/// file while another read it gave an empty TOML.
fn test_backends(tag: &str) -> PathBuf {
    let dir = temp_dir(&format!("device-backends-{tag}"));
    let device = |name: &str, qubits: usize, edges: &str| {
        format!(
            "name = \"{name}\"\ndescription = \"test device\"\nqubits = {qubits}\nfeed_forward = true\n\
             native = [\"rz\", \"sx\", \"x\", \"cz\"]\nsingle_qubit = \"zsx\"\ntwo_qubit = \"cz\"\n\
             edges = {edges}\n"
        )
    };
    for (name, qubits, edges) in [
        ("line3", 3, "[[0, 1], [1, 2]]"),
        ("ring4", 4, "[[0, 1], [1, 2], [2, 3], [3, 0]]"),
        ("split", 4, "[[0, 1], [2, 3]]"),
    ] {
        std::fs::write(
            dir.join(format!("{name}.toml")),
            device(name, qubits, edges),
        )
        .expect("write target");
    }
    dir
}

/// IBM BackendProperties JSON for `qubits` qubits and `couplers` (cz, with their errors), without
/// a `backend_name` (one that names another device than the target is refused).
fn properties(qubits: usize, couplers: &[(usize, usize, f64)]) -> String {
    let qubit =
        |_: usize| serde_json::json!([{"name": "readout_error", "value": 0.01, "unit": ""}]);
    let gates: Vec<Value> = couplers
        .iter()
        .map(|&(a, b, e)| {
            serde_json::json!({
                "gate": "cz",
                "qubits": [a, b],
                "parameters": [{"name": "gate_error", "value": e, "unit": ""}]
            })
        })
        .collect();
    serde_json::json!({
        "qubits": (0..qubits).map(qubit).collect::<Vec<_>>(),
        "gates": gates,
    })
    .to_string()
}

/// A four-qubit circuit with a CX on every pair, rotations between them so that no qubit's
/// value is known (a known qubit needs no routing).
const ALL_PAIRS: &str = "OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[4];\ncreg c[4];\n\
    ry(0.3) q[0];\nry(0.7) q[1];\nry(1.1) q[2];\nry(1.9) q[3];\n\
    cx q[0],q[1];\nry(0.4) q[1];\ncx q[0],q[2];\nry(0.5) q[2];\ncx q[0],q[3];\nry(0.6) q[3];\n\
    cx q[1],q[2];\nry(0.8) q[2];\ncx q[1],q[3];\nry(0.9) q[3];\ncx q[2],q[3];\nmeasure q -> c;\n";

#[test]
fn an_unknown_device_exits_2_naming_it() {
    for cmd in ["compile", "route"] {
        let input = if cmd == "route" {
            "circuits/bell_psi_minus.qasm"
        } else {
            "circuits/interference.qcg"
        };
        let err = refused(&qchess(&[cmd, input, "--target", "nosuch_device"]));
        assert_mentions(
            &err,
            &[
                "unknown target `nosuch_device`",
                "ibm_brisbane, ibm_fez, quantinuum_h2, rainbow, sycamore, weber, willow_pink",
            ],
        );
    }
}

#[test]
fn a_disconnected_coupling_map_exits_2() {
    let backends = test_backends("disconnected");
    let err = refused(&qchess(&[
        "route",
        "circuits/bell_psi_minus.qasm",
        "--target",
        "split",
        "--backends-dir",
        path_str(&backends),
    ]));
    assert_mentions(&err, &["split", "disconnected"]);
}

#[test]
fn a_program_wider_than_the_device_exits_2() {
    let backends = test_backends("wide");
    let dir = temp_dir("device-wide");
    let circuit = dir.join("all_pairs.qasm");
    std::fs::write(&circuit, ALL_PAIRS).expect("write");
    let err = refused(&qchess(&[
        "route",
        path_str(&circuit),
        "--target",
        "line3",
        "--backends-dir",
        path_str(&backends),
    ]));
    assert_mentions(&err, &["needs 4 qubits at once", "`line3` has 3 usable"]);
}

/// `qchess route circuit --target ring4` (of `backends`) with the calibration `props` (written
/// into `dir`) and `extra` arguments.
fn route_on_ring4(
    dir: &Path,
    backends: &Path,
    circuit: &Path,
    props: &str,
    extra: &[&str],
) -> Output {
    let file = dir.join("props.json");
    std::fs::write(&file, props).expect("write props");
    let mut args = vec![
        "route",
        path_str(circuit),
        "--target",
        "ring4",
        "--backends-dir",
        path_str(backends),
        "--properties",
        path_str(&file),
    ];
    args.extend_from_slice(extra);
    qchess(&args)
}

#[test]
fn a_calibration_for_another_device_exits_2() {
    let dir = temp_dir("device-calibration");
    let backends = test_backends("calibration");
    let circuit = dir.join("all_pairs.qasm");
    std::fs::write(&circuit, ALL_PAIRS).expect("write");
    let route = |props: &str| route_on_ring4(&dir, &backends, &circuit, props, &[]);
    // Another qubit count.
    let err = refused(&route(&properties(5, &[(0, 1, 0.01)])));
    assert_mentions(&err, &["has 5 qubits", "`ring4` has 4", "another device"]);
    // The right count, but a coupler ring4 does not have (a line's 0-2 instead of 3-0).
    let err = refused(&route(&properties(
        4,
        &[(0, 1, 0.01), (1, 2, 0.01), (2, 3, 0.01), (0, 2, 0.01)],
    )));
    assert_mentions(&err, &["qubits 0-2", "does not couple", "another device"]);
    // A coupler of the device missing.
    let err = refused(&route(&properties(
        4,
        &[(0, 1, 0.01), (1, 2, 0.01), (2, 3, 0.01)],
    )));
    assert_mentions(&err, &["coupler 0-3", "another device"]);
    // And the bundled device with a calibration of the wrong size, through compile.
    let file = dir.join("props.json");
    std::fs::write(&file, properties(4, &[(0, 1, 0.01)])).expect("write props");
    let err = refused(&qchess(&[
        "compile",
        "circuits/interference.qcg",
        "--target",
        "ibm_fez",
        "--properties",
        path_str(&file),
    ]));
    assert_mentions(&err, &["has 4 qubits", "`ibm_fez` has 156"]);
}

/// `properties` with `"backend_name": name`.
fn named_properties(name: &str, qubits: usize, couplers: &[(usize, usize, f64)]) -> String {
    let mut props: Value = serde_json::from_str(&properties(qubits, couplers)).expect("json");
    props["backend_name"] = Value::from(name);
    props.to_string()
}

/// IBM's Heron r2 devices share one coupling map, so a calibration of ibm_marrakesh fits
/// ibm_fez's couplers exactly: only its `backend_name` tells, and it is refused (exit 2, both
/// devices named) unless --allow-other-device says it is meant; a calibration named after the
/// target, or without a name, is used.
#[test]
fn a_calibration_named_after_another_device_exits_2_unless_allowed() {
    let dir = temp_dir("device-other-name");
    let backends = test_backends("other-name");
    let circuit = dir.join("all_pairs.qasm");
    std::fs::write(&circuit, ALL_PAIRS).expect("write");
    let ring = [(0, 1, 0.01), (1, 2, 0.01), (2, 3, 0.01), (0, 3, 0.01)];
    let route =
        |props: &str, extra: &[&str]| route_on_ring4(&dir, &backends, &circuit, props, extra);
    let other = named_properties("ibm_marrakesh", 4, &ring);
    let err = refused(&route(&other, &[]));
    assert_mentions(
        &err,
        &[
            "`ibm_marrakesh`",
            "not of device `ring4`",
            "--allow-other-device",
        ],
    );
    let allowed = route(&other, &["--allow-other-device"]);
    assert!(
        allowed.status.success(),
        "{}",
        String::from_utf8_lossy(&allowed.stderr)
    );
    for props in [named_properties("ring4", 4, &ring), properties(4, &ring)] {
        let out = route(&props, &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The bundled device, through compile: ibm_fez's own map under ibm_marrakesh's name.
    let couplers: Vec<(usize, usize, f64)> = device_edges("ibm_fez")
        .into_iter()
        .map(|(a, b)| (a, b, 0.005))
        .collect();
    let file = dir.join("marrakesh.json");
    std::fs::write(&file, named_properties("ibm_marrakesh", 156, &couplers)).expect("write");
    let compile = |extra: &[&str]| {
        let mut args = vec![
            "compile",
            "circuits/interference.qcg",
            "--target",
            "ibm_fez",
            "--properties",
            path_str(&file),
        ];
        args.extend_from_slice(extra);
        qchess(&args)
    };
    let err = refused(&compile(&[]));
    assert_mentions(&err, &["`ibm_marrakesh`", "not of device `ibm_fez`"]);
    let out = compile(&["--allow-other-device"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_broken_coupler_is_never_used() {
    let dir = temp_dir("device-broken");
    let backends = test_backends("broken");
    let circuit = dir.join("all_pairs.qasm");
    std::fs::write(&circuit, ALL_PAIRS).expect("write");
    let run = |broken: f64| {
        let file = dir.join(format!("props-{broken}.json"));
        std::fs::write(
            &file,
            properties(
                4,
                &[(0, 1, broken), (1, 2, 0.01), (2, 3, 0.01), (3, 0, 0.01)],
            ),
        )
        .expect("write props");
        let out = qchess(&[
            "route",
            path_str(&circuit),
            "--target",
            "ring4",
            "--backends-dir",
            path_str(&backends),
            "--properties",
            path_str(&file),
        ]);
        (
            ok_stdout(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let uses = |text: &str| {
        two_qubit_gates(text)
            .iter()
            .any(|(_, a, b)| (*a.min(b), *a.max(b)) == (0, 1))
    };
    // Healthy, the coupler 0-1 is used; at error 0.5 it is broken and never used.
    let (healthy, _) = run(0.01);
    assert!(uses(&healthy), "{healthy}");
    let (text, summary) = run(0.5);
    assert!(!uses(&text), "a gate on the broken coupler 0-1: {text}");
    assert!(!two_qubit_gates(&text).is_empty(), "{text}");
    assert_mentions(&summary, &["1 broken coupler never used"]);
}

/// A Google calibration in cirq-google's format for `target`'s grid (the qubit map of its TOML
/// comment: `k = (row, col)`): readout errors 0.02, T1 20 us, single-qubit errors 1e-3, every
/// coupler's √iSWAP error 0.01 but `broken`'s, which is `broken_error`.
fn google_calibration(target: &str, broken: (usize, usize), broken_error: f64) -> String {
    let text = std::fs::read_to_string(common::root().join(format!("backends/{target}.toml")))
        .expect("device toml");
    let mut grid: Vec<(usize, String)> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("#   ")) {
        for cell in line.trim_start_matches('#').split("), ") {
            let (k, rc) = cell.split_once(" = (").expect("k = (r, c)");
            let rc = rc.trim_end_matches(')').replace(", ", "_");
            grid.push((k.trim().parse().expect("k"), rc));
        }
    }
    let name: BTreeMap<usize, String> = grid.into_iter().collect();
    let metric = |metric: &str, targets: &[usize], value: f64| {
        let targets: Vec<String> = targets.iter().map(|q| format!("\"{}\"", name[q])).collect();
        format!(
            "{{\"name\": \"{metric}\", \"targets\": [{}], \"values\": [{{\"doubleVal\": {value}}}]}}",
            targets.join(", ")
        )
    };
    let mut metrics = Vec::new();
    for &q in name.keys() {
        metrics.push(metric("single_qubit_p00_error", &[q], 0.02));
        metrics.push(metric("single_qubit_p11_error", &[q], 0.02));
        metrics.push(metric("single_qubit_idle_t1_micros", &[q], 20.0));
        metrics.push(metric("single_qubit_rb_average_error_per_gate", &[q], 1e-3));
    }
    for (a, b) in device_edges(target) {
        let error = if (a, b) == broken { broken_error } else { 0.01 };
        metrics.push(metric(
            "two_qubit_sqrt_iswap_gate_xeb_average_error_per_cycle",
            &[a, b],
            error,
        ));
    }
    format!(
        "{{\"cirq_type\": \"Calibration\", \"metrics\": {{\"metrics\": [{}]}}}}",
        metrics.join(",\n")
    )
}

/// Google's processors take Google's calibrations (`cirq_google/devices/calibrations/*.json`,
/// read as cirq-google writes them): on rainbow, a program placed where a coupler is good moves
/// away from it when the calibration marks it broken, with the success probability of the
/// calibration's own errors; a calibration of another processor (rainbow's on weber) is refused,
/// naming both sizes.
#[test]
fn google_processors_are_routed_with_google_calibrations() {
    let dir = temp_dir("device-google");
    let game = "circuits/interference.qcg";
    let (healthy_program, healthy) = {
        let file = dir.join("healthy.json");
        std::fs::write(&file, google_calibration("rainbow", (0, 0), 0.0)).expect("write");
        compile_device(
            &dir,
            game,
            "rainbow",
            "deferred",
            &["--properties", path_str(&file)],
        )
    };
    let device = &healthy["device"];
    assert_eq!(device["errors"], "calibration", "{device}");
    // Four √iSWAP-family gates at 0.01 would give 0.99^4; every gate is costed, so the ESP is
    // below the two-qubit part alone.
    let two = device["two_qubit_gates"].as_u64().expect("count");
    let esp = device["esp"].as_f64().expect("esp");
    assert!(esp < 0.99f64.powi(two as i32) * 0.98f64.powi(4), "{device}");
    let text = std::fs::read_to_string(&healthy_program).expect("program");
    let (_, a, b) = two_qubit_gates(&text)[0].clone();
    let used = (a.min(b), a.max(b));
    let file = dir.join("broken.json");
    std::fs::write(&file, google_calibration("rainbow", used, 0.6)).expect("write");
    let (program, summary) = compile_device(
        &dir,
        game,
        "rainbow",
        "deferred",
        &["--properties", path_str(&file)],
    );
    let text = std::fs::read_to_string(&program).expect("program");
    assert!(
        two_qubit_gates(&text)
            .iter()
            .all(|(_, a, b)| (*a.min(b), *a.max(b)) != used),
        "a gate on the broken coupler {used:?}: {text}"
    );
    assert_eq!(summary["device"]["broken_couplers"], 1);
    let out = qchess(&[
        "compile",
        game,
        "--target",
        "weber",
        "--properties",
        path_str(&file),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_mentions(
        &refused(&out),
        &["the calibration has 23 qubits, but device `weber` has 53"],
    );
}

/// A small program settles on good qubits anywhere on the device: bell_psi_plus on ibm_fez,
/// with every coupler near where the board's embedding puts it (the qubits it uses under
/// uniform errors, and their neighbours) made poor (error 0.2; usable) and every other one good
/// (0.01), is placed elsewhere: no gate on a poor coupler, and no more CZ than under uniform
/// errors (the embedding alone brought it back near its homes and paid exchanges to flee).
#[test]
fn a_small_program_is_placed_on_good_qubits_away_from_the_boards_embedding() {
    let dir = temp_dir("device-small");
    let game = "circuits/bell_psi_plus.qcg";
    let (uniform, _) = compile_device(&dir, game, "ibm_fez", "deferred", &[]);
    let text = std::fs::read_to_string(&uniform).expect("program");
    let uniform_gates = two_qubit_gates(&text);
    let used: Vec<usize> = uniform_gates
        .iter()
        .flat_map(|(_, a, b)| [*a, *b])
        .collect();
    assert!(!used.is_empty(), "{text}");
    let edges = device_edges("ibm_fez");
    let near: Vec<usize> = edges
        .iter()
        .filter(|(a, b)| used.contains(a) || used.contains(b))
        .flat_map(|&(a, b)| [a, b])
        .collect();
    let poor = |a: usize, b: usize| near.contains(&a) || near.contains(&b);
    let couplers: Vec<(usize, usize, f64)> = edges
        .iter()
        .map(|&(a, b)| (a, b, if poor(a, b) { 0.2 } else { 0.01 }))
        .collect();
    let file = dir.join("props.json");
    std::fs::write(&file, properties(156, &couplers)).expect("write props");
    let (program, summary) = compile_device(
        &dir,
        game,
        "ibm_fez",
        "deferred",
        &["--properties", path_str(&file)],
    );
    let text = std::fs::read_to_string(&program).expect("program");
    let gates = two_qubit_gates(&text);
    for (name, a, b) in &gates {
        assert!(
            !poor(*a, *b),
            "{name} on the poor coupler {a}-{b}: {summary}"
        );
    }
    assert!(
        gates.len() <= uniform_gates.len(),
        "{} CZ, {} under uniform errors: {summary}",
        gates.len(),
        uniform_gates.len()
    );
}

/// The target file of a device like Sycamore (its gates, no feed-forward, measure and reset)
/// with every pair of its `qubits` coupled: what the program costs in √iSWAP without routing.
fn all_to_all_sycamore(dir: &Path, qubits: usize) -> PathBuf {
    let edges: Vec<String> = (0..qubits)
        .flat_map(|a| (a + 1..qubits).map(move |b| format!("[{a}, {b}]")))
        .collect();
    let text = format!(
        "name = \"all_to_all\"\nqubits = {qubits}\nfeed_forward = false\nmeasure_reset = true\n\
         native = [\"siswap\", \"siswapdg\", \"rx\", \"ry\", \"rz\"]\nsingle_qubit = \"zyz\"\n\
         two_qubit = \"siswap\"\ndefinitions = true\nedges = [{}]\n",
        edges.join(", ")
    );
    let backends = dir.join("backends");
    std::fs::create_dir_all(&backends).expect("backends dir");
    std::fs::write(backends.join("all_to_all.toml"), text).expect("target file");
    backends
}

/// Sycamore's programs are written in √iSWAP directly (each run on a coupler one unitary, the
/// fewest √iSWAP its class needs), not two √iSWAP per CZ: b1^a3c3 needs no more than the
/// logical `google` program of the same move (5; the CZ route wrote 12), and the full game no
/// more than 1.2x the √iSWAP of the same program on a device where every pair is coupled (no
/// routing at all).
#[test]
fn sycamore_writes_its_programs_in_the_fewest_sqrt_iswaps() {
    let dir = temp_dir("device-sqrt-iswap");
    let logical = dir.join("google.qasm");
    let out = qchess(&[
        "compile",
        "--moves",
        "b1^a3c3",
        "--target",
        "google",
        "--json",
        "-o",
        path_str(&logical),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stderr).expect("JSON summary");
    let google = summary["two_qubit_gates"].as_u64().expect("count");
    let out = qchess(&[
        "compile",
        "--moves",
        "b1^a3c3",
        "--target",
        "sycamore",
        "--json",
        "-o",
        path_str(&dir.join("sycamore.qasm")),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stderr).expect("JSON summary");
    let sycamore = summary["device"]["two_qubit_gates"]
        .as_u64()
        .expect("count");
    assert!(
        sycamore <= google,
        "b1^a3c3: sycamore {sycamore}, google {google}"
    );
    let game = "circuits/full_game.qcg";
    let (_, routed) = compile_device(&dir, game, "sycamore", "deferred", &[]);
    // More than the game holds at once (23), as Sycamore's 54 are.
    let backends = all_to_all_sycamore(&dir, 54);
    let (_, free) = compile_device(
        &dir,
        game,
        "all_to_all",
        "deferred",
        &["--backends-dir", path_str(&backends)],
    );
    let routed = routed["device"]["two_qubit_gates"].as_u64().expect("count");
    let free = free["device"]["two_qubit_gates"].as_u64().expect("count");
    assert!(
        routed as f64 <= 1.2 * free as f64,
        "{game}: {routed} √iSWAP routed on sycamore, {free} without routing"
    );
}

/// ibm_fez's coupling map as BackendProperties with every qubit's T1 and T2 at `t_us`
/// microseconds, `sx` and `x` at error 2e-4 over 36 ns, `cz` at error 3e-3 over 68 ns, readout
/// error 1e-2 over 1,560 ns.
fn timed_fez_properties(t_us: f64) -> String {
    let qubit = |_: usize| {
        serde_json::json!([
            {"name": "T1", "value": t_us, "unit": "us"},
            {"name": "T2", "value": t_us, "unit": "us"},
            {"name": "readout_error", "value": 0.01, "unit": ""},
            {"name": "readout_length", "value": 1560.0, "unit": "ns"}
        ])
    };
    let timed = |gate: &str, qubits: Vec<usize>, error: f64, length: f64| {
        serde_json::json!({
            "gate": gate,
            "qubits": qubits,
            "parameters": [
                {"name": "gate_error", "value": error, "unit": ""},
                {"name": "gate_length", "value": length, "unit": "ns"}
            ]
        })
    };
    let mut gates: Vec<Value> = Vec::new();
    for q in 0..156 {
        gates.push(timed("sx", vec![q], 2e-4, 36.0));
        gates.push(timed("x", vec![q], 2e-4, 36.0));
    }
    for (a, b) in device_edges("ibm_fez") {
        gates.push(timed("cz", vec![a, b], 3e-3, 68.0));
    }
    serde_json::json!({
        "backend_name": "ibm_fez",
        "qubits": (0..156).map(qubit).collect::<Vec<_>>(),
        "gates": gates,
    })
    .to_string()
}

/// With a calibration that has times, `compile` reports the ESP with idle time beside the
/// gates-only one: lower than it, in the text and the JSON summary, and lower still when the
/// qubits decay ten times faster; without a calibration it has none.
#[test]
fn compile_reports_the_success_probability_with_idle_time() {
    let dir = temp_dir("device-esp-time");
    let with_time = |t_us: f64| {
        let props = dir.join(format!("props_{t_us}.json"));
        std::fs::write(&props, timed_fez_properties(t_us)).expect("write props");
        let (_, summary) = compile_device(
            &dir,
            "circuits/interference.qcg",
            "ibm_fez",
            "dynamic",
            &["--properties", path_str(&props)],
        );
        let device = &summary["device"];
        let esp = device["esp"].as_f64().expect("esp");
        let timed = device["esp_with_time"].as_f64().expect("esp_with_time");
        (esp, timed)
    };
    let (esp, slow_decay) = with_time(200.0);
    let (same_esp, fast_decay) = with_time(20.0);
    assert!((esp - same_esp).abs() < 1e-12, "{esp} {same_esp}");
    assert!(slow_decay < esp, "{slow_decay} against {esp}");
    assert!(fast_decay < slow_decay, "{fast_decay} against {slow_decay}");
    let (_, uniform) = compile_device(&dir, "circuits/interference.qcg", "ibm_fez", "dynamic", &[]);
    assert!(
        uniform["device"].get("esp_with_time").is_none(),
        "{uniform}"
    );
}

/// `route` with a calibration that has times reports the ESP with idle time as `compile` does:
/// in the text summary and as `esp_with_time` in `--json`.
#[test]
fn route_reports_the_success_probability_with_idle_time() {
    let dir = temp_dir("route-esp-time");
    let props = dir.join("props.json");
    std::fs::write(&props, timed_fez_properties(50.0)).expect("write props");
    let program = dir.join("routed.qasm");
    let route = |json: bool| {
        let mut args = vec![
            "route",
            "circuits/interference.qasm",
            "--target",
            "ibm_fez",
            "--properties",
            path_str(&props),
            "-o",
            path_str(&program),
        ];
        if json {
            args.push("--json");
        }
        let out = qchess(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let summary: Value = serde_json::from_str(&route(true)).expect("JSON summary");
    let device = &summary["device"];
    let esp = device["esp"].as_f64().expect("esp");
    let timed = device["esp_with_time"].as_f64().expect("esp_with_time");
    assert!(timed < esp, "{timed} against {esp}");
    let text = route(false);
    assert!(
        text.contains(&format!(", with idle time: {timed:.4}")),
        "{text}"
    );
}

/// `--dd` is refused with exit code 2 and a reason on a logical target, without a calibration's
/// durations, in OpenQASM 2, and for an unknown sequence.
#[test]
fn dynamical_decoupling_is_refused_where_it_cannot_be_written() {
    let game = "circuits/interference.qcg";
    let err = refused(&qchess(&["compile", game, "--target", "ibm", "--dd", "xx"]));
    assert_mentions(&err, &["--dd needs a device target"]);
    let err = refused(&qchess(&[
        "compile", game, "--target", "ibm_fez", "--dd", "xy4",
    ]));
    assert_mentions(&err, &["--dd xy4", "give --properties"]);
    let err = refused(&qchess(&[
        "compile", game, "--target", "ibm_fez", "--dd", "sideways",
    ]));
    assert_mentions(&err, &["sideways", "xx", "xy4"]);
    // `--dd none` changes nothing: the program is the one written without the option.
    let plain = qchess(&["compile", game, "--target", "ibm_fez"]);
    let none = qchess(&["compile", game, "--target", "ibm_fez", "--dd", "none"]);
    assert_eq!(plain.stdout, none.stdout);
}

/// `qchess route --dd` decouples as `compile --dd` does: with a timed calibration, XY4 pulses
/// spaced by delays in the idle windows; `--dd none` is the program without the option; without
/// durations, or on a logical target, it is refused.
#[test]
fn route_takes_dynamical_decoupling_like_compile() {
    let dir = temp_dir("route-dd");
    let props = dir.join("props.json");
    std::fs::write(&props, timed_fez_properties(100.0)).expect("properties");
    let circuit = dir.join("circuit.qasm");
    // One qubit measured while the other two wait, then used again.
    std::fs::write(
        &circuit,
        "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[3] q;\nbit[4] c;\nh q[0];\ncx q[0], q[1];\n\
         cx q[1], q[2];\nc[0] = measure q[0];\nh q[0];\nc[3] = measure q[0];\ncx q[2], q[1];\n\
         c[1] = measure q[1];\nc[2] = measure q[2];\n",
    )
    .expect("circuit");
    let route = |extra: &[&str]| {
        let mut args = vec![
            "route",
            path_str(&circuit),
            "--target",
            "ibm_fez",
            "--properties",
            path_str(&props),
        ];
        args.extend_from_slice(extra);
        ok_stdout(&qchess(&args))
    };
    let plain = route(&[]);
    let xy4 = route(&["--dd", "xy4"]);
    assert!(!plain.contains("delay["), "{plain}");
    assert!(xy4.contains("delay["), "{xy4}");
    assert_eq!(route(&["--dd", "none"]), plain);
    let err = refused(&qchess(&[
        "route",
        path_str(&circuit),
        "--target",
        "ibm_fez",
        "--dd",
        "xy4",
    ]));
    assert_mentions(&err, &["--dd xy4", "give --properties"]);
    let err = refused(&qchess(&[
        "route",
        path_str(&circuit),
        "--target",
        "ibm",
        "--dd",
        "xx",
    ]));
    assert_mentions(&err, &["--dd needs a device target"]);
}
