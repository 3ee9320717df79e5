//! Does a search ever answer past its `movetime`? Plays seeded random legal games of random
//! length (both rulesets, so some positions are big superpositions), gives the engine's search a
//! move time at each position reached, runs it on a thread of its own and answers as `qchess
//! uqci` does (qc-engine's `ontime`: the search's move if it ends in time, else at the deadline
//! the best move it published), and times the answer as a GUI would, from `go` to `bestmove`.
//! It also prints how long the search thread took to come back (the next command waits for it):
//! `cargo run --release -p qc-engine --example movetime_fuzz -- [POSITIONS] [SEED] [MAX_PLIES]`
//! (default 60 positions, seed 1, up to 80 plies). Prints every search over its time and a
//! summary; exits with 1 when a search took longer than its time plus [`GRACE`].
//!
//! A measurement, not a test (docs/engine.md, "The time control"): it depends on the machine and
//! its load, so CI does not run it.
#![allow(clippy::print_stdout, reason = "an example that prints its findings")]

use qc_engine::{Answer, EngineGame, Limits, Searcher, StopFlag};
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
    /// From the search's start to its answer.
    took: Duration,
    /// From the search's start to its thread's return.
    returned: Duration,
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
    R::Game<SparseSim>: EngineGame + Send + 'static,
{
    let start = R::start(None, None).ok()?;
    let mut game = R::new_game(&start, SparseSim::new()).ok()?;
    let plies = random_game(&mut game, rng.gen_range(0..=max_plies), rng);
    if game.legal_moves().is_empty() {
        return None;
    }
    let budget = Duration::from_millis(MOVE_TIMES[rng.gen_range(0..MOVE_TIMES.len())]);
    let (states, legal) = (game.state_size(), game.legal_moves().len());
    let limits = Limits::move_time(budget);
    let (answer, stop) = (Answer::new(), StopFlag::new());
    let began = Instant::now();
    let search = {
        let (answer, stop, limits) = (answer.clone(), stop.clone(), limits.clone());
        std::thread::spawn(move || {
            let mut searcher = Searcher::default();
            searcher.publish_to(Some(answer.clone()));
            let found = searcher.search(&mut game, &limits, stop, &mut |_| {});
            answer.end(found.ok().and_then(|f| f.best).map(|m| m.to_string()));
        })
    };
    let best = answer.wait(limits.answer_by(began), false, &stop);
    let took = began.elapsed();
    stop.stop();
    search.join().ok()?;
    best?;
    Some(Timed {
        rules: R::NAME,
        plies,
        states,
        legal,
        budget,
        took,
        returned: began.elapsed(),
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
    let mut slowest_return = Duration::ZERO;
    let mut searched = 0;
    for k in 0..positions {
        let timed = if k % 2 == 0 {
            one::<Cantwell>(max_plies, &mut rng)
        } else {
            one::<Niels>(max_plies, &mut rng)
        };
        let Some(t) = timed else { continue };
        searched += 1;
        slowest_return = slowest_return.max(t.returned.saturating_sub(t.budget));
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
        if t.returned > t.budget + GRACE {
            println!(
                "  search thread back after {} ms for movetime {} ({} {} basis states)",
                t.returned.as_millis(),
                t.budget.as_millis(),
                t.rules,
                t.states
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
    println!(
        "the search thread came back at most {} ms after its movetime",
        slowest_return.as_millis()
    );
    if late == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
