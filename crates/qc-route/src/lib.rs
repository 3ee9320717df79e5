//! # qc-route: the device compiler
//!
//! Places and routes a circuit onto a device: physical qubits and the couplers between them
//! (a target's `edges`, checked as a [`qc_ir::CouplingMap`]). The input is a circuit whose gates
//! act on at most two qubits (qc-export lowers a program to the device's gates first); the
//! output is the same program on the device's physical qubits, two-qubit gates only on usable
//! couplers (the device's entangler, [`Device::entangler`]: CZ, √iSWAP, ...), with the layout: where every program qubit starts and where each of its
//! measurements happens, so that a device's counts read exactly as the original program's.
//!
//! The passes, one module each:
//!
//! 1. [`program`]: the circuit as one- and two-qubit unitaries, measurements and resets;
//!    [`elide`]: the exchanges it asks for renamed instead of routed.
//! 2. [`known`]: which qubits hold a known classical value after each step (an exact run on a
//!    simulator, every branch kept).
//! 3. [`plan`]: qubit lifetimes: a qubit in a known state holds no physical qubit and is
//!    prepared again where it is next needed; measured and reset qubits free theirs; gates on
//!    pairs merge into blocks priced in the device's two-qubit gates ([`native`]: the fewest
//!    from the Weyl-chamber coordinates, [`weyl`]).
//! 4. [`layout`]: the board embedded on the device (homes for the squares' qubits);
//!    [`vf2`] and [`embedding`]: a placement under which every block sits on a coupler (or
//!    the longest beginning of the program does), calibration-weighted.
//! 5. [`router`]: placement at birth and SABRE-style routing with look-ahead, moves onto free
//!    qubits, SWAPs merged into blocks, mirrored blocks, costs weighted by the calibration
//!    ([`calibration`], [`device`]); steps that commute on a shared qubit may run in either
//!    order ([`commute`]).
//! 6. [`synth`]: re-synthesis of every run on a pair with the fewest of the device's two-qubit
//!    gates ([`native`], on the KAK form of [`kak`]).
//! 7. [`verify`]: the routed program checked against the device and the layout.
//!
//! Several routing trials (seeded; deterministic for a given seed) are run, in parallel, and the
//! one with the best estimated success probability is kept (priced by its runs' gate counts, so
//! only the winner is synthesised). A caller with a better price of a finished program (the
//! success probability with idle time, from a calibration's durations) passes a [`Ranking`]: the
//! few best trials by the gate-count price are then each finished and the one it scores highest
//! is kept ([`Options::ranking`]). Where no step reads a bit (generic circuits, the
//! deferred form of a game), each trial also gets SABRE's layout passes: the plan reversed
//! ([`plan::Plan::reversed`]) is routed from where the trial left every qubit, and the plan
//! routed again with each qubit born where the backward routing left it; both forward routings
//! are candidates. A program without a board also gets a few trials on a long line of the
//! device alone ([`layout::long_path`], [`device::Usable::along`]), where mirrored blocks find
//! swap networks. A program whose interactions embed in the device (or begin with a part that
//! does) also gets trials born on the placement [`vf2`] found. When a ranking chooses, a few
//! trials give every life a fresh qubit ([`router::Params::reuse`]) and measure every bit no
//! condition reads after the last two-qubit gate ([`router::Params::measure_last`]);
//! their best joins the ranked candidates: a reuse makes the other qubits wait through a readout
//! and a reset, which compile's cost cannot see and a ranking with time can. The winner is then
//! moved onto
//! the qubits of the same shape the calibration prices lowest
//! ([`embedding::relabel_cheaper`]).

pub mod calibration;
pub mod commute;
pub mod device;
pub mod elide;
pub mod embedding;
pub mod error;
pub mod google;
pub mod kak;
pub mod known;
pub mod layout;
pub mod linalg;
pub mod native;
pub mod plan;
pub mod program;
pub mod properties;
pub mod router;
pub mod synth;
pub mod verify;
pub mod vf2;
pub mod weyl;

pub use calibration::{Calibration, CalibrationError};
pub use device::{Device, Usable};
pub use error::{RouteError, VerifyError};
pub use native::{Entangler, Synthesis};
pub use properties::{DeviceProperties, GateProperties, QubitProperties};
pub use router::QubitTrack;

use native::CountCache;
use program::{Program, Step, StepOp};
use qc_ir::{Backend, Circuit, QubitRole};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Routing trials run by default (the best is kept).
pub const DEFAULT_TRIALS: usize = 16;

/// Backward-and-forward layout rounds after each trial's first routing (SABRE's layout passes).
const LAYOUT_ROUNDS: usize = 3;

/// One in this many trials (at least two) routes without reuse when a ranking chooses.
const FRESH_SHARE: usize = 4;

/// Programs with at most this many qubits live at once also get trials without the board's
/// embedding (placed by interactions and calibration alone).
pub const SMALL_PROGRAM: usize = 8;

/// A program without a board gets one trial on a line of the device for this many of the
/// others (at least two: one each way of mirroring).
const LINE_SHARE: usize = 4;

/// Trials (one per way of mirroring, without jitter) from a placement [`vf2`] found.
const EMBEDDED_TRIALS: usize = 2;

/// A caller's score of a finished candidate (higher is better), by which [`compile`] chooses
/// among its best routings instead of by its own cost ([`Options::ranking`]). The circuit is what
/// [`Compiled::circuit`] would be: on the device's physical qubits, in its entangler and
/// single-qubit gates, before the caller lowers single-qubit gates to the device's.
///
/// A trait, not a dependency: qc-route knows nothing of the model behind a score (qc-front
/// passes the noisy simulator's success probability with time), and any `Fn(&Circuit) -> f64`
/// that can be shared between threads is one.
pub trait Ranking: Sync {
    /// The score of `circuit`; higher is better (NaN ranks lowest).
    fn score(&self, circuit: &Circuit) -> f64;

    /// The scores of all the candidates at once, in their order: by default each one's
    /// [`Ranking::score`], in parallel. A ranking whose figure cannot be had for every candidate
    /// overrides it to score them all by one figure (scores of two figures do not compare).
    fn scores(&self, circuits: &[&Circuit]) -> Vec<f64> {
        circuits.par_iter().map(|c| self.score(c)).collect()
    }
}

impl<F: Fn(&Circuit) -> f64 + Sync> Ranking for F {
    fn score(&self, circuit: &Circuit) -> f64 {
        self(circuit)
    }
}

/// Candidates a [`Ranking`] scores by default: the best routings by [`compile`]'s own cost, one
/// per trial at most. Each is synthesised and written as a circuit to be scored.
pub const DEFAULT_RANKED: usize = 8;

/// Options of [`compile`].
#[derive(Copy, Clone)]
pub struct Options<'a> {
    /// Seed of the trials' tie-breaking (the result is a function of the input and the seed).
    pub seed: u64,
    /// Routing trials; the best is kept (at least one is run).
    pub trials: usize,
    /// The memory routing may take, in bytes: a program whose [`memory_estimate`] is above it
    /// is refused ([`RouteError::TooLarge`]) before anything is allocated for it.
    pub memory_bytes: u64,
    /// The caller's own ranking of the finished candidates: when given, the best
    /// [`Options::ranked`] routings by compile's cost (gate and readout errors) are each
    /// finished (moved onto cheaper qubits, synthesised) and the one it scores highest is kept,
    /// the better by compile's cost on a tie. `None`: compile's cost alone chooses, as it does
    /// for a program whose [`memory_estimate`] times [`Options::ranked`] is over
    /// [`Options::memory_bytes`] (the candidates are held at once).
    pub ranking: Option<&'a dyn Ranking>,
    /// How many candidates [`Options::ranking`] scores (at least one; one is compile's own
    /// choice).
    pub ranked: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            seed: 0,
            trials: DEFAULT_TRIALS,
            memory_bytes: u64::MAX,
            ranking: None,
            ranked: DEFAULT_RANKED,
        }
    }
}

impl std::fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("seed", &self.seed)
            .field("trials", &self.trials)
            .field("memory_bytes", &self.memory_bytes)
            .field("ranking", &self.ranking.map(|_| "caller's"))
            .field("ranked", &self.ranked)
            .finish()
    }
}

/// Bytes a device compile takes per instruction of the circuit, at most: the lowered program,
/// the steps, the plan, the known-value analysis, the best and the current routing of each
/// worker, the synthesis, the routed circuit and the device program written from it, whose
/// lowering is the peak (measured with `/usr/bin/time -v` on deep random programs of 50,000 and
/// 250,000 gates on 4 qubits: 5.5 KB a gate of peak resident memory, the OpenQASM reader's share
/// included; see docs/reliability.md).
pub const BYTES_PER_INSTRUCTION: u64 = 6 << 10;

/// Bytes per physical qubit of the device (its usable part, the distance rows routing keeps for
/// the qubits a program occupies, the per-qubit tables of every worker).
pub const BYTES_PER_DEVICE_QUBIT: u64 = 16 << 10;

/// The memory routing `instructions` instructions onto a device of `device_qubits` qubits
/// takes, at most (an estimate from measured figures: [`BYTES_PER_INSTRUCTION`],
/// [`BYTES_PER_DEVICE_QUBIT`]).
pub fn memory_estimate(instructions: usize, device_qubits: usize) -> u64 {
    (instructions as u64)
        .saturating_mul(BYTES_PER_INSTRUCTION)
        .saturating_add((device_qubits as u64).saturating_mul(BYTES_PER_DEVICE_QUBIT))
}

/// What [`compile`] did, for summaries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Two-qubit gates (the device's entangler) in the routed program.
    pub two_qubit_gates: usize,
    /// Physical qubits the program touches.
    pub qubits_used: usize,
    /// The most program qubits live at once.
    pub peak_live: usize,
    /// Lives of program qubits (each a birth on some physical qubit).
    pub lives: usize,
    /// Exchanges routing inserted (SWAPs and moves, before merging).
    pub exchanges: usize,
    /// Blocks run mirrored (their qubits exchanged at no extra cost).
    pub mirrored: usize,
    /// Routing trials run.
    pub trials: usize,
}

/// A routed program.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The program on the device's physical qubits (`Qubit(k)` is physical qubit `k`): the
    /// device's two-qubit gate and single-qubit gates, measurements, resets; the original bits.
    pub circuit: Circuit,
    /// Per program qubit: where it starts and where each measurement happens.
    pub tracks: Vec<QubitTrack>,
    /// Figures.
    pub report: Report,
}

/// Places and routes `circuit` onto `device` under `calibration`. `analysis` is a fresh
/// simulator for the known-value analysis ([`known`]). The result passes [`verify::verify`]
/// with the device's entangler ([`Device::entangler`]) and single-qubit gates as natives (the
/// caller lowers single-qubit gates to the device's and verifies again).
pub fn compile<B: Backend>(
    circuit: &Circuit,
    device: &Device,
    calibration: &Calibration,
    options: &Options,
    analysis: &mut B,
) -> Result<Compiled, RouteError> {
    let needed = memory_estimate(circuit.instructions().len(), device.num_qubits());
    if needed > options.memory_bytes {
        return Err(RouteError::TooLarge {
            instructions: circuit.instructions().len(),
            needed_bytes: needed,
            limit_bytes: options.memory_bytes,
        });
    }
    // Exchanges the program asks for are renamed, not routed ([`elide`]).
    let elided = elide::exchanges(&Program::from_circuit(circuit)?);
    let program = elided.program;
    let mut oracle = known::Oracle::new(&program, analysis);
    let plan = plan::Plan::new(&program, &mut oracle, device.entangler);
    let usable = Usable::new(device, calibration);
    let broken = device.num_qubits() - usable.count();
    let too_wide = |needed: usize| RouteError::TooWide {
        device: device.name.clone(),
        needed,
        usable: usable.count(),
        broken,
    };
    let peak = peak_live(&plan);
    if peak > usable.count() {
        return Err(too_wide(peak));
    }
    // The board's embedding, for a program with squares only (its cost grows with the device).
    let has_board = circuit
        .qubit_roles()
        .iter()
        .any(|r| matches!(r, QubitRole::Site(_)));
    let homes = if has_board {
        layout::board_homes(&usable)
    } else {
        Vec::new()
    };
    let anchors: Vec<Option<usize>> = circuit
        .qubit_roles()
        .iter()
        .map(|r| match r {
            QubitRole::Site(sq) => homes.get(sq.index()).copied().flatten(),
            _ => None,
        })
        .collect();
    let trials = options.trials.max(1);
    let boardless = anchors.iter().all(Option::is_none);
    let mut settings = vec![Setting {
        anchors,
        usable: None,
        trials,
        starts: Vec::new(),
        reuse: true,
        measure_last: false,
    }];
    // A small program also gets trials placed by its interactions and the calibration alone
    // (no board homes), so it can settle on a compact region of good qubits anywhere on the
    // device instead of around the board's embedding; the cheapest of all trials is kept (for
    // a program without a board, these are simply more trials).
    if peak <= SMALL_PROGRAM {
        settings.push(Setting {
            anchors: vec![None; circuit.num_qubits()],
            usable: None,
            trials,
            starts: Vec::new(),
            reuse: true,
            measure_last: false,
        });
    }
    // A program without a board also gets a few trials on a long line of the device alone,
    // where the mirrored blocks find swap networks (a QFT's: 3 CZ per controlled phase), which
    // the whole heavy hex, with its side branches, leads the router away from.
    let line = if boardless {
        layout::long_path(&usable, peak)
    } else {
        Vec::new()
    };
    if boardless && peak <= line.len() && line.len() < usable.count() {
        settings.push(Setting {
            anchors: vec![None; circuit.num_qubits()],
            usable: Some(usable.along(&line)),
            trials: (trials / LINE_SHARE).max(2),
            starts: Vec::new(),
            reuse: true,
            measure_last: false,
        });
    }
    // And a placement under which every block (or the longest beginning of the program) sits
    // on a coupler, if the subgraph search finds one ([`embedding`]): one more candidate, which
    // the true cost weighs against the others (added last, so that the other trials keep their
    // generators).
    if let Some(found) = embedding::starts(&plan, &usable, calibration, vf2::Bounds::default()) {
        settings.push(Setting {
            anchors: vec![None; circuit.num_qubits()],
            usable: None,
            trials: EMBEDDED_TRIALS,
            starts: found.starts,
            reuse: true,
            measure_last: false,
        });
    }
    // Each candidate kept for a ranking holds a routing, and while it is scored its synthesis
    // and circuit: a program whose compile would not fit the memory budget that many times over
    // is chosen by compile's cost alone.
    let keep = match options.ranking {
        Some(_) if needed.saturating_mul(options.ranked.max(1) as u64) <= options.memory_bytes => {
            options.ranked.max(1)
        }
        _ => 1,
    };
    // When the caller chooses by its own ranking (the success probability with time, for a
    // calibration with durations), some trials give every life a fresh qubit: a reuse saves a
    // qubit but makes the others wait through its readout and reset, and only the ranking can
    // weigh that. Only where every life fits a qubit of its own and the memory budget holds one
    // candidate more. (Also where there are no more lives than are live at once: a qubit
    // measured as soon as its gates are done needs a reset before an exchange may pass through
    // its place, which the fresh trials, measuring last, avoid.)
    if device.mid_circuit
        && keep > 1
        && needed.saturating_mul(keep as u64 + 1) <= options.memory_bytes
        && plan.num_virtuals() <= usable.count()
    {
        settings.push(Setting {
            anchors: settings[0].anchors.clone(),
            usable: None,
            trials: (trials / FRESH_SHARE).max(2),
            starts: Vec::new(),
            reuse: false,
            // The fresh trials also measure last (every bit no condition reads): without it a
            // program with as many lives as live qubits would still measure a finished qubit
            // early and need a reset to route through its place.
            measure_last: true,
        });
    }
    let context = Trials {
        plan: &plan,
        // SABRE's layout passes, where a step reads no bit: the plan routed backwards from where
        // a trial's routing left each qubit, then forwards again from where that left them.
        reversed: plan.reversed(),
        device,
        calibration,
        seed: options.seed,
    };
    // The trials are independent (each has its own seeded generator), so they run in parallel;
    // the cheapest wins, the earliest on a tie, as if they had run in order.
    let jobs: Vec<(usize, usize)> = settings
        .iter()
        .enumerate()
        .flat_map(|(set, s)| (0..s.trials).map(move |trial| (set, trial)))
        .collect();
    // Each worker thread keeps one cache of gate counts for all its trials (the counts are a
    // function of the block, so sharing changes nothing but the time). The trials are reduced
    // as they finish, so only the best routings so far of each worker are kept (one, or the
    // candidates a caller's ranking scores), not one per trial ([`Chosen`]).
    let fresh_counts = || CountCache::new(device.entangler);
    // Two reductions: the trials with reuse keep their `keep` cheapest, those without their
    // one cheapest, which joins the ranked candidates whatever its cost (compile's cost does not
    // see the wait a reuse makes; the ranking may).
    let (chosen, without_reuse) = jobs
        .par_iter()
        .enumerate()
        .map_init(fresh_counts, |counts, (index, &(set, trial))| {
            let setting = &settings[set];
            let usable = setting.usable.as_ref().unwrap_or(&usable);
            let outcome = context.run(setting, usable, set * trials + trial, trial < 2, counts);
            let chosen = match outcome {
                Ok((cost, routing)) => Chosen::Best(vec![(cost, index, routing)]),
                // A line of the device is an extra chance, not a requirement: a program that
                // does not fit it (a device that measures only at the end spends every measured
                // qubit) is routed on the whole device by the other trials.
                // Likewise trials without reuse: a program whose lives do not all fit fresh
                // qubits is routed with reuse by the others.
                Err(_) if setting.usable.is_some() || !setting.reuse => Chosen::Best(Vec::new()),
                Err(e) => Chosen::Failed(index, e),
            };
            if setting.reuse {
                (chosen, Chosen::Best(Vec::new()))
            } else {
                (Chosen::Best(Vec::new()), chosen)
            }
        })
        .reduce(
            || (Chosen::Best(Vec::new()), Chosen::Best(Vec::new())),
            |(a, fresh_a), (b, fresh_b)| (a.then(b, keep), fresh_a.then(fresh_b, 1)),
        );
    let mut candidates = match chosen {
        Chosen::Failed(_, RouteError::TooWide { needed, .. }) => return Err(too_wide(needed)),
        Chosen::Failed(_, other) => return Err(other),
        Chosen::Best(best) => best,
    };
    if let Chosen::Best(fresh) = without_reuse {
        candidates.extend(fresh);
    }
    // What routing needed is dropped before synthesis builds the program again (the peak of a
    // deep program's memory is here: the routed steps, the synthesised ones and the circuit).
    let (num_clbits, lives) = (program.num_clbits, plan.num_virtuals());
    drop(context);
    drop(settings);
    drop(plan);
    drop(program);
    // A candidate finished: on qubits of the same shape that the calibration prices lower,
    // its measurements where the program's exchanges left them, re-synthesised, written.
    let finish = |mut routing: router::Routing| -> Result<Finished, RouteError> {
        let runs = synth::gates_per_run(
            &routing.steps,
            device.num_qubits(),
            &mut CountCache::new(device.entangler),
        );
        embedding::relabel_cheaper(
            &mut routing,
            &runs,
            &usable,
            calibration,
            vf2::Bounds::default(),
        );
        elide::restore_measurements(&mut routing.tracks, &elided.measured);
        let mut steps = synth::resynthesize(
            &std::mem::take(&mut routing.steps),
            &device.coupling,
            device.entangler,
        )?;
        if !device.mid_circuit {
            measurements_last(&mut steps);
        }
        let routed = Program {
            num_qubits: device.num_qubits(),
            num_clbits,
            steps,
        };
        let out = routed.to_circuit(device.entangler)?;
        Ok(Finished {
            routing,
            routed,
            out,
        })
    };
    let mut candidates = candidates.into_iter().map(|(_, _, routing)| routing);
    let Finished {
        routing,
        routed,
        out,
    } = match options.ranking {
        Some(ranking) if candidates.len() > 1 => choose_ranked(
            candidates.collect::<Vec<_>>(),
            &finish,
            ranking,
            device.entangler,
        )?,
        _ => match candidates.next() {
            Some(routing) => finish(routing)?,
            None => {
                return Err(RouteError::Synthesis {
                    entangler: device.entangler,
                })
            }
        },
    };
    let native_and_one = |i: &qc_ir::Instruction| match &i.op {
        qc_ir::Op::Gate {
            gate,
            controls,
            targets,
        } => targets.len() + controls.len() == 1 || device.entangler.is_gate(*gate, controls.len()),
        _ => false,
    };
    verify::verify(
        &out,
        device,
        calibration,
        &routing.tracks,
        &verify::measurement_counts(circuit),
        &native_and_one,
    )?;
    let mut used = vec![false; device.num_qubits()];
    for s in &routed.steps {
        let (qs, k) = s.op.qubits();
        for &q in &qs[..k] {
            used[q] = true;
        }
    }
    let report = Report {
        two_qubit_gates: routed
            .steps
            .iter()
            .filter(|s| matches!(s.op, StepOp::Two { .. }))
            .count(),
        qubits_used: used.iter().filter(|u| **u).count(),
        peak_live: peak,
        lives,
        exchanges: routing.swaps,
        mirrored: routing.mirrored,
        trials: options.trials.max(1),
    };
    Ok(Compiled {
        circuit: out,
        tracks: routing.tracks,
        report,
    })
}

/// A candidate routing with its cost (compile's own) and trial index.
type Candidate = (f64, usize, router::Routing);

/// The trials reduced so far: the cheapest routings (up to the number kept) with their costs and
/// trial indices, cheapest first, or the first trial (by index) that failed. The reduction reads
/// the indices, so it gives what comparing the trials one by one in order gives, whatever order
/// the workers finish in.
enum Chosen {
    /// The cheapest (the earliest within 1e-9 of each other first), if any trial succeeded.
    Best(Vec<Candidate>),
    /// The first failure (trial index and error): routing fails as a whole.
    Failed(usize, RouteError),
}

impl Chosen {
    /// Two reductions in one: the earlier failure, else the `keep` cheapest routings of both,
    /// each time the cheapest of those left, the earlier one when costs are within 1e-9 (for
    /// `keep` 1: the cheaper of the two bests, the earlier on a tie).
    fn then(self, other: Chosen, keep: usize) -> Chosen {
        match (self, other) {
            (Chosen::Failed(i, e), Chosen::Failed(j, f)) => {
                if j < i {
                    Chosen::Failed(j, f)
                } else {
                    Chosen::Failed(i, e)
                }
            }
            (failed @ Chosen::Failed(..), _) | (_, failed @ Chosen::Failed(..)) => failed,
            (Chosen::Best(mut all), Chosen::Best(more)) => {
                all.extend(more);
                all.sort_by_key(|c| c.1);
                let mut kept = Vec::with_capacity(keep.min(all.len()));
                while kept.len() < keep && !all.is_empty() {
                    let best = (1..all.len()).fold(0, |best, j| {
                        if all[j].0 < all[best].0 - 1e-9 {
                            j
                        } else {
                            best
                        }
                    });
                    kept.push(all.remove(best));
                }
                Chosen::Best(kept)
            }
        }
    }
}

/// A candidate routing finished: its routing (the tracks, the figures), the program it
/// synthesised to, and that program as a circuit.
struct Finished {
    routing: router::Routing,
    routed: Program,
    out: Circuit,
}

/// The candidates (cheapest by compile's cost first) finished, in parallel, and the one
/// `ranking` scores highest: the earlier on a tie, so a ranking that cannot tell them apart
/// keeps compile's own choice. A candidate that fails to finish ranks lowest; if all fail, the
/// first's error; with no candidate, [`RouteError::Synthesis`] with `entangler`.
fn choose_ranked(
    candidates: Vec<router::Routing>,
    finish: &(dyn Fn(router::Routing) -> Result<Finished, RouteError> + Sync),
    ranking: &dyn Ranking,
    entangler: Entangler,
) -> Result<Finished, RouteError> {
    let finished: Vec<Result<Finished, RouteError>> =
        candidates.into_par_iter().map(finish).collect();
    let outs: Vec<&Circuit> = finished.iter().flatten().map(|f| &f.out).collect();
    let mut ok_scores = ranking.scores(&outs).into_iter();
    let scored: Vec<(f64, Result<Finished, RouteError>)> = finished
        .into_iter()
        .map(|finished| {
            let score = match &finished {
                Ok(_) => ok_scores.next().unwrap_or(f64::NEG_INFINITY),
                Err(_) => f64::NEG_INFINITY,
            };
            (
                if score.is_nan() {
                    f64::NEG_INFINITY
                } else {
                    score
                },
                finished,
            )
        })
        .collect();
    let mut best: Option<(f64, Finished)> = None;
    let mut first_error = None;
    for (score, finished) in scored {
        match finished {
            Ok(f) => {
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, f));
                }
            }
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match (best, first_error) {
        (Some((_, f)), _) => Ok(f),
        (None, Some(e)) => Err(e),
        // No candidate at all: what compile says when no trial gives one.
        (None, None) => Err(RouteError::Synthesis { entangler }),
    }
}

/// How one group of trials places and where it routes.
struct Setting {
    /// Per program qubit: its preferred physical qubit.
    anchors: Vec<Option<usize>>,
    /// Part of the device to route on (`None`: all its usable part).
    usable: Option<Usable>,
    /// Trials in the group.
    trials: usize,
    /// Per virtual qubit: where it is born in the first routing of each trial, whenever that
    /// qubit is free (a placement [`vf2`] found); empty: placed by the router.
    starts: Vec<Option<usize>>,
    /// Measured qubits may be reset and reused ([`router::Params::reuse`]).
    reuse: bool,
    /// Measurements wait for the last two-qubit gate ([`router::Params::measure_last`]).
    measure_last: bool,
}

/// What every routing trial shares.
struct Trials<'a> {
    plan: &'a plan::Plan,
    /// The plan backwards, where no step reads a bit (for the layout rounds).
    reversed: Option<plan::Plan>,
    device: &'a Device,
    calibration: &'a Calibration,
    seed: u64,
}

impl Trials<'_> {
    /// One trial: a routing placed by the setting's anchors (or on its starts), then up to
    /// [`LAYOUT_ROUNDS`] backward and forward rounds; the cheapest of its routings, with its
    /// estimated cost. Trial `index` has its own generator; the `plain` one routes without
    /// jitter.
    fn run(
        &self,
        setting: &Setting,
        usable: &Usable,
        index: usize,
        plain: bool,
        counts: &mut CountCache,
    ) -> Result<(f64, router::Routing), RouteError> {
        let mut rng =
            ChaCha8Rng::seed_from_u64(self.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index as u64);
        let params = router::Params {
            cost_weight: 1.0,
            jitter: if plain { 0.0 } else { 0.3 },
            // Half the trials each way: which mirrors better depends on the program.
            mirror_sees_front: index % 2 == 1,
            reuse: setting.reuse,
            measure_last: setting.measure_last,
        };
        let anchors = &setting.anchors;
        // `pinned`: born on their starts (a placement found to fit), not pulled towards them.
        let mut route =
            |plan: &plan::Plan, starts: &[Option<usize>], pinned: bool, counts: &mut CountCache| {
                let places = router::Places {
                    anchors,
                    starts,
                    pinned,
                };
                router::route(
                    plan,
                    self.device,
                    usable,
                    self.calibration,
                    places,
                    params,
                    &mut rng,
                    counts,
                )
            };
        let routing = route(self.plan, &setting.starts, true, counts)?;
        let mut cost = self.cost(&routing, counts);
        // Where the last routing left each qubit (the next round starts from there), and the
        // best routing so far: a round's routing replaces it, or is dropped at once.
        let mut last_pos = routing.last_pos.clone();
        let mut best = (cost, routing);
        for _ in 0..LAYOUT_ROUNDS {
            let starts = self
                .reversed
                .as_ref()
                .and_then(|back| route(back, &last_pos, false, counts).ok())
                .map(|back| back.last_pos);
            // A refinement only: a routing that fails here leaves the one before.
            let again = starts.and_then(|starts| route(self.plan, &starts, false, counts).ok());
            let Some(again) = again else { break };
            let again_cost = self.cost(&again, counts);
            let improved = again_cost < cost - 1e-9;
            last_pos.clone_from(&again.last_pos);
            cost = again_cost;
            if again_cost < best.0 - 1e-9 {
                best = (again_cost, again);
            }
            // A round that gains nothing has settled (most small programs after one).
            if !improved {
                break;
            }
        }
        Ok(best)
    }

    /// `-ln ESP` of a routing once re-synthesised (its runs' two-qubit gates and its
    /// measurements), in median-coupler units.
    fn cost(&self, routing: &router::Routing, counts: &mut CountCache) -> f64 {
        let gates: f64 = synth::gates_per_run(&routing.steps, self.device.num_qubits(), counts)
            .iter()
            .map(|&(hi, lo, n)| f64::from(n) * self.calibration.two_qubit_cost(hi, lo))
            .sum();
        let readout: f64 = routing
            .steps
            .iter()
            .map(|s| match s.op {
                StepOp::Measure { q, .. } => self.calibration.readout_cost(q),
                _ => 0.0,
            })
            .sum();
        gates + readout
    }
}

/// The most virtual qubits live at once in a plan.
fn peak_live(plan: &plan::Plan) -> usize {
    let (mut live, mut peak) = (0usize, 0usize);
    for s in &plan.steps {
        match s.op {
            plan::VOp::Birth { .. } => {
                live += 1;
                peak = peak.max(live);
            }
            plan::VOp::Death { .. } => live = live.saturating_sub(1),
            _ => {}
        }
    }
    peak
}

/// Moves every measurement after which its qubit is idle to the end (for devices that measure
/// only at the end). A measurement followed by another operation on its qubit stays where it
/// is, and the verifier refuses the program.
fn measurements_last(steps: &mut Vec<Step>) {
    let mut used_later = vec![false; steps.len()];
    let mut seen = std::collections::BTreeSet::new();
    for (i, s) in steps.iter().enumerate().rev() {
        let (qs, k) = s.op.qubits();
        if let StepOp::Measure { q, .. } = s.op {
            used_later[i] = seen.contains(&q);
        }
        seen.extend(qs[..k].iter().copied());
    }
    let mut last = Vec::new();
    let mut rest = Vec::with_capacity(steps.len());
    for (i, s) in steps.drain(..).enumerate() {
        if matches!(s.op, StepOp::Measure { .. }) && !used_later[i] {
            last.push(s);
        } else {
            rest.push(s);
        }
    }
    rest.extend(last);
    *steps = rest;
}
