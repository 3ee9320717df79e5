//! Tests of the Niel's Chess module: the papers' worked situations, dice frequencies, exact
//! probabilities read from the simulator, notation and FEN round trips, random legal games.

mod endings;
mod figures;
mod hadamard_plus;
mod random_games;
mod statistics;

use crate::ledger::UndoControls;
use crate::niels::{NielsError, NielsGame, NielsMove, NielsPosition, PlayedNiels, RolledMove};
use crate::ruleset::QuantumGame;
use qc_sim::ReferenceSparse;
use rand::SeedableRng;

/// A test game whose dice come from a ChaCha8 generator seeded with the test's seed (the
/// game's own API takes the random source at every move).
pub(crate) struct Seeded {
    game: NielsGame<ReferenceSparse>,
    dice: rand_chacha::ChaCha8Rng,
}

impl Seeded {
    /// A game from `position`, dice seeded with `seed`.
    pub(crate) fn new(position: NielsPosition, seed: u64) -> Result<Seeded, NielsError> {
        Ok(Seeded {
            game: NielsGame::new(position, ReferenceSparse::new())?,
            dice: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
        })
    }

    /// [`QuantumGame::play_text`] with the test's dice.
    pub(crate) fn play_text(&mut self, text: &str) -> Result<&PlayedNiels, NielsError> {
        self.game.play_text(text, &mut self.dice)
    }

    /// [`QuantumGame::play`] with the test's dice (for the rolls not written in).
    pub(crate) fn play_rolled(&mut self, mv: &RolledMove) -> Result<&PlayedNiels, NielsError> {
        self.game.play(mv, &mut self.dice)
    }

    /// [`QuantumGame::play`] of a move without rolls, with the test's dice.
    pub(crate) fn play(&mut self, mv: &NielsMove) -> Result<&PlayedNiels, NielsError> {
        self.game.play(&RolledMove::from(*mv), &mut self.dice)
    }
}

impl std::ops::Deref for Seeded {
    type Target = NielsGame<ReferenceSparse>;
    fn deref(&self) -> &Self::Target {
        &self.game
    }
}

impl std::ops::DerefMut for Seeded {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.game
    }
}

/// A random game seeded with `seed` (moves picked and dice rolled from two ChaCha8 streams).
pub(crate) fn simulate(
    position: NielsPosition,
    seed: u64,
    max_plies: usize,
) -> Result<NielsGame<ReferenceSparse>, NielsError> {
    let mut pick = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    crate::niels::simulate(
        position,
        ReferenceSparse::new(),
        &mut pick,
        &mut dice,
        max_plies,
    )
}

#[test]
fn undo_beyond_its_budget_is_refused_and_changes_nothing() {
    let position = NielsPosition::start(crate::niels::NielsRules::default());
    let mut g = Seeded::new(position, 5).expect("start");
    for text in ["d2d4", "d7d5", "b1^a3c3"] {
        g.play_text(text).expect(text);
    }
    // One byte short of the whole history: the oldest entry goes, the two newest stay.
    let budget = g.game.undo_bytes() - 1;
    g.game.set_undo_budget(Some(budget));
    assert_eq!(g.game.undo_depth(), 2);
    g.game.undo().expect("undo 3");
    g.game.undo().expect("undo 2");
    let fen = g.game.position().to_fen();
    let circuit = g.game.circuit().clone();
    assert!(matches!(
        g.game.undo(),
        Err(NielsError::UndoBeyondBudget { budget_bytes }) if budget_bytes == budget
    ));
    assert_eq!(
        g.game.position().to_fen(),
        fen,
        "a refused undo changes nothing"
    );
    assert_eq!(g.game.circuit(), &circuit);
    assert_eq!(g.game.moves().len(), 1);
}
