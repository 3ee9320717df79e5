//! `qchess simulate`: play a game on a simulator and show the result.

use crate::backend_choice::{with_backend, BackendChoice};
use crate::game_input::GameArgs;
use crate::output::{progress, write_stdout};
use crate::render::board_text;
use crate::replay::{replay, rng};
use crate::views::board_view;
use clap::Args;
use qc_ir::{Backend, Square};
use qc_rules::{Color, Game, GameRecord, GameStatus};
use rand::Rng;
use serde::Serialize;
use std::collections::BTreeMap;

/// Arguments of `qchess simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The simulator.
    #[arg(long, value_enum, default_value_t = BackendChoice::Sparse)]
    pub backend: BackendChoice,
    /// Seed for the outcomes of moves written without .m0/.m1.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also sample this many full-board measurements of the final state and report the counts.
    /// At most 100000000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=qc_ir::exec::MAX_SHOTS))]
    pub shots: Option<u64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    qcan: String,
    #[serde(rename = "type")]
    move_type: &'static str,
    variant: &'static str,
    measured: bool,
    outcome: Option<u8>,
    applied: bool,
}

#[derive(Serialize)]
struct SquareJson {
    piece: String,
    probability: f64,
}

#[derive(Serialize)]
struct SimulateJson {
    fen: String,
    moves: Vec<MoveJson>,
    squares: BTreeMap<String, SquareJson>,
    state_size: usize,
    status: &'static str,
    side_to_move: &'static str,
    final_fen: String,
    game: String,
    endings: EndingsJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    shots: Option<BTreeMap<String, u64>>,
}

/// The fifty-move counter, what could be claimed now, and the full measurement that ended the
/// game (docs/rules.md, rule 14).
#[derive(Serialize)]
pub struct EndingsJson {
    /// Plies counted by the fifty-move rule (the game ends at 100).
    pub fifty_move_counter: u32,
    /// `repetition` when the position occurred twice before and may be claimed.
    pub claimable: Option<&'static str>,
    /// `fifty_moves` or `repetition` when a full measurement ended the game.
    pub ended_by: Option<&'static str>,
    /// The measured occupancy of that measurement (bit k = square k).
    pub measured_bitboard: Option<u64>,
}

impl EndingsJson {
    /// The endings of `game`.
    pub fn of<B: Backend>(game: &Game<B>) -> EndingsJson {
        let ended = game.full_measurement();
        EndingsJson {
            fifty_move_counter: game.fifty_move_counter().plies,
            claimable: game.claimable().map(|e| e.as_str()),
            ended_by: ended.map(|m| m.ending.as_str()),
            measured_bitboard: ended.map(|m| m.bitboard),
        }
    }
}

/// The status as the JSON and text show it.
pub fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "ongoing",
        GameStatus::WhiteWins => "white_wins",
        GameStatus::BlackWins => "black_wins",
        GameStatus::Draw => "draw",
    }
}

/// `w` or `b`.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// The game as a replayable record: the start position and every move with its outcome.
pub fn replayable<B: Backend>(start: &GameRecord, game: &Game<B>) -> GameRecord {
    let mut record = GameRecord {
        tags: start.tags.clone(),
        start: start.start.clone(),
        ..GameRecord::default()
    };
    for r in game.history() {
        record.push_move(r.qcan);
    }
    record
}

/// Runs the command.
pub fn run(args: &SimulateArgs) -> anyhow::Result<()> {
    if args.game.rules.is_niels()? {
        return crate::niels::simulate::run(args);
    }
    let loaded = args.game.load_required()?;
    with_backend!(args.backend, |backend| {
        let game = replay(&loaded, backend, args.seed)?;
        let shots = args.shots.map(|n| sample_boards(&game, n, args.seed));
        let replay_text = replayable(&loaded.record, &game).to_string();
        if args.json {
            let json = to_json(&loaded.record, &game, replay_text, shots);
            write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))
        } else {
            write_stdout(&to_text(&game, &replay_text, shots.as_ref()))
        }
    })
}

fn to_json<B: Backend>(
    start: &GameRecord,
    game: &Game<B>,
    replay_text: String,
    shots: Option<BTreeMap<String, u64>>,
) -> SimulateJson {
    let moves = game
        .history()
        .iter()
        .map(|r| MoveJson {
            qcan: r.qcan.to_string(),
            move_type: r.move_type.as_str(),
            variant: r.variant.as_str(),
            measured: r.measured,
            outcome: r.outcome.map(u8::from),
            applied: r.applied,
        })
        .collect();
    let view = board_view(game, false);
    let squares = Square::ALL
        .into_iter()
        .filter_map(|sq| {
            view.get(sq).map(|sv| {
                (
                    sq.to_string(),
                    SquareJson {
                        piece: sv.piece.to_string(),
                        probability: sv.probability,
                    },
                )
            })
        })
        .collect();
    SimulateJson {
        fen: start.start.to_fen(),
        moves,
        squares,
        state_size: game.state_size(),
        status: status_name(game.status()),
        side_to_move: side_name(game.board().side_to_move),
        final_fen: game.board().to_fen(),
        game: replay_text,
        endings: EndingsJson::of(game),
        shots,
    }
}

fn to_text<B: Backend>(
    game: &Game<B>,
    replay_text: &str,
    shots: Option<&BTreeMap<String, u64>>,
) -> String {
    let mut out = String::from("Game (every outcome written in; replays exactly):\n");
    for line in replay_text.lines() {
        out.push_str(&format!("  {line}\n"));
    }
    if !game.history().is_empty() {
        out.push_str("\nMoves:\n");
        for (i, r) in game.history().iter().enumerate() {
            let outcome = match r.outcome {
                Some(o) => format!("measured, outcome {}", u8::from(o)),
                None => "no measurement".into(),
            };
            let applied = if r.applied { "applied" } else { "not applied" };
            out.push_str(&format!(
                "  {:>3}. {:<14} {:<16} {:<9} {outcome}, {applied}\n",
                i + 1,
                r.qcan.to_string(),
                r.move_type.as_str(),
                r.variant.as_str()
            ));
        }
    }
    out.push('\n');
    out.push_str(&board_text::draw(&board_view(game, false)));
    out.push_str(board_text::LEGEND);
    out.push('\n');
    out.push_str(&format!(
        "\nState size: {} basis state(s)   Status: {}   Side to move: {}\n",
        game.state_size(),
        status_name(game.status()),
        if game.board().side_to_move == Color::White {
            "White"
        } else {
            "Black"
        }
    ));
    let endings = EndingsJson::of(game);
    out.push_str(&format!(
        "Fifty-move counter: {}/{}   Can claim: {}{}\n",
        endings.fifty_move_counter,
        qc_rules::FIFTY_MOVE_PLIES,
        endings.claimable.unwrap_or("nothing"),
        endings
            .ended_by
            .map(|e| format!("   Ended by: {e} (every square measured)"))
            .unwrap_or_default()
    ));
    if let Some(counts) = shots {
        out.push_str("\nSampled boards (occupied squares; count):\n");
        for (board, n) in counts {
            out.push_str(&format!("  {n:>8}  {board}\n"));
        }
    }
    out
}

/// Samples full-board measurements of the final state from its exact board distribution; the key
/// lists the occupied squares with their pieces (`Ke1 Nc3 ...`).
fn sample_boards<B: Backend>(game: &Game<B>, shots: u64, seed: u64) -> BTreeMap<String, u64> {
    let boards = game.board_probabilities();
    let total: f64 = boards.iter().map(|(_, p)| p).sum();
    let mut rng = rng(seed ^ 0x5eed_5eed);
    let mut counts = BTreeMap::new();
    let report = progress::Progress::new("sampling boards", shots);
    for shot in 0..shots {
        let mut u = rng.gen::<f64>() * total;
        let mut chosen = boards.last().map(|(b, _)| *b).unwrap_or(0);
        for (b, p) in &boards {
            if u < *p {
                chosen = *b;
                break;
            }
            u -= p;
        }
        *counts.entry(describe_board(game, chosen)).or_insert(0) += 1;
        report.tick(shot + 1);
    }
    report.finish();
    counts
}

/// `Ke1 Nc3 ...` for the occupied squares of a bitboard, with the register's pieces.
fn describe_board<B: Backend>(game: &Game<B>, bitboard: u64) -> String {
    let names: Vec<String> = Square::ALL
        .into_iter()
        .filter(|s| bitboard >> s.index() & 1 == 1)
        .map(|s| match game.board().piece(s) {
            Some(p) => format!("{}{s}", p.fen_char()),
            None => format!("?{s}"),
        })
        .collect();
    if names.is_empty() {
        "(empty board)".into()
    } else {
        names.join(" ")
    }
}
