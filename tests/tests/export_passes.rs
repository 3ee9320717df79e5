//! The passes before export (`ExportOptions::optimize`, on by default; `qchess compile
//! --no-optimize` turns them off) change what a program does in no way: every bundled game of
//! `circuits/`, exported with and without them (dynamic and deferred form, no target and every
//! bundled target), imported back and simulated exactly, gives the game's own board probabilities
//! after post-selection on its recorded outcomes (`Game::board_probabilities`, read from the
//! engine's state, an independent truth). The passes never add a gate on two or more qubits.
//! The games checked are the tour's (`circuits/tour/`, one per move type and variant), in every
//! form and on every target; the long games of `circuits/` take too long to simulate exactly
//! in a test (their table row in `docs/performance.md` is still generated from them).

use qc_export::{ExportError, ExportOptions, Form};
use qc_rules::QuantumGame;
use qchess_tests::bundled::{
    assert_program_gives_board, bundled_games, bundled_targets, export_on,
};
use qchess_tests::corpus::with_board_measurement;

#[test]
fn bundled_games_export_to_the_same_board_distribution_with_and_without_the_passes() {
    let targets = bundled_targets();
    assert_eq!(targets.len(), 4, "the logical targets");
    let games = bundled_games().expect("the bundled games play");
    assert!(games.len() >= 30, "{} games", games.len());
    let mut compared = 0;
    for g in &games {
        if !g.path.contains("/tour/") {
            continue;
        }
        let want = g.game.board_probabilities();
        let m = with_board_measurement(g.game.circuit(), g.game.classical_record().bits());
        for form in [Form::Dynamic, Form::Deferred] {
            for target in std::iter::once(None).chain(targets.iter().map(Some)) {
                let on = ExportOptions {
                    form,
                    ..ExportOptions::default()
                };
                let off = ExportOptions {
                    optimize: false,
                    ..on
                };
                let name = target.map_or("none", |t| t.name.as_str());
                let label = format!("{} ({form:?}, target {name})", g.path);
                // Braket's gate names (`cnot`) are not OpenQASM's: the same lowering under the
                // standard names is what gets imported.
                let readable = target.map(|t| {
                    let mut t = t.clone();
                    t.rename.clear();
                    t.include_stdgates = true;
                    t
                });
                let mut gates = Vec::new();
                for options in [off, on] {
                    let export = match export_on(&m.circuit, &m.outcomes, &options, target) {
                        Err(ExportError::TooManyQubits { .. }) => continue,
                        other => other.unwrap_or_else(|e| panic!("{label}: {e}")),
                    };
                    gates.push((export.summary.multi_qubit_gates, export.summary.total_gates));
                    let text = export_on(&m.circuit, &m.outcomes, &options, readable.as_ref())
                        .unwrap_or_else(|e| panic!("{label}: {e}"))
                        .text;
                    assert_program_gives_board(&label, &m, &text, &want);
                    compared += 1;
                }
                if let [(two_off, _), (two_on, _)] = gates[..] {
                    assert!(
                        two_on <= two_off,
                        "{label}: {two_off} -> {two_on} multi-qubit gates"
                    );
                }
            }
        }
    }
    assert!(compared >= 250, "{compared} programs compared");
}
