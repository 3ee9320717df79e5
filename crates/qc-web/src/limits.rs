//! Everything the server holds or does is bounded: request bodies, games kept, moves per game,
//! the memory of each game's simulator, the games computing at once and the time one request
//! may take. The defaults suit one person playing on their own machine.

use std::time::Duration;

/// The server's bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body, in bytes (a game file, a counts file).
    pub body_bytes: usize,
    /// Games kept at once; a new game beyond this closes the one used least recently.
    pub games: usize,
    /// Moves a game may reach (played, or replayed from a game file).
    pub moves_per_game: usize,
    /// Memory each game's simulator may hold for its state, in bytes (its undo history may
    /// take a third as much again).
    pub game_memory_bytes: u128,
    /// Requests computing on games at once (each on a thread of its own, off the async
    /// runtime); more wait for a free one within their time.
    pub workers: usize,
    /// How long a request may take; past it the answer is 503 (a move still running finishes
    /// on its game, which stays busy until then).
    pub request_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 1 << 20,
            games: 16,
            moves_per_game: 500,
            game_memory_bytes: 256 << 20,
            workers: 2,
            request_time: Duration::from_secs(20),
        }
    }
}
