//! One UQCI session, the same for every ruleset: the options, the game, and one handler per
//! command (docs/uqci.md). The game is the ruleset's on the simulator `--backend` names, driven
//! through the common interface (`Ruleset`, `QuantumGame`): what differs between rulesets (its
//! title, its switches, its draw counters, what a position costs a search) each ruleset says
//! itself.

use super::dice::{PositionKey, Stream};
use super::output::{counted_iteration_lines, Output};
use super::timed::{self, Job, Running};
use qc_engine::{EngineGame, Go, Limits, SearchConfig, Searcher, StopFlag};
use qc_ir::Backend;
use qc_rules::Square;
use qc_rules::{
    DrawReason, Endings, GameMove, QuantumGame, Ruleset, SquarePair, Status, Switch, WinReason,
};
use qc_sim::MemoryLimit;

/// The most work a bare `go` or `go depth N` may do (`qc_engine::Limits::work`): the basis
/// states of the positions it plays moves from, summed. The start position's depth 4 spends a
/// few hundred thousand; a big superposition (80 plies, 7,128 basis states, 265 legal moves)
/// stops after about 280 positions instead of the 45 s depth 1 takes in full.
pub const BARE_GO_WORK: u64 = 2_000_000;

/// The line a bare `go` to `wanted` plies sends before its `bestmove` when its work ran out
/// (`work` spent, [`BARE_GO_WORK`]) before that depth was done (`searched`: the deepest depth
/// finished, 0 for none) while a move was found: which depth was cut, and what answers.
fn out_of_work_line(wanted: u32, searched: u32, work: u64, found: bool) -> Option<String> {
    let deepest = wanted.min(qc_engine::limits::MAX_DEPTH);
    if work < BARE_GO_WORK || searched >= deepest || !found {
        return None;
    }
    Some(match searched {
        0 => format!(
            "info string depth 1 ran out of its work ({BARE_GO_WORK} basis states) before \
             every move was searched: the best of those searched answers"
        ),
        _ => format!(
            "info string depth {} ran out of its work ({BARE_GO_WORK} basis states): searched \
             depth {searched}",
            searched + 1
        ),
    })
}

/// The game a session drives: the ruleset's game on the simulator `--backend` names.
pub type Engine<R, B> = <R as Ruleset>::Game<B>;

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
    /// `Hash`: the transposition table's size in megabytes.
    hash_mb: usize,
    /// `MultiPV`: how many root moves a timed search ranks and reports.
    multi_pv: usize,
}

/// `Hash`'s default (qc-engine's table size) and largest value, in megabytes: the table is
/// allocated at the next `go`, and a larger one than the allocator gives is halved until it fits.
const DEFAULT_HASH_MB: usize = qc_engine::tt::DEFAULT_BYTES >> 20;
const MAX_HASH_MB: usize = 1024;

/// The largest `Threads` accepted (the search runs on one thread whatever the value).
const MAX_THREADS: usize = 1024;

/// The largest `MultiPV`: more than any position has legal moves in practice, and a bound on the
/// lines one iteration writes.
const MAX_MULTI_PV: usize = 256;

/// The position as the last `position` command gave it: a start, and the moves as written.
struct Position<R: Ruleset> {
    start: R::Start,
    moves: Vec<String>,
}

// By hand: a derive would ask `R: Clone` of the ruleset's marker type.
impl<R: Ruleset> Clone for Position<R> {
    fn clone(&self) -> Self {
        Position {
            start: self.start.clone(),
            moves: self.moves.clone(),
        }
    }
}

/// A UQCI session for ruleset `R`.
pub struct Session<R: Ruleset, B: Backend> {
    options: Options,
    /// The rule options (`--variant`) every start position gets.
    variant: Option<String>,
    position: Position<R>,
    /// The position's game; `None` while a timed search holds it (see [`Session::game`]).
    game: Option<Engine<R, B>>,
    /// The key of the game's current position (what `claim` draws from).
    key: PositionKey,
    /// A fresh simulator for every position.
    new_backend: fn(MemoryLimit) -> B,
    /// Where replies go (shared with a running search).
    out: Output,
    /// The search under a time control, while it runs.
    running: Option<Running<Engine<R, B>>>,
    /// The timed search's tables, kept from one `go` to the next (`None` while one runs or
    /// before the first).
    searcher: Option<Searcher>,
}

/// A game built from a `position`: the game, its position's key, and the outcomes drawn.
struct Built<R: Ruleset, B: Backend> {
    game: Engine<R, B>,
    key: PositionKey,
    /// `info string outcome N MOVE` for every move whose outcome was drawn, in order.
    drawn: Vec<String>,
}

/// The reply to a command that went wrong.
fn error(text: impl std::fmt::Display) -> Reply {
    Reply::Lines(vec![format!("info string error {text}")])
}

fn lines(lines: Vec<String>) -> Reply {
    Reply::Lines(lines)
}

impl<R: Ruleset + 'static, B: Backend + 'static> Session<R, B>
where
    Engine<R, B>: EngineGame + Send + 'static,
    R::Start: Send,
{
    /// A session at the standard start under the rule options `variant`, outcomes seeded with
    /// `seed`, on simulators from `new_backend`, replying to `out`.
    ///
    /// # Errors
    /// The rule options are not the ruleset's.
    pub fn new(
        seed: u64,
        variant: Option<String>,
        new_backend: fn(MemoryLimit) -> B,
        out: Output,
    ) -> Result<Session<R, B>, String> {
        let options = Options {
            force_turn: false,
            force_win: false,
            force_measure: true,
            seed,
            hash_mb: DEFAULT_HASH_MB,
            multi_pv: 1,
        };
        let position = Position {
            start: R::start(None, variant.as_deref()).map_err(|e| e.to_string())?,
            moves: Vec::new(),
        };
        let built = build::<R, B>(&position, options, new_backend)?;
        Ok(Session {
            options,
            variant,
            position,
            game: Some(built.game),
            key: built.key,
            new_backend,
            out,
            running: None,
            searcher: None,
        })
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return lines(Vec::new());
        };
        // A command that changes the position or the options ends a running search first (its
        // `bestmove` comes before the command's reply); the others are answered while it runs.
        if matches!(
            command,
            "ucinewgame" | "position" | "setoption" | "go" | "claim" | "stop" | "quit"
        ) {
            self.stop_search();
        }
        match command {
            "uci" => lines(uci_lines::<R>()),
            "isready" => lines(vec!["readyok".into()]),
            "ucinewgame" => match self.parse_position(&["startpos"]) {
                Ok(position) => {
                    // A new game: what the search learnt of the last one no longer applies.
                    if let Some(searcher) = &mut self.searcher {
                        searcher.clear();
                    }
                    self.set_position(position)
                }
                Err(e) => error(format!("ucinewgame: {e}")),
            },
            "position" => match self.parse_position(args) {
                Ok(position) => self.set_position(position),
                Err(e) => error(format!("position: {e}")),
            },
            "setoption" => self.set_option(args),
            "go" => self.go(args),
            // The search (if any) was ended above.
            "stop" => lines(Vec::new()),
            "calcbell" => self.calcbell(args),
            "probs" => self.probs(),
            "moves" => {
                let game = match self.game() {
                    Ok(game) => game,
                    Err(e) => return error(format!("moves: {e}")),
                };
                let moves: Vec<String> = game
                    .legal_moves()
                    .into_iter()
                    .map(|m| m.mv.to_string())
                    .collect();
                lines(vec![format!("moves {}", moves.join(" "))
                    .trim_end()
                    .to_string()])
            }
            "status" => match self.status() {
                Ok(status) => lines(vec![status]),
                Err(e) => error(format!("status: {e}")),
            },
            "fen" => match self.game() {
                Ok(game) => lines(vec![format!("fen {}", game.fen())]),
                Err(e) => error(format!("fen: {e}")),
            },
            "claim" => self.claim(),
            "quit" => Reply::Quit,
            other => error(format!(
                "unknown command `{}` (see docs/uqci.md)",
                truncate(other)
            )),
        }
    }

    /// Parses the arguments of `position`: `startpos` or `fen` and the ruleset's FEN, then
    /// optionally `moves` and moves in the ruleset's notation.
    fn parse_position(&self, args: &[&str]) -> Result<Position<R>, String> {
        let variant = self.variant.as_deref();
        let (start, rest) = match args {
            ["startpos", rest @ ..] => (R::start(None, variant), rest),
            ["fen", rest @ ..] => {
                let end = rest
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(rest.len());
                let fen = rest[..end].join(" ");
                (R::start(Some(&fen), variant), &rest[end..])
            }
            _ => return Err("expected `startpos` or `fen FEN`".into()),
        };
        let start = start.map_err(|e| format!("fen: {e}"))?;
        let moves = match rest {
            [] => Vec::new(),
            ["moves", moves @ ..] => moves.iter().map(|m| m.to_string()).collect(),
            [other, ..] => {
                return Err(format!(
                    "expected `moves` after the position, got `{}`",
                    truncate(other)
                ))
            }
        };
        Ok(Position { start, moves })
    }

    /// Replaces the game by `position` and reports the outcomes it drew, or keeps the current
    /// one and reports why not. The current game is dropped before the new one is built (two
    /// games of a big state would need twice the memory the limit allows one); when the new
    /// position fails, the current one is built again when next needed ([`Session::game`]).
    fn set_position(&mut self, position: Position<R>) -> Reply {
        self.game = None;
        match build::<R, B>(&position, self.options, self.new_backend) {
            Ok(built) => {
                self.game = Some(built.game);
                self.key = built.key;
                self.position = position;
                lines(built.drawn)
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
        // A switch the ruleset does not have may only be set to its one value, off.
        let force = |force: Switch| {
            let on = flag()?;
            match R::switch_unsupported(force) {
                Some(why) if on => Err(format!(
                    "setoption {}: does not apply to {}: {why}",
                    force.name(),
                    R::TITLE
                )),
                _ => Ok(on),
            }
        };
        // A spin option's value: a whole number from `min` to `max`.
        let spin = |min: usize, max: usize| match value.parse::<usize>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "setoption {name}: value must be a whole number from {min} to {max}, got `{}`",
                truncate(value)
            )),
        };
        let mut note = None;
        let result = match name.as_str() {
            "hash" => spin(1, MAX_HASH_MB).map(|mb| {
                if mb != self.options.hash_mb {
                    // The next `go` allocates a table of the new size (and forgets the old).
                    self.searcher = None;
                }
                self.options.hash_mb = mb;
            }),
            "threads" => spin(1, MAX_THREADS).map(|n| {
                if n > 1 {
                    note = Some(format!(
                        "info string Threads {n}: accepted, the search runs on one thread"
                    ));
                }
            }),
            "multipv" => spin(1, MAX_MULTI_PV).map(|n| self.options.multi_pv = n),
            "forceturn" => force(Switch::ForceTurn).map(|v| self.options.force_turn = v),
            "forcewin" => force(Switch::ForceWin).map(|v| self.options.force_win = v),
            "forcemeasure" => flag().map(|v| self.options.force_measure = v),
            "seed" => value
                .parse::<u64>()
                .map(|seed| self.options.seed = seed)
                .map_err(|_| {
                    format!(
                        "setoption seed: not a number 0..2^64: `{}`",
                        truncate(value)
                    )
                }),
            other => Err(format!(
                "setoption: unknown option `{}` ({})",
                truncate(other),
                option_names::<R>().join(", ")
            )),
        };
        let options = self.options;
        match result.and_then(|()| self.game()) {
            Ok(game) => {
                set_switches(game, options);
                lines(note.into_iter().collect())
            }
            Err(e) => error(e),
        }
    }

    /// Ends the running search, if any: its `bestmove` is sent before this returns, and the
    /// game it held comes back (unless the search failed: it is then built again when needed).
    pub fn stop_search(&mut self) {
        if let Some(running) = self.running.take() {
            let (searcher, game) = running.finish();
            self.searcher = Some(searcher);
            if let Some(game) = game {
                self.game = Some(game);
            }
        }
    }

    /// The position's game. A timed search takes the session's game with it (replaying the
    /// position on the search thread took the search's whole time on a long game); a command
    /// that reads the game meanwhile gets a copy built again from the position, which is the
    /// same game (every outcome not written is drawn from the position, not from history).
    ///
    /// # Errors
    /// Building the copy failed (it was built once already, so only a memory limit can).
    fn game(&mut self) -> Result<&mut Engine<R, B>, String> {
        let game = self.take_game()?;
        Ok(self.game.insert(game))
    }

    /// The position's game, taken out of the session (built again from the position when a
    /// timed search holds it); see [`Session::game`].
    ///
    /// # Errors
    /// As [`Session::game`].
    fn take_game(&mut self) -> Result<Engine<R, B>, String> {
        match self.game.take() {
            Some(game) => Ok(game),
            None => Ok(build::<R, B>(&self.position, self.options, self.new_backend)?.game),
        }
    }

    fn go(&mut self, args: &[&str]) -> Reply {
        let go = match Go::parse(args) {
            Ok(go) => go,
            Err(e) => return error(format!("go: {e}")),
        };
        let timed = go.move_time.is_some()
            || go.clocks.iter().any(Option::is_some)
            || go.nodes.is_some()
            || go.infinite
            || !go.search_moves.is_empty();
        if timed {
            let mut go = go;
            if !go.search_moves.is_empty() {
                let (kept, complaints) = match self.legal_search_moves(&go.search_moves) {
                    Ok(checked) => checked,
                    Err(e) => return error(format!("go: {e}")),
                };
                // Sent before the search starts, so they come before its `bestmove`.
                if self.out.send(&complaints).is_err() {
                    return lines(Vec::new());
                }
                go.search_moves = kept;
            }
            return self.go_timed(go);
        }
        self.go_counted(go.depth.unwrap_or(1))
    }

    /// `go` and `go depth N` (no time control): qc-engine's search, the one timed `go` runs,
    /// here on the session's thread to `depth` plies within [`BARE_GO_WORK`] and from a cleared
    /// table. A count bounds it, not a clock, so the same position gets the same answer on any
    /// machine under any load; its `info` lines therefore give no time.
    fn go_counted(&mut self, depth: u32) -> Reply {
        let mut searcher = self.take_searcher();
        // What earlier searches stored would make the answer depend on the session's past.
        searcher.clear();
        let limits = Limits {
            depth: Some(depth),
            work: Some(BARE_GO_WORK),
            ..Limits::default()
        };
        let mut reply = Vec::new();
        let searched = match self.game() {
            Ok(game) => searcher.search(game, &limits, StopFlag::new(), &mut |it| {
                reply.extend(counted_iteration_lines(it));
            }),
            Err(e) => {
                self.searcher = Some(searcher);
                return error(format!("go: {e}"));
            }
        };
        self.searcher = Some(searcher);
        let found = match searched {
            Ok(found) => found,
            Err(e) => {
                // A trial move could not be taken back: build the position again.
                self.game = None;
                return error(format!("go: {e}"));
            }
        };
        reply.extend(out_of_work_line(
            depth,
            found.depth,
            found.work,
            found.best.is_some(),
        ));
        if let Some(why) = &found.out_of_memory {
            reply.push(format!(
                "info string the search stopped early, the simulator has no room: {why}"
            ));
        }
        let best = found
            .best
            .map_or_else(|| "0000".to_string(), |m| m.to_string());
        reply.push(format!("bestmove {best}"));
        lines(reply)
    }

    /// The session's searcher (a new one with the `Hash` table when it has none), ranking
    /// `MultiPV` root moves.
    fn take_searcher(&mut self) -> Searcher {
        let table_bytes = self.options.hash_mb << 20;
        let mut searcher = self.searcher.take().unwrap_or_else(|| {
            Searcher::new(SearchConfig {
                table_bytes,
                ..SearchConfig::default()
            })
        });
        searcher.set_multi_pv(self.options.multi_pv);
        searcher
    }

    /// The legal moves among `written` (a `go searchmoves` list), as `moves` writes them and
    /// without repeats, and an `info string error` line for each word that is not one: not a
    /// move in the ruleset's notation, or not legal in this position (with the rules' reason).
    /// When none is left while the game goes on, a last line says that every legal move is
    /// searched (an empty list): a GUI reads `bestmove 0000` as the game's end.
    ///
    /// # Errors
    /// The position's game could not be built again (a memory limit).
    fn legal_search_moves(
        &mut self,
        written: &[String],
    ) -> Result<(Vec<String>, Vec<String>), String> {
        let game = self.game()?;
        let legal: Vec<R::Move> = game.legal_moves().into_iter().map(|m| m.mv).collect();
        let mut kept: Vec<String> = Vec::new();
        let mut complaints = Vec::new();
        for word in written {
            let mv = match word.parse::<R::Move>() {
                Ok(mv) => mv,
                Err(e) => {
                    complaints.push(format!(
                        "info string error go searchmoves: `{}` is not a move: {e}",
                        truncate(word)
                    ));
                    continue;
                }
            };
            // An outcome written in (`.m1`) or a piece letter does not make it another move.
            let bare = mv.without_outcomes();
            match legal
                .iter()
                .find(|l| **l == mv || **l == bare || l.to_string() == bare.to_string())
            {
                Some(l) => {
                    let text = l.to_string();
                    if !kept.contains(&text) {
                        kept.push(text);
                    }
                }
                None => {
                    let why = match game.move_outcomes(&bare) {
                        Err(e) => e.to_string(),
                        Ok(_) => "it is not among the moves `moves` lists".into(),
                    };
                    complaints.push(format!(
                        "info string error go searchmoves: `{}` is not legal in this position: \
                         {why}",
                        truncate(word)
                    ));
                }
            }
        }
        if kept.is_empty() && !legal.is_empty() {
            complaints.push(
                "info string error go searchmoves: none of the moves listed is legal here, \
                 so every legal move is searched"
                    .into(),
            );
        }
        Ok((kept, complaints))
    }

    /// Starts qc-engine's search under `go`'s limits on its own thread; it replies itself.
    fn go_timed(&mut self, go: Go) -> Reply {
        let game = match self.take_game() {
            Ok(game) => game,
            Err(e) => return error(format!("go: {e}")),
        };
        let limits = go.limits(game.side_to_move());
        let job = Job {
            game,
            limits,
            infinite: go.infinite,
            search_moves: go.search_moves,
        };
        let searcher = self.take_searcher();
        self.running = Some(timed::start(job, searcher, self.out.clone()));
        lines(Vec::new())
    }

    fn calcbell(&mut self, args: &[&str]) -> Reply {
        let squares = match args {
            [a, b] => Square::parse(a).zip(Square::parse(b)),
            _ => None,
        };
        let Some((a, b)) = squares else {
            return error("calcbell: expected two squares, e.g. `calcbell b3 c2`");
        };
        let pair = match SquarePair::new(a, b) {
            Ok(pair) => pair,
            Err(e) => return error(format!("calcbell: {e}")),
        };
        let game = match self.game() {
            Ok(game) => game,
            Err(e) => return error(format!("calcbell: {e}")),
        };
        let Some((bell, _)) = game.bell(pair) else {
            return error(format!(
                "calcbell: does not apply to {}: its squares are not qubits, and Bell values \
                 are expectations on two square qubits",
                R::TITLE
            ));
        };
        let values: Vec<String> = bell
            .iter()
            .enumerate()
            .map(|(k, v)| format!("O{} {}", k + 1, number(*v)))
            .collect();
        lines(vec![format!("bell {a} {b} {}", values.join(" "))])
    }

    fn probs(&mut self) -> Reply {
        let view = match self.game() {
            Ok(game) => game.board_view(false),
            Err(e) => return error(format!("probs: {e}")),
        };
        let mut out = String::from("probs");
        for sq in Square::ALL {
            if let Some(s) = view.get(sq).filter(|s| s.probability > 0.0) {
                out.push_str(&format!(" {sq} {} {}", s.piece, number(s.probability)));
            }
        }
        lines(vec![out])
    }

    fn status(&mut self) -> Result<String, String> {
        let game = self.game()?;
        let status = game.status();
        let Endings {
            fifty,
            claimable,
            measured,
        } = game.endings();
        Ok(format!(
            "status {} side {} fifty {fifty} claim {} ended_by {}",
            status_name(status),
            game.side_to_move().fen_char(),
            claimable.unwrap_or("none"),
            measured.unwrap_or(ending_name(status)),
        ))
    }

    fn claim(&mut self) -> Reply {
        let mut dice = self.key.dice(Stream::Claim, "");
        let game = match self.game() {
            Ok(game) => game,
            Err(e) => return error(format!("claim: {e}")),
        };
        match game.claim(&mut dice) {
            Some(Ok(claimed)) => {
                let mut reply = vec![format!(
                    "claim {} board {:#018x}",
                    claimed.ending, claimed.bitboard
                )];
                match self.status() {
                    Ok(status) => reply.push(status),
                    Err(e) => return error(format!("claim: {e}")),
                }
                lines(reply)
            }
            Some(Err(e)) => error(format!("claim: {e}")),
            None => error(format!(
                "claim: nothing to claim in {}: {}",
                R::TITLE,
                R::NO_CLAIM
            )),
        }
    }
}

/// Sets the rule switches of `options` on `game` (a switch the ruleset lacks stays off).
fn set_switches<G: QuantumGame>(game: &mut G, options: Options) {
    game.set_switch(Switch::ForceTurn, options.force_turn);
    game.set_switch(Switch::ForceWin, options.force_win);
}

/// The options of `R`: the switches that apply, then `forcemeasure`, `seed` and the engine's
/// `Hash`, `Threads`, `MultiPV`.
fn option_names<R: Ruleset>() -> Vec<&'static str> {
    Switch::ALL
        .into_iter()
        .filter(|f| R::switch_unsupported(*f).is_none())
        .map(Switch::name)
        .chain(["forcemeasure", "seed", "Hash", "Threads", "MultiPV"])
        .collect()
}

/// The reply to `uci`: the options that apply to `R`.
fn uci_lines<R: Ruleset>() -> Vec<String> {
    let mut out = vec![
        format!("id name qchess {}", env!("CARGO_PKG_VERSION")),
        "id author the qchess authors".into(),
    ];
    for name in option_names::<R>() {
        out.push(match name {
            "forcemeasure" => "option name forcemeasure type check default true".into(),
            "seed" => "option name seed type spin default 0 min 0 max 18446744073709551615".into(),
            "Hash" => {
                format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                )
            }
            "Threads" => format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            "MultiPV" => {
                format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}")
            }
            switch => format!("option name {switch} type check default false"),
        });
    }
    out.push("uqciok".into());
    out
}

/// A new game at `position` with the session's options. An outcome not written in (or ignored
/// because `forcemeasure` is off) is drawn from the move's own generator, seeded by the session
/// seed and the position so far ([`PositionKey`]), and reported; a move that ends the game is
/// played again with its outcome written in and the ending's own generator, so that what the
/// ending draws is the same whether the outcome was written or drawn.
fn build<R: Ruleset, B: Backend>(
    position: &Position<R>,
    options: Options,
    new_backend: fn(MemoryLimit) -> B,
) -> Result<Built<R, B>, String> {
    let mut game = R::new_game(&position.start, new_backend(MemoryLimit::default()))
        .map_err(|e| e.to_string())?;
    set_switches(&mut game, options);
    let mut key = PositionKey::start(options.seed, &game.fen());
    let mut drawn = Vec::new();
    for (i, written) in position.moves.iter().enumerate() {
        // Read once; with `forcemeasure` off the outcomes written in are dropped.
        let read = written.parse::<R::Move>().map(|mv| {
            if options.force_measure {
                mv
            } else {
                mv.without_outcomes()
            }
        });
        let text = match &read {
            Ok(mv) if !options.force_measure => mv.to_string(),
            _ => written.clone(),
        };
        let failed =
            |e: &dyn std::fmt::Display| format!("move {} `{}`: {e}", i + 1, truncate(&text));
        let status = game.status();
        if status.is_over() {
            return Err(failed(&format_args!("the game is already over ({status})")));
        }
        let mv = read.map_err(|e| failed(&e))?;
        let chosen = mv.without_outcomes().to_string();
        let played = game
            .play(&mv, &mut key.dice(Stream::Move, &chosen))
            .map_err(|e| failed(&e))?
            .mv
            .clone();
        if game.status().is_over() {
            game.undo().map_err(|e| failed(&e))?;
            game.play(&played, &mut key.dice(Stream::Ending, &chosen))
                .map_err(|e| failed(&e))?;
        }
        if played != mv {
            drawn.push(format!("info string outcome {} {played}", i + 1));
        }
        key = key.after(&played.to_string());
    }
    Ok(Built { game, key, drawn })
}

/// The status as `status` replies name it (how the game ended is in `ended_by`).
fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ongoing => "ongoing",
        Status::Win(qc_rules::Color::White, _) => "white_wins",
        Status::Win(qc_rules::Color::Black, _) => "black_wins",
        Status::Draw(_) => "draw",
    }
}

/// How the game ended, as `ended_by` names it (`none` while it goes on).
fn ending_name(status: Status) -> &'static str {
    match status {
        Status::Ongoing => "none",
        Status::Win(_, WinReason::KingCaptured) => "king_captured",
        Status::Win(_, WinReason::Checkmate) => "checkmate",
        Status::Draw(DrawReason::BothKingsGone) => "both_kings_captured",
        Status::Draw(DrawReason::Stalemate) => "stalemate",
        Status::Draw(DrawReason::FiftyMoves) => "fifty_moves",
        Status::Draw(DrawReason::Repetition) => "repetition",
        Status::Draw(DrawReason::InsufficientMaterial) => "insufficient_material",
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

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::Cantwell;
    use qc_sim::SparseSim;

    #[test]
    fn a_bare_go_says_when_its_work_ran_out_and_what_answers() {
        let all = BARE_GO_WORK;
        assert_eq!(
            out_of_work_line(3, 3, all, true),
            None,
            "depth 3 was finished"
        );
        assert_eq!(
            out_of_work_line(3, 2, all - 1, true),
            None,
            "the work did not run out"
        );
        assert_eq!(
            out_of_work_line(3, 0, all, false),
            None,
            "no move: bestmove 0000 says it"
        );
        assert_eq!(
            out_of_work_line(3, 2, all, true).as_deref(),
            Some(
                "info string depth 3 ran out of its work (2000000 basis states): searched depth 2"
            )
        );
        let cut = out_of_work_line(1, 0, all, true).expect("depth 1 was cut");
        assert!(
            cut.starts_with("info string depth 1 ran out of its work"),
            "{cut}"
        );
        // Deeper than the engine searches is the engine's deepest.
        assert_eq!(out_of_work_line(100, 64, all, true), None);
    }

    /// The transposition table's slots after `setoption name Hash value MB` (when given) and a
    /// timed search.
    fn slots_after(hash: Option<&str>) -> usize {
        let new_backend = |limit: MemoryLimit| SparseSim::with_limit(limit);
        let out = Output::new(std::io::sink());
        let mut session =
            Session::<Cantwell, SparseSim>::new(0, None, new_backend, out).expect("a session");
        if let Some(mb) = hash {
            let Reply::Lines(reply) = session.handle(&format!("setoption name Hash value {mb}"))
            else {
                panic!("setoption ended the session");
            };
            assert!(reply.is_empty(), "{reply:?}");
        }
        session.handle("go depth 1 movetime 60000");
        session.stop_search();
        session.searcher.as_ref().map_or(0, Searcher::table_slots)
    }

    #[test]
    fn hash_sizes_the_transposition_table() {
        // Slots are a power of two that fits the megabytes: 1 MB holds half as many as 2 MB,
        // and the default (16 MB) sixteen times 1 MB's.
        let entry = std::mem::size_of::<Option<qc_engine::tt::Entry>>();
        let slots = |mb: usize| ((mb << 20) / entry + 1).next_power_of_two() / 2;
        assert_eq!(slots_after(Some("1")), slots(1));
        assert_eq!(slots_after(Some("2")), slots(2));
        assert_eq!(slots_after(None), slots(16));
        assert_eq!(slots(16), 16 * slots(1));
    }
}
