//! Each side's clock: the time the game spent with that side to move, measured by the server.
//! A move's time runs from the moment the move before it was played (or the game was set up, or
//! a move was taken back) until it is played; a side's clock is the sum of its moves' times plus,
//! while the game goes on, the time of the turn running now. Moves replayed from a game file
//! took no time here; taking a move back takes its time back too. There is no time limit: the
//! clocks only say how long each side took.

use qc_rules::Color;
use serde::Serialize;
use std::time::{Duration, Instant};

/// The times of a game's moves and of the turn running now.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The time each move of the game took, in order.
    spent: Vec<Duration>,
    /// When the turn running now began.
    turn_began: Instant,
}

/// The clocks as the API shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClockView {
    /// White's time, in milliseconds (the turn running now included when it is White's).
    pub white_ms: u64,
    /// Black's time, in milliseconds.
    pub black_ms: u64,
    /// The side whose clock runs (`white`, `black`); `None` once the game is over.
    pub running: Option<&'static str>,
}

impl Clock {
    /// The clock of a game set up now with `moves` moves already played (replayed: no time).
    pub fn new(moves: usize) -> Clock {
        Clock {
            spent: vec![Duration::ZERO; moves],
            turn_began: Instant::now(),
        }
    }

    /// A move was played: the turn running now ends with it, and the next one begins.
    pub fn moved(&mut self) {
        let now = Instant::now();
        self.spent
            .push(now.saturating_duration_since(self.turn_began));
        self.turn_began = now;
    }

    /// The last move was taken back, with its time; a new turn begins now.
    pub fn took_back(&mut self) {
        self.spent.pop();
        self.turn_began = Instant::now();
    }

    /// The clocks when the moves were played by `movers` (in order) and `running` is to move
    /// (`None`: the game is over, no clock runs).
    pub fn view(&self, movers: impl Iterator<Item = Color>, running: Option<Color>) -> ClockView {
        let mut totals = [Duration::ZERO; 2];
        let index = |side: Color| usize::from(side == Color::Black);
        for (spent, mover) in self.spent.iter().zip(movers) {
            totals[index(mover)] += *spent;
        }
        if let Some(side) = running {
            totals[index(side)] += self.turn_began.elapsed();
        }
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        ClockView {
            white_ms: millis(totals[0]),
            black_ms: millis(totals[1]),
            running: running.map(crate::view::side_word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_adds_up_its_own_moves_and_a_take_back_removes_the_last() {
        let mut clock = Clock::new(0);
        clock.spent = vec![
            Duration::from_millis(100),
            Duration::from_millis(20),
            Duration::from_millis(300),
        ];
        let movers = [Color::White, Color::Black, Color::White];
        let stopped = clock.view(movers.into_iter(), None);
        assert_eq!((stopped.white_ms, stopped.black_ms), (400, 20));
        assert_eq!(stopped.running, None);
        clock.took_back();
        let stopped = clock.view(movers.into_iter(), None);
        assert_eq!((stopped.white_ms, stopped.black_ms), (100, 20));
        // A running clock adds the turn running now to its own side only (at least 0 ms).
        let running = clock.view(movers.into_iter(), Some(Color::Black));
        assert_eq!(running.white_ms, 100);
        assert!(running.black_ms >= 20);
        assert_eq!(running.running, Some("black"));
    }

    #[test]
    fn replayed_moves_took_no_time() {
        let clock = Clock::new(3);
        let view = clock.view([Color::White, Color::Black, Color::White].into_iter(), None);
        assert_eq!((view.white_ms, view.black_ms), (0, 0));
    }
}
