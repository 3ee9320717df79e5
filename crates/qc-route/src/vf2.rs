//! Placements that need no routing: a subgraph-isomorphism search (VF2's depth-first matching,
//! Cordella et al. 2004, with VF2++'s matching order, Jüttner and Madarasi 2018) for an injective
//! map of a program's interaction graph into the coupling graph under which every interacting
//! pair sits on a coupler, the embeddings found scored by the calibration (as Qiskit's VF2Layout
//! and VF2PostLayout score theirs) and the cheapest kept.
//!
//! Everything here is plain data, so that any pass can ask: the *pattern* is nodes `0..n` with
//! weighted edges (a pair's two-qubit gates in CZ) and a weight per node (its measurements); the
//! *target* is each qubit's usable neighbours with the cost of one two-qubit gate on that
//! coupler, and each qubit's cost of one measurement (both in the same unit, `-ln` of a
//! fidelity, so that a placement's cost is its `-ln ESP` up to the single-qubit gates). The
//! search is bounded: by a number of candidate tests ([`Bounds::work`]), a number of embeddings
//! per first node ([`Bounds::per_root`]) and a deadline that is only a safety net (with the
//! default bounds it is far away, so the result does not depend on the machine's load).
//!
//! [`longest_prefix`] is for programs whose whole interaction graph does not embed: the longest
//! run of their first interactions (in program order) that does, found by bisection, so that
//! routing starts from a placement in which the program's beginning needs no exchange.

use std::time::{Duration, Instant};

/// A graph to embed: nodes `0..num_nodes`, edges with a weight, a weight per node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pattern {
    /// The number of nodes.
    pub num_nodes: usize,
    /// Edges `(a, b, weight)`, `a != b`, each pair at most once.
    pub edges: Vec<(usize, usize, f64)>,
    /// Per node: the weight of its own cost (its measurements); may be empty (all 0).
    pub node_weight: Vec<f64>,
}

impl Pattern {
    /// The pattern of `pairs` (in any order, repeated pairs add their weights) on `num_nodes`
    /// nodes; pairs of a node with itself are ignored.
    pub fn from_pairs(
        num_nodes: usize,
        pairs: impl IntoIterator<Item = (usize, usize, f64)>,
    ) -> Pattern {
        let mut index: std::collections::HashMap<(usize, usize), usize> = Default::default();
        let mut edges: Vec<(usize, usize, f64)> = Vec::new();
        for (a, b, w) in pairs {
            if a == b || a >= num_nodes || b >= num_nodes {
                continue;
            }
            let key = (a.min(b), a.max(b));
            match index.get(&key) {
                Some(&i) => edges[i].2 += w,
                None => {
                    index.insert(key, edges.len());
                    edges.push((key.0, key.1, w));
                }
            }
        }
        Pattern {
            num_nodes,
            edges,
            node_weight: Vec::new(),
        }
    }
}

/// The graph to embed into: physical qubits with their usable couplers and costs.
#[derive(Copy, Clone, Debug)]
pub struct Target<'a> {
    /// Per qubit: its usable neighbours, each with the cost of one two-qubit gate on the coupler
    /// (empty for an unusable qubit).
    pub neighbours: &'a [Vec<(usize, f64)>],
    /// Per qubit: whether it may be used.
    pub usable: &'a [bool],
    /// Per qubit: the cost of one measurement on it.
    pub node_cost: &'a [f64],
}

/// How much searching [`best_embedding`] may do.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Bounds {
    /// Candidate tests in all (each a check of one pattern node on one target qubit).
    pub work: usize,
    /// Complete embeddings scored per choice of the first node's qubit, before the next choice
    /// (spreads the embeddings scored over the device).
    pub per_root: usize,
    /// Wall time after which the search stops (a safety net; the work bound comes first).
    pub time: Duration,
}

impl Default for Bounds {
    /// 2,000,000 tests (a few tens of milliseconds), 64 embeddings per first qubit, 2 seconds.
    fn default() -> Bounds {
        Bounds {
            work: 2_000_000,
            per_root: 64,
            time: Duration::from_secs(2),
        }
    }
}

/// An embedding: `map[node]` is its target qubit; `cost` the weighted sum of the couplers and
/// qubits it uses.
#[derive(Clone, Debug, PartialEq)]
pub struct Embedding {
    /// Per pattern node: its target qubit.
    pub map: Vec<usize>,
    /// Its cost: the sum over edges of weight times coupler cost, plus over nodes of weight
    /// times qubit cost.
    pub cost: f64,
}

/// How a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every placement was looked at (the best found is the best there is).
    Exhausted,
    /// A bound stopped the search.
    Bounded,
}

/// The cheapest embedding of `pattern` into `target` found within `bounds`, and how the search
/// ended. `None` when none was found (then `Outcome::Exhausted` means none exists).
pub fn best_embedding(
    pattern: &Pattern,
    target: Target<'_>,
    bounds: Bounds,
) -> (Option<Embedding>, Outcome) {
    let mut search = Search::new(pattern, target, bounds);
    search.run();
    let outcome = if search.stopped || search.truncated {
        Outcome::Bounded
    } else {
        Outcome::Exhausted
    };
    (search.best, outcome)
}

/// The cost of placing `pattern` by `map` (node -> target qubit), or `None` when an edge is not
/// a coupler of `target`.
pub fn placement_cost(pattern: &Pattern, target: Target<'_>, map: &[usize]) -> Option<f64> {
    let mut cost = 0.0;
    for &(a, b, w) in &pattern.edges {
        let (p, q) = (*map.get(a)?, *map.get(b)?);
        let c = target
            .neighbours
            .get(p)?
            .iter()
            .find(|(r, _)| *r == q)
            .map(|(_, c)| *c)?;
        cost += w * c;
    }
    for (node, w) in pattern.node_weight.iter().enumerate() {
        cost += w * target
            .node_cost
            .get(*map.get(node)?)
            .copied()
            .unwrap_or(0.0);
    }
    Some(cost)
}

/// The longest prefix of `pairs` (interactions in program order, as pattern edges on
/// `num_nodes` nodes) whose graph embeds into `target` within `bounds` per attempt, by
/// bisection on the number of distinct pairs; its length in `pairs` and the cheapest embedding
/// found for it (nodes outside the prefix are mapped to `usize::MAX`). `None` when not even the
/// first pair embeds.
pub fn longest_prefix(
    num_nodes: usize,
    pairs: &[(usize, usize, f64)],
    target: Target<'_>,
    bounds: Bounds,
) -> Option<(usize, Embedding)> {
    // The position in `pairs` just after each new distinct pair.
    let mut seen = std::collections::HashSet::new();
    let mut ends = Vec::new();
    for (i, &(a, b, _)) in pairs.iter().enumerate() {
        if a != b && seen.insert((a.min(b), a.max(b))) {
            ends.push(i + 1);
        }
    }
    let attempt = |distinct: usize| -> Option<Embedding> {
        let end = ends[distinct - 1];
        let pattern = Pattern::from_pairs(num_nodes, pairs[..end].iter().copied());
        // Feasibility only: the first embedding is enough while bisecting.
        let probe = Bounds {
            per_root: 1,
            ..bounds
        };
        let mut search = Search::new(&pattern, target, probe);
        search.first_only = true;
        search.run();
        search.best
    };
    let (mut lo, mut hi) = (0usize, ends.len());
    if hi == 0 || attempt(1).is_none() {
        return None;
    }
    lo = lo.max(1);
    // Invariant: a prefix of `lo` distinct pairs embeds; one of `hi + 1` is not known to.
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if attempt(mid).is_some() {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let end = ends[lo - 1];
    let pattern = Pattern::from_pairs(num_nodes, pairs[..end].iter().copied());
    let (found, _) = best_embedding(&pattern, target, bounds);
    found.map(|e| (end, e))
}

/// True when a quick necessary condition shows that the pattern (adjacency `adj`) has no
/// embedding into `target`, so that no search is spent on it: more edges than usable couplers,
/// a degree sequence the target's does not dominate (the k-th busiest pattern node needs a
/// qubit with at least as many usable couplers as the k-th best connected qubit has), or an odd
/// cycle on a bipartite device (grids and heavy hexes have none, and a game's interaction graph
/// often has one: without this test such a program was searched until the work bound).
fn cannot_embed(adj: &[Vec<(usize, f64)>], target: Target<'_>) -> bool {
    let usable = |q: usize| target.usable.get(q).copied().unwrap_or(false);
    let target_degree: Vec<usize> = (0..target.neighbours.len())
        .map(|q| {
            if usable(q) {
                target.neighbours[q]
                    .iter()
                    .filter(|(r, _)| usable(*r))
                    .count()
            } else {
                0
            }
        })
        .collect();
    let pattern_edges: usize = adj.iter().map(Vec::len).sum::<usize>() / 2;
    let target_edges: usize = target_degree.iter().sum::<usize>() / 2;
    if pattern_edges > target_edges {
        return true;
    }
    let mut pattern_degrees: Vec<usize> = adj.iter().map(Vec::len).filter(|&d| d > 0).collect();
    let mut target_degrees = target_degree;
    pattern_degrees.sort_unstable_by(|a, b| b.cmp(a));
    target_degrees.sort_unstable_by(|a, b| b.cmp(a));
    if pattern_degrees.len() > target_degrees.len()
        || pattern_degrees
            .iter()
            .zip(&target_degrees)
            .any(|(p, t)| p > t)
    {
        return true;
    }
    let target_adj = |q: usize| {
        target.neighbours[q]
            .iter()
            .map(|(r, _)| *r)
            .filter(move |&r| usable(q) && usable(r))
    };
    bipartite(target.neighbours.len(), target_adj)
        && !bipartite(adj.len(), |v| adj[v].iter().map(|(w, _)| *w))
}

/// True when the graph on `n` nodes with neighbours `next(v)` has no odd cycle (a two-colouring
/// by breadth-first search from every uncoloured node; iterative, O(nodes + edges)).
fn bipartite<I: Iterator<Item = usize>>(n: usize, next: impl Fn(usize) -> I) -> bool {
    let mut colour: Vec<Option<bool>> = vec![None; n];
    let mut queue = std::collections::VecDeque::new();
    for start in 0..n {
        if colour[start].is_some() {
            continue;
        }
        colour[start] = Some(false);
        queue.push_back(start);
        while let Some(v) = queue.pop_front() {
            let here = colour[v].unwrap_or(false);
            for w in next(v) {
                if w >= n {
                    continue;
                }
                match colour[w] {
                    None => {
                        colour[w] = Some(!here);
                        queue.push_back(w);
                    }
                    Some(c) if c == here => return false,
                    Some(_) => {}
                }
            }
        }
    }
    true
}

/// Unplaced node marker in a search.
const FREE: usize = usize::MAX;

struct Search<'a> {
    target: Target<'a>,
    bounds: Bounds,
    start: Instant,
    /// Pattern adjacency with weights.
    adj: Vec<Vec<(usize, f64)>>,
    node_weight: Vec<f64>,
    /// Nodes with an edge, in matching order; isolated nodes are placed after.
    order: Vec<usize>,
    isolated: Vec<usize>,
    /// For `order[i]`: its neighbours placed before it (with the edge weight), the first of
    /// which (its parent) gives the candidates.
    earlier: Vec<Vec<(usize, f64)>>,
    map: Vec<usize>,
    taken: Vec<bool>,
    work: usize,
    stopped: bool,
    /// A first qubit's choices were cut short by [`Bounds::per_root`].
    truncated: bool,
    found_here: usize,
    first_only: bool,
    best: Option<Embedding>,
    /// Target qubits in the order first nodes try them (cheapest surroundings first).
    roots: Vec<usize>,
}

impl<'a> Search<'a> {
    fn new(pattern: &Pattern, target: Target<'a>, bounds: Bounds) -> Search<'a> {
        let n = pattern.num_nodes;
        let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        for &(a, b, w) in &pattern.edges {
            if a < n && b < n && a != b {
                adj[a].push((b, w));
                adj[b].push((a, w));
            }
        }
        let mut node_weight = pattern.node_weight.clone();
        node_weight.resize(n, 0.0);
        let order = matching_order(&adj);
        let isolated = (0..n).filter(|&v| adj[v].is_empty()).collect();
        let mut position = vec![usize::MAX; n];
        for (i, &v) in order.iter().enumerate() {
            position[v] = i;
        }
        let earlier = order
            .iter()
            .map(|&v| {
                let mut e: Vec<(usize, f64)> = adj[v]
                    .iter()
                    .copied()
                    .filter(|&(w, _)| position[w] < position[v])
                    .collect();
                e.sort_by_key(|&(w, _)| position[w]);
                e
            })
            .collect();
        let m = target.neighbours.len();
        let quality = |q: usize| -> f64 {
            let ns = &target.neighbours[q];
            let mean = ns.iter().map(|(_, c)| c).sum::<f64>() / ns.len().max(1) as f64;
            mean + target.node_cost.get(q).copied().unwrap_or(0.0)
        };
        let mut roots: Vec<usize> = (0..m)
            .filter(|&q| target.usable.get(q).copied().unwrap_or(false))
            .collect();
        roots.sort_by(|&a, &b| quality(a).total_cmp(&quality(b)).then(a.cmp(&b)));
        Search {
            target,
            bounds,
            start: Instant::now(),
            adj,
            node_weight,
            order,
            isolated,
            earlier,
            map: vec![FREE; n],
            taken: vec![false; m],
            work: 0,
            stopped: false,
            truncated: false,
            found_here: 0,
            first_only: false,
            best: None,
            roots,
        }
    }

    fn run(&mut self) {
        let usable = self.roots.len();
        if self.map.len() > usable || cannot_embed(&self.adj, self.target) {
            return;
        }
        if self.order.is_empty() {
            self.place_isolated(0.0);
            return;
        }
        let roots = self.roots.clone();
        for root in roots {
            if self.stopped || (self.first_only && self.best.is_some()) {
                break;
            }
            self.found_here = 0;
            let Some(cost) = self.try_place(0, root, 0.0) else {
                continue;
            };
            self.extend(1, cost);
            self.unplace(0, root);
        }
    }

    /// Tries pattern node `order[i]` on `q`: the cost it adds, or `None` when it does not fit.
    fn try_place(&mut self, i: usize, q: usize, cost: f64) -> Option<f64> {
        self.work += 1;
        if self.work >= self.bounds.work
            || (self.work.is_multiple_of(4096) && self.start.elapsed() >= self.bounds.time)
        {
            self.stopped = true;
            return None;
        }
        let v = self.order[i];
        if self.taken[q] || !self.target.usable[q] {
            return None;
        }
        let ns = &self.target.neighbours[q];
        if ns.len() < self.adj[v].len() {
            return None;
        }
        let mut added = self.node_weight[v] * self.target.node_cost.get(q).copied().unwrap_or(0.0);
        for &(w, weight) in &self.earlier[i] {
            let at = self.map[w];
            let c = ns.iter().find(|(r, _)| *r == at).map(|(_, c)| *c)?;
            added += weight * c;
        }
        // Look-ahead: the node's neighbours still to place need free qubits around `q`.
        let later = self.adj[v].len() - self.earlier[i].len();
        if later > 0 {
            let free = ns.iter().filter(|(r, _)| !self.taken[*r]).count();
            if free < later {
                return None;
            }
        }
        let total = cost + added;
        if let Some(best) = &self.best {
            if total >= best.cost - 1e-12 {
                return None;
            }
        }
        self.map[v] = q;
        self.taken[q] = true;
        Some(total)
    }

    fn unplace(&mut self, i: usize, q: usize) {
        self.map[self.order[i]] = FREE;
        self.taken[q] = false;
    }

    fn done_here(&mut self) -> bool {
        let cut = self.found_here >= self.bounds.per_root;
        self.truncated |= cut;
        self.stopped || cut || (self.first_only && self.best.is_some())
    }

    fn extend(&mut self, i: usize, cost: f64) {
        if i == self.order.len() {
            self.place_isolated(cost);
            return;
        }
        // Candidates: the free neighbours of the first earlier neighbour's qubit, or any
        // qubit for the first node of another connected part.
        let candidates: Vec<usize> = match self.earlier[i].first() {
            Some(&(parent, _)) => self.target.neighbours[self.map[parent]]
                .iter()
                .map(|(r, _)| *r)
                .collect(),
            None => self.roots.clone(),
        };
        for q in candidates {
            if self.done_here() {
                return;
            }
            if let Some(total) = self.try_place(i, q, cost) {
                self.extend(i + 1, total);
                self.unplace(i, q);
            }
        }
    }

    /// Places the isolated nodes (heaviest first) on the cheapest free qubits and keeps the
    /// embedding if it is the best so far.
    fn place_isolated(&mut self, cost: f64) {
        let mut free: Vec<usize> = self
            .roots
            .iter()
            .copied()
            .filter(|&q| !self.taken[q])
            .collect();
        let node_cost = |q: usize| self.target.node_cost.get(q).copied().unwrap_or(0.0);
        free.sort_by(|&a, &b| node_cost(a).total_cmp(&node_cost(b)).then(a.cmp(&b)));
        let mut nodes = self.isolated.clone();
        nodes.sort_by(|&a, &b| {
            self.node_weight[b]
                .total_cmp(&self.node_weight[a])
                .then(a.cmp(&b))
        });
        if free.len() < nodes.len() {
            return;
        }
        let mut map = self.map.clone();
        let mut total = cost;
        for (&v, &q) in nodes.iter().zip(&free) {
            map[v] = q;
            total += self.node_weight[v] * node_cost(q);
        }
        self.found_here += 1;
        if self.best.as_ref().is_none_or(|b| total < b.cost - 1e-12) {
            self.best = Some(Embedding { map, cost: total });
        }
    }
}

/// VF2++'s matching order: each connected part from its node of highest degree, then always
/// the node with the most neighbours already ordered (ties: the highest degree, then the lowest
/// index), so that every node after a part's first has a placed neighbour and the most
/// constraints. Isolated nodes are left out.
fn matching_order(adj: &[Vec<(usize, f64)>]) -> Vec<usize> {
    let n = adj.len();
    let mut ordered = vec![false; n];
    let mut placed_neighbours = vec![0usize; n];
    let mut order = Vec::new();
    // Each connected part from its node of highest degree.
    while let Some(first) = (0..n)
        .filter(|&v| !ordered[v] && !adj[v].is_empty())
        .max_by(|&a, &b| adj[a].len().cmp(&adj[b].len()).then(b.cmp(&a)))
    {
        let mut frontier = vec![first];
        let rank = |v: usize, placed: &[usize]| (placed[v], adj[v].len(), usize::MAX - v);
        while let Some(k) =
            (0..frontier.len()).max_by_key(|&k| rank(frontier[k], &placed_neighbours))
        {
            let v = frontier.swap_remove(k);
            ordered[v] = true;
            order.push(v);
            for &(w, _) in &adj[v] {
                if !ordered[w] {
                    if placed_neighbours[w] == 0 {
                        frontier.push(w);
                    }
                    placed_neighbours[w] += 1;
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid's neighbour lists with uniform costs.
    fn grid(rows: usize, cols: usize) -> Vec<Vec<(usize, f64)>> {
        let mut ns = vec![Vec::new(); rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                let q = r * cols + c;
                if c + 1 < cols {
                    ns[q].push((q + 1, 1.0));
                    ns[q + 1].push((q, 1.0));
                }
                if r + 1 < rows {
                    ns[q].push((q + cols, 1.0));
                    ns[q + cols].push((q, 1.0));
                }
            }
        }
        ns
    }

    /// Every pattern edge on a coupler, the map injective.
    fn is_embedding(pattern: &Pattern, ns: &[Vec<(usize, f64)>], map: &[usize]) -> bool {
        let mut seen = std::collections::HashSet::new();
        map.iter().all(|q| seen.insert(*q))
            && pattern
                .edges
                .iter()
                .all(|&(a, b, _)| ns[map[a]].iter().any(|(r, _)| *r == map[b]))
    }

    #[test]
    fn a_grid_relabelled_embeds_into_itself() {
        let ns = grid(5, 6);
        let n = ns.len();
        // The grid's own couplers on scrambled labels: only an automorphism places it.
        let label: Vec<usize> = (0..n).map(|q| (q * 7 + 3) % n).collect();
        let pairs: Vec<(usize, usize, f64)> = (0..n)
            .flat_map(|q| ns[q].iter().map(move |&(r, _)| (q, r)))
            .filter(|(q, r)| q < r)
            .map(|(q, r)| (label[q], label[r], 1.0))
            .collect();
        let pattern = Pattern::from_pairs(n, pairs);
        let usable = vec![true; n];
        let cost = vec![0.0; n];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &cost,
        };
        let (found, _) = best_embedding(&pattern, target, Bounds::default());
        let found = found.expect("the grid embeds into itself");
        assert!(is_embedding(&pattern, &ns, &found.map));
    }

    #[test]
    fn a_triangle_does_not_embed_into_a_grid() {
        let ns = grid(3, 3);
        let usable = vec![true; 9];
        let cost = vec![0.0; 9];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &cost,
        };
        let pattern = Pattern::from_pairs(3, [(0, 1, 1.0), (1, 2, 1.0), (0, 2, 1.0)]);
        let (found, outcome) = best_embedding(&pattern, target, Bounds::default());
        assert!(found.is_none());
        assert_eq!(outcome, Outcome::Exhausted);
    }

    /// A pattern the quick tests rule out is answered without search: a search allowed one
    /// candidate test would otherwise end bounded, not exhausted.
    #[test]
    fn odd_cycles_busy_nodes_and_too_many_edges_are_ruled_out_without_search() {
        let ns = grid(4, 4);
        let usable = vec![true; 16];
        let cost = vec![0.0; 16];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &cost,
        };
        let one_test = Bounds {
            work: 1,
            ..Bounds::default()
        };
        let five_cycle = Pattern::from_pairs(5, (0..5).map(|i| (i, (i + 1) % 5, 1.0)));
        let star = Pattern::from_pairs(6, (1..6).map(|i| (0, i, 1.0)));
        // 25 edges: more than the grid's 24 couplers.
        let dense = Pattern::from_pairs(
            16,
            (0..16)
                .flat_map(|a| (a + 1..16).map(move |b| (a, b, 1.0)))
                .take(25),
        );
        for (what, pattern) in [("5-cycle", five_cycle), ("star", star), ("dense", dense)] {
            let (found, outcome) = best_embedding(&pattern, target, one_test);
            assert!(found.is_none(), "{what}");
            assert_eq!(outcome, Outcome::Exhausted, "{what}");
        }
        // A 4-cycle passes the tests and needs the search.
        let square = Pattern::from_pairs(4, (0..4).map(|i| (i, (i + 1) % 4, 1.0)));
        assert_eq!(
            best_embedding(&square, target, one_test).1,
            Outcome::Bounded
        );
        assert!(best_embedding(&square, target, Bounds::default())
            .0
            .is_some());
    }

    /// True when some injective map of `pattern`'s nodes puts every edge on a coupler of `ns`:
    /// every map tried (an oracle independent of the search and its quick tests; depth at most
    /// the pattern's few nodes).
    fn embeds_by_brute_force(pattern: &Pattern, ns: &[Vec<(usize, f64)>]) -> bool {
        fn extend(pattern: &Pattern, ns: &[Vec<(usize, f64)>], map: &mut Vec<usize>) -> bool {
            if map.len() == pattern.num_nodes {
                return is_embedding(pattern, ns, map);
            }
            for q in 0..ns.len() {
                if !map.contains(&q) {
                    map.push(q);
                    if extend(pattern, ns, map) {
                        return true;
                    }
                    map.pop();
                }
            }
            false
        }
        extend(pattern, ns, &mut Vec::new())
    }

    /// The quick tests never rule out a pattern that embeds: random patterns of up to five
    /// nodes on a grid and on a ring, every one ruled out checked against every placement.
    #[test]
    fn the_quick_tests_never_rule_out_an_embeddable_pattern() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut ring = vec![Vec::new(); 10];
        for q in 0..10 {
            ring[q].push(((q + 1) % 10, 1.0));
            ring[(q + 1) % 10].push((q, 1.0));
        }
        let (mut ruled_out, mut embeds) = (0, 0);
        for ns in [grid(3, 3), ring] {
            let m = ns.len();
            let usable = vec![true; m];
            let cost = vec![0.0; m];
            let target = Target {
                neighbours: &ns,
                usable: &usable,
                node_cost: &cost,
            };
            for _ in 0..200 {
                let n = rng.gen_range(2..=5);
                let edges = rng.gen_range(1..=6);
                let pairs: Vec<(usize, usize, f64)> = (0..edges)
                    .map(|_| (rng.gen_range(0..n), rng.gen_range(0..n), 1.0))
                    .collect();
                let pattern = Pattern::from_pairs(n, pairs);
                let search = Search::new(&pattern, target, Bounds::default());
                let truth = embeds_by_brute_force(&pattern, &ns);
                if cannot_embed(&search.adj, target) {
                    ruled_out += 1;
                    assert!(!truth, "{pattern:?} embeds but was ruled out");
                }
                embeds += usize::from(truth);
            }
        }
        assert!(
            ruled_out > 30 && embeds > 100,
            "{ruled_out} ruled out, {embeds} embed"
        );
    }

    #[test]
    fn the_cheapest_couplers_and_readouts_are_chosen() {
        // A line 0-1-2-3-4 whose couplers 0-1 and 1-2 are bad, 3-4 good; a pair (one gate)
        // measured on both ends belongs on 3-4, and readout decides where a lone node goes.
        let cost = [5.0, 5.0, 1.0, 0.5];
        let mut ns = vec![Vec::new(); 5];
        for (i, c) in cost.iter().enumerate() {
            ns[i].push((i + 1, *c));
            ns[i + 1].push((i, *c));
        }
        let usable = vec![true; 5];
        let readout = vec![0.0, 0.1, 0.2, 0.3, 0.3];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &readout,
        };
        let mut pattern = Pattern::from_pairs(3, [(0, 1, 1.0)]);
        pattern.node_weight = vec![1.0, 1.0, 1.0];
        let (found, outcome) = best_embedding(&pattern, target, Bounds::default());
        let found = found.expect("a pair embeds");
        assert_eq!(outcome, Outcome::Exhausted);
        let mut pair = [found.map[0], found.map[1]];
        pair.sort_unstable();
        assert_eq!(pair, [3, 4]);
        assert_eq!(found.map[2], 0);
        assert!((found.cost - (0.5 + 0.6 + 0.0)).abs() < 1e-12);
        assert_eq!(
            placement_cost(&pattern, target, &found.map),
            Some(found.cost)
        );
    }

    #[test]
    fn the_longest_prefix_stops_before_the_first_pair_that_breaks_it() {
        // A line of 4 qubits; the program meets 0-1, 1-2, 2-3, then 0-2 (a triangle with
        // 0-1-2: it cannot embed), then more.
        let mut ns = vec![Vec::new(); 4];
        for i in 0..3 {
            ns[i].push((i + 1, 1.0));
            ns[i + 1].push((i, 1.0));
        }
        let usable = vec![true; 4];
        let cost = vec![0.0; 4];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &cost,
        };
        let pairs = [
            (0, 1, 1.0),
            (1, 2, 1.0),
            (0, 1, 1.0),
            (2, 3, 1.0),
            (0, 2, 1.0),
            (1, 3, 1.0),
        ];
        let (end, found) = longest_prefix(4, &pairs, target, Bounds::default()).expect("0-1 fits");
        assert_eq!(end, 4);
        let pattern = Pattern::from_pairs(4, pairs[..end].iter().copied());
        assert!(is_embedding(&pattern, &ns, &found.map));
    }

    #[test]
    fn the_work_bound_stops_the_search() {
        // A 5x5 grid into itself needs at least 25 tests to place; 10 stop it, unfinished.
        let ns = grid(5, 5);
        let pairs: Vec<(usize, usize, f64)> = (0..25)
            .flat_map(|q| ns[q].iter().map(move |&(r, _)| (q, r, 1.0)))
            .filter(|(q, r, _)| q < r)
            .collect();
        let pattern = Pattern::from_pairs(25, pairs);
        let usable = vec![true; 25];
        let cost = vec![0.0; 25];
        let target = Target {
            neighbours: &ns,
            usable: &usable,
            node_cost: &cost,
        };
        let bounds = Bounds {
            work: 10,
            ..Bounds::default()
        };
        let (found, outcome) = best_embedding(&pattern, target, bounds);
        assert!(found.is_none());
        assert_eq!(outcome, Outcome::Bounded);
        let (found, outcome) = best_embedding(&pattern, target, Bounds::default());
        assert!(found.is_some());
        // Uniform costs: after the first embedding, every other costs as much and is cut off.
        assert_eq!(outcome, Outcome::Exhausted);
    }
}
