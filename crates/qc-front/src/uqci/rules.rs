//! What a UQCI session needs of a ruleset beyond `qc_rules::Ruleset` and `QuantumGame`: which
//! of the `force...` options have a meaning and how they are set, the draw counters of the
//! `status` reply, and `claim`.
//! Everything else the session does through the common interface (docs/uqci.md).

use qc_ir::Backend;
use qc_rules::{Cantwell, Niels, Ruleset};

/// The game a session drives: the ruleset's game on the simulator `--backend` names.
pub type Engine<R, B> = <R as Ruleset>::Game<B>;

/// A rule switch a GUI sets with `setoption` (besides `forcemeasure` and `seed`, which every
/// ruleset has).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Force {
    /// `forceturn`: each move is played by the owner of the moved piece.
    Turn,
    /// `forcewin`: a missing king does not end the game.
    Win,
}

impl Force {
    /// Both switches, in the order `uci` lists them.
    pub const ALL: [Force; 2] = [Force::Turn, Force::Win];

    /// The option's name.
    pub fn name(self) -> &'static str {
        match self {
            Force::Turn => "forceturn",
            Force::Win => "forcewin",
        }
    }
}

/// The draw counters and ending the `status` reply shows.
pub struct Endings {
    /// Plies counted towards the fifty-move rule.
    pub fifty: u32,
    /// A draw the player may claim now (`repetition`), if any.
    pub claimable: Option<&'static str>,
    /// The ending a measurement of every square decided, when one did (Quantum Chess).
    pub measured: Option<&'static str>,
}

/// A ruleset as UQCI drives it.
pub trait UqciRules: Ruleset {
    /// The ruleset's name in messages.
    const TITLE: &'static str;

    /// The most positions `go depth 2` may visit (beyond it depth 1 answers), chosen so that a
    /// search stays within a few seconds: a Niel's position costs far more to play (legality
    /// looks at every collapse outcome) than a Quantum Chess one.
    const SEARCH_BUDGET: usize;

    /// Why `force` has no meaning in this ruleset (`None`: it applies).
    fn force_unsupported(force: Force) -> Option<&'static str>;

    /// Sets the switches that apply on `game` (the others are always off).
    fn set_force<B: Backend>(game: &mut Engine<Self, B>, force_turn: bool, force_win: bool);

    /// The counters and ending `status` shows.
    fn endings<B: Backend>(game: &Engine<Self, B>) -> Endings;

    /// Claims a draw: the `claim` reply line, or why there is nothing to claim.
    fn claim<B: Backend>(
        game: &mut Engine<Self, B>,
        rng: &mut dyn rand::RngCore,
    ) -> Result<String, String>;
}

impl UqciRules for Cantwell {
    const TITLE: &'static str = "Quantum Chess";
    const SEARCH_BUDGET: usize = 250_000;

    fn force_unsupported(_: Force) -> Option<&'static str> {
        None
    }

    fn set_force<B: Backend>(game: &mut Engine<Self, B>, force_turn: bool, force_win: bool) {
        game.set_force_turn(force_turn);
        game.set_force_win(force_win);
    }

    fn endings<B: Backend>(game: &Engine<Self, B>) -> Endings {
        Endings {
            fifty: game.fifty_move_counter().plies,
            claimable: game.claimable().map(|e| e.as_str()),
            measured: game.full_measurement().map(|m| m.ending.as_str()),
        }
    }

    fn claim<B: Backend>(
        game: &mut Engine<Self, B>,
        rng: &mut dyn rand::RngCore,
    ) -> Result<String, String> {
        let mut uniform = || rand::Rng::gen::<f64>(rng);
        game.claim_with(&mut uniform)
            .map(|m| format!("claim {} board {:#018x}", m.ending.as_str(), m.bitboard))
            .map_err(|e| e.to_string())
    }
}

impl UqciRules for Niels {
    const TITLE: &'static str = "Niel's Chess";
    const SEARCH_BUDGET: usize = 6_000;

    fn force_unsupported(force: Force) -> Option<&'static str> {
        Some(match force {
            Force::Turn => {
                "legality (no move may leave one's own king in check) is decided for \
                 the side to move, so a move out of turn has no meaning"
            }
            Force::Win => {
                "a king is never captured (the game ends by checkmate), so no \
                 king can go missing"
            }
        })
    }

    fn set_force<B: Backend>(_: &mut Engine<Self, B>, _: bool, _: bool) {
        // Neither switch applies (see `force_unsupported`); they stay off.
    }

    fn endings<B: Backend>(game: &Engine<Self, B>) -> Endings {
        Endings {
            fifty: game.position().halfmove_clock,
            claimable: None,
            measured: None,
        }
    }

    fn claim<B: Backend>(
        _: &mut Engine<Self, B>,
        _: &mut dyn rand::RngCore,
    ) -> Result<String, String> {
        Err(
            "nothing to claim in Niel's Chess: its draws (threefold repetition, fifty moves) \
             end the game at once"
                .into(),
        )
    }
}
