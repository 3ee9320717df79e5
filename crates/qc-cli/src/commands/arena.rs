//! `qchess match`: two players (the engine, its baselines) against each other from varied
//! openings with both colours, and the score with the Elo difference (crate `qc-engine`,
//! module `arena`; docs/engine.md).

use crate::game_input::RulesArgs;
use crate::output::write_stdout;
use anyhow::Context;
use clap::Args;
use qc_engine::arena::{play_match, MatchConfig, Outcome, PlayedGame};
use qc_engine::elo::{format_elo, Tally};
use qc_engine::{Limits, PlayerSpec};
use qc_rules::Ruleset;
use qc_sim::SparseSim;
use serde_json::json;
use std::time::Duration;

/// Arguments of `qchess match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first player: engine, engine:depth=N, greedy, random, sampler, sampler:samples=N.
    pub first: PlayerSpec,
    /// The second player (same names).
    pub second: PlayerSpec,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The start position (the ruleset's FEN; default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Openings; each is played twice, the players swapping colours.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub openings: u32,
    /// Time per move in milliseconds, for both players.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: u64,
    /// The deepest search, for both players (the engine; greedy is always one ply).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub opening_plies: u32,
    /// Plies after which a game is adjudicated on material (3 pawns ahead wins).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_plies: u32,
    /// Seed of the openings, the outcomes and the players' random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print JSON: the games and the totals.
    #[arg(long)]
    pub json: bool,
}

/// Runs the match.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    qc_front::with_ruleset!(args.rules.kind(), |R| run_as::<R>(args))
}

/// One line per game.
fn game_line(args: &MatchArgs, number: usize, g: &PlayedGame) -> String {
    let (white, black) = if g.first_is_white {
        (&args.first, &args.second)
    } else {
        (&args.second, &args.first)
    };
    let result = match g.outcome {
        Outcome::WhiteWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "1/2-1/2",
    };
    format!(
        "game {:>3}  opening {:>3}  {white} (White) vs {black} (Black): {result} ({}), {} plies\n",
        number + 1,
        g.opening + 1,
        g.reason,
        g.plies
    )
}

/// The totals line.
fn summary(args: &MatchArgs, tally: &Tally) -> String {
    let (low, high) = tally.score_interval();
    let (elo_low, elo_high) = tally.elo_interval();
    format!(
        "{} vs {}: +{} ={} -{} in {} games, score {:.1} % (95 % interval {:.1}-{:.1} %), \
         Elo {} [{}, {}]\n",
        args.first,
        args.second,
        tally.wins,
        tally.draws,
        tally.losses,
        tally.games(),
        100.0 * tally.score(),
        100.0 * low,
        100.0 * high,
        format_elo(tally.elo()),
        format_elo(elo_low),
        format_elo(elo_high),
    )
}

fn run_as<R: Ruleset>(args: &MatchArgs) -> anyhow::Result<()> {
    let start = R::start(args.fen.as_deref(), args.rules.variant.as_deref()).context(
        if args.fen.is_some() {
            "--fen"
        } else {
            "--variant"
        },
    )?;
    let config = MatchConfig {
        openings: args.openings as usize,
        limits: Limits {
            depth: args.depth,
            ..Limits::move_time(Duration::from_millis(args.movetime))
        },
        seed: args.seed,
        max_plies: args.max_plies as usize,
        opening_plies: args.opening_plies as usize,
    };
    let mut number = 0;
    let mut progress = |g: &PlayedGame| {
        if !args.json {
            // A closed output ends the match at the next game (the error is reported below).
            let _ = write_stdout(&game_line(args, number, g));
        }
        number += 1;
    };
    let (games, tally) = play_match::<R, _>(
        &start,
        SparseSim::new,
        &args.first,
        &args.second,
        &config,
        &mut progress,
    )?;
    if !args.json {
        return write_stdout(&summary(args, &tally));
    }
    let (low, high) = tally.score_interval();
    let (elo_low, elo_high) = tally.elo_interval();
    let finite = |x: f64| if x.is_finite() { json!(x) } else { json!(null) };
    let report = json!({
        "rules": R::NAME,
        "first": args.first.to_string(),
        "second": args.second.to_string(),
        "movetime_ms": args.movetime,
        "depth": args.depth,
        "openings": args.openings,
        "opening_plies": args.opening_plies,
        "max_plies": args.max_plies,
        "seed": args.seed,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": tally.score(),
        "score_interval": [low, high],
        "elo": finite(tally.elo()),
        "elo_interval": [finite(elo_low), finite(elo_high)],
        "games": games,
    });
    write_stdout(&(serde_json::to_string_pretty(&report)? + "\n"))
}
