//! The exact board of a compiled program comes from the game its header names, replayed by the
//! rules, not from its gates: the same board as the gate-level simulation of the portable
//! program (every bundled game and random games, in each form and width), and a board that
//! stays cheap where the gate-level simulation of the device-lowered program needs GBs.

use qc_export::{parse_header, ExportOptions, Form, MeasureScope, ProgramHeader, Target, Width};
use qc_front::counts::{
    exact_board, exact_board_of_game, replay_header_game, CountsError, ExactBoard,
};
use qc_front::{
    CountsRequest, CountsStepError, DeviceOptions, Format, GameInput, RulesKind, Session,
    SessionSpec,
};
use qc_ir::BackendError;
use qc_sim::MemoryLimit;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every game file under `dir` (recursively).
fn game_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("circuits/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            game_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "qcg" || e == "qng") {
            out.push(path);
        }
    }
}

/// The bundled game at `path`, replayed.
fn bundled(path: &Path) -> Session {
    let text = std::fs::read_to_string(path).expect("game file");
    let rules = if path.extension().is_some_and(|e| e == "qng") {
        RulesKind::Niels
    } else {
        RulesKind::Cantwell
    };
    let spec = SessionSpec {
        rules,
        ..SessionSpec::default()
    };
    let name = path.display().to_string();
    Session::open(
        &spec,
        GameInput::File {
            name: &name,
            text: &text,
        },
        0,
    )
    .expect("replays")
}

/// `plies` random plies from the start, with `seed` (as `qchess compile --random-plies`).
fn random_game(seed: u64, plies: usize) -> Session {
    let spec = SessionSpec {
        seed,
        ..SessionSpec::default()
    };
    Session::open(&spec, GameInput::START, plies).expect("random game")
}

/// The game compiled to OpenQASM 3 as `qchess compile` does, on `target`.
fn compile(game: &Session, options: &ExportOptions, target: Option<&Target>) -> String {
    game.compile(Format::Qasm3, options, target, &DeviceOptions::default())
        .expect("compiles")
        .text
}

fn options(form: Form, width: Width) -> ExportOptions {
    ExportOptions {
        form,
        width,
        measure: MeasureScope::Board,
        ..ExportOptions::default()
    }
}

/// The program with its header's `game` taken out: a program the front end did not annotate.
fn without_game(program: &str) -> String {
    let marker = "// qchess-export ";
    program
        .lines()
        .map(|line| match line.strip_prefix(marker) {
            Some(json) => {
                let mut header: ProgramHeader = serde_json::from_str(json).expect("header");
                header.game = None;
                format!("{marker}{}", serde_json::to_string(&header).expect("json"))
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The exact board of `program` by simulating its gates (the independent truth).
fn simulated(program: &str) -> ExactBoard {
    let header = parse_header(program).expect("header");
    let circuit = qc_export::import_qasm(program).expect("imports");
    let dist = qc_ir::exec::exact_distribution(&mut qc_sim::SparseSim::new(), &circuit)
        .expect("simulates");
    exact_board(&header.map, &dist).expect("exact board")
}

/// The exact board of `program` from the game its header names, replayed.
fn replayed(program: &str) -> ExactBoard {
    let header = parse_header(program).expect("header");
    let game = header.game.as_ref().expect("the header names its game");
    let session = replay_header_game(game, MemoryLimit::default()).expect("replays");
    exact_board_of_game(&*session, &header.map).expect("exact board")
}

/// The two boards agree: the same outcomes of the measured bits (up to rounding) with the same
/// probabilities, and the same square probabilities.
fn assert_same(what: &str, replay: &ExactBoard, gates: &ExactBoard) {
    const EPS: f64 = 1e-9;
    let keys = |b: &ExactBoard| -> Vec<Vec<bool>> {
        b.joint
            .iter()
            .filter(|(_, p)| **p > EPS)
            .map(|(k, _)| k.clone())
            .collect()
    };
    assert_eq!(
        keys(replay),
        keys(gates),
        "{what}: outcomes of the board bits"
    );
    for (k, p) in &gates.joint {
        let q = replay.joint.get(k).copied().unwrap_or(0.0);
        assert!(
            (p - q).abs() < EPS,
            "{what}: P({k:?}) {q} by replay, {p} by gates"
        );
    }
    assert_eq!(
        replay.squares.keys().collect::<Vec<_>>(),
        gates.squares.keys().collect::<Vec<_>>(),
        "{what}: squares"
    );
    for (sq, p) in &gates.squares {
        let q = replay.squares[sq];
        assert!(
            (p - q).abs() < EPS,
            "{what}: {sq} {q} by replay, {p} by gates"
        );
    }
}

#[test]
fn the_replayed_board_of_every_bundled_game_is_the_simulated_one() {
    let mut files = Vec::new();
    game_files(&root().join("circuits"), &mut files);
    files.sort();
    assert!(files.len() >= 40, "bundled games found: {files:?}");
    for path in &files {
        let game = bundled(path);
        for (form, width) in [
            (Form::Dynamic, Width::Compact),
            (Form::Deferred, Width::Compact),
            (Form::Dynamic, Width::Full),
        ] {
            let program = compile(&game, &options(form, width), None);
            let what = format!("{} ({form:?}, {width:?})", path.display());
            assert_same(&what, &replayed(&program), &simulated(&program));
        }
    }
}

#[test]
fn the_replayed_board_of_random_games_is_the_simulated_one() {
    for seed in 1..=6 {
        let game = random_game(seed, 30);
        for form in [Form::Dynamic, Form::Deferred] {
            let program = compile(&game, &options(form, Width::Compact), None);
            let what = format!("seed {seed} ({form:?})");
            assert_same(&what, &replayed(&program), &simulated(&program));
        }
    }
}

/// The limit of the test below: the replay of its game takes a few MB, the gate-level
/// simulation of its IBM program more than a GB (1.6 GB, measured in docs/reliability.md).
const LIMIT: MemoryLimit = MemoryLimit::bytes(256 << 20);

#[test]
fn the_exact_board_of_a_program_lowered_for_ibm_comes_from_its_game_within_the_limit() {
    // A random 40-ply game (`qchess compile --random-plies 40 --seed 1 --target ibm`).
    let game = random_game(1, 40);
    let ibm = Target::bundled("ibm").expect("bundled").expect("reads");
    let lowered = compile(&game, &options(Form::Dynamic, Width::Compact), Some(&ibm));
    let portable = compile(&game, &options(Form::Dynamic, Width::Compact), None);
    let width = parse_header(&lowered).expect("header").map.clbits;
    // One shot, kept by no mitigation: the exact board is what is compared.
    let counts = format!("{{\"{}\": 1}}", "0".repeat(width));
    let request = CountsRequest {
        exact: true,
        mitigation: "none".parse().expect("mitigation"),
        memory: LIMIT,
        ..CountsRequest::default()
    };
    let estimate =
        qc_front::board_from_counts(&lowered, &counts, &request).expect("the exact board");
    // The truth: the portable program of the same game, simulated gate by gate.
    let truth = simulated(&portable);
    let exact = estimate.exact.expect("exact board");
    assert_eq!(exact.len(), truth.squares.len());
    for (sq, p) in &truth.squares {
        assert!(
            (exact[sq] - p).abs() < 1e-9,
            "{sq}: {} against {p}",
            exact[sq]
        );
    }
    // The same program without its game: simulated gate by gate, it does not fit in the limit,
    // and says so (no abort, no answer from another program).
    match qc_front::board_from_counts(&without_game(&lowered), &counts, &request) {
        Err(CountsStepError::Simulate(qc_ir::ExecError {
            source: BackendError::CapacityExceeded { limit_bytes, .. },
            ..
        })) => assert_eq!(limit_bytes, LIMIT.limit_bytes()),
        other => panic!("expected a refusal at the memory limit, got {other:?}"),
    }
}

#[test]
fn a_header_whose_game_does_not_fit_its_map_is_refused() {
    let one = compile(
        &random_game(2, 12),
        &options(Form::Dynamic, Width::Compact),
        None,
    );
    let other = compile(
        &random_game(3, 12),
        &options(Form::Dynamic, Width::Compact),
        None,
    );
    let game_of = |p: &str| parse_header(p).expect("header").game.expect("game");
    // `one`'s map with `other`'s game.
    let header = parse_header(&one).expect("header");
    let session = replay_header_game(&game_of(&other), MemoryLimit::default()).expect("replays");
    match exact_board_of_game(&*session, &header.map) {
        Err(CountsError::GameMismatch { .. }) => {}
        other => panic!("expected a mismatch, got {other:?}"),
    }
}
