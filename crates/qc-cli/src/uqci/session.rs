//! One UQCI session: the options, the game, and one handler per command (docs/uqci.md).
//!
//! The engine is Quantum Chess on the sparse simulator, reached through [`Engine`] (the seam
//! where the common ruleset interface will plug in once every command runs on it).

use super::search::{best_move, MAX_DEPTH};
use crate::commands::simulate::side_name;
use qc_ir::Square;
use qc_rules::{Board, Game, GameStatus, QcanMove};
use qc_sim::SparseSim;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The game the session drives.
pub type Engine = Game<SparseSim>;

/// What the loop does after a command.
pub enum Reply {
    /// Write these lines (possibly none) and read the next command.
    Lines(Vec<String>),
    /// End the session.
    Quit,
}

/// The session's options (`setoption`).
#[derive(Copy, Clone, Debug)]
struct Options {
    force_turn: bool,
    force_win: bool,
    force_measure: bool,
    seed: u64,
}

/// The position as the last `position` command gave it.
#[derive(Clone, Debug)]
struct Position {
    start: Board,
    moves: Vec<QcanMove>,
}

/// A UQCI session.
pub struct Session {
    options: Options,
    position: Position,
    game: Engine,
    rng: ChaCha8Rng,
}

/// The reply to a command that went wrong.
fn error(text: impl std::fmt::Display) -> Reply {
    Reply::Lines(vec![format!("info string error {text}")])
}

fn lines(lines: Vec<String>) -> Reply {
    Reply::Lines(lines)
}

impl Session {
    /// A session at the standard start, outcomes seeded with `seed`.
    pub fn new(seed: u64) -> Session {
        let options = Options {
            force_turn: false,
            force_win: false,
            force_measure: true,
            seed,
        };
        let position = Position {
            start: Board::start(),
            moves: Vec::new(),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = build(&position, options, &mut rng)
            .unwrap_or_else(|_| unreachable!("the standard start is a valid position"));
        Session {
            options,
            position,
            game,
            rng,
        }
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return lines(Vec::new());
        };
        match command {
            "uci" => lines(uci_lines()),
            "isready" => lines(vec!["readyok".into()]),
            "ucinewgame" => self.set_position(Position {
                start: Board::start(),
                moves: Vec::new(),
            }),
            "position" => match parse_position(args) {
                Ok(position) => self.set_position(position),
                Err(e) => error(format!("position: {e}")),
            },
            "setoption" => self.set_option(args),
            "go" => self.go(args),
            // Searches finish before `go` returns, so there is nothing to stop.
            "stop" => lines(Vec::new()),
            "calcbell" => self.calcbell(args),
            "probs" => lines(vec![self.probs()]),
            "moves" => {
                let moves: Vec<String> = self
                    .game
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                lines(vec![format!("moves {}", moves.join(" "))
                    .trim_end()
                    .to_string()])
            }
            "status" => lines(vec![self.status()]),
            "fen" => lines(vec![format!("fen {}", self.game.board().to_fen())]),
            "claim" => self.claim(),
            "quit" => Reply::Quit,
            other => error(format!(
                "unknown command `{}` (see docs/uqci.md)",
                truncate(other)
            )),
        }
    }

    /// Replaces the game by `position`, or keeps the current one and reports why not.
    fn set_position(&mut self, position: Position) -> Reply {
        match build(&position, self.options, &mut self.rng) {
            Ok(game) => {
                self.game = game;
                self.position = position;
                lines(Vec::new())
            }
            Err(e) => error(format!("position: {e}")),
        }
    }

    fn set_option(&mut self, args: &[&str]) -> Reply {
        let (name, value) = match args {
            ["name", name, "value", value] => (name.to_ascii_lowercase(), *value),
            _ => return error("setoption: expected `setoption name NAME value VALUE`"),
        };
        let flag = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(format!(
                "setoption {name}: value must be true or false, got `{}`",
                truncate(other)
            )),
        };
        let result = match name.as_str() {
            "forceturn" => flag().map(|v| self.options.force_turn = v),
            "forcewin" => flag().map(|v| self.options.force_win = v),
            "forcemeasure" => flag().map(|v| self.options.force_measure = v),
            "seed" => value
                .parse::<u64>()
                .map(|seed| {
                    self.options.seed = seed;
                    self.rng = ChaCha8Rng::seed_from_u64(seed);
                })
                .map_err(|_| {
                    format!(
                        "setoption seed: not a number 0..2^64: `{}`",
                        truncate(value)
                    )
                }),
            other => Err(format!(
                "setoption: unknown option `{}` (forceturn, forcewin, forcemeasure, seed)",
                truncate(other)
            )),
        };
        match result {
            Ok(()) => {
                self.game.set_force_turn(self.options.force_turn);
                self.game.set_force_win(self.options.force_win);
                lines(Vec::new())
            }
            Err(e) => error(e),
        }
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        let mut depth = 1;
        if let Some(i) = args.iter().position(|&a| a == "depth") {
            match args.get(i + 1).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) if d >= 1 => depth = d.min(MAX_DEPTH),
                _ => return error("go: `depth` needs a whole number of at least 1"),
            }
        }
        match best_move(&mut self.game, depth) {
            Ok(Some((mv, score))) => lines(vec![
                format!(
                    "info depth {depth} score cp {} pv {mv}",
                    (score * 100.0).round() as i64
                ),
                format!("bestmove {mv}"),
            ]),
            Ok(None) => lines(vec!["bestmove 0000".into()]),
            Err(e) => {
                // A trial move could not be taken back: rebuild the position.
                let rebuilt = build(&self.position, self.options, &mut self.rng);
                if let Ok(game) = rebuilt {
                    self.game = game;
                }
                error(format!("go: {e}"))
            }
        }
    }

    fn calcbell(&self, args: &[&str]) -> Reply {
        let squares = match args {
            [a, b] => Square::parse(a).zip(Square::parse(b)),
            _ => None,
        };
        let Some((a, b)) = squares else {
            return error("calcbell: expected two squares, e.g. `calcbell b3 c2`");
        };
        let values: Vec<String> = self
            .game
            .bell(a, b)
            .iter()
            .enumerate()
            .map(|(k, v)| format!("O{} {}", k + 1, number(*v)))
            .collect();
        lines(vec![format!("bell {a} {b} {}", values.join(" "))])
    }

    fn probs(&self) -> String {
        let probabilities = self.game.probabilities();
        let mut out = String::from("probs");
        for sq in Square::ALL {
            let p = probabilities[sq.index()];
            if let (Some(piece), true) = (self.game.board().piece(sq), p > 0.0) {
                out.push_str(&format!(" {sq} {piece} {}", number(p)));
            }
        }
        out
    }

    fn status(&self) -> String {
        let ended = self
            .game
            .full_measurement()
            .map(|m| m.ending.as_str())
            .unwrap_or("none");
        format!(
            "status {} side {} fifty {} claim {} ended_by {ended}",
            status_name(self.game.status()),
            side_name(self.game.board().side_to_move),
            self.game.fifty_move_counter().plies,
            self.game.claimable().map(|e| e.as_str()).unwrap_or("none"),
        )
    }

    fn claim(&mut self) -> Reply {
        let rng = &mut self.rng;
        let mut uniform = || rng.gen::<f64>();
        match self.game.claim(&mut uniform) {
            Ok(m) => {
                let reply = format!("claim {} board {:#018x}", m.ending.as_str(), m.bitboard);
                lines(vec![reply, self.status()])
            }
            Err(e) => error(format!("claim: {e}")),
        }
    }
}

/// The reply to `uci`.
fn uci_lines() -> Vec<String> {
    vec![
        format!("id name qchess {}", env!("CARGO_PKG_VERSION")),
        "id author the qchess authors".into(),
        "option name forceturn type check default false".into(),
        "option name forcewin type check default false".into(),
        "option name forcemeasure type check default true".into(),
        "option name seed type spin default 0 min 0 max 18446744073709551615".into(),
        "uqciok".into(),
    ]
}

/// Parses the arguments of `position`: `startpos` or `fen` and six FEN fields, then optionally
/// `moves` and QCAN moves.
fn parse_position(args: &[&str]) -> Result<Position, String> {
    let (start, rest) = match args {
        ["startpos", rest @ ..] => (Board::start(), rest),
        ["fen", rest @ ..] => {
            let end = rest
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(rest.len());
            let fen = rest[..end].join(" ");
            let board = Board::from_fen(&fen).map_err(|e| format!("fen: {e}"))?;
            (board, &rest[end..])
        }
        _ => return Err("expected `startpos` or `fen FEN`".into()),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                m.parse::<QcanMove>()
                    .map_err(|e| format!("move {} `{}`: {e}", i + 1, truncate(m)))
            })
            .collect::<Result<_, _>>()?,
        [other, ..] => {
            return Err(format!(
                "expected `moves` after the position, got `{}`",
                truncate(other)
            ))
        }
    };
    Ok(Position { start, moves })
}

/// A new game at `position` with the session's options; outcomes not written (or ignored
/// because `forcemeasure` is off) are sampled from `rng`.
fn build(position: &Position, options: Options, rng: &mut ChaCha8Rng) -> Result<Engine, String> {
    let mut game =
        Game::new(position.start.clone(), SparseSim::new()).map_err(|e| e.to_string())?;
    game.set_force_turn(options.force_turn);
    game.set_force_win(options.force_win);
    for (i, mv) in position.moves.iter().enumerate() {
        let mut mv = *mv;
        if !options.force_measure {
            mv.outcome = None;
        }
        if game.status() != GameStatus::Ongoing && !options.force_win {
            return Err(format!("move {} `{mv}`: the game is already over", i + 1));
        }
        game.play(&mv, rng)
            .map_err(|e| format!("move {} `{mv}`: {e}", i + 1))?;
    }
    Ok(game)
}

/// The status as `status` replies name it (the reason of a draw is in `ended_by`).
fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "ongoing",
        GameStatus::WhiteWins => "white_wins",
        GameStatus::BlackWins => "black_wins",
        GameStatus::Draw => "draw",
    }
}

/// A number as replies write it: 6 decimals, no negative zero.
fn number(x: f64) -> String {
    let text = format!("{x:.6}");
    if text == "-0.000000" {
        "0.000000".into()
    } else {
        text
    }
}

/// At most 40 characters of a word from the input, for error messages.
fn truncate(word: &str) -> String {
    word.chars().take(40).collect()
}
