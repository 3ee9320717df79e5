//! One module per subcommand.

pub mod draw;
pub mod run;
