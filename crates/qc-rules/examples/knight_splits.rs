//! Writes a legal Quantum Chess game of knight splits whose state grows fast, for the memory-cap
//! and on-time checks (`tests/hostile/run.sh`, the fuzz harness's big UQCI states):
//! `cargo run --release -p qc-rules --example knight_splits -- 30 > knights.qcg`.
//!
//! Four knights a side on `n5nk/n6n/8/8/8/8/N6N/N5NK`; every ply the side to move splits a knight
//! (the split that doubles the most basis states, ties broken by a seeded choice: the seed is
//! the second argument, 1 by default).
//! Splits measure nothing, so the game is the same on every simulator and seed of the replay;
//! the state size after each ply goes to standard error (30 plies: 311,808 basis states).

use qc_rules::{Board, Game, MoveShape, MoveType, PieceKind, QcanMove, QuantumGame};
use rand::{Rng, SeedableRng};
use std::io::Write;

/// The start: four knights and a king a side, in the corners.
const START: &str = "n5nk/n6n/8/8/8/8/N6N/N5NK w - - 0 1";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let plies: usize = args.next().map_or(Ok(30), |t| t.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |t| t.parse())?;
    let mut game = Game::new(Board::from_fen(START)?, qc_sim::SparseSim::new())?;
    let mut choose = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let (mut moves, mut sizes) = (Vec::new(), Vec::new());
    for ply in 1..=plies {
        let splits: Vec<_> = game
            .legal_moves()
            .into_iter()
            .filter(|m| m.kind.move_type == MoveType::SplitJump)
            .map(|m| m.mv)
            .filter(|mv| match mv.shape {
                MoveShape::Split { source, .. } => game
                    .board()
                    .piece(source)
                    .is_some_and(|p| p.kind == PieceKind::Knight),
                _ => false,
            })
            .collect();
        if splits.is_empty() {
            return Err(format!("no knight split at ply {ply}").into());
        }
        // The split that doubles the most basis states: into two squares empty in every branch,
        // from the square most likely occupied (playing each to see which grows the state most
        // took minutes a ply on big states); ties broken by the seeded choice.
        let into_empty = |mv: &QcanMove| match mv.shape {
            MoveShape::Split {
                target1, target2, ..
            } => game.probability(target1) == 0.0 && game.probability(target2) == 0.0,
            _ => false,
        };
        let source = |mv: &QcanMove| match mv.shape {
            MoveShape::Split { source, .. } => game.probability(source),
            _ => 0.0,
        };
        let pool: Vec<QcanMove> = if splits.iter().any(into_empty) {
            splits.iter().copied().filter(into_empty).collect()
        } else {
            splits
        };
        let most = pool.iter().map(source).fold(0.0, f64::max);
        let best: Vec<QcanMove> = pool.into_iter().filter(|mv| source(mv) == most).collect();
        let mv = best[choose.gen_range(0..best.len())];
        game.play(&mv, &mut dice)?;
        moves.push(mv.to_string());
        sizes.push(game.state_size().to_string());
        writeln!(
            std::io::stderr(),
            "ply {ply}: {mv}, {} basis states",
            game.state_size()
        )?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "[FEN \"{START}\"]")?;
    writeln!(
        out,
        "{{ Written by crates/qc-rules/examples/knight_splits.rs ({plies} plies, seed {seed}).\n  \
         Basis states after each ply: {} }}",
        sizes.join(" ")
    )?;
    for (i, pair) in moves.chunks(2).enumerate() {
        writeln!(out, "{}. {}", i + 1, pair.join(" "))?;
    }
    Ok(())
}
