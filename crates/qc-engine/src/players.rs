//! Players: the engine and the baselines it is measured against, behind one interface, and
//! their names as a match tool reads them (`engine`, `engine:depth=2`, `greedy`, `random`,
//! `sampler:samples=16`).
//!
//! - **engine**: the search ([`crate::search`]) with the full evaluation;
//! - **greedy**: one ply of expected material (each move's outcomes weighted by their exact
//!   probabilities), the best at once;
//! - **random**: a legal move picked uniformly;
//! - **sampler**: in the style of the official app's first AI: for each move and outcome, sample
//!   classical boards from the exact distribution of the position after it (which squares are
//!   occupied, ancillas summed out) and evaluate each as a chess board, the move scored by the
//!   outcome-weighted mean.

use crate::eval::{evaluate, Weights, WIN};
use crate::game::EngineGame;
use crate::limits::{Deadline, Limits, StopFlag};
use crate::search::{SearchConfig, Searcher};
use qc_rules::ruleset::SquareView;
use qc_rules::{BoardView, Square, Status};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;
use std::time::Instant;
use thiserror::Error;

/// Something that picks moves.
pub trait Player<G: EngineGame> {
    /// Its name as a match reports it.
    fn name(&self) -> String;

    /// The move to play in `game` (as the game lists it) within `limits`; `None` when there is
    /// no legal move. The game is left as it was.
    ///
    /// # Errors
    /// Playing or taking back a trial move failed.
    fn choose(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
    ) -> Result<Option<G::Move>, G::Error>;

    /// A new game starts: forget what was learned about the last one.
    fn new_game(&mut self) {}
}

/// The engine: [`Searcher`] under the limits given.
pub struct EnginePlayer {
    searcher: Searcher,
    depth: Option<u32>,
}

impl EnginePlayer {
    /// The engine with `config`, searching at most `depth` plies when given.
    pub fn new(config: SearchConfig, depth: Option<u32>) -> EnginePlayer {
        EnginePlayer {
            searcher: Searcher::new(config),
            depth,
        }
    }
}

impl<G: EngineGame> Player<G> for EnginePlayer {
    fn name(&self) -> String {
        match self.depth {
            Some(d) => format!("engine:depth={d}"),
            None => "engine".into(),
        }
    }

    fn choose(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
    ) -> Result<Option<G::Move>, G::Error> {
        let mut limits = limits.clone();
        if let Some(d) = self.depth {
            limits.depth = Some(limits.depth.map_or(d, |l| l.min(d)));
        }
        Ok(self.searcher.search(game, &limits, stop, &mut |_| {})?.best)
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

/// A legal move picked uniformly at random.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// Picks with a generator seeded by `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: EngineGame> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        game: &mut G,
        _limits: &Limits,
        _stop: StopFlag,
    ) -> Result<Option<G::Move>, G::Error> {
        let mut moves = game.legal_moves();
        // A listed move the game then refuses (a global phase only) is dropped.
        while !moves.is_empty() {
            let m = moves.swap_remove(self.rng.gen_range(0..moves.len()));
            if game.move_outcomes(&m.mv).is_ok_and(|o| !o.is_empty()) {
                return Ok(Some(m.mv));
            }
        }
        Ok(None)
    }
}

/// One ply of expected material.
pub struct GreedyPlayer {
    searcher: Searcher,
}

impl GreedyPlayer {
    /// The greedy mover.
    pub fn new() -> GreedyPlayer {
        GreedyPlayer {
            searcher: Searcher::new(SearchConfig {
                weights: Weights::MATERIAL,
                table_bytes: 1 << 16,
            }),
        }
    }
}

impl Default for GreedyPlayer {
    fn default() -> Self {
        GreedyPlayer::new()
    }
}

impl<G: EngineGame> Player<G> for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
    ) -> Result<Option<G::Move>, G::Error> {
        let limits = Limits {
            depth: Some(1),
            ..limits.clone()
        };
        Ok(self.searcher.search(game, &limits, stop, &mut |_| {})?.best)
    }
}

/// Classical boards sampled from the position after each move, each evaluated as chess.
pub struct SamplerPlayer {
    samples: usize,
    rng: ChaCha8Rng,
}

/// The sampler's number of boards per outcome when not given.
pub const DEFAULT_SAMPLES: usize = 8;

impl SamplerPlayer {
    /// Samples `samples` boards per outcome with a generator seeded by `seed`.
    pub fn new(samples: usize, seed: u64) -> SamplerPlayer {
        SamplerPlayer {
            samples: samples.max(1),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The mean value of `samples` classical boards drawn from `game`'s position, for the side
    /// to move there.
    fn sampled_value<G: EngineGame>(&mut self, game: &G) -> f64 {
        let view = game.board_view(false);
        let boards = classical_boards(game, &view);
        if boards.is_empty() {
            return evaluate(&view, &Weights::FULL);
        }
        let mut total = 0.0;
        for _ in 0..self.samples {
            let u: f64 = self.rng.gen();
            let mut acc = 0.0;
            let mut pick = &boards[boards.len() - 1].0;
            for (board, p) in &boards {
                acc += p;
                if u < acc {
                    pick = board;
                    break;
                }
            }
            total += evaluate(pick, &Weights::FULL);
        }
        total / self.samples as f64
    }
}

/// The classical boards a measurement of every square could give, with their probabilities:
/// from the game's exact distribution where it has one (Quantum Chess), else each square
/// sampled on its own (Niel's Chess, whose pieces are in boxes: each indefinite piece's two
/// squares are one or the other, which the per-square view does not say; the pairs are read
/// from the view).
fn classical_boards<G: EngineGame>(game: &G, view: &BoardView) -> Vec<(BoardView, f64)> {
    let certain = |piece: char| SquareView {
        piece,
        probability: 1.0,
        mark: None,
    };
    if let Some(distribution) = game.board_distribution() {
        return distribution
            .into_iter()
            .map(|(named, p)| {
                let mut board = BoardView::new(view.width, view.height, view.side_to_move);
                for token in named.split_whitespace() {
                    let mut chars = token.chars();
                    let (Some(piece), Some(square)) = (chars.next(), Square::parse(chars.as_str()))
                    else {
                        continue;
                    };
                    board.squares[square.index()] = Some(certain(piece));
                }
                (board, p)
            })
            .collect();
    }
    // Niel's Chess: conventional pieces stay, each pair is on its red square or its blue one.
    let mut base = BoardView::new(view.width, view.height, view.side_to_move);
    for sq in view.board_squares() {
        if let Some(s) = view.get(sq).filter(|s| s.probability >= 1.0 - 1e-9) {
            base.squares[sq.index()] = Some(certain(s.piece));
        }
    }
    let mut boards = vec![(base, 1.0)];
    for pair in view.pairs.iter().take(10) {
        boards = boards
            .into_iter()
            .flat_map(|(board, p)| {
                [(pair.red, pair.p_red), (pair.blue, 1.0 - pair.p_red)]
                    .into_iter()
                    .filter(|(_, q)| *q > 0.0)
                    .map(move |(square, q)| {
                        let mut b = board.clone();
                        b.squares[square.index()] = Some(certain(pair.piece));
                        (b, p * q)
                    })
            })
            .collect();
    }
    boards
}

impl<G: EngineGame> Player<G> for SamplerPlayer {
    fn name(&self) -> String {
        format!("sampler:samples={}", self.samples)
    }

    fn choose(
        &mut self,
        game: &mut G,
        limits: &Limits,
        stop: StopFlag,
    ) -> Result<Option<G::Move>, G::Error> {
        let deadline = Deadline::new(Instant::now(), limits, stop);
        let side = game.side_to_move();
        let mut best: Option<(f64, G::Move)> = None;
        let mut fixed = ChaCha8Rng::seed_from_u64(0);
        for m in game.legal_moves() {
            if best.is_some() && deadline.reached(0, 0) {
                break;
            }
            let Ok(outcomes) = game.move_outcomes(&m.mv) else {
                continue;
            };
            let mut score = 0.0;
            for outcome in &outcomes {
                game.play(&outcome.mv, &mut fixed)?;
                let value = match game.status() {
                    Status::Ongoing => -self.sampled_value(game),
                    Status::Win(winner, _) if winner == side => WIN,
                    Status::Win(..) => -WIN,
                    Status::Draw(_) => 0.0,
                };
                game.undo()?;
                score += outcome.probability * value;
            }
            if !outcomes.is_empty() && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, m.mv));
            }
        }
        Ok(best.map(|(_, text)| text))
    }
}

/// A player as a match tool names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// The engine, at most `depth` plies deep when given.
    Engine {
        /// The deepest iteration.
        depth: Option<u32>,
    },
    /// One ply of expected material.
    Greedy,
    /// A uniformly random legal move.
    Random,
    /// Sampled classical boards.
    Sampler {
        /// Boards per outcome.
        samples: usize,
    },
}

/// A player name that does not read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PlayerSpecError {
    /// Not one of the players.
    #[error("unknown player `{0}` (engine, greedy, random, sampler; e.g. engine:depth=2, sampler:samples=16)")]
    Unknown(String),
    /// An option the player does not have, or a value that is not a number in range.
    #[error("player `{player}`: bad option `{option}` ({expected})")]
    BadOption {
        /// The player.
        player: String,
        /// The option as written.
        option: String,
        /// What it takes.
        expected: &'static str,
    },
}

impl FromStr for PlayerSpec {
    type Err = PlayerSpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let options: Vec<&str> = options.split(',').filter(|o| !o.is_empty()).collect();
        let bad = |option: &str, expected| PlayerSpecError::BadOption {
            player: name.to_string(),
            option: option.chars().take(40).collect(),
            expected,
        };
        let number = |option: &str, key: &str, range: std::ops::RangeInclusive<u64>| {
            option
                .strip_prefix(key)
                .and_then(|v| v.strip_prefix('='))
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|v| range.contains(v))
        };
        match name {
            "engine" => {
                let mut depth = None;
                for o in options {
                    let d = number(o, "depth", 1..=u64::from(crate::limits::MAX_DEPTH))
                        .ok_or_else(|| bad(o, "depth=N, N from 1 to 64"))?;
                    depth = Some(d as u32);
                }
                Ok(PlayerSpec::Engine { depth })
            }
            "sampler" => {
                let mut samples = DEFAULT_SAMPLES;
                for o in options {
                    samples = number(o, "samples", 1..=4096)
                        .ok_or_else(|| bad(o, "samples=N, N from 1 to 4096"))?
                        as usize;
                }
                Ok(PlayerSpec::Sampler { samples })
            }
            "greedy" | "random" => match options.first() {
                Some(o) => Err(bad(o, "this player has no options")),
                None if name == "greedy" => Ok(PlayerSpec::Greedy),
                None => Ok(PlayerSpec::Random),
            },
            other => Err(PlayerSpecError::Unknown(other.chars().take(40).collect())),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Engine { depth: None } => f.write_str("engine"),
            PlayerSpec::Engine { depth: Some(d) } => write!(f, "engine:depth={d}"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Sampler { samples } => write!(f, "sampler:samples={samples}"),
        }
    }
}

impl PlayerSpec {
    /// The player, its random choices seeded by `seed`.
    pub fn build<G: EngineGame>(&self, seed: u64) -> Box<dyn Player<G>> {
        match *self {
            PlayerSpec::Engine { depth } => {
                Box::new(EnginePlayer::new(SearchConfig::default(), depth))
            }
            PlayerSpec::Greedy => Box::new(GreedyPlayer::new()),
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Sampler { samples } => Box::new(SamplerPlayer::new(samples, seed)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for text in [
            "engine",
            "engine:depth=3",
            "greedy",
            "random",
            "sampler:samples=16",
        ] {
            let spec: PlayerSpec = text.parse().expect(text);
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "sampler".parse::<PlayerSpec>(),
            Ok(PlayerSpec::Sampler {
                samples: DEFAULT_SAMPLES
            })
        );
        assert!(matches!(
            "engine:depth=0".parse::<PlayerSpec>(),
            Err(PlayerSpecError::BadOption { .. })
        ));
        assert!(matches!(
            "greedy:depth=2".parse::<PlayerSpec>(),
            Err(PlayerSpecError::BadOption { .. })
        ));
        assert!(matches!(
            "stockfish".parse::<PlayerSpec>(),
            Err(PlayerSpecError::Unknown(_))
        ));
    }
}
