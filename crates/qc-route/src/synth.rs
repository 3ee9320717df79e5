//! Re-synthesis after routing: every maximal run of operations on one pair of physical qubits
//! (two-qubit blocks, the SWAPs and moves routing added next to them, single-qubit gates in
//! between; one condition) becomes one unitary, written with the fewest gates of the device's
//! entangler its Weyl-chamber coordinates allow ([`crate::native`]: CZ, √iSWAP, ...). This is
//! where a SWAP merges into the block before it, and where the blocks of the program come out
//! as native two-qubit gates and single-qubit gates.
//!
//! A run only holds operations on its two qubits, with nothing else on either of them in
//! between, so it can be written where it starts: whatever lies between commutes with it, and a
//! condition's measurement comes before the run's first operation.

use crate::error::RouteError;
use crate::linalg::Mat4;
use crate::native::{CountCache, Entangler, Prim, Synthesis};
use crate::program::{Cond, Step, StepOp};
use qc_ir::CouplingMap;

struct Block {
    hi: usize,
    lo: usize,
    m: Mat4,
    cond: Cond,
    members: Vec<Step>,
}

enum Item {
    /// An index into the input steps.
    Step(usize),
    /// An index into the blocks.
    Block(usize),
}

/// The runs of `steps` (on `num_qubits` physical qubits): every step in order, either itself or
/// the run on a pair it opens (later members of a run are folded into it).
fn runs(steps: &[Step], num_qubits: usize) -> (Vec<Item>, Vec<Block>) {
    let mut blocks: Vec<Block> = Vec::new();
    let mut open: Vec<Option<usize>> = vec![None; num_qubits];
    let mut items: Vec<Item> = Vec::with_capacity(steps.len());
    let close = |open: &mut [Option<usize>], blocks: &[Block], q: usize| {
        if let Some(b) = open[q].take() {
            let other = if blocks[b].hi == q {
                blocks[b].lo
            } else {
                blocks[b].hi
            };
            if open[other] == Some(b) {
                open[other] = None;
            }
        }
    };
    for (index, step) in steps.iter().enumerate() {
        match step.op {
            StepOp::One { q, m } => {
                if let Some(b) = open[q].filter(|&b| blocks[b].cond == step.cond) {
                    let block = &mut blocks[b];
                    let g = if block.hi == q {
                        Mat4::on_hi(&m)
                    } else {
                        Mat4::on_lo(&m)
                    };
                    block.m = g.mul(&block.m);
                    block.members.push(*step);
                    continue;
                }
                close(&mut open, &blocks, q);
                items.push(Item::Step(index));
            }
            StepOp::Two { hi, lo, m } => {
                if let (Some(a), Some(b)) = (open[hi], open[lo]) {
                    if a == b && blocks[a].cond == step.cond {
                        let block = &mut blocks[a];
                        let m = if block.hi == hi { m } else { m.swapped() };
                        block.m = m.mul(&block.m);
                        block.members.push(*step);
                        continue;
                    }
                }
                close(&mut open, &blocks, hi);
                close(&mut open, &blocks, lo);
                blocks.push(Block {
                    hi,
                    lo,
                    m,
                    cond: step.cond,
                    members: vec![*step],
                });
                open[hi] = Some(blocks.len() - 1);
                open[lo] = Some(blocks.len() - 1);
                items.push(Item::Block(blocks.len() - 1));
            }
            StepOp::Measure { q, .. } | StepOp::Reset { q } => {
                close(&mut open, &blocks, q);
                items.push(Item::Step(index));
            }
        }
    }
    (items, blocks)
}

/// The two-qubit gates [`resynthesize`] would write for `steps`, as `(hi, lo, count)` per run
/// on a pair, counted in `counts`' entangler: one Weyl-chamber analysis per run instead of a
/// synthesis checked by multiplication, for pricing the many candidate routings of which one is
/// written.
pub fn gates_per_run(
    steps: &[Step],
    num_qubits: usize,
    counts: &mut CountCache,
) -> Vec<(usize, usize, u8)> {
    let (_, blocks) = runs(steps, num_qubits);
    blocks
        .iter()
        .map(|b| (b.hi, b.lo, counts.count(&b.m)))
        .collect()
}

/// The pair `(hi, lo)` with the unitary `m` on it, turned the way `coupling` drives
/// `entangler`'s gate: a directed gate (ECR, CX) on a coupler that runs only `lo` to `hi` is
/// written on `(lo, hi)` with `m`'s qubits exchanged, so that every native gate the synthesis
/// writes has the coupler's first qubit first. Anything else is left as it is.
pub fn oriented(
    coupling: &CouplingMap,
    entangler: Entangler,
    hi: usize,
    lo: usize,
    m: Mat4,
) -> (usize, usize, Mat4) {
    if entangler.directed() && coupling.is_directed() && !coupling.runs(hi, lo) {
        (lo, hi, m.swapped())
    } else {
        (hi, lo, m)
    }
}

/// Re-synthesises `steps` (on `coupling`'s physical qubits): two-qubit steps come out as
/// `entangler`'s gates, each the way its coupler drives it ([`oriented`]).
pub fn resynthesize(
    steps: &[Step],
    coupling: &CouplingMap,
    entangler: Entangler,
) -> Result<Vec<Step>, RouteError> {
    let (items, blocks) = runs(steps, coupling.num_qubits());
    let mut out = Vec::with_capacity(items.len() * 2);
    for item in items {
        match item {
            Item::Step(s) => out.push(steps[s]),
            Item::Block(b) => {
                let block = &blocks[b];
                let (hi, lo, m) = oriented(coupling, entangler, block.hi, block.lo, block.m);
                match entangler.synthesize(&m) {
                    Some(prims) => write_prims(&prims, hi, lo, block.cond, &mut out),
                    // Fall back to the members one by one.
                    None => {
                        for s in &block.members {
                            match s.op {
                                StepOp::Two { hi, lo, m } => {
                                    let (hi, lo, m) = oriented(coupling, entangler, hi, lo, m);
                                    let prims = entangler
                                        .synthesize(&m)
                                        .ok_or(RouteError::Synthesis { entangler })?;
                                    write_prims(&prims, hi, lo, s.cond, &mut out);
                                }
                                _ => out.push(*s),
                            }
                        }
                    }
                }
            }
        }
    }
    // Reserved at twice the runs; trimmed, as it is kept while the circuit is built from it.
    out.shrink_to_fit();
    Ok(out)
}

fn write_prims(prims: &[Prim], hi: usize, lo: usize, cond: Cond, out: &mut Vec<Step>) {
    for p in prims {
        let op = match *p {
            Prim::Two(g) => StepOp::Two {
                hi,
                lo,
                m: g.matrix(),
            },
            Prim::One(on_hi, m) => {
                if m.is_identity(1e-12) {
                    continue;
                }
                StepOp::One {
                    q: if on_hi { hi } else { lo },
                    m,
                }
            }
        };
        out.push(Step { op, cond });
    }
}
