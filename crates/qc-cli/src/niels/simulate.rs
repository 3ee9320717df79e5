//! `qchess simulate --rules niels`: the game played on a simulator, shown as the replayable
//! record (every roll written in), the moves with their rolls, the board with indefinite
//! pieces, marks and entangled groups, and the status; or the same as JSON.

use super::{load, replay, replayable, status_name, variant_name};
use crate::backend_choice::with_backend;
use crate::commands::simulate::{side_name, SimulateArgs};
use crate::output::write_stdout;
use anyhow::bail;
use qc_ir::Backend;
use qc_rules::niels::{GameStatus, NielsGame, NielsPosition};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    text: String,
    kind: &'static str,
    rolls: Vec<String>,
    blue_probabilities: Vec<f64>,
}

#[derive(Serialize)]
struct PairJson {
    id: u32,
    piece: String,
    label: u8,
    red: String,
    blue: String,
    red_faces_opponent: bool,
    blue_faces_opponent: bool,
    p_red: f64,
    group: u32,
}

#[derive(Serialize)]
struct GroupJson {
    id: u32,
    diagonal: Option<u8>,
    pairs: Vec<u32>,
}

/// The board part of the JSON (also used by `play`'s and `board`'s outputs).
#[derive(Serialize)]
pub struct PositionJson {
    fen: String,
    width: u8,
    height: u8,
    pieces: BTreeMap<String, String>,
    pairs: Vec<PairJson>,
    groups: Vec<GroupJson>,
    status: &'static str,
    side_to_move: &'static str,
    in_check: bool,
}

#[derive(Serialize)]
struct SimulateJson {
    rules: &'static str,
    variant: String,
    fen: String,
    moves: Vec<MoveJson>,
    #[serde(rename = "final")]
    position: PositionJson,
    game: String,
}

/// The position as JSON: conventional pieces by square, pairs with their probabilities, groups.
pub fn position_json(pos: &NielsPosition) -> PositionJson {
    let mut pieces = BTreeMap::new();
    for s in pos.squares() {
        if pos.pair_at(s).is_none() {
            if let Some(p) = pos.piece_at(s) {
                pieces.insert(s.to_string(), p.fen_char().to_string());
            }
        }
    }
    let pairs = pos
        .pairs
        .iter()
        .map(|(id, p)| {
            let p_event = pos.group_event_probability(p.group);
            PairJson {
                id: *id,
                piece: p.piece.fen_char().to_string(),
                label: p.label,
                red: p.red.to_string(),
                blue: p.blue.to_string(),
                red_faces_opponent: p.red_faces_opponent,
                blue_faces_opponent: p.blue_faces_opponent,
                p_red: if p.event_square() == p.red {
                    p_event
                } else {
                    1.0 - p_event
                },
                group: p.group,
            }
        })
        .collect();
    let groups = pos
        .groups
        .iter()
        .map(|(id, g)| GroupJson {
            id: *id,
            diagonal: g.diagonal,
            pairs: g.pairs.clone(),
        })
        .collect();
    PositionJson {
        fen: pos.to_fen(),
        width: pos.width,
        height: pos.height,
        pieces,
        pairs,
        groups,
        status: status_name(pos.status()),
        side_to_move: side_name(pos.side_to_move),
        in_check: pos.in_check(pos.side_to_move),
    }
}

/// The moves with their kinds and rolls (kinds are taken in the position before each move).
fn moves_json<B: Backend>(game: &NielsGame<B>) -> anyhow::Result<Vec<MoveJson>> {
    Ok(game
        .history()
        .iter()
        .map(|m| MoveJson {
            text: m.text(),
            kind: m.kind,
            rolls: m.rolls.iter().map(ToString::to_string).collect(),
            blue_probabilities: m.blue_probabilities.clone(),
        })
        .collect())
}

/// The status line under the board (`status` from the game when there is one, as only it
/// knows repetitions).
pub fn status_line(pos: &NielsPosition, status: GameStatus) -> String {
    format!(
        "Status: {}   In check: {}   Pairs: {}   Entangled groups: {}\n",
        status,
        if pos.in_check(pos.side_to_move) {
            "yes"
        } else {
            "no"
        },
        pos.pairs.len(),
        pos.entangled_group_count()
    )
}

/// Runs `simulate --rules niels`.
pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    if args.shots.is_some() {
        bail!("--shots is not available with --rules niels (every roll is already sampled)");
    }
    let loaded = load(&args.game)?;
    with_backend!(args.backend, |backend| {
        let game = replay(&loaded, backend, args.seed)?;
        let record = replayable(&loaded, &game);
        let moves = moves_json(&game)?;
        if args.json {
            let json = SimulateJson {
                rules: "niels",
                variant: variant_name(loaded.rules),
                fen: loaded.start.to_fen(),
                moves,
                // The game's status sees the repetition draw that the position's cannot.
                position: PositionJson {
                    status: status_name(game.status()),
                    ..position_json(game.position())
                },
                game: record,
            };
            return write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"));
        }
        let mut out = format!(
            "Niel's Chess ({}). Game (every roll written in; replays exactly):\n",
            variant_name(loaded.rules)
        );
        for line in record.lines() {
            out.push_str(&format!("  {line}\n"));
        }
        if !moves.is_empty() {
            out.push_str("\nMoves:\n");
            for (i, m) in moves.iter().enumerate() {
                let rolls = if m.rolls.is_empty() {
                    "no roll".to_string()
                } else {
                    let shown: Vec<String> = m
                        .rolls
                        .iter()
                        .zip(&m.blue_probabilities)
                        .map(|(s, p)| format!("{s} (P(blue) {p:.4})"))
                        .collect();
                    format!("rolled {}", shown.join(", "))
                };
                out.push_str(&format!(
                    "  {:>3}. {:<22} {:<14} {rolls}\n",
                    i + 1,
                    m.text,
                    m.kind
                ));
            }
        }
        out.push('\n');
        out.push_str(&game.position().render());
        out.push_str(LEGEND);
        out.push_str(&status_line(game.position(), game.status()));
        write_stdout(&out)
    })
}

/// How to read the board cells.
pub const LEGEND: &str = "Cells: letter = conventional piece; `Nro1` = indefinite knight, \
red mark, facing the opponent (o) or its owner (p), entangled group 1/2 (. = lone pair)\n";
