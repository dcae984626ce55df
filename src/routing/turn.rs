//! One turn as a machine the binding feeds with neutral events: what it read of the rows
//! (kinds and strings), what a store threw (its name facts), the budget elapsing, an
//! abort. Every rule the SPEC gives a turn is decided here: which rows are active and what
//! each one's candidate is (section 2, "Rows"), NAME in refusal 2a, when an abort wins,
//! which budget a timer can carry. The binding only reads, calls and waits.

use super::Row;
use crate::names::{Name, NameList};
use alloc::vec::Vec;

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

/// The fields a record row's candidate is read from, in order.
pub const CANDIDATE_FIELDS: [&str; 3] = ["tool", "toolName", "content"];

/// What the binding reads of an active row next: what its candidate can come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Candidacy<'a> {
    /// A string row: the string itself.
    Text(&'a Name),
    /// A record: each of [`CANDIDATE_FIELDS`] that is a string.
    Record([Option<&'a Name>; 3]),
    /// Anything else.
    Other,
    /// The caller's `candidateOf` answered: a string, or something else.
    Said(Option<&'a Name>),
}

/// SPEC 2, "Rows": a string row's candidate is the string; a record's is the first of
/// `tool`, `toolName`, `content` that is a string; `candidateOf`, when given, decides alone
/// (a string answer is the candidate).
pub fn candidate(candidacy: Candidacy<'_>) -> Option<&Name> {
    match candidacy {
        Candidacy::Text(text) => Some(text),
        Candidacy::Record(fields) => fields.into_iter().flatten().next(),
        Candidacy::Other => None,
        Candidacy::Said(said) => said,
    }
}

/// One row as the routing core sees it: inactive rows are never asked for a candidate
/// (`candidacy` is `None` for them).
pub fn row<'a>(activity: Activity, candidacy: Option<Candidacy<'a>>) -> Row<'a> {
    if !is_active(activity) {
        return Row::Inactive;
    }
    match candidacy.and_then(candidate) {
        Some(text) => Row::Candidate(text),
        None => Row::NoCandidate,
    }
}

/// How a reader codes what it read of the rows (two codes per row, its activity, then its
/// candidacy; the strings it kept in row order beside them): `host.js` `readRows` writes
/// them, [`rows`] reads them.
pub mod code {
    /// Activity codes: a string, a record (`active` not `false`), a record with
    /// `active: false`, anything else, `isActive` said yes, `isActive` said no.
    pub const TEXT: u8 = 0;
    pub const RECORD_ON: u8 = 1;
    pub const RECORD_OFF: u8 = 2;
    pub const OTHER: u8 = 3;
    pub const SAID_YES: u8 = 4;
    pub const SAID_NO: u8 = 5;
    /// Candidacy codes beside `TEXT` and `OTHER`: `candidateOf` answered a string (kept)
    /// or something else; a record's holds `RECORD` and one bit per field of
    /// [`super::CANDIDATE_FIELDS`] that it kept; an inactive row was not asked.
    pub const SAID_TEXT: u8 = 4;
    pub const SAID_OTHER: u8 = 5;
    pub const RECORD: u8 = 8;
    pub const NOT_READ: u8 = 255;
}

/// A row's activity from its code.
pub fn activity(code: u8) -> Activity {
    match code {
        code::TEXT => Activity::Text,
        code::RECORD_ON => Activity::Record { off: false },
        code::RECORD_OFF => Activity::Record { off: true },
        code::SAID_YES => Activity::Said(true),
        code::SAID_NO => Activity::Said(false),
        _ => Activity::Other,
    }
}

/// The activity rule as a table by activity code (1: active), for a reader that asks
/// active rows only for their candidate.
pub fn activity_table() -> [u8; 6] {
    core::array::from_fn(|c| u8::from(is_active(activity(c as u8))))
}

/// The rows a reader coded, with the strings it kept (in row order), and for each row
/// with a candidate the index of its string among them.
pub fn rows<'a>(codes: &[u8], strings: &'a NameList) -> (Vec<Row<'a>>, Vec<u32>) {
    let mut next = 0;
    let mut chosen = Vec::new();
    let rows = codes
        .chunks_exact(2)
        .map(|pair| {
            let first = next;
            // The next string kept; none when the reader held back one it coded.
            let mut take = || {
                next += 1;
                (next <= strings.len()).then(|| strings.get(next - 1))
            };
            let candidacy = match pair[1] {
                code::NOT_READ => None,
                code::TEXT => Some(take().map_or(Candidacy::Other, Candidacy::Text)),
                code::SAID_TEXT => Some(Candidacy::Said(take())),
                code::SAID_OTHER => Some(Candidacy::Said(None)),
                c if c & code::RECORD != 0 => {
                    let mut fields = [None; 3];
                    for (k, field) in fields.iter_mut().enumerate() {
                        if c & (1 << k) != 0 {
                            *field = take();
                        }
                    }
                    Some(Candidacy::Record(fields))
                }
                _ => Some(Candidacy::Other),
            };
            let row = row(activity(pair[0]), candidacy);
            if let Row::Candidate(text) = row {
                let at =
                    (first..next.min(strings.len())).find(|&i| core::ptr::eq(strings.get(i), text));
                chosen.push(at.unwrap_or(first) as u32);
            }
            row
        })
        .collect();
    (rows, chosen)
}

/// What a store threw, as facts: its `name` when that is a string, its constructor's
/// `name` when that is a string, and `typeof` it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thrown<'a> {
    pub name: Option<&'a Name>,
    pub constructor: Option<&'a Name>,
    pub type_of: &'a Name,
}

/// NAME in refusal 2a: the thrown value's `name` when that is a non-empty string, else its
/// constructor's name (non-empty), else `typeof` it.
pub fn error_name<'a>(thrown: &Thrown<'a>) -> &'a Name {
    let named = |n: Option<&'a Name>| n.filter(|n| !n.is_empty());
    named(thrown.name)
        .or(named(thrown.constructor))
        .unwrap_or(thrown.type_of)
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
    /// Refusal 2a: `entries` threw.
    Failed,
    /// Wait for the first of the store's answer, the budget's timer (`Some(ms)`), an abort.
    Wait(Option<f64>),
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
pub fn returned(what: Returned, aborted: bool, timeout_ms: Option<f64>) -> Next {
    match what {
        Returned::Threw => Next::Failed,
        _ if aborted => Next::Reject,
        Returned::Value => Next::Read,
        Returned::Thenable => Next::Wait(timer(timeout_ms)),
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
pub fn settled(event: Event) -> Settled {
    match event {
        Event::Answered => Settled::Read,
        Event::Rejected => Settled::Failed,
        Event::Elapsed => Settled::TimedOut,
        Event::Aborted => Settled::Reject,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    Read,
    Failed,
    TimedOut,
    Reject,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::units;

    #[test]
    fn rows_follow_the_spec_readers() {
        let a = units("a");
        let b = units("b");
        assert_eq!(
            row(Activity::Text, Some(Candidacy::Text(&a))),
            Row::Candidate(&a)
        );
        assert_eq!(row(Activity::Record { off: true }, None), Row::Inactive);
        let fields = [None, Some(&b[..]), Some(&a[..])];
        assert_eq!(
            row(
                Activity::Record { off: false },
                Some(Candidacy::Record(fields))
            ),
            Row::Candidate(&b)
        );
        assert_eq!(
            row(
                Activity::Record { off: false },
                Some(Candidacy::Record([None; 3]))
            ),
            Row::NoCandidate
        );
        assert_eq!(
            row(Activity::Other, Some(Candidacy::Other)),
            Row::NoCandidate
        );
        assert_eq!(row(Activity::Said(false), None), Row::Inactive);
        assert_eq!(
            row(Activity::Said(true), Some(Candidacy::Said(Some(&a)))),
            Row::Candidate(&a)
        );
        assert_eq!(
            row(Activity::Text, Some(Candidacy::Said(None))),
            Row::NoCandidate
        );
    }

    #[test]
    fn error_names_fall_back_in_order() {
        let (n, c, t) = (units("StoreDown"), units("Error"), units("object"));
        let empty = units("");
        let thrown = |name, constructor| Thrown {
            name,
            constructor,
            type_of: &t,
        };
        assert_eq!(error_name(&thrown(Some(&n), Some(&c))), &n[..]);
        assert_eq!(error_name(&thrown(Some(&empty), Some(&c))), &c[..]);
        assert_eq!(error_name(&thrown(None, Some(&empty))), &t[..]);
    }

    #[test]
    fn aborts_timers_and_throws_take_their_turn() {
        assert_eq!(begin(true, false), Next::Reject);
        assert_eq!(begin(false, false), Next::NoLayer);
        assert_eq!(returned(Returned::Threw, true, None), Next::Failed);
        assert_eq!(returned(Returned::Value, true, None), Next::Reject);
        assert_eq!(
            returned(Returned::Thenable, false, Some(3e9)),
            Next::Wait(None)
        );
        assert_eq!(
            returned(Returned::Thenable, false, Some(250.0)),
            Next::Wait(Some(250.0))
        );
        assert_eq!(settled(Event::Aborted), Settled::Reject);
    }
}
