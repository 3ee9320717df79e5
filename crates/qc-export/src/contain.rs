//! Keeps a dependency's panic from reaching the caller as a panic. `oq3_parser` and
//! `oq3_semantics` assert and unwrap on malformed programs in places no pre-check can foresee (a
//! keyword where a qubit name belongs, `gate g a,for b { ... }`, trips an assertion inside the
//! parser). `guard3` refuses every construct known to do so, with its line and column; this is
//! the backstop for the rest: the panic is caught and the caller gets an error.
//!
//! The library never touches the process-wide panic hook: a program that embeds qchess (a Python
//! interpreter, a server) keeps its own hook, and that hook still sees a contained panic as it
//! sees any other. A binary that wants contained panics silent installs its own hook and asks
//! [`inside_contained_call`] (the `qchess` command line does).

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};

thread_local! {
    /// How many [`contain`] calls this thread is inside (they may nest).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// Whether the current thread is running code inside [`contain`], so that a panic now will be
/// caught and turned into an error. For a binary's panic hook: it may stay silent then, since
/// the panic reaches the user as that error.
pub fn inside_contained_call() -> bool {
    DEPTH.with(Cell::get) > 0
}

/// A panic caught by [`contain`]: its message (`a panic without a message` when the payload
/// was not text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct Panicked {
    /// The panic's message.
    pub message: String,
}

/// Leaves the contained region when dropped, also when `f` unwinds.
struct Inside;

impl Inside {
    fn enter() -> Inside {
        DEPTH.with(|d| d.set(d.get() + 1));
        Inside
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Runs `f`; a panic inside it becomes `Err` with the panic's message. The panic hook in force
/// runs as for any panic (see the module documentation).
pub(crate) fn contain<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    let result = {
        let _inside = Inside::enter();
        panic::catch_unwind(AssertUnwindSafe(f))
    };
    result.map_err(|payload| Panicked {
        message: payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::{contain, inside_contained_call};

    #[test]
    fn a_panic_becomes_its_message_and_a_value_passes_through() {
        assert_eq!(contain(|| 7), Ok(7));
        let caught = contain(|| -> u8 { panic!("boom {}", 1) }).unwrap_err();
        assert_eq!(caught.message, "boom 1");
        // The depth is kept across nesting: a nested call leaves the outer one contained.
        assert!(!inside_contained_call());
        let outer = contain(|| {
            let inner = contain(|| -> u8 { panic!("inner") });
            assert_eq!(inner.map_err(|p| p.message), Err("inner".to_string()));
            assert!(inside_contained_call());
            panic!("outer")
        });
        assert_eq!(
            outer.map_err(|p| p.message),
            Err::<(), _>("outer".to_string())
        );
        assert!(!inside_contained_call());
    }
}
