//! Legality (Art. 6.2, 7.6, 8.1-8.9): pseudo-legal move generation for every Niel's move, check
//! as "a hypothetical capture of the king has a non-zero chance" (Art. 8.7), the rule that no
//! move may *possibly* expose or leave one's king in check (every collapse outcome is checked,
//! Art. 7.6), the diagonal rule (at most two entangled groups) and the game's end.

use super::error::IllegalReason;
use super::moves::{Facing, NielsMove, NielsMoveKind};
use super::position::{Cell, NielsPosition};
use crate::chess::Square;
use crate::chess::{Castling, Color, Piece, PieceKind};
use crate::ruleset::{DrawReason, RightLost, Status, WinReason};

const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
];

impl NielsPosition {
    /// Whether the piece on `from` capturing the piece on `to` would succeed with non-zero
    /// chance: the attacker's pair must collapse to `from` and the defender's to `to`; only
    /// pairs of one entangled group can make that impossible.
    pub fn capture_can_succeed(&self, from: Square, to: Square) -> bool {
        if self.rules.deterministic {
            return self.induced_capture_can_succeed(from, to);
        }
        match (self.pair_at(from), self.pair_at(to)) {
            (Some((_, a)), Some((_, d))) if a.group == d.group => [true, false]
                .into_iter()
                .any(|e| a.square_on(e) == from && d.square_on(e) == to),
            _ => true,
        }
    }

    /// [`NielsPosition::capture_can_succeed`] in the Deterministic Game, where the attempt
    /// applies Hadamard moves to the defender's and the attacker's groups: a group of n pairs
    /// then lands on each configuration whose number of blue squares has the parity
    /// [`NielsPosition::group_phase_odd`], with chance 2^-(n-1) each. The capture can succeed
    /// iff each group involved has such a configuration with the attacker on `from` and the
    /// defender on `to`: always when the group has a pair the capture does not constrain,
    /// otherwise only if the constrained squares have the group's parity.
    pub fn induced_capture_can_succeed(&self, from: Square, to: Square) -> bool {
        // (group, pair must land on blue) for each indefinite piece involved.
        let needs: Vec<(super::position::GroupId, bool)> = [from, to]
            .into_iter()
            .filter_map(|s| self.pair_at(s).map(|(_, p)| (p.group, s == p.blue)))
            .collect();
        needs.iter().all(|(group, _)| {
            let size = self.groups.get(group).map_or(0, |g| g.pairs.len());
            let constrained: Vec<bool> = needs
                .iter()
                .filter(|(g, _)| g == group)
                .map(|(_, blue)| *blue)
                .collect();
            constrained.len() < size
                || super::apply::blue_parity(&constrained) == self.group_phase_odd(*group)
        })
    }

    /// True if a king (piece) of `color` is in check (Art. 8.7).
    pub fn in_check(&self, color: Color) -> bool {
        let kings = self.king_squares(color);
        self.squares().any(|s| {
            self.piece_at(s).is_some_and(|p| {
                p.color != color
                    && self
                        .attacks(p, s)
                        .into_iter()
                        .any(|t| kings.contains(&t) && self.capture_can_succeed(s, t))
            })
        })
    }

    fn last_rank(&self, color: Color) -> i32 {
        match color {
            Color::White => self.height as i32 - 1,
            Color::Black => 0,
        }
    }

    fn promotions_for(&self, piece: Piece, squares: &[Square]) -> Vec<Option<PieceKind>> {
        if piece.kind == PieceKind::Pawn
            && squares
                .iter()
                .any(|s| s.rank() == self.last_rank(piece.color))
        {
            PROMOTIONS.iter().map(|k| Some(*k)).collect()
        } else {
            vec![None]
        }
    }

    fn facings(&self, equal: Option<bool>) -> Vec<Facing> {
        let all: Vec<Facing> = if self.rules.full_marks {
            [(true, true), (false, false), (true, false), (false, true)]
                .into_iter()
                .map(|(r, b)| Facing {
                    red_opponent: r,
                    blue_opponent: b,
                })
                .collect()
        } else {
            vec![Facing::EQUAL, Facing::UNEQUAL]
        };
        all.into_iter()
            .filter(|f| equal.is_none_or(|e| f.is_equal() == e))
            .collect()
    }

    /// Every move of the side to move that obeys movement rules, before the check rule.
    pub fn pseudo_moves(&self) -> Vec<NielsMove> {
        let me = self.side_to_move;
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(piece) = self.piece_at(from).filter(|p| p.color == me) else {
                continue;
            };
            let quiet = self.quiet_targets(piece, from);
            let mut steps: Vec<Square> = quiet.clone();
            steps.extend(
                self.attacks(piece, from)
                    .into_iter()
                    .filter(|t| self.piece_at(*t).is_some_and(|p| p.color != me)),
            );
            let conventional = matches!(self.cell(from), Cell::Conventional(_));
            if let Some(ep) = self.en_passant {
                if self.attacks(piece, from).contains(&ep)
                    && self.en_passant_victim(piece, from, ep).is_some()
                {
                    steps.push(ep);
                }
            }
            if conventional && piece.kind == PieceKind::King {
                steps.extend(self.castling_targets(from));
            }
            for to in steps {
                for promotion in self.promotions_for(piece, &[to]) {
                    out.push(NielsMove::Step {
                        from,
                        to,
                        promotion,
                    });
                }
            }
            if conventional && self.rules.tunnelling {
                for to in self.tunnel_targets(piece, from) {
                    out.push(NielsMove::Tunnel { from, to });
                }
            }
            if conventional {
                self.superpositions(piece, from, &quiet, &mut out);
                self.entanglements(piece, from, &quiet, &mut out);
            } else {
                self.pair_moves(piece, from, &mut out);
            }
        }
        out
    }

    fn castling_targets(&self, from: Square) -> Vec<Square> {
        if self.width != 8 || self.height != 8 || from.file() != 4 {
            return vec![];
        }
        let me = self.side_to_move;
        let rank = if me == Color::White { 0 } else { 7 };
        if from.rank() != rank {
            return vec![];
        }
        let c = self.castling;
        let (king_side, queen_side) = match me {
            Color::White => (c.white_kingside, c.white_queenside),
            Color::Black => (c.black_kingside, c.black_queenside),
        };
        let rook = Cell::Conventional(Piece::new(me, PieceKind::Rook));
        let mut out = Vec::new();
        for (allowed, rook_file, empty, safe, to) in [
            (king_side, 7, &[5, 6][..], &[4, 5, 6][..], 6),
            (queen_side, 0, &[1, 2, 3][..], &[4, 3, 2][..], 2),
        ] {
            let sq = |f: i32| self.square(f, rank);
            let ok = allowed
                && sq(rook_file).is_some_and(|s| self.cell(s) == rook)
                && empty
                    .iter()
                    .all(|f| sq(*f).is_some_and(|s| self.cell(s) == Cell::Empty))
                && safe
                    .iter()
                    .all(|f| sq(*f).is_some_and(|s| !self.is_attacked_by(s, me.opponent())));
            if let (true, Some(t)) = (ok, sq(to)) {
                out.push(t);
            }
        }
        out
    }

    /// Art. 7.3: a pawn pair's red piece is on the rank farther from its start.
    fn pawn_order_ok(piece: Piece, red: Square, blue: Square) -> bool {
        piece.kind != PieceKind::Pawn
            || match piece.color {
                Color::White => red.rank() > blue.rank(),
                Color::Black => red.rank() < blue.rank(),
            }
    }

    fn superpositions(
        &self,
        piece: Piece,
        from: Square,
        quiet: &[Square],
        out: &mut Vec<NielsMove>,
    ) {
        let mut spots = quiet.to_vec();
        spots.push(from);
        for &red in &spots {
            for &blue in &spots {
                if red == blue || !Self::pawn_order_ok(piece, red, blue) {
                    continue;
                }
                for facing in self.facings(None) {
                    for promotion in self.promotions_for(piece, &[red, blue]) {
                        out.push(NielsMove::Superpose {
                            from,
                            red,
                            blue,
                            facing,
                            promotion,
                        });
                    }
                }
            }
        }
    }

    fn entanglements(
        &self,
        piece: Piece,
        from: Square,
        quiet: &[Square],
        out: &mut Vec<NielsMove>,
    ) {
        for &to in quiet {
            // The new pieces' attacks are judged with both of them on the board.
            let mut probe = self.clone();
            probe.cells[to.index()] = Cell::Conventional(piece);
            let mut seen_groups = Vec::new();
            for s in [from, to] {
                for x in probe.attacks(piece, s) {
                    let Some((_, target)) = self.pair_at(x) else {
                        continue;
                    };
                    if target.piece.color == piece.color || seen_groups.contains(&target.group) {
                        continue;
                    }
                    seen_groups.push(target.group);
                    let entangled = self
                        .groups
                        .get(&target.group)
                        .is_some_and(|g| g.pairs.len() > 1);
                    if !entangled && self.free_diagonal().is_none() {
                        continue;
                    }
                    for (red, blue) in [(from, to), (to, from)] {
                        if !Self::pawn_order_ok(piece, red, blue) {
                            continue;
                        }
                        for facing in self.facings(Some(target.is_equal())) {
                            for promotion in self.promotions_for(piece, &[red, blue]) {
                                out.push(NielsMove::Entangle {
                                    from,
                                    red,
                                    blue,
                                    target: x,
                                    facing,
                                    promotion,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    fn pair_moves(&self, piece: Piece, square: Square, out: &mut Vec<NielsMove>) {
        let Some((id, pair)) = self.pair_at(square) else {
            return;
        };
        let entangled = self.is_entangled(id);
        if square == pair.red {
            let near = self.one_move_away(piece, pair.red, pair.blue)
                || self.one_move_away(piece, pair.blue, pair.red);
            let differs = entangled || (!pair.is_equal() && !self.rules.hadamard);
            if self.rules.full_marks && near && differs {
                out.push(NielsMove::Invert { square });
            }
            if self.rules.hadamard && near && (!entangled || self.rules.hadamard_plus) {
                out.push(NielsMove::Hadamard { square });
            }
        }
        // The Simplified Game keeps red facing the opponent: only the blue mark may turn. The
        // Hadamard+ Game allows the Z move on entangled pairs too (App. E), on the blue mark
        // only: the red mark's facing says which square the group's roll sends the pair to
        // (Art. 7.5), and a Z gate changes no square's chance, so turning it would make the
        // marks tell a correlation the state does not have.
        let blue_mark = square == pair.blue;
        if self.rules.hadamard
            && (!entangled || (self.rules.hadamard_plus && blue_mark))
            && (self.rules.full_marks || blue_mark)
        {
            out.push(NielsMove::ZMove { square });
        }
    }

    /// The generated form of a move: an inversion or Hadamard move named by the blue piece's
    /// square is named by the red one; an entanglement move names the group it joins by any of
    /// its pieces and is given the representative target the generator uses.
    pub fn canonical(&self, mv: &NielsMove) -> NielsMove {
        match *mv {
            NielsMove::Entangle {
                from,
                red,
                blue,
                target,
                facing,
                promotion,
            } => {
                let group = self.pair_at(target).map(|(_, p)| p.group);
                let joins_same_group = |m: &NielsMove| match *m {
                    NielsMove::Entangle {
                        from: f,
                        red: r,
                        blue: b,
                        target: t,
                        facing: fa,
                        promotion: pr,
                    } => {
                        (f, r, b, fa, pr) == (from, red, blue, facing, promotion)
                            && group.is_some()
                            && self.pair_at(t).map(|(_, p)| p.group) == group
                    }
                    _ => false,
                };
                self.pseudo_moves()
                    .into_iter()
                    .find(joins_same_group)
                    .unwrap_or(*mv)
            }
            NielsMove::Invert { square } => NielsMove::Invert {
                square: self.pair_at(square).map_or(square, |(_, p)| p.red),
            },
            NielsMove::Hadamard { square } => NielsMove::Hadamard {
                square: self.pair_at(square).map_or(square, |(_, p)| p.red),
            },
            other => other,
        }
    }

    /// An attempted capture of the opponent's king piece with a non-zero chance (Art. 6.2.1;
    /// zero-chance attempts are allowed, Art. 8.9).
    fn could_capture_king(&self, mv: &NielsMove) -> bool {
        let NielsMove::Step { from, to, .. } = *mv else {
            return false;
        };
        let king = self
            .piece_at(to)
            .is_some_and(|p| p.kind == PieceKind::King && p.color != self.side_to_move);
        king && self.capture_can_succeed(from, to)
    }

    /// The castling `mv` would be, when it is the king's castling step on the 8x8 board and the
    /// side to move has no right to it.
    fn castling_without_right(&self, mv: &NielsMove) -> Option<Castling> {
        let NielsMove::Step { from, to, .. } = *mv else {
            return None;
        };
        let king = Piece::new(self.side_to_move, PieceKind::King);
        let castling = Castling::of_king_step(from, to)?;
        let home = self.width == 8 && self.height == 8 && castling.color == self.side_to_move;
        (home && self.piece_at(from) == Some(king) && !castling.allowed_by(self.castling))
            .then_some(castling)
    }

    /// Why `mv` is illegal, or `None` if it is legal.
    pub fn illegal_reason(&self, mv: &NielsMove) -> Option<IllegalReason> {
        let mv = &self.canonical(mv);
        if !self.pseudo_moves().contains(mv) {
            return Some(match self.castling_without_right(mv) {
                Some(castling) => IllegalReason::NoCastlingRight {
                    castling,
                    // The game names the move that lost it; the position alone does not know.
                    lost: RightLost::Unknown,
                },
                None => IllegalReason::NotAMove,
            });
        }
        if self.could_capture_king(mv) {
            return Some(IllegalReason::CapturesKing);
        }
        let me = self.side_to_move;
        match self.outcomes(mv) {
            Err(e) => Some(IllegalReason::Unplayable(Box::new(e))),
            Ok(outcomes) => outcomes
                .into_iter()
                .find(|o| o.position.in_check(me))
                .map(|o| IllegalReason::LeavesKingInCheck { rolls: o.rolls }),
        }
    }

    /// The kind of `mv` in this position, as `moves` groups them and the JSON names them:
    /// `move`, `capture`, `castling`, `superposition`, `entanglement`, `mark_inversion`,
    /// `z_move`, `hadamard`, `tunnelling`.
    pub fn move_kind(&self, mv: &NielsMove) -> NielsMoveKind {
        match *mv {
            NielsMove::Step { from, to, .. } => {
                let king = self
                    .piece_at(from)
                    .is_some_and(|p| p.kind == PieceKind::King);
                if self.piece_at(to).is_some() || self.pair_at(to).is_some() {
                    NielsMoveKind::Capture
                } else if king && (from.file() - to.file()).abs() == 2 {
                    NielsMoveKind::Castling
                } else {
                    NielsMoveKind::Move
                }
            }
            NielsMove::Superpose { .. } => NielsMoveKind::Superposition,
            NielsMove::Entangle { .. } => NielsMoveKind::Entanglement,
            NielsMove::Invert { .. } => NielsMoveKind::MarkInversion,
            NielsMove::ZMove { .. } => NielsMoveKind::ZMove,
            NielsMove::Hadamard { .. } => NielsMoveKind::Hadamard,
            NielsMove::Tunnel { .. } => NielsMoveKind::Tunnelling,
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self) -> Vec<NielsMove> {
        self.pseudo_moves()
            .into_iter()
            .filter(|mv| self.pseudo_move_is_legal(mv))
            .collect()
    }

    /// Whether the side to move has a legal move: [`NielsPosition::legal_moves`] stopped at the
    /// first one found. The game's status asks this of every position a search visits, and
    /// each candidate's legality plays out all its roll outcomes.
    pub fn has_legal_move(&self) -> bool {
        self.pseudo_moves()
            .into_iter()
            .any(|mv| self.pseudo_move_is_legal(&mv))
    }

    /// Whether `mv`, one of [`NielsPosition::pseudo_moves`], is legal: it cannot capture a king,
    /// and no outcome of it leaves the mover's king in check.
    pub(super) fn pseudo_move_is_legal(&self, mv: &NielsMove) -> bool {
        let me = self.side_to_move;
        !self.could_capture_king(mv)
            && self
                .outcomes(mv)
                .is_ok_and(|os| os.iter().all(|o| !o.position.in_check(me)))
    }

    /// The game's state as far as this position alone tells: only kings left, checkmate (the
    /// side to move is in check and no move guarantees escape), stalemate, 100 plies without
    /// capture or pawn move (FIDE 9.3, automatic here), or going on. The threefold repetition
    /// (FIDE 9.2, automatic here; see [`super::endings::RepetitionKey`]) needs the game's
    /// history: the game's [`crate::QuantumGame::status`] adds it.
    pub fn status(&self) -> Status {
        if self.is_dead_material() {
            Status::Draw(DrawReason::InsufficientMaterial)
        } else if !self.has_legal_move() {
            if self.in_check(self.side_to_move) {
                Status::Win(self.side_to_move.opponent(), WinReason::Checkmate)
            } else {
                Status::Draw(DrawReason::Stalemate)
            }
        } else if self.halfmove_clock >= 100 {
            Status::Draw(DrawReason::FiftyMoves)
        } else {
            Status::Ongoing
        }
    }
}
