//! Searches one Quantum Chess position and prints each iteration, for profiling:
//! `cargo run --release -p qc-engine --example think -- MILLISECONDS [FEN] [MOVES...]`.
#![allow(clippy::print_stdout, reason = "an example that prints its findings")]

use qc_engine::{Limits, Searcher, StopFlag};
use qc_rules::{Cantwell, QuantumGame, Ruleset};
use qc_sim::SparseSim;
use rand::SeedableRng;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ms: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let fen = args.get(1).filter(|f| f.as_str() != "startpos").cloned();
    let start = Cantwell::start(fen.as_deref(), None).expect("fen");
    let mut game = Cantwell::new_game(&start, SparseSim::new()).expect("game");
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for m in args.iter().skip(2) {
        game.play_text(m, &mut dice).expect("move");
    }
    println!(
        "state size {}, {} legal moves",
        game.state_size(),
        game.legal_moves().len()
    );
    let found = Searcher::default()
        .search(
            &mut game,
            &Limits::move_time(Duration::from_millis(ms)),
            StopFlag::new(),
            &mut |it| {
                println!(
                    "depth {} score {:.2} nodes {} time {:?} pv {}",
                    it.depth,
                    it.score,
                    it.nodes,
                    it.time,
                    it.pv.join(" ")
                )
            },
        )
        .expect("search");
    println!(
        "best {:?} depth {} nodes {} time {:?}",
        found.best, found.depth, found.nodes, found.time
    );
}
