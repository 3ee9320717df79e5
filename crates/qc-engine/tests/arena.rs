//! Matches: the same seed plays the same games, each opening is played with both colours, and
//! points add up in the tally.

use qc_engine::arena::{play_match, MatchConfig, Outcome};
use qc_engine::{Limits, PlayerSpec};
use qc_rules::{Cantwell, Niels, Ruleset};
use qc_sim::SparseSim;
use std::time::Duration;

fn config(openings: usize, max_plies: usize) -> MatchConfig {
    MatchConfig {
        openings,
        limits: Limits {
            depth: Some(1),
            ..Limits::move_time(Duration::from_secs(5))
        },
        seed: 11,
        max_plies,
        opening_plies: 2,
    }
}

#[test]
fn a_match_is_repeatable_and_swaps_colours() {
    let start = Cantwell::start(None, None).expect("start");
    let random: PlayerSpec = "random".parse().expect("spec");
    let sampler: PlayerSpec = "sampler:samples=2".parse().expect("spec");
    let play = || {
        play_match::<Cantwell, _>(
            &start,
            SparseSim::new,
            &random,
            &sampler,
            &config(2, 12),
            &mut |_| {},
        )
        .expect("match")
    };
    let (games, tally) = play();
    assert_eq!(games.len(), 4);
    assert_eq!(tally.games(), 4);
    let points: f64 = games.iter().map(|g| g.first_points).sum();
    assert!((points - tally.score() * 4.0).abs() < 1e-12);
    for pair in games.chunks(2) {
        assert!(pair[0].first_is_white && !pair[1].first_is_white);
        assert_eq!(pair[0].opening, pair[1].opening);
        // Both games start with the same two opening moves.
        let opening = |r: &str| r.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(opening(&pair[0].record), opening(&pair[1].record));
    }
    assert_ne!(games[0].record, games[2].record, "openings differ");
    let (again, _) = play();
    assert_eq!(games, again, "the same seed plays the same games");
}

#[test]
fn the_engine_beats_a_random_mover_from_a_won_position() {
    // White has a rook and queen against a bare king: the engine should take the king.
    let start = Cantwell::start(Some("4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1"), None).expect("start");
    let engine: PlayerSpec = "engine:depth=2".parse().expect("spec");
    let random: PlayerSpec = "random".parse().expect("spec");
    let (games, tally) = play_match::<Cantwell, _>(
        &start,
        SparseSim::new,
        &engine,
        &random,
        &MatchConfig {
            opening_plies: 0,
            ..config(1, 60)
        },
        &mut |_| {},
    )
    .expect("match");
    // As White it wins; as Black (the random mover has the pieces) it at least survives the
    // ply limit or wins.
    assert_eq!(games[0].outcome, Outcome::WhiteWins, "{games:?}");
    assert!(tally.wins >= 1);
}

#[test]
fn niels_matches_play_too() {
    let start = Niels::start(Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), None).expect("start");
    let greedy: PlayerSpec = "greedy".parse().expect("spec");
    let random: PlayerSpec = "random".parse().expect("spec");
    let (games, _) = play_match::<Niels, _>(
        &start,
        SparseSim::new,
        &greedy,
        &random,
        &config(1, 8),
        &mut |_| {},
    )
    .expect("match");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.plies <= 8));
}
