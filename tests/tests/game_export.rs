//! Export round trip of whole games: the OpenQASM 3 program of a game (dynamic, deferred, and the
//! `ibm` target's native gates) with its final board measured, imported back and simulated
//! exactly, post-selected on the game's recorded outcomes, gives the game's own board
//! probabilities (`Game::board_probabilities`, read from the engine's state).

use qc_export::{export_for_target, export_qasm3, ExportOptions, Form, Target};
use qc_rules::QuantumGame;
use qchess_tests::bundled::assert_program_gives_board;
use qchess_tests::corpus::{random_game, CorpusGame, RANDOM_FEN, RANDOM_MAX_QUBITS};

fn games() -> Vec<CorpusGame> {
    let mut games: Vec<CorpusGame> = [
        "jump_capture_measured",
        "slide_excluded",
        "en_passant_capture_measured",
        "split_slide_path",
    ]
    .iter()
    .map(|name| {
        let case = qchess_tests::cases::case(name).expect("a case of the table");
        CorpusGame {
            name: name.to_string(),
            fen: case.fen,
            game: qchess_tests::cases::play(case)
                .expect("the case plays")
                .game,
        }
    })
    .collect();
    // Seed 2 reaches 36 plies with a measurement (the first seed the interop corpus keeps).
    let game = random_game(2, RANDOM_FEN, 36, RANDOM_MAX_QUBITS).expect("a random game");
    assert!(game.moves().len() >= 30 && game.circuit().num_measurements() > 0);
    games.push(CorpusGame {
        name: "random002".into(),
        fen: RANDOM_FEN,
        game,
    });
    games
}

#[test]
fn exported_games_give_the_games_board_probabilities_after_postselection() {
    let ibm = Target::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../backends"),
        "ibm",
    )
    .expect("the ibm target");
    for g in games() {
        let want = g.game.board_probabilities();
        let m = g.measured_circuit();
        // The engine's board distribution is a true distribution over bitboards.
        let total: f64 = want.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "{}", g.name);
        let deferred = ExportOptions {
            form: Form::Deferred,
            ..Default::default()
        };
        let programs = [
            (
                "dynamic",
                export_qasm3(&m.circuit, &m.outcomes, &ExportOptions::default()),
            ),
            ("deferred", export_qasm3(&m.circuit, &m.outcomes, &deferred)),
            (
                "ibm",
                export_for_target(&m.circuit, &m.outcomes, &ExportOptions::default(), &ibm),
            ),
        ];
        for (form, export) in programs {
            let label = format!("{} ({form})", g.name);
            let text = export.unwrap_or_else(|e| panic!("{label}: {e}")).text;
            assert_program_gives_board(&label, &m, &text, &want);
        }
    }
}
