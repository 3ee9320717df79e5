//! `qchess play`: an interactive game on the terminal, also usable with a script piped into
//! standard input. Each line is a QCAN move or a command (`help` lists them). A bad move or
//! command prints an error and the game goes on; the exit code is 0 unless input cannot be read.

use crate::commands::moves::grouped_moves;
use crate::commands::simulate::{replayable, side_name, status_name};
use crate::game_input::LoadedGame;
use crate::output::write_stdout;
use crate::render::board_text;
use crate::repl::{command_loop, moves_reply, save_reply};
use crate::replay::rng;
use crate::views::board_view;
use anyhow::Context;
use clap::Args;
use qc_ir::{Backend, Square};
use qc_rules::{Board, Game, GameRecord, GameStatus, QcanMove};

/// Arguments of `qchess play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this position (standard FEN; default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Seed for measurement outcomes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[command(flatten)]
    pub rules: crate::game_input::RulesArgs,
}

const HELP: &str = "\
Type a move in QCAN (e2e4, g1^f3h3, f3h3^g1, e7e8Q, b1xc3, ...) or a command:
  moves            the legal moves, grouped by kind
  probs            the probability of every occupied square
  bell SQ1 SQ2     Bell-operator expectations O1..O8 and same/opposite for two squares
  fen              the classical register as FEN
  undo             take back the last move
  claim            claim threefold repetition: every square is measured, then a draw if both
                   kings survive, otherwise the usual result
  save FILE        write the game (with every outcome) to a game file
  help             this text
  quit             leave
";

/// Runs the command.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    if args.rules.is_niels()? {
        return crate::niels::play::run(args);
    }
    let start = match &args.fen {
        Some(fen) => Board::from_fen(fen).context("--fen")?,
        None => Board::start(),
    };
    let loaded = LoadedGame {
        source: "play".into(),
        record: GameRecord {
            start: start.clone(),
            ..GameRecord::default()
        },
    };
    let mut game =
        Game::new(start, qc_sim::ReferenceSparse::new()).context("cannot set up the position")?;
    let mut rng = rng(args.seed);
    write_stdout(&format!(
        "qchess play: type `help` for commands.\n\n{}",
        show(&game)
    ))?;
    command_loop(HELP, |words| {
        Some(match words {
            ["fen"] => format!("{}\n", game.board().to_fen()),
            ["moves"] => moves_reply(grouped_moves(&game)),
            ["probs"] => probs(&game),
            ["bell", a, b] => bell(&game, a, b),
            ["undo"] => match game.undo() {
                Ok(r) => format!("took back {}\n\n{}", r.qcan, show(&game)),
                Err(e) => format!("error: {e}\n"),
            },
            ["claim"] => {
                let mut uniform = || rand::Rng::gen::<f64>(&mut rng);
                match game.claim(&mut uniform).cloned() {
                    Ok(m) => format!(
                        "claimed {}: measured every square, board {:#018x}\n\n{}",
                        m.ending.as_str(),
                        m.bitboard,
                        show(&game)
                    ),
                    Err(e) => format!("error: {e}\n"),
                }
            }
            ["save", path] => save_reply(path, &replayable(&loaded.record, &game).to_string()),
            [mv] => match mv.parse::<QcanMove>() {
                Ok(qcan) => match game.play(&qcan, &mut rng) {
                    Ok(r) => {
                        let outcome = r
                            .outcome
                            .map(|o| format!(", outcome {}", u8::from(o)))
                            .unwrap_or_default();
                        let played =
                            format!("played {} ({} {}{outcome})", r.qcan, r.move_type, r.variant);
                        format!("{played}\n\n{}", show(&game))
                    }
                    Err(e) => format!("error: {mv}: {e}\n"),
                },
                Err(e) => format!("error: {e} (type `help` for commands)\n"),
            },
            _ => return None,
        })
    })
}

fn show<B: Backend>(game: &Game<B>) -> String {
    let status = match game.status() {
        GameStatus::Ongoing => format!(
            "{} to move",
            if side_name(game.board().side_to_move) == "w" {
                "White"
            } else {
                "Black"
            }
        ),
        other => format!("game over: {}", status_name(other)),
    };
    let claim = match game.claimable() {
        Some(ending) => format!(", may claim {}", ending.as_str()),
        None => String::new(),
    };
    format!(
        "{}{status}, state size {}, fifty-move counter {}{claim}\n",
        board_text::draw(&board_view(game, false)),
        game.state_size(),
        game.fifty_move_counter().plies
    )
}

fn probs<B: Backend>(game: &Game<B>) -> String {
    let view = board_view(game, false);
    let mut out = String::new();
    for sq in Square::ALL {
        if let Some(sv) = view.get(sq) {
            out.push_str(&format!("{sq} {} {:.4}\n", sv.piece, sv.probability));
        }
    }
    out
}

fn bell<B: Backend>(game: &Game<B>, a: &str, b: &str) -> String {
    let (Some(sa), Some(sb)) = (Square::parse(a), Square::parse(b)) else {
        return format!("error: `bell` takes two squares like `bell a3 c3`, got `{a}` `{b}`\n");
    };
    let o = game.bell(sa, sb);
    let (same, opposite) = game.same_opposite(sa, sb);
    let values: Vec<String> = o
        .iter()
        .enumerate()
        .map(|(i, v)| format!("O{}={v:.4}", i + 1))
        .collect();
    format!(
        "{}\nsame={same:.4} opposite={opposite:.4}\n",
        values.join(" ")
    )
}
