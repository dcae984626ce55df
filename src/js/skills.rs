//! Skills (SPEC 9): `parseSkill` and `SkillIndex`, the binding of [`crate::skills`]. Its
//! JavaScript half is skills.js. A parsed skill's frontmatter (arbitrary YAML values)
//! crosses by serde-wasm-bindgen, its name, tools and warnings in the batch of strings; skills.js
//! makes frozen objects of them, every string its code units, exactly.
//! A `SkillIndex` is two records: its skills (their texts, tools and flags) and the
//! ranking index, a `ToolIndex`'s (index.rs), built over the skills' names.

use super::batch;
use super::index::{finish_with, fused_in, ready, Ix, Searcher};
use crate::names::NameList;
use crate::search::{snapshot, NONE};

/// In a skill's `shape`: the skill has no `allowed-tools` field.
pub(crate) const NO_ALLOWED_TOOLS: u32 = NONE;
/// In `skills_finish`'s counts: the allowed tool keeps its own name (the host mapped it to none).
pub(crate) const OWN_NAME: u32 = NONE;
use crate::skills::table::{self, refusal, Picked, Skills, SkillsError, LIMIT};
use crate::skills::{Skill, Value};
use alloc::{boxed::Box, vec::Vec};
use js_sys::JsString;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_wasm_bindgen::preserve;
use tool_palette_heap as heap;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./calls.js")]
extern "C" {
    /// A skill (to skills.js): its frontmatter (by serde-wasm-bindgen: a mapping is a `Map`
    /// whose keys are in the text's order, a string its exact code units), then its name,
    /// description, each allowed tool and its scope if it has one, and its warnings, as
    /// strings (`units` ending at `ends`); `shape`: the body's start and end in the text, the
    /// allowed tools' count ([`NO_ALLOWED_TOOLS`]: the field is absent), the warnings' count, then per tool
    /// whether it has a scope.
    fn skill(frontmatter: JsValue, units: &[u16], ends: &[u32], shape: &[u32]);
    /// Why a text is no skill: its `SyntaxError`'s message.
    fn fault(units: &[u16]);
    /// The texts of a loaded snapshot's skills, back to back, then their paths, then their
    /// tools (skills.js keeps what its rows are made of).
    fn sources(units: &[u16], ends: &[u32]);
    /// Why bytes are refused: a RangeError (`range`) or a TypeError saying `units`.
    fn refused(range: bool, units: &[u16]);
}

/// A skill, handed to skills.js.
fn hand(s: &Skill) {
    let mut strings = NameList::default();
    strings.push(&s.name);
    strings.push(&s.description);
    let tools = s.allowed_tools.as_deref();
    let mut shape = Vec::from([
        s.body.0 as u32,
        s.body.1 as u32,
        tools.map_or(NO_ALLOWED_TOOLS, |t| t.len() as u32),
        s.warnings.len() as u32,
    ]);
    for t in tools.unwrap_or_default() {
        strings.push(&t.tool);
        if let Some(scope) = &t.scope {
            strings.push(scope);
        }
        shape.push(u32::from(t.scope.is_some()));
    }
    for w in &s.warnings {
        strings.push(&w.message());
    }
    let (units, ends) = strings.parts();
    skill(frontmatter(&s.frontmatter), units, ends, &shape);
}

/// The frontmatter as a JavaScript value, made by serde-wasm-bindgen: YAML's null `null`
/// (not `undefined`), a mapping a `Map` (an object's `__proto__` key would set its
/// prototype), strings made from their code units (a Rust `str` has no lone surrogate).
fn frontmatter(pairs: &[(Vec<u16>, Value)]) -> JsValue {
    let to = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    // What the serializer can fail at (a key that is no string, a value kind it lacks) is
    // not made here.
    Yaml::Pairs(pairs).serialize(&to).unwrap_or(JsValue::NULL)
}

/// A frontmatter value, serializable.
enum Yaml<'a> {
    Value(&'a Value),
    Pairs(&'a [(Vec<u16>, Value)]),
    Units(&'a [u16]),
}

impl Serialize for Yaml<'_> {
    fn serialize<S: Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        match *self {
            Yaml::Units(units) => preserve::serialize(&JsString::from_char_code(units), to),
            Yaml::Pairs(pairs) => {
                let mut map = to.serialize_map(Some(pairs.len()))?;
                for (key, value) in pairs {
                    map.serialize_entry(&Yaml::Units(key), &Yaml::Value(value))?;
                }
                map.end()
            }
            Yaml::Value(v) => match v {
                Value::Null => to.serialize_unit(),
                Value::Bool(b) => to.serialize_bool(*b),
                Value::Number(n) => to.serialize_f64(*n),
                Value::String(units) => Yaml::Units(units).serialize(to),
                Value::Array(items) => to.collect_seq(items.iter().map(Yaml::Value)),
                Value::Object(pairs) => Yaml::Pairs(pairs).serialize(to),
            },
        }
    }
}

/// `parseSkill`: the text in the batch, with its path after it (`""`: none). The skill is
/// handed to skills.js (true), or its `SyntaxError`'s message (false).
#[wasm_bindgen]
pub fn parse_skill() -> bool {
    seeded();
    let batch = batch::names(2);
    let path = if batch.len() > 1 { batch.get(1) } else { &[] };
    match table::read(batch.get(0), path) {
        Ok(s) => {
            hand(&s);
            true
        }
        Err(message) => {
            fault(&message);
            false
        }
    }
}

/// A `SkillIndex`'s skills into slot `table`: the `count` texts in the batch, then their
/// paths, each skill handed to skills.js in order. `[]`; `[0, i]`: skill i is no skill (its
/// message handed over); `[1, i, j]`: skill i has skill j's name (handed over); `[2]`: the memory ran out.
#[wasm_bindgen]
pub fn skills_read(table: u32, count: u32) -> Vec<u32> {
    seeded();
    // Read in the call's memory (what fails is answered from it), then copied into the
    // record's: a state owns exactly what its build allocates.
    let (texts, paths) = batch::names(2 * count).split(count as usize);
    match Skills::read(texts, paths) {
        Err(SkillsError::Syntax(i, message)) => {
            fault(&message);
            Vec::from([0, i as u32])
        }
        Err(SkillsError::Duplicate(i, j, name)) => {
            fault(&name);
            Vec::from([1, i as u32, j as u32])
        }
        Ok(read) => {
            if !heap::build(table, false, || Some(read.clone())) {
                return Vec::from([2]);
            }
            (0..read.len()).for_each(|i| hand(read.skill(i)));
            Vec::new()
        }
    }
}

/// The skills' tools resolved and the ranking index built into `ix` (made by `indexer`
/// with the skills' names, its vectors given): `mapped[k]` for the k-th allowed tool is how
/// many of the batch's names it resolves to ([`OWN_NAME`]: its own name), the `disabled` names
/// after them. Their tools, each skill's once, handed to skills.js (`sources`). False:
/// no such index, or the memory ran out.
#[wasm_bindgen]
pub fn skills_finish(table: u32, ix: u32, mapped: Vec<u32>, disabled: u32) -> bool {
    let given: u32 = mapped.iter().filter(|&&n| n != OWN_NAME).sum();
    let names = batch::names(given + disabled);
    let (names, off) = names.split(given as usize);
    let mut at = 0;
    let lists: Vec<Option<Vec<&[u16]>>> = mapped
        .iter()
        .map(|&n| {
            (n != OWN_NAME).then(|| {
                at += n as usize;
                (at - n as usize..at.min(names.len()))
                    .map(|i| names.get(i))
                    .collect()
            })
        })
        .collect();
    let resolved = heap::replace(table, |s: &Skills| {
        let mut next = s.clone();
        next.resolve(&lists, &off);
        Some((next, ()))
    });
    resolved.is_some()
        && heap::with(table, |s: &Skills| {
            let (units, ends) = s.tools().parts();
            sources(units, ends);
            finish_with(ix, LIMIT, |_, _| s.index())
        }) == Some(true)
}

/// The rows of `entries` for the message in the batch (and the history's last after it):
/// (skill, tool, active) per row, the tool an index into the skills' tools (`search::NONE`, wire.js `NO_TOOL`: none).
#[wasm_bindgen]
pub fn skill_rows(table: u32, ix: u32, count: u32, vector: Option<Vec<f64>>) -> Vec<u32> {
    let texts = batch::names(count);
    let history = (texts.len() > 1).then(|| texts.get(1));
    heap::with(table, |s: &Skills| {
        ready(ix, |r: &Searcher| {
            let rows = s.rows(
                &r.index,
                texts.get(0),
                fused_in(r, &vector),
                history,
                r.limit as usize,
            );
            rows.iter()
                .flat_map(|r| [r.skill, r.tool, u32::from(r.active)])
                .collect()
        })
    })
    .flatten()
    .unwrap_or_default()
}

/// `load_skill` (SPEC 9): the skill named first in the batch (`name`) or found for the
/// query after it (`query`): `[0, i, tools…]` a skill and its tools (indices into the
/// skills' tools), `[1, i]` a disabled one, `[]` none.
#[wasm_bindgen]
pub fn skill_pick(table: u32, ix: u32, name: bool, query: bool) -> Vec<u32> {
    let texts = batch::names(u32::from(name) + u32::from(query));
    let (name, query) = match (name, query) {
        (true, true) => (Some(texts.get(0)), Some(texts.get(1))),
        (true, false) => (Some(texts.get(0)), None),
        (false, true) => (None, Some(texts.get(0))),
        (false, false) => (None, None),
    };
    heap::with(table, |s: &Skills| {
        ready(ix, |r: &Searcher| match s.pick(&r.index, name, query) {
            Picked::Skill(i) => [Vec::from([0, i as u32]), s.tool_indices(i)].concat(),
            Picked::Disabled(i) => Vec::from([1, i as u32]),
            Picked::Nothing => Vec::new(),
        })
    })
    .flatten()
    .unwrap_or_default()
}

/// The snapshot of a `SkillIndex`.
#[wasm_bindgen]
pub fn skills_save(table: u32, ix: u32) -> Vec<u8> {
    heap::with(table, |s: &Skills| {
        ready(ix, |r| s.save(&r.index, &r.fusion, r.limit))
    })
    .flatten()
    .unwrap_or_default()
}

/// Loads a `SkillIndex` snapshot into `table` and `ix`: its texts and tools handed to
/// skills.js (`sources`), then each skill; or why the bytes are refused (false).
#[wasm_bindgen]
pub fn skills_load(table: u32, ix: u32, bytes: Vec<u8>, limit: Option<u32>) -> bool {
    seeded();
    let (mut why, mut inner) = (None, None);
    let read = heap::build(table, false, || match table::load(bytes) {
        Ok((skills, rest)) => {
            inner = Some(rest);
            Some(skills)
        }
        Err(e) => {
            why = Some(e);
            None
        }
    });
    let placed = read
        && heap::build(ix, false, || {
            // (The index's bytes, read out of the table's build, are the index's own.)
            let bytes = inner.take()?;
            heap::adopt(&bytes);
            let loaded = snapshot::load(bytes).map_err(|e| why = Some(e)).ok()?;
            let consistent = heap::with(table, |s: &Skills| s.ranked_by(&loaded))?;
            consistent.map_err(|e| why = Some(e)).ok()?;
            Some(Ix::Ready(Box::new(Searcher {
                index: loaded.index,
                fusion: loaded.fusion,
                limit: limit.unwrap_or(loaded.limit),
            })))
        });
    if let Some(e) = why {
        let (range, units) = refusal(&e);
        refused(range, &units);
        return false;
    }
    placed
        && heap::with(table, |s: &Skills| {
            let mut all = NameList::default();
            (0..s.len()).for_each(|i| all.push(s.text(i)));
            let (units, ends) = all.parts();
            sources(units, ends);
            let (units, ends) = s.tools().parts();
            sources(units, ends);
            (0..s.len()).for_each(|i| hand(s.skill(i)));
        })
        .is_some()
}

/// Draws the key a SKILL.md's keys are hashed with (`skills::SEED`) at the first read of a
/// skill: not at start, since Workers refuse random values while a module is imported.
fn seeded() {
    use core::sync::atomic::Ordering::Relaxed;
    if crate::skills::SEED
        .iter()
        .all(|word| word.load(Relaxed) == 0)
    {
        for word in &crate::skills::SEED {
            word.store((js_sys::Math::random() * 4_294_967_296.0) as u32, Relaxed);
        }
    }
}
