//! # qc-engine: a Quantum Chess engine
//!
//! A search for both rulesets (Quantum Chess and Niel's Chess) that sees a game only through
//! [`qc_rules::QuantumGame`] and two small additions ([`game::EngineGame`]: the squares a move
//! names, a key of the position), so it runs on any [`qc_ir::Backend`]:
//!
//! - [`search`]: expectimax over measurement outcomes, alpha-beta on the players' choices and
//!   Star1 on the chance nodes, a transposition table keyed by the quantum state ([`tt`]), move
//!   ordering, iterative deepening;
//! - [`limits`]: the time control (`go movetime`, a clock, `depth`, `nodes`, `infinite`), a
//!   deadline checked before every move the search plays, and a stop flag;
//! - [`mate`]: mate distances, proved (a search score near a win may be a win in all but a
//!   sliver of the outcomes);
//! - [`ontime`]: the best move so far, published by a search on one thread and answered at the
//!   deadline by another, however long the node the search is in;
//! - [`eval`]: the evaluation from the board's probabilities (material, king safety under
//!   superposition, hanging pieces, mobility, placement);
//! - [`players`]: the engine and the baselines (random, greedy one-ply, classical-board
//!   sampler) behind one interface;
//! - [`arena`] and [`elo`]: matches from varied openings with both colours, score and Elo
//!   difference with a confidence interval.
//!
//! The official Quantum Chess app's custom-AI protocol, a front end of this search, is
//! `qc_front::sdk`.

pub mod arena;
pub mod elo;
pub mod eval;
pub mod game;
pub mod limits;
pub mod mate;
pub mod ontime;
pub mod players;
pub mod search;
pub mod tt;

pub use game::EngineGame;
pub use limits::{Go, GoError, Limits, StopFlag};
pub use ontime::Answer;
pub use players::{Player, PlayerSpec};
pub use search::{Found, Iteration, RootLine, SearchConfig, Searcher};
