# Recipes for developers; CI runs `.ci/run` (just is not needed to build or test).

default: test

# Every test (the README's command).
test:
    cargo test --workspace --release

# Lints, as CI runs them.
lint:
    cargo clippy --workspace --all-targets -- -D warnings

# Format the code.
fmt:
    cargo fmt --all

# Benchmarks (criterion) of the simulators.
bench:
    cargo bench -p qc-sim

# Review insta snapshots.
snap:
    cargo insta review

# API docs with warnings as errors.
docs:
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace

# The fuzz harness for SECONDS seconds (CI runs 120); failing inputs go to target/qc-fuzz-failures.
fuzz seconds="3600":
    cargo run --profile fuzz -p qc-fuzz -- --seconds {{seconds}}

# The CLI on hostile inputs under a 4 GiB address-space cap.
hostile:
    bash tests/hostile/run.sh

# What CI runs.
ci:
    bash .ci/run
