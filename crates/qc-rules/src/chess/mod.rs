//! Chess itself, the same for every ruleset: squares ([`square`]), colours and pieces with their FEN letters
//! ([`piece`]), castling rights ([`castling`]), the FEN move counters ([`counters`]) and how the
//! pieces move on an empty board ([`movement`]). Nothing here knows about superposition, circuits
//! or a ruleset's notation: Quantum Chess (`crate::cantwell`) and Niel's Chess
//! (`crate::niels`) both build on it.

pub mod castling;
pub mod counters;
pub mod movement;
pub mod piece;
pub mod square;

pub use castling::{CastlingError, CastlingRights};
pub use counters::{first_ply, parse_move_counter, CounterError, MAX_FEN_COUNTER};
pub use piece::{Color, Piece, PieceKind};
pub use square::Square;
