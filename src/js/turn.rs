//! One routing turn, shared by `resolvePalette` and `ToolRouter.resolve`: call the
//! procedural layer, wait for its answer (or the budget, or the caller's abort), read its
//! rows, let the core decide, then build the outcome and, when asked, the decision report.
//!
//! A layer that answers synchronously is decided at once. Otherwise `host.js`'s `Wait`
//! waits, in JavaScript, for the first of three events (the store's answer, the budget's
//! timer, the abort), stops the other two and hands the event to [`Pending::finish`],
//! which decides what it means. Nothing of the turn waits inside the module: a store that
//! never settles leaves a `Wait` and a `Pending` that garbage collection takes once the
//! caller drops the turn's promise (a wasm future would hold them in the module's memory
//! and reference table for good).

use super::batch::{self, fits};
use super::host;
use super::options::Layer;
use super::outcome;
use super::wire::{self, Answer};
use super::{JsResult, Message};
use crate::names::{NameList, NameSet};
use crate::routing::turn::{self as machine, Event, Next, Returned, Settled, Thrown};
use crate::routing::{self, Retrieval, Row};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::Cell;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

/// The registered palette of a turn: the caller's names and their index.
#[derive(Clone)]
pub(crate) struct Registered {
    pub list: Array,
    pub set: Rc<NameSet>,
}

/// What asking the procedural layer came to, in the caller's values.
enum Retrieved {
    NoLayer,
    /// `entries` threw or rejected, or its answer could not be read: what was thrown.
    Failed(JsValue),
    TimedOut(f64),
    Rows(Option<Read>),
}

/// One turn as the caller asked for it.
pub(crate) struct Ask {
    pub layer: Rc<Layer>,
    pub signal: Option<JsValue>,
    /// `undefined`: `entries()` is called with no argument.
    pub context: JsValue,
    /// Who receives the decision report: the router's, then the call's own.
    pub on_decision: Vec<Function>,
    /// Names the signal in errors ("resolvePalette: options.signal").
    pub signal_place: &'static str,
}

/// The registered palette of a turn: indexed already (a router's, or the last list a
/// `resolvePalette` indexed), or new names to index once the rows are in, so that a turn
/// in flight holds no index of its own.
#[derive(Clone)]
pub(crate) enum Palette {
    Indexed(Registered),
    Names(Array, usize),
}

impl Palette {
    fn registered(self) -> Registered {
        match self {
            Palette::Indexed(registered) => registered,
            // Not the last list (`known` said so when the turn was asked).
            Palette::Names(list, units) => Registered {
                set: index(&list, units),
                list,
            },
        }
    }
}

thread_local! {
    /// The last registered list indexed, kept for the next call: agents pass the same
    /// names turn after turn (and hosts build a router per request with them).
    /// (A `Cell` taken and put back: should the module ever trap in between, the cache is
    /// merely empty.)
    static LAST: Cell<Option<(Array, Rc<NameSet>)>> = const { Cell::new(None) };
}

/// The index of `list` (`units` code units of names, checked against the limits): the
/// last one built when the names are the same strings in the same order (see [`known`]),
/// else a new one, which then replaces it.
pub(crate) fn registry_of(list: &Array, units: usize) -> Rc<NameSet> {
    known(list).map_or_else(|| index(list, units), |known| known.set)
}

/// A new index of `list`, kept as the last one.
fn index(list: &Array, units: usize) -> Rc<NameSet> {
    let set = Rc::new(NameSet::new(batch::write(list, units)));
    LAST.set(Some((list.clone(), set.clone())));
    set
}

/// `list` indexed already when it holds the same strings in the same order as the last
/// list indexed (compared name by name on every call): then it was checked already, too.
pub(crate) fn known(list: &Array) -> Option<Registered> {
    let (names, set) = LAST.take()?;
    let same = host::same(&names, list);
    LAST.set(Some((names, set.clone())));
    same.then(|| Registered {
        list: list.clone(),
        set,
    })
}

/// Runs a turn, whose JavaScript half is `turn` (host.js `Wait`): it holds the promise the
/// facade returns, which settles with the outcome; it rejects only for an abort, a broken
/// signal, or an `onDecision` that throws (`Err` before the turn waits).
pub(crate) fn run(mut ask: Ask, palette: Palette, turn: host::Wait) -> JsResult<()> {
    let started = (!ask.on_decision.is_empty()).then(host::now);
    match begin(&ask, &turn)? {
        Begun::Ready(retrieved, called) => {
            let clock = Clock { started, called };
            let outcome = finish(retrieved, &palette.registered(), &ask, clock)?;
            turn.resolve(&outcome);
        }
        Begun::Waiting(budget) => {
            // The signal stays with the wait (it holds the listener); the pending half
            // holds nothing that could keep the wait alive.
            let signal = ask.signal.take().unwrap_or_default();
            let place = ask.signal_place;
            let layer = ask.layer.clone();
            let pending = Pending {
                ask,
                palette,
                started,
            };
            let ms = budget.unwrap_or(f64::NAN);
            let (is_active, candidate_of) = (&layer.is_active, &layer.candidate_of);
            if turn.wait(pending, ms, &signal, is_active, candidate_of) {
                return Err(broken_signal(place, &turn.thrown()));
            }
        }
    }
    Ok(())
}

/// The module's half of a turn that waits: what it needs to decide once the event is in.
#[wasm_bindgen(skip_typescript)]
pub struct Pending {
    ask: Ask,
    /// Indexed once the event is in, so that a turn in flight holds no index.
    palette: Palette,
    started: Option<f64>,
}

#[wasm_bindgen]
impl Pending {
    /// Decides the turn on the first event (`host.js` `Wait` stopped the timer and the
    /// listener already), a wire `Event`: when the store answered, its rows read as `rows`
    /// says: a wire `Answer`, `count` rows whose candidacies hold the `found` `strings`,
    /// of `units` code units, written into the batch; with the error when it rejected or
    /// the signal failed to let go.
    #[allow(clippy::too_many_arguments)]
    pub fn finish(
        &self,
        kind: u32,
        value: JsValue,
        signal: JsValue,
        rows: u32,
        count: f64,
        strings: Array,
        found: f64,
        units: f64,
    ) -> JsResult<JsValue> {
        let ask = &self.ask;
        let first = match wire::Event::of(kind) {
            Some(wire::Event::Answered) => Event::Answered,
            Some(wire::Event::Rejected) => Event::Rejected,
            Some(wire::Event::Elapsed) => Event::Elapsed,
            Some(wire::Event::Aborted) => Event::Aborted,
            _ => return Err(broken_signal(ask.signal_place, &value)),
        };
        let retrieved = match machine::settled(first) {
            Settled::Read => read(rows, (count, found, units), strings, &value),
            Settled::Failed => Retrieved::Failed(value),
            Settled::TimedOut => Retrieved::TimedOut(ask.layer.timeout_ms.unwrap_or(0.0)),
            Settled::Reject => return Err(reason(ask.signal_place, &signal)?),
        };
        let clock = Clock {
            started: self.started,
            called: true,
        };
        finish(retrieved, &self.palette.clone().registered(), ask, clock)
    }
}

enum Begun {
    /// Decided without waiting; `true` when `entries` was called.
    Ready(Retrieved, bool),
    /// `entries` returned a thenable (the turn's answer); the timer to set for the budget.
    Waiting(Option<f64>),
}

/// The turn up to its wait, as the core's machine says (src/routing/turn.rs).
fn begin(ask: &Ask, turn: &host::Wait) -> JsResult<Begun> {
    match machine::begin(aborted(ask)?, ask.layer.entries.is_some()) {
        Next::Reject => return Err(reason_of(ask)?),
        Next::NoLayer => return Ok(Begun::Ready(Retrieved::NoLayer, false)),
        _ => {}
    }
    let Some(entries) = &ask.layer.entries else {
        return Ok(Begun::Ready(Retrieved::NoLayer, false));
    };
    // What it answered (the turn keeps it), or what it (or reading its `then`) threw.
    let what = match wire::Returned::of(turn.ask(entries, &ask.context)) {
        Some(wire::Returned::Value) => Returned::Value,
        Some(wire::Returned::Thenable) => Returned::Thenable,
        _ => Returned::Threw,
    };
    // `entries` itself may have aborted the turn.
    let aborted = if what == Returned::Threw {
        false
    } else {
        aborted(ask)?
    };
    Ok(
        match machine::returned(what, aborted, ask.layer.timeout_ms) {
            Next::Failed => Begun::Ready(Retrieved::Failed(turn.answer()), true),
            Next::Read => {
                let layer = &ask.layer;
                let rows = turn.rows(&layer.is_active, &layer.candidate_of);
                let read_rows = (turn.count(), turn.found(), turn.units());
                Begun::Ready(read(rows, read_rows, turn.strings(), &turn.answer()), true)
            }
            Next::Wait(timer) => Begun::Waiting(timer),
            _ => {
                // Never awaited: a rejection of it is handled and ignored.
                turn.ignore();
                return Err(reason_of(ask)?);
            }
        },
    )
}

/// Whether the caller's signal is aborted (`false` without one).
fn aborted(ask: &Ask) -> JsResult<bool> {
    let Some(signal) = &ask.signal else {
        return Ok(false);
    };
    let aborted = host::get(signal, |k| &k.aborted)
        .map_err(|cause| broken_signal(ask.signal_place, &cause))?;
    Ok(aborted.is_truthy())
}

fn reason_of(ask: &Ask) -> JsResult<JsValue> {
    reason(
        ask.signal_place,
        ask.signal.as_ref().unwrap_or(&JsValue::UNDEFINED),
    )
}

pub(crate) fn reason(place: &'static str, signal: &JsValue) -> JsResult<JsValue> {
    host::get(signal, |k| &k.reason).map_err(|cause| broken_signal(place, &cause))
}

/// Whatever a signal-like object throws after the check, the turn settles with this.
pub(crate) fn broken_signal(place: &'static str, cause: &JsValue) -> JsValue {
    Message::new(place)
        .add(" failed as an AbortSignal")
        .type_error_caused(cause)
}

/// A turn's rows as read, before any rule.
struct Read {
    /// Two codes per row, its activity, then its candidacy (see `host.js` `readRows`).
    codes: Vec<u8>,
    /// The strings the candidacies hold, in row order, and in the module.
    strings: Array,
    names: NameList,
}

/// The store's answer as the turn read it (`rows`, a wire `Answer`; `value`, what a
/// reading threw): no rows, rows, or a fault (a non-iterable, a row that cannot be read,
/// more than a call may hold).
fn read(
    rows: u32,
    (count, n, units): (f64, f64, f64),
    strings: Array,
    value: &JsValue,
) -> Retrieved {
    match Answer::of(rows) {
        Some(Answer::Rows) => {}
        Some(Answer::None) => return Retrieved::Rows(None),
        Some(Answer::NotIterable) => {
            let message = Message::new("the procedural layer returned a non-iterable");
            return Retrieved::Failed(message.type_error());
        }
        _ => return Retrieved::Failed(value.clone()),
    }
    let n = n as usize;
    if !fits((count as usize).max(n), units as usize) {
        let message = Message::new("the procedural layer's answer is too large to route");
        return Retrieved::Failed(message.range_error());
    }
    let (codes, names) = batch::take_rows(2 * count as usize, n, units as usize);
    Retrieved::Rows(Some(Read {
        codes,
        strings,
        names,
    }))
}

/// NAME in "procedural retrieval failed (NAME)", from the facts of what was thrown (the
/// rule is the core's, `routing::turn::error_name`); a name too large to carry is a store
/// answer beyond the limits.
fn error_name(value: &JsValue) -> Vec<u16> {
    let string = |v: JsResult<JsValue>| v.ok().filter(JsValue::is_string);
    let (mut name, mut constructor) = (None, None);
    if value.is_object() || value.is_function() {
        name = string(host::get(value, |k| &k.name));
        constructor = host::get(value, |k| &k.constructor)
            .ok()
            .filter(|c| c.is_object() || c.is_function())
            .and_then(|c| string(host::get(&c, |k| &k.name)));
    }
    let units = |v: &JsValue| batch::name_units(v, &|| Message::new(""));
    let (Ok(name), Ok(constructor)) = (
        name.as_ref().map(units).transpose(),
        constructor.as_ref().map(units).transpose(),
    ) else {
        return crate::names::units("RangeError");
    };
    let type_of = batch::units_of(&value.js_typeof());
    let thrown = Thrown {
        name: name.as_deref(),
        constructor: constructor.as_deref(),
        type_of: &type_of,
    };
    machine::error_name(&thrown).to_vec()
}

#[derive(Clone, Copy)]
struct Clock {
    /// `now()` when the turn started; only taken for a decision report.
    started: Option<f64>,
    /// Whether `entries` was called.
    called: bool,
}

fn finish(
    retrieved: Retrieved,
    registered: &Registered,
    ask: &Ask,
    clock: Clock,
) -> JsResult<JsValue> {
    let retrieval_ms = match (clock.started, clock.called) {
        (Some(t0), true) => host::now() - t0,
        _ => 0.0,
    };
    let detail: Vec<u16>;
    let rows: Vec<Row>;
    // The turn's candidates (`undefined` for a turn without rows).
    let mut names = JsValue::UNDEFINED;
    let retrieval = match &retrieved {
        Retrieved::NoLayer => Retrieval::NoLayer,
        Retrieved::Failed(thrown) => {
            detail = error_name(thrown);
            Retrieval::Failed(&detail)
        }
        Retrieved::TimedOut(ms) => {
            // N as JavaScript prints the number.
            let printed = js_sys::Number::from(*ms)
                .to_string_with_radix(10)
                .unwrap_or_default();
            detail = batch::units_of(&printed.into());
            Retrieval::TimedOut(&detail)
        }
        Retrieved::Rows(None) => Retrieval::Rows(None),
        Retrieved::Rows(Some(read)) => {
            let chosen;
            (rows, chosen) = machine::rows(&read.codes, &read.names);
            let strings = &read.names;
            // The candidates, in order: the caller's own strings (every string read is
            // one when the reader stops at a row's first string, as `host.js`'s does).
            names = if chosen.len() == strings.len() {
                read.strings.clone().into()
            } else {
                host::pick(&read.strings, &chosen).into()
            };
            Retrieval::Rows(Some(&rows))
        }
    };
    let turn = routing::resolve(&registered.set, retrieval);
    let result = outcome::of_turn(&turn.outcome, &registered.list, &names);
    if !ask.on_decision.is_empty() {
        let report = outcome::report(
            &turn,
            &result,
            &registered.set,
            &registered.list,
            &names,
            retrieval_ms,
        );
        for receiver in &ask.on_decision {
            host::call1(receiver, &report)?;
        }
    }
    Ok(result)
}

/// The decision report of a router that cannot route.
pub(crate) fn report_unavailable(on_decision: &[Function], unavailable: &JsValue) -> JsResult<()> {
    if !on_decision.is_empty() {
        let report = outcome::unavailable_report(unavailable);
        for receiver in on_decision {
            host::call1(receiver, &report)?;
        }
    }
    Ok(())
}
