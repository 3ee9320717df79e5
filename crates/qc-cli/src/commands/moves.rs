//! `qchess moves`: the legal moves of the side to move, grouped by kind, for every ruleset.

use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::write_stdout;
use crate::status::game_over_text;
use clap::Args;
use qc_front::{Game, LegalView};
use qc_ir::Choice;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Arguments of `qchess moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub sim: SimArgs,
    /// Print JSON: {"rules": ..., "side_to_move": "w", "moves": {"jump": [...], ...}, ...}.
    #[arg(long)]
    pub json: bool,
}

/// The legal moves `keep` keeps, grouped by kind, each group sorted.
pub fn grouped_moves(
    game: &dyn Game,
    keep: impl Fn(&LegalView) -> bool,
) -> BTreeMap<&'static str, Vec<String>> {
    let mut groups: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for mv in game.legal_moves().into_iter().filter(|m| keep(m)) {
        groups.entry(mv.kind).or_default().push(mv.text);
    }
    for list in groups.values_mut() {
        list.sort();
    }
    groups
}

/// Runs the command (with no game: the start position).
pub fn run(args: &MovesArgs) -> anyhow::Result<()> {
    let game = open(&args.game, &args.sim, false)?;
    let game: &dyn Game = &*game;
    let groups = grouped_moves(game, |_| true);
    if args.json {
        let status = game.status();
        let mut json = json!({
            "rules": game.rules().name(),
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
    if let Some(over) = game_over_text(game) {
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
