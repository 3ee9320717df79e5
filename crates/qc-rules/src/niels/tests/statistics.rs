//! Dice frequencies over seeded runs (within 5 sigma) and exact probabilities from the
//! simulator, against the dice rules: equal 1/2, unequal 4/6, entangled groups in tandem.

use crate::chess::Square;
use crate::niels::{Cell, NielsPosition, NielsRules};
use crate::ruleset::QuantumGame;
use qc_ir::exec::exact_distribution;
use qc_sim::ReferenceSparse;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("test square")
}

/// Plays `moves` from `fen` with dice seeded by `seed`; returns the final game.
fn run(fen: &str, rules: NielsRules, moves: &[&str], seed: u64) -> crate::niels::tests::Seeded {
    let pos = NielsPosition::from_fen(fen, rules).expect("fen");
    let mut g = crate::niels::tests::Seeded::new(pos, seed).expect("game");
    for m in moves {
        g.play_text(m).expect("legal move");
    }
    g
}

/// Asserts `hits` out of `n` is within 5 sigma of `p`.
fn within_5_sigma(hits: usize, n: usize, p: f64, what: &str) {
    let mean = n as f64 * p;
    let sigma = (n as f64 * p * (1.0 - p)).sqrt();
    assert!(
        (hits as f64 - mean).abs() <= 5.0 * sigma,
        "{what}: {hits}/{n}, expected {mean:.1} +- {:.1}",
        5.0 * sigma
    );
}

const N: usize = 3000;

fn frequency(fen: &str, rules: NielsRules, moves: &[&str], square: &str) -> usize {
    (0..N as u64)
        .filter(|seed| {
            let g = run(fen, rules, moves, *seed);
            g.moves().last().and_then(|m| m.mv.rolls.first()) == Some(&sq(square))
        })
        .count()
}

#[test]
fn equal_superposition_collapses_half_and_half() {
    let hits = frequency(
        "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6",
        NielsRules::default(),
        &["f5e6"],
        "e6",
    );
    within_5_sigma(hits, N, 0.5, "equal: rook to e6");
}

#[test]
fn unequal_superposition_collapses_four_sixths_to_the_opponent_facing_mark() {
    // Simplified Game: red (d4) faces the opponent, blue (e6) the owner: P(e6) = 2/6.
    let hits = frequency(
        "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op",
        NielsRules::default(),
        &["f5e6"],
        "e6",
    );
    within_5_sigma(hits, N, 1.0 / 3.0, "unequal: rook to the blue square");
    // Full game: the blue mark faces the opponent instead: P(e6) = 4/6.
    let full = NielsRules {
        full_marks: true,
        hadamard: false,
        ..NielsRules::default()
    };
    let hits = frequency(
        "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6po",
        full,
        &["f5e6"],
        "e6",
    );
    within_5_sigma(hits, N, 2.0 / 3.0, "unequal, blue facing the opponent");
}

#[test]
fn entangled_groups_collapse_in_tandem_with_dice_frequencies() {
    for (fen, p_red) in [
        ("7k/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4", 0.5),
        ("7k/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4op", 2.0 / 3.0),
    ] {
        let join = if p_red > 0.5 {
            "f6&f6d5@e4:op"
        } else {
            "f6&f6d5@e4"
        };
        let mut red = 0;
        for seed in 0..N as u64 {
            let g = run(fen, NielsRules::default(), &[join, "f4f6"], seed);
            let p = g.position();
            let knight_red = matches!(p.cell(sq("f6")), Cell::Conventional(pc) if pc.color == crate::chess::Color::Black);
            let rook_red = matches!(p.cell(sq("e4")), Cell::Conventional(_));
            assert_eq!(knight_red, rook_red, "seed {seed}: pairs collapsed apart");
            red += usize::from(knight_red);
        }
        within_5_sigma(red, N, p_red, fen);
    }
}

#[test]
fn two_rolls_defender_first_then_attacker() {
    // The indefinite knight (red c3, blue a5) attacks the rook pair (red d5, blue h5): Black
    // rolls first, then White; the four outcomes have product probabilities.
    let pos = NielsPosition::from_fen(
        "7k/8/8/8/8/8/8/K7 w - - 0 1 rd5h5,Nc3a5",
        NielsRules::default(),
    )
    .expect("fen");
    let mv = "c3d5".parse().expect("move");
    let outcomes = pos.outcomes(&mv).expect("outcomes");
    assert_eq!(outcomes.len(), 4);
    let mut counts = std::collections::BTreeMap::new();
    for seed in 0..N as u64 {
        let mut g = crate::niels::tests::Seeded::new(pos.clone(), seed).expect("game");
        let played = g.play(&mv).expect("legal").clone();
        assert_eq!(played.mv.rolls.len(), 2);
        *counts.entry(played.mv.rolls).or_insert(0usize) += 1;
    }
    for o in &outcomes {
        assert!((o.probability - 0.25).abs() < 1e-12);
        within_5_sigma(
            counts.get(&o.rolls).copied().unwrap_or(0),
            N,
            o.probability,
            "two rolls",
        );
    }
}

#[test]
fn simulator_probabilities_are_the_dice_probabilities() {
    // Exact P(blue) read from the backend just before each measurement.
    for (fen, rules, moves, p_blue) in [
        (
            "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6",
            NielsRules::default(),
            vec!["f5e6"],
            0.5,
        ),
        (
            "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op",
            NielsRules::default(),
            vec!["f5e6"],
            1.0 / 3.0,
        ),
        (
            "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6po",
            NielsRules {
                full_marks: true,
                hadamard: false,
                ..NielsRules::default()
            },
            vec!["f5e6"],
            2.0 / 3.0,
        ),
        (
            "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op",
            NielsRules {
                full_marks: false,
                hadamard: true,
                ..NielsRules::default()
            },
            vec!["f5e6"],
            0.5,
        ),
    ] {
        let g = run(fen, rules, &moves, 1);
        let played = &g.moves()[0];
        assert!((played.rolls[0].p_one - p_blue).abs() < 1e-12, "{fen}");
        // The whole game as one circuit, run from |0..0>: the first measurement has the same
        // distribution.
        let dist = exact_distribution(&mut ReferenceSparse::new(), g.circuit()).expect("run");
        let p1: f64 = dist.iter().filter(|(k, _)| k[0]).map(|(_, p)| p).sum();
        assert!((p1 - p_blue).abs() < 1e-12, "{fen}: circuit gives {p1}");
    }
}

#[test]
fn hadamard_moves_are_deterministic_interference() {
    let rules = NielsRules {
        full_marks: false,
        hadamard: true,
        ..NielsRules::default()
    };
    // Equal: H|+> = |0>: the rook lands on red (e4). With phase (after a Z move on the blue
    // piece): H|-> = |1>: the rook lands on blue (e2). Every seed gives the same result.
    for seed in 0..20 {
        let g = run(
            "7k/8/8/8/8/8/8/K3R3 w - - 0 1",
            rules,
            &["e1^e4e2", "h8g8", "He4"],
            seed,
        );
        assert!(matches!(g.position().cell(sq("e4")), Cell::Conventional(_)));
        let g = run(
            "7k/8/8/8/8/8/8/K3R3 w - - 0 1",
            rules,
            &["e1^e4e2", "h8g8", "Ze2", "g8h8", "He4"],
            seed,
        );
        assert!(matches!(g.position().cell(sq("e2")), Cell::Conventional(_)));
    }
}

#[test]
fn tunnelling_succeeds_on_a_six() {
    // Schools paper Figs. 15-16: the rook on e1 tunnels through the pawn on e4 to e5.
    let rules = NielsRules {
        tunnelling: true,
        ..NielsRules::default()
    };
    let fen = "7k/8/8/8/4p3/8/8/K3R3 w - - 0 1";
    let g = run(fen, rules, &["e1*e5[e5]"], 0);
    assert!(matches!(g.position().cell(sq("e5")), Cell::Conventional(_)));
    assert!(
        matches!(g.position().cell(sq("e4")), Cell::Conventional(_)),
        "the pawn stays"
    );
    assert!((g.moves()[0].rolls[0].p_one - 1.0 / 6.0).abs() < 1e-12);
    let g = run(fen, rules, &["e1*e5[e1]"], 0);
    assert!(
        matches!(g.position().cell(sq("e1")), Cell::Conventional(_)),
        "bounced back"
    );
    let hits = frequency(fen, rules, &["e1*e5"], "e5");
    within_5_sigma(hits, N, 1.0 / 6.0, "tunnelling");
    // Without the option there is no such move.
    let plain = NielsPosition::from_fen(fen, NielsRules::default()).expect("fen");
    assert!(plain
        .illegal_reason(&"e1*e5".parse().expect("move"))
        .is_some());
}

#[test]
fn joiner_with_opposite_mark_colours_is_correlated_through_an_x() {
    // Full game: the rook pair is unequal with red (e4) facing Black; the knight joins with its
    // blue mark (d5) facing White. Both pairs go to their opponent-facing squares on a 1-4:
    // rook e4 (|0>) with knight d5 (|1>), P = 4/6; else rook f4 (|1>) with knight f6 (|0>).
    let full = NielsRules {
        full_marks: true,
        ..NielsRules::default()
    };
    let g = run(
        "7k/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4op",
        full,
        &["f6&f6d5@e4:po"],
        0,
    );
    let p = g.position();
    let rook = g
        .pair_qubit(p.pair_at(sq("e4")).expect("rook").0)
        .expect("q");
    let knight = g
        .pair_qubit(p.pair_at(sq("d5")).expect("knight").0)
        .expect("q");
    let states = qc_ir::Backend::basis_states(g.backend());
    assert_eq!(states.len(), 2);
    for (ones, amp) in states {
        let expected = if ones == vec![knight] {
            2.0 / 3.0
        } else {
            assert_eq!(ones, vec![rook]);
            1.0 / 3.0
        };
        assert!((amp.norm_sqr() - expected).abs() < 1e-12);
    }
}
