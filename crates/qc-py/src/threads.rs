//! The simulators' threads (rayon's global pool) in a Python process: as many as the CPUs the
//! process is given, so that a study's workers (threads on a machine, tasks on a Ray cluster)
//! do not each start one thread per core of the machine.
//!
//! The pool is built once, when the module is imported, with [`thread_count`] threads: the
//! first of `QCHESS_NUM_THREADS`, `RAYON_NUM_THREADS`, `OMP_NUM_THREADS` (which Ray sets for its
//! workers to the CPUs a task or actor is given) that is set, else the CPUs this process may run
//! on (`std::thread::available_parallelism`: its CPU affinity and cgroup quota, what
//! `os.sched_getaffinity` and a container allow). `qchess.num_threads()` says what was chosen.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// More threads than this is a mistake in a variable, not a machine.
const MAX_THREADS: usize = 4096;

/// `value` of the variable `name` as a number of threads; `strict`: a value that does not read
/// is an error (else it is skipped).
fn parse(name: &str, value: &str, strict: bool) -> PyResult<Option<usize>> {
    // OpenMP allows a list for nested levels (`4,2`): the first level is this one.
    let first = value.split(',').next().unwrap_or("").trim();
    match first.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(Some(n)),
        _ if !strict => Ok(None),
        _ => Err(PyValueError::new_err(format!(
            "{name}={value:?}: expected a whole number of threads from 1 to {MAX_THREADS}"
        ))),
    }
}

/// The number of threads the pool gets (see the module documentation).
///
/// # Errors
/// `QCHESS_NUM_THREADS` or `RAYON_NUM_THREADS` is set to something other than a number from 1
/// to 4096 (qchess's own variable and rayon's are read strictly; OpenMP's, which other tools
/// set, is skipped when it does not read).
pub fn thread_count() -> PyResult<usize> {
    for (name, strict) in [
        ("QCHESS_NUM_THREADS", true),
        ("RAYON_NUM_THREADS", true),
        ("OMP_NUM_THREADS", false),
    ] {
        if let Ok(value) = std::env::var(name) {
            if let Some(n) = parse(name, &value, strict)? {
                return Ok(n);
            }
        }
    }
    Ok(std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}

/// Builds the global pool with [`thread_count`] threads. Another library in the process may
/// have built it first: then it stays as that library made it (`num_threads()` says so).
///
/// # Errors
/// See [`thread_count`].
pub fn init() -> PyResult<()> {
    let threads = thread_count()?;
    // An error here only means the pool exists already; it is not ours to replace.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    Ok(())
}

/// The number of threads qchess's simulators use in this process: ``QCHESS_NUM_THREADS``, else
/// ``RAYON_NUM_THREADS``, else ``OMP_NUM_THREADS`` (Ray sets it for its workers to the CPUs a
/// task is given), else the CPUs the process may run on (``len(os.sched_getaffinity(0))``),
/// read once when ``qchess`` is imported.
#[pyfunction]
pub fn num_threads() -> usize {
    rayon::current_num_threads()
}
