//! Stopping a simulation step from outside: a search that must answer on time raises a flag (or
//! passes a deadline) while the simulator is inside one move's gates on a state of millions of
//! basis states, and the step returns [`crate::BackendError::Interrupted`] within a few thousand
//! basis states instead of finishing.
//!
//! The interrupt is scoped to a thread ([`while_interruptible`]) rather than passed as an
//! argument, because it must reach the simulator's inner loops through the rulesets' make and
//! unmake ([`crate::Backend`] calls made by a game's ledger), none of which has a say in it. A
//! simulator reads it once per step ([`current`]) and hands the clone to its parallel workers.
//! Outside such a scope nothing is ever interrupted: playing a game's moves (a replay, a user's
//! move) finishes as before.
//!
//! An interrupted step leaves the backend's state undefined (half a pass applied): the caller
//! restores a snapshot taken before the step, which is what a game's ledger does with every
//! failed move, so the position after an interrupted move is exactly the one before it.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Basis states a simulator's pass may visit between two looks at its [`Interrupt`] (its
/// passes look once per chunk of about this many states): a look costs a clock read and an
/// atomic add, a few nanoseconds against microseconds of work.
pub const CHECK_EVERY: usize = 1 << 13;

/// When a simulation step must stop: a flag another thread raises, a deadline, or a count of
/// basis states visited (deterministic, for tests and work-bounded searches).
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    deadline: Option<Instant>,
    /// Basis states visited since the interrupt was made, by every step that looked at it.
    visited: Arc<AtomicU64>,
    /// Raised once `visited` passes this many.
    work_limit: Option<u64>,
}

impl Interrupt {
    /// Raised when `flag` is set or, if given, when `deadline` passes.
    pub fn new(flag: Arc<AtomicBool>, deadline: Option<Instant>) -> Interrupt {
        Interrupt {
            flag,
            deadline,
            ..Interrupt::default()
        }
    }

    /// The same, and raised too once the steps that looked at it have visited more than
    /// `states` basis states.
    pub fn with_work_limit(mut self, states: u64) -> Interrupt {
        self.work_limit = Some(states);
        self
    }

    /// Whether the step must stop now (the flag, the deadline or the work limit).
    pub fn is_raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .work_limit
                .is_some_and(|l| self.visited.load(Ordering::Relaxed) > l)
    }

    /// Counts `states` basis states as visited, then says whether the step must stop.
    pub fn visit(&self, states: usize) -> bool {
        self.visited.fetch_add(states as u64, Ordering::Relaxed);
        self.is_raised()
    }

    /// Basis states visited so far under this interrupt.
    pub fn visited(&self) -> u64 {
        self.visited.load(Ordering::Relaxed)
    }
}

thread_local! {
    /// The interrupt of the running [`while_interruptible`] on this thread.
    static CURRENT: RefCell<Option<Interrupt>> = const { RefCell::new(None) };
}

/// Puts the previous interrupt back when the scope ends, even by a panic.
struct Restore(Option<Interrupt>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Runs `f` with `interrupt` as this thread's ([`current`]): the simulation steps `f` makes on
/// this thread stop with [`crate::BackendError::Interrupted`] once it is raised.
pub fn while_interruptible<T>(interrupt: Interrupt, f: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|c| c.borrow_mut().replace(interrupt));
    let _restore = Restore(previous);
    f()
}

/// This thread's interrupt, if a [`while_interruptible`] is running on it.
pub fn current() -> Option<Interrupt> {
    CURRENT.with(|c| c.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interrupt_is_seen_only_inside_its_scope_and_counts_work() {
        assert!(current().is_none());
        let flag = Arc::new(AtomicBool::new(false));
        let interrupt = Interrupt::new(flag.clone(), None).with_work_limit(100);
        while_interruptible(interrupt, || {
            let seen = current().expect("inside the scope");
            assert!(!seen.visit(100), "100 states is the limit, not past it");
            assert!(seen.visit(1));
            assert_eq!(seen.visited(), 101);
        });
        assert!(current().is_none(), "the scope put back what was there");
        let plain = Interrupt::new(flag.clone(), None);
        assert!(!plain.is_raised());
        flag.store(true, Ordering::Relaxed);
        assert!(plain.is_raised());
        let late = Interrupt::new(Arc::default(), Some(Instant::now()));
        assert!(late.is_raised());
    }
}
