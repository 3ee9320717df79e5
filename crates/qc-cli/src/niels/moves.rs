//! `qchess moves --rules niels`: the legal Niel's moves of the side to move, grouped by kind.

use super::{load, move_kind, replay};
use crate::commands::moves::MovesArgs;
use crate::commands::simulate::side_name;
use crate::output::write_stdout;
use qc_rules::niels::NielsPosition;
use std::collections::BTreeMap;

/// The legal moves grouped by kind (`move`, `capture`, `castling`, `superposition`,
/// `entanglement`, `mark_inversion`, `z_move`, `hadamard`, `tunnelling`), each group sorted.
pub fn grouped(pos: &NielsPosition) -> BTreeMap<&'static str, Vec<String>> {
    let mut groups: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for mv in pos.legal_moves() {
        groups
            .entry(move_kind(pos, &mv))
            .or_default()
            .push(mv.to_string());
    }
    for list in groups.values_mut() {
        list.sort();
    }
    groups
}

/// Runs `moves --rules niels`.
pub fn run(args: &MovesArgs) -> anyhow::Result<()> {
    let loaded = load(&args.game)?;
    let game = replay(&loaded, qc_sim::ReferenceSparse::new(), args.seed)?;
    let pos = game.position();
    let groups = grouped(pos);
    if args.json {
        let json = serde_json::json!({
            "rules": "niels",
            "side_to_move": side_name(pos.side_to_move),
            "in_check": pos.in_check(pos.side_to_move),
            "moves": groups,
        });
        return write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"));
    }
    let total: usize = groups.values().map(Vec::len).sum();
    let mut out = format!(
        "{total} legal Niel's move(s) for {}{}:\n",
        if side_name(pos.side_to_move) == "w" {
            "White"
        } else {
            "Black"
        },
        if pos.in_check(pos.side_to_move) {
            " (in check)"
        } else {
            ""
        }
    );
    for (kind, list) in &groups {
        out.push_str(&format!("  {kind} ({}): {}\n", list.len(), list.join(" ")));
    }
    write_stdout(&out)
}
