//! Keeps a dependency's panic from reaching the user. `oq3_parser` and `oq3_semantics` assert and
//! unwrap on malformed programs in places no pre-check can foresee (a keyword where a qubit name
//! belongs, `gate g a,for b { ... }`, trips an assertion inside the parser). `guard3` refuses every
//! construct known to do so, with its line and column; this is the backstop for the rest: the
//! panic is caught, its message is not printed, and the caller gets an error.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Set while this thread runs contained code, so the panic hook stays silent for it.
    static CONTAINED: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once per process) a panic hook that is silent for a panic inside [`contain`] on the
/// same thread and hands every other panic to the hook that was there before, so a genuine panic
/// elsewhere (another thread, the caller's own code) is reported as before.
fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CONTAINED.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// A panic caught by [`contain`]: its message (`a panic without a message` when the payload
/// was not text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct Panicked {
    /// The panic's message.
    pub message: String,
}

/// Runs `f`; a panic inside it becomes `Err` with the panic's message, and nothing is printed.
pub(crate) fn contain<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    install_hook();
    let was = CONTAINED.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(was));
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
    use super::contain;

    #[test]
    fn a_panic_becomes_its_message_and_a_value_passes_through() {
        assert_eq!(contain(|| 7), Ok(7));
        let caught = contain(|| -> u8 { panic!("boom {}", 1) }).unwrap_err();
        assert_eq!(caught.message, "boom 1");
        // The flag is cleared afterwards: a nested call leaves the outer one contained.
        let outer = contain(|| {
            let inner = contain(|| -> u8 { panic!("inner") });
            assert_eq!(inner.map_err(|p| p.message), Err("inner".to_string()));
            panic!("outer")
        });
        assert_eq!(
            outer.map_err(|p| p.message),
            Err::<(), _>("outer".to_string())
        );
    }
}
