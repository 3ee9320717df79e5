//! The search: expectimax over measurement outcomes, with alpha-beta pruning on the players'
//! choices and Star1 pruning on the chance nodes, a transposition table keyed by the quantum
//! state, move ordering, and iterative deepening under a deadline.
//!
//! A position where the side to move chooses is a max node (negamax: scores are always for the
//! side to move). A move with one outcome leads straight to the next position; a move with
//! several (a measured move: `.m0`/`.m1` in Quantum Chess, the squares a roll collapses to in
//! Niel's Chess) is a chance node worth the expectation of its outcomes, each weighted by its
//! exact probability ([`qc_rules::QuantumGame::move_outcomes`]). Star1 (Ballard 1983) bounds what
//! the outcomes not yet searched can add with the evaluation's range `[-WIN, WIN]`, so an
//! outcome is searched with a window too, and the chance node stops as soon as the expectation
//! cannot reach the parent's window.
//!
//! Each position is reached by playing the outcome on the game (`play` with the outcome
//! written in) and left by `undo`: the game's own make and unmake. The deadline is checked before
//! every such move, so a search ends within one move's work of its time.

use crate::eval::{evaluate, Weights, WIN};
use crate::game::EngineGame;
use crate::limits::{Deadline, Limits, StopFlag};
use crate::ontime::Answer;
use crate::tt::{Bound, Entry, Table};
use qc_rules::{LegalMove, MoveOutcome, QuantumGame, Status};
use rand::SeedableRng;
use std::time::{Duration, Instant};

/// How the engine searches and evaluates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// The evaluation's weights.
    pub weights: Weights,
    /// Bytes of the transposition table.
    pub table_bytes: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            weights: Weights::FULL,
            table_bytes: crate::tt::DEFAULT_BYTES,
        }
    }
}

/// One finished iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// Its depth in plies.
    pub depth: u32,
    /// The best move's score for the side to move, in pawns.
    pub score: f64,
    /// Positions visited so far (moves played on the game) in this search.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The best line: the best move, then the best replies after each move's most likely
    /// outcome.
    pub pv: Vec<String>,
    /// The best move's mate distance in moves when it was proved ([`crate::mate`]): positive
    /// when it wins for certain, negative when the side to move is mated whatever it plays.
    pub mate: Option<i32>,
    /// With [`Searcher::set_multi_pv`] above 1: the best root moves, best first, each with its
    /// exact score and line (the first is the best move, as above); empty otherwise.
    pub lines: Vec<RootLine>,
}

/// One of the best root moves of an iteration (see [`Iteration::lines`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine {
    /// Its score for the side to move, in pawns.
    pub score: f64,
    /// Its mate distance, as [`Iteration::mate`].
    pub mate: Option<i32>,
    /// The move, then the best replies after each move's most likely outcome.
    pub pv: Vec<String>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<M> {
    /// The move to play, as the game lists it; `None` when there is no legal move.
    pub best: Option<M>,
    /// Its score for the side to move, in pawns.
    pub score: f64,
    /// The deepest iteration completed (0 when none was: the move is then the first in the
    /// engine's order).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Work spent ([`crate::Limits::work`]).
    pub work: u64,
    /// Time spent.
    pub time: Duration,
    /// The best line (see [`Iteration::pv`]).
    pub pv: Vec<String>,
    /// Why the search stopped before its time, when the simulator refused a move for want of
    /// memory (the move found is then the best so far, as at a deadline).
    pub out_of_memory: Option<String>,
}

/// Why a search stopped short.
enum Abort<E> {
    /// The deadline, the node limit or the stop flag.
    Time,
    /// The simulator had no room for a move ([`crate::game::out_of_memory`]): the game is as it
    /// was, and the search ends with its best so far.
    Memory(E),
    /// Playing or taking back a move failed.
    Game(E),
}

impl<E: std::error::Error + 'static> Abort<E> {
    /// A failed play or `move_outcomes`: [`Abort::Memory`] when the simulator ran out of room,
    /// [`Abort::Time`] when it stopped a step at the deadline or the stop flag (the game's
    /// ledger restored the state either way).
    fn failed(error: E) -> Abort<E> {
        if crate::game::interrupted(&error) {
            Abort::Time
        } else if crate::game::out_of_memory(&error) {
            Abort::Memory(error)
        } else {
            Abort::Game(error)
        }
    }
}

/// The root's moves as [`Searcher::root_moves`] lists them.
struct Root<G: QuantumGame> {
    /// The moves with outcomes, in the engine's order.
    moves: Vec<RootMove<G::Move>>,
    /// The first legal move found (published at once), the answer when `moves` is empty.
    first: Option<G::Move>,
    /// Why listing stopped short for want of memory.
    out_of_memory: Option<G::Error>,
}

/// A root move with its outcomes and its last score.
struct RootMove<M> {
    mv: M,
    outcomes: Vec<MoveOutcome<M>>,
    score: f64,
    /// The move and the best line after it, when its last score is exact.
    line: Vec<String>,
}

/// A searcher: its transposition table and ordering statistics survive from one search to the
/// next (the same game, a move later, reaches many of the same positions).
pub struct Searcher {
    config: SearchConfig,
    table: Table,
    /// Two quiet moves per ply that caused a cutoff (their squares' keys).
    killers: Vec<[Option<u64>; 2]>,
    /// Cutoffs by (source, target) square.
    history: Vec<u32>,
    /// The best line from each ply.
    pv: Vec<Vec<String>>,
    nodes: u64,
    /// The work spent in this search ([`crate::Limits::work`]): the basis states of the
    /// positions moves were played from, summed.
    work: u64,
    /// Where the best root move so far is published (see [`Searcher::publish_to`]).
    answer: Option<Answer>,
    /// How many root moves get an exact score (see [`Searcher::set_multi_pv`]).
    multi_pv: usize,
}

/// Plies beyond which no ordering statistics are kept.
const MAX_PLY: usize = 128;

impl Searcher {
    /// A searcher with `config`.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            config,
            table: Table::with_bytes(config.table_bytes),
            killers: vec![[None, None]; MAX_PLY],
            history: vec![0; 64 * 64],
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            work: 0,
            answer: None,
            multi_pv: 1,
        }
    }

    /// The most root moves later searches score exactly and report ([`Iteration::lines`]):
    /// UCI's `MultiPV`. 1 (the default) searches for the best move only; more widens the root's
    /// window to the `n`-th best score so far, which costs time.
    pub fn set_multi_pv(&mut self, n: usize) {
        self.multi_pv = n.max(1);
    }

    /// Publishes the best root move of every later search into `answer` as the search goes
    /// (`None`: nowhere), so that another thread can answer at the deadline without waiting for
    /// the node the search is in ([`crate::ontime`]).
    pub fn publish_to(&mut self, answer: Option<Answer>) {
        self.answer = answer;
    }

    /// Tells the thread that answers that `mv` is the best root move so far.
    fn publish(&self, mv: &impl std::fmt::Display) {
        if let Some(answer) = &self.answer {
            answer.publish(mv.to_string());
        }
    }

    /// The number of slots of the transposition table (its size, [`SearchConfig::table_bytes`],
    /// rounded down to a power of two slots).
    pub fn table_slots(&self) -> usize {
        self.table.len()
    }

    /// Forgets every stored search (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
    }

    /// The best move for the side to move of `game` within `limits` (ended early by `stop`),
    /// calling `on_iteration` after each completed depth. The game is left as it was.
    ///
    /// # Errors
    /// Playing or taking back a trial move failed (the game may then have moved on: rebuild it).
    pub fn search<G: EngineGame>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Result<Found<G::Move>, G::Error> {
        self.search_among(game, limits, stop, &|_| true, on_iteration)
    }

    /// As [`Searcher::search`], choosing only among the legal moves `allowed` accepts (a GUI's
    /// own list of legal moves); the replies are not restricted.
    ///
    /// # Errors
    /// As [`Searcher::search`].
    pub fn search_among<G: EngineGame>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
        allowed: &dyn Fn(&G::Move) -> bool,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Result<Found<G::Move>, G::Error> {
        let deadline = Deadline::new(Instant::now(), limits, stop);
        // The simulator gives up a move it is in when the deadline passes or the flag is raised
        // (the game's ledger restores the state), so the search comes back within a few
        // thousand basis states of its time rather than one whole move later.
        qc_ir::interrupt::while_interruptible(deadline.interrupt(), || {
            self.search_until(game, limits, &deadline, allowed, on_iteration)
        })
    }

    /// [`Searcher::search_among`] under `deadline`.
    fn search_until<G: EngineGame>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        deadline: &Deadline,
        allowed: &dyn Fn(&G::Move) -> bool,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Result<Found<G::Move>, G::Error> {
        self.nodes = 0;
        self.work = 0;
        for k in &mut self.killers {
            *k = [None, None];
        }
        for h in &mut self.history {
            *h /= 2;
        }
        let mut found = Found {
            best: None,
            score: 0.0,
            depth: 0,
            nodes: 0,
            work: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            out_of_memory: None,
        };
        if game.status().is_over() {
            return Ok(found);
        }
        let listed = self.root_moves(game, deadline, allowed);
        let mut root = listed.moves;
        if let Some(e) = listed.out_of_memory {
            found.out_of_memory = Some(e.to_string());
        }
        if root.is_empty() {
            // No move's outcomes could be worked out (no room, or the time ran out while the
            // moves were listed): the first legal move found answers.
            found.best = listed.first;
            found.time = deadline.elapsed();
            return Ok(found);
        }
        if let Some(first) = root.first() {
            found.best = Some(first.mv.clone());
            found.pv = vec![first.mv.to_string()];
        }
        if root.len() <= 1 {
            found.time = deadline.elapsed();
            return Ok(found);
        }
        let mut last_iteration = Duration::ZERO;
        for depth in 1..=limits.max_depth() {
            if depth > 1 && !deadline.another_iteration(last_iteration) {
                break;
            }
            let started = Instant::now();
            match self.root_iteration(game, &mut root, depth, deadline) {
                Ok(()) => {}
                Err(Abort::Game(e)) => return Err(e),
                Err(stopped @ (Abort::Time | Abort::Memory(_))) => {
                    if let Abort::Memory(e) = stopped {
                        found.out_of_memory = Some(e.to_string());
                    }
                    // The moves searched in full at this depth before time ran out: the first
                    // is the last iteration's best, so a later one that beat it is better.
                    if let Some(best) = root.first().filter(|m| m.score.is_finite()) {
                        if found.best.as_ref() != Some(&best.mv) || depth == 1 {
                            found.best = Some(best.mv.clone());
                            found.score = best.score;
                            found.pv = vec![best.mv.to_string()];
                        }
                    }
                    break;
                }
            }
            last_iteration = started.elapsed();
            let best = &root[0];
            found.best = Some(best.mv.clone());
            found.score = best.score;
            found.depth = depth;
            found.pv = self.pv[0].clone();
            let best_text = best.mv.to_string();
            if found.pv.first() != Some(&best_text) {
                found.pv = vec![best_text];
            }
            let shown = if self.multi_pv > 1 { self.multi_pv } else { 0 };
            let mut lines = Vec::with_capacity(shown.min(root.len()));
            for m in root.iter().take(shown) {
                lines.push(RootLine {
                    score: m.score,
                    mate: self.mate(game, m, depth, deadline)?,
                    pv: m.line.clone(),
                });
            }
            let mate = match lines.first() {
                Some(line) => line.mate,
                None => self.mate(game, &root[0], depth, deadline)?,
            };
            if let Some(first) = lines.first_mut() {
                first.pv = found.pv.clone();
            }
            on_iteration(&Iteration {
                depth,
                score: found.score,
                nodes: self.nodes,
                time: deadline.elapsed(),
                pv: found.pv.clone(),
                mate,
                lines,
            });
            // A forced result needs no deeper look.
            if found.score.abs() >= WIN - 1.0 {
                break;
            }
        }
        found.nodes = self.nodes;
        found.work = self.work;
        found.time = deadline.elapsed();
        Ok(found)
    }

    /// The mate distance of the root move `m` searched to `depth`, when its score is a win or a
    /// loss but for a sliver, and [`crate::mate`] proves it before the deadline.
    ///
    /// # Errors
    /// Playing or taking back a move of the proof failed.
    fn mate<G: EngineGame>(
        &self,
        game: &mut G,
        m: &RootMove<G::Move>,
        depth: u32,
        deadline: &Deadline,
    ) -> Result<Option<i32>, G::Error> {
        if m.score.abs() < crate::mate::MATE_SCORE {
            return Ok(None);
        }
        // A win at ply `k` scores `WIN - 0.01 k`: the plies the score implies, for a proof
        // deeper than this iteration when the table remembered a deeper search.
        let implied = ((WIN - m.score.abs()) / 0.01).round() as u32;
        let (nodes, work) = (self.nodes, self.work);
        let stop = || deadline.reached(nodes, work);
        crate::mate::mate_distance(
            game,
            &m.outcomes,
            m.score > 0.0,
            depth.max(implied),
            &mut crate::mate::ProofLimit::new(&stop),
        )
    }

    /// The root's legal moves that have outcomes, in the engine's order, and the first legal
    /// move found, which is published as soon as it is found: on a state of half a million
    /// basis states listing every legal move takes seconds, and a GUI's `bestmove` cannot wait
    /// for that. Stops listing (the moves, or their outcomes once at least one move has them)
    /// when the deadline passes, or when the simulator has no room to work out a move's
    /// outcomes (with the error).
    fn root_moves<G: EngineGame>(
        &mut self,
        game: &mut G,
        deadline: &Deadline,
        allowed: &dyn Fn(&G::Move) -> bool,
    ) -> Root<G> {
        let mut first: Option<G::Move> = None;
        let listed = game.legal_moves_while(&mut |found| {
            if first.is_none() {
                if let Some(m) = found.iter().find(|m| allowed(&m.mv)) {
                    self.publish(&m.mv);
                    first = Some(m.mv.clone());
                }
            }
            // Listing goes on past the deadline (or `stop`) until a move to answer is found:
            // a search stopped before it had one answered none (`bestmove 0000`, which a GUI
            // reads as the end of the game), although legal moves were there.
            first.is_none() || !deadline.reached(self.nodes, self.work)
        });
        let mut root = Root {
            moves: Vec::new(),
            first,
            out_of_memory: None,
        };
        let Some(listed) = listed else {
            return root;
        };
        let moves: Vec<LegalMove<G::Move>> =
            listed.into_iter().filter(|m| allowed(&m.mv)).collect();
        let order = self.order::<G>(game, &moves, None, 0);
        // Every listed move is legal, so the first in order is a move to answer with should time
        // run out while its outcomes are worked out: on a state of half a million basis states
        // one move's outcomes (each run on the state and taken back) took over 100 ms.
        if let Some(&best) = order.first() {
            self.publish(&moves[best].mv);
            root.first = Some(moves[best].mv.clone());
        }
        for &index in &order {
            if !root.moves.is_empty() && deadline.reached(self.nodes, self.work) {
                break;
            }
            let mv = &moves[index].mv;
            // A listed move whose outcomes the game refuses cannot be played (Quantum Chess
            // lists a few that only change the state's global phase); one the simulator has no
            // room for would be playable with more memory, and the next would not fare better;
            // one the simulator stopped at the deadline ends the listing.
            let outcomes = match game.move_outcomes(mv) {
                Ok(outcomes) if !outcomes.is_empty() => outcomes,
                Err(e) if crate::game::interrupted(&e) => break,
                Err(e) if crate::game::out_of_memory(&e) => {
                    root.out_of_memory = Some(e);
                    break;
                }
                _ => continue,
            };
            if root.moves.is_empty() {
                // The first playable move (the first in order, unless it could not be played
                // after all).
                self.publish(mv);
            }
            root.moves.push(RootMove {
                mv: mv.clone(),
                outcomes,
                score: f64::NEG_INFINITY,
                line: Vec::new(),
            });
        }
        root
    }

    /// One iteration at the root: every move searched to `depth`, best first; the moves are
    /// then sorted by score (a move that did not beat the best keeps its place).
    fn root_iteration<G: EngineGame>(
        &mut self,
        game: &mut G,
        root: &mut [RootMove<G::Move>],
        depth: u32,
        deadline: &Deadline,
    ) -> Result<(), Abort<G::Error>> {
        for m in root.iter_mut() {
            m.score = f64::NEG_INFINITY;
            m.line.clear();
        }
        let mut alpha = -WIN - 1.0;
        let mut best_pv = Vec::new();
        // MultiPV: the scores of the moves scored exactly so far, best first; a move is searched
        // above the `multi_pv`-th of them (with 1, that is `alpha`).
        let mut exact: Vec<f64> = Vec::new();
        for i in 0..root.len() {
            let window = match exact.get(self.multi_pv - 1) {
                Some(&kth) if self.multi_pv > 1 => kth,
                None if self.multi_pv > 1 => -WIN - 1.0,
                _ => alpha,
            };
            let outcomes = std::mem::take(&mut root[i].outcomes);
            let result = self.move_value(game, &outcomes, depth, window, WIN + 1.0, 0, deadline);
            root[i].outcomes = outcomes;
            let score = result?;
            root[i].score = score;
            if self.multi_pv > 1 && (score > window || exact.len() < self.multi_pv) {
                let at = exact.partition_point(|&s| s >= score);
                exact.insert(at, score);
                exact.truncate(self.multi_pv);
                root[i].line = std::iter::once(root[i].mv.to_string())
                    .chain(self.pv[1].iter().cloned())
                    .collect();
            }
            if score > alpha || i == 0 {
                // Searched in full at this depth and better than those before it: the move to
                // answer were time to end now (as `search_among` answers on `Abort::Time`).
                self.publish(&root[i].mv);
                alpha = alpha.max(score);
                best_pv = std::iter::once(root[i].mv.to_string())
                    .chain(self.pv[1].iter().cloned())
                    .collect();
                // Keep the best first, so that an interrupted next step starts from it.
                root[..=i].rotate_right(1);
            }
        }
        // The best is first; the others follow in their previous order (MultiPV: by score, so
        // that the first `multi_pv` are the exactly scored best; a stable sort keeps the best
        // first among equals).
        if self.multi_pv > 1 {
            root.sort_by(|a, b| b.score.total_cmp(&a.score));
        }
        self.pv[0] = best_pv;
        Ok(())
    }

    /// The value for the side to move of playing the move whose `outcomes` are given, searching
    /// `depth` plies (this move included), within (`alpha`, `beta`).
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's state is passed down explicitly"
    )]
    fn move_value<G: EngineGame>(
        &mut self,
        game: &mut G,
        outcomes: &[MoveOutcome<G::Move>],
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: usize,
        deadline: &Deadline,
    ) -> Result<f64, Abort<G::Error>> {
        if let [only] = outcomes {
            return self.child(game, &only.mv, depth, alpha, beta, ply, deadline);
        }
        // Star1: the outcomes left can add at most `WIN` (at least `-WIN`) times their chance.
        let total: f64 = outcomes.iter().map(|o| o.probability).sum();
        let mut order: Vec<&MoveOutcome<G::Move>> = outcomes.iter().collect();
        order.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        let (low, high) = (-WIN, WIN);
        let mut sum = 0.0;
        let mut left = 1.0f64;
        let mut likely_pv = None;
        for outcome in order {
            let p = outcome.probability / total;
            left = (left - p).max(0.0);
            let a = (alpha - sum - high * left) / p;
            let b = (beta - sum - low * left) / p;
            let v = self.child(
                game,
                &outcome.mv,
                depth,
                a.max(low),
                b.min(high),
                ply,
                deadline,
            )?;
            likely_pv.get_or_insert_with(|| self.pv[ply + 1].clone());
            if v <= a {
                return Ok(alpha);
            }
            if v >= b {
                return Ok(beta);
            }
            sum += p * v;
        }
        if let Some(pv) = likely_pv {
            self.pv[ply + 1] = pv;
        }
        Ok(sum)
    }

    /// Plays `mv` (a move with its outcome written in), searches the position after it, and
    /// takes it back: the value for the side that played it.
    #[allow(
        clippy::too_many_arguments,
        reason = "the search's state is passed down explicitly"
    )]
    fn child<G: EngineGame>(
        &mut self,
        game: &mut G,
        mv: &G::Move,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: usize,
        deadline: &Deadline,
    ) -> Result<f64, Abort<G::Error>> {
        if deadline.reached(self.nodes, self.work) {
            return Err(Abort::Time);
        }
        self.nodes += 1;
        // A move costs about as much as the state it is played on is large (and what the
        // ruleset's legality checks add).
        self.work = self.work.saturating_add(game.search_work());
        // The move's own outcome is written in; randomness beyond it (Quantum Chess: the
        // measurement of every square at the fifty-move limit) is drawn from a fixed seed, so
        // that a search is repeatable.
        let mut fixed = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        game.play(mv, &mut fixed).map_err(Abort::failed)?;
        let value = self.negamax(game, depth - 1, -beta, -alpha, ply + 1, deadline);
        game.undo().map_err(Abort::Game)?;
        Ok(-value?)
    }

    /// The value of the position for the side to move, searched `depth` plies within
    /// (`alpha`, `beta`); fail-soft.
    fn negamax<G: EngineGame>(
        &mut self,
        game: &mut G,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        ply: usize,
        deadline: &Deadline,
    ) -> Result<f64, Abort<G::Error>> {
        if let Some(pv) = self.pv.get_mut(ply) {
            pv.clear();
        }
        match game.status() {
            Status::Ongoing => {}
            // Sooner wins score higher, later losses lower.
            Status::Win(winner, _) => {
                let score = WIN - ply as f64 * 0.01;
                return Ok(if winner == game.side_to_move() {
                    score
                } else {
                    -score
                });
            }
            Status::Draw(_) => return Ok(0.0),
        }
        if depth == 0 || ply >= MAX_PLY {
            return Ok(evaluate(&game.board_view(false), &self.config.weights));
        }
        let key = game.position_key();
        let stored = self.table.probe(key);
        if let Some(score) = stored.and_then(|e| e.cutoff(depth, alpha, beta)) {
            return Ok(score);
        }
        // Listing the moves reads the state once per candidate: stopped at the deadline too.
        let (nodes, work) = (self.nodes, self.work);
        let Some(moves) = game.legal_moves_while(&mut |_| !deadline.reached(nodes, work)) else {
            return Err(Abort::Time);
        };
        let order = self.order::<G>(game, &moves, stored.and_then(|e| e.best), ply);
        let alpha_in = alpha;
        let mut best = f64::NEG_INFINITY;
        let mut best_index = None;
        for index in order {
            let mv = &moves[index].mv;
            let outcomes = match game.move_outcomes(mv) {
                Ok(o) if !o.is_empty() => o,
                Err(e) if crate::game::interrupted(&e) => return Err(Abort::Time),
                Err(e) if crate::game::out_of_memory(&e) => return Err(Abort::Memory(e)),
                _ => continue,
            };
            let v = self.move_value(game, &outcomes, depth, alpha, beta, ply, deadline)?;
            if v > best {
                best = v;
                best_index = Some(index);
                if v > alpha {
                    alpha = v;
                    let line: Vec<String> = std::iter::once(mv.to_string())
                        .chain(self.pv[ply + 1].iter().cloned())
                        .collect();
                    self.pv[ply] = line;
                }
            }
            if alpha >= beta {
                self.reward::<G>(mv, ply, depth);
                break;
            }
        }
        let Some(best_index) = best_index else {
            // No move can be played: nothing changes any more.
            return Ok(0.0);
        };
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            depth,
            score: best,
            bound,
            best: u16::try_from(best_index).ok(),
        });
        Ok(best)
    }

    /// Remembers a move that cut the search off at `ply`.
    fn reward<G: EngineGame>(&mut self, mv: &G::Move, ply: usize, depth: u32) {
        let squares = G::move_squares(mv);
        let key = squares.key();
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(key) {
                k[1] = k[0].take();
                k[0] = Some(key);
            }
        }
        if let (Some(s), Some(t)) = (squares.sources.first(), squares.targets.first()) {
            let h = &mut self.history[s.index() * 64 + t.index()];
            *h = h.saturating_add(depth * depth);
        }
    }

    /// The order in which to search `moves`: the stored best move, then captures (the most
    /// valuable likely victim first, by the cheapest attacker), killers, then by history; splits
    /// after the other quiet moves.
    fn order<G: EngineGame>(
        &self,
        game: &G,
        moves: &[LegalMove<G::Move>],
        stored_best: Option<u16>,
        ply: usize,
    ) -> Vec<usize> {
        let view = game.board_view(false);
        let us = game.side_to_move();
        let value = |c: char| {
            qc_rules::Piece::from_fen_char(c)
                .map_or(0.0, |p| crate::eval::piece_value(p.kind, &Weights::FULL))
        };
        let killers = self.killers.get(ply);
        let mut keyed: Vec<(f64, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if stored_best.is_some_and(|b| usize::from(b) == i) {
                    return (1e12, i);
                }
                let squares = G::move_squares(&m.mv);
                let attacker = squares
                    .sources
                    .first()
                    .and_then(|&s| view.get(s))
                    .map_or(0.0, |s| value(s.piece));
                let victim: f64 = squares
                    .targets
                    .iter()
                    .filter_map(|&t| view.get(t))
                    .filter(|s| {
                        qc_rules::Piece::from_fen_char(s.piece).is_some_and(|p| p.color != us)
                    })
                    .map(|s| value(s.piece) * s.probability)
                    .sum();
                if victim > 0.0 {
                    return (1e9 + 1000.0 * victim - attacker, i);
                }
                if killers.is_some_and(|k| k.contains(&Some(squares.key()))) {
                    return (1e8, i);
                }
                let history = match (squares.sources.first(), squares.targets.first()) {
                    (Some(s), Some(t)) => {
                        f64::from(self.history[s.index() * 64 + t.index()]).min(1e7)
                    }
                    _ => 0.0,
                };
                let split = if squares.targets.len() > 1 { -0.5 } else { 0.0 };
                (history + split, i)
            })
            .collect();
        keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        keyed.into_iter().map(|(_, i)| i).collect()
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(SearchConfig::default())
    }
}
