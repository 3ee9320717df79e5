//! Everything the server holds or does is bounded: request bodies, games kept, moves per game,
//! the memory of the games and of the work in flight together, the requests computing and
//! waiting, the connections open, how long a connection may take to send a request, and the
//! time one request may take. The defaults suit one person playing on their own machine.

use std::time::Duration;

/// The server's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body, in bytes (a game file, a counts file).
    pub body_bytes: usize,
    /// Games kept at once; a new game beyond this (or beyond what [`Limits::memory_bytes`]
    /// holds) closes the idle game used least recently, or is refused when every game is in use.
    pub games: usize,
    /// Moves a game may reach (played, or replayed from a game file).
    pub moves_per_game: usize,
    /// The most memory one game's simulator may hold for its state, in bytes (its undo history
    /// may take a third as much again); less when [`Limits::memory_bytes`] is small (see
    /// [`crate::budget::MemoryPlan`]).
    pub game_memory_bytes: u128,
    /// The memory the games kept and the work in flight may hold together, in bytes: by default
    /// 3/4 of the memory this process may use (`qc_sim::MemoryLimit::default()`: the least of
    /// physical memory, `RLIMIT_AS` and the cgroup's limit).
    pub memory_bytes: u128,
    /// Requests computing at once (each on a thread of its own, off the async runtime).
    pub workers: usize,
    /// Requests that may wait for a worker beyond those computing; one more is refused at once
    /// (503 with `Retry-After`), so that a burst never piles up.
    pub queue: usize,
    /// How long a request may take; past it the answer is 503 (a move still running finishes
    /// on its game, which stays busy until then; a search is stopped).
    pub request_time: Duration,
    /// How long a connection may take to send a request's head, counted from its opening or
    /// from the end of the previous answer (so this is also how long a kept-alive connection
    /// may stay idle), and to send the body after it; then it is closed.
    pub header_time: Duration,
    /// How long a WebSocket (`qchess serve --ai`) may stay silent before it is closed.
    pub socket_idle_time: Duration,
    /// Connections open at once, WebSockets included; more wait in the system's queue of
    /// connections until one closes. Never more than the open files the process may have
    /// allow, less [`RESERVED_FILES`].
    pub connections: usize,
    /// How long the requests in flight may take to finish after Ctrl-C or SIGTERM; then the
    /// server stops anyway.
    pub shutdown_time: Duration,
}

/// File descriptors kept for what is not a connection (the listener, standard streams, the
/// runtime's own, files a game opens).
pub const RESERVED_FILES: usize = 32;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1 << 20,
            games: 16,
            moves_per_game: 500,
            game_memory_bytes: 256 << 20,
            memory_bytes: qc_sim::MemoryLimit::default().limit_bytes(),
            workers: 2,
            queue: 8,
            request_time: Duration::from_secs(20),
            header_time: Duration::from_secs(10),
            socket_idle_time: Duration::from_secs(30 * 60),
            connections: 64,
            shutdown_time: Duration::from_secs(2),
        }
    }
}

impl Limits {
    /// The connections served at once: [`Limits::connections`], and never more than the
    /// process's limit on open files (`RLIMIT_NOFILE`, soft) less [`RESERVED_FILES`], so that
    /// accepting one never fails for want of a file descriptor.
    pub fn connections_open(&self) -> usize {
        let files = open_files_limit().unwrap_or(usize::MAX);
        self.connections
            .min(files.saturating_sub(RESERVED_FILES))
            .max(1)
    }
}

/// The soft limit on open files (`RLIMIT_NOFILE`), from `/proc/self/limits`; `None` when
/// unlimited or unknown.
pub fn open_files_limit() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_open_files_limit(&text)
}

fn parse_open_files_limit(limits: &str) -> Option<usize> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_files_limit_is_the_soft_one() {
        let text = "Max processes             63434                63434                processes \nMax open files            256                  4096                 files     \n";
        assert_eq!(parse_open_files_limit(text), Some(256));
        let unlimited =
            "Max open files            unlimited            unlimited            files     \n";
        assert_eq!(parse_open_files_limit(unlimited), None);
    }

    #[test]
    fn connections_stay_below_the_open_files_limit() {
        let many = Limits {
            connections: 1 << 30,
            ..Limits::default()
        };
        if let Some(files) = open_files_limit() {
            assert!(many.connections_open() <= files - RESERVED_FILES);
        }
        let few = Limits {
            connections: 3,
            ..Limits::default()
        };
        assert_eq!(few.connections_open(), 3);
    }
}
