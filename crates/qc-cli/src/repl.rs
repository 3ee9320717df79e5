//! The interactive loop `play` runs, the same for every ruleset: read a line, answer it, until
//! end of input or `quit`. A line is a move in the ruleset's notation or one of the commands of
//! [`commands`], a table from which `help` is written too: a new command is one more entry.
//!
//! Lines are read with rustyline: on a terminal a prompt (the side to move), line editing and
//! the session's history (up and down arrows); from a pipe or a file plain lines, no prompt, so a
//! piped script gives the same output as before.

use crate::commands::moves::grouped_moves;
use crate::output::write_stdout;
use crate::status::{fen_text, game_over_text, move_table, status_line};
use qc_front::{Game, MoveView, SessionError};
use qc_ir::Choice;
use qc_render::{board_svg, board_text, text_circuit};
use qc_rules::{Square, SquarePair};
use rustyline::error::ReadlineError;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// A game being played interactively.
pub struct Repl {
    /// The game, with its dice.
    pub game: qc_front::Session,
    /// The game file the game was read from, loaded from or last saved to: where `save` without
    /// a file name writes.
    pub file: Option<PathBuf>,
}

/// One command of the loop.
pub struct Command<S> {
    /// The word that calls it.
    pub name: &'static str,
    /// Its arguments, for `help` (`SQ1 SQ2`).
    pub args: &'static str,
    /// How many arguments it takes.
    pub arity: RangeInclusive<usize>,
    /// What it does, for `help`.
    pub help: &'static str,
    /// Its answer to the arguments.
    pub run: fn(&mut S, &[&str]) -> String,
}

/// The commands, in the order `help` lists them.
pub fn commands() -> Vec<Command<Repl>> {
    vec![
        Command {
            name: "board",
            args: "",
            arity: 0..=0,
            help: "the board again",
            run: |s, _| show(&*s.game),
        },
        Command {
            name: "history",
            args: "",
            arity: 0..=0,
            help: "the moves played, with what every measurement gave and meant",
            run: |s, _| {
                let moves = s.game.moves();
                if moves.is_empty() {
                    "no move played yet\n".into()
                } else {
                    move_table(&moves)
                }
            },
        },
        Command {
            name: "moves",
            args: "[SQ]",
            arity: 0..=1,
            help: "the legal moves, grouped by kind; with SQ, those of the piece on SQ",
            run: |s, a| moves(&*s.game, a.first().copied()),
        },
        Command {
            name: "undo",
            args: "",
            arity: 0..=0,
            help: "take back the last move exactly (state, board, circuit)",
            run: |s, _| match s.game.undo() {
                Ok(m) => format!("took back {}\n\n{}", m.text, show(&*s.game)),
                Err(e) => format!("error: {e}\n"),
            },
        },
        Command {
            name: "probs",
            args: "",
            arity: 0..=0,
            help: "the probability of every occupied square",
            run: |s, _| probs(&*s.game),
        },
        Command {
            name: "bell",
            args: "SQ1 SQ2",
            arity: 2..=2,
            help: "Bell-operator expectations O1..O8 and same/opposite for two different squares",
            run: |s, a| bell(&*s.game, a[0], a[1]),
        },
        Command {
            name: "draw",
            args: "[N]",
            arity: 0..=1,
            help: "the circuit of the last move, or of move N (0 = the set-up)",
            run: |s, a| {
                let n = match a.first() {
                    Some(text) => match text.parse::<usize>() {
                        Ok(n) => n,
                        Err(_) => return format!("error: `draw` takes a move number, got `{text}`\n"),
                    },
                    None => s.game.moves().len(),
                };
                match s.game.drawing(Some(n), false) {
                    Ok((circuit, notes)) => match text_circuit::draw_with(
                        &circuit,
                        &notes,
                        text_circuit::TextOptions {
                            width: crate::output::terminal_width(),
                        },
                    ) {
                        Ok(text) => text,
                        Err(e) => format!("error: {e}\n"),
                    },
                    Err(e) => format!("error: {e:#}\n"),
                }
            },
        },
        Command {
            name: "svg",
            args: "FILE",
            arity: 1..=1,
            help: "write the board as an SVG picture (with links between correlated squares)",
            run: |s, a| match std::fs::write(a[0], board_svg::draw(&s.game.board_view(true))) {
                Ok(()) => format!("wrote {}\n", a[0]),
                Err(e) => format!("error: cannot write {}: {e}\n", a[0]),
            },
        },
        Command {
            name: "load",
            args: "FILE",
            arity: 1..=1,
            help: "continue a saved game: replay a game file (outcomes not written in are sampled)",
            run: |s, a| match load(s, a[0]) {
                Ok(()) => {
                    s.file = Some(PathBuf::from(a[0]));
                    format!("loaded {}\n\n{}", a[0], show(&*s.game))
                }
                Err(e) => format!("error: {e:#}\n"),
            },
        },
        Command {
            name: "save",
            args: "[FILE]",
            arity: 0..=1,
            help: "write the game (with every outcome) to a game file; without FILE, to the game's file or a new one",
            run: |s, a| save(s, a.first().copied()),
        },
        Command {
            name: "fen",
            args: "",
            arity: 0..=0,
            help: "the position as FEN (and the most likely board, when pieces are split)",
            run: |s, _| fen_text(&*s.game),
        },
        Command {
            name: "record",
            args: "",
            arity: 0..=0,
            help: "the game so far, every outcome written in",
            run: |s, _| format!("{}\n", s.game.record()),
        },
        Command {
            name: "random",
            args: "",
            arity: 0..=0,
            help: "play a random legal move",
            run: |s, _| match s.game.play_random() {
                Some(m) => played(&*s.game, &m),
                None => "error: no legal move\n".into(),
            },
        },
        Command {
            name: "claim",
            args: "",
            arity: 0..=0,
            help: "claim a draw (Quantum Chess: threefold repetition; every square is measured, then a draw if both kings survive)",
            run: |s, _| match s.game.claim() {
                Some(Ok(what)) => format!("{what}\n\n{}", show(&*s.game)),
                Some(Err(e)) => format!("error: {e}\n"),
                None => "error: nothing to claim: draws are automatic in this ruleset\n".into(),
            },
        },
    ]
}

/// Replaces the game with the one game file `path` holds, replayed on a fresh simulator; on
/// error the game stays as it was.
fn load(repl: &mut Repl, path: &str) -> anyhow::Result<()> {
    let (source, text) = crate::input::read_input(std::path::Path::new(path))?;
    repl.game
        .load(&source, &text)
        .map_err(crate::game_input::cli_error)
}

/// Writes the game to `name`, or without one to the session's file, or else to a new file
/// [`fresh_game_file`] names; says where. The file written becomes the session's file.
fn save(repl: &mut Repl, name: Option<&str>) -> String {
    let extension = repl.game.game_file_extension();
    let (path, why) = match (name, &repl.file) {
        (Some(name), _) => (PathBuf::from(name), ""),
        (None, Some(file)) => (file.clone(), " (the game's file)"),
        (None, None) => match fresh_game_file(Path::new(""), extension) {
            Some(path) => (path, " (a new file: `save FILE` names one)"),
            None => {
                return format!(
                    "error: game.{extension} to game-{MAX_FRESH_FILES}.{extension} all exist: name the file, `save FILE`\n",
                )
            }
        },
    };
    let text = repl.game.game_file(false);
    match std::fs::write(&path, text) {
        Ok(()) => {
            let shown = format!("saved to {}{why}\n", path.display());
            repl.file = Some(path);
            shown
        }
        Err(e) => format!("error: cannot write {}: {e}\n", path.display()),
    }
}

/// How many names [`fresh_game_file`] tries.
const MAX_FRESH_FILES: usize = 99;

/// The first of `game.EXT`, `game-2.EXT`, ... `game-99.EXT` in `dir` (`""`: the current
/// directory) that does not exist, so that `save` without a name never overwrites a file it did
/// not write.
fn fresh_game_file(dir: &Path, extension: &str) -> Option<PathBuf> {
    (1..=MAX_FRESH_FILES)
        .map(|k| match k {
            1 => format!("game.{extension}"),
            k => format!("game-{k}.{extension}"),
        })
        .map(|name| dir.join(name))
        .find(|path| !path.exists())
}

/// The text of `help`: the ruleset's notation by example, then the commands.
fn help<S>(game: &dyn Game, table: &[Command<S>]) -> String {
    let rules = game.rules();
    let mut out = format!(
        "Type a move in {} notation (docs/notation.md has all of it), for example:\n",
        rules.name()
    );
    for (example, meaning) in rules.notation_examples() {
        out.push_str(&format!("  {example:<16} {meaning}\n"));
    }
    out.push_str("or a command:\n");
    for c in table {
        let call = format!("{} {}", c.name, c.args);
        out.push_str(&format!("  {call:<16} {}\n", c.help));
    }
    out.push_str("  help             this text\n  quit             leave (also `exit`, Ctrl-D)\n");
    out
}

/// The command names, for the answer to input that is neither a command nor a move.
fn command_list<S>(table: &[Command<S>]) -> String {
    let names: Vec<&str> = table
        .iter()
        .map(|c| c.name)
        .chain(["help", "quit"])
        .collect();
    names.join(", ")
}

/// True when a word the move reader refused still names a square (every move of every
/// ruleset names one, so it has a digit), so that the reader's error is the useful answer; any
/// other word is taken for a mistyped command.
fn names_a_square(word: &str) -> bool {
    word.bytes().any(|b| b.is_ascii_digit())
}

/// The prompt: whose move it is, or that the game is over.
fn prompt(game: &dyn Game) -> String {
    if game.status().is_over() {
        "game over> ".into()
    } else {
        format!("{}> ", game.side_to_move().name())
    }
}

/// The answer to one input line; `None` for `quit`.
fn answer(repl: &mut Repl, table: &[Command<Repl>], line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    Some(match words.as_slice() {
        [] => String::new(),
        ["quit"] | ["exit"] => return None,
        ["help"] => help(&*repl.game, table),
        [name, args @ ..] => match table.iter().find(|c| c.name == *name) {
            Some(c) if c.arity.contains(&args.len()) => (c.run)(repl, args),
            Some(c) => format!(
                "error: usage: {} ({})\n",
                format!("{} {}", c.name, c.args).trim_end(),
                c.help
            ),
            // The ruleset's move reader decides what is a move; the move read is played as is.
            None if args.is_empty() => match repl.game.play(name) {
                Ok(m) => played(&*repl.game, &m),
                Err(e) if unread(&e) && !names_a_square(name) => neither(line, table),
                Err(e) => format!("error: {name}: {e}\n"),
            },
            None => neither(line, table),
        },
    })
}

/// True when the move reader refused the text (as opposed to the rules refusing the move).
fn unread(error: &SessionError) -> bool {
    error
        .rules_error()
        .is_some_and(|e| e.kind() == qc_front::ErrorKind::Notation)
}

/// The answer to a line that is neither a command nor a move.
fn neither<S>(line: &str, table: &[Command<S>]) -> String {
    format!(
        "error: `{line}` is neither a move nor a command. Type a move (like e2e4; `help` shows the notation) or one of: {}\n",
        command_list(table)
    )
}

/// The answer to `moves` (every legal move) and `moves SQ` (those of the piece on SQ: the
/// moves that start on SQ).
fn moves(game: &dyn Game, square: Option<&str>) -> String {
    if let Some(over) = game_over_text(game) {
        return over;
    }
    let groups = match square {
        None => grouped_moves(game, |_| true),
        Some(text) => {
            let Some(square) = Square::parse(text) else {
                return format!("error: `moves` takes a square like `moves e2`, got `{text}`\n");
            };
            let groups = grouped_moves(game, |mv| mv.squares.sources.contains(&square));
            if groups.is_empty() {
                return format!("no legal move starts on {square}\n");
            }
            groups
        }
    };
    groups
        .into_iter()
        .map(|(kind, list)| format!("{kind}: {}\n", list.join(" ")))
        .collect()
}

/// Reads lines until end of input, `quit` or `exit`, answering each: blank lines are skipped, a
/// command runs, a word the ruleset reads as a move is played. Ctrl-C drops the line being typed.
pub fn run(repl: &mut Repl) -> anyhow::Result<()> {
    let table = commands();
    let mut editor = rustyline::DefaultEditor::new()?;
    loop {
        let line = match editor.readline(&prompt(&*repl.game)) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(anyhow::Error::new(e).context("cannot read standard input")),
        };
        if !line.trim().is_empty() {
            // History is a convenience: a line it cannot keep is still answered.
            let _kept = editor.add_history_entry(line.as_str());
        }
        match answer(repl, &table, &line) {
            Some(reply) => write_stdout(&reply)?,
            None => break,
        }
    }
    Ok(())
}

/// What is printed after a move.
fn played(game: &dyn Game, m: &MoveView) -> String {
    format!(
        "played {} ({} {})\n\n{}",
        m.text,
        m.kind,
        m.detail,
        show(game)
    )
}

/// The board and the status.
pub fn show(game: &dyn Game) -> String {
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

fn probs(game: &dyn Game) -> String {
    let view = game.board_view(false);
    view.board_squares()
        .filter_map(|sq| {
            view.get(sq)
                .map(|sv| format!("{sq} {} {:.4}\n", sv.piece, sv.probability))
        })
        .collect()
}

fn bell(game: &dyn Game, a: &str, b: &str) -> String {
    let (Some(sa), Some(sb)) = (Square::parse(a), Square::parse(b)) else {
        return format!("error: `bell` takes two squares like `bell a3 c3`, got `{a}` `{b}`\n");
    };
    let pair = match SquarePair::new(sa, sb) {
        Ok(pair) => pair,
        Err(e) => return format!("error: {e}\n"),
    };
    let Some((o, (same, opposite))) = game.bell(pair) else {
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

/// Starts playing `game` interactively and announces it; `file` is where `save` writes.
pub fn start(game: qc_front::Session, file: Option<PathBuf>) -> anyhow::Result<Repl> {
    let options = game
        .options_name()
        .map(|o| format!(" ({o})"))
        .unwrap_or_default();
    write_stdout(&format!(
        "qchess play, rules {}{options}: type `help` for commands.\n\n{}",
        game.rules().name(),
        show(&*game)
    ))?;
    Ok(Repl { game, file })
}
