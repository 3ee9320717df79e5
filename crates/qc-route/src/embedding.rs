//! What [`crate::vf2`] finds, for the router: a start for every virtual qubit of a plan where its
//! interactions need no exchange (all of them, or the longest beginning of the program that
//! can), and the same search after routing, to move a routed program onto better qubits of the
//! same shape (Qiskit's VF2PostLayout).

use crate::calibration::Calibration;
use crate::device::Usable;
use crate::plan::{Plan, VOp};
use crate::program::StepOp;
use crate::router::Routing;
use crate::vf2::{self, Bounds, Pattern, Target};

/// Starts found for a plan's virtual qubits.
#[derive(Clone, Debug, PartialEq)]
pub struct Starts {
    /// Per virtual qubit: the physical qubit it starts on (distinct ones).
    pub starts: Vec<Option<usize>>,
    /// Every two-qubit block of the plan is on a coupler under these starts.
    pub complete: bool,
}

/// The cost of each usable qubit's measurement.
fn readout_costs(usable: &Usable, calibration: &Calibration) -> Vec<f64> {
    (0..usable.qubit.len())
        .map(|q| calibration.readout_cost(q))
        .collect()
}

/// Starts for the virtual qubits of `plan`: the cheapest placement under which all its blocks
/// sit on couplers if one is found within `bounds`, else the one for the longest beginning of
/// the program, the other virtual qubits put next to their first partners. `None` when the
/// plan has more virtual qubits than the device has usable qubits (lives that could share a
/// qubit are not considered) or has no two-qubit block.
pub fn starts(
    plan: &Plan,
    usable: &Usable,
    calibration: &Calibration,
    bounds: Bounds,
) -> Option<Starts> {
    let n = plan.num_virtuals();
    if n > usable.count() {
        return None;
    }
    let pairs: Vec<(usize, usize, f64)> = plan
        .steps
        .iter()
        .filter_map(|s| match s.op {
            VOp::Two { hi, lo, cost, .. } => Some((hi, lo, f64::from(cost))),
            _ => None,
        })
        .collect();
    if pairs.is_empty() {
        return None;
    }
    let mut measured = vec![0.0; n];
    for s in &plan.steps {
        if let VOp::Measure { v, .. } = s.op {
            measured[v] += 1.0;
        }
    }
    let readout = readout_costs(usable, calibration);
    let target = Target {
        neighbours: &usable.neighbours,
        usable: &usable.qubit,
        node_cost: &readout,
    };
    let mut whole = Pattern::from_pairs(n, pairs.iter().copied());
    whole.node_weight = measured;
    if let (Some(found), _) = vf2::best_embedding(&whole, target, bounds) {
        return Some(Starts {
            starts: found.map.into_iter().map(Some).collect(),
            complete: true,
        });
    }
    let probe = Bounds {
        work: bounds.work / 8,
        ..bounds
    };
    let (_, found) = vf2::longest_prefix(n, &pairs, target, probe)?;
    let mut starts: Vec<Option<usize>> = found
        .map
        .iter()
        .map(|&q| (q < usable.qubit.len()).then_some(q))
        .collect();
    place_the_rest(&mut starts, &pairs, usable, &readout);
    Some(Starts {
        starts,
        complete: false,
    })
}

/// Gives every virtual qubit without a start the free usable qubit closest to its partners
/// that have one (weighted by their interactions; the cheapest readout when it has none), in
/// the order the program first meets them.
fn place_the_rest(
    starts: &mut [Option<usize>],
    pairs: &[(usize, usize, f64)],
    usable: &Usable,
    readout: &[f64],
) {
    let n = starts.len();
    let mut taken = vec![false; usable.qubit.len()];
    for q in starts.iter().flatten() {
        taken[*q] = true;
    }
    let mut partners: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    let mut first_seen: Vec<usize> = Vec::new();
    let mut seen = vec![false; n];
    for &(a, b, w) in pairs {
        partners[a].push((b, w.max(1.0)));
        partners[b].push((a, w.max(1.0)));
        for v in [a, b] {
            if !seen[v] {
                seen[v] = true;
                first_seen.push(v);
            }
        }
    }
    first_seen.extend((0..n).filter(|&v| !seen[v]));
    for v in first_seen {
        if starts[v].is_some() {
            continue;
        }
        let score = |q: usize| -> f64 {
            partners[v]
                .iter()
                .filter_map(|&(u, w)| starts[u].map(|p| w * usable.distance(q, p)))
                .sum::<f64>()
                + 1e-3 * readout[q]
        };
        let pick = (0..usable.qubit.len())
            .filter(|&q| usable.qubit[q] && !taken[q])
            .min_by(|&a, &b| score(a).total_cmp(&score(b)).then(a.cmp(&b)));
        if let Some(q) = pick {
            taken[q] = true;
            starts[v] = Some(q);
        }
    }
}

/// Moves a routed program onto the qubits of the same shape that the calibration prices lowest
/// (Qiskit's VF2PostLayout): the physical qubits it uses and the couplers it runs blocks on,
/// weighted by their CZ count per run (`runs`: `(hi, lo, CZ)`) and measurements, embedded
/// again; the routing is relabelled when the new placement is cheaper. True when it moved.
pub fn relabel_cheaper(
    routing: &mut Routing,
    runs: &[(usize, usize, u8)],
    usable: &Usable,
    calibration: &Calibration,
    bounds: Bounds,
) -> bool {
    let m = usable.qubit.len();
    // The qubits the program uses, numbered in order.
    // The qubits the program uses or its layout names (a life with no gate names a qubit no
    // step touches), numbered in order.
    let mut node = vec![usize::MAX; m];
    let mut used = Vec::new();
    let named = routing.tracks.iter().flat_map(|t| {
        t.start
            .into_iter()
            .chain(t.lives.iter().copied())
            .chain(t.measurements.iter().map(|&(_, q)| q))
    });
    let stepped = routing.steps.iter().flat_map(|s| {
        let (qs, k) = s.op.qubits();
        qs.into_iter().take(k)
    });
    let last = routing.last_pos.iter().flatten().copied();
    for q in stepped.chain(named).chain(last) {
        if q >= m || !usable.qubit[q] {
            return false;
        }
        if node[q] == usize::MAX {
            node[q] = used.len();
            used.push(q);
        }
    }
    if used.is_empty() {
        return false;
    }
    let mut pattern = Pattern::from_pairs(
        used.len(),
        runs.iter()
            .filter(|&&(hi, lo, _)| hi < m && lo < m)
            .map(|&(hi, lo, cz)| (node[hi], node[lo], f64::from(cz))),
    );
    pattern.node_weight = vec![0.0; used.len()];
    for s in &routing.steps {
        if let StepOp::Measure { q, .. } = s.op {
            if q < m {
                pattern.node_weight[node[q]] += 1.0;
            }
        }
    }
    let readout = readout_costs(usable, calibration);
    let target = Target {
        neighbours: &usable.neighbours,
        usable: &usable.qubit,
        node_cost: &readout,
    };
    let Some(now) = vf2::placement_cost(&pattern, target, &used) else {
        return false;
    };
    let (Some(found), _) = vf2::best_embedding(&pattern, target, bounds) else {
        return false;
    };
    if found.cost >= now - 1e-9 {
        return false;
    }
    let to = |q: usize| -> usize {
        match node.get(q) {
            Some(&i) if i != usize::MAX => found.map[i],
            _ => q,
        }
    };
    for s in &mut routing.steps {
        s.op = match s.op {
            StepOp::One { q, m } => StepOp::One { q: to(q), m },
            StepOp::Two { hi, lo, m } => StepOp::Two {
                hi: to(hi),
                lo: to(lo),
                m,
            },
            StepOp::Measure { q, clbit } => StepOp::Measure { q: to(q), clbit },
            StepOp::Reset { q } => StepOp::Reset { q: to(q) },
        };
    }
    for t in &mut routing.tracks {
        t.start = t.start.map(to);
        for (_, q) in &mut t.measurements {
            *q = to(*q);
        }
        for q in &mut t.lives {
            *q = to(*q);
        }
    }
    for p in routing.last_pos.iter_mut().flatten() {
        *p = to(*p);
    }
    true
}
