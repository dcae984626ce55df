//! `PaletteRun` (SPEC 8): the binding of [`crate::run::Run`]. It reads the names into the
//! core's form and answers each step with the caller's own registered strings by index.

use super::options::{self, RUN};
use super::palette::routed_names;
use super::wire::{kinds_at, Kind};
use super::{batch, frozen, host, must_be, JsResult, Message};
use crate::names::NameList;
use crate::run::{Cache, RevealError, Run};
use core::cell::{Cell, RefCell};
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** How a run keeps the request's prefix (SPEC 8). */
export type PaletteCache = "per-turn" | "append" | "fixed" | "deferred";

export interface PaletteRunOptions {
  /** Every tool, in the order their definitions are sent (a name given twice counts once). */
  registered: Iterable<string>;
  /** Default `"append"`. */
  cache?: PaletteCache;
  /** Registered names listed and offered on every step (e.g. a tool-search tool). */
  pinned?: Iterable<string>;
}

/** One step of a run: what the model may call, and what the request carries. Frozen. */
export interface PaletteStep {
  /** 1, 2, … in the run. */
  readonly step: number;
  /** What the model may call at this step: the palette the gate admits. */
  readonly offered: readonly string[];
  /** Whose full definitions the request's tools list carries, in this order. */
  readonly listed: readonly string[];
  /** `"deferred"`: sent as deferred definitions (loaded on demand); else `[]`. */
  readonly deferred: readonly string[];
  /** `"deferred"`: offered names new to the run, to reveal after the history; else `[]`. */
  readonly revealed: readonly string[];
  /** `listed` and `deferred` are the previous step's (false at step 1). */
  readonly kept: boolean;
}

/** One conversation or agent loop: each step's palette, kept so the prompt cache holds. Frozen. */
export declare class PaletteRun {
  constructor(options: PaletteRunOptions);
  /** The next step, for this turn's outcome (a refusal or `RoutingUnavailable` means every tool). */
  step(outcome: RouterOutcome): PaletteStep;
  /**
   * `"deferred"`: tools the model loaded itself (a tool search you answered, e.g. with tool-palette/providers'
   * `answerAnthropicToolSearch`). Each joins what the run revealed: offered from the next step on, never revealed
   * again. Answers the names newly revealed (frozen). A TypeError for a name not registered, an Error for a run of
   * another strategy (nothing is deferred there) or after `dispose()`.
   */
  reveal(names: Iterable<string>): readonly string[];
  /** Steps taken. */
  readonly size: number;
  /** Frees the run now rather than at garbage collection; a later `step()` throws. */
  dispose(): void;
  [Symbol.dispose](): void;
}
"#;

struct Running {
    run: Run,
    /// The caller's registered strings, as given (a step's lists index them).
    names: Array,
}

#[wasm_bindgen(skip_typescript)]
pub struct PaletteRun {
    /// `None` once disposed.
    running: RefCell<Option<Running>>,
    /// Steps taken (still read after `dispose()`).
    size: Cell<u32>,
}

/// The caller's iterable of strings in the core's form, with the strings themselves.
fn names(value: &JsValue, place: &dyn Fn() -> Message) -> JsResult<(Array, NameList)> {
    written(&host::read_strings(value), place)
}

/// [`names`] of a list the facade read (host.js `readStrings`).
fn written(read: &host::Strings, place: &dyn Fn() -> Message) -> JsResult<(Array, NameList)> {
    let (list, units) = batch::listed(read, place)?;
    let names = batch::write(&list, units);
    Ok((list, names))
}

/// `<place>[i] ("name") is not a registered tool`.
fn unregistered(place: Message, list: &Array, i: usize) -> JsValue {
    place
        .index(i as u32)
        .add(" (\"")
        .add_js(&list.get(i as u32))
        .add("\") is not a registered tool")
        .type_error()
}

#[wasm_bindgen]
impl PaletteRun {
    /// The facade (api.js) read the options once each (host.js `readFields`: `values` in the
    /// order of [`RUN`]), and the lists of names in them (host.js `readStrings`).
    #[wasm_bindgen(constructor)]
    pub fn construct(
        options: JsValue,
        kinds: u32,
        unread: Option<u32>,
        values: Array,
        registered_names: host::Strings,
        pinned_names: host::Strings,
    ) -> JsResult<JsValue> {
        let place = || Message::new("PaletteRun: options");
        if let Some(Kind::Undefined | Kind::Null) = Kind::of(kinds_at(kinds, 0)) {
            return Err(must_be(place(), "an object with `registered`", &options));
        }
        let values = values.iter().collect();
        let fields = options::given_fields(&options, RUN, kinds, f64::NAN, values, unread, &place)?;
        let (list, registered) = written(&registered_names, &|| place().add(".registered"))?;
        let cache = fields.named("cache");
        let cache = match cache.as_string().map(|_| batch::units_of(&cache)) {
            _ if cache.is_undefined() => Cache::DEFAULT,
            Some(units) => match Cache::named(&units) {
                Some(cache) => cache,
                None => {
                    let message = place().add(".cache must be ").add(Cache::EXPECTED);
                    let got = message.add(", got \"").add_js(&cache).add("\"");
                    return Err(got.type_error());
                }
            },
            None => return Err(must_be(place().add(".cache"), Cache::EXPECTED, &cache)),
        };
        let pinned_at = || place().add(".pinned");
        let (pinned_list, pinned) = if fields.is_absent("pinned") {
            (Array::new(), NameList::default())
        } else {
            written(&pinned_names, &pinned_at)?
        };
        let run = Run::new(cache, registered, &pinned)
            .map_err(|i| unregistered(pinned_at(), &pinned_list, i))?;
        let run = PaletteRun {
            running: RefCell::new(Some(Running {
                run,
                names: frozen(list),
            })),
            size: Cell::new(0),
        };
        Ok(frozen(JsValue::from(run)))
    }

    /// The next step, for this turn's outcome (which the facade read: host.js `readOutcome`).
    pub fn step(&self, outcome: JsValue, kind: u32, names: host::Strings) -> JsResult<JsValue> {
        let place = || Message::new("PaletteRun.step: outcome");
        let disposed = || Message::new("PaletteRun: step() after dispose()").error();
        if self.running.borrow().is_none() {
            return Err(disposed());
        }
        // Reading the outcome may run the caller's getters (no borrow is held meanwhile).
        let routed = routed_names(&outcome, kind, &names, &place)?;
        let mut running = self.running.borrow_mut();
        let Some(running) = running.as_mut() else {
            return Err(disposed());
        };
        let given = routed
            .as_ref()
            .map(|(list, units)| batch::write(list, *units));
        let step = running.run.step(given.as_ref()).map_err(|i| {
            let list = routed.as_ref().map_or_else(Array::new, |(l, _)| l.clone());
            unregistered(place().add(".names"), &list, i)
        })?;
        self.size.set(step.step);
        Ok(host::palette_step(
            &running.names,
            step.step,
            &step.offered,
            &step.listed,
            &step.deferred,
            &step.revealed,
            step.kept,
        ))
    }

    /// Tools the model loaded itself (`"deferred"` runs): offered from the next step on.
    pub fn reveal(&self, names: JsValue) -> JsResult<JsValue> {
        let place = || Message::new("PaletteRun.reveal: names");
        let disposed = || Message::new("PaletteRun: reveal() after dispose()").error();
        if self.running.borrow().is_none() {
            return Err(disposed());
        }
        // Reading the names may run the caller's iterator (no borrow is held meanwhile).
        let (list, given) = self::names(&names, &place)?;
        let mut running = self.running.borrow_mut();
        let Some(running) = running.as_mut() else {
            return Err(disposed());
        };
        let new = running.run.reveal(&given).map_err(|e| match e {
            RevealError::Unregistered(i) => unregistered(place(), &list, i),
            RevealError::NotDeferred(cache) => {
                let message =
                    "PaletteRun.reveal: only a \"deferred\" run reveals tools (this run is \"";
                Message::new(message).add(cache.name()).add("\")").error()
            }
        })?;
        Ok(frozen(host::pick(&running.names, &new)).into())
    }

    /// Steps taken.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.size.get()
    }

    /// Frees the run now; a later `step()` throws. Calling it again does nothing.
    pub fn dispose(&self) {
        let running = self.running.borrow_mut().take();
        drop(running);
    }
}
