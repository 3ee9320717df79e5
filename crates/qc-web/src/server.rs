//! Listening on 127.0.0.1 and stopping cleanly: bind first (so the caller can print the real
//! address when port 0 picked one), then serve until the shutdown signal (Ctrl-C in `qchess
//! serve`), letting requests in flight finish within [`Limits::shutdown_time`].
//!
//! The connections are bounded as the requests are: at most [`Limits::connections_open`] at
//! once (the next waits in the system's queue until one closes, so the server never runs out
//! of file descriptors), each closed when it takes longer than [`Limits::header_time`] to send
//! a request's head (counted from its opening or the previous answer, so an idle kept-alive
//! connection is closed too) or its body. hyper's HTTP/1 server does the timing; this module
//! only hands it each connection, as `axum::serve` would.

use crate::ai::{ai_router, AiConfig, AiState};
use crate::api::{router, AppState};
use crate::game::NewGame;
use crate::limits::Limits;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tower_http::timeout::RequestBodyTimeoutLayer;

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
}

/// What a server serves.
pub enum Service {
    /// The page and its game API (`qchess serve`), the page starting with this game.
    Page(NewGame),
    /// The official app's AI protocol (`qchess serve --ai`), with where its warnings go and the
    /// origins allowed.
    Ai(AiConfig),
}

impl Service {
    /// The router of this service under `limits`.
    fn router(self, limits: Limits) -> axum::Router {
        let body_time = limits.header_time;
        let router = match self {
            Service::Page(initial) => router(Arc::new(AppState::new(limits, initial))),
            Service::Ai(config) => ai_router(Arc::new(AiState::with_config(limits, config))),
        };
        // A body sent slower than a head may be: its request ends with a 400.
        router.layer(RequestBodyTimeoutLayer::new(body_time))
    }
}

/// A server bound to a port of 127.0.0.1, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: axum::Router,
    address: SocketAddr,
    limits: Limits,
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
            router: service.router(limits.clone()),
            address,
            limits,
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

    /// Serves until `shutdown` completes, then lets the requests in flight finish, for at most
    /// [`Limits::shutdown_time`].
    ///
    /// # Errors
    /// None today: a failed accept (the system out of resources) is retried after a pause.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let Server {
            listener,
            router,
            limits,
            ..
        } = self;
        let open = Arc::new(Semaphore::new(limits.connections_open()));
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(limits.header_time);
        // Told to finish (a connection ends after its request in flight); all gone once every
        // receiver of `gone` is dropped.
        let (finish, finishing) = watch::channel(());
        let (gone, going) = watch::channel(());
        tokio::pin!(shutdown);
        loop {
            let place = tokio::select! {
                place = open.clone().acquire_owned() => place,
                () = &mut shutdown => break,
            };
            let Ok(place) = place else { break };
            let stream = tokio::select! {
                accepted = listener.accept() => accepted,
                () = &mut shutdown => break,
            };
            let stream = match stream {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors or memory for a moment: wait, then accept again.
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            };
            let service = TowerToHyperService::new(router.clone());
            // The place is held by the connection's stream, so also by a WebSocket it becomes.
            let io = TokioIo::new(Counted {
                stream,
                _place: place,
            });
            let connection = http.serve_connection(io, service).with_upgrades();
            let (mut finishing, going) = (finishing.clone(), going.clone());
            tokio::spawn(async move {
                tokio::pin!(connection);
                tokio::select! {
                    _ = connection.as_mut() => {}
                    changed = finishing.changed() => {
                        if changed.is_ok() {
                            connection.as_mut().graceful_shutdown();
                        }
                        // Told once: now only the connection's end.
                        let _ = connection.as_mut().await;
                    }
                }
                drop(going);
            });
        }
        drop(listener);
        let _ = finish.send(());
        drop(going);
        let _ = tokio::time::timeout(limits.shutdown_time, gone.closed()).await;
        Ok(())
    }
}

/// How long the server waits before accepting again after a failed accept.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// A connection's stream, holding its place among the connections open.
struct Counted {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
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

/// The runtime a server runs on: two async threads, and blocking threads for the games' work.
///
/// # Errors
/// The runtime cannot start.
pub fn runtime(limits: &Limits) -> Result<tokio::runtime::Runtime, ServeError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // Games compute on blocking threads, at most `limits.workers` at once; a few spare for
        // work still finishing after its request gave up waiting.
        .max_blocking_threads(limits.workers.max(1) * 4)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)
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
    let runtime = runtime(&limits)?;
    let served = runtime.block_on(async move {
        let server = Server::bind(port, limits, service).await?;
        let stop = stop_signal().map_err(ServeError::Signal)?;
        ready(&server.url());
        server.run(stop).await
    });
    // Work still running (a search told to stop, a long move) is not waited for: the process
    // ends with it.
    runtime.shutdown_timeout(RUNTIME_STOP);
    served
}

/// How long a stopping server waits for the work still running on its threads.
const RUNTIME_STOP: Duration = Duration::from_millis(200);
