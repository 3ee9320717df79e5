//! The memory limit every simulator checks before it grows its state, so that a too-large state is
//! a [`BackendError::CapacityExceeded`] and not an out-of-memory kill.
//!
//! The default budget is 75% of the memory this process may use: the least of the physical memory
//! (`MemTotal`), the address-space limit (`RLIMIT_AS`, as `ulimit -v` or `prlimit --as` set it)
//! and the memory limit of the process's cgroup (v2 `memory.max`, v1 `memory.limit_in_bytes`).

use qc_ir::BackendError;

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
    /// (`MemTotal` in `/proc/meminfo`), `RLIMIT_AS` and the cgroup's memory limit.
    pub fn fraction_of_physical(fraction: f64) -> MemoryLimit {
        let physical = physical_memory_bytes().unwrap_or(FALLBACK_PHYSICAL_BYTES);
        let total = [address_space_limit_bytes(), cgroup_memory_limit_bytes()]
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
    let mut words = line.split_whitespace().skip(1);
    let value: u128 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") | Some("KB") => 1024,
        Some("B") | None => 1,
        Some(_) => return None,
    };
    Some(value * unit)
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
