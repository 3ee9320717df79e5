//! The fuzz runner: `cargo run --profile fuzz -p qc-fuzz -- --seconds 120 [--seed N]
//! [--surface NAME] [--out DIR]`. Gives every surface an equal share of the time (a seed, then
//! mutated seeds) until the time is up, prints executions and failures per surface, writes each
//! failing input to `DIR/<surface>-<hash>.txt` (default `target/qc-fuzz-failures`), and exits
//! with 1 when anything failed. A failing input belongs in `corpus/regressions/<surface>/` once fixed.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line runner reports on the terminal"
)]

use qc_fuzz::mutate::mutate;
use qc_fuzz::seeds::seeds;
use qc_fuzz::{run_guarded, Outcome, Surface};
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One execution slower than this is reported as a failure (a runaway).
const SLOW: Duration = Duration::from_secs(10);
/// An input still running after this long counts as a hang: the runner saves it and stops.
const HANG: Duration = Duration::from_secs(60);
/// The stack of the fuzzing thread: the CLI's main thread has 8 MiB.
const STACK_BYTES: usize = 8 << 20;

struct Options {
    seconds: u64,
    seed: u64,
    surface: Option<Surface>,
    out: PathBuf,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        seconds: 120,
        seed: 0,
        surface: None,
        out: PathBuf::from("target/qc-fuzz-failures"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--seconds" => options.seconds = value.parse().map_err(|_| "bad --seconds")?,
            "--seed" => options.seed = value.parse().map_err(|_| "bad --seed")?,
            "--surface" => {
                options.surface =
                    Some(Surface::from_name(&value).ok_or(format!("unknown surface {value}"))?)
            }
            "--out" => options.out = PathBuf::from(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

#[derive(Default)]
struct Tally {
    executions: u64,
    failures: u64,
}

/// The input being run now, for the watchdog: its surface, text and start.
type Current = Arc<Mutex<Option<(Surface, String, Instant)>>>;

fn fuzz(options: &Options, current: &Current) -> BTreeMap<Surface, Tally> {
    let seeds = seeds();
    let surfaces: Vec<Surface> = match options.surface {
        Some(s) => vec![s],
        None => Surface::ALL.to_vec(),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(options.seed);
    let mut tallies: BTreeMap<Surface, Tally> = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(options.seconds);
    // Each surface gets an equal share of the time, not of the executions: a slow surface (a
    // UQCI session takes a thousand times a FEN's time) would otherwise hold every other to its
    // pace. A seed itself first on every surface, then mutations.
    let mut spent: BTreeMap<Surface, Duration> = BTreeMap::new();
    let mut unseeded: Vec<Surface> = surfaces.iter().rev().copied().collect();
    while Instant::now() < deadline {
        let (surface, from_seed) = match unseeded.pop() {
            Some(surface) => (surface, true),
            None => (least_spent(&surfaces, &spent), false),
        };
        let pool = &seeds[&surface];
        let seed = &pool[rng.gen_range(0..pool.len())];
        let other = &pool[rng.gen_range(0..pool.len())];
        let input_bytes = if from_seed {
            seed.clone()
        } else {
            mutate(seed, other, &mut rng)
        };
        let input = String::from_utf8_lossy(&input_bytes);
        let started = Instant::now();
        if let Ok(mut slot) = current.lock() {
            *slot = Some((surface, input.to_string(), started));
        }
        let outcome = run_guarded(surface, &input);
        let took = started.elapsed();
        *spent.entry(surface).or_default() += took;
        let tally = tallies.entry(surface).or_default();
        tally.executions += 1;
        let failure = match outcome {
            Outcome::Clean if took > SLOW => Some(format!("took {took:?}")),
            Outcome::Clean => None,
            Outcome::Broken(m) => Some(m),
            Outcome::Panicked(m) => Some(format!("panicked: {m}")),
        };
        if let Some(reason) = failure {
            tally.failures += 1;
            let path = save_failure(&options.out, surface, &input);
            eprintln!("FAIL {}: {reason} ({})", surface.name(), path.display());
        }
    }
    tallies
}

/// The surface that has had the least time so far (the first of them on a tie).
fn least_spent(surfaces: &[Surface], spent: &BTreeMap<Surface, Duration>) -> Surface {
    surfaces
        .iter()
        .copied()
        .min_by_key(|s| spent.get(s).copied().unwrap_or_default())
        .unwrap_or(Surface::ALL[0])
}

/// Writes a failing input to `out/<surface>-<hash>.txt` and returns the path.
fn save_failure(out: &std::path::Path, surface: Surface, input: &str) -> PathBuf {
    let path = out.join(format!(
        "{}-{:016x}.txt",
        surface.name(),
        qc_fuzz::fnv1a(input.as_bytes())
    ));
    let _ = std::fs::create_dir_all(out);
    let _ = std::fs::write(&path, input.as_bytes());
    path
}

/// Waits for the fuzzing thread; if one input runs longer than [`HANG`], saves it, reports it
/// and ends the process (a running thread cannot be stopped), so the runner never outlives its
/// budget by more than [`HANG`].
fn watch<T>(worker: std::thread::JoinHandle<T>, current: &Current, out: &std::path::Path) -> T {
    loop {
        if worker.is_finished() {
            match worker.join() {
                Ok(value) => return value,
                Err(_) => {
                    eprintln!("error: the fuzzing thread failed");
                    std::process::exit(2);
                }
            }
        }
        let hung = current.lock().ok().and_then(|slot| {
            slot.as_ref()
                .filter(|(_, _, started)| started.elapsed() > HANG)
                .map(|(surface, input, _)| (*surface, input.clone()))
        });
        if let Some((surface, input)) = hung {
            let path = save_failure(out, surface, &input);
            eprintln!(
                "FAIL {}: no result after {HANG:?} ({}); stopping",
                surface.name(),
                path.display()
            );
            std::process::exit(1);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // Panics are caught and reported per input; the default hook would print each one.
    std::panic::set_hook(Box::new(|_| {}));
    let current: Current = Arc::new(Mutex::new(None));
    let out = options.out.clone();
    let shared = Arc::clone(&current);
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || (fuzz(&options, &shared), options.seconds, options.seed));
    let Ok(worker) = worker else {
        eprintln!("error: the fuzzing thread could not run");
        return ExitCode::from(2);
    };
    let (tallies, seconds, seed) = watch(worker, &current, &out);
    println!("qc-fuzz: {seconds} s, seed {seed}");
    println!("{:<16} {:>12} {:>9}", "surface", "executions", "failures");
    let (mut runs, mut failures) = (0, 0);
    for (surface, tally) in &tallies {
        println!(
            "{:<16} {:>12} {:>9}",
            surface.name(),
            tally.executions,
            tally.failures
        );
        runs += tally.executions;
        failures += tally.failures;
    }
    println!("{:<16} {:>12} {:>9}", "total", runs, failures);
    if failures > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
