//! Routing by skills (SPEC 9, "Routing by skills"): the skills of a `SkillIndex`, what
//! each resolves to among the host's tools, which are disabled, how they are ranked, the
//! rows a turn's message gives, and the snapshot that holds all of it.
//!
//! A skill is ranked by the search core (`crate::search`) over its name, description and
//! body (the body in the field a tool's parameter descriptions take: [`params`]); the rows
//! are the seed's, one per tool of each relevant skill, so that the routing's refusals keep
//! their words (rule 3: no skill relevant; 4: every relevant skill disabled; 5: no
//! relevant skill's tool registered).

use super::{parse_skill, Skill, SkillError, Value};
use crate::names::{Name, NameList};
use crate::search::snapshot::{self, SnapshotError};
use crate::search::{Field, Fusion, Hit, Index, Params, ToolDoc, NONE};
use alloc::vec::Vec;

/// Skills per turn (and hits per search) when the caller gives no limit (SPEC 9).
pub const LIMIT: u32 = 3;

/// The ranking of skills: the search core's BM25F over three fields, a skill's name in
/// `Field::Name`, its description in `Field::Description` and its body, long and less
/// telling word for word, in `Field::ParamDescription` at a quarter of the description's
/// weight. Measured on SkillsBench's tasks (bench/skills/README.md): name + description +
/// body lexical R@3 0.72 against 0.70 for plain BM25 over the three texts; no parameter
/// was tuned past the first decimal.
pub fn params() -> Params {
    Params {
        weight: [2.0, 1.0, 0.0, 0.25, 0.0],
        ..Params::default()
    }
}

/// The frontmatter field by which a host turns a skill off for the model (Claude Code's).
const DISABLE: &str = "disable-model-invocation";

/// Whether a skill's frontmatter turns it off: `disable-model-invocation: true`.
pub fn disabled_by_author(skill: &Skill) -> bool {
    skill
        .frontmatter
        .iter()
        .any(|(key, value)| super::yaml::is(key, DISABLE) && *value == Value::Bool(true))
}

/// The skill's directory in `path` (`skills/pdf/SKILL.md` → `pdf`): the segment before the
/// last, separated by `/` or `\`; none when the path has a single segment.
pub fn dir_of(path: &[u16]) -> Option<&[u16]> {
    let sep = |c: &u16| *c == u16::from(b'/') || *c == u16::from(b'\\');
    let last = path.iter().rposition(sep)?;
    let dir = &path[..last];
    dir.get(dir.iter().rposition(sep).map_or(0, |i| i + 1)..)
}

/// A SKILL.md read with its path (empty: none): the skill, or the message of its
/// `SyntaxError` (the path first when there is one).
pub fn read(text: &[u16], path: &[u16]) -> Result<Skill, Vec<u16>> {
    let dir = if path.is_empty() { None } else { dir_of(path) };
    parse_skill(text, dir).map_err(|e| located(path, &e))
}

/// `path: line 3, field "name": …`, or the message alone without a path.
pub fn located(path: &[u16], e: &SkillError) -> Vec<u16> {
    let mut m = Vec::new();
    if !path.is_empty() {
        m.extend_from_slice(path);
        m.extend_from_slice(&[u16::from(b':'), u16::from(b' ')]);
    }
    m.extend(e.message());
    m
}

/// The skills of an index, in the order given, and what the ranking needs of them.
#[derive(Debug, Clone, Default)]
pub struct Skills {
    /// Each skill's `SKILL.md` and path (the snapshot keeps them; a load reads them again).
    texts: NameList,
    paths: NameList,
    skills: Vec<Skill>,
    /// Each skill's tools among the host's, each once, in the order of its `allowed-tools`
    /// (skill i's are `tools[ends[i-1]..ends[i]]`); `None`: the skill has no
    /// `allowed-tools`, or none resolved to a tool (one row without a candidate).
    tools: NameList,
    ends: Vec<u32>,
    disabled: Vec<bool>,
}

/// Why skills cannot be indexed: the skill at an index and why.
#[derive(Debug, Clone, PartialEq)]
pub enum SkillsError {
    /// Its text is no skill: the `SyntaxError`'s message.
    Syntax(usize, Vec<u16>),
    /// Its name is an earlier skill's (that one's index, the name).
    Duplicate(usize, usize, Vec<u16>),
}

impl Skills {
    /// Reads the `SKILL.md` texts with their paths (`""`: none), each in turn.
    pub fn read(texts: NameList, paths: NameList) -> Result<Skills, SkillsError> {
        let mut skills: Vec<Skill> = Vec::with_capacity(texts.len());
        for i in 0..texts.len() {
            let path = if i < paths.len() { paths.get(i) } else { &[] };
            let skill = read(texts.get(i), path).map_err(|m| SkillsError::Syntax(i, m))?;
            if let Some(j) = skills.iter().position(|s| s.name == skill.name) {
                return Err(SkillsError::Duplicate(i, j, skill.name));
            }
            skills.push(skill);
        }
        Ok(Skills {
            texts,
            paths,
            skills,
            ..Skills::default()
        })
    }

    pub fn len(&self) -> usize {
        self.skills.len()
    }

    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    pub fn skill(&self, i: usize) -> &Skill {
        &self.skills[i]
    }

    pub fn text(&self, i: usize) -> &Name {
        self.texts.get(i)
    }

    /// Each skill's tools: `mapped[k]`, for the k-th tool of the skills' `allowed-tools` in
    /// order, the host's names it resolves to (`None`: its own name, the default); then
    /// which skills are off, by name (`disabled`), besides those whose author turned them
    /// off. A skill's tools are kept once each, in order.
    pub fn resolve(&mut self, mapped: &[Option<Vec<&Name>>], disabled: &NameList) {
        let (mut tools, mut ends) = (NameList::default(), Vec::with_capacity(self.len()));
        let mut k = 0;
        for skill in &self.skills {
            let first = tools.len();
            for allowed in skill.allowed_tools.iter().flatten() {
                let own = [allowed.tool.as_slice()];
                let names = match mapped.get(k) {
                    Some(Some(names)) => names.as_slice(),
                    _ => &own[..],
                };
                k += 1;
                for &name in names {
                    if !(first..tools.len()).any(|t| tools.get(t) == name) {
                        tools.push(name);
                    }
                }
            }
            ends.push(tools.len() as u32);
        }
        self.disabled = self
            .skills
            .iter()
            .map(|s| disabled_by_author(s) || disabled.iter().any(|d| d == s.name.as_slice()))
            .collect();
        self.tools = tools;
        self.ends = ends;
    }

    /// Skill i's tools, as indices into [`Skills::tools`].
    fn tools_of(&self, i: usize) -> core::ops::Range<usize> {
        let end = |k: usize| self.ends.get(k).map_or(0, |&e| e as usize);
        (if i == 0 { 0 } else { end(i - 1) })..end(i)
    }

    /// Every skill's tools, back to back (a row's tool is an index into it).
    pub fn tools(&self) -> &NameList {
        &self.tools
    }

    pub fn is_disabled(&self, i: usize) -> bool {
        self.disabled.get(i).copied().unwrap_or(false)
    }

    /// The index that ranks the skills (name, description, body: [`params`]).
    pub fn index(&self) -> Index {
        let docs_fields: Vec<[(Field, &[u16]); 2]> = (0..self.len())
            .map(|i| {
                let s = &self.skills[i];
                let body = self.texts.get(i).get(s.body.0..s.body.1).unwrap_or(&[]);
                [
                    (Field::Description, s.description.as_slice()),
                    (Field::ParamDescription, body),
                ]
            })
            .collect();
        let docs: Vec<ToolDoc> = self
            .skills
            .iter()
            .zip(&docs_fields)
            .map(|(s, texts)| ToolDoc {
                name: &s.name,
                texts,
            })
            .collect();
        Index::build_with(&docs, params(), false)
    }
}

/// A row of a turn (SPEC 9): a relevant skill (its index), one of its tools (an index into
/// [`Skills::tools`], or `NONE` for the row of a skill without tools), whether it is active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub skill: u32,
    pub tool: u32,
    pub active: bool,
}

impl Skills {
    /// The rows for `query` (SPEC 9): its first `limit` skills (hybrid with `vector`), and
    /// when they are fewer, those of the run's last earlier message (`history`) after
    /// them; one row per tool of each, best skill first, or one row without a tool for a
    /// skill with none. A query that ranks nothing gives nothing.
    pub fn rows(
        &self,
        index: &Index,
        query: &[u16],
        vector: Option<(&[f64], &Fusion)>,
        history: Option<&[u16]>,
        limit: usize,
    ) -> Vec<Row> {
        let mut hits: Vec<Hit> = Vec::new();
        index.ranked(query, vector, limit, &mut hits);
        let mut chosen: Vec<u32> = hits.iter().map(|h| h.tool).collect();
        if let (Some(history), true) = (history, chosen.len() < limit) {
            index.search(history, limit, &mut hits);
            for h in &hits {
                if chosen.len() < limit && !chosen.contains(&h.tool) {
                    chosen.push(h.tool);
                }
            }
        }
        let mut rows = Vec::new();
        for &skill in &chosen {
            let active = !self.is_disabled(skill as usize);
            let tools = self.tools_of(skill as usize);
            if tools.is_empty() {
                rows.push(Row {
                    skill,
                    tool: NONE,
                    active,
                });
            }
            rows.extend(tools.map(|t| Row {
                skill,
                tool: t as u32,
                active,
            }));
        }
        rows
    }
}

/// The snapshot of a `SkillIndex`: the magic `TPSKILL\0`, the format version (u32), the
/// payload's length (u32) and its checksum (u64, `snapshot::checksum`); the payload: the
/// skills' texts and paths, their tools and ends, the disabled flags, then the snapshot of
/// the ranking index (`TPINDEX`, with the skills' names) whole. Loading reads the texts
/// again and checks that they are the index's skills, in order.
pub const MAGIC: &[u8; 8] = b"TPSKILL\0";
pub const VERSION: u32 = 1;

fn u32s(out: &mut Vec<u8>, xs: impl ExactSizeIterator<Item = u32>) {
    out.extend_from_slice(&(xs.len() as u32).to_le_bytes());
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

fn list(out: &mut Vec<u8>, l: &NameList) {
    let (units, ends) = l.parts();
    u32s(out, units.iter().map(|&u| u32::from(u)));
    u32s(out, ends.iter().copied());
}

impl Skills {
    /// The snapshot of these skills ranked by `index` (with `fusion` and `limit`).
    pub fn save(&self, index: &Index, fusion: &Fusion, limit: u32) -> Vec<u8> {
        let mut payload = Vec::new();
        list(&mut payload, &self.texts);
        list(&mut payload, &self.paths);
        list(&mut payload, &self.tools);
        u32s(&mut payload, self.ends.iter().copied());
        u32s(&mut payload, self.disabled.iter().map(|&d| u32::from(d)));
        let names = self.skills.iter().map(|s| s.name.as_slice());
        let inner = snapshot::save(index, names, fusion, limit);
        payload.extend_from_slice(&inner);
        let mut out = Vec::with_capacity(24 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&snapshot::checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let b = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.u32()? as usize;
        if n > (self.bytes.len() - self.at) / 4 {
            return None;
        }
        (0..n).map(|_| self.u32()).collect()
    }
    fn list(&mut self) -> Option<NameList> {
        let units = self.u32s()?;
        let units: Option<Vec<u16>> = units.iter().map(|&u| u16::try_from(u).ok()).collect();
        NameList::from_parts(units?, self.u32s()?)
    }
}

/// Reads a snapshot of `Skills::save`: its header and checksum, then the skills (their
/// texts read again, their tools in range), and the ranking index's snapshot inside it,
/// for `snapshot::load` (then [`Skills::ranked_by`]).
pub fn load(bytes: Vec<u8>) -> Result<(Skills, Vec<u8>), SnapshotError> {
    use SnapshotError::*;
    let magic = &bytes[..bytes.len().min(MAGIC.len())];
    if magic != &MAGIC[..magic.len()] {
        return Err(Foreign);
    }
    if bytes.len() < 24 {
        return Err(Truncated {
            had: bytes.len(),
            needed: 24,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(8) != VERSION {
        return Err(Version(word(8)));
    }
    let needed = 24 + u64::from(word(12));
    let had = bytes.len() as u64;
    if had < needed {
        return Err(Truncated {
            had: bytes.len(),
            needed,
        });
    }
    if had > needed {
        return Err(Trailing {
            had: bytes.len(),
            expected: needed,
        });
    }
    let sum = u64::from(word(16)) | u64::from(word(20)) << 32;
    if snapshot::checksum(&bytes[24..]) != sum {
        return Err(Checksum);
    }
    let mut r = Reader {
        bytes: &bytes[24..],
        at: 0,
    };
    let corrupt = Corrupt("the skills");
    let (texts, paths, tools) = (r.list(), r.list(), r.list());
    let (ends, disabled) = (r.u32s(), r.u32s());
    let (Some(texts), Some(paths), Some(tools), Some(ends), Some(disabled)) =
        (texts, paths, tools, ends, disabled)
    else {
        return Err(corrupt);
    };
    let inner = bytes.get(24 + r.at..).unwrap_or_default().to_vec();
    let mut skills = Skills::read(texts, paths).map_err(|_| corrupt)?;
    let n = skills.len();
    let mut prev = 0;
    let ends_ok = ends.len() == n
        && ends.iter().all(|&e| {
            let ok = e >= prev && e as usize <= tools.len();
            prev = e;
            ok
        })
        && prev as usize == tools.len();
    if !ends_ok || disabled.len() != n || disabled.iter().any(|&d| d > 1) {
        return Err(corrupt);
    }
    skills.tools = tools;
    skills.ends = ends;
    skills.disabled = disabled.iter().map(|&d| d == 1).collect();
    Ok((skills, inner))
}

impl Skills {
    /// Whether a loaded ranking index is these skills' (their names, in order): else the
    /// snapshot is refused as corrupt.
    pub fn ranked_by(&self, index: &snapshot::Snapshot) -> Result<(), SnapshotError> {
        let n = self.len();
        let names_ok = index.name_ends.len() == n
            && (0..n).all(|i| {
                let start = if i == 0 {
                    0
                } else {
                    index.name_ends[i - 1] as usize
                };
                index.name_units.get(start..index.name_ends[i] as usize)
                    == Some(self.skills[i].name.as_slice())
            });
        if names_ok && index.index.len() == n {
            Ok(())
        } else {
            Err(SnapshotError::Corrupt("the skills"))
        }
    }
}

/// What is wrong with bytes given to `SkillIndex.load`, as its error says it after naming
/// them, and whether it is a RangeError: a ToolIndex snapshot's words, but for the kind and
/// the version, which are a SkillIndex's.
pub fn refusal(e: &SnapshotError) -> (bool, Vec<u16>) {
    let text = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
    match *e {
        SnapshotError::Foreign => (
            false,
            text(" are not a SkillIndex snapshot (made by skills.save())"),
        ),
        SnapshotError::Version(v) => {
            let mut m = text(" are a SkillIndex snapshot of format version ");
            super::decimal(&mut m, v as usize);
            m.extend(text(
                "; this tool-palette reads version 1: save the skills again with this version",
            ));
            (false, m)
        }
        _ => (e.words().2, e.units()),
    }
}

/// What `load_skill` finds (SPEC 9): a skill to load, one the host turned off, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picked {
    Skill(usize),
    Disabled(usize),
    Nothing,
}

impl Skills {
    /// The skill `load_skill` loads: the one named `name` exactly; else the best of the
    /// search for `query` (or for the name, a model's approximation of one) that is not
    /// disabled; a disabled skill named exactly, or the only ones found, are refused.
    pub fn pick(&self, index: &Index, name: Option<&[u16]>, query: Option<&[u16]>) -> Picked {
        let off = |i: usize| {
            if self.is_disabled(i) {
                Picked::Disabled(i)
            } else {
                Picked::Skill(i)
            }
        };
        if let Some(i) = name.and_then(|n| self.skills.iter().position(|s| s.name == n)) {
            return off(i);
        }
        let Some(q) = query.or(name) else {
            return Picked::Nothing;
        };
        let mut hits = Vec::new();
        index.search(q, self.len(), &mut hits);
        hits.iter()
            .map(|h| off(h.tool as usize))
            .find(|p| matches!(p, Picked::Skill(_)))
            .or_else(|| hits.first().map(|h| off(h.tool as usize)))
            .unwrap_or(Picked::Nothing)
    }

    /// Skill i's tools, as indices into [`Skills::tools`].
    pub fn tool_indices(&self, i: usize) -> Vec<u32> {
        self.tools_of(i).map(|t| t as u32).collect()
    }
}
