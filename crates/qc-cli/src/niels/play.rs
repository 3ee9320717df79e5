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

/// Runs `play --rules niels`.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    if args.rules.random_plies.is_some() {
        bail!("--random-plies is not available with play");
    }
    let rules = rules_from(args.rules.variant.as_deref(), NielsRules::default())?;
    let start = start_from(args.fen.as_deref(), rules)?;
    let mut game =
        NielsGame::new(start, ReferenceSparse::new()).context("cannot set up the position")?;
    let mut dice = crate::replay::rng(args.seed);
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
            ["undo"] => match game.undo() {
                Ok(taken) => format!("took back {}\n\n{}", taken.text(), show(&game)),
                Err(e) => format!("error: {e}\n"),
            },
            ["save", path] => {
                let tags = vec![
                    ("Variant".to_string(), variant_name(rules)),
                    ("FEN".to_string(), game.initial_position().to_fen()),
                ];
                save_reply(path, &NielsRecord::write(&tags, &game.record()))
            }
            [mv] => match game.play_text(mv, &mut dice) {
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
