//! One module per subcommand.

pub mod arena;
pub mod board;
pub mod compile;
pub mod counts;
pub mod draw;
pub mod moves;
pub mod play;
pub mod route;
pub mod run;
pub mod serve;
pub mod simulate;
