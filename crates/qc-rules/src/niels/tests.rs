//! Tests of the Niel's Chess module: the papers' worked situations, dice frequencies, exact
//! probabilities read from the simulator, notation and FEN round trips, random legal games.

mod endings;
mod figures;
mod random_games;
mod statistics;
