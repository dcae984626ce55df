//! Agent Skills (SPEC section 9): reading a `SKILL.md`.
//!
//! A `SKILL.md` is YAML frontmatter between two lines `---`, then markdown. [`parse_skill`]
//! reads the frontmatter with the YAML reader in `yaml.rs` (the YAML real skills use, read
//! as YAML 1.2's core schema, as npm `yaml`, Bun.YAML and serde_yaml read it; see
//! bench/skills/HOSTS.md), then the skill: `name` and `description` are required strings,
//! `allowed-tools` is read into tools and scopes, and each departure from the specification
//! that hosts still load is a [`Warning`]. Text is UTF-16 code units, as JavaScript's
//! strings, so that every string (a lone surrogate too) comes back exactly.

mod float;
pub mod table;
mod yaml;

use alloc::vec::Vec;

use yaml::is;
pub use yaml::Value;

/// The 128-bit key a frontmatter's keys are hashed with (yaml.rs `Entries`, SipHash-1-3):
/// drawn by the module at its first read of a skill (src/js/skills.rs `seeded`), so that a
/// text cannot be written to make its keys collide.
pub static SEED: [core::sync::atomic::AtomicU32; 4] =
    [const { core::sync::atomic::AtomicU32::new(0) }; 4];

/// One entry of `allowed-tools`: `Tool(scope)` or a bare `Tool`.
#[derive(Clone, Debug, PartialEq)]
pub struct AllowedTool {
    pub tool: Vec<u16>,
    /// The text between the parentheses, exactly; None for a bare tool.
    pub scope: Option<Vec<u16>>,
}

/// A parsed `SKILL.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct Skill {
    pub name: Vec<u16>,
    pub description: Vec<u16>,
    /// None: the field is absent.
    pub allowed_tools: Option<Vec<AllowedTool>>,
    /// Every field, in the text's order, as JSON values.
    pub frontmatter: Vec<(Vec<u16>, Value)>,
    /// The markdown after the frontmatter: `text[body.0..body.1]`.
    pub body: (usize, usize),
    /// Each departure from the specification, in the text's order.
    pub warnings: Vec<Warning>,
}

/// A frontmatter read as YAML, whatever its shape (see [`parse_frontmatter`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Frontmatter {
    pub value: Value,
    /// The markdown after the frontmatter: `text[body.0..body.1]`.
    pub body: (usize, usize),
}

/// Why a text is not a skill: a `SyntaxError` in JavaScript.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillError {
    /// 1-based, in the whole text.
    pub line: usize,
    /// The field at fault (a top-level key), if one is.
    pub field: Option<Vec<u16>>,
    pub problem: Problem,
}

/// What is wrong, in a skill author's words ([`Problem::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    NoFrontmatter,
    Unclosed,
    NotMapping,
    Missing,
    NotString,
    ToolsType,
    ColonInPlain,
    TextAfterFlow,
    TextAfterQuote,
    Anchor,
    Alias,
    Tag,
    Directive,
    SecondDocument,
    Tab,
    DuplicateKey,
    Indented,
    Unexpected,
    NotAKey,
    NoKey,
    ComplexKey,
    CollectionKey,
    PairKeyLines,
    SequenceOnKeyLine,
    Indicator,
    UnclosedQuote,
    QuoteIndent,
    Escape,
    BlockHeader,
    BlockLeadingBlank,
    FlowIndent,
    UnclosedFlow,
    FlowExpected,
    Deep,
}

impl Problem {
    pub fn text(self) -> &'static str {
        use Problem::*;
        match self {
            NoFrontmatter => "a SKILL.md begins with a line \"---\", its YAML frontmatter, and another line \"---\"; this text does not",
            Unclosed => "the frontmatter begun here is never closed by a line \"---\"",
            NotMapping => "the frontmatter is not a mapping of fields (\"name: value\" lines)",
            Missing => "the frontmatter lacks this field, which a skill requires",
            NotString => "this field must be a string (quote the value if it reads as a number, a boolean or null)",
            ToolsType => "allowed-tools must be a string of tools (\"Read Grep Bash(git status:*)\") or a list of strings",
            ColonInPlain => "an unquoted value cannot hold \": \" (a colon and a space) or end with \":\": quote the value",
            TextAfterFlow => "text follows a closing bracket: a value that begins with \"[\" or \"{\" is a list or a mapping, so quote the whole value",
            TextAfterQuote => "text follows the closing quote: quote the whole value",
            Anchor => "\"&\" begins a YAML anchor, which a SKILL.md cannot use: quote the value",
            Alias => "\"*\" begins a YAML alias, which a SKILL.md cannot use: quote the value (an unquoted glob such as **/*.md is read as an alias)",
            Tag => "\"!\" begins a YAML tag, which a SKILL.md cannot use: quote the value",
            Directive => "\"%\" begins a YAML directive, which a SKILL.md cannot use: quote the value",
            SecondDocument => "a second YAML document (after \"---\" or \"...\") is not supported",
            Tab => "a tab in indentation: indent with spaces",
            DuplicateKey => "the field appears twice: keep one",
            Indented => "this line is indented more than the value above it belongs to: align it, or quote a multi-line value",
            Unexpected => "this line does not continue the frontmatter above it: check its indentation",
            NotAKey => "this line is not \"field: value\" (a colon and a space after the field's name)",
            NoKey => "a field's name is missing before \":\"",
            ComplexKey => "complex keys (\"? \") are not supported",
            CollectionKey => "a key must be a string, not a list or a mapping",
            PairKeyLines => "a key inside [ ] must be on one line",
            SequenceOnKeyLine => "a list (\"- \") cannot begin here, after a key or inside brackets: begin it on a line of its own, or quote the value",
            Indicator => "a value cannot begin with this character unquoted (one of , [ ] { } # | > @ `): quote the value",
            UnclosedQuote => "the quoted value is never closed",
            QuoteIndent => "a quoted value's next line must be indented more than its field (or its closing quote is missing)",
            Escape => "an invalid escape in a double-quoted value: write \\\\ for a backslash, or use single quotes",
            BlockHeader => "only \"-\" or \"+\", a digit 1-9 and a comment may follow \"|\" or \">\"",
            BlockLeadingBlank => "the block scalar's first lines are blank lines indented more than its text: give an indentation indicator (such as |2)",
            FlowIndent => "a line inside brackets must be indented more than its field",
            UnclosedFlow => "the bracket opened here is never closed",
            FlowExpected => "expected \",\" or a closing bracket",
            Deep => "values are nested more than 64 levels deep",
        }
    }
}

/// A departure from the specification that hosts still load.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// 1-based: the field's line.
    pub line: usize,
    pub field: Vec<u16>,
    pub departure: Departure,
    /// The text the message quotes (a name, a directory, a tool entry), or a count.
    pub detail: Option<Vec<u16>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// detail: the name.
    NameFormat,
    /// detail: the directory's name.
    NameDirectory,
    /// detail: the length in code points.
    DescriptionLong,
    DescriptionEmpty,
    /// detail: the length in code points.
    CompatibilityLong,
    NotString,
    UnknownField,
    MetadataNotStrings,
    ToolsList,
    ToolsEmpty,
    /// detail: the entry.
    ToolParentheses,
}

impl Departure {
    /// The message's parts around the quoted detail (a count is not quoted).
    fn parts(self) -> (&'static str, &'static str) {
        use Departure::*;
        match self {
            NameFormat => ("", " is not a valid name: the specification asks for 1 to 64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row"),
            NameDirectory => ("differs from the skill's directory ", ": the specification asks for the directory's name"),
            DescriptionLong => ("is ", " characters long: the specification allows 1,024 at most, and some hosts refuse or cut a longer one"),
            DescriptionEmpty => ("is empty: the specification asks for what the skill does and when to use it", ""),
            CompatibilityLong => ("is ", " characters long: the specification allows 500 at most"),
            NotString => ("should be a string", ""),
            UnknownField => ("is not a field of the Agent Skills specification (name, description, license, compatibility, metadata, allowed-tools): hosts other than its own ignore it", ""),
            MetadataNotStrings => ("should map strings to strings, as the specification asks", ""),
            ToolsList => ("is a list: the specification asks for a space-delimited string, and some hosts ignore a list", ""),
            ToolsEmpty => ("is empty", ""),
            ToolParentheses => ("", " has unbalanced parentheses: read as a tool name"),
        }
    }
}

/// Appends an ASCII text (every part of a message is) as code units.
fn push(m: &mut Vec<u16>, s: &str) {
    m.extend(s.bytes().map(u16::from));
}

/// `line N, field "F": ` then `before`, the detail (quoted unless a count), `after`.
fn message(
    line: usize,
    field: Option<&[u16]>,
    before: &str,
    detail: Option<(&[u16], bool)>,
    after: &str,
) -> Vec<u16> {
    let mut m = Vec::new();
    push(&mut m, "line ");
    decimal(&mut m, line);
    if let Some(f) = field {
        push(&mut m, ", field \"");
        m.extend_from_slice(f);
        push(&mut m, "\"");
    }
    push(&mut m, ": ");
    push(&mut m, before);
    if let Some((d, quoted)) = detail {
        if quoted {
            push(&mut m, "\"");
        }
        m.extend_from_slice(d);
        if quoted {
            push(&mut m, "\"");
        }
    }
    push(&mut m, after);
    m
}

fn decimal(out: &mut Vec<u16>, mut n: usize) {
    let at = out.len();
    loop {
        out.insert(at, u16::from(b'0') + (n % 10) as u16);
        n /= 10;
        if n == 0 {
            break;
        }
    }
}

impl SkillError {
    /// The message a skill author reads: `line 3, field "description": ...`.
    pub fn message(&self) -> Vec<u16> {
        message(
            self.line,
            self.field.as_deref(),
            self.problem.text(),
            None,
            "",
        )
    }
}

impl Warning {
    /// The message: `line 2, field "name": "My Skill" is not a valid name: ...`.
    pub fn message(&self) -> Vec<u16> {
        let (before, after) = self.departure.parts();
        let count = matches!(
            self.departure,
            Departure::DescriptionLong | Departure::CompatibilityLong
        );
        let detail = self.detail.as_deref().map(|d| (d, !count));
        message(self.line, Some(&self.field), before, detail, after)
    }
}

/// A fault found at a position of the text (converted to a line at the end).
pub(crate) struct Fault {
    pub pos: usize,
    pub problem: Problem,
    pub field: Option<Vec<u16>>,
}

/// The 1-based line of `pos`.
fn line_of(text: &[u16], pos: usize) -> usize {
    1 + text[..pos.min(text.len())]
        .iter()
        .filter(|&&c| c == 0x0A)
        .count()
}

const BOM: u16 = 0xFEFF;

/// Whether `line` is `---` then spaces or tabs (its line break, and a CR before it, excluded).
fn is_fence(line: &[u16]) -> bool {
    let line = line.strip_suffix(&[0x0D]).unwrap_or(line);
    line.len() >= 3 && line[..3] == [0x2D; 3] && line[3..].iter().all(|&c| c == 0x20 || c == 0x09)
}

/// A span of the text: `text[.0...1]`.
type Span = (usize, usize);

/// The frontmatter's span (its whole lines between the fences) and the body's.
fn split(text: &[u16]) -> Result<(Span, Span), SkillError> {
    let start = usize::from(text.first() == Some(&BOM));
    let no = |problem| SkillError {
        line: 1,
        field: None,
        problem,
    };
    let eol = |from: usize| {
        text[from..]
            .iter()
            .position(|&c| c == 0x0A)
            .map(|i| from + i)
    };
    let first_end = eol(start);
    if !is_fence(
        text.get(start..first_end.unwrap_or(text.len()))
            .unwrap_or(&[]),
    ) {
        return Err(no(Problem::NoFrontmatter));
    }
    let Some(first_end) = first_end else {
        return Err(no(Problem::Unclosed));
    };
    let fm = first_end + 1;
    let mut line = fm;
    while line < text.len() {
        let end = eol(line);
        if is_fence(text.get(line..end.unwrap_or(text.len())).unwrap_or(&[])) {
            let body = end.map_or(text.len(), |e| e + 1);
            return Ok(((fm, line), (body, text.len())));
        }
        match end {
            Some(e) => line = e + 1,
            None => break,
        }
    }
    Err(no(Problem::Unclosed))
}

fn error(text: &[u16], f: Fault) -> SkillError {
    SkillError {
        line: line_of(text, f.pos),
        field: f.field,
        problem: f.problem,
    }
}

/// Reads the frontmatter of `text` as YAML, whatever it holds (a mapping, another value,
/// or null when empty): the reading measured against other parsers.
pub fn parse_frontmatter(text: &[u16]) -> Result<Frontmatter, SkillError> {
    let (fm, body) = split(text)?;
    let doc = yaml::read(text, fm.0, fm.1).map_err(|f| error(text, f))?;
    Ok(Frontmatter {
        value: doc.value,
        body,
    })
}

/// Code points (a lone surrogate counts as one): the specification's "characters", as
/// Codex (Rust `chars`), skills-ref and deepagents (Python `len`) count them; JavaScript's
/// `length` would count a character outside the BMP twice.
#[inline(never)]
fn code_points(s: &[u16]) -> usize {
    s.len()
        - s.windows(2)
            .filter(|w| (0xD800..0xDC00).contains(&w[0]) && (0xDC00..0xE000).contains(&w[1]))
            .count()
}

/// The specification's name: 1-64 of `a-z`, `0-9`, `-`; no hyphen first, last or twice.
#[inline(never)]
fn valid_name(name: &[u16]) -> bool {
    (1..=64).contains(&name.len())
        && name
            .iter()
            .all(|&c| matches!(c, 0x61..=0x7A | 0x30..=0x39 | 0x2D))
        && name.first() != Some(&0x2D)
        && name.last() != Some(&0x2D)
        && !name.windows(2).any(|w| w == [0x2D, 0x2D])
}

/// The fields the specification defines; [`field`] numbers them in this order.
const FIELDS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Which of [`FIELDS`] `key` is (6: none).
fn field(key: &[u16]) -> usize {
    FIELDS
        .iter()
        .position(|f| is(key, f))
        .unwrap_or(FIELDS.len())
}

fn fail(line: usize, field: &[u16], problem: Problem) -> SkillError {
    SkillError {
        line,
        field: Some(field.to_vec()),
        problem,
    }
}

#[inline(never)]
fn warn(
    warnings: &mut Vec<Warning>,
    line: usize,
    field: &[u16],
    departure: Departure,
    detail: Option<Vec<u16>>,
) {
    warnings.push(Warning {
        line,
        field: field.to_vec(),
        departure,
        detail,
    });
}

fn count(n: usize) -> Option<Vec<u16>> {
    let mut v = Vec::new();
    decimal(&mut v, n);
    Some(v)
}

/// Parses a `SKILL.md` (SPEC section 9, "Parsing"). `dir_name`: the skill's directory,
/// which its name should equal.
pub fn parse_skill(text: &[u16], dir_name: Option<&[u16]>) -> Result<Skill, SkillError> {
    let (fm, body) = split(text)?;
    let doc = yaml::read(text, fm.0, fm.1).map_err(|f| error(text, f))?;
    let frontmatter = match doc.value {
        Value::Object(entries) => entries,
        Value::Null => Vec::new(),
        _ => {
            return Err(SkillError {
                line: line_of(text, fm.0),
                field: None,
                problem: Problem::NotMapping,
            })
        }
    };
    // Each field's line: its key's (a flow mapping's fields all take the frontmatter's
    // first line), counted on from the line asked before when it is further (fields are
    // asked in order: counting each from the text's start made many fields quadratic).
    let last = core::cell::Cell::new((0, 1));
    let line = |i: usize| {
        let pos = doc.keys.get(i).copied().unwrap_or(fm.0).min(text.len());
        let (at, n) = last.get();
        let (from, n) = if pos >= at { (at, n) } else { (0, 1) };
        let n = n + text[from..pos].iter().filter(|&&c| c == 0x0A).count();
        last.set((pos, n));
        n
    };
    let (name, description, allowed_tools, warnings) = fields(&frontmatter, dir_name, line)?;
    Ok(Skill {
        name,
        description,
        allowed_tools,
        frontmatter,
        body,
        warnings,
    })
}

/// The skill's fields from the frontmatter's entries (borrowed, so that an error drops
/// them in one place): name, description, allowed-tools and the warnings. `line(i)`: the
/// line of entry `i`, counted when needed (once per field) rather than kept in a table.
/// It and the small helpers it calls stay out of line: inlined, each weighs more in the
/// wasm (measured).
#[allow(clippy::type_complexity)]
#[inline(never)]
fn fields(
    frontmatter: &[(Vec<u16>, Value)],
    dir_name: Option<&[u16]>,
    line: impl Fn(usize) -> usize,
) -> Result<(Vec<u16>, Vec<u16>, Option<Vec<AllowedTool>>, Vec<Warning>), SkillError> {
    // name and description: required strings
    let mut required: [&[u16]; 2] = [&[], &[]];
    for (kind, slot) in required.iter_mut().enumerate() {
        let Some(i) = frontmatter.iter().position(|(k, _)| field(k) == kind) else {
            let name = FIELDS[kind].bytes().map(u16::from).collect();
            return Err(SkillError {
                line: 1,
                field: Some(name),
                problem: Problem::Missing,
            });
        };
        match &frontmatter[i].1 {
            Value::String(s) => *slot = s,
            _ => return Err(fail(line(i), &frontmatter[i].0, Problem::NotString)),
        }
    }
    let [name, description] = required;

    let mut warnings = Vec::new();
    let mut allowed_tools = None;
    for (i, (key, value)) in frontmatter.iter().enumerate() {
        let at = line(i);
        let mut warn = |departure, detail| warn(&mut warnings, at, key, departure, detail);
        match (field(key), value) {
            (0, _) => {
                if !valid_name(name) {
                    warn(Departure::NameFormat, Some(name.to_vec()));
                }
                match dir_name {
                    Some(dir) if dir != name => warn(Departure::NameDirectory, Some(dir.to_vec())),
                    _ => {}
                }
            }
            (1, _) => {
                let n = code_points(description);
                if n > 1024 {
                    warn(Departure::DescriptionLong, count(n));
                }
                let (start, end) = crate::names::trim_bounds(description);
                if start == end {
                    warn(Departure::DescriptionEmpty, None);
                }
            }
            (3, Value::String(s)) if code_points(s) > 500 => {
                warn(Departure::CompatibilityLong, count(code_points(s)))
            }
            (2 | 3, Value::String(_)) => {}
            (2 | 3, _) => warn(Departure::NotString, None),
            (4, Value::Object(entries))
                if entries.iter().all(|(_, v)| matches!(v, Value::String(_))) => {}
            (4, _) => warn(Departure::MetadataNotStrings, None),
            (5, _) => {
                let mut tools = Vec::new();
                let mut odd = Vec::new();
                let items = match value {
                    Value::String(_) => core::slice::from_ref(value),
                    Value::Null => {
                        warn(Departure::ToolsEmpty, None);
                        &[]
                    }
                    Value::Array(items) => {
                        warn(Departure::ToolsList, None);
                        items.as_slice()
                    }
                    _ => &[Value::Null],
                };
                for item in items {
                    let Value::String(s) = item else {
                        return Err(fail(at, key, Problem::ToolsType));
                    };
                    split_tools(s, &mut tools, &mut odd);
                }
                for entry in odd {
                    warn(Departure::ToolParentheses, Some(entry));
                }
                allowed_tools = Some(tools);
            }
            _ => warn(Departure::UnknownField, None),
        }
    }
    Ok((name.to_vec(), description.to_vec(), allowed_tools, warnings))
}

/// Splits `allowed-tools` on white space and commas outside parentheses (both separators
/// are used in the wild: bench/skills/HOSTS.md, point 9). `Tool(scope)` keeps the scope's
/// text exactly (spaces, colons and commas included); an entry whose parentheses do not
/// balance is kept whole as a tool name, and listed in `odd`. A list's strings are split
/// the same way (a `Bash(git diff:*)` stays whole; `"Read Grep"` is two tools).
#[inline(never)]
fn split_tools(s: &[u16], tools: &mut Vec<AllowedTool>, odd: &mut Vec<Vec<u16>>) {
    let mut depth = 0usize;
    let mut start = 0;
    for i in 0..=s.len() {
        let c = s.get(i).copied();
        match c {
            Some(0x28) => depth += 1,
            Some(0x29) => depth = depth.saturating_sub(1),
            _ => {}
        }
        let boundary = match c {
            None => true,
            Some(0x20 | 0x09 | 0x0A | 0x0D | 0x2C) => depth == 0,
            _ => false,
        };
        if boundary {
            if i > start {
                tools.push(tool(&s[start..i], odd));
            }
            start = i + 1;
        }
    }
}

/// One entry: `Tool(scope)` when a name is followed by a "(" that the entry's last ")"
/// closes; a bare tool when it has no parentheses; else the entry as it is, listed in `odd`.
#[inline(never)]
fn tool(entry: &[u16], odd: &mut Vec<Vec<u16>>) -> AllowedTool {
    let mut depth = 0i32;
    let mut unbalanced = false;
    let mut first_close = None;
    for (i, &c) in entry.iter().enumerate() {
        if c == 0x28 {
            depth += 1;
        } else if c == 0x29 {
            depth -= 1;
            unbalanced |= depth < 0;
            if depth == 0 && first_close.is_none() {
                first_close = Some(i);
            }
        }
    }
    let open = entry.iter().position(|&c| c == 0x28);
    let mut scope = None;
    match open {
        Some(o) if o > 0 && !unbalanced && depth == 0 && first_close == Some(entry.len() - 1) => {
            scope = Some(entry.get(o + 1..entry.len() - 1).unwrap_or(&[]).to_vec());
        }
        None if !unbalanced => {}
        _ => odd.push(entry.to_vec()),
    }
    AllowedTool {
        tool: entry[..open.filter(|_| scope.is_some()).unwrap_or(entry.len())].to_vec(),
        scope,
    }
}
