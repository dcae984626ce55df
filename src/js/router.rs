//! `ToolRouter`: the routing capability a host builds once and asks every turn.

use super::options::{self, At, Layer, RESOLVE, ROUTER};
use super::turn::{self, registry_of, Ask, Palette, Registered};
use super::{batch, frozen, host, JsResult, Message};
use crate::routing;
use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A router's procedural layer: it receives the `context` given to `resolve()`, if any. */
export type RouterEntries<Context = any> = (context: Context) => ReturnType<EntriesThunk>;

export interface ToolRouterOptions<Context = any> {
  entries?: RouterEntries<Context> | null;
  registered?: Iterable<string> | null;
  timeoutMs?: number;
  candidateOf?: (row: unknown) => unknown;
  isActive?: (row: unknown) => unknown;
  /** Receives every turn's decision report (`RoutingUnavailable` turns included). */
  onDecision?: (decision: RoutingDecision) => void;
  /** Receives the one `ToolRoutingUnavailableWarning` instead of `process.emitWarning`/`console.warn`. */
  onWarning?: (warning: Error) => void;
}

export interface ResolveOptions<Context = any> {
  signal?: AbortSignalLike;
  /** The turn's input for the procedural layer: `entries(context)` (without it, `entries()`). */
  context?: Context;
  /** Receives this turn's decision report (after the router's own `onDecision`). */
  onDecision?: (decision: RoutingDecision) => void;
}

/** The routing capability an agent host constructs once and asks every turn. Frozen. */
export declare class ToolRouter<Context = any> {
  constructor(options?: ToolRouterOptions<Context>);
  /** Set when a prerequisite is missing; then every `resolve()` returns it. */
  readonly unavailable: RoutingUnavailable | null;
  /** The registered names, as given. */
  readonly registered: readonly string[];
  /** One turn. */
  resolve(options?: ResolveOptions<Context>): Promise<RouterOutcome>;
  /** Frees the router's wasm index now rather than at garbage collection; later `resolve()` calls reject, a turn in flight finishes. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Issued once per `ToolRouter` construction when routing is unavailable. */
export declare class ToolRoutingUnavailableWarning extends Error {
  constructor(message: string, missing: Iterable<RoutingPrerequisite>);
  readonly name: "ToolRoutingUnavailableWarning";
  readonly missing: readonly RoutingPrerequisite[];
}
"#;

/// The options of one `resolve()` as the facade read them.
type Read = (JsValue, u32, Vec<JsValue>, Option<u32>);

struct Serving {
    layer: Rc<Layer>,
    registered: Registered,
    /// The `RoutingUnavailable` every turn returns, if routing is unavailable.
    unavailable: Option<JsValue>,
}

#[wasm_bindgen(skip_typescript)]
pub struct ToolRouter {
    /// `None` once disposed; a turn in flight keeps what it needs. `registered` and
    /// `unavailable` are the JavaScript object's own fields (see `construct`).
    serving: RefCell<Option<Rc<Serving>>>,
}

#[wasm_bindgen]
impl ToolRouter {
    /// Validates and indexes the registered names once; a router missing a prerequisite
    /// still builds (it reports `unavailable` and warns once).
    ///
    /// The facade (api.js) read the options once each (host.js `readFields`: `values` in the
    /// order of [`ROUTER`]), and the registered names (host.js `readStrings`).
    #[wasm_bindgen(constructor)]
    pub fn construct(
        options: JsValue,
        kinds: u32,
        number: f64,
        unread: Option<u32>,
        values: Array,
        names: host::Strings,
    ) -> JsResult<JsValue> {
        let place = || Message::new("ToolRouter: options");
        let values = values.iter().collect();
        let fields =
            options::given_fields(&options, ROUTER, kinds, number, values, unread, &place)?;
        let layer = Layer::check(&fields, &place)?;
        let (list, units) = if fields.is_absent("registered") {
            (Array::new(), 0)
        } else {
            batch::listed(&names, &|| place().add(".registered"))?
        };
        let on_warning = fields.function("onWarning", At(&place, "."))?;
        let list = frozen(list);
        let set = registry_of(&list, units);
        let missing = routing::missing(layer.entries.is_some(), set.distinct());
        let unavailable = if missing.is_empty() {
            JsValue::NULL
        } else {
            let names: Array = missing
                .iter()
                .map(|m| JsValue::from_str(m.as_str()))
                .collect();
            let report = host::unavailable(&frozen(names.clone()));
            let warning =
                host::UnavailableWarning::new(&routing::unavailable_message(&missing), &names);
            host::deliver(
                &warning,
                &on_warning.map_or(JsValue::UNDEFINED, JsValue::from),
            )?;
            report
        };
        let router = JsValue::from(ToolRouter {
            serving: RefCell::new(Some(Rc::new(Serving {
                layer: Rc::new(layer),
                registered: Registered {
                    list: list.clone(),
                    set,
                },
                unavailable: (!missing.is_empty()).then(|| unavailable.clone()),
            }))),
        });
        let keys: Array = ["registered", "unavailable"]
            .into_iter()
            .map(JsValue::from_str)
            .collect();
        host::own_fields(
            &router,
            &keys,
            &[JsValue::from(list), unavailable].into_iter().collect(),
        );
        Ok(frozen(router))
    }

    /// One turn: `{ signal?, context?, onDecision? }`; `context` goes to `entries(context)`.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(skip_typescript)]
    pub fn resolve(
        &self,
        turn: host::Wait,
        options: JsValue,
        kinds: u32,
        unread: Option<u32>,
        signal: JsValue,
        context: JsValue,
        on_decision: JsValue,
    ) -> JsResult<()> {
        let values = vec![signal, context, on_decision];
        let fields = (options, kinds, values, unread);
        match self.ask(fields)? {
            Ok((ask, registered)) => turn::run(ask, Palette::Indexed(registered), turn),
            Err(unavailable) => {
                turn.resolve(&unavailable);
                Ok(())
            }
        }
    }

    /// Frees the router's index now rather than at garbage collection; later `resolve()`
    /// calls reject, a turn in flight finishes. Calling it again does nothing.
    pub fn dispose(&self) {
        let serving = self.serving.borrow_mut().take();
        drop(serving);
    }
}

impl ToolRouter {
    /// The turn to run, or (`Ok(Err)`) the `RoutingUnavailable` to answer at once.
    /// The options the facade read (host.js `readFields`), in the order of [`RESOLVE`].
    fn ask(&self, read: Read) -> JsResult<Result<(Ask, Registered), JsValue>> {
        let place = || Message::new("ToolRouter.resolve: options");
        let (options, kinds, values, unread) = read;
        let fields =
            options::given_fields(&options, RESOLVE, kinds, f64::NAN, values, unread, &place)?;
        let signal = options::signal(&fields, &|| place().add(".signal"))?;
        let call_decision = fields.function("onDecision", At(&place, "."))?;
        let serving = self.serving.borrow().clone();
        let Some(serving) = serving else {
            return Err(Message::new("ToolRouter: resolve() after dispose()").error());
        };
        let on_decision: Vec<Function> = serving
            .layer
            .on_decision
            .iter()
            .cloned()
            .chain(call_decision)
            .collect();
        if let Some(unavailable) = &serving.unavailable {
            turn::report_unavailable(&on_decision, unavailable)?;
            return Ok(Err(unavailable.clone()));
        }
        let ask = Ask {
            layer: serving.layer.clone(),
            signal,
            context: fields.named("context"),
            on_decision,
            signal_place: "ToolRouter.resolve: options.signal",
        };
        Ok(Ok((ask, serving.registered.clone())))
    }
}

#[cfg(test)]
mod tests {
    /// The values `resolve` takes, in its parameters' order, are [`super::RESOLVE`].
    #[test]
    fn the_parameters_are_the_resolve_options_in_order() {
        assert_eq!(super::RESOLVE, ["signal", "context", "onDecision"]);
    }
}
