//! Exchanges the program asks for, made by renaming instead of by gates.
//!
//! A run of two-qubit steps on one pair whose product is a SWAP after single-qubit gates (a
//! `swap`, or the three CNOTs that write one) needs no gate on the device: its single-qubit
//! gates stay, and from there on each of the two program qubits is followed on the other's
//! wire. Routed as a gate, such a SWAP would first bring its qubits together, which for the
//! exchanges that end a QFT (qubit `k` with qubit `n-1-k`) costs more than the whole rest of the
//! routing of those qubits. Qiskit's `ElidePermutations` does the same for exchanges at the end.
//!
//! A *wire* here carries one state from the start: after a renamed exchange of program qubits
//! `a` and `b`, whatever the program does to `b` acts on `a`'s wire. The measurements are the
//! program's, so the layout records each one under the program qubit it measures
//! ([`restore_measurements`]).

use crate::kak::{self, Prim};
use crate::linalg::Mat4;
use crate::program::{Program, Step, StepOp};
use crate::router::QubitTrack;

/// How many steps after a two-qubit step are searched for the rest of its run.
const RUN_SEARCH: usize = 256;

/// A program with its exchanges renamed.
#[derive(Clone, Debug)]
pub struct Elided {
    /// The program on wires.
    pub program: Program,
    /// For every measurement, in program order: the wire measured and the program qubit it
    /// measures.
    pub measured: Vec<(usize, usize)>,
    /// Exchanges renamed.
    pub exchanges: usize,
}

/// Renames every unconditioned exchange of `program` (see the module docs).
pub fn exchanges(program: &Program) -> Elided {
    let steps = &program.steps;
    // The wire each program qubit is on now.
    let mut wire: Vec<usize> = (0..program.num_qubits).collect();
    let mut consumed = vec![false; steps.len()];
    let mut out = Vec::with_capacity(steps.len());
    let mut measured = Vec::new();
    let mut renamed = 0;
    for i in 0..steps.len() {
        if consumed[i] {
            continue;
        }
        let step = steps[i];
        if let Some(Exchange {
            hi,
            lo,
            members,
            local,
        }) = exchange_run(steps, i)
        {
            for &j in &members {
                consumed[j] = true;
            }
            for prim in local {
                if let Prim::One(on_hi, m) = prim {
                    if !m.is_identity(1e-12) {
                        let q = if on_hi { wire[hi] } else { wire[lo] };
                        out.push(Step {
                            op: StepOp::One { q, m },
                            cond: None,
                        });
                    }
                }
            }
            wire.swap(hi, lo);
            renamed += 1;
            continue;
        }
        let op = match step.op {
            StepOp::One { q, m } => StepOp::One { q: wire[q], m },
            StepOp::Two { hi, lo, m } => StepOp::Two {
                hi: wire[hi],
                lo: wire[lo],
                m,
            },
            StepOp::Measure { q, clbit } => {
                measured.push((wire[q], q));
                StepOp::Measure { q: wire[q], clbit }
            }
            StepOp::Reset { q } => StepOp::Reset { q: wire[q] },
        };
        out.push(Step {
            op,
            cond: step.cond,
        });
    }
    Elided {
        program: Program {
            num_qubits: program.num_qubits,
            num_clbits: program.num_clbits,
            steps: crate::program::merge_single_qubit_runs(out, program.num_qubits),
        },
        measured,
        exchanges: renamed,
    }
}

/// A run of steps that makes an exchange.
struct Exchange {
    /// The pair's high qubit, as the run's first step names it.
    hi: usize,
    /// Its low qubit.
    lo: usize,
    /// The steps of the run.
    members: Vec<usize>,
    /// Its single-qubit gates (`SWAP · product`, synthesised with no CZ).
    local: Vec<Prim>,
}

/// The run of unconditioned two-qubit steps on the pair of step `i` that follow one another on
/// both qubits (nothing else touches either in between), cut to its longest beginning whose
/// product is a SWAP after single-qubit gates.
fn exchange_run(steps: &[Step], i: usize) -> Option<Exchange> {
    let Step {
        op: StepOp::Two { hi, lo, .. },
        cond: None,
    } = steps[i]
    else {
        return None;
    };
    let mut members = Vec::new();
    let mut product = Mat4::IDENTITY;
    let mut best: Option<(usize, Mat4)> = None;
    for (j, s) in steps.iter().enumerate().skip(i).take(RUN_SEARCH) {
        let (qs, k) = s.op.qubits();
        if !qs[..k].contains(&hi) && !qs[..k].contains(&lo) {
            continue;
        }
        let m = match (s.op, s.cond) {
            (StepOp::Two { hi: h, lo: l, m }, None) if (h, l) == (hi, lo) => m,
            (StepOp::Two { hi: h, lo: l, m }, None) if (h, l) == (lo, hi) => m.swapped(),
            _ => break,
        };
        members.push(j);
        product = m.mul(&product);
        let local = Mat4::SWAP.mul(&product);
        if kak::cz_count(&local) == 0 {
            best = Some((members.len(), local));
        }
    }
    let (len, local) = best?;
    let prims = kak::synthesize(&local)?;
    if prims.iter().any(|p| matches!(p, Prim::Cz)) {
        return None;
    }
    members.truncate(len);
    Some(Exchange {
        hi,
        lo,
        members,
        local: prims,
    })
}

/// The layout of the renamed program, told in the original program's qubits: each measurement
/// goes back to the program qubit it measures. Starts and lives stay with the wire, which
/// carries that program qubit's state from the start.
pub fn restore_measurements(tracks: &mut [QubitTrack], measured: &[(usize, usize)]) {
    let mut by_wire: Vec<std::collections::VecDeque<(usize, usize)>> = tracks
        .iter_mut()
        .map(|t| std::mem::take(&mut t.measurements).into())
        .collect();
    for &(w, q) in measured {
        if let Some(m) = by_wire.get_mut(w).and_then(|ms| ms.pop_front()) {
            if let Some(t) = tracks.get_mut(q) {
                t.measurements.push(m);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::{ry, rz, Mat2};

    fn two(hi: usize, lo: usize, m: Mat4) -> Step {
        Step {
            op: StepOp::Two { hi, lo, m },
            cond: None,
        }
    }

    fn measure(q: usize, clbit: usize) -> Step {
        Step {
            op: StepOp::Measure { q, clbit },
            cond: None,
        }
    }

    fn program(num_qubits: usize, steps: Vec<Step>) -> Program {
        Program {
            num_qubits,
            num_clbits: 2,
            steps,
        }
    }

    #[test]
    fn three_cnots_become_a_renaming_and_later_steps_follow_it() {
        // cx(0,1) cx(1,0) cx(0,1) on qubits 0 and 2, then a CZ on (2, 1) and the measurements.
        let cx = Mat4::CX_LO_HI;
        let p = program(
            3,
            vec![
                two(2, 0, cx),
                two(0, 2, cx),
                two(2, 0, cx),
                two(2, 1, Mat4::CZ),
                measure(2, 0),
                measure(0, 1),
            ],
        );
        let e = exchanges(&p);
        assert_eq!(e.exchanges, 1);
        assert_eq!(
            e.program.steps,
            vec![two(0, 1, Mat4::CZ), measure(0, 0), measure(2, 1)]
        );
        assert_eq!(e.measured, vec![(0, 2), (2, 0)]);
    }

    #[test]
    fn the_single_qubit_gates_of_an_exchange_stay_on_the_right_wires() {
        let (a, b) = (ry(0.7).mul(&rz(0.3)), rz(1.1).mul(&ry(-0.4)));
        // SWAP after `a` on qubit 1 and `b` on qubit 0.
        let p = program(2, vec![two(1, 0, Mat4::SWAP.mul(&Mat2::kron(&a, &b)))]);
        let e = exchanges(&p);
        assert_eq!(e.exchanges, 1);
        let on = |q: usize| {
            e.program
                .steps
                .iter()
                .fold(Mat2::IDENTITY, |acc, s| match s.op {
                    StepOp::One { q: w, m } if w == q => m.mul(&acc),
                    _ => acc,
                })
        };
        assert!(Mat2::kron(&on(1), &on(0)).eq_up_to_phase(&Mat2::kron(&a, &b), 1e-9));
        assert!(e
            .program
            .steps
            .iter()
            .all(|s| matches!(s.op, StepOp::One { .. })));
    }

    #[test]
    fn conditioned_or_interrupted_or_entangling_runs_stay_gates() {
        let cx = Mat4::CX_LO_HI;
        let conditioned = Step {
            cond: Some((0, true)),
            ..two(1, 0, cx)
        };
        let turn = Step {
            op: StepOp::One { q: 0, m: ry(0.5) },
            cond: None,
        };
        for steps in [
            // Two CNOTs: not an exchange.
            vec![two(1, 0, cx), two(0, 1, cx)],
            // A conditioned one in the run.
            vec![two(1, 0, cx), two(0, 1, cx), conditioned],
            // A gate on one of the qubits in between.
            vec![two(1, 0, cx), two(0, 1, cx), turn, two(1, 0, cx)],
        ] {
            let p = program(2, steps.clone());
            let e = exchanges(&p);
            assert_eq!(e.exchanges, 0, "{steps:?}");
            assert_eq!(e.program.steps, steps);
        }
    }

    #[test]
    fn measurements_go_back_to_the_program_qubit_they_measure() {
        let mut tracks = vec![QubitTrack::default(); 3];
        tracks[0].measurements = vec![(0, 10), (2, 12)];
        tracks[2].measurements = vec![(1, 11)];
        // Wire 0 measures qubit 2 and later qubit 0; wire 2 measures qubit 0 in between.
        restore_measurements(&mut tracks, &[(0, 2), (2, 0), (0, 0)]);
        assert_eq!(tracks[0].measurements, vec![(1, 11), (2, 12)]);
        assert_eq!(tracks[1].measurements, vec![]);
        assert_eq!(tracks[2].measurements, vec![(0, 10)]);
    }
}
