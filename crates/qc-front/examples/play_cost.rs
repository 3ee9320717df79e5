//! The cost of one `play` call through the Rust API, for docs/python.md's comparison with the
//! Python package and the command line (tests/python/play_cost.py runs all three side by side).
//! Plays the same 6-ply game (splits, a measured capture) `REPS` times on the sparse simulator
//! through the ruleset interface and prints the mean time per ply in microseconds.
//! Usage: cargo run --release -p qc-front --example play_cost -- [REPS]

use qc_rules::{Cantwell, QuantumGame, Ruleset};
use std::time::Instant;

/// The game every front end plays (tests/python/play_cost.py has the same list).
const MOVES: [&str; 6] = ["b1^a3c3", "b7b5", "a3xb5.m1", "a7a6", "g1^f3h3", "a6xb5"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse())
        .transpose()?
        .unwrap_or(2000);
    let start = Cantwell::start(None, None)?;
    let mut rng = qc_front::rng(0);
    let clock = Instant::now();
    for _ in 0..reps {
        let mut game = Cantwell::new_game(&start, qc_sim::SparseSim::new())?;
        for mv in MOVES {
            game.play_text(mv, &mut rng)?;
        }
        std::hint::black_box(&game);
    }
    let per_ply = clock.elapsed().as_secs_f64() * 1e6 / f64::from(reps) / MOVES.len() as f64;
    #[allow(
        clippy::print_stdout,
        reason = "the example's output is its measurement"
    )]
    {
        println!("{per_ply:.3}");
    }
    Ok(())
}
