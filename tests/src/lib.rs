//! Workspace-level test support: the move-case table ([`cases`]), circuit metrics
//! ([`metrics`]) and the output formats ([`formats`]) shared by the snapshot tests in `tests/tests/`, the CLI's end-to-end tests and
//! the generator of `docs/circuits.md`.

pub mod bundled;
pub mod cases;
pub mod corpus;
pub mod formats;
pub mod metrics;
