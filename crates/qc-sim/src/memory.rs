//! The memory limit every simulator checks before it grows its state, so that a too-large state is
//! a [`BackendError::CapacityExceeded`] and not an out-of-memory kill.

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

    /// `fraction` of the physical memory (`MemTotal` in `/proc/meminfo`).
    pub fn fraction_of_physical(fraction: f64) -> MemoryLimit {
        let total = physical_memory_bytes().unwrap_or(FALLBACK_PHYSICAL_BYTES);
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
