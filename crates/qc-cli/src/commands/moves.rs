//! `qchess moves`: the legal moves of the side to move, grouped by kind, for every ruleset.

use crate::game_input::{with_game, GameArgs};
use crate::output::write_stdout;
use crate::status::game_over_text;
use clap::Args;
use qc_front::BackendKind;
use qc_rules::{QuantumGame, Ruleset};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Arguments of `qchess moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed for the outcomes of moves written without them.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
    /// Print JSON: {"rules": ..., "side_to_move": "w", "moves": {"jump": [...], ...}, ...}.
    #[arg(long)]
    pub json: bool,
}

/// The legal moves `keep` keeps, grouped by kind, each group sorted.
pub fn grouped_moves<G: QuantumGame>(
    game: &G,
    keep: impl Fn(&G::Move) -> bool,
) -> BTreeMap<&'static str, Vec<String>> {
    let mut groups: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for mv in game.legal_moves().into_iter().filter(|m| keep(&m.mv)) {
        groups
            .entry(mv.kind_name())
            .or_default()
            .push(mv.mv.to_string());
    }
    for list in groups.values_mut() {
        list.sort();
    }
    groups
}

/// Runs the command (with no game: the start position).
pub fn run(args: &MovesArgs) -> anyhow::Result<()> {
    with_game!(
        args.game,
        args.backend,
        args.seed,
        false,
        |R, _loaded, game| {
            let groups = grouped_moves(&game, |_| true);
            if args.json {
                let status = QuantumGame::status(&game);
                let mut json = json!({
                    "rules": R::NAME,
                    "side_to_move": game.side_to_move().fen_char(),
                    "status": status.name(),
                    "status_text": status.to_string(),
                    "moves": groups,
                });
                if let Value::Object(fields) = &mut json {
                    fields.extend(game.extras());
                }
                return write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"));
            }
            if let Some(over) = game_over_text(&game) {
                return write_stdout(&over);
            }
            let total: usize = groups.values().map(Vec::len).sum();
            let mut out = format!(
                "{total} legal move(s) for {}:\n",
                game.side_to_move().name()
            );
            for (kind, list) in &groups {
                out.push_str(&format!("  {kind} ({}): {}\n", list.len(), list.join(" ")));
            }
            write_stdout(&out)
        }
    )
}
