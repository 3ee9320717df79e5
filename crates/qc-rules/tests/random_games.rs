//! Invariants on random legal games from the start position (proptest): norm 1, the classical
//! register agrees with the support (so no square is ever occupied by two piece types), expected
//! piece count (squares + captured-piece ancillas) conserved by every unmeasured move except the
//! pawn capture (decision 7's CNOT form drops the victim), every ancilla freed clean (the backend
//! errors otherwise), a well-formed circuit, and the game circuit run on the reference simulator
//! giving the game's own state. Every test runs on the three simulators
//! (`qc_sim::for_each_backend!`): at full size on the sparse simulator (the games' default) and
//! at a quarter of it on the others, to keep CI time reasonable.

use proptest::prelude::*;
use qc_ir::{AncillaKind, Backend, QubitRole};
use qc_rules::{classify, Board, Game, MoveType, QcanMove, QuantumGame, SquareStatus, Variant};
use qc_sim::{ReferenceSparse, SparseSim};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::any::TypeId;
use std::collections::BTreeMap;

fn expected_count<B: Backend>(g: &Game<B>) -> f64 {
    let c = g.circuit();
    g.backend()
        .basis_states()
        .iter()
        .map(|(ones, a)| {
            let n = ones
                .iter()
                .filter(|&&q| {
                    matches!(
                        c.role(q),
                        Some(QubitRole::Site(_) | QubitRole::Ancilla(AncillaKind::Kept))
                    )
                })
                .count();
            a.norm_sqr() * n as f64
        })
        .sum()
}

fn check_invariants<B: Backend>(g: &Game<B>) {
    let norm: f64 = g
        .backend()
        .basis_states()
        .iter()
        .map(|(_, a)| a.norm_sqr())
        .sum();
    assert!((norm - 1.0).abs() < 1e-9, "norm {norm}");
    let occ = g.occupancy();
    for s in qc_rules::Square::ALL {
        let empty = occ.get(s) == SquareStatus::Empty;
        assert_eq!(
            g.board().piece(s).is_none(),
            empty,
            "register and support disagree on {s}"
        );
    }
}

/// Asserts two simulators hold the same state: the same basis states, amplitudes within 1e-9.
fn assert_same_state(reference: &impl Backend, other: &impl Backend, seed: u64) {
    let (want, got) = (reference.basis_states(), other.basis_states());
    assert_eq!(want.len(), got.len(), "seed {seed}: state sizes differ");
    for ((wq, wa), (gq, ga)) in want.iter().zip(&got) {
        assert_eq!(wq, gq, "seed {seed}: basis states differ");
        assert!((wa - ga).norm() < 1e-9, "seed {seed}: {wq:?}: {wa} != {ga}");
    }
}

/// Picks a move, preferring the rare kinds so that games exercise them.
fn pick(moves: &[(QcanMove, MoveType, Variant)], rng: &mut ChaCha8Rng, big: bool) -> usize {
    let weight = |(m, t, v): &(QcanMove, MoveType, Variant)| -> u32 {
        let mut w = match t {
            MoveType::KingsideCastle | MoveType::QueensideCastle | MoveType::EnPassant => 60,
            MoveType::PawnCapture => 40,
            MoveType::PawnStep | MoveType::PawnTwoStep => 20,
            MoveType::MergeJump | MoveType::MergeSlide => 30,
            MoveType::SplitJump | MoveType::SplitSlide if big => 0,
            MoveType::SplitJump | MoveType::SplitSlide => 1,
            _ => 2,
        };
        if *v == Variant::Capture {
            w += 20;
        }
        if m.promotion.is_some() {
            w += 200;
        }
        w
    };
    let total: u32 = moves.iter().map(weight).sum();
    let mut x = rng.gen_range(0..total.max(1));
    for (i, m) in moves.iter().enumerate() {
        let w = weight(m);
        if x < w {
            return i;
        }
        x -= w;
    }
    0
}

/// Plays one random game; returns how often each move type and variant was played.
fn random_game<B: Backend>(
    backend: impl Fn() -> B,
    seed: u64,
    plies: usize,
) -> BTreeMap<String, usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = Game::new(Board::start(), backend()).expect("setup");
    let mut seen = BTreeMap::new();
    check_invariants(&g);
    for _ in 0..plies {
        if g.status().is_over() {
            break;
        }
        let occ = g.occupancy();
        let moves: Vec<(QcanMove, MoveType, Variant)> = g
            .legal_moves()
            .into_iter()
            .map(|m| {
                let c =
                    classify(g.board(), &occ, &m.mv).expect("legal_moves lists classifiable moves");
                assert_eq!(
                    (c.move_type, c.variant),
                    (m.kind.move_type, m.kind.variant),
                    "{}: the kind listed is the classification",
                    m.mv
                );
                (m.mv, c.move_type, c.variant)
            })
            .collect();
        assert!(!moves.is_empty(), "no moves for the side to move");
        let distinct: std::collections::BTreeSet<String> =
            moves.iter().map(|(m, _, _)| m.to_string()).collect();
        assert_eq!(
            distinct.len(),
            moves.len(),
            "legal moves listed twice: {moves:?}"
        );
        let big = g.state_size() > 256;
        let i = pick(&moves, &mut rng, big);
        let (m, t, _) = moves[i];
        let before = expected_count(&g);
        // Every listed move plays: one that changed nothing (not even beyond a global phase)
        // would make the list and play disagree.
        let r = match g.play(&m, &mut rng) {
            Ok(r) => r.clone(),
            Err(e) => panic!("seed {seed}: legal move {m} failed: {e}"),
        };
        *seen.entry(r.move_type().to_string()).or_insert(0) += 1;
        *seen.entry(r.variant().to_string()).or_insert(0) += 1;
        if m.promotion.is_some() {
            *seen.entry("promotion".into()).or_insert(0) += 1;
        }
        // Decision 7's pawn capture and an en passant whose flag is certain (no record
        // ancilla) drop the victim from the count.
        if !r.measured() && !matches!(t, MoveType::PawnCapture | MoveType::EnPassant) {
            let after = expected_count(&g);
            assert!(
                (after - before).abs() < 1e-9,
                "{m}: count {before} -> {after}"
            );
        }
        check_invariants(&g);
    }
    assert!(qc_ir::verify(g.circuit()).is_ok());
    // Replaying the recorded moves (outcomes forced by .m0/.m1) gives the same game exactly.
    let mut replay = Game::new(Board::start(), backend()).expect("setup");
    let mut no_rng = ChaCha8Rng::seed_from_u64(0);
    for r in g.moves() {
        replay
            .play(&r.mv, &mut no_rng)
            .unwrap_or_else(|e| panic!("replay of {} failed: {e}", r.mv));
    }
    assert_eq!(replay.board(), g.board());
    assert_eq!(replay.circuit(), g.circuit());
    assert_eq!(replay.backend().basis_states(), g.backend().basis_states());
    // The game circuit alone, run with the game's outcomes on the reference simulator (the
    // oracle), gives the same state as the game's simulator.
    let mut fresh = ReferenceSparse::new();
    let bits = g.classical_record().clone();
    let mut policy = |c: Option<qc_ir::Clbit>| {
        qc_ir::MeasureChoice::Forced(c.and_then(|c| bits.get(c)).unwrap_or(false))
    };
    qc_ir::exec::run_instructions(
        &mut fresh,
        g.circuit().instructions(),
        &mut qc_ir::ClassicalRecord::default(),
        &mut policy,
    )
    .expect("the game circuit runs");
    assert_same_state(&fresh, g.backend(), seed);
    // Undo the whole game: back to the start exactly.
    while g.undo().is_ok() {}
    assert_eq!(g.board(), &Board::start());
    assert_eq!(g.state_size(), 1);
    seen
}

/// Runs `cases` random games of `plies` plies from proptest's seeds (a failing seed is reported).
fn random_games<B: Backend>(backend: impl Fn() -> B, cases: u32, plies: usize) {
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest::test_runner::TestRunner::new(config)
        .run(&any::<u64>(), |seed| {
            random_game(&backend, seed, plies);
            Ok(())
        })
        .unwrap();
}

/// `full` on the sparse simulator (the games' default), a quarter of it on the others.
fn share<B: Backend + 'static>(_: &impl Fn() -> B, full: u32) -> u32 {
    if TypeId::of::<B>() == TypeId::of::<SparseSim>() {
        full
    } else {
        full / 4
    }
}

qc_sim::for_each_backend!(random_legal_games_keep_the_invariants, |backend| {
    random_games(backend, share(&backend, 100), 40);
});

// The full run (hundreds of games of 60 plies): `cargo test --release -- --ignored`.
#[test]
#[ignore = "heavy: run in release with --ignored"]
fn many_random_legal_games_keep_the_invariants() {
    random_games(SparseSim::new, 500, 60);
}

// Thirty games of 60 plies on the sparse simulator, which must between them play every kind
// of move; a quarter of them on the others (the dense simulator is slow on game states), which
// run the same checks but are too few to promise every kind.
qc_sim::for_each_backend!(random_games_exercise_every_kind_of_move, |backend| {
    let (games, full) = (share(&backend, 30), 30);
    let mut total: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..u64::from(games) {
        for (k, n) in random_game(backend, seed, 60) {
            *total.entry(k).or_insert(0) += n;
        }
    }
    if games < full {
        return;
    }
    for kind in [
        "jump",
        "slide",
        "split_jump",
        "split_slide",
        "merge_jump",
        "merge_slide",
        "pawn_step",
        "pawn_two_step",
        "pawn_capture",
        "kingside_castle",
        "queenside_castle",
        "promotion",
        "capture",
        "excluded",
        "basic",
    ] {
        assert!(
            total.get(kind).copied().unwrap_or(0) > 0,
            "never played {kind}: {total:?}"
        );
    }
});
