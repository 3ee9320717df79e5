//! Listening on 127.0.0.1 and stopping cleanly: bind first (so the caller can print the real
//! address when port 0 picked one), then serve until the shutdown signal (Ctrl-C in `qchess
//! serve`), letting requests in flight finish.

use crate::ai::{ai_router, AiState, Warn};
use crate::api::{router, AppState};
use crate::game::NewGame;
use crate::limits::Limits;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The port could not be bound (in use, or not allowed).
    #[error("cannot listen on 127.0.0.1:{port}")]
    Bind {
        /// The port asked for.
        port: u16,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The async runtime could not start.
    #[error("cannot start the server's runtime")]
    Runtime(#[source] std::io::Error),
    /// The Ctrl-C and SIGTERM handlers could not be installed.
    #[error("cannot listen for Ctrl-C")]
    Signal(#[source] std::io::Error),
    /// The server stopped on an I/O error.
    #[error("the server stopped")]
    Serve(#[source] std::io::Error),
}

/// What a server serves.
pub enum Service {
    /// The page and its game API (`qchess serve`), the page starting with this game.
    Page(NewGame),
    /// The official app's AI protocol (`qchess serve --ai`), warnings reported to this.
    Ai(Warn),
}

impl Service {
    /// The router of this service under `limits`.
    fn router(self, limits: Limits) -> axum::Router {
        match self {
            Service::Page(initial) => router(Arc::new(AppState::new(limits, initial))),
            Service::Ai(warn) => ai_router(Arc::new(AiState::new(limits, warn))),
        }
    }
}

/// A server bound to a port of 127.0.0.1, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: axum::Router,
    address: SocketAddr,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: a free port the system picks). Call it inside a tokio
    /// runtime.
    ///
    /// # Errors
    /// [`ServeError::Bind`] when the port cannot be had.
    pub async fn bind(port: u16, limits: Limits, service: Service) -> Result<Server, ServeError> {
        let bind = |source| ServeError::Bind { port, source };
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(bind)?;
        let address = listener.local_addr().map_err(bind)?;
        Ok(Server {
            listener,
            router: service.router(limits),
            address,
        })
    }

    /// The address bound (with the real port when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The server's address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Serves until `shutdown` completes, then lets the requests in flight finish.
    ///
    /// # Errors
    /// [`ServeError::Serve`] when accepting connections fails for good.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        axum::serve(self.listener, self.router)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(ServeError::Serve)
    }
}

/// A future that resolves on Ctrl-C (SIGINT) or, on Unix, SIGTERM. The handlers are installed
/// when this is called, not when the future is first polled, so that a signal sent as soon as
/// the address is printed already stops the server cleanly. Call it inside a tokio runtime.
///
/// # Errors
/// The signal handlers cannot be installed.
#[cfg(unix)]
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
    })
}

/// A future that resolves on Ctrl-C.
#[cfg(not(unix))]
fn stop_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    Ok(async {
        // Without a handler only ending the process stops the server.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    })
}

/// Runs a server of `service` on a runtime of its own until Ctrl-C (SIGINT) or SIGTERM: binds
/// 127.0.0.1:`port`, hands `ready` its URL (the caller prints it), serves, and returns
/// once the requests in flight have finished.
///
/// # Errors
/// The runtime cannot start, the port cannot be bound, or serving fails.
pub fn serve_until_signal(
    port: u16,
    limits: Limits,
    service: Service,
    ready: impl FnOnce(&str),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Games compute on blocking threads, at most `limits.workers` at once; a few spare for
        // work still finishing after its request gave up waiting.
        .max_blocking_threads(limits.workers.max(1) * 4)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let server = Server::bind(port, limits, service).await?;
        let stop = stop_signal().map_err(ServeError::Signal)?;
        ready(&server.url());
        server.run(stop).await
    })
}
