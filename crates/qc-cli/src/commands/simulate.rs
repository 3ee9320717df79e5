//! `qchess simulate`: play a game on a simulator and show the result, for every ruleset.

use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::{progress, write_stdout};
use crate::status::{fen_text, move_table, status_line};
use clap::Args;
use qc_front::{rng, Game};
use qc_ir::Choice;
use qc_render::board_text;
use rand::Rng;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Arguments of `qchess simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub sim: SimArgs,
    /// Also sample this many full-board measurements of the final state and report the counts
    /// (Quantum Chess, whose squares are qubits). At most 100000000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=qc_ir::exec::MAX_SHOTS))]
    pub shots: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    let game = open(&args.game, &args.sim, true)?;
    let shots = match args.shots {
        Some(n) => Some(sample_boards(&*game, n, args.sim.seed)?),
        None => None,
    };
    let record = game.game_file(true);
    if args.json {
        let json = to_json(&*game, record, shots);
        write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))
    } else {
        write_stdout(&to_text(&*game, &record, shots.as_ref()))
    }
}

/// The JSON of a played game: what every ruleset has, then the ruleset's extras.
fn to_json(game: &dyn Game, record: String, shots: Option<BTreeMap<String, u64>>) -> Value {
    let moves: Vec<Value> = game
        .moves()
        .into_iter()
        .map(|m| {
            let mut fields = Map::new();
            fields.insert("move".into(), json!(m.text));
            fields.insert("kind".into(), json!(m.kind));
            fields.extend(m.extras);
            Value::Object(fields)
        })
        .collect();
    let view = game.board_view(false);
    let squares: Map<String, Value> = view
        .board_squares()
        .filter_map(|sq| {
            view.get(sq).map(|sv| {
                (
                    sq.to_string(),
                    json!({"piece": sv.piece.to_string(), "probability": sv.probability}),
                )
            })
        })
        .collect();
    let status = game.status();
    let mut out = Map::new();
    out.insert("rules".into(), json!(game.rules().name()));
    out.insert("fen".into(), json!(game.start_fen()));
    out.insert("moves".into(), Value::Array(moves));
    out.insert("squares".into(), Value::Object(squares));
    out.insert("state_size".into(), json!(game.state_size()));
    out.insert("status".into(), json!(status.name()));
    out.insert("status_text".into(), json!(status.to_string()));
    out.insert("side_to_move".into(), json!(game.side_to_move().fen_char()));
    out.insert("final_fen".into(), json!(game.fen()));
    if let Some((fen, probability)) = game.most_likely_board() {
        out.insert(
            "most_likely_board".into(),
            json!({"fen": fen, "probability": probability}),
        );
    }
    out.insert("game".into(), json!(record));
    if let Some(counts) = shots {
        out.insert("shots".into(), json!(counts));
    }
    out.extend(game.extras());
    Value::Object(out)
}

fn to_text(game: &dyn Game, record: &str, shots: Option<&BTreeMap<String, u64>>) -> String {
    let mut out = match game.options_name() {
        Some(options) => format!("Rules: {} ({options})\n", game.rules().name()),
        None => String::new(),
    };
    out.push_str("Game (every outcome written in; replays exactly):\n");
    for line in record.lines() {
        out.push_str(&format!("  {line}\n"));
    }
    let moves = game.moves();
    if !moves.is_empty() {
        out.push_str("\nMoves:\n");
        out.push_str(&move_table(&moves, game.first_ply()));
    }
    out.push('\n');
    out.push_str(&board_text::draw(&game.board_view(false)));
    out.push_str(&format!(
        "\nState size: {} basis state(s)   {}\n",
        game.state_size(),
        status_line(game)
    ));
    if let Some(note) = game.endings_note() {
        out.push_str(&format!("{note}\n"));
    }
    out.push_str(&fen_text(game));
    if let Some(counts) = shots {
        out.push_str("\nSampled boards (occupied squares; count):\n");
        for (board, n) in counts {
            out.push_str(&format!("  {n:>8}  {board}\n"));
        }
    }
    out
}

/// Samples full-board measurements of the final state from its exact board distribution.
fn sample_boards(game: &dyn Game, shots: u64, seed: u64) -> anyhow::Result<BTreeMap<String, u64>> {
    let Some(boards) = game.board_distribution() else {
        anyhow::bail!("--shots needs a ruleset whose squares are qubits (Quantum Chess)");
    };
    let total: f64 = boards.iter().map(|(_, p)| p).sum();
    let mut rng = rng(seed ^ 0x5eed_5eed);
    let mut counts = BTreeMap::new();
    let report = progress::Progress::new("sampling boards", shots);
    for shot in 0..shots {
        let mut u = rng.gen::<f64>() * total;
        let mut chosen = boards.last().map(|(b, _)| b.as_str()).unwrap_or("");
        for (b, p) in &boards {
            if u < *p {
                chosen = b;
                break;
            }
            u -= p;
        }
        *counts.entry(chosen.to_string()).or_insert(0) += 1;
        report.tick(shot + 1);
    }
    report.finish();
    Ok(counts)
}
