//! Qubit lifetimes and reuse: the program's qubits cut into *virtual* qubits, each one life of
//! a program qubit between two points where it is in a known state.
//!
//! A program qubit is *dormant* while it is not entangled with anything and its state is known
//! (it starts so, in |0>): it holds no physical qubit; a single-qubit gate on it only changes the
//! state the compiler tracks, and a two-qubit gate that leaves it unentangled acts on its partner
//! alone (the gate is a single-qubit gate on the partner). Any other use *materialises* it: a
//! new virtual qubit is born, prepared in the known state on whatever physical qubit the router
//! picks (so a qubit in a known state needs no SWAP to move). A live qubit that the oracle
//! ([`crate::known`]) finds unentangled after a step dies there: its physical qubit is free
//! again, holding that state. A reset ends a life too (the physical qubit holds garbage until it
//! is reset for its next user), and so does a last measurement.
//!
//! After the cut, runs of gates on the same pair of virtual qubits are merged into one
//! two-qubit block (its count of the device's two-qubit gates from its Weyl-chamber coordinates,
//! [`crate::native`]), so the router sees what each interaction costs, and what it costs to
//! exchange the two qubits at the same time.

use crate::known::Oracle;
use crate::linalg::{Mat2, Mat4, C};
use crate::native::{Entangler, Synthesis};
use crate::program::{Cond, Program, StepOp};
use qc_ir::Backend;

/// Tolerance for "unentangled by a gate" and "a basis state".
const EXACT: f64 = 1e-12;

/// What a physical qubit holds when its virtual qubit dies.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Leaves {
    /// A known pure state `V|0>` (`V` the identity: |0>).
    Known(Mat2),
    /// Something else (a measured value, a discarded one): it is reset before it is reused.
    Dirty,
}

/// The basis state `V|0>` is, if it is one.
pub fn basis_value(v: &Mat2) -> Option<bool> {
    Mat2::maps_basis_state(v, false, EXACT)
}

/// One operation on virtual qubits.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum VOp {
    /// The virtual qubit starts, prepared in `V|0>`.
    Birth {
        /// The virtual qubit.
        v: usize,
        /// Its preparation.
        prep: Mat2,
    },
    /// A single-qubit gate.
    One {
        /// The virtual qubit.
        v: usize,
        /// The gate.
        m: Mat2,
    },
    /// A two-qubit block on `(hi, lo)`.
    Two {
        /// High qubit.
        hi: usize,
        /// Low qubit.
        lo: usize,
        /// The block's unitary.
        m: Mat4,
        /// The device's two-qubit gates it needs.
        cost: u8,
        /// The device's two-qubit gates it needs when the two qubits are also exchanged (`SWAP
        /// m`).
        mirror_cost: u8,
    },
    /// A measurement.
    Measure {
        /// The virtual qubit.
        v: usize,
        /// The bit.
        clbit: usize,
    },
    /// The virtual qubit ends; its physical qubit is free and holds `leaves`.
    Death {
        /// The virtual qubit.
        v: usize,
        /// What stays behind.
        leaves: Leaves,
    },
}

/// One operation with its condition.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct VStep {
    /// What it does.
    pub op: VOp,
    /// When it runs.
    pub cond: Cond,
}

impl VStep {
    /// The virtual qubits it touches.
    pub fn virtuals(&self) -> ([usize; 2], usize) {
        match self.op {
            VOp::Birth { v, .. }
            | VOp::One { v, .. }
            | VOp::Measure { v, .. }
            | VOp::Death { v, .. } => ([v, v], 1),
            VOp::Two { hi, lo, .. } => ([hi, lo], 2),
        }
    }
}

/// The program as operations on virtual qubits.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The operations, in program order.
    pub steps: Vec<VStep>,
    /// The program qubit of every virtual qubit.
    pub logical: Vec<usize>,
    /// Bits `0..num_clbits`.
    pub num_clbits: usize,
    /// Program qubits.
    pub num_logical: usize,
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum State {
    /// Not entangled, in the state `V|0>`.
    Dormant(Mat2),
    Live(usize),
}

/// `m` keeps the high qubit unentangled when it starts in `psi`: `m (psi (x) phi) =
/// psi' (x) K phi` for every `phi`; returns the new state (as a preparation) and `K`.
fn keeps_hi_unentangled(m: &Mat4, psi: &Mat2) -> Option<(Mat2, Mat2)> {
    let (a, b) = (psi.0[0][0], psi.0[1][0]);
    // The 4x2 matrix m (psi (x) I): rows 0-1 (hi = 0) and rows 2-3 (hi = 1).
    let col = |r: usize, j: usize| m.0[r][j] * a + m.0[r][2 + j] * b;
    let top = Mat2([[col(0, 0), col(0, 1)], [col(1, 0), col(1, 1)]]);
    let bottom = Mat2([[col(2, 0), col(2, 1)], [col(3, 0), col(3, 1)]]);
    let norm = |x: &Mat2| {
        x.0.as_flattened()
            .iter()
            .map(|v| v.norm_sqr())
            .sum::<f64>()
            .sqrt()
    };
    let (nt, nb) = (norm(&top), norm(&bottom));
    // Both blocks must be multiples of one unitary K: bottom = c top (or top = 0).
    let (k, p0, p1) = if nb <= EXACT {
        (top, C::new(1.0, 0.0), C::new(0.0, 0.0))
    } else if nt <= EXACT {
        (bottom, C::new(0.0, 0.0), C::new(1.0, 0.0))
    } else {
        let (i, j) = (0..4)
            .map(|n| (n / 2, n % 2))
            .max_by(|x, y| top.0[x.0][x.1].norm().total_cmp(&top.0[y.0][y.1].norm()))?;
        let c = bottom.0[i][j] / top.0[i][j];
        let fits =
            (0..2).all(|r| (0..2).all(|s| (bottom.0[r][s] - c * top.0[r][s]).norm() <= EXACT));
        if !fits {
            return None;
        }
        let scale = (1.0 + c.norm_sqr()).sqrt();
        (
            top.scale(C::new(scale, 0.0)),
            C::new(1.0 / scale, 0.0),
            c / scale,
        )
    };
    // K must be unitary (it is when the split is exact).
    let kk = k.adjoint().mul(&k);
    if !kk.eq_up_to_phase(&Mat2::IDENTITY, 1e-9) || (kk.0[0][0].norm() - 1.0).abs() > 1e-9 {
        return None;
    }
    let prep = Mat2([[p0, -p1.conj()], [p1, p0.conj()]]).unitarized();
    Some((prep, k.unitarized()))
}

struct Builder<'o, 'b, B: Backend> {
    state: Vec<State>,
    logical: Vec<usize>,
    out: Vec<VStep>,
    oracle: &'o mut Oracle<'b, B>,
}

impl<B: Backend> Builder<'_, '_, B> {
    fn live(&mut self, q: usize) -> usize {
        match self.state[q] {
            State::Live(v) => v,
            State::Dormant(prep) => {
                let v = self.logical.len();
                self.logical.push(q);
                self.out.push(VStep {
                    op: VOp::Birth { v, prep },
                    cond: None,
                });
                self.oracle.materialise(q, &prep);
                self.state[q] = State::Live(v);
                v
            }
        }
    }

    /// Ends the life of `q`, which stays dormant in `then` (a preparation).
    fn kill(&mut self, q: usize, leaves: Leaves, then: Mat2) {
        if let State::Live(v) = self.state[q] {
            self.out.push(VStep {
                op: VOp::Death { v, leaves },
                cond: None,
            });
        }
        self.state[q] = State::Dormant(then);
    }

    fn one(&mut self, q: usize, m: Mat2, cond: Cond) {
        if let State::Dormant(prep) = self.state[q] {
            let after = m.mul(&prep);
            match cond {
                None => {
                    self.state[q] = State::Dormant(after);
                    return;
                }
                // A conditioned gate that leaves the state as it is (up to phase) does nothing.
                Some(_) if same_state(&after, &prep) => return,
                Some(_) => {}
            }
        }
        let v = self.live(q);
        let op = StepOp::One { q, m };
        self.oracle.gate(&op, cond);
        self.out.push(VStep {
            op: VOp::One { v, m },
            cond,
        });
    }

    fn two(&mut self, hi: usize, lo: usize, m: Mat4, cond: Cond) {
        // A dormant qubit the gate leaves unentangled: a single-qubit gate on the other one.
        for (a, b, g) in [(hi, lo, m), (lo, hi, m.swapped())] {
            if let State::Dormant(psi) = self.state[a] {
                if let Some((after, k)) = keeps_hi_unentangled(&g, &psi) {
                    if cond.is_none() || same_state(&after, &psi) {
                        if cond.is_none() {
                            self.state[a] = State::Dormant(after);
                        }
                        return self.one(b, k, cond);
                    }
                }
            }
        }
        let (h, l) = (self.live(hi), self.live(lo));
        self.oracle.gate(&StepOp::Two { hi, lo, m }, cond);
        self.out.push(VStep {
            op: VOp::Two {
                hi: h,
                lo: l,
                m,
                cost: 0,
                mirror_cost: 0,
            },
            cond,
        });
    }

    /// Frees `q` if the oracle finds it unentangled now.
    fn release_if_pure(&mut self, q: usize) {
        if let State::Live(_) = self.state[q] {
            if let Some(psi) = self.oracle.pure_state(q) {
                self.oracle.retire(q, &psi);
                self.kill(q, Leaves::Known(psi), psi);
            }
        }
    }
}

/// True when `a|0>` and `b|0>` are the same state up to a phase.
fn same_state(a: &Mat2, b: &Mat2) -> bool {
    let overlap = a.0[0][0].conj() * b.0[0][0] + a.0[1][0].conj() * b.0[1][0];
    (overlap.norm() - 1.0).abs() <= EXACT
}

impl Plan {
    /// Cuts `program` into virtual qubits, asking `oracle` (run along) which qubits are
    /// unentangled after each step; blocks are priced in `entangler`'s gates.
    pub fn new<B: Backend>(
        program: &Program,
        oracle: &mut Oracle<'_, B>,
        entangler: Entangler,
    ) -> Plan {
        let n = program.num_qubits;
        // The last step on each qubit (a last measurement ends its life).
        let mut last_use = vec![None; n];
        for (i, s) in program.steps.iter().enumerate() {
            let (qs, k) = s.op.qubits();
            for &q in &qs[..k] {
                last_use[q] = Some(i);
            }
        }
        let mut b = Builder {
            state: vec![State::Dormant(Mat2::IDENTITY); n],
            logical: Vec::new(),
            out: Vec::with_capacity(program.steps.len() * 2),
            oracle,
        };
        for (i, step) in program.steps.iter().enumerate() {
            match step.op {
                StepOp::One { q, m } => b.one(q, m, step.cond),
                StepOp::Two { hi, lo, m } => b.two(hi, lo, m, step.cond),
                StepOp::Measure { q, clbit } => {
                    // Measuring a basis state leaves it as it was.
                    let basis = match b.state[q] {
                        State::Dormant(prep) => basis_value(&prep).map(|_| prep),
                        State::Live(_) => None,
                    };
                    let v = b.live(q);
                    let later = last_use[q] != Some(i);
                    b.oracle.measure(q, clbit, later);
                    b.out.push(VStep {
                        op: VOp::Measure { v, clbit },
                        cond: None,
                    });
                    if !later {
                        let leaves = basis.map_or(Leaves::Dirty, Leaves::Known);
                        b.kill(q, leaves, Mat2::IDENTITY);
                    }
                }
                StepOp::Reset { q } => {
                    if let State::Live(_) = b.state[q] {
                        b.oracle.reset(q);
                        b.kill(q, Leaves::Dirty, Mat2::IDENTITY);
                    }
                    b.state[q] = State::Dormant(Mat2::IDENTITY);
                }
            }
            let (qs, k) = step.op.qubits();
            for &q in &qs[..k] {
                b.release_if_pure(q);
            }
        }
        let mut plan = Plan {
            steps: b.out,
            logical: b.logical,
            num_clbits: program.num_clbits,
            num_logical: n,
        };
        plan.merge_blocks(entangler);
        plan
    }

    /// The number of virtual qubits.
    pub fn num_virtuals(&self) -> usize {
        self.logical.len()
    }

    /// The plan run backwards, for placement only (SABRE's layout passes: where a routing of
    /// the reversed plan leaves each virtual qubit is a good place for it to start): the steps
    /// in reverse order, each birth a death and each death (or the end of a life that lasts to
    /// the end) a birth, measurements left out. Blocks keep their unitaries and costs (a
    /// router reads only which qubits meet and at what price). `None` when a step is
    /// conditioned on a bit: backwards, the bit would be read before it is written.
    pub fn reversed(&self) -> Option<Plan> {
        if self.steps.iter().any(|s| s.cond.is_some()) {
            return None;
        }
        let mut dies = vec![false; self.num_virtuals()];
        for s in &self.steps {
            if let VOp::Death { v, .. } = s.op {
                dies[v] = true;
            }
        }
        let mut steps = Vec::with_capacity(self.steps.len() + self.num_virtuals());
        // The lives that last to the end start the reversed plan.
        for (v, _) in dies.iter().enumerate().filter(|(_, d)| !**d) {
            steps.push(VStep {
                op: VOp::Birth {
                    v,
                    prep: Mat2::IDENTITY,
                },
                cond: None,
            });
        }
        for s in self.steps.iter().rev() {
            let op = match s.op {
                VOp::Birth { v, prep } => VOp::Death {
                    v,
                    leaves: Leaves::Known(prep),
                },
                VOp::Death { v, leaves } => VOp::Birth {
                    v,
                    prep: match leaves {
                        Leaves::Known(m) => m,
                        Leaves::Dirty => Mat2::IDENTITY,
                    },
                },
                VOp::Measure { .. } => continue,
                op @ (VOp::One { .. } | VOp::Two { .. }) => op,
            };
            steps.push(VStep { op, cond: None });
        }
        Some(Plan {
            steps,
            logical: self.logical.clone(),
            num_clbits: self.num_clbits,
            num_logical: self.num_logical,
        })
    }

    /// Merges runs of gates on the same pair of virtual qubits (same condition) into one
    /// two-qubit block, and prices every block in `entangler`'s gates.
    fn merge_blocks(&mut self, entangler: Entangler) {
        let nv = self.num_virtuals();
        // The index in `out` of the open block of each virtual qubit.
        let mut open: Vec<Option<usize>> = vec![None; nv];
        let mut out: Vec<Option<VStep>> = Vec::with_capacity(self.steps.len());
        for step in std::mem::take(&mut self.steps) {
            match step.op {
                VOp::Two { hi, lo, m, .. } => {
                    if let (Some(a), Some(b)) = (open[hi], open[lo]) {
                        if a == b {
                            if let Some(Some(block)) = out.get_mut(a) {
                                if block.cond == step.cond {
                                    if let VOp::Two { hi: bh, m: bm, .. } = &mut block.op {
                                        let m = if *bh == hi { m } else { m.swapped() };
                                        *bm = m.mul(bm);
                                        // The block now ends here: move it to this position.
                                        let moved = out[a].take();
                                        out.push(moved);
                                        let at = out.len() - 1;
                                        open[hi] = Some(at);
                                        open[lo] = Some(at);
                                        continue;
                                    }
                                }
                            }
                        }
                    }
                    for v in [hi, lo] {
                        close(&mut open, &out, v);
                    }
                    out.push(Some(step));
                    let at = out.len() - 1;
                    open[hi] = Some(at);
                    open[lo] = Some(at);
                }
                VOp::One { v, m } => {
                    if let Some(a) = open[v] {
                        if let Some(Some(block)) = out.get_mut(a) {
                            if block.cond == step.cond {
                                if let VOp::Two { hi: bh, m: bm, .. } = &mut block.op {
                                    let g = if *bh == v {
                                        Mat4::on_hi(&m)
                                    } else {
                                        Mat4::on_lo(&m)
                                    };
                                    *bm = g.mul(bm);
                                    continue;
                                }
                            }
                        }
                    }
                    close(&mut open, &out, v);
                    out.push(Some(step));
                }
                _ => {
                    let (vs, k) = step.virtuals();
                    for &v in &vs[..k] {
                        close(&mut open, &out, v);
                    }
                    out.push(Some(step));
                }
            }
        }
        self.steps = out
            .into_iter()
            .flatten()
            .map(|mut s| {
                if let VOp::Two {
                    m,
                    cost,
                    mirror_cost,
                    ..
                } = &mut s.op
                {
                    *cost = entangler.count(m);
                    *mirror_cost = entangler.count(&Mat4::SWAP.mul(m));
                }
                s
            })
            .collect();
    }
}

/// Closes the open block of `v` (and so of its partner).
fn close(open: &mut [Option<usize>], out: &[Option<VStep>], v: usize) {
    if let Some(a) = open[v].take() {
        if let Some(Some(VStep {
            op: VOp::Two { hi, lo, .. },
            ..
        })) = out.get(a)
        {
            for w in [*hi, *lo] {
                if open[w] == Some(a) {
                    open[w] = None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(op: VOp) -> VStep {
        VStep { op, cond: None }
    }

    #[test]
    fn the_reversed_plan_runs_each_life_backwards() {
        let x = Mat2::IDENTITY;
        let two = |hi, lo| VOp::Two {
            hi,
            lo,
            m: Mat4::IDENTITY,
            cost: 1,
            mirror_cost: 2,
        };
        // Qubit 0 lives 0-0 then dies; 1 lives to the end; 0 comes back as virtual 2.
        let plan = Plan {
            steps: vec![
                step(VOp::Birth { v: 0, prep: x }),
                step(VOp::Birth { v: 1, prep: x }),
                step(two(0, 1)),
                step(VOp::Measure { v: 0, clbit: 0 }),
                step(VOp::Death {
                    v: 0,
                    leaves: Leaves::Dirty,
                }),
                step(VOp::Birth { v: 2, prep: x }),
                step(two(2, 1)),
            ],
            logical: vec![0, 1, 0],
            num_clbits: 1,
            num_logical: 2,
        };
        let back = plan.reversed().expect("no conditions");
        let ops: Vec<String> = back
            .steps
            .iter()
            .map(|s| match s.op {
                VOp::Birth { v, .. } => format!("birth {v}"),
                VOp::Death { v, .. } => format!("death {v}"),
                VOp::Two { hi, lo, .. } => format!("two {hi} {lo}"),
                VOp::One { v, .. } => format!("one {v}"),
                VOp::Measure { v, .. } => format!("measure {v}"),
            })
            .collect();
        assert_eq!(
            ops,
            [
                "birth 1", "birth 2", "two 2 1", "death 2", "birth 0", "two 0 1", "death 1",
                "death 0"
            ]
        );
        assert_eq!(back.logical, plan.logical);

        let mut conditioned = plan.clone();
        conditioned.steps[6].cond = Some((0, true));
        assert!(conditioned.reversed().is_none());
    }
}
