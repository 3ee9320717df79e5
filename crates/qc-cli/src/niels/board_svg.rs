//! `qchess board --rules niels`: the final Niel's position as text (`NielsPosition::render`) or
//! as SVG. In the picture each indefinite piece carries a probability ring, a dot in its mark's
//! colour (filled when the mark faces the opponent, hollow when it faces its owner) and its
//! pair's label; a dashed line joins the two squares of each pair, drawn in its entangled
//! group's colour (blue for a lone pair).

use super::simulate::{status_line, LEGEND};
use super::{load, replay};
use crate::commands::board::BoardArgs;
use crate::output::write_stdout;
use crate::render::board_svg::{symbol, Frame, CELL};
use anyhow::{bail, Context};
use qc_ir::Square;
use qc_rules::niels::{Cell, NielsPosition};
use std::fmt::Write;

const LONE: &str = "#1f77b4";

/// The colour of a group: diagonal 1 purple, diagonal 2 green, a lone pair blue.
fn group_colour(diagonal: Option<u8>) -> &'static str {
    match diagonal {
        Some(1) => "#7b2cbf",
        Some(_) => "#2a9d8f",
        None => LONE,
    }
}

fn centre(pos: &NielsPosition, square: Square) -> (f64, f64) {
    frame(pos).centre(square)
}

fn frame(pos: &NielsPosition) -> Frame {
    Frame {
        width: pos.width,
        height: pos.height,
    }
}

/// The position as a standalone SVG document.
pub fn draw(pos: &NielsPosition) -> String {
    let mut svg = frame(pos).open(pos.squares());
    for (id, pair) in &pos.pairs {
        let diagonal = pos.groups.get(&pair.group).and_then(|g| g.diagonal);
        let (x1, y1) = centre(pos, pair.red);
        let (x2, y2) = centre(pos, pair.blue);
        let _ = writeln!(
            svg,
            "<line class=\"pair\" data-pair=\"{id}\" data-group=\"{}\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"3\" stroke-dasharray=\"6 4\"/>",
            pair.group,
            group_colour(diagonal)
        );
    }
    let radius = CELL * 0.42;
    let circumference = 2.0 * std::f64::consts::PI * radius;
    for square in pos.squares() {
        let (cx, cy) = centre(pos, square);
        match pos.cell(square) {
            Cell::Empty => {}
            Cell::Conventional(p) => {
                let _ = writeln!(
                    svg,
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"34\" text-anchor=\"middle\">{}</text>",
                    cy + 12.0,
                    symbol(p.fen_char())
                );
            }
            Cell::Indefinite(id) => {
                let Some(pair) = pos.pairs.get(&id) else {
                    continue;
                };
                let p_event = pos.group_event_probability(pair.group);
                let p_here = if pair.event_square() == square {
                    p_event
                } else {
                    1.0 - p_event
                };
                let red = pair.red == square;
                let facing = if red {
                    pair.red_faces_opponent
                } else {
                    pair.blue_faces_opponent
                };
                let colour = group_colour(pos.groups.get(&pair.group).and_then(|g| g.diagonal));
                let mark = if red { "#d62828" } else { "#1d4ed8" };
                let _ = writeln!(
                    svg,
                    "<circle class=\"ring\" cx=\"{cx}\" cy=\"{cy}\" r=\"{radius}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"4\" stroke-dasharray=\"{:.2} {:.2}\" transform=\"rotate(-90 {cx} {cy})\"><title>{square} {} {:.1}%</title></circle>",
                    circumference * p_here,
                    circumference,
                    if red { "red mark" } else { "blue mark" },
                    100.0 * p_here
                );
                let _ = writeln!(
                    svg,
                    "<circle class=\"mark\" cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"{}\" stroke=\"{mark}\" stroke-width=\"2\"/>",
                    cx + CELL * 0.32,
                    cy - CELL * 0.32,
                    if facing { mark } else { "white" }
                );
                let _ = writeln!(
                    svg,
                    "<text x=\"{cx}\" y=\"{}\" font-size=\"34\" text-anchor=\"middle\" fill-opacity=\"{:.2}\">{}</text><text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>",
                    cy + 12.0,
                    0.35 + 0.65 * p_here,
                    symbol(pair.piece.fen_char()),
                    cx - CELL * 0.45,
                    cy + CELL * 0.45,
                    pair.label
                );
            }
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// Runs `board --rules niels`.
pub fn run(args: &BoardArgs) -> anyhow::Result<()> {
    if args.links {
        bail!("--links is not available with --rules niels (pairs and groups are always drawn)");
    }
    let loaded = load(&args.game)?;
    let game = replay(&loaded, qc_sim::ReferenceSparse::new(), args.seed)?;
    let pos = game.position();
    match &args.svg {
        Some(path) => std::fs::write(path, draw(pos))
            .with_context(|| format!("cannot write {}", path.display())),
        None => write_stdout(&format!(
            "{}{LEGEND}{}",
            pos.render(),
            status_line(pos, game.status())
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_rules::niels::NielsRules;

    #[test]
    fn rings_show_the_dice_probabilities_and_the_board_size() {
        // An unequal rook pair (red e6 faces the opponent: 4/6) on a 5x6 board.
        let pos = NielsPosition::from_fen(
            "4k/5/5/5/5/K4 w - - 0 1 Rc3e5op",
            NielsRules {
                full_marks: true,
                ..NielsRules::default()
            },
        )
        .expect("position");
        let svg = draw(&pos);
        let c = 2.0 * std::f64::consts::PI * CELL * 0.42;
        assert!(
            svg.contains(&format!(
                "stroke-dasharray=\"{:.2} {:.2}\"",
                c * 2.0 / 3.0,
                c
            )),
            "{svg}"
        );
        assert!(
            svg.contains(&format!("stroke-dasharray=\"{:.2} {:.2}\"", c / 3.0, c)),
            "{svg}"
        );
        assert!(svg.contains("<title>c3 red mark 66.7%</title>"), "{svg}");
        assert_eq!(svg.matches("class=\"pair\"").count(), 1);
        // 5 files x 6 ranks.
        assert!(svg.contains("width=\"348\" height=\"408\""), "{svg}");
    }

    #[test]
    fn an_entangled_group_shares_one_colour() {
        let pos = NielsPosition::from_fen(
            "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4f4:1,nf6d5:1,Bb2b3",
            NielsRules::default(),
        )
        .expect("position");
        let svg = draw(&pos);
        let lines: Vec<&str> = svg
            .lines()
            .filter(|l| l.contains("class=\"pair\""))
            .collect();
        assert_eq!(lines.len(), 3);
        let group = group_colour(Some(1));
        let in_group = lines.iter().filter(|l| l.contains(group)).count();
        let lone = lines.iter().filter(|l| l.contains(LONE)).count();
        assert_eq!((in_group, lone), (2, 1), "{svg}");
    }
}
