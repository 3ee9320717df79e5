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
    let Some(&centre) = qubits.iter().min_by(|&&a, &&b| {
        let total = |q: usize| -> f64 { qubits.iter().map(|&r| usable.distance[q][r]).sum() };
        total(a).total_cmp(&total(b))
    }) else {
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
    let mut home: Vec<Option<usize>> = vec![None; 64];
    let mut taken = vec![false; n];
    for sq in order {
        let neighbours: Vec<usize> = (-1..=1)
            .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
            .filter(|&d| d != (0, 0))
            .filter_map(|(df, dr)| Site::from_coords(sq.column() + df, sq.row() + dr))
            .filter_map(|t| home[t.index()])
            .collect();
        let free = qubits.iter().copied().filter(|&q| !taken[q]);
        let score = |q: usize| -> f64 {
            if neighbours.is_empty() {
                usable.distance[q][centre]
            } else {
                neighbours
                    .iter()
                    .map(|&h| {
                        let d = usable.distance[q][h];
                        d * d
                    })
                    .sum()
            }
        };
        let pick = free
            .min_by(|&a, &b| score(a).total_cmp(&score(b)))
            // A device smaller than the board: share homes.
            .or_else(|| {
                qubits
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
