//! Routing: the virtual qubits of a [`Plan`] placed on physical qubits and moved so that every
//! two-qubit block acts on a usable coupler.
//!
//! The method is SABRE's (Li, Ding and Xie 2019; LightSABRE, Zou et al. 2024): the *front* is
//! the set of operations whose predecessors have run; whatever in it can run does (single-qubit
//! gates, measurements, deaths, two-qubit blocks on adjacent qubits); when only blocks on
//! distant qubits are left, one exchange is chosen by a look-ahead score over the front and the
//! next blocks of the program (the *extended set*), and the loop goes on. What is this router's
//! own:
//!
//! - **Births and deaths.** A virtual qubit gets its physical qubit only when its first operation
//!   is about to run, and gives it back when it dies ([`crate::plan`]). Its place is chosen then,
//!   by the qubits it will meet next (already placed, or the place a program qubit last had or its
//!   square's place on the embedded board, [`crate::layout`]), by how well the place can prepare
//!   its value (a free qubit already holding it, else one X, else a reset), by readout error when
//!   it will be measured, and by coupler quality on the way: a short-lived ancilla lands next to
//!   its users, and a qubit in a known state never travels by SWAP.
//! - **Costs in the device's two-qubit gates (CZ, √iSWAP, ...: [`crate::native`]), weighted by
//!   the calibration.** Every choice is priced in two-qubit gates of a median coupler: a SWAP is 3, moving a qubit onto a free one holding |0> is 2 (two
//!   CNOTs), a SWAP right after a block on the same pair costs what the merged block costs more
//!   than the block alone (a SWAP after an iSWAP even saves one), and each coupler counts its
//!   error (`-ln(1 - e)` over the median's), so bad couplers are avoided and broken ones are gone.
//! - **Mirrored blocks.** A block may run as `SWAP block`, exchanging its two qubits, when that
//!   costs no more CZ gates than the distance it saves further on (a three-CZ block absorbs a SWAP
//!   for free; an iSWAP-class block gets cheaper). Half the trials count the front's blocked
//!   blocks in that distance too ([`Params::mirror_sees_front`]): a QFT's controlled phases are
//!   then mirrored one after another into the swap network, 3 CZ per phase on a line.
//! - **Commuting steps.** The front holds every step whose predecessors have run, where steps
//!   that act on a shared qubit in the same basis do not wait for each other ([`crate::commute`]):
//!   a QFT's controlled phases, CNOTs sharing a control. Of the blocked blocks, those first in
//!   program order on both their qubits are scored as SABRE's front; the others lead the
//!   extended set, and each runs as soon as its qubits meet.
//! - **Progress.** After a bounded number of exchanges without running a block, the closest
//!   front block is brought together along a shortest path, so routing always ends.

use crate::calibration::Calibration;
use crate::commute;
use crate::device::{Device, Usable};
use crate::error::RouteError;
use crate::linalg::{Mat2, Mat4};
use crate::native::CountCache;
use crate::plan::{Leaves, Plan, VOp};
use crate::program::{Cond, Step, StepOp};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// How many blocks after the front the look-ahead considers.
const EXTENDED: usize = 20;
/// Each block of the extended set weighs this much less than the one before it.
const EXTENDED_DECAY: f64 = 0.85;
/// Weight of the extended set against the front.
const EXTENDED_WEIGHT: f64 = 0.5;
/// Cost of an X gate to prepare a value, in CZ units (single-qubit errors are ~10x smaller).
const X_COST: f64 = 0.1;
/// Cost of a reset before reuse, in CZ units.
const RESET_COST: f64 = 0.2;
/// Penalty per recent exchange of a qubit (SABRE's decay), in CZ units.
const DECAY: f64 = 0.5;

/// What a physical qubit holds.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Phys {
    /// A live virtual qubit.
    Live(usize),
    /// Nobody; it holds a known value or something to reset.
    Free(Leaves),
    /// Measured on a device without mid-circuit measurement, or broken: never used again.
    Spent,
}

/// Where each program qubit went: its first physical qubit and each measurement's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QubitTrack {
    /// The physical qubit of its first life (`None` when it never needed one).
    pub start: Option<usize>,
    /// Each measurement: the bit and the physical qubit measured.
    pub measurements: Vec<(usize, usize)>,
    /// The physical qubit of each of its lives, in order.
    pub lives: Vec<usize>,
}

/// One routing of a plan: steps on physical qubits and the layout.
#[derive(Clone, Debug)]
pub struct Routing {
    /// Steps on physical qubits (two-qubit steps on usable couplers).
    pub steps: Vec<Step>,
    /// Per program qubit.
    pub tracks: Vec<QubitTrack>,
    /// Exchanges inserted (SWAPs and moves), for the report.
    pub swaps: usize,
    /// Blocks run mirrored.
    pub mirrored: usize,
    /// Per virtual qubit: the physical qubit it was on when it died, or at the end.
    pub last_pos: Vec<Option<usize>>,
}

/// Where qubits would like to be placed when they are born.
#[derive(Copy, Clone, Debug)]
pub struct Places<'a> {
    /// Per program qubit: a preferred physical qubit (its square's place on the embedded
    /// board), if any; a weak pull.
    pub anchors: &'a [Option<usize>],
    /// Per virtual qubit: the physical qubit it should be born on, if any (where a routing of
    /// the reversed plan left it: SABRE's layout passes); a strong pull. Empty: none.
    pub starts: &'a [Option<usize>],
    /// A virtual qubit is born on its start whenever that qubit is free (a placement found to
    /// need no exchange, [`crate::vf2`]), instead of being pulled towards it.
    pub pinned: bool,
}

/// Pull of a virtual qubit's start place, per hop away from it, in CZ units (its partners pull
/// by at most about 2 per hop).
const START_WEIGHT: f64 = 4.0;

/// Tunable choices of one routing run.
#[derive(Copy, Clone, Debug)]
pub struct Params {
    /// Weight of the exchange's own cost against the distance it saves.
    pub cost_weight: f64,
    /// Random jitter on scores (breaks ties differently per trial).
    pub jitter: f64,
    /// Whether a block is mirrored by the look-ahead over the front's blocked blocks too (as an
    /// exchange is chosen), or over the blocks after the front only. Seeing the front, a QFT's
    /// controlled phases are mirrored one after the other into the swap network that routes a
    /// QFT on a line at one extra CZ per phase; not seeing it, CNOTs that share a qubit (an
    /// adder's) are not pulled apart for the front's sake.
    pub mirror_sees_front: bool,
    /// A qubit measured and freed may be reset and hold a later life (on a device with
    /// mid-circuit reset). `false`: a life never goes onto a qubit that needs a reset (a
    /// candidate for the time-aware choice to weigh: a reuse waits for the readout and the reset
    /// while the other qubits idle, where a fresh qubit would not).
    pub reuse: bool,
    /// Every measurement whose bit no condition reads waits until no two-qubit gate is left, as
    /// on a device that measures only at the end, so that a qubit whose gates are done stays
    /// where it is (and can be exchanged through) instead of being measured and leaving a qubit
    /// that needs a reset: the routing Qiskit and other routers write, a candidate for the
    /// time-aware choice beside the ones that measure early. A measurement an `if` reads stays
    /// where it is.
    pub measure_last: bool,
}

/// Facts about each virtual qubit the placement reads.
struct VirtualInfo {
    /// The first few partners it meets, with the block index.
    partners: Vec<usize>,
    /// It is measured during its life.
    measured: bool,
}

struct Router<'a> {
    plan: &'a Plan,
    usable: &'a Usable,
    calibration: &'a Calibration,
    mid_circuit: bool,
    params: Params,
    rng: &'a mut ChaCha8Rng,
    phys: Vec<Phys>,
    pos: Vec<Option<usize>>,
    anchor: Vec<Option<usize>>,
    start: Vec<Option<usize>>,
    pinned: bool,
    last_pos: Vec<Option<usize>>,
    info: Vec<VirtualInfo>,
    // The dependency graph.
    preds_left: Vec<u32>,
    preds: Vec<Vec<usize>>,
    succs: Vec<Vec<usize>>,
    done: Vec<bool>,
    front: Vec<usize>,
    cursor: usize,
    /// Births and deaths in program order, with the first not yet run.
    births: Vec<usize>,
    deaths: Vec<usize>,
    birth_cursor: usize,
    death_cursor: usize,
    /// Births of qubits that are only measured, on a device that measures only at the end.
    terminal_birth: Vec<bool>,
    /// Per step: a measurement that waits for the last two-qubit gate (on a device that
    /// measures only at the end; measuring last, one whose bit no condition reads).
    measure_waits: Vec<bool>,
    /// Two-qubit blocks not yet run.
    twos_left: usize,
    // Output.
    out: Vec<Step>,
    /// Index in `out` of the last step on each physical qubit.
    last_out: Vec<Option<usize>>,
    measured_phys: Vec<bool>,
    tracks: Vec<QubitTrack>,
    uses: Vec<u32>,
    swaps: usize,
    mirrored: usize,
    /// Counts (in the device's two-qubit gates) of the blocks [`Router::swap_merge_extra`]
    /// prices.
    counts: std::cell::RefCell<&'a mut CountCache>,
}

/// Routes `plan` onto the usable part of a device, placing qubits as `places` prefers (`counts`
/// remembers the two-qubit gate counts of blocks it prices, across routings).
#[allow(
    clippy::too_many_arguments,
    reason = "the device, its calibration and the trial's own state are separate borrows"
)]
pub fn route(
    plan: &Plan,
    device: &Device,
    usable: &Usable,
    calibration: &Calibration,
    places: Places<'_>,
    params: Params,
    rng: &mut ChaCha8Rng,
    counts: &mut CountCache,
) -> Result<Routing, RouteError> {
    let n = device.num_qubits();
    let steps = &plan.steps;
    // Dependencies: on each virtual qubit the steps a step does not commute with
    // ([`crate::commute`]), and a bit's measurement before the steps its value conditions.
    let preds = commute::predecessors(plan);
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); steps.len()];
    for (i, p) in preds.iter().enumerate() {
        for &j in p {
            succs[j].push(i);
        }
    }
    let preds_left: Vec<u32> = preds.iter().map(|p| p.len() as u32).collect();
    let front: Vec<usize> = (0..steps.len()).filter(|&i| preds_left[i] == 0).collect();
    // Who each virtual qubit meets.
    let mut info: Vec<VirtualInfo> = (0..plan.num_virtuals())
        .map(|_| VirtualInfo {
            partners: Vec::new(),
            measured: false,
        })
        .collect();
    for s in steps {
        match s.op {
            VOp::Two { hi, lo, .. } => {
                for (a, b) in [(hi, lo), (lo, hi)] {
                    if info[a].partners.len() < 4 {
                        info[a].partners.push(b);
                    }
                }
            }
            VOp::Measure { v, .. } => info[v].measured = true,
            _ => {}
        }
    }
    // On a device that measures only at the end (or a routing that measures last): births for a
    // measurement alone, and deaths right after a measurement. Such a death waits for the last
    // two-qubit gate, so no birth may wait for it. Measuring last leaves a measurement whose
    // bit a condition reads where it is (the `if` needs it).
    let read_bits: std::collections::BTreeSet<usize> = steps
        .iter()
        .filter_map(|s| s.cond.map(|(bit, _)| bit))
        .collect();
    let waits = |i: usize| match steps[i].op {
        VOp::Measure { clbit, .. } => {
            !device.mid_circuit || (params.measure_last && !read_bits.contains(&clbit))
        }
        _ => false,
    };
    let measure_waits: Vec<bool> = (0..steps.len()).map(waits).collect();
    let terminal_birth: Vec<bool> = (0..steps.len())
        .map(|i| {
            matches!(steps[i].op, VOp::Birth { .. })
                && succs[i].first().is_some_and(|&j| measure_waits[j])
        })
        .collect();
    let after_terminal: Vec<bool> = (0..steps.len())
        .map(|i| {
            matches!(steps[i].op, VOp::Death { .. }) && preds[i].iter().any(|&j| measure_waits[j])
        })
        .collect();
    let phys = (0..n)
        .map(|p| {
            if usable.qubit[p] {
                Phys::Free(Leaves::Known(Mat2::IDENTITY))
            } else {
                Phys::Spent
            }
        })
        .collect();
    let mut r = Router {
        plan,
        usable,
        calibration,
        mid_circuit: device.mid_circuit,
        params,
        rng,
        phys,
        pos: vec![None; plan.num_virtuals()],
        anchor: places.anchors.to_vec(),
        start: places.starts.to_vec(),
        pinned: places.pinned,
        last_pos: vec![None; plan.num_virtuals()],
        info,
        preds_left,
        preds,
        succs,
        done: vec![false; steps.len()],
        front,
        cursor: 0,
        births: (0..steps.len())
            .filter(|&i| matches!(steps[i].op, VOp::Birth { .. }) && !terminal_birth[i])
            .collect(),
        deaths: (0..steps.len())
            .filter(|&i| matches!(steps[i].op, VOp::Death { .. }) && !after_terminal[i])
            .collect(),
        birth_cursor: 0,
        death_cursor: 0,
        terminal_birth,
        measure_waits,
        twos_left: steps
            .iter()
            .filter(|s| matches!(s.op, VOp::Two { .. }))
            .count(),
        out: Vec::with_capacity(steps.len()),
        last_out: vec![None; n],
        measured_phys: vec![false; n],
        tracks: vec![QubitTrack::default(); plan.num_logical],
        uses: vec![0; n],
        swaps: 0,
        mirrored: 0,
        counts: std::cell::RefCell::new(counts),
    };
    r.anchor.resize(plan.num_logical, None);
    r.start.resize(plan.num_virtuals(), None);
    r.run()?;
    for (v, at) in r.pos.iter().enumerate() {
        if at.is_some() {
            r.last_pos[v] = *at;
        }
    }
    // The output was reserved for one step per plan step; SWAPs grow it, so it is trimmed (a
    // routing may be kept as a trial's best while the others run).
    r.out.shrink_to_fit();
    Ok(Routing {
        steps: r.out,
        tracks: r.tracks,
        swaps: r.swaps,
        mirrored: r.mirrored,
        last_pos: r.last_pos,
    })
}

impl Router<'_> {
    fn run(&mut self) -> Result<(), RouteError> {
        let mut stalled = 0usize;
        let limit = 2 * self.usable.diameter as usize + 8;
        while !self.front.is_empty() {
            if self.advance()? {
                stalled = 0;
                continue;
            }
            if self.blocked_front().is_empty() {
                if self.force_birth()? {
                    continue;
                }
                return Err(RouteError::Stuck);
            }
            // Only blocks on distant qubits are left.
            if stalled >= limit {
                self.force_one()?;
                stalled = 0;
            } else {
                self.exchange()?;
                stalled += 1;
            }
        }
        Ok(())
    }

    /// Runs everything in the front that can run; true when something ran.
    fn advance(&mut self) -> Result<bool, RouteError> {
        let mut any = false;
        loop {
            let mut ran = false;
            let mut i = 0;
            while i < self.front.len() {
                let s = self.front[i];
                if self.try_run(s)? {
                    // `complete` removed `s` from the front and added its successors.
                    ran = true;
                } else {
                    i += 1;
                }
            }
            if !ran {
                return Ok(any);
            }
            any = true;
        }
    }

    fn try_run(&mut self, s: usize) -> Result<bool, RouteError> {
        let step = self.plan.steps[s];
        match step.op {
            VOp::Birth { .. } => {
                // Born in program order, after every earlier death, and only when the operation
                // that needs it is about to run (unless nothing else can: `force_birth`).
                if !self.birth_allowed(s) {
                    return Ok(false);
                }
                let Some(&next) = self.succs[s].first() else {
                    self.complete(s);
                    return Ok(true);
                };
                let others_ready = self.preds[next].iter().all(|&p| {
                    p == s || self.done[p] || matches!(self.plan.steps[p].op, VOp::Birth { .. })
                });
                if !others_ready {
                    return Ok(false);
                }
                // The partner born with it (a block on two newborns) follows when it may.
                let births: Vec<usize> = self.preds[next]
                    .iter()
                    .copied()
                    .filter(|&p| {
                        !self.done[p] && matches!(self.plan.steps[p].op, VOp::Birth { .. })
                    })
                    .collect();
                for b in births {
                    if !self.birth_allowed(b) {
                        break;
                    }
                    self.run_birth(b)?;
                }
                Ok(true)
            }
            VOp::One { v, m } => {
                let p = self.placed(v);
                self.emit(StepOp::One { q: p, m }, step.cond);
                self.complete(s);
                Ok(true)
            }
            VOp::Measure { v, clbit } => {
                if self.measure_waits[s] && self.twos_left > 0 {
                    // Measured last, so that no measured qubit stands in the way.
                    return Ok(false);
                }
                let p = self.placed(v);
                self.emit(StepOp::Measure { q: p, clbit }, None);
                self.measured_phys[p] = true;
                let logical = self.plan.logical[v];
                self.tracks[logical].measurements.push((clbit, p));
                self.complete(s);
                Ok(true)
            }
            VOp::Death { v, leaves } => {
                let p = self.placed(v);
                self.phys[p] = if self.measured_phys[p] && !self.mid_circuit {
                    Phys::Spent
                } else {
                    Phys::Free(leaves)
                };
                self.pos[v] = None;
                self.last_pos[v] = Some(p);
                self.anchor[self.plan.logical[v]] = Some(p);
                self.complete(s);
                Ok(true)
            }
            VOp::Two {
                hi,
                lo,
                m,
                cost,
                mirror_cost,
            } => {
                let (Some(a), Some(b)) = (self.pos[hi], self.pos[lo]) else {
                    return Ok(false);
                };
                if self.usable.edge_cost(a, b).is_none() {
                    return Ok(false);
                }
                let mirror = step.cond.is_none() && self.mirror_pays(hi, lo, cost, mirror_cost, s);
                if mirror {
                    self.emit(
                        StepOp::Two {
                            hi: a,
                            lo: b,
                            m: Mat4::SWAP.mul(&m),
                        },
                        None,
                    );
                    self.pos[hi] = Some(b);
                    self.pos[lo] = Some(a);
                    self.phys[a] = Phys::Live(lo);
                    self.phys[b] = Phys::Live(hi);
                    self.mirrored += 1;
                } else {
                    self.emit(StepOp::Two { hi: a, lo: b, m }, step.cond);
                }
                self.uses.iter_mut().for_each(|u| *u = 0);
                self.complete(s);
                Ok(true)
            }
        }
    }

    /// A birth may run when every earlier birth and death (in program order) has: then no more
    /// qubits are live than at that point of the program, whose widest point fits the device.
    /// On a device that measures only at the end, a qubit born to be measured waits for the end
    /// (and neither it nor a measured qubit's death holds the others back).
    fn birth_allowed(&mut self, s: usize) -> bool {
        if self.terminal_birth[s] {
            return self.twos_left == 0;
        }
        while self.birth_cursor < self.births.len() && self.done[self.births[self.birth_cursor]] {
            self.birth_cursor += 1;
        }
        while self.death_cursor < self.deaths.len() && self.done[self.deaths[self.death_cursor]] {
            self.death_cursor += 1;
        }
        self.births.get(self.birth_cursor) == Some(&s)
            && self.deaths.get(self.death_cursor).is_none_or(|&d| d > s)
    }

    fn run_birth(&mut self, b: usize) -> Result<(), RouteError> {
        if let VOp::Birth { v, prep } = self.plan.steps[b].op {
            self.birth(v, prep)?;
        }
        self.complete(b);
        Ok(())
    }

    /// Runs the next birth even though the operation that needs it is not ready (so that
    /// whatever waits on its partner can go on); false when it may not run yet either.
    fn force_birth(&mut self) -> Result<bool, RouteError> {
        let Some(&b) = self.births.get(self.birth_cursor) else {
            return Ok(false);
        };
        if self.done[b] || !self.birth_allowed(b) {
            return Ok(false);
        }
        self.run_birth(b)?;
        Ok(true)
    }

    fn placed(&self, v: usize) -> usize {
        // The dependency order guarantees a birth before any other operation of a virtual qubit.
        self.pos[v].unwrap_or(usize::MAX)
    }

    fn complete(&mut self, s: usize) {
        self.done[s] = true;
        if matches!(self.plan.steps[s].op, VOp::Two { .. }) {
            self.twos_left -= 1;
        }
        if let Some(k) = self.front.iter().position(|&x| x == s) {
            self.front.swap_remove(k);
        }
        for j in 0..self.succs[s].len() {
            let t = self.succs[s][j];
            self.preds_left[t] -= 1;
            if self.preds_left[t] == 0 {
                self.front.push(t);
            }
        }
        while self.cursor < self.done.len() && self.done[self.cursor] {
            self.cursor += 1;
        }
    }

    fn emit(&mut self, op: StepOp, cond: Cond) {
        let index = self.out.len();
        let (qs, k) = op.qubits();
        for &q in &qs[..k] {
            self.last_out[q] = Some(index);
        }
        self.out.push(Step { op, cond });
    }

    /// The distance cost of bringing `a` and `b` together: 3 CZ per extra coupler on the way.
    fn distance_cost(&self, a: usize, b: usize) -> f64 {
        3.0 * (self.usable.distance(a, b) - 1.0).max(0.0)
    }

    /// The next blocks of the program beyond the front, in program order (at most
    /// [`EXTENDED`]).
    fn extended(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut i = self.cursor;
        let mut scanned = 0;
        while i < self.plan.steps.len() && out.len() < EXTENDED && scanned < 8 * EXTENDED {
            if !self.done[i] {
                if let VOp::Two { hi, lo, .. } = self.plan.steps[i].op {
                    if self.preds_left[i] > 0 {
                        out.push((hi, lo));
                    }
                }
                scanned += 1;
            }
            i += 1;
        }
        out
    }

    /// The look-ahead set: the blocks `waiting` in the front (`(hi, lo, step)`, which this sorts
    /// into program order), then the blocks after the front ([`Router::extended`]).
    fn look_ahead_after(&self, waiting: &mut [(usize, usize, usize)]) -> Vec<(usize, usize, f64)> {
        waiting.sort_unstable_by_key(|f| f.2);
        look_ahead_set(
            waiting
                .iter()
                .map(|&(hi, lo, _)| (hi, lo))
                .chain(self.extended()),
        )
    }

    /// The look-ahead cost of the blocks `set` with positions from `pos`.
    fn lookahead(&self, set: &[(usize, usize, f64)], pos: impl Fn(usize) -> Option<usize>) -> f64 {
        set.iter()
            .filter_map(|&(a, b, w)| Some(w * self.distance_cost(pos(a)?, pos(b)?)))
            .sum()
    }

    fn mirror_pays(&mut self, hi: usize, lo: usize, cost: u8, mirror_cost: u8, _s: usize) -> bool {
        if mirror_cost > cost + 1 {
            return false;
        }
        let mut waiting = if self.params.mirror_sees_front {
            self.blocked_front()
        } else {
            Vec::new()
        };
        let ext = self.look_ahead_after(&mut waiting);
        let base = |v: usize| self.pos[v];
        let swapped = |v: usize| {
            if v == hi {
                self.pos[lo]
            } else if v == lo {
                self.pos[hi]
            } else {
                self.pos[v]
            }
        };
        let plain = f64::from(cost) + self.lookahead(&ext, base);
        let mirror = f64::from(mirror_cost) + self.lookahead(&ext, swapped);
        mirror < plain - 1e-9
    }

    /// Places a newborn virtual qubit, to be prepared in `prep|0>`.
    fn birth(&mut self, v: usize, prep: Mat2) -> Result<(), RouteError> {
        let logical = self.plan.logical[v];
        let info = &self.info[v];
        let partner_places: Vec<(usize, f64)> = info
            .partners
            .iter()
            .enumerate()
            .filter_map(|(rank, &u)| {
                let at = self.pos[u].or(self.anchor[self.plan.logical[u]])?;
                Some((at, 0.5f64.powi(rank as i32)))
            })
            .collect();
        let anchor = self.anchor[logical];
        let pinned = self
            .start
            .get(v)
            .copied()
            .flatten()
            .filter(|&s| self.pinned && self.may_hold(s));
        let mut best: Option<(f64, usize)> = pinned.map(|s| (0.0, s));
        for p in (0..self.phys.len()).take_while(|_| pinned.is_none()) {
            let Phys::Free(leaves) = self.phys[p] else {
                continue;
            };
            if leaves == Leaves::Dirty && !self.resets() {
                continue;
            }
            let mut score = prep_cost(leaves, &prep);
            for &(at, w) in &partner_places {
                score += w * (self.usable.distance(at, p) + self.distance_cost(at, p));
            }
            if info.measured {
                score += self.calibration.readout_cost(p);
            }
            if let Some(a) = anchor {
                score += 0.1 * self.usable.distance(a, p);
            }
            if let Some(s) = self.start[v] {
                score += START_WEIGHT * self.usable.distance(s, p);
            }
            score += self.params.jitter * self.rng.gen::<f64>();
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, p));
            }
        }
        let Some((_, p)) = best else {
            let live = self
                .phys
                .iter()
                .filter(|x| matches!(x, Phys::Live(_)))
                .count();
            return Err(RouteError::TooWide {
                device: String::new(),
                needed: live + 1,
                usable: self.usable.count(),
                broken: 0,
            });
        };
        self.prepare(p, &prep);
        self.phys[p] = Phys::Live(v);
        self.pos[v] = Some(p);
        let track = &mut self.tracks[logical];
        track.start.get_or_insert(p);
        track.lives.push(p);
        Ok(())
    }

    /// Whether a qubit holding garbage (measured, not yet reset) may be reset and used again:
    /// the device resets mid-circuit and this routing reuses qubits ([`Params::reuse`]).
    fn resets(&self) -> bool {
        self.mid_circuit && self.params.reuse
    }

    /// Whether a newborn may be placed on `p`: it is free and, unless qubits are reset and
    /// reused, holds no garbage.
    fn may_hold(&self, p: usize) -> bool {
        match self.phys.get(p) {
            Some(Phys::Free(Leaves::Dirty)) => self.resets(),
            Some(Phys::Free(_)) => true,
            _ => false,
        }
    }

    /// Brings free physical qubit `p` to the state `prep|0>`.
    fn prepare(&mut self, p: usize, prep: &Mat2) {
        match self.phys[p] {
            Phys::Free(Leaves::Known(held)) => {
                let g = prep.mul(&held.adjoint());
                if !g.is_identity(1e-12) {
                    self.emit(StepOp::One { q: p, m: g }, None);
                }
            }
            Phys::Free(Leaves::Dirty) => {
                self.emit(StepOp::Reset { q: p }, None);
                self.measured_phys[p] = false;
                if !prep.is_identity(1e-12) {
                    self.emit(StepOp::One { q: p, m: *prep }, None);
                }
            }
            _ => {}
        }
        self.phys[p] = Phys::Free(Leaves::Known(*prep));
    }

    /// The CZ cost of exchanging the contents of `a` (live) and `b`, and whether it is a move.
    fn exchange_cost(&self, a: usize, b: usize) -> Option<f64> {
        let edge = self.usable.edge_cost(a, b)?;
        match self.phys[b] {
            Phys::Spent => None,
            Phys::Free(Leaves::Dirty) if !self.resets() => None,
            Phys::Free(leaves) => Some(2.0 * edge + prep_cost(leaves, &Mat2::IDENTITY)),
            Phys::Live(_) => {
                // A SWAP straight after a block on the same pair merges into it.
                if let (Some(i), Some(j)) = (self.last_out[a], self.last_out[b]) {
                    if i == j {
                        if let Step {
                            op: StepOp::Two { m, .. },
                            cond: None,
                        } = self.out[i]
                        {
                            return Some(edge * self.swap_merge_extra(&m));
                        }
                    }
                }
                Some(3.0 * edge)
            }
        }
    }

    /// The two-qubit gates a SWAP merged into the block `m` adds (negative: saves).
    fn swap_merge_extra(&self, m: &Mat4) -> f64 {
        let mut counts = self.counts.borrow_mut();
        f64::from(counts.count(&Mat4::SWAP.mul(m))) - f64::from(counts.count(m))
    }

    /// Applies the exchange of the contents of `a` (live) and `b`.
    fn apply_exchange(&mut self, a: usize, b: usize) {
        let Phys::Live(v) = self.phys[a] else { return };
        match self.phys[b] {
            Phys::Live(u) => {
                self.emit(
                    StepOp::Two {
                        hi: a,
                        lo: b,
                        m: Mat4::SWAP,
                    },
                    None,
                );
                self.phys[a] = Phys::Live(u);
                self.pos[u] = Some(a);
            }
            _ => {
                // b to |0>, then CX a->b, CX b->a: |psi>|0> becomes |0>|psi>.
                self.prepare(b, &Mat2::IDENTITY);
                self.emit(
                    StepOp::Two {
                        hi: a,
                        lo: b,
                        m: Mat4::CX_LO_HI.mul(&Mat4::CX_HI_LO),
                    },
                    None,
                );
                self.phys[a] = Phys::Free(Leaves::Known(Mat2::IDENTITY));
            }
        }
        self.phys[b] = Phys::Live(v);
        self.pos[v] = Some(b);
        self.uses[a] += 1;
        self.uses[b] += 1;
        self.swaps += 1;
    }

    /// The blocks in the front whose qubits are placed but not adjacent: `(hi, lo, step)`.
    fn blocked_front(&self) -> Vec<(usize, usize, usize)> {
        self.front
            .iter()
            .filter_map(|&s| match self.plan.steps[s].op {
                VOp::Two { hi, lo, .. } => {
                    let (a, b) = (self.pos[hi]?, self.pos[lo]?);
                    self.usable.edge_cost(a, b).is_none().then_some((hi, lo, s))
                }
                _ => None,
            })
            .collect()
    }

    /// Chooses and applies one exchange by the look-ahead score.
    fn exchange(&mut self) -> Result<(), RouteError> {
        let front = self.blocked_front();
        if front.is_empty() {
            return Err(RouteError::Stuck);
        }
        let scored = earliest_per_qubit(&front);
        // The front's other blocks are next in line: they lead the look-ahead, in program
        // order, with the weights the extended set's blocks would have.
        let mut waiting: Vec<(usize, usize, usize)> = front
            .iter()
            .filter(|f| !scored.iter().any(|g| (g.0, g.1) == (f.0, f.1)))
            .copied()
            .collect();
        let ext = self.look_ahead_after(&mut waiting);
        // Exchanges on the qubits of the scored blocks and of the waiting ones the look-ahead
        // sees (a QFT's front can hold hundreds of blocks).
        let mut candidates = Vec::new();
        let seen = waiting.len().min(EXTENDED);
        for (hi, lo) in scored
            .iter()
            .map(|f| (f.0, f.1))
            .chain(waiting[..seen].iter().map(|f| (f.0, f.1)))
        {
            for v in [hi, lo] {
                let Some(a) = self.pos[v] else { continue };
                for &(b, _) in &self.usable.neighbours[a] {
                    if let Some(cost) = self.exchange_cost(a, b) {
                        candidates.push((a, b, cost));
                    }
                }
            }
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for (a, b, cost) in candidates {
            let (va, vb) = (Some(a), Some(b));
            let moved = |v: usize| {
                let p = self.pos[v];
                if p == va {
                    vb
                } else if p == vb {
                    va
                } else {
                    p
                }
            };
            let score = self.params.cost_weight * cost
                + self.lookahead(&scored, moved)
                + EXTENDED_WEIGHT * self.lookahead(&ext, moved)
                + DECAY * f64::from(self.uses[a] + self.uses[b])
                + self.params.jitter * self.rng.gen::<f64>();
            if best.is_none_or(|(s, _, _)| score < s) {
                best = Some((score, a, b));
            }
        }
        match best {
            Some((_, a, b)) => {
                self.apply_exchange(a, b);
                Ok(())
            }
            None => self.force_one(),
        }
    }

    /// Brings the closest front block together along a shortest path.
    fn force_one(&mut self) -> Result<(), RouteError> {
        let front = self.blocked_front();
        let Some(&(hi, lo, _)) =
            front
                .iter()
                .min_by_key(|(h, l, _)| match (self.pos[*h], self.pos[*l]) {
                    (Some(a), Some(b)) => self.usable.hops(b, a),
                    _ => u32::MAX,
                })
        else {
            return Err(RouteError::Stuck);
        };
        let (Some(mut a), Some(b)) = (self.pos[hi], self.pos[lo]) else {
            return Err(RouteError::Stuck);
        };
        // Walk `hi` towards `lo` one coupler at a time (each step lowers the hop count by one).
        let mut guard = self.phys.len();
        while self.usable.edge_cost(a, b).is_none() && guard > 0 {
            guard -= 1;
            let Some(&(next, _)) = self.usable.neighbours[a]
                .iter()
                .filter(|(n, _)| self.usable.hops(b, *n) < self.usable.hops(b, a))
                .filter(|(n, _)| {
                    !matches!(self.phys[*n], Phys::Spent)
                        && (!matches!(self.phys[*n], Phys::Free(Leaves::Dirty)) || self.resets())
                })
                .min_by(|x, y| x.1.total_cmp(&y.1))
            else {
                return Err(RouteError::Stuck);
            };
            self.apply_exchange(a, next);
            a = next;
        }
        Ok(())
    }
}

/// The first [`EXTENDED`] of `blocks` (pairs of virtual qubits, in the order they are needed)
/// with their look-ahead weights: 1 for the first, each [`EXTENDED_DECAY`] times the one before.
fn look_ahead_set(blocks: impl IntoIterator<Item = (usize, usize)>) -> Vec<(usize, usize, f64)> {
    let mut weight = 1.0;
    blocks
        .into_iter()
        .take(EXTENDED)
        .map(|(hi, lo)| {
            let block = (hi, lo, weight);
            weight *= EXTENDED_DECAY;
            block
        })
        .collect()
}

/// The blocks of the blocked front that come first in program order on both their qubits.
/// Blocks that commute on a shared qubit wait together (a QFT's phases on one qubit) and any of
/// them may run first; scoring them all would pull the shared qubit towards every partner at
/// once. Scoring those that come first keeps the program's own order as the direction, and the
/// others still run as soon as their qubits meet.
fn earliest_per_qubit(front: &[(usize, usize, usize)]) -> Vec<(usize, usize, f64)> {
    let mut first: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for &(hi, lo, s) in front {
        for v in [hi, lo] {
            let at = first.entry(v).or_insert(s);
            *at = (*at).min(s);
        }
    }
    let is_first = |v: usize, s: usize| first.get(&v) == Some(&s);
    front
        .iter()
        .filter(|f| is_first(f.0, f.2) && is_first(f.1, f.2))
        .map(|&(hi, lo, _)| (hi, lo, 1.0))
        .collect()
}

/// Marks the measurement bits of a routing in its tracks (for the verifier).
pub fn measured_bits(routing: &Routing) -> Vec<(usize, usize)> {
    routing
        .steps
        .iter()
        .filter_map(|s| match s.op {
            StepOp::Measure { q, clbit } => Some((clbit, q)),
            _ => None,
        })
        .collect()
}

/// The cost of bringing a free qubit holding `leaves` to `prep|0>`: nothing when it holds that
/// state (or a phase of it, which is a virtual Z rotation away), one single-qubit gate else, a
/// reset first when it holds garbage.
fn prep_cost(leaves: Leaves, prep: &Mat2) -> f64 {
    let turn = |g: Mat2| {
        if g.0[0][1].norm() <= 1e-12 && g.0[1][0].norm() <= 1e-12 {
            0.0
        } else {
            X_COST
        }
    };
    match leaves {
        Leaves::Known(held) => turn(prep.mul(&held.adjoint())),
        Leaves::Dirty => RESET_COST + turn(*prep),
    }
}
