//! The games the server keeps, by id: at most a fixed number (what the memory budget holds,
//! [`crate::budget::MemoryPlan`]); a new game beyond it closes the idle game used least
//! recently, and is refused when every game kept is in use (a game in use still holds its
//! memory until its request ends, so closing it would free nothing). Each game sits behind an
//! async mutex, so requests on one game run one after the other while other games go on.

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

    /// An id no game kept has, for a game about to be made (its answer names it).
    pub fn fresh_id(&self) -> String {
        let inner = self.lock();
        loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !inner.games.contains_key(&id) {
                return id;
            }
        }
    }

    /// Keeps `game` under `id` (from [`Store::fresh_id`]); when the store is full, closes the
    /// idle game used least recently and returns its id. `Err` gives the game back when the
    /// store is full and every game in it is in use, or when `id` was taken meanwhile.
    pub fn insert(&self, id: &str, game: WebGame) -> Result<Option<String>, WebGame> {
        let mut inner = self.lock();
        if inner.games.contains_key(id) {
            return Err(game);
        }
        let mut closed = None;
        if inner.games.len() >= self.capacity {
            // Idle: no request holds the game (each holds a clone of its `Arc` while it runs
            // or waits, and takes it under this lock).
            let oldest = inner
                .games
                .iter()
                .filter(|(_, e)| Arc::strong_count(&e.game) == 1)
                .min_by_key(|(_, e)| e.last_used)
                .map(|(id, _)| id.clone());
            let Some(oldest) = oldest else {
                return Err(game);
            };
            inner.games.remove(&oldest);
            closed = Some(oldest);
        }
        inner.clock += 1;
        let last_used = inner.clock;
        inner.games.insert(
            id.to_string(),
            Entry {
                game: Arc::new(GameLock::new(game)),
                last_used,
            },
        );
        Ok(closed)
    }

    /// The most games kept.
    pub fn capacity(&self) -> usize {
        self.capacity
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

    /// The ids of the games kept.
    pub fn ids(&self) -> Vec<String> {
        self.lock().games.keys().cloned().collect()
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

    fn keep(store: &Store) -> (String, Option<String>) {
        let id = store.fresh_id();
        let closed = store.insert(&id, game()).ok().expect("room");
        (id, closed)
    }

    #[test]
    fn a_full_store_closes_the_idle_game_used_least_recently() {
        let store = Store::new(2);
        let (a, _) = keep(&store);
        let (b, _) = keep(&store);
        assert!(
            store.get(&a).is_some(),
            "a is now used more recently than b"
        );
        let (c, closed) = keep(&store);
        assert_eq!(
            closed.as_deref(),
            Some(b.as_str()),
            "b was used least recently"
        );
        assert_eq!(store.len(), 2);
        assert!(store.get(&b).is_none());
        assert!(store.get(&a).is_some() && store.get(&c).is_some());
        assert!(store.remove(&a) && !store.remove(&a));
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_game_in_use_is_never_closed_and_a_full_store_of_them_refuses() {
        let store = Store::new(2);
        let (a, _) = keep(&store);
        let (b, _) = keep(&store);
        // a is in use (a request holds it), though used least recently.
        let in_use = store.get(&a).expect("a");
        assert!(store.get(&b).is_some());
        let (_, closed) = keep(&store);
        assert_eq!(closed.as_deref(), Some(b.as_str()), "the idle one goes");
        let busy_too: Vec<SharedGame> = [a.clone()]
            .iter()
            .chain(store.ids().iter().filter(|id| **id != a))
            .map(|id| store.get(id).expect("kept"))
            .collect();
        let id = store.fresh_id();
        assert!(store.insert(&id, game()).is_err(), "every game is in use");
        assert_eq!(store.len(), 2);
        drop((in_use, busy_too));
        assert!(store.insert(&id, game()).is_ok(), "idle again");
    }
}
