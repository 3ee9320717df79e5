//! The answer: the time it may take (the clock's share, or a fixed time when untimed) and the
//! search behind it, among the moves both the view and qchess list.

use super::choice::{choice_of, legal_differences, listed, LegalDifferences};
use super::rebuild::rebuild;
use super::{Clock, MoveChoice, MoveRequest, SdkError};
use qc_engine::limits::{Limits, StopFlag};
use qc_engine::search::{Found, Searcher};
use qc_ir::Backend;
use qc_rules::{QcanMove, QuantumGame};
use std::time::Duration;

/// The most an answer may take when the game is untimed.
pub const UNTIMED_MOVE_TIME: Duration = Duration::from_secs(1);

/// The search limits a clock gives: its share of the time left (see [`Limits::budget`]), or
/// `untimed` when there is no clock.
pub fn limits_for(clock: Option<&Clock>, untimed: Duration) -> Limits {
    let ms = |x: f64| Duration::from_secs_f64((x.max(0.0) / 1000.0).min(86_400.0));
    match clock {
        Some(c) if c.remaining_ms.is_finite() => Limits {
            clock: Some(ms(c.remaining_ms)),
            increment: if c.increment_ms.is_finite() {
                ms(c.increment_ms)
            } else {
                Duration::ZERO
            },
            ..Limits::default()
        },
        _ => Limits::move_time(untimed),
    }
}

/// The time [`answer`] searches `request`: the clock's share (or `untimed` without a clock),
/// never longer than `most`.
pub fn move_limits(request: &MoveRequest, untimed: Duration, most: Duration) -> Limits {
    let share = limits_for(request.clock.as_ref(), untimed)
        .budget()
        .unwrap_or(most);
    Limits::move_time(share.min(most))
}

/// An answer and how it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The move in the SDK's shape.
    pub choice: MoveChoice,
    /// The same move in QCAN.
    pub qcan: QcanMove,
    /// The search behind it.
    pub found: Found<QcanMove>,
    /// Where the view's legal moves and qchess's differ (empty when they agree).
    pub differences: LegalDifferences,
}

/// Answers `request`: rebuilds the game on `backend`, searches it with `searcher` within the
/// clock's share (or `untimed` without a clock), never longer than `most` (`stop` ends it
/// early), among the moves both the view and qchess list as legal, and gives the best in the
/// SDK's shape with the differences between the two lists.
///
/// # Errors
/// See [`SdkError`]; a failed trial move of the search is [`SdkError::Replay`].
pub fn answer<B: Backend>(
    request: &MoveRequest,
    backend: B,
    searcher: &mut Searcher,
    untimed: Duration,
    most: Duration,
    stop: StopFlag,
) -> Result<Answer, SdkError> {
    answer_telling(request, backend, searcher, untimed, most, stop, |_| {})
}

/// [`answer`], handing `found` the differences between the two lists as soon as they are known,
/// before the search starts: a server that answers on time with the move a search still
/// running published (`qc_engine::ontime`) can still say where the lists differ.
///
/// # Errors
/// See [`answer`].
pub fn answer_telling<B: Backend>(
    request: &MoveRequest,
    backend: B,
    searcher: &mut Searcher,
    untimed: Duration,
    most: Duration,
    stop: StopFlag,
    found: impl FnOnce(&LegalDifferences),
) -> Result<Answer, SdkError> {
    let mut game = rebuild(request, backend)?;
    let legal = &request.view.legal_moves;
    let here: Vec<QcanMove> = QuantumGame::legal_moves(&game)
        .into_iter()
        .map(|m| m.mv)
        .collect();
    let differences = legal_differences(&here, legal);
    found(&differences);
    let allowed = |mv: &QcanMove| choice_of(mv).is_some_and(|c| listed(&c, legal));
    let limits = move_limits(request, untimed, most);
    let found = searcher
        .search_among(&mut game, &limits, stop, &allowed, &mut |_| {})
        .map_err(|e| SdkError::Replay {
            index: request.view.move_history.len(),
            text: "(search)".into(),
            reason: e.to_string(),
        })?;
    let view_count = legal.standard.len() + legal.splits.len() + legal.merges.len();
    let qcan = found
        .best
        .ok_or(SdkError::NoLegalMove { view: view_count })?;
    let choice = choice_of(&qcan).ok_or(SdkError::NoLegalMove { view: view_count })?;
    Ok(Answer {
        choice,
        qcan,
        found,
        differences,
    })
}
