//! The memory limit every simulator checks before it grows its state, so that a too-large state is
//! a [`BackendError::CapacityExceeded`] and not an out-of-memory kill.
//!
//! The default budget is 75% of the memory this process may use: the least of the physical memory
//! (`MemTotal`), the address-space limit (`RLIMIT_AS`, as `ulimit -v` or `prlimit --as` set it)
//! and the memory limit of the process's cgroup (v2 `memory.max`, v1 `memory.limit_in_bytes`).

use qc_ir::BackendError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Fraction of physical memory a simulator may use by default.
pub const DEFAULT_MEMORY_FRACTION: f64 = 0.75;

/// Used when `/proc/meminfo` cannot be read (not Linux, or sandboxed): 8 GiB.
const FALLBACK_PHYSICAL_BYTES: u128 = 8 << 30;

/// A byte budget for a simulator's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemoryLimit {
    bytes: u128,
}

impl Default for MemoryLimit {
    fn default() -> Self {
        MemoryLimit::fraction_of_physical(DEFAULT_MEMORY_FRACTION)
    }
}

impl MemoryLimit {
    /// A limit of exactly `bytes`.
    pub const fn bytes(bytes: u128) -> MemoryLimit {
        MemoryLimit { bytes }
    }

    /// No limit (allocation failures are still reported as errors where the allocator says so).
    pub const fn unlimited() -> MemoryLimit {
        MemoryLimit { bytes: u128::MAX }
    }

    /// `fraction` of the memory this process may use: the least of the physical memory
    /// (`MemTotal` in `/proc/meminfo`), the cgroup's memory limit and what `RLIMIT_AS` leaves
    /// beside the process's own address space (the program, its libraries and stacks, read once
    /// from `VmSize` in `/proc/self/status`: about 15 MB of a 60 MB cap, which a limit of 75% of
    /// the cap would have spent twice).
    pub fn fraction_of_physical(fraction: f64) -> MemoryLimit {
        let physical = physical_memory_bytes().unwrap_or(FALLBACK_PHYSICAL_BYTES);
        let address_space = address_space_limit_bytes()
            .map(|cap| cap.saturating_sub(baseline_address_space_bytes()));
        let total = [address_space, cgroup_memory_limit_bytes()]
            .into_iter()
            .flatten()
            .fold(physical, u128::min);
        MemoryLimit {
            bytes: (total as f64 * fraction.clamp(0.0, 1.0)) as u128,
        }
    }

    /// The budget in bytes.
    pub const fn limit_bytes(self) -> u128 {
        self.bytes
    }

    /// Errors when `needed_bytes` is over the budget; `what` says what was being allocated.
    pub fn check(self, what: &str, needed_bytes: u128) -> Result<(), BackendError> {
        if needed_bytes > self.bytes {
            return Err(BackendError::CapacityExceeded {
                what: what.to_string(),
                needed_bytes,
                limit_bytes: self.bytes,
            });
        }
        Ok(())
    }
}

/// Under an address-space limit (`RLIMIT_AS`), makes glibc's allocator serve every thread from
/// one arena. By default each thread that allocates gets an arena of its own, which maps 64 MiB
/// of address space at once: the two rayon threads of a simulation took 128 MiB of a 200 MiB
/// cap (`VmPeak` of a 26-ply knight game: 215 MB, against 71 MB with one arena) that the memory
/// limit could not know of, and the state's allocations then failed far below the limit.
/// Without such a limit nothing changes (address space is then not what runs out). A program
/// calls this once, before it starts threads; it does nothing on other platforms.
pub fn fit_allocator_to_address_space_limit() {
    if address_space_limit_bytes().is_some() {
        one_arena();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_arena() {
    // glibc's `mallopt` parameter for the most arenas (`malloc.h`).
    const M_ARENA_MAX: std::ffi::c_int = -8;
    extern "C" {
        fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
    }
    // SAFETY: `mallopt` only sets an allocator parameter; any value is valid to pass, and a
    // refusal (return value 0) leaves the allocator as it was.
    unsafe {
        mallopt(M_ARENA_MAX, 1);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn one_arena() {}

/// Physical memory in bytes, from `/proc/meminfo`.
pub fn physical_memory_bytes() -> Option<u128> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_total(&text)
}

/// The address-space limit (`RLIMIT_AS`, soft), from `/proc/self/limits`; `None` when unlimited
/// or unknown.
pub fn address_space_limit_bytes() -> Option<u128> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_address_space_limit(&text)
}

/// The address space the process had mapped the first time this was asked (`VmSize`): the
/// program, its libraries, its stacks, before any state was built. Read once, so that every
/// game's limit is the same however much an earlier one had mapped.
fn baseline_address_space_bytes() -> u128 {
    static BASELINE: std::sync::OnceLock<u128> = std::sync::OnceLock::new();
    *BASELINE.get_or_init(|| {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|text| parse_vm_size(&text))
            .unwrap_or(0)
    })
}

/// `VmSize` in bytes, from the text of `/proc/self/status`.
fn parse_vm_size(status: &str) -> Option<u128> {
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    parse_kib_line(line)
}

fn parse_address_space_limit(limits: &str) -> Option<u128> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// The memory limit of this process's cgroup (v2 `memory.max` or v1 `memory.limit_in_bytes`),
/// the least one found along the paths where a container may mount it; `None` when there is none.
pub fn cgroup_memory_limit_bytes() -> Option<u128> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    cgroup_limit_files(&membership)
        .into_iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .filter_map(|text| parse_cgroup_limit(&text))
        .min()
}

/// The files that may hold this process's cgroup memory limit, given `/proc/self/cgroup`: the
/// cgroup's own (v2 `0::/path`, v1 `N:memory:/path`) and the mount's root (a container sees its
/// own cgroup there).
fn cgroup_limit_files(membership: &str) -> Vec<String> {
    let mut files = vec![
        "/sys/fs/cgroup/memory.max".to_string(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
    ];
    for line in membership.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let path = path.trim_end_matches('/');
        if id == "0" && controllers.is_empty() && !path.is_empty() {
            files.push(format!("/sys/fs/cgroup{path}/memory.max"));
        } else if controllers.split(',').any(|c| c == "memory") && !path.is_empty() {
            files.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
        }
    }
    files
}

/// A cgroup limit file's value: bytes, or `None` for `max` (v2) and for v1's "no limit" (a value
/// near `i64::MAX`).
fn parse_cgroup_limit(text: &str) -> Option<u128> {
    let value: u128 = text.trim().parse().ok()?;
    (value < 1 << 60).then_some(value)
}

fn parse_mem_total(meminfo: &str) -> Option<u128> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    parse_kib_line(line)
}

/// The value of a `Name:   123 kB` line of a `/proc` file, in bytes.
fn parse_kib_line(line: &str) -> Option<u128> {
    let mut words = line.split_whitespace().skip(1);
    let value: u128 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") | Some("KB") => 1024,
        Some("B") | None => 1,
        Some(_) => return None,
    };
    Some(value * unit)
}

/// The bytes a simulator's snapshots hold, wherever they are kept (a game's undo history keeps
/// one per move, a probe one while it tries a move), shared by the simulator and each snapshot
/// it made, so that the simulator's memory limit counts them with its own state: a limit is
/// then the most the state and everything saved of it may take together.
#[derive(Clone, Debug, Default)]
pub(crate) struct SavedBytes(Arc<AtomicUsize>);

impl SavedBytes {
    /// The bytes the live snapshots hold now.
    pub(crate) fn total(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    /// Counts `bytes` of a new snapshot until the returned share is dropped.
    pub(crate) fn hold(&self, bytes: usize) -> Held {
        self.0.fetch_add(bytes, Ordering::Relaxed);
        Held {
            account: self.clone(),
            bytes,
        }
    }
}

/// One snapshot's share of its simulator's [`SavedBytes`]: counted while it lives.
#[derive(Debug)]
pub(crate) struct Held {
    account: SavedBytes,
    bytes: usize,
}

impl Held {
    /// The bytes counted.
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Clone for Held {
    /// A copy of a snapshot holds as much again.
    fn clone(&self) -> Self {
        self.account.hold(self.bytes)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.account.0.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// Checks that `needed_bytes` more, beside `saved` bytes of snapshots, fit in `limit`; the error
/// counts both and says how much was saved.
pub(crate) fn check_beside_saved(
    limit: MemoryLimit,
    what: &str,
    needed_bytes: u128,
    saved: usize,
) -> Result<(), BackendError> {
    if saved == 0 {
        return limit.check(what, needed_bytes);
    }
    let total = needed_bytes.saturating_add(saved as u128);
    if total > limit.limit_bytes() {
        return limit.check(
            &format!("{what}, beside {saved} bytes of saved states"),
            total,
        );
    }
    Ok(())
}

/// Reserves room for `additional` more items, turning an allocation failure into a capacity error.
pub(crate) fn try_reserve<T>(
    vec: &mut Vec<T>,
    additional: usize,
    what: &str,
    limit: MemoryLimit,
) -> Result<(), BackendError> {
    vec.try_reserve_exact(additional)
        .map_err(|_| BackendError::CapacityExceeded {
            what: format!("{what} (the allocator refused)"),
            needed_bytes: ((vec.len() + additional) * std::mem::size_of::<T>()) as u128,
            limit_bytes: limit.limit_bytes(),
        })
}

/// Pushes `item`, growing the vector (doubling) through [`try_reserve`] when it is full, so that
/// a refused growth is a capacity error and not an abort.
pub(crate) fn try_push<T>(
    vec: &mut Vec<T>,
    item: T,
    what: &str,
    limit: MemoryLimit,
) -> Result<(), BackendError> {
    if vec.len() == vec.capacity() {
        try_reserve(vec, vec.len().max(16), what, limit)?;
    }
    vec.push(item);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_total_is_read_in_kibibytes() {
        let text = "MemTotal:       24683656 kB\nMemFree:        1 kB\n";
        assert_eq!(parse_mem_total(text), Some(24_683_656 * 1024));
        assert_eq!(parse_mem_total("MemFree: 3 kB\n"), None);
    }

    #[test]
    fn vm_size_is_read_in_kibibytes() {
        let status = "Name:\tqchess\nVmPeak:\t   20000 kB\nVmSize:\t   14416 kB\n";
        assert_eq!(parse_vm_size(status), Some(14_416 * 1024));
        assert_eq!(parse_vm_size("VmRSS: 1 kB\n"), None);
    }

    #[test]
    fn address_space_limit_is_the_soft_limit_or_none() {
        let limited = "Limit                     Soft Limit           Hard Limit           Units     \nMax data size             unlimited            unlimited            bytes     \nMax address space         4294967296           unlimited            bytes     \n";
        assert_eq!(parse_address_space_limit(limited), Some(4 << 30));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes     \n";
        assert_eq!(parse_address_space_limit(unlimited), None);
    }

    #[test]
    fn cgroup_limits_are_read_for_v1_and_v2() {
        assert_eq!(parse_cgroup_limit("max\n"), None);
        assert_eq!(parse_cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(parse_cgroup_limit("4294967296\n"), Some(4 << 30));
        let files = cgroup_limit_files("4:memory:/box/a\n0::/user.slice/job\n1:cpu:/\n");
        assert!(files.contains(&"/sys/fs/cgroup/memory/box/a/memory.limit_in_bytes".to_string()));
        assert!(files.contains(&"/sys/fs/cgroup/user.slice/job/memory.max".to_string()));
        assert_eq!(files.len(), 4, "{files:?}");
    }

    #[test]
    fn the_default_limit_is_below_the_address_space_limit() {
        if let Some(cap) = address_space_limit_bytes() {
            assert!(MemoryLimit::default().limit_bytes() <= cap);
        }
    }

    #[test]
    fn saved_bytes_count_live_snapshots_and_their_copies() {
        let account = SavedBytes::default();
        let first = account.hold(100);
        let copy = first.clone();
        assert_eq!((account.total(), copy.bytes()), (200, 100));
        drop(first);
        assert_eq!(account.total(), 100);
        let limit = MemoryLimit::bytes(150);
        assert_eq!(check_beside_saved(limit, "x", 50, account.total()), Ok(()));
        let err = check_beside_saved(limit, "x", 51, account.total()).unwrap_err();
        assert_eq!(
            err,
            BackendError::CapacityExceeded {
                what: "x, beside 100 bytes of saved states".into(),
                needed_bytes: 151,
                limit_bytes: 150
            }
        );
        drop(copy);
        assert_eq!(account.total(), 0);
    }

    #[test]
    fn check_reports_what_and_how_much() {
        let limit = MemoryLimit::bytes(100);
        assert_eq!(limit.check("x", 100), Ok(()));
        let err = limit.check("dense vector", 101).unwrap_err();
        assert_eq!(
            err,
            BackendError::CapacityExceeded {
                what: "dense vector".into(),
                needed_bytes: 101,
                limit_bytes: 100
            }
        );
    }
}
