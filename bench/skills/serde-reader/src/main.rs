//! stdin: one JSON object a line, {"id": .., "fm": <frontmatter text>}.
//! stdout: one JSON object a line, {"id": .., "value": <the YAML as JSON>} or
//! {"id": .., "error": ".."}; and "typed": the outcome of reading the same text into
//! optional string fields `name` and `description` and a `metadata` mapping whose
//! `short-description` is an optional string (Codex's shape for a SKILL.md header).
use serde::Deserialize;
use std::io::{BufRead, Write};

#[derive(Deserialize)]
#[allow(dead_code)]
struct Header {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    metadata: Meta,
}

#[derive(Deserialize, Default)]
#[allow(dead_code)]
struct Meta {
    #[serde(default, rename = "short-description")]
    short_description: Option<String>,
}

fn to_json(v: &serde_yaml::Value) -> serde_json::Value {
    use serde_yaml::Value as Y;
    match v {
        Y::Null => serde_json::Value::Null,
        Y::Bool(b) => serde_json::Value::Bool(*b),
        Y::Number(n) => {
            if let Some(i) = n.as_i64() {
                serde_json::json!(i)
            } else if let Some(u) = n.as_u64() {
                serde_json::json!(u)
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.is_finite() { serde_json::json!(f) } else { serde_json::Value::String(f.to_string()) }
            }
        }
        Y::String(s) => serde_json::Value::String(s.clone()),
        Y::Sequence(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
        Y::Mapping(m) => {
            let mut out = serde_json::Map::new();
            for (k, val) in m {
                let key = match k {
                    Y::String(s) => s.clone(),
                    other => serde_yaml::to_string(other).unwrap_or_default().trim_end().to_string(),
                };
                out.insert(key, to_json(val));
            }
            serde_json::Value::Object(out)
        }
        Y::Tagged(t) => to_json(&t.value),
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines() {
        let line = line.expect("stdin");
        let req: serde_json::Value = serde_json::from_str(&line).expect("json line");
        let fm = req["fm"].as_str().unwrap_or("");
        let mut res = serde_json::Map::new();
        res.insert("id".into(), req["id"].clone());
        match serde_yaml::from_str::<serde_yaml::Value>(fm) {
            Ok(v) => { res.insert("value".into(), to_json(&v)); }
            Err(e) => { res.insert("error".into(), serde_json::Value::String(e.to_string())); }
        }
        match serde_yaml::from_str::<Header>(fm) {
            Ok(_) => { res.insert("typed".into(), serde_json::Value::String("ok".into())); }
            Err(e) => { res.insert("typed".into(), serde_json::Value::String(e.to_string())); }
        }
        writeln!(out, "{}", serde_json::Value::Object(res)).expect("stdout");
    }
}
