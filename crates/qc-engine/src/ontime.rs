//! Answering on time whatever the search is doing: the search publishes its best root move as
//! it goes into an [`Answer`], and another thread takes the move from there at the deadline.
//!
//! The search checks its deadline before every move it plays, and the simulator gives up a move
//! in progress at the deadline ([`qc_ir::interrupt`]), but what only reads the state (a
//! candidate move's legality, the evaluation) still runs to its end: on a state of a million
//! basis states that can outlast a short move time (the `movetime_fuzz` example measured 456 ms
//! for a 20 ms `go movetime` before the interrupt, docs/engine.md). The thread that answers does
//! not wait for that: at the deadline it gives the best move the search has published (the first
//! legal move is published as soon as it is found), which is the move the search itself would
//! answer were it stopped there.

use crate::limits::StopFlag;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a waiting [`Answer::wait`] looks at the stop flag (a flag raised elsewhere does
/// not wake it).
const POLL: Duration = Duration::from_millis(2);

/// What the search has published so far.
#[derive(Debug, Default)]
struct State {
    /// The best root move so far, as the game writes it.
    best: Option<String>,
    /// Whether the search ended (its last word is `best`).
    ended: bool,
    /// Whether the answer was taken: later publications are not wanted.
    taken: bool,
}

/// The answer of a search running on another thread, shared between the search (which
/// publishes) and the thread that answers (which waits).
#[derive(Clone, Debug, Default)]
pub struct Answer(Arc<(Mutex<State>, Condvar)>);

impl Answer {
    /// An answer with nothing published.
    pub fn new() -> Answer {
        Answer::default()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding this lock leaves a plain value behind: still usable.
        self.0
             .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The search's best root move so far is `mv`.
    pub fn publish(&self, mv: String) {
        let mut state = self.state();
        if !state.ended {
            state.best = Some(mv);
        }
    }

    /// The search ended: its move is `best` (`None`: no legal move, or it failed).
    pub fn end(&self, best: Option<String>) {
        let mut state = self.state();
        if !state.ended {
            state.best = best;
            state.ended = true;
        }
        self.0 .1.notify_all();
    }

    /// Whether the answer was taken by [`Answer::wait`] (what the search still reports is
    /// then too late to be sent).
    pub fn is_taken(&self) -> bool {
        self.state().taken
    }

    /// Whether the search ended (its own move, or none, is the answer).
    pub fn has_ended(&self) -> bool {
        self.state().ended
    }

    /// Runs `report` unless the answer was taken, and keeps it from being taken meanwhile, so
    /// that what `report` writes comes before the answer or not at all.
    pub fn before_taken(&self, report: impl FnOnce()) {
        let state = self.state();
        if !state.taken {
            report();
        }
    }

    /// Waits for the move to answer: the search's own when it ends first; otherwise, once
    /// `deadline` passes or `stop` is raised, the best it published (waiting on for the first
    /// one when none was published yet). With `hold_until_stop` (`go infinite`) nothing is
    /// answered before `stop` is raised. `None`: the search ended without a move.
    pub fn wait(
        &self,
        deadline: Option<Instant>,
        hold_until_stop: bool,
        stop: &StopFlag,
    ) -> Option<String> {
        let mut state = self.state();
        loop {
            let stopped = stop.is_raised();
            let due = stopped || deadline.is_some_and(|d| Instant::now() >= d);
            let released = !hold_until_stop || stopped;
            if released && (state.ended || (due && state.best.is_some())) {
                state.taken = true;
                return state.best.clone();
            }
            let mut wait = POLL;
            if let Some(d) = deadline {
                wait = wait.min(d.saturating_duration_since(Instant::now()).max(POLL / 4));
            }
            state = match self.0 .1.wait_timeout(state, wait) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_answers_the_best_published_while_the_search_is_busy() {
        let answer = Answer::new();
        let publisher = answer.clone();
        let search = std::thread::spawn(move || {
            publisher.publish("e2e4".into());
            // A node that outlasts the move time many times over.
            std::thread::sleep(Duration::from_secs(2));
            publisher.end(Some("d2d4".into()));
        });
        let began = Instant::now();
        let stop = StopFlag::new();
        let mv = answer.wait(Some(began + Duration::from_millis(50)), false, &stop);
        assert_eq!(mv.as_deref(), Some("e2e4"));
        assert!(
            began.elapsed() < Duration::from_secs(1),
            "{:?}",
            began.elapsed()
        );
        assert!(answer.is_taken());
        search.join().expect("search thread");
    }

    #[test]
    fn an_ended_search_answers_at_once_and_infinite_waits_for_stop() {
        let answer = Answer::new();
        answer.publish("e2e4".into());
        answer.end(Some("g1f3".into()));
        answer.publish("a2a3".into());
        let stop = StopFlag::new();
        let far = Instant::now() + Duration::from_secs(60);
        assert_eq!(
            answer.wait(Some(far), false, &stop).as_deref(),
            Some("g1f3")
        );

        let held = Answer::new();
        held.end(Some("g1f3".into()));
        let stopper = stop.clone();
        let raise = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stopper.stop();
        });
        let began = Instant::now();
        assert_eq!(held.wait(None, true, &stop).as_deref(), Some("g1f3"));
        assert!(began.elapsed() >= Duration::from_millis(100));
        raise.join().expect("stopper");

        // No legal move: the search ends with none, and the answer is none.
        let none = Answer::new();
        none.end(None);
        assert_eq!(none.wait(Some(far), false, &StopFlag::new()), None);
    }
}
