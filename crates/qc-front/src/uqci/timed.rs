//! `go` under a time control (`movetime`, `wtime`/`btime`, `nodes`, `infinite`): qc-engine's
//! search on a thread of its own, so that the session keeps reading commands (`stop`, `isready`,
//! `quit`, and the read-only ones) while it runs (docs/uqci.md, "go under a time control").
//!
//! The thread takes the session's game with it (replaying the position there took the whole
//! time of a search on a long game: 3.5 s before the `bestmove` of a `go movetime 300` after 80
//! plies), sends one `info depth ...` line per finished iteration, and gives the game back when
//! it ends. A second thread sends `bestmove`: the search's move when it ends in time, or at the
//! deadline the best move the search has published (qc-engine's `ontime`); after `go infinite`
//! it holds `bestmove` back until `stop`.

use super::output::Output;
use qc_engine::{Answer, EngineGame, Iteration, Limits, SearchConfig, Searcher, StopFlag};
use std::thread::JoinHandle;
use std::time::Instant;

/// A search running on its thread, on a game of type `G`, and the thread that answers for it.
pub struct Running<G> {
    stop: StopFlag,
    answerer: JoinHandle<()>,
    thread: JoinHandle<(Searcher, Option<G>)>,
}

impl<G> Running<G> {
    /// Ends the search (its `bestmove` is sent before this returns) and gives back its searcher
    /// and the game, as it was (`None` when the search failed: the game may have moved on).
    /// The `bestmove` is sent as soon as the search is stopped; the game comes back when the
    /// search has left the move it was in.
    pub fn finish(self) -> (Searcher, Option<G>) {
        self.stop.stop();
        // Neither thread catches anything that could panic on input; a panic is a bug, and the
        // session goes on with a fresh searcher and builds its game again.
        let _ = self.answerer.join();
        self.thread
            .join()
            .unwrap_or_else(|_| (Searcher::new(SearchConfig::default()), None))
    }
}

/// What a search thread needs: the position's game and what to search.
pub struct Job<G> {
    /// The game of the position to search, taken from the session.
    pub game: G,
    /// The limits of `go`.
    pub limits: Limits,
    /// Whether `bestmove` waits for `stop` (`go infinite`).
    pub infinite: bool,
    /// The moves `searchmoves` allows (empty: every legal move).
    pub search_moves: Vec<String>,
}

/// Starts `job` with `searcher` on a new thread that writes its `info` lines to `out`, and a
/// second thread that writes `bestmove`: the search's own move when it ends in time, otherwise
/// at the deadline (or at `stop`) the best move it has published so far, without waiting for
/// the node it is in (one move on a state of a million basis states outlasts a short
/// `movetime`, docs/uqci.md).
pub fn start<G: EngineGame + Send + 'static>(
    job: Job<G>,
    mut searcher: Searcher,
    out: Output,
) -> Running<G> {
    let began = Instant::now();
    let stop = StopFlag::new();
    let answer = Answer::new();
    searcher.publish_to(Some(answer.clone()));
    let answer_by = job.limits.answer_by(began);
    let answerer = {
        let (answer, stop, out) = (answer.clone(), stop.clone(), out.clone());
        let infinite = job.infinite;
        std::thread::spawn(move || {
            // UCI: after `go infinite` the move is only given once `stop` (or `quit`) says so.
            let best = answer.wait(answer_by, infinite, &stop);
            // The search may still be inside a move: it ends at its next one.
            stop.stop();
            // A closed output (the GUI went away) has nobody left to tell.
            let _ = out.send(&[format!("bestmove {}", best.as_deref().unwrap_or("0000"))]);
        })
    };
    let flag = stop.clone();
    let thread = std::thread::spawn(move || {
        let mut game = job.game;
        let (best, intact) = run(
            &mut game,
            &job.limits,
            &job.search_moves,
            &mut searcher,
            &flag,
            &answer,
            &out,
        );
        answer.end(best);
        searcher.publish_to(None);
        (searcher, intact.then_some(game))
    });
    Running {
        stop,
        answerer,
        thread,
    }
}

/// Searches `game`, sending each iteration's line as it finishes (none once `bestmove` was
/// sent); returns the best move (`None`: no legal move, or the search failed) and whether the
/// game is as it was (the search failed otherwise).
fn run<G: EngineGame>(
    game: &mut G,
    limits: &Limits,
    search_moves: &[String],
    searcher: &mut Searcher,
    stop: &StopFlag,
    answer: &Answer,
    out: &Output,
) -> (Option<String>, bool) {
    let allowed =
        |mv: &G::Move| search_moves.is_empty() || search_moves.iter().any(|m| *m == mv.to_string());
    let mut report = |it: &Iteration| {
        answer.before_taken(|| {
            let _ = out.send(&super::output::iteration_lines(it));
        });
    };
    match searcher.search_among(game, limits, stop.clone(), &allowed, &mut report) {
        Ok(found) => {
            if let Some(why) = &found.out_of_memory {
                answer.before_taken(|| {
                    let _ = out.send(&[format!(
                        "info string the search stopped early, the simulator has no room: {why}"
                    )]);
                });
            }
            (found.best.map(|m| m.to_string()), true)
        }
        Err(e) => {
            answer.before_taken(|| {
                let _ = out.send(&[format!("info string error go: {e}")]);
            });
            (None, false)
        }
    }
}
