//! The library leaves the process's panic hook alone: a program that embeds it (a Python
//! interpreter, a server) keeps the hook it installed, and still sees every panic through it,
//! while the importer turns a panic of its OpenQASM 3 parser into a typed error. One test in a
//! file of its own: the hook is process-wide, so no other test may run beside it.

use qc_export::{import_qasm3, inside_contained_call, ImportErrorKind};
use std::panic;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Panics the host's hook was called for.
static HOST_SAW: AtomicUsize = AtomicUsize::new(0);

#[test]
fn an_embedding_program_keeps_its_hook_and_gets_a_typed_error() {
    panic::set_hook(Box::new(|_| {
        HOST_SAW.fetch_add(1, Ordering::SeqCst);
    }));
    // A keyword in a gate's qubit list trips an assertion inside oq3_parser that no pre-check
    // foresees (found by the fuzz harness).
    let program = "OPENQASM 3.0;\ngate g a,for b { h a; }\nqubit[2] q;\ng q[0], q[1];\n";
    let err = import_qasm3(program).expect_err("the parser panics on it");
    assert!(
        matches!(err.kind, ImportErrorKind::ParserPanic { .. }),
        "{err}"
    );
    assert!(!inside_contained_call(), "the contained region is left");
    // The host's hook saw that panic, as it sees any other: nothing was silenced.
    assert_eq!(HOST_SAW.load(Ordering::SeqCst), 1);
    // And it is still the hook in force: a panic of the host's own reaches it.
    let own = panic::catch_unwind(|| panic!("the host's own panic"));
    assert!(own.is_err());
    assert_eq!(HOST_SAW.load(Ordering::SeqCst), 2);
    // A second import leaves it in place too.
    assert!(import_qasm3(program).is_err());
    assert_eq!(HOST_SAW.load(Ordering::SeqCst), 3);
    let _ = panic::take_hook();
}
