//! `qchess play --rules niels`: an interactive Niel's game, also scriptable through standard
//! input. A bad move or command prints an error and the game goes on.

use super::moves::grouped;
use super::simulate::{status_line, LEGEND};
use super::{rules_from, start_from, variant_name};
use crate::commands::play::PlayArgs;
use crate::output::write_stdout;
use crate::repl::{command_loop, moves_reply, save_reply};
use anyhow::{bail, Context};
use qc_rules::niels::{NielsGame, NielsRecord, NielsRules};
use qc_sim::ReferenceSparse;

const HELP: &str = "\
Type a Niel's move (e2e4, b1^a3c3, b1^a3b1:op, f6&d5f6@e4, f5e6, ~d4, Zd4, Hd4, e1*e5; see
docs/notation.md) or a command:
  moves        the legal moves, grouped by kind
  board        the board again
  fen          the position as Niel's FEN (pairs included)
  record       the game so far, every roll written in
  undo         take back the last move
  save FILE    write the game as a Niel's game file
  help         this text
  quit         leave
";

type Game = NielsGame<ReferenceSparse>;

fn show(game: &Game) -> String {
    format!(
        "{}{}",
        game.position().render(),
        status_line(game.position(), game.status())
    )
}

/// The game without its last move: replays the record (every roll recorded) minus one move.
fn undo(game: &Game, seed: u64) -> anyhow::Result<Game> {
    let history = game.history();
    if history.is_empty() {
        bail!("no move to take back");
    }
    let record: Vec<String> = history[..history.len() - 1]
        .iter()
        .map(|m| m.text())
        .collect();
    Ok(NielsGame::replay(
        game.initial_position().clone(),
        ReferenceSparse::new(),
        seed,
        &record.join(" "),
    )?)
}

/// Runs `play --rules niels`.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    if args.rules.random_plies.is_some() {
        bail!("--random-plies is not available with play");
    }
    let rules = rules_from(args.rules.variant.as_deref(), NielsRules::default())?;
    let start = start_from(args.fen.as_deref(), rules)?;
    let mut game = NielsGame::new(start, ReferenceSparse::new(), args.seed)
        .context("cannot set up the position")?;
    write_stdout(&format!(
        "qchess play, Niel's Chess ({}): type `help` for commands.\n\n{}",
        variant_name(rules),
        show(&game)
    ))?;
    command_loop(HELP, |words| {
        Some(match words {
            ["board"] => format!("{}{LEGEND}", show(&game)),
            ["fen"] => format!("{}\n", game.position().to_fen()),
            ["record"] => format!("{}\n", game.record()),
            ["moves"] => moves_reply(grouped(game.position())),
            // The replayed game restarts its dice from a seed of its own, so the rolls after an
            // undo differ from the ones taken back.
            ["undo"] => match undo(&game, args.seed ^ game.history().len() as u64) {
                Ok(previous) => {
                    let taken = game.history().last().map(|m| m.text()).unwrap_or_default();
                    game = previous;
                    format!("took back {taken}\n\n{}", show(&game))
                }
                Err(e) => format!("error: {e:#}\n"),
            },
            ["save", path] => {
                let tags = vec![
                    ("Variant".to_string(), variant_name(rules)),
                    ("FEN".to_string(), game.initial_position().to_fen()),
                ];
                save_reply(path, &NielsRecord::write(&tags, &game.record()))
            }
            [mv] => match game.play_text(mv) {
                Ok(played) => {
                    let rolls = if played.rolls.is_empty() {
                        String::new()
                    } else {
                        let r: Vec<String> = played.rolls.iter().map(ToString::to_string).collect();
                        format!(" (rolled: {})", r.join(", "))
                    };
                    format!("played {}{rolls}\n\n{}", played.text(), show(&game))
                }
                Err(e) => format!("error: {mv}: {e}\n"),
            },
            _ => return None,
        })
    })
}
