//! One turn as a machine the binding feeds with neutral events: what it read of the rows
//! (their kinds and candidates), what a store threw (its name facts), the budget
//! elapsing, an abort. The rules the SPEC gives a turn are decided here: which rows are
//! active (section 2, "Rows"), NAME in refusal 2a, when an abort wins, which budget a
//! timer can carry. The binding only reads, calls and waits.

use super::Row;
use crate::names::Name;

/// `setTimeout` fires at once for delays past 2^31 - 1 ms: a budget beyond it never runs
/// out, so no timer is set for it.
pub const LONGEST_TIMER: f64 = 2_147_483_647.0;

/// The timer to set for a turn's budget (`timeoutMs`), if any.
pub fn timer(timeout_ms: Option<f64>) -> Option<f64> {
    timeout_ms.filter(|&ms| ms <= LONGEST_TIMER)
}

/// What the binding reads of a row first, for every row: its activity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// A string.
    Text,
    /// An object that is not an array; `off` when its `active` is exactly `false`.
    Record { off: bool },
    /// Anything else: a number, `null`, a boolean, an array.
    Other,
    /// The caller's `isActive` answered, read as truthy or falsy.
    Said(bool),
}

/// SPEC 2, "Rows": a string row is active; an object row is active unless its `active`
/// is exactly `false`; anything else is active (and has no candidate); `isActive`, when
/// given, decides alone.
pub fn is_active(activity: Activity) -> bool {
    match activity {
        Activity::Record { off } => !off,
        Activity::Said(yes) => yes,
        Activity::Text | Activity::Other => true,
    }
}

/// One row as the routing core sees it: its activity, and for an active row the
/// candidate its reader found (a string row's string, a record's first string field, what
/// the caller's `candidateOf` answered when a string); inactive rows are never asked.
/// `exact`: the row is one the package's index made, read by its own reader (its `tool`,
/// a registered name as it is: not trimmed).
pub fn row(activity: Activity, candidate: Option<&Name>, exact: bool) -> Row<'_> {
    match (is_active(activity), candidate) {
        (false, _) => Row::Inactive,
        (true, Some(text)) if exact => Row::Exact(text),
        (true, Some(text)) => Row::Candidate(text),
        (true, None) => Row::NoCandidate,
    }
}

/// NAME in refusal 2a, from the facts of what a store threw: its `name`, its constructor's
/// `name` (each empty unless a string) and `typeof` it. The first non-empty of the two
/// names, else `typeof`: its place among the facts.
pub fn error_name(facts: [&Name; 3]) -> usize {
    facts[..2].iter().position(|n| !n.is_empty()).unwrap_or(2)
}

/// Where a turn goes next.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Next {
    /// The promise rejects with the signal's reason (an abort, as `fetch` does).
    Reject,
    /// Refusal 1: no procedural layer.
    NoLayer,
    /// Call `entries`.
    Call,
    /// Read the answer `entries` returned (it is no thenable) and decide.
    Read,
    /// Refusal 2a: `entries` threw or rejected.
    Failed,
    /// Wait for the first of the store's answer, the budget's timer ([`timer`]), an abort.
    Wait,
    /// Refusal 2b: the budget elapsed first.
    TimedOut,
}

/// Before anything: an aborted signal rejects, then a missing layer is refusal 1, and the
/// caller's own mistakes were checked before this (they never cost a store query).
pub fn begin(aborted: bool, has_layer: bool) -> Next {
    if aborted {
        Next::Reject
    } else if !has_layer {
        Next::NoLayer
    } else {
        Next::Call
    }
}

/// What `entries` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returned {
    /// It threw (or its answer's `then` could not be read).
    Threw,
    /// It returned a value that is no thenable.
    Value,
    /// It returned a thenable.
    Thenable,
}

/// After `entries` returned. A throw is the store failing even when `entries` also aborted
/// the turn; otherwise an abort during the call rejects (and the answer is never awaited).
pub fn returned(what: Returned, aborted: bool) -> Next {
    match what {
        Returned::Threw => Next::Failed,
        _ if aborted => Next::Reject,
        Returned::Value => Next::Read,
        Returned::Thenable => Next::Wait,
    }
}

/// The first event of a wait, which alone decides it (later ones are ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Answered,
    Rejected,
    Elapsed,
    Aborted,
}

/// What a wait's first event means: the rows to read, refusal 2a or 2b, or a rejection.
pub fn settled(event: Event) -> Next {
    match event {
        Event::Answered => Next::Read,
        Event::Rejected => Next::Failed,
        Event::Elapsed => Next::TimedOut,
        Event::Aborted => Next::Reject,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::units;

    #[test]
    fn rows_follow_the_spec_readers() {
        let a = units("a");
        assert_eq!(row(Activity::Text, Some(&a), false), Row::Candidate(&a));
        assert_eq!(
            row(Activity::Record { off: true }, Some(&a), false),
            Row::Inactive
        );
        assert_eq!(
            row(Activity::Record { off: false }, None, false),
            Row::NoCandidate
        );
        assert_eq!(row(Activity::Other, None, false), Row::NoCandidate);
        assert_eq!(row(Activity::Said(false), Some(&a), false), Row::Inactive);
        assert_eq!(
            row(Activity::Said(true), Some(&a), false),
            Row::Candidate(&a)
        );
        assert_eq!(
            row(Activity::Record { off: false }, Some(&a), true),
            Row::Exact(&a)
        );
        assert_eq!(
            row(Activity::Record { off: true }, Some(&a), true),
            Row::Inactive
        );
    }

    #[test]
    fn error_names_fall_back_in_order() {
        let (n, c, t) = (units("StoreDown"), units("Error"), units("object"));
        assert_eq!(error_name([&n, &c, &t]), 0);
        assert_eq!(error_name([&[], &c, &t]), 1);
        assert_eq!(error_name([&[], &[], &t]), 2);
    }

    #[test]
    fn aborts_timers_and_throws_take_their_turn() {
        assert_eq!(begin(true, false), Next::Reject);
        assert_eq!(begin(false, false), Next::NoLayer);
        assert_eq!(returned(Returned::Threw, true), Next::Failed);
        assert_eq!(returned(Returned::Value, true), Next::Reject);
        assert_eq!(returned(Returned::Thenable, false), Next::Wait);
        assert_eq!((timer(Some(3e9)), timer(Some(250.0))), (None, Some(250.0)));
        assert_eq!(settled(Event::Aborted), Next::Reject);
    }
}
