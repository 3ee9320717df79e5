//! How [`SparseSim`](super::SparseSim)'s steps look at this thread's
//! [`qc_ir::interrupt::Interrupt`]: once when a step starts (gate, matrix, measurement,
//! comparison), then once per chunk of about [`qc_ir::interrupt::CHECK_EVERY`] basis states in
//! the passes that run over the whole state, so a search's stop reaches a gate on millions of
//! basis states within a few thousand of them. Passes that write into a new buffer look only in
//! the read-only pass before it (nothing half-written is ever kept); in-place passes skip the
//! chunks after the stop. Either way the step then returns
//! [`BackendError::Interrupted`] and the caller restores its snapshot.

use qc_ir::interrupt::{current, Interrupt};
use qc_ir::BackendError;

/// The interrupt of the step under way (`None`: nothing can stop it).
#[derive(Clone, Debug, Default)]
pub(super) struct Watch(Option<Interrupt>);

impl Watch {
    /// Starts a step called `during`: this thread's interrupt, or the error when it is raised
    /// already (the state is untouched then).
    pub(super) fn start(during: &'static str) -> Result<Watch, BackendError> {
        let watch = Watch(current());
        watch.check(during)?;
        Ok(watch)
    }

    /// Counts a chunk of `states` basis states a pass is about to visit; true when the pass
    /// must stop instead.
    pub(super) fn stops(&self, states: usize) -> bool {
        self.0.as_ref().is_some_and(|i| i.visit(states))
    }

    /// The error when the interrupt is raised (a pass that skipped chunks leaves the state
    /// undefined, so every pass that may skip is followed by this).
    pub(super) fn check(&self, during: &'static str) -> Result<(), BackendError> {
        match &self.0 {
            Some(i) if i.is_raised() => Err(BackendError::Interrupted {
                during,
                visited: i.visited(),
            }),
            _ => Ok(()),
        }
    }
}
