//! [`Table`]: a game of one ruleset on one simulator, with everything a front end keeps beside
//! it (the start position and the file's tags, the seeded dice, where the game came from),
//! written once against `qc_rules::Ruleset` and `QuantumGame` and compiled per ruleset and
//! simulator. [`Session`](super::Session) holds one behind the [`Game`] interface; code that
//! needs the ruleset's own types (UQCI's rule switches) holds one directly.

use super::{
    EngineReply, Game, GameInput, LegalView, MoveView, RulesError, SessionError, SessionSpec,
};
use crate::compile::{compile_circuit_on, CompileError, Compiled, DeviceOptions, Format};
use crate::rules::Classify;
use crate::{BackendKind, RulesKind};
use qc_engine::{Limits, SearchConfig, Searcher, StopFlag};
use qc_export::{ExportOptions, Target};
use qc_ir::{Backend, Circuit, Qubit};
use qc_render::game_drawing::{game_drawing, NoSuchMove};
use qc_render::layout::Annotations;
use qc_rules::{
    BoardView, Color, Comment, GameFile, GameMove, GivenOutcome, QuantumGame, Ruleset, SquarePair,
    Status, Tag, WireLabel, WrittenMove,
};
use qc_sim::{MemoryLimit, Precision};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};
use std::ops::Range;

/// The RNG `random` and `--random-plies` pick moves with: a stream apart from the outcomes'
/// ([`crate::rng`]), so that picking a move does not shift the outcomes.
pub fn pick_rng(seed: u64) -> ChaCha8Rng {
    crate::rng(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// The most moves taken back whose outcomes a table remembers; older ones are forgotten first.
pub const REMEMBERED_MOVES: usize = 256;

/// A move taken back, with the outcomes it had drawn: played again (written without outcomes)
/// after exactly the moves it followed, it gets them again.
struct Remembered<M> {
    /// The moves played before it, as played.
    before: Vec<M>,
    /// The move as a player chooses it (no outcome written in).
    choice: M,
    /// The move as it was played, its outcomes written in.
    played: M,
}

/// A game of ruleset `R` on simulator `B`, with its start position, tags and dice.
pub struct Table<R: Ruleset, B: Backend> {
    /// The ruleset, simulator, precision and seed it was opened with.
    spec: SessionSpec,
    /// Where the game came from, for messages (a path, `<stdin>`, `--moves`).
    source: String,
    /// The start position with the rule options in force.
    start: R::Start,
    /// The game file's tags other than the start position and rule options.
    tags: Vec<Tag>,
    /// The game file's comments, each after the moves it was written after.
    comments: Vec<Comment>,
    /// The game file's moves as the replay played them (outcomes written in): a comment stays
    /// in the game written again while the game still begins with the moves before it.
    file_moves: Vec<R::Move>,
    /// The game.
    game: R::Game<B>,
    /// The outcomes drawn for moves taken back, so that a move taken back and played again
    /// from the same position draws the same outcome (a player cannot undo until a
    /// measurement goes their way); [`Game::forget_outcomes`] lets the dice roll again.
    remembered: Vec<Remembered<R::Move>>,
    /// Where outcomes not written in a move are drawn from.
    dice: ChaCha8Rng,
    /// Where random moves are picked from.
    pick: ChaCha8Rng,
    /// A fresh simulator of this kind (for a game loaded later).
    new_backend: fn(MemoryLimit) -> B,
    /// The memory limit of every simulator this table makes.
    limit: MemoryLimit,
}

impl<R: Ruleset, B: Backend> Table<R, B>
where
    R::Error: Classify,
{
    /// Opens `input` under `spec`: reads it, replays its moves on a fresh simulator from
    /// `new_backend` (outcomes not written in are drawn with the seed), then what the file
    /// records after them (a claim), then `random_plies` random legal moves. The dice then start
    /// again from the seed, for the moves played next.
    ///
    /// # Errors
    /// What does not read, cannot be set up, or which move the rules refuse.
    pub fn open(
        spec: &SessionSpec,
        input: GameInput<'_>,
        random_plies: usize,
        new_backend: fn(MemoryLimit) -> B,
        limit: MemoryLimit,
    ) -> Result<Table<R, B>, SessionError> {
        let (source, text) = read::<R>(input, spec.variant.as_deref())?;
        let game = replay::<R, B>(&source, &text, new_backend(limit), spec.seed, random_plies)?;
        let file_moves = played_moves(&game, text.moves.len());
        Ok(Table {
            spec: spec.clone(),
            source,
            start: text.start,
            tags: text.tags,
            comments: text.comments,
            file_moves,
            remembered: Vec::new(),
            game,
            dice: crate::rng(spec.seed),
            pick: pick_rng(spec.seed),
            new_backend,
            limit,
        })
    }

    /// The game, for what the interface does not cover (a ruleset's own switches).
    pub fn game(&self) -> &R::Game<B> {
        &self.game
    }

    /// The game, mutably (see [`Table::game`]).
    pub fn game_mut(&mut self) -> &mut R::Game<B> {
        &mut self.game
    }

    /// The start position.
    pub fn start(&self) -> &R::Start {
        &self.start
    }

    /// The dice outcomes not written in a move are drawn from.
    pub fn dice(&mut self) -> &mut ChaCha8Rng {
        &mut self.dice
    }

    /// The ply of the next move (counted from the game's beginning, as its record numbers it).
    fn next_ply(&self) -> u32 {
        ply_of(R::first_ply(&self.start), self.game.moves().len())
    }

    /// The game as a compiled program's header names it: the ruleset, its options, the start
    /// and every move with its outcomes written in (replayed, it is this game again).
    pub fn header_game(&self) -> qc_export::HeaderGame {
        let moves: Vec<String> = self.game.moves().iter().map(|m| m.text()).collect();
        qc_export::HeaderGame {
            rules: qc_ir::Choice::name(RulesKind::of::<R>()).to_string(),
            variant: R::options_name(&self.start),
            fen: R::start_fen(&self.start),
            moves: moves.join(" "),
        }
    }
}

/// The number of moves `input` holds under ruleset `R` with rule `options`, read without
/// playing them ([`Session::moves_in`](super::Session::moves_in)).
///
/// # Errors
/// What does not read, as [`Table::open`] reports it.
pub fn moves_in<R: Ruleset>(
    input: GameInput<'_>,
    options: Option<&str>,
) -> Result<usize, SessionError>
where
    R::Error: Classify,
{
    read::<R>(input, options).map(|(_, text)| text.moves.len())
}

impl<R: Ruleset, B: Backend> Table<R, B>
where
    R::Error: Classify,
{
    /// Brings the game back to the moves `record` (its moves before a search that failed with
    /// trial moves still on it): takes moves back while it can, then, when the undo history no
    /// longer reaches (a small simulator keeps little), replays `record` from the start on a
    /// fresh simulator, every outcome written in.
    fn restore(&mut self, record: Vec<R::Move>) {
        while self.game.moves().len() > record.len() && self.game.undo().is_ok() {}
        if self.game.moves().len() == record.len() {
            return;
        }
        let file = GameFile {
            tags: self.tags.clone(),
            moves: record.into_iter().map(WrittenMove::unplaced).collect(),
            ..GameFile::new(self.start.clone())
        };
        let backend = (self.new_backend)(self.limit);
        if let Ok(game) = replay::<R, B>(&self.source, &file, backend, self.spec.seed, 0) {
            self.game = game;
        }
    }
}

/// The first `n` moves `game` has played, as played (outcomes written in).
fn played_moves<G: QuantumGame>(game: &G, n: usize) -> Vec<G::Move> {
    game.moves().iter().take(n).map(|m| m.mv.clone()).collect()
}

impl<R: Ruleset, B: Backend> Table<R, B>
where
    R::Error: Classify,
{
    /// Plays `mv`, with the outcomes it drew when it was taken back from this very position if
    /// it is written without outcomes and was ([`Remembered`]), else with the session's dice.
    fn play_move(&mut self, mv: &R::Move) -> Result<MoveView, SessionError> {
        let chosen = self.recall(mv).unwrap_or_else(|| mv.clone());
        let ply = self.next_ply();
        self.game
            .play(&chosen, &mut self.dice)
            .map(|played| MoveView::at(played, ply))
            .map_err(|e| SessionError::Rules(RulesError::new(e)))
    }

    /// The move as it was played when it was last taken back from the current position, if it
    /// was and `mv` has no outcome written in.
    fn recall(&self, mv: &R::Move) -> Option<R::Move> {
        if *mv != mv.without_outcomes() {
            return None;
        }
        let played = self.game.moves();
        self.remembered
            .iter()
            .rev()
            .find(|r| {
                r.choice == *mv
                    && r.before.len() == played.len()
                    && r.before.iter().zip(played).all(|(a, b)| *a == b.mv)
            })
            .map(|r| r.played.clone())
    }

    /// Remembers the move just taken back (`undone`) with its outcomes, at the current
    /// position; at most [`REMEMBERED_MOVES`] are kept.
    fn remember(&mut self, undone: &R::Move) {
        let before = played_moves(&self.game, usize::MAX);
        let choice = undone.without_outcomes();
        self.remembered
            .retain(|r| !(r.choice == choice && r.before == before));
        if self.remembered.len() == REMEMBERED_MOVES {
            self.remembered.remove(0);
        }
        self.remembered.push(Remembered {
            before,
            choice,
            played: undone.clone(),
        });
    }

    /// The file's comments that still belong: those written after moves the game still begins
    /// with (the file's own, as played).
    fn comments_kept(&self) -> Vec<Comment> {
        let shared = self
            .file_moves
            .iter()
            .zip(self.game.moves())
            .take_while(|(a, b)| **a == b.mv)
            .count();
        self.comments
            .iter()
            .filter(|c| c.after <= shared)
            .cloned()
            .collect()
    }
}

/// A game file of ruleset `R`.
type FileOf<R> = GameFile<<R as Ruleset>::Start, <R as Ruleset>::Move>;

/// Reads `input` under ruleset `R` with rule `options` (which override a file's): the name its
/// messages give it and the game text.
fn read<R: Ruleset>(
    input: GameInput<'_>,
    options: Option<&str>,
) -> Result<(String, FileOf<R>), SessionError>
where
    R::Error: Classify,
{
    match input {
        GameInput::File { name, text } => {
            let file = R::read_game(text, options).map_err(|e| SessionError::Read {
                input: super::Input::File(name.to_string()),
                source: RulesError::wrong_file_type::<R>(RulesError::new(e), name, text, options),
            })?;
            // A flat JSON object of counts reads as one `{ comment }`: an empty game that is
            // really counts is refused (a game with tags or moves is never looked at).
            if file.moves.is_empty() && file.tags.is_empty() && crate::file_kind::is_counts(text) {
                return Err(SessionError::Read {
                    input: super::Input::File(name.to_string()),
                    source: RulesError::counts_read_as_game::<R>(),
                });
            }
            Ok((name.to_string(), file))
        }
        GameInput::Position { name, fen, moves } => {
            let start = R::start(fen, options).map_err(|e| SessionError::Read {
                input: if fen.is_some() {
                    super::Input::Fen
                } else {
                    super::Input::Variant
                },
                source: RulesError::new(e),
            })?;
            let moves = match moves {
                Some(m) => R::read_moves(m).map_err(|e| SessionError::Read {
                    input: super::Input::Moves,
                    source: RulesError::new(e),
                })?,
                None => Vec::new(),
            };
            Ok((
                name.to_string(),
                GameFile {
                    moves,
                    ..GameFile::new(start)
                },
            ))
        }
    }
}

/// Plays every move of `text` on `backend` (outcomes not written in drawn with `seed`), then what
/// the file records after them (a claim) and the check of its result token, then `random_plies` random moves; `source` names the
/// game in messages.
fn replay<R: Ruleset, B: Backend>(
    source: &str,
    text: &FileOf<R>,
    backend: B,
    seed: u64,
    random_plies: usize,
) -> Result<R::Game<B>, SessionError>
where
    R::Error: Classify,
{
    let mut game = R::game_for(text, backend).map_err(|e| SessionError::SetUp {
        name: source.to_string(),
        source: RulesError::new(e),
    })?;
    let mut dice = crate::rng(seed);
    for (index, m) in text.moves.iter().enumerate() {
        game.play(&m.mv, &mut dice)
            .map_err(|e| SessionError::Replay {
                name: source.to_string(),
                number: index + 1,
                text: m.mv.to_string(),
                line: m.line,
                column: m.column,
                source: RulesError::new(e),
            })?;
    }
    R::end_replay(text, &mut game).map_err(|e| SessionError::Finish {
        name: source.to_string(),
        source: RulesError::new(e),
    })?;
    let mut pick = pick_rng(seed);
    let first = R::first_ply(&text.start);
    for _ in 0..random_plies {
        let legal = game.legal_moves().into_iter().map(|m| m.mv).collect();
        let ply = ply_of(first, game.moves().len());
        let played = play_random(legal, &mut pick, |mv| {
            game.play(mv, &mut dice).ok().map(|p| MoveView::at(p, ply))
        });
        if played.is_none() {
            break;
        }
    }
    Ok(game)
}

/// Plays one legal move picked uniformly with `pick` from `legal` by `play`; a move the engine
/// refuses after all (one that would leave the state unchanged) is dropped and another picked.
/// `None` when no move can be played.
fn play_random<M>(
    mut legal: Vec<M>,
    pick: &mut impl Rng,
    mut play: impl FnMut(&M) -> Option<MoveView>,
) -> Option<MoveView> {
    while !legal.is_empty() {
        let mv = legal.swap_remove(pick.gen_range(0..legal.len()));
        if let Some(played) = play(&mv) {
            return Some(played);
        }
    }
    None
}

/// The ply of the game's move `index` (0-based) when its first move is `first_ply`.
fn ply_of(first_ply: u32, index: usize) -> u32 {
    first_ply.saturating_add(u32::try_from(index).unwrap_or(u32::MAX))
}

impl<R, B> Game for Table<R, B>
where
    R: Ruleset<Start: Send> + 'static,
    R::Error: Classify,
    R::Game<B>: Send,
    B: Backend + Send + 'static,
{
    fn rules(&self) -> RulesKind {
        self.spec.rules
    }

    fn backend_kind(&self) -> BackendKind {
        self.spec.backend
    }

    fn precision(&self) -> Precision {
        self.spec.precision
    }

    fn seed(&self) -> u64 {
        self.spec.seed
    }

    fn simulator_type(&self) -> &'static str {
        std::any::type_name::<B>()
    }

    fn source(&self) -> &str {
        &self.source
    }

    fn game_file_extension(&self) -> &'static str {
        R::GAME_FILE_EXTENSION
    }

    fn options_name(&self) -> Option<String> {
        R::options_name(&self.start)
    }

    fn start_fen(&self) -> String {
        R::start_fen(&self.start)
    }

    fn play(&mut self, text: &str) -> Result<MoveView, SessionError> {
        // Read once, as `QuantumGame::play_text` reads it; a text that does not read is the
        // ruleset's own error.
        let mv: R::Move = text
            .parse()
            .map_err(|e| SessionError::Rules(RulesError::new(R::Error::from(e))))?;
        self.play_move(&mv)
    }

    fn with_outcome(&self, text: &str, outcome: &GivenOutcome) -> Result<String, SessionError> {
        let mv: R::Move = text
            .parse()
            .map_err(|e| SessionError::Rules(RulesError::new(R::Error::from(e))))?;
        let written = mv
            .with_outcome(outcome)
            .map_err(|e| SessionError::Rules(RulesError::new(e)))?;
        Ok(written.to_string())
    }

    fn play_random(&mut self) -> Option<MoveView> {
        let legal: Vec<R::Move> = self.game.legal_moves().into_iter().map(|m| m.mv).collect();
        // The picks' stream is taken out while the move is played through the table (which
        // remembers outcomes), then put back where it stands.
        let mut pick = std::mem::replace(&mut self.pick, pick_rng(0));
        let played = play_random(legal, &mut pick, |mv| self.play_move(mv).ok());
        self.pick = pick;
        played
    }

    fn engine_move(
        &mut self,
        limits: &Limits,
        table_bytes: usize,
        stop: StopFlag,
    ) -> Result<Option<EngineReply>, SessionError> {
        let record: Vec<R::Move> = self.game.moves().iter().map(|m| m.mv.clone()).collect();
        let mut searcher = Searcher::new(SearchConfig {
            table_bytes,
            ..SearchConfig::default()
        });
        let found = match searcher.search(&mut self.game, limits, stop, &mut |_| {}) {
            Ok(found) => found,
            Err(e) => {
                // A move failed deep in the search, which left its trial moves on the game.
                self.restore(record);
                return Err(SessionError::Rules(RulesError::new(e)));
            }
        };
        let Some(best) = found.best else {
            return Ok(None);
        };
        let played = self.play_move(&best)?;
        Ok(Some(EngineReply {
            played,
            depth: found.depth,
            score: found.score,
            nodes: found.nodes,
            time: found.time,
        }))
    }

    fn undo(&mut self) -> Result<MoveView, SessionError> {
        let undone = self
            .game
            .undo()
            .map_err(|e| SessionError::Rules(RulesError::new(e)))?;
        self.remember(&undone.mv);
        // The move taken back was the one at the ply the game is at again.
        Ok(MoveView::at(&undone, self.next_ply()))
    }

    fn forget_outcomes(&mut self) -> usize {
        std::mem::take(&mut self.remembered).len()
    }

    fn first_ply(&self) -> u32 {
        R::first_ply(&self.start)
    }

    fn claim(&mut self) -> Option<Result<String, SessionError>> {
        self.game.claim(&mut self.dice).map(|r| {
            r.map(|claimed| claimed.to_string())
                .map_err(|e| SessionError::Rules(RulesError::new(e)))
        })
    }

    fn load(&mut self, name: &str, text: &str) -> Result<(), SessionError> {
        let (source, text) = read::<R>(GameInput::File { name, text }, None)?;
        self.game = replay::<R, B>(
            &source,
            &text,
            (self.new_backend)(self.limit),
            self.spec.seed,
            0,
        )?;
        self.file_moves = played_moves(&self.game, text.moves.len());
        self.start = text.start;
        self.tags = text.tags;
        self.comments = text.comments;
        self.remembered.clear();
        self.source = source;
        Ok(())
    }

    fn legal_moves(&self) -> Vec<LegalView> {
        self.game
            .legal_moves()
            .iter()
            .map(LegalView::from)
            .collect()
    }

    fn moves(&self) -> Vec<MoveView> {
        let first = R::first_ply(&self.start);
        self.game
            .moves()
            .iter()
            .enumerate()
            .map(|(index, played)| MoveView::at(played, ply_of(first, index)))
            .collect()
    }

    fn status(&self) -> Status {
        self.game.status()
    }

    fn side_to_move(&self) -> Color {
        self.game.side_to_move()
    }

    fn fen(&self) -> String {
        self.game.fen()
    }

    fn record(&self) -> String {
        self.game.record()
    }

    fn game_file(&self, with_tags: bool) -> String {
        if with_tags {
            R::write_game(&self.tags, &self.comments_kept(), &self.start, &self.game)
        } else {
            R::write_game(&[], &[], &self.start, &self.game)
        }
    }

    fn board_view(&self, links: bool) -> BoardView {
        self.game.board_view(links)
    }

    fn state_size(&self) -> usize {
        self.game.state_size()
    }

    fn bell(&self, pair: SquarePair) -> Option<([f64; 8], (f64, f64))> {
        self.game.bell(pair)
    }

    fn extras(&self) -> Map<String, Value> {
        self.game.extras()
    }

    fn board_distribution(&self) -> Option<Vec<(String, f64)>> {
        self.game.board_distribution()
    }

    fn most_likely_board(&self) -> Option<(String, f64)> {
        self.game.most_likely_board()
    }

    fn endings_note(&self) -> Option<String> {
        self.game.endings_note()
    }

    fn circuit(&self) -> &Circuit {
        self.game.circuit()
    }

    fn outcomes(&self) -> Vec<Option<bool>> {
        self.game.outcomes()
    }

    fn move_instructions(&self, n: usize) -> Option<Range<usize>> {
        self.game.move_instructions(n)
    }

    fn wire_labels(&self) -> Vec<WireLabel> {
        self.game.wire_labels().to_vec()
    }

    fn basis_states(&self) -> Vec<(Vec<Qubit>, num_complex::Complex64)> {
        self.game.backend().basis_states()
    }

    fn exact_marginal(&self, qubits: &[Qubit]) -> Result<Vec<(u128, f64)>, qc_ir::BackendError> {
        let backend = self.game.backend();
        if qubits.len() > 128 {
            return Err(qc_ir::BackendError::TooManyQubits {
                needed: qubits.len(),
                limit: 128,
            });
        }
        // A marginal has at most one outcome per basis state.
        if let Some(max) = qc_ir::exec::default_max_outcomes(backend, qubits.len()) {
            if backend.state_size() > max {
                return Err(qc_ir::BackendError::TooManyOutcomes {
                    limit: max,
                    bytes_each: qc_ir::exec::outcome_bytes(qubits.len()),
                });
            }
        }
        Ok(backend.marginal(qubits))
    }

    fn compile(
        &self,
        format: Format,
        options: &ExportOptions,
        target: Option<&Target>,
        device: &DeviceOptions<'_>,
    ) -> Result<Compiled, CompileError> {
        let facts = crate::BoardFacts {
            game: Some(self.header_game()),
            ..crate::board_facts(&self.game, self.game.backend())
        };
        compile_circuit_on(
            self.game.circuit(),
            &self.game.outcomes(),
            format,
            options,
            target,
            Some(&facts),
            device,
        )
    }

    fn drawing(
        &self,
        n: Option<usize>,
        all_wires: bool,
    ) -> Result<(Circuit, Annotations), NoSuchMove> {
        game_drawing(&self.game, n, all_wires)
    }
}
