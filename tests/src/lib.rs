//! Workspace-level integration tests live in `tests/tests/`.
