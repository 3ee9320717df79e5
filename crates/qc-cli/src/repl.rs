//! The interactive loop `play` runs, the same for every ruleset: read a line, answer it, until
//! end of input or `quit`. A line is a move in the ruleset's notation or one of the commands of
//! [`commands`], a table from which `help` is written too: a new command is one more entry.
//! With an engine side (`--engine`), the engine answers whenever that side is to move.
//!
//! Lines are read with rustyline: on a terminal a prompt (the side to move), line editing and
//! the session's history (up and down arrows); from a pipe or a file plain lines, no prompt, so a
//! piped script gives the same output as before.

use crate::commands::moves::grouped_moves;
use crate::interrupt::interruptible;
use crate::output::write_stdout;
use crate::status::{fen_text, game_over_text, move_table, status_with_counters};
use qc_front::{san_hint, Game, MoveView, SanHint, SessionError};
use qc_ir::Choice;
use qc_render::{board_svg, board_text, text_circuit};
use qc_rules::{Color, MoveRef, Square, SquarePair};
use rustyline::error::ReadlineError;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a session plays, besides its game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The side the engine plays (`None`: the engine moves only on `go`).
    pub engine: Option<Color>,
    /// The engine's time per move.
    pub movetime: Duration,
    /// One status line after a move instead of the board.
    pub compact: bool,
    /// Standard input is a terminal: a question (overwrite a file?) waits for the answer.
    pub interactive: bool,
}

/// A game being played interactively.
pub struct Repl {
    /// The game, with its dice.
    pub game: qc_front::Session,
    /// The game file the game was read from, loaded from or last saved to: where `save` without
    /// a file name writes.
    pub file: Option<PathBuf>,
    /// How it plays.
    pub settings: Settings,
    /// The files this session wrote (as the file system names them): `save` overwrites them
    /// without asking.
    written: Vec<PathBuf>,
    /// The file `save` asked to overwrite, waiting for the player's `y` (interactive only).
    pending: Option<PathBuf>,
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

/// The hash table size of the engine's search (the web page's).
const ENGINE_TABLE_BYTES: usize = qc_web::game::ENGINE_TABLE_BYTES;

/// The longest time per move `go MS` takes (ten minutes), as `--movetime` does.
pub const MAX_MOVETIME_MS: u64 = 600_000;

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
                    move_table(&moves, s.game.first_ply())
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
            help: "take back the last move exactly (against the engine: back to your move); played again, a move gets the outcome it had",
            run: undo,
        },
        Command {
            name: "reroll",
            args: "",
            arity: 0..=0,
            help: "forget the outcomes of the moves taken back, so that played again they draw new ones",
            run: |s, _| match s.game.forget_outcomes() {
                0 => "no outcome remembered: no move was taken back\n".into(),
                n => format!(
                    "forgot the outcomes of {n} move(s) taken back: played again, they draw new outcomes\n"
                ),
            },
        },
        Command {
            name: "go",
            args: "[MS]",
            arity: 0..=1,
            help: "let the engine play the side to move (within MS milliseconds, default --movetime; Ctrl-C: play now)",
            run: |s, a| {
                let movetime = match a.first() {
                    None => s.settings.movetime,
                    Some(text) => match text.parse::<u64>() {
                        Ok(ms @ 1..=MAX_MOVETIME_MS) => Duration::from_millis(ms),
                        _ => {
                            return format!(
                                "error: `go` takes a time in milliseconds from 1 to {MAX_MOVETIME_MS}, got `{text}`\n"
                            )
                        }
                    },
                };
                engine_move(s, movetime)
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
            help: "the circuit of the last move, or of move N (5 or 5. White's fifth, 5... Black's, 0 the set-up)",
            run: |s, a| draw(&*s.game, a.first().copied()),
        },
        Command {
            name: "svg",
            args: "FILE",
            arity: 1..=1,
            help: "write the board as an SVG picture (with links between correlated squares)",
            run: |s, a| match std::fs::write(a[0], board_svg::draw(&s.game.board_view(true))) {
                Ok(()) => {
                    s.wrote(Path::new(a[0]));
                    format!("wrote {}\n", a[0])
                }
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
            help: "write the game (every outcome, the file's tags and comments) to a game file; without FILE, to the game's file or a new one; a file this session did not write is overwritten only when you say so",
            run: |s, a| save(s, a.first().copied(), false),
        },
        Command {
            name: "save!",
            args: "[FILE]",
            arity: 0..=1,
            help: "save, overwriting the file even if this session did not write it",
            run: |s, a| save(s, a.first().copied(), true),
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
                Some(m) => played(s, &m),
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
        Command {
            name: "compact",
            args: "[on|off]",
            arity: 0..=1,
            help: "after a move, one status line instead of the board (`board` shows it); without on/off, switch",
            run: |s, a| {
                let on = match a.first().copied() {
                    None => !s.settings.compact,
                    Some("on") => true,
                    Some("off") => false,
                    Some(other) => {
                        return format!("error: `compact` takes on or off, got `{other}`\n")
                    }
                };
                s.settings.compact = on;
                if on {
                    "compact: one status line after a move (`board` shows the board)\n".into()
                } else {
                    "compact off: the board after every move\n".into()
                }
            },
        },
    ]
}

impl Repl {
    /// Notes that this session wrote `path`.
    fn wrote(&mut self, path: &Path) {
        if let Ok(real) = std::fs::canonicalize(path) {
            if !self.written.contains(&real) {
                self.written.push(real);
            }
        }
    }

    /// Whether `path` is a file this session wrote (or no file at all).
    fn may_overwrite(&self, path: &Path) -> bool {
        match std::fs::canonicalize(path) {
            Ok(real) => self.written.contains(&real),
            Err(_) => !path.exists(),
        }
    }
}

/// `undo`: takes back the last move; against the engine, also the engine's reply before it, so
/// that it is the player's move again.
fn undo(repl: &mut Repl, _: &[&str]) -> String {
    let mut taken: Vec<String> = Vec::new();
    loop {
        match repl.game.undo() {
            Ok(m) => taken.push(m.text),
            Err(e) if taken.is_empty() => return format!("error: {e}\n"),
            Err(_) => break,
        }
        if repl.settings.engine != Some(repl.game.side_to_move()) {
            break;
        }
    }
    format!("took back {}\n{}", taken.join(" "), after_move(repl))
}

/// `draw [N]`: the circuit of the last move, or of move N in chess numbering.
fn draw(game: &dyn Game, which: Option<&str>) -> String {
    let moves = game.moves().len();
    let n = match which {
        Some(text) => match text
            .parse::<MoveRef>()
            .and_then(|r| r.ply_index(game.first_ply(), moves))
        {
            Ok(n) => n,
            Err(e) => return format!("error: `draw`: {e}\n"),
        },
        None => moves,
    };
    match game.drawing(Some(n), false) {
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
}

/// Replaces the game with the one game file `path` holds, replayed on a fresh simulator; on
/// error the game stays as it was.
fn load(repl: &mut Repl, path: &str) -> anyhow::Result<()> {
    let (source, text) = crate::input::read_input(std::path::Path::new(path))?;
    repl.game
        .load(&source, &text)
        .map_err(crate::game_input::cli_error)
}

/// `save [FILE]` (`force`: `save! [FILE]`): writes the game to FILE, or without one to the
/// session's file, or else to a new file [`fresh_game_file`] names; says where. A file that
/// exists and that this session did not write is overwritten only with `force`, or (on a
/// terminal) once the player answers `y`. The file written becomes the session's file.
fn save(repl: &mut Repl, name: Option<&str>, force: bool) -> String {
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
    if !force && !repl.may_overwrite(&path) {
        let shown = path.display();
        if repl.settings.interactive {
            repl.pending = Some(path.clone());
            return format!("{shown}{why} exists, and this session did not write it.\n");
        }
        let again = name.map(|n| format!(" {n}")).unwrap_or_default();
        return format!(
            "error: {shown}{why} exists, and this session did not write it: not saved. `save!{again}` overwrites it; `save OTHER.{extension}` writes another file\n"
        );
    }
    write_game(repl, &path, why)
}

/// Writes the game file to `path` and makes it the session's file.
fn write_game(repl: &mut Repl, path: &Path, why: &str) -> String {
    let text = repl.game.game_file(true);
    match std::fs::write(path, text) {
        Ok(()) => {
            repl.wrote(path);
            repl.file = Some(path.to_path_buf());
            format!("saved to {}{why}\n", path.display())
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
    out.push_str(
        "Moves name their squares, from then to: Nf3 is g1f3, e4 is e2e4, O-O is e1g1.\nor a command:\n",
    );
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

/// The prompt: the question waiting for an answer, else whose move it is, or that the game is
/// over.
fn prompt(repl: &Repl) -> String {
    if let Some(path) = &repl.pending {
        return format!("overwrite {}? [y/N] ", path.display());
    }
    if repl.game.status().is_over() {
        "game over> ".into()
    } else {
        format!("{}> ", repl.game.side_to_move().name())
    }
}

/// The answer to one input line; `None` for `quit`.
fn answer(repl: &mut Repl, table: &[Command<Repl>], line: &str) -> Option<String> {
    if let Some(path) = repl.pending.take() {
        return Some(match line.trim() {
            "y" | "Y" | "yes" => write_game(repl, &path, ""),
            _ => format!("not saved: {} is left as it was\n", path.display()),
        });
    }
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
                Ok(m) => played(repl, &m),
                Err(e) if unread(&e) => match san_hint(&*repl.game, name) {
                    Some(hint) => san_answer(repl, hint),
                    None if !names_a_square(name) => neither(line, table),
                    None => format!("error: {name}: {e}\n"),
                },
                Err(e) => format!("error: {name}: {e}\n"),
            },
            None => neither(line, table),
        },
    })
}

/// The answer to a chess player's algebraic notation: the move in the game's notation, and for
/// a castling the rules refuse, their reason (which names the move that lost the right).
fn san_answer(repl: &mut Repl, hint: SanHint) -> String {
    let SanHint::IllegalCastling { san, king_move } = &hint else {
        return format!("error: {hint}\n");
    };
    match repl.game.play(king_move) {
        Err(e) => format!("error: {hint}; the rules refuse it: {e}\n"),
        // The rules list no such move, so this does not happen; played, it is taken back.
        Ok(_) => {
            let _ = repl.game.undo();
            format!("error: {san} is {king_move} here: type {king_move}\n")
        }
    }
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

/// The engine's move for the side to move, within `movetime` (Ctrl-C plays the best move found
/// so far): says that it thinks, then what it played and what its search found.
fn engine_move(repl: &mut Repl, movetime: Duration) -> String {
    if let Some(over) = game_over_text(&*repl.game) {
        return over;
    }
    let side = repl.game.side_to_move().name();
    let limits = qc_engine::Limits::move_time(movetime);
    let game = &mut repl.game;
    let found = interruptible(|stop| {
        // Said before the search, so that a player sees why nothing happens for a while; once
        // it is said, Ctrl-C stops the search.
        let _shown = write_stdout(&format!(
            "engine ({side}) thinking, up to {:.1} s (Ctrl-C: play the best move found so far)\n",
            movetime.as_secs_f64()
        ));
        game.engine_move(&limits, ENGINE_TABLE_BYTES, stop)
    });
    match found {
        Err(e) => format!("error: {e:#}\n"),
        Ok(Err(e)) => format!("error: the engine: {e}\n"),
        Ok(Ok(None)) => "error: the engine has no move to play\n".into(),
        Ok(Ok(Some(reply))) => format!(
            "engine ({side}) played {} ({} {}): depth {}, score {:+.2}, {} nodes, {:.2} s\n{}",
            reply.played.text,
            reply.played.kind,
            reply.played.detail,
            reply.depth,
            reply.score,
            reply.nodes,
            reply.time.as_secs_f64(),
            after_move(repl)
        ),
    }
}

/// The engine's move when it is the engine side's turn (and the game goes on), else nothing.
fn engine_turn(repl: &mut Repl) -> Option<String> {
    let engine = repl.settings.engine?;
    let turn = !repl.game.status().is_over() && repl.game.side_to_move() == engine;
    turn.then(|| engine_move(repl, repl.settings.movetime))
}

/// Reads lines until end of input, `quit` or `exit`, answering each: blank lines are skipped, a
/// command runs, a word the ruleset reads as a move is played, and the engine side answers when
/// it is to move. Ctrl-C drops the line being typed.
pub fn run(repl: &mut Repl) -> anyhow::Result<()> {
    let table = commands();
    let mut editor = rustyline::DefaultEditor::new()?;
    if let Some(reply) = engine_turn(repl) {
        write_stdout(&reply)?;
    }
    loop {
        let line = match editor.readline(&prompt(repl)) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(anyhow::Error::new(e).context("cannot read standard input")),
        };
        if !line.trim().is_empty() && repl.pending.is_none() {
            // History is a convenience: a line it cannot keep is still answered.
            let _kept = editor.add_history_entry(line.as_str());
        }
        match answer(repl, &table, &line) {
            Some(reply) => write_stdout(&reply)?,
            None => break,
        }
        if let Some(reply) = engine_turn(repl) {
            write_stdout(&reply)?;
        }
    }
    Ok(())
}

/// What is printed after a move.
fn played(repl: &Repl, m: &MoveView) -> String {
    format!(
        "played {} ({} {})\n{}",
        m.text,
        m.kind,
        m.detail,
        after_move(repl)
    )
}

/// What follows a move: the board and the status, or one status line when compact.
fn after_move(repl: &Repl) -> String {
    if repl.settings.compact {
        status_with_counters(&*repl.game, "   ")
    } else {
        format!("\n{}", show(&*repl.game))
    }
}

/// The board and the status.
pub fn show(game: &dyn Game) -> String {
    format!(
        "{}{}",
        board_text::draw(&game.board_view(false)),
        status_with_counters(game, "\n")
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

/// Starts playing `game` interactively and announces it (the ruleset, the seed that replays its
/// outcomes, the engine's side); `file` is where `save` writes.
pub fn start(
    game: qc_front::Session,
    file: Option<PathBuf>,
    settings: Settings,
) -> anyhow::Result<Repl> {
    let options = game
        .options_name()
        .map(|o| format!(" ({o})"))
        .unwrap_or_default();
    let engine = settings
        .engine
        .map(|side| {
            format!(
                "The engine plays {} ({:.1} s a move).\n",
                side.name(),
                settings.movetime.as_secs_f64()
            )
        })
        .unwrap_or_default();
    write_stdout(&format!(
        "qchess play, rules {}{options}, seed {seed} (`--seed {seed}` replays these outcomes): type `help` for commands.\n{engine}\n{}",
        game.rules().name(),
        show(&*game),
        seed = game.seed(),
    ))?;
    Ok(Repl {
        game,
        file,
        settings,
        written: Vec::new(),
        pending: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_front::{GameInput, RulesKind, Session, SessionSpec};

    fn repl(dir: &Path, interactive: bool) -> Repl {
        let spec = SessionSpec {
            rules: RulesKind::Cantwell,
            ..SessionSpec::default()
        };
        let game = Session::open(&spec, GameInput::START, 0).expect("opens");
        let settings = Settings {
            engine: None,
            movetime: Duration::from_millis(10),
            compact: true,
            interactive,
        };
        let _ = std::fs::create_dir_all(dir);
        Repl {
            game,
            file: Some(dir.join("theirs.qcg")),
            settings,
            written: Vec::new(),
            pending: None,
        }
    }

    /// On a terminal, `save` onto a file the session did not write asks first: `n` (or
    /// anything but `y`) leaves it, `y` overwrites it; a file the session wrote is overwritten
    /// without a question.
    #[test]
    fn on_a_terminal_save_asks_before_overwriting_a_file_it_did_not_write() {
        let dir = std::env::temp_dir().join(format!("qchess-repl-ask-{}", std::process::id()));
        let mut r = repl(&dir, true);
        let theirs = dir.join("theirs.qcg");
        std::fs::write(&theirs, "someone's game").expect("write");
        let table = commands();
        let say = |r: &mut Repl, line: &str| answer(r, &table, line).expect("an answer");
        say(&mut r, "e2e4");
        let asked = say(&mut r, "save");
        assert!(
            asked.contains("exists, and this session did not write it"),
            "{asked}"
        );
        assert!(prompt(&r).starts_with("overwrite "), "{}", prompt(&r));
        assert!(say(&mut r, "n").starts_with("not saved"));
        assert_eq!(
            std::fs::read_to_string(&theirs).ok().as_deref(),
            Some("someone's game")
        );
        say(&mut r, "save");
        assert!(say(&mut r, "y").starts_with("saved to"));
        assert_eq!(
            std::fs::read_to_string(&theirs).ok().as_deref(),
            Some("1. e2e4\n")
        );
        // Written by this session: saved again without a question.
        say(&mut r, "e7e5");
        assert!(say(&mut r, "save").starts_with("saved to"));
        assert!(r.pending.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
