//! The Niel's Chess position: a board of 4x4..8x8 squares holding conventional pieces and
//! indefinite pieces; each indefinite piece belongs to a [`Pair`] (one piece on two squares,
//! Art. 6.1) and each pair to a [`Group`] (itself alone, or an entangled group on one of the two
//! diagonals, Art. 8.3.4). Squares use [`crate::chess::Square`] coordinates (a1 = file 0, rank 0); a
//! smaller board uses the files and ranks below its width and height.

use super::error::InvariantViolation;
use crate::chess::CastlingRights;
use crate::chess::Square;
use crate::chess::{Color, Piece, PieceKind};
use std::collections::BTreeMap;

/// Identifies a pair instance (stable while the pair lives).
pub type PairId = u32;
/// Identifies a group of pairs that collapse together.
pub type GroupId = u32;

/// Which rules apply.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NielsRules {
    /// The full game with free mark facing (mark inversion allowed); `false` is the Simplified
    /// Game (Art. 9: the red mark always faces the opponent), the default.
    pub full_marks: bool,
    /// The Hadamard Game (App. D): opposite facing means "equal superposition with phase",
    /// and the Z and Hadamard moves exist.
    pub hadamard: bool,
    /// The Tunnelling Game (App. E, schools paper App. C): a conventional rook, bishop, queen
    /// or king may try to pass through an adjacent-in-line opponent conventional piece to the
    /// empty square right behind it, succeeding on a roll of 6 (1/6).
    pub tunnelling: bool,
    /// The no-box variant (App. G): an indefinite attacker collapses first, and if it is not
    /// the piece that moved, the attempt ends without collapsing the defender.
    pub no_box: bool,
    /// The Hadamard+ Game (App. E, with [`NielsRules::hadamard`]): the Z move also on entangled
    /// pairs, the Hadamard move also on entangled groups (`docs/niels.md`, "Hadamard+ and
    /// Deterministic Games").
    pub hadamard_plus: bool,
    /// The Deterministic Game (App. E, with [`NielsRules::hadamard_plus`]): an attempted
    /// capture applies Hadamard moves to the pairs involved instead of rolling the dice.
    pub deterministic: bool,
}

impl NielsRules {
    /// The Hadamard+ Game: the Hadamard Game with Z moves on entangled pairs and Hadamard
    /// moves on entangled groups.
    pub fn hadamard_plus() -> NielsRules {
        NielsRules {
            hadamard: true,
            hadamard_plus: true,
            ..NielsRules::default()
        }
    }

    /// The Deterministic Game: the Hadamard+ Game whose attempted captures apply Hadamard
    /// moves instead of rolling the dice.
    pub fn deterministic() -> NielsRules {
        NielsRules {
            deterministic: true,
            ..NielsRules::hadamard_plus()
        }
    }
}

impl std::str::FromStr for NielsRules {
    type Err = super::error::NielsError;

    /// Parses option names joined by `+` or `,`: `simplified` (the default, no change),
    /// `full`, `hadamard`, `hadamard-plus` (implies `hadamard`), `deterministic` (implies
    /// `hadamard-plus`), `tunnelling`, `no-box`; e.g. `full+hadamard`.
    fn from_str(text: &str) -> Result<NielsRules, Self::Err> {
        let mut rules = NielsRules::default();
        for name in text.split(['+', ',']).map(str::trim) {
            match name {
                "simplified" | "" => {}
                "full" => rules.full_marks = true,
                "hadamard" => rules.hadamard = true,
                "hadamard-plus" => {
                    rules.hadamard = true;
                    rules.hadamard_plus = true;
                }
                "deterministic" => {
                    rules.hadamard = true;
                    rules.hadamard_plus = true;
                    rules.deterministic = true;
                }
                "tunnelling" | "tunneling" => rules.tunnelling = true,
                "no-box" | "nobox" => rules.no_box = true,
                other => {
                    return Err(super::error::NielsError::UnknownOption {
                        text: text.to_string(),
                        option: other.to_string(),
                    })
                }
            }
        }
        Ok(rules)
    }
}

impl std::fmt::Display for NielsRules {
    /// The options as [`NielsRules::from_str`](std::str::FromStr) reads them: `simplified`,
    /// or the options joined by `+` (`full+hadamard`); the Hadamard family is written by its
    /// most specific name (`deterministic` implies `hadamard-plus`, which implies `hadamard`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hadamard = if self.deterministic {
            "deterministic"
        } else if self.hadamard_plus {
            "hadamard-plus"
        } else {
            "hadamard"
        };
        let names: Vec<&str> = [
            (self.full_marks, "full"),
            (self.hadamard, hadamard),
            (self.tunnelling, "tunnelling"),
            (self.no_box, "no-box"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        if names.is_empty() {
            f.write_str("simplified")
        } else {
            f.write_str(&names.join("+"))
        }
    }
}

/// What stands on a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A conventional piece.
    Conventional(Piece),
    /// One indefinite piece of a pair.
    Indefinite(PairId),
}

/// An indefinite pair instance: the piece on its red square or on its blue square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// The conventional piece the pair stands for.
    pub piece: Piece,
    /// Square of the piece with the red mark.
    pub red: Square,
    /// Square of the piece with the blue mark.
    pub blue: Square,
    /// Whether the red mark faces the opponent (always true in the Simplified Game).
    pub red_faces_opponent: bool,
    /// Whether the blue mark faces the opponent.
    pub blue_faces_opponent: bool,
    /// The fill pattern of its marks (Art. 6.3): distinct among live pairs of the same piece.
    pub label: u8,
    /// Its group.
    pub group: GroupId,
}

impl Pair {
    /// Equal superposition (both marks face the same side, Art. 7.2).
    pub fn is_equal(&self) -> bool {
        self.red_faces_opponent == self.blue_faces_opponent
    }

    /// The square the pair collapses to on the group's event E (an even roll for equal or
    /// with-phase pairs, 1-4 for unequal ones). Art. 7.5 reduces to: the square of the red
    /// mark if it faces the opponent, else the blue one (equal player-facing swaps red/blue;
    /// unequal goes to the opponent-facing mark).
    pub fn event_square(&self) -> Square {
        if self.red_faces_opponent {
            self.red
        } else {
            self.blue
        }
    }

    /// Where the pair collapses given the event.
    pub fn square_on(&self, event: bool) -> Square {
        let e = self.event_square();
        match (event, e == self.red) {
            (true, _) => e,
            (false, true) => self.blue,
            (false, false) => self.red,
        }
    }

    /// The probability of the event E for this pair: 1/2 for equal superpositions and for every
    /// pair of the Hadamard Game, 4/6 for unequal ones.
    pub fn event_probability(&self, rules: NielsRules) -> f64 {
        if self.is_equal() || rules.hadamard {
            0.5
        } else {
            2.0 / 3.0
        }
    }

    /// The other square of the pair.
    pub fn partner(&self, square: Square) -> Square {
        if square == self.red {
            self.blue
        } else {
            self.red
        }
    }
}

/// Pairs that collapse together on one roll.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Group {
    /// Its pairs, in the order they joined.
    pub pairs: Vec<PairId>,
    /// The diagonal (1 = +45 degrees, 2 = -45 degrees) of an entangled group; `None` for a
    /// lone pair.
    pub diagonal: Option<u8>,
}

/// A Niel's Chess position.
#[derive(Clone, Debug, PartialEq)]
pub struct NielsPosition {
    /// Number of files (4..=8).
    pub width: u8,
    /// Number of ranks (4..=8).
    pub height: u8,
    /// The cells, indexed by `Square::index()` (squares off a small board stay empty).
    pub cells: [Cell; 64],
    /// Live pairs.
    pub pairs: BTreeMap<PairId, Pair>,
    /// Live groups.
    pub groups: BTreeMap<GroupId, Group>,
    /// Next free pair/group id.
    pub next_id: u32,
    /// Side to move.
    pub side_to_move: Color,
    /// Castling rights (only used on the 8x8 board).
    pub castling: CastlingRights,
    /// En passant target square (after a conventional double step).
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// Move number.
    pub fullmove_number: u32,
    /// The rules in force.
    pub rules: NielsRules,
}

impl NielsPosition {
    /// An empty board of the given size (caller checks 4..=8).
    pub fn empty(width: u8, height: u8, rules: NielsRules) -> NielsPosition {
        NielsPosition {
            width,
            height,
            cells: [Cell::Empty; 64],
            pairs: BTreeMap::new(),
            groups: BTreeMap::new(),
            next_id: 0,
            side_to_move: Color::White,
            castling: CastlingRights::default(),
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            rules,
        }
    }

    /// A bound on the heap bytes the position holds (its pair and group tables), for the undo
    /// history's budget.
    pub fn heap_bytes(&self) -> usize {
        let group_lists: usize = self
            .groups
            .values()
            .map(|g| g.pairs.capacity() * std::mem::size_of::<PairId>())
            .sum();
        crate::undo::btree_map_bytes(&self.pairs)
            + crate::undo::btree_map_bytes(&self.groups)
            + group_lists
    }

    /// The square at `(file, rank)` if it is on this board.
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < self.width as i32 && rank < self.height as i32 {
            Square::from_coords(file, rank)
        } else {
            None
        }
    }

    /// True if the square is on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.file() < self.width as i32 && square.rank() < self.height as i32
    }

    /// All squares of this board, a1 first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        Square::ALL.into_iter().filter(|s| self.contains(*s))
    }

    /// What stands on `square`.
    pub fn cell(&self, square: Square) -> Cell {
        self.cells[square.index()]
    }

    /// The piece on `square`, conventional or indefinite.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        match self.cell(square) {
            Cell::Empty => None,
            Cell::Conventional(p) => Some(p),
            Cell::Indefinite(id) => self.pairs.get(&id).map(|p| p.piece),
        }
    }

    /// The pair whose piece stands on `square`, if any.
    pub fn pair_at(&self, square: Square) -> Option<(PairId, &Pair)> {
        match self.cell(square) {
            Cell::Indefinite(id) => self.pairs.get(&id).map(|p| (id, p)),
            _ => None,
        }
    }

    /// The group of a pair.
    pub fn group_of(&self, pair: PairId) -> Option<&Group> {
        self.pairs
            .get(&pair)
            .and_then(|p| self.groups.get(&p.group))
    }

    /// True if the pair is entangled with at least one other pair.
    pub fn is_entangled(&self, pair: PairId) -> bool {
        self.group_of(pair).is_some_and(|g| g.pairs.len() > 1)
    }

    /// A diagonal not used by an entangled group, if any (Art. 8.3 step 2).
    pub fn free_diagonal(&self) -> Option<u8> {
        [1u8, 2]
            .into_iter()
            .find(|d| !self.groups.values().any(|g| g.diagonal == Some(*d)))
    }

    /// The probability of the event E of a group (all its pairs share the superposition type).
    pub fn group_event_probability(&self, group: GroupId) -> f64 {
        self.groups
            .get(&group)
            .and_then(|g| g.pairs.first())
            .and_then(|id| self.pairs.get(id))
            .map_or(0.5, |p| p.event_probability(self.rules))
    }

    /// The lowest mark pattern not used by a live pair of `piece` (Art. 6.3).
    pub fn free_label(&self, piece: Piece) -> u8 {
        (1u8..)
            .find(|l| {
                !self
                    .pairs
                    .values()
                    .any(|p| p.piece == piece && p.label == *l)
            })
            .unwrap_or(1)
    }

    /// Places a new pair in a new lone group and returns its id.
    pub fn add_pair(&mut self, mut pair: Pair) -> PairId {
        let id = self.next_id;
        let group = self.next_id + 1;
        self.next_id += 2;
        pair.group = group;
        self.cells[pair.red.index()] = Cell::Indefinite(id);
        self.cells[pair.blue.index()] = Cell::Indefinite(id);
        self.pairs.insert(id, pair);
        self.groups.insert(
            group,
            Group {
                pairs: vec![id],
                diagonal: None,
            },
        );
        id
    }

    /// Moves `pair` into the group of `target`, giving a lone target group a diagonal.
    pub fn join_group(&mut self, pair: PairId, target: PairId) {
        let (Some(old), Some(new)) = (
            self.pairs.get(&pair).map(|p| p.group),
            self.pairs.get(&target).map(|p| p.group),
        ) else {
            return;
        };
        if old == new {
            return;
        }
        let diagonal = self.free_diagonal();
        self.groups.remove(&old);
        if let Some(g) = self.groups.get_mut(&new) {
            if g.diagonal.is_none() {
                g.diagonal = diagonal;
            }
            g.pairs.push(pair);
        }
        if let Some(p) = self.pairs.get_mut(&pair) {
            p.group = new;
        }
    }

    /// Collapses every pair of `group` with the event outcome: each pair is replaced by its
    /// conventional piece on the square it collapsed to.
    pub fn collapse_group(&mut self, group: GroupId, event: bool) {
        let Some(g) = self.groups.remove(&group) else {
            return;
        };
        for id in g.pairs {
            if let Some(pair) = self.pairs.remove(&id) {
                let keep = pair.square_on(event);
                let gone = pair.partner(keep);
                self.cells[gone.index()] = Cell::Empty;
                self.cells[keep.index()] = Cell::Conventional(pair.piece);
            }
        }
    }

    /// Whether the group's quantum state is `(|e> - |ē>)/sqrt 2` rather than `(|e> + |ē>)/sqrt 2`
    /// (`e` = every pair on its event square): an odd number of its pairs are "equal with
    /// phase" (one mark facing each side). Exact for a lone pair in every Hadamard game, and
    /// for every group of the Hadamard+ and Deterministic Games, whose entanglement moves and
    /// Z moves keep it so (`docs/niels.md`).
    pub fn group_phase_odd(&self, group: GroupId) -> bool {
        self.groups.get(&group).is_some_and(|g| {
            g.pairs
                .iter()
                .filter(|id| self.pairs.get(id).is_some_and(|p| !p.is_equal()))
                .count()
                % 2
                == 1
        })
    }

    /// Collapses every pair of `group` to the square a Hadamard move measured: pair *i* of the
    /// group (in join order) goes to its blue square iff `on_blue[i]`.
    pub fn collapse_measured(&mut self, group: GroupId, on_blue: &[bool]) {
        let Some(g) = self.groups.remove(&group) else {
            return;
        };
        for (id, blue) in g.pairs.iter().zip(on_blue) {
            if let Some(pair) = self.pairs.remove(id) {
                let (keep, gone) = if *blue {
                    (pair.blue, pair.red)
                } else {
                    (pair.red, pair.blue)
                };
                self.cells[gone.index()] = Cell::Empty;
                self.cells[keep.index()] = Cell::Conventional(pair.piece);
            }
        }
    }

    /// Squares holding a king (piece) of `color`.
    pub fn king_squares(&self, color: Color) -> Vec<Square> {
        self.squares()
            .filter(|s| self.piece_at(*s) == Some(Piece::new(color, PieceKind::King)))
            .collect()
    }

    /// Number of entangled groups (at most 2, Art. 8.3.4).
    pub fn entangled_group_count(&self) -> usize {
        self.groups.values().filter(|g| g.pairs.len() > 1).count()
    }

    /// Checks the structural invariants: every pair's two squares point back at it, the two
    /// squares differ, groups and pairs refer to each other, pairs of one piece have distinct
    /// labels (pawns excepted), at most two entangled groups on distinct diagonals, pawn pairs
    /// have red on the farther rank. Returns the first violation.
    pub fn check_invariants(&self) -> Result<(), InvariantViolation> {
        for (id, p) in &self.pairs {
            if p.red == p.blue {
                return Err(InvariantViolation::SameSquares {
                    pair: *id,
                    square: p.red,
                });
            }
            for s in [p.red, p.blue] {
                if self.cell(s) != Cell::Indefinite(*id) || !self.contains(s) {
                    return Err(InvariantViolation::SquareElsewhere {
                        pair: *id,
                        square: s,
                    });
                }
            }
            if !self
                .groups
                .get(&p.group)
                .is_some_and(|g| g.pairs.contains(id))
            {
                return Err(InvariantViolation::NotInGroup { pair: *id });
            }
            if !self.rules.full_marks && !p.red_faces_opponent {
                return Err(InvariantViolation::RedFacesOwner { pair: *id });
            }
            if p.piece.kind == PieceKind::Pawn {
                let forward = |s: Square| match p.piece.color {
                    Color::White => s.rank(),
                    Color::Black => -s.rank(),
                };
                if forward(p.red) <= forward(p.blue) {
                    return Err(InvariantViolation::PawnOrder { pair: *id });
                }
            } else if self
                .pairs
                .iter()
                .any(|(o, q)| o != id && q.piece == p.piece && q.label == p.label)
            {
                return Err(InvariantViolation::SharedLabel {
                    piece: p.piece,
                    label: p.label,
                });
            }
        }
        for s in self.squares() {
            if let Cell::Indefinite(id) = self.cell(s) {
                if !self
                    .pairs
                    .get(&id)
                    .is_some_and(|p| p.red == s || p.blue == s)
                {
                    return Err(InvariantViolation::DeadPair {
                        square: s,
                        pair: id,
                    });
                }
            }
        }
        for (gid, g) in &self.groups {
            if g.pairs.is_empty() {
                return Err(InvariantViolation::EmptyGroup { group: *gid });
            }
            if (g.pairs.len() > 1) != g.diagonal.is_some() {
                return Err(InvariantViolation::DiagonalMismatch { group: *gid });
            }
            let types: Vec<bool> = g
                .pairs
                .iter()
                .filter_map(|p| self.pairs.get(p))
                .map(|p| p.is_equal() || self.rules.hadamard)
                .collect();
            if types.windows(2).any(|w| w[0] != w[1]) {
                return Err(InvariantViolation::MixedGroup { group: *gid });
            }
        }
        if self.entangled_group_count() > 2 {
            return Err(InvariantViolation::TooManyGroups);
        }
        Ok(())
    }
}
