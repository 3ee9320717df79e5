//! The games the server keeps, by id: at most a fixed number; a new game beyond it closes the
//! game used least recently (a request still running on it finishes first, its answer is the
//! last). Each game sits behind an async mutex, so requests on one game run one after the other
//! while other games go on.

use crate::game::WebGame;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::Mutex as GameLock;

/// A game shared between the requests on it.
pub type SharedGame = Arc<GameLock<WebGame>>;

struct Entry {
    game: SharedGame,
    last_used: u64,
}

struct Inner {
    games: HashMap<String, Entry>,
    clock: u64,
}

/// The games kept, at most `capacity` of them.
pub struct Store {
    inner: Mutex<Inner>,
    capacity: usize,
}

impl Store {
    /// An empty store keeping at most `capacity` games (at least one).
    pub fn new(capacity: usize) -> Store {
        Store {
            inner: Mutex::new(Inner {
                games: HashMap::new(),
                clock: 0,
            }),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The map is only touched by the short, non-panicking code below; a poisoned lock
        // still holds a consistent map.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `game` under a new id and returns the id; closes the least recently used game
    /// when the store is full.
    pub fn insert(&self, game: WebGame) -> String {
        let mut inner = self.lock();
        while inner.games.len() >= self.capacity {
            let oldest = inner
                .games
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => inner.games.remove(&id),
                None => break,
            };
        }
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !inner.games.contains_key(&id) {
                break id;
            }
        };
        inner.clock += 1;
        let last_used = inner.clock;
        inner.games.insert(
            id.clone(),
            Entry {
                game: Arc::new(GameLock::new(game)),
                last_used,
            },
        );
        id
    }

    /// The game with this id, marked as just used.
    pub fn get(&self, id: &str) -> Option<SharedGame> {
        let mut inner = self.lock();
        inner.clock += 1;
        let now = inner.clock;
        let entry = inner.games.get_mut(id)?;
        entry.last_used = now;
        Some(entry.game.clone())
    }

    /// Closes the game with this id; false when there was none.
    pub fn remove(&self, id: &str) -> bool {
        self.lock().games.remove(id).is_some()
    }

    /// The number of games kept.
    pub fn len(&self) -> usize {
        self.lock().games.len()
    }

    /// True when no game is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::NewGame;

    fn game() -> WebGame {
        WebGame::new(&NewGame::default(), 1 << 24, 10).unwrap()
    }

    #[test]
    fn a_full_store_closes_the_game_used_least_recently() {
        let store = Store::new(2);
        let a = store.insert(game());
        let b = store.insert(game());
        assert!(
            store.get(&a).is_some(),
            "a is now used more recently than b"
        );
        let c = store.insert(game());
        assert_eq!(store.len(), 2);
        assert!(store.get(&b).is_none(), "b was used least recently");
        assert!(store.get(&a).is_some() && store.get(&c).is_some());
        assert!(store.remove(&a) && !store.remove(&a));
        assert_eq!(store.len(), 1);
    }
}
