//! Replays every saved input under `corpus/regressions/<surface>/` on its surface: each once
//! panicked, hung, aborted or broke a property (issue 12's list and what the fuzzer found), and
//! each must now give a result or a clean error, in bounded time (the inputs that once ran for
//! minutes included).

use qc_fuzz::seeds::corpus_dir;
use qc_fuzz::{run_guarded, Outcome, Surface};
use std::time::{Duration, Instant};

/// The most one input may take (the harness reports 10 s as slow in its `fuzz` build; this
/// leaves room for a loaded machine).
const SLOW: Duration = Duration::from_secs(30);

#[test]
fn every_regression_input_is_handled_cleanly() {
    let root = corpus_dir().join("regressions");
    let mut replayed = 0;
    let mut failures = Vec::new();
    for surface in Surface::ALL {
        let Ok(entries) = std::fs::read_dir(root.join(surface.name())) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).expect("corpus file reads");
            let input = String::from_utf8_lossy(&bytes);
            replayed += 1;
            let started = Instant::now();
            match run_guarded(surface, &input) {
                Outcome::Clean => {}
                other => failures.push(format!("{}: {other:?}", entry.path().display())),
            }
            let took = started.elapsed();
            if took > SLOW {
                failures.push(format!("{}: took {took:?}", entry.path().display()));
            }
        }
    }
    assert!(replayed >= 10, "only {replayed} regression inputs found");
    assert!(failures.is_empty(), "{failures:#?}");
}
