//! The search's limits: what `go` asks for (depth, time per move, the clock, nodes, infinite),
//! turned into a deadline that the search checks at every node, and a stop flag another thread
//! may raise (`stop`, `quit`).
//!
//! The budget is time: a search with no limit given gets [`DEFAULT_MOVE_TIME`], and a node or
//! depth limit only ends a search earlier. Only `infinite` searches until stopped (or until
//! [`MAX_DEPTH`] is complete), and only a work limit ([`Limits::work`]) given without any time
//! replaces the clock: such a search is bounded by a count, so that it gives the same answer on
//! any machine under any load (UQCI's `go` and `go depth N`).

use qc_rules::Color;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The deepest iteration searched.
pub const MAX_DEPTH: u32 = 64;

/// The time per move when `go` gives no limit at all.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// What is kept back from a time limit for answering (writing the move, the process being
/// scheduled): a tenth of it, at most this much.
pub const SAFETY_MARGIN: Duration = Duration::from_millis(30);

/// Without `movestogo`, a clock is shared among this many moves.
pub const MOVES_LEFT_GUESS: u32 = 30;

/// What a search may spend.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// The deepest iteration (plies).
    pub depth: Option<u32>,
    /// Exactly this long per move (`go movetime`).
    pub move_time: Option<Duration>,
    /// The side to move's clock (`wtime` or `btime`).
    pub clock: Option<Duration>,
    /// Its increment per move (`winc` or `binc`).
    pub increment: Duration,
    /// Moves until the next time control (`movestogo`).
    pub moves_to_go: Option<u32>,
    /// The most positions visited (`go nodes`).
    pub nodes: Option<u64>,
    /// Search until stopped (`go infinite`).
    pub infinite: bool,
    /// The most work: the basis states of the positions moves are played from, summed (one
    /// move costs about as much as its state is large), as `qc_rules::QuantumGame::search_work`
    /// counts them. Given without a time limit, it is the search's only bound besides the
    /// depth: no clock runs.
    pub work: Option<u64>,
}

impl Limits {
    /// `depth` plies, and no other limit than [`DEFAULT_MOVE_TIME`].
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// `time` per move.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// The time this move may take, `None` for an infinite search. A clock gives its share
    /// (the time left over the moves to go, plus most of the increment), never more than half
    /// of what is left; with no time limit at all (a depth or node limit alone, or nothing)
    /// [`DEFAULT_MOVE_TIME`], unless a work limit bounds the search instead (`None`: no clock).
    pub fn budget(&self) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        if let Some(t) = self.move_time {
            return Some(t);
        }
        if let Some(left) = self.clock {
            let moves = self.moves_to_go.unwrap_or(MOVES_LEFT_GUESS).max(1);
            let share = left / moves + self.increment.mul_f64(0.8);
            return Some(share.min(left / 2));
        }
        if self.work.is_some() {
            return None;
        }
        Some(DEFAULT_MOVE_TIME)
    }

    /// When the thread that answers for a search started at `start` gives the search's best
    /// move so far ([`crate::ontime::Answer`]): half the safety margin after the search's own
    /// deadline, so that a search that ends in time answers itself, with the other half left for
    /// writing the move. `None` for an infinite search.
    pub fn answer_by(&self, start: Instant) -> Option<Instant> {
        self.budget()
            .map(|b| start + b.saturating_sub(margin(b) / 2))
    }

    /// The deepest iteration allowed.
    pub fn max_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// A `go` command as UCI (and UQCI) writes it: `go [depth N] [movetime MS] [wtime MS]
/// [btime MS] [winc MS] [binc MS] [movestogo N] [nodes N] [infinite] [ponder]
/// [searchmoves M1 M2 ...]`, in any order. Negative times (a GUI's clock that ran out) count as
/// zero; `ponder` is accepted and searches as an ordinary `go`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// `depth`.
    pub depth: Option<u32>,
    /// `movetime`, in milliseconds.
    pub move_time: Option<u64>,
    /// `wtime` and `btime`, in milliseconds.
    pub clocks: [Option<u64>; 2],
    /// `winc` and `binc`, in milliseconds.
    pub increments: [u64; 2],
    /// `movestogo`.
    pub moves_to_go: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `searchmoves`: only these root moves (empty: all).
    pub search_moves: Vec<String>,
}

/// A `go` command that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A word that is not one of `go`'s.
    #[error("unknown word `{0}` (depth, movetime, wtime, btime, winc, binc, movestogo, nodes, infinite, ponder, searchmoves)")]
    Unknown(String),
    /// A keyword without its number, or with a number out of range.
    #[error("`{keyword}` needs {expected}")]
    Number {
        /// The keyword.
        keyword: &'static str,
        /// What it takes.
        expected: &'static str,
    },
}

/// The longest time a `go` may ask for (a day; more is taken as this).
const MAX_MS: i64 = 86_400_000;

impl Go {
    /// Reads `go`'s arguments (the words after `go`).
    ///
    /// # Errors
    /// An unknown word, or a keyword without its number.
    pub fn parse(args: &[&str]) -> Result<Go, GoError> {
        let mut go = Go::default();
        let mut words = args.iter().copied().peekable();
        while let Some(word) = words.next() {
            let mut number = |keyword: &'static str, expected: &'static str| {
                words
                    .next()
                    .and_then(|w| w.parse::<i64>().ok())
                    .ok_or(GoError::Number { keyword, expected })
            };
            const MS: &str = "a time in milliseconds";
            let ms = |v: i64| v.clamp(0, MAX_MS) as u64;
            match word {
                "depth" => {
                    let d = number("depth", "a depth from 1 to 64")?;
                    if !(1..=i64::from(MAX_DEPTH)).contains(&d) {
                        return Err(GoError::Number {
                            keyword: "depth",
                            expected: "a depth from 1 to 64",
                        });
                    }
                    go.depth = Some(d as u32);
                }
                "movetime" => go.move_time = Some(ms(number("movetime", MS)?)),
                "wtime" => go.clocks[0] = Some(ms(number("wtime", MS)?)),
                "btime" => go.clocks[1] = Some(ms(number("btime", MS)?)),
                "winc" => go.increments[0] = ms(number("winc", MS)?),
                "binc" => go.increments[1] = ms(number("binc", MS)?),
                "movestogo" => {
                    let n = number("movestogo", "a number of moves from 1")?;
                    go.moves_to_go = Some(n.clamp(1, i64::from(u32::MAX)) as u32);
                }
                "nodes" => {
                    let n = number("nodes", "a number of positions from 1")?;
                    go.nodes = Some(n.max(1) as u64);
                }
                "infinite" => go.infinite = true,
                "ponder" => {}
                "searchmoves" => {
                    while let Some(m) = words.next_if(|w| !GO_WORDS.contains(w)) {
                        go.search_moves.push(m.to_string());
                    }
                }
                other => return Err(GoError::Unknown(other.chars().take(40).collect())),
            }
        }
        Ok(go)
    }

    /// The limits for `side` to move: its clock and increment.
    pub fn limits(&self, side: Color) -> Limits {
        let k = match side {
            Color::White => 0,
            Color::Black => 1,
        };
        Limits {
            depth: self.depth,
            move_time: self.move_time.map(Duration::from_millis),
            clock: self.clocks[k].map(Duration::from_millis),
            increment: Duration::from_millis(self.increments[k]),
            moves_to_go: self.moves_to_go,
            nodes: self.nodes,
            infinite: self.infinite,
            work: None,
        }
    }
}

/// The keywords of `go` (they end a `searchmoves` list).
const GO_WORDS: [&str; 11] = [
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
];

/// What is kept back from a budget `b` for answering: a tenth of it, at most [`SAFETY_MARGIN`].
fn margin(b: Duration) -> Duration {
    (b / 10).min(SAFETY_MARGIN)
}

/// A flag that ends a search from another thread.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises it: the search ends at its next node.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it was raised.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// When a running search must end.
#[derive(Clone, Debug)]
pub struct Deadline {
    start: Instant,
    /// The hard end: no node is started after it.
    end: Option<Instant>,
    /// The budget (for deciding whether another iteration is worth starting).
    budget: Option<Duration>,
    nodes: Option<u64>,
    work: Option<u64>,
    stop: StopFlag,
}

impl Deadline {
    /// The deadline of a search started at `start` under `limits`, ended early by `stop`.
    pub fn new(start: Instant, limits: &Limits, stop: StopFlag) -> Deadline {
        let budget = limits.budget().map(|b| b.saturating_sub(margin(b)));
        Deadline {
            start,
            end: budget.map(|b| start + b),
            budget,
            nodes: limits.nodes,
            work: limits.work,
            stop,
        }
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time spent so far.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the search must end now: past the deadline, over the node limit (`nodes`
    /// visited so far), over the work limit (`work` spent so far, [`Limits::work`]), or stopped.
    pub fn reached(&self, nodes: u64, work: u64) -> bool {
        self.stop.is_raised()
            || self.nodes.is_some_and(|n| nodes >= n)
            || self.work.is_some_and(|w| work >= w)
            || self.end.is_some_and(|end| Instant::now() >= end)
    }

    /// What stops a simulation step inside a move (the stop flag and the hard end), so that
    /// the move in progress at the deadline is given up rather than finished
    /// ([`qc_ir::interrupt`]).
    pub fn interrupt(&self) -> qc_ir::interrupt::Interrupt {
        qc_ir::interrupt::Interrupt::new(self.stop.0.clone(), self.end)
    }

    /// Whether a new iteration is worth starting: the last one took `last`, and the next
    /// usually takes several times as long; one that cannot finish would be thrown away.
    pub fn another_iteration(&self, last: Duration) -> bool {
        match self.budget {
            None => !self.stop.is_raised(),
            Some(budget) => {
                let elapsed = self.elapsed();
                !self.stop.is_raised() && elapsed + last.mul_f64(2.0) < budget
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let ms = Duration::from_millis;
        assert_eq!(Limits::move_time(ms(300)).budget(), Some(ms(300)));
        assert_eq!(Limits::depth(3).budget(), Some(DEFAULT_MOVE_TIME));
        // 300 ms keeps back 30 ms: the search stops at 270 ms, the answer is due at 285 ms.
        let t0 = Instant::now();
        assert_eq!(Limits::move_time(ms(300)).answer_by(t0), Some(t0 + ms(285)));
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(infinite.budget(), None);
        let clock = Limits {
            clock: Some(ms(60_000)),
            increment: ms(1000),
            ..Limits::default()
        };
        assert_eq!(clock.budget(), Some(ms(2000 + 800)));
        let last_move = Limits {
            clock: Some(ms(1000)),
            moves_to_go: Some(1),
            ..Limits::default()
        };
        assert_eq!(last_move.budget(), Some(ms(500)));
    }

    #[test]
    fn go_reads_uci_arguments() {
        let go = Go::parse(&[
            "wtime",
            "60000",
            "btime",
            "-5",
            "winc",
            "1000",
            "binc",
            "0",
            "movestogo",
            "20",
        ])
        .expect("go");
        let white = go.limits(Color::White);
        assert_eq!(white.clock, Some(Duration::from_secs(60)));
        assert_eq!(white.increment, Duration::from_secs(1));
        assert_eq!(white.moves_to_go, Some(20));
        // A clock that ran out (negative) is zero: the move is answered at once.
        assert_eq!(go.limits(Color::Black).clock, Some(Duration::ZERO));
        assert_eq!(go.limits(Color::Black).budget(), Some(Duration::ZERO));
        let go =
            Go::parse(&["searchmoves", "e2e4", "b1^a3c3", "depth", "3", "infinite"]).expect("go");
        assert_eq!(go.search_moves, vec!["e2e4", "b1^a3c3"]);
        assert_eq!(go.depth, Some(3));
        assert!(go.infinite && go.limits(Color::White).budget().is_none());
        assert_eq!(
            Go::parse(&[]).expect("go").limits(Color::White).budget(),
            Some(DEFAULT_MOVE_TIME)
        );
        for (bad, says) in [
            (vec!["depth"], "`depth` needs"),
            (vec!["depth", "0"], "`depth` needs"),
            (vec!["movetime", "soon"], "`movetime` needs"),
            (vec!["mate", "3"], "unknown word `mate`"),
        ] {
            let e = Go::parse(&bad).expect_err("bad").to_string();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_deadline_ends_on_time_on_nodes_and_on_stop() {
        let stop = StopFlag::new();
        let limits = Limits {
            nodes: Some(10),
            ..Limits::move_time(Duration::from_secs(100))
        };
        let d = Deadline::new(Instant::now(), &limits, stop.clone());
        assert!(!d.reached(9, 0));
        assert!(d.reached(10, 0));
        stop.stop();
        assert!(d.reached(0, 0));
        let past = Deadline::new(
            Instant::now() - Duration::from_secs(1),
            &Limits::move_time(Duration::from_millis(10)),
            StopFlag::new(),
        );
        assert!(past.reached(0, 0));
    }

    #[test]
    fn a_work_limit_without_time_runs_no_clock() {
        let limits = Limits {
            work: Some(100),
            ..Limits::depth(2)
        };
        assert_eq!(limits.budget(), None);
        let d = Deadline::new(
            Instant::now() - Duration::from_secs(3600),
            &limits,
            StopFlag::new(),
        );
        assert!(
            !d.reached(1_000_000, 99),
            "an hour later, the work is what ends it"
        );
        assert!(d.reached(0, 100));
        // With a time limit, the time still counts.
        let timed = Limits {
            work: Some(100),
            ..Limits::move_time(Duration::from_millis(300))
        };
        assert_eq!(timed.budget(), Some(Duration::from_millis(300)));
    }
}
