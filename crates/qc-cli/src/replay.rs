//! Plays a game record on a backend, turning each move's error into a message with the move
//! number, the move, and where it was written.

use crate::game_input::LoadedGame;
use anyhow::Context;
use qc_ir::Backend;
use qc_rules::Game;
use rand::SeedableRng;

/// The RNG every command uses for sampled outcomes, so a seed means the same game everywhere.
pub fn rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

/// Plays every move of `game` on `backend`; moves without `.m0`/`.m1` are sampled with `seed`.
pub fn replay<B: Backend>(game: &LoadedGame, backend: B, seed: u64) -> anyhow::Result<Game<B>> {
    let mut played = Game::new(game.record.start.clone(), backend)
        .with_context(|| format!("{}: cannot set up the start position", game.source))?;
    let mut rng = rng(seed);
    for (index, recorded) in game.record.moves.iter().enumerate() {
        played.play(&recorded.qcan, &mut rng).with_context(|| {
            let place = if game.source == "--moves" {
                String::new()
            } else {
                format!(", line {}, column {}", recorded.line, recorded.column)
            };
            format!(
                "{}: move {} `{}`{place}",
                game.source,
                index + 1,
                recorded.qcan
            )
        })?;
    }
    Ok(played)
}
