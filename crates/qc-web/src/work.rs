//! The server's workers: the computations on games and searches, each on a blocking thread of
//! its own, at most [`Limits::workers`] at once, at most [`Limits::queue`] more waiting (one
//! more is refused at once), each within the request's time. A computation is handed a
//! [`StopFlag`] that is raised as soon as its request stops waiting for it (its time ran out,
//! or the client went away): a search ends at its next node and frees its worker.

use crate::error::ApiError;
use crate::limits::Limits;
use qc_engine::StopFlag;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tokio::time::{timeout_at, Instant};

/// The workers and the places in their queue.
pub struct Workers {
    /// One permit a computation running.
    running: Arc<Semaphore>,
    /// One permit a request computing or waiting for a worker.
    admitted: Arc<Semaphore>,
    count: usize,
    places: usize,
    request_time: std::time::Duration,
}

/// What the workers are doing, for `/api/info` and the AI server's `GET /`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Load {
    /// Computations running.
    pub running: usize,
    /// Requests waiting for a worker.
    pub waiting: usize,
}

/// Raises its flag when dropped: the request stopped waiting for the work.
struct RaiseOnDrop(StopFlag);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl Workers {
    /// The workers of `limits`.
    pub fn new(limits: &Limits) -> Workers {
        let count = limits.workers.max(1);
        let places = count + limits.queue;
        Workers {
            running: Arc::new(Semaphore::new(count)),
            admitted: Arc::new(Semaphore::new(places)),
            count,
            places,
            request_time: limits.request_time,
        }
    }

    /// What the workers are doing now.
    pub fn load(&self) -> Load {
        let running = self.count - self.running.available_permits();
        let admitted = self.places - self.admitted.available_permits();
        Load {
            running,
            waiting: admitted.saturating_sub(running),
        }
    }

    fn busy(&self) -> ApiError {
        ApiError::Busy {
            seconds: self.request_time.as_secs(),
        }
    }

    /// Runs `work` on a worker thread by `deadline`: refused at once when the queue is full,
    /// 503 when no worker is free by then or the work is not done by then. The work's flag is
    /// raised when this future ends before the work (its deadline, or the request dropped);
    /// the work keeps its worker and its place until it returns.
    pub async fn run_until<T, F>(&self, deadline: Instant, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(&StopFlag) -> Result<T, ApiError> + Send + 'static,
        T: Send + 'static,
    {
        let place = self
            .admitted
            .clone()
            .try_acquire_owned()
            .map_err(|_| ApiError::QueueFull {
                workers: self.count,
                queue: self.places - self.count,
            })?;
        let permit = timeout_at(deadline, self.running.clone().acquire_owned())
            .await
            .map_err(|_| self.busy())?
            .map_err(|_| self.busy())?;
        let stop = StopFlag::new();
        let _raise = RaiseOnDrop(stop.clone());
        let task = tokio::task::spawn_blocking(move || {
            // Held until the work ends, also when the request stopped waiting for it.
            let _held = (permit, place);
            work(&stop)
        });
        match timeout_at(deadline, task).await {
            Err(_) => Err(ApiError::TooSlow {
                seconds: self.request_time.as_secs(),
            }),
            Ok(Err(join)) => Err(ApiError::Internal(panic_text(join))),
            Ok(Ok(result)) => result,
        }
    }
}

fn panic_text(join: tokio::task::JoinError) -> String {
    if !join.is_panic() {
        return "the work was cancelled".into();
    }
    let payload = join.into_panic();
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn workers(count: usize, queue: usize) -> Workers {
        Workers::new(&Limits {
            workers: count,
            queue,
            ..Limits::default()
        })
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    /// Work that waits until `release` is sent (or dropped), then says whether its flag was
    /// raised.
    fn held(release: mpsc::Receiver<()>) -> impl FnOnce(&StopFlag) -> Result<bool, ApiError> {
        move |stop| {
            let _ = release.recv();
            Ok(stop.is_raised())
        }
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once_and_frees_as_the_work_ends() {
        let workers = Arc::new(workers(1, 1));
        let (release, wait) = mpsc::channel();
        let first = {
            let w = workers.clone();
            tokio::spawn(async move { w.run_until(far(), held(wait)).await })
        };
        // The second waits for the one worker, in the one place of the queue.
        let second = {
            let w = workers.clone();
            tokio::spawn(async move { w.run_until(far(), |_: &StopFlag| Ok(false)).await })
        };
        while workers.load()
            != (Load {
                running: 1,
                waiting: 1,
            })
        {
            tokio::task::yield_now().await;
        }
        let third = workers.run_until(far(), |_: &StopFlag| Ok(false)).await;
        let error = third.expect_err("no place left");
        assert!(matches!(error, ApiError::QueueFull { .. }), "{error:?}");
        assert_eq!(error.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        release.send(()).expect("the first work waits");
        assert!(!first.await.expect("task").expect("done"));
        assert!(!second.await.expect("task").expect("done"));
        assert_eq!(
            workers.load(),
            Load {
                running: 0,
                waiting: 0
            }
        );
    }

    #[tokio::test]
    async fn work_whose_request_went_away_is_told_to_stop_and_keeps_its_worker_until_it_ends() {
        let workers = Arc::new(workers(1, 4));
        let (release, wait) = mpsc::channel();
        let (told, flag) = tokio::sync::oneshot::channel();
        let request = {
            let w = workers.clone();
            tokio::spawn(async move {
                let work = move |stop: &StopFlag| {
                    let _ = wait.recv();
                    let _ = told.send(stop.is_raised());
                    Ok(())
                };
                w.run_until(far(), work).await
            })
        };
        while workers.load().running == 0 {
            tokio::task::yield_now().await;
        }
        // The client goes away: its request's future is dropped.
        request.abort();
        assert!(request.await.expect_err("aborted").is_cancelled());
        assert_eq!(workers.load().running, 1, "the work still runs");
        release.send(()).expect("the work waits");
        assert!(flag.await.expect("the work reports"), "its flag was raised");
        while workers.load().running != 0 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn work_past_its_deadline_is_a_503_and_is_told_to_stop() {
        let workers = workers(1, 0);
        let (release, wait) = mpsc::channel::<()>();
        let (told, flag) = tokio::sync::oneshot::channel();
        let work = move |stop: &StopFlag| {
            let _ = wait.recv();
            let _ = told.send(stop.is_raised());
            Ok(())
        };
        let late = workers.run_until(Instant::now(), work).await;
        assert!(matches!(late, Err(ApiError::TooSlow { .. })), "{late:?}");
        drop(release);
        assert!(flag.await.expect("the work reports"));
    }
}
