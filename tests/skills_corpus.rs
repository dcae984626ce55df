//! SPEC section 9, "Parsing": agreement with the hosts' YAML on real SKILL.md files.
//!
//! Reads the corpora of bench/skills (`SKILLS_DATA`, default
//! /work/wt-skills-data/bench/skills: the committed registry corpus and edge cases, and the
//! public-repository corpus in `local/` when present) with their readings by npm `yaml` 2.9.1
//! (read_hosts.py), and compares each frontmatter as JSON. Skipped, with a note, when the
//! folder is absent (as in CI). Run with `--nocapture` for the report; `--release` for the
//! speed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value as Json;
use tool_palette::skills::{parse_frontmatter, parse_skill, Problem, Value};

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// Whether our value equals the JSON reading (object keys in any order; non-finite numbers
/// as read_js.mjs writes them: "Infinity", "-Infinity", "NaN").
fn same(ours: &Value, json: &Json) -> bool {
    match (ours, json) {
        (Value::Null, Json::Null) => true,
        (Value::Bool(a), Json::Bool(b)) => a == b,
        (Value::Number(a), Json::Number(b)) => b.as_f64() == Some(*a),
        (Value::Number(a), Json::String(b)) if !a.is_finite() => {
            let s = if a.is_nan() {
                "NaN"
            } else if *a > 0.0 {
                "Infinity"
            } else {
                "-Infinity"
            };
            s == b
        }
        (Value::String(a), Json::String(b)) => *a == units(b),
        (Value::Array(a), Json::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        }
        (Value::Object(a), Json::Object(b)) => {
            a.len() == b.len()
                && a.iter().all(|(k, v)| {
                    String::from_utf16(k)
                        .ok()
                        .and_then(|k| b.get(&k))
                        .is_some_and(|w| same(v, w))
                })
        }
        _ => false,
    }
}

/// Our refusals that are deliberate: what SPEC section 9 makes an error and npm yaml reads.
fn deliberate(p: Problem) -> bool {
    matches!(
        p,
        Problem::Anchor
            | Problem::Alias
            | Problem::Tag
            | Problem::CollectionKey
            | Problem::ComplexKey
    )
}

fn load(path: &Path) -> Json {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

struct Report {
    files: usize,
    yaml_reads: usize,
    equal: usize,
    differ: Vec<String>,
    refuse_yaml_reads: Vec<String>,
    deliberate: Vec<String>,
    read_yaml_refuses: Vec<String>,
    both_refuse: usize,
    no_frontmatter: usize,
    files_per_ms: f64,
}

fn measure(dir: &Path, corpus: &str, readings: &str) -> Option<Report> {
    let (cp, rp) = (dir.join(corpus), dir.join(readings));
    if !cp.exists() || !rp.exists() {
        println!("skills corpus {corpus}: absent, skipped");
        return None;
    }
    let corpus = load(&cp);
    let readings = load(&rp);
    let files = corpus["files"].as_array().unwrap();
    let texts: Vec<(String, Vec<u16>, String)> = files
        .iter()
        .map(|f| {
            let path = f["path"].as_str().unwrap_or("");
            let dir = path.rsplit('/').nth(1).unwrap_or("").to_string();
            (
                f["id"].as_str().unwrap().to_string(),
                units(f["text"].as_str().unwrap()),
                dir,
            )
        })
        .collect();
    let by_id: std::collections::HashMap<&str, &Json> = readings["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r))
        .collect();
    let mut r = Report {
        files: texts.len(),
        yaml_reads: 0,
        equal: 0,
        differ: vec![],
        refuse_yaml_reads: vec![],
        deliberate: vec![],
        read_yaml_refuses: vec![],
        both_refuse: 0,
        no_frontmatter: 0,
        files_per_ms: 0.0,
    };
    for (id, text, dir) in &texts {
        let ours = parse_frontmatter(text);
        // The skill reading too: it must answer (no panic), and an error names a line.
        match parse_skill(text, Some(&units(dir))) {
            Ok(skill) => assert!(skill.warnings.iter().all(|w| w.line >= 1)),
            Err(e) => assert!(e.line >= 1, "{id}: line 0"),
        }
        if let Err(e) = &ours {
            assert!(e.line >= 1, "{id}: line 0");
        }
        let reading = by_id
            .get(id.as_str())
            .and_then(|r| r["parsers"].get("yaml"));
        match (reading, &ours) {
            (None, Err(e)) if matches!(e.problem, Problem::NoFrontmatter | Problem::Unclosed) => {
                r.no_frontmatter += 1
            }
            (None, _) => r.read_yaml_refuses.push(format!(
                "{id}: no frontmatter by the canonical split, read by us"
            )),
            (Some(y), Ok(fm)) if y.get("value").is_some() => {
                r.yaml_reads += 1;
                if same(&fm.value, &y["value"]) {
                    r.equal += 1;
                } else {
                    r.differ.push(format!(
                        "{id}: ours {:?}\n    yaml {}",
                        fm.value, y["value"]
                    ));
                }
            }
            (Some(y), Err(e)) if y.get("value").is_some() => {
                r.yaml_reads += 1;
                let line = format!("{id}: {}", String::from_utf16_lossy(&e.message()));
                if deliberate(e.problem) {
                    r.deliberate.push(line);
                } else {
                    r.refuse_yaml_reads.push(line);
                }
            }
            (Some(y), Ok(_)) => r
                .read_yaml_refuses
                .push(format!("{id}: yaml: {}", y["error"])),
            (Some(_), Err(_)) => r.both_refuse += 1,
        }
    }
    // Speed: the whole corpus through parse_skill, repeated for at least 200 ms.
    let start = Instant::now();
    let mut rounds = 0;
    while rounds == 0 || start.elapsed().as_millis() < 200 {
        for (_, text, _) in &texts {
            std::hint::black_box(parse_skill(std::hint::black_box(text), None).is_ok());
        }
        rounds += 1;
    }
    r.files_per_ms = (rounds * texts.len()) as f64 / (start.elapsed().as_secs_f64() * 1000.0);
    Some(r)
}

#[test]
fn agreement_with_npm_yaml() {
    let dir = PathBuf::from(
        std::env::var("SKILLS_DATA").unwrap_or_else(|_| "/work/wt-skills-data/bench/skills".into()),
    );
    if !dir.exists() {
        println!(
            "skills corpus: {} is absent (set SKILLS_DATA): skipped",
            dir.display()
        );
        return;
    }
    let corpora = [
        ("registry", "corpus-registry.json", "readings-registry.json"),
        ("edge cases", "edge-cases.json", "readings-edge-cases.json"),
        (
            "github",
            "local/corpus-github.json",
            "local/readings-github.json",
        ),
    ];
    let mut failures = vec![];
    for (name, corpus, readings) in corpora {
        let Some(r) = measure(&dir, corpus, readings) else {
            continue;
        };
        let share = r.equal as f64 / r.yaml_reads.max(1) as f64;
        println!(
            "{name}: {} files; npm yaml reads {}: equal {} ({:.2}%); \
             we refuse where yaml reads: {} deliberate, {} other; \
             we read where yaml refuses: {}; both refuse: {}; no frontmatter: {}; {:.0} files/ms",
            r.files,
            r.yaml_reads,
            r.equal,
            share * 100.0,
            r.deliberate.len(),
            r.refuse_yaml_reads.len(),
            r.read_yaml_refuses.len(),
            r.both_refuse,
            r.no_frontmatter,
            r.files_per_ms,
        );
        for (what, list) in [
            ("read differently", &r.differ),
            ("refused, deliberately", &r.deliberate),
            ("refused, yaml reads", &r.refuse_yaml_reads),
            ("read, yaml refuses", &r.read_yaml_refuses),
        ] {
            for line in list {
                println!("  {what}: {line}");
            }
        }
        // The must: yaml's reading on at least 99% of the files it reads (deliberate
        // refusals aside), and an error wherever it refuses.
        let readable = r.yaml_reads - r.deliberate.len();
        if (r.equal as f64) < 0.99 * readable as f64 {
            failures.push(format!("{name}: {} of {readable} equal", r.equal));
        }
        if !r.read_yaml_refuses.is_empty() {
            failures.push(format!(
                "{name}: {} read where yaml refuses",
                r.read_yaml_refuses.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}
