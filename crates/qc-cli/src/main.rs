//! `qchess`: the Quantum Chess compiler and simulator command line.
fn main() {}
