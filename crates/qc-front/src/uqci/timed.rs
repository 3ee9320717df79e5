//! `go` under a time control (`movetime`, `wtime`/`btime`, `nodes`, `infinite`): qc-engine's
//! search on a thread of its own, so that the session keeps reading commands (`stop`, `isready`,
//! `quit`, and the read-only ones) while it runs (docs/uqci.md, "go under a time control").
//!
//! The thread replays the position on a game of its own (the session's game stays free for
//! `probs`, `moves`, ...), sends one `info depth ...` line per finished iteration and `bestmove`
//! at the end; after `go infinite` it holds `bestmove` back until `stop`.

use super::output::Output;
use qc_engine::{EngineGame, Iteration, Limits, SearchConfig, Searcher, StopFlag};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often a finished `go infinite` looks whether `stop` came.
const STOP_POLL: Duration = Duration::from_millis(5);

/// A search running on its thread.
pub struct Running {
    stop: StopFlag,
    thread: JoinHandle<Searcher>,
}

impl Running {
    /// Ends the search (its `bestmove` is sent before this returns) and gives back its searcher.
    pub fn finish(self) -> Searcher {
        self.stop.stop();
        // The thread catches nothing that could panic on input; a panic is a bug, and the
        // session goes on with a fresh searcher.
        self.thread
            .join()
            .unwrap_or_else(|_| Searcher::new(SearchConfig::default()))
    }
}

/// What a search thread needs: a game of its own, built on the thread, and what to search.
pub struct Job<G> {
    /// Builds the position's game (on the search thread).
    pub build: Box<dyn FnOnce() -> Result<G, String> + Send>,
    /// The limits of `go`.
    pub limits: Limits,
    /// Whether `bestmove` waits for `stop` (`go infinite`).
    pub infinite: bool,
    /// The moves `searchmoves` allows (empty: every legal move).
    pub search_moves: Vec<String>,
}

/// Starts `job` with `searcher` on a new thread that writes to `out`.
pub fn start<G: EngineGame + 'static>(job: Job<G>, mut searcher: Searcher, out: Output) -> Running {
    let stop = StopFlag::new();
    let flag = stop.clone();
    let thread = std::thread::spawn(move || {
        let (mut lines, best) = run(
            job.build,
            &job.limits,
            &job.search_moves,
            &mut searcher,
            &flag,
            &out,
        );
        if job.infinite {
            // UCI: after `go infinite` the move is only given once `stop` (or `quit`) says so.
            while !flag.is_raised() {
                std::thread::sleep(STOP_POLL);
            }
        }
        lines.push(format!("bestmove {}", best.as_deref().unwrap_or("0000")));
        // A closed output (the GUI went away) has nobody left to tell.
        let _ = out.send(&lines);
        searcher
    });
    Running { stop, thread }
}

/// Builds the game and searches it, sending each iteration's line as it finishes; returns the
/// lines still to send and the best move (`None`: no legal move, or the search failed).
fn run<G: EngineGame>(
    build: Box<dyn FnOnce() -> Result<G, String> + Send>,
    limits: &Limits,
    search_moves: &[String],
    searcher: &mut Searcher,
    stop: &StopFlag,
    out: &Output,
) -> (Vec<String>, Option<String>) {
    let mut game = match build() {
        Ok(game) => game,
        Err(e) => return (vec![format!("info string error go: {e}")], None),
    };
    let allowed =
        |mv: &G::Move| search_moves.is_empty() || search_moves.iter().any(|m| *m == mv.to_string());
    let mut report = |it: &Iteration| {
        let _ = out.send(&[info_line(it)]);
    };
    match searcher.search_among(&mut game, limits, stop.clone(), &allowed, &mut report) {
        Ok(found) => (Vec::new(), found.best.map(|m| m.to_string())),
        Err(e) => (vec![format!("info string error go: {e}")], None),
    }
}

/// `info depth D score cp S nodes N nps X time T pv M1 M2 ...` for one iteration (time in
/// milliseconds, `nps` positions per second).
fn info_line(it: &Iteration) -> String {
    let ms = it.time.as_millis();
    let nps = (u128::from(it.nodes) * 1000) / ms.max(1);
    let mut line = format!(
        "info depth {} score cp {} nodes {} nps {nps} time {ms}",
        it.depth,
        (it.score * 100.0).round() as i64,
        it.nodes
    );
    if !it.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&it.pv.join(" "));
    }
    line
}
