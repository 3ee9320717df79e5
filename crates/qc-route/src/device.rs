//! The device a program is routed onto: its coupling map, what it can do mid-circuit, and the
//! part of it a calibration leaves usable, with the distances routing measures.

use crate::calibration::Calibration;
use crate::native::Entangler;
use qc_ir::CouplingMap;

/// A device: physical qubits `0..n`, couplers, and whether it measures and resets mid-circuit.
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    /// Its name (the target's), for messages.
    pub name: String,
    /// Its couplers.
    pub coupling: CouplingMap,
    /// Mid-circuit measurement and reset are available: a measured qubit may be reset and
    /// reused. Without them every measurement is a qubit's last operation.
    pub mid_circuit: bool,
    /// Its two-qubit gate: what routing prices blocks in and re-synthesis writes (CZ unless
    /// [`Device::with_entangler`] says otherwise).
    pub entangler: Entangler,
}

impl Device {
    /// A device from its coupling map.
    pub fn new(name: impl Into<String>, coupling: CouplingMap, mid_circuit: bool) -> Device {
        Device {
            name: name.into(),
            coupling,
            mid_circuit,
            entangler: Entangler::Cz,
        }
    }

    /// The same device with `entangler` as its two-qubit gate.
    pub fn with_entangler(self, entangler: Entangler) -> Device {
        Device { entangler, ..self }
    }

    /// The number of physical qubits.
    pub fn num_qubits(&self) -> usize {
        self.coupling.num_qubits()
    }
}

/// What routing may use of a device under a calibration: the largest connected part of the
/// couplers and qubits that are not broken, with the cost of a two-qubit gate on each coupler
/// and the shortest-path distances those costs give.
#[derive(Clone, Debug)]
pub struct Usable {
    /// Usable qubits (in the chosen connected part).
    pub qubit: Vec<bool>,
    /// Usable neighbours of every qubit, with the coupler's cost.
    pub neighbours: Vec<Vec<(usize, f64)>>,
    /// Weighted distance between every pair of usable qubits (`f64::INFINITY` otherwise): the
    /// cheapest path, each coupler counting its two-qubit gate cost (1 for a median coupler).
    pub distance: Vec<Vec<f64>>,
    /// Hop counts between usable qubits (`u32::MAX` otherwise).
    pub hops: Vec<Vec<u32>>,
    /// The largest hop count between two usable qubits.
    pub diameter: u32,
}

impl Usable {
    /// The usable part of `device` under `calibration`.
    pub fn new(device: &Device, calibration: &Calibration) -> Usable {
        let n = device.num_qubits();
        let ok_edge = |a: usize, b: usize| {
            calibration.qubit_usable(a)
                && calibration.qubit_usable(b)
                && calibration.coupler_usable(a, b)
        };
        // The largest connected part of what is not broken.
        let mut best: Vec<bool> = vec![false; n];
        let mut seen = vec![false; n];
        for start in 0..n {
            if seen[start] || !calibration.qubit_usable(start) {
                continue;
            }
            let part = device.coupling.component_of(start, ok_edge);
            for (q, r) in part.iter().enumerate() {
                seen[q] |= *r;
            }
            if part.iter().filter(|r| **r).count() > best.iter().filter(|r| **r).count() {
                best = part;
            }
        }
        let neighbours: Vec<Vec<(usize, f64)>> = (0..n)
            .map(|q| {
                if !best[q] {
                    return Vec::new();
                }
                device
                    .coupling
                    .neighbours(q)
                    .iter()
                    .filter(|&&r| best[r] && ok_edge(q, r))
                    .map(|&r| (r, calibration.two_qubit_cost(q, r)))
                    .collect()
            })
            .collect();
        Usable::with_neighbours(best, neighbours)
    }

    /// The usable part made of `qubit` and the couplers `neighbours` lists, with the distances,
    /// hop counts and diameter they give.
    fn with_neighbours(qubit: Vec<bool>, neighbours: Vec<Vec<(usize, f64)>>) -> Usable {
        let n = qubit.len();
        let distance = (0..n).map(|s| dijkstra(&neighbours, s, &qubit)).collect();
        let hops: Vec<Vec<u32>> = (0..n).map(|s| bfs(&neighbours, s, &qubit)).collect();
        let diameter = hops
            .iter()
            .flat_map(|row| row.iter().copied().filter(|&h| h != u32::MAX))
            .max()
            .unwrap_or(0);
        Usable {
            qubit,
            neighbours,
            distance,
            hops,
            diameter,
        }
    }

    /// The part of this one along `path` (consecutive qubits of it are usable neighbours): a
    /// line of the device, with its couplers' costs.
    pub fn along(&self, path: &[usize]) -> Usable {
        let n = self.qubit.len();
        let mut qubit = vec![false; n];
        let mut neighbours: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for &q in path {
            qubit[q] = true;
        }
        for pair in path.windows(2) {
            if let Some(cost) = self.edge_cost(pair[0], pair[1]) {
                neighbours[pair[0]].push((pair[1], cost));
                neighbours[pair[1]].push((pair[0], cost));
            }
        }
        Usable::with_neighbours(qubit, neighbours)
    }

    /// The number of usable qubits.
    pub fn count(&self) -> usize {
        self.qubit.iter().filter(|u| **u).count()
    }

    /// The cost of the coupler `(a, b)`, if it is usable.
    pub fn edge_cost(&self, a: usize, b: usize) -> Option<f64> {
        self.neighbours
            .get(a)?
            .iter()
            .find(|(r, _)| *r == b)
            .map(|(_, c)| *c)
    }
}

fn dijkstra(neighbours: &[Vec<(usize, f64)>], start: usize, usable: &[bool]) -> Vec<f64> {
    let n = neighbours.len();
    let mut dist = vec![f64::INFINITY; n];
    if !usable[start] {
        return dist;
    }
    dist[start] = 0.0;
    let mut done = vec![false; n];
    // Dense O(n^2) Dijkstra: devices have at most a few hundred qubits.
    for _ in 0..n {
        let Some(u) = (0..n)
            .filter(|&q| !done[q] && dist[q].is_finite())
            .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
        else {
            break;
        };
        done[u] = true;
        for &(v, w) in &neighbours[u] {
            if dist[u] + w < dist[v] {
                dist[v] = dist[u] + w;
            }
        }
    }
    dist
}

fn bfs(neighbours: &[Vec<(usize, f64)>], start: usize, usable: &[bool]) -> Vec<u32> {
    let mut hops = vec![u32::MAX; neighbours.len()];
    if !usable[start] {
        return hops;
    }
    hops[start] = 0;
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(q) = queue.pop_front() {
        for &(r, _) in &neighbours[q] {
            if hops[r] == u32::MAX {
                hops[r] = hops[q] + 1;
                queue.push_back(r);
            }
        }
    }
    hops
}
