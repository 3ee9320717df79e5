//! Times replay and move generation on a big superposition:
//! `cargo run --release -p qc-rules --example movegen_bench -- [GAMES]`.
//!
//! (a) replays `tests/data/seed4_80ply.qcg` (80 plies, 7,128 basis states at its end) on the
//! sparse simulator, (b) lists the legal moves at its end (265), (c) plays GAMES (default 3)
//! random games of 120 plies from the start, seeds 1 to GAMES (a move picked uniformly among
//! the legal ones, its measurement drawn from the same seeded generator). Prints each figure in
//! milliseconds, with what it found (basis states, moves, plies) so that a run that plays a
//! different game shows it.

use qc_ir::Backend;
use qc_rules::{Game, GameRecord, QuantumGame};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::time::Instant;

/// The bundled 80-ply game.
const GAME: &str = include_str!("../tests/data/seed4_80ply.qcg");

/// Plies of each random game.
const RANDOM_PLIES: usize = 120;

/// Milliseconds since `start`.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u64 = match std::env::args().nth(1) {
        Some(text) => text.parse()?,
        None => 3,
    };
    let mut out = std::io::stdout();
    let record = GameRecord::parse(GAME)?;
    // Every outcome is written in the file: the generator is never drawn from.
    let mut dice = ChaCha8Rng::seed_from_u64(0);
    let start = Instant::now();
    let mut game = Game::new(record.start.clone(), qc_sim::SparseSim::new())?;
    for m in &record.moves {
        game.play(&m.mv, &mut dice)?;
    }
    let replay = ms(start);
    let start = Instant::now();
    let legal = game.legal_moves();
    let movegen = ms(start);
    writeln!(
        out,
        "replay: {replay:.1} ms ({} plies, {} basis states)",
        record.moves.len(),
        game.backend().state_size()
    )?;
    writeln!(out, "legal moves: {movegen:.1} ms ({} moves)", legal.len())?;
    let mut total = 0.0;
    for seed in 1..=games {
        let start = Instant::now();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut game = Game::new(record.start.clone(), qc_sim::SparseSim::new())?;
        let mut plies = 0;
        'game: while plies < RANDOM_PLIES {
            let mut moves = game.legal_moves();
            // A move the engine refuses after all is dropped and another picked.
            while !moves.is_empty() {
                let mv = moves.swap_remove(rng.gen_range(0..moves.len()));
                if game.play(&mv.mv, &mut rng).is_ok() {
                    plies += 1;
                    continue 'game;
                }
            }
            break;
        }
        let took = ms(start);
        total += took;
        writeln!(
            out,
            "random game seed {seed}: {took:.1} ms ({plies} plies, {} basis states)",
            game.backend().state_size()
        )?;
    }
    writeln!(out, "random games: {total:.1} ms in all")?;
    Ok(())
}
