//! Regression: after a measurement collapses another qubit to a constant, forcing that qubit's
//! impossible outcome must be an error that changes nothing, on every simulator. (The reference
//! once derived P(0) as 1 - P(1), whose rounding residue, about 2e-16, let the impossible
//! outcome through and left an empty state.)

use qc_ir::{Backend, BackendError, Control, Gate, MeasureChoice, Qubit};

fn check<B: Backend>(mut sim: B) {
    // Amplitudes 1/sqrt3, sqrt(2/3) leave a rounding residue when renormalised.
    sim.apply_gate(
        Gate::Ry(2.0 * (2.0f64 / 3.0).sqrt().asin()),
        &[Qubit(0)],
        &[],
    )
    .unwrap();
    sim.apply_gate(Gate::X, &[Qubit(1)], &[Control::one(Qubit(0))])
        .unwrap();
    sim.apply_gate(Gate::H, &[Qubit(2)], &[]).unwrap();
    assert!(sim.measure(Qubit(0), MeasureChoice::Forced(true)).unwrap());
    let before = sim.basis_states();
    let err = sim
        .measure(Qubit(1), MeasureChoice::Forced(false))
        .unwrap_err();
    assert!(
        matches!(err, BackendError::ImpossibleOutcome { outcome: false, .. }),
        "{}: {err}",
        sim.name()
    );
    assert_eq!(
        sim.basis_states(),
        before,
        "{}: the state changed",
        sim.name()
    );
    assert_eq!(sim.probability_one(Qubit(1)), 1.0, "{}", sim.name());
    // Sampling can only give the possible outcome, whatever the uniform number.
    assert!(sim
        .measure(Qubit(1), MeasureChoice::Random(0.999_999_999))
        .unwrap());
}

qc_sim::for_each_backend!(impossible_outcome_after_collapse_is_an_error, |backend| {
    check(backend());
});
