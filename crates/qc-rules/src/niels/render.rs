//! A text picture of a Niel's position: conventional pieces as letters, indefinite pieces with
//! their mark colour, facing and entangled group, and a legend with each pair's probabilities.

use super::position::{Cell, NielsPosition};
use std::fmt::Write;

impl NielsPosition {
    /// The board as text, rank 8 (or the top rank) first. A cell is 4 characters:
    /// `N` for a conventional piece; `Nro1` for an indefinite piece: the piece letter, its mark
    /// (`r`ed / `b`lue), the mark's facing (`o` towards the opponent, `p` towards the owner)
    /// and its entangled group's diagonal (`1`, `2`, or `.` for a lone pair).
    pub fn render(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.height as i32).rev() {
            let _ = write!(out, "{} ", rank + 1);
            for file in 0..self.width as i32 {
                let Some(s) = self.square(file, rank) else {
                    continue;
                };
                let cell = match self.cell(s) {
                    Cell::Empty => " .  ".to_string(),
                    Cell::Conventional(p) => format!(" {}  ", p.fen_char()),
                    Cell::Indefinite(id) => match self.pairs.get(&id) {
                        Some(p) => {
                            let red = p.red == s;
                            let facing = if red {
                                p.red_faces_opponent
                            } else {
                                p.blue_faces_opponent
                            };
                            let group = self
                                .groups
                                .get(&p.group)
                                .and_then(|g| g.diagonal)
                                .map_or('.', |d| char::from(b'0' + d));
                            format!(
                                "{}{}{}{}",
                                p.piece.fen_char(),
                                if red { 'r' } else { 'b' },
                                if facing { 'o' } else { 'p' },
                                group
                            )
                        }
                        None => " ?  ".to_string(),
                    },
                };
                out.push_str(&cell);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for file in 0..self.width {
            let _ = write!(out, " {}  ", char::from(b'a' + file));
        }
        out.push('\n');
        for p in self.pairs.values() {
            let p_event = self.group_event_probability(p.group);
            let p_red = if p.event_square() == p.red {
                p_event
            } else {
                1.0 - p_event
            };
            let _ = writeln!(
                out,
                "{} #{}: red {} / blue {}, P(red) = {:.4}",
                p.piece.fen_char(),
                p.label,
                p.red,
                p.blue,
                p_red
            );
        }
        let _ = writeln!(
            out,
            "{} to move",
            match self.side_to_move {
                crate::chess::Color::White => "White",
                crate::chess::Color::Black => "Black",
            }
        );
        out
    }
}
