//! How a server shares its memory budget ([`Limits::memory_bytes`]) between its games and the
//! work in flight, so that the sum of what they may hold stays within what the process may use.
//!
//! Every game may grow to its simulator's limit, and its undo history to a third as much again
//! (`qc_rules::undo`), and a request computing may hold one more such game (a game file being
//! replayed, a view being rebuilt, an engine's trial moves) and a transposition table. So a
//! game's share is its limit plus a third plus the table; each worker keeps one share for its
//! work, and the games kept get the rest, one share each. The limit of one game is the least of
//! [`Limits::game_memory_bytes`] and what leaves room for [`GAMES_BESIDE_WORK`] games beside
//! the workers' shares.

use crate::game::ENGINE_TABLE_BYTES;
use crate::limits::Limits;

/// Games a page server keeps room for beside its workers' work, however small its budget: the
/// limit of one game shrinks rather than leave fewer.
pub const GAMES_BESIDE_WORK: usize = 4;

/// The memory of one game, and how many games fit beside the work in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryPlan {
    /// The simulator's memory limit of each game and each search, in bytes.
    pub game_limit_bytes: u128,
    /// What one game may hold in all: its state, its undo history and an engine's table.
    pub share_bytes: u128,
    /// Games kept at most: [`Limits::games`], fewer when their shares would not fit.
    pub games: usize,
}

impl MemoryPlan {
    /// The plan for `limits`; `keeps_games` is false for a server that keeps none (`serve
    /// --ai`: each view is rebuilt, searched and dropped).
    pub fn new(limits: &Limits, keeps_games: bool) -> MemoryPlan {
        let workers = limits.workers.max(1) as u128;
        let beside = if keeps_games { GAMES_BESIDE_WORK } else { 0 } as u128;
        let table = ENGINE_TABLE_BYTES as u128;
        // share = limit * 4/3 + table; (workers + beside) shares fit in the budget.
        let per_share = limits.memory_bytes / (workers + beside);
        let game_limit_bytes = limits
            .game_memory_bytes
            .min(per_share.saturating_sub(table) / 4 * 3);
        let share_bytes = share_of(game_limit_bytes);
        let left = limits.memory_bytes.saturating_sub(workers * share_bytes);
        let fit = usize::try_from(left / share_bytes.max(1)).unwrap_or(usize::MAX);
        MemoryPlan {
            game_limit_bytes,
            share_bytes,
            games: limits.games.min(fit).max(1),
        }
    }
}

/// What a game whose simulator may hold `limit` bytes may hold in all.
fn share_of(limit: u128) -> u128 {
    limit + limit / 3 + ENGINE_TABLE_BYTES as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u128 = 1 << 20;

    fn limits(memory_bytes: u128) -> Limits {
        Limits {
            memory_bytes,
            ..Limits::default()
        }
    }

    #[test]
    fn a_large_budget_keeps_every_game_at_its_full_limit() {
        let plan = MemoryPlan::new(&limits(64 << 30), true);
        assert_eq!(plan.game_limit_bytes, 256 * MIB);
        assert_eq!(plan.share_bytes, 256 * MIB + 256 * MIB / 3 + 4 * MIB);
        assert_eq!(plan.games, 16);
    }

    #[test]
    fn the_shares_of_the_games_and_the_work_fit_in_the_budget() {
        // 3/4 of the 1.5 GB address-space cap of the issue: 16 games of 345 MiB would need 5.4 GiB.
        for budget in [1_125_000_000, 4 << 30, 600 * MIB, 80 * MIB] {
            let page = MemoryPlan::new(&limits(budget), true);
            let held = page.share_bytes * (page.games as u128 + 2);
            assert!(held <= budget, "{budget}: {page:?} holds {held}");
            assert!(page.games >= GAMES_BESIDE_WORK, "{budget}: {page:?}");
            let ai = MemoryPlan::new(&limits(budget), false);
            assert!(ai.share_bytes * 2 <= budget, "{budget}: {ai:?}");
        }
        // The budget: the limit of a game shrinks so that four fit beside two workers.
        let plan = MemoryPlan::new(&limits(1_125_000_000), true);
        assert_eq!(plan.games, 4);
        assert!(plan.game_limit_bytes < 256 * MIB, "{plan:?}");
        // 4 GiB: the full limit, and as many games as fit.
        let plan = MemoryPlan::new(&limits(4 << 30), true);
        assert_eq!(plan.game_limit_bytes, 256 * MIB);
        assert_eq!(plan.games, 9, "{plan:?}");
    }
}
