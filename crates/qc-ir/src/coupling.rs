//! A device's coupling map: its physical qubits `0..n` and the undirected couplers between them
//! (the pairs a two-qubit gate may act on). Read from a target's `edges` (qc-export) and used by
//! the router (qc-route); the checks live here once: every coupler names two different qubits of
//! the device, none is listed twice, and every qubit can reach every other one.
//!
//! A map may also record which way round each coupler drives a gate whose two qubits play
//! different parts (ECR's driven qubit, CX's control): [`CouplingMap::directed`]. Placement and
//! routing ignore it (turning such a gate round costs single-qubit gates only); the device
//! compiler writes every such gate the way its coupler runs ([`CouplingMap::runs`]).

use std::collections::BTreeSet;
use thiserror::Error;

/// Why a list of couplers is not a usable coupling map.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CouplingError {
    /// A device without qubits.
    #[error("a device needs at least one qubit")]
    NoQubits,
    /// More qubits than a coupling map may have.
    #[error("a device of {qubits} qubits is larger than the {max} a coupling map may have")]
    TooManyQubits {
        /// The qubit count asked for.
        qubits: usize,
        /// [`MAX_DEVICE_QUBITS`].
        max: usize,
    },
    /// A coupler names a qubit the device does not have.
    #[error(
        "coupler {index} ({a}-{b}) names qubit {qubit}, but the device has qubits 0..{qubits}"
    )]
    OutOfRange {
        /// Position of the coupler in the list (from 0).
        index: usize,
        /// Its first qubit.
        a: usize,
        /// Its second qubit.
        b: usize,
        /// The qubit out of range.
        qubit: usize,
        /// The device's qubit count.
        qubits: usize,
    },
    /// A coupler from a qubit to itself.
    #[error("coupler {index} joins qubit {qubit} to itself")]
    SelfLoop {
        /// Position of the coupler in the list.
        index: usize,
        /// The qubit.
        qubit: usize,
    },
    /// The same coupler twice (in either direction).
    #[error("coupler {index} ({a}-{b}) is listed twice")]
    Duplicate {
        /// Position of the second listing.
        index: usize,
        /// Its first qubit.
        a: usize,
        /// Its second qubit.
        b: usize,
    },
    /// Some qubits cannot be reached from qubit 0 through couplers.
    #[error("the coupling map is disconnected: {unreachable} of {qubits} qubits cannot be reached from qubit 0 (for example qubit {example})")]
    Disconnected {
        /// How many qubits qubit 0 cannot reach.
        unreachable: usize,
        /// The device's qubit count.
        qubits: usize,
        /// The smallest such qubit.
        example: usize,
    },
}

/// The most physical qubits a coupling map may have (a target file's `qubits` above it is
/// refused before anything is allocated for it; today's largest devices have about a thousand).
pub const MAX_DEVICE_QUBITS: usize = 100_000;

/// A checked coupling map: qubits `0..num_qubits`, undirected couplers, connected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CouplingMap {
    num_qubits: usize,
    /// Couplers as `(low, high)`, sorted.
    edges: Vec<(usize, usize)>,
    /// Neighbours of every qubit, sorted.
    neighbours: Vec<Vec<usize>>,
    /// For a directed map, each coupler as `(first, second)`, the way it drives a directed gate;
    /// `None` when every coupler drives either way.
    directions: Option<BTreeSet<(usize, usize)>>,
}

impl CouplingMap {
    /// Checks `edges` (pairs of qubits in `0..num_qubits`, either order) and builds the map.
    pub fn new(num_qubits: usize, edges: &[[usize; 2]]) -> Result<CouplingMap, CouplingError> {
        let map = CouplingMap::partial(num_qubits, edges)?;
        let reach = map.component_of(0, |_, _| true);
        let unreachable = reach.iter().filter(|r| !**r).count();
        if let Some(example) = reach.iter().position(|r| !*r) {
            return Err(CouplingError::Disconnected {
                unreachable,
                qubits: num_qubits,
                example,
            });
        }
        Ok(map)
    }

    /// Like [`CouplingMap::new`], with each coupler `[first, second]` driving a directed gate
    /// that way round only (IBM's ECR couplers): [`CouplingMap::runs`] answers which way.
    pub fn directed(num_qubits: usize, edges: &[[usize; 2]]) -> Result<CouplingMap, CouplingError> {
        let mut map = CouplingMap::new(num_qubits, edges)?;
        map.directions = Some(edges.iter().map(|&[a, b]| (a, b)).collect());
        Ok(map)
    }

    /// Like [`CouplingMap::new`] without the connectivity check: the map a device has left
    /// after its broken couplers are taken out (the router keeps to one connected part).
    pub fn partial(num_qubits: usize, edges: &[[usize; 2]]) -> Result<CouplingMap, CouplingError> {
        if num_qubits == 0 {
            return Err(CouplingError::NoQubits);
        }
        if num_qubits > MAX_DEVICE_QUBITS {
            return Err(CouplingError::TooManyQubits {
                qubits: num_qubits,
                max: MAX_DEVICE_QUBITS,
            });
        }
        let mut seen = BTreeSet::new();
        let mut neighbours = vec![Vec::new(); num_qubits];
        for (index, &[a, b]) in edges.iter().enumerate() {
            if let Some(&qubit) = [a, b].iter().find(|q| **q >= num_qubits) {
                return Err(CouplingError::OutOfRange {
                    index,
                    a,
                    b,
                    qubit,
                    qubits: num_qubits,
                });
            }
            if a == b {
                return Err(CouplingError::SelfLoop { index, qubit: a });
            }
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(CouplingError::Duplicate { index, a, b });
            }
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
        for n in &mut neighbours {
            n.sort_unstable();
        }
        Ok(CouplingMap {
            num_qubits,
            edges: seen.into_iter().collect(),
            neighbours,
            directions: None,
        })
    }

    /// The number of physical qubits.
    pub fn num_qubits(&self) -> usize {
        self.num_qubits
    }

    /// The couplers as `(low, high)` pairs, sorted.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// The qubits coupled to `qubit` (empty for a qubit out of range).
    pub fn neighbours(&self, qubit: usize) -> &[usize] {
        self.neighbours.get(qubit).map_or(&[], Vec::as_slice)
    }

    /// True when a coupler joins `a` and `b`.
    pub fn has_edge(&self, a: usize, b: usize) -> bool {
        self.neighbours(a).binary_search(&b).is_ok()
    }

    /// True when the map records a direction for each coupler ([`CouplingMap::directed`]).
    pub fn is_directed(&self) -> bool {
        self.directions.is_some()
    }

    /// True when a directed gate may act on the coupler of `first` and `second` with `first`
    /// as its first qubit: always on an undirected map, else when the coupler runs that way.
    /// False when no coupler joins them.
    pub fn runs(&self, first: usize, second: usize) -> bool {
        match &self.directions {
            Some(directions) => directions.contains(&(first, second)),
            None => self.has_edge(first, second),
        }
    }

    /// Which qubits `start` reaches through couplers that `usable(a, b)` allows.
    pub fn component_of(&self, start: usize, usable: impl Fn(usize, usize) -> bool) -> Vec<bool> {
        let mut reached = vec![false; self.num_qubits];
        if start >= self.num_qubits {
            return reached;
        }
        reached[start] = true;
        let mut stack = vec![start];
        while let Some(q) = stack.pop() {
            for &n in &self.neighbours[q] {
                if !reached[n] && usable(q, n) {
                    reached[n] = true;
                    stack.push(n);
                }
            }
        }
        reached
    }

    /// Hop counts between every pair of qubits (breadth-first search from each qubit;
    /// `u32::MAX` where no path exists).
    pub fn hop_distances(&self) -> Vec<Vec<u32>> {
        (0..self.num_qubits)
            .map(|from| {
                let mut dist = vec![u32::MAX; self.num_qubits];
                dist[from] = 0;
                let mut queue = std::collections::VecDeque::from([from]);
                while let Some(q) = queue.pop_front() {
                    for &n in &self.neighbours[q] {
                        if dist[n] == u32::MAX {
                            dist[n] = dist[q] + 1;
                            queue.push_back(n);
                        }
                    }
                }
                dist
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_larger_than_the_bound_is_refused() {
        let too_many = MAX_DEVICE_QUBITS + 1;
        assert_eq!(
            CouplingMap::new(too_many, &[[0, 1]]),
            Err(CouplingError::TooManyQubits {
                qubits: too_many,
                max: MAX_DEVICE_QUBITS
            })
        );
        assert!(CouplingMap::partial(usize::MAX, &[]).is_err());
    }

    #[test]
    fn a_directed_map_runs_each_coupler_the_way_it_is_listed() {
        let map = CouplingMap::directed(3, &[[1, 0], [1, 2]]).expect("valid");
        assert!(map.is_directed());
        assert!(map.runs(1, 0) && map.runs(1, 2));
        assert!(!map.runs(0, 1) && !map.runs(2, 1) && !map.runs(0, 2));
        // Placement and routing see the same couplers as the undirected map's.
        let undirected = CouplingMap::new(3, &[[1, 0], [1, 2]]).expect("valid");
        assert_eq!(map.edges(), undirected.edges());
        assert!(!undirected.is_directed());
        assert!(undirected.runs(0, 1) && undirected.runs(1, 0) && !undirected.runs(0, 2));
        // A coupler listed both ways is still a duplicate.
        assert!(matches!(
            CouplingMap::directed(2, &[[0, 1], [1, 0]]),
            Err(CouplingError::Duplicate { index: 1, .. })
        ));
    }

    #[test]
    fn a_line_is_connected_with_hop_distances() {
        let m = CouplingMap::new(4, &[[0, 1], [2, 1], [2, 3]]).expect("line");
        assert_eq!(m.edges(), &[(0, 1), (1, 2), (2, 3)]);
        assert!(m.has_edge(1, 0) && !m.has_edge(0, 2));
        assert_eq!(m.hop_distances()[0], vec![0, 1, 2, 3]);
        assert_eq!(m.neighbours(2), &[1, 3]);
        assert!(m.neighbours(9).is_empty());
    }

    #[test]
    fn bad_couplers_are_refused_with_what_is_wrong() {
        assert_eq!(
            CouplingMap::new(3, &[[0, 1], [1, 3]]),
            Err(CouplingError::OutOfRange {
                index: 1,
                a: 1,
                b: 3,
                qubit: 3,
                qubits: 3
            })
        );
        assert_eq!(
            CouplingMap::new(3, &[[0, 1], [2, 2]]),
            Err(CouplingError::SelfLoop { index: 1, qubit: 2 })
        );
        assert_eq!(
            CouplingMap::new(3, &[[0, 1], [1, 2], [1, 0]]),
            Err(CouplingError::Duplicate {
                index: 2,
                a: 1,
                b: 0
            })
        );
        assert_eq!(
            CouplingMap::new(5, &[[0, 1], [2, 3], [3, 4]]),
            Err(CouplingError::Disconnected {
                unreachable: 3,
                qubits: 5,
                example: 2
            })
        );
        assert_eq!(CouplingMap::new(0, &[]), Err(CouplingError::NoQubits));
        assert!(CouplingMap::new(1, &[]).is_ok());
        assert!(CouplingMap::partial(5, &[[0, 1], [2, 3]]).is_ok());
    }
}
