//! The channels of the noise model as the trajectories sample them, and the formulas that derive
//! them from a calibration. Notation: over a time `t`, `e1 = exp(-t / T1)` is the factor on the
//! population of |1> and `e2 = exp(-t / T2)` the factor on the coherence `rho_01` (zero
//! temperature: a qubit relaxes towards |0>). `a = 1 - e1`, `b = 1 - e2`.

/// `T2` as the model uses it: at most `2 T1` (a larger value is unphysical; Qiskit Aer truncates
/// it the same way).
pub fn truncated_t2(t1: f64, t2: f64) -> f64 {
    t2.min(2.0 * t1)
}

/// Thermal relaxation of one qubit over a time, written as a mixture that is the identity with a
/// large probability, so that most trajectories do nothing at all:
///
/// * when `T2 <= T1` (`b >= a`): reset to |0> with probability `a`, a Z with probability
///   `(e1 - e2) / 2`, else nothing (the decomposition Qiskit Aer's `thermal_relaxation_error`
///   uses): populations get `e1`, coherences `(1 - a - (e1 - e2)/2) - (e1 - e2)/2 = e2`;
/// * when `T2 > T1` (`b < a`) no mixture of unitaries and resets reaches the coherence `e2 >
///   e1`; the channel is `(1 - p) id + p AD(g)` with `p = b^2 / (2b - a)` and `g = a / p`: an
///   amplitude damping of strength `g`, sampled with the quantum-jump method, with probability
///   `p`. Populations get `(1 - p) + p (1 - g) = e1`; coherences `(1 - p) + p sqrt(1 - g) = e2`
///   (`sqrt(1 - g) = (a - b) / b`). The smallest such `p` makes `(J - (1 - p) J_id) / p` a
///   channel (`J` the Choi matrix), and its Choi block on `|00>, |11>` has rank 1 exactly then,
///   which is why the rest is one amplitude damping. At `T2 = 2 T1` (pure damping) `p = 1`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Relaxation {
    /// Reset with probability `reset`, else Z with probability `phase_flip`, else nothing.
    Mixture {
        /// P(reset to |0>).
        reset: f64,
        /// P(Z).
        phase_flip: f64,
    },
    /// With probability `probability`, an amplitude damping of strength `gamma`.
    Damping {
        /// P(the damping acts).
        probability: f64,
        /// Its strength: the jump |1> -> |0> has probability `gamma P(1)`.
        gamma: f64,
    },
}

impl Relaxation {
    /// The relaxation of a qubit with `t1` and `t2` (already [`truncated_t2`]) over `t`; `None`
    /// when nothing happens (no time, or infinite times).
    pub fn over(t1: f64, t2: f64, t: f64) -> Option<Relaxation> {
        if t <= 0.0 || t.is_nan() {
            return None;
        }
        let a = -(-t / t1).exp_m1();
        let b = -(-t / t2).exp_m1();
        if a <= 0.0 && b <= 0.0 {
            return None;
        }
        if b >= a {
            // e1 - e2 = b - a.
            return Some(Relaxation::Mixture {
                reset: a,
                phase_flip: (b - a) / 2.0,
            });
        }
        let denominator = 2.0 * b - a;
        let (probability, gamma) = if denominator <= b * b {
            // T2 at 2 T1 (or rounding below it): pure amplitude damping.
            (1.0, a)
        } else {
            let p = (b * b / denominator).min(1.0);
            (p, (a / p).min(1.0))
        };
        Some(Relaxation::Damping { probability, gamma })
    }
}

/// The process fidelity of the relaxation of one qubit over `t` (`t2` already truncated): the
/// trace of its Pauli transfer matrix `diag(1, e2, e2, e1)` over 4.
pub fn relaxation_process_fidelity(t1: f64, t2: f64, t: f64) -> f64 {
    if t <= 0.0 || t.is_nan() {
        return 1.0;
    }
    let e1 = (-t / t1).exp();
    let e2 = (-t / t2).exp();
    (1.0 + 2.0 * e2 + e1) / 4.0
}

/// The average gate fidelity `(d F_pro + 1) / (d + 1)` of a channel on `n` qubits with process
/// fidelity `process` (`d = 2^n`).
pub fn average_fidelity(process: f64, n: u32) -> f64 {
    let d = f64::from(1u32 << n);
    (d * process + 1.0) / (d + 1.0)
}

/// The depolarising parameter `lambda` of a gate on `n` qubits whose calibrated error (average
/// gate infidelity) is `error` when thermal relaxation over its duration (process fidelity
/// `relaxation_process`, the product over its qubits) already explains part of it: the gate is
/// modelled as the depolarising channel `(1 - lambda) rho + lambda I / d` followed by the
/// relaxation, and `lambda` solves `1 - F_avg(composition) = error`:
///
/// `lambda = d (error - r) / (d (1 - r) - 1)`, `r = 1 - F_avg(relaxation)`, `d = 2^n`,
///
/// with `error` first capped at its largest possible value `d / (d + 1)` and `lambda` at
/// `4^n / (4^n - 1)`; 0 when relaxation alone explains the error (`error <= r`). This is Qiskit
/// Aer's `NoiseModel.from_backend` (`_device_depolarizing_error`).
pub fn depolarising_parameter(error: f64, relaxation_process: f64, n: u32) -> f64 {
    let d = f64::from(1u32 << n);
    let relax_fidelity = average_fidelity(relaxation_process, n);
    let relax_infidelity = 1.0 - relax_fidelity;
    if error <= relax_infidelity {
        return 0.0;
    }
    let error = error.min(d / (d + 1.0));
    let lambda = d * (error - relax_infidelity) / (d * relax_fidelity - 1.0);
    let max = d * d / (d * d - 1.0);
    lambda.clamp(0.0, max)
}

/// The probability that the depolarising channel with parameter `lambda` on `n` qubits applies
/// a Pauli other than the identity: it applies each of the `4^n` Paulis with probability
/// `lambda / 4^n`, so `lambda (4^n - 1) / 4^n`.
pub fn pauli_error_probability(lambda: f64, n: u32) -> f64 {
    let paulis = f64::from(1u32 << (2 * n));
    lambda * (paulis - 1.0) / paulis
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(rho_11, rho_01)` after `relaxation` on a state with `rho_11 = p1`, `rho_01 = c`, read
    /// off its branches: the mixture's reset empties |1> and its coherence, Z negates the
    /// coherence; the damping's Kraus operators `diag(1, sqrt(1 - g))` and `sqrt(g) |0><1|`.
    fn apply(relaxation: Relaxation, p1: f64, c: f64) -> (f64, f64) {
        match relaxation {
            Relaxation::Mixture { reset, phase_flip } => {
                let keep = 1.0 - reset - phase_flip;
                ((keep + phase_flip) * p1, (keep - phase_flip) * c)
            }
            Relaxation::Damping { probability, gamma } => {
                let p = probability;
                (
                    (1.0 - p) * p1 + p * (1.0 - gamma) * p1,
                    (1.0 - p) * c + p * (1.0 - gamma).sqrt() * c,
                )
            }
        }
    }

    /// Every branch of the decomposition reproduces `e1` on the population and `e2` on the
    /// coherence, for T2 below, at and above T1, and at 2 T1; its probabilities are in [0, 1].
    #[test]
    fn relaxation_reproduces_t1_and_t2() {
        for (t1, t2) in [
            (100.0, 40.0),
            (100.0, 100.0),
            (100.0, 130.0),
            (100.0, 190.0),
            (100.0, 200.0),
            (f64::INFINITY, 50.0),
        ] {
            for t in [0.3, 7.0, 84.0, 1560.0] {
                let r = Relaxation::over(t1, t2, t).expect("some relaxation");
                let (p1, c) = apply(r, 0.7, 0.4);
                let (e1, e2) = ((-t / t1).exp(), (-t / t2).exp());
                assert!((p1 - 0.7 * e1).abs() < 1e-12, "{t1} {t2} {t}: {r:?}");
                assert!((c - 0.4 * e2).abs() < 1e-9, "{t1} {t2} {t}: {r:?}");
                let probabilities = match r {
                    Relaxation::Mixture { reset, phase_flip } => [reset, phase_flip],
                    Relaxation::Damping { probability, gamma } => [probability, gamma],
                };
                assert!(probabilities.iter().all(|p| (0.0..=1.0).contains(p)));
                assert_eq!(matches!(r, Relaxation::Mixture { .. }), t2 <= t1, "{r:?}");
            }
        }
        assert_eq!(Relaxation::over(100.0, 50.0, 0.0), None);
        assert_eq!(Relaxation::over(f64::INFINITY, f64::INFINITY, 10.0), None);
        // Most of the time nothing happens: at T1 = 100 us, T2 = 150 us over a CZ (84 ns).
        let Some(Relaxation::Damping { probability, .. }) =
            Relaxation::over(100_000.0, 150_000.0, 84.0)
        else {
            panic!("damping expected");
        };
        assert!(probability < 5e-3, "{probability}");
    }

    /// Depolarising with parameter lambda after relaxation has the calibrated average gate
    /// infidelity: checked on the Pauli transfer matrices, whose product is the composition's
    /// (depolarising: 1 on the identity, 1 - lambda on the other Paulis; relaxation of a qubit:
    /// diag(1, e2, e2, e1), tensor products for two qubits).
    #[test]
    fn the_depolarising_parameter_gives_the_calibrated_error() {
        for (error, t1, t2, t) in [
            (0.01f64, 50_000.0f64, 40_000.0f64, 84.0f64),
            (0.0008, 150_000.0, 200_000.0, 24.0),
            (0.3, 1_000.0, 500.0, 100.0),
        ] {
            let diag = [1.0, (-t / t2).exp(), (-t / t2).exp(), (-t / t1).exp()];
            // One qubit.
            let lambda = depolarising_parameter(error, relaxation_process_fidelity(t1, t2, t), 1);
            let trace: f64 = diag[0] + (1.0 - lambda) * diag[1..].iter().sum::<f64>();
            let infidelity = 1.0 - average_fidelity(trace / 4.0, 1);
            assert!((infidelity - error).abs() < 1e-12, "{error}: {infidelity}");
            // Two qubits, the same relaxation on each.
            let process = relaxation_process_fidelity(t1, t2, t).powi(2);
            let lambda = depolarising_parameter(error, process, 2);
            let relax_trace: f64 = diag.iter().sum::<f64>().powi(2);
            let trace = 1.0 + (1.0 - lambda) * (relax_trace - 1.0);
            let infidelity = 1.0 - average_fidelity(trace / 16.0, 2);
            assert!((infidelity - error).abs() < 1e-12, "{error}: {infidelity}");
        }
        // No relaxation: lambda = d e / (d - 1); a Pauli error with probability e (d + 1) / d.
        let lambda = depolarising_parameter(0.01, 1.0, 1);
        assert!((lambda - 0.02).abs() < 1e-15);
        assert!((pauli_error_probability(lambda, 1) - 0.015).abs() < 1e-15);
        let lambda = depolarising_parameter(0.03, 1.0, 2);
        assert!((lambda - 0.04).abs() < 1e-15);
        // Relaxation explaining more than the error: no depolarising; an error of 1: capped.
        assert_eq!(depolarising_parameter(1e-6, 0.99, 1), 0.0);
        assert!((depolarising_parameter(1.0, 1.0, 1) - 4.0 / 3.0).abs() < 1e-12);
        assert_eq!(truncated_t2(10.0, 50.0), 20.0);
    }
}
