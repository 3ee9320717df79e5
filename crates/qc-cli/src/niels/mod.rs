//! `--rules niels`: the commands for Niel's Chess (`qc_rules::niels`). This module owns loading
//! a Niel's game (game file, standard input or `--moves`, with `--fen` and `--variant`),
//! replaying it with error context, and the names the outputs share; each command's output
//! lives in its own submodule.

pub mod board_svg;
pub mod compile;
pub mod moves;
pub mod play;
pub mod simulate;

use crate::game_input::GameArgs;
use anyhow::Context;
use qc_ir::Backend;
use qc_rules::niels::{
    GameStatus, NielsGame, NielsMove, NielsPosition, NielsRecord, NielsRules, RecordedMove,
};
use qc_rules::Color;

/// A Niel's game read from the command line.
pub struct NielsLoaded {
    /// `path`, `<stdin>` or `--moves`.
    pub source: String,
    /// The rule options in force.
    pub rules: NielsRules,
    /// The start position.
    pub start: NielsPosition,
    /// The moves to play.
    pub moves: Vec<RecordedMove>,
    /// The game file's tags (none for `--moves`).
    pub tags: Vec<(String, String)>,
    /// Random moves to add after the given ones.
    pub random_plies: usize,
}

/// Parses `--variant` (or `fallback` when it is absent).
pub fn rules_from(variant: Option<&str>, fallback: NielsRules) -> anyhow::Result<NielsRules> {
    match variant {
        Some(v) => v.parse().context("--variant"),
        None => Ok(fallback),
    }
}

/// The start position: `--fen` or the standard 8x8 start.
pub fn start_from(fen: Option<&str>, rules: NielsRules) -> anyhow::Result<NielsPosition> {
    match fen {
        Some(f) => NielsPosition::from_fen(f, rules).context("--fen"),
        None => Ok(NielsPosition::start(rules)),
    }
}

/// Loads the Niel's game the arguments give (nothing given: the start position, no moves).
pub fn load(args: &GameArgs) -> anyhow::Result<NielsLoaded> {
    let random_plies = args.rules.random_plies.unwrap_or(0);
    if let Some(path) = &args.game {
        let (source, text) = crate::commands::run::read_input(path)?;
        let record = NielsRecord::parse(&text).with_context(|| source.clone())?;
        let file_rules = record
            .rules()
            .with_context(|| format!("{source}: Variant tag"))?;
        let rules = rules_from(args.rules.variant.as_deref(), file_rules)?;
        let start = record
            .start(rules)
            .with_context(|| format!("{source}: FEN tag"))?;
        return Ok(NielsLoaded {
            source,
            rules,
            start,
            moves: record.moves,
            tags: record.tags,
            random_plies,
        });
    }
    let rules = rules_from(args.rules.variant.as_deref(), NielsRules::default())?;
    let start = start_from(args.fen.as_deref(), rules)?;
    let moves = match &args.moves {
        Some(m) => NielsRecord::parse(m).context("--moves")?.moves,
        None => Vec::new(),
    };
    Ok(NielsLoaded {
        source: "--moves".into(),
        rules,
        start,
        moves,
        tags: Vec::new(),
        random_plies,
    })
}

/// Plays the loaded moves (rolls without recorded outcomes use `seed`), then the random plies.
pub fn replay<B: Backend>(
    loaded: &NielsLoaded,
    backend: B,
    seed: u64,
) -> anyhow::Result<NielsGame<B>> {
    let mut game = NielsGame::new(loaded.start.clone(), backend)
        .with_context(|| format!("{}: cannot set up the start position", loaded.source))?;
    let mut dice = crate::replay::rng(seed);
    for (index, m) in loaded.moves.iter().enumerate() {
        game.play_text(&m.text, &mut dice).with_context(|| {
            let place = if loaded.source == "--moves" {
                String::new()
            } else {
                format!(", line {}, column {}", m.line, m.column)
            };
            format!("{}: move {} `{}`{place}", loaded.source, index + 1, m.text)
        })?;
    }
    // Moves are picked from a stream of their own, so that picking does not shift the rolls.
    let mut pick = crate::replay::rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    for _ in 0..loaded.random_plies {
        let Some(mv) = game.random_move(&mut pick) else {
            break;
        };
        game.play(&mv, &mut dice)
            .with_context(|| format!("random move {mv} after the given moves"))?;
    }
    Ok(game)
}

/// The rule options as `--variant` spells them.
pub fn variant_name(rules: NielsRules) -> String {
    let mut names = Vec::new();
    if rules.full_marks {
        names.push("full");
    }
    if rules.hadamard {
        names.push("hadamard");
    }
    if rules.tunnelling {
        names.push("tunnelling");
    }
    if rules.no_box {
        names.push("no-box");
    }
    if names.is_empty() {
        "simplified".into()
    } else {
        names.join("+")
    }
}

/// The kind of a move, as `moves` groups them and the JSON names them.
pub fn move_kind(position: &NielsPosition, mv: &NielsMove) -> &'static str {
    match *mv {
        NielsMove::Step { from, to, .. } => {
            let king = position
                .piece_at(from)
                .is_some_and(|p| p.kind == qc_rules::PieceKind::King);
            let distance = (from.file() - to.file()).abs();
            if position.piece_at(to).is_some() || position.pair_at(to).is_some() {
                "capture"
            } else if king && distance == 2 {
                "castling"
            } else {
                "move"
            }
        }
        NielsMove::Superpose { .. } => "superposition",
        NielsMove::Entangle { .. } => "entanglement",
        NielsMove::Invert { .. } => "mark_inversion",
        NielsMove::ZMove { .. } => "z_move",
        NielsMove::Hadamard { .. } => "hadamard",
        NielsMove::Tunnel { .. } => "tunnelling",
    }
}

/// The status in JSON spelling.
pub fn status_name(status: GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "ongoing",
        GameStatus::Checkmate {
            winner: Color::White,
        } => "white_wins",
        GameStatus::Checkmate {
            winner: Color::Black,
        } => "black_wins",
        GameStatus::Stalemate => "stalemate",
        GameStatus::FiftyMoves => "draw_fifty_moves",
        GameStatus::Repetition => "draw_repetition",
        GameStatus::InsufficientMaterial => "draw_insufficient_material",
    }
}

/// The tags a replayable record starts with: the loaded ones, with `Variant` and `FEN` set to
/// what was played.
pub fn record_tags(loaded: &NielsLoaded) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = loaded
        .tags
        .iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case("Variant") && !n.eq_ignore_ascii_case("FEN"))
        .cloned()
        .collect();
    tags.push(("Variant".into(), variant_name(loaded.rules)));
    tags.push(("FEN".into(), loaded.start.to_fen()));
    tags
}

/// The game as a file that replays exactly (every roll written in).
pub fn replayable<B: Backend>(loaded: &NielsLoaded, game: &NielsGame<B>) -> String {
    NielsRecord::write(&record_tags(loaded), &game.record())
}
