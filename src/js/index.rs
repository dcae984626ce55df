//! `ToolIndex`: tool search, a procedural layer built in (SPEC section 6). The ranking is
//! the core's (`crate::search`); this reads the tools once, at construction, and answers
//! queries with the caller's own names.

use super::options::{self, Fields};
use super::{batch, frozen, host, must_be, unreadable, JsResult, Message};
use crate::names::{NameList, NameTable};
use crate::search::{Field, Hit, Index, ToolDoc};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;
use js_sys::Array;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A tool as `ToolIndex` reads it: its name, description and parameter schema. */
export interface ToolDoc {
  name: string;
  description?: string;
  /** A JSON schema (or an AI SDK `jsonSchema()`/`zodSchema()`, or a zod schema). */
  parameters?: unknown;
  inputSchema?: unknown;
  schema?: unknown;
}

export interface ToolHit {
  readonly name: string;
  readonly score: number;
}

/** Tool search over the tools' names, descriptions and parameter schemas, in the Rust core. */
export declare class ToolIndex {
  /** An iterable of tools, or a record of tools keyed by name (an AI SDK `tools` object). */
  constructor(tools: Iterable<ToolDoc | { type: "function"; function: ToolDoc }> | Record<string, unknown>, options?: { limit?: number });
  /** At most `limit` (default 5, or the constructor's) tools with a score above 0, best first; ties keep registration order. */
  search(query: string, options?: { limit?: number }): readonly ToolHit[];
  /** A ready `entries` for `ToolRouter`/`resolvePalette`: the rows `{ tool }` of `search(message)` for the turn's context. */
  readonly entries: (context?: string | { message?: string }) => readonly { readonly tool: string }[];
  /** What `entries` calls: the rows for one context. */
  entriesFor(context?: string | { message?: string }): readonly { readonly tool: string }[];
  /** How many tools were indexed. */
  readonly size: number;
  /** Frees the index now rather than at garbage collection; later searches throw. */
  dispose(): void;
  [Symbol.dispose](): void;
}
"#;

const DEFAULT_LIMIT: u32 = 5;

struct Built {
    index: Index,
    /// The tools' names, the caller's own strings.
    names: Array,
}

type Shared = RefCell<Option<Rc<Built>>>;

#[wasm_bindgen(skip_typescript)]
pub struct ToolIndex {
    built: Shared,
    size: u32,
    limit: u32,
}

const OPTIONS: &[&str] = &["limit"];

/// A positive whole number of hits, or `None` when not given.
fn limit_of(fields: &Fields, place: &dyn Fn() -> Message) -> JsResult<Option<u32>> {
    let value = fields.get(0);
    if value.is_undefined() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n >= 1.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => Ok(Some(n as u32)),
        _ => Err(must_be(place().add(".limit"), "a positive integer", &value)),
    }
}

fn options_limit(options: &JsValue, place: &dyn Fn() -> Message) -> JsResult<Option<u32>> {
    limit_of(&options::read_options(options, OPTIONS, place)?, place)
}

/// A list of texts (strings by construction) as names in the core's form.
fn texts(list: &Array, place: &dyn Fn() -> Message) -> JsResult<NameList> {
    let units = host::measure(list).max(0.0) as usize;
    if !batch::fits_texts(list.length() as usize, units) {
        let message = " is too large: a ToolIndex reads at most 1,048,576 texts and 33,554,432 code units of each kind (descriptions, parameter names, …), as memory allows";
        return Err(place().add(message).range_error());
    }
    Ok(batch::write(list, units))
}

#[wasm_bindgen]
impl ToolIndex {
    #[wasm_bindgen(constructor)]
    pub fn construct(tools: JsValue, options: JsValue) -> JsResult<JsValue> {
        let place = || Message::new("ToolIndex: tools");
        if !tools.is_object() {
            let what = "an iterable of tools or a record of tools keyed by name";
            return Err(must_be(place(), what, &tools));
        }
        let as_record = !batch::is_iterable(&tools, &place)?;
        let read =
            host::read_tools(&tools, as_record).map_err(|cause| unreadable(place(), &cause))?;
        let limit = options_limit(&options, &|| Message::new("ToolIndex: options"))?
            .unwrap_or(DEFAULT_LIMIT);

        let names = read.names();
        let measured = host::measure(&names);
        if measured < 0.0 {
            let i = (-measured - 1.0) as u32;
            return Err(must_be(
                place().index(i).add(".name"),
                "a string",
                &names.get(i),
            ));
        }
        let count = names.length() as usize;
        if !batch::fits(count, measured as usize) {
            return Err(batch::too_big(place()));
        }
        let name_list = batch::write(&names, measured as usize);
        let mut seen = NameTable::with_capacity(count);
        for i in 0..count as u32 {
            if !seen.insert(i, |j| name_list.get(j as usize)) {
                let message = place()
                    .index(i)
                    .add(" reuses the name \"")
                    .add_js(&names.get(i));
                return Err(message.add("\"; tool names must be unique").type_error());
            }
        }

        let descriptions = texts(&read.descriptions(), &place)?;
        let lists = [
            (
                Field::ParamName,
                texts(&read.param_names(), &place)?,
                read.param_name_owners(),
            ),
            (
                Field::ParamDescription,
                texts(&read.param_descriptions(), &place)?,
                read.param_description_owners(),
            ),
            (
                Field::ParamEnum,
                texts(&read.param_enums(), &place)?,
                read.param_enum_owners(),
            ),
        ];
        // Each tool's texts, in one flat list: the owners of every list come in tool order.
        let mut flat: Vec<(Field, &[u16])> = Vec::new();
        let mut ranges = Vec::with_capacity(count);
        let mut cursors = [0usize; 3];
        for tool in 0..count {
            let start = flat.len();
            let description = descriptions.get(tool);
            if !description.is_empty() {
                flat.push((Field::Description, description));
            }
            for ((field, list, owners), at) in lists.iter().zip(cursors.iter_mut()) {
                while *at < owners.len().min(list.len()) && owners[*at] as usize == tool {
                    flat.push((*field, list.get(*at)));
                    *at += 1;
                }
            }
            ranges.push(start..flat.len());
        }
        let docs: Vec<ToolDoc> = ranges
            .into_iter()
            .enumerate()
            .map(|(tool, range)| ToolDoc {
                name: name_list.get(tool),
                texts: &flat[range],
            })
            .collect();
        let built = Built {
            index: Index::build(&docs),
            names: frozen(names),
        };
        let index = ToolIndex {
            built: RefCell::new(Some(Rc::new(built))),
            size: count as u32,
            limit,
        };
        Ok(frozen(JsValue::from(index)))
    }

    #[wasm_bindgen(getter)]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The rows for one context (what the `entries` function, made in api.js, calls).
    #[wasm_bindgen(js_name = entriesFor)]
    pub fn entries_for(&self, context: JsValue) -> JsResult<JsValue> {
        entries(&self.built, self.limit, &context)
    }

    /// At most `limit` hits with a score above 0, best first.
    pub fn search(&self, query: JsValue, options: JsValue) -> JsResult<JsValue> {
        let place = || Message::new("ToolIndex.search: query");
        if !query.is_string() {
            return Err(must_be(place(), "a string", &query));
        }
        let limit = options_limit(&options, &|| Message::new("ToolIndex.search: options"))?
            .unwrap_or(self.limit);
        let built = live(&self.built, "search")?;
        let query = batch::name_units(&query, &place)?;
        Ok(hits(&built, &query, limit, true))
    }

    /// Frees the index now rather than at garbage collection; later searches (and its
    /// `entries`) throw. Calling it again does nothing.
    pub fn dispose(&self) {
        let built = self.built.borrow_mut().take();
        drop(built);
    }
}

fn live(shared: &Shared, what: &str) -> JsResult<Rc<Built>> {
    let built = shared.borrow().clone();
    built.ok_or_else(|| {
        Message::new("ToolIndex: ")
            .add(what)
            .add("() after dispose()")
            .error()
    })
}

/// The ranked tools for a query, as frozen `{ name, score }` hits or `{ tool }` rows.
fn hits(built: &Built, query: &[u16], limit: u32, scored: bool) -> JsValue {
    let mut found: Vec<Hit> = Vec::new();
    built.index.search(query, limit as usize, &mut found);
    let indices: Vec<u32> = found.iter().map(|h| h.tool).collect();
    if scored {
        let scores: Vec<f64> = found.iter().map(|h| h.score).collect();
        host::hits(&built.names, &indices, &scores)
    } else {
        host::rows(&built.names, &indices)
    }
}

/// The procedural layer over an index: the turn's context is a string (the message) or an
/// object whose `message` is one; anything else, or no match, gives no rows.
fn entries(shared: &Shared, limit: u32, context: &JsValue) -> JsResult<JsValue> {
    let built = live(shared, "entries")?;
    let message = if context.is_string() {
        context.clone()
    } else if context.is_object() {
        host::get(context, |k| &k.message).map_err(|cause| {
            unreadable(Message::new("ToolIndex.entries: context.message"), &cause)
        })?
    } else {
        JsValue::UNDEFINED
    };
    if !message.is_string() {
        return Ok(host::rows(&built.names, &[]));
    }
    let query = batch::name_units(&message, &|| Message::new("ToolIndex.entries: context"))?;
    Ok(hits(&built, &query, limit, false))
}
