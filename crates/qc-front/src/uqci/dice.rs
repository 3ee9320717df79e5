//! The random numbers of a `position`: one generator per move, seeded by the session seed and
//! the position so far, so that the same `position` command always gives the same state
//! (docs/uqci.md, "Outcomes").
//!
//! The key of a position is a chain of FNV-1a hashes (a fixed, documented function, so a seed
//! means the same on every machine and in every build): the seed and the start position's FEN,
//! then each move as played, its outcomes written in. A move's generator hashes the key of the
//! position before it with the move *without* its outcomes and a stream name, so a move draws
//! the same outcome whether or not earlier moves had theirs written in, and a GUI that writes a
//! reported outcome back gets the same game.

use fnv::FnvHasher;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hash::Hasher;

/// What a generator is for; each has its own stream, so that one use never shifts another's
/// numbers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    /// A move's own outcomes (the measurement of a Quantum Chess move, a Niel's roll).
    Move,
    /// What a move that ends the game draws beyond its own outcomes (Quantum Chess: the
    /// measurement of every square at the fifty-move limit).
    Ending,
    /// `claim` in the position.
    Claim,
}

impl Stream {
    fn tag(self) -> &'static [u8] {
        match self {
            Stream::Move => b"move",
            Stream::Ending => b"ending",
            Stream::Claim => b"claim",
        }
    }
}

/// The key of a position: the seed, the start, and the moves played so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PositionKey(u64);

impl PositionKey {
    /// The key of the start position `start_fen` in a session seeded with `seed`.
    pub fn start(seed: u64, start_fen: &str) -> PositionKey {
        PositionKey(hash(seed, &[b"qchess uqci start", start_fen.as_bytes()]))
    }

    /// The key after `played` (the move as played, every outcome written in).
    #[must_use]
    pub fn after(self, played: &str) -> PositionKey {
        PositionKey(hash(self.0, &[b"played", played.as_bytes()]))
    }

    /// The generator for `stream` in this position; for [`Stream::Move`] and
    /// [`Stream::Ending`], `chosen` is the move without its outcomes (empty for `claim`).
    pub fn dice(self, stream: Stream, chosen: &str) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(hash(self.0, &[stream.tag(), chosen.as_bytes()]))
    }
}

/// FNV-1a over `parts` from `key`, each part preceded by its length so that no two lists of
/// parts hash alike by their concatenation.
fn hash(key: u64, parts: &[&[u8]]) -> u64 {
    let mut hasher = FnvHasher::with_key(key);
    for part in parts {
        hasher.write(&(part.len() as u64).to_le_bytes());
        hasher.write(part);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn keys_depend_on_every_input_and_nothing_else() {
        let start = PositionKey::start(7, "8/8/8/8/8/8/8/8 w - - 0 1");
        assert_eq!(start, PositionKey::start(7, "8/8/8/8/8/8/8/8 w - - 0 1"));
        assert_ne!(start, PositionKey::start(8, "8/8/8/8/8/8/8/8 w - - 0 1"));
        assert_ne!(start, PositionKey::start(7, "8/8/8/8/8/8/8/8 b - - 0 1"));
        assert_ne!(start.after("e2e4"), start.after("e2e3"));
        // Lengths are hashed: moving a byte between parts changes the key.
        assert_ne!(hash(0, &[b"ab", b"c"]), hash(0, &[b"a", b"bc"]));
        let draw = |k: PositionKey, s, m| k.dice(s, m).next_u64();
        assert_eq!(
            draw(start, Stream::Move, "a"),
            draw(start, Stream::Move, "a")
        );
        assert_ne!(
            draw(start, Stream::Move, "a"),
            draw(start, Stream::Ending, "a")
        );
        assert_ne!(
            draw(start, Stream::Move, "a"),
            draw(start, Stream::Move, "b")
        );
    }

    #[test]
    fn fnv_1a_is_the_published_function() {
        // FNV-1a 64 of "a" from the standard offset basis is 0xaf63dc4c8601ec8c (the FNV
        // reference test vectors); the length prefix is eight bytes before it.
        let mut plain = FnvHasher::default();
        plain.write(b"a");
        assert_eq!(plain.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
