//! Plays a long legal game of Quantum Chess to measure what its undo history costs:
//! `cargo run --release -p qc-rules --example long_game -- 8000` (then read the peak resident
//! memory, e.g. with `/usr/bin/time -v`). Both knights split, then the other two knights go back
//! and forth. `forcewin` is on so that the game goes on past the fifty-move rule, which then
//! measures every square after each ply (64 more instructions and classical bits per ply).

use qc_rules::{parse_move_list, Board, Game, QuantumGame, UndoControls};
use rand::SeedableRng;
use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let plies: usize = match std::env::args().nth(1) {
        Some(text) => text.parse()?,
        None => 8000,
    };
    let mut game = Game::new(Board::start(), qc_sim::SparseSim::new())?;
    game.set_force_win(true);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let setup = parse_move_list("b1^a3c3 b8^a6c6")?;
    let cycle = parse_move_list("g1f3 g8f6 f3g1 f6g8")?;
    for mv in setup.iter().chain(cycle.iter().cycle()).take(plies) {
        game.play(mv, &mut rng)?;
    }
    writeln!(
        std::io::stdout(),
        "{} plies, {} instructions, {} moves undoable",
        game.moves().len(),
        game.circuit().instructions().len(),
        game.undo_depth()
    )?;
    Ok(())
}
