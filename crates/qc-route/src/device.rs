//! The device a program is routed onto: its coupling map, what it can do mid-circuit, and the
//! part of it a calibration leaves usable, with the distances routing measures.

use crate::calibration::Calibration;
use qc_ir::CouplingMap;
use std::sync::OnceLock;

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
}

impl Device {
    /// A device from its coupling map.
    pub fn new(name: impl Into<String>, coupling: CouplingMap, mid_circuit: bool) -> Device {
        Device {
            name: name.into(),
            coupling,
            mid_circuit,
        }
    }

    /// The number of physical qubits.
    pub fn num_qubits(&self) -> usize {
        self.coupling.num_qubits()
    }
}

/// What routing may use of a device under a calibration: the largest connected part of the
/// couplers and qubits that are not broken, with the cost of a two-qubit gate on each coupler
/// and the shortest-path distances those costs give.
///
/// Distances and hop counts are computed per source qubit when first asked for (Dijkstra and
/// breadth-first search from that qubit, `O(m log n)` each) and kept: routing asks only from the
/// places its qubits occupy, so the work and memory grow with the part of the device a program
/// uses, not with the square (or, as all-pairs tables were, the cube) of the device.
#[derive(Clone, Debug)]
pub struct Usable {
    /// Usable qubits (in the chosen connected part).
    pub qubit: Vec<bool>,
    /// Usable neighbours of every qubit, with the coupler's cost.
    pub neighbours: Vec<Vec<(usize, f64)>>,
    /// The largest hop count between two usable qubits (exact up to [`EXACT_DIAMETER`] usable
    /// qubits; above, the double-sweep lower bound, which is at least half of it).
    pub diameter: u32,
    /// Weighted distances from each source asked for so far.
    distance_rows: Vec<OnceLock<Box<[f64]>>>,
    /// Hop counts from each source asked for so far.
    hop_rows: Vec<OnceLock<Box<[u32]>>>,
}

/// Up to this many usable qubits the diameter is exact (a breadth-first search from each).
pub const EXACT_DIAMETER: usize = 4096;

impl Usable {
    /// The usable part of `device` under `calibration`.
    pub fn new(device: &Device, calibration: &Calibration) -> Usable {
        let n = device.num_qubits();
        let ok_edge = |a: usize, b: usize| {
            calibration.qubit_usable(a)
                && calibration.qubit_usable(b)
                && calibration.coupler_usable(a, b)
        };
        // The largest connected part of what is not broken (the first of the largest): every
        // part labelled in one pass over the device.
        let mut part_of: Vec<Option<usize>> = vec![None; n];
        let (mut best, mut best_size) = (None, 0usize);
        let mut stack = Vec::new();
        for start in 0..n {
            if part_of[start].is_some() || !calibration.qubit_usable(start) {
                continue;
            }
            part_of[start] = Some(start);
            stack.push(start);
            let mut size = 0usize;
            while let Some(q) = stack.pop() {
                size += 1;
                for &r in device.coupling.neighbours(q) {
                    if part_of[r].is_none() && ok_edge(q, r) {
                        part_of[r] = Some(start);
                        stack.push(r);
                    }
                }
            }
            if size > best_size {
                (best, best_size) = (Some(start), size);
            }
        }
        let best: Vec<bool> = part_of.iter().map(|p| p.is_some() && *p == best).collect();
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

    /// The usable part made of `qubit` and the couplers `neighbours` lists, with its diameter
    /// (distances and hop counts are computed when asked for).
    fn with_neighbours(qubit: Vec<bool>, neighbours: Vec<Vec<(usize, f64)>>) -> Usable {
        let n = qubit.len();
        let mut usable = Usable {
            qubit,
            neighbours,
            diameter: 0,
            distance_rows: (0..n).map(|_| OnceLock::new()).collect(),
            hop_rows: (0..n).map(|_| OnceLock::new()).collect(),
        };
        usable.diameter = usable.find_diameter();
        usable
    }

    /// The largest hop count: from every usable qubit up to [`EXACT_DIAMETER`] of them (each
    /// search's row dropped at once), else two sweeps (the farthest qubit from the first, and
    /// the farthest from that one).
    fn find_diameter(&self) -> u32 {
        let farthest = |row: &[u32]| {
            row.iter()
                .enumerate()
                .filter(|(_, h)| **h != u32::MAX)
                .max_by_key(|(q, h)| (**h, std::cmp::Reverse(*q)))
                .map(|(q, h)| (q, *h))
        };
        let usable: Vec<usize> = (0..self.qubit.len()).filter(|&q| self.qubit[q]).collect();
        if usable.len() <= EXACT_DIAMETER {
            return usable
                .iter()
                .filter_map(|&s| farthest(&bfs(&self.neighbours, s, &self.qubit)))
                .map(|(_, h)| h)
                .max()
                .unwrap_or(0);
        }
        let Some(&first) = usable.first() else {
            return 0;
        };
        let Some((far, _)) = farthest(&bfs(&self.neighbours, first, &self.qubit)) else {
            return 0;
        };
        farthest(&bfs(&self.neighbours, far, &self.qubit)).map_or(0, |(_, h)| h)
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

    /// The weighted distance from `from` to `to`: the cheapest path, each coupler counting its
    /// two-qubit gate cost (1 for a median coupler); `f64::INFINITY` when either is not usable.
    /// Computed from `from` (its row is kept): callers put first the qubit they ask from again.
    pub fn distance(&self, from: usize, to: usize) -> f64 {
        self.distance_row(from)[to]
    }

    /// The weighted distances from `from` to every qubit (see [`Usable::distance`]).
    pub fn distance_row(&self, from: usize) -> &[f64] {
        self.distance_rows[from]
            .get_or_init(|| dijkstra(&self.neighbours, from, &self.qubit).into())
    }

    /// The weighted distances from `from`, computed afresh and not kept (for a one-off
    /// question about a large device).
    pub fn distances_from(&self, from: usize) -> Vec<f64> {
        dijkstra(&self.neighbours, from, &self.qubit)
    }

    /// Hop counts from `from` to `to` between usable qubits (`u32::MAX` otherwise); computed
    /// from `from`, whose row is kept.
    pub fn hops(&self, from: usize, to: usize) -> u32 {
        self.hop_rows[from].get_or_init(|| bfs(&self.neighbours, from, &self.qubit).into())[to]
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

/// Weighted distances from `start` (Dijkstra with a binary heap). Qubits are settled in order
/// of distance, the lower index first on a tie, and a distance only improves by a strict `<`:
/// the order and the sums of the dense search this replaced, so every distance is the same
/// number to the last bit.
fn dijkstra(neighbours: &[Vec<(usize, f64)>], start: usize, usable: &[bool]) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    /// A heap entry: a distance with the qubit, ordered by distance then qubit.
    #[derive(PartialEq)]
    struct Entry(f64, usize);
    impl Eq for Entry {}
    impl PartialOrd for Entry {
        fn partial_cmp(&self, other: &Entry) -> Option<std::cmp::Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Entry {
        fn cmp(&self, other: &Entry) -> std::cmp::Ordering {
            self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
        }
    }
    let n = neighbours.len();
    let mut dist = vec![f64::INFINITY; n];
    if !usable[start] {
        return dist;
    }
    dist[start] = 0.0;
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::from([Reverse(Entry(0.0, start))]);
    while let Some(Reverse(Entry(d, u))) = heap.pop() {
        if done[u] || d > dist[u] {
            continue;
        }
        done[u] = true;
        for &(v, w) in &neighbours[u] {
            if !done[v] && dist[u] + w < dist[v] {
                dist[v] = dist[u] + w;
                heap.push(Reverse(Entry(dist[v], v)));
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
