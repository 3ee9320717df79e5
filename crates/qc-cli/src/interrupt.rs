//! Ctrl-C during an engine search in `qchess play`: the search stops and plays the best move
//! found so far, and the session goes on. Outside a search Ctrl-C keeps its usual meaning
//! (rustyline drops the line being typed on a terminal; a piped session ends, exit code 130).
//!
//! The first search starts a thread that listens for SIGINT (tokio's signal handling, which
//! the server already uses) and raises the stop flag of the search running at that moment.
//! The listener is registered before the search starts, so a Ctrl-C right after `go` is not
//! lost.

use qc_engine::StopFlag;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

/// The stop flag of the search running now (`None` between searches).
static RUNNING: Mutex<Option<StopFlag>> = Mutex::new(None);

/// Whether the listener thread runs (`Err`: it could not be started, and Ctrl-C keeps its
/// default effect).
static LISTENER: OnceLock<Result<(), String>> = OnceLock::new();

/// The exit code of a session ended by Ctrl-C outside a search (128 + SIGINT, as a shell
/// reports it).
const INTERRUPTED_EXIT: i32 = 130;

/// Runs `search` with a stop flag that Ctrl-C raises while it runs.
///
/// # Errors
/// The signal listener could not be started (then nothing is searched).
pub fn interruptible<T>(search: impl FnOnce(StopFlag) -> T) -> anyhow::Result<T> {
    if let Err(e) = LISTENER.get_or_init(start_listener) {
        anyhow::bail!("cannot listen for Ctrl-C: {e}");
    }
    let stop = StopFlag::new();
    set_running(Some(stop.clone()));
    let out = search(stop);
    set_running(None);
    Ok(out)
}

fn set_running(flag: Option<StopFlag>) {
    // A poisoned lock only means a panic elsewhere held it; the flag itself is still good.
    let mut running = RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *running = flag;
}

/// Starts the listener thread and waits until it listens.
fn start_listener() -> Result<(), String> {
    let (ready, listening) = mpsc::channel::<Result<(), String>>();
    std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || listen(&ready))
        .map_err(|e| e.to_string())?;
    listening
        .recv()
        .unwrap_or_else(|_| Err("the listener thread ended".into()))
}

/// The listener: reports once it is registered, then stops the running search at every
/// SIGINT, or ends the process when none runs.
fn listen(ready: &mpsc::Sender<Result<(), String>>) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            let _ = ready.send(Err(e.to_string()));
            return;
        }
    };
    runtime.block_on(async {
        use tokio::signal::unix::{signal, SignalKind};
        let mut interrupts = match signal(SignalKind::interrupt()) {
            Ok(s) => s,
            Err(e) => {
                let _ = ready.send(Err(e.to_string()));
                return;
            }
        };
        let _ = ready.send(Ok(()));
        while interrupts.recv().await.is_some() {
            let running = RUNNING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone();
            match running {
                Some(stop) => stop.stop(),
                // Registering took Ctrl-C's default away; outside a search it ends the
                // session as it did before the first search.
                None => std::process::exit(INTERRUPTED_EXIT),
            }
        }
    });
}
