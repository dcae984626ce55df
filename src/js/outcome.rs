//! The answers of routing as the caller sees them: `Routed` and `RoutingRefusal` built
//! from what the core decided, with the caller's own strings, and the decision report
//! (SPEC section 5) built from the same decision.

use super::{host, wire};
use crate::names::NameSet;
use crate::routing::{self, Outcome, Span, Turn};
use alloc::vec::Vec;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** One hit of the procedural layer: a string, or an object with `tool`/`toolName`/`content` and `active`. */
export type Row = unknown;

/** The procedural layer: called at most once per resolution, usually `async`. */
export type EntriesThunk = () =>
  | Iterable<Row>
  | null
  | undefined
  | PromiseLike<Iterable<Row> | null | undefined>;

/** The palette a turn resolved to, and what it dropped getting there. Frozen. */
export declare class Routed {
  /** Never empty: at least one name. */
  constructor(names: Iterable<string>, unresolved?: Iterable<string>);
  readonly kind: "routed";
  /** Registered names the active rows named, once each, in order of first appearance. */
  readonly names: readonly string[];
  /** Active candidates that are not registered, once each, in order of first appearance. */
  readonly unresolved: readonly string[];
}

/** Why a turn was not narrowed: every refusal means "allow every tool". Frozen. */
export declare class RoutingRefusal {
  constructor(reason: string, unresolved?: Iterable<string>);
  readonly kind: "refused";
  /** One of the exact reason strings of the refusal table. */
  readonly reason: string;
  readonly unresolved: readonly string[];
}

/** A router missing its prerequisites: a composition report, not a refusal. Frozen. */
export declare class RoutingUnavailable {
  constructor(missing: Iterable<RoutingPrerequisite>);
  readonly kind: "unavailable";
  readonly missing: readonly RoutingPrerequisite[];
}

export type RoutingPrerequisite = "procedural-layer" | "no-registered-tools";
export type RoutingOutcome = Routed | RoutingRefusal;
export type RouterOutcome = Routed | RoutingRefusal | RoutingUnavailable;

/** Why the model sees what it sees: one report per resolution (SPEC section 5). Frozen, JSON-serialisable. */
export interface RoutingDecision {
  /** The very object the call resolves to. */
  readonly outcome: RouterOutcome;
  readonly rule: "routed" | "1" | "2a" | "2b" | "3" | "4" | "5" | "unavailable";
  /** One per row the store returned, in its order; `[]` when no rows were read. */
  readonly rows: readonly RowFate[];
  /** Registered names the model will not see (routed turns only), registration order, each once. */
  readonly hidden: readonly string[];
  /** From calling `entries` to its settling; 0 when `entries` was not called. */
  readonly retrievalMs: number;
}

export interface RowFate {
  readonly index: number;
  readonly fate: "routed" | "duplicate" | "unresolved" | "inactive" | "no-candidate";
  /** The trimmed candidate; `null` for inactive and no-candidate rows. */
  readonly candidate: string | null;
}

/** What the package needs of an `AbortSignal` (declared here so that no DOM or Node typings are required). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

declare global {
  // `using x = new ToolRouter(…)`: the symbol ES2022's lib does not declare yet.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}
"#;

fn spans(spans: impl Iterator<Item = Span>) -> Vec<u32> {
    spans.flat_map(|s| [s.candidate, s.start, s.end]).collect()
}

/// The frozen `Routed` or `RoutingRefusal`: names picked from `registered` by index,
/// unresolved names sliced out of the turn's `candidates` (`undefined` when it has none).
pub(crate) fn of_turn(outcome: &Outcome, registered: &Array, candidates: &JsValue) -> JsValue {
    match outcome {
        Outcome::Routed { names, unresolved } => host::outcome(
            registered,
            names,
            None,
            &[],
            candidates,
            &spans(unresolved.iter().copied()),
        ),
        Outcome::Refused { reason, unresolved } => {
            let (at, detail) = reason.parts();
            host::outcome(
                registered,
                &[],
                Some(at as u32),
                detail,
                candidates,
                &spans(unresolved.iter().copied()),
            )
        }
    }
}

/// The decision report of a decided turn: the very outcome, the rule, each row's fate
/// with its trimmed candidate, the hidden names and the retrieval time.
pub(crate) fn report(
    turn: &Turn,
    outcome: &JsValue,
    registry: &NameSet,
    registered: &Array,
    candidates: &JsValue,
    retrieval_ms: f64,
) -> JsValue {
    let fates: Vec<u8> = turn.rows.iter().map(|r| r.fate as u8).collect();
    let none = Span {
        candidate: wire::NO_SPAN,
        start: 0,
        end: 0,
    };
    let spans = spans(turn.rows.iter().map(|r| r.candidate.unwrap_or(none)));
    let hidden = match &turn.outcome {
        Outcome::Routed { names, .. } => host::pick(registered, &routing::hidden(registry, names)),
        Outcome::Refused { .. } => Array::new(),
    };
    let rule = turn.outcome.rule_at() as u32;
    host::report(
        outcome,
        rule,
        &fates,
        candidates,
        &spans,
        &hidden,
        retrieval_ms,
    )
}

/// The report of a router that cannot route: nothing was read, nothing is hidden.
pub(crate) fn unavailable_report(unavailable: &JsValue) -> JsValue {
    let rule = routing::UNAVAILABLE as u32;
    host::report(
        unavailable,
        rule,
        &[],
        &JsValue::UNDEFINED,
        &[],
        &Array::new(),
        0.0,
    )
}
