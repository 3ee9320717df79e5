//! Does a search ever run past its `movetime`? Plays seeded random legal games of random length
//! (both rulesets, so some positions are big superpositions), gives the engine's search a move
//! time at each position reached, and times it as a GUI would, from the call to its answer:
//! `cargo run --release -p qc-engine --example movetime_fuzz -- [POSITIONS] [SEED] [MAX_PLIES]`
//! (default 60 positions, seed 1, up to 80 plies). Prints every search over its time and a
//! summary; exits with 1 when a search took longer than its time plus [`GRACE`].
//!
//! A measurement, not a test (docs/engine.md, "The time control"): it depends on the machine and
//! its load, so CI does not run it.
#![allow(clippy::print_stdout, reason = "an example that prints its findings")]

use qc_engine::{EngineGame, Limits, Searcher, StopFlag};
use qc_rules::{Cantwell, Niels, QuantumGame, Ruleset};
use qc_sim::SparseSim;
use rand::{Rng, SeedableRng};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The move times tried, in milliseconds.
const MOVE_TIMES: [u64; 4] = [20, 50, 100, 300];

/// How far past its time a search may answer before it counts as late: the thread's wake-up and
/// the last node's work on a loaded machine.
const GRACE: Duration = Duration::from_millis(50);

/// One timed search.
struct Timed {
    rules: &'static str,
    plies: usize,
    states: usize,
    legal: usize,
    budget: Duration,
    took: Duration,
}

/// Plays up to `plies` random legal moves (a move the engine refuses is dropped and another
/// picked); returns how many were played.
fn random_game<G: QuantumGame>(game: &mut G, plies: usize, rng: &mut impl Rng) -> usize {
    for played in 0..plies {
        let mut moves = game.legal_moves();
        loop {
            if moves.is_empty() {
                return played;
            }
            let mv = moves.swap_remove(rng.gen_range(0..moves.len()));
            if game.play(&mv.mv, rng).is_ok() {
                break;
            }
        }
    }
    plies
}

/// One position of ruleset `R` after a random game, searched with a random move time.
fn one<R: Ruleset>(max_plies: usize, rng: &mut impl Rng) -> Option<Timed>
where
    R::Game<SparseSim>: EngineGame,
{
    let start = R::start(None, None).ok()?;
    let mut game = R::new_game(&start, SparseSim::new()).ok()?;
    let plies = random_game(&mut game, rng.gen_range(0..=max_plies), rng);
    if game.legal_moves().is_empty() {
        return None;
    }
    let budget = Duration::from_millis(MOVE_TIMES[rng.gen_range(0..MOVE_TIMES.len())]);
    let (states, legal) = (game.state_size(), game.legal_moves().len());
    let began = Instant::now();
    Searcher::default()
        .search(
            &mut game,
            &Limits::move_time(budget),
            StopFlag::new(),
            &mut |_| {},
        )
        .ok()?;
    Some(Timed {
        rules: R::NAME,
        plies,
        states,
        legal,
        budget,
        took: began.elapsed(),
    })
}

fn main() -> ExitCode {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let positions = args.first().copied().unwrap_or(60);
    let seed = args.get(1).copied().unwrap_or(1);
    let max_plies = usize::try_from(args.get(2).copied().unwrap_or(80)).unwrap_or(80);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut late = 0;
    let mut worst: Option<Timed> = None;
    let mut searched = 0;
    for k in 0..positions {
        let timed = if k % 2 == 0 {
            one::<Cantwell>(max_plies, &mut rng)
        } else {
            one::<Niels>(max_plies, &mut rng)
        };
        let Some(t) = timed else { continue };
        searched += 1;
        let over = t.took.saturating_sub(t.budget);
        if t.took > t.budget + GRACE {
            late += 1;
            println!(
                "LATE {} after {} plies ({} basis states, {} legal moves): {} ms for movetime {}",
                t.rules,
                t.plies,
                t.states,
                t.legal,
                t.took.as_millis(),
                t.budget.as_millis()
            );
        }
        if worst
            .as_ref()
            .is_none_or(|w| over > w.took.saturating_sub(w.budget))
        {
            worst = Some(t);
        }
    }
    if let Some(w) = &worst {
        println!(
            "{searched} searches, {late} late (over movetime + {} ms); the most over: {} after {} \
             plies ({} basis states, {} legal moves), {} ms for movetime {}",
            GRACE.as_millis(),
            w.rules,
            w.plies,
            w.states,
            w.legal,
            w.took.as_millis(),
            w.budget.as_millis()
        );
    }
    if late == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
