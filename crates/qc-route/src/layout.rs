//! The board on the device: each square gets a home physical qubit, chosen so that squares
//! next to each other on the board (a king's step apart) are close on the coupling map. A
//! square's qubit is born near its home unless the qubits it will meet pull it elsewhere
//! ([`crate::router`]), so pieces that move along files, ranks, diagonals and knight hops find
//! their partners a few couplers away.
//!
//! The embedding grows from the device's centre (the usable qubit with the smallest total
//! distance to the others, a coupler's cost counting its error): squares are taken from the
//! board's centre outwards, each placed on the free qubit closest to its placed neighbours.

use crate::device::Usable;
use qc_ir::Site;

/// A home physical qubit for every grid site (indexed by `Site::index`: a game's squares), or `None` when the
/// device has no usable qubit.
pub fn board_homes(usable: &Usable) -> Vec<Option<usize>> {
    let n = usable.qubit.len();
    let qubits: Vec<usize> = (0..n).filter(|&q| usable.qubit[q]).collect();
    let Some(centre) = centre(usable, &qubits) else {
        return vec![None; 64];
    };
    let mut order: Vec<Site> = Site::ALL.to_vec();
    let from_centre = |s: &Site| {
        let (f, r) = (f64::from(s.column()) - 3.5, f64::from(s.row()) - 3.5);
        (f * f + r * r, s.index())
    };
    order.sort_by(|a, b| {
        let (da, ia) = from_centre(a);
        let (db, ib) = from_centre(b);
        da.total_cmp(&db).then(ia.cmp(&ib))
    });
    // The homes are looked for among the qubits nearest the centre (all of them on a device
    // of up to HOME_CANDIDATES usable qubits), so a large device costs no more than that.
    let candidates: Vec<usize> = if qubits.len() <= HOME_CANDIDATES {
        qubits
    } else {
        let row = usable.distance_row(centre);
        let mut near = qubits;
        near.sort_by(|&a, &b| row[a].total_cmp(&row[b]).then(a.cmp(&b)));
        near.truncate(HOME_CANDIDATES);
        near.sort_unstable();
        near
    };
    let mut home: Vec<Option<usize>> = vec![None; 64];
    let mut taken = vec![false; n];
    for sq in order {
        let neighbours: Vec<usize> = (-1..=1)
            .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(|(df, dr)| Site::from_coords(sq.column() + df, sq.row() + dr))
            .filter_map(|t| home[t.index()])
            .collect();
        let free = candidates.iter().copied().filter(|&q| !taken[q]);
        let score = |q: usize| -> f64 {
            if neighbours.is_empty() {
                usable.distance(centre, q)
            } else {
                neighbours
                    .iter()
                    .map(|&h| {
                        let d = usable.distance(h, q);
                        d * d
                    })
                    .sum()
            }
        };
        let pick = free
            .min_by(|&a, &b| score(a).total_cmp(&score(b)))
            // A device smaller than the board: share homes.
            .or_else(|| {
                candidates
                    .iter()
                    .copied()
                    .min_by(|&a, &b| score(a).total_cmp(&score(b)))
            });
        if let Some(q) = pick {
            taken[q] = true;
            home[sq.index()] = Some(q);
        }
    }
    home
}

/// Usable qubits among which [`board_homes`] looks for homes (the nearest to the centre).
pub const HOME_CANDIDATES: usize = 1024;

/// Up to this many usable qubits the centre is exact; above, it is measured against
/// [`CENTRE_LANDMARKS`] qubits spread over the device.
pub const CENTRE_EXACT: usize = 1024;

/// Qubits the centre of a large device is measured against.
pub const CENTRE_LANDMARKS: usize = 256;

/// The usable qubit with the smallest total distance to the others (to the landmarks, on a
/// device of more than [`CENTRE_EXACT`] usable qubits; each landmark's distances are computed
/// once and dropped, so memory stays linear in the device).
fn centre(usable: &Usable, qubits: &[usize]) -> Option<usize> {
    let mut total = vec![0.0f64; usable.qubit.len()];
    if qubits.len() <= CENTRE_EXACT {
        for &q in qubits {
            total[q] = qubits.iter().map(|&r| usable.distance(q, r)).sum();
        }
    } else {
        for &landmark in qubits
            .iter()
            .step_by(qubits.len().div_ceil(CENTRE_LANDMARKS))
        {
            let row = usable.distances_from(landmark);
            for &q in qubits {
                total[q] += row[q];
            }
        }
    }
    qubits
        .iter()
        .copied()
        .min_by(|&a, &b| total[a].total_cmp(&total[b]))
}

/// Steps [`long_path`] may take in all.
const PATH_WORK: usize = 200_000;

/// A simple path of at least `want` usable qubits if one is found within 200,000 steps,
/// else the longest found: a depth-first search with backtracking from each qubit with the
/// fewest usable neighbours (the ends of the device) in turn, trying first the neighbour with
/// the fewest unvisited neighbours of its own (Warnsdorff's rule, which keeps the walk from
/// cutting the device in two) and the cheaper coupler on a tie.
pub fn long_path(usable: &Usable, want: usize) -> Vec<usize> {
    let n = usable.qubit.len();
    let degree = |q: usize| usable.neighbours[q].len();
    let mut starts: Vec<usize> = (0..n).filter(|&q| usable.qubit[q]).collect();
    starts.sort_by_key(|&q| degree(q));
    let mut best: Vec<usize> = Vec::new();
    let mut work = 0usize;
    let mut visited = vec![false; n];
    for start in starts {
        // The path, and for each of its qubits the neighbours still to try (best last).
        let mut path = vec![start];
        visited[start] = true;
        let mut to_try: Vec<Vec<usize>> = vec![ordered_next(usable, start, &visited)];
        while let Some(options) = to_try.last_mut() {
            work += 1;
            if best.len() >= want || work > PATH_WORK {
                break;
            }
            match options.pop() {
                Some(next) if !visited[next] => {
                    visited[next] = true;
                    path.push(next);
                    if path.len() > best.len() {
                        best = path.clone();
                    }
                    to_try.push(ordered_next(usable, next, &visited));
                }
                Some(_) => {}
                None => {
                    to_try.pop();
                    if let Some(q) = path.pop() {
                        visited[q] = false;
                    }
                }
            }
        }
        for &q in &path {
            visited[q] = false;
        }
        if best.len() >= want || work > PATH_WORK {
            break;
        }
    }
    best
}

/// The unvisited neighbours of `at`, the one to try first last.
fn ordered_next(usable: &Usable, at: usize, visited: &[bool]) -> Vec<usize> {
    let unvisited = |q: usize| {
        usable.neighbours[q]
            .iter()
            .filter(|(r, _)| !visited[*r])
            .count()
    };
    let mut next: Vec<(usize, f64)> = usable.neighbours[at]
        .iter()
        .copied()
        .filter(|(r, _)| !visited[*r])
        .collect();
    next.sort_by(|x, y| {
        unvisited(y.0)
            .cmp(&unvisited(x.0))
            .then(y.1.total_cmp(&x.1))
    });
    next.into_iter().map(|(r, _)| r).collect()
}
