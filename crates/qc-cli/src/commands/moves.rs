//! `qchess moves`: the legal moves of the side to move, grouped by kind.

use crate::backend_choice::{with_backend, BackendChoice};
use crate::commands::simulate::side_name;
use crate::game_input::GameArgs;
use crate::output::write_stdout;
use crate::replay::replay;
use clap::Args;
use qc_ir::Backend;
use qc_rules::Game;
use std::collections::BTreeMap;

/// Arguments of `qchess moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed for the outcomes of moves written without .m0/.m1.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print JSON: {"side_to_move": "w", "moves": {"jump": [...], ...}}.
    #[arg(long)]
    pub json: bool,
}

/// The legal moves grouped by type name, each group sorted.
pub fn grouped_moves<B: Backend>(game: &Game<B>) -> BTreeMap<&'static str, Vec<String>> {
    let mut groups: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for mv in game.legal_moves() {
        let kind = match game.classify(&mv) {
            Ok(c) => c.move_type.as_str(),
            Err(_) => continue,
        };
        groups.entry(kind).or_default().push(mv.to_string());
    }
    for list in groups.values_mut() {
        list.sort();
    }
    groups
}

/// Runs the command (with no game: the standard start position).
pub fn run(args: &MovesArgs) -> anyhow::Result<()> {
    if args.game.rules.is_niels()? {
        return crate::niels::moves::run(args);
    }
    let loaded = args.game.load()?;
    with_backend!(BackendChoice::Sparse, |backend| {
        let game = replay(&loaded, backend, args.seed)?;
        let groups = grouped_moves(&game);
        if args.json {
            let json = serde_json::json!({
                "side_to_move": side_name(game.board().side_to_move),
                "moves": groups,
            });
            return write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"));
        }
        let total: usize = groups.values().map(Vec::len).sum();
        let mut out = format!(
            "{total} legal move(s) for {}:\n",
            if side_name(game.board().side_to_move) == "w" {
                "White"
            } else {
                "Black"
            }
        );
        for (kind, list) in &groups {
            out.push_str(&format!("  {kind} ({}): {}\n", list.len(), list.join(" ")));
        }
        write_stdout(&out)
    })
}
