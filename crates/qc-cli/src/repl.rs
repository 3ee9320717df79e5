//! The interactive loop `play` runs, the same for every ruleset: read a line, answer it, until
//! end of input or `quit`. A line is a move in the ruleset's notation or one of the commands of
//! [`commands`], a table from which `help` is written too: a new command is one more entry.

use crate::commands::moves::grouped_moves;
use crate::game_input::{pick_rng, play_random};
use crate::output::write_stdout;
use crate::status::{fen_text, game_over_text, status_line};
use anyhow::Context;
use qc_ir::{Backend, Square};
use qc_render::board_text;
use qc_rules::{MoveView, QuantumGame, Ruleset};
use std::io::BufRead;

/// A game being played interactively.
pub struct Session<R: Ruleset, B: Backend> {
    /// The game.
    pub game: R::Game<B>,
    /// Where sampled outcomes come from.
    pub dice: rand_chacha::ChaCha8Rng,
    /// Where `random` picks its moves from.
    pub pick: rand_chacha::ChaCha8Rng,
    /// The start position (for `save`).
    pub start: R::Start,
}

/// One command of the loop.
pub struct Command<S> {
    /// The word that calls it.
    pub name: &'static str,
    /// Its arguments, for `help` (`SQ1 SQ2`).
    pub args: &'static str,
    /// How many arguments it takes.
    pub arity: usize,
    /// What it does, for `help`.
    pub help: &'static str,
    /// Its answer to the arguments.
    pub run: fn(&mut S, &[&str]) -> String,
}

/// The commands, in the order `help` lists them.
pub fn commands<R: Ruleset, B: Backend>() -> Vec<Command<Session<R, B>>> {
    vec![
        Command {
            name: "moves",
            args: "",
            arity: 0,
            help: "the legal moves, grouped by kind",
            run: |s, _| match game_over_text(&s.game) {
                Some(over) => over,
                None => grouped_moves(&s.game)
                    .into_iter()
                    .map(|(kind, list)| format!("{kind}: {}\n", list.join(" ")))
                    .collect(),
            },
        },
        Command {
            name: "board",
            args: "",
            arity: 0,
            help: "the board again",
            run: |s, _| show(&s.game),
        },
        Command {
            name: "probs",
            args: "",
            arity: 0,
            help: "the probability of every occupied square",
            run: |s, _| probs(&s.game),
        },
        Command {
            name: "bell",
            args: "SQ1 SQ2",
            arity: 2,
            help: "Bell-operator expectations O1..O8 and same/opposite for two squares",
            run: |s, a| bell(&s.game, a[0], a[1]),
        },
        Command {
            name: "fen",
            args: "",
            arity: 0,
            help: "the position as FEN (and the most likely board, when pieces are split)",
            run: |s, _| fen_text(&s.game),
        },
        Command {
            name: "record",
            args: "",
            arity: 0,
            help: "the game so far, every outcome written in",
            run: |s, _| format!("{}\n", s.game.record()),
        },
        Command {
            name: "random",
            args: "",
            arity: 0,
            help: "play a random legal move",
            run: |s, _| match play_random(&mut s.game, &mut s.pick, &mut s.dice) {
                Ok(true) => match s.game.moves().last() {
                    Some(m) => played(&s.game, m),
                    None => "error: no move was recorded\n".into(),
                },
                Ok(false) => "error: no legal move\n".into(),
                Err(e) => format!("error: {e:#}\n"),
            },
        },
        Command {
            name: "undo",
            args: "",
            arity: 0,
            help: "take back the last move exactly (state, board, circuit)",
            run: |s, _| match s.game.undo() {
                Ok(m) => format!("took back {}\n\n{}", m.text, show(&s.game)),
                Err(e) => format!("error: {e}\n"),
            },
        },
        Command {
            name: "claim",
            args: "",
            arity: 0,
            help: "claim a draw (Quantum Chess: threefold repetition; every square is measured, then a draw if both kings survive)",
            run: |s, _| match s.game.claim(&mut s.dice) {
                Some(Ok(what)) => format!("{what}\n\n{}", show(&s.game)),
                Some(Err(e)) => format!("error: {e}\n"),
                None => "error: nothing to claim: draws are automatic in this ruleset\n".into(),
            },
        },
        Command {
            name: "save",
            args: "FILE",
            arity: 1,
            help: "write the game (with every outcome) to a game file",
            run: |s, a| {
                let text = R::write_game(&[], &s.start, &s.game);
                match std::fs::write(a[0], text) {
                    Ok(()) => format!("saved to {}\n", a[0]),
                    Err(e) => format!("error: cannot write {}: {e}\n", a[0]),
                }
            },
        },
    ]
}

/// The text of `help`.
fn help<S>(table: &[Command<S>]) -> String {
    let mut out = String::from(
        "Type a move in the ruleset's notation (see docs/notation.md) or a command:\n",
    );
    for c in table {
        let call = format!("{} {}", c.name, c.args);
        out.push_str(&format!("  {call:<16} {}\n", c.help));
    }
    out.push_str("  help             this text\n  quit             leave\n");
    out
}

/// Reads lines from standard input until end of input, `quit` or `exit`, answering each:
/// blank lines are skipped, a command runs, any other single word is played as a move.
pub fn run<R: Ruleset, B: Backend>(session: &mut Session<R, B>) -> anyhow::Result<()> {
    let table = commands::<R, B>();
    for line in std::io::stdin().lock().lines() {
        let line = line.context("cannot read standard input")?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            [] => continue,
            ["quit"] | ["exit"] => break,
            ["help"] => help(&table),
            [name, args @ ..] => match table.iter().find(|c| c.name == *name) {
                Some(c) if c.arity == args.len() => (c.run)(session, args),
                Some(c) => format!("error: `{}` takes {} ({})\n", c.name, c.args, c.help),
                None if args.is_empty() => match session.game.play_text(name, &mut session.dice) {
                    Ok(m) => played(&session.game, &m),
                    Err(e) => format!("error: {name}: {e}\n"),
                },
                None => format!("error: unknown command `{line}` (type `help`)\n"),
            },
        };
        write_stdout(&reply)?;
    }
    Ok(())
}

/// What is printed after a move.
fn played<G: QuantumGame>(game: &G, m: &MoveView) -> String {
    format!(
        "played {} ({} {})\n\n{}",
        m.text,
        m.kind,
        m.detail,
        show(game)
    )
}

/// The board and the status.
pub fn show<G: QuantumGame>(game: &G) -> String {
    let status = status_line(game);
    let note = game
        .endings_note()
        .map(|n| format!("{n}\n"))
        .unwrap_or_default();
    format!(
        "{}{status}, state size {}\n{note}",
        board_text::draw(&game.board_view(false)),
        game.state_size()
    )
}

fn probs<G: QuantumGame>(game: &G) -> String {
    let view = game.board_view(false);
    view.board_squares()
        .filter_map(|sq| {
            view.get(sq)
                .map(|sv| format!("{sq} {} {:.4}\n", sv.piece, sv.probability))
        })
        .collect()
}

fn bell<G: QuantumGame>(game: &G, a: &str, b: &str) -> String {
    let (Some(sa), Some(sb)) = (Square::parse(a), Square::parse(b)) else {
        return format!("error: `bell` takes two squares like `bell a3 c3`, got `{a}` `{b}`\n");
    };
    let Some((o, (same, opposite))) = game.bell(sa, sb) else {
        return "error: `bell` needs squares that are qubits (Quantum Chess)\n".into();
    };
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

/// Starts a session on `game` and announces it.
pub fn start<R: Ruleset, B: Backend>(
    game: R::Game<B>,
    start: R::Start,
    seed: u64,
) -> anyhow::Result<Session<R, B>> {
    let options = R::options_name(&start)
        .map(|o| format!(" ({o})"))
        .unwrap_or_default();
    write_stdout(&format!(
        "qchess play, rules {}{options}: type `help` for commands.\n\n{}",
        R::NAME,
        show(&game)
    ))?;
    Ok(Session {
        game,
        dice: crate::game_input::rng(seed),
        pick: pick_rng(seed),
        start,
    })
}
