//! Undo takes back a Niel's Chess move's wire labels with its wires: after each undo the labels
//! (what each ancilla wire stands for: a pair, a tunnel) are exactly those before the move, so a
//! drawing after an undo names no wire the circuit no longer has.

use qc_rules::ruleset::Niels;
use qc_rules::{QuantumGame, Ruleset, WireLabel};
use rand::SeedableRng;

/// Two entanglement moves each make a new pair (a new labelled wire); the capture then rolls.
const GAME: &str = include_str!("../../../circuits/niels/entangled_group.qng");

fn labels<G: QuantumGame>(game: &G) -> Vec<(usize, u32, String)> {
    game.wire_labels()
        .iter()
        .map(
            |WireLabel {
                 instruction,
                 qubit,
                 label,
             }| (*instruction, qubit.0, label.clone()),
        )
        .collect()
}

qc_sim::for_each_backend!(
    undo_drops_the_wire_labels_of_the_moves_it_takes_back,
    |backend| {
        let text = Niels::read_game(GAME, None).expect("the bundled game reads");
        let mut game = Niels::game_for(&text, backend()).expect("set-up");
        let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut before = vec![labels(&game)];
        for m in &text.moves {
            game.play(&m.mv, &mut dice).expect("a move of the game");
            before.push(labels(&game));
        }
        // The game's wires: the rook's pair from the set-up, then one per entanglement move.
        let names: Vec<&str> = before[before.len() - 1]
            .iter()
            .map(|(_, _, l)| l.as_str())
            .collect();
        assert_eq!(names, ["R e4/f4", "n f6/d5", "B c4/e2"]);
        assert!(
            before.windows(2).any(|w| w[0].len() < w[1].len()),
            "some move adds a labelled wire"
        );
        before.pop();
        while let Some(expected) = before.pop() {
            game.undo().expect("undo");
            assert_eq!(
                labels(&game),
                expected,
                "after undoing back to ply {}",
                before.len()
            );
            let kept = game.circuit().instructions().len();
            assert!(
                labels(&game).iter().all(|(at, _, _)| *at < kept),
                "every label points into the circuit that is left"
            );
        }
    }
);
