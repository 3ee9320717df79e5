//! Applying a move to a position (Art. 7-8): the classical bookkeeping of every move, with the
//! quantum side (creating pairs, rolling the dice, inversions, Z and Hadamard moves) delegated
//! to a [`QuantumOps`]. The game engine's ops run a circuit; [`NielsPosition::outcomes`] uses
//! scripted ops to enumerate every collapse outcome a move can have, with its probability.

use super::error::{Inconsistency, NielsError};
use super::moves::NielsMove;
use super::position::{Cell, NielsPosition, Pair, PairId};
use crate::chess::Square;
use crate::chess::{Color, Piece, PieceKind};

/// The quantum side of a move. Every method is told the position at that moment.
pub trait QuantumOps {
    /// A pair was just created (superposition move), or created and joined to the group of
    /// `joined` (entanglement move).
    fn created(
        &mut self,
        pos: &NielsPosition,
        pair: PairId,
        joined: Option<PairId>,
    ) -> Result<(), NielsError>;
    /// Both marks of the pair turned (Art. 7.7).
    fn inverted(&mut self, pos: &NielsPosition, pair: PairId) -> Result<(), NielsError>;
    /// One mark of the pair turned (Z move).
    fn z_move(&mut self, pos: &NielsPosition, pair: PairId) -> Result<(), NielsError>;
    /// Hadamard move on the group of `pair` (a lone pair, or in the Hadamard+ Game an entangled
    /// group): a Hadamard gate on every pair of the group, then each is measured in join order.
    /// Returns, for each pair of the group in that order, whether it lands on its blue square.
    /// The outcome of the last pair is certain (the parity of the blue outcomes is
    /// [`NielsPosition::group_phase_odd`]); the others are fair coins.
    fn hadamard(&mut self, pos: &NielsPosition, pair: PairId) -> Result<Vec<bool>, NielsError>;
    /// A dice roll for `pair`: returns the event E of its group (Pair::event_square). The
    /// caller then collapses the whole group in tandem (Art. 8.4).
    fn roll(&mut self, pos: &NielsPosition, pair: PairId) -> Result<bool, NielsError>;
    /// A tunnelling attempt from `from` to `to`: returns success (probability 1/6).
    fn tunnel(&mut self, pos: &NielsPosition, from: Square, to: Square)
        -> Result<bool, NielsError>;
}

/// The chance that a tunnelling attempt succeeds (a roll of 6).
pub const TUNNEL_PROBABILITY: f64 = 1.0 / 6.0;

/// One possible result of a move.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The square each rolled pair collapsed to, in roll order.
    pub rolls: Vec<Square>,
    /// Its probability.
    pub probability: f64,
    /// The position after the move.
    pub position: NielsPosition,
}

/// Scripted ops: events come from a list; asking beyond it marks the script as short.
struct Script<'a> {
    events: &'a [bool],
    used: usize,
    short: bool,
    probability: f64,
}

impl QuantumOps for Script<'_> {
    fn created(
        &mut self,
        _: &NielsPosition,
        _: PairId,
        _: Option<PairId>,
    ) -> Result<(), NielsError> {
        Ok(())
    }
    fn inverted(&mut self, _: &NielsPosition, _: PairId) -> Result<(), NielsError> {
        Ok(())
    }
    fn z_move(&mut self, _: &NielsPosition, _: PairId) -> Result<(), NielsError> {
        Ok(())
    }
    fn hadamard(&mut self, pos: &NielsPosition, pair: PairId) -> Result<Vec<bool>, NielsError> {
        let Some(group) = pos.pairs.get(&pair).map(|p| p.group) else {
            return Ok(Vec::new());
        };
        let size = pos.groups.get(&group).map_or(0, |g| g.pairs.len());
        let mut on_blue = Vec::with_capacity(size);
        for _ in 1..size {
            on_blue.push(self.next_event(0.5)?);
        }
        on_blue.push(blue_parity(&on_blue) != pos.group_phase_odd(group));
        Ok(on_blue)
    }
    fn roll(&mut self, pos: &NielsPosition, pair: PairId) -> Result<bool, NielsError> {
        let p = pos
            .pairs
            .get(&pair)
            .map_or(0.5, |p| pos.group_event_probability(p.group));
        self.next_event(p)
    }
    fn tunnel(&mut self, _: &NielsPosition, _: Square, _: Square) -> Result<bool, NielsError> {
        self.next_event(TUNNEL_PROBABILITY)
    }
}

impl Script<'_> {
    fn next_event(&mut self, p: f64) -> Result<bool, NielsError> {
        match self.events.get(self.used) {
            Some(e) => {
                self.used += 1;
                self.probability *= if *e { p } else { 1.0 - p };
                Ok(*e)
            }
            None => {
                self.short = true;
                Ok(false)
            }
        }
    }
}

/// True if an odd number of the outcomes are blue.
pub fn blue_parity(on_blue: &[bool]) -> bool {
    on_blue.iter().filter(|b| **b).count() % 2 == 1
}

fn missing(what: &'static str, square: Square) -> NielsError {
    Inconsistency::Missing { what, square }.into()
}

impl NielsPosition {
    /// Every outcome of `mv` with probabilities summing to 1: at most 4 (two rolls), or in the
    /// Hadamard+ and Deterministic Games 2^(n-1) per entangled group of n pairs a Hadamard move
    /// measures.
    pub fn outcomes(&self, mv: &NielsMove) -> Result<Vec<Outcome>, NielsError> {
        let mut out = Vec::new();
        let mut stack: Vec<Vec<bool>> = vec![Vec::new()];
        while let Some(events) = stack.pop() {
            let mut script = Script {
                events: &events,
                used: 0,
                short: false,
                probability: 1.0,
            };
            let (position, rolls) = self.apply_move(mv, &mut script)?;
            if script.short {
                for e in [true, false] {
                    let mut longer = events.clone();
                    longer.push(e);
                    stack.push(longer);
                }
            } else {
                out.push(Outcome {
                    rolls,
                    probability: script.probability,
                    position,
                });
            }
        }
        Ok(out)
    }

    /// Applies `mv` (assumed legal; checked by the caller) and returns the new position and
    /// the square each rolled pair collapsed to.
    pub fn apply_move(
        &self,
        mv: &NielsMove,
        ops: &mut dyn QuantumOps,
    ) -> Result<(NielsPosition, Vec<Square>), NielsError> {
        let mut next = self.clone();
        let mut rolls = Vec::new();
        let mover = self.side_to_move;
        let mut irreversible = false;
        match *mv {
            NielsMove::Step {
                from,
                to,
                promotion,
            } => {
                let piece = self.piece_at(from).ok_or_else(|| missing("piece", from))?;
                irreversible = piece.kind == PieceKind::Pawn || self.piece_at(to).is_some();
                next.step(from, to, promotion, ops, &mut rolls)?;
            }
            NielsMove::Superpose {
                from,
                red,
                blue,
                facing,
                promotion,
            }
            | NielsMove::Entangle {
                from,
                red,
                blue,
                facing,
                promotion,
                ..
            } => {
                let Cell::Conventional(mut piece) = self.cell(from) else {
                    return Err(missing("conventional piece", from));
                };
                irreversible = piece.kind == PieceKind::Pawn;
                if let Some(k) = promotion {
                    piece.kind = k;
                }
                next.cells[from.index()] = Cell::Empty;
                let label = next.free_label(piece);
                let id = next.add_pair(Pair {
                    piece,
                    red,
                    blue,
                    red_faces_opponent: facing.red_opponent,
                    blue_faces_opponent: facing.blue_opponent,
                    label,
                    group: 0,
                });
                let joined = match *mv {
                    NielsMove::Entangle { target, .. } => {
                        let (tid, _) = self
                            .pair_at(target)
                            .ok_or_else(|| missing("pair", target))?;
                        next.join_group(id, tid);
                        Some(tid)
                    }
                    _ => None,
                };
                ops.created(&next, id, joined)?;
            }
            NielsMove::Invert { square } => {
                let (id, _) = self
                    .pair_at(square)
                    .ok_or_else(|| missing("pair", square))?;
                if let Some(p) = next.pairs.get_mut(&id) {
                    p.red_faces_opponent = !p.red_faces_opponent;
                    p.blue_faces_opponent = !p.blue_faces_opponent;
                }
                ops.inverted(&next, id)?;
            }
            NielsMove::ZMove { square } => {
                let (id, pair) = self
                    .pair_at(square)
                    .ok_or_else(|| missing("pair", square))?;
                let red = pair.red == square;
                if let Some(p) = next.pairs.get_mut(&id) {
                    if red {
                        p.red_faces_opponent = !p.red_faces_opponent;
                    } else {
                        p.blue_faces_opponent = !p.blue_faces_opponent;
                    }
                }
                ops.z_move(&next, id)?;
            }
            NielsMove::Tunnel { from, to } => {
                let through = ops.tunnel(&next, from, to)?;
                rolls.push(if through { to } else { from });
                if through {
                    next.relocate(from, to);
                }
            }
            NielsMove::Hadamard { square } => {
                let (id, _) = self
                    .pair_at(square)
                    .ok_or_else(|| missing("pair", square))?;
                next.hadamard_group(id, ops, &mut rolls)?;
            }
        }
        next.finish_move(mv, mover, irreversible);
        Ok((next, rolls))
    }

    /// Hadamard move(s) on the group of `pair` and its collapse to what they measured; the
    /// squares of the outcomes that were not certain (every pair but the last of an entangled
    /// group) are appended to `rolls`.
    fn hadamard_group(
        &mut self,
        pair: PairId,
        ops: &mut dyn QuantumOps,
        rolls: &mut Vec<Square>,
    ) -> Result<(), NielsError> {
        let Some(group) = self.pairs.get(&pair).map(|p| p.group) else {
            return Ok(());
        };
        let members = self
            .groups
            .get(&group)
            .map(|g| g.pairs.clone())
            .unwrap_or_default();
        let on_blue = ops.hadamard(self, pair)?;
        if on_blue.len() != members.len() || blue_parity(&on_blue) != self.group_phase_odd(group) {
            return Err(Inconsistency::HadamardParity {
                pairs: members.len(),
                on_blue,
            }
            .into());
        }
        for (id, blue) in members
            .iter()
            .zip(&on_blue)
            .take(members.len().saturating_sub(1))
        {
            if let Some(p) = self.pairs.get(id) {
                rolls.push(if *blue { p.blue } else { p.red });
            }
        }
        self.collapse_measured(group, &on_blue);
        Ok(())
    }

    /// Rolls for `pair` and collapses its group, recording the square it went to; in the
    /// Deterministic Game the attempted capture applies Hadamard moves to the group instead.
    fn roll_pair(
        &mut self,
        pair: PairId,
        ops: &mut dyn QuantumOps,
        rolls: &mut Vec<Square>,
    ) -> Result<(), NielsError> {
        if self.rules.deterministic {
            return self.hadamard_group(pair, ops, rolls);
        }
        let Some(p) = self.pairs.get(&pair).cloned() else {
            return Ok(());
        };
        let event = ops.roll(self, pair)?;
        rolls.push(p.square_on(event));
        self.collapse_group(p.group, event);
        Ok(())
    }

    fn step(
        &mut self,
        from: Square,
        to: Square,
        promotion: Option<PieceKind>,
        ops: &mut dyn QuantumOps,
        rolls: &mut Vec<Square>,
    ) -> Result<(), NielsError> {
        let attacker_cell = self.cell(from);
        let piece = self.piece_at(from).ok_or_else(|| missing("piece", from))?;
        let defender_cell = self.cell(to);
        let target_is_enemy = self.piece_at(to).is_some_and(|p| p.color != piece.color);
        if let Some(victim) = self.en_passant_victim(piece, from, to) {
            self.en_passant_capture(piece, from, to, victim, ops, rolls)?;
        } else if defender_cell == Cell::Empty {
            if let Cell::Conventional(_) = attacker_cell {
                self.special_step(piece, from, to);
            }
            self.relocate(from, to);
        } else if target_is_enemy {
            let attacker_first = self.rules.no_box && matches!(attacker_cell, Cell::Indefinite(_));
            if attacker_first {
                if let Cell::Indefinite(a) = attacker_cell {
                    self.roll_pair(a, ops, rolls)?;
                }
                let arrived = matches!(self.cell(from), Cell::Conventional(p) if p == piece);
                // App. G: the attempt is aborted; the defender's pair keeps its superposition
                // unless it collapsed in tandem with the attacker's.
                if arrived {
                    if let Cell::Indefinite(d) = self.cell(to) {
                        self.roll_pair(d, ops, rolls)?;
                    }
                }
            } else {
                if let Cell::Indefinite(d) = defender_cell {
                    self.roll_pair(d, ops, rolls)?;
                }
                if let Cell::Indefinite(a) = attacker_cell {
                    self.roll_pair(a, ops, rolls)?;
                }
            }
            // After the collapses: the attacker arrives iff a conventional piece of its side
            // stands on `from` (it collapsed to the square it left from).
            let arrives = matches!(self.cell(from), Cell::Conventional(p) if p == piece);
            if arrives {
                self.cells[to.index()] = Cell::Empty;
                self.relocate(from, to);
            }
        } else {
            return Err(Inconsistency::OwnPiece { from, to }.into());
        }
        if let Some(k) = promotion {
            // Only the mover's pawn promotes: when a capture is aborted (App. G), `to` still
            // holds the defender, whose piece must stay what it was.
            match self.cell(to) {
                Cell::Conventional(p) if p == piece => {
                    self.cells[to.index()] = Cell::Conventional(Piece::new(p.color, k));
                }
                Cell::Indefinite(id) if self.pairs.get(&id).is_some_and(|p| p.piece == piece) => {
                    let label = self.free_label(Piece::new(piece.color, k));
                    if let Some(p) = self.pairs.get_mut(&id) {
                        p.piece.kind = k;
                        p.label = label;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Castling moves the rook; en passant removes the passed pawn.
    fn special_step(&mut self, piece: Piece, from: Square, to: Square) {
        let df = to.file() - from.file();
        if piece.kind == PieceKind::King && df.abs() == 2 {
            let (rook_from, rook_to) = if df > 0 {
                (
                    self.square(self.width as i32 - 1, from.rank()),
                    self.square(from.file() + 1, from.rank()),
                )
            } else {
                (
                    self.square(0, from.rank()),
                    self.square(from.file() - 1, from.rank()),
                )
            };
            if let (Some(a), Some(b)) = (rook_from, rook_to) {
                self.relocate(a, b);
            }
        }
    }

    /// The square of the pawn an en passant step `from`-`to` captures, if it is one.
    pub fn en_passant_victim(&self, piece: Piece, from: Square, to: Square) -> Option<Square> {
        let diagonal = piece.kind == PieceKind::Pawn && from.file() != to.file();
        if !diagonal || self.cell(to) != Cell::Empty || Some(to) != self.en_passant {
            return None;
        }
        self.square(to.file(), from.rank()).filter(|v| {
            self.piece_at(*v) == Some(Piece::new(piece.color.opponent(), PieceKind::Pawn))
        })
    }

    /// En passant (FIDE 3.7.3, Art. 7.9, 8.5): the pawn lands on the skipped square and attempts
    /// to capture the pawn piece beside it, as though that piece stood on the skipped square.
    /// Indefinite pawns roll like any attempted capture (the victim's pair first).
    fn en_passant_capture(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        victim: Square,
        ops: &mut dyn QuantumOps,
        rolls: &mut Vec<Square>,
    ) -> Result<(), NielsError> {
        if let Cell::Indefinite(d) = self.cell(victim) {
            self.roll_pair(d, ops, rolls)?;
        }
        if let Cell::Indefinite(a) = self.cell(from) {
            self.roll_pair(a, ops, rolls)?;
        }
        let arrives = matches!(self.cell(from), Cell::Conventional(p) if p == piece);
        if arrives {
            self.relocate(from, to);
            if matches!(self.cell(victim), Cell::Conventional(p) if p.kind == PieceKind::Pawn && p.color != piece.color)
            {
                self.cells[victim.index()] = Cell::Empty;
            }
        }
        Ok(())
    }

    /// Moves whatever stands on `from` to the empty `to`.
    fn relocate(&mut self, from: Square, to: Square) {
        let cell = self.cell(from);
        self.cells[from.index()] = Cell::Empty;
        self.cells[to.index()] = cell;
        if let Cell::Indefinite(id) = cell {
            if let Some(p) = self.pairs.get_mut(&id) {
                if p.red == from {
                    p.red = to;
                } else {
                    p.blue = to;
                }
            }
        }
    }

    fn finish_move(&mut self, mv: &NielsMove, mover: Color, irreversible: bool) {
        self.en_passant = None;
        // A pawn piece that just advanced two squares (by a step, or in a superposition or
        // entanglement first move, Art. 7.9, 8.5) may be taken en passant on the skipped
        // square, if that square is empty.
        let advanced: Vec<(Square, Square)> = match *mv {
            NielsMove::Step { from, to, .. } => vec![(from, to)],
            NielsMove::Superpose {
                from, red, blue, ..
            }
            | NielsMove::Entangle {
                from, red, blue, ..
            } => vec![(from, red), (from, blue)],
            _ => vec![],
        };
        for (from, to) in advanced {
            let pawn = self.piece_at(to).is_some_and(|p| p.kind == PieceKind::Pawn);
            if pawn && (to.rank() - from.rank()).abs() == 2 && from.file() == to.file() {
                let skipped = self.square(from.file(), (from.rank() + to.rank()) / 2);
                if skipped.is_some_and(|s| self.cell(s) == Cell::Empty) {
                    self.en_passant = skipped;
                }
            }
        }
        for s in mv.castling_squares() {
            self.castling = self.castling.without(s);
        }
        self.halfmove_clock = if irreversible {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if mover == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side_to_move = mover.opponent();
    }
}
