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
use super::host::{self, Batch};
use super::options::Layer;
use super::outcome;
use super::{JsResult, Message};
use crate::names::{NameList, NameSet};
use crate::routing::{self, Retrieval, Row};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::Cell;
use js_sys::{Array, Function, JsString, Promise};
use wasm_bindgen::prelude::*;

/// `setTimeout` fires at once for delays past 2^31 - 1 ms: such a budget never runs out.
const LONGEST_TIMER: f64 = 2_147_483_647.0;

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
    Rows(Option<Batch>),
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

/// The registered palette of a turn: indexed already (a router's), or names to index
/// once the rows are in (`resolvePalette`'s), so that a turn in flight holds no index.
#[derive(Clone)]
pub(crate) enum Palette {
    Indexed(Registered),
    Names(Array, usize),
}

impl Palette {
    fn registered(self) -> Registered {
        match self {
            Palette::Indexed(registered) => registered,
            Palette::Names(list, units) => Registered {
                set: registry_of(&list, units),
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
/// last one built when the names are the same strings in the same order, compared name
/// by name on every call, else a new one, which then replaces it.
pub(crate) fn registry_of(list: &Array, units: usize) -> Rc<NameSet> {
    if let Some((names, set)) = LAST.take() {
        if host::same(&names, list) {
            LAST.set(Some((names, set.clone())));
            return set;
        }
    }
    let set = Rc::new(NameSet::new(batch::write(list, units)));
    LAST.set(Some((list.clone(), set.clone())));
    set
}

/// Runs a turn. The promise rejects only for an abort, a broken signal, or an
/// `onDecision` that throws.
pub(crate) fn run(mut ask: Ask, palette: Palette) -> Promise {
    let started = (!ask.on_decision.is_empty()).then(host::now);
    match begin(&ask) {
        Err(error) => Promise::reject(&error),
        Ok(Begun::Ready(retrieved, called)) => {
            let clock = Clock { started, called };
            settled(finish(retrieved, &palette.registered(), &ask, clock))
        }
        Ok(Begun::Waiting(value)) => {
            // The signal stays with the wait (it holds the listener); the pending half
            // holds nothing that could keep the wait alive.
            let signal = ask.signal.take();
            let place = ask.signal_place;
            let budget = ask.layer.timeout_ms.filter(|&ms| ms <= LONGEST_TIMER);
            let pending = Pending {
                ask,
                palette,
                started,
            };
            let wait = host::Wait::new(pending);
            wait.follow(&value);
            if let Some(ms) = budget {
                wait.start_timer(ms);
            }
            if let Some(signal) = &signal {
                if let Err(cause) = wait.listen(signal) {
                    wait.stop_timer();
                    return Promise::reject(&broken_signal(place, &cause));
                }
            }
            wait.promise()
        }
    }
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
    /// listener already): `[0, rows]` or `[1, error]` when the store answered, `[2]` when
    /// the budget elapsed, `[3]` on abort, `[4, error]` when the signal failed to let go.
    pub fn finish(&self, event: Array, signal: JsValue) -> JsResult<JsValue> {
        let ask = &self.ask;
        let retrieved = match event.get(0).as_f64() {
            Some(0.0) => read(&event.get(1), &ask.layer),
            Some(1.0) => Retrieved::Failed(event.get(1)),
            Some(2.0) => Retrieved::TimedOut(ask.layer.timeout_ms.unwrap_or(0.0)),
            Some(3.0) => return Err(reason(ask.signal_place, &signal)?),
            _ => return Err(broken_signal(ask.signal_place, &event.get(1))),
        };
        let clock = Clock {
            started: self.started,
            called: true,
        };
        finish(retrieved, &self.palette.clone().registered(), ask, clock)
    }
}

fn settled(result: JsResult<JsValue>) -> Promise {
    match result {
        Ok(value) => Promise::resolve(&value),
        Err(error) => Promise::reject(&error),
    }
}

enum Begun {
    /// Decided without waiting; `true` when `entries` was called.
    Ready(Retrieved, bool),
    /// `entries` returned a thenable.
    Waiting(JsValue),
}

fn begin(ask: &Ask) -> JsResult<Begun> {
    check_abort(ask)?;
    let Some(entries) = &ask.layer.entries else {
        return Ok(Begun::Ready(Retrieved::NoLayer, false));
    };
    let called = if ask.context.is_undefined() {
        host::call0(entries)
    } else {
        host::call1(entries, &ask.context)
    };
    let value = match called {
        Ok(value) => value,
        Err(thrown) => return Ok(Begun::Ready(Retrieved::Failed(thrown), true)),
    };
    // `entries` itself may have aborted the turn: its answer is then never awaited, and
    // a rejection of it is handled and ignored.
    if let Err(abort) = check_abort(ask) {
        host::ignore(&value);
        return Err(abort);
    }
    if !(value.is_object() || value.is_function()) {
        return Ok(Begun::Ready(read(&value, &ask.layer), true));
    }
    match host::get(&value, |k| &k.then) {
        Ok(then) if then.is_function() => Ok(Begun::Waiting(value)),
        Ok(_) => Ok(Begun::Ready(read(&value, &ask.layer), true)),
        Err(thrown) => Ok(Begun::Ready(Retrieved::Failed(thrown), true)),
    }
}

/// An aborted signal rejects the turn with its reason, as `fetch` does.
fn check_abort(ask: &Ask) -> JsResult<()> {
    let Some(signal) = &ask.signal else {
        return Ok(());
    };
    let aborted = host::get(signal, |k| &k.aborted)
        .map_err(|cause| broken_signal(ask.signal_place, &cause))?;
    if aborted.is_truthy() {
        return Err(reason(ask.signal_place, signal)?);
    }
    Ok(())
}

fn reason(place: &'static str, signal: &JsValue) -> JsResult<JsValue> {
    host::get(signal, |k| &k.reason).map_err(|cause| broken_signal(place, &cause))
}

/// Whatever a signal-like object throws after the check, the turn settles with this.
fn broken_signal(place: &'static str, cause: &JsValue) -> JsValue {
    Message::new(place)
        .add(" failed as an AbortSignal")
        .type_error_caused(cause)
}

/// The store's answer: no rows, rows, or a fault (a non-iterable, a row that cannot be
/// read, more than a call may hold).
fn read(value: &JsValue, layer: &Layer) -> Retrieved {
    if value.is_null() || value.is_undefined() {
        return Retrieved::Rows(None);
    }
    let is_iterable = host::iterable(value);
    if let Some(u) = is_iterable.dyn_ref::<host::Unreadable>() {
        return Retrieved::Failed(u.cause());
    }
    if !is_iterable.is_truthy() {
        let message = Message::new("the procedural layer returned a non-iterable");
        return Retrieved::Failed(message.type_error());
    }
    match host::read_rows(value, &layer.candidate_of, &layer.is_active) {
        Err(thrown) => Retrieved::Failed(thrown),
        Ok(rows) if !fits(rows.rows() as usize, rows.units() as usize) => Retrieved::Failed(
            Message::new("the procedural layer's answer is too large to route").range_error(),
        ),
        Ok(rows) => Retrieved::Rows(Some(rows)),
    }
}

/// NAME in "procedural retrieval failed (NAME)": the thrown value's `name` when that is
/// a non-empty string, else its constructor's name, else `typeof`.
fn error_name(value: &JsValue) -> JsValue {
    let named = |v: &JsValue| {
        host::get(v, |k| &k.name)
            .ok()
            .filter(|n| n.dyn_ref::<JsString>().is_some_and(|s| s.length() > 0))
    };
    if value.is_object() || value.is_function() {
        if let Some(name) = named(value) {
            return name;
        }
        let constructor = host::get(value, |k| &k.constructor);
        if let Some(name) = constructor
            .ok()
            .filter(|c| c.is_object() || c.is_function())
            .and_then(|c| named(&c))
        {
            return name;
        }
    }
    value.js_typeof()
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
    let candidates: NameList;
    let rows: Vec<Row>;
    let mut names = Array::new();
    let retrieval = match &retrieved {
        Retrieved::NoLayer => Retrieval::NoLayer,
        Retrieved::Failed(thrown) => {
            // A name too large to carry is a store answer beyond the limits.
            detail = batch::name_units(&error_name(thrown), &|| Message::new(""))
                .unwrap_or_else(|_| crate::names::units("RangeError"));
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
        Retrieved::Rows(Some(batch)) => {
            names = batch.names();
            candidates = batch::write(&names, batch.units() as usize);
            let mut next = 0;
            rows = batch
                .flags()
                .iter()
                .map(|&flag| match flag {
                    0 => Row::Inactive,
                    2 if next < candidates.len() => {
                        next += 1;
                        Row::Candidate(candidates.get(next - 1))
                    }
                    _ => Row::NoCandidate,
                })
                .collect();
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
        )?;
        for receiver in &ask.on_decision {
            host::call1(receiver, &report)?;
        }
    }
    Ok(result)
}

/// The decision report of a router that cannot route.
pub(crate) fn report_unavailable(on_decision: &[Function], unavailable: &JsValue) -> JsResult<()> {
    if !on_decision.is_empty() {
        let report = outcome::unavailable_report(unavailable)?;
        for receiver in on_decision {
            host::call1(receiver, &report)?;
        }
    }
    Ok(())
}
