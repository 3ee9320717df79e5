//! `QuantumGame::move_outcomes`: every outcome of a legal move with its exact probability,
//! computed on the simulator. Checked against values worked out by hand from the papers, against
//! Niel's dice model (`NielsPosition::outcomes`, an enumeration of the rules' dice that never
//! touches the simulator), against the probability the game reads off the state when the outcome
//! is then played, and against sampled frequencies.

use qc_ir::IMPOSSIBLE_PROBABILITY;
use qc_rules::niels::{NielsGame, RolledMove};
use qc_rules::ruleset::CantwellError;
use qc_rules::{Cantwell, MoveError, MoveOutcome, Niels, QuantumGame, Ruleset, UndoControls};
use qc_sim::SparseSim;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

fn game<R: Ruleset>(fen: Option<&str>, options: Option<&str>) -> R::Game<SparseSim> {
    let start = R::start(fen, options).expect("start position");
    R::new_game(&start, SparseSim::new()).expect("game")
}

fn played<R: Ruleset>(
    fen: Option<&str>,
    options: Option<&str>,
    moves: &[&str],
) -> R::Game<SparseSim> {
    let mut g = game::<R>(fen, options);
    for m in moves {
        QuantumGame::play_text(&mut g, m, &mut ChaCha8Rng::seed_from_u64(0))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// The outcomes of the move `text` reads as: their moves and probabilities, in the order given.
fn outcomes_of<G: QuantumGame>(
    g: &mut G,
    text: &str,
) -> Result<Vec<MoveOutcome<G::Move>>, G::Error> {
    let mv: G::Move = text.parse()?;
    QuantumGame::move_outcomes(g, &mv)
}

/// The outcomes as (text, probability), in the order given.
fn outcomes(g: &mut impl QuantumGame, mv: &str) -> Vec<(String, f64)> {
    outcomes_of(g, mv)
        .unwrap_or_else(|e| panic!("{mv}: {e}"))
        .into_iter()
        .map(|MoveOutcome { mv, probability }| (mv.to_string(), probability))
        .collect()
}

fn assert_outcomes(got: &[(String, f64)], want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (w, p) in want {
        let found = got.iter().find(|(t, _)| t == w);
        let Some((_, q)) = found else {
            panic!("{w} missing from {got:?}")
        };
        assert!((q - p).abs() < 1e-12, "{w}: {q} vs {p}");
    }
}

/// What the outcomes must leave unchanged.
fn fingerprint(g: &impl QuantumGame) -> (String, usize, Vec<Option<bool>>, String) {
    (
        g.fen(),
        g.circuit().instructions().len(),
        g.outcomes(),
        g.record(),
    )
}

#[test]
fn outcomes_worked_out_by_hand() {
    // Quantum Chess: the knight split a3 -> b1/c4 leaves 1/2 on b1, so b1xc3 is applied (.m1)
    // with 1/2; two splits leave 1/4 on d4; a classical pawn step has one certain outcome.
    let mut q = played::<Cantwell>(
        Some("7k/8/8/8/8/N1p5/8/7K w - - 0 1"),
        None,
        &["a3^b1c4", "h8g8"],
    );
    assert_outcomes(
        &outcomes(&mut q, "b1xc3"),
        &[("b1xc3.m1", 0.5), ("b1xc3.m0", 0.5)],
    );
    let mut q = played::<Cantwell>(
        Some("4k3/8/4p3/8/8/8/8/4K1N1 w - - 0 1"),
        None,
        &["g1^f3h3", "e8d8", "f3^d4g5", "d8e8"],
    );
    assert_outcomes(
        &outcomes(&mut q, "d4xe6.m0"),
        &[("d4xe6.m1", 0.25), ("d4xe6.m0", 0.75)],
    );
    let mut start = game::<Cantwell>(None, None);
    assert_outcomes(&outcomes(&mut start, "e2e4"), &[("e2e4", 1.0)]);
    // Niel's Art. 7.5: an equal pair (rook e6/e7) is on either square with 1/2; an unequal one
    // on its red square (facing the opponent) with 4/6 (a roll of 1-4).
    let mut n = game::<Niels>(Some("7k/8/8/8/8/8/8/K3R3 w - - 0 1 re6e7"), None);
    assert_outcomes(
        &outcomes(&mut n, "e1xe6"),
        &[("e1e6[e6]", 0.5), ("e1e6[e7]", 0.5)],
    );
    let mut n = game::<Niels>(Some("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op"), None);
    assert_outcomes(
        &outcomes(&mut n, "f5e6"),
        &[("f5e6[d4]", 4.0 / 6.0), ("f5e6[e6]", 2.0 / 6.0)],
    );
    // A superposition move rolls nothing: one outcome.
    let mut n = game::<Niels>(Some("7k/8/8/8/8/8/8/K3R3 w - - 0 1"), None);
    assert_outcomes(&outcomes(&mut n, "e1^e4e2"), &[("e1^e4e2", 1.0)]);
    // Tunnelling (App. E): through the pawn with 1/6.
    let mut t = game::<Niels>(Some("7k/8/8/8/4p3/8/8/K3R3 w - - 0 1"), Some("tunnelling"));
    let mut p: Vec<f64> = outcomes(&mut t, "e1*e5").iter().map(|o| o.1).collect();
    p.sort_by(f64::total_cmp);
    assert_eq!(p.len(), 2);
    assert!(
        (p[0] - 1.0 / 6.0).abs() < 1e-12 && (p[1] - 5.0 / 6.0).abs() < 1e-12,
        "{p:?}"
    );
}

#[test]
fn illegal_moves_and_finished_games_have_no_outcomes() {
    fn refused(g: &mut impl QuantumGame, mv: &str) -> bool {
        outcomes_of(g, mv).is_err()
    }
    let mut q = game::<Cantwell>(None, None);
    assert!(refused(&mut q, "e2e5"));
    assert!(refused(&mut q, "bogus"));
    assert!(!refused(&mut q, "e2e4"));
    let mut n = game::<Niels>(None, None);
    assert!(refused(&mut n, "e2e5"));
    assert!(refused(&mut n, "e7e5"), "not White's piece");
    assert!(!refused(&mut n, "e2e4"));
    // Kings only: a draw (dead position), although the kings could still step.
    let mut dead = game::<Niels>(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), None);
    assert!(refused(&mut dead, "e1d1"));
    let mut won = played::<Cantwell>(Some("7k/8/8/8/8/8/8/K6R w - - 0 1"), None, &["h1h8"]);
    assert!(refused(&mut won, "h8g8"));
}

/// A random legal game of `plies` plies; at each ply `check` sees the game before the move.
fn random_game<G: QuantumGame>(g: &mut G, seed: u64, plies: usize, check: &mut dyn FnMut(&mut G)) {
    let mut pick = ChaCha8Rng::seed_from_u64(seed);
    let mut dice = ChaCha8Rng::seed_from_u64(seed ^ 0xD1CE);
    for _ in 0..plies {
        let moves = QuantumGame::legal_moves(g);
        if moves.is_empty() {
            break;
        }
        check(g);
        let mv = &moves[pick.gen_range(0..moves.len())].mv;
        QuantumGame::play(g, mv, &mut dice).expect("a legal move plays");
    }
}

/// Sums probabilities by text (so two enumerations can be compared whatever their order).
fn by_text(list: impl IntoIterator<Item = (String, f64)>) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for (t, p) in list {
        if p >= IMPOSSIBLE_PROBABILITY {
            *out.entry(t).or_insert(0.0) += p;
        }
    }
    out
}

#[test]
fn niels_outcomes_on_the_simulator_equal_the_rules_dice() {
    let small = Some("rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1");
    for (k, variant) in [
        "simplified",
        "full",
        "hadamard",
        "hadamard-plus",
        "deterministic",
        "tunnelling",
        "no-box",
    ]
    .into_iter()
    .enumerate()
    {
        let mut g: NielsGame<SparseSim> = game::<Niels>(small, Some(variant));
        let mut checked = 0;
        random_game(&mut g, k as u64, 30, &mut |g: &mut NielsGame<SparseSim>| {
            let before = fingerprint(g);
            let depth = g.undo_depth();
            for mv in g.position().legal_moves() {
                let text = mv.to_string();
                let sim = by_text(outcomes(g, &text));
                let dice = by_text(
                    g.position()
                        .outcomes(&mv)
                        .expect("dice model")
                        .into_iter()
                        .map(|o| {
                            let rolled = RolledMove { mv, rolls: o.rolls };
                            (rolled.to_string(), o.probability)
                        }),
                );
                assert_eq!(
                    sim.keys().collect::<Vec<_>>(),
                    dice.keys().collect::<Vec<_>>(),
                    "{variant} {text} in {}",
                    g.fen()
                );
                for (t, p) in &sim {
                    assert!(
                        (p - dice[t]).abs() < 1e-9,
                        "{variant} {t}: {p} vs {}",
                        dice[t]
                    );
                }
                let total: f64 = sim.values().sum();
                assert!((total - 1.0).abs() < 1e-9, "{variant} {text}: sum {total}");
                checked += usize::from(sim.len() > 1);
            }
            assert_eq!(
                fingerprint(g),
                before,
                "{variant}: outcomes changed the game"
            );
            assert_eq!(
                g.undo_depth(),
                depth,
                "{variant}: outcomes touched the undo history"
            );
        });
        assert!(checked > 0, "{variant}: no move with a roll was met");
    }
}

#[test]
fn cantwell_outcomes_equal_what_the_measurement_reads() {
    for (seed, fen) in [
        (1, None),
        (
            2,
            Some("r3k2r/pppq1ppp/2n1bn2/8/8/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 1"),
        ),
        (3, Some("4k3/8/8/8/8/8/8/RN2K1NR w - - 0 1")),
    ] {
        let mut g = game::<Cantwell>(fen, None);
        let mut measured = 0;
        random_game(&mut g, seed, 24, &mut |g| {
            let before = fingerprint(g);
            for mv in QuantumGame::legal_moves(g) {
                let list = match QuantumGame::move_outcomes(g, &mv.mv) {
                    Ok(list) => list
                        .into_iter()
                        .map(|o| (o.mv, o.probability))
                        .collect::<Vec<_>>(),
                    Err(e) => {
                        // `legal_moves` judges Definition 2 branch by branch and can list a
                        // move that changes the state only by a global phase (a split piece's
                        // halves swapped); playing it is refused the same way.
                        assert!(
                            matches!(e, CantwellError::Move(MoveError::Unchanged)),
                            "{}: {e}",
                            mv.mv
                        );
                        let played =
                            QuantumGame::play(g, &mv.mv, &mut ChaCha8Rng::seed_from_u64(0));
                        assert!(
                            played.is_err(),
                            "{} plays although it has no outcomes",
                            mv.mv
                        );
                        continue;
                    }
                };
                let total: f64 = list.iter().map(|o| o.1).sum();
                assert!((total - 1.0).abs() < 1e-9, "{}: sum {total}", mv.mv);
                for (outcome, p) in &list {
                    let (record, fen) = (g.record(), g.fen());
                    let view = QuantumGame::play(g, outcome, &mut ChaCha8Rng::seed_from_u64(0))
                        .unwrap_or_else(|e| panic!("{outcome}: {e} after {record} ({fen})"));
                    // The game reads P(outcome) off the state at the measurement itself.
                    let read = view.outcome_probability().unwrap_or(1.0);
                    assert!((read - p).abs() < 1e-9, "{outcome}: {p} vs read {read}");
                    assert_eq!(&view.mv, outcome);
                    measured += usize::from(view.measured());
                    QuantumGame::undo(g).expect("undo");
                }
            }
            assert_eq!(fingerprint(g), before);
        });
        assert!(measured > 0, "game {seed}: no measured move was met");
    }
}

#[test]
fn sampled_frequencies_match_the_outcomes() {
    // 4000 samples of outcomes with exact probabilities 1/4 (Quantum Chess) and 4/6 (Niel's):
    // the frequency lies within 5 standard deviations (about 0.034 and 0.037).
    const N: u32 = 4000;
    let setup = ["g1^f3h3", "e8d8", "f3^d4g5", "d8e8"];
    let mut q = played::<Cantwell>(Some("4k3/8/4p3/8/8/8/8/4K1N1 w - - 0 1"), None, &setup);
    let mut n = game::<Niels>(Some("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op"), None);
    fn frequency<G: QuantumGame>(g: &mut G, mv: &str, outcome: &str) -> (f64, f64) {
        let exact = outcomes(g, mv)
            .into_iter()
            .find(|o| o.0 == outcome)
            .map(|o| o.1)
            .expect("the outcome is listed");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut hits = 0;
        for _ in 0..N {
            let text = QuantumGame::play_text(g, mv, &mut rng)
                .expect("move")
                .text();
            hits += u32::from(text == outcome);
            QuantumGame::undo(g).expect("undo");
        }
        (f64::from(hits) / f64::from(N), exact)
    }
    for (freq, p) in [
        frequency(&mut q, "d4xe6", "d4xe6.m1"),
        frequency(&mut n, "f5e6", "f5e6[d4]"),
    ] {
        let sigma = (p * (1.0 - p) / f64::from(N)).sqrt();
        assert!((freq - p).abs() < 5.0 * sigma, "{freq} vs {p}");
    }
}
