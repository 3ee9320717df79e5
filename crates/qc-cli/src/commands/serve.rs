//! `qchess serve`: the game in a browser. The server, the page and the JSON API are crate
//! `qc-web`; this command loads the page's first game as every command loads a game and hands
//! it over as a game file with every outcome written in, so that the page starts from exactly
//! the game given. With `--ai` it serves instead the official Quantum Chess app's AI protocol
//! (`qc_web::ai`, docs/ai.md): the engine as a custom AI the app can call.

use crate::game_input::{fresh_seed, open, GameArgs, SimArgs, SimulatorArgs};
use crate::output::{write_stderr, write_stdout};
use clap::Args;
use qc_front::BackendKind;
use qc_sim::Precision;
use qc_web::{AiConfig, Limits, NewGame, Service};
use std::sync::Arc;

/// Arguments of `qchess serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The port on 127.0.0.1 (0: a free port; the address is printed either way).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// Seed for the outcomes of moves written without them (the given game's, then the page's).
    /// Default: a fresh random seed, printed at the start, so that `--seed` replays it.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Serve qchess's engine as a custom AI of the official Quantum Chess app instead of the
    /// page: POST /move with {view, clock}, and the same over a WebSocket (docs/ai.md). It
    /// plays the game the app sends, so it takes no game, rules or seed.
    #[arg(long, conflicts_with_all = ["game", "moves", "fen", "random_plies", "rules", "variant", "seed"])]
    pub ai: bool,
    /// With --ai: also answer pages of this origin (`https://host[:port]`, repeatable), beside
    /// the official app's (https://quantumchess.net, https://www.quantumchess.net,
    /// https://chess.quantumnative.io). A request from any other page is refused.
    #[arg(long = "allow-origin", value_name = "ORIGIN", requires = "ai")]
    pub allow_origin: Vec<String>,
}

/// Runs the command until Ctrl-C.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    if args.ai {
        return run_ai(args.port, &args.allow_origin);
    }
    // The page plays on the sparse simulator; only the seed is the user's.
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let sim = SimArgs {
        simulator: SimulatorArgs {
            backend: BackendKind::Sparse,
            precision: Precision::Double,
        },
        seed,
    };
    let game = open(&args.game, &sim, false)?;
    let initial = NewGame {
        rules: game.rules(),
        variant: game.options_name(),
        game: Some(game.game_file(true)),
        seed: Some(seed),
        ..NewGame::default()
    };
    qc_web::serve_until_signal(
        args.port,
        Limits::default(),
        Service::Page(initial),
        |url| {
            // The address first, alone on its line, for scripts that start the server on port 0.
            let _ = write_stdout(&format!(
                "{url}\nqchess serve: open {url} in a browser; Ctrl-C stops the server; seed {seed} (`--seed {seed}` replays these outcomes)\n"
            ));
        },
    )?;
    Ok(())
}

/// `qchess serve --ai`: the AI server until Ctrl-C; its warnings go to stderr.
fn run_ai(port: u16, origins: &[String]) -> anyhow::Result<()> {
    let warn = Arc::new(|text: &str| {
        let _ = write_stderr(&format!("qchess serve --ai: warning: {text}\n"));
    });
    let mut config = AiConfig::new(warn);
    for origin in origins {
        config.origins.push(read_origin(origin)?);
    }
    qc_web::serve_until_signal(port, Limits::default(), Service::Ai(config), |url| {
        // The address first, alone on its line, as for the page.
        let ws = url.replacen("http://", "ws://", 1);
        let _ = write_stdout(&format!(
            "{url}\nqchess serve --ai: the official app's custom AI: HTTP {url}move, WebSocket {ws}; Ctrl-C stops the server\n"
        ));
    })?;
    Ok(())
}

/// An origin as a browser sends it: `scheme://host[:port]`, nothing after.
fn read_origin(text: &str) -> anyhow::Result<String> {
    let origin = text.trim().trim_end_matches('/');
    let valid = origin.split_once("://").is_some_and(|(scheme, rest)| {
        matches!(scheme, "http" | "https")
            && !rest.is_empty()
            && !rest.contains(['/', '?', '#', ' ', '*'])
    });
    if !valid {
        anyhow::bail!(
            "--allow-origin `{text}` is not an origin: write it as a browser sends it, https://host or http://host:port"
        );
    }
    Ok(origin.to_ascii_lowercase())
}
