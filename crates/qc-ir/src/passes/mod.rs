//! Exact rewrites of circuits, run before simulation and export: the pass manager
//! ([`optimize`]), recognising runs of gates as the table gate they amount to ([`blocks`]), and
//! recognising one small unitary ([`recognise`]).

pub mod blocks;
pub mod optimize;
pub mod recognise;

pub use blocks::{recognise_blocks, BlockReport};
pub use optimize::{optimize, OptimizeReport};
pub use recognise::{recognise, recognise_unitary, Recognised};
