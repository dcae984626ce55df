//! `index.explain(query, options?)`: why `search` picks what it picks. The core explains
//! its ranking (`Index::explain`); the explanation is a structured value off the turn's
//! path, so it crosses by serde-wasm-bindgen, but for the names: the records carry each
//! tool's and term's index, and `host.js` `explained` puts the caller's own strings there.

use super::index::ToolIndex;
use super::{host, JsResult, Message};
use alloc::vec::Vec;
use js_sys::Array;
use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl ToolIndex {
    /// The hits of `search(query, options)`, each with how its score came to be.
    pub fn explain(&self, query: JsValue, options: host::Fields) -> JsResult<JsValue> {
        let asked = self.asked("explain", &query, &options)?;
        let built = &asked.built;
        let vector = asked.vector.as_deref().map(|v| (v, &built.fusion));
        let Some(explanation) = built.index.explain(&asked.query, vector, asked.limit) else {
            let message = "ToolIndex.explain: this index keeps no field counts to explain with; build it with options.explain: true (new ToolIndex(tools, { explain: true })), and its snapshots keep them too";
            return Err(Message::new(message).error());
        };
        // `null` for a part that does not apply (no lexical match, a lexical ranking).
        let serializer = Serializer::new().serialize_missing_as_null(true);
        let list = explanation.hits.serialize(&serializer)?;
        let (mut units, mut spans) = (Vec::new(), Vec::new());
        for &term in &explanation.terms {
            let start = units.len() as u32;
            units.extend_from_slice(built.index.term(term));
            spans.extend_from_slice(&[0, start, units.len() as u32]);
        }
        let terms = host::cut(&Array::of1(&host::text(&units)), &spans);
        Ok(host::explained(&built.names, &terms, &list))
    }
}
