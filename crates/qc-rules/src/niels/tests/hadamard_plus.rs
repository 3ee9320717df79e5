//! The Hadamard+ and Deterministic Games (App. E) on positions built for them, against states
//! worked by hand: a group of n pairs in `(|e> +- |ē>)/sqrt 2` (`e` = the event squares) under a
//! Hadamard gate on every pair becomes the uniform superposition of the configurations whose
//! number of blue squares is even (+) or odd (-). For two pairs: H(x)H (|00>+|11>)/sqrt 2 =
//! (|00>+|11>)/sqrt 2 and H(x)H (|00>-|11>)/sqrt 2 = (|01>+|10>)/sqrt 2; for one pair H|+> = |0>
//! (red) and H|-> = |1> (blue). Each expectation is checked twice: against the rules' own
//! enumeration (`outcomes`) and against the exact distribution of the game's circuit.

use crate::chess::Square;
use crate::niels::{Cell, NielsMove, NielsPosition, NielsRules};
use crate::ruleset::QuantumGame;
use qc_ir::exec::exact_distribution;
use qc_sim::ReferenceSparse;
use std::collections::BTreeMap;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("test square")
}

fn mv(text: &str) -> NielsMove {
    text.parse().expect("test move")
}

fn pos(fen: &str, rules: NielsRules) -> NielsPosition {
    NielsPosition::from_fen(fen, rules).expect("test position")
}

/// What stands on each of `squares` (`-` empty, `K` conventional, `k?` indefinite).
fn board(p: &NielsPosition, squares: &[&str]) -> String {
    squares
        .iter()
        .map(|s| match p.cell(sq(s)) {
            Cell::Empty => "-".to_string(),
            Cell::Conventional(piece) => piece.fen_char().to_string(),
            Cell::Indefinite(_) => "?".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The outcomes of `text` in `position`: what stands on `squares` afterwards, with its
/// probability (outcomes leaving the same board are added up).
fn outcome_boards(p: &NielsPosition, text: &str, squares: &[&str]) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for o in p.outcomes(&mv(text)).expect("outcomes") {
        *out.entry(board(&o.position, squares)).or_insert(0.0) += o.probability;
    }
    out
}

fn assert_distribution(got: &BTreeMap<String, f64>, expected: &[(&str, f64)]) {
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for (key, p) in expected {
        let g = got.get(*key).copied().unwrap_or(-1.0);
        assert!((g - p).abs() < 1e-12, "{key}: {g} expected {p} in {got:?}");
    }
}

/// The exact distribution of the measurements of a game's circuit, on the simulator, keyed by
/// the outcome bits of all its clbits in order ("0"/"1" each).
fn circuit_distribution(fen: &str, rules: NielsRules, moves: &[&str]) -> BTreeMap<String, f64> {
    let mut g = crate::niels::tests::Seeded::new(pos(fen, rules), 1).expect("game");
    for m in moves {
        g.play_text(m).expect(m);
    }
    let dist = exact_distribution(&mut ReferenceSparse::new(), g.circuit()).expect("exact run");
    let mut out = BTreeMap::new();
    for (bits, p) in dist.iter() {
        let key: String = bits.iter().map(|b| if *b { '1' } else { '0' }).collect();
        *out.entry(key).or_insert(0.0) += p;
    }
    out
}

/// A white rook pair (red e4, blue f4) entangled with a black knight pair (red f6, blue d5).
const BELL: &str = "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4f4:1,nf6d5:1";
/// The same with the rook pair "equal with phase" (blue mark facing White): the group's sign
/// is -.
const BELL_PHASE: &str = "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4f4op:1,nf6d5:1";
const SQUARES: [&str; 4] = ["e4", "f4", "f6", "d5"];

#[test]
fn hadamard_move_on_an_entangled_group_exists_only_in_hadamard_plus() {
    let plain = pos(BELL, "hadamard".parse().expect("rules"));
    assert!(plain.illegal_reason(&mv("He4")).is_some());
    assert!(plain.illegal_reason(&mv("Zf4")).is_some());
    let plus = pos(BELL, NielsRules::hadamard_plus());
    assert_eq!(plus.illegal_reason(&mv("He4")), None);
    assert_eq!(plus.illegal_reason(&mv("Zf4")), None);
    // The Simplified Game keeps the red mark facing the opponent: no Z move on red.
    assert!(plus.illegal_reason(&mv("Ze4")).is_some());
}

#[test]
fn hadamard_on_a_bell_group_keeps_the_correlation() {
    // (|00>+|11>)/sqrt 2 is unchanged: both red or both blue, 1/2 each.
    let plus = NielsRules::hadamard_plus();
    let got = outcome_boards(&pos(BELL, plus), "He4", &SQUARES);
    assert_distribution(&got, &[("R - n -", 0.5), ("- R - n", 0.5)]);
    // The simulator agrees: the two measured qubits (rook, knight) always agree.
    let dist = circuit_distribution(BELL, plus, &["He4"]);
    assert_distribution(&dist, &[("00", 0.5), ("11", 0.5)]);
    // A recorded outcome replays; the knight's square follows from the rook's (one roll).
    let mut g = crate::niels::tests::Seeded::new(pos(BELL, plus), 0).expect("game");
    let played = g.play_text("He4[f4]").expect("recorded").clone();
    assert_eq!(played.mv.rolls, vec![sq("f4")]);
    assert_eq!(board(g.position(), &SQUARES), "- R - n");
    assert!((played.rolls[0].p_one - 0.5).abs() < 1e-12);
}

#[test]
fn hadamard_on_a_group_with_phase_anticorrelates() {
    // (|00>-|11>)/sqrt 2 becomes (|01>+|10>)/sqrt 2: one red and one blue.
    let plus = NielsRules::hadamard_plus();
    let got = outcome_boards(&pos(BELL_PHASE, plus), "He4", &SQUARES);
    assert_distribution(&got, &[("R - - n", 0.5), ("- R n -", 0.5)]);
    let dist = circuit_distribution(BELL_PHASE, plus, &["He4"]);
    assert_distribution(&dist, &[("01", 0.5), ("10", 0.5)]);
    // The phase on the pair that joined the group (the knight) counts the same.
    let joiner_phase = "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4f4:1,nf6d5op:1";
    let got = outcome_boards(&pos(joiner_phase, plus), "He4", &SQUARES);
    assert_distribution(&got, &[("R - - n", 0.5), ("- R n -", 0.5)]);
    let dist = circuit_distribution(joiner_phase, plus, &["He4"]);
    assert_distribution(&dist, &[("01", 0.5), ("10", 0.5)]);
}

#[test]
fn z_move_on_an_entangled_pair_flips_the_group_sign() {
    // Z on one qubit of (|00>+|11>)/sqrt 2 gives (|00>-|11>)/sqrt 2: the Hadamard move then
    // anticorrelates, as from BELL_PHASE.
    let plus = NielsRules::hadamard_plus();
    let mut g = crate::niels::tests::Seeded::new(pos(BELL, plus), 3).expect("game");
    g.play_text("Zf4").expect("Z on the rook's blue piece");
    g.play_text("h8g8").expect("black waits");
    let got = outcome_boards(g.position(), "He4", &SQUARES);
    assert_distribution(&got, &[("R - - n", 0.5), ("- R n -", 0.5)]);
    let dist = circuit_distribution(BELL, plus, &["Zf4", "h8g8", "He4"]);
    assert_distribution(&dist, &[("01", 0.5), ("10", 0.5)]);
}

#[test]
fn hadamard_on_a_group_of_three_is_uniform_over_even_configurations() {
    // H(x)H(x)H (|000>+|111>)/sqrt 2 = (|000>+|011>+|101>+|110>)/2.
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4f4:1,nf6d5:1,Bc2d1:1";
    let plus = NielsRules::hadamard_plus();
    let squares = ["e4", "f4", "f6", "d5", "c2", "d1"];
    let got = outcome_boards(&pos(fen, plus), "He4", &squares);
    assert_distribution(
        &got,
        &[
            ("R - n - B -", 0.25),
            ("R - - n - B", 0.25),
            ("- R n - - B", 0.25),
            ("- R - n B -", 0.25),
        ],
    );
    let dist = circuit_distribution(fen, plus, &["He4"]);
    assert_distribution(
        &dist,
        &[("000", 0.25), ("011", 0.25), ("101", 0.25), ("110", 0.25)],
    );
    // Two of the three outcomes are rolls; the third follows from the parity.
    let p = pos(fen, plus);
    assert!(p
        .outcomes(&mv("He4"))
        .expect("outcomes")
        .iter()
        .all(|o| o.rolls.len() == 2));
}

#[test]
fn deterministic_capture_applies_a_hadamard_move_instead_of_a_roll() {
    // The rook on d1 attempts to capture the knight's blue piece on d5. A lone equal pair is
    // |+>: H|+> = |0>, the knight is on red f6 with certainty, the rook lands on d5 and takes
    // nothing. With phase (|->): the knight is on d5 and is captured.
    let det = NielsRules::deterministic();
    let equal = "7k/8/8/8/8/8/8/K2R4 w - - 0 1 nf6d5";
    let got = outcome_boards(&pos(equal, det), "d1d5", &["d1", "d5", "f6"]);
    assert_distribution(&got, &[("- R n", 1.0)]);
    let phase = "7k/8/8/8/8/8/8/K2R4 w - - 0 1 nf6d5op";
    let got = outcome_boards(&pos(phase, det), "d1d5", &["d1", "d5", "f6"]);
    assert_distribution(&got, &[("- R -", 1.0)]);
    // No roll is recorded and no random number decides it: every seed gives the same board.
    for seed in 0..8 {
        let mut g = crate::niels::tests::Seeded::new(pos(phase, det), seed).expect("game");
        let played = g.play_text("d1d5").expect("capture").clone();
        assert!(played.rolls.is_empty() && played.mv.rolls.is_empty());
        assert_eq!(board(g.position(), &["d1", "d5", "f6"]), "- R -");
    }
    // In the Hadamard+ Game the same attempt rolls the dice: 1/2 each.
    let got = outcome_boards(
        &pos(equal, NielsRules::hadamard_plus()),
        "d1d5",
        &["d1", "d5", "f6"],
    );
    assert_distribution(&got, &[("- R n", 0.5), ("- R -", 0.5)]);
}

#[test]
fn deterministic_check_of_a_lone_king_pair_follows_its_phase() {
    // Black's king pair: red e8, blue d8, equal (|+>): a Hadamard move would put it on e8.
    let det = NielsRules::deterministic();
    let on_d = "8/8/8/8/8/8/8/K2R4 w - - 0 1 ke8d8";
    let on_e = "8/8/8/8/8/8/8/K3R3 w - - 0 1 ke8d8";
    assert!(!pos(on_d, det).in_check(crate::chess::Color::Black));
    assert!(pos(on_e, det).in_check(crate::chess::Color::Black));
    // Art. 8.9: an attempt with zero chance is allowed; one with a chance is not.
    assert_eq!(pos(on_d, det).illegal_reason(&mv("d1d8")), None);
    assert!(pos(on_e, det).illegal_reason(&mv("e1e8")).is_some());
    // With phase (|->) it is the other way round.
    let on_d_phase = "8/8/8/8/8/8/8/K2R4 w - - 0 1 ke8d8op";
    assert!(pos(on_d_phase, det).in_check(crate::chess::Color::Black));
    // In the Hadamard+ Game (dice) both pieces of the pair can be captured: check either way.
    assert!(pos(on_d, NielsRules::hadamard_plus()).in_check(crate::chess::Color::Black));
}

#[test]
fn deterministic_check_inside_an_entangled_group_reads_the_group_sign() {
    // White's rook pair (red d1, blue d2) is entangled with Black's king pair (red e8, blue
    // d8); the rook's d2 piece attacks the king's d8 piece. The capture needs both on blue:
    // possible from (|00>+|11>)/sqrt 2 (stays so under H(x)H), impossible from
    // (|00>-|11>)/sqrt 2 (becomes (|01>+|10>)/sqrt 2).
    let det = NielsRules::deterministic();
    let plus_sign = "8/8/8/8/8/8/8/K7 w - - 0 1 Rd1d2:1,ke8d8:1";
    let minus_sign = "8/8/8/8/8/8/8/K7 w - - 0 1 Rd1d2op:1,ke8d8:1";
    let black = crate::chess::Color::Black;
    assert!(pos(plus_sign, det).in_check(black));
    assert!(!pos(minus_sign, det).in_check(black));
    // The dice game (Hadamard+) rolls one event for the group: both blue is possible either way.
    assert!(pos(minus_sign, NielsRules::hadamard_plus()).in_check(black));
    // On the simulator: with sign - the attempted capture (legal, Art. 8.9) never takes the
    // king, whatever the seed; it measures rook and king on opposite colours.
    for seed in 0..16 {
        let mut g = crate::niels::tests::Seeded::new(pos(minus_sign, det), seed).expect("game");
        g.play_text("d2d8").expect("zero-chance attempt");
        assert_eq!(
            g.position().king_squares(black).len(),
            1,
            "seed {seed}: the king survives"
        );
    }
    let dist = circuit_distribution(minus_sign, det, &["d2d8"]);
    assert_distribution(&dist, &[("01", 0.5), ("10", 0.5)]);
}

#[test]
fn random_games_of_both_variants_play_to_their_end() {
    // Seeded random legal games on the 5x6 board until the game ends (mate, stalemate,
    // repetition, fifty moves, bare kings): no error, and the moves the variants add occur.
    use crate::niels::fen::NIELS_START_5X6;
    let mut group_hadamards = 0;
    let mut entangled_z = 0;
    let mut ended = 0;
    for rules in [NielsRules::hadamard_plus(), NielsRules::deterministic()] {
        for seed in 0..12u64 {
            let start = pos(NIELS_START_5X6, rules);
            let g = crate::niels::tests::simulate(start, seed, 3000).expect("a random game");
            if g.status() != crate::ruleset::Status::Ongoing {
                ended += 1;
            }
            let mut replay =
                crate::niels::tests::Seeded::new(pos(NIELS_START_5X6, rules), 0).expect("replay");
            for played in g.moves() {
                let before = replay.position().clone();
                let entangled = |square: Square| {
                    before
                        .pair_at(square)
                        .is_some_and(|(id, _)| before.is_entangled(id))
                };
                match played.mv.mv {
                    NielsMove::Hadamard { square } if entangled(square) => group_hadamards += 1,
                    NielsMove::ZMove { square } if entangled(square) => entangled_z += 1,
                    _ => {}
                }
                replay
                    .play_text(&played.text())
                    .expect("the record replays");
            }
            assert_eq!(replay.position(), g.position(), "{rules} seed {seed}");
        }
    }
    assert_eq!(ended, 24, "every game reached its end within 3000 plies");
    assert!(
        group_hadamards > 0 && entangled_z > 0,
        "{group_hadamards} {entangled_z}"
    );
}
