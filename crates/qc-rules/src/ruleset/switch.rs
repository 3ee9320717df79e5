//! What a protocol front end (UQCI) asks of a ruleset beyond playing moves: the rule switches a
//! GUI may set, the draw counters it shows and what a draw claim measured. Each ruleset answers
//! for itself here, so a front end names no ruleset.

/// A rule switch a GUI may set (UQCI's `setoption`), off by default.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Switch {
    /// `forceturn`: each move is played by the owner of the moved piece.
    ForceTurn,
    /// `forcewin`: a missing king does not end the game.
    ForceWin,
}

impl Switch {
    /// Every switch, in the order a front end lists them.
    pub const ALL: [Switch; 2] = [Switch::ForceTurn, Switch::ForceWin];

    /// The switch's name as an option (`forceturn`).
    pub fn name(self) -> &'static str {
        match self {
            Switch::ForceTurn => "forceturn",
            Switch::ForceWin => "forcewin",
        }
    }
}

/// The draw counters of a position and the ending a measurement decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Endings {
    /// Plies counted towards the fifty-move rule.
    pub fifty: u32,
    /// A draw the player may claim now (`repetition`), if any.
    pub claimable: Option<&'static str>,
    /// The ending a measurement of every square decided, when one did (Quantum Chess).
    pub measured: Option<&'static str>,
}

/// What a draw claim did: every square measured, and the ending that gave.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// The ending claimed (`repetition`).
    pub ending: &'static str,
    /// The measured occupancy (bit k = square k).
    pub bitboard: u64,
}

/// `claimed repetition: measured every square, board 0x...`, as the text front ends show it.
impl std::fmt::Display for Claimed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "claimed {}: measured every square, board {:#018x}",
            self.ending, self.bitboard
        )
    }
}
